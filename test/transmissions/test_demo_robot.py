"""The demo robot urdf/demo_arm.urdf.xacro: valid URDF, sane inertias, both dialects, prefix."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from prerequisites import require_tool

from sdf_bridge.description import load
from sdf_bridge.transmissions import (
    DifferentialTransmission,
    FourBarLinkageTransmission,
    SimpleTransmission,
    TransmissionMap,
)


@pytest.fixture(scope="module")
def demo(repo_dir):
    return load(repo_dir / "urdf" / "demo_arm.urdf.xacro")


def test_check_urdf_accepts_expansion(repo_dir, tmp_path) -> None:
    import xacro

    doc = xacro.process_file(str(repo_dir / "urdf" / "demo_arm.urdf.xacro"))
    out = tmp_path / "demo.urdf"
    out.write_text(doc.toprettyxml(indent="  "))
    tool = require_tool("check_urdf", "liburdfdom-tools")
    res = subprocess.run([tool, str(out)], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "root Link: base_link has 2 child(ren)" in res.stdout


def test_inertias_positive_definite(demo) -> None:
    assert len(demo.links) == 10
    for link in demo.links.values():
        assert link.inertial is not None and link.inertial.mass > 0, link.name
        i = link.inertial.inertia
        m = np.array([[i.ixx, i.ixy, i.ixz], [i.ixy, i.iyy, i.iyz], [i.ixz, i.iyz, i.izz]])
        eig = np.linalg.eigvalsh(m)
        assert eig.min() > 0, link.name
        assert eig.sum() - 2 * eig.max() >= -1e-15, link.name  # triangle inequality


def test_joint_kinds_and_limits(demo) -> None:
    kinds = {j.name: str(j.type) for j in demo.joints.values()}
    assert kinds == {
        "base_yaw": "continuous",
        "shoulder_lift": "revolute",
        "elbow": "revolute",
        "wrist_pitch": "revolute",
        "wrist_roll": "revolute",
        "ft_joint": "fixed",
        "left_finger_joint": "prismatic",
        "right_finger_joint": "prismatic",
        "imu_joint": "fixed",
    }
    for j in demo.joints.values():
        if j.type != "fixed":
            assert j.limit.effort > 0 and j.limit.velocity > 0 and j.dynamics.damping > 0, j.name
    assert demo.joints["elbow"].safety_controller.k_velocity == 10.0
    assert demo.joints["right_finger_joint"].mimic.offset == 0.002


def test_mechanisms_and_dialects(demo) -> None:
    assert [t.dialect for t in demo.transmissions] == [
        "classic",
        "ros2_control",
        "ros2_control",
        "ros2_control",
    ]
    tmap = TransmissionMap.from_robot(demo)
    kinds = {m.name: type(m) for m in tmap.mechanisms}
    assert kinds["base_yaw_trans"] is SimpleTransmission
    assert kinds["arm_fourbar_trans"] is FourBarLinkageTransmission
    assert kinds["wrist_differential_trans"] is DifferentialTransmission
    assert tmap.mechanism_of("base_yaw").reduction == 50.0
    assert tmap.mechanism_of("base_yaw").joint_offsets == (0.1,)
    assert tmap.mechanism_of("left_finger_joint").reduction == 1000.0


def test_sensors(demo) -> None:
    types = sorted(s.type for s in demo.sensors)
    assert types == ["force_torque", "imu"]
    (hw,) = demo.ros2_control
    assert [s.name for s in hw.sensors] == ["ft_sensor", "imu_sensor"]
    assert [i.name for i in hw.sensors[0].state_interfaces] == [
        "force.x",
        "force.y",
        "force.z",
        "torque.x",
        "torque.y",
        "torque.z",
    ]


def test_prefix(repo_dir) -> None:
    robot = load(repo_dir / "urdf" / "demo_arm.urdf.xacro", xacro_args={"prefix": "left_"})
    tmap = TransmissionMap.from_robot(robot)
    assert tmap.joint_names[0] == "left_base_yaw"
    assert tmap.actuator_names[0] == "left_base_yaw_motor"
    assert tmap.follower_names == ("left_right_finger_joint",)
