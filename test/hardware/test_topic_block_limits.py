"""The description handed to the controller_manager is one urdfdom reads whenever the bridge
accepts the robot (:func:`~sdf_bridge.hardware.topic_block.fill_limits`): a revolute or
prismatic joint without ``<limit>``, a ``<limit>`` without ``effort``/``velocity`` (the bridge:
not limited; urdfdom: the whole file refused, and ``sdf-bridge control`` waited its whole
``--timeout`` for a controller_manager that never came up), and an ``effort``/``velocity`` of 0
(the bridge: not limited; ros2_control: a bound of 0) get the values the bridge enforces, the
stand-in 1e16 where it enforces none. Checked with urdfdom's own ``check_urdf``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from lxml import etree
from prerequisites import require_tool

from sdf_bridge.app.control_launch import control_plan
from sdf_bridge.description import load_with_xml
from sdf_bridge.hardware.topic_block import fill_limits, with_topic_block, with_urdfdom_limits
from sdf_bridge.limits import JointLimiter
from sdf_bridge.ros.control_command import control_parser, package_share, prepare

INERTIAL = (
    '<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" '
    'iyz="0"/></inertial>'
)
#: elbow: revolute, no <limit>; slide: prismatic, bounds only; wrist: continuous, effort 0;
#: hinge: complete (nothing to fill).
ROBOT = f"""<robot name="nolim">
  <link name="base"/>
  <link name="l1">{INERTIAL}</link><link name="l2">{INERTIAL}</link>
  <link name="l3">{INERTIAL}</link><link name="l4">{INERTIAL}</link>
  <joint name="elbow" type="revolute"><parent link="base"/><child link="l1"/>
    <axis xyz="0 0 1"/></joint>
  <joint name="slide" type="prismatic"><parent link="l1"/><child link="l2"/>
    <axis xyz="1 0 0"/><limit lower="-0.5" upper="0.5"/></joint>
  <joint name="wrist" type="continuous"><parent link="l2"/><child link="l3"/>
    <axis xyz="0 0 1"/><limit effort="0" velocity="2"/></joint>
  <joint name="hinge" type="revolute"><parent link="l3"/><child link="l4"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1.5" effort="7" velocity="3"/></joint>
</robot>
"""
#: The <limit> attributes each joint has afterwards.
FILLED = {
    "elbow": {"lower": "-1e+16", "upper": "1e+16", "effort": "1e+16", "velocity": "1e+16"},
    "slide": {"lower": "-0.5", "upper": "0.5", "effort": "1e+16", "velocity": "1e+16"},
    "wrist": {"effort": "1e+16", "velocity": "2"},
    "hinge": {"lower": "-1", "upper": "1.5", "effort": "7", "velocity": "3"},
}
#: The same robot with its own topic-based block (used as it is, but for the limits).
OWN_BLOCK = """  <ros2_control name="own" type="system">
    <hardware><plugin>joint_state_topic_hardware_interface/JointStateTopicSystem</plugin>
      <param name="joint_commands_topic">/sdf_bridge/joint_commands</param>
      <param name="joint_states_topic">/sdf_bridge/joint_states</param></hardware>
    <joint name="elbow"><command_interface name="position"/>
      <state_interface name="position"/><state_interface name="velocity"/></joint>
  </ros2_control>
</robot>
"""


def _limits(text: str) -> dict[str, dict[str, str]]:
    document = etree.fromstring(text.encode())
    return {j.get("name"): dict(j.find("limit").attrib) for j in document.findall("joint")}


def _check_urdf(text: str, path: Path) -> None:
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [require_tool("check_urdf", "liburdfdom-tools"), str(path)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert "Successfully Parsed XML" in done.stdout


@pytest.fixture
def robot_file(tmp_path: Path) -> Path:
    path = tmp_path / "nolim.urdf"
    path.write_text(ROBOT, encoding="utf-8")
    return path


def test_urdfdom_refuses_the_robot_as_written(robot_file: Path) -> None:
    done = subprocess.run(
        [require_tool("check_urdf", "liburdfdom-tools"), str(robot_file)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode != 0
    assert "Joint [elbow] is of type REVOLUTE but it does not specify limits" in done.stderr


def test_the_missing_limits_are_filled_with_what_the_bridge_enforces(robot_file: Path) -> None:
    robot, _warnings, xml = load_with_xml(robot_file)
    document = etree.fromstring(xml.encode())
    assert fill_limits(document, robot) == ["elbow", "slide", "wrist"]
    text = etree.tostring(document, encoding="unicode")
    assert _limits(text) == FILLED
    # the bridge, reading the filled text, enforces what it enforced on the original
    filled, _w, _x = load_with_xml(text)
    for name in FILLED:
        before = JointLimiter.from_robot(robot, [name]).limits[0]
        after = JointLimiter.from_robot(filled, [name]).limits[0]
        for field in ("min_position", "max_position", "max_velocity", "max_effort"):
            ours, written = getattr(before, field), getattr(after, field)
            assert written == ours or (abs(ours) == float("inf") and abs(written) == 1e16), (
                name,
                field,
            )


def test_the_generated_description_passes_check_urdf(robot_file: Path, tmp_path: Path) -> None:
    robot, _warnings, xml = load_with_xml(robot_file)
    text = with_topic_block(robot, xml)
    assert {k: v for k, v in _limits(text).items()} == FILLED
    _check_urdf(text, tmp_path / "topic.urdf")


def test_control_writes_a_description_urdfdom_reads(robot_file: Path, tmp_path: Path) -> None:
    """``sdf-bridge control``'s robot_description.urdf (what the bridge runs and publishes to
    the controller_manager)."""
    setup = prepare(control_parser().parse_args(["--description", str(robot_file)]), tmp_path)
    _check_urdf(setup.description_file.read_text(), tmp_path / "check.urdf")
    assert _limits(setup.description_file.read_text()) == FILLED


def test_a_topic_based_block_of_ones_own_gets_the_limits_too(tmp_path: Path) -> None:
    path = tmp_path / "own.urdf"
    path.write_text(ROBOT.replace("</robot>\n", OWN_BLOCK), encoding="utf-8")
    plan = control_plan({"description_file": str(path), "controllers": ""}, package_share())
    assert _limits(plan.robot_description) == FILLED
    assert plan.robot_description.count("<ros2_control") == 1  # (its own block, kept)
    _check_urdf(plan.robot_description, tmp_path / "check.urdf")


def test_a_description_needing_nothing_is_returned_as_it_is(tmp_path: Path) -> None:
    complete = ROBOT.replace(
        '<axis xyz="0 0 1"/></joint>',
        '<axis xyz="0 0 1"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>',
    )
    complete = complete.replace(
        '<limit lower="-0.5" upper="0.5"/>',
        '<limit lower="-0.5" upper="0.5" effort="1" velocity="1"/>',
    )
    complete = complete.replace('effort="0" velocity="2"', 'effort="4" velocity="2"')
    robot, _warnings, xml = load_with_xml(complete)
    assert with_urdfdom_limits(robot, xml) is xml
