"""Containment per element (sdf_bridge.description.contain) and the fault classes of issue 23,
each on a small description of our own: what urdfdom and libsdformat load, the bridge loads,
leaving out (with one warning naming file, line and why) what it cannot use."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from sdf_bridge.description import load, load_with_warnings
from sdf_bridge.description.contain import (
    contained,
    driver_skips,
    prune,
    reason_of,
    refused_skips,
    skip,
)
from sdf_bridge.description.model import (
    Box,
    ForceTorqueParams,
    ImuParams,
    Robot,
    Skip,
    Source,
    Sphere,
)
from sdf_bridge.description.xmlio import ParseContext
from sdf_bridge.errors import (
    DuplicateNameError,
    InvalidValueError,
    TransmissionError,
    XacroError,
)
from sdf_bridge.transmissions import TransmissionMap

ARM = """<link name="base"/><link name="upper"/><link name="fore"/>
<joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
  <limit lower="-1" upper="1" effort="10" velocity="2"/></joint>
<joint name="elbow" type="continuous"><parent link="upper"/><child link="fore"/></joint>
"""


def urdf(body: str) -> str:
    """A URDF document around ``body`` (line 2 is ``<robot>``, the body starts on line 3)."""
    return f'<?xml version="1.0"?>\n<robot name="r">\n{body}\n</robot>\n'


# -- the mechanism ---------------------------------------------------------------------------


def test_contained_returns_the_reading_or_records_one_skip() -> None:
    ctx = ParseContext(file="f.urdf")
    elem = etree.fromstring('<sensor name="s"/>')
    assert contained(ctx, elem, "sensor", lambda: 42) == 42
    assert (ctx.skipped, ctx.warnings) == ([], [])

    def fail() -> int:
        raise ctx.error(InvalidValueError, elem, "it is broken", "mend it")

    assert contained(ctx, elem, "sensor", fail) is None
    assert ctx.skipped == [
        Skip(
            kind="sensor", name="s", source=Source("f.urdf", 1), reason="it is broken. Fix: mend it"
        )
    ]
    assert ctx.warnings == ["f.urdf:1: sensor 's' skipped: it is broken. Fix: mend it"]


def test_contained_lets_other_errors_through() -> None:
    ctx = ParseContext()
    elem = etree.fromstring("<gazebo/>")

    def crash() -> None:
        raise RuntimeError("a bug, not a description fault")

    with pytest.raises(RuntimeError, match="a bug"):
        contained(ctx, elem, "gazebo", crash)
    assert ctx.skipped == []


def test_reason_names_a_line_other_than_the_elements() -> None:
    exc = InvalidValueError("bad", file="f", line=7, fix="good")
    assert reason_of(exc, etree.fromstring("<a/>")) == "bad (line 7). Fix: good"
    assert reason_of(InvalidValueError("bad.")) == "bad."


def test_skip_at_a_source_and_its_text() -> None:
    ctx = ParseContext(file="x.urdf")
    record = skip(ctx, Source("y.urdf", 3), "transmission", "t", "why")
    assert str(record) == "y.urdf:3: transmission 't' skipped: why"
    assert ctx.warnings == [str(record)]
    assert str(skip(ctx, None, "gazebo", None, "why")) == "x.urdf: gazebo skipped: why"


def test_prune_takes_the_skips_since_first() -> None:
    ctx = ParseContext()
    skip(ctx, None, "sensor", "a", "earlier model")
    skip(ctx, None, "sensor", "b", "this model")
    robot = prune(Robot(name="m"), ctx, first=1)
    assert [s.name for s in robot.skipped] == ["b"]


def test_a_robot_with_nothing_wrong_skips_nothing() -> None:
    robot, warnings = load_with_warnings(urdf(ARM))
    assert (robot.skipped, warnings) == ((), [])
    assert (driver_skips(robot), robot.skipped) == ((), ())


# -- transmissions: simulated robots run without a faulty one, real drivers refuse ------------

TYPELESS = """<transmission name="t_shoulder">
  <joint name="shoulder"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
  <actuator name="m1"><mechanicalReduction>50</mechanicalReduction></actuator>
