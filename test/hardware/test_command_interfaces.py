"""sdf_bridge.hardware.command_interfaces: which joints take commands, on which interfaces."""

from __future__ import annotations

from sdf_bridge.description import load
from sdf_bridge.hardware.command_interfaces import commandable_joints, listed_command_interfaces
from sdf_bridge.transmissions import TransmissionMap

JOINTS = """<link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <joint name="j1" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1"
    effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="b"/><child link="c"/><limit lower="-1" upper="1"
    effort="1" velocity="1"/></joint>
  <joint name="m" type="revolute"><parent link="c"/><child link="d"/><limit lower="-1" upper="1"
    effort="1" velocity="1"/>
    <mimic joint="j1"/></joint>"""


def test_without_a_block_every_map_joint_has_every_interface() -> None:
    robot = load(f'<robot name="r">{JOINTS}</robot>')
    assert listed_command_interfaces(robot) == {}
    assert commandable_joints(robot, TransmissionMap.from_robot(robot)) == {
        "j1": ("position", "velocity", "effort"),
        "j2": ("position", "velocity", "effort"),
    }


def test_a_block_lists_them_followers_and_state_only_joints_included() -> None:
    robot = load(f"""<robot name="r">{JOINTS}
      <ros2_control name="s" type="system"><hardware><plugin>x/Y</plugin></hardware>
        <joint name="j1"><command_interface name="effort"/><command_interface name="position"/>
          <command_interface name="torque"/></joint>
        <joint name="j2"><state_interface name="position"/></joint>
        <joint name="m"><state_interface name="position"/></joint>
      </ros2_control></robot>""")
    assert listed_command_interfaces(robot) == {"j1": ("position", "effort"), "j2": (), "m": ()}
    assert commandable_joints(robot, TransmissionMap.from_robot(robot)) == {
        "j1": ("position", "effort")
    }
