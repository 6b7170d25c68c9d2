"""The sensor schedule: ``next_due_after`` against the loop it replaces, and a reset at a large
time."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mujoco_helpers import pendulum_urdf

from sdf_bridge.backends.mujoco.schedule import EPSILON, next_due_after


def _loop(next_due: float, period: float, t: float) -> float:
    """The schedule as it was: one period at a time."""
    while next_due <= t + EPSILON:
        next_due += period
    return next_due


@given(st.floats(0.0, 1e4), st.floats(1e-4, 1.0), st.floats(0.0, 1.0))
def test_one_step_is_the_loop_exactly(start, period, fraction) -> None:
    """The control loop's case (t less than a period past next_due): bit-identical."""
    t = start + fraction * period * 0.999
    if t + EPSILON < start or start + period <= t + EPSILON:
        return  # not a one-step case (round-off at the ends)
    assert next_due_after(start, period, t) == _loop(start, period, t)


@given(st.floats(0.0, 100.0), st.floats(1e-3, 1.0), st.floats(0.0, 1000.0))
def test_many_steps_is_the_first_point_after_t(start, period, ahead) -> None:
    """Any gap: the result is later than t + ε, the point before it is not, and it is the loop's
    point up to the loop's accumulated round-off (≤ steps · 2 ulp of the result)."""
    t = start + ahead
    due = next_due_after(start, period, t)
    assert due > t + EPSILON >= due - period
    steps = max(1.0, (t - start) / period)
    assert due == pytest.approx(_loop(start, period, t), abs=steps * 2 * math.ulp(due) + 1e-12)


def test_reset_at_a_large_time_is_one_step() -> None:
    """Reset (next_due 0) read at t = 1e4 s with period 0.01 s: 1 000 001 periods in one
    computation, next_due = 10000.01 s (exactly 0 + 1000001 · 0.01 in floats)."""
    due = next_due_after(0.0, 0.01, 1e4)
    assert due == 1000001 * 0.01
    assert due == pytest.approx(10000.01, abs=1e-9)
    assert 1e4 < due <= 1e4 + 0.01


def test_special_cases() -> None:
    assert next_due_after(0.5, 0.0, 2.0) == 2.0  # no rate: due at every read
    assert next_due_after(0.5, -1.0, 2.0) == 2.0
    assert next_due_after(3.0, 0.1, 2.0) == 3.0  # not due: unchanged (as the loop)
    assert next_due_after(1.0, 0.1, math.nan) == 1.0  # the loop does nothing for NaN
    assert next_due_after(1.0, 0.1, math.inf) == math.inf  # (the loop would not end)


def test_suite_reset_at_a_large_time(make_sim) -> None:
    """The backend's instability recovery: reset (every sensor due) then the clock set back to
    a large time; the next read samples once and schedules the following sample one period on."""
    urdf = pendulum_urdf(
        extra='<gazebo reference="arm"><sensor name="imu" type="imu">'
        "<update_rate>100</update_rate></sensor></gazebo>"
    )
    sim = make_sim(urdf)
    suite = sim.backend.sensors
    suite.reset()
    assert list(suite.read_due(1e4)) == ["imu"]
    (channel,) = suite.channels
    assert channel.next_due == 1000001 * 0.01
    assert list(suite.read_due(1e4 + 0.005)) == []
    assert list(suite.read_due(channel.next_due)) == ["imu"]
    assert channel.next_due == 1000001 * 0.01 + 0.01
