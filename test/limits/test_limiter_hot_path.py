"""JointLimiter's hot path on its own: closed-form bounds of every rule, the stacked form, the
reused output buffer, argument kinds and shapes, and the state it keeps between cycles."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sdf_bridge.limits import REASONS, JointLimiter, JointLimits
from sdf_bridge.limits.limiter import commanded_interfaces

NAN = math.nan
INF = math.inf

# a joint with a soft ramp and a soft effort band; one with nothing but a velocity limit
SOFT = JointLimits(
    has_position_limits=True,
    min_position=-1.0,
    max_position=1.0,
    has_velocity_limits=True,
    max_velocity=2.0,
    has_effort_limits=True,
    max_effort=5.0,
    has_soft_limits=True,
    soft_lower=-0.5,
    soft_upper=0.75,
    k_position=4.0,
    k_velocity=3.0,
)
PLAIN = JointLimits(has_velocity_limits=True, max_velocity=1.5)
ARM = JointLimits(True, -1.0, 1.0, True, 2.0, True, 10.0, True, 10.0)


def _mixed() -> list[JointLimits]:
    return [
        ARM,
        JointLimits(True, -1.0, 1.0, True, 2.0, False, INF, True, 10.0, True, -0.8, 0.8, 10.0, 5.0),
        JointLimits(
            False, -INF, INF, True, 15.0, False, INF, True, 7.0, True, -INF, INF, NAN, 10.0
        ),
        JointLimits(),
    ]


def _one(lim: JointLimits) -> JointLimiter:
    return JointLimiter(["a"], [lim])


def _run(lim: JointLimiter, q=0.0, v=0.0, p=NAN, vel=NAN, e=NAN, dt=0.01) -> list[float]:
    out = lim.enforce(*(np.array([x], dtype=float) for x in (q, v, p, vel, e)), dt)
    return [float(o[0]) for o in out]


def test_per_joint_arrays() -> None:
    lim = JointLimiter(["s", "p"], [SOFT, PLAIN])
    assert lim.pmin.tolist() == [-1.0, -INF] and lim.pmax.tolist() == [1.0, INF]
    assert lim.lo.tolist() == [-0.5, -INF] and lim.hi.tolist() == [0.75, INF]
    assert lim.vmax.tolist() == [2.0, 1.5] and lim.emax.tolist() == [5.0, INF]
    assert lim.amax.tolist() == [INF, INF]


def test_soft_bands_closed_form() -> None:
    """q = 0.5 inside the soft range [−0.5, 0.75], kp 4, v̄ 2: velocity band
    [clip(−4·(0.5+0.5)), clip(−4·(0.5−0.75))] = [−2, 1]; effort band, kv 3, v = 0.25:
    [3·(−2 − 0.25), 3·(1 − 0.25)] clipped to ±5 = [−5, 2.25]; position reach from r = 0.5
    over dt = 0.1: [0.5 − 0.2, 0.5 + 0.1] ∩ [−0.5, 0.75]."""
    lim = _one(SOFT)
    assert _run(lim, q=0.5, v=0.25, vel=5.0, dt=0.1)[1] == 1.0
    lim.reset()
    assert _run(lim, q=0.5, v=0.25, vel=-5.0, dt=0.1)[1] == -2.0
    lim.reset()
    assert _run(lim, q=0.5, v=0.25, e=9.0)[2] == 2.25
    lim.reset()
    assert _run(lim, q=0.5, v=0.25, e=-9.0)[2] == -5.0
    lim.reset()
    assert _run(lim, q=0.5, p=3.0, dt=0.1)[0] == pytest.approx(0.6, abs=1e-15)
    lim.reset()
    assert _run(lim, q=0.5, p=-3.0, dt=0.1)[0] == pytest.approx(0.3, abs=1e-15)
    assert lim.counts == {("a", "position"): 1}  # (reset zeroes the counters)


def test_velocity_range_relaxed_to_zero_outside() -> None:
    """ā 10. Outside the range (q = 1.2 > 1, dt 0.1): [min((−1 − 1.2)/0.1, 0), max((1 − 1.2)/0.1,
    0)] = [−22, 0] ∩ ±2: it may stop or come back, not go further."""
    lim = _one(ARM)
    assert _run(lim, q=1.2, vel=0.5, dt=0.1)[1] == 0.0
    lim.reset()
    assert _run(lim, q=1.2, vel=-5.0, dt=0.1)[1] == -1.0  # ā·dt = 1 from v = 0 first
    lim.reset()
    assert _run(lim, q=0.95, vel=1.0, dt=0.1)[1] == pytest.approx(0.5, abs=1e-15)


def test_effort_cut_at_a_limit_and_beyond_vmax() -> None:
    lim = _one(ARM)
    assert _run(lim, q=1.0, v=0.0, e=5.0)[2] == 0.0  # at the upper limit, not moving down
    assert _run(lim, q=1.0, v=-0.1, e=5.0)[2] == 5.0  # moving away: free
    assert _run(lim, q=1.0, v=0.0, e=-5.0)[2] == -5.0  # pushing back: free
    assert _run(lim, q=0.0, v=2.5, e=5.0)[2] == 0.0  # faster than v̄ upwards
    assert _run(lim, q=0.0, v=-2.5, e=5.0)[2] == 5.0
    assert _run(lim, q=-1.0, v=NAN, e=-5.0)[2] == -5.0  # unknown velocity: no cut


def test_acceleration_window_then_position_terms() -> None:
    """ā 10, dt 0.01: one step changes the velocity by at most 0.1 from the reference (the
    previous command, else the measured velocity)."""
    lim = _one(ARM)
    assert _run(lim, q=0.0, v=0.0, vel=1.0)[1] == pytest.approx(0.1, abs=1e-15)
    assert _run(lim, q=0.0, v=0.0, vel=1.0)[1] == pytest.approx(0.2, abs=1e-15)
    assert lim.counts == {("a", "acceleration"): 2}


def test_nan_acceleration_window_does_not_bind() -> None:
    """A velocity command of +inf on an unlimited joint is the next reference: inf ∓ inf is NaN,
    which binds nothing, whether or not another joint is clamped in the same cycle."""
    lims = [JointLimits(), JointLimits(False, -INF, INF, True, 2.0, True, 10.0)]
    z, nan2 = np.zeros(2), np.full(2, NAN)
    for other in (0.0, 5.0):
        lim = JointLimiter(["a", "b"], lims)
        lim.enforce(z, z, nan2, np.array([INF, 0.0]), nan2, 0.01)
        out = lim.enforce(z, z, nan2, np.array([1.0, other]), nan2, 0.01)[1]
        assert out[0] == 1.0 and out[1] == pytest.approx(min(other, 0.1), abs=1e-15)


def test_counts_first_reason_and_prev() -> None:
    lim = _one(ARM)
    one, zero = np.ones(1), np.zeros(1)
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


def test_static_limits_only_without_a_rate() -> None:
    lim = JointLimiter(["s", "p"], [SOFT, PLAIN])
    p, v, e = lim.enforce(
        np.zeros(2), np.zeros(2), np.array([3.0, NAN]), np.array([NAN, 4.0]), np.full(2, NAN), NAN
    )
    assert p[0] == 0.75 and math.isnan(p[1])
    assert math.isnan(v[0]) and v[1] == 1.5 and np.isnan(e).all()
    assert lim._prev[0, 0] == 0.75 and lim._prev[1, 1] == 1.5  # rows position, velocity
    assert lim.counts == {("s", "position"): 1, ("p", "velocity"): 1}


def test_zero_dt_holds_the_rate_terms() -> None:
    """dt = 0 (no time passes: a paused simulation). Position: held at the reference (q, then
    the previous command) where v̄ is finite, then reachable again by v̄·dt; velocity: held at
    the acceleration reference (the measured 0.25) and the range-by-velocity term dropped (at
    q = 1 with dt > 0 it would give 0); no v̄: the static range only."""
    lim = _one(ARM)  # range ±1, v̄ 2, ā 10
    assert _run(lim, q=0.3, p=0.9, dt=0.0)[0] == 0.3
    assert _run(lim, q=0.5, p=0.9, dt=0.0)[0] == 0.3
    assert _run(lim, q=0.5, p=0.9, dt=0.1)[0] == pytest.approx(0.5, abs=1e-15)
    assert _run(lim, q=0.5, p=-3.0, dt=0.0)[0] == pytest.approx(0.5, abs=1e-15)
    assert lim.counts == {("a", "position_step"): 3, ("a", "position"): 1}
    lim.reset()
    assert _run(lim, q=1.0, v=0.25, vel=1.5, dt=0.0)[1] == 0.25
    assert _run(lim, q=1.0, v=0.0, vel=1.5, dt=0.0)[1] == 0.25  # the previous command
    assert lim.counts == {("a", "acceleration"): 2}
    free = _one(JointLimits(True, -1.0, 1.0))
    assert _run(free, p=0.7, dt=0.0)[0] == 0.7 and _run(free, p=3.0, dt=0.0)[0] == 1.0
    # with a soft ramp in the limiter (joint b): a, b, c held at q = 0, d (no limits) free
    mixed = JointLimiter(list("abcd"), _mixed())
    p = mixed.enforce(
        np.zeros(4), np.zeros(4), np.full(4, 0.9), np.full(4, NAN), np.full(4, NAN), 0
    )
    assert p[0].tolist() == [0.0, 0.0, 0.0, 0.9]


def test_stacked_wrong_shapes_raise() -> None:
    lim = JointLimiter(["a", "b"], _mixed()[:2])
    with pytest.raises(
        ValueError, match=r"measured state of shape \(1, 2\) \(need \(2 or 3, >= 2\)\)"
    ):
        lim.enforce_stacked(np.zeros((1, 2)), np.zeros((3, 2)), 0.01)
    with pytest.raises(ValueError, match=r"commands of shape \(2, 2\) \(need \(3, 2\)\)"):
        lim.enforce_stacked(np.zeros((3, 2)), np.zeros((2, 2)), 0.01)
    with pytest.raises(ValueError, match=r"every array must have shape \(2,\)"):
        lim.enforce_stacked(np.zeros((3, 1)), np.zeros((3, 2)), 0.01)  # too few columns
    assert lim.counts == {} and np.isnan(lim._prev).all()  # nothing updated


def test_stacked_into_out_equals_rows() -> None:
    """``out`` (the control cycle's reused buffer) gets what :meth:`enforce` of the rows gives;
    extra measured columns (followers) and a third row are ignored."""
    names = list("abcd")
    into, rows = JointLimiter(names, _mixed()), JointLimiter(names, _mixed())
    measured = np.array([[0.9, 0.0, 3.0, -2.0, 7.0], [0.0, 0.5, 0.0, 0.0, 7.0], [7.0] * 5])
    commands = np.array([[5.0, 0.2, NAN, 1.0], [NAN, NAN, 20.0, NAN], [NAN, NAN, NAN, 4.0]])
    out = np.full((3, 4), -99.0)
    for _ in range(3):  # the previous command matters from the second cycle
        got = into.enforce_stacked(measured, commands, 0.01, out)
        assert got is out
        want = rows.enforce(measured[0, :4], measured[1, :4], *commands, 0.01)
        np.testing.assert_array_equal(out, np.stack(want))
    np.testing.assert_array_equal(into._prev, rows._prev)
    assert into.counts == rows.counts


def test_commanded_interfaces_rows_with_a_value() -> None:
    commands = np.array([[NAN, 0.2, NAN], [NAN, NAN, NAN], [0.0, NAN, -1.0]])
    assert commanded_interfaces(commands) == (True, False, True)
    assert commanded_interfaces(np.full((3, 2), NAN)) == (False, False, False)
    assert commanded_interfaces(np.zeros((3, 0))) == (False, False, False)  # no joints


def test_stacked_with_commanded_given_equals_computed() -> None:
    """``commanded=`` (a caller's cached :func:`commanded_interfaces`) gives what computing it
    gives, the counts and the previous commands included."""
    names = list("abcd")
    given, computed = JointLimiter(names, _mixed()), JointLimiter(names, _mixed())
    measured = np.array([[0.9, 0.0, 3.0, -2.0], [0.0, 0.5, 0.0, 0.0]])
    commands = np.array([[5.0, 0.2, NAN, 1.0], [NAN, NAN, NAN, NAN], [NAN, NAN, NAN, 4.0]])
    flags = commanded_interfaces(commands)
    for _ in range(3):
        got = given.enforce_stacked(measured, commands, 0.01, commanded=flags)
        np.testing.assert_array_equal(got, computed.enforce_stacked(measured, commands, 0.01))
    np.testing.assert_array_equal(given._prev, computed._prev)
    assert given.counts == computed.counts and given.counts


def test_outputs_fresh_and_reset_leaves_them() -> None:
    lim = _one(ARM)
    out = lim.enforce(
        np.zeros(1), np.zeros(1), np.array([0.5]), np.array([0.05]), np.array([1.0]), 0.01
    )
    kept = [o.copy() for o in out]
    assert not any(np.shares_memory(o, lim._prev) for o in out)
    lim.reset()
    assert [o.tolist() for o in out] == [k.tolist() for k in kept]
    assert np.isnan(lim._prev).all() and lim.counts == {}


def test_other_argument_kinds_give_the_same() -> None:
    """Lists, float32, strided arrays and an integer dt: converted, same values."""
    ref, lim = JointLimiter(list("abcd"), _mixed()), JointLimiter(list("abcd"), _mixed())
    q = [0.0, 0.75, 0.0, 0.0]  # exact in float32
    cmds = ([2.0, 2.0, 2.0, 2.0], [3.0, -3.0, 3.0, 3.0], [20.0, -20.0, 20.0, 20.0])
    want = ref.enforce(np.array(q), np.zeros(4), *map(np.array, cmds), 1)
    strided = [np.repeat(np.array(c), 2)[::2] for c in cmds]
    for args in (
        (q, [0.0] * 4, *cmds),
        (np.array(q, np.float32), np.zeros(4, np.float32), *cmds),
        (np.repeat(np.array(q), 2)[::2], np.zeros(8)[::2], *strided),
    ):
        lim.reset()
        for g, w in zip(lim.enforce(*args, 1), want):
            np.testing.assert_array_equal(g, w)


def test_wrong_shape_raises() -> None:
    lim = JointLimiter(["a", "b"], _mixed()[:2])
    z = np.zeros(2)
    with pytest.raises(ValueError, match=r"every array must have shape \(2,\)"):
        lim.enforce(z, z, z, np.zeros(3), z, 0.01)
    assert lim.counts == {} and np.isnan(lim._prev).all()  # nothing updated


def test_no_joints() -> None:
    lim = JointLimiter([], [])
    out = lim.enforce(*(np.zeros(0),) * 5, 0.01)
    assert [o.shape for o in out] == [(0,)] * 3
    assert lim.enforce_stacked(np.zeros((2, 0)), np.zeros((3, 0)), 0.01).shape == (3, 0)


def test_numpy_scalar_dt_is_the_same_period() -> None:
    """A float32 dt is used as its exact value and does not linger."""
    lim = _one(JointLimits(has_velocity_limits=True, max_velocity=1.0))
    z, nan = np.zeros(1), np.full(1, NAN)
    first = lim.enforce(z, z, np.array([5.0]), nan, nan, np.float32(0.01))[0][0]
    assert first == float(np.float32(0.01))  # one step of v̄·dt from 0
    lim.reset()
    assert lim.enforce(z, z, np.array([5.0]), nan, nan, 0.01)[0][0] == 0.01
    with pytest.raises(TypeError):
        lim.enforce(z, z, z, z, z, None)


def test_long_run_counts_several_reasons() -> None:
    """200 cycles, the state following the limited command: NaN in ⇔ NaN out, commands
    inside their static limits, several reasons counted."""
    lim = JointLimiter(list("abcd"), _mixed())
    rng = np.random.default_rng(3)
    q, v = np.zeros(4), np.zeros(4)
    for k in range(200):
        cmds = [q + rng.normal(0, 0.05, 4), rng.normal(0, 2.0, 4), rng.normal(0, 8.0, 4)]
        for c in cmds:
            c[rng.random(4) < 0.2] = NAN
        state = (q.copy(), v.copy())
        state[rng.integers(2)][rng.integers(4)] = NAN if k % 7 == 0 else 0.0
        got = lim.enforce(*state, *cmds, 0.01)
        for g, c in zip(got, cmds):
            assert (np.isnan(g) == np.isnan(c)).all()
        assert not (np.abs(got[1][:2]) > 2.0).any() and not (np.abs(got[2][:3]) > 10.0).any()
        q = np.where(np.isnan(got[0]), q, got[0])
        v = np.where(np.isnan(got[1]), v, got[1])
    assert sum(lim.counts.values()) > 20
    assert {r for _, r in lim.counts} >= {"position_step", "velocity", "effort"}
