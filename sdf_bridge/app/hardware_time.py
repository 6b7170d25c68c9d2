"""The node's time base for the hardware system: the ``now`` of commands, of the command
watchdog and of trajectory sampling, measured the way the robot lives it.

* A backend without a simulated clock (the mock, a real driver): **steady time**
  (:func:`time.monotonic`), whatever the ROS clock does. Under ``use_sim_time`` with nothing
  publishing ``/clock`` the ROS clock stands still (at 0), and a watchdog on it never trips: a
  killed commander's last velocity command would hold for ever.
* A simulating backend (its states carry ``sim_time``, e.g. MuJoCo): **simulated time**, so a
  paused simulation is not watched (nothing moves), and one running faster than real time is
  stopped after ``command_timeout`` of simulated time, not of wall time.

:class:`HardwareTime` gives that time in s: steady time until the first state with a
``sim_time`` arrives, then the simulated time plus a constant offset, so that the time is
continuous at the switch, and it stays monotonic when the simulation is reset to time 0 (the
hardware system forgets its commands on a reset, but a command arriving in between must not
look older than the next tick). The stamps of published messages stay ROS time (the node's
clock); a trajectory's ``header.stamp`` (ROS time) is converted with :meth:`HardwareTime.from_ros`.

Under ``use_sim_time`` with a backend that has no simulated clock and nothing publishing
``/clock``, the ROS clock stays at 0: :mod:`.sim_clock` warns about it once.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class HardwareTime:
    """The hardware system's time base (module doc).

    Args:
        steady: the steady clock, s (a parameter for tests).

    Attributes:
        simulated: whether the time follows a simulated clock (from the first state with a
            ``sim_time``).
    """

    def __init__(self, *, steady: Callable[[], float] = time.monotonic) -> None:
        self._steady = steady
        self.simulated = False
        self._offset = 0.0  # hardware time − simulated time, once simulated
        self._sim = 0.0  # the last simulated time seen

    def now(self) -> float:
        """The current hardware time, s: steady time, or the simulated time of the last state
        (plus the offset)."""
        if self.simulated:
            return self._sim + self._offset
        return self._steady()

    def observe(self, sim_time: float | None) -> None:
        """Take the ``sim_time`` of a tick's state (``None`` for a backend without one). Called
        once per tick (a comparison or two)."""
        if sim_time is None:
            return
        if not self.simulated:
            self.simulated = True
            self._offset = self._steady() - sim_time  # continuous at the switch
        elif sim_time < self._sim:  # the simulation was reset: keep going forward
            self._offset += self._sim - sim_time
        self._sim = sim_time

    def from_ros(self, stamp: float, ros_now: float) -> float:
        """A ROS time ``stamp`` (s, e.g. a trajectory's ``header.stamp``) on this time base,
        given the ROS time ``ros_now`` it is compared with."""
        return self.now() + (stamp - ros_now)
