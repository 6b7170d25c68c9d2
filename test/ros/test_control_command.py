"""``sdf-bridge control`` with the real controller_manager of the shared rig: one command brings
up the bridge, ros2_control_node and the generated controllers (no file written by hand, no
spawner), which then drive the bridge; Ctrl-C stops everything with exit 0.

* the demo arm (its own block names mock_components/GenericSystem, which is replaced): the
  status table shows the broadcaster and joint_trajectory_controller active and claiming every
  joint's position; a trajectory reaches its target exactly (mock) in the bridge's joint_states
  and the broadcaster's;
* velocity mode: forward_velocity_controller active; a velocity command moves the joints at that
  velocity;
* mode ``all``: switching at run time from joint_trajectory_controller to the forward velocity,
  effort and position controllers moves the arm each time (the bridge follows the claims: the
  trajectory's last position, which the plugin keeps sending, no longer holds the joints), and a
  command on the bridge's own input for an interface no controller claims is rejected with a
  warning;
* an arm whose classic transmission declares effort only for one joint (mode ``all``): that
  joint is in the effort controller only, and driven by it;
* a description that cannot be used: one error line, exit 1, nothing left running.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import rclpy
import yaml
from builtin_interfaces.msg import Duration
from child_process import ChildProcess
from prerequisites import require_rig
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray, String
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from sdf_bridge.ros.qos import LATCHED_QOS

from .conftest import REPO, Probe

ARM = ["base_yaw", "shoulder_lift", "elbow", "wrist_pitch", "wrist_roll", "left_finger_joint"]
BRING_UP = 90.0  # s: the bridge, the controller_manager and four service round trips (loaded CI)


class Control(ChildProcess):
    """``python -m sdf_bridge.ros.command_line control ARGS --namespace NS --work-dir DIR``."""

    def __init__(
        self,
        args: list[str],
        namespace: str,
        work_dir: Path,
        env: dict[str, str] | None = None,
    ) -> None:
        self.name, self.work_dir = f"control {namespace}", work_dir
        argv = [sys.executable, "-m", "sdf_bridge.ros.command_line", "control", *args]
        argv += ["--namespace", namespace, "--work-dir", str(work_dir)]
        super().__init__(argv, env=env, cwd=REPO)

    def wait_running(self, probe: Probe) -> str:
        probe.wait_for(
            lambda: "running; Ctrl-C" in self.output() or not self.running(),
            "sdf-bridge control to bring everything up",
            BRING_UP,
        )
        assert self.running(), self.logs()
        return self.output()

    def logs(self) -> str:
        text = self.output()
        for log in sorted(self.work_dir.glob("*.log")):
            text += f"\n--- {log.name}\n{log.read_text()[-3000:]}"
        return text

    def children(self) -> list[int]:
        out = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(self.process.pid)], capture_output=True, text=True
        ).stdout
        return [int(p) for p in out.split()]


def _alive(pid: int) -> bool:
    return (
        Path(f"/proc/{pid}").exists()
        and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]
    )


def _stop(control: Control) -> None:
    """Ctrl-C: exit 0, and the bridge and controller_manager it started are gone."""
    children = control.children()
    assert len(children) == 2, control.logs()
    control.process.send_signal(signal.SIGINT)
    code = control.process.wait(30)
    assert code == 0, control.logs()
    end = time.monotonic() + 5
    while any(_alive(p) for p in children) and time.monotonic() < end:
        time.sleep(0.05)
    assert not any(_alive(p) for p in children), control.logs()


def _values(probe: Probe, topic: str, row: str) -> dict[str, float]:
    msg = probe.messages[topic][-1]
    return dict(zip(msg.name, getattr(msg, row)))


def _publish_until(probe: Probe, pub, msg, done, what: str, timeout: float = 30.0) -> None:
    """Publish ``msg`` every second until ``done()``: a subscription the publisher has matched
    may not have matched the publisher yet, and miss the first one (the messages here are
    idempotent)."""
    probe.wait_for(lambda: pub.get_subscription_count() > 0, f"a subscriber for {what}")
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() > end:
            pytest.fail(f"timed out after {timeout} s waiting for {what}")
        pub.publish(msg)
        sent = time.monotonic()
        while not done() and time.monotonic() - sent < 1.0:
            probe.executor.spin_once(timeout_sec=0.05)


def _trajectory_until(
    probe: Probe,
    ns: str,
    goal: dict[str, float],
    expect: dict[str, float],
    tol: float,
    what: str,
    timeout: float = 45.0,
) -> None:
    """Send joint_trajectory_controller of ``ns`` a one-point trajectory to ``goal`` (1 s) until
    the bridge's joint_states (watched by the test) have ``expect`` within ``tol``."""
    topic = f"/{ns}/sdf_bridge/joint_states"
    point = JointTrajectoryPoint(positions=list(goal.values()), time_from_start=Duration(sec=1))

    def reached() -> bool:
        if not probe.messages[topic]:
            return False
        got = _values(probe, topic, "position")
        return all(abs(got[j] - v) <= tol for j, v in expect.items())

    _publish_until(
        probe,
        probe.publisher(f"/{ns}/joint_trajectory_controller/joint_trajectory", JointTrajectory),
        JointTrajectory(joint_names=list(goal), points=[point]),
        reached,
        what,
        timeout=timeout,
    )


