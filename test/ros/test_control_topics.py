"""sdf_bridge.ros.control_topics, with the bridge in its own process: on a description whose
``<ros2_control>`` block names a topic-based plugin, the bridge serves the block's topics with
no remap (and not ``joint_states``, joint_state_broadcaster's); a remap still wins; a block
naming other hardware gets one warning once a controller_manager reads ``robot_description``."""

from __future__ import annotations

from pathlib import Path

import rclpy
from sensor_msgs.msg import JointState
from std_msgs.msg import String

from sdf_bridge.description import load_with_xml
from sdf_bridge.hardware.topic_block import TopicBlockOptions, with_topic_block

from .conftest import REPO, Probe
from .ros2_control_session import LATCHED

DEMO = REPO / "urdf" / "demo_arm.urdf.xacro"


def _topic_file(tmp_path: Path, options: TopicBlockOptions) -> Path:
    robot, _warnings, xml = load_with_xml(DEMO)
    path = tmp_path / "demo_topic.urdf"
    path.write_text(with_topic_block(robot, xml, options))
    return path


def _position(probe: Probe, topic: str, joint: str) -> float:
    msg = probe.messages[topic][-1]
    return dict(zip(msg.name, msg.position))[joint]


def test_the_bridge_serves_its_blocks_topics_without_remaps(
    probe: Probe, start_bridge, tmp_path: Path
) -> None:
    options = TopicBlockOptions(
        joint_commands_topic="/ct/hw/commands", joint_states_topic="/ct/hw/states"
    )
    probe.watch("/ct/hw/states", JointState)
    bridge = start_bridge(
        {"description_file": str(_topic_file(tmp_path, options)), "update_rate": 50.0},
        extra=["-r", "__ns:=/ct"],
    )
    probe.wait_ready(bridge, "/ct/hw/states")
    assert probe.node.count_publishers("/ct/joint_states") == 0
    assert probe.node.count_subscribers("/ct/joint_commands") == 0
    probe.publisher("/ct/hw/commands", JointState).publish(
        JointState(name=["elbow"], position=[0.25])
    )
    probe.wait_for(lambda: _position(probe, "/ct/hw/states", "elbow") == 0.25, "elbow at 0.25")
    assert bridge.stop() == 0, bridge.output()
    assert "joint_commands from /ct/hw/commands, joint_states on /ct/hw/states" in bridge.output()
    assert "controller_manager reading it" not in bridge.output()


def test_a_remap_wins_over_the_block(probe: Probe, start_bridge, tmp_path: Path) -> None:
    probe.watch("/cr/mine", JointState)
    bridge = start_bridge(
        {
            "description_file": str(_topic_file(tmp_path, TopicBlockOptions())),
            "update_rate": 50.0,
        },
        extra=["-r", "__ns:=/cr", "-r", "joint_states:=mine"],
    )
    probe.wait_ready(bridge, "/cr/mine")
    assert probe.node.count_publishers("/sdf_bridge/joint_states") == 0
    # the commands still follow the block (not remapped)
    assert probe.node.count_subscribers("/sdf_bridge/joint_commands") == 1
    assert bridge.stop() == 0, bridge.output()


def test_a_foreign_block_is_warned_about_once_a_controller_manager_reads_it(
    probe: Probe, start_bridge, ros_context
) -> None:
    """The demo arm's own block names mock_components/GenericSystem: nothing is said while no
    controller_manager listens; one warning (with the fix) once one subscribes."""
    probe.watch("/cf/joint_states", JointState)
    bridge = start_bridge(
        {"description_file": str(DEMO), "update_rate": 50.0}, extra=["-r", "__ns:=/cf"]
    )
    probe.wait_ready(bridge, "/cf/joint_states")
    probe.spin_for(1.5)
    assert "GenericSystem" not in bridge.output()
    manager = rclpy.create_node("controller_manager", namespace="/cf", context=ros_context)
    try:
        manager.create_subscription(String, "robot_description", lambda msg: None, LATCHED)
        probe.wait_for(
            lambda: "/cf/controller_manager reads robot_description, but" in bridge.output(),
            "the bridge's warning",
            timeout=10.0,
        )
        probe.spin_for(2.5)  # once only
    finally:
        manager.destroy_node()
    assert bridge.stop() == 0, bridge.output()
    output = bridge.output()
    assert output.count("reads robot_description, but") == 1, output
    assert (
        "carries <ros2_control> block(s) 'demo_arm_system' (mock_components/GenericSystem,"
        in output
    )
    assert "Fix: run 'sdf-bridge control --description FILE'" in output


def test_claims_naming_no_joint_are_refused_and_commands_still_move(
    probe: Probe, start_bridge
) -> None:
    """A junk string on ``~/claimed_interfaces`` (no controller_manager's relay: no command
    interface of a commandable joint) changes nothing: one warning, and joint_commands still
    move the demo arm on the mock."""
    probe.watch("/cj/joint_states", JointState)
    bridge = start_bridge({"description_file": str(DEMO)}, extra=["-r", "__ns:=/cj"])
    probe.wait_ready(bridge, "/cj/joint_states")
    probe.publisher("/cj/sdf_bridge/claimed_interfaces", String, LATCHED).publish(
        String(data="junk base_yaw/torque")
    )
    probe.wait_for(lambda: "refused, commands follow" in bridge.output(), "the refusal")
    pub = probe.publisher("/cj/joint_commands", JointState)

    def moved() -> bool:
        pub.publish(JointState(name=["elbow"], position=[0.25]))
        return _position(probe, "/cj/joint_states", "elbow") == 0.25

    probe.wait_for(moved, "elbow at 0.25")
    assert "commands follow the controllers' claims" not in bridge.output()
    assert "could not be applied" not in bridge.output()
    assert bridge.stop() == 0, bridge.output()
