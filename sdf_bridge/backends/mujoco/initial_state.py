"""The MuJoCo backend's initial state: the whole robot's initial pose
(:class:`~sdf_bridge.backends.initial_pose.InitialPose`: base pose and joint positions and
velocities), followers of joint equalities (mimic, gearbox) consistent with their leaders, and
a free-floating robot placed on the ground."""

from __future__ import annotations

import mujoco
import numpy as np

from ...description.model import Robot
from ..initial_pose import InitialPose
from .builder import BuiltModel
from .couplings import ONE_DOF
from .geoms import penetration, wxyz

GROUND_CLEARANCE = 1e-3
"""m between the ground and the lowest collision geom of a free-floating robot placed on it."""


def free_roots(model: mujoco.MjModel) -> list[tuple[int, int, str]]:
    """``(qpos address, dof address, body name)`` of the free joints of the bodies on the world
    (free-floating bases: root links without ``fixed_base``, or a URDF floating joint to
    ``world``), in body order."""
    found = []
    for body in range(1, model.nbody):
        joint = int(model.body_jntadr[body])
        if (
            model.body_parentid[body] == 0
            and joint >= 0
            and model.jnt_type[joint] == mujoco.mjtJoint.mjJNT_FREE
        ):
            found.append(
                (int(model.jnt_qposadr[joint]), int(model.jnt_dofadr[joint]), model.body(body).name)
            )
    return found


def reset_state(
    model: mujoco.MjModel,
    data: mujoco.MjData,
    built: BuiltModel,
    robot: Robot,
    pose: InitialPose,
    *,
    place_on_ground: bool,
) -> None:
    """``mj_resetData`` (time 0), then ``pose``: its base pose given to the first root link (a
    free joint's position and orientation (the first of :func:`free_roots`), or the model pose
    of the first body on the world), the 1-DOF joints'
    positions (rad or m) and velocities (rad/s or m/s), the joint-equality followers set from
    their leaders (:func:`apply_joint_equalities`); ``place_on_ground`` (a free base, no base
    pose in ``pose``): the free roots moved vertically so that the lowest collision geom is
    :data:`GROUND_CLEARANCE` above z = 0 at this configuration; then ``mj_forward``."""
    mujoco.mj_resetData(model, data)
    roots = free_roots(model)
    fixed = [b for b in range(1, model.nbody) if model.body_parentid[b] == 0]
    if pose.base is not None and fixed:
        xyz, quat = list(pose.base.xyz), wxyz(pose.base.rotation)
        if roots:
            adr = roots[0][0]
            data.qpos[adr : adr + 3] = xyz
            data.qpos[adr + 3 : adr + 7] = quat
        else:  # a fixed base: the weld pose of the first body on the world
            model.body_pos[fixed[0]], model.body_quat[fixed[0]] = xyz, quat
    for name, value in pose.position.items():
        slots = built.joints.get(name)
        if slots is not None and robot.joints[name].type in ONE_DOF:
            data.qpos[slots.qpos[0]] = value
    for name, value in pose.velocity.items():
        slots = built.joints.get(name)
        if slots is not None and robot.joints[name].type in ONE_DOF:
            data.qvel[slots.dof[0]] = value
    apply_joint_equalities(model, data)
    if place_on_ground and pose.base is None and roots:
        lift = penetration(model, data) + GROUND_CLEARANCE
        for adr, _, _ in roots:
            data.qpos[adr + 2] += lift
    mujoco.mj_forward(model, data)


def apply_joint_equalities(model: mujoco.MjModel, data: mujoco.MjData) -> None:
    """Set each active MuJoCo joint-equality follower (``obj1``) from its leader (``obj2``):
    ``q₁ − q₁⁰ = Σₖ cₖ·(q₂ − q₂⁰)ᵏ`` (MuJoCo ``mjEQ_JOINT`` polynomial, ``polycoef`` c₀…c₄),
    and its velocity ``v₁ = (Σₖ k·cₖ·(q₂ − q₂⁰)ᵏ⁻¹)·v₂``, so mimic (``multiplier·leader + offset``)
    and gearbox followers start consistent. Chains are resolved by repeating over all equalities
    ``neq`` times. Equalities to no second joint (a fixed joint value) set ``q₁ = q₁⁰ + c₀``.
    """
    rows = [
        e
        for e in range(model.neq)
        if model.eq_type[e] == mujoco.mjtEq.mjEQ_JOINT and model.eq_active0[e]
    ]
    for _ in range(len(rows)):
        for e in rows:
            c = np.asarray(model.eq_data[e, :5], dtype=float)
            j1, j2 = int(model.eq_obj1id[e]), int(model.eq_obj2id[e])
            q1, d1 = model.jnt_qposadr[j1], model.jnt_dofadr[j1]
            if j2 < 0:
                data.qpos[q1] = model.qpos0[q1] + c[0]
                data.qvel[d1] = 0.0
                continue
            q2, d2 = model.jnt_qposadr[j2], model.jnt_dofadr[j2]
            x = float(data.qpos[q2] - model.qpos0[q2])
            data.qpos[q1] = model.qpos0[q1] + sum(c[k] * x**k for k in range(5))
            data.qvel[d1] = sum(k * c[k] * x ** (k - 1) for k in range(1, 5)) * data.qvel[d2]
