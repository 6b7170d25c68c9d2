"""Tests of the ball coordinates' rules for a quaternion-based backend
(:func:`sdf_bridge.description.coordinates.ball_angles`, :func:`ball_rate_matrix`): the
continuous angles of a rotation and the map from their rates to the angular velocity, against
closed forms, at and through gimbal lock."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sdf_bridge.description.coordinates import ball_angles, ball_rate_matrix
from sdf_bridge.description.model.pose import rpy_to_matrix

#: Ry(±π/2) with exact zeros: the rotations at exact gimbal lock.
RY_UP = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])
RY_DOWN = RY_UP.T


def _rz(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


@pytest.mark.parametrize(
    "angles",
    [(0.3, -0.4, 0.5), (7.0, 1.2, -2.5), (0.1, 2.0, 0.3), (-3.0, -2.6, 9.0), (0.0, 0.0, 0.0)],
)
def test_angles_near_the_previous_ones_come_back(angles: tuple[float, float, float]) -> None:
    """Angles beyond ±π (a ball turning on) and a pitch beyond ±π/2 (the other solution) come
    back from their rotation when they were the previous angles (1e-12 rad)."""
    got = ball_angles(angles, rpy_to_matrix(angles))
    np.testing.assert_allclose(got, angles, rtol=0, atol=1e-12)


def test_angles_follow_a_pitch_through_the_lock() -> None:
    """Pitch from 0 to π in 1000 steps at roll 0.2, yaw −0.3: the pitch is followed exactly
    (1e-12 rad), roll and yaw stay put (1e-9 rad) wherever |cos pitch| > 1e-6 (rounding there
    is 1e-16 / |cos pitch|), and every result gives the rotation back (1e-12)."""
    previous = (0.2, 0.0, -0.3)
    for pitch in np.linspace(0.0, math.pi, 1001):
        rot = rpy_to_matrix((0.2, float(pitch), -0.3))
        got = ball_angles(previous, rot)
        assert got[1] == pytest.approx(pitch, abs=1e-12)
        if abs(math.cos(pitch)) > 1e-6:
            np.testing.assert_allclose([got[0], got[2]], [0.2, -0.3], rtol=0, atol=1e-9)
        np.testing.assert_allclose(rpy_to_matrix(got), rot, rtol=0, atol=1e-12)
        previous = got


@pytest.mark.parametrize(
    ("rot", "previous", "expected"),
    [
        # pitch π/2: only yaw − roll = 0.5 is defined; split nearest (0.3, ·, 0.9)
        (_rz(0.5) @ RY_UP, (0.3, 1.55, 0.9), (0.35, math.pi / 2, 0.85)),
        # pitch −π/2: only yaw + roll = 0.5 is defined; split nearest (0.3, ·, 0.1)
        (_rz(0.5) @ RY_DOWN, (0.3, -1.55, 0.1), (0.35, -math.pi / 2, 0.15)),
        # the sum taken 2π on, as the previous angles are
        (_rz(0.5) @ RY_UP, (0.3, 1.55, 0.9 + 2 * math.pi), (0.35, math.pi / 2, 0.85 + 2 * math.pi)),
    ],
)
def test_exact_lock_splits_the_sum_nearest_the_previous_angles(
    rot: np.ndarray, previous: tuple[float, float, float], expected: tuple[float, float, float]
) -> None:
    """At exact lock the defined sum is split into roll and yaw nearest the previous angles
    (closed form r = (r₀ + y₀ ∓ s) / 2; 1e-12 rad) and the rotation comes back (1e-15)."""
    got = ball_angles(previous, rot)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(rpy_to_matrix(got), rot, rtol=0, atol=1e-15)


def test_rate_matrix_gives_the_child_angular_velocity() -> None:
    """ω in the child's axes, vee(Rᵀ·Ṙ) by central differences (h = 1e-6 s), is J·q̇ (1e-8);
    det J = cos(pitch) (1e-15); the power of a torque is that of the efforts Jᵀ·τ."""
    q, rates, tau = np.array([0.3, -0.4, 0.5]), np.array([0.7, -1.1, 0.4]), np.array([1, 2, 3])
    h = 1e-6
    rot = rpy_to_matrix(tuple(q))
    dot = (rpy_to_matrix(tuple(q + h * rates)) - rpy_to_matrix(tuple(q - h * rates))) / (2 * h)
    skew = rot.T @ dot
    omega = np.array([skew[2, 1], skew[0, 2], skew[1, 0]])
    jac = ball_rate_matrix(0.3, -0.4)
    np.testing.assert_allclose(jac @ rates, omega, rtol=0, atol=1e-8)
    assert np.linalg.det(jac) == pytest.approx(math.cos(-0.4), abs=1e-15)
    assert (jac.T @ tau) @ rates == pytest.approx(tau @ omega, abs=1e-8)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match=r"previous ball angles must be 3 finite numbers"):
        ball_angles([0.0, math.nan, 0.0], np.eye(3))
    with pytest.raises(ValueError, match=r"previous ball angles must be 3 finite numbers"):
        ball_angles([0.0, 0.0], np.eye(3))
    with pytest.raises(ValueError, match=r"finite \(3, 3\) matrix; got shape \(2, 2\)"):
        ball_angles([0.0, 0.0, 0.0], np.eye(2))
    with pytest.raises(ValueError, match=r"finite \(3, 3\) matrix; got shape \(3, 3\)"):
        ball_angles([0.0, 0.0, 0.0], np.full((3, 3), math.inf))
