"""The MuJoCo world as entities (sdf_bridge.backends.mujoco.world): a free-floating box is
teleported to exact poses and twists, pushed by external wrenches that accelerate it as F/m
and τ/I (closed forms, semi-implicit Euler being exact for a constant acceleration), and the
standard's run-state transitions are one table."""

from __future__ import annotations

import math

import numpy as np
import pytest
from mujoco_helpers import pendulum_urdf

from sdf_bridge.backends.mujoco.world import (
    GRAVITY,
    MAX_WRENCH_G,
    EntityError,
    Outcome,
    SimulationState,
    Transition,
    plan_transition,
)
from sdf_bridge.errors import BackendError

MASS, IXX, IZZ = 2.0, 0.2, 0.3  # kg, kg·m²
DT = 0.001  # s, the backend's default timestep
BOX = f"""<?xml version="1.0"?>
<robot name="box">
  <link name="body">
    <inertial><origin xyz="{{com}}"/><mass value="{MASS}"/>
      <inertia ixx="{IXX}" ixy="0" ixz="0" iyy="{IXX}" iyz="0" izz="{IZZ}"/></inertial>
    <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
  </link>
</robot>"""
FLOATING = {
    "fixed_base": False,
    "ground_plane": False,
    "gravity": [0.0, 0.0, 0.0],
    "base_pose": [0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
    "render_cameras": False,
}
QZ90 = (0.0, 0.0, math.sqrt(0.5), math.sqrt(0.5))  # x y z w: 90° about z


@pytest.fixture
def box(make_sim):
    """A 2 kg box floating without gravity, its centre of mass at its frame's origin."""
    return make_sim(BOX.format(com="0 0 0"), FLOATING)


def _step(sim, n: int) -> None:
    sim.backend.step(n)


def test_entities_are_the_robot_its_links_and_the_scenery(box) -> None:
    assert box.backend.world.entities() == ("box", "box::body")


def test_state_is_the_link_frame_in_the_world(box) -> None:
    state = box.backend.world.state("box")
    np.testing.assert_array_equal(state.position, [0.0, 0.0, 1.0])
    np.testing.assert_array_equal(state.orientation, [0.0, 0.0, 0.0, 1.0])
    for v in (state.linear_velocity, state.angular_velocity, state.linear_acceleration):
        np.testing.assert_array_equal(v, [0.0, 0.0, 0.0])
    assert state.sim_time == 0.0


def test_teleport_sets_the_exact_pose_and_twist(box) -> None:
    world = box.backend.world
    world.set_state("box", (1.0, -2.0, 3.0), QZ90, (0.5, 0.25, -1.0), (0.0, 0.0, 0.2))
    state = world.state("box::body")  # the root link is the robot
    np.testing.assert_allclose(state.position, [1.0, -2.0, 3.0], rtol=0, atol=1e-15)
    np.testing.assert_allclose(state.orientation, QZ90, rtol=0, atol=1e-15)
    np.testing.assert_allclose(state.linear_velocity, [0.5, 0.25, -1.0], rtol=0, atol=1e-15)
    np.testing.assert_allclose(state.angular_velocity, [0.0, 0.0, 0.2], rtol=0, atol=1e-15)
    base = box.backend.base_state()  # odometry agrees (twist in the link frame)
    np.testing.assert_allclose(base.linear_velocity, [0.25, -0.5, -1.0], atol=1e-15)


def test_a_teleported_twist_carries_on_without_forces(box) -> None:
    world = box.backend.world
    world.set_state("box", (0.0, 0.0, 1.0), (0.0, 0.0, 0.0, 1.0), (0.5, 0.0, -0.25))
    _step(box, 200)
    np.testing.assert_allclose(world.state("box").position, [0.1, 0.0, 0.95], atol=1e-12)


def test_quaternion_near_unit_is_normalised(box) -> None:
    world = box.backend.world
    world.set_state("box", (0, 0, 1), (0.0, 0.0, 0.0, 1.0005))
    np.testing.assert_allclose(world.state("box").orientation, [0, 0, 0, 1], atol=1e-15)


@pytest.mark.parametrize(
    ("args", "reason", "match"),
    [
        (
            ("nothing", (0, 0, 0), (0, 0, 0, 1)),
            "not_found",
            r"no entity 'nothing'; the entities "
            r"are: box, box::body",
        ),
        (("box", (0, 0, 0), (0, 0, 0, 2)), "invalid_pose", r"not a unit quaternion \(norm 2\)"),
        (("box", (0, math.nan, 0), (0, 0, 0, 1)), "invalid_pose", "not a finite number"),
        (("box", (0, 0), (0, 0, 0, 1)), "invalid_pose", "not 3 \\+ 4 \\+ 3 \\+ 3"),
    ],
)
def test_set_state_errors(box, args, reason: str, match: str) -> None:
    with pytest.raises(EntityError, match=match) as info:
        box.backend.world.set_state(*args)
    assert info.value.reason == reason


def test_fixed_base_robot_and_its_links_cannot_be_set(make_sim) -> None:
    sim = make_sim(pendulum_urdf(), {"render_cameras": False})
    world = sim.backend.world
    assert world.entities() == ("pendulum", "pendulum::base", "pendulum::arm")
    with pytest.raises(
        EntityError,
        match=r"'pendulum' cannot be set \(the robot is on a fixed "
        r"base\): only the free-floating base \(none here\)",
    ) as info:
        world.set_state("pendulum", (0, 0, 0), (0, 0, 0, 1))
    assert info.value.reason == "not_settable"
    with pytest.raises(EntityError, match=r"'pendulum::arm' cannot be set \(a link\)"):
        world.set_state("pendulum::arm", (0, 0, 0), (0, 0, 0, 1))
    # the arm hangs 1 m below the pivot at 2 m: its link frame is at the pivot
    np.testing.assert_allclose(world.state("pendulum::arm").position, [0, 0, 2], atol=1e-12)


def test_free_fall_reads_g_as_the_acceleration(make_sim) -> None:
    sim = make_sim(BOX.format(com="0 0 0"), {**FLOATING, "gravity": [0.0, 0.0, -9.81]})
    _step(sim, 10)
    state = sim.backend.world.state("box")
    np.testing.assert_allclose(state.linear_acceleration, [0, 0, -9.81], atol=1e-9)
    assert state.linear_velocity[2] == pytest.approx(-9.81 * 10 * DT, abs=1e-12)


def test_a_world_force_accelerates_the_box_as_f_over_m(box) -> None:
    world = box.backend.world
    force = 3.0
    world.apply_wrench("body", (force, 0.0, 0.0), (0.0, 0.0, 0.0), steps=world.steps_for(0.1))
    _step(box, 50)  # half-way: a = F/m
    state = world.state("box")
    assert state.linear_velocity[0] == pytest.approx(force / MASS * 0.05, rel=1e-9)
    assert state.linear_acceleration[0] == pytest.approx(force / MASS, rel=1e-9)
    _step(box, 150)  # the push ended at 0.1 s: coasting at F/m · 0.1
    state = world.state("box")
    assert state.linear_velocity[0] == pytest.approx(force / MASS * 0.1, rel=1e-9)
    assert state.linear_acceleration[0] == pytest.approx(0.0, abs=1e-12)
    assert not world.acting
    np.testing.assert_array_equal(box.backend.data.xfrc_applied, 0.0)
    # semi-implicit Euler: x = a·dt²·k(k+1)/2 after k pushed steps, then v·dt per step
    a, k = force / MASS, 100
    expected = a * DT**2 * k * (k + 1) / 2 + a * k * DT * 100 * DT
    assert state.position[0] == pytest.approx(expected, rel=1e-9)


def test_a_link_frame_force_turns_with_the_link(box) -> None:
    world = box.backend.world
    world.set_state("box", (0, 0, 1), QZ90)  # the link's x axis is the world's y
    world.apply_wrench("box", (2.0, 0.0, 0.0), (0.0, 0.0, 0.0), local=True, steps=100)
    _step(box, 100)
    np.testing.assert_allclose(world.state("box").linear_velocity, [0, 0.1, 0], atol=1e-12)


def test_a_torque_accelerates_as_tau_over_i(box) -> None:
    world = box.backend.world
    world.apply_wrench("box", (0.0, 0.0, 0.0), (0.0, 0.0, 0.6))  # until cleared
    _step(box, 100)
    assert world.state("box").angular_velocity[2] == pytest.approx(0.6 / IZZ * 0.1, rel=1e-9)
    world.clear_wrench("box::body")
    _step(box, 10)
    assert world.state("box").angular_velocity[2] == pytest.approx(0.6 / IZZ * 0.1, rel=1e-9)


def test_a_force_at_an_origin_off_the_com_also_turns_the_box(make_sim) -> None:
    sim = make_sim(BOX.format(com="0.1 0 0"), FLOATING)
    world = sim.backend.world
    world.apply_wrench("box", (0.0, 1.0, 0.0), (0.0, 0.0, 0.0), steps=10)
    _step(sim, 10)
    state = world.state("box")
    # torque about the com (origin − com) × F = (−0.1, 0, 0) × (0, 1, 0) = −0.1 about z
    assert state.angular_velocity[2] == pytest.approx(-0.1 / IZZ * 0.01, rel=1e-3)


def test_zero_wrench_and_reset_clear_it(box) -> None:
    world = box.backend.world
    world.apply_wrench("box", (1.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    world.apply_wrench("box", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    assert not world.acting
    world.apply_wrench("box", (1.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    box.backend.reset()
    assert not world.acting
    _step(box, 10)
    np.testing.assert_array_equal(world.state("box").linear_velocity, [0.0, 0.0, 0.0])


def test_wrench_errors(box) -> None:
    world = box.backend.world
    with pytest.raises(EntityError, match="no entity 'wheel'") as info:
        world.apply_wrench("wheel", (1, 0, 0), (0, 0, 0))
    assert info.value.reason == "not_found"
    with pytest.raises(EntityError, match=r"no entity 'xxxxxxxxxx[x]*…\(\+99920\)'") as info:
        world.apply_wrench("x" * 100_000, (1, 0, 0), (0, 0, 0))  # a peer's name, clipped
    assert len(str(info.value)) < 1000
    with pytest.raises(EntityError, match="3 finite numbers each") as info:
        world.apply_wrench("box", (math.inf, 0, 0), (0, 0, 0))
    assert info.value.reason == "not_finite"
    with pytest.raises(BackendError, match=r"steps=0 must be a whole number ≥ 1"):
        world.apply_wrench("box", (1, 0, 0), (0, 0, 0), steps=0)
    with pytest.raises(EntityError, match="no entity 'wheel'"):
        world.clear_wrench("wheel")
    assert world.steps_for(0.0) == 1 and world.steps_for(0.0104) == 10


def test_a_wrench_above_100_g_on_the_carried_mass_is_refused(box) -> None:
    """The 2 kg box: force bound 100 × 9.80665 × 2 = 1961.33 N, torque the same at 1 m; at the
    bound it is taken, above it refused (a peer's 1e30 N would diverge and reset the model)."""
    world = box.backend.world
    bound = MAX_WRENCH_G * GRAVITY * 2.0
    assert bound == pytest.approx(1961.33, abs=1e-9)
    world.apply_wrench("box", (bound, 0, 0), (0, 0, 0))
    world.apply_wrench("box", (0, 0, 0), (0, 0, bound))
    for force, torque in (((bound * 1.001, 0, 0), (0, 0, 0)), ((0, 0, 0), (0, 1e30, 0))):
        with pytest.raises(
            EntityError, match=r"above the bound 1961\.33 \(100\.0 g on the 2 kg"
        ) as info:
            world.apply_wrench("box", force, torque)
        assert info.value.reason == "too_large"


def test_set_time_keeps_the_state(box) -> None:
    world = box.backend.world
    world.set_state("box", (0, 0, 1), (0, 0, 0, 1), (1.0, 0, 0))
    _step(box, 100)
    box.backend.set_time(0.0)
    assert world.time == 0.0
    assert world.state("box").position[0] == pytest.approx(0.1, rel=1e-12)
    with pytest.raises(BackendError, match=r"set_time\(t=-1.0\): t must be a finite number"):
        box.backend.set_time(-1.0)


@pytest.mark.parametrize(
    ("current", "target", "expected"),
    [
        (SimulationState.PLAYING, 0, Transition(True, True, Outcome.DONE)),
        (SimulationState.PAUSED, 0, Transition(True, True, Outcome.DONE)),
        (SimulationState.STOPPED, 0, Transition(None, False, Outcome.ALREADY)),
        (SimulationState.STOPPED, 1, Transition(False, False, Outcome.DONE)),
        (SimulationState.PAUSED, 1, Transition(False, False, Outcome.DONE)),
        (SimulationState.PLAYING, 1, Transition(None, False, Outcome.ALREADY)),
        (SimulationState.PLAYING, 2, Transition(True, False, Outcome.DONE)),
        (SimulationState.STOPPED, 2, Transition(True, False, Outcome.DONE)),
        (SimulationState.PAUSED, 2, Transition(None, False, Outcome.ALREADY)),
        (SimulationState.PLAYING, 3, Transition(None, False, Outcome.UNSUPPORTED)),
        (SimulationState.PLAYING, 4, Transition(None, False, Outcome.UNSUPPORTED)),
        (SimulationState.PLAYING, 200, Transition(None, False, Outcome.UNSUPPORTED)),
    ],
)
def test_transitions(current: SimulationState, target: int, expected: Transition) -> None:
    assert plan_transition(current, target) == expected


def test_stopped_until_time_advances_or_a_state_is_asked(box) -> None:
    world = box.backend.world
    assert world.simulation_state(paused=False) == SimulationState.PLAYING
    assert world.simulation_state(paused=True) == SimulationState.PAUSED
    world.mark_stopped()
    assert world.simulation_state(paused=True) == SimulationState.STOPPED
    _step(box, 1)
    assert world.simulation_state(paused=True) == SimulationState.PAUSED
    world.mark_stopped()
    world.clear_stopped()
    assert world.simulation_state(paused=True) == SimulationState.PAUSED


WORLD = """<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <model name="shelf"><static>true</static><pose>1 2 0 0 0 1.5707963267948966</pose>
      <link name="board"><collision name="top"><geometry><box><size>1 0.4 0.02</size></box>
        </geometry></collision></link></model>
    <model name="bot"><link name="base"><inertial><mass>1</mass><inertia><ixx>0.1</ixx>
      <iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link></model>
  </world>
</sdf>"""


def test_scenery_is_a_static_entity_at_its_world_pose(make_sim) -> None:
    from sdf_bridge.description import load
    from sdf_bridge.description.world import select_robot

    sim = make_sim(select_robot(load(WORLD), "bot"), {"render_cameras": False})
    world = sim.backend.world
    assert world.entities() == ("bot", "bot::base", "shelf")
    state = world.state("shelf")
    np.testing.assert_allclose(state.position, [1.0, 2.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(state.orientation, QZ90, atol=1e-15)
    np.testing.assert_array_equal(state.linear_velocity, [0.0, 0.0, 0.0])
    with pytest.raises(EntityError, match=r"'shelf' is static scenery of the world") as info:
        world.set_state("shelf", (0, 0, 0), (0, 0, 0, 1))
    assert info.value.reason == "static"
    with pytest.raises(EntityError, match="'shelf' is static scenery: no wrench moves it"):
        world.apply_wrench("shelf", (1, 0, 0), (0, 0, 0))
