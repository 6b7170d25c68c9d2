"""The namespaces of several robots' nodes (sdf_bridge.ros.robots): their names, or those of
``robot_namespaces``, and their errors."""

from __future__ import annotations

import pytest

from sdf_bridge.errors import ConfigError
from sdf_bridge.ros.robots import parse_robot_namespaces, robot_namespace


def test_a_robot_runs_in_the_namespace_of_its_name_or_the_one_given() -> None:
    assert robot_namespace("/", "arm") == "/arm"
    assert robot_namespace("/sim", "arm") == "/sim/arm"
    assert robot_namespace("/sim", "arm", "fleet/a") == "/sim/fleet/a"
    assert robot_namespace("/sim", "arm", "/a") == "/a"
    assert robot_namespace("/", "my-arm", "my_arm") == "/my_arm"  # a name that is no token


def test_a_name_that_is_no_namespace_token_needs_one() -> None:
    with pytest.raises(
        ConfigError,
        match=r"robot name 'my-arm' is not a valid ROS namespace token .* Fix: rename the robot "
        r".* or give its namespace: robot_namespaces:=\['my-arm=NAMESPACE'\]\.",
    ):
        robot_namespace("/", "my-arm")


def test_robot_namespaces_parse() -> None:
    assert parse_robot_namespaces(("a=fleet/a", " b = /b "), ("a", "b")) == {
        "a": "fleet/a",
        "b": "/b",
    }
    for item in ("a", "c=x", "a=bad name", "a="):
        with pytest.raises(
            ConfigError,
            match=rf"robot_namespaces item '{item}' is not ROBOT=NAMESPACE with one of the "
            r"robots \(a, b\) and a ROS namespace\. Fix: give e\.g\. a=fleet/a\.",
        ):
            parse_robot_namespaces((item,), ("a", "b"))
