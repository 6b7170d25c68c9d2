"""SimpleTransmission: one actuator, one joint, a gear ratio and an offset.

ros2_control ``transmission_interface::SimpleTransmission`` (reduction ``n``, offset ``o``)::

    q_j = q_a / n + o        v_j = v_a / n        τ_j = n · τ_a

Here ``n`` is the product of the joint-side and the actuator-side reduction (each dialect puts
the ratio on one side; :mod:`sdf_bridge.transmissions.dialect` decides which values arrive).
A negative ``n`` reverses the direction.
"""

from __future__ import annotations

import numpy as np

from .base import Transmission


class SimpleTransmission(Transmission):
    """One actuator ↔ one joint: ``A = [[1 / (n_j · n_a)]]``."""

    type_name = "SimpleTransmission"
    num_joints = 1
    num_actuators = 1

    @property
    def reduction(self) -> float:
        """Total reduction ``n = n_j · n_a`` (unitless, or rad/m for a prismatic joint)."""
        return self.joint_reductions[0] * self.actuator_reductions[0]

    def matrix(self) -> np.ndarray:
        """``[[1 / n]]``, shape (1, 1)."""
        return np.array([[1.0 / self.reduction]])

    def effective_ratio(self) -> str:
        """E.g. ``"actuator = 50 × (joint − 0.1)"``."""
        off = self.joint_offsets[0]
        joint = f"(joint − {off:g})" if off else "joint"
        return f"actuator = {self.reduction:g} × {joint}"
