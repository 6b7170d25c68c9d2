"""Couplings between MuJoCo joints: mimic joints, SDFormat gearbox joints and screw translations.

``q_follower = offset + multiplier · q_leader`` is a MuJoCo tendon equality on a fixed tendon
(:func:`add_coupling`; why a tendon and not MuJoCo's joint equality: its docstring);
:func:`add_mimics` couples URDF/SDFormat mimic joints, :func:`add_gearboxes` SDFormat gearbox
joints (their loop and tree forms); :func:`joint_couplings` reads the couplings back from the
compiled model; :func:`static_loads` the load a held joint carries, its followers' included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import mujoco
import numpy as np

from ...description.coordinates import mimic_leader
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

COUPLING_SUFFIX = "__coupling"
"""Name of a coupling's fixed tendon: ``<follower><COUPLING_SUFFIX>`` (a number added when a
follower has more than one)."""


COUPLING_SOLIMP = (0.95, 0.99, 0.001, 0.5, 2.0)
"""MuJoCo ``solimp`` of every coupling: impedance 0.95 at no violation to 0.99 at 0.001 rad
or m (the fraction of the holding force a row gets at once; :func:`add_coupling`)."""


def coupled_followers(model: mujoco.MjModel, dofs: Sequence[int]) -> list[list[tuple[int, float]]]:
    """Per dof of ``dofs``: the ``(dof, gain)`` of every joint its couplings make follow it
    (:func:`joint_couplings`), directly or through other followers (gains multiplied along
    the chain), for :func:`.gains.joint_inertias`."""
    leader_of = {c.follower_dof: (c.leader_dof, c.gain) for c in joint_couplings(model)}
    index = {int(d): k for k, d in enumerate(dofs)}
    found: list[list[tuple[int, float]]] = [[] for _ in dofs]
    for follower in leader_of:
        leader, gain = leader_of[follower]
        seen = {follower}
        while leader not in index and leader in leader_of and leader not in seen:
            seen.add(leader)
            leader, upper = leader_of[leader]
            gain *= upper
        if leader in index:
            found[index[leader]].append((follower, gain))
    return found


def add_coupling(
    spec: mujoco.MjSpec,
    follower: str,
    leader: str,
    multiplier: float,
    offset: float,
    timestep: float,
) -> mujoco.MjsEquality:
    """Couple MuJoCo joints: ``q_follower = offset + multiplier · q_leader``, as a tendon equality
    holding the fixed tendon ``L = q_follower − multiplier · q_leader`` at ``offset`` (MuJoCo
    ``mjEQ_TENDON`` without a second tendon: ``L − L₀ = data[0]``; both joints have qpos0 = 0
    here, so ``L₀ = 0``), time constant ``max(0.005, 4·timestep)`` s, impedance (0.95, 0.99)
    over a violation of 0.001 rad or m.

    Why a tendon, not MuJoCo's joint equality (``polycoef``): MuJoCo softens every constraint
    row by ``R = (1 − d)/d · Â`` (``mj_makeImpedance``, MuJoCo's ``engine_core_constraint.c``),
    ``Â`` its estimate of the row's inverse inertia ``A = J M⁻¹ Jᵀ``, so that the impedance
    ``d`` is the fraction ``A / (A + R)`` of the holding force the row gets at once. For a joint
    equality ``Â = invweight₀(follower) + invweight₀(leader)`` whatever the multiplier
    (``mj_diagApprox``), for a tendon ``Â = tendon_invweight0``, ``J M⁻¹ Jᵀ`` at ``qpos0``
    (``engine_setconst.c``): the row's own. They differ where the multiplier is far from 1 or
    the two joints' inertias are far apart: a screw (hinge leader, slide follower, lead
    0.05 m/rad) with a 1 kg nut of axial inertia 0.00125 kg·m² (Gazebo's joint-types demo) has
    ``A = 0.05²/0.00125 + 1 = 3`` /kg against a joint-equality ``Â = 800 + 1``: an ``R`` 267
    times too large, 27 % of the force instead of 99 %, under which the nut slipped before
    the PID held it, and far less as a tendon (doc/dev/rationale.md).

    Returns:
        the equality; its tendon is named ``<follower>__coupling`` (``…__coupling2``, … for a
        follower's further couplings).
    """
    name = follower + COUPLING_SUFFIX
    taken = {t.name for t in spec.tendons}
    index = 1
    while name in taken:
        index += 1
        name = f"{follower}{COUPLING_SUFFIX}{index}"
    tendon = spec.add_tendon(name=name)
    tendon.wrap_joint(follower, 1.0)
    tendon.wrap_joint(leader, -float(multiplier))
    eq = spec.add_equality(
        type=mujoco.mjtEq.mjEQ_TENDON, name1=name, objtype=mujoco.mjtObj.mjOBJ_TENDON
    )
    data = np.zeros(len(eq.data))
    data[0] = offset
    eq.data = data
    eq.solref = [max(0.005, 4.0 * timestep), 1.0]
    eq.solimp = list(COUPLING_SOLIMP)
    return eq


@dataclass(frozen=True)
class JointCoupling:
    """One coupling of the compiled model, ``q_f − q_f⁰ = offset + gain · (q_l − q_l⁰)``.

    Attributes:
        follower_qpos, follower_dof: qpos and dof address of the follower joint.
        leader_qpos, leader_dof: those of the leader.
        gain: multiplier (follower units per leader unit: rad/rad, m/rad, …).
        offset: rad or m.
    """

    follower_qpos: int
    follower_dof: int
    leader_qpos: int
    leader_dof: int
    gain: float
    offset: float


def joint_couplings(model: mujoco.MjModel) -> list[JointCoupling]:
    """The couplings of ``model`` (its tendon equalities, all made by :func:`add_coupling`), in
    equality order: each holds its fixed tendon ``c_f·q_f + c_l·q_l`` at ``L₀ + data[0]``, so
    ``q_f − q_f⁰ = data[0]/c_f − (c_l/c_f)·(q_l − q_l⁰)``."""
    found = []
    for e in np.flatnonzero(model.eq_type == mujoco.mjtEq.mjEQ_TENDON):
        adr = int(model.tendon_adr[model.eq_obj1id[e]])
        follower, leader = (int(j) for j in model.wrap_objid[adr : adr + 2])
        c_f, c_l = (float(c) for c in model.wrap_prm[adr : adr + 2])
        found.append(
            JointCoupling(
                int(model.jnt_qposadr[follower]),
                int(model.jnt_dofadr[follower]),
                int(model.jnt_qposadr[leader]),
                int(model.jnt_dofadr[leader]),
                -c_l / c_f,
                float(model.eq_data[e, 0]) / c_f,
            )
        )
    return found


def _primary(built: BuiltModel, joint: str) -> str | None:
    slots = built.joints.get(joint)
    if slots is None or slots.type not in ONE_DOF or not slots.mj_joints:
        return None
    return slots.mj_joints[0]


def add_mimics(robot: Robot, built: BuiltModel, timestep: float) -> None:
    """Mimic joints: ``q_follower = offset + multiplier · q_leader`` (couplings); a pair
    that is not two 1-DOF MuJoCo joints is left uncoupled, noted."""
    for joint in robot.joints.values():
        if joint.mimic is None:
            continue
        follower = _primary(built, joint.name)
        leader_name = joint.mimic.joint
        coordinate = mimic_leader(robot, joint.mimic)  # (the rule of the transmission map)
        leader = built.mj_joint(coordinate) if coordinate in built.coordinates else None
        if follower is None or leader is None:
            built.note(
                f"mimic joint {joint.name!r} → {leader_name!r}: both must be 1-DOF movable joints; "
                "the coupling is not simulated"
            )
            continue
        add_coupling(
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
            add_coupling(built.spec, follower, leader, -ratio, 0.0, timestep)
            continue
        if leader is None:
            built.note(
                f"gearbox joint {joint.name!r}: {_gearbox_ref_problem(ref)} to its parent link "
                f"{joint.parent!r} by a 1-DOF joint; simulated as a free hinge"
            )
            continue
        add_coupling(built.spec, joint.name, leader, -(ratio + 1.0), 0.0, timestep)


def static_loads(model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray:
    """The generalised force (N·m or N) each dof's actuator must exert to hold the current state
    at rest, shape (nv,): ``qfrc_bias − qfrc_passive`` (gravity, less what springs and MuJoCo's
    gravity compensation carry), with the load of every coupling's follower (mimic, gearbox,
    screw translation: :func:`joint_couplings`, ``q_f = offset + gain·q_l``) moved onto its
    leader as ``gain·load_f`` (virtual work through the coupling), followers of followers
    first. ``data`` must be current (after ``mj_forward``)."""
    load = np.array(data.qfrc_bias) - np.array(data.qfrc_passive)
    leader_of = {c.follower_dof: (c.leader_dof, c.gain) for c in joint_couplings(model)}

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


__all__ = [
    "COUPLING_SUFFIX",
    "ONE_DOF",
    "JointCoupling",
    "add_gearboxes",
    "add_coupling",
    "add_mimics",
    "joint_couplings",
    "static_loads",
]
