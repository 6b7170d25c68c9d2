"""sdf_bridge.transmissions.actuator_names: an actuator name used by two transmissions
(test/data/shared_actuator_name.urdf: ``arm_trans`` and ``finger_trans`` both name
``actuator1``, for ``shoulder_joint`` and ``finger_joint``, reductions 1 and 100, as ROBOTIS
OMY-F3M's arm and gripper macros do) is renamed for the later one on a simulated robot, with
one warning, and refused for real actuators."""

from __future__ import annotations

import logging
import re

import numpy as np
import pytest

from sdf_bridge.description import load
from sdf_bridge.errors import TransmissionError
from sdf_bridge.transmissions import SimpleTransmission, TransmissionMap
from sdf_bridge.transmissions.report import describe_transmissions

from .builders import chain, simple, two_by_two

JOINTS = ("shoulder_joint", "finger_joint")
ACTUATORS = ("actuator1", "finger_trans/actuator1")


def renamed_warning(path) -> str:
    """The one warning of building the shared-name robot's map for a simulated robot."""
    return (
        f"{path}:39: actuator 'actuator1' is used by transmissions 'arm_trans' (joints "
        "['shoulder_joint']) and 'finger_trans' (joints ['finger_joint']); renamed "
        "'actuator1' → 'finger_trans/actuator1' for 'finger_trans' (the other keeps it). "
        "Gazebo (gazebo_ros_control, gz_ros2_control) drives joints and ignores actuator names, "
        "so each joint moves on its own command (ROS 1's transmission loader would hand both "
        "the one actuator of that name, coupling joints the description does not couple); a "
        "backend of real actuators refuses it"
    )


def test_a_simulated_robot_renames_the_later_actuator_with_one_warning(
    data_dir, caplog: pytest.LogCaptureFixture
) -> None:
    path = data_dir / "shared_actuator_name.urdf"
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.transmissions"):
        tmap = TransmissionMap.from_robot(load(path), simulated_robot=True)
    assert [r.getMessage() for r in caplog.records] == [renamed_warning(path)]
    assert tmap.warnings == (renamed_warning(path),)
    assert tmap.joint_names == JOINTS and tmap.actuator_names == ACTUATORS
    arm, finger = tmap.entries
    assert arm.status == "used" and arm.renamed == () and arm.notes == ()
    assert finger.status == "used" and finger.renamed == (("actuator1", ACTUATORS[1]),)
    assert finger.notes == (renamed_warning(path),)
    assert isinstance(finger.mechanism, SimpleTransmission)
    assert finger.mechanism.actuators == (ACTUATORS[1],)
    assert finger.mechanism.actuator_to_joint_matrix.tolist() == [[0.01]]
    # each joint keeps its own reduction (exact: products of small binary fractions)
    q, v, tau = tmap.joint_to_actuator([0.5, 0.015625], [1.0, 0.25], [2.0, 4.0])
    assert q.tolist() == [0.5, 1.5625] and v.tolist() == [1.0, 25.0]
    assert tau.tolist() == [2.0, 0.04]
    q, _, _ = tmap.actuator_to_joint([0.5, 1.5625], [0.0, 0.0], [0.0, 0.0])
    assert q.tolist() == [0.5, 0.015625]


def test_real_actuators_refuse_it_naming_file_line_and_what_simulating_backends_do(
    data_dir,
) -> None:
    path = data_dir / "shared_actuator_name.urdf"
    with pytest.raises(
        TransmissionError,
        match="^"
        + re.escape(
            f"{path}:39: actuator 'actuator1' is used by transmissions 'arm_trans' (joints "
            "['shoulder_joint']) and 'finger_trans' (joints ['finger_joint']). Fix: give each "
            "transmission its own actuator names (an un-transmitted joint gets an actuator "
            "named like the joint). Simulating backends (mock, mujoco) accept it, renaming the "
            "actuator of 'finger_trans' to 'finger_trans/actuator1', as Gazebo drives joints and "
            "ignores actuator names; a backend of real actuators does not, as one name cannot say "
            "which motor each joint has."
        )
        + "$",
    ):
        TransmissionMap.from_robot(load(path))


