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

import ctypes
import os
import sys
import sysconfig
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from child_process import ChildProcess

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
    PickNik's plugin (the rig's README). Made once, beside the unpacked rig."""
    prefix = RIG_ROOT / "picknik"
    markers = prefix / _MARKERS
    if markers.is_dir():
        return prefix
    staging = Path(tempfile.mkdtemp(prefix="picknik.", dir=RIG_ROOT))
    for top in INSTALL.iterdir():
        if top.name != "share":
            (staging / top.name).symlink_to(top)
    for path in (
        Path("share"),
        Path("share") / "ament_index",
        Path("share") / "ament_index" / "resource_index",
    ):
        (staging / path).mkdir()
        for entry in (INSTALL / path).iterdir():
            keep = path / entry.name
            if keep not in (
                Path("share") / "ament_index",
                Path("share") / "ament_index" / "resource_index",
                _MARKERS,
            ):
                (staging / keep).symlink_to(entry)
    (staging / _MARKERS).mkdir()
    for marker in (INSTALL / _MARKERS).iterdir():
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
    ``env.sh`` sets it for this interpreter's venv: LD_LIBRARY_PATH, AMENT_PREFIX_PATH (for
    PickNik's ``plugin``: :func:`picknik_prefix`), PYTHONPATH and LD_PRELOAD (libpython: the
    wheels' librcl pulls in Python message libraries)."""
    env = dict(os.environ if base is None else base)
    venv = Path(sys.prefix)
    site = venv / "lib" / _PY / "site-packages"
    libs = [str(INSTALL / "lib"), str(venv / "lib"), *sorted(str(p) for p in site.glob("*.libs"))]
    prefix = picknik_prefix() if plugin == PICKNIK else INSTALL
    env["LD_LIBRARY_PATH"] = os.pathsep.join(
        libs + ([env["LD_LIBRARY_PATH"]] if env.get("LD_LIBRARY_PATH") else [])
    )
    env["AMENT_PREFIX_PATH"] = os.pathsep.join([str(prefix), str(venv)])
    env["PYTHONPATH"] = os.pathsep.join(
        [str(INSTALL / "lib" / _PY / "site-packages")]
        + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    env["LD_PRELOAD"] = os.path.join(
        sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("INSTSONAME")
    )
    return env


def import_rig_messages() -> None:
    """Make the rig's ``controller_manager_msgs`` and ``control_msgs`` importable in this
    process: their libraries are loaded by path (they have no run path, and this process's
    library path was fixed at its start) and their Python packages put on ``sys.path``."""
    site = str(INSTALL / "lib" / _PY / "site-packages")
    if site in sys.path:
        return
    for package in ("controller_manager_msgs", "control_msgs"):
        for kind in (
            "rosidl_generator_c",
            "rosidl_typesupport_c",
            "rosidl_typesupport_introspection_c",
            "rosidl_typesupport_fastrtps_c",
            "rosidl_generator_py",
        ):
            ctypes.CDLL(str(INSTALL / "lib" / f"lib{package}__{kind}.so"), mode=ctypes.RTLD_GLOBAL)
    sys.path.insert(0, site)


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


class ControllerManagerClient:
    """Loads, configures and switches controllers through the controller_manager's services,
    as ``spawner`` does.

    A service response can be lost while DDS discovery still matches a new client's response
    reader (rmw: "failed to send response ... (timeout)"): the clients are made at once and
    given time to match, and a request whose response does not come is checked against
    ``list_controllers`` (every request here can be judged by the controllers' states).

    Args:
        node: an rclpy node; ``spin_until(future, timeout)`` a callable that spins it until
            the future is done or ``timeout`` s have passed (``future`` ``None``: just spin).
        manager: the controller_manager's node name (``/ns/controller_manager``).
        timeout: s for the services to appear.

    Raises:
        RuntimeError: the services do not appear in ``timeout`` s.
    """

    RESPONSE_TIMEOUT = 5.0  # s for one response

    def __init__(
        self,
        node: Any,
        spin_until: Any,
        manager: str = "/controller_manager",
        timeout: float = 30.0,
    ) -> None:
        import_rig_messages()
        from controller_manager_msgs import srv

        self.srv = srv
        self.node = node
        self.spin_until = spin_until
        self.manager = manager.rstrip("/")
        types = {
            "load_controller": srv.LoadController,
            "configure_controller": srv.ConfigureController,
            "switch_controller": srv.SwitchController,
            "list_controllers": srv.ListControllers,
        }
        self._clients = {
            name: node.create_client(t, f"{self.manager}/{name}") for name, t in types.items()
        }
        end = time.monotonic() + timeout
        while not all(c.service_is_ready() for c in self._clients.values()):
            if time.monotonic() > end:
                raise RuntimeError(f"the services of {self.manager} did not appear in {timeout} s")
            spin_until(None, 0.05)
        spin_until(None, 0.5)  # the response readers match the servers' writers meanwhile

    def call(self, name: str, request: Any) -> Any:
        """Call ``<manager>/<name>``; the response, or ``None`` when none came in time."""
        future = self._clients[name].call_async(request)
        self.spin_until(future, self.RESPONSE_TIMEOUT)
        if not future.done():
            self._clients[name].remove_pending_request(future)
            return None
        return future.result()

    def states(self) -> dict[str, str]:
        """Controller name → its state (``unconfigured``, ``inactive``, ``active``, …).

        Raises:
            RuntimeError: no response in three tries.
        """
        for _ in range(3):
            response = self.call("list_controllers", self.srv.ListControllers.Request())
            if response is not None:
                return {c.name: c.state for c in response.controller}
        raise RuntimeError(f"{self.manager}/list_controllers did not answer")

    def load(self, *names: str) -> None:
        """Load and configure each controller of ``names`` (type and parameters from the
        controllers file).

        Raises:
            RuntimeError: naming the one that fails.
        """
        for name in names:
            for service, srv_type, state in (
                ("load_controller", self.srv.LoadController, "unconfigured"),
                ("configure_controller", self.srv.ConfigureController, "inactive"),
            ):
                response = self.call(service, srv_type.Request(name=name))
                if response is None and self.states().get(name) in (state, "inactive"):
                    continue  # done; only its response was lost
                if response is None or not response.ok:
                    raise RuntimeError(f"{service} {name} failed (states: {self.states()})")

    def switch(self, activate: Sequence[str] = (), deactivate: Sequence[str] = ()) -> None:
        """Activate / deactivate controllers at once (strict).

        Raises:
            RuntimeError: the switch is refused.
        """
        request = self.srv.SwitchController.Request(
            activate_controllers=list(activate),
            deactivate_controllers=list(deactivate),
            strictness=self.srv.SwitchController.Request.STRICT,
        )
        response = self.call("switch_controller", request)
        if response is None:
            states = self.states()
            if all(states.get(n) == "active" for n in activate) and all(
                states.get(n) != "active" for n in deactivate
            ):
                return
        if response is None or not response.ok:
            raise RuntimeError(
                f"switch_controller {list(activate)} / {list(deactivate)} failed "
                f"({getattr(response, 'message', 'no response')})"
            )
