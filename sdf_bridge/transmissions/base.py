"""The mechanism base class: a linear, power-conserving actuator ↔ joint map.

Like ros2_control's ``transmission_interface::Transmission``, every mechanism maps ``n``
actuators to ``m`` joints (here always ``m == n``, so the map is invertible) for the three
interfaces. All built-in mechanisms are linear, so a mechanism is fully described by one
square matrix ``A`` (shape ``(n, n)``) and the joint offsets ``o`` (shape ``(n,)``):

* position: ``q_j = A · q_a + o``        and back ``q_a = A⁻¹ · (q_j − o)``
* velocity: ``v_j = A · v_a``            and back ``v_a = A⁻¹ · v_j``
* effort:   ``τ_j = A⁻ᵀ · τ_a``          and back ``τ_a = Aᵀ · τ_j``

The effort map follows from power conservation (``τ_aᵀ v_a = τ_jᵀ v_j`` for every ``v_a``);
this is the map ros2_control's Simple, Differential and (fixed) FourBarLinkage transmissions
implement (DESIGN.md). Units are SI: rad or m, rad/s or m/s, N·m or N.

Plug-in mechanisms (entry-point group ``sdf_bridge.transmissions``) subclass
:class:`Transmission` and implement :meth:`Transmission.matrix`.
"""

from __future__ import annotations

import copy
import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from sdf_bridge.errors import TransmissionError


