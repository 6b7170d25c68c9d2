"""Joint-space initial values of a robot, as backends start from them.

ros2_control's mock_components and gz_ros2_control start each joint at the ``initial_value`` of
its ``<ros2_control>`` state interface; SDFormat joints may also carry ``initial_position``. A
start outside the joint's position limits (a knee whose range excludes 0: Unitree's calves) is
clamped into them, with a warning, the same for every backend (a simulator would otherwise
fight its own joint stop from the first step).
"""

from __future__ import annotations

import logging
import math
from typing import Any

from ..description.coordinates import coordinate_joint, coordinate_names, find_coordinate
from ..description.model import JointType, Robot
from ..errors import BackendError
from ..limits.spec import description_limits

_LOG = logging.getLogger(__name__)

#: State interfaces whose ``initial_value`` gives a joint's starting state.
INTERFACES = ("position", "velocity", "effort")


def parse_float(value: Any, what: str) -> float:
    """``value`` as a finite float.

    Raises:
        BackendError: not a finite number (``what`` names the value in the message).
    """
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if not math.isfinite(number):
        raise BackendError(f"{what} is {value!r}, not a finite number. Fix: give a number.")
    return number


def initial_joint_values(robot: Robot) -> dict[str, dict[str, float]]:
    """Initial joint-space values: interface (``position``, ``velocity``, ``effort``) → joint
    name → value (rad or m, rad/s or m/s, N·m or N).

    Position starts from the description's ``initial_position`` where given; the
    ``initial_value`` of the joint's ``<ros2_control>`` state interface overrides it. Joints
    without a value are absent (they start at 0).

    A joint whose position (given, else 0) lies outside its position limits (what the limiter
    enforces: :func:`~sdf_bridge.limits.spec.description_limits`) starts at the nearest limit,
    warned about once naming every such joint.

    Raises:
        BackendError: an ``initial_value`` is not a finite number (block, joint and interface
            named).
    """
    values: dict[str, dict[str, float]] = {name: {} for name in INTERFACES}
    for joint in robot.joints.values():
        if joint.initial_position is not None:  # (<axis><initial_position>: axis1's)
            values["position"][coordinate_names(joint)[0]] = float(joint.initial_position)
    for block in robot.ros2_control:
        for info in block.joints:
            if find_coordinate(robot, info.name) is None:
                continue
            for interface in info.state_interfaces:
                if interface.name in values and interface.initial_value not in (None, ""):
                    where = f" ({info.source})" if info.source is not None else ""
                    values[interface.name][info.name] = parse_float(
                        interface.initial_value,
                        f"<ros2_control name={block.name!r}> joint {info.name!r} state interface "
                        f"{interface.name!r} initial_value{where}",
                    )
    clamp_into_limits(robot, values["position"])
    return values


def clamp_into_limits(robot: Robot, position: dict[str, float], source: str = "") -> None:
    """Move every revolute and prismatic joint whose start ``position`` (joint → rad or m,
    updated in place; absent = 0) lies outside its position limits (what the limiter enforces:
    :func:`~sdf_bridge.limits.spec.description_limits`) to the nearest limit, warning once
    naming every such joint (and ``source``, e.g. a keyframe, when given)."""
    clamped = []
    for name in (c for j in robot.joints.values() for c in coordinate_names(j)):
        joint = coordinate_joint(robot, name)  # (an axis of a multi-axis joint: its own limits)
        if joint is None or joint.type not in (JointType.REVOLUTE, JointType.PRISMATIC):
            continue
        lim = description_limits(robot, name, [])
        start = position.get(name, 0.0)
        if lim.has_position_limits and not lim.min_position <= start <= lim.max_position:
            position[name] = min(max(start, lim.min_position), lim.max_position)
            clamped.append(f"{name} {start:g} → {position[name]:g}")
    if clamped:
        of = f" of {source}" if source else ""
        _LOG.warning(
            "initial positions%s outside the joint limits clamped into them (rad or m): %s",
            of,
            ", ".join(clamped),
        )
