"""Tests of sdf_bridge.description.transmission.dialects (all three dialects, every error path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sdf_bridge.description.transmission.dialects import parse_transmission
from sdf_bridge.description.xmlio import ParseContext, parse_xml
from sdf_bridge.errors import DescriptionError, DuplicateNameError, InvalidValueError


def _parse(xml: str, *, hardware: str | None = None, file: str = "t.urdf"):
    ctx = ParseContext(file)
    trans = parse_transmission(parse_xml(xml, file), ctx, hardware=hardware)
    return trans, ctx.warnings


# -- classic ----------------------------------------------------------------------------------

CLASSIC = """<transmission name="tran1">
  <type>transmission_interface/SimpleTransmission</type>
  <joint name="joint1">
    <hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface>
  </joint>
  <actuator name="motor1">
    <hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface>
    <mechanicalReduction>50</mechanicalReduction>
  </actuator>
</transmission>"""


def test_classic_simple_transmission_values_and_sides():
    trans, warnings = _parse(CLASSIC)
    assert trans.name == "tran1"
    assert trans.type == "transmission_interface/SimpleTransmission"
    assert trans.short_type == "SimpleTransmission"
    assert trans.dialect == "classic"
    assert trans.hardware is None
    (joint,) = trans.joints
    (act,) = trans.actuators
    assert joint.name == "joint1"
    assert joint.mechanical_reduction is None  # not written on the joint side
    assert joint.offset == 0.0
    assert joint.role is None
    assert joint.hardware_interfaces == ("EffortJointInterface",)
    assert act.name == "motor1"
    assert act.mechanical_reduction == 50.0
    assert act.hardware_interfaces == ("EffortJointInterface",)
    assert trans.source is not None and trans.source.file == "t.urdf" and trans.source.line == 1
    assert joint.source is not None and joint.source.line == 3
    assert trans.raw_xml.startswith('<transmission name="tran1">')
    assert warnings == []


def test_classic_joint_side_reduction_offset_and_role_child():
    trans, warnings = _parse(
        """<transmission name="diff">
        <type>transmission_interface/DifferentialTransmission</type>
        <joint name="a"><role>joint2</role><offset>0.25</offset>
          <mechanicalReduction>-3.5</mechanicalReduction></joint>
        <joint name="b"><role>joint1</role></joint>
        <actuator name="m1"><role>actuator1</role><mechanicalReduction>2</mechanicalReduction>
          </actuator>
        <actuator name="m2"><role>actuator2</role><mechanicalReduction>4</mechanicalReduction>
          </actuator>
        </transmission>"""
    )
    a, b = trans.joints
    assert (a.name, a.role, a.offset, a.mechanical_reduction) == ("a", "joint2", 0.25, -3.5)
    assert (b.name, b.role, b.offset, b.mechanical_reduction) == ("b", "joint1", 0.0, None)
    assert [(x.name, x.role, x.mechanical_reduction) for x in trans.actuators] == [
        ("m1", "actuator1", 2.0),
        ("m2", "actuator2", 4.0),
    ]
    assert warnings == []


def test_classic_legacy_actuator_interface_without_prefix():
    trans, _ = _parse(
        """<transmission name="t"><type>transmission_interface/SimpleTransmission</type>
        <joint name="j"/>
        <actuator name="m"><hardwareInterface>PositionJointInterface</hardwareInterface>
          <hardwareInterface>hardware_interface/VelocityJointInterface</hardwareInterface>
          <mechanicalReduction>1</mechanicalReduction></actuator></transmission>"""
    )
    assert trans.joints[0].hardware_interfaces == ()
    assert trans.actuators[0].hardware_interfaces == (
        "PositionJointInterface",
        "VelocityJointInterface",
    )


def test_classic_snake_case_spelling_is_read_and_warned():
    trans, warnings = _parse(
        """<transmission name="t"><type>transmission_interface/SimpleTransmission</type>
        <joint name="j"/><actuator name="m"><mechanical_reduction>7</mechanical_reduction>
          </actuator>
        </transmission>"""
    )
    assert trans.actuators[0].mechanical_reduction == 7.0
    assert len(warnings) == 1
    assert "'t'" in warnings[0] and "<mechanical_reduction>" in warnings[0]


def test_both_spellings_with_same_value_are_accepted():
    trans, _ = _parse(
        """<transmission name="t"><type>transmission_interface/SimpleTransmission</type>
        <joint name="j"/><actuator name="m"><mechanicalReduction>7</mechanicalReduction>
        <mechanical_reduction>7.0</mechanical_reduction></actuator></transmission>"""
    )
    assert trans.actuators[0].mechanical_reduction == 7.0


def test_both_spellings_with_different_values_are_refused():
    with pytest.raises(
        InvalidValueError,
        match=r"transmission 't'.*both <mechanicalReduction>=7.0 and <mechanical_reduction>=8.0",
    ):
        _parse(
            """<transmission name="t"><type>transmission_interface/SimpleTransmission</type>
            <joint name="j"/><actuator name="m"><mechanicalReduction>7</mechanicalReduction>
            <mechanical_reduction>8</mechanical_reduction></actuator></transmission>"""
        )


def test_reduction_given_twice_is_refused():
    with pytest.raises(
        InvalidValueError, match=r"transmission 't'.*<mechanicalReduction> is given 2 times"
    ):
        _parse(
            """<transmission name="t"><type>x/SimpleTransmission</type><joint name="j"/>
            <actuator name="m"><mechanicalReduction>7</mechanicalReduction>
            <mechanicalReduction>7</mechanicalReduction></actuator></transmission>"""
        )


def test_classic_direct_reduction_goes_to_actuator_with_warning():
    trans, warnings = _parse(
        """<transmission name="t"><type>transmission_interface/SimpleTransmission</type>
        <joint name="j"/><actuator name="m"/><mechanicalReduction>12</mechanicalReduction>
          </transmission>"""
    )
    assert trans.actuators[0].mechanical_reduction == 12.0
    assert trans.joints[0].mechanical_reduction is None
    assert any("PR2 form" in w and "'m'" in w for w in warnings)


@pytest.mark.parametrize("text", ["0", "0.0", "-0", "abc", "", "nan", "inf", "1,5"])
def test_bad_reduction_names_the_transmission(text):
    with pytest.raises(
        InvalidValueError, match=r"in transmission 'knee_gear'.*<mechanicalReduction>"
    ):
        _parse(
            f"""<transmission name="knee_gear">
              <type>transmission_interface/SimpleTransmission</type>
            <joint name="j"/><actuator name="m"><mechanicalReduction>{text}</mechanicalReduction>
              </actuator>
            </transmission>"""
        )


def test_zero_reduction_message_says_what_to_do():
    with pytest.raises(InvalidValueError, match=r"is 0.*Fix: give the gear ratio"):
        _parse(
            """<transmission name="t"><type>x/SimpleTransmission</type><joint name="j"/>
            <actuator name="m"><mechanicalReduction>0</mechanicalReduction></actuator>
              </transmission>"""
        )


def test_bad_offset_is_refused():
    with pytest.raises(InvalidValueError, match=r"in transmission 't'.*<offset> is 'a lot'"):
        _parse(
            """<transmission name="t"><type>x/SimpleTransmission</type>
            <joint name="j"><offset>a lot</offset></joint><actuator name="m"/></transmission>"""
        )


def test_missing_type_is_an_error_naming_the_transmission():
    with pytest.raises(
        InvalidValueError,
        match=r"t.urdf:1: <transmission name=\"lonely\">: in transmission 'lonely': the type is "
        r"missing",
    ):
        _parse('<transmission name="lonely"><joint name="j"/><actuator name="m"/></transmission>')


def test_empty_type_is_an_error():
    with pytest.raises(InvalidValueError, match=r"transmission 't'.*<type> is empty"):
        _parse('<transmission name="t"><type> </type><joint name="j"/></transmission>')


def test_missing_transmission_name_is_an_error():
    with pytest.raises(InvalidValueError, match=r"<transmission> has no name"):
        _parse("<transmission><type>x/SimpleTransmission</type></transmission>")


@pytest.mark.parametrize("entry", ["joint", "actuator"])
def test_entry_without_name_is_an_error(entry):
    with pytest.raises(InvalidValueError, match=rf"transmission 't'.*<{entry}> has no name"):
        _parse(f'<transmission name="t"><type>x/SimpleTransmission</type><{entry}/></transmission>')


def test_unknown_type_is_kept_with_raw_xml_and_free_roles():
    trans, warnings = _parse(
        """<transmission name="panda_franka_model">
        <type>franka_hw/FrankaModelInterface</type>
        <joint name="panda_joint1"><role>root</role>
          <hardwareInterface>franka_hw/FrankaModelInterface</hardwareInterface></joint>
        <joint name="panda_joint8"><role>tip</role>
          <hardwareInterface>franka_hw/FrankaModelInterface</hardwareInterface></joint>
        <actuator name="panda_model"/>
        </transmission>"""
    )
    assert trans.type == "franka_hw/FrankaModelInterface"
    assert [(j.name, j.role) for j in trans.joints] == [
        ("panda_joint1", "root"),
        ("panda_joint8", "tip"),
    ]
    assert trans.joints[0].hardware_interfaces == ("franka_hw/FrankaModelInterface",)
    assert "<role>tip</role>" in trans.raw_xml
    assert warnings == []


DIFF_ROLES = """<transmission name="wrist_diff">
  <plugin>transmission_interface/DifferentialTransmission</plugin>
  <actuator name="m1" role="actuator1"/><actuator name="m2" role="{a2}"/>
  <joint name="roll" role="{j_roll}"/><joint name="pitch" role="{j_pitch}"/>