def test_the_new_name_is_never_another_actuator_or_joint() -> None:
    """``t2/m`` is taken by t3's actuator and ``t2/m_2`` by a joint: t2's ``m`` becomes
    ``t2/m_3``; a third user of ``m`` gets its own name."""
    robot = chain(
        ("a", "revolute"),
        ("b", "revolute"),
        ("c", "revolute"),
        ("t2/m_2", "revolute"),
        ("d", "revolute"),
        transmissions=[
            simple("t1", "a", "m"),
            simple("t2", "b", "m"),
            simple("t3", "c", "t2/m"),
            simple("t4", "d", "m"),
        ],
    )
    tmap = TransmissionMap.from_robot(robot, simulated_robot=True)
    assert tmap.actuator_names == ("m", "t2/m_3", "t2/m", "t2/m_2", "t4/m")
    assert [e.renamed for e in tmap.entries] == [(), (("m", "t2/m_3"),), (), (("m", "t4/m"),)]
    assert len(tmap.warnings) == 2


def test_an_identity_actuator_keeps_its_joints_name() -> None:
    """t1 (joint a) names its actuator like joint b, which has no transmission: b's identity
    actuator keeps ``b``, t1's becomes ``t1/b``; refused for real actuators."""
    robot = chain(("a", "revolute"), ("b", "revolute"), transmissions=[simple("t1", "a", "b")])
    tmap = TransmissionMap.from_robot(robot, simulated_robot=True)
    assert tmap.actuator_names == ("t1/b", "b")
    (warning,) = tmap.warnings
    assert warning.startswith(
        "actuator 'b' is used by the identity actuator of un-transmitted joint 'b' and by "
        "transmission 't1' (joints ['a']); renamed 'b' → 't1/b' for 't1' "
    )
    with pytest.raises(
        TransmissionError,
        match=r"^actuator 'b' is used by the identity actuator of un-transmitted joint 'b' and "
        r"by transmission 't1' \(joints \['a'\]\)\. Fix: .* renaming the actuator "
        r"of 't1' to 't1/b'",
    ):
        TransmissionMap.from_robot(robot)


def test_one_transmission_naming_one_actuator_twice_is_refused_for_real_actuators() -> None:
    """A real driver refuses it; a simulated robot runs without it (joints driven directly)."""
    spec = two_by_two(
        "diff",
        "transmission_interface/DifferentialTransmission",
        [("a", "joint1", None, 0.0), ("b", "joint2", None, 0.0)],
        [("m", "actuator1", 1.0), ("m", "actuator2", 1.0)],
    )
    robot = chain(("a", "revolute"), ("b", "revolute"), transmissions=[spec])
    message = "transmission 'diff' names actuator 'm' for two roles. Fix: give each role its own "
    with pytest.raises(TransmissionError, match=rf"^{re.escape(message)}actuator\.$"):
        TransmissionMap.from_robot(robot, simulated_robot=False)
    simulated = TransmissionMap.from_robot(robot, simulated_robot=True)
    assert simulated.actuator_names == ("a", "b")
    assert [e.status for e in simulated.entries] == ["skipped"]
    assert simulated.warnings == (
        f"{message}actuator. Skipped: a simulated robot runs without it (its joints driven "
        "directly); a real actuator's driver refuses it.",
    )


def test_check_lists_the_names_the_bridge_uses(data_dir) -> None:
    """``sdf-bridge check`` reads the map as the simulating backends do: the renamed actuator
    under its new name, the warning as the transmission's note."""
    path = data_dir / "shared_actuator_name.urdf"
    arm, finger = describe_transmissions(load(path))
    assert arm["actuators"] == [{"name": "actuator1", "role": None, "reduction": 1.0}]
    assert arm["notes"] == []
    assert finger["actuators"] == [{"name": ACTUATORS[1], "role": None, "reduction": 100.0}]
    assert finger["notes"] == [renamed_warning(path)]
    np.testing.assert_array_equal(
        TransmissionMap.from_robot(load(path), simulated_robot=True).actuator_names, ACTUATORS
    )
