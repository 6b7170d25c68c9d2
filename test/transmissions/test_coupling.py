"""Followers: mimic (case 005, chains, cycles), SDF gearbox and screw."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sdf_bridge.description import load
from sdf_bridge.description.model import Axis, Joint, JointType, Link, Mimic, Robot
from sdf_bridge.errors import TransmissionError
from sdf_bridge.transmissions import TransmissionMap
from sdf_bridge.transmissions.coupling import build_followers

from .builders import chain, mimic


@pytest.mark.parametrize(
    ("q", "v", "fq", "fv"),
    [(0.0, 0.0, 0.3, 0.0), (0.5, 0.2, -0.2, -0.2), (-0.2, -0.1, 0.5, 0.1)],
)
def test_case_005(cases_dir, q: float, v: float, fq: float, fv: float) -> None:
    tmap = TransmissionMap.from_robot(load(cases_dir / "005-mimic-offset-dropped" / "robot.urdf"))
    assert tmap.joint_names == ("jaw_a",)
    assert tmap.follower_names == ("jaw_b",)
    pos, vel, eff = tmap.followers(np.array([q]), np.array([v]), np.array([0.0]))
    assert pos[0] == pytest.approx(fq, abs=1e-9)
    assert vel[0] == pytest.approx(fv, abs=1e-9)
    assert np.isnan(eff[0])


@pytest.mark.parametrize("order", [("a", "b", "c"), ("c", "b", "a"), ("b", "c", "a")])
def test_chain_any_order(order: tuple[str, ...]) -> None:
    specs = {
        "a": ("a", "revolute"),
        "b": ("b", "revolute", mimic("a", 2.0, 0.1)),  # b = 2a + 0.1
        "c": ("c", "revolute", mimic("b", -3.0, 0.5)),  # c = -3b + 0.5 = -6a + 0.2
    }
    tmap = TransmissionMap.from_robot(chain(*(specs[k] for k in order)))
    assert tmap.joint_names == ("a",)
    f = {x.name: x for x in tmap.followers_info}
    assert (f["c"].leader, f["c"].multiplier, f["c"].offset) == (
        "a",
        -6.0,
        pytest.approx(0.2, abs=1e-15),
    )
    pos, vel, _ = tmap.followers(np.array([1.0]), np.array([1.0]), np.array([0.0]))
    got = dict(zip(tmap.follower_names, zip(pos, vel)))
    assert got["b"] == pytest.approx((2.1, 2.0), abs=1e-14)
    assert got["c"] == pytest.approx((-5.8, -6.0), abs=1e-14)


def test_cycle_rejected() -> None:
    robot = chain(("a", "revolute", mimic("b")), ("b", "revolute", mimic("a")))
    with pytest.raises(TransmissionError, match=r"mimic cycle a → b → a.*Fix"):
        TransmissionMap.from_robot(robot)


def test_missing_leader() -> None:
    with pytest.raises(TransmissionError, match=r"joint 'b'.*mimics 'zz', which does not exist"):
        TransmissionMap.from_robot(chain(("a", "revolute"), ("b", "revolute", mimic("zz"))))


def test_fixed_leader() -> None:
    with pytest.raises(TransmissionError, match=r"mimics 'a', a fixed joint"):
        TransmissionMap.from_robot(chain(("a", "fixed"), ("b", "revolute", mimic("a"))))


def test_nonfinite_multiplier() -> None:
    with pytest.raises(TransmissionError, match="mimic multiplier inf is not finite"):
        TransmissionMap.from_robot(
            chain(("a", "revolute"), ("b", "revolute", mimic("a", math.inf)))
        )


def _gear_pair(**gearbox) -> Robot:
    """SDFormat's pattern: base→gear1 and base→gear2 revolute, gearbox gear1→gear2."""
    links = {n: Link(n) for n in ("base", "gear1", "gear2")}
    joints = {
        "j1": Joint("j1", JointType.REVOLUTE, "base", "gear1", axis=Axis((0.0, 0.0, 1.0))),
        "j2": Joint("j2", JointType.REVOLUTE, "base", "gear2", axis=Axis((0.0, 0.0, 1.0))),
        "gear": Joint(
            "gear", JointType.GEARBOX, "gear1", "gear2", axis=Axis((0.0, 0.0, 1.0)), **gearbox
        ),
    }
    return Robot("gears", links=links, joints=joints)


