"""sdf_bridge.ros.control_topics, with the bridge in its own process: on a description whose
``<ros2_control>`` block names a topic-based plugin, the bridge serves the block's topics with
no remap (and not ``joint_states``, joint_state_broadcaster's); a remap still wins; a block
naming other hardware gets one warning once a controller_manager reads ``robot_description``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import rclpy
from diagnostic_msgs.msg import DiagnosticArray
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


def _diagnostics(probe: Probe, topic: str = "/diagnostics") -> dict[str, str]:
    msg = probe.latest(topic)
    status = next(s for s in msg.status if "sdf_bridge" in s.name)
    return {kv.key: kv.value for kv in status.values}


def test_claims_of_interfaces_the_run_does_not_command_are_refused_and_drops_counted(
    probe: Probe, start_bridge
) -> None:
    """The newcomer's attack on a position-only arm (``command_interfaces:=position``): a
    latched ``base_yaw/effort bogus//x aaaa…`` (100 000 characters) claims nothing the run
    commands: refused whole with one bounded warning, commands still move the arm. A plausible
    partial claim (``elbow/position``) is followed: shoulder_lift, being commanded, is said to be
    released (once), its plugin values are dropped and counted as ``dropped.not_claimed``; ``*``
    follows every command again. No log line is longer than the claims limit."""
    probe.watch("/cc/joint_states", JointState)
    probe.watch("/diagnostics", DiagnosticArray)
    bridge = start_bridge(
        {
            "description_file": str(DEMO),
            "xacro_args": "command_interfaces:=position",
            "diagnostics_rate": 10.0,
            "command_timeout": 0.0,
        },
        extra=["-r", "__ns:=/cc"],
    )
    probe.wait_ready(bridge, "/cc/joint_states")
    claims = probe.publisher("/cc/sdf_bridge/claimed_interfaces", String, LATCHED)
    claims.publish(String(data="base_yaw/effort bogus//x " + "a" * 100_000))
    probe.wait_for(lambda: "refused, commands follow" in bridge.output(), "the refusal")
    pub = probe.publisher("/cc/joint_commands", JointState)

    def reaches(joint: str, value: float) -> Callable[[], bool]:
        def check() -> bool:
            pub.publish(JointState(name=[joint], position=[value]))
            return _position(probe, "/cc/joint_states", joint) == value

        return check

    probe.wait_for(reaches("shoulder_lift", 0.25), "shoulder_lift at 0.25 (claims refused)")
    claims.publish(String(data="elbow/position " + "b" * 100_000))
    probe.wait_for(
        lambda: "joints ['shoulder_lift'] were commanded" in bridge.output(), "the release"
    )
    probe.wait_for(reaches("elbow", 0.5), "elbow at 0.5 (claimed)")
    for _ in range(5):  # a topic-based plugin's stale value of an unclaimed interface
        pub.publish(JointState(name=["shoulder_lift"], position=[-0.25]))
    probe.wait_for(
        lambda: int(_diagnostics(probe).get("dropped.not_claimed", 0)) == 5,
        "dropped.not_claimed = 5",
    )
    assert _position(probe, "/cc/joint_states", "shoulder_lift") == 0.25
    assert "rejected.not_claimed" not in _diagnostics(probe)
    claims.publish(String(data="*"))
    probe.wait_for(reaches("shoulder_lift", -0.25), "shoulder_lift at -0.25 (following all)")
    assert bridge.stop() == 0, bridge.output()
    output = bridge.output()
    assert output.count("refused, commands follow") == 1, output
    assert "commands follow the controllers' claims (1): elbow/position\n" in output
    assert output.count("were commanded and no active controller claims") == 1
    assert "commands follow the controllers' claims: (not following)" in output
    assert max(len(line) for line in output.splitlines()) < 3000
