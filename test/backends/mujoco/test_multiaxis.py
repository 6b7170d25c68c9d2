"""The MuJoCo backend on the axis coordinates of multi-axis joints (issue 29 item 3), against
closed forms: an effort on axis2 of a revolute2 joint accelerates it as τ/I (Gazebo's
``SetForce(1, τ)``), and a ball joint's roll, pitch, yaw are the URDF rpy of the child's
rotation, ``R = Rz(yaw)·Ry(pitch)·Rx(roll)`` (imposed orientation → state; the rest of the
ball's coordinates: test_ball_coordinates)."""

from __future__ import annotations

import math

import mujoco
import numpy as np
from mujoco_helpers import Sim

from sdf_bridge.description import load
from sdf_bridge.description.model.pose import rpy_to_matrix

NAN = math.nan

#: A revolute2 joint, axis1 z and axis2 x, on a link of principal inertias (0.1, 0.2, 0.3)
#: kg·m² whose centre of mass is at the joint: no gravity torque, and the joint-space inertia
#: of axis2 is Ixx = 0.1 kg·m² whatever axis1's angle (the mass matrix is diagonal).
REVOLUTE2 = """<sdf version="1.9"><model name="m">
  <link name="base"/>
  <joint name="anchor" type="fixed"><parent>world</parent><child>base</child></joint>
  <link name="arm"><inertial><mass>2</mass>
    <inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.3</izz></inertia></inertial></link>
  <joint name="r2" type="revolute2"><parent>base</parent><child>arm</child>
    <axis><xyz>0 0 1</xyz><limit><effort>100</effort></limit></axis>
    <axis2><xyz>1 0 0</xyz><limit><effort>100</effort></limit></axis2></joint>
</model></sdf>"""

#: A ball joint whose child link is turned (roll 0.2, yaw −0.7) from the parent link and whose
#: joint frame is turned (pitch 0.4) from the child's: the angles are those of the rotation of
#: the child's joint frame in the parent's (the joint frame at the zero configuration).
BALL = """<sdf version="1.9"><model name="m">
  <link name="base"/>
  <joint name="anchor" type="fixed"><parent>world</parent><child>base</child></joint>
  <link name="head"><pose>0 0 1 0.2 0 -0.7</pose><inertial><mass>1</mass>
    <inertia><ixx>0.01</ixx><iyy>0.02</iyy><izz>0.03</izz></inertia></inertial></link>
  <joint name="neck" type="ball"><pose>0 0 0 0 0.4 0</pose>
    <parent>base</parent><child>head</child></joint>
</model></sdf>"""
HEAD = rpy_to_matrix((0.2, 0.0, -0.7))  # the head's rotation at the zero configuration
JOINT_IN_HEAD = rpy_to_matrix((0.0, 0.4, 0.0))


def test_effort_on_axis2_accelerates_it_as_torque_over_inertia() -> None:
    """τ = 0.5 N·m on r2/axis2 (axis1 held): α = τ/Ixx = 5 rad/s², so after 0.2 s from rest
    the velocity is α·t = 1 rad/s (1e-9) and the angle ½·α·t² = 0.1 rad (within the
    semi-implicit Euler's ½·α·t·dt = 5e-4 rad); axis1 does not move (1e-9) and the state's
    effort of axis2 is τ."""
    sim = Sim(load(REVOLUTE2))
    assert sim.actuators == ("r2/axis1", "r2/axis2")
    sim.read()
    states = sim.run(0.2, command=lambda: sim.effort([NAN, 0.5]))
    state = states[-1].joints
    assert state[1, 1] == sim.qvel("r2/axis2")
    np.testing.assert_allclose(state[1, 1], 5.0 * 0.2, rtol=1e-9)
    assert abs(state[0, 1] - 0.5 * 5.0 * 0.2**2) <= 0.5 * 5.0 * 0.2 * 0.001 + 1e-12
    np.testing.assert_allclose(state[:2, 0], 0.0, rtol=0, atol=1e-9)
    np.testing.assert_allclose(state[2, 1], 0.5, rtol=0, atol=1e-12)


def _child_rotation(sim: Sim) -> np.ndarray:
    """The rotation (3, 3) of the head's joint frame (``world · JOINT_IN_HEAD``) in the
    parent's joint frame (where it is at the zero configuration, ``HEAD · JOINT_IN_HEAD``)."""
    body = sim.backend.model.body("head").id
    world = np.asarray(sim.backend.data.xmat[body]).reshape(3, 3)
    return (HEAD @ JOINT_IN_HEAD).T @ world @ JOINT_IN_HEAD


