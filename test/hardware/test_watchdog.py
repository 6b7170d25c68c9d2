"""Command timeout watchdog: trips once per silence, re-arms on a new command, can be off."""

from __future__ import annotations

import pytest

from sdf_bridge.errors import ConfigError
from sdf_bridge.hardware.watchdog import CommandWatchdog


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
        CommandWatchdog(timeout)  # type: ignore[arg-type]
