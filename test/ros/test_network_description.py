"""A robot_description from the network reads no local file (issue 22): the bridge, a real
process waiting on the topic, refuses a description whose ``<include>`` names a local file,
never prints or logs what the file holds, keeps answering its services and takes the next
description."""

from __future__ import annotations

from pathlib import Path

from rcl_interfaces.msg import Log
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from std_srvs.srv import SetBool

from .conftest import ROSOUT_QOS, Probe

LATCHED = QoSProfile(
    depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL
)
NS = "/netdesc_test"
SECRET = "SECRET_e5a0c2"
URDF = (
    '<robot name="two"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
    '<parent link="a"/><child link="b"/><axis xyz="0 0 1"/>'
    '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>'
)


def _including(uri: str) -> str:
    return f'<sdf version="1.9"><world name="w"><include><uri>{uri}</uri></include></world></sdf>'


def test_a_topic_description_naming_a_local_file_is_refused_and_the_bridge_serves_on(
    start_bridge, probe: Probe, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.sdf"  # malformed where errors quote: a mismatched tag
    secret.write_text(f'<sdf version="1.9"><model name="m"><link name="a"/></{SECRET}></sdf>')
    probe.watch("/rosout", Log, ROSOUT_QOS)
    probe.watch(f"{NS}/joint_states", JointState)
    description = probe.publisher(f"{NS}/robot_description", String, LATCHED)
    bridge = start_bridge(
        {"use_description_topic": True}, name="bridge", extra=["-r", f"__ns:={NS}"]
    )
    try:

        def refusals() -> list[str]:
            return [
                m.msg
                for m in probe.messages["/rosout"]
                if "refused the description from the topic" in m.msg
            ]

        for n, uri in enumerate((f"file://{secret}", "/proc/kmsg"), start=1):
            description.publish(String(data=_including(uri)))
            probe.wait_for(lambda n=n: len(refusals()) >= n, f"refusal {n} on /rosout", 60.0)
            assert f"<include>: refused: include {uri!r} is a" in refusals()[-1]
            assert "set allow_local_files:=true" in refusals()[-1]
            assert bridge.running()
            reply = probe.call(SetBool, f"{NS}/bridge/enable", SetBool.Request(data=True), 10.0)
            assert (reply.success, reply.message) == (False, "no robot description yet")
        description.publish(String(data=URDF))
        probe.wait_ready(bridge, f"{NS}/joint_states")
        assert list(probe.latest(f"{NS}/joint_states").name) == ["j"]
    finally:
        code = bridge.stop()
    output = bridge.output()
    assert code == 0, output
    assert "refused: include" in output
    assert SECRET not in output
    assert not [m.msg for m in probe.messages["/rosout"] if SECRET in m.msg]


def test_allow_local_files_lets_the_parameter_include_a_local_model(
    start_bridge, probe: Probe, tmp_path: Path
) -> None:
    """The opt-in reaches the node: with allow_local_files:=true the robot_description
    parameter's file:// include loads, as before the rule."""
    model = tmp_path / "arm.sdf"
    model.write_text(
        '<sdf version="1.9"><model name="arm"><link name="a"/><link name="b"/><joint name="elbow"'
        ' type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis>'
        "</joint></model></sdf>"
    )
    params = {"robot_description": _including(f"file://{model}"), "allow_local_files": True}
    probe.watch(f"{NS}_allowed/joint_states", JointState)
    bridge = start_bridge(params, name="bridge", extra=["-r", f"__ns:={NS}_allowed"])
    try:
        probe.wait_ready(bridge, f"{NS}_allowed/joint_states")
        assert list(probe.latest(f"{NS}_allowed/joint_states").name) == ["elbow"]
    finally:
        code = bridge.stop()
    assert code == 0, bridge.output()
