"""Every robot of the shared corpus builds into MuJoCo and simulates 1 s under gravity with the
PID holding the initial position (zero commands), without NaN or explosion.

"Explosion" bound: every joint velocity stays below 50 rad/s (or m/s) — a held robot at rest
moves far slower; passive joints (casters, ball joints, un-driven wheels) may swing under
gravity but stay well under it. Driven joints stay within 0.2 rad (m) of their hold position
unless their effort is saturated at the joint's effort limit (PR2's shoulder-lift joints: the
real robot's counterbalance spring is not in the URDF, and 30 N·m cannot hold the arm).
Cameras are off (rendering is tested in test_sensors) except for husky's depth camera.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from mujoco_helpers import Sim
from prerequisites import SHARED_ROBOTS, shared_robot_file

from sdf_bridge.backends.base import ActuatorCommand
from sdf_bridge.description import load
from sdf_bridge.description.model import Robot, World


def _models(robots_dir: Path, name: str) -> list[Robot]:
    loaded = load(shared_robot_file(robots_dir, name))
    return list(loaded.models.values()) if isinstance(loaded, World) else [loaded]


def test_corpus_list_is_complete(robots_dir: Path) -> None:
    assert sorted(p.name for p in robots_dir.iterdir() if p.is_dir()) == sorted(SHARED_ROBOTS)


@pytest.mark.parametrize("name", SHARED_ROBOTS)
def test_robot_simulates_one_second_held(robots_dir: Path, name: str) -> None:
    for robot in _models(robots_dir, name):
        sim = Sim(robot, {"render_cameras": name == "husky"})
        try:
            first = sim.read(0.01)
            hold = first.position.copy()
            n = sim.n

            def command() -> None:
                sim.write(ActuatorCommand(hold, np.full(n, math.nan), np.full(n, math.nan)), 0.01)

            states = sim.run(1.0, command=command)
            data = sim.backend.data
            assert np.all(np.isfinite(data.qpos)) and np.all(np.isfinite(data.qvel)), robot.name
            assert np.max(np.abs(data.qvel), initial=0.0) < 50.0, robot.name
            assert states[-1].sim_time == pytest.approx(1.01, abs=1e-9)
            # driven joints that can exert effort stay near their hold position
            limit = sim.backend.pid.effort_limit
            applied = np.abs(sim.backend.joint_state()[2])
            can_hold = np.array(applied < limit - 1e-9, dtype=bool)
            joint_q = sim.backend.joint_state()[0]  # (a ball's angles computed, not qpos)
            joint_hold = sim.tm.actuator_to_joint(
                _to_map_order(sim, hold), np.zeros(n), np.zeros(n)
            )[0]
            assert np.all(np.abs(joint_q - joint_hold)[can_hold] < 0.2), robot.name
            # only PR2's two shoulder lifts saturate
            assert np.count_nonzero(~can_hold) <= 2, robot.name
            if name == "husky":
                key = "camera_realsense_depth"
                images = [s.sensors[key] for s in states if key in s.sensors]
                assert images and images[0].encoding == "32FC1"
        finally:
            sim.backend.close()


def _to_map_order(sim: Sim, values: np.ndarray) -> np.ndarray:
    """Actuator values from the backend's order to the map's order."""
    out = np.empty(len(sim.tm.actuator_names))
    for k, name in enumerate(sim.actuators):
        out[sim.tm.actuator_names.index(name)] = values[k]
    return out


SDF_ROBOTS = [n for n in SHARED_ROBOTS if n.startswith("sdf_") or n == "turtlebot3_waffle"]


@pytest.mark.parametrize("name", SDF_ROBOTS)
def test_sdf_link_frames_match_link_pose(robots_dir: Path, name: str) -> None:
    """Every body sits at model pose · Link.pose (SDFormat frames resolved by the loader),
    unjoined nested-model links included (tolerance 1e-12)."""
    import mujoco

    from sdf_bridge.backends.mujoco.builder import BuildOptions, build_spec, compile_model

    for robot in _models(robots_dir, name):
        built = build_spec(robot, BuildOptions(ground_plane=False))
        model = compile_model(built)
        data = mujoco.MjData(model)
        mujoco.mj_kinematics(model, data)
        assert model.nbody - 1 == len(robot.links)
        for link_name, link in robot.links.items():
            assert link.pose is not None
            expected = robot.pose.matrix() @ link.pose.matrix()
            body = model.body(built.link_body[link_name]).id
            assert data.xpos[body] == pytest.approx(expected[:3, 3], abs=1e-12), link_name
            assert data.xmat[body].reshape(3, 3) == pytest.approx(expected[:3, :3], abs=1e-12), (
                link_name
            )