</transmission>"""


def test_classic_transmission_without_type_is_skipped() -> None:
    robot = load(urdf(ARM + TYPELESS))
    assert robot.transmissions == ()
    assert [str(s) for s in robot.skipped] == [
        "<string>:7: transmission 't_shoulder' skipped: in transmission 't_shoulder': the type "
        "is missing (no <type>). Fix: add <type>transmission_interface/SimpleTransmission</type>"
    ]
    assert TransmissionMap.from_robot(robot, simulated_robot=True).joint_names == (
        "shoulder",
        "elbow",
    )
    with pytest.raises(
        TransmissionError,
        match=r"^1 transmission, <ros2_control> or limit element\(s\) of robot 'r' could not be "
        r"read, "
        r"and a real actuator cannot run without them:\n  <string>:7: transmission 't_shoulder' "
        r"skipped: .*\nFix: correct them \(a simulated robot runs without them\)$",
    ):
        TransmissionMap.from_robot(robot, simulated_robot=False)
    assert refused_skips(robot).startswith("1 transmission, <ros2_control> or limit element(s)")


def test_faulty_ros2_control_block_is_skipped_and_the_good_one_kept() -> None:
    good = (
        '<ros2_control name="hw" type="system"><hardware><plugin>mock_components/GenericSystem'
        '</plugin></hardware><joint name="shoulder"><command_interface name="position"/>'
        '<state_interface name="position"/></joint></ros2_control>'
    )
    bad = '<ros2_control name="broken" type="spaceship"><hardware/></ros2_control>'
    robot = load(urdf(ARM + good + "\n" + bad))
    assert [b.name for b in robot.ros2_control] == ["hw"]
    assert [(s.kind, s.name, s.source.line) for s in robot.skipped] == [
        ("ros2_control", "broken", 8)
    ]


# -- robot-level sensors: urdfdom's and iDynTree's forms --------------------------------------

IDYNTREE = """<sensor name="ft" type="force_torque">
  <parent joint="elbow"/>
  <origin xyz="0 0 0.1" rpy="0 0 0"/>
  <force_torque><frame>sensor</frame><measure_direction>parent_to_child</measure_direction>
  </force_torque>
</sensor>
<sensor name="acc" type="accelerometer"><parent link="upper"/><origin xyz="0.1 0 0"/></sensor>
<sensor name="gyro" type="gyroscope"><parent link="upper"/></sensor>
<sensor name="skin" type="skin"><parent link="fore"/></sensor>
<sensor name="ft_nowhere" type="force_torque"><parent joint="wrist"/></sensor>"""


def test_idyntree_sensors_are_read_or_skipped() -> None:
    robot, warnings = load_with_warnings(urdf(ARM + IDYNTREE))
    ft, acc, gyro = robot.sensors
    assert (ft.name, ft.type, ft.raw_type, ft.link, ft.joint) == (
        "ft",
        "force_torque",
        "force_torque",
        "fore",
        "elbow",
    )
    assert ft.params == ForceTorqueParams(frame="sensor", measure_direction="parent_to_child")
    assert ft.pose.xyz == (0.0, 0.0, 0.1)
    assert [(s.name, s.type, s.raw_type, s.link, s.params) for s in (acc, gyro)] == [
        ("acc", "imu", "accelerometer", "upper", ImuParams()),
        ("gyro", "imu", "gyroscope", "upper", ImuParams()),
    ]
    assert acc.pose.xyz == (0.1, 0.0, 0.0)
    assert warnings == [
        "<string>:15: sensor 'skin' skipped: sensor type 'skin' is not one the bridge reads "
        "(force_torque on a joint, accelerometer, gyroscope, imu; or urdfdom's <camera>/<ray>). "
        "Fix: leave it for the tools that read it; the bridge simulates no such sensor",
        "<string>:16: sensor 'ft_nowhere' skipped: force_torque sensor 'ft_nowhere' is on joint "
        "'wrist', which the robot does not have. Fix: name an existing joint in <parent "
        "joint=...>",
    ]


def test_urdfdom_sensor_without_body_is_skipped() -> None:
    robot = load(urdf(ARM + '<sensor name="cam"><parent link="fore"/></sensor>'))
    assert robot.sensors == ()
    assert [str(s) for s in robot.skipped] == [
        "<string>:7: sensor 'cam' skipped: sensor 'cam' has no <camera> or <ray> element. Fix: "
        "add <camera> or <ray>"
    ]


# -- geometry -----------------------------------------------------------------------------------


def test_geometry_with_two_shapes_reads_the_first_as_urdfdom() -> None:
    robot, warnings = load_with_warnings(
        urdf(
            '<link name="a"><visual><geometry><box size="1 2 3"/><sphere radius="1"/>'
            "</geometry></visual></link>"
        )
    )
    assert robot.links["a"].visuals[0].geometry == Box((1.0, 2.0, 3.0))
    assert warnings == [
        "<string>:3: <geometry>: <geometry> holds 2 shapes; the first, <box>, is read and "
        "<sphere> ignored, as urdfdom reads it"
    ]


def test_faulty_visual_is_skipped_and_the_next_one_kept() -> None:
    robot = load(
        urdf(
            '<link name="a">\n<visual name="v1"><geometry><box/></geometry></visual>\n'
            '<visual name="v2"><geometry><sphere radius="0.5"/></geometry></visual></link>'
        )
    )
    assert [v.name for v in robot.links["a"].visuals] == ["v2"]
    assert robot.links["a"].visuals[0].geometry == Sphere(0.5)
    assert [str(s) for s in robot.skipped] == [
        "<string>:4: visual 'v1' skipped: <box> has no size. Fix: write <box size=\"x y z\"/>"
    ]


# -- a .urdf holding leftover xacro -------------------------------------------------------------

STRAY_XACRO = """<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="a"/>
  <xacro:leftover_macro prefix="x"/>
  <link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>