@pytest.fixture
def control(tmp_path: Path):
    require_rig()
    started: list[Control] = []

    def start(args: list[str], namespace: str) -> Control:
        c = Control(args, namespace, tmp_path)
        started.append(c)
        return c

    yield start
    for c in started:
        c.stop()


def test_one_command_drives_the_demo_arm_along_a_trajectory(probe: Probe, control) -> None:
    ns = "ctl_pos"
    c = control([], ns)
    for topic in (f"/{ns}/joint_states", f"/{ns}/sdf_bridge/joint_states"):
        probe.watch(topic, JointState)
    out = c.wait_running(probe)
    assert (
        "note: the description's <ros2_control> block(s) 'demo_arm_system' "
        "(mock_components/GenericSystem) replaced by the bridge's "
        "(joint_state_topic_hardware_interface/JointStateTopicSystem)" in out
    )
    lines = {line.split()[0]: line.split() for line in out.splitlines() if line.strip()}
    assert lines["joint_state_broadcaster"][1:3] == [
        "active",
        "joint_state_broadcaster/JointStateBroadcaster",
    ]
    assert lines["joint_trajectory_controller"][1] == "active"
    assert lines["joint_trajectory_controller"][3:] == [f"{j}/position" for j in ARM]
    assert lines["forward_position_controller"][1:] == [
        "inactive",
        "forward_command_controller/ForwardCommandController",
        "-",
    ]
    target = dict(zip(ARM, [0.3, -0.2, 0.5, 0.1, -0.4, 0.02]))
    pub = probe.publisher(f"/{ns}/joint_trajectory_controller/joint_trajectory", JointTrajectory)
    point = JointTrajectoryPoint(positions=list(target.values()), time_from_start=Duration(sec=1))

    def reached(topic: str) -> bool:
        if not probe.messages[topic]:
            return False
        got = _values(probe, topic, "position")
        return all(abs(got[j] - v) <= 1e-9 for j, v in target.items())

    _publish_until(
        probe,
        pub,
        JointTrajectory(joint_names=ARM, points=[point]),
        lambda: reached(f"/{ns}/sdf_bridge/joint_states") and reached(f"/{ns}/joint_states"),
        "the trajectory's end in the bridge's and the broadcaster's joint_states",
    )
    # another node's claims (latched, naming one joint) would leave the others unfollowed:
    # control's relay publishes the controller_manager's claims again
    probe.publisher(f"/{ns}/sdf_bridge/claimed_interfaces", String, LATCHED_QOS).publish(
        String(data="base_yaw/position")
    )
    probe.wait_for(
        lambda: "another node published claims on" in c.output(), "control to see the claims"
    )
    target = dict(zip(ARM, [-0.2, 0.3, -0.4, 0.2, 0.1, 0.01]))
    point = JointTrajectoryPoint(positions=list(target.values()), time_from_start=Duration(sec=1))
    _publish_until(
        probe,
        pub,
        JointTrajectory(joint_names=ARM, points=[point]),
        lambda: reached(f"/{ns}/sdf_bridge/joint_states"),
        "every joint at the new target after another node's claims",
    )
    files = sorted(p.name for p in c.work_dir.iterdir())
    assert files == [
        "bridge.log",
        "controller_manager.log",
        "controllers.yaml",
        "robot_description.urdf",
    ]
    _stop(c)


