"""sdf_bridge.hardware.holds: which joints share an actuator (coupling)."""

from __future__ import annotations

import numpy as np

from sdf_bridge.hardware.holds import coupling


def test_coupling_equals_the_dependency_product() -> None:
    """From the actuator dependency in O(non-zeros): the same as the dense product
    D.T @ D > 0 (diagonal cleared; None when no actuator drives two joints) on random
    dependencies."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        dependency = rng.random((int(rng.integers(1, 9)), int(rng.integers(1, 9)))) < 0.35
        dense = (dependency.T.astype(np.int64) @ dependency.astype(np.int64)) > 0
        np.fill_diagonal(dense, False)
        shared = coupling(dependency)
        if dense.any():
            np.testing.assert_array_equal(shared, dense)
        else:
            assert shared is None
