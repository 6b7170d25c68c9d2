"""The compiled limiter kernel (sdf_bridge.limits.kernel) against the numpy path.

Equality is exact (``numpy.testing.assert_array_equal``: NaN where NaN, ``-0.0 == 0.0``); the
clamp counters and the stored previous commands must be identical too. Without Numba
(``SDF_BRIDGE_JIT=0``) the kernel runs as plain Python and the same checks apply.
"""

from __future__ import annotations

import math
from datetime import timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from transmissions.builders import chain

from sdf_bridge import jit
from sdf_bridge.limits import REASONS, JointLimiter, JointLimits, kernel

#: Hypothesis' bound on one example (the first may compile the kernels): a runaway
#: example fails the test; setup.cfg's pytest timeout bounds the test as a whole.
DEADLINE = timedelta(seconds=30)

NAN = math.nan
INF = math.inf

# values chosen so that commands, states and limits often coincide exactly (boundaries)
_POOL = (-3.0, -2.0, -1.0, -0.8, -0.5, -0.25, 0.0, 0.25, 0.5, 0.8, 1.0, 2.0, 3.0)
values = st.one_of(st.sampled_from(_POOL), st.floats(-5.0, 5.0, allow_nan=False, width=64))
maybe_nan = st.one_of(values, st.just(NAN), st.sampled_from((INF, -INF, 1e300, -1e300)))


@st.composite
def joint_limits(draw) -> JointLimits:
    """Any limit set the spec can produce (and some it cannot, e.g. crossed soft limits)."""
    fields: dict = {}
    if draw(st.booleans()):
        lo = draw(st.one_of(values, st.just(-INF)))
        hi = draw(st.one_of(values, st.just(INF)))
        lo, hi = min(lo, hi), max(lo, hi)
        fields.update(has_position_limits=True, min_position=lo, max_position=hi)
    for has, field, pool in (
        ("has_velocity_limits", "max_velocity", (0.0, 0.5, 1.0, 2.0, 3.0, 50.0, INF)),
        ("has_acceleration_limits", "max_acceleration", (0.0, 1.0, 10.0, 100.0, INF)),
        ("has_effort_limits", "max_effort", (0.0, 1.0, 5.0, 10.0, INF)),
    ):
        if draw(st.booleans()):
            fields.update(
                {has: True, field: draw(st.one_of(st.sampled_from(pool), st.floats(0.0, 20.0)))}
            )
    if draw(st.booleans()):
        fields.update(
            has_soft_limits=True,
            soft_lower=draw(st.one_of(values, st.just(-INF))),
            soft_upper=draw(st.one_of(values, st.just(INF))),
            k_position=draw(st.sampled_from((NAN, 0.0, -1.0, 1.0, 10.0, 100.0, 1e6))),
            k_velocity=draw(st.sampled_from((NAN, 0.0, 1.0, 5.0, 1e6))),
        )
    return JointLimits(**fields)


@st.composite
def scenarios(draw):
    """Limits of 1–5 joints and 1–5 consecutive cycles (state, commands, dt, reset?)."""
    n = draw(st.integers(1, 5))
    limits = [draw(joint_limits()) for _ in range(n)]
    vec = st.lists(maybe_nan, min_size=n, max_size=n)
    cycles = []
    for _ in range(draw(st.integers(1, 5))):
        arrays = [np.array(draw(vec)) for _ in range(5)]
        for k in range(2, 5):  # often no command at all on an interface
            if draw(st.integers(0, 3)) == 0:
                arrays[k][:] = NAN
        dt = draw(st.sampled_from((0.01, 0.001, 0.5, 0.0, -0.01, NAN, INF, 5e-324)))
        cycles.append((arrays, dt, draw(st.integers(0, 9)) == 0))
    return limits, cycles


def _pair(limits):
    names = [f"j{i}" for i in range(len(limits))]
    return (JointLimiter(names, limits, compiled=False), JointLimiter(names, limits, compiled=True))


