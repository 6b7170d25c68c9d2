"""sdf_bridge.ros.loop: the fixed-rate loop thread (counts only; no timing assertions)."""

from __future__ import annotations

import os
import threading

import pytest

from sdf_bridge.ros.loop import FixedRateLoop, LoopStats


def _run_until(loop: FixedRateLoop, done: threading.Event) -> None:
    loop.start()
    assert done.wait(20.0), "loop did not reach the expected cycle count"
    loop.stop()
    assert not loop.running


def test_cycles_are_numbered_and_counted() -> None:
    seen: list[int] = []
    done = threading.Event()

    def cycle(k: int) -> None:
        seen.append(k)
        if k == 49:
            done.set()

    loop = FixedRateLoop(cycle, 1000.0)
    _run_until(loop, done)
    assert seen[:50] == list(range(50))
    summary = loop.stats.summary()
    assert summary.cycles == len(seen) and summary.errors == 0
    assert summary.achieved_rate > 0 and summary.period_p50 > 0 and summary.period_max >= summary.period_p99


def test_exceptions_are_counted_and_do_not_stop_the_loop() -> None:
    done = threading.Event()

    def cycle(k: int) -> None:
        if k == 20:
            done.set()
        if k % 2:
            raise RuntimeError("bad cycle")

    loop = FixedRateLoop(cycle, 2000.0)
    _run_until(loop, done)
    assert loop.stats.errors >= 10
    assert loop.stats.cycles >= 21


def test_as_fast_as_possible() -> None:
    done = threading.Event()
    loop = FixedRateLoop(lambda k: done.set() if k == 200 else None, 10.0, real_time_factor=0.0)
    assert loop.period == 0.0
    _run_until(loop, done)
    assert loop.stats.overruns == 0  # no deadlines without a period


def test_period_and_validation() -> None:
    assert FixedRateLoop(lambda k: None, 100.0, real_time_factor=2.0).period == pytest.approx(0.005, abs=1e-15)
    with pytest.raises(ValueError, match=r"loop rate must be > 0 Hz, got 0.0"):
        FixedRateLoop(lambda k: None, 0.0)
    with pytest.raises(ValueError, match=r"real_time_factor must be >= 0, got -1"):
        FixedRateLoop(lambda k: None, 10.0, real_time_factor=-1)


def test_stats_summary_values() -> None:
    stats = LoopStats()
    assert stats.summary().achieved_rate == 0.0
    for i, start in enumerate((0.0, 0.01, 0.02, 0.04)):
        stats.starts.append(start)
        stats.cpu.append(0.001 * (i + 1))
        stats.cycles += 1
    s = stats.summary()
    assert s.achieved_rate == pytest.approx(3 / 0.04, rel=1e-12)
    assert s.period_p50 == pytest.approx(0.01, abs=1e-12)
    assert s.period_max == pytest.approx(0.02, abs=1e-12)
    assert s.cpu_mean == pytest.approx(0.0025, abs=1e-12)
    stats.reset()
    assert stats.cycles == 0 and not stats.starts


def test_priority_validation_and_fallback() -> None:
    with pytest.raises(ValueError, match=r"priority must be in 0..99, got 100"):
        FixedRateLoop(lambda k: None, 10.0, priority=100)
    done = threading.Event()
    policies: list[int] = []

    def cycle(k: int) -> None:
        policies.append(os.sched_getscheduler(0))
        if k == 5:
            done.set()

    loop = FixedRateLoop(cycle, 500.0, priority=10)
    _run_until(loop, done)
    # applied when permitted (root / CAP_SYS_NICE), else a warning and normal scheduling
    assert (policies[0] == os.SCHED_FIFO) is loop.realtime
    assert loop.stats.cycles >= 6
    assert FixedRateLoop(lambda k: None, 10.0).realtime is False
