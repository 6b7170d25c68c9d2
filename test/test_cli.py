"""Tests of sdf_bridge.cli (``sdf-bridge check|info|convert|run|demo``)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from sdf_bridge import cli
from sdf_bridge.errors import TransmissionError

ROBOT = """<?xml version="1.0"?>
<robot name="cli_bot">
  <link name="base"/><link name="arm"/><link name="tool"/>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.5" rpy="0 0 1"/><axis xyz="0 0 1"/>
    <limit lower="-1.5" upper="1.5" effort="20" velocity="2"/></joint>
  <joint name="mount" type="fixed"><parent link="arm"/><child link="tool"/></joint>
  <gazebo reference="tool"><sensor name="cam" type="camera"><update_rate>30</update_rate><topic>image</topic></sensor></gazebo>
</robot>
"""


@pytest.fixture
def robot_file(tmp_path: Path) -> Path:
    path = tmp_path / "cli_bot.urdf"
    path.write_text(ROBOT)
    return path


def test_check_prints_summary_and_succeeds(robot_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", str(robot_file)]) == 0
    out = capsys.readouterr().out
    assert "robot: cli_bot (urdf)" in out
    assert "links: 3  joints: 2 (fixed 1, revolute 1)  movable: 1" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("shoulder"))
    assert row.split() == ["shoulder", "revolute", "base", "->", "arm", "-1.5", "1.5", "2", "20",
                           "position,velocity,effort", "position,velocity,effort", "-"]
    mount = next(line for line in out.splitlines() if line.strip().startswith("mount"))
    assert mount.split()[-3:] == ["-", "-", "-"]
    cam = next(line for line in out.splitlines() if line.strip().startswith("cam"))
    assert cam.split() == ["cam", "camera", "tool", "30", "image"]
    assert "problems: none" in out


def test_check_error_exits_1_without_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.urdf"
    path.write_text(ROBOT.replace('<child link="tool"/>', '<child link="ghost"/>'))
    assert cli.main(["check", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(f"error: {path}:7: <joint name=\"mount\">: child link 'ghost' of joint 'mount' does not exist")
    assert "Traceback" not in captured.err
    assert captured.out == ""


def test_check_ros2_control_interfaces(cases_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", str(cases_dir / "009-fixed-joint-stays-fixed" / "robot.urdf")]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.strip().startswith("arm_joint"))
    assert row.split()[-3:] == ["position", "position", "-"]
    tool = next(line for line in out.splitlines() if line.strip().startswith("tool_mount"))
    assert tool.split()[-3:] == ["-", "-", "-"]


def test_json_output(robot_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", str(robot_file), "--json"]) == 0
    model = json.loads(capsys.readouterr().out)
    assert model["name"] == "cli_bot"
    assert list(model["joints"]) == ["shoulder", "mount"]
    shoulder = model["joints"]["shoulder"]
    assert shoulder["type"] == "revolute"
    assert shoulder["origin"] == {"xyz": [0.0, 0.0, 0.5], "rpy": [0.0, 0.0, 1.0]}
    assert shoulder["limit"]["lower"] == -1.5 and shoulder["limit"]["stiffness"] is None
    assert model["sensors"][0]["link"] == "tool"


def test_xacro_args_and_package_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "part.xacro").write_text('<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="part"/></robot>')
    path = tmp_path / "r.urdf.xacro"
    path.write_text('<robot name="x" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                    '<xacro:include filename="$(find my_pkg)/part.xacro"/><link name="$(arg prefix)base"/>'
                    '<joint name="j" type="fixed"><parent link="$(arg prefix)base"/><child link="part"/></joint></robot>')
    assert cli.main(["check", str(path), "--xacro-arg", "prefix:=left_", "--package-path", f"my_pkg={pkg}"]) == 0
    out = capsys.readouterr().out
    assert "left_base -> part" in out


def test_bad_option_syntax_is_a_usage_error(robot_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", str(robot_file), "--xacro-arg", "novalue"]) == 2
    assert "--xacro-arg must look like name:=value" in capsys.readouterr().err


def test_info_has_no_problems_section(robot_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["info", str(robot_file)]) == 0
    out = capsys.readouterr().out
    assert "robot: cli_bot" in out and "\nproblems" not in out


def _fake_report(monkeypatch: pytest.MonkeyPatch, func) -> None:  # noqa: ANN001
    module = types.ModuleType("sdf_bridge.transmissions.report")
    module.describe_transmissions = func
    monkeypatch.setitem(sys.modules, "sdf_bridge.transmissions.report", module)


TRANS = ROBOT.replace("</robot>", """<transmission name="t1"><type>transmission_interface/SimpleTransmission</type>
  <joint name="shoulder"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
  <actuator name="m1"><mechanicalReduction>50</mechanicalReduction></actuator></transmission></robot>""")


def test_transmissions_listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _fake_report(monkeypatch, lambda robot: [{
        "name": "t1", "type": "transmission_interface/SimpleTransmission", "dialect": "classic",
        "joints": [{"name": "shoulder", "role": "joint1", "reduction": 1.0, "offset": 0.0}],
        "actuators": [{"name": "m1", "role": "actuator1", "reduction": 50.0}],
        "effective": "joint = actuator / 50", "notes": ["reduction from the actuator side"]}])
    path = tmp_path / "t.urdf"
    path.write_text(TRANS)
    assert cli.main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "t1 (transmission_interface/SimpleTransmission, classic): joint = actuator / 50" in out
    assert "actuator m1 role=actuator1 reduction=50" in out
    assert "note: reduction from the actuator side" in out


def test_transmission_error_is_a_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    def broken(robot):  # noqa: ANN001, ANN202
        raise TransmissionError("transmission 't1': reduction 0 is not allowed")

    _fake_report(monkeypatch, broken)
    path = tmp_path / "t.urdf"
    path.write_text(TRANS)
    assert cli.main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "problems (1):\n  transmission 't1': reduction 0 is not allowed" in out


def test_convert_delegates_with_contract_arguments(robot_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {}
    module = types.ModuleType("sdf_bridge.description.export")

    def convert_command(args):  # noqa: ANN001, ANN202
        seen.update(vars(args))
        return 0

    module.convert_command = convert_command
    monkeypatch.setitem(sys.modules, "sdf_bridge.description.export", module)
    assert cli.main(["convert", str(robot_file), "-o", "out.sdf", "--lump-fixed", "--xacro-arg", "a:=1"]) == 0
    assert seen["source"] == str(robot_file) and seen["output"] == "out.sdf"
    assert seen["to"] == "sdf" and seen["lump_fixed"] is True and seen["xacro_args"] == {"a": "1"}
    assert cli.main(["convert", str(robot_file), "--to", "urdf"]) == 0
    assert seen["to"] == "urdf" and seen["output"] is None and seen["lump_fixed"] is False


@pytest.mark.parametrize("command, func", [("run", "run_command"), ("demo", "demo_command")])
def test_run_and_demo_get_raw_argv(monkeypatch: pytest.MonkeyPatch, command: str, func: str) -> None:
    calls = []
    module = types.ModuleType("sdf_bridge.ros.main")
    setattr(module, "run_command", lambda argv: calls.append(("run", argv)) or 0)
    setattr(module, "demo_command", lambda argv: calls.append(("demo", argv)) or 3)
    monkeypatch.setitem(sys.modules, "sdf_bridge.ros.main", module)
    import sdf_bridge.ros as ros_pkg

    monkeypatch.setattr(ros_pkg, "main", module, raising=False)
    argv = ["robot.urdf", "--backend", "mock", "--ros-args", "-p", "rate:=100"]
    assert cli.main([command, *argv]) == (0 if command == "run" else 3)
    assert calls == [(command, argv)]


def test_missing_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    assert "usage: sdf-bridge" in capsys.readouterr().err


def test_to_jsonable_handles_non_finite() -> None:
    assert cli.to_jsonable({"a": (1.0, float("inf"))}) == {"a": [1.0, "inf"]}


def test_check_shared_robot_with_real_transmission_report(robots_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = robots_dir / "rrbot_transmissions" / "rrbot_transmissions.urdf"
    assert cli.main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "links: 5  joints: 4 (continuous 2, fixed 2)  movable: 2  transmissions: 2  ros2_control: 1" in out
    assert "    joint joint1 role=joint1 reduction=2 offset=0\n" in out
    assert "    joint joint2 role=joint2 reduction=4 offset=0\n" in out
    assert "    actuator actuator1 role=actuator1 reduction=-\n" in out
    assert "problems: none" in out


def test_check_sdf_world_or_model(robots_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = robots_dir / "sdf_joint_complete" / "sdf_joint_complete.sdf"
    assert cli.main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "(sdf 1.6)" in out and "joints: 9" in out


def test_json_of_a_world_has_models_by_name(robots_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = robots_dir / "sdf_mimic_pendulums" / "sdf_mimic_pendulums.sdf"
    assert cli.main(["check", str(path), "--json"]) == 0
    world = json.loads(capsys.readouterr().out)
    assert list(world["models"]) == ["ground_plane", "pendulum_with_base", "pendulum_with_base_mimic_slow_follows_fast",
                                     "pendulum_with_base_mimic_fast_follows_slow"]
    assert sum(len(model["links"]) for model in world["models"].values()) == 10  # robots/INDEX.md
    assert sum(1 for model in world["models"].values() for joint in model["joints"].values() if joint["mimic"]) == 2


def test_json_load_error_exits_1_with_message_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.urdf"
    path.write_text(ROBOT.replace('<child link="tool"/>', '<child link="ghost"/>'))
    assert cli.main(["check", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"error: {path}:7: <joint name=\"mount\">: child link 'ghost'")


def test_json_transmission_problem_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    def broken(robot):  # noqa: ANN001, ANN202
        raise TransmissionError("transmission 't1': reduction 0 is not allowed")

    _fake_report(monkeypatch, broken)
    path = tmp_path / "t.urdf"
    path.write_text(TRANS)
    assert cli.main(["check", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["transmissions"][0]["name"] == "t1"
    assert captured.err == "error: transmission 't1': reduction 0 is not allowed\n"
    assert cli.main(["info", str(path), "--json"]) == 0  # info reports, it does not judge


def test_sdf_path_option_finds_model_includes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    models = tmp_path / "models"
    (models / "wheel").mkdir(parents=True)
    (models / "wheel" / "model.config").write_text(
        "<model><name>wheel</name><sdf version='1.9'>model.sdf</sdf></model>")
    (models / "wheel" / "model.sdf").write_text('<sdf version="1.9"><model name="wheel"><link name="hub"/></model></sdf>')
    path = tmp_path / "cart.sdf"
    path.write_text('<sdf version="1.9"><model name="cart"><link name="body"/>'
                    "<include><uri>model://wheel</uri></include></model></sdf>")
    assert cli.main(["check", str(path)]) == 1
    assert "include 'model://wheel' not found" in capsys.readouterr().err
    assert cli.main(["check", str(path), "--sdf-path", str(models)]) == 0
    assert "links: 2  joints: 0" in capsys.readouterr().out
