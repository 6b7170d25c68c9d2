"""Tests of sdf_bridge.cli (``sdf-bridge check|info|convert|ros2-control``, and the help that
lists ``run|control|demo``, which test/ros/test_command_line.py tests)."""

from __future__ import annotations

import json
import subprocess
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
  <gazebo reference="tool"><sensor name="cam" type="camera"><update_rate>30</update_rate>
    <topic>image</topic></sensor></gazebo>
</robot>
"""


@pytest.fixture
def robot_file(tmp_path: Path) -> Path:
    path = tmp_path / "cli_bot.urdf"
    path.write_text(ROBOT)
    return path


def test_check_prints_summary_and_succeeds(
    robot_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["check", str(robot_file)]) == 0
    out = capsys.readouterr().out
    assert "robot: cli_bot (urdf)" in out
    assert "links: 3  joints: 2 (fixed 1, revolute 1)  movable: 1" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("shoulder"))
    assert row.split() == [
        "shoulder",
        "revolute",
        "base",
        "->",
        "arm",
        "-1.5",
        "1.5",
        "2",
        "20",
        "position,velocity,effort",
        "position,velocity,effort",
        "position,velocity,effort",
    ]
    mount = next(line for line in out.splitlines() if line.strip().startswith("mount"))
    assert mount.split()[-7:] == ["-"] * 7
    cam = next(line for line in out.splitlines() if line.strip().startswith("cam"))
    assert cam.split() == [
        "cam",
        "camera",
        "tool",
        "30",
        "<gazebo>",
        "image/image_raw",
        "(sensor_msgs/Image);",
        "image/camera_info",
        "(sensor_msgs/CameraInfo)",
    ]
    assert "problems: none" in out


def test_check_shows_zero_velocity_and_effort_limits_as_not_limited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``<limit effort="0" velocity="0">`` is the common "unknown" placeholder, which the bridge's
    limiter reads as "not limited": check says so instead of showing a limit of 0."""
    path = tmp_path / "zero.urdf"
    path.write_text(ROBOT.replace('effort="20" velocity="2"', 'effort="0" velocity="0"'))
    assert cli.main(["check", str(path)]) == 0
    row = next(
        line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("shoulder")
    )
    assert row.split()[5:11] == ["-1.5", "1.5", "not", "limited", "(0)", "not"]


def test_check_refuses_absurd_magnitudes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mass of 1e308 kg parses as a number but no simulator can use it: check exits 1 with
    the loader's one-line error (no longer "problems: none")."""
    path = tmp_path / "heavy.urdf"
    path.write_text(
        ROBOT.replace(
            '<link name="arm"/>',
            '<link name="arm"><inertial><mass value="1e308"/>'
            '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>',
        )
    )
    assert cli.main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"error: {path}:3: <link name=\"arm\">: the mass of link 'arm' is 1e308, beyond the bound "
        "1e6 kg"
    )


