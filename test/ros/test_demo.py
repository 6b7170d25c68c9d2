"""sdf_bridge.ros.demo: the demo's choice of joints and targets (the demo run itself is
exercised by test_cli_demo in test_process.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sdf_bridge.description import load
from sdf_bridge.ros.demo import plan_for, target, transmission_notes


@pytest.fixture(scope="module")
def robot(repo_dir: Path):
    return load(repo_dir / "urdf" / "demo_arm.urdf.xacro")


def test_plan_for_demo_robot(robot) -> None:
    plan = plan_for(robot)
    assert plan.simple == ("base_yaw",)  # the SimpleTransmission with an offset
    assert set(plan.differential) == {"wrist_pitch", "wrist_roll"}
    assert set(plan.trajectory) == {"shoulder_lift", "elbow"}
    assert plan.gripper == ("left_finger_joint",)


def test_target_between_limits(robot) -> None:
    assert target(robot, "shoulder_lift", 0.5) == pytest.approx(0.0, abs=1e-12)
    assert target(robot, "left_finger_joint", 0.9) == pytest.approx(0.036, abs=1e-12)
    assert target(robot, "base_yaw", 0.75) == pytest.approx(0.25, abs=1e-12)  # continuous


def test_transmission_notes(robot) -> None:
    joints, actuators = transmission_notes(robot)
    assert joints["base_yaw"] == "SimpleTransmission offset 0.1"
    assert actuators["base_yaw_motor"] == "SimpleTransmission red 50"
    assert joints["right_finger_joint"] == "mimic of left_finger_joint ×-1 +0.002"
