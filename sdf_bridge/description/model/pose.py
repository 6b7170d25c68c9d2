"""Rigid transforms: :class:`Pose` (translation + roll/pitch/yaw) and conversions.

Conventions are URDF's and SDFormat's: ``rpy`` are fixed-axis rotations about x, then y, then z
(R = Rz(yaw)·Ry(pitch)·Rx(roll)), in rad; translations in m; quaternions as (x, y, z, w).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Vec3 = tuple[float, float, float]


def rpy_to_matrix(rpy: Vec3) -> np.ndarray:
    """Rotation matrix of fixed-axis roll/pitch/yaw (rad). Returns shape (3, 3)."""
    r, p, y = rpy
    cr, sr, cp, sp, cy, sy = (
        math.cos(r),
        math.sin(r),
        math.cos(p),
        math.sin(p),
        math.cos(y),
        math.sin(y),
    )
    return np.array(
        [
            [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr],
        ]
    )


def matrix_to_rpy(rot: np.ndarray) -> Vec3:
    """Roll/pitch/yaw (rad) of a (3, 3) rotation matrix; pitch in [-π/2, π/2].

    Exact to rounding at every pitch, gimbal lock (pitch ±π/2) included: roll is taken from the
    last row, then pitch and yaw from ``R·Rx(roll)ᵀ = Rz(yaw)·Ry(pitch)``, whose entries are
    well conditioned (no ``asin`` near ±1, no ratio of two tiny numbers), so that
    :func:`rpy_to_matrix` gives ``rot`` back to ~1e-16 even where roll and yaw alone are
    ill-defined. At exact gimbal lock roll is 0 and the rotation is put into yaw.
    """
    r = np.asarray(rot, dtype=float)
    r21, r22 = float(r[2, 1]), float(r[2, 2])
    roll = math.atan2(r21, r22) if (r21 != 0.0 or r22 != 0.0) else 0.0
    cr, sr = math.cos(roll), math.sin(roll)
    # M = R·Rx(roll)ᵀ: columns 1, 2 of R rotated back about x
    m01 = float(r[0, 1]) * cr - float(r[0, 2]) * sr
    m11 = float(r[1, 1]) * cr - float(r[1, 2]) * sr
    m22 = float(r[2, 1]) * sr + float(r[2, 2]) * cr
    pitch = math.atan2(-float(r[2, 0]), m22)
    yaw = math.atan2(-m01, m11)
    return (roll, pitch, yaw)


def quaternion_to_matrix(q: tuple[float, float, float, float]) -> np.ndarray:
    """Rotation matrix (3, 3) of a quaternion (x, y, z, w); the quaternion is normalised first.

    Raises:
        ValueError: for a zero quaternion.
    """
    x, y, z, w = q
    n = math.sqrt(x * x + y * y + z * z + w * w)
    if n == 0.0:
        raise ValueError("zero quaternion")
    x, y, z, w = x / n, y / n, z / n, w / n
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def matrix_to_quaternion(rot: np.ndarray) -> tuple[float, float, float, float]:
    """Quaternion (x, y, z, w), w ≥ 0, of a (3, 3) rotation matrix (Shepperd's method)."""
    m = rot
    tr = m[0, 0] + m[1, 1] + m[2, 2]
    if tr > 0:
        s = math.sqrt(tr + 1.0) * 2
        w, x, y, z = (
            0.25 * s,
            (m[2, 1] - m[1, 2]) / s,
            (m[0, 2] - m[2, 0]) / s,
            (m[1, 0] - m[0, 1]) / s,
        )
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = math.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2]) * 2
        w, x, y, z = (
            (m[2, 1] - m[1, 2]) / s,
            0.25 * s,
            (m[0, 1] + m[1, 0]) / s,
            (m[0, 2] + m[2, 0]) / s,
        )
    elif m[1, 1] > m[2, 2]:
        s = math.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2]) * 2
        w, x, y, z = (
            (m[0, 2] - m[2, 0]) / s,
            (m[0, 1] + m[1, 0]) / s,
            0.25 * s,
            (m[1, 2] + m[2, 1]) / s,
        )
    else:
        s = math.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1]) * 2
        w, x, y, z = (
            (m[1, 0] - m[0, 1]) / s,
            (m[0, 2] + m[2, 0]) / s,
            (m[1, 2] + m[2, 1]) / s,
            0.25 * s,
        )
    if w < 0:
        x, y, z, w = -x, -y, -z, -w
    return (float(x), float(y), float(z), float(w))


def axis_angle_matrix(axis: Vec3, angle: float) -> np.ndarray:
    """Rotation matrix (3, 3) of ``angle`` rad about the unit vector ``axis`` (Rodrigues)."""
    a = np.asarray(axis, dtype=float)
    k = np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])
    return np.eye(3) + math.sin(angle) * k + (1.0 - math.cos(angle)) * (k @ k)


@dataclass(frozen=True)
class Pose:
    """A rigid transform: translation ``xyz`` (m) then rotation ``rpy`` (rad, fixed axes x-y-z).

    Used for URDF ``<origin>`` and SDFormat ``<pose>`` once resolved to its frame.
    """

    xyz: Vec3 = (0.0, 0.0, 0.0)
    rpy: Vec3 = (0.0, 0.0, 0.0)

    @property
    def is_identity(self) -> bool:
        """True when translation and rotation are exactly zero."""
        return self.xyz == (0.0, 0.0, 0.0) and self.rpy == (0.0, 0.0, 0.0)

    @property
    def rotation(self) -> np.ndarray:
        """Rotation matrix, shape (3, 3)."""
        return rpy_to_matrix(self.rpy)

    @property
    def quaternion(self) -> tuple[float, float, float, float]:
        """Rotation as a quaternion (x, y, z, w)."""
        return matrix_to_quaternion(self.rotation)

    def matrix(self) -> np.ndarray:
        """Homogeneous transform, shape (4, 4)."""
        t = np.eye(4)
        t[:3, :3] = self.rotation
        t[:3, 3] = self.xyz
        return t

    @classmethod
    def from_matrix(cls, t: np.ndarray) -> Pose:
        """Pose of a (4, 4) homogeneous transform (or (3, 4))."""
        xyz = tuple(float(v) for v in t[:3, 3])
        return cls(
            xyz=xyz,  # type: ignore[arg-type]  # (t[:3, 3]: 3 floats)
            rpy=matrix_to_rpy(np.asarray(t)[:3, :3]),
        )

    def __matmul__(self, other: Pose) -> Pose:
        """Composition ``self · other`` (apply ``other`` first, in ``self``'s frame)."""
        return Pose.from_matrix(self.matrix() @ other.matrix())

    def inverse(self) -> Pose:
        """The inverse transform."""
        return Pose.from_matrix(np.linalg.inv(self.matrix()))


IDENTITY = Pose()
