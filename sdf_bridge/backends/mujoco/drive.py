"""The MuJoCo backend's joint drive, set up once per model: where each map joint and its PID
actuator are in MuJoCo's arrays, the PID gains (:mod:`.pid`, :mod:`.gains`) and the joint table
of the per-cycle functions (:func:`.cycle.make_table`) that holds them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

import mujoco
import numpy as np

from ...description.coordinates import is_ball_coordinate
from ...description.model import Robot
from . import cycle
from .actuation import inertia_diagonal_index
from .builder import BuiltModel
from .couplings import coupled_followers
from .cycle import INTEGRAL, SCALE
from .gains import JointInertia, default_gains, joint_inertias, reflected
from .pid import JointPid, PidGains, resolve_gains


class JointDrive(NamedTuple):
    """The drive of the n map joints (arrays in map-joint order).

    Attributes:
        qadr: each joint's ``qpos`` address, (n,) int.
        dadr: each joint's ``qvel`` (dof) address, (n,) int.
        act_ids: its PID actuator's id (``{joint}__pid``), (n,) int.
        act_adr: that actuator's activation address in ``data.act``, (n,) int.
        inertia: the joints' inertias of the default-gain rule (:class:`.gains.JointInertia`).
        scheduled: whether a joint's gains follow its inertia, (n,) bool (never on passive
            joints).
        tab: the joint table (:data:`.cycle.ROWS`, n) (:func:`.cycle.make_table`).
        pid: the joints' PID, its integral and gain schedule state rows of ``tab``.
    """

    qadr: np.ndarray
    dadr: np.ndarray
    act_ids: np.ndarray
    act_adr: np.ndarray
    inertia: JointInertia
    scheduled: np.ndarray
    tab: np.ndarray
    pid: JointPid


def passive_joints(effort_limit: np.ndarray) -> np.ndarray:
    """(n,) bool: the joints simulated as passive, those of effort limit 0 ((n,), N·m or N;
    their commands exert no effort), at configure and after a run-time change."""
    return np.asarray(effort_limit, dtype=float) == 0.0


def ball_columns(robot: Robot, joint_names: Sequence[str]) -> np.ndarray:
    """(n,) bool: the map joints that are angles of a ball joint (:mod:`.balls`)."""
    return np.array([is_ball_coordinate(robot, name) for name in joint_names], dtype=bool)


def drive_gains(
    robot: Robot,
    model: mujoco.MjModel,
    joint_names: Sequence[str],
    params: Mapping[str, Any],
    inertia: JointInertia,
    dadr: np.ndarray,
    effort_limit: np.ndarray,
    passive: np.ndarray,
    *,
    log: bool = True,
) -> PidGains:
    """The PID gains of ``joint_names`` (dofs ``dadr``, (n,)): the configured ones of
    ``params`` or the description, else the defaults of :func:`.gains.default_gains` for their
    ``inertia``, the model's timestep, ``effort_limit`` ((n,), N·m or N) and the joints'
    damping and friction as the model has them now (``dof_damping``, ``dof_frictionloss``),
    each with its coupled followers' reflected (:func:`.gains.reflected`);
    zero gains and no schedule on the ``passive`` joints ((n,) bool); on ball coordinates
    (:func:`ball_columns`) ``p`` and ``d`` only (the PD on the rotation error of :mod:`.balls`,
    per axis of the child's joint frame; no integral, no schedule). The one rule, at
    configure and again when a joint property it depends on changes at run time
    (:mod:`.properties`; ``log`` false: the default-gain line is not logged again).

    Raises:
        ConfigError: a gain parameter is invalid (:func:`.pid.resolve_gains`).
    """
    followers = coupled_followers(model, dadr)
    defaults = default_gains(
        inertia,
        float(model.opt.timestep),
        effort_limit,
        damping=reflected(np.array(model.dof_damping, dtype=float), dadr, followers),
        friction=reflected(np.array(model.dof_frictionloss, dtype=float), dadr, followers, 1),
    )
    gains = resolve_gains(robot, joint_names, params, defaults, inertia, log=log)
    balls = ball_columns(robot, joint_names)
    for array in (gains.p, gains.i, gains.d):
        array[passive] = 0.0
    for array in (gains.i, gains.i_clamp):
        array[balls] = 0.0
    off = passive | balls
    scheduled = np.zeros(len(joint_names), dtype=bool)
    if gains.scheduled is not None:
        scheduled = gains.scheduled & ~off
    return replace(gains, scheduled=scheduled)


def joint_drive(
    robot: Robot,
    built: BuiltModel,
    model: mujoco.MjModel,
    joint_names: Sequence[str],
    params: Mapping[str, Any],
    effort_limit: np.ndarray,
    passive: np.ndarray,
) -> JointDrive:
    """The drive of ``joint_names`` in the compiled ``model`` of ``built`` (its PID actuators
    added by :func:`.actuation.add_pid_actuators`): addresses, inertias, the gains of the
    parameters ``params`` or the defaults (:func:`.pid.resolve_gains`; 0 on the ``passive``
    joints, (n,) bool), for the effort limits ``effort_limit`` ((n,), N·m or N).

    Raises:
        ConfigError: a gain parameter is invalid (:func:`.pid.resolve_gains`).
    """
    addresses = [built.address(n) for n in joint_names]  # (one coordinate per map joint)
    qadr = np.array([a[0] for a in addresses], dtype=int)
    dadr = np.array([a[1] for a in addresses], dtype=int)
    act_ids = np.array(
        [mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_ACTUATOR, f"{j}__pid") for j in joint_names],
        dtype=int,
    )
    act_adr = np.array(model.actuator_actadr[act_ids], dtype=int)
    jnt_ids = np.array(
        [
            mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, built.mj_joint(j))
            for j in joint_names
        ],
        dtype=int,
    )
    inertia = joint_inertias(model, jnt_ids, dadr, coupled_followers(model, dadr))
    gains = drive_gains(robot, model, joint_names, params, inertia, dadr, effort_limit, passive)
    inertia0 = np.maximum(np.array(model.dof_M0)[dadr], 1e-9)
    scheduled = gains.scheduled.copy()
    # the joint table of the per-cycle functions (layout: sdf_bridge.backends.mujoco.cycle)
    tab = cycle.make_table(
        qadr,
        dadr,
        act_adr,
        act_ids,
        inertia_diagonal_index(model)[dadr],
        gains.p,
        gains.i,
        gains.d,
        gains.i_clamp,
        inertia0,
        scheduled,
        passive,
        effort_limit,
    )
    pid = JointPid(gains, effort_limit, state=tab[INTEGRAL : SCALE + 1])
    return JointDrive(qadr, dadr, act_ids, act_adr, inertia, scheduled, tab, pid)
