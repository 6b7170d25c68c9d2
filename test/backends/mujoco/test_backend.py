"""MujocoBackend: physics against closed-form results, actuation through transmissions, errors.

Every physics check states its tolerance and where it comes from (integrator error bound or
MuJoCo's soft-constraint compliance). Physics timestep 1 ms unless stated.
"""

from __future__ import annotations

import logging
import math

import numpy as np
import pytest
from mujoco_helpers import G, nan, pendulum_urdf

from sdf_bridge.backends import create_backend
from sdf_bridge.backends.base import MODE_DTYPE, ActuatorCommand, JointCommand, Mode
from sdf_bridge.backends.mujoco import MujocoBackend
from sdf_bridge.backends.mujoco import cycle as mujoco_cycle
from sdf_bridge.description.model import (
    Axis,
    Inertia,
    Inertial,
    Joint,
    JointType,
    Limit,
    Link,
    Pose,
    Robot,
)
from sdf_bridge.errors import BackendError

GRAVITY = {"gravity": [0.0, 0.0, -G]}


def test_registry_creates_mujoco_backend() -> None:
    assert isinstance(create_backend("mujoco"), MujocoBackend)


def test_pendulum_small_angle_period(make_sim) -> None:
    """T = 2π·sqrt(I / (m·g·L)), I = m·L² + I_cm. Amplitude 0.02 rad changes T by θ²/16 = 2.5e-5
    (relative); sampling at 1 ms with linear interpolation of zero crossings: tolerance 1 ms."""
    sim = make_sim(pendulum_urdf(), GRAVITY)
    sim.backend.data.qpos[0] = 0.02
    sim.effort([0.0])
    times, q = [], []
    for state in sim.run(5.0, dt=0.001):
        times.append(state.sim_time)
        q.append(state.position[0])
    crossings = [
        times[k - 1] + (times[k] - times[k - 1]) * (-q[k - 1]) / (q[k] - q[k - 1])
        for k in range(1, len(q))
        if q[k - 1] < 0.0 <= q[k]
    ]
    period = float(np.mean(np.diff(crossings)))
    expected = 2.0 * math.pi * math.sqrt((1.0 + 1e-6) / (1.0 * G * 1.0))
    assert len(crossings) >= 2
    assert period == pytest.approx(expected, abs=1e-3)


def test_damped_joint_decays_exponentially(make_sim) -> None:
    """Vertical axis (no gravity torque), damping b, inertia I: v(t) = v0·exp(−b·t/I).
    b/I = 2 /s; implicit damping per step ≈ exp within (b·dt/I)²/2 per step → tolerance 0.5 %."""
    urdf = pendulum_urdf(axis="0 0 1", com_xyz="0.5 0 0", dynamics='<dynamics damping="0.5"/>')
    sim = make_sim(urdf, GRAVITY)
    inertia = 1.0 * 0.25 + 1e-6
    sim.backend.data.qvel[0] = 1.0
    sim.effort([0.0])
    state = sim.run(0.5, dt=0.01)[-1]
    assert state.velocity[0] == pytest.approx(math.exp(-0.5 / inertia * 0.5), rel=5e-3)


def test_armature_adds_to_the_decaying_inertia(make_sim) -> None:
    """Armature a (rotor inertia reflected to the joint) adds to the inertia of the damped decay:
    v(t) = v0·exp(−b·t/(I + a)); b = 0.5, I = 0.25, a = 0.25 → rate 1 /s. Tolerance 0.5 %
    (as the decay test above)."""
    urdf = pendulum_urdf(axis="0 0 1", com_xyz="0.5 0 0", dynamics='<dynamics damping="0.5"/>')
    sim = make_sim(urdf, {**GRAVITY, "armature": {"j": 0.25}})
    sim.backend.data.qvel[0] = 1.0
    sim.effort([0.0])
    state = sim.run(0.5, dt=0.01)[-1]
    assert state.velocity[0] == pytest.approx(math.exp(-0.5 / (0.25 + 1e-6 + 0.25) * 0.5), rel=5e-3)


SPRING = """<?xml version="1.0"?>
<sdf version="1.9"><model name="spring">
  <link name="base"/>
  <link name="arm"><pose>0 0 1 0 0 0</pose>
    <inertial><pose>0.5 0 0 0 0 0</pose><mass>1</mass>
      <inertia><ixx>1e-6</ixx><iyy>1e-6</iyy><izz>1e-6</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz>
        </inertia></inertial>
  </link>
  <joint name="base_joint" type="fixed"><parent>world</parent><child>base</child></joint>
  <joint name="j" type="revolute"><parent>base</parent><child>arm</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-3</lower><upper>3</upper><effort>10</effort></limit>
      <dynamics><damping>0.5</damping><spring_reference>0.2</spring_reference>
        <spring_stiffness>4</spring_stiffness></dynamics></axis></joint>
</model></sdf>"""


