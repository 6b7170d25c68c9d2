"""A command is applied on arrival (:meth:`sdf_bridge.ros.node.BridgeNode.apply_now`): with the
bridge at 2 Hz (ticks 500 ms apart), a new position command on ``joint_commands`` sent 100 ms
after a tick shows in joint_states long before the next tick, on the mock (before: at the
tick, 400 ms later). At most one on-arrival write per period: test/hardware/test_loop.py."""

from __future__ import annotations

import time

from sensor_msgs.msg import JointState

from .conftest import Probe


def _base_yaw(msg: JointState) -> float:
    return dict(zip(msg.name, msg.position))["base_yaw"]


def test_a_new_command_shows_long_before_the_next_tick(probe: Probe, start_bridge) -> None:
    ns = "arrival"
    bridge = start_bridge({"update_rate": 2.0}, extra=["-r", f"__ns:=/{ns}"])
    topic = f"/{ns}/joint_states"
    probe.watch(topic, JointState)
    probe.wait_ready(bridge, topic)
    pub = probe.publisher(f"/{ns}/joint_commands", JointState)
    probe.wait_for(lambda: pub.get_subscription_count() > 0, "the bridge's joint_commands")
    delays = []
    for value in (0.1, 0.2, 0.3):
        ticks = len(probe.messages[topic])
        probe.wait_for(lambda n=ticks: len(probe.messages[topic]) > n, "a tick", timeout=5.0)
        probe.spin_for(0.1)
        count = len(probe.messages[topic])
        sent = time.monotonic()
        pub.publish(JointState(name=["base_yaw"], position=[value]))
        probe.wait_for(
            lambda v=value, n=count: any(
                abs(_base_yaw(m) - v) < 1e-12 for m in probe.messages[topic][n:]
            ),
            f"base_yaw at {value}",
            timeout=5.0,
        )
        delays.append(time.monotonic() - sent)
    # the next tick is 400 ms away; on arrival it is the DDS round trip (+ a loaded machine)
    assert sorted(delays)[1] < 0.2, delays
    assert bridge.running(), bridge.output()