</transmission>"""


def test_duplicated_role_is_refused_naming_the_transmission():
    xml = DIFF_ROLES.format(a2="actuator2", j_roll="joint1", j_pitch="joint1")
    with pytest.raises(
        DuplicateNameError,
        match=r"transmission 'wrist_diff'.*role 'joint1' is given to two joints \('roll' and "
        r"'pitch'\)",
    ):
        _parse(xml, hardware="sys")


def test_duplicated_actuator_role_is_refused():
    xml = DIFF_ROLES.format(a2="actuator1", j_roll="joint2", j_pitch="joint1")
    with pytest.raises(DuplicateNameError, match=r"transmission 'wrist_diff'.*role 'actuator1'"):
        _parse(xml, hardware="sys")


def test_unknown_role_of_a_differential_is_refused():
    xml = DIFF_ROLES.format(a2="actuator2", j_roll="joint3", j_pitch="joint1")
    with pytest.raises(
        InvalidValueError,
        match=r"transmission 'wrist_diff'.*role 'joint3' is not a joint role.*Fix: use one of "
        r"joint1, joint2",
    ):
        _parse(xml, hardware="sys")


def test_roles_on_only_some_entries_are_refused():
    with pytest.raises(
        InvalidValueError, match=r"transmission 'd'.*some joints have a role and \['b'\] do not"
    ):
        _parse(
            """<transmission name="d"><type>transmission_interface/DifferentialTransmission</type>
            <joint name="a"><role>joint1</role></joint><joint name="b"/>
            <actuator name="m1"/><actuator name="m2"/></transmission>"""
        )


def test_role_attribute_and_child_must_agree():
    with pytest.raises(
        InvalidValueError,
        match=r"transmission 't'.*role attribute 'joint1' and <role>joint2</role> disagree",
    ):
        _parse(
            """<transmission name="t"><type>x/SimpleTransmission</type>
            <joint name="j" role="joint1"><role>joint2</role></joint></transmission>"""
        )


def test_simple_transmission_accepts_any_single_role():
    # ros2_control_demos example 8 gives its second simple transmission roles joint2/actuator2
    trans, _ = _parse(
        """<transmission name="transmission2">
          <plugin>transmission_interface/SimpleTransmission</plugin>
        <actuator name="actuator2" role="actuator2"/>
        <joint name="joint2" role="joint2"><mechanical_reduction>4.0</mechanical_reduction></joint>
        </transmission>""",
        hardware="RRBot",
    )
    assert trans.joints[0].role == "joint2" and trans.actuators[0].role == "actuator2"


def test_empty_hardware_interface_is_refused():
    with pytest.raises(InvalidValueError, match=r"transmission 't'.*<hardwareInterface> is empty"):
        _parse(
            """<transmission name="t"><type>x/SimpleTransmission</type>
            <joint name="j"><hardwareInterface/></joint></transmission>"""
        )


def test_unknown_entry_child_is_warned_not_dropped_silently():
    trans, warnings = _parse(
        """<transmission name="t"><type>x/SimpleTransmission</type>
        <joint name="j"><gearbox>3</gearbox></joint><actuator name="m"/></transmission>"""
    )
    assert len(warnings) == 1 and "<gearbox>" in warnings[0] and "'t'" in warnings[0]
    assert "<gearbox>3</gearbox>" in trans.raw_xml


def test_extra_children_and_params_are_kept():
    trans, _ = _parse(
        """<transmission name="t"><type>x/SimpleTransmission</type>
        <joint name="j"/><actuator name="m"/>
        <param name="k">  1.5 </param><compensator k_belt="4000.0" kd_motor="15.0"/><flag/>
        </transmission>"""
    )
    assert trans.params == (
        ("k", "1.5"),
        ("compensator.k_belt", "4000.0"),
        ("compensator.kd_motor", "15.0"),
        ("flag", ""),
    )


def test_param_without_name_is_refused():
    with pytest.raises(InvalidValueError, match=r"transmission 't'.*<param> has no name"):
        _parse(
            '<transmission name="t"><type>x/SimpleTransmission</type><param>1</param>'
            "</transmission>"
        )


def test_type_attribute_differing_from_type_element_is_warned():
    trans, warnings = _parse(
        """<transmission name="t" type="pr2_mechanism_model/SimpleTransmission">
        <type>transmission_interface/SimpleTransmission</type><joint name="j"/></transmission>"""
    )
    assert trans.dialect == "classic" and trans.type == "transmission_interface/SimpleTransmission"
    assert any("differs" in w for w in warnings)


def test_errors_are_description_errors():
    assert issubclass(InvalidValueError, DescriptionError) and issubclass(
        DuplicateNameError, DescriptionError
    )


# -- PR2 ----------------------------------------------------------------------------------------


def test_pr2_simple_transmission_reduction_applies_to_actuator():
    trans, warnings = _parse(
        """<transmission name="fl_caster_rotation_trans"
          type="pr2_mechanism_model/SimpleTransmission">
        <actuator name="fl_caster_rotation_motor"/>
        <joint name="fl_caster_rotation_joint"/>
        <mechanicalReduction>-79.23809523809524</mechanicalReduction>
        <compensator k_belt="4000.0"/>
        </transmission>"""
    )
    assert trans.dialect == "pr2"
    assert trans.type == "pr2_mechanism_model/SimpleTransmission"
    assert trans.actuators[0].name == "fl_caster_rotation_motor"
    assert trans.actuators[0].mechanical_reduction == -79.23809523809524
    assert trans.joints[0].name == "fl_caster_rotation_joint"
    assert trans.joints[0].mechanical_reduction is None
    assert trans.params == (("compensator.k_belt", "4000.0"),)
    assert warnings == []


def test_pr2_direct_reduction_needs_one_actuator():
    with pytest.raises(
        InvalidValueError, match=r"transmission 't'.*needs exactly one <actuator>, found 2"
    ):
        _parse(
            """<transmission name="t" type="pr2_mechanism_model/SimpleTransmission">
            <actuator name="a"/><actuator name="b"/><joint name="j"/>
            <mechanicalReduction>3</mechanicalReduction></transmission>"""
        )


def test_pr2_direct_reduction_conflicting_with_actuator_is_refused():
    with pytest.raises(
        InvalidValueError,
        match=r"transmission 't'.*reduction 3.0 under <transmission> conflicts with 4.0",
    ):
        _parse(
            """<transmission name="t" type="pr2_mechanism_model/SimpleTransmission">
            <actuator name="a"><mechanicalReduction>4</mechanicalReduction></actuator><joint
              name="j"/>
            <mechanicalReduction>3</mechanicalReduction></transmission>"""
        )


def test_pr2_direct_reduction_twice_is_refused():
    with pytest.raises(
        InvalidValueError, match=r"transmission 't'.*given twice under <transmission>"
    ):
        _parse(
            """<transmission name="t" type="pr2_mechanism_model/SimpleTransmission">
            <actuator name="a"/><joint name="j"/>
            <mechanicalReduction>3</mechanicalReduction><mechanicalReduction>3</mechanicalReduction>
              </transmission>"""
        )


def test_pr2_empty_type_attribute_is_refused():
    with pytest.raises(InvalidValueError, match=r"transmission 't'.*type attribute is empty"):
        _parse('<transmission name="t" type=" "><joint name="j"/></transmission>')


WRIST = """<transmission name="r_wrist_trans" type="pr2_mechanism_model/WristTransmission">
  <rightActuator mechanicalReduction="60.17142857142857" name="r_wrist_r_motor"/>
  <leftActuator mechanicalReduction="60.17142857142857" name="r_wrist_l_motor"/>
  <flexJoint mechanicalReduction="{flex}" name="r_wrist_flex_joint"/>
  <rollJoint mechanicalReduction="1.0" name="r_wrist_roll_joint"/>
