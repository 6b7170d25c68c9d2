"""What ``sdf-bridge control`` prepares for several robots
(sdf_bridge.ros.control_command.prepare_robots; no ROS): one block, controllers file and
namespace per robot, the blocks written into the world's models or the placed robots' files,
the bridge's description parameters."""

from __future__ import annotations

from pathlib import Path

import pytest
from several_robots import ARM_NAMES, THREE_ARMS, TWO_LINK_URDF

from sdf_bridge.description import load
from sdf_bridge.errors import ConfigError
from sdf_bridge.ros.control_command import control_parser, prepare_robots, robots_bridge_argv


def _args(*argv: str):
    """``control``'s arguments on MuJoCo (several robots share one physics: the mock refuses)."""
    return control_parser().parse_args(["--backend", "mujoco", *argv])


def test_several_robots_on_the_mock_are_refused_before_anything_starts(tmp_path: Path) -> None:
    world = tmp_path / "arms.sdf"
    world.write_text(THREE_ARMS)
    args = control_parser().parse_args(["--description", str(world)])
    with pytest.raises(
        ConfigError,
        match=r"holds 3 robots \(position, velocity, effort\) and backend 'mock' does not "
        r"simulate: several robots share one physics\. Fix: backend:=mujoco, or choose one "
        r"robot with --model NAME\.$",
    ):
        prepare_robots(args, tmp_path / "work")


def test_a_world_of_three_arms_gets_a_block_and_a_namespace_per_arm(tmp_path: Path) -> None:
    world = tmp_path / "arms.sdf"
    world.write_text(THREE_ARMS)
    work = tmp_path / "work"
    robots = prepare_robots(_args("--description", str(world), "--namespace", "sim"), work)
    assert robots is not None
    assert [s.plan.namespace for s in robots.setups] == [f"sim/{a}" for a in ARM_NAMES]
    assert robots.bridge_params == {"description_file": str(work / "world.sdf"), "model": ""}
    for setup, arm in zip(robots.setups, ARM_NAMES):
        assert setup.work_dir == work / arm and setup.controllers_file.is_file()
        assert setup.offered == frozenset({"j1/position", "j2/position"})
    # the world copy: each model with its block, on its robot's topics
    combined = load(work / "world.sdf")
    for arm in ARM_NAMES:
        (block,) = combined.models[arm].ros2_control
        assert (
            dict(block.parameters)["joint_commands_topic"]
            == f"/sim/{arm}/sdf_bridge/joint_commands"
        )
    argv = robots_bridge_argv(robots, "sim")
    assert argv[argv.index("-r") + 1 : argv.index("-r") + 4] == [
        "__node:=sdf_bridge",
        "-r",
        "__ns:=/sim",
    ]
    assert f'description_file:="{work / "world.sdf"}"' in argv


def test_robots_placed_beside_a_urdf_keep_their_placement(tmp_path: Path) -> None:
    arm = tmp_path / "arm.urdf"
    arm.write_text(TWO_LINK_URDF)
    work = tmp_path / "work"
    robots = prepare_robots(
        _args("--description", str(arm), "--robot", f"b={arm}@1,0,0,0,0,0.5:fixed"), work
    )
    assert robots is not None
    assert [s.plan.namespace for s in robots.setups] == ["twolink", "b"]
    assert robots.bridge_params == {
        "description_file": str(work / "twolink" / "robot_description.urdf"),
        "model": "",
        "robots": [f"b={work / 'b' / 'robot_description.urdf'}@1.0,0.0,0.0,0.0,0.0,0.5:fixed"],
    }


def test_a_placed_xacro_robot_gets_the_xacro_arguments_and_package_paths(tmp_path: Path) -> None:
    """``--robot`` files are read as ``run`` reads them: with ``--xacro-arg`` and
    ``--package-path`` (a newcomer's Kinova Gen3 xacro failed with "package not found")."""
    package = tmp_path / "parts"
    (package / "urdf").mkdir(parents=True)
    (package / "urdf" / "arm.xacro").write_text(TWO_LINK_URDF)  # (its root's children included)
    robot = tmp_path / "placed.urdf.xacro"
    robot.write_text(
        '<robot name="$(arg name)" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:arg name="name" default="unset"/>'
        '<xacro:include filename="$(find parts)/urdf/arm.xacro"/></robot>'
    )
    arm = tmp_path / "arm.urdf"
    arm.write_text(TWO_LINK_URDF)
    robots = prepare_robots(
        _args(
            "--description",
            str(arm),
            "--robot",
            f"b={robot}@1,0,0,0,0,0:fixed",
            "--xacro-arg",
            "name:=placed",
            "--package-path",
            f"parts={package}",
        ),
        tmp_path / "work",
    )
    assert robots is not None
    assert [s.plan.namespace for s in robots.setups] == ["twolink", "b"]
    placed = (tmp_path / "work" / "b" / "robot_description.urdf").read_text()
    assert '<joint name="shoulder"' in placed and '<joint name="elbow"' in placed


def test_one_robot_is_the_single_robot_path(tmp_path: Path) -> None:
    world = tmp_path / "arms.sdf"
    world.write_text(THREE_ARMS)
    assert prepare_robots(_args("--description", str(world), "--model", "effort"), tmp_path) is None
    arm = tmp_path / "arm.urdf"
    arm.write_text(TWO_LINK_URDF)
    assert prepare_robots(_args("--description", str(arm)), tmp_path) is None


def test_an_included_robot_cannot_get_a_block(tmp_path: Path) -> None:
    (tmp_path / "cart.sdf").write_text(
        '<sdf version="1.9"><model name="cart"><link name="a"/><link name="b"/><joint '
        'name="axle" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz>'
        "</axis></joint></model></sdf>"
    )
    world = tmp_path / "w.sdf"
    world.write_text(
        THREE_ARMS.replace("</world>", "<include><uri>cart.sdf</uri></include></world>")
    )
    with pytest.raises(
        ConfigError,
        match=r"robot 'cart' of .*w\.sdf is not an inline <model> of its <world> \(an "
        r"<include>\?\).* Fix: write the model 'cart' into the world file\.",
    ):
        prepare_robots(_args("--description", str(world)), tmp_path / "work")
