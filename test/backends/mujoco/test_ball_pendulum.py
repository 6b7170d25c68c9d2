"""A free (uncommanded) ball joint as a spherical pendulum, against its closed form: the energy
of a point mass on a rod is conserved. The MuJoCo backend builds a ball joint as three hinges
(yaw, pitch, roll) so that each of its published coordinates has a PID actuator; those lock at
pitch = ±π/2, where the mass matrix is singular but for the hinges' armature. A pendulum whose
joint frame's x is along the rod hangs at pitch = π/2, so every swing passes near the lock:
that is gz-sim's ``demo_joint_types.sdf`` ball, which diverges at 8.734 s. MuJoCo's native
ball joint (a quaternion) swings the same pendulum for 20 s with an energy error of 0.0074 J
(implicitfast, 1 ms); the three hinges diverge at 2.34 s (documented limitation, see the
expected failure below). The same pendulum hanging along its joint frame's −z stays far from
the lock and conserves its energy (the documented workaround: turn the joint frame)."""

from __future__ import annotations

import logging
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

#: The same pendulum hanging along the joint frame's −z: at rest at roll = pitch = yaw = 0, and
#: its swings keep the pitch within ±60°, far from the lock (the documented workaround).
HANGING = PENDULUM.replace(f"<pose>{L} 0 0 0 0 0</pose>", f"<pose>0 0 {-L} 0 0 0</pose>")

PITCH0 = math.pi / 6  # rad: the rod 60° from the vertical
YAW_RATE0 = 0.1  # rad/s about the vertical: the bob passes 3° from the bottom (the lock)


def _energy(sim: Sim) -> float:
    """Kinetic plus potential energy of the bob, J, from its body's motion (not from the
    joints: armature excluded)."""
    model, data = sim.backend.model, sim.backend.data
    body = model.body("bob").id
    vel = np.zeros(6)
    mujoco.mj_objectVelocity(model, data, mujoco.mjtObj.mjOBJ_BODY, body, vel, 0)
    rot = np.asarray(data.ximat[body]).reshape(3, 3)
    inertia = rot @ np.diag(model.body_inertia[body]) @ rot.T
    kinetic = 0.5 * M * vel[3:] @ vel[3:] + 0.5 * vel[:3] @ inertia @ vel[:3]
    return float(kinetic + M * G * data.xipos[body][2])


def _swing(
    seconds: float, sdf: str = PENDULUM, start: tuple[str, float] = ("ball/pitch", PITCH0)
) -> tuple[Sim, float, list[float]]:
    """The pendulum ``sdf`` released 60° from the vertical (coordinate ``start[0]`` at
    ``start[1]`` rad) with :data:`YAW_RATE0`, free (effort 0) for ``seconds``: the sim, its
    initial energy and the energies every 10 ms (until a reset)."""
    sim = Sim(load(sdf), {"gravity": [0.0, 0.0, -G]})
    backend, built = sim.backend, sim.backend.built
    backend.data.qpos[built.address(start[0])[0]] = start[1]
    backend.data.qvel[built.address("ball/yaw")[1]] = YAW_RATE0
    mujoco.mj_forward(backend.model, backend.data)
    energy0, energies = _energy(sim), []
    for _ in range(int(round(seconds / 0.01))):
        sim.effort([0.0, 0.0, 0.0])
        sim.read()
        if backend.instabilities:
            break
        energies.append(_energy(sim))
    return sim, energy0, energies


def test_pendulum_starts_with_the_closed_form_energy() -> None:
    """E₀ = ½·m·(ω·L·cos 30°)² + ½·I₀·ω² − m·g·L·sin 30° (1e-12 J): the start is the one the
    closed forms below assume."""
    sim, energy0, _ = _swing(0.0)
    assert sim.backend.built.coordinates["ball/pitch"] == ("ball", 1)
    speed = YAW_RATE0 * L * math.cos(PITCH0)
    closed = 0.5 * M * speed**2 + 0.5 * I0 * YAW_RATE0**2 - M * G * L * math.sin(PITCH0)
    assert energy0 == pytest.approx(closed, abs=1e-12)


@pytest.mark.xfail(
    strict=True,
    reason="three hinges lock at pitch ±π/2: this pendulum diverges at 2.34 s (MuJoCo's "
    "native ball joint: 20 s, energy error 0.0074 J); see the builder's docstring",
)
def test_free_ball_pendulum_conserves_energy_through_the_lock() -> None:
    """20 s of swinging 3° from the lock: no divergence and the energy within 0.05 J (0.5 % of
    m·g·L) of the start."""
    sim, energy0, energies = _swing(20.0)
    assert sim.backend.instabilities == 0
    assert max(abs(e - energy0) for e in energies) <= 0.05


def test_ball_divergence_names_the_gimbal_lock(caplog: pytest.LogCaptureFixture) -> None:
    """The pendulum diverges at t = 2.34 s (reset once); the error names the ball joint, the
    lock and the workaround."""
    with caplog.at_level(logging.ERROR, logger="sdf_bridge.backends.mujoco.backend"):
        sim, _, energies = _swing(2.5)
    assert sim.backend.instabilities == 1
    assert len(energies) == 233  # 2.33 s of stable steps
    assert "near t = 2.3400 s at joint(s) ['ball__yaw']" in caplog.text
    assert "ball joint(s) ['ball'] are three hinges (yaw, pitch, roll)" in caplog.text
    assert "armature.<joint>" in caplog.text


def test_pendulum_away_from_the_lock_conserves_energy() -> None:
    """The workaround: the pendulum hanging along its joint frame's −z, released at roll π/3
    (60° from the vertical; E₀ closed form, 1e-12 J) with the same yaw rate, swings 20 s with
    no divergence and the energy within 0.05 J of the start (0.042 J measured; MuJoCo's native
    ball joint 0.0074 J); its pitch ends far from the lock (|cos pitch| ≥ 0.49)."""
    sim, energy0, energies = _swing(20.0, HANGING, ("ball/roll", math.pi / 3))
    assert sim.backend.instabilities == 0
    assert len(energies) == 2000
    speed = YAW_RATE0 * L * math.sin(math.pi / 3)
    closed = 0.5 * M * speed**2 + 0.5 * I0 * YAW_RATE0**2 - M * G * L * math.cos(math.pi / 3)
    assert energy0 == pytest.approx(closed, abs=1e-12)
    assert max(abs(e - energy0) for e in energies) <= 0.05
    assert abs(math.cos(sim.qpos("ball/pitch"))) >= 0.49
