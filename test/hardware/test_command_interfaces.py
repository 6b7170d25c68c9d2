"""sdf_bridge.hardware.command_interfaces: which joints take commands, on which interfaces."""

from __future__ import annotations

from sdf_bridge.description import load
from sdf_bridge.hardware.command_interfaces import (
    block_interfaces,
    commandable_joints,
    listed_command_interfaces,
    narrowed_interfaces,
    offered_command_interfaces,
    transmission_interfaces,
)
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


#: j1 effort only by its classic transmission; j2 position and velocity (one on the actuator,
#: the legacy place); m a mimic follower.
TRANSMISSIONS = """
  <transmission name="t1"><type>transmission_interface/SimpleTransmission</type>
    <joint name="j1"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface>
    </joint><actuator name="a1"/></transmission>
  <transmission name="t2"><type>transmission_interface/SimpleTransmission</type>
    <joint name="j2"/><actuator name="a2">
      <hardwareInterface>PosVelJointInterface</hardwareInterface></actuator></transmission>"""


def test_classic_transmissions_narrow_what_a_generated_block_offers() -> None:
    robot = load(f'<robot name="r">{JOINTS}{TRANSMISSIONS}</robot>')
    tmap = TransmissionMap.from_robot(robot)
    assert transmission_interfaces(robot) == {"j1": ("effort",), "j2": ("position", "velocity")}
    assert offered_command_interfaces(robot, tmap) == {
        "j1": ("effort",),
        "j2": ("position", "velocity"),
    }
    # the bridge's own joint_commands still take all three (the simulating backends drive them)
    assert commandable_joints(robot, tmap) == {
        "j1": ("position", "velocity", "effort"),
        "j2": ("position", "velocity", "effort"),
    }


def test_a_ros2_control_listing_wins_over_classic_transmissions() -> None:
    robot = load(f"""<robot name="r">{JOINTS}{TRANSMISSIONS}
      <ros2_control name="s" type="system"><hardware><plugin>x/Y</plugin></hardware>
        <joint name="j1"><command_interface name="position"/></joint>
        <joint name="j2"><command_interface name="effort"/></joint>
      </ros2_control></robot>""")
    tmap = TransmissionMap.from_robot(robot)
    assert offered_command_interfaces(robot, tmap) == {"j1": ("position",), "j2": ("effort",)}


def test_state_only_and_unknown_hardware_interfaces_declare_no_command_interface() -> None:
    robot = load(
        f'<robot name="r">{JOINTS}'
        + TRANSMISSIONS.replace(
            "hardware_interface/EffortJointInterface", "hardware_interface/JointStateInterface"
        ).replace("PosVelJointInterface", "my_vendor/TorqueInterface")
        + "</robot>"
    )
    assert transmission_interfaces(robot) == {}
    every = ("position", "velocity", "effort")
    assert offered_command_interfaces(robot, TransmissionMap.from_robot(robot)) == {
        "j1": every,
        "j2": every,
    }


def test_a_requested_mode_is_narrowed_to_what_the_joint_offers() -> None:
    every = ("position", "velocity", "effort")
    assert narrowed_interfaces(("position",), every) == ("position",)
    assert narrowed_interfaces(("position",), ("effort",)) == ("effort",)
    assert narrowed_interfaces(("velocity", "position"), ("position", "velocity")) == (
        "position",
        "velocity",
    )
    assert narrowed_interfaces(("effort",), ("position", "velocity")) == ("position", "velocity")
    assert narrowed_interfaces((), ("effort",)) == ("effort",)


def test_a_requested_mode_is_narrowed_by_the_classic_transmissions_only() -> None:
    """j1's transmission declares EffortJointInterface: effort in any requested mode; j2 has
    none: the mode; with a <ros2_control> block listing j1 position-only, the listing is for
    the replaced hardware and the mode stands."""
    trans = """<transmission name="t1"><type>transmission_interface/SimpleTransmission</type>
      <joint name="j1"><hardwareInterface>hardware_interface/EffortJointInterface
      </hardwareInterface></joint>
      <actuator name="m1"><mechanicalReduction>1</mechanicalReduction></actuator></transmission>"""
    robot = load(f'<robot name="r">{JOINTS}{trans}</robot>')
    tmap = TransmissionMap.from_robot(robot)
    assert block_interfaces(robot, tmap, ("position",)) == {
        "j1": ("effort",),
        "j2": ("position",),
    }
    assert block_interfaces(robot, tmap, ("velocity",)) == {
        "j1": ("effort",),
        "j2": ("velocity",),
    }
    assert block_interfaces(robot, tmap) == {
        "j1": ("effort",),
        "j2": ("position", "velocity", "effort"),
    }
    block = """<ros2_control name="s" type="system"><hardware><plugin>x/Y</plugin></hardware>
      <joint name="j1"><command_interface name="position"/></joint></ros2_control>"""
    listed = load(f'<robot name="r">{JOINTS}{trans}{block}</robot>')
    assert block_interfaces(listed, TransmissionMap.from_robot(listed), ("velocity",)) == {
        "j1": ("velocity",)
    }
