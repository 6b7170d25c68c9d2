"""The one ROS topic-name rule (sdf_bridge.util.ros_names)."""

from __future__ import annotations

import pytest

from sdf_bridge.util.ros_names import is_topic_name


@pytest.mark.parametrize("name", ["imu", "imu/data", "/rover/imu/data", "_a/b_2", "scan"])
def test_plain_names(name: str) -> None:
    assert is_topic_name(name) and is_topic_name(name, private=True)


@pytest.mark.parametrize("name", ["~/out", "~/camera/image_raw"])
def test_private_names_only_where_allowed(name: str) -> None:
    assert is_topic_name(name, private=True) and not is_topic_name(name)


@pytest.mark.parametrize("name", ["", "de mo/imu", "2imu", "imu//data", "imu/", "/", "~", "a-b"])
def test_invalid_names(name: str) -> None:
    assert not is_topic_name(name) and not is_topic_name(name, private=True)
