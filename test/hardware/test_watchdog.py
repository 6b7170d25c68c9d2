"""Command timeout watchdog: trips once per silence, re-arms on a new command, can be off."""

from __future__ import annotations

import logging

import pytest

from sdf_bridge.errors import ConfigError
from sdf_bridge.hardware.watchdog import CommandWatchdog, trip_message


def test_never_trips_before_first_command() -> None:
    dog = CommandWatchdog(0.5)
    assert dog.check(100.0, None) is False
    assert dog.trips == 0 and dog.tripped is False


def test_trips_once_after_timeout_then_rearms() -> None:
    dog = CommandWatchdog(0.5)
    assert dog.check(1.4, 1.0) is False
    assert dog.check(1.5, 1.0) is True  # exactly the timeout
    assert dog.tripped and dog.trips == 1
    assert dog.check(1.6, 1.0) is False  # same silence: no second trip
    assert dog.tripped
    assert dog.check(2.0, 1.9) is False  # new command re-arms
    assert not dog.tripped
    assert dog.check(2.4, 1.9) is True
    assert dog.trips == 2


def test_zero_timeout_disables() -> None:
    dog = CommandWatchdog(0)
    assert dog.check(1e9, 0.0) is False
    assert dog.trips == 0


def test_reset_forgets_current_silence() -> None:
    dog = CommandWatchdog(0.1)
    assert dog.check(1.0, 0.0) is True
    dog.reset()
    assert not dog.tripped
    assert dog.check(1.1, 0.0) is True  # the silence counts again after a reset
    assert dog.trips == 2


@pytest.mark.parametrize("timeout", [-0.1, float("nan"), float("inf"), "1"])
def test_bad_timeout(timeout: object) -> None:
    with pytest.raises(ConfigError, match="command_timeout"):
        CommandWatchdog(timeout)  # type: ignore[arg-type]  # (the bad timeouts tested)


def test_a_silence_where_stopping_changes_nothing_is_no_trip() -> None:
    """``needed`` is asked once per silence, when the timeout has passed; False = no trip."""
    dog = CommandWatchdog(0.5)
    asked: list[float] = []

    def needed() -> bool:
        asked.append(1.0)
        return False

    assert dog.check(1.4, 1.0, needed) is False and asked == []  # not yet timed out: not asked
    assert dog.check(1.5, 1.0, needed) is False and asked == [1.0]
    assert dog.check(9.0, 1.0, needed) is False and asked == [1.0]  # same silence: not asked again
    assert dog.trips == 0 and not dog.tripped
    assert dog.check(9.5, 9.0, lambda: True) is True  # the next silence needs the stop
    assert dog.trips == 1 and dog.tripped


def test_needed_is_asked_with_the_arguments_given() -> None:
    """``check(now, last, needed, *args)`` asks ``needed(*args)`` (the hot path passes its
    arguments instead of making a closure every tick)."""
    dog = CommandWatchdog(0.5)
    asked: list[tuple[object, ...]] = []

    def needed(*args: object) -> bool:
        asked.append(args)
        return args[0] == "stop"

    assert dog.check(1.0, 0.9, needed, "stop", 2) is False and asked == []
    assert dog.check(1.5, 1.0, needed, "keep", 3) is False and asked == [("keep", 3)]
    assert dog.check(2.5, 2.0, needed, "stop", 4) is True and asked[-1] == ("stop", 4)
    assert dog.trips == 1


def test_the_trip_message_says_when_messages_came_but_set_no_value(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A silence with no message asks for a steady rate; messages after the last accepted
    command (a trajectory controller streaming a NaN goal) are named instead."""
    dog = CommandWatchdog(0.5)
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.hardware.watchdog"):
        assert dog.check(1.5, 1.0) is True
        assert dog.check(3.0, 2.0, last_message_time=2.99) is True
        assert dog.check(4.5, 4.0, last_message_time=4.0) is True  # (the accepted one)
    first, second, third = (r.getMessage() for r in caplog.records)
    assert first.startswith("no command for 0.500 s (command_timeout 0.500 s): position-mode")
    assert "Fix: publish commands at a steady rate" in first and "(trip 1)" in first
    assert second.startswith(
        "no usable command for 1.000 s (command_timeout 0.500 s): command messages kept "
        "arriving (the last 0.010 s ago) but set no finite value for any joint (all NaN"
    )
    assert "(trip 2). Fix: send finite commands" in second
    assert "steady rate" not in second
    assert third.startswith("no command for 0.500 s")


def test_trip_message_of_a_silence() -> None:
    assert trip_message(2.0, 1.25, 0.5, 3) == (
        "no command for 0.750 s (command_timeout 0.500 s): position-mode joints hold their "
        "position, velocity and effort commands are 0 (effort-mode joints are not held) (trip "
        "3). Fix: publish commands at a steady rate, send a trajectory (held to its end), or set "
        "command_timeout:=0.0 to hold the last command"
    )