def test_spring_settles_at_its_reference(make_sim) -> None:
    """SDFormat spring (stiffness 4 N·m/rad, reference 0.2 rad, damping 0.5, I = 0.25 kg·m²:
    ω = 4 rad/s, ζ = 0.25): with zero effort the joint comes to rest at the reference. After
    6 s the amplitude has decayed by exp(−ζ·ω·6) = 2.5e-3: tolerance 1e-3 rad."""
    sim = make_sim(SPRING, GRAVITY)
    sim.effort([0.0])
    state = sim.run(6.0)[-1]
    assert state.position[0] == pytest.approx(0.2, abs=1e-3)


def test_prismatic_joint_falls_under_gravity(make_sim) -> None:
    """z(t) = −g·t²/2. Semi-implicit Euler gives −g·t·(t+dt)/2: tolerance g·t·dt/2 = 2.5 mm."""
    sim = make_sim(pendulum_urdf(joint_type="prismatic", axis="0 0 1", limit=""), GRAVITY)
    sim.effort([0.0])
    state = sim.run(0.5, dt=0.01)[-1]
    t = state.sim_time
    assert t == pytest.approx(0.5, abs=1e-12)
    assert state.position[0] == pytest.approx(-G * t * t / 2.0, abs=G * t * 0.001 / 2.0 + 1e-9)
    assert state.velocity[0] == pytest.approx(-G * t, abs=1e-9)


REDUCTION_50 = """
  <transmission name="t">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="j"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface>
      </joint>
    <actuator name="motor"><mechanicalReduction>50</mechanicalReduction></actuator>
  </transmission>"""


def test_reduction_50_multiplies_motor_torque(make_sim) -> None:
    """Arm horizontal (1 kg at 0.5 m): gravity torque m·g·0.5 about +y. A motor effort of
    −m·g·0.5/50 through a reduction of 50 holds it exactly (static balance, |Δq| < 1e-9 rad
    after 1 s); the applied joint torque is 50× the motor's and the actuator effort state is the
    motor effort (exact to 1e-12)."""
    urdf = pendulum_urdf(joint_type="continuous", com_xyz="0.5 0 0", extra=REDUCTION_50)
    sim = make_sim(urdf, GRAVITY)
    assert sim.actuators == ("motor",)
    hold = -1.0 * G * 0.5 / 50.0
    sim.effort([hold])
    state = sim.run(1.0)[-1]
    assert abs(state.position[0]) < 1e-9
    assert sim.backend.data.actuator_force[0] == pytest.approx(50.0 * hold, abs=1e-12)
    assert state.effort[0] == pytest.approx(hold, abs=1e-12)


def test_without_enough_torque_the_arm_falls(make_sim) -> None:
    """The same motor effort without the ×50 (i.e. 1/50 of the hold torque) cannot hold: the
    arm turns by more than 0.5 rad in 1 s (it falls towards −z, positive angle about +y)."""
    urdf = pendulum_urdf(joint_type="continuous", com_xyz="0.5 0 0", extra=REDUCTION_50)
    sim = make_sim(urdf, GRAVITY)
    sim.effort([-1.0 * G * 0.5 / 50.0 / 50.0])
    assert sim.run(1.0)[-1].position[0] > 0.5


def test_joint_stop_holds_at_limit(make_sim) -> None:
    """Arm falls from horizontal onto the upper limit 0.5 rad and rests there. MuJoCo's limit is
    rigid (builder.rigid_stop): tolerance 0.01 rad on position, 1e-3 rad/s on velocity."""
    urdf = pendulum_urdf(
        joint_type="revolute",
        com_xyz="0.5 0 0",
        limit='<limit lower="-0.5" upper="0.5" effort="100" velocity="10"/>',
    )
    sim = make_sim(urdf, GRAVITY)
    sim.effort([0.0])
    state = sim.run(3.0)[-1]
    assert state.position[0] == pytest.approx(0.5, abs=0.01)
    assert abs(state.velocity[0]) < 1e-3


MIMIC = """
  <link name="arm2">
    <inertial><origin xyz="0.3 0 0"/><mass value="0.5"/>
      <inertia ixx="1e-4" ixy="0" ixz="0" iyy="1e-4" iyz="0" izz="1e-4"/></inertial>
  </link>
  <joint name="j2" type="revolute">
    <parent link="base"/><child link="arm2"/><origin xyz="0 0 1"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="10"/>
    <mimic joint="j" multiplier="2" offset="0.1"/>
  </joint>"""


