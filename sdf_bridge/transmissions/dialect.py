"""From a described transmission (either dialect) to mechanism parameters.

Rules (DESIGN.md "Transmission dialects"):

* **Roles decide the order**, never the XML order: ``joint1``/``joint2`` and
  ``actuator1``/``actuator2`` (PR2 wrist: ``rightActuator``/``leftActuator`` =
  actuator1/actuator2, ``flexJoint``/``rollJoint`` = joint1/joint2). When no entry has a role,
  document order is used. Roles that are duplicated, unknown, or given on only some entries are
  a :class:`TransmissionError`. A side with a single entry ignores its role (ros2_control_demos
  example 8 gives its second SimpleTransmission the roles ``joint2``/``actuator2``).
* **SimpleTransmission ratio.** The canonical side is the actuator's ``<mechanicalReduction>``
  in the classic and PR2 dialects and the joint's ``<mechanical_reduction>`` in the
  ros2_control dialect. A value found only on the other side (or only in the camelCase
  spelling kept in ``params``) is applied with a warning. Both sides given: equal
  values are used once (warning); different values are a :class:`TransmissionError` (we do not
  guess whether the writer meant their product). Neither given: 1.0, the dialects' default
  (noted in ``sdf-bridge check``).
* **Differential, four-bar, PR2 wrist:** both sides are used as written (default 1.0 each),
  as in both ROS loaders.
* Offsets: the joint's ``<offset>`` (0.0 when absent).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from sdf_bridge.description.model import Transmission as TransmissionSpec
from sdf_bridge.errors import TransmissionError

from .base import Transmission
from .simple import SimpleTransmission

_LOG = logging.getLogger(__name__)

_ROLE_ALIASES = {
    "rightactuator": "actuator1",
    "right_actuator": "actuator1",
    "leftactuator": "actuator2",
    "left_actuator": "actuator2",
    "flexjoint": "joint1",
    "flex_joint": "joint1",
    "rolljoint": "joint2",
    "roll_joint": "joint2",
}


@dataclass
class Resolved:
    """Mechanism parameters of one described transmission, in role order."""

    joints: list[str]
    actuators: list[str]
    joint_reductions: list[float]
    actuator_reductions: list[float]
    joint_offsets: list[float]
    notes: list[str] = field(default_factory=list)


def _where(spec: TransmissionSpec) -> str:
    return f" ({spec.source})" if spec.source is not None else ""


def _order(spec: TransmissionSpec, entries: Sequence, kind: str) -> list:
    if len(entries) <= 1:
        return list(entries)  # a single entry: its role (if any) does not matter
    roles = [(_ROLE_ALIASES.get(e.role.lower(), e.role) if e.role else None) for e in entries]
    if all(r is None for r in roles):
        return list(entries)
    wanted = [f"{kind}{i + 1}" for i in range(len(entries))]
    if any(r is None for r in roles) or sorted(roles, key=str) != sorted(wanted):
        raise TransmissionError(
            f"transmission {spec.name!r}{_where(spec)}: {kind} roles {roles} are not exactly "
            f"{wanted}. Fix: give each <{kind}> a distinct role {', '.join(wanted)} (or no roles "
            "at all to use document order)."
        )
    by_role = dict(zip(roles, entries))
    return [by_role[r] for r in wanted]


def _param_reduction(spec: TransmissionSpec) -> float | None:
    for key, value in spec.params:
        if key in ("mechanicalReduction", "mechanical_reduction"):
            try:
                return float(value)
            except ValueError:
                raise TransmissionError(
                    f"transmission {spec.name!r}{_where(spec)}: <{key}> {value!r} is not a "
                    "number. Fix: write a finite, non-zero number."
                ) from None
    return None


def _simple_ratio(spec: TransmissionSpec, joint, actuator, notes: list[str]) -> float:
    canonical_is_joint = spec.dialect == "ros2_control"
    j_red = joint.mechanical_reduction
    a_red = actuator.mechanical_reduction
    if a_red is None and spec.dialect != "ros2_control":
        a_red = _param_reduction(spec)  # PR2: <mechanicalReduction> directly under <transmission>
    if j_red is None and spec.dialect == "ros2_control":
        j_red = _param_reduction(spec)
    canonical, other = (j_red, a_red) if canonical_is_joint else (a_red, j_red)
    canon_where = (
        "the joint's <mechanical_reduction>"
        if canonical_is_joint
        else "the actuator's <mechanicalReduction>"
    )
    other_where = "actuator" if canonical_is_joint else "joint"
    if canonical is not None and other is not None:
        if canonical != other:
            raise TransmissionError(
                f"transmission {spec.name!r}{_where(spec)} ({spec.dialect} dialect) gives a "
                f"reduction on both sides: joint {j_red!r}, actuator {a_red!r}. Fix: give the "
                f"total ratio once, in {canon_where}."
            )
        notes.append(
            f"reduction {canonical:g} given on both sides; used once (the {spec.dialect} "
            f"dialect reads {canon_where})"
        )
        _LOG.warning("transmission %r: %s", spec.name, notes[-1])
        return canonical
    if canonical is not None:
        return canonical
    if other is not None:
        notes.append(
            f"reduction {other:g} found on the {other_where} side, not where the "
            f"{spec.dialect} dialect expects it ({canon_where}); applied"
        )
        _LOG.warning("transmission %r: %s", spec.name, notes[-1])
        return other
    notes.append("no mechanical reduction given: 1.0 (the dialect's default)")
    return 1.0


def resolve(spec: TransmissionSpec, cls: type[Transmission]) -> Resolved:
    """Joint/actuator names, reductions and offsets of ``spec`` in role order for ``cls``.

    Raises:
        TransmissionError: bad or duplicated roles, both-sided Simple reductions that differ,
            a reduction that is not a number.
    """
    joints = _order(spec, spec.joints, "joint")
    actuators = _order(spec, spec.actuators, "actuator")
    notes: list[str] = []
    offsets = [float(j.offset) for j in joints]
    for j, off in zip(joints, offsets):
        if not math.isfinite(off):
            raise TransmissionError(
                f"transmission {spec.name!r}{_where(spec)}: joint {j.name!r} offset {off!r} is "
                "not finite. Fix: give a finite <offset> (rad or m)."
            )
    if issubclass(cls, SimpleTransmission) and len(joints) == 1 and len(actuators) == 1:
        ratio = _simple_ratio(spec, joints[0], actuators[0], notes)
        return Resolved([joints[0].name], [actuators[0].name], [ratio], [1.0], offsets, notes)
    j_red = [
        1.0 if j.mechanical_reduction is None else float(j.mechanical_reduction) for j in joints
    ]
    a_red = [
        1.0 if a.mechanical_reduction is None else float(a.mechanical_reduction) for a in actuators
    ]
    return Resolved(
        [j.name for j in joints], [a.name for a in actuators], j_red, a_red, offsets, notes
    )
