"""DifferentialTransmission (ros2_control formulas, case 002) and the PR2 wrist."""

from __future__ import annotations

import numpy as np
import pytest

from sdf_bridge.description import load
from sdf_bridge.errors import TransmissionError
from sdf_bridge.transmissions import DifferentialTransmission, TransmissionMap, WristTransmission

from .builders import chain, two_by_two

DIFF = "transmission_interface/DifferentialTransmission"


def test_ros2_formulas() -> None:
    t = DifferentialTransmission("d", ["p", "r"], ["m1", "m2"], [2.0, 3.0], [5.0, 7.0], [0.1, -0.2])
    q, v, e = t.actuator_to_joint([10.0, 14.0], [1.0, 2.0], [0.5, 0.25])
    assert q == pytest.approx(
        [(10 / 5 + 14 / 7) / (2 * 2) + 0.1, (10 / 5 - 14 / 7) / (2 * 3) - 0.2], abs=1e-14
    )
    assert v == pytest.approx([(1 / 5 + 2 / 7) / 4, (1 / 5 - 2 / 7) / 6], abs=1e-14)
    assert e == pytest.approx([2 * (5 * 0.5 + 7 * 0.25), 3 * (5 * 0.5 - 7 * 0.25)], abs=1e-13)


def test_case_002_from_file(cases_dir) -> None:
    tmap = TransmissionMap.from_robot(
        load(cases_dir / "002-differential-role-order" / "robot.urdf")
    )
    assert tmap.joint_names == ("wrist_pitch", "wrist_roll")
    assert tmap.actuator_names == ("motor_left", "motor_right")
    q, _, _ = tmap.actuator_to_joint(np.array([10.0, 4.0]), np.zeros(2), np.zeros(2))
    assert q == pytest.approx([3.6, 1.5], abs=1e-9)
    a, _, _ = tmap.joint_to_actuator(np.array([0.9, 0.2]), np.zeros(2), np.zeros(2))
    assert a == pytest.approx([2.0, 1.2], abs=1e-9)


def test_roles_not_xml_order() -> None:
    # roll written first, actuator2 written first: roles decide
    spec = two_by_two(
        "wrist",
        DIFF,
        [("roll", "joint2", None, 0.0), ("pitch", "joint1", None, 0.1)],
        [("right", "actuator2", 2.0), ("left", "actuator1", 2.0)],
    )
    robot = chain(("pitch", "revolute"), ("roll", "revolute"), transmissions=[spec])
    tmap = TransmissionMap.from_robot(robot)
    assert tmap.actuator_names == ("left", "right")
    q, _, _ = tmap.actuator_to_joint(np.array([10.0, 4.0]), np.zeros(2), np.zeros(2))
    assert q == pytest.approx([3.6, 1.5], abs=1e-12)


def test_duplicated_role_rejected() -> None:
    spec = two_by_two(
        "wrist",
        DIFF,
        [("roll", "joint1", None, 0.0), ("pitch", "joint1", None, 0.1)],
        [("right", "actuator2", 2.0), ("left", "actuator1", 2.0)],
    )
    robot = chain(("pitch", "revolute"), ("roll", "revolute"), transmissions=[spec])
    with pytest.raises(TransmissionError, match=r"transmission 'wrist'.*joint roles"):
        TransmissionMap.from_robot(robot)


def test_no_roles_uses_document_order() -> None:
    spec = two_by_two(
        "w",
        DIFF,
        [("a", None, None, 0.0), ("b", None, None, 0.0)],
        [("m1", None, 1.0), ("m2", None, 1.0)],
    )
    tmap = TransmissionMap.from_robot(
        chain(("b", "revolute"), ("a", "revolute"), transmissions=[spec])
    )
    mech = tmap.mechanism_of("a")
    assert mech.joints == ("a", "b")


def test_pr2_wrist_formulas() -> None:
    # pr2_mechanism_model wrist: flex = (aR/nR − aL/nL)/(2 n_f), roll = (−aR/nR − aL/nL)/(2 n_r)
    t = WristTransmission("w", ["flex", "roll"], ["right", "left"], [-1.0, 1.0], [60.0, 60.0])
    q, _, e = t.actuator_to_joint([120.0, 60.0], [0.0, 0.0], [1.0, 2.0])
    assert q == pytest.approx([(2.0 - 1.0) / -2.0, (-2.0 - 1.0) / 2.0], abs=1e-14)
    assert e == pytest.approx(
        [-1.0 * (60 * 1.0 - 60 * 2.0), 1.0 * (-60 * 1.0 - 60 * 2.0)], abs=1e-12
    )


def test_pr2_wrist_roles_from_file(robots_dir) -> None:
    tmap = TransmissionMap.from_robot(load(robots_dir / "pr2" / "pr2.urdf"))
    mech = tmap.mechanism_of("r_wrist_flex_joint")
    assert isinstance(mech, WristTransmission)
    assert mech.joints == ("r_wrist_flex_joint", "r_wrist_roll_joint")
    assert mech.actuators == ("r_wrist_r_motor", "r_wrist_l_motor")
    assert mech.joint_reductions == (-1.0, 1.0)
    assert mech.actuator_reductions == (60.17142857142857, 60.17142857142857)


def test_wrong_counts() -> None:
    with pytest.raises(TransmissionError, match=r"DifferentialTransmission\) has 1 joint"):
        DifferentialTransmission("d", ["p"], ["m1", "m2"])
