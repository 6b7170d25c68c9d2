"""Tests of sdf_bridge.description.validate through ``load``: tree structure, references,
unique names and ordered limits — each error path with its type and message."""

from __future__ import annotations

import re

import pytest

from sdf_bridge.description import load, load_with_warnings
from sdf_bridge.errors import (
    DuplicateNameError,
    InvalidValueError,
    KinematicTreeError,
    MissingReferenceError,
)


def urdf(body: str) -> str:
    return f'<?xml version="1.0"?>\n<robot name="r">\n{body}\n</robot>\n'


def joint(name: str, parent: str, child: str, kind: str = "continuous", extra: str = "") -> str:
    return (
        f'<joint name="{name}" type="{kind}"><parent link="{parent}"/><child '
        f'link="{child}"/>{extra}</joint>\n'
    )


LINKS = '<link name="a"/>\n<link name="b"/>\n<link name="c"/>\n'
CHAIN = LINKS + joint("j1", "a", "b") + joint("j2", "b", "c")

CLASSIC = """<transmission name="t1">
  <type>transmission_interface/SimpleTransmission</type>
  <joint name="{joint}">
    <hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
  <actuator name="m1"><mechanicalReduction>10</mechanicalReduction></actuator>
</transmission>"""

ROS2_CONTROL = """<ros2_control name="{block}" type="system">
  <hardware><plugin>mock_components/GenericSystem</plugin></hardware>
  <joint name="{joint}"><command_interface name="position"/><state_interface name="position"/>
    </joint>
</ros2_control>"""


def test_valid_chain_loads() -> None:
    robot = load(urdf(CHAIN))
    assert robot.root_link == "a"
    assert list(robot.joints) == ["j1", "j2"]


@pytest.mark.parametrize(
    "parent, child, role, missing", [("a", "zz", "child", "zz"), ("yy", "b", "parent", "yy")]
)
def test_missing_link(parent: str, child: str, role: str, missing: str) -> None:
    with pytest.raises(
        MissingReferenceError,
        match=rf"<joint name=\"j\">: {role} link '{missing}' of joint 'j' does not exist",
    ):
        load(urdf('<link name="a"/><link name="b"/>' + joint("j", parent, child)))


def test_cycle() -> None:
    body = (
        LINKS
        + '<link name="d"/>'
        + joint("j1", "a", "b")
        + joint("j2", "c", "d")
        + joint("j3", "d", "c")
    )
    with pytest.raises(
        KinematicTreeError, match=r"links 'c', 'd' form a cycle not connected to root 'a'"
    ):
        load(urdf(body))


def test_cycle_through_every_link_has_no_root() -> None:
    body = LINKS + joint("j1", "a", "b") + joint("j2", "b", "c") + joint("j3", "c", "a")
    with pytest.raises(KinematicTreeError, match=r"joints form a cycle and there is no root link"):
        load(urdf(body))


def test_two_roots() -> None:
    with pytest.raises(
        KinematicTreeError,
        match=r"<string>:5: <link name=\"c\">: the robot has 2 root links \('a', 'c'\)",
    ):
        load(urdf(LINKS + joint("j1", "a", "b")))


def test_link_with_two_parents() -> None:
    with pytest.raises(
        KinematicTreeError, match=r"link 'c' is the child of two joints, 'j1' and 'j2'"
    ):
        load(urdf(LINKS + joint("j1", "a", "c") + joint("j2", "b", "c")))


def test_joint_to_itself() -> None:
    with pytest.raises(KinematicTreeError, match=r"joint 'j' connects link 'a' to itself"):
        load(urdf('<link name="a"/>' + joint("j", "a", "a")))


def test_no_links() -> None:
    with pytest.raises(KinematicTreeError, match="the robot has no links"):
        load(urdf(""))


@pytest.mark.parametrize(
    "body, kind, name",
    [
        ('<link name="a"/><link name="a"/>', "link", "a"),
        (CHAIN + joint("j1", "a", "c"), "joint", "j1"),
    ],
)
def test_duplicate_names(body: str, kind: str, name: str) -> None:
    with pytest.raises(DuplicateNameError, match=rf"two {kind}s are named '{name}'"):
        load(urdf(body))


