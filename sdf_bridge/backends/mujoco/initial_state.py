"""The MuJoCo backend's initial state: the whole robot's initial pose
(:class:`~sdf_bridge.backends.initial_pose.InitialPose`: base pose and joint positions and
velocities), the followers of couplings (mimic, gearbox, screw) consistent with their leaders,
and a free-floating robot placed on the ground."""

from __future__ import annotations

import mujoco

from ...description.model import Robot
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
    positions (rad or m) and velocities (rad/s or m/s), the couplings' followers set from
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
        if address is not None:
            data.qpos[address[0]] = value
    for name, value in pose.velocity.items():
        address = built.address(name)
        if address is not None:
            data.qvel[address[1]] = value
    apply_couplings(model, data)
    if place_on_ground and pose.base is None and roots:
        lift = penetration(model, data) + GROUND_CLEARANCE
        for adr, _, _ in roots:
            data.qpos[adr + 2] += lift
    mujoco.mj_forward(model, data)


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