</transmission>"""


def test_pr2_wrist_transmission_roles_and_reductions():
    trans, warnings = _parse(WRIST.format(flex="-1.0"))
    assert trans.dialect == "pr2" and trans.short_type == "WristTransmission"
    assert [(a.name, a.role, a.mechanical_reduction) for a in trans.actuators] == [
        ("r_wrist_r_motor", "rightActuator", 60.17142857142857),
        ("r_wrist_l_motor", "leftActuator", 60.17142857142857),
    ]
    assert [(j.name, j.role, j.mechanical_reduction) for j in trans.joints] == [
        ("r_wrist_flex_joint", "flexJoint", -1.0),
        ("r_wrist_roll_joint", "rollJoint", 1.0),
    ]
    assert warnings == []


def test_pr2_wrist_zero_reduction_is_refused():
    with pytest.raises(
        InvalidValueError, match=r"transmission 'r_wrist_trans'.*flexJoint mechanicalReduction is 0"
    ):
        _parse(WRIST.format(flex="0"))


def test_pr2_wrist_with_plain_joint_element_is_refused():
    with pytest.raises(InvalidValueError, match=r"transmission 'w'.*not <joint>"):
        _parse(
            '<transmission name="w" type="pr2_mechanism_model/WristTransmission"><joint '
            'name="j"/></transmission>'
        )


GRIPPER = """<transmission name="r_gripper_trans" type="pr2_mechanism_model/PR2GripperTransmission">
  <actuator name="r_gripper_motor"/>
  <gap_joint L0="0.0375528" gear_ratio="40.095" mechanical_reduction="{red}"
    name="r_gripper_joint"/>
  <use_simulated_gripper_joint/>
  <passive_joint name="r_gripper_l_finger_joint"/>
  <passive_joint name="r_gripper_r_finger_joint"/>
  <simulated_actuated_joint name="r_gripper_motor_screw_joint"
    passive_actuated_joint="r_gripper_motor_slider_joint" simulated_reduction="3141.6"/>