def _assert_same_state(ref: JointLimiter, fast: JointLimiter) -> None:
    np.testing.assert_array_equal(fast._counts, ref._counts)
    np.testing.assert_array_equal(fast._prev, ref._prev)


@settings(
    max_examples=400 if jit.ENABLED else 150,
    deadline=DEADLINE,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(scenarios())
def test_kernel_equals_numpy(scenario) -> None:
    limits, cycles = scenario
    ref, fast = _pair(limits)
    for arrays, dt, reset in cycles:
        if reset:
            ref.reset()
            fast.reset()
        with np.errstate(all="ignore"):  # the plain-Python kernel (no Numba) warns on inf·0
            got = fast.enforce(*arrays, dt)
        want = ref.enforce(*arrays, dt)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
        _assert_same_state(ref, fast)
    assert fast.counts == ref.counts


@settings(
    max_examples=200 if jit.ENABLED else 60,
    deadline=DEADLINE,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(scenarios(), st.integers(0, 3))
def test_stacked_equals_row_wise(scenario, followers: int) -> None:
    """``enforce_stacked`` (the control cycle's form: the measured state with ``followers``
    extra columns and a third row, the commands stacked) gives what ``enforce`` of the rows
    gives, compiled or not, with the same clamp counts and previous commands."""
    limits, cycles = scenario
    ref, fast = _pair(limits)
    rows = _pair(limits)[0]
    n = len(limits)
    for arrays, dt, reset in cycles:
        if reset:
            for lim in (ref, fast, rows):
                lim.reset()
        measured = np.full((3, n + followers), 7.0)
        measured[0, :n], measured[1, :n] = arrays[0], arrays[1]
        commands = np.stack(arrays[2:])
        want = rows.enforce(*arrays, dt)
        with np.errstate(all="ignore"):
            got = fast.enforce_stacked(measured, commands, dt)
        assert got.shape == (3, n)
        np.testing.assert_array_equal(got, np.stack(want))
        np.testing.assert_array_equal(ref.enforce_stacked(measured, commands, dt), np.stack(want))
        _assert_same_state(rows, fast)
        _assert_same_state(rows, ref)


@pytest.mark.parametrize("compiled", [False, True])
def test_stacked_wrong_shapes_raise(compiled: bool) -> None:
    lim = JointLimiter(["a", "b"], _mixed_limits()[:2], compiled=compiled)
    with pytest.raises(
        ValueError, match=r"measured state of shape \(1, 2\) \(need \(2 or 3, >= 2\)\)"
    ):
        lim.enforce_stacked(np.zeros((1, 2)), np.zeros((3, 2)), 0.01)
    with pytest.raises(ValueError, match=r"commands of shape \(2, 2\) \(need \(3, 2\)\)"):
        lim.enforce_stacked(np.zeros((3, 2)), np.zeros((2, 2)), 0.01)
    with pytest.raises(ValueError, match=r"every array must have shape \(2,\)"):
        lim.enforce_stacked(np.zeros((3, 1)), np.zeros((3, 2)), 0.01)  # too few columns
    assert lim.counts == {} and np.isnan(lim._prev).all()  # nothing updated


@pytest.mark.parametrize("compiled", [False, True])
def test_stacked_into_out_is_the_new_array_result(compiled: bool) -> None:
    """``out`` (the control cycle's reused buffer) is filled with exactly what a new array
    would hold, and returned."""
    limits = _mixed_limits()
    names = [f"j{i}" for i in range(len(limits))]
    into, plain = (JointLimiter(names, limits, compiled=compiled) for _ in range(2))
    measured = np.array([[0.9, 0.0, 3.0, -2.0], [0.0, 0.5, 0.0, 0.0], [0.0] * 4])
    commands = np.array([[5.0, 0.2, NAN, 1.0], [NAN, NAN, 20.0, NAN], [NAN, NAN, NAN, 4.0]])
    out = np.full((3, 4), -99.0)
    for _ in range(3):  # the previous command matters from the second cycle
        got = into.enforce_stacked(measured, commands, 0.01, out)
        assert got is out
        np.testing.assert_array_equal(out, plain.enforce_stacked(measured, commands, 0.01))
    _assert_same_state(plain, into)


def _mixed_limits() -> list[JointLimits]:
    return [
        JointLimits(True, -1.0, 1.0, True, 2.0, True, 10.0, True, 10.0),
        JointLimits(True, -1.0, 1.0, True, 2.0, False, INF, True, 10.0, True, -0.8, 0.8, 10.0, 5.0),
        JointLimits(
            False, -INF, INF, True, 15.0, False, INF, True, 7.0, True, -INF, INF, NAN, 10.0
        ),
        JointLimits(),
    ]


def test_long_random_run_equals_numpy() -> None:
    """200 cycles with the state following the limited command (prev state matters), some
    commands beyond the limits, some NaN."""
    ref, fast = _pair(_mixed_limits())
    rng = np.random.default_rng(3)
    q = np.zeros(4)
    v = np.zeros(4)
    for k in range(200):
        cmds = [q + rng.normal(0, 0.05, 4), rng.normal(0, 2.0, 4), rng.normal(0, 8.0, 4)]
        for c in cmds:
            c[rng.random(4) < 0.2] = NAN
        state = (q.copy(), v.copy())
        state[rng.integers(2)][rng.integers(4)] = NAN if k % 7 == 0 else 0.0
        with np.errstate(all="ignore"):
            got = fast.enforce(*state, *cmds, 0.01)
        want = ref.enforce(*state, *cmds, 0.01)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
        _assert_same_state(ref, fast)
        q = np.where(np.isnan(got[0]), q, got[0])
        v = np.where(np.isnan(got[1]), v, got[1])
    assert sum(fast.counts.values()) > 20  # the run did clamp, under several reasons
    assert {r for _, r in fast.counts} >= {"position_step", "velocity", "effort"}


def test_counts_first_reason_and_prev_in_kernel() -> None:
    """Each clamp is counted once, under its first reason; the kernel keeps the previous
    commands for the next cycle."""
    lim = JointLimiter(["a"], _mixed_limits()[:1], compiled=True)
    one = np.ones(1)
    zero = np.zeros(1)
    p, v, e = lim.enforce(zero, zero, 0.5 * one, 5.0 * one, 50.0 * one, 0.01)
    assert (p[0], v[0], e[0]) == (
        pytest.approx(0.02, abs=1e-15),
        pytest.approx(0.1, abs=1e-15),
        10.0,
    )
    assert lim.counts == {("a", "position_step"): 1, ("a", "velocity"): 1, ("a", "effort"): 1}
    assert lim._prev[:, 0].tolist() == [p[0], v[0]]
    p, v, _ = lim.enforce(zero, zero, 5.0 * one, 0.5 * one, np.full(1, NAN), 0.01)
    assert p[0] == pytest.approx(0.04, abs=1e-15)  # reference = the previous command
    assert v[0] == pytest.approx(0.2, abs=1e-15)  # acceleration from the previous command
    assert lim.counts == {
        ("a", "position_step"): 1,
        ("a", "velocity"): 1,
        ("a", "effort"): 1,
        ("a", "position"): 1,
        ("a", "acceleration"): 1,
    }
    assert len(REASONS) == lim._counts.shape[0] == 8


@pytest.mark.parametrize("compiled", [False, True])
def test_outputs_fresh_and_reset_leaves_them(compiled: bool) -> None:
    lim = JointLimiter(["a"], _mixed_limits()[:1], compiled=compiled)
    out = lim.enforce(
        np.zeros(1), np.zeros(1), np.array([0.5]), np.array([0.05]), np.array([1.0]), 0.01
    )
    kept = [o.copy() for o in out]
    assert not any(np.shares_memory(o, lim._prev) for o in out)
    lim.reset()
    assert [o.tolist() for o in out] == [k.tolist() for k in kept]
    assert np.isnan(lim._prev).all() and lim.counts == {}


@pytest.mark.parametrize("compiled", [False, True])
def test_other_argument_kinds_give_the_same(compiled: bool) -> None:
    """Lists, float32, strided arrays and an integer dt: converted (numpy path) or accepted
    (strided: warmed-up kernel), same values."""
    limits = _mixed_limits()
    ref = JointLimiter(list("abcd"), limits, compiled=False)
    lim = JointLimiter(list("abcd"), limits, compiled=compiled)
    q = [0.0, 0.75, 0.0, 0.0]  # exact in float32
    cmds = ([2.0, 2.0, 2.0, 2.0], [3.0, -3.0, 3.0, 3.0], [20.0, -20.0, 20.0, 20.0])
    want = ref.enforce(np.array(q), np.zeros(4), *map(np.array, cmds), 1)
    strided = [np.repeat(np.array(c), 2)[::2] for c in cmds]
    with np.errstate(all="ignore"):
        for args in (
            (q, [0.0] * 4, *cmds),
            (np.array(q, np.float32), np.zeros(4, np.float32), *cmds),
            (np.repeat(np.array(q), 2)[::2], np.zeros(8)[::2], *strided),
        ):
            lim.reset()
            got = lim.enforce(*args, 1)
            for g, w in zip(got, want):
                np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("compiled", [False, True])
def test_wrong_shape_raises(compiled: bool) -> None:
    lim = JointLimiter(["a", "b"], _mixed_limits()[:2], compiled=compiled)
    z = np.zeros(2)
    with pytest.raises(ValueError, match=r"every array must have shape \(2,\)"):
        lim.enforce(z, z, z, np.zeros(3), z, 0.01)
    assert lim.counts == {} and np.isnan(lim._prev).all()  # nothing updated


def test_no_joints() -> None:
    for compiled in (False, True):
        lim = JointLimiter([], [], compiled=compiled)
        out = lim.enforce(*(np.zeros(0),) * 5, 0.01)
        assert [o.shape for o in out] == [(0,)] * 3


def test_kernel_direct_length_check() -> None:
    params = kernel.pack({r: np.zeros(1) for r in range(kernel.ANY_VMAX)}, 1, False, False, False)
    prev = np.full((2, 1), NAN)
    counts = np.zeros((8, 1), dtype=np.int64)
    with pytest.raises(ValueError, match="input length differs from the number of joints"):
        kernel.enforce(
            params,
            prev,
            counts,
            np.zeros(2),
            np.zeros(1),
            np.zeros(1),
            np.zeros(1),
            np.zeros(1),
            0.01,
            np.empty((3, 1)),
        )
    with pytest.raises(ValueError, match=r"output array is not \(3, number of joints\)"):
        kernel.enforce(params, prev, counts, *(np.zeros(1),) * 5, 0.01, np.empty((3, 2)))


def test_pack_errors_and_layout() -> None:
    rows = {r: np.full(2, float(r)) for r in range(kernel.ANY_VMAX)}
    out = kernel.pack(rows, 2, True, False, True)
    assert out.shape == (kernel.ROWS, 2) and out.flags.c_contiguous
    assert out[kernel.KV].tolist() == [16.0, 16.0]
    assert out[kernel.ANY_VMAX :].tolist() == [[1.0, 1.0], [0.0, 0.0], [1.0, 1.0]]
    assert kernel.pack({r: np.zeros(0) for r in rows}, 0, False, False, False).shape == (20, 1)
    with pytest.raises(ValueError, match="pack row 3 missing"):
        kernel.pack({r: v for r, v in rows.items() if r != 3}, 2, False, False, False)
    with pytest.raises(ValueError, match=r"pack row 0 has shape \(3,\), expected \(2,\)"):
        kernel.pack({**rows, 0: np.zeros(3)}, 2, False, False, False)


@pytest.mark.skipif(not jit.ENABLED, reason="compilation is off (SDF_BRIDGE_JIT=0 or no Numba)")
def test_warm_kernel_refuses_to_compile() -> None:
    JointLimiter(["a"], _mixed_limits()[:1], compiled=True)  # warms up
    assert kernel.warm_up() == 0.0  # idempotent
    params = np.zeros((kernel.ROWS, 1))
    ints = np.zeros(1, dtype=np.int64)
    with pytest.raises(TypeError):
        kernel.enforce(
            params,
            np.zeros((2, 1)),
            np.zeros((8, 1), np.int64),
            ints,
            ints,
            ints,
            ints,
            ints,
            0.01,
            np.empty((3, 1)),
        )


def test_default_follows_jit_switch() -> None:
    assert JointLimiter(["a"], [JointLimits()])._compiled is jit.ENABLED
    robot = chain(("j", "revolute"))
    assert JointLimiter.from_robot(robot, ["j"])._compiled is jit.ENABLED
    assert JointLimiter.from_robot(robot, ["j"], compiled=False)._compiled is False
    assert JointLimiter.from_robot(robot, ["j"], compiled=True)._compiled is True


def _both(limits, cycles):
    """Run ``cycles`` (state + commands, dt) through both paths; the last outputs of each."""
    ref, fast = _pair(limits)
    for arrays, dt in cycles:
        arrays = [np.array(a, dtype=float) for a in arrays]
        with np.errstate(all="ignore"):
            got = fast.enforce(*arrays, dt)
        want = ref.enforce(*arrays, dt)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
        _assert_same_state(ref, fast)
    return got


def test_effort_cut_term_follows_numpy_at_extreme_dt() -> None:
    """At a subnormal dt, 1/dt = inf: with velocity commands present the numpy path takes the
    cut's position term from (q_max − q)·(1/dt) = 0·inf = NaN (no cut at the limit), without
    them from q_max − q = 0 (cut). The kernel follows both."""
    lim = [JointLimits(True, -1.0, 1.0, True, 2.0, False, INF, True, 10.0)]
    tiny = 5e-324
    with_v = _both(lim, [(([1.0], [0.0], [NAN], [0.0], [5.0]), tiny)])
    without_v = _both(lim, [(([1.0], [0.0], [NAN], [NAN], [5.0]), tiny)])
    assert with_v[2].tolist() == [5.0] and without_v[2].tolist() == [0.0]


def test_nan_acceleration_window_follows_numpy() -> None:
    """A velocity command of +inf on an unlimited joint becomes the reference of the next
    acceleration window (inf ∓ inf: NaN below): numpy leaves that joint's command unchanged
    when nothing is clamped, and NaN when another joint is clamped. The kernel follows."""
    limits = [JointLimits(), JointLimits(False, -INF, INF, True, 2.0, True, 10.0)]
    first = (([0.0, 0.0], [0.0, 0.0], [NAN, NAN], [INF, 0.0], [NAN, NAN]), 0.01)

    def second(cv: list[float]) -> tuple:
        return (([0.0, 0.0], [0.0, 0.0], [NAN, NAN], cv, [NAN, NAN]), 0.01)

    calm = _both(limits, [first, second([1.0, 0.0])])
    assert calm[1].tolist() == [1.0, 0.0]
    busy = _both(limits, [first, second([1.0, 5.0])])
    assert math.isnan(busy[1][0]) and busy[1][1] == pytest.approx(0.1, abs=1e-15)


@pytest.mark.parametrize("compiled", [False, True])
def test_numpy_scalar_dt_is_the_same_period(compiled: bool) -> None:
    """A float32 dt is used as its exact value and does not linger: the next cycle with the
    float 0.01 gives what a fresh limiter gives (newcomer report: the numpy path compared
    np.float32(0.01) == 0.01 in float32 precision and kept the stale period)."""
    limits = [JointLimits(has_velocity_limits=True, max_velocity=1.0)]
    z, nan = np.zeros(1), np.full(1, NAN)
    lim = JointLimiter(["a"], limits, compiled=compiled)
    first = lim.enforce(z, z, np.array([5.0]), nan, nan, np.float32(0.01))[0][0]
    assert first == float(np.float32(0.01))  # one step of v̄·dt from 0, dt = float(float32)
    lim.reset()
    second = lim.enforce(z, z, np.array([5.0]), nan, nan, 0.01)[0][0]
    assert second == 0.01
    with pytest.raises(TypeError):
        lim.enforce(z, z, z, z, z, None)
