"""Honest loop timing: achieved rate, period percentiles, jitter, overruns, CPU per cycle.

A cycle (one tick of the control loop) starts at :meth:`LoopTiming.start` and ends at
:meth:`LoopTiming.stop`, so the busy time covers the whole tick and the period is the start-to-start
time of ticks. Each tick is timed once, by whoever runs it: the bridge node's
:class:`~sdf_bridge.hardware.loop.FixedRateLoop` calls ``start`` before the node's tick (write,
read, publish) and ``stop`` after it (its hardware system is built untimed); a
:class:`~sdf_bridge.hardware.HardwareSystem` used on its own (``timed=True``, the default) calls
``start`` at the beginning of ``write`` and ``stop`` at the end of ``read`` or in
:meth:`~sdf_bridge.hardware.HardwareSystem.end_cycle`. Wall times come from
:func:`time.perf_counter`, CPU times from :func:`time.thread_time` (the CPU time of the thread
running the tick, so work of other threads running meanwhile — command callbacks, middleware — is
not counted; start and stop must therefore be called on the same thread, as a control loop does);
both can be given explicitly for deterministic tests and replays.

Definitions (over a sliding window of the last ``window`` cycles unless noted):

* period: start-to-start time of consecutive cycles; ``rate_hz`` = 1 / mean period.
* ``period_p50``, ``period_p99``, ``period_max``: percentiles (linear interpolation,
  :func:`numpy.percentile`) and maximum of the period, s.
* ``jitter``: standard deviation of the period, s; ``jitter_max``: ``max |period − target|``.
* busy time: start-to-stop time of one cycle (write + read [+ publish]), s; ``cpu_mean``: mean
  CPU time per cycle, s, over the sampled cycles: reading a thread's CPU clock is a system call
  (twice per cycle; doc/dev/rationale.md), so by default every ``cpu_every``-th cycle (8) is
  measured —
  cycles ``cpu_every − 1``, ``2·cpu_every − 1``, … (not the first, which carries the start-up
  work) — over the same window (its last ``window / cpu_every`` samples); cycles given explicit
  CPU times are always measured.
* ``overruns`` (lifetime): cycles whose busy time exceeded the target period (the loop cannot
  keep its rate); ``late_cycles`` (lifetime): periods longer than
  ``target_period · (1 + overrun_tolerance)`` (the cycle started late, whatever the reason).
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..errors import ConfigError


class LoopTiming:
    """Measures a control loop (see module doc).

    Args:
        target_period: the intended period, s (``None`` = unknown: no overrun counting).
        window: number of recent cycles kept for statistics (> 1).
        overrun_tolerance: fraction of the target period a period may exceed before the cycle
            counts as late.
        cpu_every: measure the CPU time of every ``cpu_every``-th cycle (1 = all).

    Raises:
        ConfigError: non-positive target period or tolerance < 0, window < 2, cpu_every < 1.
    """

    def __init__(
        self,
        target_period: float | None = None,
        *,
        window: int = 1000,
        overrun_tolerance: float = 0.1,
        cpu_every: int = 8,
    ) -> None:
        if not (isinstance(cpu_every, int) and cpu_every >= 1):
            raise ConfigError(
                f"cpu_every is {cpu_every!r}. Fix: give a whole number of cycles >= 1."
            )
        self.cpu_every = cpu_every
        if window < 2:
            raise ConfigError(f"timing window is {window}. Fix: give at least 2 cycles.")
        if not overrun_tolerance >= 0:
            raise ConfigError(
                f"overrun_tolerance is {overrun_tolerance!r}. Fix: give a value >= 0."
            )
        self.window = int(window)
        self.overrun_tolerance = float(overrun_tolerance)
        self.target_period = target_period
        self.reset()

    @property
    def target_period(self) -> float | None:
        """The intended period in s, or ``None``."""
        return self._target

    @target_period.setter
    def target_period(self, value: float | None) -> None:
        if value is not None and not (math.isfinite(value) and value > 0):
            raise ConfigError(f"target period is {value!r}. Fix: give a period in s > 0 (or None).")
        self._target = None if value is None else float(value)

    def reset(self) -> None:
        """Forget all measurements."""
        self.cycles = 0
        self.overruns = 0
        self.late_cycles = 0
        # ring buffers as Python lists: a list item store costs a quarter of a numpy one, and
        # start/stop run every tick; summary() converts them
        self._periods = [0.0] * self.window
        self._busy = [0.0] * self.window
        self._cpu_window = max(2, self.window // self.cpu_every)
        self._cpu = [0.0] * self._cpu_window
        self._n_periods = 0
        self._n_busy = 0
        self._n_cpu = 0
        self._last_start: float | None = None
        self._start: float | None = None
        self._start_cpu: float | None = None

    def start(self, t: float | None = None, cpu: float | None = None) -> None:
        """Mark the start of a cycle at wall time ``t`` and CPU time ``cpu`` (s; now if None)."""
        t = time.perf_counter() if t is None else t
        if cpu is None and self.cycles % self.cpu_every == self.cpu_every - 1:
            cpu = time.thread_time()
        if self._last_start is not None:
            period = t - self._last_start
            self._periods[self._n_periods % self.window] = period
            self._n_periods += 1
            if self._target is not None and period > self._target * (1.0 + self.overrun_tolerance):
                self.late_cycles += 1
        self._last_start = t
        self._start = t
        self._start_cpu = cpu

    def stop(self, t: float | None = None, cpu: float | None = None) -> None:
        """Mark the end of the cycle started last (ignored when no cycle is open)."""
        if self._start is None:
            return
        t = time.perf_counter() if t is None else t
        busy = t - self._start
        slot = self._n_busy % self.window
        self._busy[slot] = busy
        self._n_busy += 1
        if self._start_cpu is not None:
            cpu = time.thread_time() if cpu is None else cpu
            self._cpu[self._n_cpu % self._cpu_window] = cpu - self._start_cpu
            self._n_cpu += 1
        self.cycles += 1
        if self._target is not None and busy > self._target:
            self.overruns += 1
        self._start = None

    def snapshot(self) -> LoopTiming:
        """An independent copy (windows and counters copied), e.g. to compute
        :meth:`summary` outside a lock while the loop keeps measuring."""
        copy = LoopTiming.__new__(LoopTiming)
        copy.__dict__.update(self.__dict__)
        copy._periods = list(self._periods)
        copy._busy = list(self._busy)
        copy._cpu = list(self._cpu)
        return copy

    def summary(self) -> dict[str, float | int | None]:
        """Statistics (module doc) as a flat dict: keys ``cycles``, ``rate_hz``, ``period_mean``,
        ``period_p50``, ``period_p99``, ``period_max``, ``jitter``, ``jitter_max``,
        ``busy_mean``, ``busy_max``, ``cpu_mean``, ``overruns``, ``late_cycles``,
        ``overrun_ratio`` (overruns / cycles), ``target_period``. Times in s, rate in Hz;
        values that need more cycles are ``None``."""
        periods = np.array(self._periods[: min(self._n_periods, self.window)])
        busy = np.array(self._busy[: min(self._n_busy, self.window)])
        cpu = np.array(self._cpu[: min(self._n_cpu, self._cpu_window)])
        out: dict[str, float | int | None] = {
            "cycles": self.cycles,
            "target_period": self._target,
            "overruns": self.overruns,
            "late_cycles": self.late_cycles,
            "overrun_ratio": self.overruns / self.cycles if self.cycles else None,
            "rate_hz": None,
            "period_mean": None,
            "period_p50": None,
            "period_p99": None,
            "period_max": None,
            "jitter": None,
            "jitter_max": None,
            "busy_mean": None,
            "busy_max": None,
            "cpu_mean": None,
        }
        if periods.size:
            mean = float(periods.mean())
            p50, p99 = np.percentile(periods, [50.0, 99.0])
            out.update(
                rate_hz=1.0 / mean if mean > 0 else None,
                period_mean=mean,
                period_p50=float(p50),
                period_p99=float(p99),
                period_max=float(periods.max()),
                jitter=float(periods.std()),
                jitter_max=float(np.abs(periods - (self._target if self._target else mean)).max()),
            )
        if busy.size:
            out.update(busy_mean=float(busy.mean()), busy_max=float(busy.max()))
        if cpu.size:
            out.update(cpu_mean=float(cpu.mean()))
        return out