</transmission>"""


def test_pr2_gripper_transmission_keeps_gap_joint_and_params():
    trans, warnings = _parse(GRIPPER.format(red="1.0"))
    assert trans.short_type == "PR2GripperTransmission"
    assert [(j.name, j.role, j.mechanical_reduction) for j in trans.joints] == [
        ("r_gripper_joint", "gap_joint", 1.0)
    ]
    assert [(a.name, a.mechanical_reduction) for a in trans.actuators] == [
        ("r_gripper_motor", None)
    ]
    params = trans.params
    assert ("gap_joint.L0", "0.0375528") in params
    assert ("gap_joint.gear_ratio", "40.095") in params
    assert ("gap_joint.mechanical_reduction", "1.0") in params
    assert ("use_simulated_gripper_joint", "") in params
    assert [v for k, v in params if k == "passive_joint"] == [
        "r_gripper_l_finger_joint",
        "r_gripper_r_finger_joint",
    ]
    assert ("simulated_actuated_joint.name", "r_gripper_motor_screw_joint") in params
    assert ("simulated_actuated_joint.simulated_reduction", "3141.6") in params
    assert "<passive_joint" in trans.raw_xml
    assert warnings == []


def test_pr2_gripper_bad_gap_reduction_is_refused():
    with pytest.raises(
        InvalidValueError,
        match=r"transmission 'r_gripper_trans'.*gap_joint mechanical_reduction is 'x'",
    ):
        _parse(GRIPPER.format(red="x"))


# -- ros2_control -------------------------------------------------------------------------------

RRBOT = """<transmission name="transmission1">
  <plugin>transmission_interface/SimpleTransmission</plugin>
  <actuator name="actuator1" role="actuator1"/>
  <joint name="joint1" role="joint1">
    <mechanical_reduction>2.0</mechanical_reduction>
    <offset>0.5</offset>
  </joint>
  <param name="extra">yes</param>
