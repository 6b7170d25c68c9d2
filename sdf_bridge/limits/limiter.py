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
``effort``, ``effort_position``. Reasons are worked out only when something was clamped (the common,
unclamped cycle only computes the bounds and compares). NaN commands (= no command) stay NaN and are
not counted; a NaN measured position drops the terms that need it (range and reachability fall back
to ``[L, H]``). ``dt ≤ 0`` or non-finite disables the rate terms (reachability, range-by-velocity,
acceleration) and keeps the static ones. Implementations: the numpy path below (stacked ufunc calls;
the reference) and, when Numba is available (:mod:`sdf_bridge.jit`), one compiled loop per cycle
(:mod:`.kernel`) with identical results; ``JointLimiter(..., compiled=False)`` forces the numpy
path. Not done (documented differences): ros2_control's 1°/s creep inside the soft band when the
joint is already past a soft limit, deceleration and jerk limits, and the exception it throws when
the measured position is far outside the range.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from sdf_bridge import jit
from sdf_bridge.description.model import Robot
from sdf_bridge.errors import LimitsError

from . import clamps
from . import kernel as _kernel
from .clamps import REASONS
from .overrides import load_overrides
from .spec import JointLimits

_LOG = logging.getLogger(__name__)

_HUGE = 1e300  # stands in for an infinite velocity band where 0·inf would give NaN
_fmax_rows = np.fmax.reduce  # per-row maximum ignoring NaN (NaN only for an all-NaN row)