def test_gearbox_closing_a_loop_couples_the_second_joint_and_publishes_itself() -> None:
    """θ₂ = −3·θ₁ for j2; the gearbox's own state θ₂ − θ₁ = −4·θ₁ (exact)."""
    tmap = TransmissionMap.from_robot(_gear_pair(gearbox_ratio=3.0, gearbox_reference_body="base"))
    assert tmap.joint_names == ("j1",)
    assert tmap.follower_names == ("j2", "gear")
    assert [(f.leader, f.multiplier, f.kind) for f in tmap.followers_info] == [
        ("j1", -3.0, "gearbox"),
        ("j1", -4.0, "gearbox"),
    ]
    pos, vel, effort = tmap.followers(np.array([0.5]), np.array([2.0]), np.array([1.0]))
    assert pos.tolist() == [-1.5, -2.0] and vel.tolist() == [-6.0, -8.0]
    assert np.isnan(effort).all()


def test_gearbox_as_the_childs_only_joint_publishes_its_angle() -> None:
    """Tree form: gear1→gear2 is gear2's only joint; its angle to gear1 is −(ratio + 1)·θ₁."""
    robot = _gear_pair(gearbox_ratio=2.0, gearbox_reference_body="base")
    joints = {k: v for k, v in robot.joints.items() if k != "j2"}
    tmap = TransmissionMap.from_robot(Robot("g", links=robot.links, joints=joints))
    assert tmap.joint_names == ("j1",) and tmap.follower_names == ("gear",)
    pos, vel, _ = tmap.followers(np.array([0.25]), np.array([1.0]), np.array([0.0]))
    assert (pos[0], vel[0]) == (-0.75, -3.0)


def test_gearbox_without_reference_closing_a_loop_is_not_simulated() -> None:
    followers, names, warnings = build_followers(_gear_pair())
    assert followers == [] and names == []
    assert warnings == [
        "gearbox joint 'gear': reference body None is not joined by a 1-DOF joint to its parent "
        "link 'gear1'; not simulated (not coupled; it closes a loop)"
    ]
    assert TransmissionMap.from_robot(_gear_pair()).joint_names == ("j1", "j2")  # (loop)


def test_gearbox_and_mimic_on_same_joint() -> None:
    robot = _gear_pair(gearbox_ratio=2.0, gearbox_reference_body="base")
    joints = dict(robot.joints)
    joints["j2"] = Joint(
        "j2", JointType.REVOLUTE, "base", "gear2", axis=Axis((0.0, 0.0, 1.0)), mimic=Mimic("j1")
    )
    with pytest.raises(TransmissionError, match=r"joint 'j2' is coupled twice"):
        TransmissionMap.from_robot(Robot("g", links=robot.links, joints=joints))


@pytest.mark.parametrize(
    ("pitch", "unit", "per_rad"),
    [(0.004, "m/rev", 0.004 / (2 * math.pi)), (20.0, "rad/m", -1.0 / 20.0)],
)
def test_screw_translation(pitch: float, unit: str, per_rad: float) -> None:
    robot = chain(("s", "screw", {"thread_pitch": pitch, "thread_pitch_unit": unit}))
    tmap = TransmissionMap.from_robot(robot)
    assert tmap.joint_names == ("s",)
    assert tmap.follower_names == ("s/translation",)
    pos, vel, _ = tmap.followers(np.array([2 * math.pi]), np.array([1.0]), np.array([0.0]))
    assert pos[0] == pytest.approx(per_rad * 2 * math.pi, rel=1e-12)
    assert vel[0] == pytest.approx(per_rad, rel=1e-12)


