"""sdf_bridge.ros.conversions: messages ↔ arrays, sensor readings → messages (no DDS needed)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builtin_interfaces.msg import Duration, Time
from sensor_msgs.msg import JointState, NavSatFix, NavSatStatus, PointField, Range
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from sdf_bridge.backends.sensor_readings import (
    ContactReading,
    FluidPressureReading,
    ImageReading,
    ImuReading,
    MagneticFieldReading,
    NavSatReading,
    PointCloudReading,
    RangeReading,
    ScanReading,
    WrenchReading,
)
from sdf_bridge.errors import CommandError, TrajectoryInPastError
from sdf_bridge.ros import conversions as cv

STAMP = Time(sec=12, nanosec=500)
NAN = float("nan")


def test_time_round_trip() -> None:
    t = cv.time_msg(3.25)
    assert (t.sec, t.nanosec) == (3, 250_000_000)
    assert cv.time_to_seconds(t) == pytest.approx(3.25, abs=1e-12)
    assert cv.time_to_seconds(Duration(sec=1, nanosec=5)) == pytest.approx(1.000000005, abs=1e-15)


def test_joint_state_msg_keeps_order_values_and_nan() -> None:
    msg = cv.joint_state_msg(
        ("a", "b"), np.array([0.5, np.nan]), np.array([1.0, 2.0]), np.array([-3.0, 0.0]), STAMP
    )
    assert list(msg.name) == ["a", "b"]
    assert msg.position[0] == 0.5 and math.isnan(msg.position[1])
    assert list(msg.velocity) == [1.0, 2.0]
    assert list(msg.effort) == [-3.0, 0.0]
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (12, 500)


def test_joint_state_command_keeps_lengths() -> None:
    msg = JointState(name=["j1", "j2", "j3"], position=[0.1, 0.2, 0.3], velocity=[1.0, 2.0])
    cmd = cv.joint_state_command(msg)
    assert cmd.names == ("j1", "j2", "j3")
    np.testing.assert_array_equal(cmd.position, [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(cmd.velocity, [1.0, 2.0])
    assert cmd.effort.shape == (0,)


def test_float_array() -> None:
    np.testing.assert_array_equal(cv.float_array(Float64MultiArray(data=[1.0, -2.5])), [1.0, -2.5])


def _point(t: float, positions=(), velocities=(), accelerations=()) -> JointTrajectoryPoint:
    sec = int(t)
    return JointTrajectoryPoint(
        positions=list(positions),
        velocities=list(velocities),
        accelerations=list(accelerations),
        time_from_start=Duration(sec=sec, nanosec=int(round((t - sec) * 1e9))),
    )


def test_trajectory_command_arrays() -> None:
    msg = JointTrajectory(joint_names=["a", "b"])
    msg.points = [_point(0.5, (1.0, 2.0), (0.1, 0.2)), _point(1.5, (3.0, 4.0), (0.0, 0.0))]
    traj = cv.trajectory_command(msg)
    assert traj.names == ("a", "b")
    assert traj.start is None
    np.testing.assert_allclose(traj.times, [0.5, 1.5], atol=1e-9)
    np.testing.assert_array_equal(traj.positions, [[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(traj.velocities, [[0.1, 0.2], [0.0, 0.0]])
    assert traj.accelerations is None


def test_trajectory_command_stamp_is_start() -> None:
    msg = JointTrajectory(joint_names=["a"])
    msg.header.stamp = Time(sec=100, nanosec=250_000_000)
    msg.points = [_point(1.0, (1.0,))]
    assert cv.trajectory_command(msg).start == pytest.approx(100.25, abs=1e-9)


@pytest.mark.parametrize(("sec", "nanosec"), [(-1, 0), (-1, 999_999_999), (-(2**31), 0)])
def test_trajectory_stamped_before_time_zero_is_in_the_past(sec: int, nanosec: int) -> None:
    """A stamp with ``sec < 0`` is rejected as a trajectory in the past (it is not "start
    now", which only the zero stamp means)."""
    msg = JointTrajectory(joint_names=["a"])
    msg.header.stamp = Time(sec=sec, nanosec=nanosec)
    msg.points = [_point(1.0, (1.0,))]
    with pytest.raises(
        TrajectoryInPastError, match=rf"^trajectory stamped {sec} s {nanosec} ns, before time 0"
    ) as info:
        cv.trajectory_command(msg)
    assert info.value.reason == "trajectory_in_past"


def test_trajectory_ragged_point_is_rejected() -> None:
    msg = JointTrajectory(joint_names=["a", "b"])
    msg.points = [_point(0.5, (1.0, 2.0)), _point(1.0, (3.0,))]
    with pytest.raises(CommandError, match=r"trajectory point 1 has 1 positions for 2 joint names"):
        cv.trajectory_command(msg)


def test_imu_with_and_without_orientation() -> None:
    r = ImuReading(
        (0.0, 0.0, 0.7071067811865476, 0.7071067811865476), (0.1, 0.2, 0.3), (0.0, 0.0, 9.81)
    )
    msg = cv.imu_msg(r, STAMP, "imu_link")
    assert msg.header.frame_id == "imu_link"
    assert (msg.orientation.z, msg.orientation.w) == pytest.approx(
        (0.7071067811865476,) * 2, abs=1e-15
    )
    assert (msg.angular_velocity.x, msg.angular_velocity.y, msg.angular_velocity.z) == (
        0.1,
        0.2,
        0.3,
    )
    assert msg.linear_acceleration.z == 9.81
    assert msg.orientation_covariance[0] == 0.0
    none = cv.imu_msg(ImuReading(None, (0, 0, 0), (0, 0, 0)), STAMP, "imu_link")
    assert none.orientation_covariance[0] == -1.0  # REP-145: orientation not provided
    assert list(msg.angular_velocity_covariance) == [0.0] * 9  # variance unknown


def test_imu_variances_on_the_covariance_diagonals() -> None:
    r = ImuReading(None, (0.0, 0.0, 0.0), (0.0, 0.0, 9.81), (4e-8, 4e-8, 9e-8), None)
    msg = cv.imu_msg(r, STAMP, "imu_link")
    assert list(msg.angular_velocity_covariance) == [4e-8, 0, 0, 0, 4e-8, 0, 0, 0, 9e-8]
    assert list(msg.linear_acceleration_covariance) == [0.0] * 9  # that part unknown


def test_wrench() -> None:
    msg = cv.wrench_msg(WrenchReading((1.0, 2.0, 3.0), (-1.0, -2.0, -3.0)), STAMP, "ft_link")
    w = msg.wrench
    assert (w.force.x, w.force.y, w.force.z, w.torque.x, w.torque.y, w.torque.z) == (
        1,
        2,
        3,
        -1,
        -2,
        -3,
    )
    assert msg.header.frame_id == "ft_link"


def test_scan() -> None:
    r = ScanReading(
        -1.0, 1.0, 0.5, 0.1, 10.0, np.array([1.0, 2.0, np.inf, 4.0, 5.0]), scan_time=0.1
    )
    msg = cv.scan_msg(r, STAMP, "laser")
    assert (msg.angle_min, msg.angle_max, msg.angle_increment) == (-1.0, 1.0, 0.5)
    assert list(msg.ranges)[:2] == [1.0, 2.0] and math.isinf(msg.ranges[2])
    assert msg.time_increment == pytest.approx(0.02, abs=1e-9)
    assert list(msg.intensities) == []


def test_point_cloud_layout() -> None:
    pts = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    msg = cv.point_cloud_msg(PointCloudReading(pts), STAMP, "lidar")
    assert (msg.height, msg.width, msg.point_step, msg.row_step) == (1, 2, 12, 24)
    assert [f.name for f in msg.fields] == ["x", "y", "z"]
    assert all(f.datatype == PointField.FLOAT32 for f in msg.fields)
    np.testing.assert_array_equal(
        np.frombuffer(bytes(msg.data), dtype=np.float32).reshape(2, 3), pts
    )


def test_image_and_camera_info() -> None:
    data = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    image, info = cv.image_msgs(
        ImageReading("rgb8", data, 100.0, 110.0, 1.5, 1.0), STAMP, "cam_optical"
    )
    assert (image.height, image.width, image.step, image.encoding) == (2, 3, 9, "rgb8")
    assert bytes(image.data) == data.tobytes()
    assert list(info.k) == [100.0, 0.0, 1.5, 0.0, 110.0, 1.0, 0.0, 0.0, 1.0]
    assert list(info.p) == [100.0, 0.0, 1.5, 0.0, 0.0, 110.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    assert info.header.frame_id == image.header.frame_id == "cam_optical"
    depth, _ = cv.image_msgs(ImageReading("32FC1", np.ones((2, 2)), 1, 1, 0, 0), STAMP, "d")
    assert (depth.step, depth.encoding) == (8, "32FC1")


def test_image_bad_encoding() -> None:
    with pytest.raises(ValueError, match=r"unsupported image encoding 'bgr16'"):
        cv.image_msgs(ImageReading("bgr16", np.zeros((1, 1, 3)), 1, 1, 0, 0), STAMP, "c")


def test_range() -> None:
    msg = cv.range_msg(RangeReading(1.5, 0.02, 4.0, 0.5), STAMP, "sonar")
    assert (msg.range, msg.min_range, msg.max_range, msg.field_of_view) == (1.5, 0.02, 4.0, 0.5)
    assert msg.radiation_type == Range.ULTRASOUND
    assert (
        cv.range_msg(RangeReading(1.0, 0.0, 2.0, 0.01), STAMP, "ir").radiation_type
        == Range.INFRARED
    )


@pytest.mark.parametrize("value", [-math.inf, math.inf])
def test_range_keeps_rep117_infinities(value: float) -> None:
    """-inf: an object nearer than min_range; +inf: nothing within max_range (REP-117)."""
    assert cv.range_msg(RangeReading(value, 0.02, 4.0, 0.5), STAMP, "sonar").range == value


def test_nav_sat_fix_with_and_without_variances() -> None:
    """STATUS_FIX and SERVICE_GPS as ros_gz_bridge; the covariance diagonal (m², ENU) known when
    the reading has variances, else COVARIANCE_TYPE_UNKNOWN with zeros."""
    msg = cv.nav_sat_msg(NavSatReading(47.5, 8.25, 410.5, (4.0, 4.0, 16.0)), STAMP, "gps_link")
    assert (msg.header.frame_id, msg.header.stamp) == ("gps_link", STAMP)
    assert (msg.latitude, msg.longitude, msg.altitude) == (47.5, 8.25, 410.5)
    assert (msg.status.status, msg.status.service) == (
        NavSatStatus.STATUS_FIX,
        NavSatStatus.SERVICE_GPS,
    )
    assert list(msg.position_covariance) == [4.0, 0, 0, 0, 4.0, 0, 0, 0, 16.0]
    assert msg.position_covariance_type == NavSatFix.COVARIANCE_TYPE_DIAGONAL_KNOWN
    bare = cv.nav_sat_msg(NavSatReading(-1.0, 2.0, 3.0), STAMP, "gps_link")
    assert list(bare.position_covariance) == [0.0] * 9
    assert bare.position_covariance_type == NavSatFix.COVARIANCE_TYPE_UNKNOWN


def test_magnetic_field_in_tesla() -> None:
    msg = cv.magnetic_field_msg(MagneticFieldReading((2e-5, -1e-5, -4e-5)), STAMP, "mag")
    m = msg.magnetic_field
    assert (m.x, m.y, m.z) == (2e-5, -1e-5, -4e-5) and msg.header.frame_id == "mag"
    assert list(msg.magnetic_field_covariance) == [0.0] * 9
    noisy = cv.magnetic_field_msg(
        MagneticFieldReading((0.0, 0.0, 0.0), (1e-12, 0.0, 9e-12)), STAMP, "mag"
    )
    assert list(noisy.magnetic_field_covariance) == [1e-12, 0, 0, 0, 0.0, 0, 0, 0, 9e-12]


def test_fluid_pressure_in_pascal() -> None:
    msg = cv.fluid_pressure_msg(FluidPressureReading(89876.25, 0.25), STAMP, "baro")
    assert (msg.fluid_pressure, msg.variance, msg.header.frame_id) == (89876.25, 0.25, "baro")


def test_sensor_messages_dispatch() -> None:
    assert list(cv.sensor_messages(WrenchReading((0, 0, 0), (0, 0, 0)), STAMP, "f")) == [""]
    cam = cv.sensor_messages(ImageReading("rgb8", np.zeros((1, 1, 3)), 1, 1, 0, 0), STAMP, "c")
    assert sorted(cam) == ["camera_info", "image_raw"]
    contact = cv.sensor_messages(ContactReading(), STAMP, "c")
    assert list(contact) == [""] and contact[""].width == 0
    for reading, kind in (
        (NavSatReading(1.0, 2.0, 3.0), "NavSatFix"),
        (MagneticFieldReading((0.0, 0.0, 0.0)), "MagneticField"),
        (FluidPressureReading(1.0), "FluidPressure"),
    ):
        messages = cv.sensor_messages(reading, STAMP, "s")
        assert list(messages) == [""] and type(messages[""]).__name__ == kind


def test_joint_state_writer_reuses_one_message() -> None:
    writer = cv.JointStateWriter(("a", "b"), frame_id="base")
    first = writer.fill(np.array([1.0, 2.0]), np.array([0.0, -1.0]), np.array([np.nan, 3.0]), STAMP)
    assert list(first.name) == ["a", "b"] and first.header.frame_id == "base"
    assert list(first.position) == [1.0, 2.0] and list(first.velocity) == [0.0, -1.0]
    assert math.isnan(first.effort[0]) and first.effort[1] == 3.0
    second = writer.fill(np.array([5.0, 6.0]), np.zeros(2), np.zeros(2), Time(sec=13))
    assert second is first
    assert list(second.position) == [5.0, 6.0] and second.header.stamp.sec == 13


@pytest.mark.parametrize(
    "names, frame_id",
    [((), ""), (("a",), "base"), (("a", "bé", "c" * 33), "frame_xyz"), (("j",) * 100, "")],
)
def test_joint_state_writer_serialized_reads_back_as_fill(names, frame_id) -> None:
    """The pre-serialised message is read by rclpy as the message fill() builds: names, frame,
    stamp (negative seconds too) and every array value bit for bit (NaN, inf, -0.0)."""
    from rclpy.serialization import deserialize_message

    writer = cv.JointStateWriter(names, frame_id=frame_id)
    rng = np.random.default_rng(len(names))
    for stamp in (STAMP, Time(sec=-5, nanosec=999_999_999)):
        p, v, e = (rng.normal(size=len(names)) for _ in range(3))
        if names:
            p[0], v[-1], e[0] = np.inf, -0.0, np.nan
        got = deserialize_message(writer.serialized(p, v, e, stamp), JointState)
        assert list(got.name) == list(names) and got.header.frame_id == frame_id
        assert (got.header.stamp.sec, got.header.stamp.nanosec) == (stamp.sec, stamp.nanosec)
        for field, want in (("position", p), ("velocity", v), ("effort", e)):
            assert np.array(getattr(got, field), dtype=float).tobytes() == want.tobytes()
    assert list(writer.msg.position) == []  # the message object is not touched
    ints = np.arange(len(names))  # integer input converted as fill() does
    got = deserialize_message(writer.serialized(ints, ints, ints, STAMP), JointState)
    assert list(got.effort) == [float(i) for i in ints]


def test_joint_state_writer_serialized_rejects_wrong_lengths() -> None:
    writer = cv.JointStateWriter(("a", "b"))
    with pytest.raises(ValueError, match="could not broadcast"):
        writer.serialized(np.zeros(3), np.zeros(2), np.zeros(2), STAMP)


def test_joint_state_writer_serialized_falls_back_when_layout_unconfirmed(
    monkeypatch, caplog
) -> None:
    """A middleware that read the pre-serialised layout otherwise (simulated: its check reads
    back other names) gets every message serialised by rclpy instead, with one warning."""
    import rclpy.serialization as ser

    real = ser.deserialize_message
    monkeypatch.setattr(ser, "deserialize_message", lambda data, kind: JointState(name=["x"]))
    writer = cv.JointStateWriter(("a", "b"), frame_id="base")
    with caplog.at_level("WARNING"):
        data = writer.serialized(np.array([1.0, 2.0]), np.zeros(2), np.array([NAN, 3.0]), STAMP)
    assert "serialising every message with rclpy instead" in caplog.text
    got = real(data, JointState)
    assert list(got.name) == ["a", "b"] and got.header.frame_id == "base"
    assert list(got.position) == [1.0, 2.0] and got.header.stamp.sec == 12
    assert math.isnan(got.effort[0]) and got.effort[1] == 3.0
    assert list(writer.msg.position) == []  # the writer's message untouched


def test_float64_array_accepts_integer_input() -> None:
    arr = cv.float64_array(np.array([1, 2, 3]))
    assert arr.typecode == "d" and list(arr) == [1.0, 2.0, 3.0]