def test_mimic_follower_at_multiplier_times_leader_plus_offset(make_sim) -> None:
    """Leader held at 0.3 rad by the PID; follower = 2·0.3 + 0.1 = 0.7 rad. Vertical axes (no
    gravity load on the coupling): tolerance 1e-4 rad (equality constraint compliance)."""
    urdf = pendulum_urdf(
        joint_type="revolute",
        axis="0 0 1",
        com_xyz="0.5 0 0",
        limit='<limit lower="-3" upper="3" effort="100" velocity="10"/>',
        extra=MIMIC,
    )
    sim = make_sim(urdf, GRAVITY)
    assert sim.tm.joint_names == ("j",)
    sim.position([0.3])
    sim.run(3.0)
    assert sim.qpos("j") == pytest.approx(0.3, abs=1e-3)
    assert sim.qpos("j2") == pytest.approx(2.0 * sim.qpos("j") + 0.1, abs=1e-4)


def _gearbox_robot(ratio: float) -> Robot:
    def link(name: str) -> Link:
        return Link(
            name, inertial=Inertial(0.2, Inertia(1e-3, 0, 0, 1e-3, 0, 1e-3), Pose((0.1, 0, 0)))
        )

    links = {n: link(n) for n in ("base", "input_link", "output_link")}
    joints = {
        "input": Joint(
            "input",
            JointType.REVOLUTE,
            "base",
            "input_link",
            origin=Pose((0, 0, 1)),
            axis=Axis((0, 0, 1)),
            limit=Limit(-3, 3, 50, 10),
        ),
        "gear": Joint(
            "gear",
            JointType.GEARBOX,
            "input_link",
            "output_link",
            origin=Pose((0.2, 0, 0)),
            axis=Axis((0, 0, 1)),
            gearbox_ratio=ratio,
            gearbox_reference_body="base",
        ),
    }
    return Robot("gearbox", links=links, joints=joints, format="sdf")


def test_gearbox_tree_form_turns_output_by_minus_ratio(make_sim) -> None:
    """Gearbox as the output link's only joint: the output's angle relative to the reference
    body = −ratio · input angle = −3·0.2 rad. Tolerance 1e-4 rad (equality compliance)."""
    sim = make_sim(_gearbox_robot(3.0), GRAVITY)
    sim.position([0.2])
    sim.run(3.0)
    theta_in = sim.qpos("input")
    assert theta_in == pytest.approx(0.2, abs=1e-3)
    assert theta_in + sim.qpos("gear") == pytest.approx(-3.0 * theta_in, abs=1e-4)


def _gearbox_loop_robot(ratio: float) -> Robot:
    """SDFormat's gearbox example: two gears on revolute joints from the base, coupled by a
    gearbox joint gear1 → gear2 with the base as reference body (a loop: built directly)."""

    def link(name: str) -> Link:
        return Link(
            name, inertial=Inertial(0.2, Inertia(1e-3, 0, 0, 1e-3, 0, 1e-3), Pose((0.05, 0, 0)))
        )

    def hinge(name: str, child: str, x: float) -> Joint:
        return Joint(
            name,
            JointType.REVOLUTE,
            "base",
            child,
            origin=Pose((x, 0, 1)),
            axis=Axis((0, 0, 1)),
            limit=Limit(-3, 3, 50, 10),
        )

    links = {n: link(n) for n in ("base", "gear1", "gear2")}
    joints = {
        "j1": hinge("j1", "gear1", 0.0),
        "j2": hinge("j2", "gear2", 0.5),
        "gearbox": Joint(
            "gearbox",
            JointType.GEARBOX,
            "gear1",
            "gear2",
            axis=Axis((0, 0, 1)),
            gearbox_ratio=ratio,
            gearbox_reference_body="base",
        ),
    }
    return Robot("gears", links=links, joints=joints, format="sdf")


def test_gearbox_loop_form_follower_at_minus_ratio_times_leader(make_sim) -> None:
    """j2 = −ratio · j1 (SDFormat gearbox), and equal to the transmission map's follower state.
    Tolerance 1e-4 rad."""
    sim = make_sim(_gearbox_loop_robot(3.0), GRAVITY)
    assert sim.tm.joint_names == ("j1",) and sim.tm.follower_names == ("j2", "gearbox")
    sim.position([0.2])
    sim.run(3.0)
    theta1 = sim.qpos("j1")
    assert theta1 == pytest.approx(0.2, abs=1e-3)
    assert sim.qpos("j2") == pytest.approx(-3.0 * theta1, abs=1e-4)
    follower = sim.tm.followers(np.array([theta1]), np.array([0.0]), np.array([0.0]))[0]
    assert follower[0] == pytest.approx(sim.qpos("j2"), abs=1e-4)
    assert "gearbox" not in sim.backend.built.joints  # a constraint, not a DOF
    # the gearbox's own state, published: gear2 relative to gear1 = j2 − j1 = −4·j1
    state = sim.backend.read(0.0)
    assert state.joints[0, 2] == pytest.approx(sim.qpos("j2") - theta1, abs=1e-4)


