"""sdf_bridge.hardware.holds: which joints share an actuator (coupling); the watchdog's stop
only where it changes the commands (stop_changes_commands)."""

from __future__ import annotations

import numpy as np
import pytest

from sdf_bridge.hardware.holds import REACHED, coupling, stop_changes_commands

NAN = np.nan


def test_coupling_equals_the_dependency_product() -> None:
    """From the actuator dependency in O(non-zeros): the same as the dense product
    S = D.T @ D > 0 (diagonal cleared; None when no actuator drives two joints) on random
    dependencies, and its partners the boolean product S @ selected."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        dependency = rng.random((int(rng.integers(1, 9)), int(rng.integers(1, 9)))) < 0.35
        dense = (dependency.T.astype(np.int64) @ dependency.astype(np.int64)) > 0
        np.fill_diagonal(dense, False)
        shared = coupling(dependency)
        if dense.any():
            np.testing.assert_array_equal(shared.matrix(), dense)
            for _ in range(5):
                selected = rng.random(dependency.shape[1]) < 0.5
                np.testing.assert_array_equal(shared.partners(selected), dense @ selected)
        else:
            assert shared is None


@pytest.mark.parametrize(
    ("commands", "measured", "changes"),
    [
        ([[0.5, NAN], [NAN, NAN], [NAN, NAN]], [0.5, 0.0], False),  # position reached
        ([[0.5, NAN], [NAN, NAN], [NAN, NAN]], [0.5 + 0.9 * REACHED, 0.0], False),  # within REACHED
        ([[0.5, NAN], [NAN, NAN], [NAN, NAN]], [0.5 + 1.1 * REACHED, 0.0], True),  # not reached
        ([[0.5, NAN], [NAN, NAN], [NAN, NAN]], [NAN, 0.0], True),  # position unknown
        ([[0.5, NAN], [0.0, 0.0], [NAN, NAN]], [0.5, 3.0], False),  # zero velocity
        ([[NAN, NAN], [NAN, 0.2], [NAN, NAN]], [0.0, 3.0], True),  # moving
        ([[NAN, NAN], [NAN, NAN], [NAN, 0.0]], [0.0, 3.0], False),  # zero effort
        ([[NAN, NAN], [NAN, NAN], [-1.0, NAN]], [0.0, 3.0], True),  # pushing
        ([[NAN, NAN], [NAN, NAN], [NAN, NAN]], [0.0, 3.0], False),  # nothing commanded
    ],
)
def test_stop_changes_commands(commands: list, measured: list, changes: bool) -> None:
    assert stop_changes_commands(np.array(commands), np.array(measured)) is changes
