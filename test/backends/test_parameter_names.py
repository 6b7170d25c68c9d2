"""sdf_bridge.backends.parameter_names: one warning for the parameters a backend is given that
are not its own, with the known parameter a misspelt one probably meant."""

from __future__ import annotations

import logging

import pytest

from sdf_bridge.backends.parameter_names import warn_unknown

LOG = logging.getLogger("sdf_bridge.test.parameter_names")
KNOWN = ("timestep", "gravity", "pid_gains")
TAIL = (
    " (the parameters of another plug-in, e.g. a real driver's <ros2_control><hardware>"
    "<param>s, or a misspelt backend_params.*)"
)


def _warnings(caplog: pytest.LogCaptureFixture, keys, prefixes=()) -> list[str]:
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        warn_unknown(LOG, "test backend", keys, KNOWN, prefixes)
    return [r.getMessage() for r in caplog.records if r.name == LOG.name]


def test_every_unknown_name_in_one_warning_in_the_order_given(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert _warnings(caplog, ["robot_ip", "timestep", "port", 7]) == [
        f"test backend: 3 parameter(s) not its own, ignored: 'robot_ip', 'port', '7'{TAIL}. "
        "Its parameters: gravity, pid_gains, timestep"
    ]


def test_the_name_a_misspelling_probably_meant(caplog: pytest.LogCaptureFixture) -> None:
    """difflib similarity ≥ 0.8, one edit away (4 characters or more) or another letter case."""
    assert _warnings(caplog, ["gravty", "TimeStep", "pid_gain", "username"]) == [
        "test backend: 4 parameter(s) not its own, ignored: 'gravty', 'TimeStep', 'pid_gain', "
        f"'username'{TAIL}; 'gravty' is probably 'gravity'; 'TimeStep' is probably 'timestep'; "
        "'pid_gain' is probably 'pid_gains'. Its parameters: gravity, pid_gains, timestep"
    ]


def test_no_warning_when_every_name_is_known_or_flattened(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert _warnings(caplog, ["timestep", "pid_gains.j.p"], ("pid_gains.",)) == []
    assert _warnings(caplog, []) == []
