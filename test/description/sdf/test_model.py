"""Tests of sdf_bridge.description.sdf.model / load_sdf: shared SDF models load with the counts
of robots/INDEX.md, worlds, nested models, plugins, ros2_control, and every error path of the
flattening (exact values, tolerance 1e-9 unless stated); the joints' in test_joint_tree.py."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from sdf_helpers import load_text, sdf

from sdf_bridge.description import load
from sdf_bridge.description.model import Robot, World
from sdf_bridge.description.sdf import load_sdf
from sdf_bridge.description.xmlio import ParseContext, parse_xml
from sdf_bridge.errors import (
    DuplicateNameError,
    InvalidValueError,
    MissingReferenceError,
    UnsupportedError,
)

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


def test_model_pose_static_and_root() -> None:
    robot = load_text(
        sdf('<model name="m"><static>true</static><pose>1 2 3 0 0 0</pose><link name="a"/></model>')
    )
    assert robot.static is True
    assert robot.pose.xyz == (1.0, 2.0, 3.0)
    assert robot.root_link == "a"
    assert robot.links["a"].pose.xyz == (0.0, 0.0, 0.0)  # link poses are in the model frame


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
