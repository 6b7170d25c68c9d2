"""Ground-truth odometry messages (nav_msgs/Odometry, TF) from a base state."""

from __future__ import annotations

import importlib.util

import numpy as np
import rclpy

from sdf_bridge.backends.base import BaseState
from sdf_bridge.ros.conversions import time_msg
from sdf_bridge.ros.odometry import OdometryPublisher, odometry_msg, transform_msg

STATE = BaseState(
    position=np.array([1.0, -2.0, 0.25]),
    orientation=np.array([0.0, 0.0, 0.6, 0.8]),
    linear_velocity=np.array([0.5, 0.01, -0.02]),
    angular_velocity=np.array([0.1, -0.2, 0.3]),
    sim_time=12.5,
    link="base_link",
)


def test_odometry_message_carries_the_state_exactly() -> None:
    msg = odometry_msg(STATE, time_msg(12.5), "odom", "")
    assert (msg.header.frame_id, msg.child_frame_id) == ("odom", "base_link")  # "" = the root link
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (12, 500_000_000)
    p, q = msg.pose.pose.position, msg.pose.pose.orientation
    assert (p.x, p.y, p.z, q.x, q.y, q.z, q.w) == (1.0, -2.0, 0.25, 0.0, 0.0, 0.6, 0.8)
    v, w = msg.twist.twist.linear, msg.twist.twist.angular
    assert (v.x, v.y, v.z, w.x, w.y, w.z) == (0.5, 0.01, -0.02, 0.1, -0.2, 0.3)
    assert list(msg.pose.covariance) == [0.0] * 36 and list(msg.twist.covariance) == [0.0] * 36
    assert odometry_msg(STATE, time_msg(0.0), "map", "body").child_frame_id == "body"
    prefixed = odometry_msg(STATE, time_msg(0.0), "odom", "", "left/")  # the bridge's frame_prefix
    assert (prefixed.header.frame_id, prefixed.child_frame_id) == (
        "left/odom",
        "left/" + STATE.link,
    )


def test_transform_is_odom_to_base() -> None:
    t = transform_msg(odometry_msg(STATE, time_msg(12.5), "odom", "base_link"))
    assert (t.header.frame_id, t.child_frame_id) == ("odom", "base_link")
    assert (t.transform.translation.x, t.transform.translation.y, t.transform.translation.z) == (
        1.0,
        -2.0,
        0.25,
    )
    assert (t.transform.rotation.z, t.transform.rotation.w) == (0.6, 0.8)


def test_tf_only_where_tf2_msgs_is_importable(ros_context) -> None:
    node = rclpy.create_node("odometry_test", context=ros_context)
    try:
        publisher = OdometryPublisher(node, "odom", "", tf=True)
        assert (publisher.tf_pub is not None) == (importlib.util.find_spec("tf2_msgs") is not None)
        assert OdometryPublisher(node, "odom", "", tf=False).tf_pub is None
        assert not publisher.wanted()  # nobody subscribes
    finally:
        node.destroy_node()
