"""Couplings between MuJoCo joints: mimic joints and SDFormat gearbox joints, as joint equalities.

``q_follower = offset + multiplier · q_leader`` is a MuJoCo joint equality
(:func:`add_joint_equality`); :func:`add_mimics` couples URDF/SDFormat mimic joints,
:func:`add_gearboxes` SDFormat gearbox joints (their loop and tree forms); :func:`static_loads` the
load a held joint carries, its followers' included.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import mujoco
import numpy as np

from ...description.model import Joint, JointType, Robot

if TYPE_CHECKING:  # pragma: no cover
    from .builder import BuiltModel

ONE_DOF = frozenset(
    {
        JointType.REVOLUTE,
        JointType.CONTINUOUS,
        JointType.PRISMATIC,
        JointType.SCREW,
        JointType.GEARBOX,
    }
)
"""Joint types with one primary MuJoCo DOF (the ones a transmission or mimic can drive)."""


def add_joint_equality(
    spec: mujoco.MjSpec,
    follower: str,
    leader: str,
    multiplier: float,
    offset: float,
    timestep: float,
) -> mujoco.MjsEquality:
    """Couple MuJoCo joints: ``q_follower = offset + multiplier · q_leader`` (MuJoCo joint equality,
    ``polycoef = (offset, multiplier, 0, 0, 0)``; both joints have qpos0 = 0 here).

    The constraint is made stiffer than MuJoCo's default: time constant ``max(0.005, 4·timestep)``
    s, impedance (0.95, 0.99).
    """
    eq = spec.add_equality(
        type=mujoco.mjtEq.mjEQ_JOINT,
        name1=follower,
        name2=leader,
        objtype=mujoco.mjtObj.mjOBJ_JOINT,
    )
    data = np.zeros(len(eq.data))
    data[0], data[1] = offset, multiplier
    eq.data = data
    eq.solref = [max(0.005, 4.0 * timestep), 1.0]
    eq.solimp = [0.95, 0.99, 0.001, 0.5, 2.0]
    return eq


def _primary(built: BuiltModel, joint: str) -> str | None:
    slots = built.joints.get(joint)
    if slots is None or slots.type not in ONE_DOF or not slots.mj_joints:
        return None
    return slots.mj_joints[0]


def add_mimics(robot: Robot, built: BuiltModel, timestep: float) -> None:
    """Mimic joints: ``q_follower = offset + multiplier · q_leader`` (joint equalities); a pair
    that is not two 1-DOF MuJoCo joints is left uncoupled, noted."""
    for joint in robot.joints.values():
        if joint.mimic is None:
            continue
        follower = _primary(built, joint.name)
        leader_name = joint.mimic.joint
        if joint.mimic.axis == "axis2":
            slots = built.joints.get(leader_name)
            leader = slots.mj_joints[1] if slots is not None and len(slots.mj_joints) > 1 else None
        else:
            leader = _primary(built, leader_name)
        if follower is None or leader is None:
            built.note(
                f"mimic joint {joint.name!r} → {leader_name!r}: both must be 1-DOF movable joints; "
                "the coupling is not simulated"
            )
            continue
        add_joint_equality(
            built.spec, follower, leader, joint.mimic.multiplier, joint.mimic.offset, timestep
        )


def _joining(robot: Robot, built: BuiltModel, a: str, b: str, exclude: str) -> str | None:
    """The primary MuJoCo joint of a 1-DOF joint between links ``a`` and ``b`` (either way)."""
    for other in robot.joints.values():
        if other.name != exclude and {other.parent, other.child} == {a, b}:
            return _primary(built, other.name)
    return None


def _gearbox_ref_problem(ref: str | None) -> str:
    """Start of a gearbox note: the missing ``<gearbox_reference_body>`` or the unjoined body."""
    if not ref:
        return "has no gearbox_reference_body (give <gearbox_reference_body>), so it is not joined"
    return f"reference body {ref!r} is not joined"


def add_gearboxes(robot: Robot, built: BuiltModel, timestep: float, loops: Sequence[Joint]) -> None:
    """SDFormat gearbox joints: the child's angle relative to ``gearbox_reference_body`` is
    ``−gearbox_ratio · θ₁`` (SDFormat ``joint.sdf``; ratio 1 when not given), θ₁ being the angle
    of the parent link relative to the reference body (the 1-DOF joint joining them).

    * Loop form (SDFormat's examples; as :mod:`sdf_bridge.transmissions.coupling`): the child is
      also joined to the reference body by a 1-DOF joint: that joint follows,
      ``q_follower = −ratio · q_leader`` (the gearbox itself is a constraint, no DOF).
    * Tree form (the gearbox is the child's only joint): its hinge measures the child relative
      to the parent link, which turns by θ₁, so ``q_gearbox = −(ratio + 1) · θ₁`` (axes assumed
      parallel).

    Without the needed 1-DOF joints the gearbox is uncoupled (a free hinge in tree form), noted.
    """
    loop_names = {j.name for j in loops}
    for joint in robot.joints.values():
        if joint.type is not JointType.GEARBOX:
            continue
        ref = joint.gearbox_reference_body
        ratio = 1.0 if joint.gearbox_ratio is None else float(joint.gearbox_ratio)
        leader = _joining(robot, built, ref, joint.parent, joint.name) if ref else None
        if joint.name in loop_names:
            follower = _joining(robot, built, ref, joint.child, joint.name) if ref else None
            if leader is None or follower is None:
                built.note(
                    f"gearbox joint {joint.name!r}: {_gearbox_ref_problem(ref)} by 1-DOF joints to "
                    f"both {joint.parent!r} and {joint.child!r}; the gearbox is not simulated"
                )
                continue
            add_joint_equality(built.spec, follower, leader, -ratio, 0.0, timestep)
            continue
        if leader is None:
            built.note(
                f"gearbox joint {joint.name!r}: {_gearbox_ref_problem(ref)} to its parent link "
                f"{joint.parent!r} by a 1-DOF joint; simulated as a free hinge"
            )
            continue
        add_joint_equality(built.spec, joint.name, leader, -(ratio + 1.0), 0.0, timestep)


def static_loads(model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray:
    """The generalised force (N·m or N) each dof's actuator must exert to hold the current state
    at rest, shape (nv,): ``qfrc_bias − qfrc_passive`` (gravity, less what springs and MuJoCo's
    gravity compensation carry), with the load of every joint-equality follower (mimic,
    gearbox, screw translation: ``q₁ = c₀ + c₁·q₂``) moved onto its leader as ``c₁·load₁``
    (virtual work through the coupling), followers of followers first. ``data`` must be current
    (after ``mj_forward``)."""
    load = np.array(data.qfrc_bias) - np.array(data.qfrc_passive)
    leader_of: dict[int, tuple[int, float]] = {}
    for e in range(model.neq):
        if (
            model.eq_type[e] == mujoco.mjtEq.mjEQ_JOINT
            and model.eq_active0[e]
            and model.eq_obj2id[e] >= 0
        ):
            follower = int(model.jnt_dofadr[model.eq_obj1id[e]])
            leader_of[follower] = (
                int(model.jnt_dofadr[model.eq_obj2id[e]]),
                float(model.eq_data[e, 1]),
            )

    def depth(dof: int) -> int:
        seen = set()
        while dof in leader_of and dof not in seen:
            seen.add(dof)
            dof = leader_of[dof][0]
        return len(seen)

    for follower in sorted(leader_of, key=depth, reverse=True):
        leader, gain = leader_of[follower]
        load[leader] += gain * load[follower]
    return load


__all__ = ["ONE_DOF", "add_gearboxes", "add_joint_equality", "add_mimics", "static_loads"]
