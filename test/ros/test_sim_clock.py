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
