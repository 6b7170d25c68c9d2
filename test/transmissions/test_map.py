"""TransmissionMap: building rules, dialects (case 004), errors, vectorised maps."""

from __future__ import annotations

import logging
import re

import numpy as np
import pytest

from sdf_bridge.description import load
from sdf_bridge.description.model import ComponentInfo, HardwareComponent, InterfaceInfo
from sdf_bridge.errors import TransmissionError
from sdf_bridge.transmissions import TransmissionMap

from .builders import chain, mimic, simple, two_by_two

Z1 = np.zeros(1)


def _a(tmap: TransmissionMap, q: float) -> float:
    return float(tmap.joint_to_actuator(np.array([q]), Z1, Z1)[0][0])


def test_plain_robot_identity() -> None:
    tmap = TransmissionMap.from_robot(
        chain(
            ("a", "revolute"),
            ("f", "fixed"),
            ("b", "continuous"),
            ("c", "prismatic"),
            ("x", "planar"),
        )
    )
    assert tmap.joint_names == ("a", "b", "c")
    assert tmap.actuator_names == ("a", "b", "c")
    q, v, e = tmap.actuator_to_joint(
        np.array([1.0, 2.0, 3.0]), np.array([4.0, 5, 6]), np.array([7.0, 8, 9])
    )
    assert (q.tolist(), v.tolist(), e.tolist()) == ([1, 2, 3], [4, 5, 6], [7, 8, 9])


# ---- dialect rules ---------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["variant_a_camelcase.urdf", "variant_b_actuator_side.urdf"])
def test_case_004(cases_dir, variant: str) -> None:
    tmap = TransmissionMap.from_robot(
        load(cases_dir / "004-ros2control-transmission-tag-spelling" / variant)
    )
    a, _, _ = tmap.joint_to_actuator(np.array([0.5]), Z1, Z1)
    assert a[0] == pytest.approx(20.0, abs=1e-9)
    q, _, _ = tmap.actuator_to_joint(np.array([8.0]), Z1, Z1)
    assert q[0] == pytest.approx(0.2, abs=1e-9)


