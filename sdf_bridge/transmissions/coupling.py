"""Followers: joints whose state is a fixed linear function of another joint.

* URDF ``<mimic>`` (and SDFormat 1.11 ``//axis/mimic``): ``q_f = m · q_l + o``,
  ``v_f = m · v_l`` (the offset has no rate). Chains (a mimic of a mimic) are composed
  whatever the file order: ``m = m1·m2``, ``o = m1·o2 + o1``. Cycles are rejected.
* SDFormat gearbox joint: ``θ₂ = −gearbox_ratio · θ₁`` (SDFormat ``joint.sdf``), where θ₁ is
  the angle from ``gearbox_reference_body`` to the gearbox's parent link and θ₂ the angle from
  the reference body to its child link. The 1-DOF joint from the reference body to the parent
  link is the leader (θ₁). As in Gazebo's joint-types demo, the child link is usually joined
  to the reference body by a second joint (the gearbox closes a loop): that joint is the
  follower ``θ₂ = −ratio·θ₁``. The gearbox joint itself is published as the follower
  ``θ₂ − θ₁ = −(ratio + 1)·θ₁`` (the child's angle relative to the parent link, axes parallel),
  whether it closes a loop or is the child's only joint. A gearbox without a reference body,
  or without the 1-DOF joint from it to the parent link, cannot be coupled (a warning): it is
  driven as a plain hinge about its axis (as the MuJoCo backend simulates it), or, when it
  closes a loop, not simulated (:func:`uncoupled_loop_gearboxes`).
* SDFormat screw joint: the joint itself is driven (its angle, rad); its axial translation
  (m) is published as the follower ``<joint>/translation`` = ``k · θ`` with
  ``k = p / 2π`` for ``<screw_thread_pitch>`` p in m/rev (right-handed positive, SDFormat ≥ 1.10)
  and ``k = −1 / p`` for the legacy ``<thread_pitch>`` p in rad/m (Gazebo classic, positive =
  left-handed; SDFormat: ``screw_thread_pitch = −2π / thread_pitch``).

Followers have no command interfaces. Their effort is not determined by the leader's (it is
the coupling's constraint force), so :meth:`~.map.TransmissionMap.followers` reports NaN.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass

from sdf_bridge.description.coordinates import mimic_leader
from sdf_bridge.description.kinematics import (
    loop_joints,
    screw_lead,
    screw_translation_name,
    tree_edges,
)
from sdf_bridge.description.model import Joint, JointType, Robot
from sdf_bridge.errors import TransmissionError

_LOG = logging.getLogger(__name__)

ONE_DOF = (JointType.REVOLUTE, JointType.CONTINUOUS, JointType.PRISMATIC, JointType.SCREW)
"""Joint types that can be driven (are in a :class:`~.map.TransmissionMap`)."""


@dataclass(frozen=True)
class Follower:
    """A follower state: ``position = multiplier · leader + offset``, ``velocity =
    multiplier · leader velocity``. ``leader`` is a driven joint; ``kind`` is ``"mimic"``,
    ``"gearbox"`` or ``"screw"``."""

    name: str
    leader: str
    multiplier: float
    offset: float
    kind: str


def _where(joint) -> str:
    return f" ({joint.source})" if getattr(joint, "source", None) is not None else ""


def _joint_between(robot: Robot, a: str | None, b: str) -> str | None:
    """The 1-DOF joint connecting links ``a`` and ``b`` (either direction), or ``None``."""
    if not a:
        return None
    for other in robot.joints.values():
        if other.type in ONE_DOF and {other.parent, other.child} == {a, b}:
            return other.name
    return None


def _check_finite(joint, what: str, value: float) -> None:
    if not math.isfinite(value):
        raise TransmissionError(
            f"joint {joint.name!r}{_where(joint)}: {what} {value!r} is not finite. "
            "Fix: give a finite number."
        )


def uncoupled_loop_gearboxes(
    robot: Robot, followers: set[str], closing: Sequence[Joint] | None = None
) -> set[str]:
    """Gearboxes that close a kinematic loop and are not ``followers`` (not coupled): not
    simulated (the MuJoCo backend has no joint for them), so neither driven nor published. An
    uncoupled gearbox in the tree is a plain hinge, driven like a revolute joint. ``closing``:
    the joints closing a loop, ``tree_edges(robot)[1]`` (worked out here when not given)."""
    if closing is None:
        closing = tree_edges(robot)[1]
    return {j.name for j in closing if j.type is JointType.GEARBOX and j.name not in followers}


def build_followers(
    robot: Robot, closing: Sequence[Joint] | None = None
) -> tuple[list[Follower], list[str], list[str]]:
    """All followers of ``robot``, composed down to driven leaders. ``closing``: the joints
    closing a loop, ``tree_edges(robot)[1]`` (worked out here when not given).

    Returns:
        ``(followers, follower_joint_names, warnings)``: the followers in joint document order
        (a screw's translation right after nothing else, as ``<joint>/translation``), the set
        of *joints* that are followers (not driven), and warnings about uncoupled gearboxes.

    Raises:
        TransmissionError: a mimic names a missing, fixed or multi-DOF joint, a mimic cycle, a
            non-finite multiplier/offset/ratio/pitch.
    """
    if closing is None:
        closing = tree_edges(robot)[1]
    closing_names = {j.name for j in closing}
    warnings: list[str] = []
    raw: dict[str, tuple[str, float, float, str]] = {}
    for joint in robot.joints.values():
        if joint.mimic is not None and joint.type in ONE_DOF:
            m = joint.mimic
            leader = robot.joints.get(m.joint)
            if leader is None:
                raise TransmissionError(
                    f"joint {joint.name!r}{_where(joint)} mimics {m.joint!r}, which does not "
                    "exist. Fix: name an existing joint in <mimic joint=...>."
                )
            coordinate = mimic_leader(robot, m)  # (an axis of a universal/revolute2 leader)
            if leader.type not in ONE_DOF and coordinate == leader.name:
                raise TransmissionError(
                    f"joint {joint.name!r}{_where(joint)} mimics {m.joint!r}, a {leader.type} "
                    "joint. Fix: mimic a revolute, continuous or prismatic joint, or one axis "
                    "of a universal or revolute2 joint."
                )
            _check_finite(joint, "mimic multiplier", m.multiplier)
            _check_finite(joint, "mimic offset", m.offset)
            raw[joint.name] = (coordinate, float(m.multiplier), float(m.offset), "mimic")
    for joint in robot.joints.values():
        if joint.type is JointType.GEARBOX:
            ref = joint.gearbox_reference_body
            leader_name = _joint_between(robot, ref, joint.parent)
            if leader_name is None:
                msg = (
                    f"gearbox joint {joint.name!r}: reference body {ref!r} is not joined by a "
                    f"1-DOF joint to its parent link {joint.parent!r}; "
                    + (
                        "not simulated (not coupled; it closes a loop)"
                        if joint.name in closing_names
                        else "driven as a plain hinge (not coupled)"
                    )
                )
                warnings.append(msg)
                _LOG.warning(msg)
                continue
            ratio = 1.0 if joint.gearbox_ratio is None else float(joint.gearbox_ratio)
            _check_finite(joint, "gearbox_ratio", ratio)
            follower_name = _joint_between(robot, ref, joint.child)
            if follower_name is not None:
                if follower_name in raw:
                    raise TransmissionError(
                        f"joint {follower_name!r} is coupled twice (mimic and gearbox "
                        f"{joint.name!r}). Fix: keep one coupling."
                    )
                raw[follower_name] = (leader_name, -ratio, 0.0, "gearbox")
            raw[joint.name] = (leader_name, -(ratio + 1.0), 0.0, "gearbox")

    followers: list[Follower] = []
    for name in raw:
        mult, off = 1.0, 0.0
        current = name
        seen = [name]
        kind = raw[name][3]
        while current in raw:
            leader, m, o, _ = raw[current]
            mult, off = mult * m, mult * o + off
            if leader in seen:
                chain = " → ".join(seen + [leader])
                raise TransmissionError(
                    f"mimic cycle {chain}. Fix: make one joint of the cycle a driven joint "
                    "(remove its <mimic>)."
                )
            seen.append(leader)
            current = leader
        followers.append(Follower(name, current, mult, off, kind))

    loops = set(loop_joints(robot, closing))  # not simulated: no translation to publish
    for joint in robot.joints.values():
        if joint.type is JointType.SCREW and joint.name not in raw and joint.name not in loops:
            if joint.thread_pitch is None:
                continue
            _check_finite(joint, "thread pitch", float(joint.thread_pitch))
            k = screw_lead(joint)
            if k is None:
                raise TransmissionError(
                    f"screw joint {joint.name!r}{_where(joint)}: <thread_pitch> is 0 rad/m. "
                    "Fix: give a non-zero pitch."
                )
            followers.append(
                Follower(screw_translation_name(joint.name), joint.name, k, 0.0, "screw")
            )
    return followers, list(raw), warnings
