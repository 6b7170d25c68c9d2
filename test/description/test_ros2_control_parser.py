"""Tests of sdf_bridge.description.ros2_control_parser (component parser semantics, errors)."""

from __future__ import annotations

import pytest

from sdf_bridge.description.ros2_control_parser import parse_ros2_control
from sdf_bridge.description.xmlio import ParseContext, parse_xml
from sdf_bridge.errors import DuplicateNameError, InvalidValueError, MissingReferenceError


def _parse(xml: str):
    ctx = ParseContext("r.urdf")
    return parse_ros2_control(parse_xml(xml, "r.urdf"), ctx), ctx.warnings


FULL = """<ros2_control name="Arm" type="system" is_async="True" rw_rate="50">
  <hardware>
    <plugin> mock_components/GenericSystem </plugin>
    <param name="calculate_dynamics">true</param>
    <param name="state_following_offset"> 0.0 </param>
  </hardware>
  <joint name="j1">
    <command_interface name="position">
      <param name="min">-1.5</param>
      <param name="max">1.5</param>
    </command_interface>
    <command_interface name="velocity">
      <limits enable="false"/>
    </command_interface>
    <state_interface name="position">
      <param name="initial_value">0.25</param>
    </state_interface>
    <state_interface name="velocity"/>
    <param name="gain">3</param>
  </joint>
  <joint name="j2" mimic="true">
    <limits enable="FALSE"/>
    <state_interface name="position"/>
  </joint>
  <sensor name="ft">
    <state_interface name="force.x"/>
    <param name="frame_id">tool0</param>
  </sensor>
  <gpio name="io">
    <command_interface name="out" data_type="bool" size="4"/>
    <state_interface name="analog" data_type="double"/>
  </gpio>
  <transmission name="t1">
    <plugin>transmission_interface/SimpleTransmission</plugin>
    <actuator name="m1" role="actuator1"/>
    <joint name="j1" role="joint1"><mechanical_reduction>3.0</mechanical_reduction></joint>
  </transmission>
</ros2_control>"""


def test_full_block_is_read_like_the_component_parser():
    hw, warnings = _parse(FULL)
    assert warnings == []
    assert (hw.name, hw.type, hw.plugin, hw.is_async, hw.rw_rate) == (
        "Arm",
        "system",
        "mock_components/GenericSystem",
        True,
        50,
    )
    assert hw.parameters == (("calculate_dynamics", "true"), ("state_following_offset", "0.0"))
    assert hw.param("calculate_dynamics") == "true"
    assert hw.param("absent", "d") == "d"
    j1, j2 = hw.joints
    assert (j1.name, j1.type, j1.is_mimic, j1.enable_limits) == ("j1", "joint", None, True)
    pos_cmd, vel_cmd = j1.command_interfaces
    assert (pos_cmd.name, pos_cmd.min, pos_cmd.max, pos_cmd.initial_value) == (
        "position",
        "-1.5",
        "1.5",
        None,
    )
    assert pos_cmd.parameters == (("min", "-1.5"), ("max", "1.5"))
    assert (pos_cmd.data_type, pos_cmd.size, pos_cmd.enable_limits) == ("double", 1, True)
    assert (vel_cmd.name, vel_cmd.enable_limits) == ("velocity", False)
    assert [s.name for s in j1.state_interfaces] == ["position", "velocity"]
    assert j1.state_interfaces[0].initial_value == "0.25"
    assert j1.parameters == (("gain", "3"),)
    assert j1.param("gain") == "3"
    assert (j2.is_mimic, j2.enable_limits) == (True, False)
    # component-level <limits> applies to interfaces
    assert j2.state_interfaces[0].enable_limits is False
    (ft,) = hw.sensors
    assert (ft.name, ft.type, ft.param("frame_id")) == ("ft", "sensor", "tool0")
    (io,) = hw.gpios
    assert io.type == "gpio"
    assert (io.command_interfaces[0].data_type, io.command_interfaces[0].size) == ("bool", 4)
    assert io.state_interfaces[0].data_type == "double"
    (t1,) = hw.transmissions
    assert (t1.name, t1.dialect, t1.hardware) == ("t1", "ros2_control", "Arm")
    assert t1.joints[0].mechanical_reduction == 3.0
    assert (
        hw.source is not None
        and hw.source.line == 1
        and j1.source is not None
        and j1.source.line == 7
    )


def test_defaults_of_a_minimal_block():
    hw, warnings = _parse(
        '<ros2_control name="m" type="sensor"><hardware><plugin>p/P</plugin></hardware>'
        "</ros2_control>"
    )
    assert (
        hw.type,
        hw.is_async,
        hw.rw_rate,
        hw.joints,
        hw.sensors,
        hw.gpios,
        hw.transmissions,
    ) == ("sensor", False, 0, (), (), (), ())
    assert warnings == []