def test_position_pid_reaches_target_against_gravity(make_sim) -> None:
    """PID with integral: static error → 0 (tolerance 1e-3 rad after 4 s)."""
    urdf = pendulum_urdf(
        joint_type="revolute",
        com_xyz="0.5 0 0",
        limit='<limit lower="-2" upper="2" effort="100" velocity="10"/>',
    )
    gains = {"pid_gains": {"j": {"p": 200.0, "i": 100.0, "d": 20.0, "i_clamp": 50.0}}}
    sim = make_sim(urdf, {**GRAVITY, **gains})
    state = sim.run(4.0, command=lambda: sim.position([-0.4]))[-1]
    assert state.position[0] == pytest.approx(-0.4, abs=1e-3)
    # the effort state is the applied effort: it carries the gravity load m·g·0.5·cos(q)
    assert state.effort[0] == pytest.approx(-1.0 * G * 0.5 * math.cos(-0.4), abs=0.05)


def test_default_gains_settle_on_target_under_gravity_after_one_write(make_sim) -> None:
    """Default gains (integral i = p·ω/10): one position command, then only reads (the integral
    runs every cycle, not only on writes). Gravity load m·g·L·sin(0.5) = 4.70 N·m would leave
    1.2e-3 rad with p alone; after 3 s the error is below 1e-5 rad."""
    urdf = pendulum_urdf(
        joint_type="revolute", limit='<limit lower="-2" upper="2" effort="100" velocity="10"/>'
    )
    sim = make_sim(urdf, GRAVITY)
    sim.position([0.5])
    state = sim.run(3.0)[-1]
    assert state.position[0] == pytest.approx(0.5, abs=1e-5)
    assert state.effort[0] == pytest.approx(1.0 * G * 1.0 * math.sin(0.5), abs=1e-3)


DEMO_TARGETS = {
    "base_yaw": 0.3,
    "shoulder_lift": 0.5,
    "elbow": 0.8,
    "wrist_pitch": 0.4,
    "wrist_roll": -0.3,
    "left_finger_joint": 0.02,
}


def test_demo_arm_settles_on_position_targets_under_gravity(make_sim, repo_dir) -> None:
    """urdf/demo_arm.urdf.xacro through all its transmissions (reduction with offset, four-bar,
    differential, rack and pinion), default gains, gravity: after 3 s of commanding the targets
    every joint is within 1e-3 rad (m) of its target and the mimic finger follows
    (−left + 0.002 m, same tolerance). Without the integral term wrist_pitch stopped at 0.4247."""
    sim = make_sim(
        str(repo_dir / "urdf" / "demo_arm.urdf.xacro"), {**GRAVITY, "render_cameras": False}
    )
    assert set(sim.tm.joint_names) == set(DEMO_TARGETS)
    qj = np.array([DEMO_TARGETS[j] for j in sim.tm.joint_names])
    zeros = np.zeros(len(qj))
    qa = sim.tm.joint_to_actuator(qj, zeros, zeros)[0]
    command = np.array([qa[sim.tm.actuator_names.index(a)] for a in sim.actuators])
    sim.run(3.0, command=lambda: sim.position(command))
    reached = np.array([sim.qpos(j) for j in sim.tm.joint_names])
    assert reached == pytest.approx(qj, abs=1e-3)
    assert sim.qpos("right_finger_joint") == pytest.approx(-0.02 + 0.002, abs=1e-3)
    assert sim.backend.instabilities == 0


def _demo_joint_positions(sim) -> dict[str, float]:
    q = sim.backend.joint_state()[0]
    positions = dict(zip(sim.backend.joint_names, q.tolist()))
    positions["right_finger_joint"] = sim.qpos("right_finger_joint")
    return positions


def test_demo_arm_starts_and_holds_at_ros2_control_initial_values(make_sim, repo_dir) -> None:
    """The demo arm's <ros2_control> position initial_values (joint space, as the mock backend):
    elbow 0.5 rad, left_finger_joint 0.02 m, the mimic finger −0.02 + 0.002 m. Right after
    configure they are exact (1e-12); the first 10 ms read is within 1e-3 (gravity sag before the
    hold PID acts, measured 4e-4 rad); without a command the arm holds them within 1e-3 after 1 s,
    and again after reset()."""
    sim = make_sim(
        str(repo_dir / "urdf" / "demo_arm.urdf.xacro"), {**GRAVITY, "render_cameras": False}
    )
    expected = {"elbow": 0.5, "left_finger_joint": 0.02, "right_finger_joint": -0.02 + 0.002}
    for _ in range(2):
        start = _demo_joint_positions(sim)
        for name, value in expected.items():
            assert start[name] == pytest.approx(value, abs=1e-12)
        sim.read(0.01)
        first = _demo_joint_positions(sim)
        for name, value in expected.items():
            assert first[name] == pytest.approx(value, abs=1e-3)
        sim.run(1.0)
        held = _demo_joint_positions(sim)
        for name, value in expected.items():
            assert held[name] == pytest.approx(value, abs=1e-3)
        sim.backend.reset()
    assert sim.backend.instabilities == 0