def test_screw_zero_legacy_pitch() -> None:
    robot = chain(("s", "screw", {"thread_pitch": 0.0, "thread_pitch_unit": "rad/m"}))
    with pytest.raises(TransmissionError, match="<thread_pitch> is 0 rad/m"):
        TransmissionMap.from_robot(robot)


def test_sdf_joint_complete(robots_dir) -> None:
    tmap = TransmissionMap.from_robot(
        load(robots_dir / "sdf_joint_complete" / "sdf_joint_complete.sdf")
    )
    # ball, universal, revolute2 by their coordinates; the gearbox without reference body a
    # plain hinge; fixed out
    assert tmap.joint_names == (
        "revolute_joint",
        "ball_joint/roll",
        "ball_joint/pitch",
        "ball_joint/yaw",
        "continuous_joint",
        "gearbox_joint",
        "prismatic_joint",
        "revolute2_joint/axis1",
        "revolute2_joint/axis2",
        "screw_joint",
        "universal_joint/axis1",
        "universal_joint/axis2",
    )
    assert tmap.follower_names == ("screw_joint/translation",)
    f = tmap.followers_info[0]
    assert f.multiplier == pytest.approx(-1.0 / 20.0, rel=1e-12)  # legacy <thread_pitch>20


def test_sdf_mimic_world(robots_dir) -> None:
    world = load(robots_dir / "sdf_mimic_pendulums" / "sdf_mimic_pendulums.sdf")
    followers = {}
    for model in world.models.values():
        tmap = TransmissionMap.from_robot(model)
        followers.update({f.name: (f.leader, f.multiplier) for f in tmap.followers_info})
    assert sorted(v for v in followers.values()) == [("fast_joint", 1.0), ("slow_joint", 1.0)]


def test_followers_have_no_command() -> None:
    robot = chain(("a", "prismatic"), ("b", "prismatic", mimic("a", -1.0)))
    tmap = TransmissionMap.from_robot(robot)
    assert "b" not in tmap.joint_names and "b" not in tmap.actuator_names
    assert robot.joints["b"].type is JointType.PRISMATIC


#: f2 mimics axis2 of the universal joint u, f1 its axis1 (SDFormat 1.11 ``//mimic/@axis``).
MIMIC_OF_AXES = """<sdf version="1.11"><model name="m"><link name="a"/><link name="b"/>
  <link name="c"/><link name="d"/>
  <joint name="u" type="universal"><parent>a</parent><child>b</child>
    <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
  <joint name="f2" type="revolute"><parent>b</parent><child>c</child><axis><xyz>0 0 1</xyz>
    <mimic joint="u" axis="axis2"><multiplier>2</multiplier><offset>0.1</offset></mimic>
    </axis></joint>
  <joint name="f1" type="revolute"><parent>c</parent><child>d</child><axis><xyz>0 0 1</xyz>
    <mimic joint="u" axis="axis"><multiplier>-1</multiplier><offset>0</offset></mimic>
    </axis></joint></model></sdf>"""


def test_a_mimic_follows_the_axis_of_a_two_axis_leader() -> None:
    """SDFormat 1.11 ``<mimic joint="u" axis="axis2">``: the follower follows u/axis2 (2·q + 0.1),
    ``axis="axis"`` u/axis1 (MuJoCo: test_multiaxis)."""
    tmap = TransmissionMap.from_robot(load(MIMIC_OF_AXES))
    assert tmap.joint_names == ("u/axis1", "u/axis2")
    assert [(f.name, f.leader, f.multiplier, f.offset) for f in tmap.followers_info] == [
        ("f2", "u/axis2", 2.0, 0.1),
        ("f1", "u/axis1", -1.0, 0.0),
    ]
