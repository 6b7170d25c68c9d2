"""Case 013 (shared/cases/013-jointstate-array-lengths) across processes: the messages of
``messages.yaml`` are sent, in order, to the bridge's ``joint_commands``; the expected commands
show in ``joint_states`` (mock backend: position state = position command), the bad parts are
counted in /diagnostics, the loop keeps running, and every published JointState obeys the
case's invariants."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import numpy as np
import pytest
import yaml
from diagnostic_msgs.msg import DiagnosticArray
from sensor_msgs.msg import JointState

from .conftest import Bridge, Probe

CASE = "013-jointstate-array-lengths"
TOL = 1e-9
PUBLISH_RATE = 50.0
JS, DIAG = "/joint_states", "/diagnostics"


@pytest.fixture(scope="module")
def case(cases_dir: Path) -> dict:
    """messages.yaml of the case."""
    return yaml.safe_load((cases_dir / CASE / "messages.yaml").read_text())


@pytest.fixture(scope="module")
def bridge(start_bridge, probe: Probe, cases_dir: Path) -> Bridge:
    """The bridge on the case's robot; watchdog off so that commands hold indefinitely."""
    b = start_bridge(
        {
            "description_file": str(cases_dir / CASE / "robot.urdf"),
            "update_rate": 100.0,
            "publish_rate": PUBLISH_RATE,
            "command_timeout": 0.0,
            "diagnostics_rate": 5.0,
        },
        name="bridge_013",
    )
    probe.watch(JS, JointState)
    probe.watch(DIAG, DiagnosticArray)
    probe.wait_ready(b)
    yield b
    assert b.stop() == 0, b.output()


def positions(probe: Probe) -> dict[str, float]:
    msg = probe.latest(JS)
    return dict(zip(msg.name, msg.position))


def diag(probe: Probe) -> dict[str, str]:
    msg = probe.wait_messages(DIAG, 1)[-1]
    status = next(s for s in msg.status if s.name.startswith("bridge_013"))
    return {kv.key: kv.value for kv in status.values}


def to_msg(entry: dict) -> JointState:
    return JointState(
        name=entry["name"],
        position=[float(v) for v in entry.get("position", [])],
        velocity=[float(v) for v in entry.get("velocity", [])],
        effort=[float(v) for v in entry.get("effort", [])],
    )


def wait_positions(probe: Probe, expected: dict[str, float], what: str) -> None:
    probe.wait_for(
        lambda: (
            bool(probe.messages[JS])
            and all(abs(positions(probe)[n] - v) <= TOL for n, v in expected.items())
        ),
        what,
    )


def test_messages_in_order(bridge: Bridge, probe: Probe, case: dict) -> None:
    pub = probe.publisher("/joint_commands", JointState)
    first_message_index = len(probe.messages[JS])
    by_id = {m["id"]: m for m in case["messages"]}

    pub.publish(to_msg(by_id["m1_short_velocity"]))
    wait_positions(probe, by_id["m1_short_velocity"]["expect"]["position_cmd"], "m1 positions")
    probe.wait_for(
        lambda: int(diag(probe).get("rejected.malformed_field", "0")) >= 1, "m1 velocity dropped"
    )
    # the malformed velocity field was dropped whole: j3 (like j1, j2) got no velocity command
    # (no invented 0.0): its command mode is plain position.
    assert diag(probe)["modes.j3"] == "position"

    pub.publish(to_msg(by_id["m2_effort_only"]))
    probe.wait_for(
        lambda: all(
            abs(dict(zip(probe.latest(JS).name, probe.latest(JS).effort))[n] - v) <= TOL
            for n, v in by_id["m2_effort_only"]["expect"]["effort_cmd"].items()
        ),
        "m2 efforts",
    )
    assert positions(probe) == pytest.approx(
        by_id["m2_effort_only"]["expect"]["position_cmd"], abs=TOL
    )

    not_finite = int(diag(probe).get("rejected.not_finite", "0"))
    for mid in ("m3_reordered", "m4_unknown_name", "m5_nan"):
        pub.publish(to_msg(by_id[mid]))
        wait_positions(probe, by_id[mid]["expect"]["position_cmd"], mid)
    d = diag(probe)
    # m5's NaN is "no new command", silently (ros2_control's unclaimed interfaces are NaN)
    assert (
        int(d["rejected.unknown_joint"]) >= 1
        and int(d.get("rejected.not_finite", "0")) == not_finite
    )
    assert "j_extra" in bridge.output()  # the warning names the unknown joint

    before = int(diag(probe)["rejected.malformed_field"])
    pub.publish(to_msg(by_id["m6_too_long_position"]))
    probe.wait_for(lambda: int(diag(probe)["rejected.malformed_field"]) > before, "m6 rejected")
    probe.wait_messages(JS, 5)
    assert positions(probe)["j1"] in (pytest.approx(0.7, abs=TOL), pytest.approx(0.2, abs=TOL))
    assert positions(probe)["j1"] != pytest.approx(0.9, abs=1e-6)

    published = probe.messages[JS][first_message_index:]
    check_invariants(published)


