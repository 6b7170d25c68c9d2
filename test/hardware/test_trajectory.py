"""Trajectory validation and sampling: linear, cubic Hermite and quintic with exact values."""

from __future__ import annotations

import numpy as np
import pytest

from sdf_bridge.errors import CommandError, TrajectoryInPastError
from sdf_bridge.hardware.trajectory import Trajectory

TOL = 1e-12


def test_linear_from_current_state() -> None:
    traj = Trajectory.build(
        ["a", "b"],
        [1.0, 2.0],
        [[1.0, -1.0], [3.0, 1.0]],
        None,
        None,
        start=10.0,
        current_position=np.array([0.0, 0.0]),
    )
    assert traj.kind == "linear"
    assert traj.end_time == 12.0
    np.testing.assert_allclose(traj.times, [10.0, 11.0, 12.0], atol=TOL)
    p, v, done = traj.sample(10.5)
    np.testing.assert_allclose(p, [0.5, -0.5], atol=TOL)
    assert v is None and not done
    p, _, _ = traj.sample(11.5)
    np.testing.assert_allclose(p, [2.0, 0.0], atol=TOL)
    p, _, _ = traj.sample(11.0)  # exactly on a knot
    np.testing.assert_allclose(p, [1.0, -1.0], atol=TOL)
    p, v, done = traj.sample(9.0)  # before the start: first sample held
    np.testing.assert_allclose(p, [0.0, 0.0], atol=TOL)
    assert not done
    p, v, done = traj.sample(13.0)  # after the end: last point held
    np.testing.assert_allclose(p, [3.0, 1.0], atol=TOL)
    assert v is None and done


def test_first_point_at_zero_needs_no_state() -> None:
    traj = Trajectory.build(
        ["a"], [0.0, 1.0], [[2.0], [4.0]], [], [], start=0.0, current_position=None
    )
    np.testing.assert_allclose(traj.times, [0.0, 1.0], atol=TOL)
    p, v, _ = traj.sample(0.25)
    assert p[0] == pytest.approx(2.5, abs=TOL) and v is None


def test_cubic_hermite_exact() -> None:
    traj = Trajectory.build(
        ["a"], [0.0, 2.0], [[0.0], [1.0]], [[0.0], [0.0]], None, start=0.0, current_position=None
    )
    assert traj.kind == "cubic"
    p, v, _ = traj.sample(1.0)
    assert p[0] == pytest.approx(0.5, abs=TOL) and v[0] == pytest.approx(0.75, abs=TOL)
    p, v, _ = traj.sample(0.5)  # s = 0.25: h01 = 0.15625; dp/dt = (-6s²+6s)/T
    assert p[0] == pytest.approx(0.15625, abs=TOL) and v[0] == pytest.approx(0.5625, abs=TOL)
    p, v, done = traj.sample(2.0)
    assert p[0] == pytest.approx(1.0, abs=TOL) and v[0] == 0.0 and done


def test_cubic_uses_velocities() -> None:
    traj = Trajectory.build(
        ["a"], [0.0, 1.0], [[0.0], [0.0]], [[1.0], [0.0]], None, start=0.0, current_position=None
    )
    p, v, _ = traj.sample(0.5)  # h10(0.5) = 0.125; dh10/ds = 3s²-4s+1 = -0.25
    assert p[0] == pytest.approx(0.125, abs=TOL) and v[0] == pytest.approx(-0.25, abs=TOL)


def test_cubic_start_point_takes_current_velocity() -> None:
    traj = Trajectory.build(
        ["a"],
        [1.0],
        [[0.0]],
        [[0.0]],
        None,
        start=0.0,
        current_position=np.array([0.0]),
        current_velocity=np.array([1.0]),
    )
    p, v, _ = traj.sample(0.5)
    assert p[0] == pytest.approx(0.125, abs=TOL) and v[0] == pytest.approx(-0.25, abs=TOL)


def test_quintic_is_minimum_jerk_for_rest_to_rest() -> None:
    traj = Trajectory.build(
        ["a"],
        [0.0, 1.0],
        [[0.0], [1.0]],
        [[0.0], [0.0]],
        [[0.0], [0.0]],
        start=5.0,
        current_position=None,
    )
    assert traj.kind == "quintic"
    p, v, _ = traj.sample(5.5)
    assert p[0] == pytest.approx(0.5, abs=TOL)
    p, v, _ = traj.sample(5.25)  # 10s³-15s⁴+6s⁵ and 30s²-60s³+30s⁴ at s = 0.25
    assert p[0] == pytest.approx(0.103515625, abs=TOL)
    assert v[0] == pytest.approx(1.0546875, abs=TOL)


