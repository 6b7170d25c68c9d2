"""A fixed-rate loop on a dedicated thread with a sleep-until-deadline scheduler.

Why not an rclpy timer: timers fire from the executor, share it with every subscription and
service callback and jitter by the executor's wake-up latency. Here one thread runs only the
control cycle: it sleeps until ``deadline - spin`` with :func:`time.sleep` (``clock_nanosleep``,
~50–100 µs late on Linux) and busy-waits the last ``spin`` seconds, yielding the GIL at every
turn (:func:`os.sched_yield`) so that subscription callbacks are not held back by the spin.
Deadlines are absolute (``t0 + k·period``), so errors do not accumulate; a cycle that ends
after its next deadline is an **overrun**: it is counted and the schedule re-anchors at "now"
(missed cycles are skipped, not bunched).

The loop measures itself: cycle start-to-start periods, CPU time per cycle
(:func:`time.thread_time`) and overruns, in :class:`LoopStats`.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

LOG = logging.getLogger("sdf_bridge.ros.loop")

#: Gives up the GIL and the CPU for a moment (``sched_yield``, ~1 µs; ``time.sleep(0)`` would
#: take the timer slack, ~50 µs).
_yield: Callable[[], None] = getattr(os, "sched_yield", lambda: time.sleep(0))


@dataclass(frozen=True)
class LoopSummary:
    """Statistics over the recorded window: rates in Hz, times in s."""

    cycles: int
    overruns: int
    errors: int
    achieved_rate: float
    period_p50: float
    period_p99: float
    period_max: float
    cpu_mean: float
    cpu_p99: float


class LoopStats:
    """Ring buffers of the last ``window`` cycles: start times (perf_counter s) and CPU time per
    cycle (s). Written by the loop thread only; :meth:`summary` may be called from any thread
    (it copies)."""

    def __init__(self, window: int = 10_000) -> None:
        self.starts: deque[float] = deque(maxlen=window)
        self.cpu: deque[float] = deque(maxlen=window)
        self.cycles = 0
        self.overruns = 0
        self.errors = 0

    def reset(self) -> None:
        """Forget the recorded window and counters (e.g. after warm-up)."""
        self.starts.clear()
        self.cpu.clear()
        self.cycles = self.overruns = self.errors = 0

    def summary(self) -> LoopSummary:
        """Achieved rate = (n−1)/(last start − first start); period percentiles of the
        start-to-start differences; zeros when fewer than two cycles were recorded."""
        starts = np.array(list(self.starts), dtype=float)
        cpu = np.array(list(self.cpu), dtype=float)
        if starts.size < 2:
            return LoopSummary(self.cycles, self.overruns, self.errors, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        periods = np.diff(starts)
        span = starts[-1] - starts[0]
        return LoopSummary(
            cycles=self.cycles,
            overruns=self.overruns,
            errors=self.errors,
            achieved_rate=(starts.size - 1) / span if span > 0 else 0.0,
            period_p50=float(np.percentile(periods, 50)),
            period_p99=float(np.percentile(periods, 99)),
            period_max=float(periods.max()),
            cpu_mean=float(cpu.mean()) if cpu.size else 0.0,
            cpu_p99=float(np.percentile(cpu, 99)) if cpu.size else 0.0,
        )


class FixedRateLoop:
    """Calls ``cycle(k)`` (k = 0, 1, 2, …) every ``1 / (rate · real_time_factor)`` s of wall time
    on its own daemon thread.

    Args:
        cycle: the work of one cycle; exceptions are logged (throttled), counted in
            ``stats.errors`` and do not stop the loop.
        rate: cycles per second of loop time, Hz (> 0).
        real_time_factor: loop time / wall time; 0 runs as fast as possible (no sleep).
        spin: seconds busy-waited before each deadline (precision vs. CPU; default
            min(200 µs, 10 % of the period)).
        priority: 1..99 runs the loop thread with the Linux real-time policy SCHED_FIFO at that
            priority (as ros2_control's ``thread_priority``) when the process may (root or
            CAP_SYS_NICE / rtprio limit); otherwise, or with 0, the normal policy. Whether it
            worked is in :attr:`realtime`.
        name: thread name.

    Raises:
        ValueError: ``rate`` ≤ 0 or ``real_time_factor`` < 0.
    """

    def __init__(
        self,
        cycle: Callable[[int], None],
        rate: float,
        *,
        real_time_factor: float = 1.0,
        spin: float | None = None,
        priority: int = 0,
        name: str = "sdf_bridge_loop",
    ) -> None:
        if not rate > 0.0:
            raise ValueError(f"loop rate must be > 0 Hz, got {rate}")
        if real_time_factor < 0.0:
            raise ValueError(f"real_time_factor must be >= 0, got {real_time_factor}")
        if not 0 <= priority <= 99:
            raise ValueError(f"priority must be in 0..99, got {priority}")
        self.priority = int(priority)
        self.realtime = False
        self._cycle = cycle
        self.rate = float(rate)
        self.period = 0.0 if real_time_factor == 0.0 else 1.0 / (self.rate * real_time_factor)
        self.spin = min(2e-4, 0.1 * self.period) if spin is None else max(0.0, spin)
        self.stats = LoopStats()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._last_error_log = -1e9

    @property
    def running(self) -> bool:
        """Whether the loop thread is alive."""
        return self._thread.is_alive()

    def start(self) -> None:
        """Start the loop thread (once)."""
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Ask the loop to stop after the current cycle and wait up to ``timeout`` s."""
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def _sleep_until(self, deadline: float) -> None:
        remaining = deadline - time.perf_counter() - self.spin
        if remaining > 0.0:
            time.sleep(remaining)
        while time.perf_counter() < deadline:
            # release the GIL while spinning, so that a command callback waiting for it runs
            # now (and its command is written in the coming tick) instead of after up to one
            # switch interval
            _yield()

    def _set_priority(self) -> None:
        if self.priority == 0:
            return
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(self.priority))  # this thread
            self.realtime = True
        except (AttributeError, OSError) as exc:  # not Linux, or not permitted
            LOG.warning(
                "loop thread priority %d (SCHED_FIFO) not applied: %s; running with the normal "
                "policy (give the process CAP_SYS_NICE or an rtprio limit)", self.priority, exc
            )

    def _run(self) -> None:
        self._set_priority()
        stats = self.stats
        period = self.period
        deadline = time.perf_counter()
        k = 0
        while not self._stop.is_set():
            start = time.perf_counter()
            cpu0 = time.thread_time()
            try:
                self._cycle(k)
            except Exception:  # a bad cycle must not kill the loop; counted and logged
                stats.errors += 1
                if start - self._last_error_log > 1.0:
                    self._last_error_log = start
                    LOG.exception("control cycle %d failed (%d failures so far)", k, stats.errors)
            stats.cpu.append(time.thread_time() - cpu0)
            stats.starts.append(start)
            stats.cycles += 1
            k += 1
            deadline += period
            now = time.perf_counter()
            if period > 0.0 and now > deadline:
                stats.overruns += 1
                deadline = now  # re-anchor: skip missed cycles instead of bunching them
                continue
            if period > 0.0:
                self._sleep_until(deadline)
