"""Launch-argument handling of ``launch/robot.launch.py``, as plain Python (no ``launch``,
no rclpy) so tests exercise it on machines without a ROS install.

The launch file declares :data:`ARGUMENTS`, resolves their values in an ``OpaqueFunction``
and calls :func:`launch_plan`, which validates them and returns everything the actions need:
the xacro command line for robot_state_publisher, the bridge's parameters and rviz's arguments.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError

PACKAGE = "sdf_bridge"
DEMO_FILE = ("urdf", "demo_arm.urdf.xacro")
BRIDGE_CONFIG = ("config", "bridge.yaml")
RVIZ_CONFIG = ("config", "robot.rviz")


@dataclass(frozen=True)
class LaunchArgument:
    """A launch argument: ``name``, ``default`` (``None`` = the demo file in the package share
    directory, filled in by the launch file) and ``description``."""

    name: str
    default: str | None
    description: str


ARGUMENTS: tuple[LaunchArgument, ...] = (
    LaunchArgument("description_file", None, "URDF, xacro or SDFormat file of the robot (default: the demo arm)."),
    LaunchArgument("xacro_args", "", "xacro arguments for the description, 'name:=value name2:=value2'."),
    LaunchArgument("backend", "mock", "Backend of the bridge: mock, mujoco or a plug-in name."),
    LaunchArgument("rviz", "true", "Start rviz2 with config/robot.rviz (true/false)."),
    LaunchArgument("use_sim_time", "false", "Use the /clock topic as time source (true/false)."),
)


def parse_xacro_args(value: str | Sequence[str]) -> dict[str, str]:
    """``"k:=v k2:=v2"`` (shell-quoted words) or ``["k:=v", ...]`` → ``{"k": "v", ...}``.

    Raises:
        ConfigError: a word is not of the form ``name:=value`` with a non-empty name.
    """
    words = shlex.split(value) if isinstance(value, str) else list(value)
    result: dict[str, str] = {}
    for word in words:
        name, sep, val = word.partition(":=")
        if not sep or not name.strip():
            raise ConfigError(
                f"xacro argument {word!r} is not of the form name:=value. "
                "Fix: write xacro_args as 'name:=value name2:=value2'."
            )
        result[name.strip()] = val
    return result


def parse_package_paths(value: str | Sequence[str]) -> dict[str, str]:
    """``"pkg=DIR pkg2=DIR2"`` (shell-quoted words) or ``["pkg=DIR", ...]`` → ``{"pkg": "DIR"}``:
    where ``package://pkg`` and ``$(find pkg)`` resolve, before the ament index (the rule of
    ``sdf-bridge check/convert/run --package-path`` and the node's ``package_paths``).

    Raises:
        ConfigError: a word is not ``pkg=DIR`` with a non-empty package and directory; a
            ``pkg:=DIR`` (the xacro argument form) gets that hint.
    """
    words = shlex.split(value) if isinstance(value, str) else list(value)
    result: dict[str, str] = {}
    for word in words:
        if ":=" in word:
            package = word.partition(":=")[0]
            raise ConfigError(f"package path {word!r} uses ':=', the form of xacro arguments. "
                              f"Fix: write {package}={word.partition(':=')[2]} (one '=')")
        package, sep, directory = word.partition("=")
        if not sep or not package.strip() or not directory.strip():
            raise ConfigError(f"package path {word!r} is not of the form pkg=DIR. "
                              "Fix: give the package name and its directory, e.g. my_robot=src/my_robot")
        result[package.strip()] = directory.strip()
    return result


def parse_bool(name: str, text: str) -> bool:
    """Launch-argument boolean: ``true``/``false`` (any case), ``1``/``0``, ``yes``/``no``.

    Raises:
        ConfigError: any other text (naming the argument).
    """
    value = text.strip().lower()
    if value in ("true", "1", "yes", "on"):
        return True
    if value in ("false", "0", "no", "off"):
        return False
    raise ConfigError(f"launch argument {name}:={text!r} is not a boolean. Fix: give true or false.")


@dataclass(frozen=True)
class LaunchPlan:
    """What the launch file starts.

    Attributes:
        xacro_command: argv of the xacro run whose output feeds robot_state_publisher.
        use_sim_time: for every node.
        rsp_parameters: robot_state_publisher parameters besides ``robot_description``.
        bridge_parameters: the bridge's parameter list (the YAML file, then the overrides; the
            bridge takes the description from robot_state_publisher's ``robot_description``).
        rviz: whether rviz2 starts; ``rviz_arguments`` its argv.
    """

    xacro_command: tuple[str, ...]
    use_sim_time: bool
    rsp_parameters: dict[str, Any]
    bridge_parameters: tuple[Any, ...]
    rviz: bool
    rviz_arguments: tuple[str, ...]


def launch_plan(values: Mapping[str, str], share_dir: str | Path, *, xacro_executable: str = "xacro") -> LaunchPlan:
    """Validate the launch arguments ``values`` (name → text, as ``LaunchConfiguration``
    gives them) and build the :class:`LaunchPlan`; ``share_dir`` is the package's share
    directory (for the defaults: demo robot, config/bridge.yaml, config/robot.rviz).

    Raises:
        ConfigError: unknown argument name, bad boolean, bad xacro argument, empty backend, or
            a description file that does not exist.
    """
    known = {a.name for a in ARGUMENTS}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ConfigError(f"unknown launch arguments {unknown}. Fix: use {sorted(known)}.")
    share = Path(share_dir)
    description = values.get("description_file") or str(share.joinpath(*DEMO_FILE))
    if not Path(description).is_file():
        raise ConfigError(
            f"description_file:={description} does not exist. Fix: give the path of a URDF/xacro/SDF file."
        )
    xacro_args = parse_xacro_args(values.get("xacro_args", ""))
    backend = values.get("backend", "mock").strip()
    if not backend:
        raise ConfigError("launch argument backend is empty. Fix: give mock, mujoco or a plug-in name.")
    use_sim_time = parse_bool("use_sim_time", values.get("use_sim_time", "false"))
    rviz = parse_bool("rviz", values.get("rviz", "true"))
    command = (xacro_executable, description, *(f"{k}:={v}" for k, v in xacro_args.items()))
    overrides = {"backend": backend, "use_sim_time": use_sim_time, "use_description_topic": True}
    return LaunchPlan(
        xacro_command=command,
        use_sim_time=use_sim_time,
        rsp_parameters={"use_sim_time": use_sim_time},
        bridge_parameters=(str(share.joinpath(*BRIDGE_CONFIG)), overrides),
        rviz=rviz,
        rviz_arguments=("-d", str(share.joinpath(*RVIZ_CONFIG))),
    )


def command_text(argv: Sequence[str]) -> str:
    """``argv`` as one shell-quoted string (what ``launch.substitutions.Command`` splits back)."""
    return " ".join(shlex.quote(a) for a in argv)
