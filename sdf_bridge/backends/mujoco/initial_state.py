"""The MuJoCo backend's initial state: the whole robot's initial pose
(:class:`~sdf_bridge.backends.initial_pose.InitialPose`: base pose and joint positions and
velocities), the followers of couplings (mimic, gearbox, screw) consistent with their leaders,
and a free-floating robot placed on the ground."""

from __future__ import annotations

import mujoco
import numpy as np

from ...description.coordinates import BALL_SUFFIXES, SEPARATOR, ball_rate_matrix
from ...description.model import JointType, Robot
from ...description.model.pose import rpy_to_matrix
from ..initial_pose import InitialPose
from .builder import BuiltModel
from .couplings import joint_couplings
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
    positions (rad or m) and velocities (rad/s or m/s) (a ball joint's quaternion and angular
    velocity from its roll, pitch, yaw and their rates: :func:`set_balls`), the couplings'
    followers set from
    their leaders (:func:`apply_couplings`); ``place_on_ground`` (a free base, no base
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
        address = built.address(name)  # a 1-DOF joint or an axis coordinate
        if address is not None and not built.is_ball(name):
            data.qpos[address[0]] = value
    for name, value in pose.velocity.items():
        address = built.address(name)
        if address is not None and not built.is_ball(name):
            data.qvel[address[1]] = value
    set_balls(data, built, pose)
    apply_couplings(model, data)
    if place_on_ground and pose.base is None and roots:
        lift = penetration(model, data) + GROUND_CLEARANCE
        for adr, _, _ in roots:
            data.qpos[adr + 2] += lift
    mujoco.mj_forward(model, data)


def set_balls(data: mujoco.MjData, built: BuiltModel, pose: InitialPose) -> None:
    """Set each ball joint's quaternion from the initial roll, pitch, yaw of its coordinates in
    ``pose`` (``R = Rz(yaw)·Ry(pitch)·Rx(roll)`` of its joint frame; missing angles 0) and its
    angular velocity ``ω = J · (roll', pitch', yaw')`` from their initial rates
    (:func:`~sdf_bridge.description.coordinates.ball_rate_matrix`), both turned into the child
    body's frame (:attr:`.builder.JointSlots.frame`)."""
    for slots in built.joints.values():
        if slots.type is not JointType.BALL:
            continue
        names = [f"{slots.name}{SEPARATOR}{s}" for s in BALL_SUFFIXES]
        rpy = [float(pose.position.get(n, 0.0)) for n in names]
        rates = np.array([float(pose.velocity.get(n, 0.0)) for n in names])
        frame = np.eye(3) if slots.frame is None else slots.frame  # (joint frame in the body)
        quat = np.empty(4)
        mujoco.mju_mat2Quat(quat, (frame @ rpy_to_matrix(rpy) @ frame.T).reshape(9))
        data.qpos[slots.qpos[0] : slots.qpos[0] + 4] = quat
        omega = ball_rate_matrix(rpy[0], rpy[1]) @ rates  # (in the joint frame)
        data.qvel[slots.dof[0] : slots.dof[0] + 3] = frame @ omega


def apply_couplings(model: mujoco.MjModel, data: mujoco.MjData) -> None:
    """Set each coupling's follower (:func:`.couplings.joint_couplings`: mimic, gearbox, screw
    translation) from its leader, ``q_f = q_f⁰ + offset + gain·(q_l − q_l⁰)`` and
    ``v_f = gain·v_l``, so that they start consistent; chains (a follower leading another) are
    resolved by repeating over the couplings as many times as there are."""
    couplings = joint_couplings(model)
    for _ in range(len(couplings)):
        for c in couplings:
            data.qpos[c.follower_qpos] = (
                model.qpos0[c.follower_qpos]
                + c.offset
                + c.gain * (data.qpos[c.leader_qpos] - model.qpos0[c.leader_qpos])
            )
            data.qvel[c.follower_dof] = c.gain * data.qvel[c.leader_dof]
