"""The bridge driven by the real ros2_control (the shared rig's controller_manager 5.16,
joint_state_broadcaster, forward_command_controller, joint_trajectory_controller) through both
topic-based plugins, PickNik's ``topic_based_ros2_control/TopicBasedSystem`` and the successor
``joint_state_topic_hardware_interface/JointStateTopicSystem``, on the demo arm and on
rrbot_transmissions of the shared corpus (ros2_control SimpleTransmissions, reductions 2 and 4),
with the mock and the MuJoCo backend.

Per robot, backend and control mode one bridge runs on the description with the generated
topic-based block for that mode; one controller_manager per plugin drives it in turn:

* position: forward_position_controller to a target, then joint_trajectory_controller along a
  trajectory to another;
* velocity: forward_velocity_controller (the velocity states reach the command), then zero;
* effort: forward_effort_controller (the effort states reach the command), then zero.

Targets are reached exactly with the mock (1e-12: float rounding of the transmissions' round
trip) and within 1e-3 (rad, m, rad/s, m/s, N·m, N) after settling with MuJoCo. Each time the
broadcaster's joint_states equal the bridge's, the mimic finger follows its leader (-1 × left +
0.002 m), the actuator states are the transmissions' of the joint states (reductions, offsets,
four-bar, differential), and the bridge counts no rejected command and no watchdog trip.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from builtin_interfaces.msg import Duration
from prerequisites import require_rig, require_shared
from ros2_control_rig import PICKNIK, SUCCESSOR
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from .conftest import REPO, Probe
from .ros2_control_session import Session

PLUGINS = (SUCCESSOR, PICKNIK)
TOL = {"mock": 1e-12, "mujoco": 1e-3}
DEMO = REPO / "urdf" / "demo_arm.urdf.xacro"
#: robot → targets per scenario, in the order of its commandable joints
TARGETS = {
    "demo_arm": {
        "position": [0.3, 0.2, 0.6, 0.1, -0.2, 0.03],
        "trajectory": [-0.2, -0.1, 0.4, -0.1, 0.3, 0.01],
        # slow enough that no joint reaches a limit while a loaded machine's controller_manager
        # catches up (the gripper's 0.04 m stroke: 20 s at 2 mm/s)
        "velocity": [0.2, 0.1, -0.1, 0.2, -0.2, 0.002],
        "effort": [1.0, 2.0, -1.0, 0.5, -0.5, 1.0],
    },
    "rrbot_transmissions": {
        "position": [0.5, -0.4],
        "trajectory": [-0.3, 0.2],
        "velocity": [0.3, -0.2],
        "effort": [2.0, -1.0],
    },
}
MODES = {"position": ("position",), "velocity": ("velocity",), "effort": ("effort",)}


def _source(robot: str) -> Path:
    if robot == "demo_arm":
        return DEMO
    return require_shared() / "robots" / robot / f"{robot}.urdf"


@pytest.fixture
def session(request: pytest.FixtureRequest, probe: Probe, start_bridge, tmp_path: Path):
    require_rig()
    robot, backend, mode = request.param
    s = Session(
        probe,
        start_bridge,
        _source(robot),
        namespace=f"rc_{robot}_{backend}_{mode}",
        backend=backend,
        command_interfaces=MODES[mode],
        tmp=tmp_path,
    )
    yield s
    s.stop()


def _check_couplings(s: Session, tol: float) -> None:
    """Mimic finger and actuator states, on the bridge's last joint_states/actuator_states pair
    (same tick: same stamp), and the broadcaster = the bridge."""
    s.broadcaster_equals_bridge()
    probe = s.probe
    probe.wait_messages(s.actuators, 2)
    actuators = probe.messages[s.actuators][-1]
    stamp = (actuators.header.stamp.sec, actuators.header.stamp.nanosec)
    joints = next(
        m
        for m in reversed(probe.messages[s.states])
        if (m.header.stamp.sec, m.header.stamp.nanosec) == stamp
    )
    position = dict(zip(joints.name, joints.position))
    if "right_finger_joint" in position:
        assert position["right_finger_joint"] == pytest.approx(
            -position["left_finger_joint"] + 0.002, abs=1e-12
        )
        broadcast = s.latest(s.broadcast)
        assert broadcast["right_finger_joint"][0] == pytest.approx(
            -broadcast["left_finger_joint"][0] + 0.002, abs=1e-12
        )
    tm = s.hardware.transmissions
    q = np.array([position[n] for n in tm.joint_names])
    expected = tm.joint_to_actuator(q, np.zeros_like(q), np.zeros_like(q))[0]
    got = dict(zip(actuators.name, actuators.position))
    np.testing.assert_allclose([got[a] for a in tm.actuator_names], expected, atol=1e-9)


def _check_clean(s: Session) -> None:
    """No rejected command, no command warning, no watchdog trip so far."""
    values = s.diagnostics()
    assert values["rejected_total"] == "0", values
    assert values["command_warnings"] == "0", values
    assert values["watchdog_trips"] == "0", values
    assert not [k for k in values if k.startswith("node_rejected.")], values


def _targets(s: Session, robot: str, scenario: str) -> dict[str, float]:
    return dict(zip(s.joints, TARGETS[robot][scenario], strict=True))


CASES = [(robot, backend, mode) for robot in TARGETS for backend in TOL for mode in MODES]


@pytest.mark.parametrize("session", CASES, indirect=True, ids=["-".join(c) for c in CASES])
def test_driven_through_both_plugins(session: Session, request: pytest.FixtureRequest) -> None:
    robot, backend, mode = request.node.callspec.params["session"]
    s, ns, tol = session, session.ns, TOL[backend]
    for plugin in PLUGINS:
        with s.manager(plugin) as cm:
            if mode == "position":
                cm.load(
                    "joint_state_broadcaster",
                    "forward_position_controller",
                    "joint_trajectory_controller",
                )
                cm.switch(["joint_state_broadcaster", "forward_position_controller"])
                target = _targets(s, robot, "position")
                s.command(
                    f"/{ns}/forward_position_controller/commands",
                    Float64MultiArray(data=list(target.values())),
                    0,
                    target,
                    tol,
                    f"{plugin}: forward position target",
                )
                _check_couplings(s, tol)
                cm.switch(["joint_trajectory_controller"], ["forward_position_controller"])
                target = _targets(s, robot, "trajectory")
                point = JointTrajectoryPoint(
                    positions=list(target.values()), time_from_start=Duration(sec=1)
                )
                s.command(
                    f"/{ns}/joint_trajectory_controller/joint_trajectory",
                    JointTrajectory(joint_names=list(target), points=[point]),
                    0,
                    target,
                    tol,
                    f"{plugin}: trajectory end",
                )
            else:
                controller = f"forward_{mode}_controller"
                row = 1 if mode == "velocity" else 2
                cm.load("joint_state_broadcaster", controller)
                cm.switch(["joint_state_broadcaster", controller])
                target = _targets(s, robot, mode)
                topic = f"/{ns}/{controller}/commands"
                s.command(
                    topic,
                    Float64MultiArray(data=list(target.values())),
                    row,
                    target,
                    tol,
                    f"{plugin}: {mode} command",
                )
                _check_couplings(s, tol)
                s.command(
                    topic,
                    Float64MultiArray(data=[0.0] * len(target)),
                    row,
                    dict.fromkeys(target, 0.0),
                    tol,
                    f"{plugin}: {mode} zero",
                )
            _check_couplings(s, tol)
            _check_clean(s)


def test_the_bridge_serves_the_sensor_broadcasters_topics(start_bridge, probe: Probe) -> None:
    """The plugins carry no sensor readings: with ros2_control.launch.py's remappings the bridge
    publishes the demo arm's IMU and force-torque readings as imu_sensor_broadcaster and
    force_torque_sensor_broadcaster would (their message types, on their topics)."""
    from geometry_msgs.msg import WrenchStamped
    from sensor_msgs.msg import Imu

    from sdf_bridge.app.control_launch import control_plan

    remaps = control_plan({"use_sim_time": False}, REPO).bridge_remappings[2:]
    assert remaps == (
        ("imu", "imu_sensor_broadcaster/imu"),
        ("ft", "force_torque_sensor_broadcaster/wrench"),
    )
    extra = ["-r", "__ns:=/served"] + [arg for a, b in remaps for arg in ("-r", f"{a}:={b}")]
    imu, wrench = (
        "/served/imu_sensor_broadcaster/imu",
        "/served/force_torque_sensor_broadcaster/wrench",
    )
    probe.watch(imu, Imu)
    probe.watch(wrench, WrenchStamped)
    bridge = start_bridge({}, name="sdf_bridge", extra=extra)  # the demo arm, mock backend
    assert probe.wait_messages(imu, 2)[-1].header.frame_id == "imu_link"
    assert probe.wait_messages(wrench, 2)[-1].header.frame_id == "ft_link"
    assert bridge.stop() == 0