def test_velocity_mode_moves_the_joints_at_the_commanded_velocity(probe: Probe, control) -> None:
    ns = "ctl_vel"
    c = control(["--mode", "velocity", "--update-rate", "50"], ns)
    topic = f"/{ns}/sdf_bridge/joint_states"
    probe.watch(topic, JointState)
    out = c.wait_running(probe)
    assert "forward_velocity_controller  active" in out
    pub = probe.publisher(f"/{ns}/forward_velocity_controller/commands", Float64MultiArray)
    command = [0.2, -0.1, 0.1, 0.0, 0.05, 0.001]
    _publish_until(
        probe,
        pub,
        Float64MultiArray(data=command),
        lambda: (
            bool(probe.messages[topic])
            and all(
                abs(_values(probe, topic, "velocity")[j] - v) <= 1e-12 for j, v in zip(ARM, command)
            )
        ),
        "the commanded velocities",
    )
    start = _values(probe, topic, "position")["base_yaw"]
    probe.spin_for(1.0)
    moved = _values(probe, topic, "position")["base_yaw"] - start
    assert moved == pytest.approx(0.2, abs=0.06)  # 1 s at 0.2 rad/s (± the spin's timing)
    _stop(c)


def test_a_missing_description_is_one_error_line(control, tmp_path: Path) -> None:
    c = control(["--description", str(tmp_path / "nope.urdf")], "ctl_err")
    assert c.process.wait(60) == 1
    assert c.output().strip().splitlines()[-1] == (
        f"error: --description {tmp_path / 'nope.urdf'} does not exist. Fix: give a file."
    )
    assert c.children() == []


@pytest.mark.parametrize("twin", ["controller_manager", "sdf_bridge"])
def test_a_node_of_the_same_name_running_is_one_error(probe: Probe, control, twin: str) -> None:
    """A node ``/ctl_twin/controller_manager`` or ``/ctl_twin/sdf_bridge`` already in the
    domain (here a plain node of this process, as a second ``control`` or a ``run`` left open
    in another terminal would be): refused, before the children start or, if discovery had
    not found it yet, once the bring-up is done (never a status table), one error line naming
    the node and the fix (both would answer the service calls and publish the topics)."""
    node = rclpy.create_node(twin, namespace="/ctl_twin", context=probe.node.context)
    try:
        c = control(["--description", str(REPO / "urdf" / "demo_arm.urdf.xacro")], "ctl_twin")
        probe.wait_for(lambda: not c.running(), "sdf-bridge control to refuse", BRING_UP + 30)
        assert c.process.returncode == 1
        last = c.output().strip().splitlines()[-1]
        assert last.startswith(f"error: a node '/ctl_twin/{twin}' already runs in ROS_DOMAIN_ID ")
        assert "Fix: stop it, or run this one in another domain" in c.output()
        assert "running; Ctrl-C" not in c.output()
    finally:
        node.destroy_node()


def test_a_killed_command_takes_its_children_along(probe: Probe, control) -> None:
    """SIGKILL of ``control`` (no handler can run): the bridge and the controller_manager get
    SIGTERM from the kernel (parent-death signal) and are gone within 15 s."""
    c = control(["--description", str(REPO / "urdf" / "demo_arm.urdf.xacro")], "ctl_kill")
    c.wait_running(probe)
    children = c.children()
    assert len(children) == 2, c.logs()
    c.process.kill()
    c.process.wait(10)
    end = time.monotonic() + 15
    while any(_alive(p) for p in children) and time.monotonic() < end:
        time.sleep(0.1)
    assert not any(_alive(p) for p in children), c.logs()


