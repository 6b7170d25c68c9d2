"""Sensors on demand: the node asks the hardware only for the sensors somebody subscribes to
(and those not published yet), as Gazebo's sensor plugins; real rclpy in one process, the
demo arm in MuJoCo (IMU on ``imu``, force-torque on ``ft``, both 100 Hz), ticks driven by
calling :meth:`BridgeNode.cycle` and the demand timer's callback directly."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from geometry_msgs.msg import WrenchStamped
from rclpy.context import Context
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import Imu

from sdf_bridge.ros.node import BridgeNode

pytest.importorskip("mujoco")


@pytest.fixture
def node(ros_context: Context) -> Iterator[BridgeNode]:
    overrides = [
        Parameter("backend", value="mujoco"),
        Parameter("command_timeout", value=0.0),
        Parameter("backend_params.render_cameras", value=False),
    ]
    bridge = BridgeNode(
        context=ros_context, node_name="demand_bridge", start=False, parameter_overrides=overrides
    )
    yield bridge
    bridge.shutdown()
    bridge.destroy_node()


def test_only_subscribed_sensors_are_read(node: BridgeNode, probe) -> None:
    suite = node.hardware.backend.sensors
    assert suite.demand is None  # before the first check: every sensor is read
    node.cycle(0)  # the first readings create the topics
    assert {key[0] for key in node.sensor_topics.pubs} == {"imu_sensor", "ft_sensor"}
    node._update_sensor_demand()
    assert suite.demand == frozenset()  # published once, nobody listens: not read any more
    state = node.hardware.cycle(0.01, 0.01)
    assert dict(state.sensors) == {}
    # a subscriber on the IMU topic: the IMU is read (and published) again, the F/T is not
    probe.watch("/imu", Imu, qos_profile_sensor_data)
    imu_pub = node.sensor_topics.pubs[("imu_sensor", "")]
    probe.wait_for(
        lambda: imu_pub.get_subscription_count() > 0, "the bridge to see the IMU subscriber"
    )
    node._update_sensor_demand()
    assert suite.demand == frozenset({"imu_sensor"})
    for k in range(1, 6):
        node.cycle(k)
    messages = probe.wait_messages("/imu", 3)
    assert all(m.header.frame_id == "imu_link" for m in messages)
    assert abs(messages[-1].linear_acceleration.z) > 5.0  # gravity (m/s²) on the IMU's axis
    assert node.sensor_topics.pubs[("ft_sensor", "")].get_subscription_count() == 0
    # the subscriber goes: the next check drops the IMU again
    probe.unwatch("/imu")
    probe.wait_for(
        lambda: imu_pub.get_subscription_count() == 0, "the bridge to see the subscriber leave"
    )
    node._update_sensor_demand()
    assert suite.demand == frozenset()


def test_demand_unchanged_is_not_sent_again(node: BridgeNode, monkeypatch) -> None:
    node.cycle(0)
    calls = []
    monkeypatch.setattr(node.hardware, "set_sensor_demand", lambda names: calls.append(names))
    node._update_sensor_demand()
    node._update_sensor_demand()
    assert calls == [frozenset()]


def test_force_torque_topic_type(node: BridgeNode) -> None:
    node.cycle(0)
    assert node.sensor_topics.pubs[("ft_sensor", "")].msg_type is WrenchStamped
