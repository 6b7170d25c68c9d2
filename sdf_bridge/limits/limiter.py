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
_fmax_rows = np.fmax.reduce  # per-row maximum ignoring NaN (NaN only for an all-NaN row)


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
        self._any_cut = self._any_pos_limits or self._any_vmax
        self._prev_pos = np.full(n, np.nan)
        self._prev_vel = np.full(n, np.nan)
        self._counts = np.zeros((len(REASONS), n), dtype=np.int64)
        self._build_hot_path()

    def _build_hot_path(self) -> None:
        """Preallocate the stacked buffers of :meth:`enforce` (layouts in its comments).

        Every bound is kept in "S-form": side 0 holds the negated lower bound, side 1 the
        upper bound, so one ufunc call handles both sides (and all three interfaces) at once.
        """
        n = self._n
        inf = np.full(n, np.inf)
        self._S3 = np.array([-1.0, 1.0]).reshape(2, 1, 1)
        self._zeros = np.zeros(n)
        # points whose state enters the bounds: [reference position; q; v], shape (3, n)
        self._X = np.empty((3, n))
        self._X_flat = self._X.reshape(-1)
        # band constants for the points [reference position; q]: shape (2 sides, 1, n)
        self._SOFT3 = self._SOFT2[:, None, :]
        self._KPS3 = self._KPS2[:, None, :]
        self._BASES3 = self._BASES2[:, None, :]
        self._V3 = self._V2[:, None, :]
        self._NV3 = self._NV2[:, None, :]
        # U, shape (2, 4, n): slots [band at reference | position range P | band at q | effort
        # maximum]; U[:, 1:] is the upper cap of the three interfaces' bounds.
        self._U = np.empty((2, 4, n))
        self._U[:, 0] = self._V2
        self._U[:, 1] = np.stack([-self._lo, self._hi])  # P: [−L; H]
        self._U[:, 2] = self._V2
        self._U[:, 3] = np.stack([self._emax, self._emax])
        self._U_bands = self._U[:, 0::2]
        self._U_cap = self._U[:, 1:]
        # lower caps applied after the upper cap (position: [−H; L]), and before it
        # (velocity: 0, no driving out of range; effort: −ē where soft, +inf = inactive)
        self._FLOOR_AFTER = np.stack([
            np.stack([-self._hi, -inf, -inf]), np.stack([self._lo, -inf, -inf])])
        lowe = np.where(self._esoft, -self._emax, np.inf)
        self._FLOOR_BEFORE = np.stack([
            np.stack([-inf, self._zeros, lowe]), np.stack([-inf, self._zeros, lowe])])
        # Y − S·X, shape (2, 3, n): slots [−v_band(ref)·dt | PL2 | −… effort band]
        self._Y = np.empty((2, 3, n))
        self._Y[:, 1] = self._PL2
        self._Y[:, 0] = -self._V2  # times dt, per dt (see _set_dt)
        self._eband_static = np.where(self._esoft, np.minimum(self._V2, _HUGE), np.inf)
        self._Y[:, 2] = self._eband_static
        self._G = np.empty((2, 3, n))
        self._M = np.empty((2, 3, n))
        self._M[:, 0] = -1.0
        self._M[:, 2] = np.where(self._esoft, self._kv, 0.0)
        self._B = np.empty((2, 3, n))
        self._SC = np.empty((2, 3, n))
        self._gate = np.empty((2, 3, n), dtype=bool)
        # effort cut: v·S ≥ 0 and v·S > v̄ (as ≥ nextafter(v̄); NaN where v̄ = inf: never)
        vnext = np.where(np.isfinite(self._V2), np.nextafter(self._V2, np.inf), np.nan)
        self._TH = np.stack([np.zeros((2, n)), vnext])
        self._cut = np.empty((2, n), dtype=bool)
        self._hot_dt = math.nan
        self._hot_rate = False
        self._pos_rate = self._vel_rate = False
        self._amax_dt: np.ndarray | None = None

    def _set_dt(self, dt: float, rate: bool) -> None:
        """Per-``dt`` constants of :meth:`enforce` (cached: ``dt`` rarely changes)."""
        self._hot_dt = dt
        self._hot_rate = rate
        self._pos_rate = pos_rate = rate and self._any_vmax
        self._vel_rate = vel_rate = rate and self._any_pos_limits
        # NaN multipliers drop the rate terms (the caps alone remain)
        self._M[:, 0] = -1.0 if pos_rate else math.nan
        self._M[:, 1] = 1.0 / dt if vel_rate else math.nan
        if pos_rate and not self._any_ramp:
            np.multiply(self._V2, -dt, out=self._Y[:, 0])
        self._amax_dt = self._amax * dt if rate else None

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

        Implementation: all bounds of the three interfaces are computed together in stacked
        ``(2, 3, n)`` arrays in S-form (negated lower bound, upper bound), a dozen ufunc calls
        whatever ``n``; only when a command lies outside them are the commands clamped and the
        reasons worked out (:meth:`_clamp`). NaN state values drop the terms that need them
        (``fmin`` ignores NaN), so the bounds never contain NaN.
        """
        q = np.asarray(position, dtype=float)
        v = np.asarray(velocity, dtype=float)
        cp = np.asarray(cmd_position, dtype=float)
        cv = np.asarray(cmd_velocity, dtype=float)
        ce = np.asarray(cmd_effort, dtype=float)
        n = self._n
        shape = (n,)
        if not (q.shape == shape and v.shape == shape and cp.shape == shape
                and cv.shape == shape and ce.shape == shape):
            raise ValueError(
                f"enforce: every array must have shape ({n},); got {q.shape}, {v.shape}, "
                f"{cp.shape}, {cv.shape}, {ce.shape}"
            )
        if n == 0:
            return cp.copy(), cv.copy(), ce.copy()
        rate = dt > 0.0 and math.isfinite(dt)
        if dt != self._hot_dt or rate != self._hot_rate:
            self._set_dt(dt, rate)
        out = np.concatenate((cp, cv, ce)).reshape(3, n)  # the result (fresh arrays)
        # which interfaces carry commands: fmax ignores NaN, so NaN = an all-NaN row
        has_p, has_v, has_e = (x == x for x in _fmax_rows(out, axis=1).tolist())
        U, Y = self._U, self._Y

        # ---- points: [reference position (previous command, else q); q; v]
        prev = self._prev_pos
        if has_p and math.isnan(prev.dot(self._zeros)):
            prev = prev.copy()
            np.copyto(prev, q, where=np.isnan(prev))
        X = self._X
        np.concatenate((prev, q, v), out=self._X_flat)
        if self._any_ramp:
            # soft velocity band at the reference and at q: clip(−kp (x − soft), ±v̄) in S-form
            bands = self._U_bands
            np.subtract(X[:2], self._SOFT3, out=bands)
            bands *= self._KPS3
            bands += self._BASES3
            np.fmin(bands, self._V3, out=bands)  # NaN position: the plain ±v̄ band
            np.maximum(bands, self._NV3, out=bands)
            if has_p and self._pos_rate:
                np.multiply(U[:, 0], -dt, out=Y[:, 0])
            if has_e and self._any_esoft:
                np.minimum(U[:, 2], _HUGE, out=Y[:, 2])
                np.copyto(Y[:, 2], self._eband_static, where=self._not_esoft)

        # ---- raw rate terms, all interfaces at once:
        # position −(S·ref − v_band·dt)·(−1); velocity (PL2 − S·q)/dt; effort kv (band − S·v)
        G = self._G
        np.multiply(self._S3, X, out=G)
        np.subtract(Y, G, out=G)
        B = self._B
        np.multiply(G, self._M, out=B)
        np.maximum(B, self._FLOOR_BEFORE, out=B)
        np.fmin(B, self._U_cap, out=B)
        np.maximum(B, self._FLOOR_AFTER, out=B)
        if has_e and self._any_cut:
            # at or beyond a limit and not moving away (PL2 − S·q ≤ 0 and S·v ≥ 0), or faster
            # than v̄ towards that side: no effort towards that side
            cut = self._cut
            sv = self._S3[:, 0] * X[2]
            d = G[:, 1] if self._vel_rate else self._PL2 - self._S3[:, 0] * X[1]
            np.less_equal(d, 0.0, out=cut)
            fast = sv >= self._TH
            cut &= fast[0]
            cut |= fast[1]
            np.minimum(B[:, 2], 0.0, out=B[:, 2], where=cut)

        # ---- gate: anything outside its bounds? (NaN commands compare False)
        SC = self._SC
        np.multiply(self._S3, out, out=SC)
        clamped = np.count_nonzero(np.greater(SC, B, out=self._gate))
        acc = None
        if has_v and self._amax_dt is not None and self._any_amax:
            vref = self._prev_vel.copy()
            np.copyto(vref, v, where=np.isnan(vref))
            np.copyto(vref, cv, where=np.isnan(vref))
            acc = (vref - self._amax_dt, vref + self._amax_dt)
            clamped = clamped or np.count_nonzero(cv < acc[0]) or np.count_nonzero(cv > acc[1])
        if clamped:
            self._clamp(out, cp, cv, ce, acc)
        out_p, out_v, out_e = out
        self._prev_pos = out_p
        self._prev_vel = out_v
        return out_p, out_v, out_e

    def _clamp(self, out: np.ndarray, cp: np.ndarray, cv: np.ndarray, ce: np.ndarray,
               acc: tuple[np.ndarray, np.ndarray] | None) -> None:
        """Clamp ``out`` (rows position, velocity, effort; shape (3, n)) to the bounds in
        ``self._B`` (lower bound first, then upper, as ros2_control) and count the reasons."""
        lo = -self._B[0]
        hi = self._B[1]
        out_p, out_v, out_e = out
        np.maximum(out_p, lo[0], out=out_p)
        np.minimum(out_p, hi[0], out=out_p)
        self._count_position(cp, out_p)
        if acc is not None:
            np.maximum(out_v, acc[0], out=out_v)
            np.minimum(out_v, acc[1], out=out_v)
        np.maximum(out_v, lo[1], out=out_v)
        np.minimum(out_v, hi[1], out=out_v)
        self._count_velocity(cv, out_v, acc)
        np.maximum(out_e, lo[2], out=out_e)
        np.minimum(out_e, hi[2], out=out_e)
        self._count_effort(ce, out_e)

    def _count(self, reason: str, mask: np.ndarray) -> None:
        self._counts[_R[reason]] += mask

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
