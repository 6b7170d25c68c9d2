"""Joint wrench feedback across processes: a bridge (MuJoCo) publishes the wrench of a joint
asking for it (SDFormat <provide_feedback>, or the joint_feedback parameter) as WrenchStamped on
~/joint_wrench/<joint> (a joint name that is no ROS name token: the topic check lists)."""

from __future__ import annotations

import pytest
from geometry_msgs.msg import WrenchStamped
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState

from sdf_bridge.app.topic_names import joint_wrench_topics
from sdf_bridge.description import load

from .conftest import Probe

MODEL = """<?xml version="1.0"?><sdf version="1.9"><model name="m">
<link name="base"/>
<link name="bob"><pose>0 0 1 0 0 0</pose><inertial><pose>0 0 -0.5 0 0 0</pose><mass>2</mass>
  <inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
<joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
<joint name="swing" type="revolute"><parent>base</parent><child>bob</child>
  <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper><effort>10</effort>
  <velocity>1</velocity></limit></axis>
  <physics><provide_feedback>true</provide_feedback></physics></joint>
</model></sdf>"""

PARAMS = {
    "backend": "mujoco",
    "command_timeout": 0.0,
    "robot_description": MODEL,
    "joint_feedback": ["fix"],
}
TOPIC = "/fb_bridge/joint_wrench/swing"
FIX = "/fb_bridge/joint_wrench/fix"


def test_joint_wrench_publishes_across_processes(start_bridge, probe: Probe) -> None:
    """The bob (2 kg, 0.5 m straight below the joint, at rest): the joint holds its weight,
    force (0, 0, 2·9.81) N within 1 %, no torque (1e-6 N·m), frame_id its child link. The fixed
    joint named by joint_feedback holds the base (SDFormat's default 1 kg: no <inertial>) and
    the bob, both on the vertical through its origin: (0, 0, 3·9.81) N, no torque."""
    for topic in (TOPIC, FIX):
        probe.watch(topic, WrenchStamped, qos_profile_sensor_data)
    bridge = start_bridge(PARAMS, name="fb_bridge")
    try:
        for topic, frame, mass in ((TOPIC, "bob", 2.0), (FIX, "base", 3.0)):
            probe.wait_ready(bridge, topic, timeout=90.0)
            msg = probe.latest(topic)
            assert msg.header.frame_id == frame
            f, t = msg.wrench.force, msg.wrench.torque
            assert (f.x, f.y, f.z) == pytest.approx((0.0, 0.0, mass * 9.81), abs=0.01 * mass * 9.81)
            assert (t.x, t.y, t.z) == pytest.approx((0.0, 0.0, 0.0), abs=1e-6)
    finally:
        for topic in (TOPIC, FIX):
            probe.unwatch(topic)
        assert bridge.stop() == 0, bridge.output()


def hostile_model() -> str:
    """Three revolute joints whose names are not ROS name tokens, all asking for feedback."""
    parts = ['<?xml version="1.0"?><sdf version="1.9"><model name="h"><link name="l0"/>']
    for i, name in enumerate(("a.b", "a-b", "1st"), 1):
        parts.append(
            f'<link name="l{i}"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy>'
            f'<izz>0.01</izz></inertia></inertial></link><joint name="{name}" type="revolute">'
            f"<parent>l{i - 1}</parent><child>l{i}</child><axis><xyz>1 0 0</xyz></axis>"
            "<physics><provide_feedback>true</provide_feedback></physics></joint>"
        )
    return (
        "".join(parts)
        + '<joint name="fix" type="fixed"><parent>world</parent><child>l0</child></joint>'
        + "</model></sdf>"
    )


