"""A fixed-rate loop on a dedicated thread with a sleep-until-deadline scheduler.

Why not an rclpy timer: timers fire from the executor, share it with every subscription and
service callback and jitter by the executor's wake-up latency. Here one thread runs only the
control cycle: it sleeps until ``deadline - spin`` with :func:`time.sleep` (``clock_nanosleep``,
which wakes late by the timer slack: doc/dev/rationale.md) and busy-waits the last ``spin``
seconds, yielding the GIL at every turn (:func:`os.sched_yield`) so that subscription callbacks
are not held back by the spin.
Deadlines are absolute (``t0 + k·period``), so errors do not accumulate; when a cycle ends
after its next deadline the schedule re-anchors at "now" (missed cycles are skipped, not
bunched).

The loop times its ticks, once each: it calls :meth:`LoopTiming.start
<sdf_bridge.hardware.timing.LoopTiming.start>` with the start time it reads for its schedule
before ``cycle(k)`` and :meth:`~sdf_bridge.hardware.timing.LoopTiming.stop` after it, so the
busy time covers the whole tick (in the bridge node: write, read and publishing; the node's
hardware system is built untimed). :attr:`FixedRateLoop.timing` gives the rate, period
percentiles, jitter, busy and CPU time, ``overruns`` (busy time > period) and ``late_cycles``
(see :mod:`sdf_bridge.hardware.timing`); exceptions raised by the cycle are counted in
:attr:`FixedRateLoop.errors`.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

from .timing import LoopTiming

LOG = logging.getLogger("sdf_bridge.hardware.loop")

#: Gives up the GIL and the CPU for a moment (``sched_yield``; ``time.sleep(0)`` would take
#: the timer slack: doc/dev/rationale.md).
_yield: Callable[[], None] = getattr(os, "sched_yield", lambda: time.sleep(0))

#: The loop's clock, s (:func:`time.perf_counter`): one name, so that tests can give the loop
#: a clock of their own without touching the process-wide ``time`` module.
_now: Callable[[], float] = time.perf_counter


class FixedRateLoop:
    """Calls ``cycle(k)`` (k = 0, 1, 2, …) every ``1 / (rate · real_time_factor)`` s of wall time:
    ``cycle(0)`` on the thread that calls :meth:`start`, the others on the loop's own daemon
    thread.

    Args:
        cycle: the work of one cycle; an exception of ``cycle(0)`` is raised by :meth:`start`,
            later ones are logged (throttled), counted in :attr:`errors` and do not stop the
            loop.
        rate: cycles per second of loop time, Hz (> 0).
        real_time_factor: loop time / wall time; 0 runs as fast as possible (no sleep).
        spin: seconds busy-waited before each deadline (precision vs. CPU; default
            min(200 µs, 10 % of the period)).
        priority: 1..99 runs the loop thread with the Linux real-time policy SCHED_FIFO at that
            priority (as ros2_control's ``thread_priority``) when the process may (root or
            CAP_SYS_NICE / rtprio limit); otherwise, or with 0, the normal policy. Whether it
            worked is in :attr:`realtime`.
        name: thread name.

    Attributes:
        period: wall time between deadlines, s (``1 / (rate · real_time_factor)``; 0 = as
            fast as possible).
        timing: the :class:`~sdf_bridge.hardware.timing.LoopTiming` of the ticks (target
            period = :attr:`period`, ``None`` when running as fast as possible). Read each
            tick, so it may be replaced between ticks (e.g. by one with a larger window);
            :meth:`LoopTiming.snapshot` gives a copy to summarise from another thread.
        errors: cycles that raised (lifetime count).
        realtime: whether the SCHED_FIFO priority was applied.

    Raises:
        ValueError: ``rate`` ≤ 0, ``real_time_factor`` < 0 or ``priority`` outside 0..99.
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
        if not real_time_factor >= 0.0:  # (NaN too)
            raise ValueError(f"real_time_factor must be >= 0, got {real_time_factor}")
        if not 0 <= priority <= 99:
            raise ValueError(f"priority must be in 0..99, got {priority}")
        self.priority = int(priority)
        self.realtime = False
        self._cycle = cycle
        self.rate = float(rate)
        self.period = 0.0 if real_time_factor == 0.0 else 1.0 / (self.rate * real_time_factor)
        self.spin = min(2e-4, 0.1 * self.period) if spin is None else max(0.0, spin)
        self.timing = LoopTiming(self.period if self.period > 0.0 else None)
        self.errors = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._last_error_log = -1e9
        self._first = (0.0, 0.0)  # start and end of tick 0 (start())

    @property
    def running(self) -> bool:
        """Whether the loop thread is alive."""
        return self._thread.is_alive()

    def start(self) -> None:
        """Run the first tick (``cycle(0)``) on the calling thread, then start the loop thread
        for the others (once).

        A cycle that cannot run even once (a backend that refuses the control period, a driver
        that cannot read) is a configuration error: it is raised here, to whoever configures,
        instead of being logged every second by a loop that never publishes.

        Raises:
            Exception: whatever the first tick raised (the loop thread is then not started).
        """
        timing = self.timing
        self._first = (start := _now(), start)
        timing.start(start)
        try:
            self._cycle(0)
        finally:
            self._first = (start, end := _now())
            timing.stop(end)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Ask the loop to stop after the current cycle and wait up to ``timeout`` s."""
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def _sleep_until(self, deadline: float) -> None:
        remaining = deadline - _now() - self.spin
        if remaining > 0.0:
            time.sleep(remaining)
        while _now() < deadline:
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
                "policy (give the process CAP_SYS_NICE or an rtprio limit)",
                self.priority,
                exc,
            )

    def _run(self) -> None:
        self._set_priority()
        period = self.period
        deadline, now = self._first  # tick 0, run by start()
        k = 1
        while True:
            if period > 0.0:
                deadline += period
                if now > deadline:
                    deadline = now  # re-anchor: skip missed cycles instead of bunching them
                else:
                    self._sleep_until(deadline)
            if self._stop.is_set():
                return
            timing = self.timing  # start and stop of one tick on the same object
            start = _now()
            timing.start(start)
            try:
                self._cycle(k)
            except Exception:  # a bad cycle must not kill the loop; counted and logged
                self.errors += 1
                if start - self._last_error_log > 1.0:
                    self._last_error_log = start
                    LOG.exception("control cycle %d failed (%d failures so far)", k, self.errors)
            now = _now()
            timing.stop(now)
            k += 1
