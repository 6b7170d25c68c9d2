"""The bridge node's ROS parameters: declared with descriptors (type, range, description) and
read into one validated :class:`~.params.BridgeConfig`.

Parameters: :data:`PARAMETERS`, the one table of their defaults, types, ranges and
descriptions (``config/bridge.yaml`` shows the same defaults, a test checks them; the
documentation's table, ``doc/user/parameters.md``, is generated from it).
``backend_params.<name>`` are passed to the backend's ``configure`` as ``{name: value}``.

All of them are read-only, and a run-time change of rclpy's ``use_sim_time`` is refused too.
The joints' properties are the writable ``joint_properties.<joint>.<property>`` parameters, declared
once the robot is configured (:mod:`.joint_parameters`).
An override of a name the node does not declare (a misspelling: ``updaterate``) is ignored, as
every ROS node ignores it, with one warning at start naming it and the declared name it is
closest to (:func:`undeclared_warning`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rcl_interfaces.msg import (
    FloatingPointRange,
    IntegerRange,
    ParameterDescriptor,
    ParameterType,
    SetParametersResult,
)
from rclpy.exceptions import ParameterException
from rclpy.node import Node
from rclpy.parameter import Parameter

from ..app.launch_args import parse_frame_prefix, parse_package_paths, parse_xacro_args
from ..backends.backend_registry import available_backends
from ..errors import ConfigError
from ..util.similarity import close_match

BACKEND_PARAMS_PREFIX = "backend_params."
QOS_OVERRIDES_PREFIX = "qos_overrides."  # rclpy's, declared as each topic's entity is created
JOINT_PROPERTIES_PREFIX = "joint_properties."  # declared once the robot is configured
USE_SIM_TIME = "use_sim_time"  # rclpy's, declared by every node


def _descriptor(
    type_: int,
    description: str,
    *,
    float_range: tuple[float, float] | None = None,
    int_range: tuple[int, int] | None = None,
    read_only: bool = True,
    dynamic: bool = False,
) -> ParameterDescriptor:
    d = ParameterDescriptor(description=description, read_only=read_only)
    if dynamic:
        d.dynamic_typing = True
    else:
        d.type = type_
    if float_range is not None:
        d.floating_point_range = [
            FloatingPointRange(
                from_value=float(float_range[0]), to_value=float(float_range[1]), step=0.0
            )
        ]
    if int_range is not None:
        d.integer_range = [IntegerRange(from_value=int_range[0], to_value=int_range[1], step=1)]
    return d


_T = ParameterType
#: name → (default, descriptor); the single table of the node's own parameters.
PARAMETERS: dict[str, tuple[Any, ParameterDescriptor]] = {
    "robot_description": (
        "",
        _descriptor(_T.PARAMETER_STRING, "Robot description XML (URDF or SDFormat)."),
    ),
    "description_file": (
        "",
        _descriptor(_T.PARAMETER_STRING, "Path of a URDF, xacro or SDFormat file."),
    ),
    "xacro_args": (
        "",
        _descriptor(
            _T.PARAMETER_STRING,
            "xacro arguments: a string 'k:=v k2:=v2' or a string array ['k:=v', ...].",
            dynamic=True,
        ),
    ),
    "package_paths": (
        "",
        _descriptor(
            _T.PARAMETER_STRING,
            "Package directories for package:// and $(find pkg): a string 'pkg=DIR pkg2=DIR2' or "
            "a string array ['pkg=DIR', ...], searched before the ament index.",
            dynamic=True,
        ),
    ),
    "model": (
        "",
        _descriptor(
            _T.PARAMETER_STRING,
            "The robot(s) of an SDFormat world to simulate, comma-separated (empty: every "
            "robot of the world; one name: that robot alone, its names unscoped).",
        ),
    ),
    "robots": (
        Parameter.Type.STRING_ARRAY,  # no default value: rclpy cannot type an empty list
        _descriptor(
            _T.PARAMETER_STRING_ARRAY,
            "Robots placed into the simulation beside the description's, each "
            "'NAME=FILE[@x,y,z,roll,pitch,yaw][:fixed|:free]' (URDF, xacro or SDFormat; "
            "names scoped NAME::joint).",
        ),
    ),
    "robot_namespaces": (
        Parameter.Type.STRING_ARRAY,  # no default value: rclpy cannot type an empty list
        _descriptor(
            _T.PARAMETER_STRING_ARRAY,
            "Several robots: 'ROBOT=NAMESPACE' for a robot whose ROS namespace is not its "
            "name (relative to the node's namespace, or absolute with a leading /).",
        ),
    ),
    "allow_local_files": (
        False,
        _descriptor(
            _T.PARAMETER_BOOL,
            "Let a robot_description from the topic or parameter name local files (file:// "
            "URIs, absolute paths, anything outside package_paths, the ament index and the SDF "
            "resource path). Only for a trusted description: any peer can publish one.",
        ),
    ),
    "use_description_topic": (
        False,
        _descriptor(
            _T.PARAMETER_BOOL,
            "Without robot_description / description_file, wait for the robot_description topic "
            "(true) instead of running the built-in demo robot (false).",
        ),
    ),
    "backend": (
        "mock",
        _descriptor(_T.PARAMETER_STRING, "Backend name (sdf_bridge.backends entry point)."),
    ),
    "update_rate": (
        100.0,
        _descriptor(_T.PARAMETER_DOUBLE, "Control loop rate, Hz.", float_range=(1.0, 10000.0)),
    ),
    "publish_rate": (
        0.0,
        _descriptor(
            _T.PARAMETER_DOUBLE,
            "joint_states / actuator_states publish rate, Hz (at most update_rate); 0 = "
            "update_rate (every control cycle, so that a controller_manager at the same rate "
            "sees each state once).",
            float_range=(0.0, 10000.0),
        ),
    ),
    "joints": (
        Parameter.Type.STRING_ARRAY,  # no default value: rclpy cannot type an empty list
        _descriptor(
            _T.PARAMETER_STRING_ARRAY,
            "Commandable joints and the order of the Float64MultiArray command inputs; "
            "empty = every actuated joint.",
        ),
    ),
    "joint_feedback": (
        Parameter.Type.STRING_ARRAY,  # no default value: rclpy cannot type an empty list
        _descriptor(
            _T.PARAMETER_STRING_ARRAY,
            "MuJoCo: joints whose transmitted wrench is published on ~/joint_wrench/<joint> "
            "(sdf-bridge check lists the topics), "
            "besides those the description asks for (<provide_feedback>, provideFeedback).",
        ),
    ),
    "command_timeout": (
        0.5,
        _descriptor(
            _T.PARAMETER_DOUBLE,
            "Watchdog: s without a new command before position holds and velocity/effort go to 0 "
            "(0 = off).",
            float_range=(0.0, 3600.0),
        ),
    ),
    "max_trajectory_points": (
        100_000,
        _descriptor(
            _T.PARAMETER_INTEGER,
            "Most points of a JointTrajectory on ~/joint_trajectory: one with more is refused "
            "before it is read (counted as trajectory_too_long).",
            int_range=(1, 10_000_000),
        ),
    ),
    "real_time_factor": (
        1.0,
        _descriptor(
            _T.PARAMETER_DOUBLE,
            "Simulated/wall time ratio for simulating backends (0 = as fast as possible).",
            float_range=(0.0, 1000.0),
        ),
    ),
    "joint_limits_file": (
        "",
        _descriptor(
            _T.PARAMETER_STRING,
            "ros2_control joint_limits YAML overriding the description's limits.",
        ),
    ),
    "thread_priority": (
        0,
        _descriptor(
            _T.PARAMETER_INTEGER,
            "Control-loop thread priority: 1..99 = Linux SCHED_FIFO real-time priority when "
            "permitted (falls back with a warning), 0 = normal scheduling.",
            int_range=(0, 99),
        ),
    ),
    "diagnostics_rate": (
        1.0,
        _descriptor(
            _T.PARAMETER_DOUBLE, "/diagnostics publish rate, Hz.", float_range=(0.01, 100.0)
        ),
    ),
    "frame_prefix": (
        "",
        _descriptor(
            _T.PARAMETER_STRING,
            "Prefix of every frame_id the bridge publishes, as robot_state_publisher's "
            "frame_prefix (e.g. 'left/'); empty = none.",
        ),
    ),
    "start_paused": (
        False,
        _descriptor(
            _T.PARAMETER_BOOL,
            "Simulating backends: start with physics paused (unpause with ~/pause false), so that "
            "controllers can connect and ~/reset place the robot before it moves.",
        ),
    ),
    "wrench_duration": (
        0.0,
        _descriptor(
            _T.PARAMETER_DOUBLE,
            "MuJoCo: s of simulated time a wrench on ~/wrench or ~/world_wrench acts "
            "(0 = until cleared by a zero wrench or ~/clear_wrenches).",
            float_range=(0.0, 3600.0),
        ),
    ),
    "odom_frame": (
        "odom",
        _descriptor(
            _T.PARAMETER_STRING,
            "Free-floating bases: frame_id of the ground-truth odometry (REP-105 odom).",
        ),
    ),
    "base_frame": (
        "",
        _descriptor(
            _T.PARAMETER_STRING,
            "Free-floating bases: child_frame_id of the odometry; empty = the root link.",
        ),
    ),
    "odom_tf": (
        True,
        _descriptor(
            _T.PARAMETER_BOOL,
            "Free-floating bases: also publish TF odom_frame → base_frame on /tf "
            "(where tf2_msgs is installed).",
        ),
    ),
}


def default(name: str) -> Any:
    """The declared default of parameter ``name`` (:data:`PARAMETERS`; ``joints`` and
    ``joint_feedback``: ``()``).

    Raises:
        KeyError: not a parameter of the node.
    """
    value = PARAMETERS[name][0]
    return () if value is Parameter.Type.STRING_ARRAY else value


@dataclass(frozen=True)
class BridgeConfig:
    """Validated parameter values of the bridge node (units: Hz, s); defaults:
    :data:`PARAMETERS`."""

    robot_description: str = default("robot_description")
    description_file: str = default("description_file")
    xacro_args: dict[str, str] = field(default_factory=dict)
    package_paths: dict[str, str] = field(default_factory=dict)
    model: str = default("model")
    robots: tuple[str, ...] = default("robots")
    robot_namespaces: tuple[str, ...] = default("robot_namespaces")
    allow_local_files: bool = default("allow_local_files")
    use_description_topic: bool = default("use_description_topic")
    backend: str = default("backend")
    update_rate: float = default("update_rate")
    publish_rate: float = default("publish_rate")
    joints: tuple[str, ...] = default("joints")
    joint_feedback: tuple[str, ...] = default("joint_feedback")
    command_timeout: float = default("command_timeout")
    max_trajectory_points: int = default("max_trajectory_points")
    real_time_factor: float = default("real_time_factor")
    joint_limits_file: str = default("joint_limits_file")
    thread_priority: int = default("thread_priority")
    diagnostics_rate: float = default("diagnostics_rate")
    frame_prefix: str = default("frame_prefix")
    start_paused: bool = default("start_paused")
    wrench_duration: float = default("wrench_duration")
    odom_frame: str = default("odom_frame")
    base_frame: str = default("base_frame")
    odom_tf: bool = default("odom_tf")
    backend_params: dict[str, Any] = field(default_factory=dict)

    @property
    def state_rate(self) -> float:
        """The rate joint_states are published at, Hz: ``publish_rate``, or ``update_rate``
        when it is 0 (every control cycle)."""
        return self.publish_rate or self.update_rate


def declare_parameters(node: Node) -> BridgeConfig:
    """Declare every parameter of :data:`PARAMETERS` (plus ``backend_params.*`` overrides) on
    ``node`` and return their validated values.

    Also refuses run-time changes of ``use_sim_time`` from then on.

    Raises:
        ConfigError: a value is invalid (wrong type or out of range, bad xacro args,
            publish_rate above update_rate, both robot_description and description_file set,
            an unknown backend).
    """
    values: dict[str, Any] = {}
    try:
        for name, (default, descriptor) in PARAMETERS.items():
            values[name] = node.declare_parameter(name, default, descriptor).value
    except ParameterException as exc:
        hint = ""
        if "INTEGER" in str(exc) and "DOUBLE" in str(exc):
            hint = " Write a double with a decimal point (e.g. update_rate:=200.0, not 200)."
        raise ConfigError(
            f"invalid parameter: {exc}. Fix: see config/bridge.yaml for types and ranges.{hint}"
        ) from exc
    backend_params: dict[str, Any] = {}
    # rclpy has no public accessor for overrides of parameters not yet declared.
    overrides = getattr(node, "_parameter_overrides", {})
    for name in sorted(overrides):
        if name.startswith(BACKEND_PARAMS_PREFIX):
            descriptor = ParameterDescriptor(description="Backend parameter.", read_only=True)
            descriptor.dynamic_typing = True
            value = node.declare_parameter(name, overrides[name].value, descriptor).value
            backend_params[name[len(BACKEND_PARAMS_PREFIX) :]] = value
    config = make_config(values, backend_params)
    _refuse_use_sim_time_changes(node)
    warning = undeclared_warning(
        (name for name in overrides if not node.has_parameter(name)), [*PARAMETERS, USE_SIM_TIME]
    )
    if warning is not None:
        node.get_logger().warning(warning)
    return config


def undeclared_warning(undeclared: Iterable[str], declared: Iterable[str]) -> str | None:
    """The start-up warning about parameter overrides the node does not declare (rclpy ignores
    them): each name, with the one of ``declared`` it is probably a misspelling of
    (:func:`~sdf_bridge.util.similarity.close_match`, the loader's rule). The
    ``qos_overrides.*`` names are left out: rclpy declares them itself as the topics'
    publishers and subscriptions are created, some only later (sensors, ``/clock``); so are
    the ``joint_properties.*`` ones, declared with the robot (:mod:`.joint_parameters` warns about
    those).

    Returns:
        One line, or ``None`` when every name is declared or a QoS override.
    """
    names = sorted(
        n for n in undeclared if not n.startswith((QOS_OVERRIDES_PREFIX, JOINT_PROPERTIES_PREFIX))
    )
    if not names:
        return None
    declared = frozenset(declared)
    parts = []
    for name in names:
        close = close_match(name, declared)
        parts.append(f"{name!r} (did you mean {close!r}?)" if close else repr(name))
    return (
        f"ignoring parameter(s) this node does not declare: {', '.join(parts)}. Fix: correct "
        "the name (see config/bridge.yaml and doc/user/parameters.md) or remove it."
    )


def rclpy_parameter_error(exc: ParameterException) -> ConfigError:
    """The :class:`ConfigError` for a value rclpy refused for its boolean ``use_sim_time`` while
    it created the node (``use_sim_time:=maybe``, ``use_sim_time:=1``: rclpy's
    ``InvalidParameterTypeException``, whose text is ``"<message>: <parameter name>"``)."""
    message, _, name = str(exc).rpartition(": ")
    return ConfigError(
        f"parameter {name}: {message}. Fix: give {name}:=true or {name}:=false (a ROS "
        "boolean; 1, 0 and other words are not)."
    )


def _refuse_use_sim_time_changes(node: Node) -> None:
    """Refuse a run-time change of rclpy's ``use_sim_time`` (SetParameters): the node's time
    base (:mod:`.hardware_time`), the stamps it publishes and the trajectories it follows are
    chosen with it at start-up. (The node's own parameters are read-only already.)"""
    fixed = node.get_parameter(USE_SIM_TIME).value

    def check(parameters: list[Parameter]) -> SetParametersResult:
        for parameter in parameters:
            if parameter.name == USE_SIM_TIME and parameter.value != fixed:
                return SetParametersResult(
                    successful=False,
                    reason=f"use_sim_time is fixed at start-up ({str(fixed).lower()}): the "
                    "watchdog, trajectories and stamps follow the clock chosen then. Fix: "
                    f"restart the bridge with use_sim_time:={str(not fixed).lower()}",
                )
        return SetParametersResult(successful=True)

    node.add_on_set_parameters_callback(check)


#: Conversion of a raw value per declared type (:data:`PARAMETERS`); a dynamically typed
#: parameter (``xacro_args``, ``package_paths``) is passed as given to its parser.
_CONVERSIONS: dict[int, Any] = {
    _T.PARAMETER_STRING: lambda value: str(value or ""),
    _T.PARAMETER_BOOL: bool,
    _T.PARAMETER_INTEGER: int,
    _T.PARAMETER_DOUBLE: float,
    _T.PARAMETER_STRING_ARRAY: lambda value: tuple(s for s in (value or ()) if s),
}
#: String parameters whose surrounding white space is dropped.
_STRIPPED = frozenset({"model", "backend", "odom_frame"})
#: Units named in range errors.
_UNITS = {
    "update_rate": " Hz",
    "publish_rate": " Hz",
    "diagnostics_rate": " Hz",
    "command_timeout": " s",
    "wrench_duration": " s",
}
#: The forms a string-or-array parameter is written in, named in its type error.
_STRING_OR_ARRAY = {"xacro_args": "'k:=v k2:=v2'", "package_paths": "'pkg=DIR pkg2=DIR2'"}


def _converted(name: str, raw: Any, descriptor: ParameterDescriptor) -> Any:
    """Parameter ``name``'s ``raw`` value converted per its descriptor's type (strings of
    :data:`_STRIPPED` stripped, empty entries of string arrays dropped; a dynamically typed one
    only checked to be a string or string array) and checked against its declared range.

    Raises:
        ConfigError: out of the descriptor's range, or a dynamically typed value neither a
            string nor a string array; the message names the parameter, the value and the fix.
    """
    if descriptor.dynamic_typing:
        value = raw or ""
        if not isinstance(value, (str, list, tuple)):
            raise ConfigError(
                f"{name} has type {type(value).__name__}. "
                f"Fix: give a string {_STRING_OR_ARRAY[name]} or a string array."
            )
        return value
    value = _CONVERSIONS[descriptor.type](raw)
    if name in _STRIPPED:
        value = value.strip()
    for r in [*descriptor.floating_point_range, *descriptor.integer_range]:
        if not r.from_value <= value <= r.to_value:
            bounds = f"{r.from_value!r} .. {r.to_value!r}"
            raise ConfigError(
                f"{name} is {value!r}{_UNITS.get(name, '')}, outside its range {bounds}. "
                f"Fix: give {name} a value in {bounds}."
            )
    return value


def make_config(
    values: dict[str, Any], backend_params: dict[str, Any] | None = None
) -> BridgeConfig:
    """Validate raw parameter ``values`` (names of :data:`PARAMETERS`; a missing one takes its
    default) into a :class:`BridgeConfig`.

    Each value is converted and range-checked from its descriptor (``_converted``); the
    rules across parameters or beyond a type and range are checked here.

    Raises:
        ConfigError: invalid combination or value (message says which parameter and the fix),
            e.g. a value out of its declared range, both ``robot_description`` and
            ``description_file`` set, ``publish_rate`` above ``update_rate``, a ``backend`` that
            is neither built in nor a plug-in; a ``package_paths`` entry written ``pkg:=DIR``
            gets that hint.
    """
    v = {
        name: _converted(name, values.get(name, default(name)), descriptor)
        for name, (_, descriptor) in PARAMETERS.items()
    }
    if v["robot_description"].strip() and v["description_file"].strip():
        raise ConfigError(
            "both robot_description and description_file are set. Fix: set only one of them."
        )
    if not v["publish_rate"] <= v["update_rate"]:
        raise ConfigError(
            f"publish_rate {v['publish_rate']} Hz is not in (0, update_rate={v['update_rate']}]. "
            "Fix: lower publish_rate or raise update_rate (0 publishes every cycle)."
        )
    if not v["backend"]:
        raise ConfigError(
            "backend is empty. Fix: set backend to 'mock', 'mujoco' or a plugin name."
        )
    known = available_backends()  # (names only: nothing is imported before it is used)
    if v["backend"] not in known:  # before any description is awaited on the topic
        raise ConfigError(
            f"backend {v['backend']!r} is unknown. Fix: set backend to one of "
            f"{', '.join(known)}, or install the package that registers {v['backend']!r} in "
            "the 'sdf_bridge.backends' entry-point group."
        )
    if not v["odom_frame"]:
        raise ConfigError(
            "odom_frame is empty. Fix: give the odometry frame's name (REP-105: odom)."
        )
    v["xacro_args"] = parse_xacro_args(v["xacro_args"])
    v["package_paths"] = parse_package_paths(v["package_paths"])
    v["frame_prefix"] = parse_frame_prefix(v["frame_prefix"])
    return BridgeConfig(**v, backend_params=dict(backend_params or {}))
