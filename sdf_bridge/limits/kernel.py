"""Compiled hot path of :class:`~.limiter.JointLimiter`: one loop per control cycle (Numba,
:mod:`sdf_bridge.jit`).

The limiter's numpy path (:meth:`NumpyPath.enforce <.numpy_path.NumpyPath.enforce>`) is the
reference. :func:`enforce` performs, joint by joint, the same floating-point operations in the
same order on the same operands, so both give identical values (NaN where NaN; the tests
check it, comparing with ``==``, which does not distinguish the sign of a zero). In the
notation of the limiter module (side 0 = lower bound, kept negated, "S-form"; side 1 = upper
bound), per joint:

* soft velocity band at ``x``: ``b_s = max(fmin((x − soft_s)·kps_s + base_s, v̄), −v̄)`` for
  joints with a soft position ramp, else ``v̄``;
* position: ``p_0 = (b_0(r)·dt − r)·1``, ``p_1 = (b_1(r)·(−dt) − r)·(−1)`` (NaN without a
  rate term), then ``max(fmin(p_s, [−L, H]_s), [−H, L]_s)``;
* velocity: ``w_0 = (q_min − q)·(−1/dt)``, ``w_1 = (q_max − q)·(1/dt)`` (NaN without), then
  ``fmin(max(w_s, 0), b_s(q))``; acceleration window ``v_ref ∓ ā·dt``;
* effort: ``ē`` (no soft effort limits), or ``fmin(max((S·min(b_s(q), 10³⁰⁰) − v)·(S·kv),
  −ē), ē)``, then ``min(·, 0)`` on a cut side (``fmin(max(d_s, −S·v), v̄' − S·v) ≤ 0``).

``max``/``min`` propagate NaN (``numpy.maximum``/``minimum``), ``fmin`` ignores a NaN operand
(``numpy.fmin``). As in the numpy path, the outputs are clamped (and the reasons counted) only
when some command of the cycle lies outside its bounds; otherwise they are the commands.

All static data is packed once (:func:`pack`) into one ``(ROWS, max(n, 1))`` float array: each
array argument of a compiled call costs a fixed unboxing time. The previous commands live in one
``(2, n)`` array (rows position, velocity) and the clamp counters in the limiter's ``(8, n)``
int64 array; both are updated in place. Pack rows (column ``i`` = joint ``i``; ±inf or NaN
where not limited, exactly the values of the numpy path's per-joint arrays):

=====================  ====================================================================
``PMIN``, ``PMAX``     position range (rad or m; ±inf without position limits)
``LO``, ``HI``         range ∩ soft range ``L, H``
``VMAX``, ``VNEXT``    ``v̄`` (rad/s or m/s) and the next float above it (NaN if ``v̄`` = inf)
``AMAX``, ``EMAX``     ``ā`` (rad/s² or m/s²), ``ē`` (N·m or N)
``RAMP``               1.0 where the soft velocity band applies (soft range, ``kp > 0``, ``v̄``)
``KPS0``, ``KPS1``     ``kp``, ``−kp`` (1/s) on ramp joints, else 0
``SOFT0``, ``SOFT1``   soft lower/upper limits on ramp joints, else 0
``BASE0``, ``BASE1``   the band's offsets: ``−0.0``/``0.0`` on ramp joints, else ``v̄``
``ESOFT``, ``KV``      1.0 and ``kv`` where the soft effort band applies, else 0
``ANY_*``              whole-limiter flags (every column): a finite ``v̄``, position limits,
                       a finite ``ā`` on some joint
=====================  ====================================================================
"""

from __future__ import annotations

import numpy as np

from sdf_bridge import jit

# ---- pack rows (per joint; the last three rows hold one flag for the whole limiter) --------
PMIN, PMAX, LO, HI, VMAX, VNEXT, AMAX, EMAX = range(8)
RAMP, KPS0, KPS1, SOFT0, SOFT1, BASE0, BASE1, ESOFT, KV = range(8, 17)
ANY_VMAX, ANY_POS, ANY_AMAX = range(17, 20)
ROWS = 20
"""Number of rows of the parameter pack."""

