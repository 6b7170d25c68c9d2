"""Message ↔ array conversions for the bridge node (the only place that knows message layouts
besides :mod:`sdf_bridge.ros.node`).

Inbound conversions turn ROS messages into plain numpy arrays for
:class:`sdf_bridge.hardware.HardwareSystem` (which applies the validation rules, e.g.
"empty array = not provided"); they only reject what cannot be represented as arrays at all
(ragged trajectory points) with :class:`~sdf_bridge.errors.CommandError`.

Outbound conversions build ``sensor_msgs/JointState`` and the sensor messages from readings of
:mod:`sdf_bridge.backends.base`. All values are SI (REP-103); stamps are
``builtin_interfaces/Time``.

Sensor readings → messages (:func:`sensor_messages`):

=================  ==============================================================================
reading            message(s)
=================  ==============================================================================
ImuReading         ``sensor_msgs/Imu``
WrenchReading      ``geometry_msgs/WrenchStamped``
ScanReading        ``sensor_msgs/LaserScan``
PointCloudReading  ``sensor_msgs/PointCloud2`` (x, y, z)
ImageReading       ``sensor_msgs/Image`` + ``CameraInfo``
RangeReading       ``sensor_msgs/Range``
ContactReading     ``sensor_msgs/PointCloud2``, one point per contact (:func:`contact_msg`): the
                   ROS contact messages (gazebo_msgs/ContactsState, ros_gz_interfaces/Contacts)
                   are not installable from PyPI; the collision names stay in the reading
NavSatReading      ``sensor_msgs/NavSatFix`` (:func:`nav_sat_msg`)
MagneticField…     ``sensor_msgs/MagneticField`` (T)
FluidPressure…     ``sensor_msgs/FluidPressure`` (Pa)
=================  ==============================================================================

Any other reading raises :class:`~sdf_bridge.errors.BackendError` (never silently no message).
"""

from __future__ import annotations

import array
import logging
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from builtin_interfaces.msg import Duration, Time
from geometry_msgs.msg import WrenchStamped
from sensor_msgs.msg import (
    CameraInfo,
    FluidPressure,
    Image,
    Imu,
    JointState,
    LaserScan,
    MagneticField,
    NavSatFix,
    NavSatStatus,
    PointCloud2,
    PointField,
    Range,
)
from std_msgs.msg import Float64MultiArray, Header
from trajectory_msgs.msg import JointTrajectory

from ..backends.sensor_readings import (
    ContactReading,
    FluidPressureReading,
    ImageReading,
    ImuReading,
    MagneticFieldReading,
    NavSatReading,
    PointCloudReading,
    RangeReading,
    ScanReading,
    SensorReading,
    WrenchReading,
)
from ..errors import BackendError, CommandError, TrajectoryInPastError

_NS = 1_000_000_000

_LOG = logging.getLogger(__name__)