</transmission>"""


def test_ros2_control_form():
    trans, warnings = _parse(RRBOT, hardware="RRBotSystem")
    assert trans.dialect == "ros2_control"
    assert trans.hardware == "RRBotSystem"
    assert trans.type == "transmission_interface/SimpleTransmission"
    (joint,) = trans.joints
    assert (joint.name, joint.role, joint.mechanical_reduction, joint.offset) == (
        "joint1",
        "joint1",
        2.0,
        0.5,
    )
    assert trans.actuators[0].mechanical_reduction is None
    assert trans.params == (("extra", "yes"),)
    assert warnings == []


def test_ros2_control_joint_without_reduction_stays_none():
    trans, _ = _parse(
        """<transmission name="t"><plugin>transmission_interface/SimpleTransmission</plugin>
        <actuator name="a" role="actuator1"/><joint name="j" role="joint1"/></transmission>""",
        hardware="hw",
    )
    assert trans.joints[0].mechanical_reduction is None  # the dialect default (1.0) is H3's rule


def test_case_004_variant_a_camelcase_accepted_and_warned(cases_dir: Path):
    path = cases_dir / "004-ros2control-transmission-tag-spelling" / "variant_a_camelcase.urdf"
    root = parse_xml(path.read_bytes(), str(path))
    ctx = ParseContext(str(path))
    trans = parse_transmission(root.find("ros2_control/transmission"), ctx, hardware="servo_bus")
    assert trans.name == "knee_gear"
    assert trans.joints[0].mechanical_reduction == 40.0
    assert trans.actuators[0].mechanical_reduction is None
    assert trans.joints[0].hardware_interfaces == ()  # not used to create interfaces
    camel = [w for w in ctx.warnings if "<mechanicalReduction>" in w]
    hwif = [w for w in ctx.warnings if "<hardwareInterface>" in w]
    assert len(camel) == 1 and "'knee_gear'" in camel[0] and "40.0" in camel[0]
    assert len(hwif) == 1 and "'knee_gear'" in hwif[0] and "ignored" in hwif[0]


def test_case_004_variant_b_actuator_side_accepted_and_warned(cases_dir: Path):
    path = cases_dir / "004-ros2control-transmission-tag-spelling" / "variant_b_actuator_side.urdf"
    root = parse_xml(path.read_bytes(), str(path))
    ctx = ParseContext(str(path))
    trans = parse_transmission(root.find("ros2_control/transmission"), ctx, hardware="servo_bus")
    assert trans.joints[0].mechanical_reduction is None
    assert trans.actuators[0].mechanical_reduction == 40.0
    assert len(ctx.warnings) == 1
    assert (
        "'knee_gear'" in ctx.warnings[0]
        and "<mechanical_reduction> under <actuator" in ctx.warnings[0]
    )


def test_ros2_control_camelcase_on_actuator_is_warned():
    trans, warnings = _parse(
        """<transmission name="knee_gear"><plugin>transmission_interface/SimpleTransmission</plugin>
        <actuator name="a" role="actuator1"><mechanicalReduction>40</mechanicalReduction></actuator>
        <joint name="j" role="joint1"/></transmission>""",
        hardware="hw",
    )
    assert trans.actuators[0].mechanical_reduction == 40.0
    assert len(warnings) == 2 and all("'knee_gear'" in w for w in warnings)


def test_differential_actuator_reductions_are_canonical_in_ros2_control(cases_dir: Path):
    path = cases_dir / "002-differential-role-order" / "robot.urdf"
    root = parse_xml(path.read_bytes(), str(path))
    ctx = ParseContext(str(path))
    trans = parse_transmission(root.find("ros2_control/transmission"), ctx, hardware="wrist_system")
    assert ctx.warnings == []
    by_role = {j.role: j for j in trans.joints}
    assert by_role["joint1"].name == "wrist_pitch" and by_role["joint1"].offset == 0.1
    assert by_role["joint2"].name == "wrist_roll" and by_role["joint2"].offset == 0.0
    assert [(a.name, a.role, a.mechanical_reduction) for a in trans.actuators] == [
        ("motor_left", "actuator1", 2.0),
        ("motor_right", "actuator2", 2.0),
    ]


def test_ros2_control_missing_plugin_is_an_error():
    with pytest.raises(
        InvalidValueError, match=r"transmission 't'.*the type is missing \(no <plugin>\)"
    ):
        _parse(
            '<transmission name="t"><joint name="j" role="joint1"/></transmission>', hardware="hw"
        )


def test_ros2_control_classic_type_element_is_read_with_warning():
    trans, warnings = _parse(
        """<transmission name="t"><type>transmission_interface/SimpleTransmission</type>
        <joint name="j" role="joint1"/><actuator name="a" role="actuator1"/></transmission>""",
        hardware="hw",
    )
    assert (
        trans.type == "transmission_interface/SimpleTransmission"
        and trans.dialect == "ros2_control"
    )
    assert any("classic <type>" in w for w in warnings)


def test_ros2_control_missing_role_is_warned():
    trans, warnings = _parse(
        """<transmission name="t"><plugin>transmission_interface/SimpleTransmission</plugin>
        <joint name="j"/><actuator name="a" role="actuator1"/></transmission>""",
        hardware="hw",
    )
    assert trans.joints[0].role is None
    assert len(warnings) == 1 and "no role attribute" in warnings[0]


def test_ros2_control_role_child_element_is_read_and_warned():
    trans, warnings = _parse(
        """<transmission name="t"><plugin>transmission_interface/SimpleTransmission</plugin>
        <joint name="j"><role>joint1</role></joint><actuator name="a" role="actuator1"/>
          </transmission>""",
        hardware="hw",
    )
    assert trans.joints[0].role == "joint1"
    assert any("<role> child element" in w for w in warnings)


def test_ros2_control_actuator_offset_is_kept_as_param_with_warning():
    trans, warnings = _parse(
        """<transmission name="t"><plugin>transmission_interface/SimpleTransmission</plugin>
        <joint name="j" role="joint1"/><actuator name="a" role="actuator1"><offset>0.3</offset>
          </actuator>
        </transmission>""",
        hardware="hw",
    )
    assert ("actuator.a.offset", "0.3") in trans.params
    assert any("not used by transmission_interface" in w for w in warnings)


def test_ros2_control_unknown_child_is_warned():
    _, warnings = _parse(
        """<transmission name="t"><plugin>transmission_interface/SimpleTransmission</plugin>
        <joint name="j" role="joint1"/><actuator name="a" role="actuator1"/><gear>3</gear>
          </transmission>""",
        hardware="hw",
    )
    assert len(warnings) == 1 and "<gear>" in warnings[0]


def test_plugin_form_outside_ros2_control_is_read_as_ros2_control_dialect():
    trans, warnings = _parse(RRBOT)
    assert trans.dialect == "ros2_control" and trans.hardware is None
    assert trans.joints[0].mechanical_reduction == 2.0
    assert any("outside <ros2_control>" in w for w in warnings)


# -- misspelt elements (a typo must not degrade to the default reduction) ---------------------


def test_classic_misspelt_reduction_is_an_error_not_a_default():
    xml = CLASSIC.replace(
        "<mechanicalReduction>50</mechanicalReduction>",
        "<mechanicalReducton>10</mechanicalReducton>",
    )
    with pytest.raises(
        InvalidValueError,
        match=r"^t\.urdf:8: <mechanicalReducton>: unknown element <mechanicalReducton> in "
        r"<actuator name=\"motor1\"> of transmission 'tran1'; did you mean "
        r"<mechanicalReduction>\? Fix: rename",
    ):
        _parse(xml)


@pytest.mark.parametrize(
    "xml, bad, good",
    [
        (
            CLASSIC.replace("<mechanicalReduction>50</mechanicalReduction>", "").replace(
                "</transmission>", "<mechanicalreduction>50</mechanicalreduction></transmission>"
            ),
            "mechanicalreduction",
            "mechanicalReduction",
        ),
        (
            CLASSIC.replace(
                "<hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface>\n "
                " </joint>",
                "<ofset>0.1</ofset></joint>",
            ),
            "ofset",
            "offset",
        ),
        (
            '<transmission name="t" type="pr2_mechanism_model/SimpleTransmission"><joint name="j"/>'
            '<actuator name="a"/><mechanicalReductoin>5</mechanicalReductoin></transmission>',
            "mechanicalReductoin",
            "mechanicalReduction",
        ),
        (
            '<transmission name="t" type="pr2_mechanism_model/WristTransmission"><rightActuator '
            'name="r" mechanicalReduction="1"/><leftActuatr name="l" '
            'mechanicalReduction="1"/><flexJoint name="f" mechanicalReduction="1"/>'
            '<rollJoint name="o" mechanicalReduction="1"/></transmission>',
            "leftActuatr",
            "leftActuator",
        ),
    ],
)
def test_misspelt_transmission_children_are_errors(xml, bad, good):
    with pytest.raises(
        InvalidValueError, match=rf"unknown element <{bad}> in .*; did you mean <{good}>\?"
    ):
        _parse(xml)


def test_ros2_control_misspelt_reduction_and_plugin_are_errors():
    xml = """<transmission name="t"><plugin>transmission_interface/SimpleTransmission</plugin>
      <actuator name="a" role="actuator1"/>
      <joint name="j" role="joint1"><mechanical_reducion>2</mechanical_reducion></joint>
        </transmission>"""
    with pytest.raises(
        InvalidValueError,
        match=r"unknown element <mechanical_reducion> in <joint name=\"j\"> of "
        r"transmission 't'; did you mean <mechanical_reduction>\?",
    ):
        _parse(xml, hardware="hw")
    xml = xml.replace("<mechanical_reducion>2</mechanical_reducion>", "").replace(
        "</transmission>", "<parm name='k'>v</parm></transmission>"
    )
    with pytest.raises(
        InvalidValueError,
        match=r"unknown element <parm> in <transmission name=\"t\"> of "
        r"transmission 't'; did you mean <param>\?",
    ):
        _parse(xml, hardware="hw")


def test_unrelated_unknown_children_still_only_warn():
    xml = CLASSIC.replace(
        "</actuator>", "<motorTorqueConstant>0.1</motorTorqueConstant></actuator>"
    )
    trans, warnings = _parse(xml)
    assert trans.actuators[0].mechanical_reduction == 50.0
    assert any(
        'unknown element <motorTorqueConstant> in <actuator name="motor1"> of transmission '
        "'tran1' is not read" in w
        for w in warnings
    )
