"""What a backend's sensors read: one frozen dataclass per kind of reading, in the sensor's frame
and SI units (the ROS message each becomes is in :mod:`sdf_bridge.ros.conversions`).

A backend returns them in :attr:`~sdf_bridge.backends.base.JointSpaceState.sensors` (sensor name
→ reading, :data:`SensorReading`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

import numpy as np

Quaternion = tuple[float, float, float, float]
Vector3 = tuple[float, float, float]


@dataclass(frozen=True)
class ImuReading:
    """IMU sample in the sensor's link frame: ``orientation`` quaternion (x, y, z, w) of the link
    relative to the world (``None`` if not provided), ``angular_velocity`` rad/s,
    ``linear_acceleration`` m/s² (specific force: reads +9.81 up at rest);
    ``angular_velocity_variance`` (rad/s)² and ``linear_acceleration_variance`` (m/s²)² per axis
    (the diagonal of the ROS covariance), ``None`` when unknown."""

    orientation: Quaternion | None
    angular_velocity: Vector3
    linear_acceleration: Vector3
    angular_velocity_variance: Vector3 | None = None
    linear_acceleration_variance: Vector3 | None = None


@dataclass(frozen=True)
class WrenchReading:
    """Force (N) and torque (N·m) in the sensor frame."""

    force: Vector3
    torque: Vector3


@dataclass(frozen=True)
class ScanReading:
    """Planar scan (sensor_msgs/LaserScan semantics): angles rad, ranges m (``inf`` = no hit)."""

    angle_min: float
    angle_max: float
    angle_increment: float
    range_min: float
    range_max: float
    ranges: np.ndarray
    intensities: np.ndarray | None = None
    scan_time: float = 0.0


@dataclass(frozen=True)
class PointCloudReading:
    """Multi-layer lidar: points (N, 3) in m in the sensor frame."""

    points: np.ndarray


@dataclass(frozen=True)
class ImageReading:
    """Camera image: ``data`` uint8 (height, width, 3) for ``rgb8`` or float32 (height, width)
    metres for ``32FC1`` depth; intrinsics ``fx, fy, cx, cy`` in pixels."""

    encoding: str
    data: np.ndarray
    fx: float
    fy: float
    cx: float
    cy: float


@dataclass(frozen=True)
class RangeReading:
    """Single range (sensor_msgs/Range semantics), m."""

    range: float
    min_range: float
    max_range: float
    field_of_view: float


@dataclass(frozen=True)
class Contact:
    """One contact point of a contact sensor, in the frame of its :class:`ContactReading`
    (the sensor's link unless the sensor overrides its frame).

    Attributes:
        body1: the sensor link's collision that touches (backend-specific name; MuJoCo:
            the geom name, e.g. ``box::collision::box_col``, or its body's name when unnamed).
        body2: what it touches (another link's collision, or ``ground_plane``).
        position: contact point, m, shape (3,).
        normal: unit vector, shape (3,), pointing from ``body1`` (the sensor's link) towards
            ``body2``: out of the sensor's link.
        force: force exerted by ``body2`` on ``body1`` (on the sensor's link), N, shape (3,)
            (normal and friction parts; a pushing contact has ``force · normal < 0``). A box
            of mass m resting on the ground reads contacts whose forces sum to m·g upwards.
    """

    body1: str
    body2: str
    position: Vector3
    normal: Vector3
    force: Vector3


@dataclass(frozen=True)
class ContactReading:
    """All current contacts of a contact sensor (each :class:`Contact` with ``body1`` the
    sensor link's collision); empty when nothing touches.

    Attributes:
        contacts: the contacts, in frame ``frame``.
        frame: the frame they are expressed in (the frame_id of their ROS message): the
            sensor's link, or its frame override (e.g. ``world``, as Gazebo's bumper
            ``frameName``); ``""`` = the sensor's ROS frame.
    """

    contacts: tuple[Contact, ...] = ()
    frame: str = ""


@dataclass(frozen=True)
class NavSatReading:
    """A navigation satellite fix (sensor_msgs/NavSatFix semantics): ``latitude`` and
    ``longitude`` in ° (WGS 84, or the world's surface model), ``altitude`` in m above its
    ellipsoid; ``position_variance`` (m²) east, north, up (the diagonal of the ROS covariance),
    ``None`` when unknown."""

    latitude: float
    longitude: float
    altitude: float
    position_variance: Vector3 | None = None


@dataclass(frozen=True)
class MagneticFieldReading:
    """Magnetic field in the sensor frame, T, shape (3,); ``variance`` T² per axis (the
    diagonal of the ROS covariance), ``None`` when unknown."""

    field: Vector3
    variance: Vector3 | None = None


@dataclass(frozen=True)
class FluidPressureReading:
    """Static pressure (sensor_msgs/FluidPressure semantics), Pa; ``variance`` Pa², 0 when
    unknown."""

    pressure: float
    variance: float = 0.0


#: Any one reading a backend returns for a sensor.
SensorReading = Union[
    ImuReading,
    WrenchReading,
    ScanReading,
    PointCloudReading,
    ImageReading,
    RangeReading,
    ContactReading,
    NavSatReading,
    MagneticFieldReading,
    FluidPressureReading,
]
