"""Tests of sdf_bridge.app.topic_names: sensor topic names as gazebo_ros / ros_gz_bridge
users expect."""

from __future__ import annotations

from xml.sax.saxutils import escape

import pytest

from sdf_bridge.app.topic_names import (
    joint_wrench_topics,
    message_topic,
    sensor_topic,
    sensor_topics,
)
from sdf_bridge.description import load
from sdf_bridge.description.model import Robot, Sensor
from sdf_bridge.util.ros_names import is_topic_name


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


def chain(*joints: str, feedback: tuple[str, ...] | None = None) -> Robot:
    """An SDFormat chain of revolute ``joints`` (in order); those in ``feedback`` (default:
    all) ask for wrench feedback."""
    asked = joints if feedback is None else feedback
    parts = ['<?xml version="1.0"?><sdf version="1.9"><model name="m"><link name="l0"/>']
    for i, name in enumerate(joints, 1):
        physics = "<provide_feedback>true</provide_feedback>" if name in asked else ""
        parts.append(
            f'<link name="l{i}"/><joint name="{escape(name)}" type="revolute">'
            f"<parent>l{i - 1}</parent><child>l{i}</child><axis><xyz>1 0 0</xyz></axis>"
            f"<physics>{physics}</physics></joint>"
        )
    return load("".join(parts) + "</model></sdf>")


@pytest.mark.parametrize(
    "joint, token",
    [
        ("elbow", "elbow"),
        ("_hidden", "_hidden"),  # a valid token stays as written
        ("arm::elbow", "arm_elbow"),
        ("x/axis1", "x_axis1"),
        ("sp ace", "sp_ace"),
        ("ré", "r_"),
        ("1st", "j_1st"),  # a token must not start with a digit
        (".x", "j_x"),  # nor with _ (hidden from ros2 topic list)
    ],
)
def test_joint_wrench_topic_is_a_token_in_the_node_namespace(joint: str, token: str) -> None:
    out = joint_wrench_topics(chain(joint))
    assert out.topics == {joint: f"~/joint_wrench/{token}"}
    assert out.warnings == ()
    assert is_topic_name(out.topics[joint], private=True)


A_DOT, A_DASH = "~/joint_wrench/a_b_2e7336", "~/joint_wrench/a_b_d44362"  # sha256 prefixes


def test_colliding_joint_names_get_stable_suffixes_and_one_warning() -> None:
    out = joint_wrench_topics(chain("a.b", "a-b", "c"))
    assert out.topics == {"a.b": A_DOT, "a-b": A_DASH, "c": "~/joint_wrench/c"}
    assert out.warnings == (
        "joints ['a.b', 'a-b'] all map to the topic token 'a_b' (a ROS name allows letters, "
        "digits and _ only); their wrenches are published apart: 'a.b' on "
        f"{A_DOT}, 'a-b' on {A_DASH}. Fix: rename the joints with letters, digits and _ "
        "(not starting with a digit)",
    )
    # independent of the joints' order and of which joints ask for feedback
    assert joint_wrench_topics(chain("a-b", "a.b")).topics == {"a-b": A_DASH, "a.b": A_DOT}
    only = joint_wrench_topics(chain("a.b", "a-b", feedback=("a.b",)))
    assert only.topics == {"a.b": A_DOT}
    assert len(only.warnings) == 1 and f"'a.b' on {A_DOT}." in only.warnings[0]
    assert joint_wrench_topics(chain("a.b", "a-b", feedback=())).warnings == ()


def test_a_valid_name_keeps_its_topic_in_a_collision() -> None:
    out = joint_wrench_topics(chain("a_b", "a.b"))
    assert out.topics == {"a_b": "~/joint_wrench/a_b", "a.b": A_DOT}
    assert len(out.warnings) == 1


def test_a_joint_named_like_a_suffixed_topic_lengthens_the_suffix() -> None:
    out = joint_wrench_topics(chain("a_b_2e7336", "a.b", "a-b"))
    assert out.topics == {
        "a_b_2e7336": A_DOT,
        "a.b": A_DOT + "d",  # the next hex digit of sha256("a.b")
        "a-b": A_DASH,
    }
    assert len(set(out.topics.values())) == 3
