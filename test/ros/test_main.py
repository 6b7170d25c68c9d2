"""sdf_bridge.ros.main: command-line → ROS arguments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sdf_bridge.ros.main import run_ros_args, split_ros_args


def test_split_ros_args() -> None:
    assert split_ros_args(["--backend", "mock", "--ros-args", "-p", "a:=1"]) == (
        ["--backend", "mock"], ["--ros-args", "-p", "a:=1"])
    assert split_ros_args(["--backend", "mock"]) == (["--backend", "mock"], [])


def test_run_options_become_parameters(tmp_path: Path) -> None:
    f = tmp_path / "r.urdf"
    args = run_ros_args(["--description", str(f), "--backend", "mujoco", "--xacro-arg", "a:=1",
                         "--xacro-arg", "b:=true", "--update-rate", "500", "--publish-rate", "100",
                         "--ros-args", "-r", "__ns:=/x"])
    assert args == [
        "--ros-args",
        "-p", f"description_file:={json.dumps(str(f.resolve()))}",
        "-p", 'backend:="mujoco"',
        "-p", 'xacro_args:=["a:=1", "b:=true"]',
        "-p", "update_rate:=500.0",
        "-p", "publish_rate:=100.0",
        "--ros-args", "-r", "__ns:=/x",
    ]
    assert run_ros_args([]) == []


def test_package_paths_and_model_become_parameters(tmp_path: Path) -> None:
    args = run_ros_args(["--package-path", f"my_robot={tmp_path}", "--package-path", "arm=rel/arm",
                         "--model", "bot"])
    packages = [f"my_robot={tmp_path.resolve()}", f"arm={Path('rel/arm').resolve()}"]
    assert args == ["--ros-args", "-p", f"package_paths:={json.dumps(packages)}", "-p", 'model:="bot"']


def test_package_path_typo_gets_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run_ros_args(["--package-path", "my_robot:=src/my_robot"])
    assert ("--package-path: package path 'my_robot:=src/my_robot' uses ':=', the form of xacro arguments. Fix: "
            "write my_robot=src/my_robot (one '=')") in capsys.readouterr().err


def test_bad_xacro_arg_exits(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run_ros_args(["--xacro-arg", "nope"])
    assert "--xacro-arg 'nope' is not of the form name:=value" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("ros_args", "match"),
    [
        (["-p", "update_rate:=-5.0"], r"invalid parameter: .*update_rate out of range"),
        (["-p", "update_rate:=100.0", "-p", "publish_rate:=500.0"], r"publish_rate 500.0 Hz is not in \(0, update_rate=100.0\]"),
        (["-p", "backend:=no_such_backend"], r"no_such_backend"),
        (["-p", "update_rate:=200"], r"INTEGER.*decimal point \(e\.g\. update_rate:=200\.0, not 200\)"),
    ],
)
def test_bad_parameters_exit_1_with_the_fix(ros_args: list[str], match: str,
                                            caplog: pytest.LogCaptureFixture) -> None:
    """A configuration error ends ``main`` with exit code 1 and one error message (no traceback)."""
    import re

    from sdf_bridge.ros.main import main

    with caplog.at_level("ERROR", logger="sdf_bridge"):
        assert main(["bridge", "--ros-args", *ros_args]) == 1
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and re.search(match, errors[0]), errors


class _StoppedWhileStarting:
    """A BridgeNode stand-in whose construction meets a signal: the context is shut down (as
    rclpy's SIGINT handler does) and the next rcl call raises."""

    def __init__(self) -> None:
        import rclpy

        rclpy.shutdown()
        raise RuntimeError("Failed to create publisher: rcl node's context is invalid")


class _BrokenWhileStarting:
    def __init__(self) -> None:
        raise RuntimeError("a real failure")


def test_a_signal_while_starting_is_a_clean_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGINT/SIGTERM during the node's construction (its loop may already publish) makes the
    next rcl call fail on the shut-down context: a clean stop, exit code 0. The same error
    with the context still up is a failure and propagates."""
    from sdf_bridge.ros import main as main_module
    from sdf_bridge.ros import node as node_module

    monkeypatch.setattr(node_module, "BridgeNode", _StoppedWhileStarting)
    assert main_module.main(["bridge"]) == 0
    monkeypatch.setattr(node_module, "BridgeNode", _BrokenWhileStarting)
    with pytest.raises(RuntimeError, match="a real failure"):
        main_module.main(["bridge"])
