"""The MuJoCo backend's ball joint coordinates (``sdf_bridge.backends.mujoco.balls``) against
closed forms: the published roll, pitch, yaw of a free spherical pendulum reproduce its
quaternion through gimbal lock, the rates are ``J⁻¹·ω`` (kept at the lock), the efforts
``Jᵀ·τ``; an effort command on the angles is the torque ``J⁻ᵀ·τ_rpy`` (it holds a pendulum's
weight, m·g·L·cos pitch on pitch), refused at the lock; position commands are held by the PD
on the rotation error (at the lock too), velocity commands tracked."""

from __future__ import annotations

import logging
import math

import mujoco
import numpy as np
import pytest
from mujoco_helpers import Sim

from sdf_bridge.backends.base import ActuatorCommand
from sdf_bridge.backends.mujoco import cycle
from sdf_bridge.backends.mujoco.balls import LOCK_COS, quat_matrix
from sdf_bridge.description import load
from sdf_bridge.description.coordinates import ball_rate_matrix
from sdf_bridge.description.model.pose import rpy_to_matrix

M, L, G = 1.0, 1.0, 9.81  # kg, m, m/s²
OMEGA = 2.0 * math.pi * 10.0  # rad/s, the default gains' bandwidth (gains.BANDWIDTH)
NAN = math.nan

#: The bob 1 m along the ball's joint frame x (horizontal at zero angles: z = −L·sin pitch).
PENDULUM = f"""<sdf version="1.9"><model name="m">
  <link name="base"/>
  <joint name="anchor" type="fixed"><parent>world</parent><child>base</child></joint>
  <link name="bob"><inertial><pose>{L} 0 0 0 0 0</pose><mass>{M}</mass>
    <inertia><ixx>1e-4</ixx><iyy>1e-4</iyy><izz>1e-4</izz></inertia></inertial></link>
  <joint name="ball" type="ball"><parent>base</parent><child>bob</child></joint>
</model></sdf>"""


def _set(sim: Sim, rpy: tuple[float, float, float], omega=(0.0, 0.0, 0.0)) -> None:
    """Turn the ball to ``rpy`` with angular velocity ``omega`` (joint frame), forward."""
    backend = sim.backend
    slots = backend.built.joints["ball"]
    quat = np.zeros(4)
    mujoco.mju_mat2Quat(quat, rpy_to_matrix(rpy).flatten())
    backend.data.qpos[slots.qpos[0] : slots.qpos[0] + 4] = quat
    backend.data.qvel[slots.dof[0] : slots.dof[0] + 3] = omega
    mujoco.mj_forward(backend.model, backend.data)


def _rotation(sim: Sim) -> np.ndarray:
    slots = sim.backend.built.joints["ball"]
    return quat_matrix(sim.backend.data.qpos[slots.qpos[0] : slots.qpos[0] + 4])


def test_free_pendulum_published_through_the_lock_matches_its_quaternion() -> None:
    """Released at pitch π/6 with no spin, the pendulum swings in a vertical plane through the
    bottom, pitch π/2 (the lock): for 3 s the published angles give the ball's rotation
    (rpy → R within 1e-9), pitch goes on past π/2 (to 5π/6) rather than roll and yaw jumping
    by π (they stay 0 within 1e-6), and where |cos pitch| ≥ 0.05 the published rates give the
    angular velocity, ``J·rates = ω`` (1e-9); the effort of a free ball reads 0."""
    sim = Sim(load(PENDULUM), {"gravity": [0.0, 0.0, -G]})
    _set(sim, (0.0, math.pi / 6, 0.0))
    slots = sim.backend.built.joints["ball"]
    worst, pitches, checked = 0.0, [], 0
    for _ in range(300):
        sim.effort([0.0, 0.0, 0.0])
        state = sim.read().joints
        position, rates, effort = state[0], state[1], state[2]
        worst = max(worst, float(np.abs(rpy_to_matrix(tuple(position)) - _rotation(sim)).max()))
        pitches.append(position[1])
        assert abs(position[0]) < 1e-6 and abs(position[2]) < 1e-6
        assert list(effort) == [0.0, 0.0, 0.0]
        if abs(math.cos(position[1])) >= 0.05:
            omega = sim.backend.data.qvel[slots.dof[0] : slots.dof[0] + 3]
            jac = ball_rate_matrix(position[0], position[1])
            np.testing.assert_allclose(jac @ rates, omega, rtol=0, atol=1e-9)
            checked += 1
    assert worst < 1e-9
    assert max(pitches) == pytest.approx(5 * math.pi / 6, abs=0.01)
    assert checked > 200 and sim.backend.instabilities == 0


