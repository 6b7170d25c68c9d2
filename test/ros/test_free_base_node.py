"""A free-floating robot through the bridge node (real processes): the mobile demo robot in
MuJoCo, started paused; each test follows the documented order "pause → reset → command →
unpause". It stands 10 s on default gains, drives at wheel velocity × radius, reports its
contact forces and ground-truth odometry."""

from __future__ import annotations

import math

import pytest
from builtin_interfaces.msg import Time
from nav_msgs.msg import Odometry
from rclpy.qos import QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import Imu, JointState, PointCloud2
from std_srvs.srv import SetBool, Trigger

from sdf_bridge.description import load
from sdf_bridge.ros.demo_mobile import contact_normal_force, up_axis

from .conftest import REPO, Bridge, Probe

NS = "/mobile"
NODE = f"{NS}/bridge"
BEST_EFFORT = QoSProfile(depth=20, reliability=ReliabilityPolicy.BEST_EFFORT)
LEGS = [f"{leg}_{part}_joint" for leg in ("fl", "fr", "rl", "rr") for part in ("hip", "knee")]
WHEELS = [f"{leg}_wheel_joint" for leg in ("fl", "fr", "rl", "rr")]
STAND = {"hip": 0.6, "knee": -1.2}
KEYFRAME_HEIGHT = 0.05 + 2 * 0.16 * math.cos(0.6) + 0.001  # wheel radius + legs + clearance, m


@pytest.fixture(scope="module")
def bridge(start_bridge, probe: Probe) -> Bridge:
    b = start_bridge(
        {
            "description_file": str(REPO / "urdf" / "demo_mobile.urdf.xacro"),
            "backend": "mujoco",
            "start_paused": True,
            "command_timeout": 0.0,
            "use_sim_time": True,
            "backend_params.fixed_base": False,
            "backend_params.render_cameras": False,
            "backend_params.keyframe_file": str(REPO / "config" / "demo_mobile_keyframes.yaml"),
            "backend_params.keyframe": "stand",
        },
        name="bridge",
        extra=["-r", f"__ns:={NS}"],
    )
    probe.watch(f"{NS}/joint_states", JointState)
    probe.watch("/clock", Clock, BEST_EFFORT)
    probe.watch(f"{NS}/odom", Odometry)
    probe.watch(f"{NS}/imu", Imu, BEST_EFFORT)
    for wheel in WHEELS:
        probe.watch(f"{NS}/sensors/{wheel.replace('_joint', '_contact')}", PointCloud2, BEST_EFFORT)
    probe.wait_ready(b, f"{NS}/joint_states", timeout=90.0)
    # before any service call
    b.first_clocks = [seconds(m.clock) for m in probe.wait_messages("/clock", 5)]
    yield b
    assert b.stop() == 0, b.output()
    # started paused, its own /clock at 0 is no stalled clock source (sdf_bridge.ros.sim_clock)
    assert "clock is still at 0" not in b.output()


def seconds(stamp: Time) -> float:
    return stamp.sec + stamp.nanosec * 1e-9


def _restart(probe: Probe, legs: bool = True) -> None:
    """pause → reset → command the legs to the keyframe (the order doc/user/mujoco.md documents)."""
    assert probe.call(SetBool, f"{NODE}/pause", SetBool.Request(data=True)).success
    assert probe.call(Trigger, f"{NODE}/reset", Trigger.Request()).success
    probe.wait_for(
        lambda: seconds(probe.messages["/clock"][-1].clock) == 0.0,
        "/clock back at 0 after the reset",
    )
    if legs:
        probe.publisher(f"{NS}/joint_commands", JointState).publish(
            JointState(name=LEGS, position=[STAND[j.split("_")[1]] for j in LEGS])
        )
        probe.spin_for(0.3)


def _unpause(probe: Probe) -> None:
    assert probe.call(SetBool, f"{NODE}/pause", SetBool.Request(data=False)).success


def _odom_after(probe: Probe, t: float) -> list[Odometry]:
    topic = f"{NS}/odom"
    probe.wait_for(
        lambda: (
            bool(probe.messages[topic]) and seconds(probe.messages[topic][-1].header.stamp) >= t
        ),
        f"odometry at simulated time {t} s",
        timeout=60.0,
    )
    return probe.messages[topic]


def test_started_paused_at_its_keyframe(bridge: Bridge, probe: Probe) -> None:
    """start_paused: no simulated time passes before the first unpause; the robot is at its
    keyframe on the ground (odom: base_link 0.315 m up, level, at rest)."""
    assert bridge.first_clocks == [0.0] * 5
    _restart(probe, legs=False)
    odom = _odom_after(probe, 0.0)[-1]
    assert odom.header.frame_id == "odom" and odom.child_frame_id == "base_link"
    assert odom.pose.pose.position.z == pytest.approx(KEYFRAME_HEIGHT, abs=1e-9)
    assert (odom.pose.pose.orientation.w, odom.twist.twist.linear.x) == (1.0, 0.0)


def test_stands_ten_seconds_after_a_paused_start_and_reset(bridge: Bridge, probe: Probe) -> None:
    """Default gains: for 10 s of simulated time the IMU's up axis stays up (· z > 0.95) and
    base_link within 2 cm of the keyframe's height; the wheels' contact sensors then carry the
    robot's weight (normal force sum within 5 %)."""
    _restart(probe)
    imu_topic, odom_topic = f"{NS}/imu", f"{NS}/odom"
    first_imu, first_odom = len(probe.messages[imu_topic]), len(probe.messages[odom_topic])
    _unpause(probe)
    odom = _odom_after(probe, 10.0)[first_odom:]
    imus = probe.messages[imu_topic][first_imu:]
    assert len(odom) > 100 and len(imus) > 100
    assert min(up_axis(m.orientation) for m in imus) > 0.95
    assert max(abs(m.pose.pose.position.z - KEYFRAME_HEIGHT) for m in odom) < 0.02
    robot = load(REPO / "urdf" / "demo_mobile.urdf.xacro")
    weight = 9.81 * sum(
        link.inertial.mass for link in robot.links.values() if link.inertial is not None
    )
    forces = [
        contact_normal_force(probe.latest(f"{NS}/sensors/{w.replace('_joint', '_contact')}"))
        for w in WHEELS
    ]
    assert sum(forces) == pytest.approx(weight, rel=0.05), forces


def test_wheels_drive_at_wheel_velocity_times_radius(bridge: Bridge, probe: Probe) -> None:
    """Wheel velocity ω = 4 rad/s on all wheels: after 2 s the odometry's speed is ω·r = 0.2 m/s
    within 2 %, straight ahead."""
    _restart(probe)
    probe.publisher(f"{NS}/joint_commands", JointState).publish(
        JointState(name=WHEELS, velocity=[4.0] * 4)
    )
    probe.spin_for(0.3)
    _unpause(probe)
    odom = _odom_after(probe, 2.0)[-1]
    assert odom.twist.twist.linear.x == pytest.approx(0.2, rel=0.02)
    assert abs(odom.twist.twist.angular.z) < 0.01 and abs(odom.pose.pose.position.y) < 0.01
