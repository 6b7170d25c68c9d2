"""The numpy path of :class:`~.limiter.JointLimiter`: the limiting rules of the
:mod:`.limiter` module docstring as stacked ufunc calls on preallocated buffers, the reference
that the compiled kernel (:mod:`.kernel`) matches value for value.

:class:`NumpyPath` holds the per-joint limit arrays (which :meth:`JointLimiter._pack
<.limiter.JointLimiter>` packs for the kernel, and the actuator bounds read) and the buffers of
one cycle. Every bound is kept in "S-form": side 0 the negated lower bound, side 1 the upper
bound, so one ufunc call handles both sides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from . import clamps
from .spec import JointLimits

_HUGE = 1e300  # stands in for an infinite velocity band where 0·inf would give NaN
_fmax_rows = np.fmax.reduce  # per-row maximum ignoring NaN (NaN only for an all-NaN row)


class NumpyPath:
    """The limiter's numpy implementation over ``n`` joints (arrays in the limiter's joint order).

    Attributes (per joint, shape ``(n,)``; ±inf where not limited, NaN nowhere unless stated):
        pmin, pmax: position range (rad or m).
        lo, hi: the range intersected with the soft range, ``L, H``.
        vmax, amax, emax: ``v̄`` (rad/s or m/s), ``ā`` (rad/s² or m/s²), ``ē`` (N·m or N).
        ramp: bool, where the soft velocity band applies (soft range, ``kp > 0``, finite ``v̄``,
            position limits).
        kps2, soft2, bases2: shape ``(2, n)``, the soft velocity band's gains ``[kp; −kp]``
            (1/s), soft limits ``[soft_lower; soft_upper]`` and offsets ``[−0.0; 0.0]`` on ramp
            joints (0, 0 and ``[v̄; v̄]`` elsewhere).
        esoft, kv: bool where the soft effort band applies (soft limits with a finite ``kv``
            and ``ē``), and ``kv`` there (N·m·s/rad or N·s/m; else 0).
        any_vmax, any_pos_limits, any_amax: whether some joint has a finite ``v̄``, position
            limits, a finite ``ā``.
    """

    def __init__(self, limits: Sequence[JointLimits], prev: np.ndarray, counts: np.ndarray) -> None:
        """Build the per-joint arrays and the buffers of :meth:`enforce`.

        Args:
            limits: one merged :class:`~.spec.JointLimits` per joint.
            prev: the previous commands, shape ``(2, n)`` (rows position, velocity; NaN = none),
                shared with the compiled kernel and updated in place by :meth:`enforce`.
            counts: the clamp counters, shape ``(len(REASONS), n)`` int64, shared likewise and
                incremented in place.
        """
        n = len(limits)
        self._n = n
        f = lambda attr: np.array([getattr(lim, attr) for lim in limits], dtype=float)
        has_pos = np.array([lim.has_position_limits for lim in limits], dtype=bool)
        self.pmin = np.where(has_pos, f("min_position"), -np.inf)
        self.pmax = np.where(has_pos, f("max_position"), np.inf)
        has_soft = np.array([lim.has_soft_limits for lim in limits], dtype=bool)
        soft_lo = np.where(has_soft, f("soft_lower"), -np.inf)
        soft_hi = np.where(has_soft, f("soft_upper"), np.inf)
        self.lo = np.maximum(self.pmin, soft_lo)  # L
        self.hi = np.minimum(self.pmax, soft_hi)  # H
        self.vmax = np.where([lim.has_velocity_limits for lim in limits], f("max_velocity"), np.inf)
        self.amax = np.where(
            [lim.has_acceleration_limits for lim in limits], f("max_acceleration"), np.inf
        )
        self.emax = np.where([lim.has_effort_limits for lim in limits], f("max_effort"), np.inf)
        kp = np.where(has_soft, f("k_position"), np.nan)
        kv = np.where(has_soft, f("k_velocity"), np.nan)
        self.ramp = (
            np.isfinite(soft_lo)
            & np.isfinite(soft_hi)
            & np.isfinite(kp)
            & (kp > 0)
            & np.isfinite(self.vmax)
            & has_pos
        )
        self._kp_neg = np.where(self.ramp, -kp, 0.0)
        self._soft_lo_r = np.where(self.ramp, soft_lo, 0.0)  # zeros avoid 0·inf
        self._soft_hi_r = np.where(self.ramp, soft_hi, 0.0)
        self.esoft = np.isfinite(kv) & np.isfinite(self.emax)
        self.kv = np.where(self.esoft, kv, 0.0)
        self._base_lo = np.where(self.ramp, 0.0, -self.vmax)
        self._base_hi = np.where(self.ramp, 0.0, self.vmax)
        # stacked (2, n) forms of the hot path (see _build_hot_path); row 0 = lower side in
        # "S-form" (negated), row 1 = upper side, so both rows share one ufunc call
        self._PL2 = np.stack([-self.pmin, self.pmax])  # S·q ≥ PL2: at/after a limit
        self._V2 = np.stack([self.vmax, self.vmax])
        self.kps2 = np.stack([-self._kp_neg, self._kp_neg])
        self.soft2 = np.stack([self._soft_lo_r, self._soft_hi_r])
        self.bases2 = np.stack([-self._base_lo, self._base_hi])
        self.any_vmax = bool(np.any(np.isfinite(self.vmax)))
        self._any_ramp = bool(np.any(self.ramp))
        self.any_amax = bool(np.any(np.isfinite(self.amax)))
        self._any_esoft = bool(np.any(self.esoft))
        self.any_pos_limits = bool(np.any(has_pos))
        self._any_cut = self.any_pos_limits or self.any_vmax
        # previous commands, rows position and velocity (updated in place by both paths)
        self._prev = prev
        self._prev_pos, self._prev_vel = prev
        self._counts = counts
        self._build_hot_path()

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
        self._W[0] = sides(self.emax, self.emax)
        self._W[1] = sides(-self.lo, self.hi)
        self._W[2] = V2
        self._W[3] = V2
        self._caps = self._W[0:3]
        self._bands = self._W[2:4]
        self._SOFT4 = np.stack([self.soft2, self.soft2])
        self._KPS4 = np.stack([self.kps2, self.kps2])
        self._BASES4 = np.stack([self.bases2, self.bases2])
        self._V4 = np.stack([V2, V2])
        self._NV4 = -self._V4
        # raw terms: B = (Y − XX[:5]) · M, slots [−S·v | v̄' − S·v | effort | position | velocity]
        vnext = np.where(np.isfinite(V2), np.nextafter(V2, np.inf), np.nan)  # v > v̄ ⇔ v ≥ v̄'
        self._Y = np.empty((5, 2, n))
        self._Y[0] = 0.0
        self._Y[1] = S * vnext
        self._eband_static = np.where(self.esoft, np.minimum(V2, _HUGE), 0.0)
        self._eff_sign = np.where(self.esoft, S, 0.0)  # S where soft effort limits, else 0
        self._Y[2] = self._eff_sign * self._eband_static
        self._Y[4] = S * self._PL2
        self._M = np.empty((5, 2, n))
        self._M[0] = S
        self._M[1] = S
        self._M[2] = S * np.where(self.esoft, self.kv, 0.0)
        self._B = np.empty((5, 2, n))
        self._Bm = self._B[2:5]
        # floors: before the caps (effort −ē where soft, +inf = inactive; velocity 0: no
        # driving out of range), after them (position [−H; L])
        lowe = np.where(self.esoft, -self.emax, np.inf)
        self._FLOOR_BEFORE = np.stack([sides(lowe, lowe), sides(-inf, -inf), self._ZERO2])
        self._FLOOR_AFTER = np.stack(
            [sides(-inf, -inf), sides(-self.hi, self.lo), sides(-inf, -inf)]
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
        self._pos_rate = pos_rate = rate and self.any_vmax
        self._vel_rate = vel_rate = rate and self.any_pos_limits
        S = self._S2
        # NaN multipliers drop the rate terms (the caps alone remain)
        self._M[3] = -S if pos_rate else math.nan
        self._M[4] = S * (1.0 / dt) if vel_rate else math.nan
        if pos_rate:
            np.multiply(S, -dt, out=self._NSDT)
            np.multiply(self._W[3], self._NSDT, out=self._Y[3])
        self._amax_dt = self.amax * dt if rate else None
        self._views.clear()  # the soft bands needed depend on pos_rate

    def enforce(
        self,
        position: np.ndarray,
        velocity: np.ndarray,
        cmd_position: np.ndarray,
        cmd_velocity: np.ndarray,
        cmd_effort: np.ndarray,
        dt: float,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Limit one cycle's commands (:meth:`JointLimiter.enforce <.limiter.JointLimiter>`
        without the compiled kernel); products of NaN/inf placeholders are expected, so the
        caller silences their floating-point warnings (``numpy.errstate``).

        Args:
            position, velocity: measured joint state, shape ``(n,)``; NaN where unknown.
            cmd_position, cmd_velocity, cmd_effort: commands, shape ``(n,)``; NaN = none.
            dt: control period in s, a float (≤ 0 or non-finite: only static limits).

        Returns:
            The limited ``(cmd_position, cmd_velocity, cmd_effort)``, new arrays; the previous
            commands and the counters are updated in place.

        Raises:
            ValueError: an array whose shape is not ``(n,)`` (or that numpy cannot convert to
                float).
        """
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
        if has_v and self._amax_dt is not None and self.any_amax:
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
        clamps.count_position(self._counts, cp, out_p, self.pmin, self.pmax, self.lo, self.hi)
        if acc is not None:
            np.maximum(out_v, acc[0], out=out_v)
            np.minimum(out_v, acc[1], out=out_v)
        np.maximum(out_v, -bm[2, 0], out=out_v)
        np.minimum(out_v, bm[2, 1], out=out_v)
        clamps.count_velocity(self._counts, cv, out_v, self.vmax, acc)
        np.maximum(out_e, -bm[0, 0], out=out_e)
        np.minimum(out_e, bm[0, 1], out=out_e)
        clamps.count_effort(self._counts, ce, out_e, self.emax)
