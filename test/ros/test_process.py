"""The bridge as users start it: ``sdf-bridge run``, the description from the
``robot_description`` topic, configuration errors, and ``sdf-bridge demo``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from child_process import ChildProcess
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from std_msgs.msg import String

from .conftest import REPO, Bridge, Probe

LATCHED = QoSProfile(
    depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL
)
CASE_ROBOT = ("013-jointstate-array-lengths", "robot.urdf")


class CliBridge(Bridge):
    """``python -m sdf_bridge.ros.command_line run ...`` as a child process."""

    def __init__(self, argv: list[str], name: str) -> None:
        self.name = name
        ChildProcess.__init__(
            self, [sys.executable, "-m", "sdf_bridge.ros.command_line", "run", *argv], cwd=REPO
        )


def test_sdf_bridge_run(probe: Probe, cases_dir: Path) -> None:
    robot = cases_dir.joinpath(*CASE_ROBOT)
    bridge = CliBridge(
        [
            "--description",
            str(robot),
            "--backend",
            "mock",
            "--update-rate",
            "50",
            "--publish-rate",
            "25",
            "--ros-args",
            "-r",
            "__ns:=/run_test",
        ],
        "run_test",
    )
    try:
        probe.watch("/run_test/joint_states", JointState)
        probe.wait_ready(bridge, "/run_test/joint_states")
        msg = probe.wait_messages("/run_test/joint_states", 3)[-1]
        assert sorted(msg.name) == ["j1", "j2", "j3"]
        probe.publisher("/run_test/joint_commands", JointState).publish(
            JointState(name=["j2"], position=[0.25])
        )
        probe.wait_for(
            lambda: (
                dict(
                    zip(
                        probe.messages["/run_test/joint_states"][-1].name,
                        probe.messages["/run_test/joint_states"][-1].position,
                    )
                )["j2"]
                == 0.25
            ),
            "j2 at 0.25 rad",
        )
    finally:
        code = bridge.stop()
    assert code == 0, bridge.output()


def test_sdf_bridge_run_resolves_packages_and_picks_a_world_model(
    probe: Probe, tmp_path: Path
) -> None:
    """``--package-path`` resolves an SDFormat world's package:// include without a ROS install,
    ``--model`` picks the robot among its several."""
    (tmp_path / "bots" / "models" / "arm").mkdir(parents=True)
    (tmp_path / "bots" / "models" / "arm" / "model.sdf").write_text(
        '<sdf version="1.9"><model name="arm"><link name="a"/><link name="b"/><joint '
        'name="elbow" type="revolute"><parent>a</parent><child>b</child></joint></model>'
        "</sdf>"
    )
    world = tmp_path / "world.sdf"
    world.write_text(
        '<sdf version="1.9"><world name="w"><include><uri>package://bots/models/arm</uri></include>'
        '<model name="cart"><link name="c"/><link name="d"/><joint name="axle" type="continuous">'
        "<parent>c</parent><child>d</child></joint></model></world></sdf>"
    )
    bridge = CliBridge(
        [
            "--description",
            str(world),
            "--package-path",
            f"bots={tmp_path / 'bots'}",
            "--model",
            "arm",
            "--ros-args",
            "-r",
            "__ns:=/pkg_test",
        ],
        "pkg_test",
    )
    try:
        probe.watch("/pkg_test/joint_states", JointState)
        probe.wait_ready(bridge, "/pkg_test/joint_states")
        assert list(probe.latest("/pkg_test/joint_states").name) == ["elbow"]
    finally:
        code = bridge.stop()
    assert code == 0, bridge.output()


def test_description_from_topic(start_bridge, probe: Probe, cases_dir: Path) -> None:
    """With use_description_topic and no description parameter the bridge waits for
    robot_description (as robot_state_publisher publishes it) and does not publish it itself."""
    xml = cases_dir.joinpath(*CASE_ROBOT).read_text()
    probe.publisher("/topic_test/robot_description", String, LATCHED).publish(String(data=xml))
    bridge = start_bridge(
        {"use_description_topic": True}, name="bridge", extra=["-r", "__ns:=/topic_test"]
    )
    probe.watch("/topic_test/joint_states", JointState)
    probe.wait_ready(bridge, "/topic_test/joint_states")
    assert sorted(probe.latest("/topic_test/joint_states").name) == ["j1", "j2", "j3"]
    publishers = probe.node.get_publishers_info_by_topic("/topic_test/robot_description")
    assert [p.node_name for p in publishers] == [probe.node.get_name()]
    assert bridge.stop() == 0, bridge.output()


def test_invalid_configuration_exits_1_with_the_fix(start_bridge, tmp_path: Path) -> None:
    bridge = start_bridge({"description_file": str(tmp_path / "missing.urdf")}, name="bad_config")
    assert bridge.process.wait(60) == 1
    out = bridge.output()
    assert "missing.urdf does not exist. Fix: give an existing file path." in out
    assert "Traceback" not in out


def test_invalid_parameter_exits_1(start_bridge) -> None:
    bridge = start_bridge({"publish_rate": 500.0, "update_rate": 100.0}, name="bad_rate")
    assert bridge.process.wait(60) == 1
    assert "publish_rate 500.0 Hz is not in (0, update_rate=100.0]" in bridge.output()


def test_cli_demo() -> None:
    """The README's "run the main job" command, shortened steps."""
    env = dict(os.environ)
    env.pop("ROS_DOMAIN_ID", None)  # the demo picks its own domain
    result = subprocess.run(
        [sys.executable, "-m", "sdf_bridge.ros.command_line", "demo", "--duration", "0.6"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for step in (
        "initial state",
        "position, SimpleTransmission joint",
        "wrist DifferentialTransmission",
        "trajectory (FourBar joints)",
        "gripper (mimic finger follows)",
    ):
        assert f"joint_states after: {step}" in out
    assert "base_yaw_motor" in out and "right_finger_joint" in out
    checks = [
        line
        for line in out.splitlines()
        if line.startswith(
            "check: actuator positions = transmissions(joint positions) of the same cycle"
        )
    ]
    assert len(checks) == 5
    assert all(float(line.split("within ")[1].split()[0]) < 1e-9 for line in checks), checks
    assert "bridge stopped (exit code 0)" in out


def test_cli_demo_mobile() -> None:
    """``sdf-bridge demo --robot mobile``: the wheel-legged robot started paused, reset, standing
    on its wheels (its weight on the contact sensors), driving at wheel velocity × radius."""
    env = dict(os.environ)
    env.pop("ROS_DOMAIN_ID", None)  # the demo picks its own domain
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sdf_bridge.ros.command_line",
            "demo",
            "--robot",
            "mobile",
            "--duration",
            "1.0",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for step in (
        "pause → reset → command → unpause",
        "=== stand",
        "=== drive",
        "=== turn",
        "=== stop",
    ):
        assert step in out, out
    share = float(out.split("weight ")[1].split("(")[1].split(" %")[0])
    assert share == pytest.approx(100.0, abs=5.0), out
    drive = out.split("=== drive")[1]
    speed = float(drive.split("speed ")[1].split(" m/s")[0])
    assert speed == pytest.approx(0.2, rel=0.02), drive
    assert "lidar: 360 rays" in out and "bridge stopped (exit code 0)" in out


def test_params_file_config_bridge_yaml(start_bridge, probe: Probe) -> None:
    """config/bridge.yaml as --params-file (its defaults: demo robot, mock, 100 Hz, 50 Hz)."""
    bridge = start_bridge(
        {},
        name="bridge",
        extra=["--params-file", str(REPO / "config" / "bridge.yaml"), "-r", "__ns:=/yaml_test"],
    )
    probe.watch("/yaml_test/joint_states", JointState)
    probe.wait_ready(bridge, "/yaml_test/joint_states")
    assert "left_finger_joint" in probe.latest("/yaml_test/joint_states").name
    assert bridge.stop() == 0, bridge.output()


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_stop_cleanly(probe: Probe, signame: str) -> None:
    """SIGTERM (what ``ros2 launch`` and systemd send) and SIGHUP (a closing terminal, a dropped
    SSH session) stop the bridge with exit code 0 and no traceback, like SIGINT."""
    import signal

    ns = f"/{signame.lower()}_test"
    bridge = Bridge(
        {"update_rate": 50.0, "publish_rate": 10.0}, name="bridge", extra=["-r", f"__ns:={ns}"]
    )
    probe.watch(f"{ns}/joint_states", JointState)
    probe.wait_ready(bridge, f"{ns}/joint_states")
    bridge.process.send_signal(getattr(signal, signame))
    try:  # the signal alone ends it (no SIGINT from stop() meanwhile)
        code = bridge.process.wait(15.0)
    finally:
        bridge.stop()
    assert code == 0, bridge.output()
    assert "Traceback" not in bridge.output(), bridge.output()
