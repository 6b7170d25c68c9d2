"""One physics, several robots (sdf_bridge.backends.shared): each robot's hardware system over
its slice, its faults its own; the slices' columns, sensors and errors."""

from __future__ import annotations

import numpy as np
import pytest
from several_robots import ARM_NAMES, THREE_ARMS

from sdf_bridge.backends import create_backend
from sdf_bridge.backends.shared import RobotSlice, SharedPhysics
from sdf_bridge.description import load
from sdf_bridge.description.scope import unscope_robot
from sdf_bridge.description.world import select_robots
from sdf_bridge.errors import BackendError
from sdf_bridge.hardware import HardwareSystem

DT = 0.01


@pytest.fixture
def world():
    combined = select_robots(load(THREE_ARMS))
    shared = SharedPhysics(create_backend("mujoco"), combined, {"render_cameras": False})
    systems = {
        name: HardwareSystem(
            unscope_robot(combined, name),
            RobotSlice(shared, name),
            command_timeout=0.2,
            update_rate=1.0 / DT,
        )
        for name in combined.robots
    }
    yield combined, shared, systems
    for system in systems.values():
        system.close()
    shared.close()


def _tick(systems, t: float) -> dict:
    for system in systems.values():
        system.write(t, DT)
    return {name: system.read(t, DT) for name, system in systems.items()}


def test_each_robot_has_its_own_names_and_one_step_per_tick(world) -> None:
    _combined, shared, systems = world
    assert {n: s.joint_names for n, s in systems.items()} == {a: ("j1", "j2") for a in ARM_NAMES}
    states = _tick(systems, 0.0)
    times = [s.sim_time for s in states.values()]
    assert times == [pytest.approx(DT, abs=1e-12)] * 3  # one step for all


def test_a_watchdog_trip_holds_its_robot_only(world) -> None:
    """The velocity arm's commands stop after 0.2 s: its watchdog trips (velocity 0), while the
    position arm, still commanded, keeps tracking."""
    _combined, _shared, systems = world
    t = 0.0
    for k in range(100):
        systems["position"].submit_joint_state(["j1", "j2"], [0.5, -0.3], None, None, t)
        if k < 20:
            systems["velocity"].submit_joint_state(["j1", "j2"], None, [1.0, 1.0], None, t)
        states = _tick(systems, t)
        t += DT
    assert (systems["velocity"].watchdog.trips, systems["position"].watchdog.trips) == (1, 0)
    np.testing.assert_allclose(states["velocity"].velocity, 0.0, atol=0.02)
    np.testing.assert_allclose(states["position"].position, [0.5, -0.3], atol=0.01)


def test_an_e_stop_holds_its_robot_only(world) -> None:
    _combined, _shared, systems = world
    systems["velocity"].enable(False)
    t = 0.0
    for _ in range(50):
        systems["effort"].submit_joint_state(["j1", "j2"], None, None, [0.02, 0.01], t)
        states = _tick(systems, t)
        t += DT
    np.testing.assert_allclose(states["velocity"].position, 0.0, atol=1e-4)
    assert states["effort"].position[0] > 0.01


def test_a_slice_of_another_robot_is_refused(world) -> None:
    combined, shared, _systems = world
    other = load(
        THREE_ARMS.replace('name="j2"', 'name="j9"').replace('relative_to="j2"', 'relative_to="j9"')
    )
    alone = unscope_robot(select_robots(other), "position")
    with pytest.raises(
        BackendError,
        match=r"robot 'position': joints \['j9'\] are not in the shared simulation",
    ):
        HardwareSystem(alone, RobotSlice(shared, "position"), command_timeout=0.0)


def test_joint_properties_change_in_the_robot_they_name(world) -> None:
    """A robot's damping change (its own joint name) reaches that robot's joint in the shared
    physics only."""
    _combined, shared, systems = world
    before = systems["velocity"].joint_properties()["j1"]["damping"]
    assert before == pytest.approx(0.05, abs=1e-12)
    systems["position"].set_joint_properties({"j1": {"damping": 0.3}})
    assert systems["position"].joint_properties()["j1"]["damping"] == 0.3
    values = shared.backend.joint_properties()
    assert values["position::j1"]["damping"] == pytest.approx(0.3, abs=1e-12)
    assert values["velocity::j1"]["damping"] == pytest.approx(0.05, abs=1e-12)