def _pendulum_with_initial_values(position: str, velocity: str) -> str:
    return pendulum_urdf(
        extra=f"""
  <ros2_control name="sim" type="system">
    <hardware><plugin>mock_components/GenericSystem</plugin></hardware>
    <joint name="j">
      <command_interface name="effort"/>
      <state_interface name="position"><param name="initial_value">{position}</param>
        </state_interface>
      <state_interface name="velocity"><param name="initial_value">{velocity}</param>
        </state_interface>
    </joint>
  </ros2_control>"""
    )


def test_velocity_initial_value_sets_the_joint_velocity(make_sim) -> None:
    """Position 0.3 rad and velocity 0.7 rad/s initial_values are the state after configure and
    after reset (exact up to float rounding, 1e-12)."""
    sim = make_sim(_pendulum_with_initial_values("0.3", "0.7"), GRAVITY)
    for _ in range(2):
        q, v, _ = sim.backend.joint_state()
        assert (float(q[0]), float(v[0])) == pytest.approx((0.3, 0.7), abs=1e-12)
        sim.run(0.1)
        sim.backend.reset()


def test_non_numeric_initial_value_is_rejected(make_sim) -> None:
    with pytest.raises(
        BackendError, match=r"joint 'j' state interface 'velocity' initial_value.*'fast'.*Fix"
    ):
        make_sim(_pendulum_with_initial_values("0.3", "fast"), GRAVITY)


def test_inertia_diagonal_index_matches_the_full_matrix(make_sim, repo_dir) -> None:
    """The index used for gain scheduling picks the diagonal of MuJoCo's joint-space inertia."""
    import mujoco

    from sdf_bridge.backends.mujoco.actuation import inertia_diagonal_index

    sim = make_sim(
        str(repo_dir / "urdf" / "demo_arm.urdf.xacro"), {**GRAVITY, "render_cameras": False}
    )
    model, data = sim.backend.model, sim.backend.data
    data.qpos[:] = np.linspace(0.1, 0.5, model.nq)
    mujoco.mj_forward(model, data)
    full = np.zeros((model.nv, model.nv))
    mujoco.mj_fullM(model, data, full)
    packed = data.M if hasattr(model, "M_rownnz") else data.qM
    assert np.asarray(packed)[inertia_diagonal_index(model)] == pytest.approx(
        np.diag(full), rel=1e-12
    )


def test_zero_command_holds_current_position(make_sim) -> None:
    """No command: the PID holds the position the joint had (default gains): |q| < 0.01 rad."""
    urdf = pendulum_urdf(
        joint_type="revolute",
        com_xyz="0.5 0 0",
        limit='<limit lower="-2" upper="2" effort="100" velocity="10"/>',
    )
    sim = make_sim(urdf, GRAVITY)
    sim.write(ActuatorCommand(nan(1), nan(1), nan(1)), 0.01)
    state = sim.run(1.0)[-1]
    assert abs(state.position[0]) < 0.01


def test_velocity_command_is_tracked(make_sim) -> None:
    """Vertical axis with damping 0.5: commanded 1 rad/s → measured 1 rad/s (tolerance 1e-3)."""
    urdf = pendulum_urdf(axis="0 0 1", com_xyz="0.5 0 0", dynamics='<dynamics damping="0.5"/>')
    sim = make_sim(urdf, GRAVITY)
    state = sim.run(2.0, command=lambda: sim.velocity([1.0]))[-1]
    assert state.velocity[0] == pytest.approx(1.0, abs=1e-3)


def test_ideal_position_mode_follows_exactly(make_sim) -> None:
    sim = make_sim(pendulum_urdf(), {**GRAVITY, "position_mode": "ideal"})
    sim.position([0.7])
    state = sim.read(0.01)
    assert state.position[0] == pytest.approx(0.7, abs=1e-12)
    assert state.velocity[0] == 0.0
    assert state.effort[0] == 0.0


def test_effort_clamped_to_joint_limit(make_sim) -> None:
    urdf = pendulum_urdf(
        joint_type="revolute",
        axis="0 0 1",
        limit='<limit lower="-3" upper="3" effort="5" velocity="10"/>',
    )
    sim = make_sim(urdf, GRAVITY)
    sim.effort([100.0])
    assert sim.read(0.01).effort[0] == pytest.approx(5.0, abs=1e-12)


