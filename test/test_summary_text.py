"""Tests of sdf_bridge.summary_text: the summary ``check`` and ``info`` print, called directly
(the command-line tests of the same tables are in test_cli.py)."""

from __future__ import annotations

import io

from sdf_bridge.description import load
from sdf_bridge.summary_text import print_summary, transmission_report

#: One joint with a differential transmission of one joint (refused) and a link whose principal
#: moments break the triangle inequality (worked around: balanced).
ROBOT = """<?xml version="1.0"?>
<robot name="bot">
  <link name="base"/>
  <link name="arm"><inertial><mass value="1"/>
    <inertia ixx="1" iyy="1" izz="3" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1.5" upper="1.5" effort="20" velocity="2"/></joint>
  {transmission}
</robot>
"""

#: A differential transmission of one joint: the simulating backends run without it (worked
#: around), a real actuator's driver refuses it.
UNBUILDABLE = """<transmission name="t1">
  <type>transmission_interface/DifferentialTransmission</type>
  <joint name="shoulder"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
  <actuator name="m1"><mechanicalReduction>50</mechanicalReduction></actuator></transmission>"""
#: A <ros2_control> position range outside the URDF's: the limits cannot be built (refused).
REFUSED = (
    UNBUILDABLE
    + """
  <ros2_control name="hw" type="system"><hardware><plugin>x/Y</plugin></hardware>
    <joint name="shoulder"><command_interface name="position"><param name="min">2</param>
      <param name="max">3</param></command_interface></joint></ros2_control>"""
)
SKIPPED_NOTE = (
    "<string>:8: transmission 't1' (DifferentialTransmission) has 1 joint(s) and 1 actuator(s); "
    "the type needs 2 joint(s) and 2 actuator(s). Fix: give exactly that many <joint> and "
    "<actuator> entries, or use another transmission type. Skipped: a simulated robot runs "
    "without it (its joints driven directly); a real actuator's driver refuses it."
)


def test_transmission_report_without_transmissions_is_empty() -> None:
    problems: list[str] = []
    assert transmission_report(load(ROBOT.format(transmission="")), problems) == []
    assert problems == []


def test_transmission_report_lists_an_unbuildable_transmission_skipped() -> None:
    problems: list[str] = []
    (row,) = transmission_report(load(ROBOT.format(transmission=UNBUILDABLE)), problems)
    assert problems == []
    assert (row["effective"], row["notes"]) == ("skipped (identity)", [SKIPPED_NOTE])


def test_print_summary_counts_refusals_and_marks_what_it_works_around() -> None:
    out = io.StringIO()
    assert print_summary(load(ROBOT.format(transmission=REFUSED)), [], out) == 1
    text = out.getvalue()
    assert (
        "\nproblems (3):\n  joint 'shoulder': <ros2_control> position min/max [2.0, 3.0] do not "
        "overlap the URDF range [-1.5, 1.5]. Fix: correct the interface min/max.\n" in text
    )
    assert "\n  (worked around) link 'arm': its principal moments (1, 1, 3) kg·m²" in text
    assert text.endswith(f"\n  (worked around) {SKIPPED_NOTE}\n")
    out = io.StringIO()
    assert print_summary(load(ROBOT.format(transmission=UNBUILDABLE)), [], out) == 0
    assert "\nproblems (2):\n  (worked around) link 'arm'" in out.getvalue()
    out = io.StringIO()
    assert print_summary(load(ROBOT.format(transmission="")), [], out) == 0
    assert "\nproblems (1):\n  (worked around) link 'arm'" in out.getvalue()


def test_info_leaves_the_problems_out_but_counts_them() -> None:
    out = io.StringIO()
    robot = load(ROBOT.format(transmission=REFUSED))
    assert print_summary(robot, ["a warning"], out, show_problems=False) == 1
    text = out.getvalue()
    assert "problems" not in text
    assert text.endswith("\nwarnings (1):\n  a warning\n")


def test_a_fixed_joints_limit_is_not_shown() -> None:
    """A fixed joint's ``<limit effort="0" velocity="0">`` (xacro macros write one) is not
    read: its row shows ``-``, not the "not limited (0)" of a movable joint's zeros."""
    fixed = (
        '<link name="tool"/><joint name="tool_mount" type="fixed"><parent link="arm"/>'
        '<child link="tool"/><limit lower="0" upper="0" effort="0" velocity="0"/></joint>'
    )
    out = io.StringIO()
    print_summary(load(ROBOT.format(transmission=fixed)), [], out)
    row = next(line for line in out.getvalue().splitlines() if "tool_mount" in line)
    assert row.split() == ["tool_mount", "fixed", "arm", "->", "tool", *["-"] * 7]


def test_a_shared_actuator_name_is_listed_renamed_and_is_no_problem(data_dir) -> None:
    """check reads the map as the simulating backends do (test/data/shared_actuator_name.urdf:
    two transmissions name ``actuator1``): no problem, the finger's actuator under the name
    the bridge uses, the renaming as its note."""
    path = data_dir / "shared_actuator_name.urdf"
    out = io.StringIO()
    assert print_summary(load(path), [], out) == 0
    text = out.getvalue()
    assert (
        "    actuator actuator1: role -, actuator-side reduction 1\n"
        "  finger_trans (transmission_interface/SimpleTransmission, classic dialect)\n"
        "    effective: actuator = 100 × joint\n"
        "    joint finger_joint: role -, joint-side reduction not given, offset 0\n"
        "    actuator finger_trans/actuator1: role -, actuator-side reduction 100\n"
    ) in text
    assert (
        f"    note: {path}:39: actuator 'actuator1' is used by transmissions 'arm_trans' "
        "(joints ['shoulder_joint']) and 'finger_trans' (joints ['finger_joint']); renamed "
        "'actuator1' → 'finger_trans/actuator1' for 'finger_trans' (the other keeps it). "
    ) in text
    assert "\nproblems: none\n" in text


