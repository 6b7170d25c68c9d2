"""Tests of sdf_bridge.description.coordinates: the names and one-freedom records of the axes
of ball, universal and revolute2 joints, and where descriptions may name them."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from sdf_bridge.description import load
from sdf_bridge.description.coordinates import (
    BALL_CHAIN,
    BALL_SUFFIXES,
    Coordinate,
    axis_suffixes,
    convention,
    coordinate_joint,
    coordinate_names,
    find_coordinate,
    free_when_idle,
    mimic_leader,
)
from sdf_bridge.description.model import Axis, Dynamics, JointType, Limit, Mimic

MODEL = """<sdf version="1.9"><model name="m">
  <link name="a"/><link name="b"/><link name="c"/><link name="d"/><link name="e"/>
  <joint name="u" type="universal"><parent>a</parent><child>b</child>
    <axis><xyz>1 0 0</xyz><limit><lower>-0.5</lower><upper>0.5</upper></limit>
      <dynamics><damping>0.1</damping></dynamics></axis>
    <axis2><xyz>0 1 0</xyz><limit><lower>-0.25</lower><upper>0.75</upper><effort>4</effort>
      </limit><dynamics><damping>0.3</damping></dynamics></axis2></joint>
  <joint name="r2" type="revolute2"><parent>b</parent><child>c</child>
    <axis><xyz>0 0 1</xyz></axis></joint>
  <joint name="neck" type="ball"><parent>c</parent><child>d</child></joint>
  <joint name="hinge" type="revolute"><parent>d</parent><child>e</child>
    <axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>"""


@pytest.fixture(scope="module")
def robot():
    return load(MODEL)


def test_names_in_index_order(robot) -> None:
    assert coordinate_names(robot.joints["u"]) == ("u/axis1", "u/axis2")
    assert coordinate_names(robot.joints["r2"]) == ("r2/axis1", "r2/axis2")
    assert coordinate_names(robot.joints["neck"]) == ("neck/roll", "neck/pitch", "neck/yaw")
    assert coordinate_names(robot.joints["hinge"]) == ("hinge",)


def test_find_coordinate(robot) -> None:
    assert find_coordinate(robot, "u/axis2") == Coordinate("u/axis2", "u", 1)
    assert find_coordinate(robot, "neck/yaw") == Coordinate("neck/yaw", "neck", 2)
    assert find_coordinate(robot, "hinge") == Coordinate("hinge", "hinge", 0)
    for unknown in ("u/axis3", "hinge/axis1", "nope/axis1", "u/", "/axis1", "nope"):
        assert find_coordinate(robot, unknown) is None, unknown


def test_each_axis_is_a_one_freedom_joint(robot) -> None:
    """axis2 of u: revolute about (0, 1, 0) with <axis2>'s limit and dynamics; r2's axis2 (none
    written): the spec's 0 0 1, unlimited; a ball angle: continuous about x, y or z with the
    ball's dynamics (SDFormat gives a ball none), no limit; a 1-DOF joint is itself."""
    axis2 = coordinate_joint(robot, "u/axis2")
    assert (axis2.name, axis2.type, axis2.axis) == ("u/axis2", JointType.REVOLUTE, Axis((0, 1, 0)))
    assert axis2.limit == Limit(-0.25, 0.75, 4.0, None, 1e8, 1.0)
    assert axis2.dynamics == Dynamics(damping=0.3)
    assert (axis2.parent, axis2.child, axis2.axis2, axis2.limit2) == ("a", "b", None, None)
    axis1 = coordinate_joint(robot, "u/axis1")
    assert (axis1.limit.lower, axis1.limit.upper, axis1.dynamics.damping) == (-0.5, 0.5, 0.1)
    default = coordinate_joint(robot, "r2/axis2")
    assert (default.axis, default.limit, default.dynamics) == (Axis((0.0, 0.0, 1.0)), None, None)
    pitch = coordinate_joint(robot, "neck/pitch")
    assert (pitch.type, pitch.axis, pitch.limit) == (JointType.CONTINUOUS, Axis((0, 1, 0)), None)
    assert pitch.dynamics is None
    assert coordinate_joint(robot, "hinge") is robot.joints["hinge"]
    assert coordinate_joint(robot, "u/axis3") is None


