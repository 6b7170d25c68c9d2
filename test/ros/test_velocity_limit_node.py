"""A running bridge moves a joint commanded far away at the joint's velocity limit, whatever the
moment a command arrives (the limiter's rate limits apply over each tick's period; a command
once applied between ticks with no time step jumped past the limit: a newcomer's Kinova Gen3 at
≈7 rad/s for 1.4 rad/s)."""

from __future__ import annotations

import numpy as np
from sensor_msgs.msg import JointState

from .conftest import Probe

#: One revolute joint limited to 1 rad/s, on the mock (ideal: the limiter alone shapes it).
ROBOT = """<robot name="slow">
  <link name="base"/><link name="arm"/>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
</robot>"""


def test_a_far_position_command_moves_at_the_velocity_limit(start_bridge, probe: Probe) -> None:
    """Target 2 rad from 0, re-sent at 50 Hz (as a controller streams it) off the 100 Hz
    ticks: the joint moves 0.01 rad per tick (1 rad/s; 1e-9 rad), never more between two
    published states than the ticks between their stamps allow, needs ≥ 1.9 s of stamps to
    get there, and ends on the target."""
    bridge = start_bridge(
        {"robot_description": ROBOT, "command_timeout": 0.0},
        name="vbridge",
        extra=["-r", "__ns:=/vlimit"],
    )
    probe.watch("/vlimit/joint_states", JointState)
    probe.wait_ready(bridge, "/vlimit/joint_states")
    publisher = probe.publisher("/vlimit/joint_commands", JointState)
    start = len(probe.messages["/vlimit/joint_states"])
    for _ in range(60):  # 1.2 s of commands
        publisher.publish(JointState(name=["j"], position=[2.0]))
        probe.spin_for(0.02)
    probe.wait_for(
        lambda: probe.latest("/vlimit/joint_states").position[0] == 2.0, "the target", 10.0
    )
    states = probe.messages["/vlimit/joint_states"][start:]
    t = np.array([m.header.stamp.sec + m.header.stamp.nanosec * 1e-9 for m in states])
    q = np.array([m.position[0] for m in states])
    moving = np.flatnonzero(np.diff(q) != 0.0)
    assert len(moving) >= 100  # ≈2 s of 100 Hz ticks, not a jump
    ticks = np.maximum(1, np.round(np.diff(t)[moving] * 100.0))  # (stamps jitter: whole ticks)
    assert (np.abs(np.diff(q)[moving]) <= 0.01 * ticks + 1e-9).all(), np.diff(q)[moving].max()
    first, arrived = t[moving[0]], t[np.flatnonzero(q == 2.0)[0]]
    assert arrived - first >= 1.9, arrived - first
    assert bridge.stop() == 0, bridge.output()


#: One revolute joint limited to 3.14 rad/s (the wx250s waist of the newcomer's report).
WAIST = """<robot name="turn"><link name="base"/>
  <link name="arm"><inertial><mass value="1"/><origin xyz="0.1 0 0"/>
    <inertia ixx="0.001" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="waist" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-3.14" upper="3.14" effort="50" velocity="3.14"/></joint>
</robot>"""


def test_commands_given_while_paused_move_at_the_velocity_limit_after_unpause(
    start_bridge, probe: Probe
) -> None:
    """MuJoCo, start_paused: 1.5 rad streamed at 50 Hz for 1 s of paused physics, then
    ~/pause false: the joint stays at 0 while paused (no simulated time, the limited setpoint
    does not advance) and then moves at its 3.14 rad/s limit plus the PID's overshoot (peak
    3.56 rad/s; before, the setpoint had run ahead while paused: 35.7 rad/s for this arm, 16.2
    for the wx250s waist of the newcomer's report)."""
    from std_srvs.srv import SetBool

    bridge = start_bridge(
        {
            "robot_description": WAIST,
            "backend": "mujoco",
            "start_paused": True,
            "command_timeout": 0.0,
            "backend_params.render_cameras": False,
        },
        name="pbridge",
        extra=["-r", "__ns:=/paused"],
    )
    topic = "/paused/joint_states"
    probe.watch(topic, JointState)
    probe.wait_ready(bridge, topic, timeout=60.0)
    publisher = probe.publisher("/paused/joint_commands", JointState)
    for _ in range(50):
        publisher.publish(JointState(name=["waist"], position=[1.5]))
        probe.spin_for(0.02)
    assert probe.latest(topic).position[0] == 0.0
    start = len(probe.messages[topic])
    assert probe.call(SetBool, "/paused/pbridge/pause", SetBool.Request(data=False)).success
    probe.wait_for(lambda: abs(probe.latest(topic).position[0] - 1.5) < 1e-3, "the target", 10.0)
    probe.spin_for(0.3)
    peak = max(abs(m.velocity[0]) for m in probe.messages[topic][start:])
    assert 3.14 < peak < 3.14 * 1.15, peak
    assert bridge.stop() == 0, bridge.output()
