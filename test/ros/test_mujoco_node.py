"""The bridge with the MuJoCo backend (a simulating backend): /clock from the simulation,
~/pause and ~/step, sensor frames; joint commands reach the simulated joints."""

from __future__ import annotations

import pytest
from rclpy.qos import QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import Imu, JointState
from std_srvs.srv import SetBool, Trigger

from .conftest import Bridge, Probe

NS = "/sim"


@pytest.fixture(scope="module")
def bridge(start_bridge, probe: Probe) -> Bridge:
    b = start_bridge(
        {"backend": "mujoco", "update_rate": 100.0, "command_timeout": 0.0},
        name="bridge",
        extra=["-r", f"__ns:={NS}"],
    )
    probe.watch(f"{NS}/joint_states", JointState)
    probe.watch("/clock", Clock, QoSProfile(depth=10, reliability=ReliabilityPolicy.BEST_EFFORT))
    probe.wait_ready(b, f"{NS}/joint_states", timeout=90.0)
    yield b
    assert b.stop() == 0, b.output()


def clock(msg: Clock) -> float:
    return msg.clock.sec + msg.clock.nanosec * 1e-9


def test_clock_advances_with_the_simulation(bridge: Bridge, probe: Probe) -> None:
    msgs = probe.wait_messages("/clock", 10)
    times = [clock(m) for m in msgs]
    assert times[-1] > times[0] > 0.0
    assert all(b >= a for a, b in zip(times, times[1:]))


def test_pause_and_step(bridge: Bridge, probe: Probe) -> None:
    assert probe.call(SetBool, f"{NS}/bridge/pause", SetBool.Request(data=True)).success
    probe.wait_messages("/clock", 3)  # let the pause take effect
    paused = [clock(m) for m in probe.wait_messages("/clock", 10)]
    assert len(set(paused)) == 1, paused
    response = probe.call(Trigger, f"{NS}/bridge/step", Trigger.Request())
    assert response.success, response.message
    stepped = clock(probe.wait_messages("/clock", 2)[-1])
    assert stepped > paused[-1]
    assert probe.call(SetBool, f"{NS}/bridge/pause", SetBool.Request(data=False)).success
    probe.wait_for(
        lambda: clock(probe.messages["/clock"][-1]) > stepped + 0.05, "time to run again"
    )


def test_position_command_reaches_the_simulated_joint(bridge: Bridge, probe: Probe) -> None:
    pub = probe.publisher(f"{NS}/joint_commands", JointState)
    msg = JointState(name=["base_yaw"], position=[0.4])
    pub.publish(msg)

    def near() -> bool:
        js = probe.messages[f"{NS}/joint_states"][-1]
        return abs(dict(zip(js.name, js.position))["base_yaw"] - 0.4) < 0.02

    probe.wait_for(near, "base_yaw near 0.4 rad in simulation (PID, tolerance 0.02 rad)")


def test_imu_in_its_link_frame(bridge: Bridge, probe: Probe) -> None:
    topic = f"{NS}/imu"
    probe.watch(topic, Imu, QoSProfile(depth=5, reliability=ReliabilityPolicy.BEST_EFFORT))
    msg = probe.latest(topic)
    assert msg.header.frame_id == "imu_link"
    # at rest on a level base: specific force +g along the link's z (m/s², tolerance 0.5)
    assert msg.linear_acceleration.z == pytest.approx(9.81, abs=0.5)
