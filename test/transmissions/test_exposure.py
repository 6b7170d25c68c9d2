"""Tests of sdf_bridge.transmissions.exposure: the movable joints not in joint_states, and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from sdf_bridge.description import load
from sdf_bridge.errors import TransmissionError
from sdf_bridge.transmissions import TransmissionMap
from sdf_bridge.transmissions.exposure import joint_roles, unexposed_joints


def test_unexposed_joints_and_why() -> None:
    robot = load("""<sdf version="1.9"><model name="m"><link name="a"/><link name="b"/><link
      name="c"/>
      <link name="d"/><link name="e"/>
      <joint name="ball" type="ball"><parent>a</parent><child>b</child></joint>
      <joint name="hinge" type="revolute"><parent>a</parent><child>c</child></joint>
      <joint name="loop" type="revolute"><parent>b</parent><child>c</child></joint>
      <joint name="gear" type="gearbox"><parent>c</parent><child>d</child></joint>
      <joint name="fixed" type="fixed"><parent>d</parent><child>e</child></joint>
      <link name="f"/>
      <joint name="to_f" type="revolute"><parent>e</parent><child>f</child></joint>
      <joint name="gear_loop" type="gearbox"><parent>d</parent><child>f</child></joint>
      </model></sdf>""")
    # the ball joint is exposed by its coordinates (ball/roll, ball/pitch, ball/yaw), the
    # uncoupled gearbox "gear" as a plain hinge; the uncoupled one closing a loop is not
    # simulated
    assert unexposed_joints(robot) == {
        "loop": "closes a kinematic loop: kept in the model, not simulated",
        "gear_loop": "gearbox closing a loop without 1-DOF joints from its reference body to "
        "its parent and child links: not simulated",
    }
    assert TransmissionMap.from_robot(robot).joint_names == (
        "ball/roll",
        "ball/pitch",
        "ball/yaw",
        "hinge",
        "gear",
        "to_f",
    )
    planar = load("""<robot name="r"><link name="a"/><link name="b"/>
      <joint name="slider" type="planar"><parent link="a"/><child link="b"/>
        <axis xyz="0 0 1"/></joint></robot>""")
    assert unexposed_joints(planar) == {
        "slider": "planar joint (3 degrees of freedom): simulated by the MuJoCo backend, not in "
        "joint_states (not joint coordinates)"
    }


def test_joint_roles_are_worked_out_once_and_carried_by_the_map() -> None:
    robot = load("""<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
      <joint name="lead" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
      <joint name="follow" type="revolute"><parent link="b"/><child link="c"/>
        <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
        <mimic joint="lead" multiplier="2" offset="0.5"/></joint></robot>""")
    roles = joint_roles(robot)
    assert roles.follower_joints == ("follow",)
    assert [(f.name, f.leader, f.multiplier, f.offset, f.kind) for f in roles.followers] == [
        ("follow", "lead", 2.0, 0.5, "mimic")
    ]
    assert roles.loops == frozenset() and roles.loop_gearboxes == frozenset()
    assert roles.not_driven == frozenset({"follow"}) and dict(roles.unexposed) == {}
    tmap = TransmissionMap.from_robot(robot)
    assert tmap.roles == roles and hash(tmap.roles) == hash(roles)
    assert tmap.follower_names == ("follow",)
    assert tmap.joint_names == ("lead",)


def test_joint_roles_refuses_a_mimic_of_a_fixed_joint() -> None:
    robot = load("""<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
      <joint name="follow" type="revolute"><parent link="a"/><child link="b"/>
        <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
        <mimic joint="fx"/></joint>
      <joint name="fx" type="fixed"><parent link="b"/><child link="c"/></joint></robot>""")
    with pytest.raises(TransmissionError, match=r"mimics 'fx', a fixed joint\. Fix: mimic"):
        joint_roles(robot)


def test_joint_roles_are_worked_out_once_per_robot() -> None:
    """The start-up warning, the map and the summary share one computation: the same roles
    object for the same robot while it lives, none kept after it."""
    import gc

    from sdf_bridge.transmissions import exposure

    robot = load(str(Path(__file__).resolve().parents[2] / "urdf" / "demo_arm.urdf.xacro"))
    roles = exposure.joint_roles(robot)
    assert exposure.joint_roles(robot) is roles
    assert TransmissionMap.from_robot(robot).roles is roles
    kept = len(exposure._ROLES)
    del robot
    gc.collect()
    assert len(exposure._ROLES) == kept - 1
