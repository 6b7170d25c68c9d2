"""The MuJoCo actuators the backend drives its joints with, and where it reads their inertia.

One affine actuator per map joint (``<joint>__pid``, on the joint, gear 1): an integrator
activation holds the position target, the PID's P and D parts are its gain and bias (set
every cycle from :mod:`.cycle`), its force range is the joint's effort limit (:mod:`.pid`).
"""

from __future__ import annotations

from collections.abc import Sequence

import mujoco
import numpy as np


def add_pid_actuators(
    spec: mujoco.MjSpec,
    joint_names: Sequence[str],
    effort_limit: np.ndarray,
    targets: Sequence[str] | None = None,
    gears: Sequence[Sequence[float] | None] | None = None,
) -> None:
    """Add ``<joint>__pid`` for every joint of ``joint_names`` to ``spec`` (before compiling),
    acting on the MuJoCo joint of the same name or, given ``targets``, on ``targets[k]`` (the
    hinge of an axis coordinate such as ``<joint>/axis2``), with ``gears[k]`` (a 3-vector) as
    its gear where given (a ball joint's coordinate: the torque about that axis of the child's
    joint frame, :mod:`.balls`; else gear 1):
    integrator dynamics (``act`` = position target, ``ctrl`` = its rate), fixed gain, affine
    bias, activation unlimited, force range ``±effort_limit`` (N·m or N, shape (n,)) where
    it is finite and positive (MuJoCo needs a non-empty range; 0 = a passive joint, whose gains
    the backend zeroes)."""
    targets = joint_names if targets is None else targets
    gears = [None] * len(joint_names) if gears is None else gears
    for name, target, limit, gear in zip(joint_names, targets, effort_limit, gears):
        act = spec.add_actuator(
            name=f"{name}__pid", target=target, trntype=mujoco.mjtTrn.mjTRN_JOINT
        )
        if gear is not None:
            act.gear = [float(g) for g in gear] + [0.0, 0.0, 0.0]
        act.dyntype = mujoco.mjtDyn.mjDYN_INTEGRATOR  # act = position target, ctrl = its rate
        act.gaintype = mujoco.mjtGain.mjGAIN_FIXED
        act.biastype = mujoco.mjtBias.mjBIAS_AFFINE
        act.actlimited = mujoco.mjtLimited.mjLIMITED_FALSE
        if 0.0 < limit < np.inf:
            act.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
            act.forcerange = [-float(limit), float(limit)]


def inertia_diagonal_index(model: mujoco.MjModel) -> np.ndarray:
    """Index, per dof (shape (nv,), int), of the joint-space inertia matrix's diagonal entry in
    ``data.M`` (MuJoCo ≥ 3.3: CSR rows, diagonal last: ``M_rowadr + M_rownnz − 1``) or, in
    older MuJoCo, in ``data.qM`` (``dof_Madr``)."""
    if hasattr(model, "M_rownnz"):
        return np.asarray(model.M_rowadr, dtype=int) + np.asarray(model.M_rownnz, dtype=int) - 1
    return np.asarray(model.dof_Madr, dtype=int)
