"""The ``<ros2_control>`` block for ros2_control's topic-based plugins
(sdf_bridge.hardware.topic_block): made from the demo arm and every robot of the shared corpus, read
back by the bridge, equal to what the demo xacro emits for the same arguments; its options' errors.
(That the real controller_manager loads these blocks with both plugins:
test/ros/test_ros2_control_robots.py.)"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import numpy as np
import pytest
from lxml import etree
from prerequisites import shared_skip_mark

from sdf_bridge.description import load, load_with_xml
from sdf_bridge.description.coordinates import BALL_SUFFIXES, coordinate_joint
from sdf_bridge.description.export.urdf_writer import needs_chains
from sdf_bridge.description.model import HardwareComponent, World
from sdf_bridge.errors import ConfigError
from sdf_bridge.hardware import HardwareSystem
from sdf_bridge.hardware.backend_setup import backend_parameters
from sdf_bridge.hardware.command_interfaces import commandable_joints
from sdf_bridge.hardware.topic_block import (
    PICKNIK,
    PLUGIN_DEFAULT_TOPICS,
    SUCCESSOR,
    TopicBlockOptions,
    block_name,
    block_topics,
    foreign_hardware,
    parse_command_interfaces,
    sdf_with_block,
    topic_based_block,
    topic_block,
    with_topic_block,
)
from sdf_bridge.transmissions import TransmissionMap

DEMO = Path(__file__).resolve().parents[2] / "urdf" / "demo_arm.urdf.xacro"
ARM = ("base_yaw", "shoulder_lift", "elbow", "wrist_pitch", "wrist_roll")


@pytest.fixture(scope="module")
def demo() -> tuple:
    robot, _warnings, xml = load_with_xml(DEMO)
    return robot, xml


def _interfaces(
    block: etree._Element,
) -> dict[str, tuple[tuple[str, ...], tuple[str, ...], str | None]]:
    """joint → (command interfaces, state interfaces, mimic attribute)."""
    return {
        j.get("name"): (
            tuple(c.get("name") for c in j.findall("command_interface")),
            tuple(s.get("name") for s in j.findall("state_interface")),
            j.get("mimic"),
        )
        for j in block.findall("joint")
    }


def test_demo_block_with_the_joints_own_interfaces(demo: tuple) -> None:
    robot, _ = demo
    block = topic_block(robot)
    assert block.get("name") == "demo_arm_system" and block.get("type") == "system"
    params = {p.get("name"): p.text for p in block.find("hardware").findall("param")}
    assert block.find("hardware/plugin").text == SUCCESSOR
    assert params == {
        "joint_commands_topic": "/sdf_bridge/joint_commands",
        "joint_states_topic": "/sdf_bridge/joint_states",
        "trigger_joint_command_threshold": "-1",
    }
    all3 = ("position", "velocity", "effort")
    assert _interfaces(block) == {
        **{j: (all3, all3, None) for j in ARM},
        "left_finger_joint": (("position",), all3, None),
        # the mimic finger, state-only
        "right_finger_joint": (
            (),
            ("position", "velocity"),
            "false",
        ),
    }
    # min/max of the description kept; initial values as the backends start
    elbow = block.find("joint[@name='elbow']")
    assert [(p.get("name"), p.text) for p in elbow.find("command_interface[@name='velocity']")] == [
        ("min", "-2.0"),
        ("max", "2.0"),
    ]
    assert (
        elbow.find("state_interface[@name='position']/param[@name='initial_value']").text == "0.5"
    )
    assert block.find("sensor") is None and block.find("transmission") is None


def test_one_control_mode_for_every_commandable_joint(demo: tuple) -> None:
    robot, _ = demo
    block = topic_block(robot, TopicBlockOptions(plugin=PICKNIK, command_interfaces=("velocity",)))
    interfaces = _interfaces(block)
    assert all(interfaces[j][0] == ("velocity",) for j in (*ARM, "left_finger_joint"))
    assert interfaces["right_finger_joint"][0] == ()
    # the gripper had no velocity interface: its limits come from its <limit velocity="0.1">
    assert [
        (p.get("name"), p.text)
        for p in block.find("joint[@name='left_finger_joint']/command_interface")
    ] == [("min", "-0.1"), ("max", "0.1")]


def test_with_topic_block_replaces_the_blocks_and_keeps_the_rest(demo: tuple) -> None:
    robot, xml = demo
    text = with_topic_block(robot, xml, TopicBlockOptions(command_interfaces=("position",)))
    document = etree.fromstring(text.encode())
    assert len(document.findall("ros2_control")) == 1
    block = document.find("ros2_control")
    assert [t.get("name") for t in block.findall("transmission")] == [
        "arm_fourbar_trans",
        "wrist_differential_trans",
        "gripper_trans",
    ]
    # classic, kept
    assert [t.get("name") for t in document.findall("transmission")] == ["base_yaw_trans"]
    assert len(document.findall("gazebo")) == 2 and len(document.findall("joint")) == 9
    # the bridge reads it back: same joints, transmissions, commandable joints; the block's
    # parameters are the plugin's, not the backend's (MuJoCo would warn about unknown ones)
    again = load(text)
    assert topic_based_block(again) is not None and topic_based_block(robot) is None
    original, system = HardwareSystem(robot, "mock"), HardwareSystem(again, "mock")
    assert system.joint_names == original.joint_names and system.state_names == original.state_names
    assert system.actuator_names == original.actuator_names
    np.testing.assert_allclose(
        system.transmissions.joint_to_actuator(np.ones(6), np.ones(6), np.ones(6))[0],
        original.transmissions.joint_to_actuator(np.ones(6), np.ones(6), np.ones(6))[0],
    )
    assert backend_parameters(again, None) == {}
    # position[6] for name[7]
    assert (
        system.commands.submit_joint_state(
            system.state_names, [0.1, 0.2, 0.3, 0.4, 0.5, 0.01], [], [], now=0.0
        )
        == []
    )


def test_mujoco_takes_no_plugin_parameter_of_the_block(
    demo: tuple, caplog: pytest.LogCaptureFixture
) -> None:
    robot, xml = demo
    again = load(with_topic_block(robot, xml))
    with caplog.at_level(logging.WARNING, logger="sdf_bridge"):
        HardwareSystem(again, "mujoco").close()
    assert "unknown parameter" not in caplog.text


@pytest.mark.parametrize("plugin", [SUCCESSOR, PICKNIK])
@pytest.mark.parametrize("interfaces", ["", "position", "velocity", "position velocity", "effort"])
def test_the_demo_xacro_emits_the_generated_block(
    demo: tuple, plugin: str, interfaces: str
) -> None:
    """The demo xacro's arguments (hardware_plugin, command_interfaces; topics at their
    defaults) give the block the generator makes from the demo's own (mock) block."""
    robot, _ = demo
    generated = topic_block(
        robot,
        TopicBlockOptions(plugin=plugin, command_interfaces=parse_command_interfaces(interfaces)),
    )
    _model, _warnings, text = load_with_xml(
        DEMO, xacro_args={"hardware_plugin": plugin, "command_interfaces": interfaces}
    )
    emitted = etree.fromstring(text.encode()).find("ros2_control")
    for t in emitted.findall("transmission"):
        emitted.remove(t)

    def canonical(elem: etree._Element) -> list:
        return [
            (e.tag, dict(e.attrib), (e.text or "").strip())
            for e in elem.iter()
            if not isinstance(e, etree._Comment)
        ]

    assert canonical(emitted) == canonical(generated)