HUGE = 1e300
"""Stands in for an infinite velocity band in the soft effort band (as the numpy path)."""

# counter rows (the order of :data:`sdf_bridge.limits.limiter.REASONS`)
_C_POSITION, _C_SOFT, _C_STEP, _C_VELOCITY, _C_VELPOS, _C_ACC, _C_EFFORT, _C_EFFPOS = range(8)


def pack(
    rows: dict[int, np.ndarray], n: int, any_vmax: bool, any_pos: bool, any_amax: bool
) -> np.ndarray:
    """The kernel's parameter array.

    Args:
        rows: pack row index (the module constants ``PMIN`` … ``KV``) → values, shape ``(n,)``
            (flags as 0.0/1.0); every row from ``PMIN`` to ``KV`` must be given.
        n: number of joints.
        any_vmax, any_pos, any_amax: whether any joint has a finite velocity limit, position
            limits, a finite acceleration limit (the numpy path switches the rate terms on
            for the whole limiter by these).

    Returns:
        A new C-contiguous float64 array of shape ``(ROWS, max(n, 1))``.

    Raises:
        ValueError: a row missing or of the wrong shape.
    """
    out = np.zeros((ROWS, max(n, 1)))
    for r in range(ANY_VMAX):
        if r not in rows:
            raise ValueError(f"pack row {r} missing")
        values = np.asarray(rows[r], dtype=float)
        if values.shape != (n,):
            raise ValueError(f"pack row {r} has shape {values.shape}, expected ({n},)")
        out[r, :n] = values
    out[ANY_VMAX] = float(any_vmax)
    out[ANY_POS] = float(any_pos)
    out[ANY_AMAX] = float(any_amax)
    return out


# ---------------------------------------------------------------------- NaN-aware helpers
@jit.kernel
def _max(a, b):
    """``numpy.maximum`` of two floats: NaN if either is NaN."""
    return a if (a >= b or a != a) else b


@jit.kernel
def _min(a, b):
    """``numpy.minimum`` of two floats: NaN if either is NaN."""
    return a if (a <= b or a != a) else b


@jit.kernel
def _fmin(a, b):
    """``numpy.fmin`` of two floats: a NaN operand is ignored (NaN only if both are)."""
    return b if (b < a or a != a) else a


@jit.kernel
def _band(x, soft, kps, base, vmax):
    """One side of the soft velocity band at position ``x`` (S-form), for a ramp joint."""
    return _max(_fmin((x - soft) * kps + base, vmax), -vmax)


