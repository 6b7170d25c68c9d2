"""The simulated time of a bridge: ``/clock``, and a bridge on simulated time
(``use_sim_time:=true``) whose clock never starts.

:class:`ClockPublisher` is the one place a tick's simulated time goes: the node's hardware time
observes it and ``/clock`` carries it (a bridge alone publishes it; of several robots in one
simulation, the world node publishes it once per tick, :mod:`.robots`, and the robots' nodes
only observe it).


The node's clock then follows ``/clock``. The MuJoCo backend publishes it; the mock backend has
no simulated clock, so unless another node publishes ``/clock`` the node's time stays at 0:
every state is stamped 0 and a stamped trajectory is taken against 0 (the command watchdog
and trajectories stamped 0 run on steady time, :mod:`.hardware_time`).
:func:`watch` warns about it once, :data:`GRACE` s (steady time) after the bridge is configured.
A simulating backend (MuJoCo) is not watched: the bridge publishes /clock itself, and a clock at 0
there is a paused simulation (``start_paused``), not a missing source.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rosgraph_msgs.msg import Clock

from .conversions import time_msg
from .one_shot import after

if TYPE_CHECKING:  # pragma: no cover
    from ..app.hardware_time import HardwareTime

GRACE = 3.0
"""s (steady) the clock may stay at 0 before the warning: discovery and a first /clock message."""


def stalled_clock_message(backend: str, grace: float = GRACE) -> str:
    """The warning for a clock still at 0 ``grace`` s after start with backend ``backend``."""
    return (
        f"use_sim_time is true but the node's clock is still at 0 after {grace:g} s: nothing "
        f"publishes /clock (backend {backend!r} has no simulated clock unless it is a "
        "simulator such as 'mujoco'). States are stamped 0 and trajectory stamps are taken "
        "against 0 (the command watchdog and trajectories stamped 0 run on steady time). "
        "Fix: use_sim_time:=false with the mock backend, backend:=mujoco (it publishes "
        "/clock), or start the simulator or bag that publishes /clock."
    )


def watch(node: Any, backend: str, grace: float = GRACE) -> None:
    """On simulated time, check once, ``grace`` s from now (a one-shot steady timer on ``node``),
    that ``node``'s clock has left 0, and log :func:`stalled_clock_message` as a warning if not.
    Nothing to do when the node is on system time."""
    if not node.get_clock().ros_time_is_active:
        return

    def check() -> None:
        if node.get_clock().now().nanoseconds == 0:
            node.get_logger().warning(stalled_clock_message(backend, grace))

    after(node, grace, check)


class ClockPublisher:
    """A tick's simulated time: observed by ``time`` (the node's hardware time, whose
    :meth:`~sdf_bridge.app.hardware_time.HardwareTime.observe` takes ``None`` too) and, with
    ``publish``, published on ``/clock`` by ``node`` (the publisher made at the first simulated
    time: a backend without one publishes none)."""

    def __init__(self, node: Any, time: HardwareTime, *, publish: bool = True) -> None:
        self._node = node
        self._time = time
        self._publish = publish
        #: the ``/clock`` publisher, once made
        self.publisher: Any = None

    def tick(self, sim_time: float | None) -> None:
        """The simulated time after a tick (s; ``None``: the backend has none)."""
        self._time.observe(sim_time)
        if sim_time is None or not self._publish:
            return
        if self.publisher is None:
            self.publisher = self._node.create_publisher(Clock, "/clock", 10)
        self.publisher.publish(Clock(clock=time_msg(sim_time)))
