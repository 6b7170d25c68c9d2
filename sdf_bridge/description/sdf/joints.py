"""SDFormat ``<joint>`` properties: type, ``<axis>``/``<axis2>`` (limits, dynamics, mimic),
screw and gearbox parameters.

Defaults are those of the SDFormat specification (sdformat.org/spec, ``joint.sdf``): axis
``xyz`` (0, 0, 1); ``<limit>`` lower −1e16, upper 1e16, effort −1, velocity −1 (negative =
unlimited, mapped to ``None``), stiffness 1e8, dissipation 1; ``<dynamics>`` all 0; mimic
multiplier 1, offset 0, reference 0. The SDF 1.11 mimic relation
``follower = multiplier·(leader − reference) + offset`` is stored in URDF form
(``offset − multiplier·reference``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from lxml import etree

from ...errors import InvalidValueError, UnsupportedError
from ..model import Axis, Dynamics, JointType, Limit, Mimic
from ..sensors.sdf_element import parse_sdf_bool
from ..xmlio import ParseContext

#: SDF type name → joint type.
JOINT_TYPES = {
    "revolute": JointType.REVOLUTE,
    "prismatic": JointType.PRISMATIC,
    "continuous": JointType.CONTINUOUS,
    "fixed": JointType.FIXED,
    "ball": JointType.BALL,
    "universal": JointType.UNIVERSAL,
    "revolute2": JointType.REVOLUTE2,
    "screw": JointType.SCREW,
    "gearbox": JointType.GEARBOX,
}

#: Types that carry ``<axis>``; the two-axis types also ``<axis2>``.
AXIS_TYPES = frozenset(
    {
        JointType.REVOLUTE,
        JointType.PRISMATIC,
        JointType.CONTINUOUS,
        JointType.SCREW,
        JointType.GEARBOX,
        JointType.UNIVERSAL,
        JointType.REVOLUTE2,
    }
)
TWO_AXIS_TYPES = frozenset({JointType.UNIVERSAL, JointType.REVOLUTE2})

#: Maps an axis vector (3,) to the joint frame: (vector, <xyz> element, expressed_in or None,
#: use_parent_model_frame) → unit vector in the joint frame.
Express = Callable[[np.ndarray, etree._Element, "str | None", bool], np.ndarray]


def joint_type(elem: etree._Element, ctx: ParseContext) -> JointType:
    """The joint's ``type`` attribute.

    Raises:
        UnsupportedError: missing or unknown type.
    """
    text = elem.get("type")
    if text not in JOINT_TYPES:
        raise ctx.error(
            UnsupportedError,
            elem,
            f"joint type is {text!r}",
            f"use one of {', '.join(sorted(JOINT_TYPES))}",
        )
    return JOINT_TYPES[text]


def bool_element(ctx: ParseContext, elem: etree._Element | None, default: bool) -> bool:
    """An SDFormat boolean element (``true``/``false``/``1``/``0``), ``default`` when absent.

    Raises:
        InvalidValueError: any other text.
    """
    if elem is None:
        return default
    return parse_sdf_bool(ctx, elem, elem.text or "", f"<{elem.tag}>")


def _limit_value(ctx: ParseContext, elem: etree._Element, tag: str, default: float) -> float:
    child = elem.find(tag)
    if child is None or not (child.text or "").strip():
        return default
    return ctx.to_float(child, child.text, f"<{tag}>", finite=False)


#: Position bounds this large (SDFormat's default ±1e16, or infinite) mean "not limited".
UNLIMITED = 1e16


def parse_limit(elem: etree._Element | None, ctx: ParseContext, jtype: JointType) -> Limit:
    """``<limit>`` with spec defaults; negative (or infinite) effort/velocity → ``None``;
    position bounds of :data:`UNLIMITED` or more (the spec's default ±1e16) → ``None``;
    continuous joints get no position bounds.

    Raises:
        InvalidValueError: non-numbers, NaN, or lower > upper.
    """
    lower, upper, effort, velocity, stiffness, dissipation = -1e16, 1e16, -1.0, -1.0, 1e8, 1.0
    if elem is not None:
        lower = _limit_value(ctx, elem, "lower", lower)
        upper = _limit_value(ctx, elem, "upper", upper)
        effort = _limit_value(ctx, elem, "effort", effort)
        velocity = _limit_value(ctx, elem, "velocity", velocity)
        stiffness = _limit_value(ctx, elem, "stiffness", stiffness)
        dissipation = _limit_value(ctx, elem, "dissipation", dissipation)
        for name, value in (
            ("lower", lower),
            ("upper", upper),
            ("effort", effort),
            ("velocity", velocity),
            ("stiffness", stiffness),
            ("dissipation", dissipation),
        ):
            if math.isnan(value):
                raise ctx.error(
                    InvalidValueError, elem, f"<{name}> is NaN", f"write a number for <{name}>"
                )
        if lower > upper:
            raise ctx.error(
                InvalidValueError,
                elem,
                f"lower limit {lower} is above upper limit {upper}",
                "swap or correct the limits",
            )
    lo: float | None = lower if abs(lower) < UNLIMITED else None
    hi: float | None = upper if abs(upper) < UNLIMITED else None
    if jtype is JointType.CONTINUOUS:
        lo = hi = None
    return Limit(
        lower=lo,
        upper=hi,
        effort=effort if 0 <= effort < math.inf else None,
        velocity=velocity if 0 <= velocity < math.inf else None,
        stiffness=stiffness if math.isfinite(stiffness) else None,
        dissipation=dissipation if math.isfinite(dissipation) else None,
    )


def parse_dynamics(elem: etree._Element | None, ctx: ParseContext) -> Dynamics | None:
    """``<dynamics>`` (all defaults 0), or ``None`` when absent."""
    if elem is None:
        return None
    return Dynamics(
        damping=ctx.child_float(elem, "damping", 0.0) or 0.0,
        friction=ctx.child_float(elem, "friction", 0.0) or 0.0,
        spring_reference=ctx.child_float(elem, "spring_reference", 0.0) or 0.0,
        spring_stiffness=ctx.child_float(elem, "spring_stiffness", 0.0) or 0.0,
    )


def parse_mimic(
    elem: etree._Element | None, ctx: ParseContext, scope_join: Callable[[str], str]
) -> Mimic | None:
    """SDF 1.11 ``//axis/mimic`` in URDF form; ``scope_join`` scopes the leader name.

    Raises:
        InvalidValueError: no ``joint`` attribute, a bad ``axis`` attribute or non-numbers.
    """
    if elem is None:
        return None
    leader = elem.get("joint")
    if not leader:
        raise ctx.error(
            InvalidValueError, elem, "<mimic> has no joint attribute", 'add joint="<leader joint>"'
        )
    axis = elem.get("axis", "axis")
    if axis not in ("axis", "axis2"):
        raise ctx.error(
            InvalidValueError, elem, f"mimic axis is {axis!r}", 'use axis="axis" or axis="axis2"'
        )
    multiplier = ctx.child_float(elem, "multiplier", 1.0) or 0.0
    offset = ctx.child_float(elem, "offset", 0.0) or 0.0
    reference = ctx.child_float(elem, "reference", 0.0) or 0.0
    return Mimic(
        joint=scope_join(leader),
        multiplier=multiplier,
        offset=offset - multiplier * reference,
        axis=axis,
    )


def parse_axis(
    elem: etree._Element | None,
    ctx: ParseContext,
    jtype: JointType,
    express: Express,
    *,
    owner: etree._Element,
    legacy_model_frame: bool,
) -> tuple[Axis, Limit, Dynamics | None, float | None, etree._Element | None]:
    """An ``<axis>``/``<axis2>`` element: (axis in the joint frame, limit, dynamics,
    initial_position, raw ``<mimic>`` element).

    ``legacy_model_frame`` is true for SDF 1.4 files, where axes are in the model frame
    (libsdformat's 1.4 → 1.5 conversion adds ``use_parent_model_frame`` = true).

    Raises:
        InvalidValueError: a zero or non-numeric ``xyz``.
    """
    if elem is None:
        xyz_elem = owner
        vec = np.array([0.0, 0.0, 1.0])
        expressed_in = None
        use_parent = legacy_model_frame
    else:
        xyz_elem = elem.find("xyz")
        if xyz_elem is None:
            vec = np.array([0.0, 0.0, 1.0])
            expressed_in = None
            xyz_elem = elem
        else:
            vec = np.array(ctx.vector(xyz_elem, xyz_elem.text, 3, "axis <xyz>"))
            expressed_in = xyz_elem.get("expressed_in") or None
        use_parent = bool_element(ctx, elem.find("use_parent_model_frame"), legacy_model_frame)
    norm = float(np.linalg.norm(vec))
    if norm == 0.0:
        raise ctx.error(
            InvalidValueError,
            xyz_elem if xyz_elem is not None else owner,
            f"joint {owner.get('name')!r}: axis xyz is (0, 0, 0)",
            "give a non-zero axis direction, e.g. 0 0 1",
        )
    unit = express(vec / norm, xyz_elem, expressed_in, use_parent)
    unit = unit / np.linalg.norm(unit)
    axis = Axis(xyz=tuple(float(v) for v in unit))  # type: ignore[arg-type]  # (a unit 3-vector)
    limit = parse_limit(elem.find("limit") if elem is not None else None, ctx, jtype)
    dynamics = parse_dynamics(elem.find("dynamics") if elem is not None else None, ctx)
    initial = ctx.child_float(elem, "initial_position") if elem is not None else None
    mimic = elem.find("mimic") if elem is not None else None
    return axis, limit, dynamics, initial, mimic
