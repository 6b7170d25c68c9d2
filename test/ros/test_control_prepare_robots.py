"""What ``sdf-bridge control`` prepares for several robots
(sdf_bridge.ros.control_command.prepare_robots; no ROS): one block, controllers file and
namespace per robot, the blocks written into the world's models or the placed robots' files,
the bridge's description parameters."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from several_robots import ARM_NAMES, THREE_ARMS, TWO_LINK_URDF, included_arms

from sdf_bridge.description import load
from sdf_bridge.errors import ConfigError, MissingReferenceError
from sdf_bridge.ros.control_command import (
    absolute_uris,
    control_parser,
    prepare_robots,
    robots_bridge_argv,
)


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


def test_included_robots_get_their_blocks_in_their_includes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two copies of one model by ``<include>`` (``model://`` and a relative path, each with
    its ``<name>``/``<pose>``): each gets its block inside its include of the world copy,
    which the bridge reads as the model's; the include names its file absolutely."""
    world = included_arms(tmp_path)
    models = tmp_path / "models"
    monkeypatch.setenv("GZ_SIM_RESOURCE_PATH", str(models))
    work = tmp_path / "work"
    robots = prepare_robots(_args("--description", str(world)), work)
    assert robots is not None
    assert [s.plan.namespace for s in robots.setups] == ["left", "right"]
    assert robots.bridge_params == {"description_file": str(work / "world.sdf"), "model": ""}
    copy = (work / "world.sdf").read_text()
    assert copy.count(f"<uri>{models / 'arm' / 'model.sdf'}</uri>") == 2
    combined = load(work / "world.sdf")
    for name, y in (("left", 0.3), ("right", -0.3)):
        robot = combined.models[name]
        (block,) = robot.ros2_control
        assert dict(block.parameters)["joint_commands_topic"] == (
            f"/{name}/sdf_bridge/joint_commands"
        )
        assert [j.name for j in block.joints] == ["j1", "j2"]
        assert robot.pose.xyz == (0.0, y, 0.25)
    # the included file keeps no block: the copy's include carries it
    assert load(models / "arm" / "model.sdf").ros2_control == ()


def test_an_include_that_resolves_nowhere_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sdf_bridge.description.sdf.includes import ENV_VARS

    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    world = included_arms(tmp_path)  # (model://arm with no search path)
    with pytest.raises(MissingReferenceError, match=r"include 'model://arm' not found"):
        prepare_robots(_args("--description", str(world)), tmp_path / "work")


def test_a_relative_mesh_uri_of_the_world_is_made_absolute(tmp_path: Path) -> None:
    (tmp_path / "wall.stl").write_text("solid w\nendsolid w\n")
    world = etree.fromstring(
        "<world><model name='m'><link name='l'><visual name='v'><geometry><mesh>"
        "<uri>wall.stl</uri></mesh></geometry></visual><visual name='w'><geometry><mesh>"
        "<uri>model://x/y.stl</uri></mesh></geometry></visual><visual name='z'><geometry>"
        "<mesh><uri>absent.stl</uri></mesh></geometry></visual></link></model></world>"
    )
    absolute_uris(world, tmp_path)
    assert [u.text for u in world.iter("uri")] == [
        str(tmp_path / "wall.stl"),
        "model://x/y.stl",
        "absent.stl",
    ]


def test_a_world_file_of_any_suffix_is_read_as_a_world(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Gazebo classic names worlds ``*.world``: the blocks go into its copy as for ``.sdf``."""
    world = included_arms(tmp_path)
    renamed = world.with_suffix(".world")
    world.rename(renamed)
    monkeypatch.setenv("GZ_SIM_RESOURCE_PATH", str(tmp_path / "models"))
    work = tmp_path / "work"
    robots = prepare_robots(_args("--description", str(renamed)), work)
    assert robots is not None
    assert [s.plan.namespace for s in robots.setups] == ["left", "right"]
    assert (work / "world.sdf").read_text().count("<ros2_control") == 2
