"""An actuator name two transmissions use (test/data/shared_actuator_name.urdf: ``arm_trans``
and ``finger_trans`` both name ``actuator1``) on ROS, across processes: the bridge on the mock
starts with the renaming warning, moves each joint to its command, and publishes
``~/actuator_states`` under the names the bridge uses (``finger_trans/actuator1`` for the
later one, ×100 its reduction)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sensor_msgs.msg import JointState

from .conftest import Probe

JS, AS = "/joint_states", "/sdf_bridge/actuator_states"
TOL = 1e-9


def test_actuator_states_carry_the_renamed_name(start_bridge, probe: Probe, data_dir: Path) -> None:
    bridge = start_bridge(
        {
            "description_file": str(data_dir / "shared_actuator_name.urdf"),
            "update_rate": 100.0,
            "command_timeout": 0.0,
        },
    )
    probe.watch(JS, JointState)
    probe.watch(AS, JointState)
    probe.wait_ready(bridge)
    pub = probe.publisher("/joint_commands", JointState)
    command = JointState(name=["finger_joint", "shoulder_joint"], position=[0.03125, 0.5])

    def moved() -> bool:
        pub.publish(command)
        msgs = probe.messages[AS]
        if not msgs:
            return False
        values = dict(zip(msgs[-1].name, msgs[-1].position))
        expected = {"actuator1": 0.5, "finger_trans/actuator1": 3.125}
        return all(abs(values.get(n, 0.0) - v) <= TOL for n, v in expected.items())

    # (the limiter's 3 rad/s brings the shoulder there in about 0.2 s)
    probe.wait_for(moved, "the actuators to reach 0.5 rad and 3.125 (= 100 × 0.03125 m)")
    joints = probe.latest(JS)
    assert dict(zip(joints.name, joints.position)) == pytest.approx(
        {"shoulder_joint": 0.5, "finger_joint": 0.03125}, abs=TOL
    )
    actuators = probe.latest(AS)
    assert list(actuators.name) == ["actuator1", "finger_trans/actuator1"]
    assert list(actuators.position) == pytest.approx([0.5, 3.125], abs=TOL)
    assert bridge.stop() == 0, bridge.output()
    assert (
        "actuator 'actuator1' is used by transmissions 'arm_trans' (joints ['shoulder_joint']) "
        "and 'finger_trans' (joints ['finger_joint']); renamed 'actuator1' → "
        "'finger_trans/actuator1' for 'finger_trans' (the other keeps it)."
    ) in bridge.output()