#: Classic transmissions declaring command interfaces: effort only; position and velocity; on
#: the actuator (legacy); a state interface only (no command interface declared).
DECLARED = """<?xml version="1.0"?>
<robot name="declared">
  <link name="l0"/><link name="l1"/><link name="l2"/><link name="l3"/><link name="l4"/>
  <joint name="e" type="revolute"><parent link="l0"/><child link="l1"/>
    <limit lower="-1" upper="1" effort="5" velocity="2"/></joint>
  <joint name="pv" type="continuous"><parent link="l1"/><child link="l2"/>
    <limit effort="5" velocity="2"/></joint>
  <joint name="a" type="prismatic"><parent link="l2"/><child link="l3"/>
    <limit lower="0" upper="0.1" effort="5" velocity="2"/></joint>
  <joint name="s" type="revolute"><parent link="l3"/><child link="l4"/>
    <limit lower="-1" upper="1" effort="5" velocity="2"/></joint>
  <transmission name="te"><type>transmission_interface/SimpleTransmission</type>
    <joint name="e"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface>
    </joint><actuator name="me"><mechanicalReduction>1</mechanicalReduction></actuator>
  </transmission>
  <transmission name="tpv"><type>transmission_interface/SimpleTransmission</type>
    <joint name="pv"><hardwareInterface>PositionJointInterface</hardwareInterface>
      <hardwareInterface>hardware_interface/VelocityJointInterface</hardwareInterface></joint>
    <actuator name="mpv"><mechanicalReduction>1</mechanicalReduction></actuator></transmission>
  <transmission name="ta"><type>transmission_interface/SimpleTransmission</type>
    <joint name="a"/><actuator name="ma">
      <hardwareInterface>EffortJointInterface</hardwareInterface>
      <mechanicalReduction>1</mechanicalReduction></actuator></transmission>
  <transmission name="ts"><type>transmission_interface/SimpleTransmission</type>
    <joint name="s"><hardwareInterface>hardware_interface/JointStateInterface</hardwareInterface>
    </joint><actuator name="ms"><mechanicalReduction>1</mechanicalReduction></actuator>
  </transmission>
</robot>
"""


def test_the_joints_table_shows_the_modes_the_generated_block_offers() -> None:
    """``modes``: the command interfaces of the generated <ros2_control> block
    (test/hardware/test_topic_block.py checks the block itself), next to what the bridge's
    joint_commands takes (``command``: all three, as the simulating backends drive them)."""
    out = io.StringIO()
    assert print_summary(load(DECLARED), [], out) == 0
    rows = {
        line.split()[0]: line.split()[-3:]
        for line in out.getvalue().splitlines()
        if line.startswith("  ") and line.split()[0] in ("e", "pv", "a", "s")
    }
    every = "position,velocity,effort"
    assert rows == {
        "e": [every, "effort", every],
        "pv": [every, "position,velocity", every],
        "a": [every, "effort", every],
        "s": [every, every, every],
    }
    assert (
        "joints (limits: what the bridge enforces, - = not limited; modes: the command "
        "interfaces the generated <ros2_control> block offers):\n"
    ) in out.getvalue()


def test_summary_lists_joint_wrench_feedback() -> None:
    """A joint asking for feedback is listed with its topic and frame; a non-boolean
    provideFeedback is a warning (skipped: a <gazebo> detail never refuses the robot)."""
    on = '<gazebo reference="shoulder"><provideFeedback>true</provideFeedback></gazebo>'
    out = io.StringIO()
    assert print_summary(load(ROBOT.format(transmission=on)), [], out) == 0
    assert (
        "\njoint wrench feedback (MuJoCo; publishes geometry_msgs/WrenchStamped, ~ = the node's "
        "namespace and name, frame_id the child link):\n"
        "  shoulder: ~/joint_wrench/shoulder (frame arm)\n"
    ) in out.getvalue()
    out = io.StringIO()
    print_summary(load(ROBOT.format(transmission="")), [], out)
    assert "joint wrench feedback" not in out.getvalue()
    bad = on.replace("true", "maybe")
    out = io.StringIO()
    assert print_summary(load(ROBOT.format(transmission=bad)), [], out) == 0
    assert "<provideFeedback> is 'maybe', not a boolean; skipped" in out.getvalue()
    assert "joint wrench feedback" not in out.getvalue()


def test_summary_lists_joint_wrench_topics_as_run_names_them() -> None:
    """Joint names that are not ROS name tokens: the topics of joint_wrench_topics (what run
    publishes), a collision told apart and warned about."""
    sdf = """<?xml version="1.0"?><sdf version="1.9"><model name="m"><link name="l0"/>
    <link name="l1"/><link name="l2"/>
    <joint name="a.b" type="revolute"><parent>l0</parent><child>l1</child><axis><xyz>1 0 0</xyz>
    </axis><physics><provide_feedback>true</provide_feedback></physics></joint>
    <joint name="a-b" type="revolute"><parent>l1</parent><child>l2</child><axis><xyz>1 0 0</xyz>
    </axis><physics><provide_feedback>true</provide_feedback></physics></joint>
    </model></sdf>"""
    out = io.StringIO()
    assert print_summary(load(sdf), [], out) == 0
    text = out.getvalue()
    assert (
        "  a.b: ~/joint_wrench/a_b_2e7336 (frame l1)\n  a-b: ~/joint_wrench/a_b_d44362 (frame l2)\n"
    ) in text
    assert "  joints ['a.b', 'a-b'] all map to the topic token 'a_b'" in text
