"""The limits of a robot's joints from its description, ``<ros2_control>`` and an override
(:meth:`JointLimiter.from_robot <sdf_bridge.limits.JointLimiter.from_robot>`)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sdf_bridge.description.coordinates import find_coordinate
from sdf_bridge.description.model import Robot
from sdf_bridge.errors import LimitsError

from .overrides import load_overrides, validate_overrides
from .spec import JointLimits, apply_override, description_limits

_LOG = logging.getLogger("sdf_bridge.limits.limiter")


def limits_of(
    robot: Robot,
    joint_names: Sequence[str],
    overrides: Mapping[str, Mapping[str, Any]] | str | Path | None = None,
) -> tuple[list[JointLimits], list[str]]:
    """The limits of ``joint_names`` (their order) and the warnings of reading them: the
    URDF/SDF limits, then ``<ros2_control>``'s, then ``overrides`` (a ``joint_limits`` mapping
    as :func:`.overrides.load_overrides` returns, a raw parsed YAML document, or a YAML path).

    Raises:
        LimitsError: a joint not in the robot, an override for an unknown joint or with a bad
            field, inconsistent limits.
    """
    warnings: list[str] = []
    if overrides is None:
        table: dict[str, dict[str, Any]] = {}
    elif isinstance(overrides, (str, Path)):
        table = load_overrides(overrides)
    elif "joint_limits" in overrides or any(
        isinstance(v, Mapping) and "ros__parameters" in v for v in overrides.values()
    ):
        table = validate_overrides(overrides)
    else:
        table = validate_overrides({"joint_limits": dict(overrides)})
    names = set(joint_names)
    for joint in table:
        if joint not in names:
            raise LimitsError(
                f"joint_limits override names {joint!r}, which is not a limited joint "
                f"({', '.join(joint_names)}). Fix: correct the joint name."
            )
    limits = []
    for name in joint_names:
        if find_coordinate(robot, name) is None:
            raise LimitsError(
                f"joint {name!r} is not in robot {robot.name!r}. Fix: check the name."
            )
        lim = description_limits(robot, name, warnings)
        if name in table:
            lim = apply_override(name, lim, table[name])
        if lim.has_soft_limits and lim.k_velocity == 0.0 and lim.has_effort_limits:
            msg = (
                f"joint {name!r}: soft limits with k_velocity 0 clamp every effort command "
                "to 0 (ros2_control behaviour). Fix: give a positive k_velocity."
            )
            warnings.append(msg)
        limits.append(lim)
    for msg in warnings:
        _LOG.warning(msg)
    return limits, warnings
