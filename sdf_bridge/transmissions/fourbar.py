"""FourBarLinkageTransmission (ros2_control), with the power-conserving effort map.

Actuator reductions ``n_a1, n_a2``, joint reductions ``n_j1, n_j2``, offsets ``o1, o2``::

    q_j1 = q_a1 / (n_j1 n_a1) + o1
    q_j2 = (q_a2 / n_a2 − q_a1 / (n_j1 n_a1)) / n_j2 + o2

so ``A = [[1/(n_j1 n_a1), 0], [−1/(n_j1 n_a1 n_j2), 1/(n_j2 n_a2)]]``. The effort map is
``A⁻ᵀ`` (power conserving)::

    τ_j1 = n_j1 n_a1 τ_a1 + n_a2 τ_a2
    τ_j2 = n_j2 n_a2 τ_a2

The ROS 1 implementation used the velocity-style coupling for effort, which does not conserve
power; it is not reproduced here.
"""

from __future__ import annotations

import numpy as np

from .differential import DifferentialTransmission


class FourBarLinkageTransmission(DifferentialTransmission):
    """Two actuators ↔ two joints; joint2 is measured relative to joint1's link."""

    type_name = "FourBarLinkageTransmission"

    def matrix(self) -> np.ndarray:
        """``A`` of the module docstring, shape (2, 2)."""
        nj1, nj2 = self.joint_reductions
        na1, na2 = self.actuator_reductions
        return np.array([[1.0 / (nj1 * na1), 0.0], [-1.0 / (nj1 * na1 * nj2), 1.0 / (nj2 * na2)]])
