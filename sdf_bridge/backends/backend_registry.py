"""Backends by name: the built-ins and plug-ins of the ``sdf_bridge.backends`` entry-point group.

Built-ins: ``mock`` (:class:`sdf_bridge.backends.mock.MockBackend`, an actuator driver) and
``mujoco`` (``sdf_bridge.backends.mujoco``, joint space, imported only when asked for, so that
the mujoco package is not loaded by a bridge that does not use it).

A user's driver plugs in like a ros2_control hardware plugin, through its package metadata::

    [project.entry-points."sdf_bridge.backends"]
    my_driver = "my_pkg.driver:MyDriver"   # a class (or factory) taking no arguments

A plug-in cannot replace a built-in name; such an entry point is ignored with a warning.
Whatever is created is returned behind the one joint-space port (:func:`as_backend`): a
joint-space :class:`~sdf_bridge.backends.base.Backend` as it is, an
:class:`~sdf_bridge.backends.base.ActuatorDriver` inside an
:class:`~sdf_bridge.backends.actuator_port.ActuatorPort`.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from importlib import metadata
from typing import Any

from ..errors import BackendError
from .actuator_port import ActuatorPort
from .base import ActuatorDriver, Backend

_LOG = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "sdf_bridge.backends"


def _load_mock() -> Callable[[], Any]:
    from .mock import MockBackend

    return MockBackend


def _load_mujoco() -> Callable[[], Any]:
    # through importlib so that the mujoco package is loaded only when this backend is asked for
    return importlib.import_module(f"{__package__}.mujoco").MujocoBackend


_BUILTINS: dict[str, Callable[[], Callable[[], Any]]] = {"mock": _load_mock, "mujoco": _load_mujoco}


def _entry_points() -> dict[str, metadata.EntryPoint]:
    """Entry points of the ``sdf_bridge.backends`` group, built-in names excluded (warned)."""
    found: dict[str, metadata.EntryPoint] = {}
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name in _BUILTINS:
            _LOG.warning(
                "backend entry point %r (%s) ignored: %r is a built-in backend name; "
                "register it under another name",
                entry.name,
                entry.value,
                entry.name,
            )
            continue
        found.setdefault(entry.name, entry)
    return found


def available_backends() -> list[str]:
    """Names accepted by :func:`create_backend`: built-ins, then plug-ins, each group sorted."""
    return sorted(_BUILTINS) + sorted(_entry_points())


def create_backend(name: str) -> Backend:
    """A new, not yet configured backend called ``name``.

    Args:
        name: ``"mock"``, ``"mujoco"`` or the name of an ``sdf_bridge.backends`` entry point.

    Returns:
        The backend behind the joint-space port (:func:`as_backend`; call ``configure`` next).

    Raises:
        BackendError: unknown name (the message lists the available ones), a plug-in that fails
            to import or construct, or an object that does not implement the
            :class:`~sdf_bridge.backends.base.Backend` protocol.
    """
    if name in _BUILTINS:
        try:
            factory = _BUILTINS[name]()
        except BackendError:
            raise
        except ImportError as exc:
            raise BackendError(
                f"backend {name!r} cannot be imported: {exc}. "
                f"Fix: install its dependencies (e.g. pip install {name})."
            ) from exc
        origin = f"built-in backend {name!r}"
    else:
        entries = _entry_points()
        entry = entries.get(name)
        if entry is None:
            raise BackendError(
                f"unknown backend {name!r}. Fix: use one of {', '.join(available_backends())}, "
                f"or install a package that registers {name!r} in the "
                f"{ENTRY_POINT_GROUP!r} entry-point group."
            )
        try:
            factory = entry.load()
        except Exception as exc:  # a plug-in may fail in any way on import
            raise BackendError(
                f"backend plug-in {name!r} ({entry.value}) failed to load: {exc}. "
                "Fix: check that its package is installed and importable."
            ) from exc
        origin = f"backend plug-in {name!r} ({entry.value})"
    try:
        backend = factory()
    except Exception as exc:
        raise BackendError(f"{origin} could not be constructed: {exc}") from exc
    return as_backend(backend, origin)


def as_backend(backend: object, origin: str | None = None) -> Backend:
    """``backend`` behind the joint-space port: a :class:`Backend` (``joint_space`` true) as
    it is, an :class:`~sdf_bridge.backends.base.ActuatorDriver` in an
    :class:`~sdf_bridge.backends.actuator_port.ActuatorPort`.

    Raises:
        BackendError: neither (the message names ``origin``, default the object's type).
    """
    if getattr(backend, "joint_space", False) is True and isinstance(backend, Backend):
        return backend
    if isinstance(backend, ActuatorDriver):
        return ActuatorPort(backend)
    raise BackendError(
        f"{origin or 'the backend'} gave a {type(backend).__name__}, which does not implement "
        "the Backend protocol (joint_space = True; configure, read, write, reset, close in "
        "joint space) nor the ActuatorDriver protocol (configure, read, write, reset, close "
        "in actuator space). Fix: implement sdf_bridge.backends.base.ActuatorDriver (see "
        "sdf_bridge.backends.actuator_port)."
    )