def test_the_demo_xacro_refuses_two_control_modes() -> None:
    from sdf_bridge.errors import XacroError

    with pytest.raises(XacroError, match="is not one control mode"):
        load_with_xml(
            DEMO, xacro_args={"hardware_plugin": SUCCESSOR, "command_interfaces": "position effort"}
        )


@pytest.mark.parametrize(
    ("options", "match"),
    [
        (
            {"plugin": "mock_components/GenericSystem"},
            "is not a topic-based ros2_control hardware interface",
        ),
        (
            {"joint_states_topic": "/joint states"},
            "joint_states_topic '/joint states' is not a ROS topic name",
        ),
        ({"joint_commands_topic": "1cmd"}, "joint_commands_topic '1cmd' is not a ROS topic name"),
        ({"command_interfaces": ("position", "effort")}, "are not one control mode"),
        ({"command_interfaces": ("torque",)}, "are not one control mode"),
    ],
)
def test_bad_options(options: dict, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        TopicBlockOptions(**options)


def test_options_order_the_interfaces() -> None:
    assert TopicBlockOptions(command_interfaces=("velocity", "position")).command_interfaces == (
        "position",
        "velocity",
    )
    assert parse_command_interfaces(" position, velocity ") == ("position", "velocity")


def test_robot_without_commandable_joints_is_refused() -> None:
    robot = load("""<robot name="r"><link name="a"/><link name="b"/>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1"
        effort="1" velocity="1"/></joint>
      <ros2_control name="s" type="system"><hardware><plugin>x/Y</plugin></hardware>
        <joint name="j"><state_interface name="position"/></joint></ros2_control></robot>""")
    with pytest.raises(ConfigError, match="robot 'r' has no commandable joint"):
        topic_block(robot)


def test_block_names_are_ros_node_names() -> None:
    two_blocks = load("""<robot name="2dof robot"><link name="a"/><link name="b"/>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1"
        effort="1" velocity="1"/></joint>
      <ros2_control name="s" type="system"><hardware><plugin>x/Y</plugin></hardware>
        <joint name="j"><command_interface name="position"/></joint></ros2_control>
      <ros2_control name="t" type="sensor"><hardware><plugin>x/Z</plugin></hardware></ros2_control>
        </robot>""")
    assert block_name(two_blocks) == "hw_2dof_robot_system"


SCREW = """<sdf version="1.9"><model name="screwed">
  <link name="a"/><link name="b"/>
  <joint name="s" type="screw"><parent>a</parent><child>b</child>
    <axis><xyz>0 0 1</xyz></axis><thread_pitch>0</thread_pitch></joint>
</model></sdf>"""


def test_sdformat_that_urdf_cannot_carry_is_refused() -> None:
    with pytest.raises(
        ConfigError,
        match="the controller_manager reads URDF only, and SDFormat model 'screwed' "
        r"does not fit URDF \(screw joint 's' has no thread pitch",
    ):
        with_topic_block(load(SCREW), "")


def test_a_ball_caster_is_a_state_only_chain_in_the_block(robots_dir: Path) -> None:
    """turtlebot3's passive ball casters: in the URDF as the yaw → pitch → roll chain (for TF),
    in the block state only (the broadcaster publishes them; no generated controller holds
    them); the wheels with command interfaces."""
    from sdf_bridge.description.xmlio import parse_xml

    model = load(robots_dir / "turtlebot3_waffle" / "turtlebot3_waffle.sdf")
    urdf = parse_xml(with_topic_block(model, ""))
    chain = [
        (j.get("name"), j.get("type"), j.find("parent").get("link"), j.find("child").get("link"))
        for j in urdf.findall("joint")
        if j.get("name").startswith("caster_back_left_joint")
    ]
    assert chain == [
        ("caster_back_left_joint/yaw", "continuous", "base_link", "caster_back_left_joint/yaw"),
        (
            "caster_back_left_joint/pitch",
            "continuous",
            "caster_back_left_joint/yaw",
            "caster_back_left_joint/pitch",
        ),
        (
            "caster_back_left_joint/roll",
            "continuous",
            "caster_back_left_joint/pitch",
            "caster_back_left_link",
        ),
    ]
    block = urdf.find("ros2_control")
    casters = [
        f"caster_back_{side}_joint/{angle}"
        for side in ("right", "left")
        for angle in ("roll", "pitch", "yaw")
    ]
    assert {
        j.get("name"): [c.get("name") for c in j.findall("command_interface")]
        for j in block.findall("joint")
    } == {
        "wheel_left_joint": ["position", "velocity", "effort"],
        "wheel_right_joint": ["position", "velocity", "effort"],
        **{c: [] for c in casters},
    }


@shared_skip_mark()
def test_every_corpus_robot_gets_a_block_the_bridge_reads(robots_dir: Path) -> None:
    """Every robot of the corpus that URDF can carry: the block lists each joint the bridge
    publishes once (no fixed joint: the controller_manager refuses them), the commandable ones
    with command interfaces, a mimic joint without any (or with mimic="false"); the bridge
    reads the result with the same joints."""
    made = 0
    for folder in sorted(p for p in robots_dir.iterdir() if p.is_dir()):
        source = next(
            (
                folder / f"{folder.name}.{ext}"
                for ext in ("urdf", "sdf")
                if (folder / f"{folder.name}.{ext}").is_file()
            )
        )
        model, _warnings, xml = load_with_xml(source)
        if isinstance(model, World):
            continue
        try:
            text = with_topic_block(model, xml)
        except ConfigError as exc:
            assert model.format == "sdf" and "does not fit URDF" in str(exc), source
            continue
        made += 1
        # (a model with joints URDF lacks: the bridge runs the SDFormat model with the block)
        again = load(sdf_with_block(model, text) if needs_chains(model) else text)
        before, after = HardwareSystem(model, "mock"), HardwareSystem(again, "mock")
        # (a ball's coordinates are state only in the block: the bridge reading it leaves them
        # free, so they leave joint_names, still published)
        balls = {n for n in before.joint_names if n.rsplit("/", 1)[-1] in BALL_SUFFIXES}
        assert set(after.state_names) == set(before.state_names), source
        assert after.joint_names == tuple(n for n in before.joint_names if n not in balls), source
        (block,) = again.ros2_control
        screws = [n for n in before.state_names if n.endswith("/translation")]  # (URDF mimics)
        assert sorted(j.name for j in block.joints) == sorted(
            n for n in before.state_names if n not in screws
        ), source
        assert screws == (["screw_joint/translation"] if "joint_complete" in source.name else [])
        for info in block.joints:
            joint = coordinate_joint(again, info.name)
            assert joint.type.value != "fixed", (source, info.name)
            assert bool(info.command_interfaces) == (info.name in after.joint_names), (
                source,
                info.name,
            )
            if joint.mimic is not None:
                assert info.is_mimic is False and not info.command_interfaces, (source, info.name)
        assert not block.sensors and not block.gpios
    assert made >= 13  # every robot of the corpus but the worlds


def test_an_unknown_transmission_types_joints_get_the_block(data_dir: Path) -> None:
    """The block is for the bridge's simulating backends, which drive the joints of a
    transmission of unknown type directly: both joints commandable, in position (the mode
    their <hardwareInterface> gives), and the bridge reads the result back the same way."""
    robot, _warnings, xml = load_with_xml(data_dir / "made_up_transmission.urdf")
    block = topic_block(robot, TopicBlockOptions(plugin=PICKNIK, command_interfaces=("position",)))
    assert _interfaces(block) == {
        j: (("position",), ("position", "velocity", "effort"), None)
        for j in ("head_1_joint", "head_2_joint")
    }
    reread = load(with_topic_block(robot, xml))
    system = HardwareSystem(reread, "mock", command_timeout=0.0)
    assert system.joint_names == ("head_1_joint", "head_2_joint")
    system.close()


def test_a_shared_actuator_names_joints_get_the_block(data_dir: Path) -> None:
    """Two transmissions naming one actuator (test/data/shared_actuator_name.urdf): the block
    is made as the simulating backends build the map (the later actuator renamed), both joints
    commandable; the description's transmissions stay as written, and the bridge reads the
    result back with the same actuator names."""
    robot, _warnings, xml = load_with_xml(data_dir / "shared_actuator_name.urdf")
    block = topic_block(robot, TopicBlockOptions(plugin=PICKNIK, command_interfaces=("position",)))
    assert _interfaces(block) == {
        j: (("position",), ("position", "velocity", "effort"), None)
        for j in ("shoulder_joint", "finger_joint")
    }
    text = with_topic_block(robot, xml)
    assert text.count('<actuator name="actuator1">') == 2
    system = HardwareSystem(load(text), "mock", command_timeout=0.0)
    assert system.actuator_names == ("actuator1", "finger_trans/actuator1")
    system.close()


def test_block_topics_are_its_params_else_the_plugins_defaults(demo: tuple) -> None:
    robot, xml = demo
    options = TopicBlockOptions(joint_commands_topic="/a/cmd", joint_states_topic="/a/states")
    block = topic_based_block(load(with_topic_block(robot, xml, options)))
    assert block_topics(block) == ("/a/cmd", "/a/states")
    bare = HardwareComponent("hw", "system", plugin=PICKNIK)
    assert (
        block_topics(bare)
        == PLUGIN_DEFAULT_TOPICS
        == (
            "/robot_joint_commands",
            "/robot_joint_states",
        )
    )


def test_foreign_hardware_names_the_block_its_plugin_file_line_and_the_fix(demo: tuple) -> None:
    robot, xml = demo
    note = foreign_hardware(robot)  # the demo arm's own block: mock_components/GenericSystem
    assert note is not None
    source = robot.ros2_control[0].source
    assert str(source).startswith(f"{DEMO} (expanded by xacro):")
    assert (
        f"carries <ros2_control> block(s) 'demo_arm_system' (mock_components/GenericSystem, "
        f"{source})" in note
    )
    assert "Fix: run 'sdf-bridge control --description FILE'" in note
    assert foreign_hardware(load(with_topic_block(robot, xml))) is None
    assert foreign_hardware(dataclasses.replace(robot, ros2_control=())) is None
    unnamed = dataclasses.replace(robot, ros2_control=(HardwareComponent("x", "system"),))
    assert "block(s) 'x' (no plugin)" in foreign_hardware(unnamed)


def test_effort_only_transmissions_give_effort_only_in_the_default_block(data_dir: Path) -> None:
    """test/data/effort_transmissions.urdf: the default block offers what each joint's
    transmissions declare (effort only for the shoulder, all three for the undeclared elbow),
    its states all three; the effort interface keeps the <limit effort> as min/max. Read back,
    the bridge commands the shoulder in effort only, and a requested mode is narrowed by the
    transmissions: position for the elbow, effort still for the shoulder."""
    robot, _warnings, xml = load_with_xml(data_dir / "effort_transmissions.urdf")
    block = topic_block(robot)
    states = ("position", "velocity", "effort")
    assert _interfaces(block) == {
        "shoulder": (("effort",), states, None),
        "elbow": (states, states, None),
    }
    assert [
        (p.get("name"), p.text) for p in block.find("joint[@name='shoulder']/command_interface")
    ] == [("min", "-80.0"), ("max", "80.0")]
    again = load(with_topic_block(robot, xml))
    assert [t.name for t in again.transmissions] == ["shoulder_trans", "elbow_trans"]
    assert commandable_joints(again, TransmissionMap.from_robot(again)) == {
        "shoulder": ("effort",),
        "elbow": states,
    }
    requested = topic_block(robot, TopicBlockOptions(command_interfaces=("position",)))
    assert {j: c for j, (c, _s, _m) in _interfaces(requested).items()} == {
        "shoulder": ("effort",),
        "elbow": ("position",),
    }


def test_a_ros2_control_dialect_effort_joint_gets_effort_only(data_dir: Path) -> None:
    """A gz_ros2_control block listing the shoulder with the effort command interface only (and
    its ros2_control-dialect transmission): the generated block offers it effort only and takes
    the transmission over; the elbow, which the block does not list, is state-only."""
    block_xml = """<ros2_control name="GazeboSystem" type="system">
    <hardware><plugin>gz_ros2_control/GazeboSimSystem</plugin></hardware>
    <joint name="shoulder"><command_interface name="effort"/>
      <state_interface name="position"/><state_interface name="velocity"/></joint>
    <transmission name="shoulder_t"><plugin>transmission_interface/SimpleTransmission</plugin>
      <actuator name="shoulder_motor" role="actuator1"/>
      <joint name="shoulder" role="joint1"><mechanical_reduction>100</mechanical_reduction>
      </joint></transmission>
  </ros2_control>
</robot>"""
    arm = (data_dir / "effort_transmissions.urdf").read_text(encoding="utf-8")
    text = arm.split("  <transmission", 1)[0] + block_xml
    robot, _warnings, xml = load_with_xml(text)
    block = topic_block(robot)
    states = ("position", "velocity", "effort")
    assert _interfaces(block) == {
        "shoulder": (("effort",), states, None),
        "elbow": ((), states, None),  # (its effort is published: the plug-ins need the interface)
    }
    again = load(with_topic_block(robot, xml))
    (made,) = again.ros2_control
    assert [(t.name, t.dialect, t.hardware) for t in again.transmissions] == [
        ("shoulder_t", "ros2_control", made.name)
    ]


def test_the_bridges_sdformat_model_carries_the_block_and_absolute_meshes(tmp_path: Path) -> None:
    """sdf_with_block: the model as SDFormat (the universal joint as it is, not a chain) with
    the generated block in place of its own (mock_components here), and a mesh written
    relative to the description by its absolute path (the text is written elsewhere)."""
    folder = tmp_path / "robot"
    (folder / "meshes").mkdir(parents=True)
    (folder / "meshes" / "a.stl").write_text("solid a\nendsolid a\n")
    source = folder / "m.sdf"
    source.write_text("""<sdf version="1.9"><model name="m">
      <link name="a"><visual name="v"><geometry><mesh><uri>meshes/a.stl</uri></mesh></geometry>
      </visual></link><link name="b"/>
      <joint name="u" type="universal"><parent>a</parent><child>b</child>
        <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
      <ros2_control name="own" type="system"><hardware><plugin>mock_components/GenericSystem
        </plugin></hardware><joint name="u/axis1"><command_interface name="position"/>
        </joint></ros2_control></model></sdf>""")
    robot, _warnings, xml = load_with_xml(source)
    text = sdf_with_block(robot, with_topic_block(robot, xml))
    written = tmp_path / "elsewhere.sdf"
    written.write_text(text)
    again = load(written)
    assert again.joints["u"].type.value == "universal"
    (block,) = again.ros2_control
    assert (block.plugin, [j.name for j in block.joints]) == (SUCCESSOR, ["u/axis1", "u/axis2"])
    mesh = again.links["a"].visuals[0].geometry
    assert mesh.filename == str(folder / "meshes" / "a.stl")
