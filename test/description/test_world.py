"""Tests of sdf_bridge.description.world: which model of an SDFormat world the bridge drives."""

from __future__ import annotations

import pytest

from sdf_bridge.description import load, load_with_warnings
from sdf_bridge.description.model import Robot, World
from sdf_bridge.description.world import robots_of, select_robot
from sdf_bridge.errors import MissingReferenceError, UnsupportedError


def _world(*models: tuple[str, bool]) -> str:
    body = "".join(
        f'<model name="{name}"><static>{"true" if static else "false"}</static><link name="l"/>'
        "</model>"
        for name, static in models
    )
    return f'<?xml version="1.0"?><sdf version="1.9"><world name="w">{body}</world></sdf>'


def test_a_world_with_one_robot_is_that_robot_with_the_static_models_as_scenery() -> None:
    robot = load(_world(("ground_plane", True), ("bot", False), ("wall", True)))
    assert isinstance(robot, Robot) and robot.name == "bot"
    assert [(m.name, m.static) for m in robot.scenery] == [("ground_plane", True), ("wall", True)]


def test_a_world_with_several_robots_stays_a_world() -> None:
    world = load(_world(("ground_plane", True), ("a", False), ("b", False)))
    assert isinstance(world, World) and robots_of(world) == ["a", "b"]
    chosen = select_robot(world, "b")
    assert chosen.name == "b" and [m.name for m in chosen.scenery] == ["ground_plane", "a"]


def test_without_a_name_the_robots_are_listed() -> None:
    world = load(_world(("ground_plane", True), ("a", False), ("b", False)))
    with pytest.raises(
        UnsupportedError,
        match=r"^<string>: <world name=\"w\">: world 'w' holds 2 robots \(non-static models\): "
        r"a, b; one robot is wanted here\. Fix: choose it with --model NAME \(sdf-bridge "
        r"convert and ros2-control write one robot; sdf-bridge run and control drive every "
        r"robot of the world, or those named by --model\)$",
    ):
        select_robot(world)


def test_an_unknown_model_name_lists_the_models() -> None:
    world = load(_world(("ground_plane", True), ("a", False), ("b", False)))
    with pytest.raises(
        MissingReferenceError,
        match=r"world 'w' has no model 'c'; its models: ground_plane, a, b\. "
        r"Fix: give one of these names as the model",
    ):
        select_robot(world, "c")


def test_a_static_model_may_be_chosen() -> None:
    robot = select_robot(
        load(_world(("ground_plane", True), ("a", False), ("b", False))), "ground_plane"
    )
    assert robot.name == "ground_plane" and [m.name for m in robot.scenery] == ["a", "b"]


def test_a_single_robot_description_is_its_own_selection() -> None:
    robot, _ = load_with_warnings('<robot name="r"><link name="a"/></robot>')
    assert select_robot(robot) is robot and select_robot(robot, "r") is robot
    with pytest.raises(
        MissingReferenceError,
        match=r"^<string>: the description holds one robot, 'r', not 'q'\. "
        r"Fix: give model 'r' or no model name$",
    ):
        select_robot(robot, "q")


def test_the_robot_of_a_world_carries_the_worlds_gravity() -> None:
    """As Gazebo simulates the world's <gravity>; SDFormat's default without one; a robot with
    no world (URDF, a lone <model>) has none."""
    moon = _world(("ground_plane", True), ("bot", False)).replace(
        '<world name="w">', '<world name="w"><gravity>0 0 -1.62</gravity>'
    )
    assert load(moon).gravity == (0.0, 0.0, -1.62)
    world = load(_world(("ground_plane", True), ("a", False), ("b", False)))
    assert select_robot(world, "a").gravity == (0.0, 0.0, -9.8)
    lone = '<?xml version="1.0"?><sdf version="1.9"><model name="m"><link name="l"/></model></sdf>'
    assert load(lone).gravity is None
    assert load('<robot name="r"><link name="l"/></robot>').gravity is None
