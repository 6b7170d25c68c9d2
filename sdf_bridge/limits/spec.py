"""Per-joint limits as ros2_control's ``joint_limits::JointLimits`` / ``SoftJointLimits``.

Sources, merged in this order (later ones win, field by field):

1. URDF ``<limit>``: ``lower``/``upper`` (revolute and prismatic only; continuous joints are
   never position-limited from the URDF), ``velocity``, ``effort``. An absent attribute means
   "not limited" (never 0, which would freeze the joint). An explicit ``velocity``/``effort``
   of 0 (a common "unknown" placeholder) is also read as "not limited", with a warning.
2. URDF ``<safety_controller>``: soft limits ``soft_lower_limit``, ``soft_upper_limit``,
   ``k_position``, ``k_velocity``.
3. ``<ros2_control>`` joint interfaces: ``position``/``velocity``/``effort`` command interface
   ``min``/``max`` narrow the range (intersection; for velocity and effort the bound is
   ``min(|min|, max)``); ``<limits enable="false">`` on the joint removes all its limits.
4. The YAML override (``joint_limits.<joint>.<field>``, see :mod:`.overrides`): replaces fields.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from sdf_bridge.description.coordinates import coordinate_joint
from sdf_bridge.description.model import JointType, Robot
from sdf_bridge.errors import LimitsError

_LOG = logging.getLogger(__name__)

INF = math.inf


@dataclass(frozen=True)
class JointLimits:
    """Limits of one joint (SI units; ``±inf``/NaN where not limited).

    Attributes:
        min_position, max_position: rad or m (used when ``has_position_limits``).
        max_velocity: rad/s or m/s; max_acceleration: rad/s² or m/s²; max_effort: N·m or N.
        soft_lower, soft_upper: soft position limits (rad or m), ``±inf`` when absent.
        k_position: soft-limit position gain (1/s), NaN when absent.
        k_velocity: soft-limit velocity gain (N·m·s/rad or N·s/m), NaN when absent.
    """

    has_position_limits: bool = False
    min_position: float = -INF
    max_position: float = INF
    has_velocity_limits: bool = False
    max_velocity: float = INF
    has_acceleration_limits: bool = False
    max_acceleration: float = INF
    has_effort_limits: bool = False
    max_effort: float = INF
    has_soft_limits: bool = False
    soft_lower: float = -INF
    soft_upper: float = INF
    k_position: float = math.nan
    k_velocity: float = math.nan


OVERRIDE_FIELDS = {
    "has_position_limits": bool,
    "min_position": float,
    "max_position": float,
    "has_velocity_limits": bool,
    "max_velocity": float,
    "has_acceleration_limits": bool,
    "max_acceleration": float,
    "has_deceleration_limits": bool,
    "max_deceleration": float,
    "has_jerk_limits": bool,
    "max_jerk": float,
    "has_effort_limits": bool,
    "max_effort": float,
    "angle_wraparound": bool,
    "has_soft_limits": bool,
    "k_position": float,
    "k_velocity": float,
    "soft_lower_limit": float,
    "soft_upper_limit": float,
}
"""Keys accepted under ``joint_limits.<joint>`` (ros2_control's parameter names). Deceleration,
jerk and ``angle_wraparound`` are accepted and not enforced (logged)."""


def _iface_bound(joint: str, iface: str, key: str, text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        raise LimitsError(
            f"joint {joint!r}: <ros2_control> {iface} interface {key} {text!r} is not a number. "
            f'Fix: write <param name="{key}"> as a decimal number.'
        ) from None
    if math.isnan(value):
        raise LimitsError(f"joint {joint!r}: {iface} interface {key} is NaN. Fix: give a number.")
    return value


def urdf_limits(robot: Robot, name: str, warnings: list[str]) -> JointLimits:
    """Limits of joint ``name`` from its URDF ``<limit>`` and ``<safety_controller>`` (SDFormat
    ``<axis><limit>``; an axis coordinate ``<joint>/axis2`` reads ``<axis2><limit>``:
    :func:`~sdf_bridge.description.coordinates.coordinate_joint`); what is read in a relaxed
    way is appended to ``warnings`` (the caller logs them).

    Raises:
        LimitsError: lower > upper, a negative velocity/effort limit, NaN values.
    """
    joint = coordinate_joint(robot, name)
    if joint is None:
        raise LimitsError(f"joint {name!r} is not in robot {robot.name!r}. Fix: check the name.")
    lim = JointLimits()
    limit = joint.limit
    if limit is not None:
        if joint.type in (JointType.REVOLUTE, JointType.PRISMATIC) and (
            limit.lower is not None or limit.upper is not None
        ):
            lo = -INF if limit.lower is None else float(limit.lower)
            hi = INF if limit.upper is None else float(limit.upper)
            if math.isnan(lo) or math.isnan(hi) or lo > hi:
                raise LimitsError(
                    f"joint {name!r}: position limits lower={lo} > upper={hi}. Fix: make "
                    "<limit lower> ≤ <limit upper>."
                )
            lim = replace(lim, has_position_limits=True, min_position=lo, max_position=hi)
        for attr, has, field in (
            ("velocity", "has_velocity_limits", "max_velocity"),
            ("effort", "has_effort_limits", "max_effort"),
        ):
            value = getattr(limit, attr)
            if value is None:
                continue
            value = float(value)
            if math.isnan(value) or value < 0:
                raise LimitsError(
                    f'joint {name!r}: <limit {attr}="{value}"> must be ≥ 0. Fix: give the '
                    f"maximum |{attr}|."
                )
            if value == 0.0:
                warnings.append(
                    f"joint {name!r}: <limit {attr}=\"0\"> read as 'not limited' (as "
                    "gazebo_ros_control reads it; ROS-Industrial descriptions write 0 for "
                    "unknown)"
                )
                continue
            lim = replace(lim, **{has: True, field: value})
    sc = joint.safety_controller
    if sc is not None:
        lim = replace(
            lim,
            has_soft_limits=True,
            soft_lower=-INF if sc.soft_lower_limit is None else float(sc.soft_lower_limit),
            soft_upper=INF if sc.soft_upper_limit is None else float(sc.soft_upper_limit),
            k_position=math.nan if sc.k_position is None else float(sc.k_position),
            k_velocity=float(sc.k_velocity),
        )
    return lim


def description_limits(robot: Robot, name: str, warnings: list[str]) -> JointLimits:
    """What the bridge enforces on joint ``name`` without a YAML override: :func:`urdf_limits`
    narrowed by :func:`apply_ros2_control` (``warnings`` collects both's).

    Raises:
        LimitsError: as those functions.
    """
    return apply_ros2_control(robot, name, urdf_limits(robot, name, warnings), warnings)


def effort_bounds(robot: Robot, names: list[str] | tuple[str, ...]) -> list[float]:
    """The largest ``|effort|`` (N·m or N) each joint of ``names`` may exert, as the limiter
    enforces it (:func:`description_limits`; ``inf`` when not limited, 0 for a ros2_control
    effort window of zero width). Warnings are not repeated (the limiter logs them).

    Raises:
        LimitsError: as :func:`description_limits`.
    """
    return [description_limits(robot, name, []).max_effort for name in names]


def apply_ros2_control(
    robot: Robot, name: str, lim: JointLimits, warnings: list[str] | None = None
) -> JointLimits:
    """Narrow ``lim`` with the ``<ros2_control>`` command interface min/max of ``name``. A
    velocity, effort or acceleration window that is not symmetric (``min ≠ −max``) is narrowed
    to the symmetric ``±min(|min|, |max|)`` the limiter enforces, appended to ``warnings``.

    Raises:
        LimitsError: a min/max that is not a number, or an empty resulting range.
    """
    for hw in robot.ros2_control:
        for comp in hw.joints:
            if comp.name != name:
                continue
            if not comp.enable_limits:
                return JointLimits()
            for iface in comp.command_interfaces:
                if not iface.enable_limits:
                    continue
                lo = _iface_bound(name, iface.name, "min", iface.min)
                hi = _iface_bound(name, iface.name, "max", iface.max)
                if lo is None and hi is None:
                    continue
                if iface.name == "position":
                    new_lo = max(lim.min_position, -INF if lo is None else lo)
                    new_hi = min(lim.max_position, INF if hi is None else hi)
                    if new_lo > new_hi:
                        raise LimitsError(
                            f"joint {name!r}: <ros2_control> position min/max [{lo}, {hi}] do "
                            f"not overlap the URDF range [{lim.min_position}, "
                            f"{lim.max_position}]. Fix: correct the interface min/max."
                        )
                    lim = replace(
                        lim, has_position_limits=True, min_position=new_lo, max_position=new_hi
                    )
                    continue
                field = _WINDOW_FIELDS.get(iface.name)
                if field is None:
                    continue
                bound = min(abs(v) for v in (lo, hi) if v is not None)
                if warnings is not None and lo is not None and hi is not None and lo != -hi:
                    warnings.append(
                        f"joint {name!r}: <ros2_control> {iface.name} window [{lo:g}, {hi:g}] is "
                        f"not symmetric; the bridge limits |{iface.name}| to {bound:g} "
                        f"(±{bound:g})"
                    )
                lim = replace(
                    lim,
                    **{f"has_{iface.name}_limits": True, field: min(getattr(lim, field), bound)},
                )
    return lim


#: Command interfaces whose ``<ros2_control>`` min/max bound a magnitude, and the field they narrow.
_WINDOW_FIELDS = {
    "velocity": "max_velocity",
    "effort": "max_effort",
    "acceleration": "max_acceleration",
}


def apply_override(name: str, lim: JointLimits, values: Mapping[str, object]) -> JointLimits:
    """Apply ``joint_limits.<name>`` YAML values (already type-checked) to ``lim``.

    Raises:
        LimitsError: an inconsistent result (min > max, negative maxima).
    """
    v = dict(values)
    changes: dict[str, object] = {}
    pairs = (
        ("has_position_limits", ("min_position", "max_position")),
        ("has_velocity_limits", ("max_velocity",)),
        ("has_acceleration_limits", ("max_acceleration",)),
        ("has_effort_limits", ("max_effort",)),
    )
    for has, fields in pairs:
        if has in v:
            changes[has] = bool(v[has])
        for f in fields:
            if f in v:
                changes[f] = float(v[f])  # type: ignore[arg-type]  # (validated: a float)
                changes.setdefault(has, True)
    if v.get("has_soft_limits") is False:
        changes.update(
            has_soft_limits=False,
            soft_lower=-INF,
            soft_upper=INF,
            k_position=math.nan,
            k_velocity=math.nan,
        )
    else:
        for key, field in (
            ("soft_lower_limit", "soft_lower"),
            ("soft_upper_limit", "soft_upper"),
            ("k_position", "k_position"),
            ("k_velocity", "k_velocity"),
        ):
            if key in v:
                changes[field] = float(v[key])  # type: ignore[arg-type]  # (validated: a float)
                changes["has_soft_limits"] = True
        if v.get("has_soft_limits") is True:
            changes["has_soft_limits"] = True
    for key in (
        "has_deceleration_limits",
        "max_deceleration",
        "has_jerk_limits",
        "max_jerk",
        "angle_wraparound",
    ):
        if key in v:
            _LOG.info("joint_limits.%s.%s is accepted but not enforced", name, key)
    lim = replace(lim, **changes)  # type: ignore[arg-type]  # (bools for has_*, else floats)
    if not lim.has_position_limits:
        lim = replace(lim, min_position=-INF, max_position=INF)
    if not lim.has_velocity_limits:
        lim = replace(lim, max_velocity=INF)
    if not lim.has_acceleration_limits:
        lim = replace(lim, max_acceleration=INF)
    if not lim.has_effort_limits:
        lim = replace(lim, max_effort=INF)
    if lim.min_position > lim.max_position:
        raise LimitsError(
            f"joint_limits.{name}: min_position {lim.min_position} > max_position "
            f"{lim.max_position}. Fix: swap or correct them."
        )
    for f in ("max_velocity", "max_acceleration", "max_effort"):
        if getattr(lim, f) < 0:
            raise LimitsError(f"joint_limits.{name}.{f} is negative. Fix: give a maximum ≥ 0.")
    if lim.soft_lower > lim.soft_upper:
        raise LimitsError(
            f"joint_limits.{name}: soft_lower_limit {lim.soft_lower} > soft_upper_limit "
            f"{lim.soft_upper}. Fix: swap or correct them."
        )
    return lim
