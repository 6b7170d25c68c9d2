"""sdf_bridge.ros.command_line: the ``sdf-bridge`` executable hands ``run``/``demo``/``control``
to the ROS modules with their raw arguments, everything else to the ROS-free
:func:`sdf_bridge.cli.main`; a missing ROS 2 package is a one-line error with the fix."""

from __future__ import annotations

import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from sdf_bridge import cli
from sdf_bridge.ros import command_line

REPO = Path(__file__).resolve().parents[2]
ARGV = ["robot.urdf", "--backend", "mock", "--ros-args", "-p", "rate:=100"]


def _fake_ros_main(monkeypatch: pytest.MonkeyPatch, **functions) -> None:
    """Put a module with ``functions`` in the place of sdf_bridge.ros.main."""
    module = types.ModuleType("sdf_bridge.ros.main")
    for name, function in functions.items():
        setattr(module, name, function)
    monkeypatch.setitem(sys.modules, "sdf_bridge.ros.main", module)
    import sdf_bridge.ros as ros_pkg

    monkeypatch.setattr(ros_pkg, "main", module, raising=False)


def _fake_control_command(monkeypatch: pytest.MonkeyPatch, module: types.ModuleType) -> None:
    monkeypatch.setitem(sys.modules, "sdf_bridge.ros.control_command", module)
    import sdf_bridge.ros as ros_pkg

    monkeypatch.setattr(ros_pkg, "control_command", module, raising=False)


def test_the_console_script_is_this_main() -> None:
    """setup.py's ``sdf-bridge`` entry point names :func:`command_line.main`."""
    (target,) = re.findall(r'"sdf-bridge = ([\w.]+):(\w+)"', (REPO / "setup.py").read_text())
    assert target == ("sdf_bridge.ros.command_line", "main")


def test_the_ros_commands_are_the_ones_the_help_lists() -> None:
    assert cli.ROS_COMMANDS == frozenset({"run", "control", "demo"})


@pytest.mark.parametrize("command", ["run", "demo"])
def test_run_and_demo_get_raw_argv(monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    calls = []
    _fake_ros_main(
        monkeypatch,
        run_command=lambda argv: calls.append(("run", argv)) or 0,
        demo_command=lambda argv: calls.append(("demo", argv)) or 3,
    )
    assert command_line.main([command, *ARGV]) == (0 if command == "run" else 3)
    assert calls == [(command, ARGV)]


def test_control_gets_raw_argv(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    module = types.ModuleType("sdf_bridge.ros.control_command")
    module.control_command = lambda argv: calls.append(argv) or 4
    _fake_control_command(monkeypatch, module)
    assert command_line.main(["control", *ARGV]) == 4
    assert calls == [ARGV]


def test_a_ctrl_c_while_control_imports_is_a_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """``sdf-bridge control`` installs its stop handlers when its module loads: a Ctrl-C before
    that (during the imports) ends it with 0, as a Ctrl-C after it does."""
    module = types.ModuleType("sdf_bridge.ros.control_command")

    def interrupted(name: str):
        raise KeyboardInterrupt

    module.__getattr__ = interrupted  # the import of control_command is interrupted
    _fake_control_command(monkeypatch, module)
    assert command_line.main(["control"]) == 0


@pytest.mark.parametrize("command", ["run", "demo", "control"])
@pytest.mark.parametrize("missing", ["rclpy", "sensor_msgs.msg", "rclpy._rclpy_pybind11"])
def test_a_ros_command_without_ros_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str, missing: str
) -> None:
    def fail(argv):
        raise ModuleNotFoundError(f"No module named {missing!r}", name=missing)

    _fake_ros_main(monkeypatch, run_command=fail, demo_command=fail)
    module = types.ModuleType("sdf_bridge.ros.control_command")
    module.control_command = fail
    _fake_control_command(monkeypatch, module)
    assert command_line.main([command]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"error: sdf-bridge {command} needs ROS 2, but Python module {missing!r} is not installed. "
        "Fix: pip install ros-rclpy ros-rmw-fastrtps-cpp "
    )
    assert "source a ROS 2 installation" in err and err.count("\n") == 1


def test_other_import_errors_are_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(argv):
        raise ModuleNotFoundError("No module named 'numpyy'", name="numpyy")

    _fake_ros_main(monkeypatch, run_command=fail)
    with pytest.raises(ModuleNotFoundError, match="numpyy"):
        command_line.main(["run"])


@pytest.mark.parametrize(
    ("name", "ros"),
    [
        ("rclpy", True),
        ("rclpy._rclpy_pybind11", True),
        ("rmw_fastrtps_cpp", True),
        ("rosidl_runtime_py.utilities", True),
        ("ament_index_python", True),
        ("sensor_msgs.msg", True),
        ("std_srvs", True),
        ("simulation_interfaces.srv", True),
        ("numpy", False),
        ("sdf_bridge.hardware.command_interfaces", False),
        ("", False),
        (None, False),
    ],
)
def test_is_ros_module(name: str | None, ros: bool) -> None:
    assert command_line.is_ros_module(name) is ros


def test_description_commands_go_to_the_ros_free_front_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """check, --help and usage errors: what :func:`sdf_bridge.cli.main` prints and returns."""
    path = tmp_path / "one.urdf"
    path.write_text(
        '<robot name="one"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
        '<parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
        "</joint></robot>"
    )
    for argv, code in (
        (["check", str(path)], 0),
        (["--help"], 0),
        ([], 2),
        (["nonsense"], 2),
        (["check", str(tmp_path / "absent.urdf")], 1),
    ):
        assert command_line.main(argv) == code, argv
        through_executable = capsys.readouterr()
        assert cli.main(argv) == code, argv
        assert capsys.readouterr() == through_executable, argv
    assert command_line.main(["--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for command in ("check", "info", "convert", "ros2-control", "run", "control", "demo"):
        assert f" {command} " in out, command
    assert "run the bridge node on a description (needs ROS 2;" in out


def test_the_executable_hands_run_over_before_importing_the_library() -> None:
    """``sdf-bridge run`` starts the bridge process, whose entry point installs the
    SIGINT/SIGTERM handlers first thing (sdf_bridge.ros.main): importing the executable and
    that entry point loads no library (a Ctrl-C during a second of imports was a traceback)."""
    probe = (
        "import sys, sdf_bridge.ros.command_line, sdf_bridge.ros.main; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('numpy', 'lxml', 'yaml', 'xacro', 'mujoco', 'rclpy', 'argparse', 'json') "
        "or m.startswith('sdf_bridge.')))"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert run.stdout.strip() == str(
        [
            "sdf_bridge.cli",
            "sdf_bridge.errors",
            "sdf_bridge.ros",
            "sdf_bridge.ros.command_line",
            "sdf_bridge.ros.main",
        ]
    )
