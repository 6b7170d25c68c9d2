"""DifferentialTransmission (ros2_control) and the PR2 WristTransmission.

ros2_control ``transmission_interface::DifferentialTransmission`` with actuator reductions
``n_a1, n_a2``, joint reductions ``n_j1, n_j2`` and joint offsets ``o1, o2``::

    q_j1 = (q_a1/n_a1 + q_a2/n_a2) / (2 n_j1) + o1
    q_j2 = (q_a1/n_a1 − q_a2/n_a2) / (2 n_j2) + o2
    τ_j1 = n_j1 (n_a1 τ_a1 + n_a2 τ_a2)
    τ_j2 = n_j2 (n_a1 τ_a1 − n_a2 τ_a2)

i.e. ``A = D_j⁻¹ · ½ S · D_a⁻¹`` with ``S = [[1, 1], [1, −1]]``; the effort map is ``A⁻ᵀ``
(power conserving). joint1/joint2 and actuator1/actuator2 come from the roles.

The PR2 ``pr2_mechanism_model/WristTransmission`` is the same mechanism with
``S = [[1, −1], [−1, −1]]``, actuators (``rightActuator``, ``leftActuator``) and joints
(``flexJoint``, ``rollJoint``) (pr2_mechanism_model ``wrist_transmission.cpp``, the
``propagatePosition`` formulas with ``joint_reduction`` and ``actuator_reduction``).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from .base import Transmission


class DifferentialTransmission(Transmission):
    """Two actuators ↔ two joints through a differential (bevel gears, wrist)."""

    type_name = "DifferentialTransmission"
    num_joints = 2
    num_actuators = 2
    signs: ClassVar[tuple[tuple[float, float], tuple[float, float]]] = ((1.0, 1.0), (1.0, -1.0))

    def matrix(self) -> np.ndarray:
        """``A = D_j⁻¹ · ½ S · D_a⁻¹``, shape (2, 2)."""
        s = np.asarray(self.signs, dtype=float)
        dj = np.diag(1.0 / np.asarray(self.joint_reductions))
        da = np.diag(1.0 / np.asarray(self.actuator_reductions))
        return dj @ (0.5 * s) @ da

    def effective_ratio(self) -> str:
        """Per-joint formula of the actuator→joint position map."""
        a = self.matrix()
        rows = []
        for i, joint in enumerate(self.joints):
            terms = ""
            for k, act in enumerate(self.actuators):
                c = a[i, k]
                if c == 0.0:
                    continue
                sign = "−" if c < 0 else ("+" if terms else "")
                sep = " " if terms else ""
                terms += f"{sep}{sign}{' ' if terms else ''}{abs(c):.6g}·{act}"
            off = self.joint_offsets[i]
            rows.append(f"{joint} = {terms}" + (f" + {off:g}" if off else ""))
        return "; ".join(rows)


class WristTransmission(DifferentialTransmission):
    """PR2 wrist differential: actuators (right, left), joints (flex, roll)."""

    type_name = "WristTransmission"
    signs = ((1.0, -1.0), (-1.0, -1.0))
