"""LoopTiming with synthetic timestamps: exact statistics, overrun counting, errors."""

from __future__ import annotations

import pytest

from sdf_bridge.errors import ConfigError
from sdf_bridge.hardware.timing import LoopTiming

TOL = 1e-12


def _run(timing: LoopTiming, starts: list[float], busy: list[float], cpu: list[float]) -> None:
    for t, b, c in zip(starts, busy, cpu):
        timing.start(t=t, cpu=10.0)
        timing.stop(t=t + b, cpu=10.0 + c)


def test_summary_exact_values() -> None:
    timing = LoopTiming(target_period=0.001)
    # periods 1, 1, 1, 3 ms; busy 0.2, 0.2, 1.5 (overrun), 0.2 ms
    starts = [0.0, 0.001, 0.002, 0.003, 0.006]
    _run(timing, starts, [0.0002, 0.0002, 0.0015, 0.0002, 0.0002], [0.0001] * 5)
    s = timing.summary()
    assert s["cycles"] == 5
    assert s["overruns"] == 1
    assert s["late_cycles"] == 1  # the 3 ms period
    assert s["overrun_ratio"] == pytest.approx(0.2, abs=TOL)
    assert s["period_mean"] == pytest.approx(0.0015, abs=TOL)
    assert s["rate_hz"] == pytest.approx(1.0 / 0.0015, rel=1e-9)
    assert s["period_p50"] == pytest.approx(0.001, abs=TOL)
    # numpy linear percentile of [1, 1, 1, 3] ms at 99 %: 1 + 0.97*2 ms
    assert s["period_p99"] == pytest.approx(0.00294, abs=1e-12)
    assert s["period_max"] == pytest.approx(0.003, abs=TOL)
    assert s["jitter"] == pytest.approx(0.000866025403784, abs=1e-12)  # std of [1,1,1,3] ms
    assert s["jitter_max"] == pytest.approx(0.002, abs=TOL)
    assert s["busy_max"] == pytest.approx(0.0015, abs=TOL)
    assert s["busy_mean"] == pytest.approx(0.00046, abs=TOL)
    assert s["cpu_mean"] == pytest.approx(0.0001, abs=TOL)
    assert s["target_period"] == 0.001


def test_tolerance_decides_late_cycles() -> None:
    timing = LoopTiming(target_period=0.01, overrun_tolerance=0.5)
    _run(timing, [0.0, 0.014, 0.030], [0.001] * 3, [0.0] * 3)  # periods 14 ms, 16 ms
    assert timing.late_cycles == 1
    assert timing.overruns == 0


def test_window_keeps_only_recent_cycles() -> None:
    timing = LoopTiming(window=2)
    _run(timing, [0.0, 1.0, 1.5, 2.0], [0.1] * 4, [0.0] * 4)  # periods 1, 0.5, 0.5
    s = timing.summary()
    assert s["period_max"] == pytest.approx(0.5, abs=TOL)
    assert s["cycles"] == 4
    assert s["overruns"] == 0  # no target: nothing counted
    assert s["overrun_ratio"] == 0.0


def test_empty_and_single_cycle_summary() -> None:
    timing = LoopTiming()
    s = timing.summary()
    assert s["cycles"] == 0 and s["rate_hz"] is None and s["busy_mean"] is None
    assert s["overrun_ratio"] is None
    timing.start(t=1.0, cpu=0.0)
    timing.stop(t=1.5, cpu=0.25)
    s = timing.summary()
    assert s["rate_hz"] is None  # one cycle has no period
    assert s["busy_mean"] == 0.5 and s["cpu_mean"] == 0.25


def test_stop_without_start_is_ignored_and_reset_clears() -> None:
    timing = LoopTiming(target_period=0.001)
    timing.stop(t=1.0, cpu=0.0)
    assert timing.cycles == 0
    _run(timing, [0.0, 0.01], [0.002, 0.002], [0.0, 0.0])
    assert timing.overruns == 2
    timing.reset()
    assert timing.cycles == 0 and timing.overruns == 0 and timing.summary()["period_max"] is None


def test_real_clock_defaults_measure_something() -> None:
    timing = LoopTiming()
    timing.start()
    timing.stop()
    timing.start()
    timing.stop()
    s = timing.summary()
    assert s["cycles"] == 2
    assert s["period_mean"] is not None and s["period_mean"] >= 0.0


@pytest.mark.parametrize("period", [0.0, -1.0, float("nan"), float("inf")])
def test_bad_target_period(period: float) -> None:
    with pytest.raises(ConfigError, match="target period"):
        LoopTiming(target_period=period)


def test_bad_window_and_tolerance() -> None:
    with pytest.raises(ConfigError, match="window"):
        LoopTiming(window=1)
    with pytest.raises(ConfigError, match="overrun_tolerance"):
        LoopTiming(overrun_tolerance=-0.1)


def test_snapshot_is_independent_of_further_cycles() -> None:
    timing = LoopTiming(target_period=0.5)
    timing.start(t=0.0, cpu=0.0)
    timing.stop(t=0.25, cpu=0.125)
    timing.start(t=1.0, cpu=1.0)
    timing.stop(t=1.75, cpu=1.5)
    snap = timing.snapshot()
    timing.start(t=2.0, cpu=2.0)
    timing.stop(t=2.5, cpu=2.25)
    s = snap.summary()
    assert s["cycles"] == 2 and s["overruns"] == 1
    assert s["period_mean"] == 1.0 and s["busy_max"] == 0.75 and s["cpu_mean"] == 0.3125
    assert timing.summary()["cycles"] == 3 and timing.summary()["period_max"] == 1.0


def test_cpu_time_is_sampled_every_cpu_every_cycles(monkeypatch) -> None:
    """The thread CPU clock (a system call) is read on cycles 3, 7 of 10 with ``cpu_every=4``
    (not cycle 0, the start-up one): cpu_mean is the mean of those cycles' CPU times; the
    window of CPU samples covers the same cycles as the others (window / cpu_every samples)."""
    reads = []

    def thread_time() -> float:  # the k-th read returns k² ms: a varying CPU time per cycle
        reads.append(1)
        return 0.001 * len(reads) ** 2

    monkeypatch.setattr("sdf_bridge.hardware.timing.time.thread_time", thread_time)
    timing = LoopTiming(cpu_every=4)
    for k in range(10):
        timing.start(t=float(k))
        timing.stop(t=k + 0.5)
    assert len(reads) == 4  # start and stop of cycles 3 and 7
    # (1², 2²), (3², 4²) ms: differences 3 and 7 ms
    assert timing.summary()["cpu_mean"] == pytest.approx(0.005, abs=1e-15)
    assert timing.summary()["busy_mean"] == pytest.approx(0.5, abs=1e-15)
    short = LoopTiming(window=8, cpu_every=4)  # 2 CPU samples kept: the last 8 cycles' worth
    for k in range(16):
        short.start(t=float(k), cpu=float(k) if k % 4 == 3 else None)
        short.stop(t=k + 0.5, cpu=k + (0.01 * k if k % 4 == 3 else 0.0))
    # cycles 11, 15
    assert short.summary()["cpu_mean"] == pytest.approx((0.11 + 0.15) / 2, abs=1e-12)


def test_cpu_every_must_be_a_positive_whole_number() -> None:
    for bad in (0, -1, 1.5):
        with pytest.raises(ConfigError, match="cpu_every"):
            LoopTiming(cpu_every=bad)
