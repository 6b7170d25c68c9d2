"""Sensors: URDF ``<sensor>``, Gazebo ``<gazebo><sensor>`` and SDFormat ``<sensor>``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .pose import IDENTITY, Pose
from .source import Source


@dataclass(frozen=True)
class Noise:
    """SDFormat ``<noise>``: ``type`` is ``"none"``, ``"gaussian"`` or ``"gaussian_quantized"``;
    ``mean``/``stddev``/``bias_mean``/``bias_stddev`` in the quantity's unit."""

    type: str = "none"
    mean: float = 0.0
    stddev: float = 0.0
    bias_mean: float = 0.0
    bias_stddev: float = 0.0
    precision: float = 0.0


@dataclass(frozen=True)
class CameraParams:
    """Camera: ``horizontal_fov`` rad, image ``width``×``height`` px, pixel ``format``
    (e.g. ``"R8G8B8"``), clip ``near``/``far`` in m; ``depth`` for depth cameras."""

    horizontal_fov: float = 1.047
    width: int = 320
    height: int = 240
    format: str = "R8G8B8"
    near: float = 0.1
    far: float = 100.0
    depth: bool = False
    noise: Noise | None = None


@dataclass(frozen=True)
class RayParams:
    """Ray / lidar scan: samples and angles (rad) per direction, range in m.

    ``vertical_samples`` == 1 means a planar scan (LaserScan); more means a point cloud.
    """

    horizontal_samples: int = 640
    horizontal_resolution: float = 1.0
    horizontal_min_angle: float = 0.0
    horizontal_max_angle: float = 0.0
    vertical_samples: int = 1
    vertical_resolution: float = 1.0
    vertical_min_angle: float = 0.0
    vertical_max_angle: float = 0.0
    range_min: float = 0.0
    range_max: float = 0.0
    range_resolution: float = 0.0
    noise: Noise | None = None


@dataclass(frozen=True)
class ImuParams:
    """IMU noise per quantity (each (x, y, z) or ``None``): angular velocity (rad/s),
    linear acceleration (m/s²)."""

    angular_velocity_noise: tuple[Noise, Noise, Noise] | None = None
    linear_acceleration_noise: tuple[Noise, Noise, Noise] | None = None
    orientation_reference_frame: str | None = None


@dataclass(frozen=True)
class ForceTorqueParams:
    """Force-torque: ``frame`` ∈ {``child``, ``parent``, ``sensor``}; ``measure_direction`` ∈
    {``child_to_parent``, ``parent_to_child``} (SDFormat defaults)."""

    frame: str = "child"
    measure_direction: str = "child_to_parent"


@dataclass(frozen=True)
class ContactParams:
    """Contact sensor: the ``collision`` element names it watches."""

    collisions: tuple[str, ...] = ()


@dataclass(frozen=True)
class GpsParams:
    """GPS / NavSat: position noise (m) horizontal and vertical."""

    horizontal_position_noise: Noise | None = None
    vertical_position_noise: Noise | None = None


@dataclass(frozen=True)
class MagnetometerParams:
    """Magnetometer: noise per axis (x, y, z) of the sensor frame, in tesla, or ``None``."""

    noise: tuple[Noise, Noise, Noise] | None = None


@dataclass(frozen=True)
class AirPressureParams:
    """Air pressure: ``reference_altitude`` (m, the altitude of the world origin the pressure
    model adds the sensor's height to; SDFormat default 0) and the pressure noise (Pa)."""

    reference_altitude: float = 0.0
    pressure_noise: Noise | None = None


SensorParams = Union[
    CameraParams,
    RayParams,
    ImuParams,
    ForceTorqueParams,
    ContactParams,
    GpsParams,
    MagnetometerParams,
    AirPressureParams,
    None,
]


@dataclass(frozen=True)
class Sensor:
    """A sensor attached to a link (or, for force-torque in SDFormat, to a joint).

    Attributes:
        name: sensor name (unique within the robot).
        type: normalised kind: ``camera``, ``depth``, ``ray`` (also gpu_ray, lidar, gpu_lidar),
            ``imu``, ``force_torque``, ``contact``, ``gps`` (also navsat), ``altimeter``,
            ``magnetometer``, ``air_pressure``, ``air_speed``, ``range`` or the raw type for
            others.
        raw_type: the type as written (``gpu_ray``, ``gpu_lidar``, ``depth_camera``, …).
        link: the link it is attached to (``frame_id`` on the ROS side), or ``None`` for a joint
            sensor; ``joint`` the joint for SDF joint sensors.
        pose: sensor frame in the link (or joint) frame.
        update_rate: Hz (0 = as fast as possible / unspecified).
        topic: topic as written, or ``None``.
        frame_id: explicit frame override (``<frame_id>``, ``<gz_frame_id>``, plugin
            ``frameName``/``frame_name``), else ``None`` (then ``link`` is the frame).
        always_on, visualize: as written.
        params: typed parameters for the kind, or ``None``.
        plugins: raw XML of ``<plugin>`` children.
        plugin_topics: (message suffix, topic) pairs its Gazebo ROS plug-in names
            (:mod:`sdf_bridge.description.sensors.plugin_topics`: ``""`` the one message,
            ``image_raw`` / ``camera_info`` a camera's), ``()`` when none does.
        origin_format: ``"urdf"`` (top-level ``<sensor>``), ``"gazebo"`` or ``"sdf"``.
    """

    name: str
    type: str
    link: str | None
    raw_type: str = ""
    joint: str | None = None
    pose: Pose = IDENTITY
    update_rate: float = 0.0
    topic: str | None = None
    frame_id: str | None = None
    always_on: bool = False
    visualize: bool = False
    params: SensorParams = None
    plugins: tuple[str, ...] = ()
    plugin_topics: tuple[tuple[str, str], ...] = ()
    origin_format: str = "sdf"
    source: Source | None = None

    @property
    def ros_frame_id(self) -> str:
        """The frame_id ROS messages of this sensor carry: the override, else the link name."""
        return self.frame_id or self.link or self.joint or self.name
