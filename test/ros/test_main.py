"""sdf_bridge.ros.main: command-line → ROS arguments."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from sdf_bridge.ros.main import run_ros_args, split_ros_args


def test_split_ros_args() -> None:
    assert split_ros_args(["--backend", "mock", "--ros-args", "-p", "a:=1"]) == (
        ["--backend", "mock"],
        ["--ros-args", "-p", "a:=1"],
    )
    assert split_ros_args(["--backend", "mock"]) == (["--backend", "mock"], [])


def test_run_options_become_parameters(tmp_path: Path) -> None:
    f = tmp_path / "r.urdf"
    args = run_ros_args(
        [
            "--description",
            str(f),
            "--backend",
            "mujoco",
            "--xacro-arg",
            "a:=1",
            "--xacro-arg",
            "b:=true",
            "--update-rate",
            "500",
            "--publish-rate",
            "100",
            "--ros-args",
            "-r",
            "__ns:=/x",
        ]
    )
    assert args == [
        "--ros-args",
        "-p",
        f"description_file:={json.dumps(str(f.resolve()))}",
        "-p",
        'backend:="mujoco"',
        "-p",
        'xacro_args:=["a:=1", "b:=true"]',
        "-p",
        "update_rate:=500.0",
        "-p",
        "publish_rate:=100.0",
        "--ros-args",
        "-r",
        "__ns:=/x",
    ]
    assert run_ros_args([]) == []


def test_package_paths_and_model_become_parameters(tmp_path: Path) -> None:
    args = run_ros_args(
        [
            "--package-path",
            f"my_robot={tmp_path}",
            "--package-path",
            "arm=rel/arm",
            "--model",
            "bot",
        ]
    )
    packages = [f"my_robot={tmp_path.resolve()}", f"arm={Path('rel/arm').resolve()}"]
    assert args == [
        "--ros-args",
        "-p",
        f"package_paths:={json.dumps(packages)}",
        "-p",
        'model:="bot"',
    ]


def test_package_path_typo_gets_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run_ros_args(["--package-path", "my_robot:=src/my_robot"])
    assert (
        "--package-path: package path 'my_robot:=src/my_robot' uses ':=', the form of xacro "
        "arguments. Fix: write my_robot=src/my_robot (one '=')"
    ) in capsys.readouterr().err


def test_bad_xacro_arg_exits(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run_ros_args(["--xacro-arg", "nope"])
    assert "--xacro-arg 'nope' is not of the form name:=value" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("ros_args", "match"),
    [
        (["-p", "update_rate:=-5.0"], r"invalid parameter: .*update_rate out of range"),
        (
            ["-p", "update_rate:=100.0", "-p", "publish_rate:=500.0"],
            r"publish_rate 500.0 Hz is not in \(0, update_rate=100.0\]",
        ),
        (["-p", "backend:=no_such_backend"], r"no_such_backend"),
        (
            ["-p", "update_rate:=200"],
            r"INTEGER.*decimal point \(e\.g\. update_rate:=200\.0, not 200\)",
        ),
        (
            ["-p", "start_paused:=true"],
            r"start_paused is true but backend 'mock' does not simulate\. Fix: use a "
            r"simulating backend \(mujoco\)",
        ),
        (["-p", "odom_frame:=''"], r"odom_frame is empty\. Fix: give the odometry frame's name"),
    ],
)
def test_bad_parameters_exit_1_with_the_fix(
    ros_args: list[str], match: str, own_signal_handlers: None, caplog: pytest.LogCaptureFixture
) -> None:
    """A configuration error ends ``main`` with exit code 1 and one error message (no traceback)."""
    import re

    from sdf_bridge.ros.main import main

    with caplog.at_level("ERROR", logger="sdf_bridge"):
        assert main(["bridge", "--ros-args", *ros_args]) == 1
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and re.search(match, errors[0]), errors


@pytest.fixture
def own_signal_handlers() -> Iterator[None]:
    """main() is the process's entry: it installs its SIGINT/SIGTERM handlers and leaves the
    signals ignored. Run in this process, the test's handlers are put back afterwards."""
    saved = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    yield
    for signum, handler in saved.items():
        signal.signal(signum, handler)