"""


def test_urdf_with_a_stray_macro_call_is_read_as_plain_xml(tmp_path: Path) -> None:
    path = tmp_path / "robot.urdf"
    path.write_text(STRAY_XACRO)
    robot, warnings = load_with_warnings(path)
    assert (list(robot.links), list(robot.joints)) == (["a", "b"], ["j"])
    assert warnings == [
        f"{path}: xacro failed on it (xacro expansion failed: unknown macro name: "
        "xacro:leftover_macro); it is not a .xacro file, so it is read as plain XML, as urdfdom "
        "and libsdformat read it (its xacro elements ignored)",
        f"{path}:4: <{{http://www.ros.org/wiki/xacro}}leftover_macro>: unknown element "
        '<{http://www.ros.org/wiki/xacro}leftover_macro> in <robot name="r"> ignored',
    ]


def test_xacro_file_with_a_stray_macro_call_is_still_an_error(tmp_path: Path) -> None:
    path = tmp_path / "robot.urdf.xacro"
    path.write_text(STRAY_XACRO)
    with pytest.raises(XacroError, match=r"unknown macro name: xacro:leftover_macro"):
        load(path)


# -- SDFormat < 1.7: a joint named like a link ---------------------------------------------------


@pytest.mark.parametrize(
    "version, names", [("1.6", ["arm_joint", "arm_joint0"]), ("1.5", ["arm_joint", "arm_joint0"])]
)
def test_old_sdf_joint_named_like_a_link_is_renamed_as_libsdformat(
    version: str, names: list[str]
) -> None:
    text = f"""<?xml version="1.0"?>
<sdf version="{version}"><model name="m">
<link name="base"/><link name="arm"><pose>0 0 1 0 0 0</pose></link><link name="arm_joint"/>
<joint name="arm" type="revolute"><parent>base</parent><child>arm</child>
  <axis><xyz>0 0 1</xyz></axis></joint>
<joint name="fix" type="fixed"><parent>arm</parent><child>arm_joint</child></joint>
</model></sdf>"""
    robot, warnings = load_with_warnings(text)
    assert list(robot.joints) == [names[1], "fix"]
    assert warnings == [
        f"<string>:4: <joint name=\"arm\">: joint 'arm' has the name of another frame of model "
        f"'__model__' (allowed before SDFormat 1.7): renamed {names[1]!r}, as libsdformat "
        "renames it"
    ]


def test_sdf_1_7_joint_named_like_a_link_is_an_error() -> None:
    text = """<sdf version="1.7"><model name="m"><link name="base"/><link name="arm"/>
