"""sdf_bridge.hardware.loop: the fixed-rate loop thread (counts only; no timing assertions)."""

from __future__ import annotations

import os
import threading

import pytest

from sdf_bridge.hardware.loop import FixedRateLoop
from sdf_bridge.hardware.timing import LoopTiming


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
    summary = loop.timing.summary()
    assert summary["cycles"] == loop.timing.cycles == len(seen) and loop.errors == 0
    assert summary["target_period"] == pytest.approx(0.001, abs=1e-15)
    assert (
        summary["rate_hz"] > 0
        and summary["period_p50"] > 0
        and summary["period_max"] >= summary["period_p99"]
    )
    assert summary["busy_mean"] > 0 and summary["cpu_mean"] >= 0


def test_the_first_tick_runs_in_start_and_its_error_is_raised() -> None:
    """Tick 0 runs on the thread calling start(): a cycle that cannot run once (a backend that
    refuses the control period) is raised to whoever configures, and no loop thread starts;
    the loop thread then runs ticks 1, 2, …"""
    threads: list[threading.Thread] = []

    def failing(k: int) -> None:
        raise RuntimeError(f"tick {k} cannot run")

    loop = FixedRateLoop(failing, 100.0)
    with pytest.raises(RuntimeError, match=r"^tick 0 cannot run$"):
        loop.start()
    assert not loop.running and loop.errors == 0 and loop.timing.cycles == 1
    done = threading.Event()

    def cycle(k: int) -> None:
        threads.append(threading.current_thread())
        if k == 3:
            done.set()

    _run_until(FixedRateLoop(cycle, 1000.0), done)
    assert threads[0] is threading.current_thread()
    assert all(t is threads[1] and t is not threads[0] for t in threads[1:4])


def test_exceptions_are_counted_and_do_not_stop_the_loop() -> None:
    done = threading.Event()

    def cycle(k: int) -> None:
        if k == 20:
            done.set()
        if k % 2:
            raise RuntimeError("bad cycle")

    loop = FixedRateLoop(cycle, 2000.0)
    _run_until(loop, done)
    assert loop.errors >= 10
    assert loop.timing.cycles >= 21  # failed ticks are timed too


def test_as_fast_as_possible() -> None:
    done = threading.Event()
    loop = FixedRateLoop(lambda k: done.set() if k == 200 else None, 10.0, real_time_factor=0.0)
    assert loop.period == 0.0 and loop.timing.target_period is None
    _run_until(loop, done)
    assert loop.timing.cycles >= 201
    assert loop.timing.overruns == 0 and loop.timing.late_cycles == 0  # no target without a period


def test_period_and_validation() -> None:
    assert FixedRateLoop(lambda k: None, 100.0, real_time_factor=2.0).period == pytest.approx(
        0.005, abs=1e-15
    )
    with pytest.raises(ValueError, match=r"loop rate must be > 0 Hz, got 0.0"):
        FixedRateLoop(lambda k: None, 0.0)
    with pytest.raises(ValueError, match=r"real_time_factor must be >= 0, got -1"):
        FixedRateLoop(lambda k: None, 10.0, real_time_factor=-1)
    with pytest.raises(ValueError, match=r"real_time_factor must be >= 0, got nan"):
        FixedRateLoop(lambda k: None, 10.0, real_time_factor=float("nan"))


def test_the_loop_times_each_tick_once_with_its_clock_reads(monkeypatch) -> None:
    """The loop passes the perf_counter readings of its schedule to its LoopTiming: the start
    of a tick is the reading before the cycle, its end the reading after it (a fake clock
    advancing 1 ms per reading makes every figure exact)."""
    clock = iter(range(10_000))
    monkeypatch.setattr("sdf_bridge.hardware.loop._now", lambda: next(clock) * 1e-3)
    done = threading.Event()

    def cycle(k: int) -> None:
        if k == 9:
            done.set()
            loop._stop.set()  # the tenth tick is the last

    # real_time_factor 0: no sleeping, so the loop reads the clock exactly twice per tick
    # (after the one reading that anchors the schedule)
    loop = FixedRateLoop(cycle, 100.0, real_time_factor=0.0)
    _run_until(loop, done)
    s = loop.timing.summary()
    assert s["cycles"] == 10 and loop.errors == 0
    assert s["busy_mean"] == pytest.approx(1e-3, abs=1e-12)  # start → stop: one reading apart
    assert s["period_max"] == pytest.approx(2e-3, abs=1e-12)  # start → start: two readings
    assert s["period_p50"] == pytest.approx(2e-3, abs=1e-12)
    assert s["rate_hz"] == pytest.approx(500.0, rel=1e-9)


def test_overruns_are_the_ticks_busy_longer_than_the_period(monkeypatch) -> None:
    """With a period (100 Hz: 10 ms) a tick busy for 15 ms is an overrun and the schedule
    re-anchors (no sleep before the next tick); ticks busy for 1 ms sleep to their deadline
    and are not overruns (fake clock: ticks' durations set by the cycle)."""
    now = [0.0]
    monkeypatch.setattr("sdf_bridge.hardware.loop._now", lambda: now[0])
    slept: list[float] = []
    done = threading.Event()

    class Loop(FixedRateLoop):
        def _sleep_until(self, deadline: float) -> None:
            slept.append(deadline)
            now[0] = deadline

    def cycle(k: int) -> None:
        now[0] += 0.015 if k in (2, 5) else 0.001
        if k == 7:
            done.set()
            loop._stop.set()

    loop = Loop(cycle, 100.0)
    _run_until(loop, done)
    assert loop.timing.cycles == 8 and loop.timing.overruns == 2 and loop.errors == 0
    # deadlines 10, 20, 30 ms; tick 2 ends at 35 ms > 30: re-anchored there, no sleep; tick 3
    # ends at 36 ms → sleeps to 45 ms, tick 4 to 55 ms; tick 5 ends at 70 ms > 65: re-anchored;
    # ticks 6 and 7 sleep to 80 and 90 ms
    assert loop.timing.late_cycles == 2  # ticks 3 and 6 start 15 ms after the one before
    assert slept == pytest.approx([0.01, 0.02, 0.045, 0.055, 0.08, 0.09], abs=1e-12)


def test_the_timing_may_be_replaced_between_ticks() -> None:
    done = threading.Event()
    swapped = LoopTiming(0.002, window=50)

    def cycle(k: int) -> None:
        if k == 5:
            loop.timing = swapped  # from the next tick on
        if k == 20:
            done.set()

    loop = FixedRateLoop(cycle, 500.0)
    first = loop.timing
    _run_until(loop, done)
    assert loop.timing is swapped
    assert first.cycles == 6  # ticks 0..5: started and stopped on the first timing
    assert swapped.cycles >= 15


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
    # tick 0 runs on the thread that starts the loop (normal policy); the loop thread's ticks
    # have the priority when permitted (root / CAP_SYS_NICE), else a warning and normal scheduling
    assert policies[0] == os.sched_getscheduler(0)
    assert (policies[1] == os.SCHED_FIFO) is loop.realtime
    assert loop.timing.cycles >= 6
    assert FixedRateLoop(lambda k: None, 10.0).realtime is False