def test_at_the_lock_the_last_rates_are_published_again() -> None:
    """At pitch 0.3 with ω = (0.1, 0.2, 0.3) the rates are J⁻¹·ω; turned to pitch π/2 exactly
    (|cos pitch| < LOCK_COS) with another ω, the rates published are those of before (never
    NaN), the angles exact."""
    sim = Sim(load(PENDULUM))
    _set(sim, (0.1, 0.3, -0.2), (0.1, 0.2, 0.3))
    _, rates, _ = sim.backend.joint_state()
    expected = np.linalg.solve(ball_rate_matrix(0.1, 0.3), [0.1, 0.2, 0.3])
    np.testing.assert_allclose(rates, expected, rtol=0, atol=1e-12)
    _set(sim, (0.1, math.pi / 2, -0.2), (1.0, 0.0, 0.0))
    position, again, _ = sim.backend.joint_state()
    assert abs(math.cos(position[1])) < LOCK_COS
    np.testing.assert_allclose(rpy_to_matrix(tuple(position)), _rotation(sim), rtol=0, atol=1e-12)
    assert list(again) == list(rates)


@pytest.mark.parametrize("rpy", [(0.3, 0.5, 0.7), (-1.0, 0.2, 2.5)])
def test_an_effort_on_pitch_holds_the_weight(rpy: tuple[float, float, float]) -> None:
    """The bob's height is −L·sin pitch whatever roll and yaw, so its weight's generalised
    force is m·g·L·cos pitch on pitch and 0 on roll and yaw: the effort command (0, −m·g·L·cos
    pitch, 0) holds the pendulum still for 1 s (its rotation within 1e-6), applied as the
    torque J⁻ᵀ·τ_rpy about the joint axes (1e-9; not τ_rpy: J ≠ I at roll ≠ 0); the published
    effort reads the command back (1e-9)."""
    sim = Sim(load(PENDULUM), {"gravity": [0.0, 0.0, -G]})
    _set(sim, rpy)
    start = _rotation(sim)
    hold = [0.0, -M * G * L * math.cos(rpy[1]), 0.0]
    for _ in range(100):
        sim.effort(hold)
        state = sim.read().joints
    np.testing.assert_allclose(_rotation(sim), start, rtol=0, atol=1e-6)
    np.testing.assert_allclose(state[2], hold, rtol=0, atol=1e-9)
    torque = sim.backend.data.actuator_force
    jac = ball_rate_matrix(state[0, 0], state[0, 1])
    np.testing.assert_allclose(torque, np.linalg.solve(jac.T, hold), rtol=0, atol=1e-9)


def test_an_effort_at_the_lock_leaves_the_ball_free_and_says_why(caplog) -> None:
    """At pitch π/2 an effort on the angles has no torque: none is applied (the actuators'
    force 0), and a warning names the joint, the lock and the fix, once."""
    sim = Sim(load(PENDULUM))
    _set(sim, (0.0, math.pi / 2, 0.0))
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            sim.effort([1.0, 0.0, 0.0])
            sim.read()
    assert list(sim.backend.data.actuator_force) == [0.0, 0.0, 0.0]
    found = [r.getMessage() for r in caplog.records if "gimbal lock" in r.getMessage()]
    assert len(found) == 1
    assert "ball joint 'ball' is at gimbal lock" in found[0] and "<joint><pose>" in found[0]


def test_ideal_position_mode_never_imposes_a_ball_angle() -> None:
    """``position_mode: ideal`` imposes commanded positions on qpos entries; a ball's angles
    are none (its quaternion): they are not imposed and the quaternion stays a unit one."""
    sim = Sim(load(PENDULUM), {"position_mode": "ideal"})
    assert not sim.backend._ideal.imposed_dofs().size
    for _ in range(5):
        sim.position([0.5, 0.5, 0.5])
        sim.read()
    assert not sim.backend._ideal.imposed_dofs().size
    slots = sim.backend.built.joints["ball"]
    quat = sim.backend.data.qpos[slots.qpos[0] : slots.qpos[0] + 4]
    assert np.linalg.norm(quat) == pytest.approx(1.0, abs=1e-12)


#: A head whose centre of mass is at the ball (gravity exerts no torque), principal inertias
#: (0.01, 0.02, 0.03) kg·m², the ball's joint frame turned (roll 0.3) from the links.
HEAD = """<sdf version="1.9"><model name="m">
  <link name="base"/>
  <joint name="anchor" type="fixed"><parent>world</parent><child>base</child></joint>
  <link name="head"><inertial><mass>1</mass>
    <inertia><ixx>0.01</ixx><iyy>0.02</iyy><izz>0.03</izz></inertia></inertial></link>
  <joint name="neck" type="ball"><pose>0 0 0 0.3 0 0</pose>
    <parent>base</parent><child>head</child></joint>
</model></sdf>"""


