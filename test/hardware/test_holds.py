"""Holds: the watchdog's stop only where it changes the commands (:func:`stop_changes_commands`)."""

from __future__ import annotations

import numpy as np
import pytest

from sdf_bridge.hardware.holds import REACHED, stop_changes_commands

NAN = np.nan


@pytest.mark.parametrize(
    ("commands", "measured", "changes"),
    [
        ([[0.5, NAN], [NAN, NAN], [NAN, NAN]], [0.5, 0.0], False),                  # position reached
        ([[0.5, NAN], [NAN, NAN], [NAN, NAN]], [0.5 + 0.9 * REACHED, 0.0], False),  # within REACHED
        ([[0.5, NAN], [NAN, NAN], [NAN, NAN]], [0.5 + 1.1 * REACHED, 0.0], True),   # not reached
        ([[0.5, NAN], [NAN, NAN], [NAN, NAN]], [NAN, 0.0], True),                   # position unknown
        ([[0.5, NAN], [0.0, 0.0], [NAN, NAN]], [0.5, 3.0], False),                  # zero velocity
        ([[NAN, NAN], [NAN, 0.2], [NAN, NAN]], [0.0, 3.0], True),                   # moving
        ([[NAN, NAN], [NAN, NAN], [NAN, 0.0]], [0.0, 3.0], False),                  # zero effort
        ([[NAN, NAN], [NAN, NAN], [-1.0, NAN]], [0.0, 3.0], True),                  # pushing
        ([[NAN, NAN], [NAN, NAN], [NAN, NAN]], [0.0, 3.0], False),                  # nothing commanded
    ],
)
def test_stop_changes_commands(commands: list, measured: list, changes: bool) -> None:
    assert stop_changes_commands(np.array(commands), np.array(measured)) is changes