def test_switching_controllers_at_run_time_moves_the_arm_each_time(probe: Probe, control) -> None:
    from ros2_control_rig import ControllerManagerClient

    ns = "ctl_all"
    c = control(["--mode", "all"], ns)
    topic = f"/{ns}/sdf_bridge/joint_states"
    probe.watch(topic, JointState)
    out = c.wait_running(probe)
    for line in (
        "forward_effort_controller    inactive",
        "forward_position_controller  inactive",
        "forward_velocity_controller  inactive",
        "joint_trajectory_controller  active",
    ):
        assert line in out, out
    cm = ControllerManagerClient(probe.node, probe.spin_until, f"/{ns}/controller_manager")
    arm = ARM[:5]

    def row(name: str) -> dict[str, float]:
        return _values(probe, topic, name) if probe.messages[topic] else {}

    # 1. trajectory
    target = dict(zip(ARM, [0.3, -0.2, 0.5, 0.1, -0.4, 0.02]))
    point = JointTrajectoryPoint(positions=list(target.values()), time_from_start=Duration(sec=1))
    _publish_until(
        probe,
        probe.publisher(f"/{ns}/joint_trajectory_controller/joint_trajectory", JointTrajectory),
        JointTrajectory(joint_names=ARM, points=[point]),
        lambda: all(abs(row("position").get(j, 9) - v) <= 1e-9 for j, v in target.items()),
        "the trajectory's end",
    )
    # 2. velocity: the trajectory's last position (still sent by the plugin) must not hold
    cm.switch(["forward_velocity_controller"], ["joint_trajectory_controller"])
    velocity = [0.2, -0.1, 0.1, 0.05, -0.05]
    _publish_until(
        probe,
        probe.publisher(f"/{ns}/forward_velocity_controller/commands", Float64MultiArray),
        Float64MultiArray(data=velocity),
        lambda: all(abs(row("velocity").get(j, 9) - v) <= 1e-12 for j, v in zip(arm, velocity)),
        "the commanded velocities",
    )
    start = row("position")["base_yaw"]
    probe.spin_for(1.0)
    assert row("position")["base_yaw"] - start == pytest.approx(0.2, abs=0.06)
    # the bridge's own input for an interface no active controller claims: rejected
    probe.publisher(f"/{ns}/sdf_bridge/effort_commands", Float64MultiArray).publish(
        Float64MultiArray(data=[1.0] * 6)
    )
    probe.wait_for(
        lambda: "no active controller claims their effort interface" in c.logs(),
        "the bridge's warning about the unclaimed effort interface",
    )
    # 3. effort
    cm.switch(["forward_effort_controller"], ["forward_velocity_controller"])
    effort = [1.0, 2.0, -1.0, 0.5, -0.5]
    _publish_until(
        probe,
        probe.publisher(f"/{ns}/forward_effort_controller/commands", Float64MultiArray),
        Float64MultiArray(data=effort),
        lambda: all(abs(row("effort").get(j, 9) - v) <= 1e-12 for j, v in zip(arm, effort)),
        "the commanded efforts",
    )
    # 4. back to position, through the forward controller
    cm.switch(["forward_position_controller"], ["forward_effort_controller"])
    target = dict(zip(ARM, [-0.3, 0.2, -0.5, -0.1, 0.4, 0.01]))
    _publish_until(
        probe,
        probe.publisher(f"/{ns}/forward_position_controller/commands", Float64MultiArray),
        Float64MultiArray(data=list(target.values())),
        lambda: all(abs(row("position").get(j, 9) - v) <= 1e-9 for j, v in target.items()),
        "the forward position target",
    )
    _stop(c)


def test_a_controllers_file_of_ones_own_with_the_controllers_to_activate(
    probe: Probe, control
) -> None:
    """config/ros2_controllers.yaml (the demo arm's): the block offers each joint its own
    interfaces (mode all), the named controllers are active, the others loaded inactive, its
    sensor broadcasters left out (the plugins carry no sensor data)."""
    c = control(
        [
            "--controllers",
            str(REPO / "config" / "ros2_controllers.yaml"),
            "--activate",
            "joint_state_broadcaster",
            "forward_position_controller",
        ],
        "ctl_own",
    )
    out = c.wait_running(probe)
    states = {
        line.split()[0]: line.split()[1]
        for line in out.splitlines()
        if line.split() and line.split()[0].endswith(("_controller", "_broadcaster"))
    }
    assert states == {
        "forward_effort_controller": "inactive",
        "forward_position_controller": "active",
        "forward_velocity_controller": "inactive",
        "joint_state_broadcaster": "active",
        "joint_trajectory_controller": "inactive",
    }
    _stop(c)