class _SignalledWhileStarting:
    """A BridgeNode stand-in that gets SIGINT and SIGTERM while it is being built."""

    def __init__(self) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5.0)  # the first signal's handler raises StopRequested in here
        raise AssertionError("the signal did not stop the start-up")


class _BrokenWhileStarting:
    def __init__(self) -> None:
        raise RuntimeError("a real failure")


def _running_node(on_timer: Callable[[Any], None], signals_at_shutdown: int = 0) -> type:
    """A BridgeNode stand-in (a real rclpy node): ``on_timer(node)`` after 0.2 s of spinning;
    ``signals_at_shutdown`` SIGINT/SIGTERM sent to the process while it shuts down."""
    from rclpy.node import Node

    class Running(Node):
        def __init__(self) -> None:
            super().__init__("main_test_node")
            self.config = SimpleNamespace(thread_priority=0)
            self.failure = None
            self.shut_down = False
            self.create_timer(0.2, lambda: on_timer(self))

        def shutdown(self) -> None:
            for k in range(signals_at_shutdown):
                os.kill(os.getpid(), (signal.SIGINT, signal.SIGTERM)[k % 2])
                time.sleep(0.05)
            self.shut_down = True

    return Running


def test_signals_while_starting_are_a_clean_stop(
    monkeypatch: pytest.MonkeyPatch, own_signal_handlers: None
) -> None:
    """The first signal while the node is built abandons the start-up (exit code 0), the next
    ones are only noted; a real failure still propagates."""
    from sdf_bridge.ros import main as main_module
    from sdf_bridge.ros import node as node_module

    monkeypatch.setattr(node_module, "BridgeNode", _SignalledWhileStarting)
    assert main_module.main(["bridge"]) == 0
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # until the process exits
    monkeypatch.setattr(node_module, "BridgeNode", _BrokenWhileStarting)
    with pytest.raises(RuntimeError, match="a real failure"):
        main_module.main(["bridge"])


def test_signals_while_running_and_shutting_down_are_a_clean_stop(
    monkeypatch: pytest.MonkeyPatch, own_signal_handlers: None
) -> None:
    """A signal while the node spins ends the spin; four more while it shuts down change
    nothing: the shutdown runs to its end and the exit code is 0."""
    from sdf_bridge.ros import main as main_module
    from sdf_bridge.ros import node as node_module

    built: list[Any] = []

    def on_timer(node: Any) -> None:
        built.append(node)
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(node_module, "BridgeNode", _running_node(on_timer, signals_at_shutdown=4))
    assert main_module.main(["bridge"]) == 0
    assert built and built[0].shut_down


def test_a_configuration_error_found_while_running_exits_1(
    monkeypatch: pytest.MonkeyPatch, own_signal_handlers: None, caplog: pytest.LogCaptureFixture
) -> None:
    """A configuration error the node finds after start-up (the description arrived on the
    topic) ends the process: exit code 1 and the error as one line."""
    from sdf_bridge.errors import ConfigError
    from sdf_bridge.ros import main as main_module
    from sdf_bridge.ros import node as node_module

    def on_timer(node: Any) -> None:
        node.failure = ConfigError(
            "joints parameter: 'nope' is not an actuated joint. Fix: list joints from ['a']."
        )

    monkeypatch.setattr(node_module, "BridgeNode", _running_node(on_timer))
    with caplog.at_level("ERROR", logger="sdf_bridge"):
        assert main_module.main(["bridge"]) == 1
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert errors == [
        "joints parameter: 'nope' is not an actuated joint. Fix: list joints from ['a']."
    ]


def test_models_and_robots_become_parameters(tmp_path: Path) -> None:
    """--model repeats into one comma-separated model; --robot files become absolute paths."""
    args = run_ros_args(["--model", "a", "--model", "b", "--robot", "c=c@1,2,3,0,0,0:fixed"])
    robot = f"c={Path('c').resolve()}@1,2,3,0,0,0:fixed"
    assert args == ["--ros-args", "-p", 'model:="a,b"', "-p", f"robots:={json.dumps([robot])}"]


def test_a_bad_robot_argument_exits(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run_ros_args(["--robot", "c"])
    assert "--robot: robot 'c': not NAME=FILE. Fix: give NAME=FILE[@x,y,z" in (
        capsys.readouterr().err
    )
