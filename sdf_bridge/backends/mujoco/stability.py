"""Divergence of the MuJoCo simulation: whether it diverged (MuJoCo's divergence warnings, or
positions no longer finite), the joints MuJoCo names, and the error the backend logs when it
recovers (:meth:`.backend.MujocoBackend.read`: back to the initial state, the time kept)."""

from __future__ import annotations

import logging
import math

import mujoco
import numpy as np

from .cycle import WARN_QACC, WARN_QPOS, WARN_QVEL

# the backend's logger: the error is the backend's, under the name users filter its log by
_LOG = logging.getLogger("sdf_bridge.backends.mujoco.backend")
UNSTABLE = (WARN_QACC, WARN_QVEL, WARN_QPOS)
"""The ``data.warning`` entries that mean the simulation diverged."""


def diverged_joints(
    model: mujoco.MjModel, data: mujoco.MjData, count: np.ndarray
) -> list[str] | None:
    """``None`` when the simulation is stable: none of the :data:`UNSTABLE` warnings counted in
    ``count`` (``data.warning.number``, (mjNWARNING,)) and ``Σ qpos²`` finite; else the names of
    the joints MuJoCo's warnings name, sorted (empty when they name none)."""
    qpos = data.qpos
    if not (count[WARN_QACC] or count[WARN_QVEL] or count[WARN_QPOS]) and math.isfinite(
        qpos @ qpos
    ):
        return None
    return sorted(
        {
            model.joint(int(model.dof_jntid[stat.lastinfo])).name
            for w in UNSTABLE
            if (stat := data.warning[w]).number and 0 <= stat.lastinfo < model.nv
        }
    )


def log_instability(count: int, sim_time: float, joints: list[str]) -> None:
    """Log the error of the ``count``-th divergence (s ``sim_time``, at ``joints``) the 1st,
    10th, 100th, … time: what happened, that the simulation was reset, and the fix."""
    if math.log10(count).is_integer():
        where = f" at joint(s) {joints}" if joints else ""
        _LOG.error(
            "MuJoCo simulation became unstable (NaN, Inf or huge values) near t = %.4f s%s; "
            "reset to the initial state (%d time(s) so far). Fix: check the masses and "
            "inertias of the links there (tiny or huge values), joint stop stiffness, "
            "PID gains and effort limits, or use a smaller timestep",
            sim_time,
            where,
            count,
        )