def test_second_material_of_a_name_is_skipped() -> None:
    robot = load(
        urdf(
            '<material name="m"><color rgba="1 0 0 1"/></material><material name="m"><color '
            'rgba="0 1 0 1"/></material><link name="a"/>'
        )
    )
    assert robot.materials["m"].color == (1.0, 0.0, 0.0, 1.0)
    assert [str(s) for s in robot.skipped] == [
        "<string>:3: material 'm' skipped: two materials are named 'm'. Fix: rename one of the "
        "materials"
    ]


def test_second_ros2_control_block_of_a_name_is_skipped() -> None:
    robot = load(
        urdf(
            CHAIN
            + ROS2_CONTROL.format(block="hw", joint="j1")
            + ROS2_CONTROL.format(block="hw", joint="j2")
        )
    )
    assert [(b.name, [j.name for j in b.joints]) for b in robot.ros2_control] == [("hw", ["j1"])]
    assert [(s.kind, s.name) for s in robot.skipped] == [("ros2_control", "hw")]
    assert robot.skipped[0].reason == (
        "a previous <ros2_control> block is named 'hw'. Fix: rename one of the blocks"
    )


def test_duplicate_sensor_on_one_link() -> None:
    sensor = (
        '<gazebo reference="b"><sensor name="s" type="imu"><update_rate>10</update_rate>'
        "</sensor></gazebo>"
    )
    robot = load(urdf(CHAIN + sensor + "\n" + sensor))
    assert [s.name for s in robot.sensors] == ["s"]
    assert [str(s) for s in robot.skipped] == [
        "<string>:9: sensor 's' skipped: a previous sensor (on 'b', line 8) has this name, and "
        "sensor names key topics and readings. Fix: rename one of the sensors"
    ]


def test_same_sensor_name_on_two_links() -> None:
    body = (
        CHAIN + '<gazebo reference="b"><sensor name="s" type="imu"/></gazebo><gazebo reference="c">'
        '<sensor name="s" type="imu"/></gazebo>'
    )
    robot = load(urdf(body))
    assert [(s.name, s.link) for s in robot.sensors] == [("s", "b")]
    assert [(s.kind, s.name) for s in robot.skipped] == [("sensor", "s")]
    assert robot.skipped[0].reason.startswith("a previous sensor (on 'b', line 8) has this name")


def test_gazebo_sensor_on_missing_link_is_not_simulated_with_a_warning() -> None:
    """Gazebo ignores an extension whose reference names nothing, sensors included."""
    robot, warnings = load_with_warnings(
        urdf(
            CHAIN + '<gazebo reference="nowhere"><sensor name="s" type="imu"/>'
            '<sensor name="t" type="ray"/></gazebo>'
        )
    )
    assert robot.sensors == ()
    assert warnings == [
        f"<string>: sensor {name!r} in <gazebo reference=\"nowhere\"> (line 8): 'nowhere' is no "
        "link or joint of the robot, so Gazebo ignores the extension; the sensor is not "
        "simulated"
        for name in ("s", "t")
    ] + [
        '<string>: <gazebo reference="nowhere"> (line 8) names no link or joint; simulators '
        "ignore it"
    ]


def test_gazebo_camera_on_a_joint_goes_to_its_child_link_with_a_warning() -> None:
    robot, warnings = load_with_warnings(
        urdf(
            CHAIN + '<gazebo reference="j2"><sensor name="cam" type="camera"/>'
            '<sensor name="ft" type="force_torque"/></gazebo>'
        )
    )
    assert [(s.name, s.link, s.joint) for s in robot.sensors] == [
        ("cam", "c", "j2"),
        ("ft", "c", "j2"),
    ]
    assert warnings == [
        "<string>: camera sensor 'cam' in <gazebo reference=\"j2\"> (line 8) names a joint, not "
        "a link; it is attached to the joint's frame on its child link 'c', as Gazebo does"
    ]


def test_unknown_mimic_target() -> None:
    with pytest.raises(
        MissingReferenceError, match=r"joint 'j2' mimics 'ghost', which is not a joint of the robot"
    ):
        load(
            urdf(
                LINKS
                + joint("j1", "a", "b")
                + joint("j2", "b", "c", extra='<mimic joint="ghost"/>')
            )
        )


