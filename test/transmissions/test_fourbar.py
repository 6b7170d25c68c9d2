"""FourBarLinkageTransmission: case 001 (power-conserving effort map)."""

from __future__ import annotations

import numpy as np
import pytest

from sdf_bridge.description import load
from sdf_bridge.transmissions import FourBarLinkageTransmission, TransmissionMap


@pytest.fixture()
def case_map(cases_dir) -> TransmissionMap:
    return TransmissionMap.from_robot(load(cases_dir / "001-fourbar-effort-mapping" / "robot.urdf"))


def test_case_001_state(case_map: TransmissionMap) -> None:
    assert case_map.joint_names == ("joint_a", "joint_b")
    assert case_map.actuator_names == ("act_1", "act_2")
    q, v, e = case_map.actuator_to_joint(
        np.array([20.0, 60.0]), np.array([100.0, 50.0]), np.array([0.3, 0.5])
    )
    assert q == pytest.approx([1.0, 0.5], abs=1e-9)
    assert v == pytest.approx([5.0, -0.625], abs=1e-9)
    assert e == pytest.approx([16.0, 40.0], abs=1e-9)
    assert not np.isclose(e, [6.0, 16.0]).any()  # the ROS 1 bug


def test_case_001_command(case_map: TransmissionMap) -> None:
    _, _, e = case_map.joint_to_actuator(np.zeros(2), np.zeros(2), np.array([16.0, 40.0]))
    assert e == pytest.approx([0.3, 0.5], abs=1e-9)
    assert not np.isclose(e, [0.8, 1.3]).any()


def test_case_001_power(case_map: TransmissionMap) -> None:
    va, ta = np.array([100.0, 50.0]), np.array([0.3, 0.5])
    _, vj, tj = case_map.actuator_to_joint(np.zeros(2), va, ta)
    assert float(ta @ va) == pytest.approx(55.0, abs=1e-9)
    assert float(tj @ vj) == pytest.approx(55.0, abs=1e-9)


def test_matrix_and_offsets() -> None:
    t = FourBarLinkageTransmission(
        "f", ["a", "b"], ["m1", "m2"], [2.0, 4.0], [10.0, 20.0], [0.5, -0.5]
    )
    assert t.actuator_to_joint_matrix == pytest.approx(
        np.array([[1 / 20, 0.0], [-1 / 80, 1 / 80]]), abs=1e-15
    )
    q, _, _ = t.actuator_to_joint([20.0, 60.0], [0, 0], [0, 0])
    assert q == pytest.approx([1.5, 0.0], abs=1e-14)
    a, _, _ = t.joint_to_actuator(q, [0, 0], [0, 0])
    assert a == pytest.approx([20.0, 60.0], abs=1e-12)


def test_structural_zero_keeps_nan_local(case_map: TransmissionMap) -> None:
    # joint_a depends only on act_1: a NaN on act_2 must not reach it
    q, _, _ = case_map.actuator_to_joint(np.array([20.0, np.nan]), np.zeros(2), np.zeros(2))
    assert q[0] == pytest.approx(1.0, abs=1e-12)
    assert np.isnan(q[1])
