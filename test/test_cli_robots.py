"""``sdf-bridge check --robot`` and worlds of several robots: the summary says the names are
scoped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from several_robots import THREE_ARMS, TWO_LINK_URDF, included_arms

from sdf_bridge import cli

NOTE = (
    "robots: {names}: simulated together in one physics, each robot's joints, links, sensors "
    "and actuators scoped under its name ({first}::<name>), so that no two robots' names can "
    "clash"
)


def test_check_of_a_world_of_several_robots_says_names_are_scoped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    world = tmp_path / "arms.sdf"
    world.write_text(THREE_ARMS)
    assert cli.main(["check", str(world)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[:2] == [
        "world: arms (4 models; scenery, static: ground)",
        NOTE.format(names="position, velocity, effort", first="position"),
    ]
    robots = [line for line in lines if line.startswith("robot: ")]
    assert [r.split()[1] for r in robots] == ["position", "velocity", "effort"]  # not the ground


def test_check_with_robots_summarises_the_simulation_of_them_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arm = tmp_path / "arm.urdf"
    arm.write_text(TWO_LINK_URDF)
    assert cli.main(["check", str(arm), "--robot", f"b={arm}@1,0,0,0,0,0:fixed"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(NOTE.format(names="twolink, b", first="twolink") + "\n\nrobot: twolink")
    joints = [
        line.split()[0] for line in out.splitlines() if line.startswith("  ") and "::" in line
    ]
    assert joints == [
        "twolink::shoulder",
        "twolink::elbow",
        "b::shoulder",
        "b::elbow",
        "b::base__fixed",
    ]
    assert cli.main(["info", str(arm), "--robot", f"b={arm}", "--json"]) == 0
    model = json.loads(capsys.readouterr().out)
    assert model["robots"] == ["twolink", "b"] and "b::elbow" in model["joints"]


def test_check_with_a_bad_robot_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arm = tmp_path / "arm.urdf"
    arm.write_text(TWO_LINK_URDF)
    assert cli.main(["check", str(arm), "--robot", "twolink=" + str(arm)]) == 1
    assert capsys.readouterr().err == (
        f"error: {arm}: two robots are named 'twolink'. Fix: give every robot of the simulation "
        "a distinct name (--robot NAME=FILE)\n"
    )
    assert cli.main(["check", str(arm), "--robot", "b=x.urdf@1,2"]) == 1
    assert capsys.readouterr().err.startswith("error: robot 'b=x.urdf@1,2': pose '1,2' is not")


def test_ros2_control_of_an_included_robot_writes_its_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ros2-control --model NAME`` on a robot placed by ``<include>`` (its ``<name>``): the
    robot alone with the block on its joints, as for an inline model."""
    from sdf_bridge.description import load

    world = included_arms(tmp_path)
    monkeypatch.setenv("GZ_SIM_RESOURCE_PATH", str(tmp_path / "models"))
    out = tmp_path / "right.urdf"
    assert cli.main(["ros2-control", str(world), "--model", "right", "-o", str(out)]) == 0
    robot = load(out)
    (block,) = robot.ros2_control
    assert robot.name == "right"
    assert [(j.name, [c.name for c in j.command_interfaces]) for j in block.joints] == [
        ("j1", ["position", "velocity", "effort"]),
        ("j2", ["position", "velocity", "effort"]),
    ]


def test_ros2_control_of_a_world_of_several_robots_asks_for_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ros2-control`` writes one robot's block: a world of three without ``--model`` is one
    error naming ``--model`` and that ``run`` / ``control`` drive every robot; nothing is
    written."""
    world = tmp_path / "arms.sdf"
    world.write_text(THREE_ARMS)
    out = tmp_path / "x.urdf"
    assert cli.main(["ros2-control", str(world), "-o", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"error: {world}: <world name=\"arms\">: world 'arms' holds 3 robots (non-static "
        "models): position, velocity, effort; one robot is wanted here. Fix: choose it with "
        "--model NAME (sdf-bridge convert and ros2-control write one robot; sdf-bridge run "
        "and control drive every robot of the world, or those named by --model)\n"
    )
    assert not out.exists()
    assert cli.main(["ros2-control", str(world), "--model", "velocity", "-o", str(out)]) == 0
    assert out.is_file()