def test_a_ball_angle_keeps_the_balls_effort_velocity_and_damping_only(robot) -> None:
    """A ball's <limit> (effort, velocity, bounds) and its damping carry to each angle; its
    stop stiffness, friction and spring do not (one ball joint, no stop per angle); with both
    bounds an angle is a revolute record (its commands limited), else continuous.
    Suffixes in index order roll, pitch, yaw; as a hinge chain yaw, pitch, roll."""
    ball = replace(
        robot.joints["neck"],
        limit=Limit(None, 1.0, 7.0, 3.0, 1e5, 2.0),
        dynamics=Dynamics(damping=0.4, friction=0.2, spring_stiffness=5.0),
    )
    joints = dict(robot.joints, neck=ball)
    turned = replace(robot, joints=joints)
    yaw = coordinate_joint(turned, "neck/yaw")
    assert (yaw.type, yaw.axis, yaw.limit) == (
        JointType.CONTINUOUS,
        Axis((0, 0, 1)),
        Limit(None, 1.0, 7.0, 3.0),
    )
    assert yaw.dynamics == Dynamics(damping=0.4)
    assert axis_suffixes(ball) == BALL_SUFFIXES == ("roll", "pitch", "yaw")
    bounded = replace(ball, limit=Limit(-0.5, 1.0, 7.0, 3.0, 1e5, 2.0))
    roll = coordinate_joint(replace(robot, joints=dict(robot.joints, neck=bounded)), "neck/roll")
    assert (roll.type, roll.limit) == (JointType.REVOLUTE, Limit(-0.5, 1.0, 7.0, 3.0))
    assert BALL_CHAIN == ("yaw", "pitch", "roll")


def test_a_joint_named_like_a_coordinate_wins() -> None:
    robot = load("""<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
      <joint name="u" type="continuous"><parent link="a"/><child link="b"/></joint>
      <joint name="u/axis2" type="continuous"><parent link="b"/><child link="c"/></joint>
      </robot>""")
    assert coordinate_joint(robot, "u/axis2") is robot.joints["u/axis2"]


def test_convention_and_mimic_leader(robot) -> None:
    assert convention(robot.joints["neck"]) == (
        "ball joint as neck/roll, neck/pitch, neck/yaw: R = Rz(yaw)·Ry(pitch)·Rx(roll) of the "
        "child in the joint frame (URDF rpy, continuous), no position limits, free while not "
        "commanded"
    )
    assert convention(robot.joints["r2"]).startswith("revolute2 joint as r2/axis1 (about <axis>)")
    assert convention(robot.joints["hinge"]) == ""
    assert mimic_leader(robot, Mimic("u", axis="axis2")) == "u/axis2"
    assert mimic_leader(robot, Mimic("u")) == "u/axis1"
    assert mimic_leader(robot, Mimic("hinge", axis="axis2")) == "hinge"
    assert mimic_leader(robot, Mimic("nope")) is None
    free = {name: free_when_idle(robot, name) for name in ("u/axis2", "neck/yaw", "hinge", "x")}
    assert free == {"u/axis2": True, "neck/yaw": True, "hinge": False, "x": False}


def test_ros2_control_and_transmissions_may_name_an_axis(caplog) -> None:
    """A <ros2_control> joint u/axis2 is kept (its effort window limits that axis); u/axis3 is
    skipped with a warning naming the block and the joint (contain per element)."""
    text = MODEL.replace(
        "</model>",
        """<ros2_control name="hw" type="system"><hardware><plugin>p</plugin></hardware>
          <joint name="u/axis2"><command_interface name="effort"/></joint>
          <joint name="u/axis3"><command_interface name="effort"/></joint></ros2_control>
        </model>""",
    )
    with caplog.at_level(logging.WARNING):
        robot = load(text)
    assert [j.name for j in robot.ros2_control[0].joints] == ["u/axis2"]
    assert (
        "ros2_control block 'hw' names joint 'u/axis3', which is not a joint of the robot"
        in caplog.text
    )
