"""A free ball joint as a spherical pendulum, against its closed form: the energy of a point mass
on a rod is conserved. The MuJoCo backend builds a ball joint as MuJoCo's native ball joint (a
quaternion), which has no gimbal lock, and publishes its roll, pitch, yaw computed from it: the
pendulum below hangs with its joint frame's x along the rod, i.e. at pitch = π/2 of the
roll/pitch/yaw angles, so every swing passes the lock of three hinges (yaw, pitch, roll). Those
hinges diverged at t = 2.34 s on it and gained up to 423 J (0.3 rad/s); the native joint keeps
the energy within 0.0074 J for 20 s (implicitfast, 1 ms), its angles published all along
(test_ball_coordinates)."""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest
from mujoco_helpers import Sim

from sdf_bridge.description import load

M, L, G = 1.0, 1.0, 9.81  # kg, m, m/s²
I0 = 1e-4  # kg·m², the bob's own inertia (a point mass but for a regular inertia)

#: The bob 1 m along the joint frame's x: horizontal at the zero configuration, hanging at
#: pitch = π/2 (R = Rz(yaw)·Ry(pitch)·Rx(roll) turns x to (cos p, 0, −sin p) at yaw 0).
PENDULUM = f"""<sdf version="1.9"><model name="m">
  <link name="base"/>
  <joint name="anchor" type="fixed"><parent>world</parent><child>base</child></joint>
  <link name="bob"><inertial><pose>{L} 0 0 0 0 0</pose><mass>{M}</mass>
    <inertia><ixx>{I0}</ixx><iyy>{I0}</iyy><izz>{I0}</izz></inertia></inertial></link>
  <joint name="ball" type="ball"><parent>base</parent><child>bob</child></joint>
</model></sdf>"""

PITCH0 = math.pi / 6  # rad: the rod 60° from the vertical
YAW_RATE0 = 0.1  # rad/s about the vertical: the bob passes 0.023 rad from the bottom (the lock)


def _energy(sim: Sim) -> float:
    """Kinetic plus potential energy of the bob, J, from its body's motion."""
    model, data = sim.backend.model, sim.backend.data
    body = model.body("bob").id
    vel = np.zeros(6)
    mujoco.mj_objectVelocity(model, data, mujoco.mjtObj.mjOBJ_BODY, body, vel, 0)
    rot = np.asarray(data.ximat[body]).reshape(3, 3)
    inertia = rot @ np.diag(model.body_inertia[body]) @ rot.T
    kinetic = 0.5 * M * vel[3:] @ vel[3:] + 0.5 * vel[:3] @ inertia @ vel[:3]
    return float(kinetic + M * G * data.xipos[body][2])


def _pitch(sim: Sim) -> float:
    """The pitch (rad, [−π/2, π/2]) of the bob's orientation: asin of −z of its x axis."""
    x_axis = sim.backend.data.xmat[sim.backend.model.body("bob").id].reshape(3, 3)[:, 0]
    return math.asin(min(1.0, max(-1.0, -float(x_axis[2]))))


def _swing(seconds: float) -> tuple[Sim, float, list[float], list[float]]:
    """The pendulum released at pitch :data:`PITCH0` (60° from the vertical) turning at
    :data:`YAW_RATE0` about the vertical, free for ``seconds``: the sim, its initial energy,
    and the energies and pitches every 10 ms (until a reset)."""
    sim = Sim(load(PENDULUM), {"gravity": [0.0, 0.0, -G]})
    backend, slots = sim.backend, sim.backend.built.joints["ball"]
    qadr, dadr = slots.qpos[0], slots.dof[0]
    c, s = math.cos(PITCH0), math.sin(PITCH0)
    backend.data.qpos[qadr : qadr + 4] = [math.cos(PITCH0 / 2), 0.0, math.sin(PITCH0 / 2), 0.0]
    rot = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])  # Ry(PITCH0)
    backend.data.qvel[dadr : dadr + 3] = rot.T @ [0.0, 0.0, YAW_RATE0]  # ω in the child frame
    mujoco.mj_forward(backend.model, backend.data)
    energy0, energies, pitches = _energy(sim), [], []
    for _ in range(int(round(seconds / 0.01))):
        sim.effort([0.0, 0.0, 0.0])
        sim.read()
        if backend.instabilities:
            break
        energies.append(_energy(sim))
        pitches.append(_pitch(sim))
    return sim, energy0, energies, pitches


def test_a_ball_joint_is_mujocos_native_ball_joint_with_three_coordinates() -> None:
    """One MuJoCo joint of type ball (4 qpos, 3 dofs), its roll, pitch, yaw in the
    transmission map and the backend (in ``joint_states``), all on that one joint."""
    sim = Sim(load(PENDULUM))
    model, built = sim.backend.model, sim.backend.built
    assert built.joints["ball"].mj_joints == ["ball"]
    assert model.jnt_type[model.joint("ball").id] == mujoco.mjtJoint.mjJNT_BALL
    assert (model.nq, model.nv) == (4, 3)
    names = ("ball/roll", "ball/pitch", "ball/yaw")
    assert built.coordinates == {name: ("ball", k) for k, name in enumerate(names)}
    assert sim.tm.joint_names == sim.backend.joint_names == names


def test_pendulum_starts_with_the_closed_form_energy() -> None:
    """E₀ = ½·m·(ω·L·cos 30°)² + ½·I₀·ω² − m·g·L·sin 30° (1e-12 J): the start is the one the
    test below assumes."""
    _, energy0, _, _ = _swing(0.0)
    speed = YAW_RATE0 * L * math.cos(PITCH0)
    closed = 0.5 * M * speed**2 + 0.5 * I0 * YAW_RATE0**2 - M * G * L * math.sin(PITCH0)
    assert energy0 == pytest.approx(closed, abs=1e-12)


def test_free_ball_pendulum_conserves_energy_through_the_lock() -> None:
    """20 s swinging through pitch ±π/2 (within 0.03 rad of it; 0.023 rad measured): no
    divergence and the energy within 0.05 J (0.5 % of m·g·L) of the start (0.0074 J
    measured; three hinges diverged at 2.34 s)."""
    sim, energy0, energies, pitches = _swing(20.0)
    assert sim.backend.instabilities == 0
    assert len(energies) == 2000
    assert max(pitches) >= math.pi / 2 - 0.03
    assert max(abs(e - energy0) for e in energies) <= 0.05