<joint name="arm" type="fixed"><parent>base</parent><child>arm</child></joint></model></sdf>"""
    with pytest.raises(DuplicateNameError, match=r"name .arm. is already used by another frame"):
        load(text)


# -- ros2_control interface bounds the bridge cannot enforce ------------------------------------


@pytest.mark.parametrize(
    ("params", "kept", "why", "left_out"),
    [
        (("abc", "1"), (None, "1"), "min 'abc' is no finite number", "min"),
        (("-1", "1e400"), ("-1", None), "max '1e400' is no finite number", "max"),
        (
            ("nan", "1 2"),
            (None, None),
            "min 'nan' is no finite number and max '1 2' is no finite number",
            "min and max",
        ),
        (
            ('"0.015"', '"-0.015"'),
            (None, None),
            """min '"0.015"' is a number in quotes and max '"-0.015"' is a number in quotes""",
            "min and max",
        ),
        (("0.5", "0.2"), (None, None), "min '0.5' is above max '0.2'", "min and max"),
        (("-0.5", "0.5"), ("-0.5", "0.5"), None, None),
    ],
)
def test_ros2_control_bounds_that_are_no_numbers_are_left_out(
    params: tuple[str, str], kept: tuple, why: str | None, left_out: str | None
) -> None:
    block = (
        '<ros2_control name="hw" type="system"><hardware><plugin>x/Y</plugin></hardware>'
        '<joint name="shoulder"><command_interface name="position">'
        f'<param name="min">{params[0]}</param><param name="max">{params[1]}</param>'
        "</command_interface></joint></ros2_control>"
    )
    robot = load(urdf(ARM + block))
    (iface,) = robot.ros2_control[0].joints[0].command_interfaces
    assert (iface.min, iface.max) == kept
    if why is None:
        assert robot.skipped == ()
        return
    assert [str(s) for s in robot.skipped] == [
        "<string>:7: ros2_control limit 'shoulder/position' skipped: command interface "
        f"shoulder/position of ros2_control block 'hw': {why}; {left_out} left out (the URDF "
        'limits apply). Fix: write <param name="min"> and <param name="max"> as numbers, '
        "min <= max"
    ]


# -- transmissions the map cannot build: skipped for simulated robots --------------------------


def test_second_of_two_differing_transmissions_on_a_joint_is_skipped_when_simulated() -> None:
    def simple(name: str, reduction: int) -> str:
        return (
            f'<transmission name="{name}"><type>transmission_interface/SimpleTransmission</type>'
            '<joint name="shoulder"><hardwareInterface>EffortJointInterface</hardwareInterface>'
            f'</joint><actuator name="m_{name}"><mechanicalReduction>{reduction}'
            "</mechanicalReduction></actuator></transmission>\n"
        )

    robot = load(urdf(ARM + simple("t1", 10) + simple("t2", 20)))
    with pytest.raises(TransmissionError, match=r"joint 'shoulder' is driven by two transmissions"):
        TransmissionMap.from_robot(robot, simulated_robot=False)
    tmap = TransmissionMap.from_robot(robot, simulated_robot=True)
    assert [(e.spec.name, e.status) for e in tmap.entries] == [("t1", "used"), ("t2", "skipped")]
    assert tmap.actuator_names == ("m_t1", "elbow")
    assert tmap.warnings[0].startswith(
        "joint 'shoulder' is driven by two transmissions, 't1' and 't2' (<string>:8), which differ."
    )
    assert tmap.warnings[0].endswith(
        "Skipped: a simulated robot runs without it (its joints driven directly); a real "
        "actuator's driver refuses it."
    )


def test_limits_left_out_are_refused_for_real_actuators() -> None:
    """A bound the bridge could not read is not enforced: a simulated robot runs, a real
    actuator's map refuses the robot (it would be driven looser than described)."""
    robot = load(
        urdf(
            ARM.replace('effort="10" velocity="2"', 'effort="-10" velocity="2"')
            + '<ros2_control name="hw" type="system"><hardware><plugin>x/Y</plugin></hardware>'
            '<joint name="elbow"><command_interface name="velocity"><param name="max">fast'
            "</param></command_interface></joint></ros2_control>"
        )
    )
    assert [(s.kind, s.name) for s in driver_skips(robot)] == [
        ("effort limit", "shoulder"),
        ("ros2_control limit", "elbow/velocity"),
    ]
    TransmissionMap.from_robot(robot, simulated_robot=True)
    with pytest.raises(TransmissionError, match=r"^2 transmission, <ros2_control> or limit"):
        TransmissionMap.from_robot(robot, simulated_robot=False)