def test_joint_wrench_topics_are_those_check_lists(start_bridge, probe: Probe) -> None:
    """Joint names that are not ROS tokens publish on the topics check lists
    (joint_wrench_topics), inside the node's namespace and name, two colliding names apart."""
    model = hostile_model()
    expected = joint_wrench_topics(load(model)).topics
    assert expected == {
        "a.b": "~/joint_wrench/a_b_2e7336",
        "a-b": "~/joint_wrench/a_b_d44362",
        "1st": "~/joint_wrench/j_1st",
    }
    topics = [t.replace("~", "/ns29/hb_bridge") for t in expected.values()]
    for topic in topics:
        probe.watch(topic, WrenchStamped, qos_profile_sensor_data)
    params = {"backend": "mujoco", "command_timeout": 0.0, "robot_description": model}
    bridge = start_bridge(params, name="hb_bridge", extra=["-r", "__ns:=/ns29"])
    try:
        for topic, frame in zip(topics, ("l1", "l2", "l3")):
            probe.wait_ready(bridge, topic, timeout=90.0)
            assert probe.latest(topic).header.frame_id == frame
        names = {n for n, _ in probe.node.get_topic_names_and_types()}
        published = {n for n in names if "joint_wrench" in n or "/sensors/" in n}
        assert published == set(topics)
    finally:
        for topic in topics:
            probe.unwatch(topic)
        assert bridge.stop() == 0, bridge.output()
    assert "joints ['a.b', 'a-b'] all map to the topic token 'a_b'" in bridge.output()


def test_mock_backend_warns_once_that_it_reads_no_joint_wrench(start_bridge, probe: Probe) -> None:
    """The mock computes no constraint forces: joint_feedback gets one warning naming the
    backend, the joints and the fix, and no ~/joint_wrench topic."""
    probe.watch("/joint_states", JointState)
    bridge = start_bridge({**PARAMS, "backend": "mock"}, name="mock_fb_bridge")
    try:
        probe.wait_ready(bridge, "/joint_states", timeout=60.0)
        probe.spin_for(1.0)
        names = {n for n, _ in probe.node.get_topic_names_and_types()}
        assert not any("mock_fb_bridge/joint_wrench" in n for n in names)
    finally:
        probe.unwatch("/joint_states")
        assert bridge.stop() == 0, bridge.output()
    message = (
        "backend 'mock' computes no joint wrenches: the joints asking for wrench feedback "
        "(joint_feedback ['fix'] and the description's <provide_feedback> ['swing']) publish no "
        "~/joint_wrench topic. Fix: use the mujoco backend (backend:=mujoco), or leave "
        "joint_feedback unset"
    )
    assert bridge.output().count(message) == 1, bridge.output()


def test_refused_wrenches_are_counted_and_warned_per_reason(start_bridge, probe: Probe) -> None:
    """One batch of three refused wrenches of different reasons (a link that does not exist,
    NaN, |F| = 1e30 N): each reason is warned (its own throttle: none hides another) and
    counted in /diagnostics (``node_rejected.wrench_<reason>``)."""
    from diagnostic_msgs.msg import DiagnosticArray

    probe.watch("/diagnostics", DiagnosticArray)
    bridge = start_bridge(
        {"backend": "mujoco", "command_timeout": 0.0, "robot_description": MODEL},
        name="wr_bridge",
    )
    probe.watch("/joint_states", JointState)
    probe.wait_ready(bridge, "/joint_states", timeout=90.0)
    pub = probe.publisher("/wr_bridge/wrench", WrenchStamped)
    probe.wait_for(lambda: pub.get_subscription_count() == 1, "the bridge's subscription")
    for frame, force in (("nonexistent", 1.0), ("bob", float("nan")), ("bob", 1e30), ("bob", 2e30)):
        msg = WrenchStamped()
        msg.header.frame_id, msg.wrench.force.x = frame, force
        pub.publish(msg)

    def counts() -> dict[str, str]:
        msg = probe.latest("/diagnostics")
        status = next((s for s in msg.status if "wr_bridge" in s.name), None)
        values = {} if status is None else {kv.key: kv.value for kv in status.values}
        return {k: v for k, v in values.items() if k.startswith("node_rejected.wrench_")}

    expected = {
        "node_rejected.wrench_not_found": "1",
        "node_rejected.wrench_not_finite": "1",
        "node_rejected.wrench_too_large": "2",
    }
    probe.wait_for(lambda: counts() == expected, f"diagnostics {expected}")
    assert bridge.stop() == 0, bridge.output()
    output = bridge.output()
    assert "wrench refused: no entity 'nonexistent'" in output
    assert "3 finite numbers each (refused so far for wrench_not_finite: 1)" in output
    assert "(refused so far for wrench_too_large: 1)" in output
    assert "(refused so far for wrench_too_large: 2)" not in output  # throttled