def test_self_mimic() -> None:
    with pytest.raises(InvalidValueError, match=r"joint 'j2' mimics itself"):
        load(
            urdf(LINKS + joint("j1", "a", "b") + joint("j2", "b", "c", extra='<mimic joint="j2"/>'))
        )


def test_mimic_of_fixed_joint_warns() -> None:
    _, warnings = load_with_warnings(
        urdf(
            LINKS
            + joint("j1", "a", "b", "fixed")
            + joint("j2", "b", "c", extra='<mimic joint="j1"/>')
        )
    )
    assert any("mimics fixed joint 'j1'" in w for w in warnings)


def test_lower_above_upper() -> None:
    limit = '<limit lower="1" upper="-1" effort="1" velocity="1"/>'
    with pytest.raises(
        InvalidValueError, match=r"lower limit 1.0 is above upper limit -1.0\. Fix: swap"
    ):
        load(urdf(LINKS + joint("j1", "a", "b", "revolute", limit) + joint("j2", "b", "c")))


def test_soft_lower_above_soft_upper_skips_the_safety_controller() -> None:
    extra = (
        '<limit lower="-1" upper="1" effort="1" velocity="1"/><safety_controller '
        'soft_lower_limit="0.5" soft_upper_limit="0.2" k_velocity="1"/>'
    )
    robot = load(urdf(LINKS + joint("j1", "a", "b", "revolute", extra) + joint("j2", "b", "c")))
    assert robot.joints["j1"].safety_controller is None
    assert [(s.kind, s.name) for s in robot.skipped] == [("safety_controller", "j1")]
    assert robot.skipped[0].reason == (
        "soft_lower_limit 0.5 is above soft_upper_limit 0.2; the joint has no soft limits. Fix: "
        "swap soft_lower_limit and soft_upper_limit"
    )


def test_classic_transmission_naming_a_missing_joint_is_skipped() -> None:
    robot = load(urdf(CHAIN + CLASSIC.format(joint="ghost")))
    assert robot.transmissions == ()
    assert [(s.kind, s.name) for s in robot.skipped] == [("transmission", "t1")]
    assert robot.skipped[0].reason == (
        "it names joint 'ghost', which is not a joint of the robot. Fix: name an existing joint "
        "in the transmission's <joint name=...>"
    )


def test_ros2_control_transmission_naming_a_missing_joint() -> None:
    block = """<ros2_control name="hw" type="system">
  <hardware><plugin>mock_components/GenericSystem</plugin></hardware>
  <joint name="j1"><command_interface name="position"/><state_interface name="position"/></joint>
  <transmission name="t2"><plugin>transmission_interface/SimpleTransmission</plugin>
    <actuator name="m1" role="actuator1"/>
    <joint name="ghost" role="joint1"><mechanical_reduction>2</mechanical_reduction></joint>
  </transmission>
</ros2_control>"""
    robot = load(urdf(CHAIN + block))  # the block checks its transmissions: it is skipped
    assert (robot.transmissions, robot.ros2_control) == ((), ())
    assert [str(s) for s in robot.skipped] == [
        "<string>:8: ros2_control 'hw' skipped: transmission 't2' names joint 'ghost', which is "
        "not a <joint> of ros2_control 'hw' (line 13). Fix: add <joint name=\"ghost\"> with its "
        "interfaces to the block, or fix the name"
    ]


def test_ros2_control_joint_missing_is_skipped() -> None:
    robot = load(urdf(CHAIN + ROS2_CONTROL.format(block="hw", joint="ghost")))
    assert [len(b.joints) for b in robot.ros2_control] == [0]
    assert [(s.kind, s.name) for s in robot.skipped] == [("ros2_control joint", "ghost")]
    assert robot.skipped[0].reason == (
        "ros2_control block 'hw' names joint 'ghost', which is not a joint of the robot. Fix: "
        "name an existing joint in <joint name=...>"
    )


def test_valid_transmission_and_ros2_control_load() -> None:
    robot = load(
        urdf(CHAIN + CLASSIC.format(joint="j1") + ROS2_CONTROL.format(block="hw", joint="j2"))
    )
    assert [t.name for t in robot.transmissions] == ["t1"]
    assert robot.transmissions[0].joints[0].name == "j1"
    assert [hc.name for hc in robot.ros2_control] == ["hw"]


