"""sdf_bridge.ros.conversions: contact readings → sensor_msgs/PointCloud2 (layout, values, empty),
and readings with no message rejected (no DDS needed)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from builtin_interfaces.msg import Time
from sensor_msgs.msg import PointCloud2, PointField

from sdf_bridge.backends.sensor_readings import Contact, ContactReading
from sdf_bridge.errors import BackendError
from sdf_bridge.ros import conversions as cv

STAMP = Time(sec=7, nanosec=250)
NAMES = ["x", "y", "z", "normal_x", "normal_y", "normal_z", "force_x", "force_y", "force_z"]

TWO = ContactReading(
    (
        Contact(
            "box::collision::c",
            "ground_plane",
            (0.1, -0.1, -0.1),
            (0.0, 0.0, -1.0),
            (0.25, -0.5, 4.905),
        ),
        Contact(
            "box::collision::c",
            "ground_plane",
            (-0.1, 0.1, -0.1),
            (0.0, 0.6, -0.8),
            (0.0, 1e-3, 19.62),
        ),
    )
)


def _decode(msg: PointCloud2) -> np.ndarray:
    """The points as a structured array, dtype built from the message's own fields."""
    dtype = np.dtype(
        {
            "names": [f.name for f in msg.fields],
            "formats": ["<f4" if f.datatype == PointField.FLOAT32 else "?" for f in msg.fields],
            "offsets": [f.offset for f in msg.fields],
            "itemsize": msg.point_step,
        }
    )
    return np.frombuffer(bytes(msg.data), dtype=dtype, count=msg.width * msg.height)


def test_contact_cloud_layout() -> None:
    msg = cv.contact_msg(TWO, STAMP, "box")
    assert msg.header.frame_id == "box"
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (7, 250)
    assert (msg.height, msg.width, msg.point_step, msg.row_step) == (1, 2, 36, 72)
    assert [f.name for f in msg.fields] == NAMES == list(cv.CONTACT_FIELDS)
    assert [f.offset for f in msg.fields] == [0, 4, 8, 12, 16, 20, 24, 28, 32]
    assert [(f.datatype, f.count) for f in msg.fields] == [(PointField.FLOAT32, 1)] * 9
    assert msg.is_bigendian is False
    assert msg.is_dense is True
    assert len(msg.data) == 72


def test_contact_cloud_values_round_trip_as_float32() -> None:
    """Each field equals the reading's value rounded to float32 (exact comparison)."""
    points = _decode(cv.contact_msg(TWO, STAMP, "box"))
    for point, contact in zip(points, TWO.contacts):
        expected = np.array([*contact.position, *contact.normal, *contact.force], dtype=np.float32)
        np.testing.assert_array_equal([point[name] for name in NAMES], expected)
    assert points["force_z"].tolist() == [np.float32(4.905), np.float32(19.62)]


def test_no_contact_is_an_empty_cloud() -> None:
    msg = cv.contact_msg(ContactReading(), STAMP, "pad")
    assert (msg.height, msg.width, msg.row_step, msg.point_step) == (1, 0, 0, 36)
    assert len(msg.data) == 0 and msg.is_dense is True
    assert [f.name for f in msg.fields] == NAMES
    assert msg.header.frame_id == "pad"


def test_nan_force_marks_the_cloud_not_dense() -> None:
    reading = ContactReading(
        (Contact("a", "b", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0), (float("nan"), 0.0, 0.0)),)
    )
    msg = cv.contact_msg(reading, STAMP, "a")
    assert msg.is_dense is False
    assert np.isnan(_decode(msg)["force_x"][0])


def test_sensor_messages_gives_the_contact_cloud_on_the_main_topic() -> None:
    messages = cv.sensor_messages(TWO, STAMP, "box")
    assert list(messages) == [""]
    msg = messages[""]
    assert isinstance(msg, PointCloud2) and msg.width == 2 and msg.header.frame_id == "box"


def test_frame_prefix_reaches_a_frame_the_reading_names() -> None:
    """The bridge's frame_prefix: the caller's frame_id comes prefixed already; a frame override
    of the reading (a bumper's frameName) gets it here."""
    override = ContactReading((), frame="world")
    assert (
        cv.sensor_messages(override, STAMP, "left/box", "left/")[""].header.frame_id == "left/world"
    )
    assert (
        cv.sensor_messages(ContactReading(), STAMP, "left/box", "left/")[""].header.frame_id
        == "left/box"
    )


@dataclass(frozen=True)
class _OdometerReading:
    distance: float


def test_reading_without_message_is_an_error() -> None:
    with pytest.raises(
        BackendError,
        match=r"no ROS message for a sensor reading of type '_OdometerReading' "
        r"\(frame 'wheel'\); readings the bridge publishes: ImuReading, WrenchReading, "
        r"ScanReading, PointCloudReading, RangeReading, NavSatReading, MagneticFieldReading, "
        r"FluidPressureReading, ImageReading, ContactReading \(sdf_bridge\.backends\.base\)\. "
        r"Fix: make the backend return one of these$",
    ):
        cv.sensor_messages(
            _OdometerReading(1.0),  # type: ignore[arg-type]  # (the point: not a SensorReading)
            STAMP,
            "wheel",
        )


def test_header_frame_is_the_readings_frame() -> None:
    """The reading names the frame its contacts are in (e.g. a bumper's ``world`` override):
    the header says it; a reading that names none takes the sensor's frame_id."""
    assert cv.contact_msg(ContactReading((), "world"), STAMP, "box").header.frame_id == "world"
    assert cv.contact_msg(ContactReading(()), STAMP, "box").header.frame_id == "box"