class Transmission(ABC):
    """A linear mechanism between ``num_actuators`` actuators and ``num_joints`` joints.

    Args:
        name: the transmission's name (for error messages).
        joints: joint names, in role order (``joint1``, ``joint2``, …).
        actuators: actuator names, in role order (``actuator1``, ``actuator2``, …).
        joint_reductions: one per joint (unitless, or rad/m for prismatic joints).
        actuator_reductions: one per actuator.
        joint_offsets: one per joint (rad or m), added on the joint side.

    Raises:
        TransmissionError: wrong number of joints/actuators for the type, a reduction that is
            zero or not finite, an offset that is not finite, or a singular matrix.
    """

    type_name: ClassVar[str] = "Transmission"
    num_joints: ClassVar[int] = 1
    num_actuators: ClassVar[int] = 1

    def __init__(
        self,
        name: str,
        joints: Sequence[str],
        actuators: Sequence[str],
        joint_reductions: Sequence[float] | None = None,
        actuator_reductions: Sequence[float] | None = None,
        joint_offsets: Sequence[float] | None = None,
    ) -> None:
        self.name = name
        self.joints = tuple(joints)
        self.actuators = tuple(actuators)
        if len(self.joints) != self.num_joints or len(self.actuators) != self.num_actuators:
            raise TransmissionError(
                f"transmission {name!r} ({self.type_name}) has {len(self.joints)} joint(s) and "
                f"{len(self.actuators)} actuator(s); the type needs {self.num_joints} joint(s) and "
                f"{self.num_actuators} actuator(s). Fix: give exactly that many <joint> and "
                "<actuator> entries, or use another transmission type."
            )
        self.joint_reductions = self._check(
            "joint reduction", joint_reductions, self.num_joints, nonzero=True
        )
        self.actuator_reductions = self._check(
            "actuator reduction", actuator_reductions, self.num_actuators, nonzero=True
        )
        self.joint_offsets = self._check(
            "joint offset", joint_offsets, self.num_joints, default=0.0
        )
        a = np.asarray(self.matrix(), dtype=float)
        if a.shape != (self.num_joints, self.num_actuators):
            raise TransmissionError(
                f"transmission {name!r} ({self.type_name}): matrix has shape {a.shape}, expected "
                f"({self.num_joints}, {self.num_actuators}). Fix: the mechanism class is wrong."
            )
        if a.shape == (1, 1):  # (most mechanisms: a scalar, no LAPACK call)
            value = float(a[0, 0])
            singular = not math.isfinite(value) or abs(value) < 1e-300
        else:
            singular = not np.all(np.isfinite(a)) or abs(np.linalg.det(a)) < 1e-300
        if singular:
            raise TransmissionError(
                f"transmission {name!r} ({self.type_name}): the actuator→joint matrix {a.tolist()} "
                "is singular or not finite. Fix: check the reductions."
            )
        self._a = a
        self._a_inv = np.array([[1.0 / value]]) if a.shape == (1, 1) else np.linalg.inv(a)

    def _check(
        self,
        what: str,
        values: Sequence[float] | None,
        count: int,
        *,
        nonzero: bool = False,
        default: float = 1.0,
    ) -> tuple[float, ...]:
        if values is None:
            return (default,) * count
        out = tuple(float(v) for v in values)
        if len(out) != count:
            raise TransmissionError(
                f"transmission {self.name!r} ({self.type_name}): {len(out)} {what}s given, "
                f"{count} needed. Fix: give one per entry."
            )
        for v in out:
            if not math.isfinite(v) or (nonzero and v == 0.0):
                raise TransmissionError(
                    f"transmission {self.name!r} ({self.type_name}): {what} {v!r} is "
                    f"{'zero' if v == 0.0 else 'not finite'}. Fix: give a finite, non-zero "
                    "mechanical reduction (negative reverses the direction)."
                    if nonzero
                    else f"transmission {self.name!r} ({self.type_name}): {what} {v!r} is not "
                    "finite. Fix: give a finite number."
                )
        return out

    @abstractmethod
    def matrix(self) -> np.ndarray:
        """The velocity map ``A`` (shape ``(num_joints, num_actuators)``): ``v_j = A · v_a``.

        Uses ``self.joint_reductions`` and ``self.actuator_reductions``.
        """

    # ---- matrices of the six maps -------------------------------------------------------
    @property
    def actuator_to_joint_matrix(self) -> np.ndarray:
        """``A``: actuator → joint for position (plus offsets) and velocity. Shape (n, n)."""
        return self._a.copy()

    @property
    def joint_to_actuator_matrix(self) -> np.ndarray:
        """``A⁻¹``: joint → actuator for position (after removing offsets) and velocity."""
        return self._a_inv.copy()

    @property
    def actuator_to_joint_effort_matrix(self) -> np.ndarray:
        """``A⁻ᵀ``: actuator effort → joint effort (power conserving)."""
        return self._a_inv.T.copy()

    @property
    def joint_to_actuator_effort_matrix(self) -> np.ndarray:
        """``Aᵀ``: joint effort → actuator effort."""
        return self._a.T.copy()

    @property
    def offsets(self) -> np.ndarray:
        """Joint offsets (rad or m), shape (num_joints,)."""
        return np.asarray(self.joint_offsets, dtype=float)

    # ---- reference (per-mechanism, not hot path) implementations ------------------------
    def actuator_to_joint(
        self, position: Sequence[float], velocity: Sequence[float], effort: Sequence[float]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Actuator state (3 arrays of shape (num_actuators,)) → joint state (num_joints,)."""
        p, v, e = (np.asarray(x, dtype=float) for x in (position, velocity, effort))
        return self._a @ p + self.offsets, self._a @ v, self._a_inv.T @ e

    def joint_to_actuator(
        self, position: Sequence[float], velocity: Sequence[float], effort: Sequence[float]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Joint commands (3 arrays of shape (num_joints,)) → actuator commands."""
        p, v, e = (np.asarray(x, dtype=float) for x in (position, velocity, effort))
        return self._a_inv @ (p - self.offsets), self._a_inv @ v, self._a.T @ e

    def with_actuators(self, actuators: Sequence[str]) -> Transmission:
        """The same mechanism (matrices, reductions, offsets) with other actuator names.

        Args:
            actuators: ``num_actuators`` names, in role order.

        Raises:
            TransmissionError: not ``num_actuators`` names.
        """
        names = tuple(actuators)
        if len(names) != self.num_actuators:
            raise TransmissionError(
                f"transmission {self.name!r} ({self.type_name}): {len(names)} actuator names "
                f"given, {self.num_actuators} needed. Fix: give one per actuator role."
            )
        other = copy.copy(self)
        other.actuators = names
        return other

    def effective_ratio(self) -> str:
        """Human-readable description of the ratio (for ``sdf-bridge check``)."""
        return f"A = {np.array2string(self._a, precision=6)}"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(name={self.name!r}, joints={self.joints}, "
            f"actuators={self.actuators}, joint_reductions={self.joint_reductions}, "
            f"actuator_reductions={self.actuator_reductions}, joint_offsets={self.joint_offsets})"
        )
