"""Launch-argument handling of ``launch/robot.launch.py``, as plain Python (no ``launch``,
no rclpy) so tests exercise it on machines without a ROS install.

The launch file declares :data:`ARGUMENTS`, resolves their values in an ``OpaqueFunction``
(the :data:`BOOLEAN_ARGUMENTS` with launch's own condition parser, so ``rviz:=…`` means what it
means to ``IfCondition``) and calls :func:`launch_plan`, which validates them and returns
everything the actions need: the namespace and frame prefix, the xacro command line for
robot_state_publisher, the bridge's parameters and rviz's configuration (fixed frame = the
robot's root link). The launch file checks that every package of :meth:`LaunchPlan.packages`
is installed before it starts any node, so a missing rviz2 leaves no orphaned nodes behind.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping, Sequence
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
    """A launch argument: ``name``, ``default`` (``None``: the file ``share_file`` of the
    package's share directory, which the launch file knows) and ``description``."""

    name: str
    default: str | None
    description: str
    share_file: tuple[str, ...] = ()

    def default_value(self, share_dir: str) -> str:
        """The default as the launch file declares it (a file of the share directory
        ``share_dir`` for ``default`` ``None``)."""
        return "/".join((share_dir, *self.share_file)) if self.default is None else self.default


_DESCRIPTION = (
    LaunchArgument(
        "description_file",
        None,
        "URDF, xacro or SDFormat file of the robot (default: the demo arm).",
        DEMO_FILE,
    ),
    LaunchArgument(
        "xacro_args", "", "xacro arguments for the description, 'name:=value name2:=value2'."
    ),
    LaunchArgument("backend", "mock", "Backend of the bridge: mock, mujoco or a plug-in name."),
)
_NAMING = (
    LaunchArgument("use_sim_time", "false", "Use the /clock topic as time source (true/false)."),
    LaunchArgument(
        "namespace", "", "ROS namespace of every node, topic and service (e.g. left); empty = none."
    ),
    LaunchArgument(
        "frame_prefix",
        "",
        "Prefix of every TF frame and frame_id (robot_state_publisher's frame_prefix, e.g. left/); "
        "empty = '<namespace>/' when a namespace is given, else none.",
    ),
)
COMMON_ARGUMENTS: tuple[LaunchArgument, ...] = _DESCRIPTION + _NAMING
"""The arguments every launch file of the package has (robot.launch.py, ros2_control.launch.py),
read by :func:`common_values`."""
ARGUMENTS: tuple[LaunchArgument, ...] = (
    *_DESCRIPTION,
    LaunchArgument(
        "rviz", "true", "Start rviz2 with config/robot.rviz (true/false, as launch's IfCondition)."
    ),
    *_NAMING,
)
"""The arguments of robot.launch.py."""
#: The arguments given to the launch file as booleans: the launch file reads them with launch's
#: own condition parser (true/false/1/0, any case), and :func:`launch_plan` takes them as bools.
BOOLEAN_ARGUMENTS = ("rviz", "use_sim_time")

_NAMESPACE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(/[A-Za-z_][A-Za-z0-9_]*)*$")


def argument_values(
    arguments: Sequence[LaunchArgument],
    booleans: Sequence[str],
    text: Callable[[str], str],
    flag: Callable[[str], bool],
) -> dict[str, str | bool]:
    """The values of ``arguments`` as the plans take them: a boolean argument's (``booleans``)
    through ``flag`` (the launch file's: launch's own condition parser, as ``IfCondition``
    reads it), any other's text through ``text`` (``LaunchConfiguration(name).perform``)."""
    return {a.name: flag(a.name) if a.name in booleans else text(a.name) for a in arguments}


def require_packages(packages: Sequence[str], hints: Mapping[str, str] | None = None) -> None:
    """Check that every ROS package of ``packages`` is installed (in the ament index), before a
    launch file starts any node.

    Raises:
        ConfigError: naming the first missing package, and how to install it (plus its
            ``hints`` entry, e.g. ``" or rviz:=false"``).
    """
    from ament_index_python.packages import PackageNotFoundError, get_package_prefix

    for package in packages:
        try:
            get_package_prefix(package)
        except PackageNotFoundError:
            raise ConfigError(
                f"package {package} is not installed, so nothing was started. "
                f"Fix: install it (rosdep install --from-paths src --ignore-src)"
                f"{(hints or {}).get(package, '')}."
            ) from None


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
            raise ConfigError(
                f"package path {word!r} uses ':=', the form of xacro arguments. "
                f"Fix: write {package}={word.partition(':=')[2]} (one '=')"
            )
        package, sep, directory = word.partition("=")
        if not sep or not package.strip() or not directory.strip():
            raise ConfigError(
                f"package path {word!r} is not of the form pkg=DIR. "
                "Fix: give the package name and its directory, e.g. my_robot=src/my_robot"
            )
        result[package.strip()] = directory.strip()
    return result


def parse_namespace(text: str) -> str:
    """Launch argument ``namespace`` → the namespace without leading/trailing ``/`` (``""`` =
    none), checked against the ROS name rules (REP-144: ``[A-Za-z_][A-Za-z0-9_]*`` tokens).

    Raises:
        ConfigError: a token that is not a valid ROS name.
    """
    namespace = text.strip().strip("/")
    if namespace and not _NAMESPACE_RE.match(namespace):
        raise ConfigError(
            f"launch argument namespace:={text!r} is not a ROS namespace. Fix: use letters, "
            "digits and '_' in '/'-separated tokens not starting with a digit, e.g. left."
        )
    return namespace


def parse_frame_prefix(text: str, what: str = "frame_prefix") -> str:
    """A frame prefix as robot_state_publisher takes it (prepended to each frame name as it is,
    e.g. ``left/``); ``what`` names it in the error.

    Raises:
        ConfigError: it starts with ``/`` or holds white space (tf2 frame ids cannot).
    """
    if text.startswith("/") or any(c.isspace() for c in text):
        raise ConfigError(
            f"{what} {text!r} starts with '/' or holds white space, which tf2 frame ids cannot. "
            "Fix: give e.g. frame_prefix:=left/ (the value robot_state_publisher gets)."
        )
    return text


@dataclass(frozen=True)
class LaunchPlan:
    """What the launch file starts.

    Attributes:
        xacro_command: argv of the xacro run whose output feeds robot_state_publisher.
        use_sim_time: for every node.
        namespace: of every node (``""`` = none).
        frame_prefix: of every frame (robot_state_publisher's TF, the bridge's frame_ids, rviz).
        root_frame: the robot's root link with ``frame_prefix``: rviz's fixed frame.
        rsp_parameters: robot_state_publisher parameters besides ``robot_description``.
        bridge_parameters: the bridge's parameter list (the YAML file, then the overrides; the
            bridge takes the description from robot_state_publisher's ``robot_description``).
        rviz: whether rviz2 starts; ``rviz_config`` the text of its configuration
            (:func:`rviz_config`), which the launch file writes to a file for ``-d``.
    """

    xacro_command: tuple[str, ...]
    use_sim_time: bool
    namespace: str
    frame_prefix: str
    root_frame: str
    rsp_parameters: dict[str, Any]
    bridge_parameters: tuple[Any, ...]
    rviz: bool
    rviz_config: str

    def packages(self) -> tuple[str, ...]:
        """The ROS packages whose executables the plan starts (checked before any is started)."""
        return ("robot_state_publisher", PACKAGE, *(("rviz2",) if self.rviz else ()))


@dataclass(frozen=True)
class CommonValues:
    """The :data:`COMMON_ARGUMENTS` validated: the ``description`` file and its ``xacro_args``,
    its ``package_paths`` (package → absolute directory; from a ``package_paths`` argument,
    which ros2_control.launch.py declares, else none; its ``model`` argument picks the robot of
    an SDFormat world), the ``backend``, ``use_sim_time``,
    ``namespace``, ``frame_prefix``, the ``loaded`` description
    (:class:`~sdf_bridge.app.description_source.LoadedDescription`) and every boolean argument
    (``flags``: name → bool)."""

    description: str
    xacro_args: dict[str, str]
    package_paths: dict[str, str]
    backend: str
    use_sim_time: bool
    namespace: str
    frame_prefix: str
    loaded: Any
    flags: dict[str, bool]


def common_values(
    values: Mapping[str, str | bool],
    share_dir: str | Path,
    arguments: Sequence[LaunchArgument],
    booleans: Sequence[str],
    loaded: Any = None,
) -> CommonValues:
    """Validate the launch argument ``values`` of a launch file declaring ``arguments`` (its
    ``booleans`` as bools, parsed by the launch file with launch's own condition parser) and
    load the description once (so that a broken one stops the launch before any node starts),
    unless ``loaded`` holds it already (the
    :class:`~sdf_bridge.app.description_source.LoadedDescription` of these values' description,
    xacro arguments, package paths and model, loaded by the caller: not loaded and warned about
    twice).

    Raises:
        ConfigError: unknown argument name, a boolean argument that is not a bool, bad xacro
            argument or package path, empty backend, bad namespace or frame prefix, or a
            description file that does not exist.
        DescriptionError: the description is invalid.
    """
    from .description_source import load_description

    known = {a.name for a in arguments}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ConfigError(f"unknown launch arguments {unknown}. Fix: use {sorted(known)}.")
    flags = {
        a.name: values.get(a.name, a.default == "true") for a in arguments if a.name in booleans
    }
    for name, flag in flags.items():
        if not isinstance(flag, bool):
            raise ConfigError(
                f"launch argument {name} is {flag!r}, not a bool. Fix: parse it with "
                "launch's condition parser (evaluate_condition_expression) first."
            )
    description = str(values.get("description_file") or Path(share_dir).joinpath(*DEMO_FILE))
    if not Path(description).is_file():
        raise ConfigError(
            f"description_file:={description} does not exist. Fix: give the path of a "
            "URDF/xacro/SDF file."
        )
    xacro_args = parse_xacro_args(str(values.get("xacro_args", "")))
    package_paths = {
        name: str(Path(directory).expanduser().resolve())
        for name, directory in parse_package_paths(str(values.get("package_paths", ""))).items()
    }
    backend = str(values.get("backend", "mock")).strip()
    if not backend:
        raise ConfigError(
            "launch argument backend is empty. Fix: give mock, mujoco or a plug-in name."
        )
    namespace = parse_namespace(str(values.get("namespace", "")))
    frame_prefix = parse_frame_prefix(
        str(values.get("frame_prefix", "")).strip() or (f"{namespace}/" if namespace else ""),
        "launch argument frame_prefix",
    )
    if loaded is None:
        loaded = load_description(
            description,
            is_file=True,
            xacro_args=xacro_args,
            package_paths=package_paths,
            model=str(values.get("model", "")).strip(),
        )
    return CommonValues(
        description,
        xacro_args,
        package_paths,
        backend,
        flags["use_sim_time"],
        namespace,
        frame_prefix,
        loaded,
        flags,
    )


def launch_plan(
    values: Mapping[str, str | bool], share_dir: str | Path, *, xacro_executable: str = "xacro"
) -> LaunchPlan:
    """Validate the launch arguments ``values`` (name → text as ``LaunchConfiguration`` gives
    it; the :data:`BOOLEAN_ARGUMENTS` as bools, which the launch file parses with launch's own
    condition parser) and build the :class:`LaunchPlan`; ``share_dir`` is the package's share
    directory (for the defaults: demo robot, config/bridge.yaml, config/robot.rviz). The
    description is loaded once here, for its root link (rviz's fixed frame), so a broken
    description stops the launch before any node starts.

    Raises:
        ConfigError, DescriptionError: as :func:`common_values`.
    """
    share = Path(share_dir)
    common = common_values(values, share, ARGUMENTS, BOOLEAN_ARGUMENTS)
    frame_prefix, namespace, use_sim_time = (
        common.frame_prefix,
        common.namespace,
        common.use_sim_time,
    )
    root_frame = frame_prefix + common.loaded.robot.root_link
    rviz = common.flags["rviz"]
    command = (
        xacro_executable,
        common.description,
        *(f"{k}:={v}" for k, v in common.xacro_args.items()),
    )
    overrides = {
        "backend": common.backend,
        "use_sim_time": use_sim_time,
        "use_description_topic": True,
        "frame_prefix": frame_prefix,
    }
    return LaunchPlan(
        xacro_command=command,
        use_sim_time=use_sim_time,
        namespace=namespace,
        frame_prefix=frame_prefix,
        root_frame=root_frame,
        rsp_parameters={"use_sim_time": use_sim_time, "frame_prefix": frame_prefix},
        bridge_parameters=(str(share.joinpath(*BRIDGE_CONFIG)), overrides),
        rviz=rviz,
        rviz_config=rviz_config(share, root_frame, frame_prefix, namespace) if rviz else "",
    )


def rviz_config(share_dir: str | Path, fixed_frame: str, frame_prefix: str, namespace: str) -> str:
    """``config/robot.rviz`` (YAML) for one robot: the global Fixed Frame ``fixed_frame`` (the
    robot's root link), the RobotModel display's description topic in ``namespace`` and its
    TF Prefix (rviz puts a ``/`` between prefix and link name: ``frame_prefix`` without its
    trailing ``/``).

    Raises:
        ConfigError: a non-empty ``frame_prefix`` that does not end with ``/`` (rviz's RobotModel
            cannot follow it).
    """
    import yaml

    if frame_prefix and not frame_prefix.endswith("/"):
        raise ConfigError(
            f"frame_prefix {frame_prefix!r} does not end with '/': rviz's RobotModel can only "
            "look its links up as '<prefix>/<link>'. Fix: end it with '/' (e.g. left/), or "
            "rviz:=false."
        )
    data = yaml.safe_load(Path(share_dir).joinpath(*RVIZ_CONFIG).read_text())
    manager = data["Visualization Manager"]
    manager["Global Options"]["Fixed Frame"] = fixed_frame
    for display in manager["Displays"]:
        if display["Class"] == "rviz_default_plugins/RobotModel":
            display["Description Topic"]["Value"] = (
                f"/{namespace}/robot_description" if namespace else "/robot_description"
            )
            display["TF Prefix"] = frame_prefix.rstrip("/")
    return yaml.safe_dump(data, sort_keys=False)


def command_text(argv: Sequence[str]) -> str:
    """``argv`` as one shell-quoted string (what ``launch.substitutions.Command`` splits back)."""
    return " ".join(shlex.quote(a) for a in argv)
