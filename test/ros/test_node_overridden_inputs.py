"""sdf_bridge.ros.node beside a controller_manager (its claims on ``~/claimed_interfaces``, as
``sdf-bridge control`` relays them): the bridge's own trajectory and array inputs, which the
topic-based plugin's commands override every cycle, are warned about once each."""

from __future__ import annotations

from builtin_interfaces.msg import Duration
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray, String
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from .conftest import REPO, Probe
from .ros2_control_session import LATCHED

DEMO = REPO / "urdf" / "demo_arm.urdf.xacro"


def _position(probe: Probe, topic: str, joint: str) -> float:
    msg = probe.messages[topic][-1]
    return dict(zip(msg.name, msg.position))[joint]


def test_own_inputs_overridden_by_claimed_controllers_are_warned_about_once(
    probe: Probe, start_bridge
) -> None:
    """Following a controller_manager's claims (``base_yaw`` and ``elbow`` in position), a
    trajectory or a position array on the bridge's own inputs for a claimed joint is overridden
    by the plugin's commands every cycle: one warning per input, naming the claimed joints;
    none for a trajectory of an unclaimed joint, nor for an unclaimed interface's array (that one
    is refused as not claimed)."""
    probe.watch("/co/joint_states", JointState)
    bridge = start_bridge({"description_file": str(DEMO)}, extra=["-r", "__ns:=/co"])
    probe.wait_ready(bridge, "/co/joint_states")
    probe.publisher("/co/sdf_bridge/claimed_interfaces", String, LATCHED).publish(
        String(data="base_yaw/position elbow/position")
    )
    probe.wait_for(lambda: "follow the controllers' claims" in bridge.output(), "the claims")
    said = "is claimed by an active controller of the controller_manager"
    trajectories = probe.publisher("/co/sdf_bridge/joint_trajectory", JointTrajectory)

    def trajectory(*joints: str) -> JointTrajectory:
        point = JointTrajectoryPoint(positions=[0.1] * len(joints), time_from_start=Duration(sec=1))
        return JointTrajectory(joint_names=list(joints), points=[point])

    probe.wait_for(lambda: trajectories.get_subscription_count() > 0, "the trajectory input")
    trajectories.publish(trajectory("wrist_roll"))
    probe.wait_for(lambda: _position(probe, "/co/joint_states", "wrist_roll") == 0.1, "wrist")
    assert said not in bridge.output()
    for _ in range(2):
        trajectories.publish(trajectory("shoulder_lift", "elbow", "base_yaw"))
    probe.wait_for(lambda: said in bridge.output(), "the override warning")
    arrays = probe.publisher("/co/sdf_bridge/velocity_commands", Float64MultiArray)
    probe.wait_for(lambda: arrays.get_subscription_count() > 0, "the velocity input")
    arrays.publish(Float64MultiArray(data=[0.0] * 6))
    probe.wait_for(lambda: "no active controller claims" in bridge.output(), "not claimed")
    positions = probe.publisher("/co/sdf_bridge/position_commands", Float64MultiArray)
    probe.wait_for(lambda: positions.get_subscription_count() > 0, "the position input")
    for _ in range(2):
        positions.publish(Float64MultiArray(data=[0.0] * 6))
    probe.wait_for(lambda: "position_commands: the position" in bridge.output(), "arrays")
    assert bridge.stop() == 0, bridge.output()
    output = bridge.output()
    assert output.count(said) == 2, output
    assert (
        "joint_trajectory: the position of ['elbow', 'base_yaw'] is claimed by an active "
        "controller of the controller_manager, whose commands (every cycle) override this "
        "input's: the bridge's own command inputs are not for use beside a controller_manager. "
        "Fix: command these joints through the controller (e.g. joint_trajectory_controller's "
        "~/joint_trajectory), or deactivate it (said once)"
    ) in output
    assert "position_commands: the position of ['base_yaw', 'elbow'] is claimed" in output
    assert "velocity_commands: the velocity" not in output