def test_pause_step_reset_and_time(make_sim) -> None:
    sim = make_sim(pendulum_urdf(), GRAVITY)
    sim.effort([0.0])
    assert sim.read(0.01).sim_time == pytest.approx(0.01, abs=1e-12)
    sim.backend.pause(True)
    assert sim.backend.paused
    assert sim.read(0.01).sim_time == pytest.approx(0.01, abs=1e-12)
    sim.backend.step(5)
    assert sim.backend.sim_time == pytest.approx(0.015, abs=1e-12)
    sim.backend.pause(False)
    sim.backend.data.qvel[0] = 3.0
    sim.run(0.1)
    sim.backend.reset()
    assert sim.backend.sim_time == 0.0
    assert sim.qpos("j") == 0.0 and sim.qvel("j") == 0.0


def test_initial_position_applied_on_reset() -> None:
    robot = Robot(
        "init",
        links={
            "base": Link("base"),
            "arm": Link("arm", inertial=Inertial(1.0, Inertia(0.1, 0, 0, 0.1, 0, 0.1))),
        },
        joints={
            "j": Joint(
                "j",
                JointType.CONTINUOUS,
                "base",
                "arm",
                origin=Pose((0, 0, 1)),
                axis=Axis((0, 0, 1)),
                initial_position=0.25,
            )
        },
    )
    from sdf_bridge.transmissions import TransmissionMap

    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend()
    backend.configure(robot, transmissions=tm, params={})
    assert backend.read(0.01).actuators[0][0] == pytest.approx(0.25, abs=1e-6)


def test_real_time_factor_is_measured(make_sim, monkeypatch) -> None:
    """Simulated time / wall time from the last reset (or configure) to the first ask, then
    between asks at least RTF_WINDOW (0.1 s) of (fake) wall clock apart: asked sooner, the
    last value; over a paused interval 0; a reset starts again from 0. Exact up to the float
    round-off of the time differences (1e-9)."""
    clock = iter([100.0, 100.05, 100.2, 100.25, 100.45, 100.5, 100.55, 100.7])
    sim = make_sim(pendulum_urdf(), GRAVITY)
    backend = sim.backend
    monkeypatch.setattr(backend._rtf, "clock", lambda: next(clock))
    backend.reset()  # 100.0: the mark, at t = 0
    sim.run(0.02)
    assert backend.real_time_factor == 0.0  # 100.05: 0.05 s < RTF_WINDOW, not measured yet
    sim.run(0.02)
    assert backend.real_time_factor == pytest.approx(backend.sim_time / 0.2, abs=1e-9)  # 100.2
    assert backend.sim_time == pytest.approx(0.04, abs=1e-12)
    backend.pause(True)
    sim.run(0.01)
    # 100.25: too soon, the last value
    assert backend.real_time_factor == pytest.approx(0.2, abs=1e-9)
    assert backend.real_time_factor == 0.0  # 100.45: paused for 0.25 s, no simulated time
    backend.pause(False)
    backend.reset()  # 100.5: a new mark at t = 0, the value back to 0
    assert backend.real_time_factor == 0.0  # 100.55: too soon
    sim.run(0.05)
    assert backend.real_time_factor == pytest.approx(backend.sim_time / 0.2, abs=1e-9)  # 100.7
    assert backend.sim_time == pytest.approx(0.05, abs=1e-12)


def test_instability_recovers_with_a_clear_error(make_sim, caplog) -> None:
    """A non-finite velocity makes MuJoCo's step fail: the backend returns to the initial state
    (q = 0, finite, time kept: 0.02 s after two reads, exact to 1e-12), counts it, and logs one
    error naming the joint and the fix."""
    sim = make_sim(pendulum_urdf(), GRAVITY)
    sim.effort([0.0])
    sim.read(0.01)
    sim.backend.data.qpos[0] = 0.3
    sim.backend.data.qvel[0] = math.inf
    with caplog.at_level(logging.ERROR):
        state = sim.read(0.01)
    assert state.position[0] == 0.0 and state.velocity[0] == 0.0
    assert state.sim_time == pytest.approx(0.02, abs=1e-12)
    assert sim.backend.instabilities == 1
    assert (
        caplog.text.count("MuJoCo simulation became unstable (NaN, Inf or huge values) near t = ")
        == 1
    )
    assert (
        "at joint(s) ['j']; reset to the initial state (1 time(s) so far). Fix: check the masses"
        in caplog.text
    )
    assert np.isfinite(sim.read(0.01).position).all() and sim.backend.instabilities == 1


# -- errors --------------------------------------------------------------------------------------


def test_read_dt_not_multiple_of_timestep(make_sim) -> None:
    sim = make_sim(pendulum_urdf(), {"timestep": 0.002})
    with pytest.raises(BackendError, match=r"not a multiple of the physics timestep 0.002"):
        sim.read(0.003)


@pytest.mark.parametrize("dt", [math.nan, math.inf, 1e300, "0.01", None])
def test_read_non_finite_dt(make_sim, dt) -> None:
    sim = make_sim(pendulum_urdf())
    with pytest.raises(BackendError, match=r"dt must be a finite number of seconds"):
        sim.backend.read(dt)