def test_unknown_transmission_type_is_kept() -> None:
    body = (
        CHAIN + '<transmission name="odd"><type>acme/MagicTransmission</type><joint name="j1"/>'
        '<actuator name="m"/></transmission>'
    )
    robot, _ = load_with_warnings(urdf(body))
    assert robot.transmissions[0].type == "acme/MagicTransmission"
    assert "MagicTransmission" in robot.transmissions[0].raw_xml


def test_gazebo_reference_to_nothing_warns() -> None:
    _, warnings = load_with_warnings(
        urdf(CHAIN + '<gazebo reference="nothing"><mu1>0.2</mu1></gazebo>')
    )
    assert any(
        '<gazebo reference="nothing"> (line 8) names no link or joint' in w for w in warnings
    )


LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'


def test_mimic_loop_is_refused() -> None:
    body = (
        LINKS
        + joint("j1", "a", "b", extra='<mimic joint="j2"/>')
        + joint("j2", "b", "c", extra='<mimic joint="j1"/>')
    )
    with pytest.raises(
        InvalidValueError,
        match=r"<joint name=\"j1\">: the mimic joints form a loop \(j1 -> j2 -> j1\).*Fix: make "
        r"one",
    ):
        load(urdf(body))


def test_mimic_chain_is_allowed() -> None:
    body = (
        LINKS
        + '<link name="d"/>'
        + joint("j1", "a", "b")
        + joint("j2", "b", "c", extra='<mimic joint="j1" multiplier="2"/>')
    )
    body += joint("j3", "c", "d", extra='<mimic joint="j2" multiplier="0.5" offset="0.1"/>')
    robot = load(urdf(body))
    assert robot.joints["j3"].mimic.joint == "j2"
    assert robot.joints["j3"].mimic.multiplier == pytest.approx(0.5, abs=1e-12)
    assert robot.joints["j3"].mimic.offset == pytest.approx(0.1, abs=1e-12)


@pytest.mark.parametrize("attr", ["damping", "friction"])
def test_negative_dynamics_is_skipped(attr: str) -> None:
    body = LINKS + joint("j1", "a", "b", extra=f'<dynamics {attr}="-0.5"/>') + joint("j2", "b", "c")
    robot = load(urdf(body))
    assert robot.joints["j1"].dynamics is None
    (skipped,) = robot.skipped
    assert re.fullmatch(
        rf"<string>:\d+: dynamics 'j1' skipped: {attr} of joint 'j1' is -0\.5, negative \(it "
        rf"would add energy\); the joint has no damping or friction\. Fix: give a {attr} >= 0 "
        r"in <dynamics>",
        str(skipped),
    )


def _inertial(ixx: str, iyy: str, izz: str) -> str:
    return (
        f'<link name="a"><inertial><mass value="1"/><inertia ixx="{ixx}" ixy="0" ixz="0" '
        f'iyy="{iyy}" iyz="0" izz="{izz}"/></inertial></link>'
    )


@pytest.mark.parametrize(
    "moments, attr",
    [(("-1", "1", "1"), "ixx"), (("1", "-0.1", "1"), "iyy"), (("1", "1", "-2"), "izz")],
)
def test_negative_moment_of_inertia_is_skipped(moments: tuple[str, str, str], attr: str) -> None:
    robot = load(urdf(_inertial(*moments)))
    assert robot.links["a"].inertial is None
    (skipped,) = robot.skipped
    assert re.fullmatch(
        rf"<string>:3: inertial 'a' skipped: {attr} of link 'a' is -[\d.]+ kg·m², negative; the "
        rf"link is massless\. Fix: give {attr} >= 0 \(a moment of inertia about the centre of "
        r"mass\)",
        str(skipped),
    )


def test_inertia_breaking_the_triangle_inequality_is_kept_as_written() -> None:
    """The loader keeps it (check reports it; the MuJoCo backend and convert balance it, warned)."""
    robot, warnings = load_with_warnings(urdf(_inertial("1", "1", "3")))
    assert robot.links["a"].inertial.inertia.izz == pytest.approx(3.0, abs=1e-12)
    assert warnings == []


