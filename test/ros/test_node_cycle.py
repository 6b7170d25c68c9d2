"""In-process: the node's control tick (write → read → publish) on the demo robot, driven by
calling :meth:`BridgeNode.cycle` (no loop thread, no DDS round trip): a command received
before a tick is in the joint_states of that tick, publish_rate decimation, the node's hardware
system does not time ticks (its loop does; without a loop /diagnostics has no tick timing), and
on simulated time the states are stamped with the simulation time they belong to."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from rclpy.context import Context
from rclpy.parameter import Parameter
from rclpy.serialization import deserialize_message
from sensor_msgs.msg import JointState

from sdf_bridge.ros.node import BridgeNode

TOL = 1e-12


class _Recorder:
    """Stands in for a JointState publisher with ``subscribers`` matched subscriptions: keeps a
    copy of every published message (the node publishes joint and actuator states serialised:
    read back as rclpy deserialises them for a subscriber)."""

    def __init__(self, subscribers: int = 1) -> None:
        self.messages: list = []
        self.subscribers = subscribers

    def get_subscription_count(self) -> int:
        return self.subscribers

    def publish(self, msg) -> None:
        if isinstance(msg, bytes):
            msg = deserialize_message(msg, JointState)
        self.messages.append(copy.deepcopy(msg))


@pytest.fixture()
def make_node(ros_context: Context) -> Iterator:
    nodes: list[BridgeNode] = []

    def make(**params) -> BridgeNode:
        overrides = [Parameter(k, value=v) for k, v in params.items()]
        node = BridgeNode(
            context=ros_context,
            node_name=f"cycle_bridge_{len(nodes)}",
            start=False,
            parameter_overrides=overrides,
        )
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
    # ticks are timed once, by the loop (not started here): the hardware system times nothing
    assert node.hardware.timing is None and "timing" not in node.hardware.diagnostics()


def test_publish_rate_decimates_ticks(make_node) -> None:
    node = make_node(update_rate=100.0, publish_rate=25.0)
    for k in range(8):
        node.cycle(k)
    assert len(node.joint_state_pub.messages) == 2  # ticks 0 and 4
    assert node.hardware.timing is None


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
    node.sim_clock.publisher = clock
    node.cycle(0)
    node.cycle(1)
    # each tick steps physics by 10 ms; joint_states carry the time after the step = /clock
    stamps = [
        m.header.stamp.sec + m.header.stamp.nanosec * 1e-9 for m in node.joint_state_pub.messages
    ]
    clocks = [m.clock.sec + m.clock.nanosec * 1e-9 for m in clock.messages]
    assert stamps == pytest.approx([0.01, 0.02], abs=1e-9)
    assert clocks == pytest.approx(stamps, abs=1e-9)


def test_sensors_without_subscribers_are_not_converted(make_node, monkeypatch) -> None:
    from sdf_bridge.ros import conversions

    node = make_node(update_rate=100.0, publish_rate=100.0)
    built: list[str] = []
    original = conversions.sensor_messages

    def counting(reading, stamp, frame_id, frame_prefix=""):
        built.append(frame_id)
        return original(reading, stamp, frame_id, frame_prefix)

    monkeypatch.setattr(conversions, "sensor_messages", counting)
    node.cycle(0)  # the mock samples every sensor at its first read: topics are created
    assert sorted(built) == ["ft_link", "imu_link"]
    assert set(node.sensor_topics.groups) == {"imu_sensor", "ft_sensor"}
    imu = _Recorder(subscribers=1)
    node.sensor_topics.groups["imu_sensor"] = [imu]  # the IMU topic gets a subscriber
    node.sensor_topics.pubs[("imu_sensor", "")] = imu
    built.clear()
    for k in range(1, 40):  # well past both sensors' periods
        node.cycle(k)
    assert set(built) == {"imu_link"} and len(imu.messages) == len(built) > 0


def test_diagnostics_without_a_loop_have_no_tick_timing(make_node) -> None:
    """Ticks driven directly (no loop): /diagnostics carries the hardware's counters but no
    loop.* or timing.* keys, and the warning about a slow loop stays quiet."""
    from builtin_interfaces.msg import Time

    node = make_node(update_rate=100.0, publish_rate=100.0)
    for k in range(3):
        node.cycle(k)
    (status,) = node.diagnostics_message(Time(sec=1)).status
    keys = {kv.key for kv in status.values}
    assert "backend" in keys and "enabled" in keys
    assert not any(key.startswith(("loop.", "timing.")) for key in keys)


def test_diagnostics_publish_the_loops_timing_once(make_node) -> None:
    """With a loop: loop.* and timing.* both come from the loop's LoopTiming (here filled with
    synthetic ticks, the loop thread not started), the hardware adds no timing of its own."""
    from builtin_interfaces.msg import Time

    from sdf_bridge.hardware.loop import FixedRateLoop
    from sdf_bridge.hardware.timing import LoopTiming

    node = make_node(update_rate=100.0, publish_rate=100.0)
    node.loop = FixedRateLoop(node.cycle, 100.0)
    timing = node.loop.timing
    for k, (start, busy) in enumerate(((0.0, 0.002), (0.01, 0.015), (0.03, 0.001), (0.04, 0.001))):
        timing.start(t=start, cpu=0.0)
        node.cycle(k)
        timing.stop(t=start + busy, cpu=busy / 2)
    node.loop.errors = 1
    (status,) = node.diagnostics_message(Time(sec=1)).status
    values = {kv.key: kv.value for kv in status.values}
    assert set(k for k in values if k.startswith("timing.")) == {
        f"timing.{k}" for k in LoopTiming().summary()
    }
    assert values["loop.target_rate_hz"] == "100.0" and values["loop.realtime_priority"] == "0"
    assert values["loop.cycles"] == values["timing.cycles"] == "4"
    assert values["loop.overruns"] == values["timing.overruns"] == "1"  # the tick busy 15 ms
    assert values["loop.errors"] == "1"
    assert values["timing.late_cycles"] == "1"  # the tick started 20 ms after the one before
    # 3 periods in 40 ms
    assert float(values["loop.achieved_rate_hz"]) == pytest.approx(75.0, abs=1e-3)
    assert (
        float(values["loop.period_max_s"])
        == float(values["timing.period_max"])
        == pytest.approx(0.02, abs=TOL)
    )
    assert float(values["loop.period_p99_s"]) == float(values["timing.period_p99"])
    assert float(values["timing.target_period"]) == pytest.approx(0.01, abs=TOL)
    assert float(values["timing.busy_max"]) == pytest.approx(0.015, abs=TOL)
    assert status.message == "1 overruns"


def test_slow_loop_warning_reads_the_loops_timing(make_node) -> None:
    """The slow-loop warning works on the loop.* values built from the loop's LoopTiming:
    200 synthetic ticks at 50 Hz of a 100 Hz update_rate (< 80 %) warn, 100 Hz ticks do not."""
    from builtin_interfaces.msg import Time

    from sdf_bridge.hardware.loop import FixedRateLoop

    node = make_node(update_rate=100.0, publish_rate=100.0)
    warned: list[str] = []
    node._warn_throttled = lambda text, period=1.0, key=None: warned.append(text)
    for tick_period, expected in (
        (0.01, []),
        (0.02, ["control loop runs at 50.0 Hz of update_rate 100 Hz"]),
    ):
        node.loop = FixedRateLoop(node.cycle, 100.0)
        for k in range(200):  # 2 s of ticks at the target rate: long enough to judge
            node.loop.timing.start(t=k * tick_period, cpu=0.0)
            node.loop.timing.stop(t=k * tick_period + 1e-4, cpu=1e-4)
        (status,) = node.diagnostics_message(Time(sec=1)).status
        node._warn_if_slow({kv.key: kv.value for kv in status.values})
        assert [text.split(":")[0] for text in warned] == expected


def test_the_slow_loop_warning_is_throttled_by_kind_not_by_text(make_node) -> None:
    """Its text carries the achieved rate, which changes every time: it is logged once per 10 s
    whatever the number (a newcomer saw it every second, 33 lines in 33 s)."""
    node = make_node(update_rate=100.0, publish_rate=100.0)
    logged: list[str] = []

    class _Logger:
        def warning(self, text: str) -> None:
            logged.append(text)

    node.get_logger = lambda: _Logger()
    for achieved in ("67.6", "67.5", "60.0"):
        node._warn_if_slow({"loop.achieved_rate_hz": achieved, "loop.cycles": "1000"})
    assert [text.split(":")[0] for text in logged] == [
        "control loop runs at 67.6 Hz of update_rate 100 Hz"
    ]