def time_msg(seconds: float) -> Time:
    """``builtin_interfaces/Time`` for ``seconds`` ≥ 0 (nanosecond rounding)."""
    ns = int(round(seconds * _NS))
    return Time(sec=ns // _NS, nanosec=ns % _NS)


def time_to_seconds(stamp: Time | Duration) -> float:
    """Seconds of a ``Time`` or ``Duration`` message."""
    return stamp.sec + stamp.nanosec * 1e-9


def joint_state_msg(
    names: Sequence[str],
    position: np.ndarray,
    velocity: np.ndarray,
    effort: np.ndarray,
    stamp: Time,
    frame_id: str = "",
) -> JointState:
    """A ``sensor_msgs/JointState`` with all three arrays (shape ``(len(names),)``, rad or m,
    rad/s or m/s, N·m or N). NaN values are published as NaN (unknown state)."""
    msg = JointState()
    msg.header.stamp = stamp
    msg.header.frame_id = frame_id
    msg.name = list(names)
    msg.position = np.asarray(position, dtype=float).tolist()
    msg.velocity = np.asarray(velocity, dtype=float).tolist()
    msg.effort = np.asarray(effort, dtype=float).tolist()
    return msg


def float64_array(values: np.ndarray) -> array.array:
    """``array.array('d')`` of ``values`` (shape (n,)): the form rosidl message fields take
    without checking every element (much faster than a list for float64[] fields)."""
    return array.array("d", np.ascontiguousarray(values, dtype=np.float64).tobytes())


class JointStateWriter:
    """Builds ``sensor_msgs/JointState`` messages for fixed ``names`` in the control loop: one
    message object, reused (rclpy serialises on publish), names set once, arrays copied in as
    ``array.array`` (no per-element checks) — :meth:`fill`; or the message already serialised,
    for ``Publisher.publish`` of bytes — :meth:`serialized`: the names are serialised once, each
    call writes only the stamp and the three arrays into that buffer (instead of serialising
    the whole message, mostly the names, on every publish: doc/dev/rationale.md)."""

    def __init__(self, names: Sequence[str], frame_id: str = "") -> None:
        self.msg = JointState()
        self.msg.name = list(names)
        self.msg.header.frame_id = frame_id
        #: (buffer, stamp format, three float64 views of the arrays in it): made by the first
        #: :meth:`serialized` (``()``: the layout was not confirmed)
        self._cdr: tuple[bytearray, str, tuple[np.ndarray, ...]] | tuple[()] | None = None

    def fill(
        self, position: np.ndarray, velocity: np.ndarray, effort: np.ndarray, stamp: Time
    ) -> JointState:
        """The message with these arrays (shape ``(len(names),)``, SI) and ``stamp``."""
        msg = self.msg
        msg.header.stamp = stamp
        msg.position = float64_array(position)
        msg.velocity = float64_array(velocity)
        msg.effort = float64_array(effort)
        return msg

    def serialized(
        self, position: np.ndarray, velocity: np.ndarray, effort: np.ndarray, stamp: Time
    ) -> bytes:
        """:meth:`fill`'s message serialised (rclpy deserialises it to that message;
        ``Publisher.publish`` sends bytes as they are); ``msg`` is not changed. Should the
        middleware read the layout otherwise (``_layout``'s check, never seen), the message
        is serialised by rclpy on every call instead.

        Raises:
            ValueError: an array of another length than the names.
            struct.error: a stamp out of the range of ``builtin_interfaces/Time``.
        """
        if self._cdr is None:
            self._cdr = self._layout()
        if not self._cdr:  # the layout was not confirmed: rclpy's serialisation
            from rclpy.serialization import serialize_message

            fallback = JointStateWriter(self.msg.name, self.msg.header.frame_id)
            return serialize_message(fallback.fill(position, velocity, effort, stamp))
        buf, stamp_format, rows = self._cdr
        struct.pack_into(stamp_format, buf, 4, stamp.sec, stamp.nanosec)
        rows[0][:] = position
        rows[1][:] = velocity
        rows[2][:] = effort
        return bytes(buf)

    def _layout(self) -> tuple[bytearray, str, tuple[np.ndarray, ...]] | tuple[()]:
        """The serialised message with the names, padding zeroed, and writable views of its
        three ``float64`` arrays. Encoding: plain CDR, little-endian (encapsulation header
        ``00 01 00 00``, then the fields, each primitive aligned to its size from the end of
        that header: stamp ``int32`` sec and ``uint32`` nanosec, ``frame_id`` and each name a
        ``uint32`` length with the NUL then the bytes, each sequence a ``uint32`` count then its
        elements). Checked once against rclpy's own deserialiser (names, frame id, and values
        written through the views); ``()`` when the middleware reads it otherwise (never
        seen: the layout is the standard's).
        """
        from rclpy.serialization import deserialize_message

        body = bytearray(8)  # stamp, written per call

        def pad(size: int) -> None:
            body.extend(bytes(-len(body) % size))

        def text(value: str) -> None:
            raw = value.encode() + b"\0"
            pad(4)
            body.extend(struct.pack("<I", len(raw)))
            body.extend(raw)

        text(self.msg.header.frame_id)
        names = list(self.msg.name)
        pad(4)
        body.extend(struct.pack("<I", len(names)))
        for name in names:
            text(name)
        n, offsets = len(names), []
        for _ in range(3):
            pad(4)
            body.extend(struct.pack("<I", n))
            pad(8)
            offsets.append(4 + len(body))
            body.extend(bytes(8 * n))
        buf = bytearray(b"\x00\x01\x00\x00") + body
        rows = tuple(np.frombuffer(buf, dtype="<f8", count=n, offset=at) for at in offsets)
        for k, row in enumerate(rows):  # distinct values, read back by rclpy
            row[:] = np.arange(n) + 0.5 + k * n
        check = deserialize_message(bytes(buf), JointState)
        if (
            list(check.name) != names
            or check.header.frame_id != self.msg.header.frame_id
            or [list(check.position), list(check.velocity), list(check.effort)]
            != [row.tolist() for row in rows]
        ):
            _LOG.warning(
                "sensor_msgs/JointState is not laid out as expected by this middleware: "
                "serialising every message with rclpy instead (slower)"
            )
            return ()
        return buf, "<iI", rows


@dataclass(frozen=True)
class JointStateCommand:
    """A ``JointState`` used as command (topic_based_ros2_control contract): ``names`` and the
    three arrays exactly as received (any length; empty = not provided)."""

    names: tuple[str, ...]
    position: np.ndarray
    velocity: np.ndarray
    effort: np.ndarray


def joint_state_command(msg: JointState) -> JointStateCommand:
    """Arrays of a received ``JointState`` command, lengths untouched (validation is the
    hardware layer's job, :mod:`sdf_bridge.hardware.commands`)."""
    return JointStateCommand(
        names=tuple(msg.name),
        position=np.asarray(msg.position, dtype=float),
        velocity=np.asarray(msg.velocity, dtype=float),
        effort=np.asarray(msg.effort, dtype=float),
    )


def float_array(msg: Float64MultiArray) -> np.ndarray:
    """The ``data`` of a ``std_msgs/Float64MultiArray`` as a float array, shape ``(len(data),)``
    (the layout field is ignored, as forward_command_controller does)."""
    return np.asarray(msg.data, dtype=float)


@dataclass(frozen=True)
class TrajectoryCommand:
    """A ``JointTrajectory`` as arrays.

    Attributes:
        names: joint names, ``(n_joints,)``.
        start: header stamp in s (> 0), or ``None`` when zero (= start on arrival).
        times: ``time_from_start`` of each point, s, shape ``(n_points,)``.
        positions, velocities, accelerations: shape ``(n_points, n_joints)``, or ``None`` when
            every point leaves that field empty.
    """

    names: tuple[str, ...]
    start: float | None
    times: np.ndarray
    positions: np.ndarray | None
    velocities: np.ndarray | None
    accelerations: np.ndarray | None


def trajectory_start(sec: int, nanosec: int) -> float | None:
    """The start of a trajectory stamped ``sec`` s ``nanosec`` ns: ``None`` for the zero stamp
    ("start on arrival"), else the stamp in s.

    Raises:
        TrajectoryInPastError: ``sec < 0``: it started, and ended, before any time a clock can
            show.
    """
    if sec < 0:
        raise TrajectoryInPastError(
            f"trajectory stamped {sec} s {nanosec} ns, before time 0. Fix: stamp it 0 to start "
            "on arrival, or with a time of the bridge's clock."
        )
    start = sec + nanosec * 1e-9
    return start if start > 0.0 else None


def points_field_present(lengths: Sequence[int] | np.ndarray, field: str, n_joints: int) -> bool:
    """Whether the points carry ``field`` (``positions``, ...), given its length in each point:
    ``False`` when every point leaves it empty (or there are no points), ``True`` when every
    point has ``n_joints`` values.

    Raises:
        CommandError: some point has another number of values.
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    if lengths.size == 0 or not lengths.any():
        return False
    bad = np.flatnonzero(lengths != n_joints)
    if bad.size:
        i = int(bad[0])
        raise CommandError(
            f"trajectory point {i} has {int(lengths[i])} {field} for {n_joints} joint names. "
            f"Fix: give every point either no {field} or exactly one per joint name."
        )
    return True


def _points_field(msg: JointTrajectory, field: str, n_joints: int) -> np.ndarray | None:
    rows = [getattr(p, field) for p in msg.points]
    if not points_field_present([len(r) for r in rows], field, n_joints):
        return None
    return np.asarray([list(r) for r in rows], dtype=float).reshape(len(rows), n_joints)


def trajectory_command(msg: JointTrajectory) -> TrajectoryCommand:
    """Arrays of a ``trajectory_msgs/JointTrajectory``.

    Raises:
        TrajectoryInPastError: the header stamp is before time 0 (``sec < 0``): it started, and
            ended, before any time a clock can show (a zero stamp means "start on arrival").
        CommandError: a point has a field whose length is neither 0 nor ``len(joint_names)``.
    """
    names = tuple(msg.joint_names)
    start = trajectory_start(msg.header.stamp.sec, msg.header.stamp.nanosec)
    times = np.asarray([time_to_seconds(p.time_from_start) for p in msg.points], dtype=float)
    return TrajectoryCommand(
        names=names,
        start=start,
        times=times,
        positions=_points_field(msg, "positions", len(names)),
        velocities=_points_field(msg, "velocities", len(names)),
        accelerations=_points_field(msg, "accelerations", len(names)),
    )


# --------------------------------------------------------------------------- sensors → messages


def _header(stamp: Time, frame_id: str) -> Header:
    return Header(stamp=stamp, frame_id=frame_id)


def imu_msg(reading: ImuReading, stamp: Time, frame_id: str) -> Imu:
    """``sensor_msgs/Imu``; without orientation, ``orientation_covariance[0] = -1`` (REP-145);
    the reading's per-axis variances on the diagonals of the angular velocity and linear
    acceleration covariances (row-major 3 × 3; all zeros when unknown, REP-145)."""
    msg = Imu(header=_header(stamp, frame_id))
    if reading.orientation is None:
        msg.orientation_covariance[0] = -1.0
    else:
        x, y, z, w = (float(v) for v in reading.orientation)
        msg.orientation.x, msg.orientation.y, msg.orientation.z, msg.orientation.w = x, y, z, w
    av, la = reading.angular_velocity, reading.linear_acceleration
    msg.angular_velocity.x, msg.angular_velocity.y, msg.angular_velocity.z = (float(v) for v in av)
    msg.linear_acceleration.x, msg.linear_acceleration.y, msg.linear_acceleration.z = (
        float(v) for v in la
    )
    for variance, covariance in (
        (reading.angular_velocity_variance, msg.angular_velocity_covariance),
        (reading.linear_acceleration_variance, msg.linear_acceleration_covariance),
    ):
        if variance is not None:
            covariance[0], covariance[4], covariance[8] = (float(v) for v in variance)
    return msg


def wrench_msg(reading: WrenchReading, stamp: Time, frame_id: str) -> WrenchStamped:
    """``geometry_msgs/WrenchStamped``: force N, torque N·m."""
    msg = WrenchStamped(header=_header(stamp, frame_id))
    f, t = msg.wrench.force, msg.wrench.torque
    f.x, f.y, f.z = (float(v) for v in reading.force)
    t.x, t.y, t.z = (float(v) for v in reading.torque)
    return msg


def scan_msg(reading: ScanReading, stamp: Time, frame_id: str) -> LaserScan:
    """``sensor_msgs/LaserScan`` (angles rad, ranges m)."""
    msg = LaserScan(header=_header(stamp, frame_id))
    msg.angle_min = float(reading.angle_min)
    msg.angle_max = float(reading.angle_max)
    msg.angle_increment = float(reading.angle_increment)
    msg.range_min = float(reading.range_min)
    msg.range_max = float(reading.range_max)
    msg.scan_time = float(reading.scan_time)
    n = len(reading.ranges)
    msg.time_increment = float(reading.scan_time) / n if n else 0.0
    msg.ranges = np.asarray(reading.ranges, dtype=np.float32).tolist()
    if reading.intensities is not None:
        msg.intensities = np.asarray(reading.intensities, dtype=np.float32).tolist()
    return msg


def point_cloud_msg(reading: PointCloudReading, stamp: Time, frame_id: str) -> PointCloud2:
    """Unorganised ``sensor_msgs/PointCloud2`` with float32 fields x, y, z (m)."""
    points = np.asarray(reading.points, dtype=np.float32).reshape(-1, 3)
    msg = PointCloud2(header=_header(stamp, frame_id))
    msg.height = 1
    msg.width = points.shape[0]
    msg.fields = [
        PointField(name=axis, offset=4 * i, datatype=PointField.FLOAT32, count=1)
        for i, axis in enumerate("xyz")
    ]
    msg.is_bigendian = False
    msg.point_step = 12
    msg.row_step = 12 * points.shape[0]
    msg.is_dense = bool(np.all(np.isfinite(points)))
    msg.data = points.tobytes()
    return msg


CONTACT_FIELDS = (
    "x",
    "y",
    "z",
    "normal_x",
    "normal_y",
    "normal_z",
    "force_x",
    "force_y",
    "force_z",
)
"""The float32 fields of a contact point cloud (:func:`contact_msg`), in this order, 4 bytes
each."""


def contact_msg(
    reading: ContactReading, stamp: Time, frame_id: str, frame_prefix: str = ""
) -> PointCloud2:
    """Unorganised ``sensor_msgs/PointCloud2`` of a contact sensor, one point per contact.

    Fields (:data:`CONTACT_FIELDS`, FLOAT32, packed at offsets 0, 4, …, 32, little-endian,
    ``point_step`` 36): ``x y z`` contact position (m), ``normal_x normal_y normal_z`` unit normal
    out of the sensor's link, ``force_x force_y force_z`` force on the sensor's link (N), all in the
    reading's frame (:attr:`ContactReading.frame
    <sdf_bridge.backends.sensor_readings.ContactReading>`: the sensor's link, or its frame override
    such as ``world``), which is the header's ``frame_id`` after ``frame_prefix`` (``frame_id`` as
    given when the reading names none).
    ``height`` 1, ``width`` = number of contacts (0 when nothing touches); ``is_dense`` is true
    when every value is finite. The collision names (``body1``, ``body2``) are not in the
    message (PointCloud2 carries numbers); they are in the backend's reading.
    """
    values = np.array(
        [(*c.position, *c.normal, *c.force) for c in reading.contacts], dtype="<f4"
    ).reshape(-1, len(CONTACT_FIELDS))
    msg = PointCloud2(
        header=_header(stamp, frame_prefix + reading.frame if reading.frame else frame_id)
    )
    msg.height = 1
    msg.width = values.shape[0]
    msg.fields = [
        PointField(name=name, offset=4 * i, datatype=PointField.FLOAT32, count=1)
        for i, name in enumerate(CONTACT_FIELDS)
    ]
    msg.is_bigendian = False
    msg.point_step = 4 * len(CONTACT_FIELDS)
    msg.row_step = msg.point_step * values.shape[0]
    msg.is_dense = bool(np.all(np.isfinite(values)))
    msg.data = values.tobytes()
    return msg


def image_msgs(reading: ImageReading, stamp: Time, frame_id: str) -> tuple[Image, CameraInfo]:
    """``sensor_msgs/Image`` + ``CameraInfo`` (pinhole, no distortion: K from fx, fy, cx, cy,
    P = [K | 0], R = I). ``frame_id`` should be the optical frame (z forward, x right, y down).

    Raises:
        ValueError: ``reading.encoding`` is not ``rgb8`` or ``32FC1``.
    """
    data = np.ascontiguousarray(reading.data)
    if reading.encoding == "rgb8":
        data = data.astype(np.uint8, copy=False)
        channels, size = 3, 1
    elif reading.encoding == "32FC1":
        data = data.astype(np.float32, copy=False)
        channels, size = 1, 4
    else:
        raise ValueError(f"unsupported image encoding {reading.encoding!r} (rgb8 or 32FC1)")
    height, width = int(data.shape[0]), int(data.shape[1])
    image = Image(header=_header(stamp, frame_id))
    image.height, image.width = height, width
    image.encoding = reading.encoding
    image.is_bigendian = 0
    image.step = width * channels * size
    image.data = data.tobytes()
    info = CameraInfo(header=_header(stamp, frame_id))
    info.height, info.width = height, width
    info.distortion_model = "plumb_bob"
    info.d = [0.0] * 5
    fx, fy, cx, cy = (float(v) for v in (reading.fx, reading.fy, reading.cx, reading.cy))
    info.k = [fx, 0.0, cx, 0.0, fy, cy, 0.0, 0.0, 1.0]
    info.r = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    info.p = [fx, 0.0, cx, 0.0, 0.0, fy, cy, 0.0, 0.0, 0.0, 1.0, 0.0]
    return image, info


def range_msg(reading: RangeReading, stamp: Time, frame_id: str) -> Range:
    """``sensor_msgs/Range`` (m, rad); radiation type ULTRASOUND unless the FOV is below 0.05 rad
    (then INFRARED, a narrow beam). ``range`` as read, ``-inf`` (too close) and ``+inf`` (nothing
    within range) included (REP-117)."""
    msg = Range(header=_header(stamp, frame_id))
    msg.radiation_type = Range.INFRARED if reading.field_of_view < 0.05 else Range.ULTRASOUND
    msg.field_of_view = float(reading.field_of_view)
    msg.min_range = float(reading.min_range)
    msg.max_range = float(reading.max_range)
    msg.range = float(reading.range)
    return msg


def nav_sat_msg(reading: NavSatReading, stamp: Time, frame_id: str) -> NavSatFix:
    """``sensor_msgs/NavSatFix``: latitude and longitude in °, altitude in m; status
    ``STATUS_FIX``, service ``SERVICE_GPS`` (as ros_gz_bridge's conversion of gz.msgs.NavSat);
    the reading's variances (m², east, north, up) on the covariance diagonal with
    ``COVARIANCE_TYPE_DIAGONAL_KNOWN``, else ``COVARIANCE_TYPE_UNKNOWN`` (all zeros)."""
    msg = NavSatFix(header=_header(stamp, frame_id))
    msg.status.status = NavSatStatus.STATUS_FIX
    msg.status.service = NavSatStatus.SERVICE_GPS
    msg.latitude = float(reading.latitude)
    msg.longitude = float(reading.longitude)
    msg.altitude = float(reading.altitude)
    if reading.position_variance is None:
        msg.position_covariance_type = NavSatFix.COVARIANCE_TYPE_UNKNOWN
    else:
        cov = msg.position_covariance
        cov[0], cov[4], cov[8] = (float(v) for v in reading.position_variance)
        msg.position_covariance_type = NavSatFix.COVARIANCE_TYPE_DIAGONAL_KNOWN
    return msg


def magnetic_field_msg(reading: MagneticFieldReading, stamp: Time, frame_id: str) -> MagneticField:
    """``sensor_msgs/MagneticField`` in T in the sensor frame; the per-axis variances (T²) on
    the covariance diagonal, all zeros when unknown (the message's convention)."""
    msg = MagneticField(header=_header(stamp, frame_id))
    m = msg.magnetic_field
    m.x, m.y, m.z = (float(v) for v in reading.field)
    if reading.variance is not None:
        cov = msg.magnetic_field_covariance
        cov[0], cov[4], cov[8] = (float(v) for v in reading.variance)
    return msg


def fluid_pressure_msg(reading: FluidPressureReading, stamp: Time, frame_id: str) -> FluidPressure:
    """``sensor_msgs/FluidPressure``: pressure in Pa, variance in Pa² (0: unknown)."""
    return FluidPressure(
        header=_header(stamp, frame_id),
        fluid_pressure=float(reading.pressure),
        variance=float(reading.variance),
    )


#: The readings converted to one message each, by type (:func:`sensor_messages`).
_ONE_MESSAGE: dict[type, Callable[[Any, Time, str], object]] = {
    ImuReading: imu_msg,
    WrenchReading: wrench_msg,
    ScanReading: scan_msg,
    PointCloudReading: point_cloud_msg,
    RangeReading: range_msg,
    NavSatReading: nav_sat_msg,
    MagneticFieldReading: magnetic_field_msg,
    FluidPressureReading: fluid_pressure_msg,
}


def sensor_messages(
    reading: SensorReading, stamp: Time, frame_id: str, frame_prefix: str = ""
) -> dict[str, object]:
    """Messages for one sensor reading, keyed by topic suffix: ``""`` for the main message;
    cameras give ``"image_raw"`` and ``"camera_info"``; contacts a ``PointCloud2``
    (:func:`contact_msg`). See the module docstring for the table. ``frame_id`` is used as
    given; ``frame_prefix`` (the bridge's parameter) is prepended to a frame the reading names
    itself (a contact sensor's frame override).

    Raises:
        BackendError: ``reading`` is of a type with no conversion (a backend returned a reading
            that is not one of :data:`sdf_bridge.backends.sensor_readings.SensorReading`).
    """
    convert = _ONE_MESSAGE.get(type(reading))
    if convert is not None:
        return {"": convert(reading, stamp, frame_id)}
    if isinstance(reading, ImageReading):
        image, info = image_msgs(reading, stamp, frame_id)
        return {"image_raw": image, "camera_info": info}
    if isinstance(reading, ContactReading):
        return {"": contact_msg(reading, stamp, frame_id, frame_prefix)}
    known = ", ".join(kind.__name__ for kind in (*_ONE_MESSAGE, ImageReading, ContactReading))
    raise BackendError(
        f"no ROS message for a sensor reading of type {type(reading).__name__!r} (frame "
        f"{frame_id!r}); readings the bridge publishes: {known} "
        "(sdf_bridge.backends.base). Fix: make the backend return one of these"
    )
