"""sdf_bridge.ros.sim_clock: the mock backend on simulated time with nothing publishing /clock
is warned about once (real processes, on /rosout); with a /clock source it is not."""

from __future__ import annotations

from builtin_interfaces.msg import Time
from rcl_interfaces.msg import Log
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState

from sdf_bridge.ros.sim_clock import GRACE, stalled_clock_message

from .conftest import ROSOUT_QOS, Probe

WARNING = "use_sim_time is true but the node's clock is still at 0"


def test_message_names_the_backend_and_the_fix() -> None:
    text = stalled_clock_message("mock", 3.0)
    assert text.startswith(
        f"{WARNING} after 3 s: nothing publishes /clock (backend 'mock' has no simulated clock"
    )
    assert "Fix: use_sim_time:=false with the mock backend, backend:=mujoco" in text


def _warnings(probe: Probe, node: str) -> list[Log]:
    return [m for m in probe.messages["/rosout"] if m.name == node and WARNING in m.msg]


def test_mock_on_sim_time_without_clock_warns_once(start_bridge, probe: Probe) -> None:
    probe.watch("/rosout", Log, ROSOUT_QOS)
    probe.watch("/lonely/joint_states", JointState)
    bridge = start_bridge({"use_sim_time": True}, name="bridge", extra=["-r", "__ns:=/lonely"])
    probe.wait_ready(bridge, "/lonely/joint_states")
    probe.wait_for(
        lambda: bool(_warnings(probe, "lonely.bridge")), "the stalled-clock warning on /rosout"
    )
    stamp = probe.messages["/lonely/joint_states"][-1].header.stamp
    assert (stamp.sec, stamp.nanosec) == (0, 0)
    probe.spin_for(GRACE + 1.0)
    assert (
        len(_warnings(probe, "lonely.bridge")) == 1
        and _warnings(probe, "lonely.bridge")[0].level == Log.WARN
    )
    assert bridge.stop() == 0


def test_mock_on_sim_time_with_a_clock_source_is_quiet(start_bridge, probe: Probe) -> None:
    """A /clock publisher (as a simulator or ``ros2 bag play --clock``): stamps follow it, no
    warning within twice the grace period."""
    probe.watch("/rosout", Log, ROSOUT_QOS)
    probe.watch("/clocked/joint_states", JointState)
    clock = probe.publisher("/clock", Clock)
    bridge = start_bridge({"use_sim_time": True}, name="bridge", extra=["-r", "__ns:=/clocked"])
    seconds = [100]

    def tick_until(predicate) -> bool:
        seconds[0] += 1
        clock.publish(Clock(clock=Time(sec=seconds[0])))
        return predicate()

    probe.wait_for(
        lambda: tick_until(
            lambda: (
                bool(probe.messages["/clocked/joint_states"])
                and probe.messages["/clocked/joint_states"][-1].header.stamp.sec > 100
            )
        ),
        "joint_states stamped with the published /clock",
    )
    for _ in range(int(2 * GRACE / 0.1)):
        clock.publish(Clock(clock=Time(sec=seconds[0])))
        probe.spin_for(0.1)
    assert not _warnings(probe, "clocked.bridge")
    assert bridge.stop() == 0


class _Node:
    """What ClockPublisher uses of a node: create_publisher, recorded."""

    def __init__(self) -> None:
        self.made: list[tuple[type, str]] = []
        self.sent: list[Clock] = []

    def create_publisher(self, msg_type: type, topic: str, qos: int):
        self.made.append((msg_type, topic))
        return self

    def publish(self, msg: Clock) -> None:
        self.sent.append(msg)


def test_a_ticks_simulated_time_is_observed_and_published_on_clock() -> None:
    from sdf_bridge.app.hardware_time import HardwareTime
    from sdf_bridge.ros.sim_clock import ClockPublisher

    node, time = _Node(), HardwareTime()
    source = ClockPublisher(node, time)
    source.tick(None)  # (a backend without simulated time: nothing)
    assert node.made == [] and not time.simulated
    source.tick(0.25)
    source.tick(1.5)
    assert node.made == [(Clock, "/clock")]  # (made once, at the first simulated time)
    assert [(m.clock.sec, m.clock.nanosec) for m in node.sent] == [
        (0, 250_000_000),
        (1, 500_000_000),
    ]
    assert time.simulated


def test_a_robot_of_several_observes_its_time_without_publishing_clock() -> None:
    from sdf_bridge.app.hardware_time import HardwareTime
    from sdf_bridge.ros.sim_clock import ClockPublisher

    node, time = _Node(), HardwareTime()
    ClockPublisher(node, time, publish=False).tick(0.5)
    assert node.made == [] and time.simulated
