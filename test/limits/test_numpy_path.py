"""The limiter's numpy path (sdf_bridge.limits.numpy_path.NumpyPath) on its own: its per-joint
arrays, the shared previous commands and counters it updates in place, its shape error.

The limiting rules themselves are tested through ``JointLimiter`` (test_limiter.py) and against
the compiled kernel (test_kernel.py). Values are exact (no arithmetic beyond negation and
sums of representable numbers).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sdf_bridge.limits import REASONS, JointLimits
from sdf_bridge.limits.numpy_path import NumpyPath

NAN = math.nan
INF = math.inf

# a joint with a soft ramp and soft effort band; one with nothing but a velocity limit
SOFT = JointLimits(
    has_position_limits=True,
    min_position=-1.0,
    max_position=1.0,
    has_velocity_limits=True,
    max_velocity=2.0,
    has_effort_limits=True,
    max_effort=5.0,
    has_soft_limits=True,
    soft_lower=-0.5,
    soft_upper=0.75,
    k_position=4.0,
    k_velocity=3.0,
)
PLAIN = JointLimits(has_velocity_limits=True, max_velocity=1.5)


def _path(*limits: JointLimits) -> tuple[NumpyPath, np.ndarray, np.ndarray]:
    prev = np.full((2, len(limits)), NAN)
    counts = np.zeros((len(REASONS), len(limits)), dtype=np.int64)
    return NumpyPath(limits, prev, counts), prev, counts


def test_per_joint_arrays() -> None:
    a, _, _ = _path(SOFT, PLAIN)
    assert a.pmin.tolist() == [-1.0, -INF] and a.pmax.tolist() == [1.0, INF]
    assert a.lo.tolist() == [-0.5, -INF] and a.hi.tolist() == [0.75, INF]
    assert a.vmax.tolist() == [2.0, 1.5] and a.emax.tolist() == [5.0, INF]
    assert a.amax.tolist() == [INF, INF]
    assert a.ramp.tolist() == [True, False]
    assert a.kps2.tolist() == [[4.0, 0.0], [-4.0, 0.0]]
    assert a.soft2.tolist() == [[-0.5, 0.0], [0.75, 0.0]]
    assert a.bases2.tolist() == [[0.0, 1.5], [0.0, 1.5]]
    assert math.copysign(1.0, a.bases2[0, 0]) == -1.0  # the lower side's offset is −0.0
    assert a.esoft.tolist() == [True, False] and a.kv.tolist() == [3.0, 0.0]
    assert (a.any_vmax, a.any_pos_limits, a.any_amax) == (True, True, False)


def test_enforce_updates_the_shared_arrays_in_place() -> None:
    a, prev, counts = _path(SOFT, PLAIN)
    with np.errstate(invalid="ignore", over="ignore"):
        p, v, e = a.enforce(
            np.zeros(2),
            np.zeros(2),
            np.array([3.0, NAN]),
            np.array([NAN, 4.0]),
            np.full(2, NAN),
            0.0,
        )
    assert p[0] == 0.75 and math.isnan(p[1])  # static limits only (dt = 0)
    assert math.isnan(v[0]) and v[1] == 1.5 and np.isnan(e).all()
    assert prev[0, 0] == 0.75 and prev[1, 1] == 1.5  # rows position, velocity
    assert counts[REASONS.index("position"), 0] == 1
    assert counts[REASONS.index("velocity"), 1] == 1
    assert counts.sum() == 2


def test_enforce_wrong_shape() -> None:
    a, prev, counts = _path(SOFT, PLAIN)
    with pytest.raises(ValueError, match=r"every array must have shape \(2,\); got \(3,\)"):
        a.enforce(np.zeros(3), np.zeros(2), np.zeros(2), np.zeros(2), np.zeros(2), 0.01)
    assert np.isnan(prev).all() and not counts.any()