def test_case_004_b_warns(cases_dir, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.transmissions"):
        tmap = TransmissionMap.from_robot(
            load(
                cases_dir
                / "004-ros2control-transmission-tag-spelling"
                / "variant_b_actuator_side.urdf"
            )
        )
    assert "knee_gear" in caplog.text and "actuator side" in caplog.text
    assert "applied" in tmap.entries[0].notes[0]


def test_classic_ratio_on_actuator() -> None:
    robot = chain(("j", "revolute"), transmissions=[simple("t", "j", "m", ared=50.0, offset=0.1)])
    assert _a(TransmissionMap.from_robot(robot), 0.3) == pytest.approx(10.0, abs=1e-12)


def test_ros2_control_ratio_on_joint() -> None:
    robot = chain(
        ("j", "revolute"), transmissions=[simple("t", "j", "m", dialect="ros2_control", jred=4.0)]
    )
    assert _a(TransmissionMap.from_robot(robot), 0.5) == pytest.approx(2.0, abs=1e-12)


def test_classic_joint_side_only_applied_with_note() -> None:
    robot = chain(("j", "revolute"), transmissions=[simple("t", "j", "m", jred=3.0)])
    tmap = TransmissionMap.from_robot(robot)
    assert _a(tmap, 1.0) == pytest.approx(3.0, abs=1e-12)
    assert "joint side" in tmap.entries[0].notes[0]


def test_both_sides_different_rejected() -> None:
    robot = chain(
        ("j", "revolute"),
        transmissions=[simple("t", "j", "m", dialect="ros2_control", jred=2.0, ared=40.0)],
    )
    with pytest.raises(
        TransmissionError, match=r"transmission 't'.*both sides: joint 2.0, actuator 40.0.*Fix"
    ):
        TransmissionMap.from_robot(robot)


def test_both_sides_equal_used_once() -> None:
    robot = chain(("j", "revolute"), transmissions=[simple("t", "j", "m", jred=5.0, ared=5.0)])
    tmap = TransmissionMap.from_robot(robot)
    assert _a(tmap, 1.0) == pytest.approx(5.0, abs=1e-12)
    assert "used once" in tmap.entries[0].notes[0]


def test_no_reduction_defaults_to_one_with_note() -> None:
    tmap = TransmissionMap.from_robot(
        chain(("j", "revolute"), transmissions=[simple("t", "j", "m")])
    )
    assert _a(tmap, 0.7) == pytest.approx(0.7, abs=1e-15)
    assert "1.0" in tmap.entries[0].notes[0]


def test_zero_reduction_rejected() -> None:
    robot = chain(("j", "revolute"), transmissions=[simple("t", "j", "m", ared=0.0)])
    with pytest.raises(TransmissionError, match=r"transmission 't'.*zero"):
        TransmissionMap.from_robot(robot)


# ---- structural errors -----------------------------------------------------------------------
def test_missing_joint() -> None:
    robot = chain(("j", "revolute"), transmissions=[simple("t", "nope", "m")])
    with pytest.raises(
        TransmissionError, match=r"transmission 't' names joint 'nope', which does not exist"
    ):
        TransmissionMap.from_robot(robot)


def test_fixed_joint() -> None:
    robot = chain(("j", "fixed"), transmissions=[simple("t", "j", "m")])
    with pytest.raises(TransmissionError, match=r"transmission 't' drives fixed joint 'j'"):
        TransmissionMap.from_robot(robot)


def test_multi_dof_joint() -> None:
    robot = chain(("j", "planar"), transmissions=[simple("t", "j", "m")])
    with pytest.raises(TransmissionError, match=r"drives planar joint 'j'; only 1-DOF"):
        TransmissionMap.from_robot(robot)


def test_a_transmission_on_a_whole_multi_axis_joint_is_refused() -> None:
    """A transmission drives one axis: naming a universal joint itself is refused for real
    actuators (the message names its coordinates) and skipped with that warning for a
    simulated robot."""
    robot = chain(("j", "universal"), transmissions=[simple("t", "j", "m")])
    message = (
        r"transmission 't' names universal joint 'j', which has 2 axes; a transmission drives "
        r"one\. Fix: name one of its axes, \['j/axis1', 'j/axis2'\]\."
    )
    with pytest.raises(TransmissionError, match=message):
        TransmissionMap.from_robot(robot)
    tmap = TransmissionMap.from_robot(robot, simulated_robot=True)
    assert tmap.joint_names == tmap.actuator_names == ("j/axis1", "j/axis2")
    assert [e.status for e in tmap.entries] == ["skipped"]
    assert any(re.search(message, w) for w in tmap.warnings)


def test_a_transmission_on_a_whole_ball_joint_is_refused_one_angle_is_driven() -> None:
    """A ball joint is three coordinates (roll, pitch, yaw): a transmission naming the joint
    is refused with them named; one naming ``j/pitch`` drives that angle (reduction 10), the
    other angles get identity actuators."""
    robot = chain(("j", "ball"), transmissions=[simple("t", "j", "m")])
    message = (
        r"transmission 't' names ball joint 'j', which has 3 axes; a transmission drives one\. "
        r"Fix: name one of its axes, \['j/roll', 'j/pitch', 'j/yaw'\]\."
    )
    with pytest.raises(TransmissionError, match=message):
        TransmissionMap.from_robot(robot)
    robot = chain(("j", "ball"), transmissions=[simple("t", "j/pitch", "m", ared=10.0)])
    tmap = TransmissionMap.from_robot(robot)
    assert tmap.joint_names == ("j/roll", "j/pitch", "j/yaw")
    assert tmap.actuator_names == ("j/roll", "m", "j/yaw")
    position, _, _ = tmap.actuator_to_joint([0.0, 2.0, 0.0], [0.0] * 3, [0.0] * 3)
    np.testing.assert_allclose(position, [0.0, 0.2, 0.0], rtol=0, atol=1e-15)


def test_a_transmission_drives_one_axis_coordinate() -> None:
    """``<joint name="j/axis2">`` drives that axis through the transmission (reduction 10);
    the other axis gets an identity actuator."""
    robot = chain(("j", "universal"), transmissions=[simple("t", "j/axis2", "m", ared=10.0)])
    tmap = TransmissionMap.from_robot(robot)
    assert tmap.actuator_names == ("j/axis1", "m")
    position, _, effort = tmap.actuator_to_joint([0.0, 2.0], [0.0] * 2, [0.0, 1.0])
    np.testing.assert_allclose(position, [0.0, 0.2], rtol=0, atol=1e-15)
    np.testing.assert_allclose(effort, [0.0, 10.0], rtol=0, atol=1e-15)


def test_joint_driven_twice() -> None:
    robot = chain(
        ("j", "revolute"), transmissions=[simple("t1", "j", "m1"), simple("t2", "j", "m2")]
    )
    with pytest.raises(
        TransmissionError, match=r"joint 'j' is driven by two transmissions, 't1' and 't2'"
    ):
        TransmissionMap.from_robot(robot)


def test_actuator_used_twice() -> None:
    robot = chain(
        ("a", "revolute"),
        ("b", "revolute"),
        transmissions=[simple("t1", "a", "m"), simple("t2", "b", "m")],
    )
    with pytest.raises(
        TransmissionError,
        match=r"^actuator 'm' is used by transmissions 't1' \(joints \['a'\]\) and 't2' "
        r"\(joints \['b'\]\)\. Fix: .* renaming the actuator of 't2' to 't2/m'",
    ):
        TransmissionMap.from_robot(robot)


def test_wrong_count_for_type() -> None:
    spec = two_by_two(
        "fb",
        "transmission_interface/FourBarLinkageTransmission",
        [("a", "joint1", 1.0, 0.0)],
        [("m1", "actuator1", 1.0), ("m2", "actuator2", 1.0)],
    )
    with pytest.raises(TransmissionError, match=r"'fb' \(FourBarLinkageTransmission\) has 1 joint"):
        TransmissionMap.from_robot(chain(("a", "revolute"), transmissions=[spec]))


# ---- real-robot tolerance --------------------------------------------------------------------
def test_interface_duplicates_merged() -> None:
    ts = [
        simple("t", "j", "m", iface=(i,))
        for i in ("PositionJointInterface", "VelocityJointInterface")
    ]
    tmap = TransmissionMap.from_robot(chain(("j", "revolute"), transmissions=ts))
    assert tmap.actuator_names == ("m",)
    assert [e.status for e in tmap.entries] == ["used", "merged"]


def test_transmission_on_mimic_skipped() -> None:
    robot = chain(
        ("a", "prismatic"),
        ("b", "prismatic", mimic("a")),
        transmissions=[simple("ta", "a", "ma"), simple("tb", "b", "mb")],
    )
    tmap = TransmissionMap.from_robot(robot)
    assert tmap.actuator_names == ("ma",)
    assert tmap.entries[1].status == "skipped"


def test_non_mechanism_skipped_identity() -> None:
    robot = chain(
        ("a", "revolute"),
        transmissions=[simple("st", "a", "m", ttype="franka_hw/FrankaStateInterface")],
    )
    tmap = TransmissionMap.from_robot(robot)
    assert tmap.actuator_names == ("a",)
    assert "skipped" in tmap.warnings[0]


def test_unknown_type_on_uncommanded_joint_skipped() -> None:
    hw = HardwareComponent(
        "hw",
        "system",
        joints=(
            ComponentInfo("a", "joint", command_interfaces=(InterfaceInfo("position"),)),
            ComponentInfo("b", "joint", state_interfaces=(InterfaceInfo("position"),)),
        ),
    )
    robot = chain(
        ("a", "revolute"),
        ("b", "revolute"),
        transmissions=[simple("odd", "b", "mb", ttype="acme/Odd")],
        ros2_control=[hw],
    )
    tmap = TransmissionMap.from_robot(robot)
    assert tmap.actuator_names == ("a", "b")
    assert "unknown type 'acme/Odd'" in tmap.warnings[0]


def test_panda(robots_dir) -> None:
    tmap = TransmissionMap.from_robot(
        load(robots_dir / "panda_gazebo_ros1" / "panda_gazebo_ros1.urdf")
    )
    assert tmap.joint_names == tuple(f"panda_joint{i}" for i in range(1, 8)) + (
        "panda_finger_joint1",
    )
    assert tmap.actuator_names == tuple(f"panda_joint{i}_motor" for i in range(1, 8)) + (
        "panda_finger_joint1_motor",
    )
    statuses = [e.status for e in tmap.entries]
    assert statuses.count("merged") == 14 and statuses.count("skipped") == 3


# ---- hot path --------------------------------------------------------------------------------
def test_vectorised_matches_mechanisms(repo_dir) -> None:
    tmap = TransmissionMap.from_robot(load(repo_dir / "urdf" / "demo_arm.urdf.xacro"))
    rng = np.random.default_rng(1)
    qa, va, ta = (rng.normal(size=len(tmap.actuator_names)) for _ in range(3))
    q, v, e = tmap.actuator_to_joint(qa, va, ta)
    ai = {a: i for i, a in enumerate(tmap.actuator_names)}
    ji = {j: i for i, j in enumerate(tmap.joint_names)}
    for mech in tmap.mechanisms:
        idx = [ai[a] for a in mech.actuators]
        rq, rv, re = mech.actuator_to_joint(qa[idx], va[idx], ta[idx])
        jdx = [ji[j] for j in mech.joints]
        np.testing.assert_allclose(q[jdx], rq, rtol=1e-14, atol=1e-14)
        np.testing.assert_allclose(v[jdx], rv, rtol=1e-14, atol=1e-14)
        np.testing.assert_allclose(e[jdx], re, rtol=1e-14, atol=1e-14)
    back = tmap.joint_to_actuator(q, v, e)
    for got, want in zip(back, (qa, va, ta)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_demo_arm_names_and_ratios(repo_dir) -> None:
    tmap = TransmissionMap.from_robot(load(repo_dir / "urdf" / "demo_arm.urdf.xacro"))
    assert tmap.joint_names == (
        "base_yaw",
        "shoulder_lift",
        "elbow",
        "wrist_pitch",
        "wrist_roll",
        "left_finger_joint",
    )
    assert tmap.actuator_names == (
        "base_yaw_motor",
        "shoulder_motor",
        "elbow_motor",
        "wrist_left_motor",
        "wrist_right_motor",
        "gripper_motor",
    )
    assert tmap.follower_names == ("right_finger_joint",)
    a, _, _ = tmap.joint_to_actuator(
        np.array([0.3, 0.1, 0.2, 0.1, 0.05, 0.01]), np.zeros(6), np.zeros(6)
    )
    assert a == pytest.approx(
        [50 * (0.3 - 0.1), 100 * 0.1, 80 * (0.2 + 0.1), 30 * 0.15, 30 * 0.05, 10.0], abs=1e-12
    )


def test_nan_and_shape(repo_dir) -> None:
    tmap = TransmissionMap.from_robot(chain(("a", "revolute"), ("b", "revolute")))
    q, _, _ = tmap.joint_to_actuator(np.array([np.nan, 1.0]), np.zeros(2), np.zeros(2))
    assert np.isnan(q[0]) and q[1] == 1.0
    with pytest.raises(ValueError):
        tmap.joint_to_actuator(np.zeros(3), np.zeros(2), np.zeros(2))


def test_actuator_bounds_negative_reduction() -> None:
    robot = chain(("j", "revolute"), transmissions=[simple("t", "j", "m", ared=-50.0, offset=0.5)])
    tmap = TransmissionMap.from_robot(robot)
    lo, hi = tmap.actuator_bounds([-1.0], [2.0], "position")
    assert (lo[0], hi[0]) == (pytest.approx(-75.0), pytest.approx(75.0))
    lo, hi = tmap.actuator_bounds([-1.0], [2.0], "velocity")
    assert (lo[0], hi[0]) == (pytest.approx(-100.0), pytest.approx(50.0))
    lo, hi = tmap.actuator_bounds([-10.0], [10.0], "effort")
    assert (lo[0], hi[0]) == (pytest.approx(-0.2), pytest.approx(0.2))
    with pytest.raises(ValueError, match="interface 'jerk'"):
        tmap.actuator_bounds([0.0], [1.0], "jerk")


def test_stacked_forms_equal_tuple_api() -> None:
    robot = chain(
        ("a", "revolute"),
        ("b", "revolute"),
        ("c", "revolute"),
        ("m", "revolute", mimic("a", -2.0, 0.1)),
        transmissions=[simple("t", "a", "ma", ared=-50.0, offset=0.2)],
    )
    tmap = TransmissionMap.from_robot(robot)
    rng = np.random.default_rng(3)
    n = len(tmap.actuator_names)
    p, v, e = rng.normal(size=n), rng.normal(size=n), rng.normal(size=n)
    stacked = tmap.actuator_to_joint_stacked(p, v, e)
    assert stacked.shape == (3, len(tmap.joint_names))
    for row, ref in zip(stacked, tmap.actuator_to_joint(p, v, e)):
        np.testing.assert_array_equal(row, ref)
    f = tmap.followers_stacked(stacked)
    ref_p, ref_v, ref_e = tmap.followers(*stacked)
    np.testing.assert_array_equal(f[0], ref_p)
    np.testing.assert_array_equal(f[1], ref_v)
    assert f.shape == (3, 1) and np.isnan(f[2]).all() and np.isnan(ref_e).all()
    assert f[0, 0] == pytest.approx(-2.0 * stacked[0, 0] + 0.1, abs=1e-12)


def test_from_robot_refuses_a_world(shared_dir) -> None:
    world = load(shared_dir / "robots" / "sdf_mimic_pendulums" / "sdf_mimic_pendulums.sdf")
    with pytest.raises(
        TypeError, match=r"needs a Robot, got World with models .*Fix: pass one of them"
    ):
        TransmissionMap.from_robot(world)


def test_a_transmission_on_a_universal_joint_names_its_file_and_line(tmp_path) -> None:
    """Loaded from a file: the warning of the skipped transmission names file and line; the
    transmission on u/axis2 next to it is used (reduction 10 on that axis only)."""
    path = tmp_path / "u.sdf"
    path.write_text("""<sdf version="1.9"><model name="m"><link name="base"/><link name="arm"/>
<joint name="u" type="universal"><parent>base</parent><child>arm</child>
 <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
<transmission name="whole"><type>transmission_interface/SimpleTransmission</type>
 <joint name="u"/><actuator name="m"><mechanicalReduction>10</mechanicalReduction></actuator>
</transmission>
<transmission name="one"><type>transmission_interface/SimpleTransmission</type>
 <joint name="u/axis2"/><actuator name="m2"><mechanicalReduction>10</mechanicalReduction>
 </actuator></transmission></model></sdf>""")
    tmap = TransmissionMap.from_robot(load(path), simulated_robot=True)
    assert tmap.actuator_names == ("u/axis1", "m2")
    assert [e.status for e in tmap.entries] == ["skipped", "used"]
    assert tmap.warnings[0].startswith(
        f"transmission 'whole' ({path}:4) names universal joint 'u', which has 2 axes"
    )
    with pytest.raises(TransmissionError, match=rf"transmission 'whole' \({path}:4\)"):
        TransmissionMap.from_robot(load(path))
