"""The bridge node's ROS parameters: declared with descriptors (type, range, description) and
read into one validated :class:`BridgeConfig`.

Parameters: :data:`PARAMETERS`, the one table of their defaults, types, ranges and
descriptions (``config/bridge.yaml`` and the README's table show the same defaults: a test
checks them). ``backend_params.<name>`` are passed to the backend's ``configure`` as
``{name: value}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rcl_interfaces.msg import FloatingPointRange, IntegerRange, ParameterDescriptor, ParameterType
from rclpy.exceptions import ParameterException
from rclpy.node import Node
from rclpy.parameter import Parameter

from ..errors import ConfigError
from .launch_args import parse_frame_prefix, parse_xacro_args

BACKEND_PARAMS_PREFIX = "backend_params."


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
            FloatingPointRange(from_value=float(float_range[0]), to_value=float(float_range[1]), step=0.0)
        ]
    if int_range is not None:
        d.integer_range = [IntegerRange(from_value=int_range[0], to_value=int_range[1], step=1)]
    return d


_T = ParameterType
#: name → (default, descriptor); the single table of the node's own parameters.
PARAMETERS: dict[str, tuple[Any, ParameterDescriptor]] = {
    "robot_description": ("", _descriptor(_T.PARAMETER_STRING, "Robot description XML (URDF or SDFormat).")),
    "description_file": ("", _descriptor(_T.PARAMETER_STRING, "Path of a URDF, xacro or SDFormat file.")),
    "xacro_args": (
        "",
        _descriptor(
            _T.PARAMETER_STRING,
            "xacro arguments: a string 'k:=v k2:=v2' or a string array ['k:=v', ...].",
            dynamic=True,
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
    "backend": ("mock", _descriptor(_T.PARAMETER_STRING, "Backend name (sdf_bridge.backends entry point).")),
    "update_rate": (
        100.0,
        _descriptor(_T.PARAMETER_DOUBLE, "Control loop rate, Hz.", float_range=(1.0, 10000.0)),
    ),
    "publish_rate": (
        0.0,
        _descriptor(
            _T.PARAMETER_DOUBLE,
            "joint_states / actuator_states publish rate, Hz (at most update_rate); 0 = update_rate "
            "(every control cycle, so that a controller_manager at the same rate sees each state once).",
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
    "command_timeout": (
        0.5,
        _descriptor(
            _T.PARAMETER_DOUBLE,
            "Watchdog: s without a new command before position holds and velocity/effort go to 0 "
            "(0 = off).",
            float_range=(0.0, 3600.0),
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
        _descriptor(_T.PARAMETER_STRING, "ros2_control joint_limits YAML overriding the description's limits."),
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
        _descriptor(_T.PARAMETER_DOUBLE, "/diagnostics publish rate, Hz.", float_range=(0.01, 100.0)),
    ),
    "frame_prefix": (
        "",
        _descriptor(
            _T.PARAMETER_STRING,
            "Prefix of every frame_id the bridge publishes, as robot_state_publisher's frame_prefix "
            "(e.g. 'left/'); empty = none.",
        ),
    ),
}


def default(name: str) -> Any:
    """The declared default of parameter ``name`` (:data:`PARAMETERS`; ``joints``: ``()``).

    Raises:
        KeyError: not a parameter of the node.
    """
    value = PARAMETERS[name][0]
    return () if value is Parameter.Type.STRING_ARRAY else value


@dataclass(frozen=True)
class BridgeConfig:
    """Validated parameter values of the bridge node (units: Hz, s); defaults: :data:`PARAMETERS`."""

    robot_description: str = default("robot_description")
    description_file: str = default("description_file")
    xacro_args: dict[str, str] = field(default_factory=dict)
    use_description_topic: bool = default("use_description_topic")
    backend: str = default("backend")
    update_rate: float = default("update_rate")
    publish_rate: float = default("publish_rate")
    joints: tuple[str, ...] = default("joints")
    command_timeout: float = default("command_timeout")
    real_time_factor: float = default("real_time_factor")
    joint_limits_file: str = default("joint_limits_file")
    thread_priority: int = default("thread_priority")
    diagnostics_rate: float = default("diagnostics_rate")
    frame_prefix: str = default("frame_prefix")
    backend_params: dict[str, Any] = field(default_factory=dict)

    @property
    def state_rate(self) -> float:
        """The rate joint_states are published at, Hz: ``publish_rate``, or ``update_rate``
        when it is 0 (every control cycle)."""
        return self.publish_rate or self.update_rate


def declare_parameters(node: Node) -> BridgeConfig:
    """Declare every parameter of :data:`PARAMETERS` (plus ``backend_params.*`` overrides) on
    ``node`` and return their validated values.

    Raises:
        ConfigError: a value is invalid (wrong type or out of range, bad xacro args,
            publish_rate above update_rate, both robot_description and description_file set).
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
            backend_params[name[len(BACKEND_PARAMS_PREFIX):]] = value
    return make_config(values, backend_params)


def make_config(values: dict[str, Any], backend_params: dict[str, Any] | None = None) -> BridgeConfig:
    """Validate raw parameter ``values`` (names of :data:`PARAMETERS`) into a :class:`BridgeConfig`.

    Raises:
        ConfigError: invalid combination or value (message says which parameter and the fix).
    """
    robot_description = str(values.get("robot_description") or "")
    description_file = str(values.get("description_file") or "")
    if robot_description.strip() and description_file.strip():
        raise ConfigError(
            "both robot_description and description_file are set. "
            "Fix: set only one of them."
        )
    update_rate = float(values.get("update_rate", default("update_rate")))
    publish_rate = float(values.get("publish_rate", default("publish_rate")))
    if not update_rate > 0.0:
        raise ConfigError(f"update_rate is {update_rate} Hz. Fix: give a rate above 0.")
    if not 0.0 <= publish_rate <= update_rate:
        raise ConfigError(
            f"publish_rate {publish_rate} Hz is not in (0, update_rate={update_rate}]. "
            "Fix: lower publish_rate or raise update_rate (0 publishes every cycle)."
        )
    xacro_raw = values.get("xacro_args") or ""
    if not isinstance(xacro_raw, (str, list, tuple)):
        raise ConfigError(
            f"xacro_args has type {type(xacro_raw).__name__}. "
            "Fix: give a string 'k:=v k2:=v2' or a string array."
        )
    joints = tuple(j for j in (values.get("joints") or ()) if j)
    backend = str(values.get("backend", default("backend"))).strip()
    if not backend:
        raise ConfigError("backend is empty. Fix: set backend to 'mock', 'mujoco' or a plugin name.")
    frame_prefix = parse_frame_prefix(str(values.get("frame_prefix") or ""))
    return BridgeConfig(
        robot_description=robot_description,
        description_file=description_file,
        xacro_args=parse_xacro_args(xacro_raw),
        use_description_topic=bool(values.get("use_description_topic", default("use_description_topic"))),
        backend=backend,
        update_rate=update_rate,
        publish_rate=publish_rate,
        joints=joints,
        command_timeout=float(values.get("command_timeout", default("command_timeout"))),
        real_time_factor=float(values.get("real_time_factor", default("real_time_factor"))),
        joint_limits_file=str(values.get("joint_limits_file") or ""),
        thread_priority=int(values.get("thread_priority", default("thread_priority"))),
        diagnostics_rate=float(values.get("diagnostics_rate", default("diagnostics_rate"))),
        frame_prefix=frame_prefix,
        backend_params=dict(backend_params or {}),
    )