# -------------------------------------------------------------------------------- kernel
@jit.kernel
def enforce(params, prev, counts, q, v, cp, cv, ce, dt, out):
    """Limit one cycle's commands (see the module docstring and the limiter's).

    Args:
        params: :func:`pack`, shape ``(ROWS, max(n, 1))``.
        prev: shape ``(2, n)``, previous position and velocity commands (NaN: none); updated.
        counts: shape ``(8, n)`` int64, clamp counters per reason and joint; updated.
        q, v: measured position and velocity, shape ``(n,)`` (rad or m, rad/s or m/s).
        cp, cv, ce: commands, shape ``(n,)``; NaN = no command.
        dt: period, s (≤ 0 or non-finite: no rate terms).
        out: shape ``(3, n)``, receives the limited position, velocity and effort commands
            (allocated and kept by the caller: nothing is returned, as handing an array back
            to Python costs about 1 µs, more than the limiting).

    Raises:
        ValueError: an input length differs from ``n``, or ``out`` is not ``(3, n)`` (before
            anything is updated).
    """
    n = prev.shape[1]
    if len(q) != n or len(v) != n or len(cp) != n or len(cv) != n or len(ce) != n:
        raise ValueError("input length differs from the number of joints")
    if out.shape[0] != 3 or out.shape[1] != n:
        raise ValueError("output array is not (3, number of joints)")
    rate = dt > 0.0 and dt < np.inf
    pos_rate = rate and params[ANY_VMAX, 0] != 0.0
    vel_rate = rate and params[ANY_POS, 0] != 0.0
    acc_on = rate and params[ANY_AMAX, 0] != 0.0
    nan = np.nan
    inv = 1.0 / dt if vel_rate else nan
    neg_inv = -1.0 * inv
    neg_dt = -dt
    # the numpy path takes the effort cut's position term from the range-by-velocity rows
    # when velocity commands are present, else from the plain distances: same sign, but an
    # extreme dt can make a product 0 or NaN, so follow it exactly
    has_v = False
    if vel_rate:
        for i in range(n):
            if cv[i] == cv[i]:
                has_v = True
                break
    d_from_rate = vel_rate and has_v
    clamped = False
    for i in range(n):
        qi = q[i]
        vi = v[i]
        vmax = params[VMAX, i]
        ramp = params[RAMP, i] != 0.0
        if ramp:
            bq0 = _band(qi, params[SOFT0, i], params[KPS0, i], params[BASE0, i], vmax)
            bq1 = _band(qi, params[SOFT1, i], params[KPS1, i], params[BASE1, i], vmax)
        else:
            bq0 = vmax
            bq1 = vmax
        # ---- position
        c = cp[i]
        o = c
        if c == c:
            lo = params[LO, i]
            hi = params[HI, i]
            if pos_rate:
                r = prev[0, i]
                if r != r:
                    r = qi
                if ramp:
                    br0 = _band(r, params[SOFT0, i], params[KPS0, i], params[BASE0, i], vmax)
                    br1 = _band(r, params[SOFT1, i], params[KPS1, i], params[BASE1, i], vmax)
                else:
                    br0 = vmax
                    br1 = vmax
                p0 = (br0 * dt - r) * 1.0
                p1 = (br1 * neg_dt - r) * -1.0
            else:
                p0 = nan
                p1 = nan
            p0 = _max(_fmin(p0, -lo), -hi)
            p1 = _max(_fmin(p1, hi), lo)
            if -c > p0 or c > p1:
                clamped = True
            o = _min(_max(c, -p0), p1)
        out[0, i] = o
        # ---- velocity
        c = cv[i]
        o = c
        if c == c:
            if vel_rate:
                w0 = (params[PMIN, i] - qi) * neg_inv
                w1 = (params[PMAX, i] - qi) * inv
            else:
                w0 = nan
                w1 = nan
            w0 = _fmin(_max(w0, 0.0), bq0)
            w1 = _fmin(_max(w1, 0.0), bq1)
            if -c > w0 or c > w1:
                clamped = True
            if acc_on:
                vr = prev[1, i]
                if vr != vr:
                    vr = vi
                if vr != vr:
                    vr = c
                adt = params[AMAX, i] * dt
                a0 = vr - adt
                a1 = vr + adt
                if c < a0 or c > a1:
                    clamped = True
                o = _min(_max(o, a0), a1)
            o = _min(_max(o, -w0), w1)
        out[1, i] = o
        # ---- effort
        c = ce[i]
        o = c
        if c == c:
            emax = params[EMAX, i]
            if params[ESOFT, i] != 0.0:
                kv = params[KV, i]
                m0 = bq0 if bq0 <= HUGE else HUGE
                m1 = bq1 if bq1 <= HUGE else HUGE
                e0 = (m0 * -1.0 - vi) * (-1.0 * kv)
                e1 = (m1 * 1.0 - vi) * (1.0 * kv)
                e0 = _fmin(_max(e0, -emax), emax)
                e1 = _fmin(_max(e1, -emax), emax)
            else:
                e0 = emax
                e1 = emax
            # cut: at/after a limit and not moving away, or faster than v̄ towards it
            pmin = params[PMIN, i]
            pmax = params[PMAX, i]
            if d_from_rate:
                d0 = (pmin - qi) * neg_inv
                d1 = (pmax - qi) * inv
            else:
                d0 = -pmin - -1.0 * qi
                d1 = pmax - 1.0 * qi
            vnext = params[VNEXT, i]
            a = _fmin(_max(d0, (0.0 - vi) * -1.0), (-1.0 * vnext - vi) * -1.0)
            if a <= 0.0:
                e0 = _min(e0, 0.0)
            a = _fmin(_max(d1, (0.0 - vi) * 1.0), (1.0 * vnext - vi) * 1.0)
            if a <= 0.0:
                e1 = _min(e1, 0.0)
            if -c > e0 or c > e1:
                clamped = True
            o = _min(_max(c, -e0), e1)
        out[2, i] = o
    if not clamped:
        # nothing outside its bounds: the commands pass unchanged (as in numpy, which does not
        # clamp at all then; clamping could differ only through a NaN acceleration window)
        for i in range(n):
            out[0, i] = cp[i]
            out[1, i] = cv[i]
            out[2, i] = ce[i]
            prev[0, i] = cp[i]
            prev[1, i] = cv[i]
        return
    for i in range(n):
        # ---- reasons: each changed command once, under its first reason
        c = cp[i]
        o = out[0, i]
        if c == c and o != c:
            if c < params[PMIN, i] or c > params[PMAX, i]:
                counts[_C_POSITION, i] += 1
            elif c < params[LO, i] or c > params[HI, i]:
                counts[_C_SOFT, i] += 1
            else:
                counts[_C_STEP, i] += 1
        c = cv[i]
        o = out[1, i]
        if c == c and o != c:
            if abs(c) > params[VMAX, i]:
                counts[_C_VELOCITY, i] += 1
            else:
                by_acc = False
                if acc_on:
                    vr = prev[1, i]
                    if vr != vr:
                        vr = v[i]
                    if vr != vr:
                        vr = c
                    adt = params[AMAX, i] * dt
                    a0 = vr - adt
                    a1 = vr + adt
                    by_acc = (c < a0 or c > a1) and o >= a0 and o <= a1
                if by_acc:
                    counts[_C_ACC, i] += 1
                else:
                    counts[_C_VELPOS, i] += 1
        c = ce[i]
        o = out[2, i]
        if c == c and o != c:
            if abs(c) > params[EMAX, i]:
                counts[_C_EFFORT, i] += 1
            else:
                counts[_C_EFFPOS, i] += 1
        prev[0, i] = out[0, i]
        prev[1, i] = out[1, i]