def _position(q: float, n: int = 1) -> JointCommand:
    """Joint 0 at ``q`` in position mode, the others idle."""
    values = np.full((3, n), math.nan)
    values[0, 0] = q
    mode = np.zeros(n, dtype=MODE_DTYPE)
    mode[0] = Mode.POSITION
    return JointCommand(values, mode, np.full(n, math.nan))


def test_failed_write_is_not_skipped_when_resent(make_sim, monkeypatch) -> None:
    """A write that fails while being applied is not remembered: the same command sent again
    is applied (not skipped as a repeat)."""
    sim = make_sim(pendulum_urdf())
    backend = sim.backend
    applied = []
    real = mujoco_cycle.apply_command

    def failing(*args):
        raise RuntimeError("driver fault")

    monkeypatch.setattr(mujoco_cycle, "apply_command", failing)
    with pytest.raises(RuntimeError, match="driver fault"):
        backend.write(_position(0.3), 0.01)
    monkeypatch.setattr(
        mujoco_cycle, "apply_command", lambda *args: (applied.append(1), real(*args))
    )
    backend.write(_position(0.3), 0.01)
    backend.write(_position(0.3), 0.01)  # a repeat: skipped
    assert applied == [1]
    held = _position(0.3)
    held.mode[0] = Mode.NONE
    backend.write(held, 0.01)  # the same values, another mode: applied
    held.hold[0] = 0.2
    backend.write(held, 0.01)  # another hold position: applied
    assert applied == [1, 1, 1]


def test_read_negative_dt(make_sim) -> None:
    sim = make_sim(pendulum_urdf())
    with pytest.raises(
        BackendError, match=r"read\(dt=-0.01\) is not a multiple of the physics timestep"
    ):
        sim.read(-0.01)


def test_a_period_the_timestep_does_not_divide_names_the_parameter(make_sim) -> None:
    """One line that names backend_params.timestep and a timestep that would divide the period."""
    sim = make_sim(pendulum_urdf(), {"timestep": 0.003})
    with pytest.raises(
        BackendError,
        match=r"^read\(dt=0\.01\) is not a multiple of the physics timestep 0\.003 s "
        r"\(backend parameter timestep\)\. Fix: set backend_params\.timestep to a "
        r"divisor of the control period 1/update_rate \(e\.g\. 0\.0025 s\), or "
        r"update_rate so that 1/update_rate is a multiple of the timestep$",
    ):
        sim.read(0.01)


def test_write_wrong_shape(make_sim) -> None:
    sim = make_sim(pendulum_urdf())
    with pytest.raises(
        BackendError,
        match=r"joint command arrays of shapes \(\(3, 2\), \(1,\), \(1,\)\), "
        r"expected \(\(3, 1\), \(1,\), \(1,\)\) \(values: rows position",
    ):
        sim.backend.write(
            JointCommand(np.full((3, 2), math.nan), np.zeros(1, dtype=MODE_DTYPE), np.zeros(1)),
            0.01,
        )
    with pytest.raises(
        BackendError, match=r"joint command arrays of shapes \(\(3, 1\), \(2,\), \(1,\)\)"
    ):
        sim.backend.write(
            JointCommand(np.full((3, 1), math.nan), np.zeros(2, dtype=MODE_DTYPE), np.zeros(1)),
            0.01,
        )


def test_write_ragged_or_not_numbers(make_sim) -> None:
    sim = make_sim(pendulum_urdf())
    mode, hold = np.zeros(1, dtype=MODE_DTYPE), np.zeros(1)
    with pytest.raises(
        BackendError, match=r"joint command is not \(3, 1\), \(1,\), \(1,\) arrays of numbers"
    ):
        sim.backend.write(JointCommand([[0.1], [0.2, 0.3], [0.4]], mode, hold), 0.01)
    with pytest.raises(
        BackendError, match=r"joint command is not \(3, 1\), \(1,\), \(1,\) arrays of numbers"
    ):
        sim.backend.write(JointCommand([["a"], ["b"], ["c"]], mode, hold), 0.01)
    with pytest.raises(
        BackendError, match=r"joint command is not \(3, 1\), \(1,\), \(1,\) arrays of numbers"
    ):
        sim.backend.write(((0.1,), (0.2,), (0.3,)), 0.01)  # not a JointCommand


