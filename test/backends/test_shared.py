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


def _simulation(combined, command_timeout: float, **params):
    """The shared MuJoCo physics of ``combined`` (backend ``params``) and a hardware system per
    robot: ``(shared, {robot: system})``."""
    shared = SharedPhysics(create_backend("mujoco"), combined, {"render_cameras": False, **params})
    systems = {
        name: HardwareSystem(
            unscope_robot(combined, name),
            RobotSlice(shared, name),
            command_timeout=command_timeout,
            update_rate=1.0 / DT,
        )
        for name in combined.robots
    }
    return shared, systems


@pytest.fixture
def world():
    combined = select_robots(load(THREE_ARMS))
    shared, systems = _simulation(combined, command_timeout=0.2)
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
    assert all(s.backend.reads_joint_wrenches for s in systems.values())  # MuJoCo's, forwarded


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


def _two_worlds(text: str, **params):
    """Two identical simulations of ``text`` (backend ``params``): (shared physics, systems by
    robot) each."""
    return [_simulation(select_robots(load(text)), command_timeout=0.0, **params) for _ in range(2)]


def _close(worlds) -> None:
    for shared, systems in worlds:
        for system in systems.values():
            system.close()
        shared.close()


@pytest.mark.parametrize("position_mode", ["pid", "ideal"])
def test_a_robots_reset_re_homes_it_alone_the_others_unperturbed(position_mode: str) -> None:
    """The position arm follows a trajectory, the velocity arm turns at a constant velocity:
    a reset of the velocity arm after 0.5 s re-homes it (0, at rest, its command gone, holding
    there) and leaves the position arm's motion as it is without the reset (to 1e-9; they
    cannot touch), and the simulated time going on; with PID position servos or ideal
    (kinematic) position joints."""
    worlds = _two_worlds(THREE_ARMS, position_mode=position_mode)
    try:
        runs = []
        for index, (_shared, systems) in enumerate(worlds):
            joints, homed = [], None
            t = 0.0
            for k in range(100):
                if k == 1:  # (once its state is known)
                    systems["position"].submit_trajectory(
                        ["j1", "j2"], [0.8], [[0.5, -0.3]], None, None, t
                    )
                if k < 50:
                    systems["velocity"].submit_joint_state(
                        ["j1", "j2"], None, [0.4, -0.2], None, now=t
                    )
                if k == 50 and index == 1:
                    systems["velocity"].reset()
                    homed = systems["velocity"].read(t, 0.0)
                states = _tick(systems, t)
                t += DT
                joints.append(states["position"].joints.copy())
            runs.append((np.array(joints), states, homed))
        (alone, _, _), (beside, after, homed) = runs
        assert np.abs(beside - alone).max() <= 1e-9
        assert np.abs(beside[-1, 0] - [0.5, -0.3]).max() < 0.01  # (it did move)
        np.testing.assert_allclose(homed.joints[:2], np.zeros((2, 2)), atol=1e-12)
        np.testing.assert_allclose(after["velocity"].joints[0], [0.0, 0.0], atol=2e-3)
        assert after["velocity"].sim_time == pytest.approx(1.0, abs=1e-9)
        assert homed.sim_time == pytest.approx(0.5, abs=1e-9)
    finally:
        _close(worlds)


def test_the_simulation_reset_re_homes_every_robot_and_the_time(world) -> None:
    _combined, shared, systems = world
    systems["position"].submit_joint_state(["j1", "j2"], [0.5, -0.3], None, None, now=0.0)
    t = 0.0
    for _ in range(30):
        _tick(systems, t)
        t += DT
    shared.reset()
    for system in systems.values():
        system.reset()
    states = {n: s.read(t, 0.0) for n, s in systems.items()}
    assert {n: s.sim_time for n, s in states.items()} == {a: 0.0 for a in ARM_NAMES}
    for state in states.values():
        np.testing.assert_allclose(state.joints[:2], np.zeros((2, 2)), atol=1e-12)


FALLER_BESIDE_ARM = THREE_ARMS.replace(
    "</world>",
    '<model name="faller"><pose>1 0 0.5 0 0 0.3</pose>'
    '<link name="body"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy>'
    "<izz>0.01</izz></inertia></inertial><collision name='c'><geometry><box><size>0.1 0.1 0.1"
    "</size></box></geometry></collision></link>"
    '<link name="flap"><pose>0 0 0.1 0 0 0</pose><inertial><mass>0.1</mass><inertia><ixx>'
    "0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial></link>"
    '<joint name="hinge" type="revolute"><parent>body</parent><child>flap</child><axis><xyz>'
    "1 0 0</xyz></axis></joint></model></world>",
)
"""The three arms and a free-floating box with a flap on a hinge, 0.5 m up, 1 m away."""


