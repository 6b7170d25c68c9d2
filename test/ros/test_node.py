"""The bridge node across processes: one bridge (demo robot, mock backend) in a child process,
checked from this process over DDS.

Values are exact (mock backend: ideal mirroring; the transmissions are linear), so states are
compared with a tolerance of 1e-9 (float rounding through the transmissions and the wire).
Waiting uses deadlines that only fail the test when something never arrives.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from builtin_interfaces.msg import Duration
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from geometry_msgs.msg import WrenchStamped
from rclpy.context import Context
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import Imu, JointState
from std_msgs.msg import Float64MultiArray, String
from std_srvs.srv import SetBool, Trigger
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from sdf_bridge.description import load
from sdf_bridge.transmissions import TransmissionMap

from .conftest import Bridge, Probe

TOL = 1e-9
PUBLISH_RATE = 50.0
#: The `joints` parameter, deliberately not in description order.
JOINTS = ["left_finger_joint", "wrist_roll", "wrist_pitch", "elbow", "shoulder_lift", "base_yaw"]
LATCHED = QoSProfile(
    depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL
)
JS, AS, DIAG = "/joint_states", "/sdf_bridge/actuator_states", "/diagnostics"


@pytest.fixture(scope="module")
def demo(repo_dir: Path):
    """The demo robot as the test process loads it, and its transmission map."""
    robot = load(repo_dir / "urdf" / "demo_arm.urdf.xacro")
    return robot, TransmissionMap.from_robot(robot)


@pytest.fixture(scope="module")
def bridge(start_bridge, probe: Probe) -> Bridge:
    """The bridge on the demo robot (default description), mock backend with dynamics."""
    b = start_bridge(
        {
            "update_rate": 100.0,
            "publish_rate": PUBLISH_RATE,
            "joints": JOINTS,
            "command_timeout": 0.5,
            "backend_params.calculate_dynamics": True,
        }
    )
    probe.watch(JS, JointState)
    probe.watch(AS, JointState)
    probe.watch(DIAG, DiagnosticArray)
    probe.wait_ready(b)
    yield b
    code = b.stop()
    assert code == 0, b.output()


def state(probe: Probe, topic: str = JS) -> dict[str, tuple[float, float, float]]:
    """name → (position, velocity, effort) of the newest message."""
    msg = probe.latest(topic)
    return {n: (p, v, e) for n, p, v, e in zip(msg.name, msg.position, msg.velocity, msg.effort)}


def settle(
    probe: Probe,
    expected: dict[str, float],
    what: str,
    index: int = 0,
    tol: float = TOL,
    resend: Callable[[], None] | None = None,
) -> None:
    """Wait until joint_states shows ``expected`` (name → value of field ``index``). ``resend``
    streams the command every 0.1 s meanwhile, as a controller does (moves longer than the
    0.5 s command timeout are otherwise stopped by the watchdog, by design)."""
    last_send = [time.monotonic()]

    def ok() -> bool:
        if resend is not None and time.monotonic() - last_send[0] > 0.1:
            last_send[0] = time.monotonic()
            resend()
        msgs = probe.messages[JS]
        if not msgs:
            return False
        s = {
            n: (p, v, e)
            for n, p, v, e in zip(
                msgs[-1].name, msgs[-1].position, msgs[-1].velocity, msgs[-1].effort
            )
        }
        return all(abs(s[n][index] - v) <= tol for n, v in expected.items())

    try:
        probe.wait_for(ok, what)
    except pytest.fail.Exception:
        last = probe.messages[JS][-1] if probe.messages[JS] else None
        seen = dict(zip(last.name, zip(last.position, last.velocity, last.effort))) if last else {}
        pytest.fail(f"{what}: last joint_states {seen}")
    probe.wait_messages(AS, 2)  # actuator_states of the settled cycles


def command(probe: Probe, names: list[str], positions: list[float], what: str) -> None:
    """Stream a JointState position command until joint_states shows it."""
    pub = probe.publisher("/joint_commands", JointState)
    msg = JointState(name=names, position=positions)
    pub.publish(msg)
    settle(probe, dict(zip(names, positions)), what, resend=lambda: pub.publish(msg))


def diagnostics(probe: Probe) -> dict[str, str]:
    """Key → value of the newest /diagnostics status of the bridge (waits for a fresh one;
    /diagnostics is one topic for every node of the domain, so other publishers' arrays, e.g. a
    namespaced bridge's, are passed over)."""
    start = len(probe.messages[DIAG])

    def newest():
        fresh = probe.messages[DIAG][start:]
        found = (s for m in reversed(fresh) for s in m.status if s.name.startswith("sdf_bridge"))
        return next(found, None)

    probe.wait_for(lambda: newest() is not None, "a fresh /diagnostics status of the bridge")
    return {kv.key: kv.value for kv in newest().values}


def test_joint_states_every_movable_joint_si_stamped(bridge: Bridge, probe: Probe, demo) -> None:
    robot, tm = demo
    msgs = probe.wait_messages(JS, 20)
    movable = {n for n, j in robot.joints.items() if j.type.value != "fixed"}
    for msg in msgs:
        assert set(msg.name) == movable and len(msg.name) == len(movable)
        assert len(msg.position) == len(msg.velocity) == len(msg.effort) == len(msg.name)
        assert msg.header.stamp.sec > 0
        assert all(math.isfinite(p) for p in msg.position)
    stamps = [m.header.stamp.sec + m.header.stamp.nanosec * 1e-9 for m in msgs]
    assert all(b >= a for a, b in zip(stamps, stamps[1:]))
    # The stamps (node clock at each cycle) are spaced by the configured publish period.
    assert statistics.median(np.diff(stamps)) == pytest.approx(1.0 / PUBLISH_RATE, rel=0.25)
    # Initial state = the <ros2_control> initial values (SI): elbow starts at 0.5 rad.
    assert state(probe)["elbow"][0] == pytest.approx(0.5, abs=TOL)


def test_robot_description_is_latched(bridge: Bridge, probe: Probe) -> None:
    probe.watch("/robot_description", String, LATCHED)  # subscribes long after it was published
    msg = probe.latest("/robot_description")
    assert '<robot name="demo_arm"' in msg.data
    assert "xacro:" not in msg.data  # published expanded


def test_position_through_simple_transmission_with_offset(bridge: Bridge, probe: Probe) -> None:
    command(probe, ["base_yaw"], [0.6], "base_yaw at 0.6 rad")
    actuators = state(probe, AS)
    # SimpleTransmission: actuator = (joint − offset) · reduction = (0.6 − 0.1) · 50.
    assert actuators["base_yaw_motor"][0] == pytest.approx(25.0, abs=1e-7)


def test_actuator_and_joint_states_match_the_transmissions(
    bridge: Bridge, probe: Probe, demo
) -> None:
    robot, tm = demo
    command(
        probe,
        ["wrist_pitch", "wrist_roll", "left_finger_joint"],
        [0.3, -0.2, 0.02],
        "wrist and gripper",
    )
    # Pairs of messages published in the same cycle carry the same stamp.
    probe.wait_messages(AS, 5)
    by_stamp = {(m.header.stamp.sec, m.header.stamp.nanosec): m for m in probe.messages[AS][-20:]}
    pairs = [
        (j, by_stamp[(j.header.stamp.sec, j.header.stamp.nanosec)])
        for j in probe.messages[JS][-20:]
        if (j.header.stamp.sec, j.header.stamp.nanosec) in by_stamp
    ]
    assert pairs
    for joints, actuators in pairs:
        assert tuple(actuators.name) == tm.actuator_names
        jp, jv, je = tm.actuator_to_joint(
            np.array(actuators.position), np.array(actuators.velocity), np.array(actuators.effort)
        )
        fp, _, _ = tm.followers(jp, jv, je)
        published = dict(zip(joints.name, joints.position))
        for name, value in zip(tm.joint_names + tm.follower_names, np.concatenate((jp, fp))):
            assert published[name] == pytest.approx(value, abs=TOL), name
    # mimic: right = −1 · left + 0.002
    assert state(probe)["right_finger_joint"][0] == pytest.approx(-0.018, abs=TOL)
    # differential, both actuators reduction 30: (pitch ± roll) · 30
    act = state(probe, AS)
    assert sorted([act["wrist_left_motor"][0], act["wrist_right_motor"][0]]) == pytest.approx(
        [3.0, 15.0], abs=1e-7
    )


def test_position_array_in_joints_parameter_order(bridge: Bridge, probe: Probe) -> None:
    values = [0.01, 0.5, -0.4, 1.0, 0.7, -0.3]
    pub = probe.publisher("/sdf_bridge/position_commands", Float64MultiArray)
    msg = Float64MultiArray(data=values)
    pub.publish(msg)
    settle(
        probe,
        dict(zip(JOINTS, values)),
        "position_commands applied by joint order",
        resend=lambda: pub.publish(msg),
    )


def test_velocity_commands_move_the_joint(bridge: Bridge, probe: Probe) -> None:
    start = state(probe)["base_yaw"][0]
    pub = probe.publisher("/sdf_bridge/velocity_commands", Float64MultiArray)
    pub.publish(Float64MultiArray(data=[0.0, 0.0, 0.0, 0.0, 0.0, 0.5]))
    settle(probe, {"base_yaw": 0.5}, "base_yaw velocity 0.5 rad/s", index=1)
    probe.wait_for(lambda: state(probe)["base_yaw"][0] > start + 0.05, "base_yaw to turn")


def test_watchdog_stops_velocity(bridge: Bridge, probe: Probe) -> None:
    before = int(diagnostics(probe).get("watchdog_trips", "0"))
    probe.publisher("/sdf_bridge/velocity_commands", Float64MultiArray).publish(
        Float64MultiArray(data=[0.0, 0.0, 0.0, 0.0, 0.0, 0.8])
    )
    settle(probe, {"base_yaw": 0.8}, "base_yaw velocity 0.8", index=1)
    # no further command: after command_timeout the velocity goes to 0 and the trip is counted
    settle(probe, {"base_yaw": 0.0}, "watchdog to zero the velocity", index=1)
    probe.wait_for(
        lambda: int(diagnostics(probe)["watchdog_trips"]) > before, "watchdog trip in diagnostics"
    )


def test_trajectory_reaches_its_last_point(bridge: Bridge, probe: Probe) -> None:
    msg = JointTrajectory(joint_names=["shoulder_lift", "elbow"])
    msg.points = [
        JointTrajectoryPoint(
            positions=[0.2, 0.3], time_from_start=Duration(sec=0, nanosec=500_000_000)
        ),
        JointTrajectoryPoint(positions=[-0.4, 1.1], time_from_start=Duration(sec=1, nanosec=0)),
    ]
    probe.publisher("/sdf_bridge/joint_trajectory", JointTrajectory).publish(msg)
    settle(probe, {"shoulder_lift": -0.4, "elbow": 1.1}, "end of the trajectory")


def test_empty_trajectory_is_rejected_and_the_running_one_goes_on(
    bridge: Bridge, probe: Probe
) -> None:
    """As joint_trajectory_controller (ROS 2): a JointTrajectory without points is refused with
    a warning and counted (``bad_trajectory``), the node keeps running and so does the
    trajectory it received before, to its last point (a cancel would hold the joints short of
    it)."""
    command(probe, ["shoulder_lift", "elbow"], [0.0, 0.7], "shoulder_lift 0.0, elbow 0.7")
    rejected = int(diagnostics(probe).get("rejected.bad_trajectory", "0"))
    names = ["shoulder_lift", "elbow"]
    moving = JointTrajectory(joint_names=names)
    moving.points = [
        JointTrajectoryPoint(positions=[0.25, -0.3], time_from_start=Duration(sec=1, nanosec=0))
    ]
    pub = probe.publisher("/sdf_bridge/joint_trajectory", JointTrajectory)
    pub.publish(moving)
    pub.publish(JointTrajectory(joint_names=names))  # after it: one publisher, reliable, in order
    probe.wait_for(
        lambda: int(diagnostics(probe).get("rejected.bad_trajectory", "0")) == rejected + 1,
        "the empty trajectory counted as bad_trajectory",
    )
    settle(probe, {"shoulder_lift": 0.25, "elbow": -0.3}, "the running trajectory's end")
    assert bridge.process.poll() is None
    assert (
        "joint_trajectory: trajectory rejected: trajectory has no points. Fix: give at least one "
        "point (to stop where the joints are: one point at their current positions)."
    ) in bridge.output()


def test_trajectory_stamped_before_time_zero_is_rejected_as_in_the_past(
    bridge: Bridge, probe: Probe
) -> None:
    """A trajectory stamped ``sec: -1`` is refused and counted as one in the past
    (``node_rejected.trajectory_in_past``); it does not run as "start now"."""
    command(probe, ["shoulder_lift", "elbow"], [0.1, 0.2], "shoulder_lift 0.1, elbow 0.2")
    counted = int(diagnostics(probe).get("node_rejected.trajectory_in_past", "0"))
    msg = JointTrajectory(joint_names=["shoulder_lift", "elbow"])
    msg.header.stamp.sec = -1
    msg.points = [
        JointTrajectoryPoint(positions=[-0.5, 0.9], time_from_start=Duration(sec=100, nanosec=0))
    ]
    probe.publisher("/sdf_bridge/joint_trajectory", JointTrajectory).publish(msg)
    probe.wait_for(
        lambda: int(diagnostics(probe).get("node_rejected.trajectory_in_past", "0")) == counted + 1,
        "the trajectory stamped -1 s counted as trajectory_in_past",
    )
    now = state(probe)
    assert now["shoulder_lift"][0] == pytest.approx(0.1, abs=TOL)
    assert now["elbow"][0] == pytest.approx(0.2, abs=TOL)
    assert "joint_trajectory: command rejected: trajectory stamped -1 s 0 ns" in bridge.output()


def test_limits_clamp(bridge: Bridge, probe: Probe) -> None:
    pub = probe.publisher("/joint_commands", JointState)
    msg = JointState(name=["left_finger_joint"], position=[0.1])
    pub.publish(msg)
    settle(
        probe,
        {"left_finger_joint": 0.04},
        "left_finger_joint clamped at its upper limit 0.04 m",
        resend=lambda: pub.publish(msg),
    )
    probe.wait_messages(JS, 10)
    assert state(probe)["left_finger_joint"][0] == pytest.approx(0.04, abs=TOL)
    assert state(probe)["right_finger_joint"][0] == pytest.approx(-0.038, abs=TOL)  # mimic follows
    diag = diagnostics(probe)
    assert any(k.startswith("clamps.left_finger_joint") and int(v) > 0 for k, v in diag.items()), (
        diag
    )


def test_disable_holds_and_enable_resumes(bridge: Bridge, probe: Probe) -> None:
    pub = probe.publisher("/joint_commands", JointState)
    command(probe, ["base_yaw"], [0.5], "base_yaw at 0.5")
    assert probe.call(SetBool, "/sdf_bridge/enable", SetBool.Request(data=False)).success
    pub.publish(JointState(name=["base_yaw"], position=[-0.5]))
    probe.wait_for(
        lambda: int(diagnostics(probe).get("rejected.disabled", "0")) >= 1, "the command refused"
    )
    probe.wait_messages(JS, 10)
    assert state(probe)["base_yaw"][0] == pytest.approx(0.5, abs=TOL)  # held
    assert probe.call(SetBool, "/sdf_bridge/enable", SetBool.Request(data=True)).success
    command(probe, ["base_yaw"], [-0.5], "base_yaw at -0.5 after enable")


def test_reset_returns_to_initial_values(bridge: Bridge, probe: Probe) -> None:
    # the joints of one coupled transmission (FourBar) are commanded together
    command(probe, ["shoulder_lift", "elbow"], [0.3, -1.0], "shoulder_lift 0.3, elbow -1.0")
    response = probe.call(Trigger, "/sdf_bridge/reset", Trigger.Request())
    assert response.success, response.message
    settle(
        probe, {"elbow": 0.5, "shoulder_lift": 0.0, "base_yaw": 0.0}, "initial values after reset"
    )


def test_sensors_published_with_link_frames(bridge: Bridge, probe: Probe) -> None:
    probe.watch("/imu", Imu, QoSProfile(depth=5, reliability=ReliabilityPolicy.BEST_EFFORT))
    probe.watch(
        "/ft", WrenchStamped, QoSProfile(depth=5, reliability=ReliabilityPolicy.BEST_EFFORT)
    )
    assert probe.latest("/imu").header.frame_id == "imu_link"
    assert probe.latest("/ft").header.frame_id == "ft_link"  # joint sensor: the joint's child link


def test_frame_prefix_on_every_sensor_frame(start_bridge, probe: Probe) -> None:
    """frame_prefix (as robot_state_publisher's): the sensor frame_ids of a bridge in /left."""
    left = start_bridge({"frame_prefix": "left/"}, extra=["-r", "__ns:=/left"])
    qos = QoSProfile(depth=5, reliability=ReliabilityPolicy.BEST_EFFORT)
    probe.watch("/left/imu", Imu, qos)
    probe.watch("/left/ft", WrenchStamped, qos)
    assert probe.latest("/left/imu").header.frame_id == "left/imu_link"
    assert probe.latest("/left/ft").header.frame_id == "left/ft_link"
    assert left.stop() == 0


def test_diagnostics_report_the_loop(bridge: Bridge, probe: Probe) -> None:
    diag = diagnostics(probe)
    assert diag["loop.target_rate_hz"] == "100.0"
    assert int(diag["loop.cycles"]) > 0 and diag["loop.errors"] == "0"
    # the loop's timing, published once under both names (one measurement, the loop's)
    assert float(diag["timing.target_period"]) == pytest.approx(0.01, abs=1e-15)
    assert (
        diag["timing.cycles"] == diag["loop.cycles"]
        and diag["timing.overruns"] == diag["loop.overruns"]
    )
    assert diag["backend"] == "MockBackend"


def test_effort_commands_loop_back(bridge: Bridge, probe: Probe) -> None:
    """Last in the module: it leaves the arm joints in effort mode."""
    before = int(diagnostics(probe).get("rejected.interface_not_available", "0"))
    finger = state(probe)["left_finger_joint"][2]
    efforts = [7.0, 2.0, -3.0, 4.0, -5.0, 6.0]  # the finger (first) has no effort interface
    probe.publisher("/sdf_bridge/effort_commands", Float64MultiArray).publish(
        Float64MultiArray(data=efforts)
    )
    settle(probe, dict(zip(JOINTS[1:], efforts[1:])), "efforts looped back", index=2, tol=1e-7)
    assert state(probe)["left_finger_joint"][2] == finger
    probe.wait_for(
        lambda: int(diagnostics(probe).get("rejected.interface_not_available", "0")) > before,
        "the finger's effort refused in diagnostics",
    )


def test_diagnostics_while_waiting_for_the_description(ros_context: Context) -> None:
    """In-process: before a description arrives on the topic, /diagnostics says so (WARN) and
    carries no loop values; the message is stamped with the given stamp."""
    from builtin_interfaces.msg import Time
    from rclpy.parameter import Parameter

    from sdf_bridge.ros.node import BridgeNode

    node = BridgeNode(
        context=ros_context,
        node_name="waiting_bridge",
        parameter_overrides=[Parameter("use_description_topic", value=True)],
    )
    try:
        msg = node.diagnostics_message(Time(sec=12, nanosec=5))
        (status,) = msg.status
        assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (12, 5)
        assert status.name == "waiting_bridge: control loop"
        assert status.level == DiagnosticStatus.WARN
        assert status.message == "waiting for robot_description"
        assert not any(kv.key.startswith("loop.") for kv in status.values)
    finally:
        node.shutdown()
        node.destroy_node()