def test_a_controller_needing_interfaces_the_block_lacks_is_one_error(control) -> None:
    """The demo file's forward_velocity_controller includes the gripper, which commands
    position only: refused at once (not after the bring-up timeout), naming the fix."""
    c = control(
        [
            "--controllers",
            str(REPO / "config" / "ros2_controllers.yaml"),
            "--activate",
            "joint_state_broadcaster",
            "forward_velocity_controller",
        ],
        "ctl_lack",
    )
    assert c.process.wait(60) == 1, c.logs()
    assert (
        "error: controller 'forward_velocity_controller' needs command interfaces "
        "['left_finger_joint/velocity'], which the robot's <ros2_control> block "
        f"({c.work_dir / 'robot_description.urdf'}) does not offer. Fix: choose the block's "
        "interfaces with --mode (e.g. --mode velocity)" in c.output()
    ), c.logs()
    assert c.children() == []


def test_a_controller_of_an_unknown_type_is_one_error_at_once(control, tmp_path: Path) -> None:
    """A controllers file whose joint_trajectory_controller has a type no package provides: the
    controller_manager refuses load_controller at once, and so does ``control`` (not after its
    --timeout), naming the controller, its type and the controller_manager's reason."""
    text = (REPO / "config" / "ros2_controllers.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "badtype.yaml"
    bad.write_text(
        text.replace(
            "type: joint_trajectory_controller/JointTrajectoryController",
            "type: nonexistent_pkg/NoController",
        ),
        encoding="utf-8",
    )
    c = control(
        [
            "--controllers",
            str(bad),
            "--activate",
            "joint_state_broadcaster",
            "joint_trajectory_controller",
            "--timeout",
            "80",
        ],
        "ctl_type",
    )
    start = time.monotonic()
    assert c.process.wait(60) == 1, c.logs()
    assert time.monotonic() - start < 40  # (6.2 s measured; the --timeout is 80 s)
    error = (
        "error: /ctl_type/controller_manager cannot load controller "
        "'joint_trajectory_controller' (type 'nonexistent_pkg/NoController'): Loader for "
        "controller 'joint_trajectory_controller' (type 'nonexistent_pkg/NoController') not "
        f"found. Fix: correct its entry in {bad} (a type the controller_manager has: its log "
        "lists them after a 'not found'; or install the package of that type; or its "
        "parameters)."
    )
    assert error in c.output().splitlines(), c.logs()
    assert c.children() == []


def test_activate_without_a_controllers_file_is_a_usage_error(control) -> None:
    c = control(["--activate", "joint_state_broadcaster"], "ctl_act")
    assert c.process.wait(60) == 1
    assert c.output().strip().splitlines()[-1] == (
        "error: --activate names controllers of a --controllers file. Fix: give the file too, "
        "or leave --activate out (the generated controllers are activated)."
    )


def test_mujoco_backend_reaches_a_trajectory_target(probe: Probe, control) -> None:
    ns = "ctl_mj"
    c = control(["--backend", "mujoco"], ns)
    topic = f"/{ns}/sdf_bridge/joint_states"
    probe.watch(topic, JointState)
    c.wait_running(probe)
    target = dict(zip(ARM, [0.3, -0.2, 0.5, 0.1, -0.4, 0.02]))
    _trajectory_until(probe, ns, target, target, 1e-3, "the trajectory's end within 1e-3 (MuJoCo)")
    _stop(c)


SDF_UNLIMITED = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="turntable">
    <link name="base"><inertial><mass>1</mass></inertial></link>
    <link name="table"><inertial><mass>1</mass></inertial></link>
    <joint name="world_base" type="fixed"><parent>world</parent><child>base</child></joint>
    <joint name="spin" type="revolute">
      <parent>base</parent><child>table</child>
      <axis><xyz>0 0 1</xyz><limit><effort>10</effort><velocity>2</velocity></limit></axis>
    </joint>
  </model>
</sdf>
"""


def test_an_unlimited_sdformat_revolute_joint_is_not_clamped_to_zero(
    probe: Probe, control, tmp_path: Path
) -> None:
    """The SDFormat model is exported to URDF for the controller_manager: its unlimited revolute
    joint as continuous (a revolute joint without bounds would be read as [0, 0] and every
    command clamped to 0)."""
    source = tmp_path / "turntable.sdf"
    source.write_text(SDF_UNLIMITED)
    ns = "ctl_sdf"
    c = control(["--description", str(source)], ns)
    topic = f"/{ns}/sdf_bridge/joint_states"
    probe.watch(topic, JointState)
    c.wait_running(probe)
    assert (
        '<joint name="spin" type="continuous">'
        in (c.work_dir / "robot_description.urdf").read_text()
    )
    point = JointTrajectoryPoint(positions=[1.0], time_from_start=Duration(sec=1))
    _publish_until(
        probe,
        probe.publisher(f"/{ns}/joint_trajectory_controller/joint_trajectory", JointTrajectory),
        JointTrajectory(joint_names=["spin"], points=[point]),
        lambda: (
            bool(probe.messages[topic])
            and abs(_values(probe, topic, "position")["spin"] - 1.0) <= 1e-9
        ),
        "spin at 1 rad",
    )
    _stop(c)


def test_an_effort_only_joint_is_offered_and_driven_in_effort(probe: Probe, control) -> None:
    """test/data/effort_transmissions.urdf, mode all: the shoulder, whose transmission declares
    EffortJointInterface only, is in no position or velocity controller (the block offers it
    effort only) and starts driven by forward_effort_only_controller (active), the elbow in
    all; switched to forward_effort_controller, both joints take the commanded efforts."""
    from ros2_control_rig import ControllerManagerClient

    ns = "ctl_effort"
    c = control(
        ["--description", str(REPO / "test" / "data" / "effort_transmissions.urdf")]
        + ["--mode", "all"],
        ns,
    )
    topic = f"/{ns}/sdf_bridge/joint_states"
    probe.watch(topic, JointState)
    out = c.wait_running(probe)
    lines = {line.split()[0]: line.split() for line in out.splitlines() if line.strip()}
    assert lines["joint_trajectory_controller"][1:] == [
        "active",
        "joint_trajectory_controller/JointTrajectoryController",
        "elbow/position",
    ]
    assert lines["forward_effort_only_controller"][1:] == [
        "active",
        "forward_command_controller/ForwardCommandController",
        "shoulder/effort",
    ]
    generated = yaml.safe_load((c.work_dir / "controllers.yaml").read_text(encoding="utf-8"))
    assert {
        name: generated[f"/**/{name}"]["ros__parameters"]["joints"]
        for name in (
            "forward_position_controller",
            "forward_velocity_controller",
            "forward_effort_controller",
            "forward_effort_only_controller",
        )
    } == {
        "forward_position_controller": ["elbow"],
        "forward_velocity_controller": ["elbow"],
        "forward_effort_controller": ["shoulder", "elbow"],
        "forward_effort_only_controller": ["shoulder"],
    }
    cm = ControllerManagerClient(probe.node, probe.spin_until, f"/{ns}/controller_manager")
    cm.switch(
        ["forward_effort_controller"],
        ["joint_trajectory_controller", "forward_effort_only_controller"],
    )
    effort = {"shoulder": 5.0, "elbow": -2.0}
    _publish_until(
        probe,
        probe.publisher(f"/{ns}/forward_effort_controller/commands", Float64MultiArray),
        Float64MultiArray(data=list(effort.values())),
        lambda: (
            bool(probe.messages[topic])
            and all(abs(_values(probe, topic, "effort")[j] - v) <= 1e-12 for j, v in effort.items())
        ),
        "the commanded efforts",
    )
    _stop(c)


def test_position_mode_keeps_an_effort_only_joint_in_effort(probe: Probe, control) -> None:
    """--mode position on the same arm: the block gives the shoulder effort (not position),
    forward_effort_controller drives it (active) while the trajectory controller moves the
    elbow."""
    ns = "ctl_effpos"
    c = control(["--description", str(REPO / "test" / "data" / "effort_transmissions.urdf")], ns)
    topic = f"/{ns}/sdf_bridge/joint_states"
    probe.watch(topic, JointState)
    out = c.wait_running(probe)
    lines = {line.split()[0]: line.split() for line in out.splitlines() if line.strip()}
    assert lines["joint_trajectory_controller"][1::2] == ["active", "elbow/position"]
    assert lines["forward_effort_controller"][1::2] == ["active", "shoulder/effort"]
    assert lines["forward_position_controller"][1] == "inactive"
    block = (c.work_dir / "robot_description.urdf").read_text()
    shoulder = block.split('<joint name="shoulder">', 2)[-1].split("</joint>", 1)[0]
    assert '<command_interface name="effort">' in shoulder
    assert '<command_interface name="position"' not in shoulder
    _publish_until(
        probe,
        probe.publisher(f"/{ns}/forward_effort_controller/commands", Float64MultiArray),
        Float64MultiArray(data=[3.0]),
        lambda: (
            bool(probe.messages[topic])
            and abs(_values(probe, topic, "effort")["shoulder"] - 3.0) <= 1e-12
        ),
        "the shoulder's commanded effort",
    )
    point = JointTrajectoryPoint(positions=[0.4], time_from_start=Duration(sec=1))
    _publish_until(
        probe,
        probe.publisher(f"/{ns}/joint_trajectory_controller/joint_trajectory", JointTrajectory),
        JointTrajectory(joint_names=["elbow"], points=[point]),
        lambda: abs(_values(probe, topic, "position")["elbow"] - 0.4) <= 1e-9,
        "the elbow at 0.4 rad",
    )
    _stop(c)


def test_a_goal_beyond_the_limits_on_mujoco_leaves_the_controller_active(
    probe: Probe, control
) -> None:
    """A joint_trajectory_controller goal beyond two joints' limits on MuJoCo (elbow 3.0 >
    its soft limit 2.4 and limit 2.5; wrist_pitch 2.6 > 2.0, at 3 rad/s): the bridge clamps at
    the limits, the joints stop within ros2_control's out-of-bounds tolerance 0.0087 rad of them
    (the rigid stop: wrist_pitch 0.0055 rad past; 0.0134 before, and the controller_manager
    deactivated the controller) and the controller stays active (the generated
    controller_manager does not enforce the limits a second time: enforce_command_limits
    false). Then a controller that leaves the active state (here switched off) is reported on
    the console in one line."""
    from ros2_control_rig import ControllerManagerClient

    ns = "ctl_lim"
    c = control(["--backend", "mujoco"], ns)
    topic = f"/{ns}/sdf_bridge/joint_states"
    probe.watch(topic, JointState)
    c.wait_running(probe)
    rest = {"elbow": 2.4, "wrist_pitch": 2.0}  # the elbow at its soft limit
    upper = {"elbow": 2.5, "wrist_pitch": 2.0}  # what ros2_control checks
    goal = dict.fromkeys(ARM, 0.0) | {"elbow": 3.0, "wrist_pitch": 2.6}
    _trajectory_until(probe, ns, goal, rest, 1e-3, "the joints at their upper limits (MuJoCo)")
    probe.wait_messages(topic, 100)  # 1 s more at rest
    over = {
        j: max(dict(zip(m.name, m.position))[j] - limit for m in probe.messages[topic])
        for j, limit in upper.items()
    }
    assert over["elbow"] < 0.0 and 0.0 < over["wrist_pitch"] <= 0.0087, over
    cm = ControllerManagerClient(probe.node, probe.spin_until, f"/{ns}/controller_manager")
    assert cm.states()["joint_trajectory_controller"] == "active", c.logs()
    assert "left the active state" not in c.output()
    cm.switch([], ["joint_trajectory_controller"])
    line = (
        f"warning: controller 'joint_trajectory_controller' of /{ns}/controller_manager left "
        "the active state (now 'inactive')"
    )
    probe.wait_for(lambda: line in c.output(), "the console line", 10.0)
    assert str(c.work_dir / "controller_manager.log") in c.output()
    _stop(c)
