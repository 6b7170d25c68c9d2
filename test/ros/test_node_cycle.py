"""In-process: the node's control tick (write → read → publish) on the demo robot, driven by
calling :meth:`BridgeNode.cycle` (no loop thread, no DDS round trip): a command received
before a tick is in the joint_states of that tick, publish_rate decimation, the hardware
timing counts one cycle per tick, and on simulated time the states are stamped with the
simulation time they belong to."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from rclpy.context import Context
from rclpy.parameter import Parameter
from sensor_msgs.msg import JointState

from sdf_bridge.ros.node import BridgeNode

TOL = 1e-12


class _Recorder:
    """Stands in for a publisher with ``subscribers`` matched subscriptions: keeps a copy of
    every published message."""

    def __init__(self, subscribers: int = 1) -> None:
        self.messages: list = []
        self.subscribers = subscribers

    def get_subscription_count(self) -> int:
        return self.subscribers

    def publish(self, msg) -> None:
        self.messages.append(copy.deepcopy(msg))


@pytest.fixture()
def make_node(ros_context: Context) -> Iterator:
    nodes: list[BridgeNode] = []

    def make(**params) -> BridgeNode:
        overrides = [Parameter(k, value=v) for k, v in params.items()]
        node = BridgeNode(context=ros_context, node_name=f"cycle_bridge_{len(nodes)}", start=False,
                          parameter_overrides=overrides)
        nodes.append(node)
        node.joint_state_pub = _Recorder()
        node.actuator_state_pub = _Recorder()
        return node

    yield make
    for node in nodes:
        node.shutdown()
        node.destroy_node()


def _position(msg: JointState, joint: str) -> float:
    return msg.position[list(msg.name).index(joint)]


def test_command_before_a_tick_is_published_by_that_tick(make_node) -> None:
    node = make_node(update_rate=100.0, publish_rate=100.0, command_timeout=0.0)
    node.cycle(0)
    start = _position(node.joint_state_pub.messages[-1], "base_yaw")
    assert start == pytest.approx(0.0, abs=TOL)
    # 0.01 rad: below the velocity limit's step at 100 Hz, so not clamped
    node._on_joint_commands(JointState(name=["base_yaw"], position=[0.01]))
    node.cycle(1)
    assert _position(node.joint_state_pub.messages[-1], "base_yaw") == pytest.approx(0.01, abs=TOL)
    assert len(node.joint_state_pub.messages) == len(node.actuator_state_pub.messages) == 2
    assert node.hardware.timing.cycles == 2  # one timed cycle per tick, publishing included


def test_publish_rate_decimates_ticks(make_node) -> None:
    node = make_node(update_rate=100.0, publish_rate=25.0)
    for k in range(8):
        node.cycle(k)
    assert len(node.joint_state_pub.messages) == 2  # ticks 0 and 4
    assert node.hardware.timing.cycles == 8


def test_states_without_subscribers_are_not_published(make_node) -> None:
    node = make_node(update_rate=100.0, publish_rate=100.0)
    node.actuator_state_pub = _Recorder(subscribers=0)
    node.cycle(0)
    node.cycle(1)
    assert len(node.joint_state_pub.messages) == 2 and node.actuator_state_pub.messages == []


def test_sim_time_stamps_are_the_simulation_time_of_the_state(make_node) -> None:
    pytest.importorskip("mujoco")
    node = make_node(backend="mujoco", update_rate=100.0, publish_rate=100.0, use_sim_time=True)
    clock = _Recorder()
    node._clock_pub = clock
    node.cycle(0)
    node.cycle(1)
    # each tick steps physics by 10 ms; joint_states carry the time after the step = /clock
    stamps = [m.header.stamp.sec + m.header.stamp.nanosec * 1e-9 for m in node.joint_state_pub.messages]
    clocks = [m.clock.sec + m.clock.nanosec * 1e-9 for m in clock.messages]
    assert stamps == pytest.approx([0.01, 0.02], abs=1e-9)
    assert clocks == pytest.approx(stamps, abs=1e-9)


def test_sensors_without_subscribers_are_not_converted(make_node, monkeypatch) -> None:
    from sdf_bridge.ros import conversions

    node = make_node(update_rate=100.0, publish_rate=100.0)
    built: list[str] = []
    original = conversions.sensor_messages

    def counting(reading, stamp, frame_id):
        built.append(frame_id)
        return original(reading, stamp, frame_id)

    monkeypatch.setattr(conversions, "sensor_messages", counting)
    node.cycle(0)  # the mock samples every sensor at its first read: topics are created
    assert sorted(built) == ["ft_link", "imu_link"]
    assert set(node._sensor_pub_groups) == {"imu_sensor", "ft_sensor"}
    imu = _Recorder(subscribers=1)
    node._sensor_pub_groups["imu_sensor"] = [imu]  # the IMU topic gets a subscriber
    node._sensor_pubs[("imu_sensor", "")] = imu
    built.clear()
    for k in range(1, 40):  # well past both sensors' periods
        node.cycle(k)
    assert set(built) == {"imu_link"} and len(imu.messages) == len(built) > 0
