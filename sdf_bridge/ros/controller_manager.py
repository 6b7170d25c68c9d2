"""The real ros2_control ``controller_manager`` as the bridge's partner: where its
``ros2_control_node`` is, the environment it needs, and a client of its services.

* :func:`find_manager`: the ament prefix holding ``lib/controller_manager/ros2_control_node``,
  found as on a ROS installation (``AMENT_PREFIX_PATH``), else in a prebuilt prefix beside this
  Python (``$SDF_BRIDGE_ROS2_CONTROL_RIG/install``, ``<sys.prefix>/ros2_control/install``, where
  the project's ``.ci/setup`` unpacks the shared rig).
* :func:`manager_environment`: what the node's process needs from that prefix. A ROS
  installation's prefix carries its own ``librcl``: the prefix is added to ``AMENT_PREFIX_PATH``
  and ``LD_LIBRARY_PATH``. A prefix built against the ROS 2 wheels of PyPI (no ``librcl`` of its
  own) also gets this venv's libraries and ``LD_PRELOAD`` of libpython (the wheels' ``librcl``
  pulls in Python message libraries that leave libpython symbols unresolved in a C++ process).
* :func:`import_manager_messages`: ``controller_manager_msgs`` importable in this process,
  from the prefix when it is not already (its libraries loaded by path: this process's library
  path was fixed at its start).
* :class:`ControllerManagerClient`: load, configure and switch controllers through the
  controller_manager's services, as ``spawner`` does (which needs ros2cli's ``ros2param``).
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import sys
import sysconfig
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError

NODE = Path("lib") / "controller_manager" / "ros2_control_node"
_PY = f"python{sys.version_info[0]}.{sys.version_info[1]}"
MANAGER_INSTALL_HINT = (
    "Fix: install ros2_control and ros2_controllers (apt install ros-<distro>-ros2-control "
    "ros-<distro>-ros2-controllers) and source /opt/ros/<distro>/setup.bash, or, in this "
    "project's checkout, run bash .ci/setup (it unpacks the prebuilt rig into "
    ".venv/ros2_control), or set SDF_BRIDGE_ROS2_CONTROL_RIG to the folder holding its install/."
)


def candidate_prefixes(
    env: Mapping[str, str] | None = None, venv: Path | None = None
) -> list[Path]:
    """Where :func:`find_manager` looks, in order (module doc); ``env`` default
    ``os.environ``, ``venv`` default ``sys.prefix``."""
    env = os.environ if env is None else env
    prefixes = [Path(p) for p in env.get("AMENT_PREFIX_PATH", "").split(os.pathsep) if p]
    if env.get("SDF_BRIDGE_ROS2_CONTROL_RIG"):
        prefixes.append(Path(env["SDF_BRIDGE_ROS2_CONTROL_RIG"]) / "install")
    prefixes.append(Path(sys.prefix if venv is None else venv) / "ros2_control" / "install")
    return prefixes


def find_manager(env: Mapping[str, str] | None = None, venv: Path | None = None) -> Path:
    """The prefix whose ``lib/controller_manager/ros2_control_node`` is an executable.

    Raises:
        ConfigError: none of :func:`candidate_prefixes` has it (the message lists where it
            looked and what to install).
    """
    prefixes = candidate_prefixes(env, venv)
    for prefix in prefixes:
        if os.access(prefix / NODE, os.X_OK):
            return prefix
    raise ConfigError(
        "the controller_manager (controller_manager/ros2_control_node) is not installed: "
        f"not in {', '.join(str(p) for p in prefixes)}. {MANAGER_INSTALL_HINT}"
    )


def _join(*parts: str | None) -> str:
    return os.pathsep.join(p for p in parts if p)


def manager_environment(
    prefix: Path,
    base: Mapping[str, str] | None = None,
    ament_prefix: Path | None = None,
) -> dict[str, str]:
    """``base`` (default ``os.environ``) with what ``prefix``'s ``ros2_control_node`` needs
    (module doc); ``ament_prefix`` replaces ``prefix`` in ``AMENT_PREFIX_PATH`` (a mirror of it,
    e.g. with a plugin's marker hidden)."""
    env = dict(os.environ if base is None else base)
    lib = str(prefix / "lib")
    ament = str(ament_prefix or prefix)
    if (prefix / "lib" / "librcl.so").exists():  # a ROS installation's own
        env["LD_LIBRARY_PATH"] = _join(lib, env.get("LD_LIBRARY_PATH"))
        env["AMENT_PREFIX_PATH"] = _join(ament, env.get("AMENT_PREFIX_PATH"))
        return env
    venv = Path(sys.prefix)
    site = venv / "lib" / _PY / "site-packages"
    libs = [lib, str(venv / "lib"), *sorted(str(p) for p in site.glob("*.libs"))]
    env["LD_LIBRARY_PATH"] = _join(*libs, env.get("LD_LIBRARY_PATH"))
    env["AMENT_PREFIX_PATH"] = _join(ament, str(venv))
    env["PYTHONPATH"] = _join(str(prefix / "lib" / _PY / "site-packages"), env.get("PYTHONPATH"))
    env["LD_PRELOAD"] = os.path.join(
        sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("INSTSONAME")
    )
    return env


def import_manager_messages(prefix: Path) -> None:
    """Make ``controller_manager_msgs`` (and ``control_msgs``, when ``prefix`` has it)
    importable here (module doc); nothing when they already are.

    Raises:
        ConfigError: ``prefix`` does not have them either.
    """
    try:
        import controller_manager_msgs.srv  # noqa: F401  (only whether it imports)

        return
    except ImportError:
        pass
    site = prefix / "lib" / _PY / "site-packages"
    if not (site / "controller_manager_msgs").is_dir():
        raise ConfigError(
            f"Python package controller_manager_msgs is neither importable nor in {site}. "
            f"{MANAGER_INSTALL_HINT}"
        )
    for package in ("controller_manager_msgs", "control_msgs"):
        if not (site / package).is_dir():
            continue
        for kind in (
            "rosidl_generator_c",
            "rosidl_typesupport_c",
            "rosidl_typesupport_introspection_c",
            "rosidl_typesupport_fastrtps_c",
            "rosidl_generator_py",
        ):
            library = prefix / "lib" / f"lib{package}__{kind}.so"
            if library.exists():
                ctypes.CDLL(str(library), mode=ctypes.RTLD_GLOBAL)
        _import_package(package, site / package)


def _import_package(name: str, path: Path) -> None:
    """Import package ``name`` from the directory ``path`` under its own name, without putting
    ``path``'s parent on ``sys.path``: the rig's site-packages holds other packages (tf2_msgs,
    …) whose C type support this process cannot load, and which must stay "not installed" for
    the rest of the bridge (e.g. the odometry's TF, which asks whether tf2_msgs imports)."""
    if name in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(
        name, path / "__init__.py", submodule_search_locations=[str(path)]
    )
    assert spec is not None and spec.loader is not None  # (an __init__.py: a package)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise


class LoadRefused(ConfigError):
    """``load_controller`` answered not ok: the controller_manager cannot make the controller
    (its type has no plugin, no ``type`` parameter, its ``on_init`` failed), which no wait
    mends. ``controller`` is its name; the reason is in the controller_manager's log
    (:func:`controller_errors`)."""

    def __init__(self, controller: str, manager: str) -> None:
        self.controller = controller
        super().__init__(f"{manager}/load_controller refused controller {controller!r}")


#: The controller_manager log's lines quoted for one controller (:func:`controller_errors`),
#: and the characters of each.
QUOTED_LINES, QUOTED_CHARS = 3, 300


def controller_errors(log: Path, controller: str) -> list[str]:
    """The distinct ``[ERROR]`` lines of the controller_manager's log ``log`` that name
    ``controller`` (quoted, as the controller_manager writes it), without their
    ``[ERROR] [stamp] [node]:`` prefix: the first :data:`QUOTED_LINES`, each cut to
    :data:`QUOTED_CHARS` characters (``[]`` when the log is missing or has none)."""
    found: list[str] = []
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return found
    for line in text.splitlines():
        if "[ERROR]" not in line or f"'{controller}'" not in line:
            continue
        message = line.split("]: ", 1)[-1].strip()
        if len(message) > QUOTED_CHARS:
            message = message[: QUOTED_CHARS - 1] + "…"
        if message not in found:
            found.append(message)
        if len(found) == QUOTED_LINES:
            break
    return found


class ControllerManagerClient:
    """Loads, configures and switches controllers through the controller_manager's services,
    as ``spawner`` does (``controller_manager_msgs`` must be importable:
    :func:`import_manager_messages`).

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
        spin_until: Callable[[Any, float], None],
        manager: str = "/controller_manager",
        timeout: float = 30.0,
    ) -> None:
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
                raise RuntimeError(
                    f"the services of {self.manager} did not appear in {timeout:.3g} s"
                )
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

    def controllers(self) -> list[Any]:
        """The controllers' ``controller_manager_msgs/ControllerState`` messages.

        Raises:
            RuntimeError: no response in three tries.
        """
        for _ in range(3):
            response = self.call("list_controllers", self.srv.ListControllers.Request())
            if response is not None:
                return list(response.controller)
        raise RuntimeError(f"{self.manager}/list_controllers did not answer")

    def states(self) -> dict[str, str]:
        """Controller name → its state (``unconfigured``, ``inactive``, ``active``, …)."""
        return {c.name: c.state for c in self.controllers()}

    def load(self, *names: str) -> None:
        """Load and configure each controller of ``names`` (type and parameters from the
        controllers file); one loaded already is configured if it is ``unconfigured`` (a
        configuration that failed, e.g. before the description came), else left as it is.

        Raises:
            LoadRefused: ``load_controller`` answered not ok (no wait mends it).
            RuntimeError: naming the one that fails otherwise (a configuration may fail
                until the controller_manager has the description).
        """
        for name in names:
            loaded = self.states().get(name)
            for service, srv_type, state in (
                ("load_controller", self.srv.LoadController, "unconfigured"),
                ("configure_controller", self.srv.ConfigureController, "inactive"),
            ):
                if loaded is not None and (
                    service == "load_controller" or loaded != "unconfigured"
                ):
                    continue  # loaded before (and configured, unless unconfigured)
                response = self.call(service, srv_type.Request(name=name))
                if response is None and self.states().get(name) in (state, "inactive"):
                    continue  # done; only its response was lost
                if response is not None and not response.ok and service == "load_controller":
                    raise LoadRefused(name, self.manager)
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


def status_table(controllers: Sequence[Any]) -> str:
    """The controllers (``ControllerState`` messages) as a table: name, state, type, claimed command
    interfaces (``-``: none), one line each, sorted by name."""
    rows = [("controller", "state", "type", "claimed interfaces")] + [
        (c.name, c.state, c.type, " ".join(c.claimed_interfaces) or "-")
        for c in sorted(controllers, key=lambda c: c.name)
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(r[:3], widths)) + "  " + r[3] for r in rows
    )


class LeftActive:
    """Notices when a controller ``sdf-bridge control`` activated leaves the active state (a
    switch, or the controller_manager deactivating it after an error, e.g. ros2_control's joint
    limiter finding a joint out of bounds), from the ``list_controllers`` answers the command
    asks for anyway (about every second). One line per departure; a controller that becomes
    active again is watched again.

    Args:
        manager: the controller_manager's node name (in the line).
        activated: the controllers activated at the bring-up.
        log: the controller_manager's log file (the line points to it: the reason is there).
    """

    def __init__(self, manager: str, activated: Sequence[str], log: Path | str) -> None:
        self._manager = manager
        self._watched = set(activated)
        self._active = set(activated)
        self._log = str(log)

    def check(self, controllers: Sequence[Any]) -> list[str]:
        """The lines for ``controllers`` (``ControllerState`` messages, ``name``, ``state``):
        one per watched controller that was active and is not now (not listed: ``unloaded``)."""
        states = {c.name: c.state for c in controllers}
        lines = []
        for name in sorted(self._active):
            state = states.get(name, "unloaded")
            if state != "active":
                self._active.discard(name)
                lines.append(
                    f"warning: controller {name!r} of {self._manager} left the active state "
                    f"(now {state!r}): switched, or deactivated after an error; the reason is "
                    f"in {self._log}"
                )
        self._active.update(n for n in self._watched if states.get(n) == "active")
        return lines
