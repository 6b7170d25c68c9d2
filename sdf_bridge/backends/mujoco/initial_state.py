"""The MuJoCo backend's initial state: joint positions and velocities from the description
(:func:`~sdf_bridge.backends.initial_values.initial_joint_values`), followers of joint
equalities (mimic, gearbox) consistent with their leaders."""

from __future__ import annotations

from collections.abc import Mapping

import mujoco
import numpy as np

from ...description.model import Robot
from .builder import BuiltModel
from .couplings import ONE_DOF


def reset_state(model: mujoco.MjModel, data: mujoco.MjData, built: BuiltModel, robot: Robot,
                position: Mapping[str, float], velocity: Mapping[str, float]) -> None:
    """``mj_resetData`` (time 0), then the 1-DOF joints of ``position`` (rad or m) and
    ``velocity`` (rad/s or m/s) set, the joint-equality followers set from their leaders
    (:func:`apply_joint_equalities`), and ``mj_forward``."""
    mujoco.mj_resetData(model, data)
    for name, value in position.items():
        slots = built.joints.get(name)
        if slots is not None and robot.joints[name].type in ONE_DOF:
            data.qpos[slots.qpos[0]] = value
    for name, value in velocity.items():
        slots = built.joints.get(name)
        if slots is not None and robot.joints[name].type in ONE_DOF:
            data.qvel[slots.dof[0]] = value
    apply_joint_equalities(model, data)
    mujoco.mj_forward(model, data)


def apply_joint_equalities(model: mujoco.MjModel, data: mujoco.MjData) -> None:
    """Set each active MuJoCo joint-equality follower (``obj1``) from its leader (``obj2``):
    ``q₁ − q₁⁰ = Σₖ cₖ·(q₂ − q₂⁰)ᵏ`` (MuJoCo ``mjEQ_JOINT`` polynomial, ``polycoef`` c₀…c₄),
    and its velocity ``v₁ = (Σₖ k·cₖ·(q₂ − q₂⁰)ᵏ⁻¹)·v₂``, so mimic (``multiplier·leader + offset``)
    and gearbox followers start consistent. Chains are resolved by repeating over all equalities
    ``neq`` times. Equalities to no second joint (a fixed joint value) set ``q₁ = q₁⁰ + c₀``.
    """
    rows = [
        e for e in range(model.neq)
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
