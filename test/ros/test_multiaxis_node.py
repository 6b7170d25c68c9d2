"""Multi-axis joints across processes (issue 29 item 3): a bridge (MuJoCo) publishes every axis
of a universal, revolute2 and ball joint in ``joint_states`` under its coordinate name, and a
``joint_commands`` message on one axis moves that axis alone; the shared corpus's model with
every SDFormat joint type publishes all its joints with freedoms."""

from __future__ import annotations

from pathlib import Path

from lxml import etree
from sensor_msgs.msg import JointState
from std_msgs.msg import String

from sdf_bridge.ros.qos import LATCHED_QOS

from .conftest import Probe

#: Centres of mass on the joint axes: no gravity torque, a held axis stays where it is.
MODEL = """<?xml version="1.0"?><sdf version="1.9"><model name="m">
<link name="base"/>
<joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
<link name="a"><inertial><mass>1</mass>
  <inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
<joint name="wrist" type="universal"><parent>base</parent><child>a</child>
  <axis><xyz>1 0 0</xyz><limit><lower>-1</lower><upper>1</upper><effort>20</effort></limit></axis>
  <axis2><xyz>0 1 0</xyz><limit><lower>-0.5</lower><upper>0.5</upper><effort>20</effort>
  </limit></axis2></joint>
<link name="b"><inertial><mass>1</mass>
  <inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
<joint name="elbow" type="revolute2"><parent>a</parent><child>b</child>
  <axis><xyz>0 0 1</xyz></axis><axis2><xyz>1 0 0</xyz></axis2></joint>
<link name="c"><inertial><mass>1</mass>
  <inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
<joint name="neck" type="ball"><parent>b</parent><child>c</child></joint>
</model></sdf>"""

NAMES = [
    "wrist/axis1",
    "wrist/axis2",
    "elbow/axis1",
    "elbow/axis2",
    "neck/roll",
    "neck/pitch",
    "neck/yaw",
]
NS = "/ma"  # the bridges' namespace (joint_states and joint_commands are relative names)


def test_every_axis_is_published_and_commanded(start_bridge, probe: Probe) -> None:
    """joint_states names are the coordinates in document order; wrist/axis2 commanded to
    0.3 rad gets there (0.01 rad) while wrist/axis1 stays at 0 (0.01 rad). robot_description
    is the URDF with the multi-axis joints as chains: every name in joint_states is one of its
    joints (what robot_state_publisher needs for TF), the ball's chain is there too."""
    topic = f"{NS}/joint_states"
    probe.watch(topic, JointState)
    probe.watch(f"{NS}/robot_description", String, LATCHED_QOS)
    params = {"backend": "mujoco", "command_timeout": 0.0, "robot_description": MODEL}
    bridge = start_bridge(params, name="ma_bridge", extra=["-r", f"__ns:={NS}"])
    try:
        probe.wait_ready(bridge, topic, timeout=90.0)
        assert list(probe.latest(topic).name) == NAMES
        urdf = etree.fromstring(probe.latest(f"{NS}/robot_description").data.encode())
        assert urdf.tag == "robot"
        joints = {j.get("name"): j.get("type") for j in urdf.findall("joint")}
        assert {n: joints[n] for n in NAMES} == {
            "wrist/axis1": "revolute",
            "wrist/axis2": "revolute",
            "elbow/axis1": "continuous",
            "elbow/axis2": "continuous",
            "neck/roll": "continuous",
            "neck/pitch": "continuous",
            "neck/yaw": "continuous",
        }
        chain = [j.get("name") for j in urdf.findall("joint") if j.get("name").startswith("neck")]
        assert chain == ["neck/yaw", "neck/pitch", "neck/roll"]  # R = Rz(yaw)·Ry(pitch)·Rx(roll)
        pub = probe.publisher(f"{NS}/joint_commands", JointState)

        def there() -> bool:
            pub.publish(JointState(name=["wrist/axis2"], position=[0.3]))
            state = dict(zip(probe.latest(topic).name, probe.latest(topic).position))
            return abs(state["wrist/axis2"] - 0.3) < 0.01 and abs(state["wrist/axis1"]) < 0.01

        probe.wait_for(there, "wrist/axis2 at 0.3 rad, wrist/axis1 at 0 (0.01 rad)")
    finally:
        probe.unwatch(topic)
        probe.unwatch(f"{NS}/robot_description")
        assert bridge.stop() == 0, bridge.output()


def test_complete_joint_type_model_publishes_every_freedom(
    start_bridge, probe: Probe, robots_dir: Path
) -> None:
    """sdf_joint_complete (MuJoCo): every joint but the fixed one, by its coordinates, and the
    screw's translation."""
    topic = f"{NS}/joint_states"
    probe.watch(topic, JointState)
    path = robots_dir / "sdf_joint_complete" / "sdf_joint_complete.sdf"
    params = {"backend": "mujoco", "command_timeout": 0.0, "description_file": str(path)}
    bridge = start_bridge(params, name="ma_bridge", extra=["-r", f"__ns:={NS}"])
    try:
        probe.wait_ready(bridge, topic, timeout=90.0)
        assert sorted(probe.latest(topic).name) == sorted(
            [
                "revolute_joint",
                "ball_joint/roll",
                "ball_joint/pitch",
                "ball_joint/yaw",
                "continuous_joint",
                "gearbox_joint",
                "prismatic_joint",
                "revolute2_joint/axis1",
                "revolute2_joint/axis2",
                "screw_joint",
                "screw_joint/translation",
                "universal_joint/axis1",
                "universal_joint/axis2",
            ]
        )
    finally:
        probe.unwatch(topic)
        assert bridge.stop() == 0, bridge.output()