def test_a_free_robots_reset_re_homes_its_base_the_arm_unperturbed() -> None:
    """The box falls for 0.3 s and is reset: its base is back at its first pose, at rest,
    while the position arm follows its trajectory as without the reset (to 1e-9)."""
    worlds = _two_worlds(FALLER_BESIDE_ARM, fixed_base=False)
    try:
        runs = []
        for index, (_shared, systems) in enumerate(worlds):
            joints, homed = [], None
            start = systems["faller"].backend.base_state()  # (configured: reset once)
            t = 0.0
            for k in range(60):
                if k == 1:
                    systems["position"].submit_trajectory(
                        ["j1", "j2"], [0.5], [[0.5, -0.3]], None, None, t
                    )
                if k == 30 and index == 1:
                    systems["faller"].reset()
                    homed = systems["faller"].backend.base_state()
                states = _tick(systems, t)
                t += DT
                joints.append(states["position"].joints.copy())
            runs.append((np.array(joints), start, homed, systems["faller"].backend.base_state()))
        (alone, start, _, fallen), (beside, _, homed, _) = runs
        assert np.abs(beside - alone).max() <= 1e-9
        assert fallen.position[2] < start.position[2] - 0.05  # (it did fall)
        np.testing.assert_array_equal(homed.position, start.position)
        np.testing.assert_array_equal(homed.orientation, start.orientation)
        np.testing.assert_allclose(homed.linear_velocity, 0.0, atol=1e-12)
        np.testing.assert_allclose(homed.angular_velocity, 0.0, atol=1e-12)
        assert homed.sim_time == pytest.approx(0.3, abs=1e-9)
    finally:
        _close(worlds)


def test_a_free_robot_of_a_world_starts_at_its_world_pose() -> None:
    """No lift for several robots: the box starts 0.5 m up as the world places it (the
    combined model's lowest geom, an arm's, once moved every free robot: to 0.276 m)."""
    worlds = _two_worlds(FALLER_BESIDE_ARM, fixed_base=False)
    try:
        start = worlds[0][1]["faller"].backend.base_state()
        np.testing.assert_allclose(start.position, [1.0, 0.0, 0.5], atol=1e-12)
    finally:
        _close(worlds)


def test_a_reset_of_no_robot_of_the_simulation_is_refused(world) -> None:
    _combined, shared, _systems = world
    with pytest.raises(BackendError, match=r"no body of the simulation belongs to robot 'arm::'"):
        shared.backend.reset_robot("arm::")


def test_a_robots_reset_drops_the_wrenches_on_its_links_only(world) -> None:
    _combined, shared, systems = world
    backend = shared.backend
    backend.world.apply_wrench("velocity::link2", [0.0, 1.0, 0.0], [0.0, 0.0, 0.0])
    backend.world.apply_wrench("position::link2", [0.0, 2.0, 0.0], [0.0, 0.0, 0.0])
    _tick(systems, 0.0)
    systems["velocity"].reset()
    kept = backend.world.wrenches
    assert [backend.model.body(b).name for b in kept] == ["position::link2"]
    (force, _torque, _local, _left) = kept[backend.world.wrench_body("position::link2")]
    np.testing.assert_array_equal(force, [0.0, 2.0, 0.0])
    body = backend.world.wrench_body("velocity::link2")
    np.testing.assert_array_equal(backend.data.xfrc_applied[body], np.zeros(6))


def test_a_reset_between_a_ticks_writes_and_its_read_takes_no_step_away() -> None:
    """A robot's reset from a ROS service may come after the tick's writes: the tick still
    steps once (its time advances by DT) and the other arm moves as without the reset."""
    worlds = _two_worlds(THREE_ARMS)
    try:
        runs = []
        for index, (_shared, systems) in enumerate(worlds):
            joints, times = [], []
            t = 0.0
            for k in range(40):
                if k == 1:
                    systems["position"].submit_trajectory(
                        ["j1", "j2"], [0.3], [[0.5, -0.3]], None, None, t
                    )
                for system in systems.values():
                    system.write(t, DT)
                if k == 20 and index == 1:
                    systems["velocity"].reset()
                states = {name: system.read(t, DT) for name, system in systems.items()}
                t += DT
                joints.append(states["position"].joints.copy())
                times.append(states["position"].sim_time)
            runs.append((np.array(joints), times))
        (alone, alone_times), (beside, beside_times) = runs
        assert beside_times == alone_times
        assert beside_times[-1] == pytest.approx(0.4, abs=1e-9)
        assert np.abs(beside - alone).max() <= 1e-9
    finally:
        _close(worlds)