def test_inertia_on_the_triangle_boundary_loads_without_warning() -> None:
    _, warnings = load_with_warnings(urdf(_inertial("1", "1", "2")))  # a thin rod or plate
    assert warnings == []


@pytest.mark.parametrize("gain", ["k_velocity", "k_position"])
def test_negative_safety_gain_skips_the_safety_controller(gain: str) -> None:
    other = "k_position" if gain == "k_velocity" else "k_velocity"
    extra = (
        '<limit lower="-1" upper="1" effort="1" velocity="1"/><safety_controller '
        f'{gain}="-3" {other}="1"/>'
    )
    robot = load(urdf(LINKS + joint("j1", "a", "b", "revolute", extra) + joint("j2", "b", "c")))
    assert robot.joints["j1"].safety_controller is None
    assert [(s.kind, s.name) for s in robot.skipped] == [("safety_controller", "j1")]
    assert robot.skipped[0].reason == (
        f"{gain} of joint 'j1' is -3, negative; the joint has no soft limits. Fix: give {gain} "
        ">= 0 in <safety_controller>"
    )


def test_interface_listed_in_two_ros2_control_blocks_is_refused() -> None:
    body = (
        CHAIN
        + ROS2_CONTROL.format(block="hw1", joint="j1")
        + ROS2_CONTROL.format(block="hw2", joint="j1")
    )
    robot = load(urdf(body))
    assert [(b.name, len(b.joints)) for b in robot.ros2_control] == [("hw1", 1), ("hw2", 0)]
    assert [(s.kind, s.name) for s in robot.skipped] == [("ros2_control joint", "j1")]
    assert robot.skipped[0].reason == (
        "state interface 'j1/position' is listed twice (first in ros2_control block 'hw1'). "
        'Fix: list each joint\'s <state_interface name="position"> once'
    )


def test_interface_listed_twice_in_one_block_is_skipped() -> None:
    block = (
        '<ros2_control name="hw" type="system"><hardware><plugin>x/Y</plugin></hardware><joint '
        'name="j1"><command_interface name="velocity"/><command_interface name="velocity"/>'
        "</joint></ros2_control>"
    )
    robot = load(urdf(CHAIN + block))
    assert [len(b.joints) for b in robot.ros2_control] == [0]
    assert [(s.kind, s.name) for s in robot.skipped] == [("ros2_control joint", "j1")]
    assert robot.skipped[0].reason == (
        "command interface 'j1/velocity' is listed twice (first in ros2_control block 'hw'). "
        'Fix: list each joint\'s <command_interface name="velocity"> once'
    )


def test_same_joint_with_different_interfaces_in_two_blocks_loads() -> None:
    other = (
        '<ros2_control name="hw2" type="sensor"><hardware><plugin>x/Y</plugin></hardware>'
        '<joint name="j1"><state_interface name="temperature"/></joint></ros2_control>'
    )
    robot = load(urdf(CHAIN + ROS2_CONTROL.format(block="hw1", joint="j1") + other))
    assert [c.name for c in robot.ros2_control] == ["hw1", "hw2"]


def test_ros2_control_without_hardware_plugin_warns() -> None:
    block = (
        '<ros2_control name="hw" type="system"><joint name="j1"><command_interface '
        'name="position"/></joint></ros2_control>'
    )
    robot, warnings = load_with_warnings(urdf(CHAIN + block))
    assert robot.ros2_control[0].plugin is None
    assert warnings == [
        "<string>: ros2_control block 'hw' has no <hardware><plugin>; ros2_control cannot load it "
        "(the bridge does not need it)"
    ]


def test_ros2_control_sensor_frame_that_is_no_link_warns() -> None:
    body = (
        CHAIN
        + """<ros2_control name="ft" type="sensor"><hardware><plugin>p</plugin></hardware>
      <sensor name="wrist_ft"><state_interface name="force.x"/><param name="frame_id">tool0</param>
        </sensor>
      </ros2_control>"""
    )
    _, warnings = load_with_warnings(urdf(body))
    assert warnings == [
        "<string>: <ros2_control name='ft'> sensor 'wrist_ft': frame_id 'tool0' is no link of the "
        "robot; its readings carry it as written, and TF may not know it"
    ]
