"""The MuJoCo backend's real-time factor: simulated time over wall time, measured when asked
(:attr:`.backend.MujocoBackend.real_time_factor`)."""

from __future__ import annotations

import time
from collections.abc import Callable

RTF_WINDOW = 0.1
"""Shortest wall-time interval over which :meth:`RealTimeFactor.measure` measures, s."""


class RealTimeFactor:
    """The achieved real-time factor of a simulation: simulated time over wall time (s/s) since
    the previous measurement, taken when asked at least :data:`RTF_WINDOW` s of wall time after
    it (the node asks once per diagnostics period; asked sooner, the last value is returned). 0
    until measured (from the last :meth:`restart`), and over a paused interval. Costs the control
    cycle nothing (no clock read per tick). Each measurement starts a new interval: one reader
    (the node's diagnostics) should own it.

    Attributes:
        clock: the wall clock, s (default ``time.perf_counter``; a test may set another).
    """

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self._mark: tuple[float, float] | None = None  # (wall s, simulated s) of the last measure
        self._value = 0.0

    def restart(self, sim_time: float) -> None:
        """Measure from now on, at simulated time ``sim_time`` (s); the value is 0 until then."""
        self._mark, self._value = (self.clock(), float(sim_time)), 0.0

    def measure(self, sim_time: float) -> float:
        """The real-time factor at simulated time ``sim_time`` (s): a new value when at least
        :data:`RTF_WINDOW` s of wall time passed since the last one (the interval restarts
        then), else the last value; a simulated time earlier than the last measurement's (set
        from outside) starts a new interval."""
        now, t = self.clock(), float(sim_time)
        mark = self._mark
        if mark is None or t < mark[1]:  # (time went back: set from outside)
            self._mark = (now, t)
        elif now - mark[0] >= RTF_WINDOW:
            self._value = (t - mark[1]) / (now - mark[0])
            self._mark = (now, t)
        return self._value