class JointLimiter:
    """Enforces joint limits on joint-space commands (arrays in ``joint_names`` order).

    Attributes:
        joint_names: the joints, array order.
        limits: the merged :class:`~.spec.JointLimits` per joint.
        warnings: build-time warnings (e.g. ``k_velocity`` 0 on an effort-limited joint).
    """

    #: modules of the compiled kernels (each with ``warm_up()``; :mod:`.hardware.kernel_switch`)
    kernel_modules: ClassVar[tuple[str, ...]] = (_kernel.__name__,)

    def __init__(
        self,
        joint_names: Sequence[str],
        limits: Sequence[JointLimits],
        warnings: Sequence[str] = (),
        *,
        compiled: bool | None = None,
    ) -> None:
        """Build from per-joint limits (same length as ``joint_names``).

        Args:
            joint_names, limits, warnings: see the class attributes.
            compiled: run :meth:`enforce` through the compiled kernel (:mod:`.kernel`, one
                loop per cycle) rather than the numpy path; default :data:`sdf_bridge.jit.ENABLED`.
                Both give identical results. ``True`` without Numba runs the kernel as plain
                Python (slow; meant for tests).

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
        f = lambda attr: np.array([getattr(lim, attr) for lim in limits], dtype=float)
        has_pos = np.array([lim.has_position_limits for lim in limits], dtype=bool)
        self._pmin = np.where(has_pos, f("min_position"), -np.inf)
        self._pmax = np.where(has_pos, f("max_position"), np.inf)
        has_soft = np.array([lim.has_soft_limits for lim in limits], dtype=bool)
        soft_lo = np.where(has_soft, f("soft_lower"), -np.inf)
        soft_hi = np.where(has_soft, f("soft_upper"), np.inf)
        self._lo = np.maximum(self._pmin, soft_lo)  # L
        self._hi = np.minimum(self._pmax, soft_hi)  # H
        self._vmax = np.where(
            [lim.has_velocity_limits for lim in limits], f("max_velocity"), np.inf
        )
        self._amax = np.where(
            [lim.has_acceleration_limits for lim in limits], f("max_acceleration"), np.inf
        )
        self._emax = np.where([lim.has_effort_limits for lim in limits], f("max_effort"), np.inf)
        kp = np.where(has_soft, f("k_position"), np.nan)
        kv = np.where(has_soft, f("k_velocity"), np.nan)
        self._ramp = (
            np.isfinite(soft_lo)
            & np.isfinite(soft_hi)
            & np.isfinite(kp)
            & (kp > 0)
            & np.isfinite(self._vmax)
            & has_pos
        )
        self._kp_neg = np.where(self._ramp, -kp, 0.0)
        self._soft_lo_r = np.where(self._ramp, soft_lo, 0.0)  # zeros avoid 0·inf
        self._soft_hi_r = np.where(self._ramp, soft_hi, 0.0)
        self._esoft = np.isfinite(kv) & np.isfinite(self._emax)
        self._kv = np.where(self._esoft, kv, 0.0)
        self._base_lo = np.where(self._ramp, 0.0, -self._vmax)
        self._base_hi = np.where(self._ramp, 0.0, self._vmax)
        # stacked (2, n) forms of the hot path (see _build_hot_path); row 0 = lower side in
        # "S-form" (negated), row 1 = upper side, so both rows share one ufunc call
        self._PL2 = np.stack([-self._pmin, self._pmax])  # S·q ≥ PL2: at/after a limit
        self._V2 = np.stack([self._vmax, self._vmax])
        self._NV2 = -self._V2
        self._KPS2 = np.stack([-self._kp_neg, self._kp_neg])
        self._SOFT2 = np.stack([self._soft_lo_r, self._soft_hi_r])
        self._BASES2 = np.stack([-self._base_lo, self._base_hi])
        self._any_vmax = bool(np.any(np.isfinite(self._vmax)))
        self._any_ramp = bool(np.any(self._ramp))
        self._any_amax = bool(np.any(np.isfinite(self._amax)))
        self._any_esoft = bool(np.any(self._esoft))
        self._any_pos_limits = bool(np.any(has_pos))
        self._any_cut = self._any_pos_limits or self._any_vmax
        # previous commands, rows position and velocity (updated in place by both paths)
        self._prev = np.full((2, n), np.nan)
        self._prev_pos, self._prev_vel = self._prev
        self._counts = np.zeros((len(REASONS), n), dtype=np.int64)
        self._build_hot_path()
        self._compiled = jit.ENABLED if compiled is None else bool(compiled)
        self._params = self._pack()
        self._shape3 = (3, n)
        if self._compiled:
            _kernel.warm_up()

    def _pack(self) -> np.ndarray:
        """The compiled kernel's parameter array (:func:`.kernel.pack`), from the numpy
        path's per-joint arrays."""
        k = _kernel
        finite = np.isfinite(self._vmax)
        vnext = np.where(finite, np.nextafter(self._vmax, np.inf), np.nan)  # v > v̄ ⇔ v ≥ v̄'
        return k.pack(
            {
                k.PMIN: self._pmin,
                k.PMAX: self._pmax,
                k.LO: self._lo,
                k.HI: self._hi,
                k.VMAX: self._vmax,
                k.VNEXT: vnext,
                k.AMAX: self._amax,
                k.EMAX: self._emax,
                k.RAMP: self._ramp.astype(float),
                k.KPS0: self._KPS2[0],
                k.KPS1: self._KPS2[1],
                k.SOFT0: self._SOFT2[0],
                k.SOFT1: self._SOFT2[1],
                k.BASE0: self._BASES2[0],
                k.BASE1: self._BASES2[1],
                k.ESOFT: self._esoft.astype(float),
                k.KV: self._kv,
            },
            self._n,
            self._any_vmax,
            self._any_pos_limits,
            self._any_amax,
        )

    def _build_hot_path(self) -> None:
        """Preallocate the stacked buffers of :meth:`enforce`.

        Every bound is kept in "S-form": side 0 holds the negated lower bound, side 1 the
        upper bound, so one ufunc call handles both sides. Interfaces are stacked in the order
        ``[effort, position, velocity]`` (shape ``(3, 2, n)``, C-contiguous) so that the caps
        and the soft velocity bands sit next to each other in one buffer: each stage is one
        same-shape ufunc call on contiguous memory (no broadcasting, no strided views, which
        cost several times a plain call at these sizes).
        """
        n = self._n
        inf = np.full(n, np.inf)
        zero = np.zeros(n)
        one = np.ones(n)
        self._zeros = zero

        def sides(lo_side: np.ndarray, hi_side: np.ndarray) -> np.ndarray:
            return np.stack([lo_side, hi_side])

        S = sides(-one, one)
        self._S2 = S
        V2 = self._V2
        self._ZERO2 = np.zeros((2, n))
        # XX, shape (6, 1, n): the state entering each slot (broadcast over both sides):
        # [v (−S·v) | v (v̄ − S·v) | v (effort) | reference position | q (velocity) | reference
        # (second soft-band point)]; XX[4:6] are the points of the soft bands.
        self._XX = np.empty((6, 1, n))
        self._XX_flat = self._XX.reshape(-1)
        # soft velocity band at q and at the reference, S-form: W[2:4] of the caps buffer
        # W = [effort max | position range P = [−L; H] | band at q | band at reference]
        self._W = np.empty((4, 2, n))
        self._W[0] = sides(self._emax, self._emax)
        self._W[1] = sides(-self._lo, self._hi)
        self._W[2] = V2
        self._W[3] = V2
        self._caps = self._W[0:3]
        self._bands = self._W[2:4]
        self._SOFT4 = np.stack([self._SOFT2, self._SOFT2])
        self._KPS4 = np.stack([self._KPS2, self._KPS2])
        self._BASES4 = np.stack([self._BASES2, self._BASES2])
        self._V4 = np.stack([V2, V2])
        self._NV4 = -self._V4
        # raw terms: B = (Y − XX[:5]) · M, slots [−S·v | v̄' − S·v | effort | position | velocity]
        vnext = np.where(np.isfinite(V2), np.nextafter(V2, np.inf), np.nan)  # v > v̄ ⇔ v ≥ v̄'
        self._Y = np.empty((5, 2, n))
        self._Y[0] = 0.0
        self._Y[1] = S * vnext
        self._eband_static = np.where(self._esoft, np.minimum(V2, _HUGE), 0.0)
        self._eff_sign = np.where(self._esoft, S, 0.0)  # S where soft effort limits, else 0
        self._Y[2] = self._eff_sign * self._eband_static
        self._Y[4] = S * self._PL2
        self._M = np.empty((5, 2, n))
        self._M[0] = S
        self._M[1] = S
        self._M[2] = S * np.where(self._esoft, self._kv, 0.0)
        self._B = np.empty((5, 2, n))
        self._Bm = self._B[2:5]
        # floors: before the caps (effort −ē where soft, +inf = inactive; velocity 0: no
        # driving out of range), after them (position [−H; L])
        lowe = np.where(self._esoft, -self._emax, np.inf)
        self._FLOOR_BEFORE = np.stack([sides(lowe, lowe), sides(-inf, -inf), self._ZERO2])
        self._FLOOR_AFTER = np.stack(
            [sides(-inf, -inf), sides(-self._hi, self._lo), sides(-inf, -inf)]
        )
        self._S6 = np.stack([S, S, S])
        self._SC = np.empty((3, 2, n))
        self._gate = np.empty((3, 2, n), dtype=bool)
        self._cut = np.empty((2, n), dtype=bool)
        self._a = np.empty((2, n))
        self._hot_dt = math.nan
        self._hot_rate = False
        self._pos_rate = self._vel_rate = False
        self._amax_dt: np.ndarray | None = None
        self._NSDT = np.zeros((2, n))
        self._views: dict[tuple[bool, bool, bool], tuple] = {}
        self._B[:] = np.inf  # bounds of slots not computed this cycle: never binding

    def _set_dt(self, dt: float, rate: bool) -> None:
        """Per-``dt`` constants of :meth:`enforce` (cached: ``dt`` rarely changes)."""
        self._hot_dt = dt
        self._hot_rate = rate
        self._pos_rate = pos_rate = rate and self._any_vmax
        self._vel_rate = vel_rate = rate and self._any_pos_limits
        S = self._S2
        # NaN multipliers drop the rate terms (the caps alone remain)
        self._M[3] = -S if pos_rate else math.nan
        self._M[4] = S * (1.0 / dt) if vel_rate else math.nan
        if pos_rate:
            np.multiply(S, -dt, out=self._NSDT)
            np.multiply(self._W[3], self._NSDT, out=self._Y[3])
        self._amax_dt = self._amax * dt if rate else None
        self._views.clear()  # the soft bands needed depend on pos_rate

    # --------------------------------------------------------------------------- building
    @classmethod
    def from_robot(
        cls,
        robot: Robot,
        joint_names: Sequence[str],
        *,
        overrides: Mapping[str, Mapping[str, Any]] | str | Path | None = None,
        compiled: bool | None = None,
    ) -> JointLimiter:
        """Limits of ``joint_names`` from the URDF, ``<ros2_control>`` and an override.

        Args:
            robot: the robot.
            joint_names: joints to limit, array order (e.g. ``TransmissionMap.joint_names``).
            overrides: ``{joint: {field: value}}`` (as :meth:`load_overrides` returns, or a raw
                parsed YAML document), or a YAML file path.
            compiled: use the compiled kernel (see :meth:`__init__`); default
                :data:`sdf_bridge.jit.ENABLED`.

        Raises:
            LimitsError: a joint not in the robot, an override for an unknown joint or with a
                bad field, inconsistent limits.
        """
        from .loader import limits_of

        limits, warnings = limits_of(robot, joint_names, overrides)
        return cls(joint_names, limits, warnings, compiled=compiled)

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

    @property
    def compiled(self) -> bool:
        """Whether :meth:`enforce` runs the compiled kernel (else the numpy path)."""
        return self._compiled

    def use_compiled(self) -> None:
        """Limit through the compiled kernel from the next call on, warmed up first
        (:func:`.kernel.warm_up`: compiled, or loaded from Numba's cache, now). The previous
        commands and the clamp counters are the same arrays for both paths, so they carry over;
        switch between cycles."""
        _kernel.warm_up()
        self._compiled = True

    def reset(self) -> None:
        """Forget previous commands (after an e-stop or re-home) and zero the counters."""
        self._prev[:] = np.nan
        self._counts[:] = 0

    def actuator_limits(self, tmap: Any) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Actuator-side bounds through a :class:`~sdf_bridge.transmissions.TransmissionMap`
        whose ``joint_names`` equal this limiter's: ``{"position": (lo, hi), "velocity": …,
        "effort": …}``, each array of shape ``(n_actuators,)`` (negative reductions swap).

        Raises:
            LimitsError: the map's joints differ from the limiter's.
        """
        if tuple(tmap.joint_names) != self.joint_names:
            raise LimitsError(
                "the transmission map's joints differ from the limiter's. Fix: "
                "build the limiter with tmap.joint_names."
            )
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
            dt: control period in s (≤ 0 or non-finite: only static limits), converted with
                ``float()``.

        Returns:
            The limited ``(cmd_position, cmd_velocity, cmd_effort)``, new arrays; NaN stays NaN.

        Raises:
            ValueError: arrays of the wrong shape, or a ``dt`` string that is not a number.
            TypeError: ``dt`` is not a number.

        Implementation: the bounds of the interfaces that carry commands are computed together
        in one stacked, C-contiguous ``(slots, 2, n)`` buffer in S-form (side 0 the negated lower
        bound, side 1 the upper bound; slots effort, position, velocity, plus two for the effort
        cut), about 15–25 ufunc calls whatever ``n``; only when a command lies outside them
        are the commands clamped and the reasons worked out (:meth:`_clamp`), with results
        identical to clamping interface by interface. NaN state values drop the terms that
        need them (``fmin`` ignores NaN), so the bounds never contain NaN: an unknown position
        leaves ±v̄ and the static range in force, and never turns a valid command into NaN.
        Products of NaN/inf placeholders are expected there, so their floating-point warnings
        are silenced for this call only.

        With the compiled kernel (``compiled``, see :meth:`__init__`) the same rules run as one
        loop over the joints (:func:`.kernel.enforce`), with identical results; arguments it
        does not accept (not float64 arrays, wrong lengths, a non-float ``dt``) go to the
        numpy path, which converts them or raises.
        """
        dt = float(dt)  # a numpy scalar (e.g. float32) must not be compared in its own precision
        if self._compiled:
            try:
                out = np.empty(self._shape3)
                _kernel.enforce(
                    self._params,
                    self._prev,
                    self._counts,
                    position,
                    velocity,
                    cmd_position,
                    cmd_velocity,
                    cmd_effort,
                    dt,
                    out,
                )
            except (TypeError, ValueError):
                pass  # the numpy path converts or raises the documented error
            else:
                return out[0], out[1], out[2]
        with np.errstate(invalid="ignore", over="ignore"):
            return self._enforce(position, velocity, cmd_position, cmd_velocity, cmd_effort, dt)

    def enforce_stacked(self, measured: np.ndarray, commands: np.ndarray, dt: float) -> np.ndarray:
        """:meth:`enforce` on stacked arrays, for the control cycle (fewer arguments to pass).

        Args:
            measured: shape ``(2 or 3, m)``, ``m ≥ n_joints``: rows measured position and
                velocity (a third row, e.g. effort, is ignored); columns ``joint_names``
                first (further columns, e.g. followers, are ignored).
            commands: shape ``(3, n_joints)``: rows position, velocity, effort commands (NaN =
                none).
            dt: control period, s (as :meth:`enforce`).

        Returns:
            A new ``(3, n_joints)`` array: the limited commands, equal to :meth:`enforce` of
            the rows.

        Raises:
            ValueError, TypeError: as :meth:`enforce` (shapes, ``dt``).
        """
        dt = float(dt)
        if self._compiled:
            try:
                out = np.empty(self._shape3)
                _kernel.enforce_stacked(
                    self._params, self._prev, self._counts, measured, commands, dt, out
                )
                return out
            except (TypeError, ValueError):
                pass  # the row-wise call converts or raises the documented error
        measured = np.asarray(measured)
        commands = np.asarray(commands)
        if (
            measured.ndim != 2
            or measured.shape[0] < 2
            or commands.ndim != 2
            or commands.shape[0] != 3
        ):
            raise ValueError(
                f"enforce_stacked: measured state of shape {measured.shape} (need (2 or 3, >= "
                f"{len(self.joint_names)})) and commands of shape {commands.shape} (need (3, "
                f"{len(self.joint_names)}))"
            )
        n = len(self.joint_names)
        return np.array(
            self.enforce(
                measured[0, :n], measured[1, :n], commands[0], commands[1], commands[2], dt
            )
        )

    def _enforce(
        self,
        position: np.ndarray,
        velocity: np.ndarray,
        cmd_position: np.ndarray,
        cmd_velocity: np.ndarray,
        cmd_effort: np.ndarray,
        dt: float,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        q = np.asarray(position, dtype=float)
        v = np.asarray(velocity, dtype=float)
        cp = np.asarray(cmd_position, dtype=float)
        cv = np.asarray(cmd_velocity, dtype=float)
        ce = np.asarray(cmd_effort, dtype=float)
        n = self._n
        shape = (n,)
        if not (
            q.shape == shape
            and v.shape == shape
            and cp.shape == shape
            and cv.shape == shape
            and ce.shape == shape
        ):
            raise ValueError(
                f"enforce: every array must have shape ({n},); got {q.shape}, {v.shape}, "
                f"{cp.shape}, {cv.shape}, {ce.shape}"
            )
        if n == 0:
            return cp.copy(), cv.copy(), ce.copy()
        rate = dt > 0.0 and math.isfinite(dt)
        if dt != self._hot_dt or rate != self._hot_rate:
            self._set_dt(dt, rate)
        # the result (fresh rows), in slot order [effort, position, velocity]
        C = np.array((ce, cp, cv))
        # which interfaces carry commands: fmax ignores NaN, so NaN = an all-NaN row
        has_e, has_p, has_v = (x == x for x in _fmax_rows(C, axis=1).tolist())

        # ---- the state entering each slot; reference = previous position command, else q
        prev = self._prev_pos
        if has_p and math.isnan(prev.dot(self._zeros)):
            prev = prev.copy()
            np.copyto(prev, q, where=np.isnan(prev))
        Y = self._Y
        key = (has_e, has_p, has_v)
        views = self._views.get(key)
        if views is None:
            views = self._views[key] = self._slot_views(has_e, has_p, has_v)
        (Bs, Ys, XXs, Ms, Bm, floor_before, caps, floor_after, Cs, S6, SC, gate, bands) = views
        if XXs is None:  # position commands only: the reference is the only state needed
            XXs = prev.reshape(1, 1, n)
        else:
            np.concatenate((v, v, v, prev, q, prev), out=self._XX_flat)
        if bands is not None:
            # soft velocity band at q and/or the reference: clip(−kp (x − soft), ±v̄), S-form
            bands, xs, soft, kps, bases, v4, nv4 = bands
            if xs is None:
                xs = XXs
            np.subtract(xs, soft, out=bands)
            np.multiply(bands, kps, out=bands)
            np.add(bands, bases, out=bands)
            np.fmin(bands, v4, out=bands)  # NaN position: the plain ±v̄ band
            np.maximum(bands, nv4, out=bands)
            if has_p and self._pos_rate:
                np.multiply(self._W[3], self._NSDT, out=Y[3])
            if has_e and self._any_esoft:
                np.minimum(self._W[2], _HUGE, out=Y[2])
                np.multiply(Y[2], self._eff_sign, out=Y[2])

        # ---- raw terms of the slots in use at once (S-form): −S·v; v̄' − S·v; effort
        # kv (band − S·v); position S·ref + band(ref)·dt; velocity (PL2 − S·q)/dt
        cut_ok = has_e and self._any_cut
        np.subtract(Ys, XXs, out=Bs)
        np.multiply(Bs, Ms, out=Bs)
        B = self._B
        cut = None
        if cut_ok:
            # at or beyond a limit and not moving away (PL2 − S·q ≤ 0 and S·v ≥ 0), or faster
            # than v̄ towards that side (S·v ≥ v̄'): no effort towards that side
            if self._vel_rate and has_v:
                d = B[4]
            else:
                d = self._PL2 - self._S2 * q  # B[4] is d/dt: only the signs matter below
            a = np.maximum(d, B[0], out=self._a)
            np.fmin(a, B[1], out=a)
            cut = np.less_equal(a, self._ZERO2, out=self._cut)
        if floor_before is not None:  # None: only the position slot, whose floor is −inf
            np.maximum(Bm, floor_before, out=Bm)
        np.fmin(Bm, caps, out=Bm)
        np.maximum(Bm, floor_after, out=Bm)
        if cut is not None:
            np.minimum(B[2], self._ZERO2, out=B[2], where=cut)

        # ---- gate: anything outside its bounds? (NaN commands compare False)
        np.multiply(C.reshape(3, 1, n)[Cs], S6, out=SC)
        clamped = np.count_nonzero(np.greater(SC, Bm, out=gate))
        acc = None
        if has_v and self._amax_dt is not None and self._any_amax:
            vref = self._prev_vel.copy()
            np.copyto(vref, v, where=np.isnan(vref))
            np.copyto(vref, cv, where=np.isnan(vref))
            acc = (vref - self._amax_dt, vref + self._amax_dt)
            clamped = clamped or np.count_nonzero(cv < acc[0]) or np.count_nonzero(cv > acc[1])
        out_e, out_p, out_v = C
        if clamped:
            self._clamp(out_p, out_v, out_e, cp, cv, ce, acc)
        np.copyto(self._prev, C[1:])  # rows position, velocity
        return out_p, out_v, out_e

    def _slot_views(self, has_e: bool, has_p: bool, has_v: bool) -> tuple:
        """Views of the hot-path buffers restricted to the slots the interfaces in use need
        (contiguous ranges; slots 0–1 serve the effort cut, 2–4 are effort, position,
        velocity)."""
        used = [i for i, on in ((2, has_e), (3, has_p), (4, has_v)) if on] or [3]
        lo = 0 if has_e and self._any_cut else used[0]
        hi = used[-1] + 1
        m_lo, m_hi = used[0], hi  # interface slots (3, 2, n) index = slot − 2
        i_lo, i_hi = m_lo - 2, m_hi - 2
        pos_only = (lo, hi) == (3, 4)  # then the state array is the reference alone
        bands = None
        need_q = self._any_ramp and (has_v or has_e)
        need_r = self._any_ramp and has_p and self._pos_rate
        if need_q or need_r:
            k0, k1 = (0 if need_q else 1), (2 if need_r else 1)
            bands = (
                self._bands[k0:k1],
                None if pos_only else self._XX[4 + k0 : 4 + k1],
                self._SOFT4[k0:k1],
                self._KPS4[k0:k1],
                self._BASES4[k0:k1],
                self._V4[k0:k1],
                self._NV4[k0:k1],
            )
        return (
            self._B[lo:hi],
            self._Y[lo:hi],
            None if pos_only else self._XX[lo:hi],
            self._M[lo:hi],
            self._B[m_lo:m_hi],
            None if (i_lo, i_hi) == (1, 2) else self._FLOOR_BEFORE[i_lo:i_hi],
            self._caps[i_lo:i_hi],
            self._FLOOR_AFTER[i_lo:i_hi],
            slice(i_lo, i_hi),
            self._S6[i_lo:i_hi],
            self._SC[i_lo:i_hi],
            self._gate[i_lo:i_hi],
            bands,
        )

    def _clamp(
        self,
        out_p: np.ndarray,
        out_v: np.ndarray,
        out_e: np.ndarray,
        cp: np.ndarray,
        cv: np.ndarray,
        ce: np.ndarray,
        acc: tuple[np.ndarray, np.ndarray] | None,
    ) -> None:
        """Clamp the outputs (in place) to the bounds of this cycle (lower bound first, then
        upper, as ros2_control; velocity: acceleration first) and count the reasons."""
        bm = self._Bm
        np.maximum(out_p, -bm[1, 0], out=out_p)
        np.minimum(out_p, bm[1, 1], out=out_p)
        clamps.count_position(self._counts, cp, out_p, self._pmin, self._pmax, self._lo, self._hi)
        if acc is not None:
            np.maximum(out_v, acc[0], out=out_v)
            np.minimum(out_v, acc[1], out=out_v)
        np.maximum(out_v, -bm[2, 0], out=out_v)
        np.minimum(out_v, bm[2, 1], out=out_v)
        clamps.count_velocity(self._counts, cv, out_v, self._vmax, acc)
        np.maximum(out_e, -bm[0, 0], out=out_e)
        np.minimum(out_e, bm[0, 1], out=out_e)
        clamps.count_effort(self._counts, ce, out_e, self._emax)