def check_invariants(msgs: list[JointState]) -> None:
    """published_joint_state_invariants of messages.yaml."""
    assert msgs
    stamps = []
    for m in msgs:
        n = len(m.name)
        assert sorted(m.name) == ["j1", "j2", "j3"]
        for field in (m.position, m.velocity, m.effort):
            assert len(field) in (0, n)
        assert not any(math.isnan(p) for p in m.position)
        stamps.append(m.header.stamp.sec + m.header.stamp.nanosec * 1e-9)
        assert stamps[-1] > 0
    assert all(b >= a for a, b in zip(stamps, stamps[1:]))


def test_flood_of_bad_commands_keeps_the_loop_running(
    bridge: Bridge, probe: Probe, case: dict
) -> None:
    """500 malformed messages as fast as possible: they are counted, the loop never fails,
    joint_states keep coming at the publish rate (stamp spacing) and the last good command holds."""
    pub = probe.publisher("/joint_commands", JointState)
    pub.publish(JointState(name=["j1", "j2", "j3"], position=[0.25, -0.25, 0.5]))
    wait_positions(probe, {"j1": 0.25, "j2": -0.25, "j3": 0.5}, "good command")
    before = diag(probe)
    start = len(probe.messages[JS])
    bad = [
        JointState(name=["j1", "j2"], position=[1.0]),  # malformed_field
        JointState(name=["nope"], position=[1.0]),  # unknown_joint
        JointState(name=["j1"], position=[float("inf")]),  # not_finite
        JointState(name=["j1", "j1"], position=[1.0, 1.0]),  # duplicate_joint
        JointState(name=["j2"], position=[1.0, 2.0, 3.0]),  # malformed_field
    ]
    for i in range(500):
        pub.publish(bad[i % len(bad)])
        if i % 50 == 0:
            probe.spin_for(0.01)
    # KEEP_LAST(10) queues may drop part of a flood: at least a fifth must have been counted.
    probe.wait_for(
        lambda: int(diag(probe)["rejected_total"]) - int(before["rejected_total"]) >= 100,
        "the bad commands counted",
    )
    after = diag(probe)
    assert after["loop.errors"] == "0"
    assert int(after["loop.cycles"]) > int(before["loop.cycles"])
    msgs = probe.messages[JS][start:]
    assert len(msgs) >= 10
    stamps = [m.header.stamp.sec + m.header.stamp.nanosec * 1e-9 for m in msgs]
    assert statistics.median(np.diff(stamps)) == pytest.approx(1.0 / PUBLISH_RATE, rel=0.25)
    assert positions(probe) == pytest.approx({"j1": 0.25, "j2": -0.25, "j3": 0.5}, abs=TOL)
    check_invariants(msgs)
    assert bridge.running()
