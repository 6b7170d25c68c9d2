"""The MuJoCo backend's ideal position mode (``position_mode: ideal``): the joints commanded in
position mode are imposed kinematically, not driven by their PID.

Over a control period of ``dt`` s their ``qpos`` moves linearly from where it is to the
commanded position, set before every physics step with the velocity ``qvel`` = the finite
difference over the period; at the end of the period they stand at the target at rest.
Their effort reads 0 (the backend's state).
"""

from __future__ import annotations

import mujoco
import numpy as np

from .cycle import POSITION


class IdealJoints:
    """Which map joints move ideally now and how (see the module docstring).

    Args:
        qadr: each map joint's ``qpos`` address, shape (n,).
        dadr: each map joint's ``qvel`` address, shape (n,).
        exclude: (n,) bool, map joints never imposed (ball coordinates: not a ``qpos`` entry,
            :mod:`.balls`); none by default.

    Attributes:
        mask: the joints moving ideally (in position mode at the last :meth:`follow`), (n,) bool.
        target: their commanded positions, rad or m (0 elsewhere), (n,).
        velocity: their velocities over the period, rad/s or m/s (0 elsewhere), (n,).
    """

    def __init__(
        self, qadr: np.ndarray, dadr: np.ndarray, exclude: np.ndarray | None = None
    ) -> None:
        self._qadr, self._dadr = qadr, dadr
        self._keep = np.ones(len(qadr), dtype=bool) if exclude is None else ~np.asarray(exclude)
        n = len(qadr)
        self.mask = np.zeros(n, dtype=bool)
        self.target = np.zeros(n)
        self.velocity = np.zeros(n)

    def clear(self) -> None:
        """No joint moves ideally (until the next :meth:`follow`)."""
        self.mask = np.zeros(len(self._qadr), dtype=bool)

    def imposed_dofs(self) -> np.ndarray:
        """The ``qvel`` addresses of the joints moving ideally now (an empty array: none)."""
        return self._dadr[self.mask]

    def follow(self, qt: np.ndarray, q: np.ndarray, kind: np.ndarray, dt: float) -> None:
        """The joints whose command kind (``kind``, the joint table's ``MODE`` row, (n,)) is
        position move from ``q`` to ``qt`` (both (n,), rad or m) over the next ``dt`` s."""
        ideal = (kind == POSITION) & self._keep
        self.mask = ideal
        self.velocity = np.where(ideal, (qt - q) / dt if dt > 0 else 0.0, 0.0)
        self.target = np.where(ideal, qt, 0.0)

    def step(self, model: mujoco.MjModel, data: mujoco.MjData, n: int) -> None:
        """Step physics ``n`` times (n ≥ 1) with the joints of :attr:`mask` imposed along their
        way to :attr:`target`, then put them at the target at rest (``mj_forward``)."""
        idx_q, idx_d = self._qadr[self.mask], self._dadr[self.mask]
        start = data.qpos[idx_q].copy()
        target = self.target[self.mask]
        for k in range(1, n + 1):
            data.qpos[idx_q] = start + (target - start) * (k / n)
            data.qvel[idx_d] = self.velocity[self.mask]
            mujoco.mj_step(model, data)
        data.qpos[idx_q] = target
        data.qvel[idx_d] = 0.0
        mujoco.mj_forward(model, data)