def test_block_without_hardware_has_no_plugin():
    hw, _ = _parse('<ros2_control name="m" type="system"><joint name="j"/></ros2_control>')
    assert hw.plugin is None and hw.joints[0].name == "j"


def test_type_is_lower_cased_with_a_warning():
    hw, warnings = _parse(
        '<ros2_control name="m" type="System"><hardware><plugin>p/P</plugin></hardware>'
        "</ros2_control>"
    )
    assert hw.type == "system"
    assert len(warnings) == 1 and "read as 'system'" in warnings[0]


@pytest.mark.parametrize(
    ("xml", "message"),
    [
        ('<ros2_control type="system"/>', r"attribute 'name' is missing.*Fix: add name="),
        (
            '<ros2_control name="m"/>',
            r"<ros2_control name=\"m\">: attribute 'type' is missing.*Fix: add type=\"system\"",
        ),
        (
            '<ros2_control name="m" type="robot"/>',
            r"type is 'robot'; ros2_control knows system, actuator and sensor",
        ),
        (
            '<ros2_control name="m" type="system" is_async="yes"/>',
            r"attribute 'is_async' is 'yes', not a boolean",
        ),
        (
            '<ros2_control name="m" type="system" rw_rate="-5"/>',
            r"attribute 'rw_rate' is '-5', not a non-negative integer",
        ),
        ('<ros2_control name="m" type="system" rw_rate="fast"/>', r"attribute 'rw_rate' is 'fast'"),
        (
            '<ros2_control name="m" type="system"><hardware/></ros2_control>',
            r"ros2_control 'm': <hardware> has no <plugin>.*Fix: add <plugin>",
        ),
        (
            '<ros2_control name="m" type="system"><hardware><plugin> </plugin></hardware>'
            "</ros2_control>",
            r"ros2_control 'm': <plugin> is empty",
        ),
        (
            '<ros2_control name="m" type="system"><hardware><plugin>p</plugin><param>1</param>'
            "</hardware></ros2_control>",
            r"<param> has no name",
        ),
        (
            '<ros2_control name="m" type="system"><joint/></ros2_control>',
            r"<joint>: attribute 'name' is missing",
        ),
        (
            '<ros2_control name="m" type="system"><sensor name=""/></ros2_control>',
            r"attribute 'name' is missing or empty",
        ),
        (
            '<ros2_control name="m" type="system"><joint name="j" mimic="2"/></ros2_control>',
            r"attribute 'mimic' is '2', not a boolean",
        ),
        (
            '<ros2_control name="m" type="system"><joint name="j"><limits/></joint></ros2_control>',
            r"<limits> has no enable attribute",
        ),
        (
            '<ros2_control name="m" type="system"><joint name="j"><limits enable="no"/></joint>'
            "</ros2_control>",
            r"attribute 'enable' is 'no', not a boolean",
        ),
        (
            '<ros2_control name="m" type="system"><joint name="j"><state_interface/></joint>'
            "</ros2_control>",
            r"<state_interface>: attribute 'name' is missing",
        ),
        (
            '<ros2_control name="m" type="system"><gpio name="g"><command_interface name="c" '
            'size="0"/></gpio></ros2_control>',
            r"attribute 'size' is '0', not a positive integer",
        ),
        (
            '<ros2_control name="m" type="system"><gpio name="g"><state_interface name="c" '
            'size="2.5"/></gpio></ros2_control>',
            r"attribute 'size' is '2.5'",
        ),
        (
            '<ros2_control name="m" type="system"><joint name="j"><command_interface name="p">'
            "<param>1</param></command_interface></joint></ros2_control>",
            r"<param> has no name",
        ),
    ],
)
def test_invalid_values_are_refused(xml, message):
    with pytest.raises(InvalidValueError, match=message):
        _parse(xml)


def test_error_carries_file_and_line():
    with pytest.raises(InvalidValueError, match=r"^r\.urdf:3: <joint name=\"j\">"):
        _parse(
            '<ros2_control name="m" type="system">\n<hardware><plugin>p</plugin>'
            '</hardware>\n<joint name="j" mimic="x"/></ros2_control>'
        )


def test_legacy_class_type_is_read_with_warning():
    hw, warnings = _parse(
        '<ros2_control name="m" type="system"><hardware><classType>old/Hw</classType></hardware>'
        "</ros2_control>"
    )
    assert hw.plugin == "old/Hw"
    assert len(warnings) == 1 and "<classType>" in warnings[0]


def test_two_plugins_use_the_first_and_warn():
    hw, warnings = _parse(
        '<ros2_control name="husky_hardware" type="system"><hardware>'
        "<plugin>husky_base/HuskyHardware</plugin>"
        "<plugin>fake_components/GenericSystem</plugin></hardware></ros2_control>"
    )
    assert hw.plugin == "husky_base/HuskyHardware"
    assert (
        len(warnings) == 1
        and "2 <plugin> elements" in warnings[0]
        and "fake_components/GenericSystem" in warnings[0]
    )


