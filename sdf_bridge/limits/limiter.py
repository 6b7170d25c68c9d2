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
        self._kp = np.where(self._ramp, kp, 0.0)
        self._esoft = np.isfinite(kv) & np.isfinite(self._emax)
        self._kv = np.where(self._esoft, kv, 0.0)
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
    def _count(self, reason: str, before: np.ndarray, after: np.ndarray) -> None:
        self._counts[_R[reason]] += before != after  # NaN != NaN is True: masked by caller

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
        """
        q = np.asarray(position, dtype=float)
        v = np.asarray(velocity, dtype=float)
        cp = np.array(cmd_position, dtype=float)
        cv = np.array(cmd_velocity, dtype=float)
        ce = np.array(cmd_effort, dtype=float)
        rate = dt > 0.0 and math.isfinite(dt)
        counts = self._counts
        # soft velocity band from the measured position (velocity and effort modes)
        if self._any_ramp:
            band_lo = np.clip(-self._kp * (q - self._soft_lo), -self._vmax, self._vmax)
            band_hi = np.clip(-self._kp * (q - self._soft_hi), -self._vmax, self._vmax)
            band_lo = np.where(self._ramp, band_lo, -self._vmax)
            band_hi = np.where(self._ramp, band_hi, self._vmax)
        else:
            band_lo, band_hi = -self._vmax, self._vmax

        # ---- position -------------------------------------------------------------------
        has_p = ~np.isnan(cp)
        if has_p.any():
            if self._any_range:
                ranged = np.clip(cp, self._lo, self._hi)
                changed = ranged != cp
                changed &= has_p
                if self._any_soft_range:
                    hard = (cp < self._pmin) | (cp > self._pmax)
                    counts[_R["position"]] += changed & hard
                    counts[_R["soft_position"]] += changed & ~hard
                else:
                    counts[_R["position"]] += changed
            else:
                ranged = cp
            if rate and self._any_vmax:
                ref = np.where(np.isnan(self._prev_pos), q, self._prev_pos)
                if self._any_ramp:
                    r_lo = np.where(
                        self._ramp,
                        np.clip(-self._kp * (ref - self._soft_lo), -self._vmax, self._vmax),
                        -self._vmax,
                    )
                    r_hi = np.where(
                        self._ramp,
                        np.clip(-self._kp * (ref - self._soft_hi), -self._vmax, self._vmax),
                        self._vmax,
                    )
                else:
                    r_lo, r_hi = -self._vmax, self._vmax
                lo = np.maximum(np.minimum(ref + r_lo * dt, self._hi), self._lo)
                hi = np.minimum(np.maximum(ref + r_hi * dt, self._lo), self._hi)
                known = ~np.isnan(ref)
                lo = np.where(known, lo, self._lo)
                hi = np.where(known, hi, self._hi)
                out = np.clip(ranged, lo, hi)
                counts[_R["position_step"]] += (out != ranged) & has_p
                cp = out
            else:
                cp = ranged
        self._prev_pos = cp

        # ---- velocity -------------------------------------------------------------------
        has_v = ~np.isnan(cv)
        if has_v.any():
            out = cv
            if self._any_vmax:
                out = np.clip(cv, -self._vmax, self._vmax)
                counts[_R["velocity"]] += (out != cv) & has_v
            lo, hi = band_lo, band_hi
            if rate and self._any_pos_limits:
                lo = np.maximum(lo, np.minimum((self._pmin - q) / dt, 0.0))
                hi = np.minimum(hi, np.maximum((self._pmax - q) / dt, 0.0))
            if self._any_ramp or (rate and self._any_pos_limits):
                lo = np.where(np.isnan(lo), -np.inf, lo)  # unknown q: no position term
                hi = np.where(np.isnan(hi), np.inf, hi)
                new = np.clip(out, lo, hi)
                counts[_R["velocity_position"]] += (new != out) & has_v
                out = new
            if rate and self._any_amax:
                vref = np.where(np.isnan(self._prev_vel), v, self._prev_vel)
                vref = np.where(np.isnan(vref), out, vref)
                new = np.clip(out, vref - self._amax * dt, vref + self._amax * dt)
                counts[_R["acceleration"]] += (new != out) & has_v
                out = new
            cv = out
        self._prev_vel = cv

        # ---- effort ---------------------------------------------------------------------
        has_e = ~np.isnan(ce)
        if has_e.any():
            out = ce
            if self._any_emax:
                out = np.clip(ce, -self._emax, self._emax)
                counts[_R["effort"]] += (out != ce) & has_e
            lo = -self._emax
            hi = self._emax
            if self._any_pos_limits:
                lo = np.where((q <= self._pmin) & ~(v > 0.0), 0.0, lo)
                hi = np.where((q >= self._pmax) & ~(v < 0.0), 0.0, hi)
            if self._any_vmax:
                lo = np.where(v < -self._vmax, 0.0, lo)
                hi = np.where(v > self._vmax, 0.0, hi)
            if self._any_esoft:
                with np.errstate(invalid="ignore"):
                    s_lo = np.clip(-self._kv * (v - band_lo), -self._emax, self._emax)
                    s_hi = np.clip(-self._kv * (v - band_hi), -self._emax, self._emax)
                s_lo = np.where(self._kv_zero, 0.0, s_lo)
                s_hi = np.where(self._kv_zero, 0.0, s_hi)
                known = self._esoft & ~np.isnan(s_lo) & ~np.isnan(s_hi)
                lo = np.where(known, np.maximum(s_lo, lo), lo)
                hi = np.where(known, np.minimum(s_hi, hi), hi)
            if self._any_pos_limits or self._any_vmax or self._any_esoft:
                new = np.clip(out, lo, hi)
                counts[_R["effort_position"]] += (new != out) & has_e
                out = new
            ce = out
        return cp, cv, ce
