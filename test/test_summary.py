"""Tests of sdf_bridge.summary: what the bridge does with each joint and sensor (check's tables)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from lxml import etree
from prerequisites import SHARED_ROBOTS, shared_robot_file, shared_skip_mark

from sdf_bridge.description import load, load_with_xml
from sdf_bridge.description.model import Robot, Sensor, World
from sdf_bridge.errors import ConfigError
from sdf_bridge.hardware.topic_block import with_topic_block
from sdf_bridge.summary import STATE, JointView, joint_views, missing_meshes, publishes

SCREW = """<sdf version="1.9"><model name="m"><link name="a"/><link name="b"/>
  <joint name="s" type="screw"><parent>a</parent><child>b</child>
    <screw_thread_pitch>0.01</screw_thread_pitch>
    <axis><limit><lower>-3</lower><upper>3</upper><effort>2</effort><velocity>4</velocity></limit>
      </axis></joint>
</model></sdf>"""


def test_a_screw_is_driven_and_its_translation_published() -> None:
    """The limiter bounds a screw's velocity and effort; its position range is the simulator's
    stop."""
    views, warnings, problems = joint_views(load(SCREW))
    assert (warnings, problems) == ([], [])
    every = "position,velocity,effort"
    assert views["s"] == JointView(
        command=every, state=STATE, modes=every, velocity=4.0, effort=2.0
    )
    translation = views["s/translation"]
    assert translation.command == "-" and translation.state == STATE
    assert translation.note == f"follows s (screw, {0.01 / (2 * math.pi):g} m/rad)"


def test_a_robot_the_bridge_refuses_gives_the_problem() -> None:
    robot = load("""<robot name="r"><link name="a"/><link name="b"/>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
      <ros2_control name="hw" type="system"><hardware><plugin>x/Y</plugin></hardware>
        <joint name="j"><command_interface name="position"><param name="min">2</param>
        </command_interface></joint></ros2_control></robot>""")
    views, warnings, problems = joint_views(robot)
    assert views == {"j": JointView()} and warnings == []
    assert problems == [
        "joint 'j': <ros2_control> position min/max [2.0, None] do not overlap the URDF range "
        "[-1.0, 1.0]. Fix: correct the interface min/max."
    ]


def test_an_unbuildable_transmission_is_read_as_the_simulating_backends_do() -> None:
    """They run without it (its joint driven directly): no problem."""
    robot = load("""<robot name="r"><link name="a"/><link name="b"/>
      <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
      <transmission name="t"><type>transmission_interface/DifferentialTransmission</type>
        <joint name="j"/><actuator name="m"/></transmission></robot>""")
    views, warnings, problems = joint_views(robot)
    assert (list(views), views["j"].command, warnings, problems) == (
        ["j"],
        "position,velocity,effort",
        [],
        [],
    )


def test_an_unknown_transmission_type_is_read_as_the_simulating_backends_do(data_dir) -> None:
    """Identity actuators, the joints commandable: no problem (the built-ins run it)."""
    views, _, problems = joint_views(load(data_dir / "made_up_transmission.urdf"))
    assert problems == []
    # the generated block offers the <hardwareInterface>'s (PositionJointInterface) only
    assert [(v.command, v.modes, v.lower, v.upper) for v in views.values()] == [
        ("position,velocity,effort", "position", -1.3, 1.3),
        ("position,velocity,effort", "position", -0.3, 0.8),
    ]


def test_publishes_names_topics_and_messages() -> None:
    assert publishes(Sensor("lidar", "ray", "base", topic="scan")) == (
        "scan (sensor_msgs/LaserScan (one vertical sample) or PointCloud2)"
    )
    assert publishes(Sensor("alt", "altimeter", "base", raw_type="altimeter")) == (
        "nothing: the bridge simulates no altimeter sensor (warned at start)"
    )
    assert publishes(Sensor("gps", "gps", "base", raw_type="navsat")) == (
        "sensors/gps (sensor_msgs/NavSatFix)"
    )
    assert publishes(Sensor("mag", "magnetometer", "base")) == (
        "sensors/mag (sensor_msgs/MagneticField)"
    )
    assert publishes(Sensor("baro", "air_pressure", "base", topic="air_pressure")) == (
        "air_pressure (sensor_msgs/FluidPressure)"
    )


@shared_skip_mark()
@pytest.mark.parametrize("name", SHARED_ROBOTS)
def test_the_modes_are_the_generated_blocks_interfaces(name: str, robots_dir: Path) -> None:
    """For every robot (and world model) of the corpus that URDF can carry, check's ``modes``
    of each joint are the command interfaces of the topic-based block ``sdf-bridge control``
    generates (``-`` where none; no block made for a robot without commandable joints, every
    ``modes`` then ``-``)."""
    model, _warnings, xml = load_with_xml(shared_robot_file(robots_dir, name))
    robots: list[Robot] = list(model.models.values()) if isinstance(model, World) else [model]
    for robot in robots:
        views, _warnings, problems = joint_views(robot)
        assert problems == [], (name, robot.name)
        modes = {joint: view.modes for joint, view in views.items() if view.modes != "-"}
        try:
            text = with_topic_block(robot, xml)
        except ConfigError as exc:
            if "does not fit URDF" in str(exc):
                continue
            assert "has no commandable joint" in str(exc) and modes == {}, (name, robot.name)
            continue
        block = etree.fromstring(text.encode()).find("ros2_control")
        offered = {
            j.get("name"): ",".join(c.get("name") for c in j.findall("command_interface"))
            for j in block.findall("joint")
        }
        assert modes == {j: m for j, m in offered.items() if m}, (name, robot.name)


def test_a_mesh_file_that_is_not_there_is_warned_once_per_file(tmp_path: Path) -> None:
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "there.stl").write_bytes(b"solid x\nendsolid x\n")
    urdf = tmp_path / "r.urdf"
    urdf.write_text(
        '<robot name="m">\n'
        '<link name="base"><visual><geometry><mesh filename="meshes/gone.stl"/></geometry>'
        '</visual><collision><geometry><mesh filename="meshes/gone.stl"/></geometry>'
        "</collision></link>\n"
        '<link name="l1"><visual><geometry><mesh filename="meshes/there.stl"/></geometry>'
        "</visual></link>\n"
        '<joint name="j" type="fixed"><parent link="base"/><child link="l1"/></joint>\n'
        "</robot>\n"
    )
    (warning,) = missing_meshes(load(urdf))
    assert warning.startswith(
        f"{urdf}:2: link 'base': mesh 'meshes/gone.stl' not found at "
        f"'{tmp_path / 'meshes' / 'gone.stl'}'; MuJoCo leaves its geoms out"
    )
    assert "Fix: " in warning


def test_an_unresolved_mesh_is_left_to_the_loaders_warning() -> None:
    robot = load(
        '<robot name="m"><link name="base"><visual><geometry>'
        '<mesh filename="package://nowhere_pkg/m.stl"/></geometry></visual></link></robot>'
    )
    assert missing_meshes(robot) == []