def test_a_ball_joint_is_native_and_its_angles_are_published_exactly() -> None:
    """The ball is one MuJoCo ball joint with three actuators on it, gear x, y, z of the
    head's joint frame (in the head's body frame: the columns of ``JOINT_IN_HEAD``); its
    quaternion q, in the head's body frame, turns the head's joint frame in the parent's joint
    frame by ``JOINT_IN_HEADᵀ · R(q) · JOINT_IN_HEAD``: q of
    ``JOINT_IN_HEAD · R0 · JOINT_IN_HEADᵀ`` gives R0 = Rz(−1.1)·Ry(0.6)·Rx(2.0) (1e-12) and
    the state reads roll 2.0, pitch 0.6, yaw −1.1 (1e-9); at rest and free (effort 0
    commanded), velocity and effort 0."""
    sim = Sim(load(BALL))
    model, data = sim.backend.model, sim.backend.data
    assert sim.actuators == ("neck/roll", "neck/pitch", "neck/yaw") and model.nu == 3
    assert model.jnt_type[model.joint("neck").id] == mujoco.mjtJoint.mjJNT_BALL
    np.testing.assert_allclose(model.actuator_gear[:, :3], JOINT_IN_HEAD.T, rtol=0, atol=1e-15)
    assert set(model.actuator_trnid[:, 0]) == {model.joint("neck").id}
    sim.effort([0.0, 0.0, 0.0])  # free (idle, the backend holds the reset angles)
    sim.read()
    rotation = rpy_to_matrix((2.0, 0.6, -1.1))
    quat = np.zeros(4)
    mujoco.mju_mat2Quat(quat, (JOINT_IN_HEAD @ rotation @ JOINT_IN_HEAD.T).flatten())
    qadr = sim.backend.built.joints["neck"].qpos[0]
    data.qpos[qadr : qadr + 4] = quat
    mujoco.mj_forward(model, data)
    np.testing.assert_allclose(_child_rotation(sim), rotation, rtol=0, atol=1e-12)
    position, velocity, effort = sim.backend.joint_state()
    np.testing.assert_allclose(position, [2.0, 0.6, -1.1], rtol=0, atol=1e-9)
    assert list(velocity) == list(effort) == [0.0, 0.0, 0.0]


#: f2 mimics axis2 of the universal joint u, f1 its axis1 (SDFormat 1.11 ``//mimic/@axis``; the
#: map's side: test_coupling). Links without <inertial>: SDFormat's 1 kg at the link origin,
#: on the joint axes (no gravity torque).
MIMIC_OF_AXES = """<sdf version="1.11"><model name="m"><link name="a"/><link name="b"/>
  <link name="c"/><link name="d"/>
  <joint name="anchor" type="fixed"><parent>world</parent><child>a</child></joint>
  <joint name="u" type="universal"><parent>a</parent><child>b</child>
    <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
  <joint name="f2" type="revolute"><parent>b</parent><child>c</child><axis><xyz>0 0 1</xyz>
    <mimic joint="u" axis="axis2"><multiplier>2</multiplier><offset>0.1</offset></mimic>
    </axis></joint>
  <joint name="f1" type="revolute"><parent>c</parent><child>d</child><axis><xyz>0 0 1</xyz>
    <mimic joint="u" axis="axis"><multiplier>-1</multiplier><offset>0</offset></mimic>
    </axis></joint></model></sdf>"""


def test_a_mimic_of_axis2_is_coupled_to_that_hinge() -> None:
    """f2 mimics axis2 of u (2·q + 0.1), f1 its axis1 (−q): u/axis2 commanded to 0.4 rad and
    u/axis1 to −0.3 rad, f2 reads 0.9 rad and f1 0.3 rad in MuJoCo's own state (the coupling is
    a soft equality constraint: 1e-3 rad)."""
    sim = Sim(load(MIMIC_OF_AXES))
    assert sim.actuators == ("u/axis1", "u/axis2")
    sim.read()
    sim.run(2.0, command=lambda: sim.position([-0.3, 0.4]))
    assert abs(sim.qpos("u/axis2") - 0.4) < 1e-3 and abs(sim.qpos("u/axis1") + 0.3) < 1e-3
    assert abs(sim.qpos("f2") - 0.9) < 1e-3 and abs(sim.qpos("f1") - 0.3) < 1e-3
