"""Command timeout watchdog: stop the robot when commands stop arriving.

After ``timeout`` s without an accepted command (a running trajectory counts as commanding),
the watchdog trips once: the caller then makes position-mode joints hold their current
(measured) position and sets velocity and effort commands to zero
(:meth:`sdf_bridge.hardware.commands.CommandBuffer.stop`). It re-arms with the next accepted
command. Before the first command it never trips (there is nothing to stop), nor when the
caller says that stopping would change nothing (``needed``: e.g. every joint holds a position
it has reached, :mod:`.holds`); that silence then passes without a trip.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable

from ..errors import ConfigError

_LOG = logging.getLogger(__name__)


class CommandWatchdog:
    """Detects a command timeout.

    Args:
        timeout: seconds without a command before tripping; ``0`` disables the watchdog.

    Attributes:
        trips: number of times it tripped.
        tripped: True from a trip until the next command.

    Raises:
        ConfigError: ``timeout`` negative or not finite.
    """

    def __init__(self, timeout: float) -> None:
        if not isinstance(timeout, (int, float)) or not math.isfinite(timeout) or timeout < 0:
            raise ConfigError(
                f"command_timeout is {timeout!r}. Fix: give a time in s >= 0 (0 disables the "
                "watchdog)."
            )
        self.timeout = float(timeout)
        self.trips = 0
        self.tripped = False
        self._tripped_for: float | None = None

    def check(
        self,
        now: float,
        last_command_time: float | None,
        needed: Callable[..., bool] | None = None,
        *needed_args: object,
        last_message_time: float | None = None,
    ) -> bool:
        """True exactly when the watchdog trips at ``now`` (s, same clock as the commands).

        A trip happens once per silence: the next trip needs a newer ``last_command_time``.
        ``needed(*needed_args)`` is asked once when the timeout has passed: False = stopping
        would change nothing, the silence passes without a trip (and is not asked about again).
        (Its arguments are passed rather than bound in a closure: this runs every tick.)
        ``last_message_time`` (s) is when the last command message arrived, whatever it held:
        when that is after ``last_command_time``, messages kept coming but set no value (all
        NaN, or every value refused), and the trip's warning says so (:func:`trip_message`).
        """
        if self.timeout == 0 or last_command_time is None:
            return False
        if self._tripped_for == last_command_time:
            return False
        self.tripped = False
        if now - last_command_time >= self.timeout:
            self._tripped_for = last_command_time
            if needed is not None and not needed(*needed_args):
                _LOG.debug(
                    "no command for %.3f s: every joint holds what it was commanded (no trip)",
                    now - last_command_time,
                )
                return False
            self.tripped = True
            self.trips += 1
            _LOG.warning(
                "%s",
                trip_message(now, last_command_time, self.timeout, self.trips, last_message_time),
            )
            return True
        return False

    def reset(self) -> None:
        """Forget the current silence (trip counter kept)."""
        self.tripped = False
        self._tripped_for = None


def trip_message(
    now: float,
    last_command_time: float,
    timeout: float,
    trips: int,
    last_message_time: float | None = None,
) -> str:
    """The warning of a trip at ``now`` (s): how long no command was accepted, what the hold
    does and the fix; when command messages arrived after the last accepted command
    (``last_message_time`` later than ``last_command_time``), it says that they held no value
    (e.g. a trajectory controller streaming a NaN goal) instead of asking for a steady rate."""
    silence = now - last_command_time
    hold = (
        "position-mode joints hold their position, velocity and effort commands are 0 "
        f"(effort-mode joints are not held) (trip {trips})"
    )
    if last_message_time is not None and last_message_time > last_command_time:
        return (
            f"no usable command for {silence:.3f} s (command_timeout {timeout:.3f} s): command "
            f"messages kept arriving (the last {max(0.0, now - last_message_time):.3f} s ago) "
            "but set no finite value for any joint (all NaN = not commanded, e.g. a trajectory "
            "controller's NaN goal; or every value refused or dropped: rejected.* and "
            f"dropped.* in /diagnostics): {hold}. Fix: send finite commands (a new trajectory "
            "to a reachable goal)"
        )
    return (
        f"no command for {silence:.3f} s (command_timeout {timeout:.3f} s): {hold}. Fix: publish "
        "commands at a steady rate, send a trajectory (held to its end), or set "
        "command_timeout:=0.0 to hold the last command"
    )