def test_unknown_children_are_warned_and_properties_accepted():
    hw, warnings = _parse(
        '<ros2_control name="m" type="system"><hardware><plugin>p</plugin></hardware>'
        '<properties><async thread_priority="60"/></properties><bogus/>'
        '<joint name="j"><weird/></joint></ros2_control>'
    )
    assert hw.plugin == "p"
    assert len(warnings) == 2
    assert "<bogus>" in warnings[0] and "<weird>" in warnings[1]


def test_second_hardware_replaces_first_with_warning():
    hw, warnings = _parse(
        '<ros2_control name="m" type="system"><hardware><plugin>a</plugin></hardware>'
        "<hardware><plugin>b</plugin></hardware></ros2_control>"
    )
    assert hw.plugin == "b" and any("second <hardware>" in w for w in warnings)


def test_transmission_joint_must_be_a_joint_of_the_block():
    with pytest.raises(
        MissingReferenceError,
        match=r"transmission 't' names joint 'ghost'.*not a <joint> of ros2_control 'm'",
    ):
        _parse(
            '<ros2_control name="m" type="system"><joint name="j"/><transmission name="t">'
            '<plugin>transmission_interface/SimpleTransmission</plugin><joint name="ghost" '
            'role="joint1"/><actuator name="a" role="actuator1"/></transmission>'
            "</ros2_control>"
        )


def test_transmission_errors_propagate():
    with pytest.raises(DuplicateNameError, match=r"transmission 'd'"):
        _parse(
            '<ros2_control name="m" type="system"><joint name="a"/><joint name="b"/>'
            '<transmission name="d">'
            "<plugin>transmission_interface/DifferentialTransmission</plugin>"
            '<joint name="a" role="joint1"/><joint name="b" role="joint1"/><actuator name="m1" '
            'role="actuator1"/><actuator name="m2" role="actuator2"/></transmission>'
            "</ros2_control>"
        )


def test_actuator_block_gets_implicit_actuator():
    hw, _ = _parse(
        '<ros2_control name="servo" type="actuator"><hardware><plugin>p</plugin></hardware>'
        '<joint name="j"><command_interface name="position"/></joint><transmission name="t">'
        '<plugin>transmission_interface/SimpleTransmission</plugin><joint name="j" '
        'role="joint1"><mechanical_reduction>5</mechanical_reduction></joint></transmission>'
        "</ros2_control>"
    )
    (t,) = hw.transmissions
    assert [(a.name, a.role, a.mechanical_reduction) for a in t.actuators] == [
        ("actuator1", "actuator1", None)
    ]
    assert t.joints[0].mechanical_reduction == 5.0


def test_actuator_block_transmission_needs_one_joint():
    with pytest.raises(
        InvalidValueError, match=r"transmission 't' of actuator block 'servo' has 2 joints"
    ):
        _parse(
            '<ros2_control name="servo" type="actuator"><joint name="a"/><joint name="b"/>'
            '<transmission name="t">'
            '<plugin>transmission_interface/DifferentialTransmission</plugin><joint name="a" '
            'role="joint1"/><joint name="b" role="joint2"/></transmission></ros2_control>'
        )


@pytest.mark.parametrize(
    "bad, good, xml",
    [
        (
            "comand_interface",
            "command_interface",
            '<ros2_control name="B" type="system"><hardware><plugin>p/P</plugin></hardware>'
            '<joint name="j"><comand_interface name="position"/></joint></ros2_control>',
        ),
        (
            "hardwre",
            "hardware",
            '<ros2_control name="B" type="system"><hardwre><plugin>p/P</plugin></hardwre>'
            "</ros2_control>",
        ),
        (
            "plugn",
            "plugin",
            '<ros2_control name="B" type="system"><hardware><plugn>p/P</plugn></hardware>'
            "</ros2_control>",
        ),
    ],
)
def test_misspelt_elements_are_errors(bad: str, good: str, xml: str) -> None:
    with pytest.raises(
        InvalidValueError,
        match=rf"r\.urdf:1: <{bad}[ >].*unknown element <{bad}> in .*; did you mean <{good}>\?",
    ):
        _parse(xml)


def test_unrelated_unknown_component_child_warns() -> None:
    block, warnings = _parse(
        '<ros2_control name="B" type="system"><hardware><plugin>p/P</plugin></hardware>'
        '<joint name="j"><command_interface name="position"/><notes/></joint></ros2_control>'
    )
    assert block.joints[0].command_interfaces[0].name == "position"
    assert warnings == [
        'r.urdf:1: <notes>: unknown element <notes> in <joint name="j"> is not part of '
        "ros2_control; not read"
    ]
