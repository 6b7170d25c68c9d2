"""Several robots as one model (sdf_bridge.description.world.select_robots / combine, and
sdf_bridge.description.scope): scoped names, poses, bases, --robot arguments, their errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from several_robots import ARM_NAMES, THREE_ARMS, TWO_LINK_URDF

from sdf_bridge.description import load
from sdf_bridge.description.kinematics import joint_transform
from sdf_bridge.description.model import JointType, Pose
from sdf_bridge.description.scope import owner, scoped, unscope_robot, unscoped
from sdf_bridge.description.world import (
    Placement,
    RobotSpec,
    combine,
    load_placements,
    parse_robot_spec,
    select_robots,
)
from sdf_bridge.errors import (
    DuplicateNameError,
    InvalidValueError,
    MissingReferenceError,
    UnsupportedError,
)


def test_scoped_names_round_trip_and_world_is_shared() -> None:
    assert scoped("arm", "j1") == "arm::j1" and scoped("arm", "world") == "world"
    assert unscoped("arm", "arm::j1") == "j1" and unscoped("arm", "cart::j1") is None
    # the longest robot name owns a name (a robot "a" does not claim "a::b::j" of "a::b")
    assert owner("a::b::j", ("a", "a::b")) == "a::b" and owner("c::j", ("a",)) is None


def test_every_robot_of_a_world_becomes_one_model_of_scoped_names() -> None:
    robot = select_robots(load(THREE_ARMS))
    assert robot.robots == ARM_NAMES and robot.world == "arms"
    assert list(robot.links)[:3] == ["world", "position::base", "position::link1"]
    assert list(robot.joints) == [f"{a}::{j}" for a in ARM_NAMES for j in ("fix", "j1", "j2")]
    j1 = robot.joints["velocity::j1"]
    assert (j1.parent, j1.child) == ("velocity::base", "velocity::link1")
    # the joint to the world carries the model's world pose
    np.testing.assert_allclose(
        joint_transform(robot.joints["velocity::fix"])[:3, 3], [0, -0.5, 0.25], atol=1e-12
    )
    assert robot.gravity == (0.0, 0.0, -9.8) and [m.name for m in robot.scenery] == ["ground"]


def test_model_names_select_robots_in_their_order() -> None:
    robot = select_robots(load(THREE_ARMS), ["effort", "position"])
    assert robot.robots == ("effort", "position")
    assert [m.name for m in robot.scenery] == ["ground", "velocity"]  # the other arm: scenery
    one = select_robots(load(THREE_ARMS), ["velocity"])  # one name: that robot, as it is
    assert one.robots == () and one.name == "velocity" and "j1" in one.joints
    with pytest.raises(
        MissingReferenceError,
        match=r"world 'arms' has no model 'nope'; its models: ground, position, velocity, "
        r"effort\. Fix: give one of these names as the model",
    ):
        select_robots(load(THREE_ARMS), ["position", "nope"])


def test_a_single_robot_stays_as_it_is() -> None:
    urdf = load(TWO_LINK_URDF)
    assert select_robots(urdf) is urdf
    assert select_robots(urdf, ["twolink"]) is urdf


def test_robots_placed_beside_a_urdf_get_poses_and_bases() -> None:
    urdf = load(TWO_LINK_URDF)
    placed = [
        Placement("copy", urdf, Pose((1.0, 2.0, 0.0), (0.0, 0.0, 0.5)), "fixed"),
        Placement("loose", urdf, None, "free"),
    ]
    robot = select_robots(urdf, (), placed)
    assert robot.robots == ("twolink", "copy", "loose") and robot.world is None
    assert robot.links["copy::base"].pose == Pose((1.0, 2.0, 0.0), (0.0, 0.0, 0.5))
    fixed, free = robot.joints["copy::base__fixed"], robot.joints["loose::base__free"]
    assert (fixed.type, fixed.parent, fixed.child) == (JointType.FIXED, "world", "copy::base")
    assert fixed.origin == Pose((1.0, 2.0, 0.0), (0.0, 0.0, 0.5))  # welded where placed
    assert (free.type, free.parent, free.child) == (JointType.FLOATING, "world", "loose::base")
    assert "twolink::base__fixed" not in robot.joints  # no base given: the backend's option
    assert list(robot.links)[0] == "world"


def test_combine_refuses_clashing_or_bad_robots() -> None:
    urdf = load(TWO_LINK_URDF)
    with pytest.raises(
        DuplicateNameError,
        match=r"two robots are named 'a'\. Fix: give every robot of the simulation a distinct "
        r"name",
    ):
        combine([Placement("a", urdf), Placement("a", urdf)], name="w")
    with pytest.raises(InvalidValueError, match=r"robot name 'a::b' is empty or holds '::'"):
        combine([Placement("a::b", urdf)], name="w")
    with pytest.raises(InvalidValueError, match=r"robot 'a': base 'glued' is neither of fixed"):
        combine([Placement("a", urdf, base="glued")], name="w")
    with pytest.raises(InvalidValueError, match=r"^no robot to simulate\. Fix"):
        combine([], name="w")
    arm = select_robots(load(THREE_ARMS), ["position"])
    with pytest.raises(
        InvalidValueError,
        match=r"robot 'p' is fixed to the world by joint\(s\) \['p::fix'\]: it cannot have a "
        r"free base",
    ):
        combine([Placement("p", arm, base="free")], name="w")
    assert "p::base__fixed" not in combine([Placement("p", arm, base="fixed")], name="w").joints
    clash = TWO_LINK_URDF.replace('name="elbow"', 'name="base__free"')
    with pytest.raises(DuplicateNameError, match=r"robot 'b' already has a joint 'b::base__free'"):
        combine([Placement("b", load(clash), base="free")], name="w")


def test_robot_arguments_parse() -> None:
    assert parse_robot_spec("arm=a.urdf") == RobotSpec("arm", "a.urdf")
    assert parse_robot_spec("arm=dir/a.urdf@1,2,3,0,0,1.5:fixed") == RobotSpec(
        "arm", "dir/a.urdf", Pose((1.0, 2.0, 3.0), (0.0, 0.0, 1.5)), "fixed"
    )
    assert parse_robot_spec(" b = x.sdf:free") == RobotSpec("b", "x.sdf", None, "free")
    for text, why in (
        ("arm", "not NAME=FILE"),
        ("=a.urdf", "not NAME=FILE"),
        ("a::b=a.urdf", "the name holds '::'"),
        ("arm=a.urdf@1,2,3", r"pose '1,2,3' is not six finite numbers"),
        ("arm=a.urdf@1,2,3,x,0,0", r"pose '1,2,3,x,0,0' is not six numbers"),
        ("arm=a.urdf@1,2,3,nan,0,0", r"pose '1,2,3,nan,0,0' is not six finite numbers"),
        ("arm=@1,2,3,0,0,0", "no file"),
        (
            "arm=a.urdf@1,0,0,0,0,0:flying",
            "unknown base 'flying' after the pose: give :fixed or :free",
        ),
    ):
        with pytest.raises(
            InvalidValueError,
            match=rf"robot '{text}': {why}\. Fix: give NAME=FILE\[@x,y,z,roll,pitch,yaw\]",
        ):
            parse_robot_spec(text)


def test_placements_load_their_files(tmp_path: Path) -> None:
    (tmp_path / "arm.urdf").write_text(TWO_LINK_URDF)
    (placement,) = load_placements([f"a={tmp_path / 'arm.urdf'}@0,1,0,0,0,0"])
    assert placement.name == "a" and placement.robot.name == "twolink"
    assert placement.pose == Pose((0.0, 1.0, 0.0), (0.0, 0.0, 0.0)) and placement.base is None


def test_a_placed_world_of_several_robots_is_refused_with_its_own_fix(tmp_path: Path) -> None:
    """A ``--robot`` file is one robot: a world of three is refused, the fix not ``--model``
    (a ``--robot`` has none) but the world as the description."""
    world = tmp_path / "arms.sdf"
    world.write_text(THREE_ARMS)
    with pytest.raises(
        UnsupportedError,
        match=rf"^{world}: <world name=\"arms\">: world 'arms' holds 3 robots \(non-static "
        rf"models\): position, velocity, effort; one robot is wanted here\. Fix: give {world} "
        r"as the description \(every robot of it is run\), or a file of one robot to --robot$",
    ):
        load_placements([f"b={world}"])


def test_a_robot_alone_comes_back_under_its_own_names() -> None:
    """unscope_robot inverts the scoping: the robot's own joints, links, world joint."""
    robot = select_robots(load(THREE_ARMS))
    alone = unscope_robot(robot, "velocity")
    assert alone.name == "velocity" and alone.robots == () and alone.scenery == ()
    assert list(alone.links) == ["world", "base", "link1", "link2"]
    assert list(alone.joints) == ["fix", "j1", "j2"]
    assert (alone.joints["j2"].parent, alone.joints["j2"].child) == ("link1", "link2")
    with pytest.raises(KeyError, match=r"'nope' is not one of the robots"):
        unscope_robot(robot, "nope")


CONTACT_URDF = TWO_LINK_URDF.replace(
    "</robot>",
    '<gazebo reference="lower"><sensor name="touch" type="contact"><contact>'
    "<collision>lower_collision</collision></contact></sensor></gazebo></robot>",
).replace(
    '<link name="lower">',
    '<link name="lower"><collision><geometry><sphere radius="0.05"/></geometry></collision>',
)


def test_contact_filters_match_in_the_scoped_model_and_come_back_unscoped() -> None:
    urdf = load(CONTACT_URDF)
    combined = combine([Placement("a", urdf), Placement("b", urdf)], name="w")
    touch = {s.name: s for s in combined.sensors}["b::touch"]
    assert (touch.link, touch.params.collisions) == (
        "b::lower",
        ("lower_collision", "b::lower_collision"),
    )
    alone = unscope_robot(combined, "b")
    assert alone.sensors[0].params.collisions == ("lower_collision",)
    assert alone.sensors[0].link == "lower"