def test_check_error_exits_1_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.urdf"
    path.write_text(ROBOT.replace('<child link="tool"/>', '<child link="ghost"/>'))
    assert cli.main(["check", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(
        f"error: {path}:7: <joint name=\"mount\">: child link 'ghost' of joint 'mount' does not "
        "exist"
    )
    assert "Traceback" not in captured.err
    assert captured.out == ""


def test_check_ros2_control_interfaces(cases_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", str(cases_dir / "009-fixed-joint-stays-fixed" / "robot.urdf")]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.strip().startswith("arm_joint"))
    # joint_states carries all three
    assert row.split()[-3:] == [
        "position",
        "position",
        "position,velocity,effort",
    ]
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
    (pkg / "part.xacro").write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="part"/></robot>'
    )
    path = tmp_path / "r.urdf.xacro"
    path.write_text(
        '<robot name="x" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:include '
        'filename="$(find my_pkg)/part.xacro"/><link name="$(arg prefix)base"/><joint '
        'name="j" type="fixed"><parent link="$(arg prefix)base"/><child link="part"/></joint>'
        "</robot>"
    )
    assert (
        cli.main(
            ["check", str(path), "--xacro-arg", "prefix:=left_", "--package-path", f"my_pkg={pkg}"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "left_base -> part" in out


def test_bad_option_syntax_is_a_usage_error(
    robot_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["check", str(robot_file), "--xacro-arg", "novalue"]) == 2
    assert (
        "argument --xacro-arg: 'novalue' is not of the form name:=value with a non-empty name; "
        "write e.g. --xacro-arg prefix:=left_"
    ) in capsys.readouterr().err


@pytest.mark.parametrize("command", ["check", "info", "convert"])
@pytest.mark.parametrize("bad", [":=x", "name=value", " :=x"])
def test_xacro_arg_needs_colon_equals_and_a_name_like_run(
    robot_file: Path, capsys: pytest.CaptureFixture[str], command: str, bad: str
) -> None:
    from sdf_bridge.app.launch_args import parse_xacro_args
    from sdf_bridge.errors import ConfigError

    with pytest.raises(ConfigError, match="is not of the form name:=value"):  # the rule of `run`
        parse_xacro_args([bad])
    assert cli.main([command, str(robot_file), "--xacro-arg", bad]) == 2
    assert (
        f"argument --xacro-arg: {bad!r} is not of the form name:=value" in capsys.readouterr().err
    )


def test_xacro_arg_value_may_be_empty_or_contain_colon_equals() -> None:
    assert cli.xacro_arg("prefix:=") == ("prefix", "")
    assert cli.xacro_arg("expr:=a:=b") == ("expr", "a:=b")


def test_info_has_no_problems_section(robot_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["info", str(robot_file)]) == 0
    out = capsys.readouterr().out
    assert "robot: cli_bot" in out and "\nproblems" not in out


def _fake_report(monkeypatch: pytest.MonkeyPatch, func) -> None:
    module = types.ModuleType("sdf_bridge.transmissions.report")
    module.describe_transmissions = func
    monkeypatch.setitem(sys.modules, "sdf_bridge.transmissions.report", module)


TRANS = ROBOT.replace(
    "</robot>",
    """<transmission name="t1"><type>transmission_interface/SimpleTransmission</type>
  <joint name="shoulder"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
  <actuator name="m1"><mechanicalReduction>50</mechanicalReduction></actuator></transmission>
    </robot>""",
)


def test_transmissions_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fake_report(
        monkeypatch,
        lambda robot: [
            {
                "name": "t1",
                "type": "transmission_interface/SimpleTransmission",
                "dialect": "classic",
                "joints": [{"name": "shoulder", "role": "joint1", "reduction": 1.0, "offset": 0.0}],
                "actuators": [{"name": "m1", "role": "actuator1", "reduction": 50.0}],
                "effective": "joint = actuator / 50",
                "notes": ["reduction from the actuator side"],
            }
        ],
    )
    path = tmp_path / "t.urdf"
    path.write_text(TRANS)
    assert cli.main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "  t1 (transmission_interface/SimpleTransmission, classic dialect)\n"
        "    effective: joint = actuator / 50\n"
        "    joint shoulder: role joint1, joint-side reduction 1, offset 0\n"
        "    actuator m1: role actuator1, actuator-side reduction 50\n"
    ) in out
    assert "note: reduction from the actuator side" in out


def test_transmission_error_is_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(robot):
        raise TransmissionError("transmission 't1': reduction 0 is not allowed")

    _fake_report(monkeypatch, broken)
    path = tmp_path / "t.urdf"
    path.write_text(TRANS)
    assert cli.main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "problems (1):\n  transmission 't1': reduction 0 is not allowed" in out


def test_convert_delegates_with_contract_arguments(
    robot_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = {}
    module = types.ModuleType("sdf_bridge.description.export")

    def convert_command(args):
        seen.update(vars(args))
        return 0

    module.convert_command = convert_command
    monkeypatch.setitem(sys.modules, "sdf_bridge.description.export", module)
    assert (
        cli.main(
            ["convert", str(robot_file), "-o", "out.sdf", "--lump-fixed", "--xacro-arg", "a:=1"]
        )
        == 0
    )
    assert seen["source"] == str(robot_file) and seen["output"] == "out.sdf"
    assert seen["to"] == "sdf" and seen["lump_fixed"] is True and seen["xacro_args"] == {"a": "1"}
    assert cli.main(["convert", str(robot_file), "--to", "urdf"]) == 0
    assert seen["to"] == "urdf" and seen["output"] is None and seen["lump_fixed"] is False


@pytest.mark.parametrize("command", ["run", "control", "demo"])
def test_ros_commands_are_the_executables_not_this_front_end(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """The ROS-free front end lists run/control/demo but refuses to run them (exit 2), naming
    the executable that does; it imports nothing of sdf_bridge.ros for that."""
    assert cli.main([command, "--description", "robot.urdf"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"error: sdf-bridge {command} needs ROS 2: the sdf-bridge executable runs it "
        f"(sdf_bridge.ros.command_line; python -m sdf_bridge.ros.command_line {command} ...), "
        "not sdf_bridge.cli. An sdf-bridge executable that prints this was installed from an "
        "older setup.py: reinstall the package (pip install -e ., or bash .ci/setup).\n"
    )


def test_missing_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    assert "usage: sdf-bridge" in capsys.readouterr().err


def test_to_jsonable_handles_non_finite() -> None:
    assert cli.to_jsonable({"a": (1.0, float("inf"))}) == {"a": [1.0, "inf"]}


def test_check_shared_robot_with_real_transmission_report(
    robots_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = robots_dir / "rrbot_transmissions" / "rrbot_transmissions.urdf"
    assert cli.main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "links: 5  joints: 4 (continuous 2, fixed 2)  movable: 2  transmissions: 2  ros2_control: 1"
        in out
    )
    assert "    joint joint1: role joint1, joint-side reduction 2, offset 0\n" in out
    assert "    joint joint2: role joint2, joint-side reduction 4, offset 0\n" in out
    assert "    actuator actuator1: role actuator1, actuator-side reduction not given\n" in out
    assert "problems: none" in out


def test_check_sdf_world_or_model(robots_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = robots_dir / "sdf_joint_complete" / "sdf_joint_complete.sdf"
    assert cli.main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "(sdf 1.6)" in out and "joints: 9" in out


def test_json_of_a_world_has_models_by_name(
    robots_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = robots_dir / "sdf_mimic_pendulums" / "sdf_mimic_pendulums.sdf"
    assert cli.main(["check", str(path), "--json"]) == 0
    world = json.loads(capsys.readouterr().out)
    assert list(world["models"]) == [
        "ground_plane",
        "pendulum_with_base",
        "pendulum_with_base_mimic_slow_follows_fast",
        "pendulum_with_base_mimic_fast_follows_slow",
    ]
    assert sum(len(model["links"]) for model in world["models"].values()) == 10  # robots/INDEX.md
    assert (
        sum(
            1
            for model in world["models"].values()
            for joint in model["joints"].values()
            if joint["mimic"]
        )
        == 2
    )


def test_json_load_error_exits_1_with_message_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.urdf"
    path.write_text(ROBOT.replace('<child link="tool"/>', '<child link="ghost"/>'))
    assert cli.main(["check", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"error: {path}:7: <joint name=\"mount\">: child link 'ghost'")


def test_json_transmission_problem_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(robot):
        raise TransmissionError("transmission 't1': reduction 0 is not allowed")

    _fake_report(monkeypatch, broken)
    path = tmp_path / "t.urdf"
    path.write_text(TRANS)
    assert cli.main(["check", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["transmissions"][0]["name"] == "t1"
    assert captured.err == "error: transmission 't1': reduction 0 is not allowed\n"
    assert cli.main(["info", str(path), "--json"]) == 0  # info reports, it does not judge


def test_sdf_path_option_finds_model_includes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models = tmp_path / "models"
    (models / "wheel").mkdir(parents=True)
    (models / "wheel" / "model.config").write_text(
        "<model><name>wheel</name><sdf version='1.9'>model.sdf</sdf></model>"
    )
    (models / "wheel" / "model.sdf").write_text(
        '<sdf version="1.9"><model name="wheel"><link name="hub"/></model></sdf>'
    )
    path = tmp_path / "cart.sdf"
    path.write_text(
        '<sdf version="1.9"><model name="cart"><link name="body"/>'
        "<include><uri>model://wheel</uri></include></model></sdf>"
    )
    assert cli.main(["check", str(path)]) == 1
    assert "include 'model://wheel' not found" in capsys.readouterr().err
    assert cli.main(["check", str(path), "--sdf-path", str(models)]) == 0
    assert "links: 2  joints: 0" in capsys.readouterr().out


# -- newcomer findings ------------------------------------------------------------------------


def test_misspelt_reduction_skips_the_transmission_instead_of_defaulting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The transmission is left out, never read with a default 1.0: check says so (warning,
    worked-around problem) and exits 0, as a simulated robot runs; a real driver refuses it."""
    path = tmp_path / "t.urdf"
    path.write_text(TRANS.replace("mechanicalReduction>", "mechanicalReducton>"))
    assert cli.main(["check", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "transmissions: 0" in captured.out
    assert captured.out.endswith(
        f"\nwarnings (1):\n  {path}:10: transmission 't1' skipped: unknown element "
        "<mechanicalReducton> in <actuator name=\"m1\"> of transmission 't1'; did you mean "
        "<mechanicalReduction>? (line 12). Fix: rename <mechanicalReducton> to "
        "<mechanicalReduction>\n\nproblems (1):\n  (worked around) transmission 't1' "
        f"({path}:10) left out: a simulated robot runs without it, a real actuator's driver "
        "refuses the robot\n"
    )


def test_warnings_are_printed_once(robot_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    robot_file.write_text(ROBOT.replace("</robot>", "<oddity/></robot>"))
    assert cli.main(["check", str(robot_file)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert captured.out.count("unknown element <oddity>") == 1
    assert (
        f"\nwarnings (1):\n  {robot_file}:10: <oddity>: unknown element <oddity> in <robot "
        'name="cli_bot"> ignored\n' in captured.out
    )
    assert cli.main(["check", str(robot_file), "--json"]) == 0
    captured = capsys.readouterr()
    assert (
        captured.err == f"warning: {robot_file}:10: <oddity>: unknown element <oddity> in <robot "
        'name="cli_bot"> ignored\n'
    )


def test_ros2_control_sensors_are_counted_and_listed(
    robots_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        cli.main(["check", str(robots_dir / "rrbot_external_fts" / "rrbot_external_fts.urdf")]) == 0
    )
    out = capsys.readouterr().out
    assert "ros2_control: 2  sensors: 1 (1 in <ros2_control>)\n" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("tcp_fts_sensor"))
    assert row.split()[:7] == [
        "tcp_fts_sensor",
        "ros2_control",
        "tool_link",
        "-",
        "<ros2_control",
        'name="ExternalRRBotFTSensor">',
        "(force.x,force.y,force.z,torque.x,torque.y,torque.z)",
    ]
    assert row.endswith(
        "state interfaces only (mock backend); MuJoCo simulates none (warned at start)"
    )


def test_unbuildable_transmission_is_worked_around_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.urdf"
    path.write_text(
        TRANS.replace(
            "transmission_interface/SimpleTransmission",
            "transmission_interface/DifferentialTransmission",
        )
    )
    assert cli.main(["check", str(path)]) == 0  # the simulating backends run without it
    out = capsys.readouterr().out
    assert out.endswith(
        f"problems (1):\n  (worked around) {path}:10: transmission 't1' "
        "(DifferentialTransmission) has 1 joint(s) and 1 actuator(s); the type needs 2 joint(s) "
        "and 2 actuator(s). Fix: give exactly that many <joint> and <actuator> entries, or use "
        "another transmission type. Skipped: a simulated robot runs without it (its joints "
        "driven directly); a real actuator's driver refuses it.\n"
    )


def test_unknown_transmission_type_is_shown_skipped_and_check_succeeds(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The built-in backends run it (they simulate the robot: identity actuators), so the exit
    status is 0 and the transmission is listed as skipped with the loader's reason."""
    path = data_dir / "made_up_transmission.urdf"
    assert cli.main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "  head_trans (my_vendor/MadeUpTransmission, classic dialect)\n"
        "    effective: skipped (identity)\n" in out
    )
    assert (
        f"    note: transmission 'head_trans' ({path}:31) has unknown type "
        "'my_vendor/MadeUpTransmission'; skipped: its joints ['head_1_joint', 'head_2_joint'] "
        "are driven directly in joint space as gazebo_ros_control does; its actuators "
        "['head_1_motor', 'head_2_motor'] are not modelled (identity actuators named like the "
        "joints; a backend driving real actuators refuses it). For its real math, install a "
        "plug-in type registered under 'my_vendor/MadeUpTransmission' in the "
        "'sdf_bridge.transmissions' entry-point group (doc/user/extending.md)\n" in out
    )
    assert "\nproblems: none\n" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("head_2_joint"))
    # the bridge takes all three; the generated block offers what <hardwareInterface> declares
    assert row.split()[-3:] == ["position,velocity,effort", "position", "position,velocity,effort"]


def test_follower_rows_show_the_multiplier(
    repo_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["check", str(repo_dir / "urdf" / "demo_arm.urdf.xacro")]) == 0
    out = capsys.readouterr().out
    assert (
        "  right_finger_joint (mimic, mimic dialect)\n"
        "    effective: right_finger_joint = -1 × left_finger_joint + 0.002\n"
        "    joint right_finger_joint: follower, multiplier -1, offset 0.002\n"
    ) in out


@pytest.mark.parametrize("where", ["missing_dir", "a_directory"])
def test_convert_unwritable_output_is_a_one_line_error(
    robot_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    output = tmp_path / "nope" / "out.sdf" if where == "missing_dir" else tmp_path
    assert cli.main(["convert", str(robot_file), "-o", str(output)]) == 1
    captured = capsys.readouterr()
    expected = (
        f"error: cannot write {str(output)!r}: directory {str(tmp_path / 'nope')!r} does not "
        "exist. Fix: create it or choose another -o\n"
        if where == "missing_dir"
        else f"error: output {str(output)!r} is a directory. Fix: give a file name, e.g. -o "
        f"{str(output / 'robot.sdf')}\n"
    )
    assert captured.err == expected and captured.out == ""


def test_convert_os_error_while_writing_is_a_one_line_error(
    robot_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    module = types.ModuleType("sdf_bridge.description.export")

    def convert_command(args):
        raise OSError(28, "No space left on device")

    module.convert_command = convert_command
    monkeypatch.setitem(sys.modules, "sdf_bridge.description.export", module)
    out = tmp_path / "out.sdf"
    assert cli.main(["convert", str(robot_file), "-o", str(out)]) == 1
    assert capsys.readouterr().err == f"error: cannot write {str(out)!r}: No space left on device\n"


def test_convert_writes_the_file(robot_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.sdf"
    assert cli.main(["convert", str(robot_file), "-o", str(out)]) == 0
    assert '<model name="cli_bot">' in out.read_text()


@pytest.mark.parametrize(
    "command, words",
    [
        ("check", ["validate", "effective ratio", "Exit status", "examples:"]),
        ("info", ["without judging", "example:"]),
        (
            "convert",
            [
                "write it as SDFormat (default) or URDF",
                "warning:",
                "examples:",
                "sdf-bridge convert robot.urdf.xacro -o robot.sdf",
            ],
        ),
    ],
)
def test_subcommand_help_is_informative(
    capsys: pytest.CaptureFixture[str], command: str, words: list[str]
) -> None:
    assert cli.main([command, "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for word in words:
        assert " ".join(word.split()) in out


def test_top_level_help_describes_run_and_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "run the bridge node on a description (needs ROS 2;" in out
    assert (
        "run the bridge on the demo arm, command it and print the joint states (needs ROS 2;" in out
    )


def test_check_into_a_closed_pipe_stops_quietly(robots_dir: Path) -> None:
    """`sdf-bridge check big.urdf | head -1`: no BrokenPipeError traceback, exit 0."""
    path = robots_dir / "pr2" / "pr2.urdf"
    proc = subprocess.Popen(
        [sys.executable, "-m", "sdf_bridge.cli", "check", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stdout.readline().startswith(b"robot: pr2")
    proc.stdout.close()  # the reader leaves, as `head -1` does
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()


def test_ros2_control_writes_the_topic_based_description(
    robot_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "topic.urdf"
    assert (
        cli.main(
            [
                "ros2-control",
                str(robot_file),
                "-o",
                str(out),
                "--plugin",
                "topic_based_ros2_control/TopicBasedSystem",
                "--command-interfaces",
                "velocity",
                "--joint-states-topic",
                "/arm/states",
            ]
        )
        == 0
    )
    from sdf_bridge.description import load

    (block,) = load(out).ros2_control
    assert block.plugin == "topic_based_ros2_control/TopicBasedSystem"
    assert block.param("joint_states_topic") == "/arm/states"
    assert block.param("joint_commands_topic") == "/sdf_bridge/joint_commands"
    assert [(j.name, [i.name for i in j.command_interfaces]) for j in block.joints] == [
        ("shoulder", ["velocity"])
    ]
    assert cli.main(["ros2-control", str(robot_file)]) == 0  # to standard output
    assert (
        "<plugin>joint_state_topic_hardware_interface/JointStateTopicSystem</plugin>"
        in capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--command-interfaces", "position,effort"], "are not one control mode"),
        (
            ["--plugin", "mock_components/GenericSystem"],
            "is not a topic-based ros2_control hardware interface",
        ),
        (["-o", "/"], "is a directory"),
    ],
)
def test_ros2_control_errors_exit_1(
    robot_file: Path, capsys: pytest.CaptureFixture[str], options: list, message: str
) -> None:
    assert cli.main(["ros2-control", str(robot_file), *options]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


WHAT_THE_BRIDGE_DOES = """<?xml version="1.0"?>
<sdf version="1.9"><model name="m">
  <link name="base"/><link name="in"/><link name="out"/><link name="head"/><link name="paw"/>
  <link name="finger"><inertial><mass>0.1</mass><inertia><ixx>0.002</ixx><iyy>0</iyy><izz>0</izz>
    </inertia></inertial>
  </link>
  <joint name="j_in" type="revolute"><parent>base</parent><child>in</child>
    <axis><limit><lower>-1</lower><upper>1</upper><effort>10</effort><velocity>2</velocity></limit>
      </axis></joint>
  <joint name="j_out" type="revolute"><parent>base</parent><child>out</child></joint>
  <joint name="gear" type="gearbox"><parent>in</parent><child>out</child>
    <gearbox_reference_body>base</gearbox_reference_body><gearbox_ratio>3</gearbox_ratio></joint>
  <joint name="neck" type="ball"><parent>base</parent><child>head</child></joint>
  <joint name="wrist" type="universal"><parent>head</parent><child>paw</child></joint>
  <joint name="knuckle" type="revolute"><parent>paw</parent><child>finger</child>
    <axis><limit><lower>-2</lower><upper>2</upper><effort>5</effort><velocity>1</velocity></limit>
      </axis></joint>
  <ros2_control name="hw" type="system"><hardware><plugin>p</plugin></hardware>
    <joint name="j_in"><command_interface name="position"/><command_interface name="effort">
      <param name="min">-4</param><param name="max">6</param></command_interface></joint>
    <joint name="knuckle"><command_interface name="velocity"><param name="min">-0.5</param>
      <param name="max">0.5</param></command_interface></joint>
  </ros2_control>
</model></sdf>
"""


def test_check_shows_what_the_bridge_does_with_each_joint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Enforced limits (ros2_control windows included, an asymmetric one narrowed with a
    warning), commandable interfaces, followers and unexposed joints; an inertia the bridge
    balances is a problem it works around (exit 0)."""
    path = tmp_path / "m.sdf"
    path.write_text(WHAT_THE_BRIDGE_DOES)
    assert cli.main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    rows = {
        line.split()[0]: line.split()
        for line in out.splitlines()
        if line.startswith("  ") and "->" in line
    }
    every = "position,velocity,effort"
    assert rows["j_in"][5:] == ["-1", "1", "2", "4", "position,effort", "position,effort", every]
    assert rows["knuckle"][5:] == ["-2", "2", "0.5", "5", "velocity", "velocity", every]
    assert rows["j_out"][5:] == ["-"] * 6 + [every]
    # multi-axis joints: one row per coordinate, state only (the block lists other joints)
    for name in ("neck/roll", "neck/pitch", "neck/yaw", "wrist/axis1", "wrist/axis2"):
        assert rows[name][5:] == ["-"] * 6 + [every]
    assert (
        "joint notes (followers, multi-axis joints, state-only joints, and joints the bridge "
        "simulates but does not expose):\n  j_out: follows j_in (gearbox, -3×): not commandable\n"
        "  gear: follows j_in (gearbox, -4×): not commandable\n"
        "  neck/roll: ball joint as neck/roll, neck/pitch, neck/yaw: R = Rz(yaw)·Ry(pitch)·"
        "Rx(roll) of the child in the joint frame (URDF rpy, "
        "continuous), no position limits, free while not commanded\n  wrist/axis1: universal "
        "joint as wrist/axis1 (about <axis>) and wrist/axis2 "
        "(about <axis2>, carried by axis1), each with its own limits and dynamics, free while not "
        "commanded\n"
    ) in out
    assert (
        "  neck/roll, neck/pitch, neck/yaw, wrist/axis1, wrist/axis2: state only: the "
        "<ros2_control> block(s) 'hw' list no command interface for them\n"
    ) in out
    assert (
        "  joint 'j_in': <ros2_control> effort window [-4, 6] is not symmetric; the bridge "
        "limits |effort| to 4 (±4)\n"
    ) in out
    assert (
        "problems (1):\n  (worked around) link 'finger': its principal moments (0, 0, 0.002) "
        "kg·m² break the triangle inequality (0 + 0 < 0.002)"
    ) in out


def test_the_description_as_an_option_as_run_and_control_take_it(
    robot_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``check``/``info``/``convert``/``ros2-control`` take ``--description FILE`` as well as
    the positional file: the same output; neither, or two different files, is a usage error."""
    assert cli.main(["check", str(robot_file)]) == 0
    positional = capsys.readouterr().out
    assert cli.main(["check", "--description", str(robot_file)]) == 0
    assert capsys.readouterr().out == positional
    assert cli.main(["convert", "--description", str(robot_file), "--to", "urdf"]) == 0
    assert capsys.readouterr().out.startswith("<?xml")
    assert cli.main(["info"]) == 2
    assert capsys.readouterr().err.endswith(
        "error: info: give one description file, as FILE or --description FILE\n"
    )
    assert cli.main(["ros2-control", "a.urdf", "--description", "b.urdf"]) == 2
    assert "(got ['a.urdf', 'b.urdf'])" in capsys.readouterr().err
