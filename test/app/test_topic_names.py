"""Tests of sdf_bridge.app.topic_names: sensor topic names as gazebo_ros / ros_gz_bridge
users expect."""

from __future__ import annotations

import pytest

from sdf_bridge.app.topic_names import message_topic, sensor_topic, sensor_topics
from sdf_bridge.description.model import Sensor


@pytest.mark.parametrize(
    "name, topic, base",
    [
        ("imu", "imu/data", "imu/data"),
        ("imu", None, "sensors/imu"),
        ("front laser", "scan", "scan"),
        ("front laser", "bad topic!", "sensors/front_laser"),
        ("3d", None, "sensors/s_3d"),
        ("cam", "/robot/cam", "/robot/cam"),
    ],
)
def test_sensor_topic_bases(name: str, topic: str | None, base: str) -> None:
    assert sensor_topic(name, topic) == base


@pytest.mark.parametrize(
    "base, image, info",
    [
        ("head_camera", "head_camera/image_raw", "head_camera/camera_info"),
        ("head_camera/image_raw", "head_camera/image_raw", "head_camera/camera_info"),
        ("/robot/rgb/image_raw", "/robot/rgb/image_raw", "/robot/rgb/camera_info"),
        ("image_raw", "image_raw", "camera_info"),
    ],
)
def test_camera_topics_are_not_suffixed_twice(base: str, image: str, info: str) -> None:
    assert (message_topic(base, "image_raw"), message_topic(base, "camera_info")) == (image, info)
    assert message_topic(base, "") == base


def test_sensor_topics_by_kind() -> None:
    camera = Sensor("cam", "depth", "head", topic="head/depth/image_raw")
    assert sensor_topics(camera) == {
        "image_raw": ("head/depth/image_raw", "sensor_msgs/Image (32FC1, m)"),
        "camera_info": ("head/depth/camera_info", "sensor_msgs/CameraInfo"),
    }
    assert sensor_topics(Sensor("imu", "imu", "base")) == {"": ("sensors/imu", "sensor_msgs/Imu")}
    assert sensor_topics(Sensor("gps", "gps", "base")) == {
        "": ("sensors/gps", "sensor_msgs/NavSatFix")
    }
    assert sensor_topics(Sensor("mag", "magnetometer", "base", topic="imu/mag")) == {
        "": ("imu/mag", "sensor_msgs/MagneticField")
    }
    assert sensor_topics(Sensor("baro", "air_pressure", "base")) == {
        "": ("sensors/baro", "sensor_msgs/FluidPressure")
    }
    assert sensor_topics(Sensor("alt", "altimeter", "base")) == {}