@jit.kernel
def enforce_stacked(params, prev, counts, measured, commands, dt, out):
    """:func:`enforce` on stacked arrays: ``measured`` of shape ``(2 or 3, m)`` with
    ``m ≥ n`` (rows position, velocity; the first ``n`` columns are the joints, e.g. a joint
    state with followers appended), ``commands`` of shape ``(3, n)`` (rows position, velocity,
    effort). The same operations as :func:`enforce` (it calls it on the rows). Raises
    ``ValueError`` on a shape mismatch."""
    n = prev.shape[1]
    if measured.shape[0] < 2 or measured.shape[1] < n or commands.shape[0] != 3:
        raise ValueError("measured state is not (2 or 3, >= n) or commands not (3, n)")
    enforce(
        params,
        prev,
        counts,
        measured[0, :n],
        measured[1, :n],
        commands[0],
        commands[1],
        commands[2],
        dt,
        out,
    )


def warm_up() -> float:
    """Compile (or load from Numba's disk cache) :func:`enforce` for C-contiguous and for
    strided float64 inputs with a float ``dt``, then forbid further compilation
    (:func:`sdf_bridge.jit.warm_up`). Works on dummy data only.

    Returns:
        The time spent, s (0.0 when already warm or not compiled).
    """

    def run() -> None:
        params = np.zeros((ROWS, 2))
        prev = np.full((2, 2), np.nan)
        counts = np.zeros((8, 2), dtype=np.int64)
        # strided inputs need two elements (numpy calls a one-element array contiguous)
        for x in (np.zeros(2), np.zeros(4)[::2]):
            enforce(params, prev, counts, x, x, x, x, x, 0.001, np.empty((3, 2)))
        enforce_stacked(
            params, prev, counts, np.zeros((3, 3)), np.zeros((3, 2)), 0.001, np.empty((3, 2))
        )

    return jit.warm_up("joint limiter kernel", (enforce, enforce_stacked), run)
