"""Divergence of the MuJoCo simulation: whether it diverged (MuJoCo's divergence warnings, or
positions no longer finite), the joints MuJoCo names, and the error the backend logs when it
recovers (:meth:`.backend.MujocoBackend.read`: back to the initial state, the time kept)."""

from __future__ import annotations

import logging
import math
import re
import threading

import mujoco
import numpy as np

from .cycle import WARN_QACC, WARN_QPOS, WARN_QVEL

# the backend's logger: the error is the backend's, under the name users filter its log by
_LOG = logging.getLogger("sdf_bridge.backends.mujoco.backend")
UNSTABLE = (WARN_QACC, WARN_QVEL, WARN_QPOS)
"""The ``data.warning`` entries that mean the simulation diverged."""


def decade(count: int) -> bool:
    """Whether the ``count``-th occurrence of something is logged: the 1st, 10th, 100th, …
    (the backend's one throttle rule: its own divergence errors and MuJoCo's warnings)."""
    return count >= 1 and math.log10(count).is_integer()


#: The numbers in a MuJoCo warning (a DOF, a time): masked to tell its kind. No nested
#: quantifier: linear in the message.
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")


class MujocoWarnings:
    """MuJoCo's own warnings (``mju_user_warning``: by default printed on standard output and
    appended to ``MUJOCO_LOG.TXT``, once per divergence: thousands of lines from one diverging
    model; doc/dev/rationale.md) through the backend's log, throttled as the backend's own
    errors are: each kind (the text with its numbers masked) the 1st, 10th, 100th, … time
    (:func:`decade`), with its count. Thread-safe (MuJoCo may warn from a compilation's worker
    thread)."""

    def __init__(self, log: logging.Logger = _LOG) -> None:
        self._log = log
        self._lock = threading.Lock()
        self.counts: dict[str, int] = {}

    def __call__(self, message: str) -> None:
        """Count ``message`` and log it when :func:`decade` says so."""
        text = str(message).strip()
        kind = _NUMBER.sub("N", text)
        with self._lock:
            count = self.counts[kind] = self.counts.get(kind, 0) + 1
        if decade(count):
            self._log.warning("MuJoCo: %s (%d time(s) so far)", text, count)


#: The process's handler (MuJoCo's warning callback is process-wide).
MUJOCO_WARNINGS = MujocoWarnings()


def forward_mujoco_warnings() -> None:
    """Route MuJoCo's warnings through :data:`MUJOCO_WARNINGS` (idempotent; the backend calls
    it before it compiles a model)."""
    if mujoco.get_mju_user_warning() is not MUJOCO_WARNINGS:
        mujoco.set_mju_user_warning(MUJOCO_WARNINGS)


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
    if decade(count):
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
