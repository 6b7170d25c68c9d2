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
  ``(q_min − q)/dt ≤ v ≤ (q_max − q)/dt`` (bounds relaxed to 0 so a joint outside its range
  may stop or come back), and the soft band (``velocity_position``); with ``ā``,
  ``|v − v_prev| ≤ ā dt`` (``acceleration``; ``v_prev`` = previous velocity command, else the
  measured velocity), applied first so that the position terms win when they conflict.
* **Effort command**: ``|τ| ≤ ē`` (``effort``); no pushing past a limit: at or beyond the
  lower limit while not moving up, ``τ ≥ 0``; at or beyond the upper limit while not moving
  down, ``τ ≤ 0`` (no cut while the velocity is unknown); beyond ``±v̄``, no effort that
  accelerates further; soft limits with
  ``kv``: ``[clip(−kv (v − v_lo), ±ē), clip(−kv (v − v_hi), ±ē)]`` (all ``effort_position``).
  ``kv = 0`` makes that band ``[0, 0]`` — ros2_control's behaviour — so building warns.

Each clamped command is counted once, under its first reason in the order ``position``,
``soft_position``, ``position_step``; ``velocity``, ``acceleration``, ``velocity_position``;
``effort``, ``effort_position``. Reasons are worked out only when something was clamped
(the common, unclamped cycle only computes the bounds and compares).
NaN commands (= no command) stay NaN and are not counted; a NaN measured position drops the
terms that need it (range and reachability fall back to ``[L, H]``). ``dt ≤ 0`` or non-finite disables
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
_HUGE = 1e300  # stands in for an infinite velocity band where 0·inf would give NaN


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
        self._kv_neg = np.where(self._esoft, -self._kv, -1.0)
        self._not_esoft = ~self._esoft
        self._eband_lo = np.where(self._esoft, np.maximum(-self._vmax, -_HUGE), -_HUGE)
        self._eband_hi = np.where(self._esoft, np.minimum(self._vmax, _HUGE), _HUGE)
        self._base_lo = np.where(self._ramp, 0.0, -self._vmax)
        self._base_hi = np.where(self._ramp, 0.0, self._vmax)
        self._neg_emax = -self._emax
        self._step_dt = math.nan
        self._step2 = np.stack([-self._vmax, self._vmax])
        # stacked (2, n) forms used by the hot path; row 0 = lower side in "S-form" (negated),
        # row 1 = upper side, so both rows share one ufunc call
        self._S = np.array([[-1.0], [1.0]])
        self._PL2 = np.stack([-self._pmin, self._pmax])         # S·q ≥ PL2: at/after a limit
        self._L2 = np.stack([self._lo, self._lo])
        self._H2 = np.stack([self._hi, self._hi])
        self._V2 = np.stack([self._vmax, self._vmax])
        self._NV2 = -self._V2
        self._EM2 = np.stack([-self._emax, self._emax])
        self._KPS2 = np.stack([-self._kp_neg, self._kp_neg])
        self._SOFT2 = np.stack([self._soft_lo_r, self._soft_hi_r])
        self._BASES2 = np.stack([-self._base_lo, self._base_hi])
        self._EB2 = np.stack([self._eband_lo, self._eband_hi])
        self._ELOW2 = np.stack([np.full(n, -np.inf), -self._emax])
        self._EHIGH2 = np.stack([self._emax, np.full(n, np.inf)])
        self._BANDS_STATIC = self._V2.copy()
        self._LH2 = np.stack([self._lo, self._hi])
        self._any_vmax = bool(np.any(np.isfinite(self._vmax)))
        self._any_ramp = bool(np.any(self._ramp))
        self._any_amax = bool(np.any(np.isfinite(self._amax)))
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
    def _steps(self, dt: float) -> np.ndarray:
        """``[−v̄ dt; v̄ dt]`` (shape (2, n)) for joints without a soft ramp, cached per ``dt``."""
        if dt != self._step_dt:
            self._step_dt = dt
            self._step2 = self._S * self._V2 * dt
        return self._step2

    def _band_s(self, x: np.ndarray) -> np.ndarray:
        """Soft velocity band at positions ``x`` in S-form ``[−v_lo; v_hi]`` (shape (2, n)):
        ``v_lo = clip(−kp (x − soft_lower), ±v̄)``, ``v_hi = clip(−kp (x − soft_upper), ±v̄)``
        for ramp joints; ``[v̄; v̄]`` (i.e. ``±v̄``) for the others (``kp = 0``, base ``v̄``)."""
        if not self._any_ramp:
            return self._BANDS_STATIC
        b = x - self._SOFT2
        b *= self._KPS2
        b += self._BASES2
        np.maximum(b, self._NV2, out=b)
        np.minimum(b, self._V2, out=b)
        return b

    def _position_bounds(self, q: np.ndarray, dt: float, rate: bool, state_nan: bool) -> np.ndarray:
        """``[lo; hi]`` (shape (2, n)) for position commands."""
        if not (rate and self._any_vmax):
            return self._LH2
        ref = self._prev_pos
        missing = np.isnan(ref)
        if np.count_nonzero(missing):
            ref = ref.copy()
            np.copyto(ref, q, where=missing)
        if self._any_ramp:
            step = self._band_s(ref)
            step *= self._S
            step *= dt
        else:
            step = self._steps(dt)
        b = ref + step
        np.maximum(b, self._L2, out=b)
        np.minimum(b, self._H2, out=b)
        if state_nan:
            unknown = np.isnan(ref)
            np.copyto(b[0], self._lo, where=unknown)
            np.copyto(b[1], self._hi, where=unknown)
        return b

    def _velocity_bounds(self, qs: np.ndarray, band_s: np.ndarray, dt: float, rate: bool,
                         state_nan: bool) -> np.ndarray:
        """``[lo; hi]`` (shape (2, n)) for velocity commands; ``qs = S·q``."""
        if rate and self._any_pos_limits:
            x = self._PL2 - qs  # [q − q_min; q_max − q]
            x *= 1.0 / dt
            np.maximum(x, 0.0, out=x)
            np.minimum(x, band_s, out=x)
            if state_nan:  # unknown position: no position term
                np.copyto(x, band_s, where=np.isnan(x))
        else:
            x = band_s.copy()
        x[0] *= -1.0
        return x

    def _effort_bounds(self, qs: np.ndarray, v: np.ndarray, band_s: np.ndarray) -> np.ndarray:
        """``[lo; hi]`` (shape (2, n)) for effort commands; ``qs = S·q``."""
        e = self._EM2.copy()
        if self._any_pos_limits or self._any_vmax:
            vs = self._S * v  # [−v; v]
            cut = qs >= self._PL2  # at or beyond the limit on that side...
            cut &= vs >= 0.0  # ...and not moving away from it
            cut |= vs > self._V2  # or faster than v̄ towards that side
            np.copyto(e, 0.0, where=cut)
        if self._any_esoft:
            # −kv (v − band) for both sides; joints without soft effort limits have kv = 1 and a
            # band of ∓1e300, which makes the term inactive without a branch. NaN v: no term.
            if self._any_ramp:
                band = band_s * self._S
                np.maximum(band, -_HUGE, out=band)
                np.minimum(band, _HUGE, out=band)
                np.copyto(band, self._EB2, where=self._not_esoft)
            else:
                band = self._EB2
            t = v - band
            t *= self._kv_neg
            np.maximum(t, self._ELOW2, out=t)
            np.minimum(t, self._EHIGH2, out=t)
            np.fmax(e[0], t[0], out=e[0])
            np.fmin(e[1], t[1], out=e[1])
        return e

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
        state_nan = not math.isfinite(float(q.dot(q)) + float(v.dot(v)))
        count = np.count_nonzero
        band_s = qs = None

        # ---- position (an all-NaN array = no position commands this cycle)
        out_p = cp.copy()
        if count(cp == cp):
            b = self._position_bounds(q, dt, rate, state_nan)
            if count(cp < b[0]) or count(cp > b[1]):
                np.maximum(out_p, b[0], out=out_p)
                np.minimum(out_p, b[1], out=out_p)
                self._count_position(cp, out_p)
        self._prev_pos = out_p

        # ---- velocity
        out_v = cv.copy()
        if count(cv == cv):
            band_s = self._band_s(q)
            qs = self._S * q
            b = self._velocity_bounds(qs, band_s, dt, rate, state_nan)
            acc = None
            if rate and self._any_amax:
                vref = self._prev_vel.copy()
                np.copyto(vref, v, where=np.isnan(vref))
                np.copyto(vref, cv, where=np.isnan(vref))
                acc = (vref - self._amax * dt, vref + self._amax * dt)
                np.maximum(out_v, acc[0], out=out_v)
                np.minimum(out_v, acc[1], out=out_v)
            if count(out_v < b[0]) or count(out_v > b[1]) or (acc is not None and count(out_v != cv)):
                np.maximum(out_v, b[0], out=out_v)
                np.minimum(out_v, b[1], out=out_v)
                self._count_velocity(cv, out_v, acc)
        self._prev_vel = out_v

        # ---- effort
        out_e = ce.copy()
        if count(ce == ce):
            if band_s is None:
                band_s = self._band_s(q)
                qs = self._S * q
            b = self._effort_bounds(qs, v, band_s)
            if count(ce < b[0]) or count(ce > b[1]):
                np.maximum(out_e, b[0], out=out_e)
                np.minimum(out_e, b[1], out=out_e)
                self._count_effort(ce, out_e)
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
