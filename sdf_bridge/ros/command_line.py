"""``sdf-bridge``: the executable (setup.py's console script, ``ros2 run sdf_bridge sdf-bridge``).

:func:`main` hands the commands that need ROS 2 (:data:`sdf_bridge.cli.ROS_COMMANDS`) their raw
arguments (they carry ROS arguments argparse must not see): ``run`` and ``demo`` to
:mod:`sdf_bridge.ros.main`, ``control`` to :mod:`sdf_bridge.ros.control_command`; every other
command, ``--help`` and usage errors to the ROS-free front end :func:`sdf_bridge.cli.main`.
The ROS layer depends on the command line, never the reverse.

Nothing of ROS is imported at module level: ``sdf-bridge check`` loads no rclpy, and a ROS
command whose ROS 2 packages are missing is a one-line error naming the module and the fix
(:data:`ROS_INSTALL_HINT`, exit 1).
"""

from __future__ import annotations

# ``run`` and ``demo`` start the bridge process (sdf_bridge.ros.main installs its SIGINT/SIGTERM
# handlers first thing): only what main() needs to hand them over is imported here, so that a
# Ctrl-C right after the start is a clean stop; the rest is imported where it is used.
import sys
from typing import TYPE_CHECKING

from .. import cli

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

#: How to get the ROS 2 Python packages ``run``/``demo``/``control`` need (the list of
#: ``.ci/setup``).
ROS_INSTALL_HINT = (
    "Fix: pip install ros-rclpy ros-rmw-fastrtps-cpp ros-ament-index-python ros-std-msgs "
    "ros-sensor-msgs ros-geometry-msgs ros-trajectory-msgs ros-diagnostic-msgs ros-std-srvs "
    "ros-rosgraph-msgs ros-builtin-interfaces ros-rcl-interfaces ros-nav-msgs ros-test-msgs "
    "(ROS 2 Kilted wheels, as .ci/setup does), or source a ROS 2 installation (source "
    "/opt/ros/<distro>/setup.bash)."
)

_ROS_MODULES = frozenset(
    {"rclpy", "rpyutils", "rosidl_runtime_py", "rosidl_parser", "ament_index_python"}
)


def is_ros_module(name: str | None) -> bool:
    """True when ``name`` (of a failed import) is a ROS 2 client library or message package:
    rclpy and its runtime (``rpyutils``, ``rosidl_*``, ``rmw*``, ``ament_index_python``) or a
    package named ``*_msgs``, ``*_srvs`` or ``*_interfaces``."""
    if not name:
        return False
    root = name.split(".", 1)[0]
    return (
        root in _ROS_MODULES
        or root.startswith("rmw")
        or root.endswith(("_msgs", "_srvs", "_interfaces"))
    )


def _run_ros_command(command: str, argv: list[str]) -> int:
    """Import the module of ROS command ``command`` and run it on ``argv``."""
    if command == "control":
        try:  # (its handlers come with it: a Ctrl-C while it imports is a stop too)
            from .control_command import control_command
        except KeyboardInterrupt:
            return 0
        return int(control_command(argv))
    from . import main as ros_main

    runner = ros_main.run_command if command == "run" else ros_main.demo_command
    return int(runner(argv))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``sdf-bridge`` with ``argv`` (default ``sys.argv[1:]``); return the exit code
    (0 success, 1 description, command or missing-ROS errors, 2 usage errors).

    Raises:
        ImportError: a module that is not part of ROS 2 is missing (a broken installation:
            the traceback is the report).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in cli.ROS_COMMANDS:
        return cli.main(args)
    try:
        return _run_ros_command(args[0], args[1:])
    except ImportError as exc:
        if not is_ros_module(exc.name):
            raise
        sys.stderr.write(
            f"error: sdf-bridge {args[0]} needs ROS 2, but Python module {exc.name!r} is not "
            f"installed. {ROS_INSTALL_HINT}\n"
        )
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
