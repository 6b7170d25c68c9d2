"""The shared ros2_control rig (``shared/rigs/ros2_control``: the real controller_manager,
controllers and topic-based hardware interfaces built for this machine), for the tests and
``bench/ros2_control.py``.

``.ci/setup`` unpacks it into ``.venv/ros2_control/install`` (``$SDF_BRIDGE_ROS2_CONTROL_RIG``
overrides the folder). This module knows where it is (:func:`rig_problem` says why it cannot
run), builds the environment its C++ processes need (the rig's ``env.sh``, as Python:
:func:`rig_environment`), runs its ``ros2_control_node`` (:class:`ControllerManager`) and
talks to it through the controller_manager services from an rclpy node
(:class:`ControllerManagerClient`; the rig's ``spawner`` needs ros2cli, which is not on PyPI).
Plain Python (no pytest): ``test/prerequisites.py`` turns :func:`rig_problem` into a skip.

Plugins: both topic-based plugins register ``topic_based_ros2_control/TopicBasedSystem``
(pluginlib may pick either); for PickNik's, :func:`rig_environment` gives the processes an
ament prefix in which the successor's plugin marker is hidden (:func:`picknik_prefix`).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from child_process import ChildProcess

from sdf_bridge.ros.controller_manager import ControllerManagerClient as _Client

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SDF_BRIDGE_SHARED", REPO.parent / "shared"))
RIG_SOURCE = SHARED / "rigs" / "ros2_control"
RIG_ROOT = Path(os.environ.get("SDF_BRIDGE_ROS2_CONTROL_RIG", REPO / ".venv" / "ros2_control"))
INSTALL = RIG_ROOT / "install"
NODE = INSTALL / "lib" / "controller_manager" / "ros2_control_node"

SUCCESSOR = "joint_state_topic_hardware_interface/JointStateTopicSystem"
PICKNIK = "topic_based_ros2_control/TopicBasedSystem"
_MARKERS = (
    Path("share") / "ament_index" / "resource_index" / "hardware_interface__pluginlib__plugin"
)
_PY = f"python{sys.version_info[0]}.{sys.version_info[1]}"


def rig_problem() -> str | None:
    """Why the rig cannot run here (a sentence naming the fix), or ``None`` when it can."""
    if NODE.is_file():
        return None
    if not (RIG_SOURCE / "install.tar.gz").is_file():
        return (
            f"ros2_control rig not found at {RIG_SOURCE}: put the project's shared/ folder "
            "beside the checkout (or set SDF_BRIDGE_SHARED) and run bash .ci/setup"
        )
    return f"ros2_control rig not unpacked at {RIG_ROOT}: run bash .ci/setup"


def picknik_prefix() -> Path:
    """An ament prefix mirroring the rig's (symbolic links) without the successor's plugin
    marker, so that pluginlib resolves ``topic_based_ros2_control/TopicBasedSystem`` to
    PickNik's plugin (the rig's README). Made once, beside the unpacked rig; its links point at
    the rig's real path (not through a symbolic link such as a worktree's ``.venv``), and a
    mirror whose links no longer resolve is made again."""
    prefix = RIG_ROOT / "picknik"
    markers = prefix / _MARKERS
    if markers.is_dir() and (prefix / "share" / "controller_interface").exists():
        return prefix
    if prefix.is_dir():
        shutil.rmtree(prefix, ignore_errors=True)
    install = INSTALL.resolve()
    staging = Path(tempfile.mkdtemp(prefix="picknik.", dir=RIG_ROOT))
    for top in install.iterdir():
        if top.name != "share":
            (staging / top.name).symlink_to(top)
    for path in (
        Path("share"),
        Path("share") / "ament_index",
        Path("share") / "ament_index" / "resource_index",
    ):
        (staging / path).mkdir()
        for entry in (install / path).iterdir():
            keep = path / entry.name
            if keep not in (
                Path("share") / "ament_index",
                Path("share") / "ament_index" / "resource_index",
                _MARKERS,
            ):
                (staging / keep).symlink_to(entry)
    (staging / _MARKERS).mkdir()
    for marker in (install / _MARKERS).iterdir():
        if marker.name != "joint_state_topic_hardware_interface":
            (staging / _MARKERS / marker.name).symlink_to(marker)
    try:
        staging.rename(prefix)
    except OSError:  # made meanwhile by another process
        pass
    return prefix


def rig_environment(
    plugin: str = SUCCESSOR, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """``base`` (default ``os.environ``) with what the rig's C++ processes need, as its
    ``env.sh`` sets it for this interpreter's venv
    (:func:`sdf_bridge.ros.controller_manager.manager_environment`), with the ament prefix of
    PickNik's ``plugin`` (:func:`picknik_prefix`) for that one."""
    from sdf_bridge.ros.controller_manager import manager_environment

    prefix = picknik_prefix() if plugin == PICKNIK else None
    return manager_environment(INSTALL, base, ament_prefix=prefix)


def import_rig_messages() -> None:
    """Make the rig's ``controller_manager_msgs`` and ``control_msgs`` importable in this
    process (:func:`sdf_bridge.ros.controller_manager.import_manager_messages`)."""
    from sdf_bridge.ros.controller_manager import import_manager_messages

    import_manager_messages(INSTALL)


class ControllerManager(ChildProcess):
    """The rig's ``ros2_control_node`` in a child process. It takes the robot description from
    the ``robot_description`` topic (as in Kilted), e.g. the bridge's.

    Args:
        controllers_file: the controllers YAML (``controller_manager: ros__parameters:``).
        plugin: the topic-based plugin the description's block names (selects the ament prefix).
        namespace: of the node (``""`` = none).
        extra: further ROS arguments.
    """

    def __init__(
        self,
        controllers_file: str | os.PathLike[str],
        *,
        plugin: str = SUCCESSOR,
        namespace: str = "",
        extra: Sequence[str] = (),
    ) -> None:
        argv = [str(NODE), "--ros-args", "--params-file", str(controllers_file)]
        if namespace:
            argv += ["-r", f"__ns:=/{namespace.strip('/')}"]
        super().__init__(argv + list(extra), env=rig_environment(plugin))


class ControllerManagerClient(_Client):
    """:class:`sdf_bridge.ros.controller_manager.ControllerManagerClient` with the rig's
    messages imported first."""

    def __init__(
        self,
        node: Any,
        spin_until: Any,
        manager: str = "/controller_manager",
        timeout: float = 30.0,
    ) -> None:
        import_rig_messages()
        super().__init__(node, spin_until, manager, timeout)
