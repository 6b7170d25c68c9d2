"""JointLimiter: ros2_control's saturation and soft limiting, vectorised over all joints.

Per joint ``i`` with limits from :mod:`.spec` (``L, H`` = position range intersected with the
soft range; ``v̄`` max velocity; ``ā`` max acceleration; ``ē`` max effort; ``kp, kv`` soft
gains; ``q, v`` the measured position and velocity; ``dt`` the period), following
``joint_limits/src/joint_limits_helpers.cpp``, ``joint_saturation_limiter.cpp`` and
``joint_soft_limiter.cpp`` of ros2_control and the older ``joint_limits_interface`` soft
limit handles:

* **Soft velocity band** (when a soft range and ``kp`` and ``v̄`` are given):
  ``[clip(−kp (x − soft_lower), ±v̄), clip(−kp (x − soft_upper), ±v̄)]``, else ``[−v̄, v̄]``;
  ``x`` is the previous position command (position mode) or ``q`` (velocity/effort mode).
* **Position command**: clamped to ``[L, H]`` (reason ``position``, or ``soft_position`` when
  only the soft range is violated) and, when ``v̄`` is finite and ``dt > 0``, to what is
  reachable in one period from the reference ``r`` (the previous position command, or ``q``
  when there was none): ``[r + v_lo dt, r + v_hi dt] ∩ [L, H]`` (reason ``position_step``).
  Continuous joints have no ``L, H``.
* **Velocity command**: ``|v| ≤ v̄`` (``velocity``); not driving out of range,
  ``(L − q)/dt ≤ v ≤ (H − q)/dt`` (bounds relaxed to 0 so a joint outside its range may stop
  or come back), and the soft band (``velocity_position``); with ``ā``,
  ``|v − v_prev| ≤ ā dt`` (``acceleration``).
* **Effort command**: ``|τ| ≤ ē`` (``effort``); no pushing past a limit: at or beyond the
  lower limit while not moving up, ``τ ≥ 0``; at or beyond the upper limit while not moving
  down, ``τ ≤ 0``; beyond ``±v̄``, no effort that accelerates further; soft limits with
  ``kv``: ``[clip(−kv (v − v_lo), ±ē), clip(−kv (v − v_hi), ±ē)]`` (all ``effort_position``).
  ``kv = 0`` makes that band ``[0, 0]`` — ros2_control's behaviour — so building warns.

NaN commands (= no command) stay NaN and are not counted. ``dt ≤ 0`` or non-finite disables
the rate terms (reachability, range-by-velocity, acceleration) and keeps the static ones.
Not done (documented differences): ros2_control's 1°/s creep inside the soft band when the
joint is already past a soft limit, deceleration and jerk limits, and the exception it
throws when the measured position is far outside the range.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sdf_bridge.description.model import Robot
from sdf_bridge.errors import LimitsError

from .overrides import load_overrides, validate_overrides
from .spec import JointLimits, apply_override, apply_ros2_control, urdf_limits

_LOG = logging.getLogger(__name__)

REASONS = (
    "position",
    "soft_position",
    "position_step",
    "velocity",
    "velocity_position",
    "acceleration",
    "effort",
    "effort_position",
)
"""Clamp reasons counted per joint (see the module docstring)."""

_R = {name: i for i, name in enumerate(REASONS)}


class JointLimiter:
    """Enforces joint limits on joint-space commands (arrays in ``joint_names`` order).

    Attributes:
        joint_names: the joints, array order.
        limits: the merged :class:`~.spec.JointLimits` per joint.
        warnings: build-time warnings (e.g. ``k_velocity`` 0 on an effort-limited joint).
    """

    def __init__(self, joint_names: Sequence[str], limits: Sequence[JointLimits],
                 warnings: Sequence[str] = ()) -> None:
        """Build from per-joint limits (same length as ``joint_names``).

        Raises:
            LimitsError: lengths differ.
        """
        if len(joint_names) != len(limits):
            raise LimitsError(
                f"{len(joint_names)} joint names but {len(limits)} limit sets. Fix: give one "
                "JointLimits per joint."
            )
        self.joint_names = tuple(joint_names)
        self.limits = tuple(limits)
        self.warnings = list(warnings)
        n = len(self.joint_names)
        self._n = n
        f = lambda attr: np.array([getattr(lim, attr) for lim in limits], dtype=float)  # noqa: E731
        has_pos = np.array([lim.has_position_limits for lim in limits], dtype=bool)
        self._pmin = np.where(has_pos, f("min_position"), -np.inf)
        self._pmax = np.where(has_pos, f("max_position"), np.inf)
        has_soft = np.array([lim.has_soft_limits for lim in limits], dtype=bool)
        soft_lo = np.where(has_soft, f("soft_lower"), -np.inf)
        soft_hi = np.where(has_soft, f("soft_upper"), np.inf)
        self._lo = np.maximum(self._pmin, soft_lo)  # L
        self._hi = np.minimum(self._pmax, soft_hi)  # H
        self._hard_lo_only = soft_lo > self._pmin  # soft range tighter than hard (for reasons)
        self._soft_lo, self._soft_hi = soft_lo, soft_hi
        self._vmax = np.where([lim.has_velocity_limits for lim in limits], f("max_velocity"), np.inf)
        self._amax = np.where([lim.has_acceleration_limits for lim in limits],
                              f("max_acceleration"), np.inf)
        self._emax = np.where([lim.has_effort_limits for lim in limits], f("max_effort"), np.inf)
        kp = np.where(has_soft, f("k_position"), np.nan)
        kv = np.where(has_soft, f("k_velocity"), np.nan)
        self._ramp = (
            np.isfinite(soft_lo) & np.isfinite(soft_hi) & np.isfinite(kp) & (kp > 0)
            & np.isfinite(self._vmax) & has_pos
        )
        self._kp_neg = np.where(self._ramp, -kp, 0.0)
        self._soft_lo_r = np.where(self._ramp, soft_lo, 0.0)  # zeros avoid 0·inf
        self._soft_hi_r = np.where(self._ramp, soft_hi, 0.0)
        self._neg_vmax = -self._vmax
        self._esoft = np.isfinite(kv) & np.isfinite(self._emax)
        self._kv = np.where(self._esoft, kv, 0.0)
        self._kv_neg = -self._kv
        self._neg_emax = -self._emax
        self._step_dt = math.nan
        self._step_lo = self._step_hi = self._vmax
        self._kv_zero = self._esoft & (self._kv == 0.0)
        self._any_range = bool(np.any(np.isfinite(self._lo) | np.isfinite(self._hi)))
        self._any_soft_range = bool(np.any(np.isfinite(soft_lo) | np.isfinite(soft_hi)))
        self._any_vmax = bool(np.any(np.isfinite(self._vmax)))
        self._any_ramp = bool(np.any(self._ramp))
        self._any_amax = bool(np.any(np.isfinite(self._amax)))
        self._any_emax = bool(np.any(np.isfinite(self._emax)))
        self._any_esoft = bool(np.any(self._esoft))
        self._any_pos_limits = bool(np.any(has_pos))
        self._prev_pos = np.full(n, np.nan)
        self._prev_vel = np.full(n, np.nan)
        self._counts = np.zeros((len(REASONS), n), dtype=np.int64)

    # --------------------------------------------------------------------------- building
    @classmethod
    def from_robot(
        cls,
        robot: Robot,
        joint_names: Sequence[str],
        *,
        overrides: Mapping[str, Mapping[str, Any]] | str | Path | None = None,
    ) -> JointLimiter:
        """Limits of ``joint_names`` from the URDF, ``<ros2_control>`` and an override.

        Args:
            robot: the robot.
            joint_names: joints to limit, array order (e.g. ``TransmissionMap.joint_names``).
            overrides: ``{joint: {field: value}}`` (as :meth:`load_overrides` returns, or a raw
                parsed YAML document), or a YAML file path.

        Raises:
            LimitsError: a joint not in the robot, an override for an unknown joint or with a
                bad field, inconsistent limits.
        """
        warnings: list[str] = []
        if overrides is None:
            table: dict[str, dict[str, Any]] = {}
        elif isinstance(overrides, (str, Path)):
            table = load_overrides(overrides)
        elif "joint_limits" in overrides or any(
            isinstance(v, Mapping) and "ros__parameters" in v for v in overrides.values()
        ):
            table = validate_overrides(overrides)
        else:
            table = validate_overrides({"joint_limits": dict(overrides)})
        names = set(joint_names)
        for joint in table:
            if joint not in names:
                raise LimitsError(
                    f"joint_limits override names {joint!r}, which is not a limited joint "
                    f"({', '.join(joint_names)}). Fix: correct the joint name."
                )
        limits = []
        for name in joint_names:
            if name not in robot.joints:
                raise LimitsError(f"joint {name!r} is not in robot {robot.name!r}. Fix: check the name.")
            lim = urdf_limits(robot, name, warnings)
            lim = apply_ros2_control(robot, name, lim)
            if name in table:
                lim = apply_override(name, lim, table[name])
            if lim.has_soft_limits and lim.k_velocity == 0.0 and lim.has_effort_limits:
                msg = (
                    f"joint {name!r}: soft limits with k_velocity 0 clamp every effort command "
                    "to 0 (ros2_control behaviour). Fix: give a positive k_velocity."
                )
                warnings.append(msg)
                _LOG.warning(msg)
            limits.append(lim)
        return cls(joint_names, limits, warnings)

    @staticmethod
    def load_overrides(path: str | Path) -> dict:
        """Read a ros2_control ``joint_limits`` YAML file (see :mod:`.overrides`).

        Raises:
            LimitsError: unreadable, invalid YAML, unknown field or wrong type.
        """
        return load_overrides(path)

    # ----------------------------------------------------------------------- diagnostics
    @property
    def counts(self) -> dict[tuple[str, str], int]:
        """``(joint, reason) → number of clamps`` since construction or :meth:`reset`
        (only non-zero entries; reasons in :data:`REASONS`)."""
        out: dict[tuple[str, str], int] = {}
        rs, js = np.nonzero(self._counts)
        for r, j in zip(rs.tolist(), js.tolist()):
            out[(self.joint_names[j], REASONS[r])] = int(self._counts[r, j])
        return out

    def reset(self) -> None:
        """Forget previous commands (after an e-stop or re-home) and zero the counters."""
        self._prev_pos[:] = np.nan
        self._prev_vel[:] = np.nan
        self._counts[:] = 0

    def actuator_limits(self, tmap: Any) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Actuator-side bounds through a :class:`~sdf_bridge.transmissions.TransmissionMap`
        whose ``joint_names`` equal this limiter's: ``{"position": (lo, hi), "velocity": …,
        "effort": …}``, each array of shape ``(n_actuators,)`` (negative reductions swap).

        Raises:
            LimitsError: the map's joints differ from the limiter's.
        """
        if tuple(tmap.joint_names) != self.joint_names:
            raise LimitsError("the transmission map's joints differ from the limiter's. Fix: "
                              "build the limiter with tmap.joint_names.")
        return {
            "position": tmap.actuator_bounds(self._pmin, self._pmax, "position"),
            "velocity": tmap.actuator_bounds(-self._vmax, self._vmax, "velocity"),
            "effort": tmap.actuator_bounds(-self._emax, self._emax, "effort"),
        }

    # ------------------------------------------------------------------------- hot path
    def _steps(self, dt: float) -> tuple[np.ndarray, np.ndarray]:
        """``(−v̄ dt, v̄ dt)`` for non-ramp joints, cached per ``dt``."""
        if dt != self._step_dt:
            self._step_dt = dt
            self._step_lo = -self._vmax * dt
            self._step_hi = self._vmax * dt
        return self._step_lo, self._step_hi

    def _band(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Soft velocity band at positions ``x`` (``±v̄`` where no soft ramp)."""
        if not self._any_ramp:
            return self._neg_vmax, self._vmax
        lo = np.minimum(np.maximum(self._kp_neg * (x - self._soft_lo_r), self._neg_vmax), self._vmax)
        hi = np.minimum(np.maximum(self._kp_neg * (x - self._soft_hi_r), self._neg_vmax), self._vmax)
        return np.where(self._ramp, lo, self._neg_vmax), np.where(self._ramp, hi, self._vmax)

    def _position_bounds(self, q: np.ndarray, dt: float, rate: bool, state_nan: bool
                         ) -> tuple[np.ndarray, np.ndarray]:
        if not (rate and self._any_vmax):
            return self._lo, self._hi
        ref = self._prev_pos
        missing = np.isnan(ref)
        if missing.any():
            ref = np.where(missing, q, ref)
        if self._any_ramp:
            b_lo, b_hi = self._band(ref)
            s_lo, s_hi = b_lo * dt, b_hi * dt
        else:
            s_lo, s_hi = self._steps(dt)
        lo = np.maximum(np.minimum(ref + s_lo, self._hi), self._lo)
        hi = np.minimum(np.maximum(ref + s_hi, self._lo), self._hi)
        if state_nan:
            known = ~np.isnan(ref)
            lo = np.where(known, lo, self._lo)
            hi = np.where(known, hi, self._hi)
        return lo, hi

    def _velocity_bounds(self, q: np.ndarray, band: tuple[np.ndarray, np.ndarray], dt: float,
                         rate: bool, state_nan: bool) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = band
        if rate and self._any_pos_limits:
            inv = 1.0 / dt
            lo = np.maximum(lo, np.minimum((self._pmin - q) * inv, 0.0))
            hi = np.minimum(hi, np.maximum((self._pmax - q) * inv, 0.0))
            if state_nan:  # unknown position: no position term
                lo = np.where(np.isnan(lo), band[0], lo)
                hi = np.where(np.isnan(hi), band[1], hi)
        return lo, hi

    def _effort_bounds(self, q: np.ndarray, v: np.ndarray, band: tuple[np.ndarray, np.ndarray]
                       ) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = self._neg_emax, self._emax
        if self._any_pos_limits:
            lo = np.where((q <= self._pmin) & (v <= 0.0), 0.0, lo)
            hi = np.where((q >= self._pmax) & (v >= 0.0), 0.0, hi)
        if self._any_vmax:
            lo = np.where(v < self._neg_vmax, 0.0, lo)
            hi = np.where(v > self._vmax, 0.0, hi)
        if self._any_esoft:
            with np.errstate(invalid="ignore"):
                s_lo = np.minimum(np.maximum(self._kv_neg * (v - band[0]), self._neg_emax), self._emax)
                s_hi = np.minimum(np.maximum(self._kv_neg * (v - band[1]), self._neg_emax), self._emax)
            s_lo = np.where(self._kv_zero, 0.0, s_lo)
            s_hi = np.where(self._kv_zero, 0.0, s_hi)
            use = self._esoft & ~np.isnan(s_lo) & ~np.isnan(s_hi)
            lo = np.where(use, np.maximum(s_lo, lo), lo)
            hi = np.where(use, np.minimum(s_hi, hi), hi)
        return lo, hi

    def _count(self, reason: str, mask: np.ndarray) -> None:
        self._counts[_R[reason]] += mask

    def enforce(
        self,
        position: np.ndarray,
        velocity: np.ndarray,
        cmd_position: np.ndarray,
        cmd_velocity: np.ndarray,
        cmd_effort: np.ndarray,
        dt: float,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Limit one cycle's commands.

        Args:
            position, velocity: measured joint state, shape ``(n_joints,)`` (rad or m, rad/s or
                m/s); NaN where unknown.
            cmd_position, cmd_velocity, cmd_effort: commands, shape ``(n_joints,)``; NaN = no
                command for that joint and interface.
            dt: control period in s (≤ 0 or non-finite: only static limits).

        Returns:
            The limited ``(cmd_position, cmd_velocity, cmd_effort)``, new arrays; NaN stays NaN.

        Raises:
            ValueError: arrays of the wrong shape.
        """
        q = np.asarray(position, dtype=float)
        v = np.asarray(velocity, dtype=float)
        cp = np.asarray(cmd_position, dtype=float)
        cv = np.asarray(cmd_velocity, dtype=float)
        ce = np.asarray(cmd_effort, dtype=float)
        n = self._n
        if not (q.shape == v.shape == cp.shape == cv.shape == ce.shape == (n,)):
            raise ValueError(
                f"enforce: every array must have shape ({n},); got {q.shape}, {v.shape}, "
                f"{cp.shape}, {cv.shape}, {ce.shape}"
            )
        if n == 0:
            return cp.copy(), cv.copy(), ce.copy()
        rate = dt > 0.0 and math.isfinite(dt)
        state_nan = not math.isfinite(float(q @ q) + float(v @ v))
        band = None

        # ---- position: NaN everywhere (fmax ignores NaN unless all are NaN) → nothing to do
        if math.isnan(np.fmax.reduce(cp)):
            out_p = cp.copy()
        else:
            lo, hi = self._position_bounds(q, dt, rate, state_nan)
            if (cp < lo).any() or (cp > hi).any():
                out_p = np.minimum(np.maximum(cp, lo), hi)
                self._count_position(cp, out_p)
            else:
                out_p = cp.copy()
        self._prev_pos = out_p

        # ---- velocity
        if math.isnan(np.fmax.reduce(cv)):
            out_v = cv.copy()
        else:
            band = self._band(q) if self._any_ramp else (self._neg_vmax, self._vmax)
            lo, hi = self._velocity_bounds(q, band, dt, rate, state_nan)
            acc = None
            if rate and self._any_amax:
                vref = np.where(np.isnan(self._prev_vel), v, self._prev_vel)
                vref = np.where(np.isnan(vref), cv, vref)
                acc = (vref - self._amax * dt, vref + self._amax * dt)
                stage = np.minimum(np.maximum(cv, acc[0]), acc[1])
            else:
                stage = cv
            if (stage < lo).any() or (stage > hi).any() or stage is not cv and (
                (cv < acc[0]).any() or (cv > acc[1]).any()  # type: ignore[index]
            ):
                out_v = np.minimum(np.maximum(stage, lo), hi)
                self._count_velocity(cv, out_v, acc)
            else:
                out_v = cv.copy()
        self._prev_vel = out_v

        # ---- effort
        if math.isnan(np.fmax.reduce(ce)):
            out_e = ce.copy()
        else:
            if band is None:
                band = self._band(q) if self._any_ramp else (self._neg_vmax, self._vmax)
            lo, hi = self._effort_bounds(q, v, band)
            if (ce < lo).any() or (ce > hi).any():
                out_e = np.minimum(np.maximum(ce, lo), hi)
                self._count_effort(ce, out_e)
            else:
                out_e = ce.copy()
        return out_p, out_v, out_e

    # ---- reasons (only computed when something was clamped) --------------------------------
    def _count_position(self, cmd: np.ndarray, out: np.ndarray) -> None:
        changed = out != cmd
        changed &= cmd == cmd
        hard = (cmd < self._pmin) | (cmd > self._pmax)
        soft = ((cmd < self._lo) | (cmd > self._hi)) & ~hard
        self._count("position", changed & hard)
        self._count("soft_position", changed & soft)
        self._count("position_step", changed & ~hard & ~soft)

    def _count_velocity(self, cmd: np.ndarray, out: np.ndarray,
                        acc: tuple[np.ndarray, np.ndarray] | None) -> None:
        changed = out != cmd
        changed &= cmd == cmd
        over = np.abs(cmd) > self._vmax
        self._count("velocity", changed & over)
        rest = changed & ~over
        if acc is not None:
            outside = (cmd < acc[0]) | (cmd > acc[1])
            inside_now = (out >= acc[0]) & (out <= acc[1])
            by_acc = rest & outside & inside_now
            self._count("acceleration", by_acc)
            rest &= ~by_acc
        self._count("velocity_position", rest)

    def _count_effort(self, cmd: np.ndarray, out: np.ndarray) -> None:
        changed = out != cmd
        changed &= cmd == cmd
        over = np.abs(cmd) > self._emax
        self._count("effort", changed & over)
        self._count("effort_position", changed & ~over)
