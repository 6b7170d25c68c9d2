"""Tests of sdf_bridge.description.sdf.model / load_sdf: shared SDF models load with the counts
of robots/INDEX.md, case 010, worlds, nested models, plugins, ros2_control, and every error path
of the flattening (exact values, tolerance 1e-9 unless stated)."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from sdf_helpers import load_text, sdf

from sdf_bridge.description import load
from sdf_bridge.description.kinematics import link_transforms, loop_joints
from sdf_bridge.description.model import Robot, World
from sdf_bridge.description.sdf import load_sdf
from sdf_bridge.description.xmlio import ParseContext, parse_xml
from sdf_bridge.errors import (
    DuplicateNameError,
    InvalidValueError,
    KinematicTreeError,
    MissingReferenceError,
    UnsupportedError,
)
from sdf_bridge.transmissions import TransmissionMap

TOL = 1e-9

# name → (links, joints by type, sensors by raw type, mimic count) from robots/INDEX.md
INDEX = {
    "turtlebot3_waffle": (
        10,
        {"ball": 2, "fixed": 5, "revolute": 2},
        {"imu": 1, "gpu_lidar": 1, "camera": 1},
        0,
    ),
    "sdf_joint_complete": (
        10,
        {
            t: 1
            for t in (
                "ball",
                "continuous",
                "fixed",
                "gearbox",
                "prismatic",
                "revolute",
                "revolute2",
                "screw",
                "universal",
            )
        },
        {},
        0,
    ),
    "sdf_nested_include": (
        6,
        {"ball": 1, "fixed": 2, "revolute": 2},
        {"gpu_lidar": 1, "camera": 2},
        0,
    ),
    "sdf_model_with_frames": (5, {"fixed": 1, "revolute": 1, "universal": 1}, {}, 0),
    "sdf_mimic_pendulums": (10, {"revolute": 6}, {}, 2),
}


def _robots(model: Robot | World) -> list[Robot]:
    return list(model.models.values()) if isinstance(model, World) else [model]


@pytest.mark.parametrize("name", sorted(INDEX))
def test_shared_sdf_counts_match_index(name: str, robots_dir: Path) -> None:
    links, joint_types, sensor_types, mimics = INDEX[name]
    robots = _robots(load(robots_dir / name / f"{name}.sdf"))
    assert sum(len(r.links) for r in robots) == links
    assert Counter(str(j.type) for r in robots for j in r.joints.values()) == joint_types
    assert Counter(s.raw_type for r in robots for s in r.sensors) == sensor_types
    assert sum(j.mimic is not None for r in robots for j in r.joints.values()) == mimics
    assert all(r.format == "sdf" for r in robots)


def test_world_gives_models_by_name(robots_dir: Path) -> None:
    world = load(robots_dir / "sdf_mimic_pendulums" / "sdf_mimic_pendulums.sdf")
    assert isinstance(world, World)
    assert list(world.models) == [
        "ground_plane",
        "pendulum_with_base",
        "pendulum_with_base_mimic_slow_follows_fast",
        "pendulum_with_base_mimic_fast_follows_slow",
    ]
    assert world.version == "1.11"
    assert [p.filename for p in world.plugins][0] == "gz-sim-physics-system"
    follower = world.models["pendulum_with_base_mimic_slow_follows_fast"].joints["slow_joint"]
    assert follower.mimic is not None
    assert (
        follower.mimic.joint,
        follower.mimic.multiplier,
        follower.mimic.offset,
        follower.mimic.axis,
    ) == ("fast_joint", 1.0, 0.0, "axis")
    assert follower.axis.xyz == (-1.0, 0.0, 0.0)


def test_world_with_one_model_gives_the_robot() -> None:
    robot = load_text(sdf('<world name="w"><model name="m"><link name="a"/></model></world>'))
    assert isinstance(robot, Robot) and robot.name == "m"


def test_turtlebot_plugins_kept_raw(robots_dir: Path) -> None:
    robot = load(robots_dir / "turtlebot3_waffle" / "turtlebot3_waffle.sdf")
    names = [p.filename for p in robot.plugins]
    assert names == ["gz-sim-diff-drive-system", "gz-sim-joint-state-publisher-system"]
    assert "<left_joint>wheel_left_joint</left_joint>" in robot.plugins[0].raw_xml


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


def test_model_pose_static_and_root() -> None:
    robot = load_text(
        sdf('<model name="m"><static>true</static><pose>1 2 3 0 0 0</pose><link name="a"/></model>')
    )
    assert robot.static is True
    assert robot.pose.xyz == (1.0, 2.0, 3.0)
    assert robot.root_link == "a"
    assert robot.links["a"].pose.xyz == (0.0, 0.0, 0.0)  # link poses are in the model frame


def test_joint_to_world_becomes_world_link() -> None:
    robot = load_text(
        sdf("""<model name="m"><pose>0 0 1 0 0 0</pose><link name="a"/>
      <joint name="fix" type="fixed"><parent>world</parent><child>a</child></joint></model>""")
    )
    assert list(robot.links) == ["world", "a"]
    assert robot.root_link == "world"
    assert robot.links["world"].pose.xyz == (0.0, 0.0, -1.0)
    assert robot.joints["fix"].origin.xyz == (0.0, 0.0, 1.0)


def test_ros2_control_block_inside_model() -> None:
    robot = load_text(
        sdf("""<model name="m"><link name="a"/><link name="b"/>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz>
        </axis></joint>
      <ros2_control name="sys" type="system">
        <hardware><plugin>mock_components/GenericSystem</plugin></hardware>
        <joint name="j"><command_interface name="position"/><state_interface name="position"/>
          </joint>
        <transmission name="t"><plugin>transmission_interface/SimpleTransmission</plugin>
          <actuator name="act" role="actuator1"/><joint name="j" role="joint1">
            <mechanical_reduction>4.0</mechanical_reduction></joint>
        </transmission>
      </ros2_control></model>""")
    )
    assert [hw.name for hw in robot.ros2_control] == ["sys"]
    assert robot.ros2_control[0].joints[0].name == "j"
    assert len(robot.transmissions) == 1
    assert robot.transmissions[0].joints[0].mechanical_reduction == 4.0


def test_sensor_pose_relative_to_frame_and_scoped_name() -> None:
    robot = load_text(
        sdf("""<model name="m"><frame name="F"><pose>0 0 1 0 0 0</pose></frame>
      <model name="sub"><link name="l"><pose>1 0 0 0 0 0</pose>
        <sensor name="imu" type="imu"><pose relative_to="__model__">0 0 0.5 0 0 0</pose></sensor>
          </link></model>
      <link name="base"><sensor name="cam" type="camera"><pose relative_to="F">0 0 0 0 0 0</pose>
        </sensor></link>
    </model>""")
    )
    by_name = {s.name: s for s in robot.sensors}
    assert set(by_name) == {"sub::imu", "cam"}
    assert by_name["sub::imu"].link == "sub::l"
    np.testing.assert_allclose(by_name["sub::imu"].pose.xyz, (-1.0, 0.0, 0.5), atol=TOL)
    np.testing.assert_allclose(by_name["cam"].pose.xyz, (0.0, 0.0, 1.0), atol=TOL)


def test_joint_sensor_attached_to_joint() -> None:
    robot = load_text(
        sdf("""<model name="m"><link name="a"/><link name="b"/>
      <joint name="j" type="fixed"><parent>a</parent><child>b</child>
        <sensor name="ft" type="force_torque"><pose>0 0 0.1 0 0 0</pose></sensor></joint>
          </model>""")
    )
    (ft,) = robot.sensors
    assert (ft.name, ft.joint, ft.link) == ("ft", "j", "b")
    assert ft.pose.xyz == (0.0, 0.0, 0.1)


# -- errors -------------------------------------------------------------------------------------


def test_missing_version_is_refused() -> None:
    with pytest.raises(UnsupportedError, match=r"<sdf> has no version attribute.*Fix: add version"):
        load_text('<sdf><model name="m"><link name="a"/></model></sdf>')


@pytest.mark.parametrize("version", ["1.3", "1.12", "2.0", "one"])
def test_unsupported_version_is_refused(version: str) -> None:
    with pytest.raises(
        UnsupportedError, match=rf"version '{version}' is not supported \(supported: 1.4 to 1.11\)"
    ):
        load_text(sdf('<model name="m"><link name="a"/></model>', version=version))


def test_no_model_or_world_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"neither <model> nor <world>"):
        load_text(sdf("<light name='sun'/>"))


def test_duplicate_frame_names_are_refused() -> None:
    with pytest.raises(
        DuplicateNameError, match=r"<string>:\d+: <frame name=\"a\">: name 'a' is already used"
    ):
        load_text(sdf('<model name="m"><link name="a"/><frame name="a"/></model>'))


def test_duplicate_model_names_in_world_are_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"two models named 'm'"):
        load_text(
            sdf(
                '<world name="w"><model name="m"><link name="a"/></model><model name="m"><link '
                'name="a"/></model></world>'
            )
        )


@pytest.mark.parametrize("name", ["world", "__model__", "__x__"])
def test_reserved_names_are_refused(name: str) -> None:
    with pytest.raises(InvalidValueError, match=rf"name '{name}' is reserved"):
        load_text(sdf(f'<model name="m"><link name="{name}"/></model>'))


def test_unnamed_link_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"<link> has no name"):
        load_text(sdf('<model name="m"><link/></model>'))


def test_unknown_parent_is_refused() -> None:
    with pytest.raises(
        MissingReferenceError,
        match=r"parent 'nope' is not a frame of model '__model__' \(known: a, b, j\)",
    ):
        load_text(
            sdf("""<model name="m"><link name="a"/><link name="b"/>
          <joint name="j" type="fixed"><parent>nope</parent><child>b</child></joint></model>""")
        )


def test_unknown_child_is_refused() -> None:
    with pytest.raises(MissingReferenceError, match=r"child 'nope' is not a frame"):
        load_text(
            sdf("""<model name="m"><link name="a"/>
          <joint name="j" type="fixed"><parent>a</parent><child>nope</child></joint></model>""")
        )


def test_missing_parent_or_child_element_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"joint has no <child>"):
        load_text(
            sdf(
                '<model name="m"><link name="a"/><joint name="j" type="fixed"><parent>a</parent>'
                "</joint></model>"
            )
        )
    with pytest.raises(InvalidValueError, match=r"joint has no <parent>"):
        load_text(
            sdf(
                '<model name="m"><link name="a"/><joint name="j" type="fixed"><child>a</child>'
                "</joint></model>"
            )
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


def test_unknown_canonical_link_is_refused() -> None:
    with pytest.raises(MissingReferenceError, match=r"canonical_link 'x' is not a frame"):
        load_text(sdf('<model name="m" canonical_link="x"><link name="a"/></model>'))


def test_frame_attached_to_linkless_model_is_refused() -> None:
    robot_xml = sdf("""<model name="m"><link name="a"/><model name="empty"><frame name="f"/></model>
      <joint name="j" type="fixed"><parent>a</parent><child>empty</child></joint></model>""")
    with pytest.raises(MissingReferenceError, match=r"is not attached to any link"):
        load_text(robot_xml)


def test_unnamed_model_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"<model> has no name"):
        load_text(sdf("<model><link name='a'/></model>"))


def test_model_pose_relative_to_world_frame_warns() -> None:
    from sdf_bridge.description.sdf import load_sdf
    from sdf_bridge.description.xmlio import ParseContext, parse_xml

    ctx = ParseContext()
    robot = load_sdf(
        parse_xml(
            sdf(
                '<world name="w"><frame name="f"/><model name="m"><pose relative_to="f">1 0 0 0 '
                '0 0</pose><link name="a"/></model></world>'
            )
        ),
        ctx,
        base_dir=".",
    )
    assert robot.pose.xyz == (1.0, 0.0, 0.0)
    assert any("taken relative to the world" in w for w in ctx.warnings)
