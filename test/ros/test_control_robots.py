"""``sdf-bridge control`` on a world of several robots, with the real controller_manager of the
shared rig: one topic-based block, controllers file and controller_manager per robot, each in
the robot's namespace; the three arms of one world follow three trajectories at once, each
through its own joint_trajectory_controller; Ctrl-C stops the bridge and every
controller_manager."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from builtin_interfaces.msg import Duration
from sensor_msgs.msg import JointState
from several_robots import ARM_NAMES, THREE_ARMS, included_arms
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from .conftest import Probe
from .test_control_command import BRING_UP, Control, _alive

ONE_S = Duration(sec=1)
TARGETS = {"position": (0.4, -0.3), "velocity": (-0.5, 0.2), "effort": (0.3, 0.5)}


def _follow(
    probe: Probe, control: Control, ns: str, targets: dict[str, tuple[float, float]]
) -> None:
    """Send each arm (``/<ns>/<arm>``) its target (j1, j2) by its
    joint_trajectory_controller, all at once (resent each second: a late-matched
    subscription misses one), until every arm's joint_states is within 0.01 rad of it (60 s)."""
    pubs = {
        arm: probe.publisher(
            f"/{ns}/{arm}/joint_trajectory_controller/joint_trajectory", JointTrajectory
        )
        for arm in targets
    }

    def reached() -> bool:
        for arm, target in targets.items():
            msgs = probe.messages[f"/{ns}/{arm}/joint_states"]
            if not msgs:
                return False
            got = dict(zip(msgs[-1].name, msgs[-1].position))
            if any(abs(got[j] - v) > 0.01 for j, v in zip(("j1", "j2"), target)):
                return False
        return True

    end = time.monotonic() + 60.0
    while not reached():
        assert time.monotonic() < end, control.logs()
        for arm, target in targets.items():
            point = JointTrajectoryPoint(positions=list(target), time_from_start=ONE_S)
            pubs[arm].publish(JointTrajectory(joint_names=["j1", "j2"], points=[point]))
        sent = time.monotonic()
        while not reached() and time.monotonic() - sent < 1.0:
            probe.executor.spin_once(timeout_sec=0.05)


def test_three_arms_follow_three_trajectories_through_three_managers(
    probe: Probe, tmp_path: Path
) -> None:
    from prerequisites import require_rig

    require_rig()
    world = tmp_path / "arms.sdf"
    world.write_text(THREE_ARMS)
    ns = "ctl_arms"
    control = Control(["--description", str(world), "--backend", "mujoco"], ns, tmp_path)
    try:
        for arm in ARM_NAMES:
            probe.watch(f"/{ns}/{arm}/joint_states", JointState)  # the arm's broadcaster
        probe.wait_for(
            lambda: "running; Ctrl-C" in control.output() or not control.running(),
            "sdf-bridge control to bring three managers up",
            BRING_UP,
        )
        assert control.running(), control.logs()
        out = control.output()
        for arm in ARM_NAMES:
            assert f"/{ns}/{arm}/controller_manager:" in out
        blocks = (tmp_path / "world.sdf").read_text()
        assert blocks.count("<ros2_control") == 3
        assert f"/{ns}/effort/sdf_bridge/joint_commands" in blocks
        _follow(probe, control, ns, TARGETS)
        children = [
            int(p)
            for p in subprocess.run(
                ["ps", "-o", "pid=", "--ppid", str(control.process.pid)],
                capture_output=True,
                text=True,
            ).stdout.split()
        ]
        assert len(children) == 4, control.logs()  # the bridge and three managers
        control.process.send_signal(signal.SIGINT)
        assert control.process.wait(30) == 0, control.logs()
        end = time.monotonic() + 5
        while any(_alive(p) for p in children) and time.monotonic() < end:
            time.sleep(0.05)
        assert not any(_alive(p) for p in children), control.logs()
    finally:
        control.stop()


INCLUDED_TARGETS = {"left": (0.5, -0.4), "right": (-0.3, 0.6)}


def test_two_included_copies_follow_two_trajectories_through_two_managers(
    probe: Probe, tmp_path: Path
) -> None:
    """A world placing one model twice by <include> (model:// and a relative path, each with
    its <name>/<pose>): each copy gets its block and its own controller_manager, and follows
    its own trajectory."""
    from prerequisites import require_rig

    require_rig()
    world = included_arms(tmp_path)
    ns = "ctl_incl"
    env = {**os.environ, "GZ_SIM_RESOURCE_PATH": str(tmp_path / "models")}
    work = tmp_path / "work"
    control = Control(["--description", str(world), "--backend", "mujoco"], ns, work, env=env)
    try:
        for arm in INCLUDED_TARGETS:
            probe.watch(f"/{ns}/{arm}/joint_states", JointState)
        out = control.wait_running(probe)
        for arm in INCLUDED_TARGETS:
            assert f"/{ns}/{arm}/controller_manager:" in out
        assert (work / "world.sdf").read_text().count("<ros2_control") == 2
        _follow(probe, control, ns, INCLUDED_TARGETS)
    finally:
        control.stop()
