"""Tests of sdf_bridge.description.sdf.joint_tree through load_sdf: joints resolved into
origin, joint_to_child and axes in the joint frame (case 010, case 011), joints to the world,
kinematic loops (warned, a gearbox silently) and every error path of the joints (exact values,
tolerance 1e-9 unless stated)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from sdf_helpers import load_text, sdf

from sdf_bridge.description import load
from sdf_bridge.description.kinematics import link_transforms, loop_joints
from sdf_bridge.description.sdf import load_sdf
from sdf_bridge.description.xmlio import ParseContext, parse_xml
from sdf_bridge.errors import KinematicTreeError, MissingReferenceError
from sdf_bridge.transmissions import TransmissionMap

TOL = 1e-9


def test_case_010_axis_in_nested_posed_model(cases_dir: Path) -> None:
    robot = load(cases_dir / "010-nested-model-axis-frame" / "model.sdf")
    assert list(robot.joints) == ["arm::shoulder", "arm_base_weld"]
    assert robot.movable_joints == ("arm::shoulder",)
    assert set(robot.links) == {"chassis", "arm::mount", "arm::link1"}
    shoulder = robot.joints["arm::shoulder"]
    assert (shoulder.parent, shoulder.child) == ("arm::mount", "arm::link1")
    # joint frame = link1 frame
    np.testing.assert_allclose(shoulder.axis.xyz, (1.0, 0.0, 0.0), atol=TOL)
    t0 = link_transforms(robot)
    joint_frame = t0["arm::mount"] @ shoulder.origin.matrix()
    # cart frame
    np.testing.assert_allclose(joint_frame[:3, :3] @ shoulder.axis.xyz, (0.0, 1.0, 0.0), atol=TOL)
    t = link_transforms(robot, {"arm::shoulder": 0.3})
    np.testing.assert_allclose(
        t["arm::link1"][:3, :3] @ (0.0, 0.0, 0.1),
        (0.1 * math.sin(0.3), 0.0, 0.1 * math.cos(0.3)),
        atol=1e-12,
    )
    np.testing.assert_allclose(
        t["arm::link1"][:3, :3] @ (0.0, 0.0, 0.1), (0.029552, 0.0, 0.095534), atol=1e-6
    )
    assert shoulder.limit.lower == -1.0 and shoulder.limit.upper == 1.0
    assert shoulder.limit.effort == 10.0 and shoulder.limit.velocity == 2.0


def test_case_011_sdf_axes_are_normalised() -> None:
    robot = load_text(
        sdf("""<model name="m"><link name="a"/><link name="b"/><link name="c"/>
      <joint name="tilt" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 2</xyz>
        </axis></joint>
      <joint name="slide" type="prismatic"><parent>b</parent><child>c</child><axis><xyz>3 4 0</xyz>
        </axis></joint>
    </model>""")
    )
    assert robot.joints["tilt"].axis.xyz == (0.0, 0.0, 1.0)
    np.testing.assert_allclose(robot.joints["slide"].axis.xyz, (0.6, 0.8, 0.0), atol=1e-15)
    t = link_transforms(robot, {"slide": 0.1})
    np.testing.assert_allclose(t["c"][:3, 3], (0.06, 0.08, 0.0), atol=1e-15)


def test_joint_pose_resolution_into_origin_and_joint_to_child() -> None:
    robot = load_text(
        sdf("""<model name="m">
      <link name="p"><pose>1 0 0 0 0 1.5707963267948966</pose></link>
      <link name="c"><pose>1 1 0 0 0 0</pose></link>
      <joint name="j" type="revolute"><pose>0 0 0.5 0 0 0</pose><parent>p</parent><child>c</child>
        <axis><xyz>1 0 0</xyz></axis></joint></model>""")
    )
    j = robot.joints["j"]
    # joint frame in model: child pose · (0,0,0.5) = (1,1,0.5), no rotation; parent is yawed +90°
    np.testing.assert_allclose(j.origin.xyz, (1.0, 0.0, 0.5), atol=TOL)
    np.testing.assert_allclose(j.origin.rpy, (0.0, 0.0, -math.pi / 2), atol=TOL)
    np.testing.assert_allclose(j.joint_to_child.xyz, (0.0, 0.0, -0.5), atol=TOL)
    np.testing.assert_allclose(robot.links["c"].pose.xyz, (1.0, 1.0, 0.0), atol=TOL)


def test_joint_to_world_becomes_world_link() -> None:
    robot = load_text(
        sdf("""<model name="m"><pose>0 0 1 0 0 0</pose><link name="a"/>
      <joint name="fix" type="fixed"><parent>world</parent><child>a</child></joint></model>""")
    )
    assert list(robot.links) == ["world", "a"]
    assert robot.root_link == "world"
    assert robot.links["world"].pose.xyz == (0.0, 0.0, -1.0)
    assert robot.joints["fix"].origin.xyz == (0.0, 0.0, 1.0)


def test_unknown_parent_is_refused() -> None:
    with pytest.raises(
        MissingReferenceError,
        match=r"parent 'nope' is not a frame of model '__model__' \(known: a, b, j\)",
    ):
        load_text(
            sdf("""<model name="m"><link name="a"/><link name="b"/>
          <joint name="j" type="fixed"><parent>nope</parent><child>b</child></joint></model>""")
        )


def test_link_with_two_parent_joints_loads_with_a_warning() -> None:
    """libsdformat accepts a joint closing a loop; the bridge keeps it, unsimulated (warned)."""
    ctx = ParseContext()
    robot = load_sdf(
        parse_xml(
            sdf("""<model name="m"><link name="a"/><link name="b"/><link name="c"/>
          <joint name="j1" type="revolute"><parent>a</parent><child>c</child></joint>
          <joint name="j2" type="revolute"><parent>b</parent><child>c</child></joint></model>""")
        ),
        ctx,
        base_dir=".",
    )
    assert [(j.name, j.parent, j.child) for j in robot.joints.values()] == [
        ("j1", "a", "c"),
        ("j2", "b", "c"),
    ]
    assert ctx.warnings == [
        "<string>:5: <joint name=\"j2\">: joint 'j2' closes a kinematic loop: link 'c' is already "
        "the child of joint 'j1'. libsdformat accepts it; the bridge keeps the joint in the model "
        "but cannot simulate the loop (neither driven nor published)"
    ]
    assert loop_joints(robot) == ("j2",)
    assert TransmissionMap.from_robot(robot).joint_names == ("j1",)


def test_gearbox_closing_a_loop_loads_silently() -> None:
    """Gazebo's joint-types demo: two revolute joints from a reference body, a gearbox coupling
    them."""
    ctx = ParseContext()
    robot = load_sdf(
        parse_xml(
            sdf("""<model name="m"><link name="base"/><link name="in"/><link name="out"/>
      <joint name="j_in" type="revolute"><parent>base</parent><child>in</child></joint>
      <joint name="j_out" type="revolute"><parent>base</parent><child>out</child></joint>
      <joint name="gear" type="gearbox"><parent>in</parent><child>out</child>
        <gearbox_reference_body>base</gearbox_reference_body><gearbox_ratio>5</gearbox_ratio>
          </joint></model>""")
        ),
        ctx,
        base_dir=".",
    )
    assert ctx.warnings == [] and loop_joints(robot) == ()
    tmap = TransmissionMap.from_robot(robot)
    assert tmap.joint_names == ("j_in",) and tmap.follower_names == ("j_out", "gear")


def test_joint_to_itself_is_refused() -> None:
    with pytest.raises(KinematicTreeError, match=r"joint connects link 'a' to itself"):
        load_text(
            sdf(
                '<model name="m"><link name="a"/><joint name="j" type="fixed"><parent>a</parent>'
                "<child>a</child></joint></model>"
            )
        )


def test_joint_loop_is_refused() -> None:
    with pytest.raises(KinematicTreeError, match=r"the joints form a cycle through link"):
        load_text(
            sdf("""<model name="m"><link name="a"/><link name="b"/>
          <joint name="j1" type="fixed"><parent>a</parent><child>b</child></joint>
          <joint name="j2" type="fixed"><parent>b</parent><child>a</child></joint></model>""")
        )