def test_quintic_matches_end_conditions() -> None:
    traj = Trajectory.build(
        ["a"],
        [0.0, 2.0],
        [[1.0], [3.0]],
        [[0.5], [-0.5]],
        [[1.0], [2.0]],
        start=0.0,
        current_position=None,
    )
    p, v, _ = traj.sample(2.0 - 1e-9)
    assert p[0] == pytest.approx(3.0, abs=1e-7) and v[0] == pytest.approx(-0.5, abs=1e-6)
    p, v, _ = traj.sample(1e-9)
    assert p[0] == pytest.approx(1.0, abs=1e-7) and v[0] == pytest.approx(0.5, abs=1e-6)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(names=[]), "no joints"),
        (dict(names=["a", "a"]), "more than once"),
        (dict(times=[]), "no points"),
        (dict(times=[1.0, 1.0]), "strictly increasing"),
        (dict(times=[-1.0, 1.0]), "finite and >= 0"),
        (dict(times=[0.0, float("nan")]), "finite and >= 0"),
        (dict(positions=[]), "no positions"),
        (dict(positions=[[1.0]]), "1 positions entries for 2 points"),
        (dict(positions=[[1.0], []]), "lengths"),
        (dict(positions=[[1.0], [float("inf")]]), "NaN or inf"),
        (dict(positions=[[1.0], [1e30]]), r"positions go beyond ±1e\+06 .*a typo\?\)\. Fix"),
        (dict(velocities=[[1.0], [-2e6]]), r"velocities go beyond ±1e\+06"),
        (dict(positions=[["x"], [1.0]]), "not numbers"),
        (dict(velocities=[[1.0], []]), "lengths"),
        (dict(accelerations=[[1.0], [1.0]]), "accelerations but no velocities"),
        (dict(times=[1.0, 2.0]), "current joint state is unknown"),
    ],
)
def test_invalid_trajectories(kwargs: dict, match: str) -> None:
    args = dict(
        names=["a"], times=[0.0, 1.0], positions=[[0.0], [1.0]], velocities=None, accelerations=None
    )
    args.update(kwargs)
    with pytest.raises(CommandError, match=match):
        Trajectory.build(
            args["names"],
            args["times"],
            args["positions"],
            args["velocities"],
            args["accelerations"],
            start=0.0,
            current_position=None,
        )


def test_nan_current_state_is_unknown() -> None:
    with pytest.raises(CommandError, match="unknown"):
        Trajectory.build(
            ["a"], [1.0], [[1.0]], None, None, start=0.0, current_position=np.array([np.nan])
        )


# ------------------------------------------------------------------ start times in the past
def test_a_trajectory_that_ends_in_the_past_is_rejected() -> None:
    """As joint_trajectory_controller: stamped 100 s ago with 2 s of points, it ended 98 s ago."""
    with pytest.raises(
        TrajectoryInPastError,
        match=r"^trajectory ends 98 s in the past \(header\.stamp \+ the last "
        r"point's time_from_start is before now\)\. Fix: stamp it now",
    ):
        Trajectory.build(
            ["a"],
            [1.0, 2.0],
            [[1.0], [2.0]],
            None,
            None,
            start=0.0,
            current_position=np.array([0.0]),
            now=100.0,
        )
    assert TrajectoryInPastError.reason == "trajectory_in_past" and issubclass(
        TrajectoryInPastError, CommandError
    )


def test_a_trajectory_that_started_in_the_past_is_followed_from_now() -> None:
    """Started 1.5 s ago, points at 1 s and 3 s: the first point is behind, the sample at now
    lies on the segment between the two points (the part before now is skipped)."""
    traj = Trajectory.build(
        ["a"],
        [1.0, 3.0],
        [[1.0], [3.0]],
        None,
        None,
        start=10.0,
        current_position=np.array([0.0]),
        now=11.5,
    )
    # no start point from the current state
    np.testing.assert_allclose(traj.times, [11.0, 13.0], atol=TOL)
    p, _, done = traj.sample(11.5)
    assert p[0] == pytest.approx(1.5, abs=TOL) and not done


def test_the_segment_to_a_first_point_still_ahead_starts_now() -> None:
    """Started 1 s ago, first point at 4 s: the segment from the current state (the state now)
    runs from now to the first point, not from the stamp."""
    traj = Trajectory.build(
        ["a"], [4.0], [[3.0]], None, None, start=10.0, current_position=np.array([0.0]), now=11.0
    )
    np.testing.assert_allclose(traj.times, [11.0, 14.0], atol=TOL)
    assert traj.sample(11.0)[0][0] == pytest.approx(0.0, abs=TOL)
    assert traj.sample(12.5)[0][0] == pytest.approx(1.5, abs=TOL)
    # a future start is unchanged by now
    later = Trajectory.build(
        ["a"], [4.0], [[3.0]], None, None, start=20.0, current_position=np.array([0.0]), now=11.0
    )
    np.testing.assert_allclose(later.times, [20.0, 24.0], atol=TOL)


@pytest.mark.parametrize(
    ("times", "match"),
    [
        (
            [0.5, 1.0, 1.0],
            r"^trajectory times are not strictly increasing: point 2 of 3 at 1\.0 s after "
            r"point 1 at 1\.0 s\. Fix: order the points by time_from_start\.$",
        ),
        ([0.5, float("nan"), 2.0], r"^trajectory point 1 of 3 has time nan: times must be"),
        ([-0.5, 1.0, 2.0], r"^trajectory point 0 of 3 has time -0\.5: times must be finite"),
    ],
)
def test_bad_times_name_the_first_bad_point_not_every_time(times, match) -> None:
    """A long trajectory's error names one point (the message stays short: 10^5 points
    listed were megabytes of log)."""
    with pytest.raises(CommandError, match=match):
        Trajectory.build(
            ["a"], times, [[0.0]] * 3, None, None, start=0.0, current_position=np.zeros(1)
        )


def test_a_long_trajectory_error_stays_short() -> None:
    times = np.ones(100_000)
    with pytest.raises(CommandError) as info:
        Trajectory.build(
            ["a"],
            times,
            np.zeros((100_000, 1)),
            None,
            None,
            start=0.0,
            current_position=np.zeros(1),
        )
    assert len(str(info.value)) < 200
