"""Joint wrench feedback (Gazebo's GetForceTorque, parent → child in the joint frame at the child)
against closed form: a horizontal arm held at its joint, a mass hanging from a fixed joint."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from mujoco_helpers import Sim, pendulum_urdf

from sdf_bridge.backends.mujoco.joint_wrench import JointWrenches
from sdf_bridge.backends.sensor_readings import WrenchReading

G = 9.81
M_ARM, L = 2.0, 0.5  # kg, m: the arm's point mass and its lever arm
M_HANG = 3.0  # kg, hanging 0.3 m below the arm's joint from a fixed joint
FEEDBACK = (
    '<gazebo reference="j"><provideFeedback>true</provideFeedback></gazebo>'
    '<gazebo reference="hang"><provideFeedback>true</provideFeedback></gazebo>'
)
HANGING = """<link name="w"><inertial><origin xyz="0 0 -0.3"/><mass value="3"/>
  <inertia ixx="1e-6" ixy="0" ixz="0" iyy="1e-6" iyz="0" izz="1e-6"/></inertial></link>
  <joint name="hang" type="fixed"><parent link="arm"/><child link="w"/></joint>"""


def arm(rpy: str = "0 0 0", axis: str = "0 1 0", extra: str = FEEDBACK) -> str:
    """Arm of M_ARM at L along the child's x, joint at 2 m with origin rpy, and M_HANG hanging
    from a fixed joint at the joint."""
    urdf = pendulum_urdf(
        joint_type="revolute",
        axis=axis,
        com_xyz=f"{L} 0 0",
        mass=M_ARM,
        limit='<limit lower="-1" upper="1" effort="1000" velocity="10"/>',
        extra=extra,
        extra_links=HANGING,
    )
    return urdf.replace('<origin xyz="0 0 2.0"/>', f'<origin xyz="0 0 2.0" rpy="{rpy}"/>')


def held(sim: Sim, seconds: float = 1.0) -> dict[str, WrenchReading]:
    """Hold the arm's joint at 0 for ``seconds``; the readings of the last read."""
    for _ in range(int(seconds / 0.01)):
        sim.position([0.0])
        state = sim.backend.read(0.01)
    assert abs(sim.qpos("j")) < 1e-3  # horizontal: cos θ = 1 within 1e-6
    return dict(state.sensors)


def close(value: tuple[float, ...], expected: tuple[float, ...], scale: float) -> None:
    """Each component within 1 % of ``scale`` of its closed form."""
    assert value == pytest.approx(expected, abs=0.01 * scale)


@pytest.mark.parametrize("mode", ["pid", "ideal"])
def test_horizontal_arm_held_carries_weight_and_moment(
    make_sim: Callable[..., Sim], mode: str
) -> None:
    sim = make_sim(arm(), {"position_mode": mode})
    out = held(sim, 2.0)
    w = (M_ARM + M_HANG) * G
    # on the arm: its weight and the hanging one up (+z); the moment of the arm's weight about
    # the joint, (L, 0, 0) × (0, 0, -m g) = (0, m g L, 0), balanced: −m g L about y
    close(out["joint_wrench/j"].force, (0.0, 0.0, w), w)
    close(out["joint_wrench/j"].torque, (0.0, -M_ARM * G * L, 0.0), M_ARM * G * L)
    # the fixed joint holds the hanging mass: m g up, no moment (it hangs below the joint)
    close(out["joint_wrench/hang"].force, (0.0, 0.0, M_HANG * G), M_HANG * G)
    close(out["joint_wrench/hang"].torque, (0.0, 0.0, 0.0), M_HANG * G)


def test_wrench_is_in_the_joint_frame(make_sim: Callable[..., Sim]) -> None:
    # joint frame rolled 90° about x (child y = world z, child z = world −y), axis = child z
    # (world −y): gravity in the joint frame is (0, −g, 0), so the joint pushes +y; the arm's
    # moment (L, 0, 0) × (0, −m g, 0) = (0, 0, −m g L) is balanced by +m g L about z; the
    # hanging mass, now at (0, 0, −0.3) in the joint frame, adds (0.3 m g, 0, 0) across the axis
    sim = make_sim(arm(rpy=f"{math.pi / 2} 0 0", axis="0 0 1"))
    out = held(sim)
    w = (M_ARM + M_HANG) * G
    close(out["joint_wrench/j"].force, (0.0, w, 0.0), w)
    expected = (0.3 * M_HANG * G, 0.0, M_ARM * G * L)
    close(out["joint_wrench/j"].torque, expected, M_ARM * G * L)


def test_no_feedback_no_reading_and_demand(make_sim: Callable[..., Sim]) -> None:
    sim = make_sim(arm(extra=""))
    assert not sim.backend.joint_wrenches.names
    assert dict(sim.backend.read(0.01).sensors) == {}
    sim = make_sim(arm())
    sim.backend.set_sensor_demand(frozenset({"joint_wrench/hang"}))
    assert set(sim.backend.read(0.01).sensors) == {"joint_wrench/hang"}
    sim.backend.set_sensor_demand(frozenset())
    assert dict(sim.backend.read(0.01).sensors) == {}


def test_joint_whose_child_has_no_body_is_not_read(make_sim: Callable[..., Sim]) -> None:
    sim = make_sim(arm())
    built = sim.backend.built
    built.link_body["w"] = "world"  # (a child on the world body, as a world link would be)
    del built.link_body["arm"]
    wrenches = JointWrenches.attach(sim.robot, built)
    assert wrenches.names == {}
    assert wrenches.unsupported == [
        "joint 'j': its child is not simulated; its wrench feedback is not published",
        "joint 'hang': its child is the world body; its wrench feedback is not published",
    ]


NO_GRAVITY = (
    '<gazebo reference="arm"><turnGravityOff>true</turnGravityOff></gazebo>'
    '<gazebo reference="w"><gravity>false</gravity></gazebo>'
)


def test_links_without_gravity_carry_no_weight(make_sim: Callable[..., Sim]) -> None:
    # both links gravity-off (MuJoCo gravcomp 1): at rest with no effort, nothing to carry, as
    # Gazebo reports (cfrc_int alone would read the weight (0, 0, 49.05) and 9.81 N·m)
    sim = make_sim(arm(extra=FEEDBACK + NO_GRAVITY))
    for _ in range(100):
        sim.effort([0.0])
        state = sim.backend.read(0.01)
    assert abs(sim.qpos("j")) < 1e-9
    out = dict(state.sensors)
    for name in ("joint_wrench/j", "joint_wrench/hang"):
        assert out[name].force == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
        assert out[name].torque == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)


def test_half_compensated_links_carry_half_their_weight(make_sim: Callable[..., Sim]) -> None:
    # MuJoCo's gravcomp 0.5 (not written by descriptions; set on the compiled model): the joint
    # held at 0 carries half the weight and half the arm's moment
    sim = make_sim(arm(extra=FEEDBACK + NO_GRAVITY))
    backend = sim.backend
    backend.model.body_gravcomp[backend.model.body_gravcomp > 0] = 0.5
    backend.joint_wrenches.bind(backend.model, backend.data)
    out = held(sim, 2.0)
    w = 0.5 * (M_ARM + M_HANG) * G
    close(out["joint_wrench/j"].force, (0.0, 0.0, w), w)
    close(out["joint_wrench/j"].torque, (0.0, -0.5 * M_ARM * G * L, 0.0), M_ARM * G * L)
    close(out["joint_wrench/hang"].force, (0.0, 0.0, 0.5 * M_HANG * G), M_HANG * G)