def _joint_rotation(sim: Sim, joint: str) -> np.ndarray:
    """The rotation of ``joint``'s child joint frame in its parent joint frame."""
    slots = sim.backend.built.joints[joint]
    frame = slots.frame
    return frame.T @ quat_matrix(sim.backend.data.qpos[slots.qpos[0] : slots.qpos[0] + 4]) @ frame


@pytest.mark.parametrize("target", [(0.3, -0.4, 0.5), (0.2, math.pi / 2, -0.3), (0.1, 0.2, -3.1)])
def test_a_position_command_holds_the_rotation(target: tuple[float, float, float]) -> None:
    """Commanded to ``target`` from the zero angles for 2 s, the ball's rotation is
    ``Rz(yaw)·Ry(pitch)·Rx(roll)`` of it within 1e-4 (1e-15 measured): at gimbal lock too, and
    3.1 rad from the reference (past the wrap of the actuator length at π − 0.6). The gains
    are the default rule's on the head's inertia per axis (p = M·ω², ω = 2π·10 Hz; 0.01 kg·m²:
    39.48 N·m/rad), no integral. At the lock the published yaw − roll is the commanded one
    (roll and yaw alone are not defined there: doc/user/multi_axis_joints.md)."""
    sim = Sim(load(HEAD))
    np.testing.assert_allclose(
        sim.backend._tab[cycle.P], [0.01 * OMEGA**2, 0.02 * OMEGA**2, 0.03 * OMEGA**2], rtol=1e-3
    )
    assert list(sim.backend._tab[cycle.I]) == [0.0, 0.0, 0.0]
    for _ in range(200):
        sim.position(list(target))
        state = sim.read().joints
    assert sim.backend.instabilities == 0
    np.testing.assert_allclose(
        _joint_rotation(sim, "neck"), rpy_to_matrix(target), rtol=0, atol=1e-4
    )
    np.testing.assert_allclose(
        rpy_to_matrix(tuple(state[0])), rpy_to_matrix(target), rtol=0, atol=1e-4
    )
    if target[1] == math.pi / 2:  # at the lock only yaw − roll is defined: that one is kept
        turn = (state[0, 2] - state[0, 0]) - (target[2] - target[0])
        assert abs(math.remainder(turn, 2.0 * math.pi)) < 1e-4


def test_a_held_pendulum_sags_by_its_weight_over_the_stiffness_unless_fed_forward() -> None:
    """Position (0, 0.3, 0) under gravity: the PD (no integral) settles where its stiffness
    carries the weight, pitch error m·g·L·cos(0.3)/Kp (2.37 mrad, within 2 %); with the
    weight's effort (0, −m·g·L·cos 0.3, 0) as a feed-forward it holds 0.3 (1e-9)."""
    sim = Sim(load(PENDULUM), {"gravity": [0.0, 0.0, -G]})
    _set(sim, (0.0, 0.3, 0.0))
    kp = sim.backend._tab[cycle.P, 1]
    for _ in range(300):
        sim.position([0.0, 0.3, 0.0])
        state = sim.read().joints
    sag = M * G * L * math.cos(0.3) / kp
    assert state[0, 1] - 0.3 == pytest.approx(sag, rel=0.02)
    feed = np.array([NAN, -M * G * L * math.cos(0.3), NAN])
    for _ in range(300):
        sim.write(ActuatorCommand(np.array([0.0, 0.3, 0.0]), np.full(3, NAN), feed))
        state = sim.read().joints
    np.testing.assert_allclose(state[0], [0.0, 0.3, 0.0], rtol=0, atol=1e-9)


def test_a_velocity_command_turns_the_ball_at_that_rate() -> None:
    """Yaw at 0.5 rad/s for 2 s, roll and pitch at 0 rad/s: the published yaw rate is 0.5 and
    yaw 1.0 (1e-6: the reference advances within each period too), roll and pitch stay 0 within
    1e-4 (1.8e-5 measured: spinning about an axis that is not principal needs a torque,
    7e-4 N·m, which the stiffness 39.5 N·m/rad carries with that error)."""
    sim = Sim(load(HEAD))
    for _ in range(200):
        sim.velocity([0.0, 0.0, 0.5])
        state = sim.read().joints
    assert state[1, 2] == pytest.approx(0.5, abs=1e-6)
    assert state[0, 2] == pytest.approx(1.0, abs=1e-6)
    np.testing.assert_allclose(state[0, :2], [0.0, 0.0], rtol=0, atol=1e-4)
