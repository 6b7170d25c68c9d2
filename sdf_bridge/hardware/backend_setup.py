"""The backend of a hardware system, set up, and whether it simulates.

:func:`backend_port` creates the backend from a name (:func:`~sdf_bridge.backends.create_backend`)
or puts a given one behind the joint-space port
(:func:`~sdf_bridge.backends.backend_registry.as_backend`) and names it for messages and
diagnostics; once the transmission map is built (for a simulated robot or real actuators:
:func:`~sdf_bridge.backends.base.is_simulated_robot`), :func:`configure_backend` configures it with
:func:`backend_parameters`: the ``<hardware><param>``\\ s of the description's ``<ros2_control>``
blocks, overridden by the caller's (the node's ``backend_params.*``). :func:`simulates` and
:func:`simulator` tell a backend that can pause and step (MuJoCo) from one that cannot (the mock, a
driver of real hardware). :func:`unread_feedback` tells joints asking for wrench feedback that a
backend does not read (the mock)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from ..backends.backend_registry import as_backend, create_backend
from ..backends.base import Backend, reads_joint_wrenches
from ..description.feedback import feedback_joints
from ..description.model import Robot
from ..errors import BackendError
from ..transmissions import TransmissionMap
from .topic_block import TOPIC_BASED_PLUGINS

_LOG = logging.getLogger(__name__)


def backend_parameters(robot: Robot, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """The ``<hardware><param>``\\ s of the robot's blocks (strings, as written), then
    ``overrides``. A block for ros2_control's topic-based plugins
    (:data:`~.topic_block.TOPIC_BASED_PLUGINS`) holds that plugin's parameters (its topics),
    not the backend's: they are left out, silently. A parameter two blocks give different
    values takes the later block's, with a warning naming both values."""
    params: dict[str, Any] = {}
    for block in robot.ros2_control:
        if block.plugin in TOPIC_BASED_PLUGINS:
            continue
        for key, value in block.parameters:
            if key in params and params[key] != value:
                _LOG.warning(
                    "<ros2_control> hardware parameter %r differs between blocks (%r, %r); "
                    "using %r from block %r",
                    key,
                    params[key],
                    value,
                    value,
                    block.name,
                )
            params[key] = value
    params.update(overrides or {})
    return params


def backend_port(backend: Backend | Any | str) -> tuple[Backend, str]:
    """The backend of a hardware system behind the joint-space port, not yet configured (the
    transmission map it is configured with depends on it:
    :func:`~sdf_bridge.backends.base.is_simulated_robot`).

    Args:
        backend: a joint-space :class:`~sdf_bridge.backends.base.Backend`, an
            :class:`~sdf_bridge.backends.base.ActuatorDriver` (put behind an
            :class:`~sdf_bridge.backends.actuator_port.ActuatorPort`), or a backend name for
            :func:`~sdf_bridge.backends.create_backend`.

    Returns:
        ``(port, name)``: the backend behind the joint-space port, and its name: the name
        given, else the ``name`` attribute or the class name of the object given (of the
        driver, when it is put behind a port).

    Raises:
        BackendError: the backend cannot be created or put behind the port.
    """
    port = create_backend(backend) if isinstance(backend, str) else as_backend(backend)
    name = backend if isinstance(backend, str) else getattr(backend, "name", type(backend).__name__)
    return port, name


def configure_backend(
    port: Backend,
    robot: Robot,
    transmissions: TransmissionMap,
    overrides: Mapping[str, Any] | None,
) -> None:
    """Configure ``port`` (from :func:`backend_port`) for ``robot`` and its ``transmissions``
    with :func:`backend_parameters` (``overrides``: the caller's backend parameters).

    Raises:
        BackendError, ConfigError: from the backend (the robot or a parameter cannot be served).
    """
    port.configure(robot, transmissions=transmissions, params=backend_parameters(robot, overrides))


def simulates(backend: Any) -> bool:
    """Whether ``backend`` simulates: it can pause and step (``pause`` and ``step`` methods)."""
    return callable(getattr(backend, "pause", None)) and callable(getattr(backend, "step", None))


def simulator(backend: Any, name: str) -> Any:
    """``backend``, to pause or step, when it simulates (:func:`simulates`).

    Raises:
        BackendError: it does not simulate (the message names it as ``name``).
    """
    if not simulates(backend):
        raise BackendError(
            f"backend {name!r} does not simulate: it cannot pause or step. "
            "Fix: use a simulating backend (mujoco)."
        )
    return backend


def unread_feedback(
    robot: Robot, backend: Any, name: str, requested: Iterable[str] = ()
) -> str | None:
    """The message for joints of ``robot`` asking for wrench feedback that ``backend`` (named
    ``name``) does not read (:func:`~sdf_bridge.backends.base.reads_joint_wrenches` false: the
    mock, a driver that does not say so): they publish nothing. ``None`` when no joint asks or
    the backend reads them. ``requested``: the joints the node's ``joint_feedback`` parameter
    names (the others ask in the description)."""
    joints = feedback_joints(robot)
    if not joints or reads_joint_wrenches(backend):
        return None
    named = [j for j in joints if j in set(requested)]
    described = [j for j in joints if j not in named]
    sources = ([f"joint_feedback {named}"] if named else []) + (
        [f"the description's <provide_feedback> {described}"] if described else []
    )
    fix = "use the mujoco backend (backend:=mujoco)"
    if named:
        fix += ", or leave joint_feedback unset"
    return (
        f"backend {name!r} computes no joint wrenches: the joints asking for wrench feedback "
        f"({' and '.join(sources)}) publish no ~/joint_wrench topic. Fix: {fix}"
    )