def test_numpy_scalar_dt_is_a_number(make_sim) -> None:
    """dt as a numpy float32 / int64 scalar (e.g. from a config array) is taken as its value:
    the read steps, and write prepares the actuators for it (bit for bit as a float dt)."""
    sims = [make_sim(pendulum_urdf()) for _ in range(2)]
    command = _position(0.3)
    for sim, dt in zip(sims, (0.01, np.float64(0.01))):
        for _ in range(5):
            sim.backend.write(command, dt)
            sim.backend.read(dt)
    np.testing.assert_array_equal(sims[0].backend.data.qpos, sims[1].backend.data.qpos)
    assert sims[1].backend.sim_time == pytest.approx(0.05, abs=1e-12)
    sims[1].backend.read(np.float32(0.02))  # float32(0.02) is 0.02 up to 1e-9 relative: 20 steps
    assert sims[1].backend.sim_time == pytest.approx(0.07, abs=1e-12)
    sims[1].backend.read(np.int64(0))
    assert sims[1].backend.sim_time == pytest.approx(0.07, abs=1e-12)


def test_write_takes_lists_and_strided_arrays(make_sim) -> None:
    """Lists, strided views, read-only arrays, other integer and float kinds: converted once
    (to C-contiguous float64 values and hold, int8 modes), the same
    command, so the same state; float32 is converted (0.3 in float32 differs from 0.3 by
    1.2e-8)."""
    sims = [make_sim(pendulum_urdf()) for _ in range(5)]
    hold = np.full(1, math.nan)
    sims[0].backend.write(_position(0.3), 0.01)
    sims[1].backend.write(
        JointCommand(
            np.array([[0.3, 0.0], [math.nan, 0.0], [math.nan, 0.0]])[:, ::2],
            np.array([1, 0], dtype=MODE_DTYPE)[::2],
            hold,
        ),
        0.01,
    )
    frozen = np.array([[0.3], [math.nan], [math.nan]])
    frozen.flags.writeable = False
    sims[2].backend.write(JointCommand(frozen, np.array([1], dtype=MODE_DTYPE), hold), 0.01)
    sims[3].backend.write(
        JointCommand([[0.3], [math.nan], [math.nan]], [int(Mode.POSITION)], [math.nan]), 0.01
    )
    sims[4].backend.write(
        JointCommand(
            np.array([[0.3], [math.nan], [math.nan]], dtype=np.float32),
            np.array([1], dtype=np.int64),
            hold,
        ),
        0.01,
    )
    states = [sim.backend.read(0.1).joints for sim in sims]
    for other in states[1:4]:
        np.testing.assert_array_equal(other, states[0])
    # 0.3 in float32: 1e-8 rad off
    np.testing.assert_allclose(states[4], states[0], rtol=1e-6, atol=1e-7)
    assert states[0][0, 0] != 0.0  # it moved towards 0.3 rad


def test_idle_joint_holds_the_commands_hold_position(make_sim) -> None:
    """Mode NONE with a hold position: the PID holds it (here 0.2 rad, vertical axis, no
    gravity torque: within 1e-3 after 2 s); with NaN it holds where it was when it became
    idle (0.2 again)."""
    urdf = pendulum_urdf(axis="0 0 1", com_xyz="0.5 0 0", dynamics='<dynamics damping="0.5"/>')
    sim = make_sim(urdf, GRAVITY)
    idle = JointCommand(np.full((3, 1), math.nan), np.zeros(1, dtype=MODE_DTYPE), np.array([0.2]))
    sim.run(2.0, command=lambda: sim.backend.write(idle, 0.01))
    assert sim.qpos("j") == pytest.approx(0.2, abs=1e-3)
    sim.velocity([1.0])
    sim.run(0.5)
    moved = sim.qpos("j")
    sim.backend.write(
        JointCommand(
            np.full((3, 1), math.nan), np.zeros(1, dtype=MODE_DTYPE), np.full(1, math.nan)
        ),
        0.01,
    )
    sim.run(2.0)
    assert moved > 0.5 and sim.qpos("j") == pytest.approx(moved, abs=1e-2)


@pytest.mark.parametrize("call", ["read", "write"])
def test_use_before_configure(call: str) -> None:
    backend = MujocoBackend()
    with pytest.raises(BackendError, match="before configure"):
        if call == "write":
            backend.write(_position(0.3), 0.01)
        else:
            backend.read(0.01)


def test_step_negative(make_sim) -> None:
    sim = make_sim(pendulum_urdf())
    for bad in (-1, 2.5, True, "3"):
        with pytest.raises(
            BackendError, match=rf"step\(n={bad!r}\): n must be a whole number of physics steps"
        ):
            sim.backend.step(bad)


def test_multi_dof_transmission_joint_rejected() -> None:
    class FakeMap:
        joint_names = ("ball",)
        actuator_names = ("ball",)

    robot = Robot(
        "r",
        links={"a": Link("a"), "b": Link("b")},
        joints={"ball": Joint("ball", JointType.BALL, "a", "b")},
    )
    with pytest.raises(BackendError, match=r"transmission joint 'ball' is a ball joint"):
        MujocoBackend().configure(robot, transmissions=FakeMap(), params={})
