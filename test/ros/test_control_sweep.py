"""Issue 25's Done-when sweep: every robot of the shared corpus brought up with ``sdf-bridge
control --description FILE`` (nothing written by hand) on the mock and, where its links carry
inertias, on MuJoCo; the broadcaster and the trajectory controller come up active and a
trajectory sent through joint_trajectory_controller reaches its target (mock 1e-9, MuJoCo
1e-3) in the bridge's joint_states.

Each robot's target: every joint of the trajectory controller 0.1 rad (0.01 m on a prismatic
joint) from where it starts, towards the middle of its range. Every robot of the corpus is
driven: the SDFormat ones whose joints URDF lacks (universal, revolute2, ball, screw, gearbox)
or whose links are not one tree get the controller_manager's URDF with those joints as chains
(:func:`~sdf_bridge.description.export.urdf_writer.chain_joints`; their ball casters are not
in the block); a description ``control`` cannot drive is refused with one ``error:`` line
naming the fix, nothing left running; a world of several robots is driven with ``--model``
(and refused without it). A robot whose joints are all effort-only
(classic ``EffortJointInterface`` transmissions) has no trajectory controller
(:func:`~sdf_bridge.ros.controllers_config.generated_controllers`): its forward effort
controller is active and drives the bridge's effort state instead.

The whole sweep (about 4 minutes on 2 cores) is ``stress`` (CI runs it); the default run keeps
three representative cases: an industrial arm (ros2_control block) on the mock, an arm with an
effort-only finger on MuJoCo, and the all-effort rrbot.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from builtin_interfaces.msg import Duration
from prerequisites import SHARED, require_rig, require_shared, shared_robot_file
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from sdf_bridge.description import load

from .conftest import Probe
from .test_control_command import Control, _publish_until, _stop, _values

TOLERANCE = {"mock": 1e-9, "mujoco": 1e-3}
SETTLE = {"mock": 30.0, "mujoco": 60.0}  # s of resending until the target is reached
DRIVEN = (
    "carlikebot",
    "gen3_robotiq",
    "husky",
    "panda_gazebo_ros1",
    "pr2",
    "rrbot_external_fts",
    "rrbot_transmissions",
    "ur5e_ros2",
    "sdf_mimic_pendulums",
    "sdf_nested_include",
    "turtlebot3_waffle",
    "sdf_joint_complete",
    "sdf_model_with_frames",
)
#: robot → the model ``--model`` picks in its world (the one whose mimic follower is slower)
MODEL = {"sdf_mimic_pendulums": "pendulum_with_base_mimic_fast_follows_slow"}
EFFORT_ONLY = ("rrbot_ros1",)
DEFAULT = {("ur5e_ros2", "mock"), ("panda_gazebo_ros1", "mujoco"), ("rrbot_ros1", "mock")}
CASES = [(r, b) for r in (*DRIVEN, *EFFORT_ONLY) for b in ("mock", "mujoco")]


def _param(robot: str, backend: str):
    marks = () if (robot, backend) in DEFAULT else (pytest.mark.stress,)
    return pytest.param(robot, backend, marks=marks, id=f"{robot}-{backend}")


def test_the_corpus_is_covered() -> None:
    """Every shared robot is in the sweep (a new one cannot slip past)."""
    from prerequisites import SHARED_ROBOTS

    assert sorted((*DRIVEN, *EFFORT_ONLY)) == sorted(SHARED_ROBOTS)


@pytest.fixture
def control(tmp_path: Path):
    require_rig()
    require_shared()
    started: list[Control] = []

    def start(args: list[str], namespace: str) -> Control:
        c = Control(args, namespace, tmp_path / namespace)
        (tmp_path / namespace).mkdir()
        started.append(c)
        return c

    yield start
    for c in started:
        c.stop()


def _status(out: str) -> dict[str, list[str]]:
    return {
        line.split()[0]: line.split()[1:]
        for line in out.splitlines()
        if line.split() and line.split()[0].endswith(("_controller", "_broadcaster"))
    }


def _targets(description: Path, joints: list[str], start: dict[str, float]) -> dict[str, float]:
    """0.1 rad (0.01 m prismatic) from ``start``, towards the middle of each joint's range,
    inside its soft limits (the controller_manager limits commands to them: a PR2 elbow that
    had not yet settled inside its soft upper limit got a target beyond it)."""
    robot = load(description)
    targets = {}
    for name in joints:
        joint = robot.joints[name]
        step = 0.01 if joint.type == "prismatic" else 0.1
        limit, soft = joint.limit, joint.safety_controller
        lower = limit.lower if limit is not None and limit.lower is not None else -1e16
        upper = limit.upper if limit is not None and limit.upper is not None else 1e16
        if soft is not None:
            lower = max(lower, -1e16 if soft.soft_lower_limit is None else soft.soft_lower_limit)
            upper = min(upper, 1e16 if soft.soft_upper_limit is None else soft.soft_upper_limit)
        middle = (lower + upper) / 2 if upper - lower < 1e15 else start[name] + 1.0
        target = start[name] + (step if middle >= start[name] else -step)
        targets[name] = min(max(target, lower), upper)
    return targets


def _inertial(description: Path, model: str | None) -> bool:
    from sdf_bridge.description.world import select_robot

    robot = select_robot(load(description), model)
    return any(link.inertial is not None for link in robot.links.values())


@pytest.mark.parametrize(("robot", "backend"), [_param(r, b) for r, b in CASES])
def test_control_brings_up_the_robot_and_a_trajectory_reaches_its_target(
    robot: str, backend: str, probe: Probe, control
) -> None:
    source = shared_robot_file(SHARED / "robots", robot)
    if backend == "mujoco" and not _inertial(source, MODEL.get(robot)):
        pytest.skip(f"{robot} has no link inertias: nothing for MuJoCo to simulate")
    ns = f"sweep_{robot}_{backend}"
    model = ["--model", MODEL[robot]] if robot in MODEL else []
    c = control(["--description", str(source), "--backend", backend, *model], ns)
    topic = f"/{ns}/sdf_bridge/joint_states"
    probe.watch(topic, JointState)
    status = _status(c.wait_running(probe))
    assert status["joint_state_broadcaster"][0] == "active", status
    probe.wait_for(lambda: bool(probe.messages[topic]), "the bridge's joint_states")
    description = c.work_dir / "robot_description.urdf"
    if robot in EFFORT_ONLY:
        assert "joint_trajectory_controller" not in status, status
        assert status["forward_effort_controller"][0] == "active", status
        joints = [i.rsplit("/", 1)[0] for i in status["forward_effort_controller"][2:]]
        effort = {j: 1.0 + k for k, j in enumerate(joints)}
        _publish_until(
            probe,
            probe.publisher(f"/{ns}/forward_effort_controller/commands", Float64MultiArray),
            Float64MultiArray(data=list(effort.values())),
            lambda: all(
                abs(_values(probe, topic, "effort")[j] - v) <= 1e-9 for j, v in effort.items()
            ),
            "the commanded efforts",
        )
        _stop(c)
        return
    trajectory = status["joint_trajectory_controller"]
    assert trajectory[0] == "active", status
    joints = [i.rsplit("/", 1)[0] for i in trajectory[2:]]
    assert all(i.endswith("/position") for i in trajectory[2:]), trajectory
    start = _values(probe, topic, "position")
    target = _targets(description, joints, start)
    point = JointTrajectoryPoint(positions=list(target.values()), time_from_start=Duration(sec=1))
    tolerance = TOLERANCE[backend]

    def reached() -> bool:
        got = _values(probe, topic, "position")
        return all(abs(got[j] - v) <= tolerance for j, v in target.items())

    try:
        _publish_until(
            probe,
            probe.publisher(f"/{ns}/joint_trajectory_controller/joint_trajectory", JointTrajectory),
            JointTrajectory(joint_names=joints, points=[point]),
            reached,
            f"{robot} ({backend}) at its trajectory's end within {tolerance:g}",
            timeout=SETTLE[backend],
        )
    except BaseException:
        got = _values(probe, topic, "position")
        worst = sorted(((abs(got[j] - v), j) for j, v in target.items()), reverse=True)[:3]
        print(f"worst joints: {worst}\n{c.logs()[-4000:]}")
        raise
    got = _values(probe, topic, "position")
    error = max(abs(got[j] - v) for j, v in target.items())
    print(f"{robot} ({backend}): {len(target)} joints at target within {error:.3g}")
    _stop(c)


def test_a_world_of_several_robots_on_the_mock_is_one_error_line(control) -> None:
    """Every robot of a world shares one physics: the mock, which does not simulate, is
    refused before any process starts (on MuJoCo each gets a controller_manager:
    test_control_robots.py)."""
    source = shared_robot_file(SHARED / "robots", "sdf_mimic_pendulums")
    c = control(["--description", str(source)], "no_model")
    assert c.process.wait(60) == 1, c.logs()
    last = c.output().strip().splitlines()[-1]
    assert last.startswith("error: ") and "holds 3 robots" in last and "--model" in last, last
    assert "backend:=mujoco" in last, last
    assert c.children() == []


#: A screw joint with a legacy thread pitch of 0 rad/m: its translation per turn is undefined,
#: so neither the bridge's couplings, the URDF chain nor MuJoCo can have it.
NO_PITCH = """<sdf version="1.9"><model name="screwed">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="s" type="screw"><parent>a</parent><child>b</child>
    <axis><xyz>0 0 1</xyz></axis><thread_pitch>0</thread_pitch></joint>
  <joint name="r" type="revolute"><parent>b</parent><child>c</child>
    <axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>"""


def test_a_robot_control_cannot_drive_is_one_error_line(control, tmp_path: Path) -> None:
    description = tmp_path / "no_pitch.sdf"
    description.write_text(NO_PITCH, encoding="utf-8")
    c = control(["--description", str(description)], "no_pitch")
    assert c.process.wait(60) == 1, c.logs()
    last = c.output().strip().splitlines()[-1]
    assert last.startswith("error: screw joint 's' ("), last
    assert "<thread_pitch> is 0 rad/m. Fix: give a non-zero pitch." in last, last
    assert c.children() == []
