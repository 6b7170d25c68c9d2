"""A callback run once on a node's executor, some steady seconds from now (rclpy has no
one-shot timer: a periodic one cancelled and destroyed at its first call)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rclpy.clock import Clock, ClockType


def after(node: Any, seconds: float, callback: Callable[[], None]) -> None:
    """Run ``callback()`` once, ``seconds`` (steady time: not paused with a simulation) from
    now, on ``node``'s executor; its timer is destroyed before the call."""
    timers: list[Any] = []

    def fire() -> None:
        node.destroy_timer(timers.pop())
        callback()

    timers.append(node.create_timer(seconds, fire, clock=Clock(clock_type=ClockType.STEADY_TIME)))
