"""Joint properties changed at run time, ROS-free: the checks of
sdf_bridge.hardware.joint_properties (every refusal, exact messages), the limiter and the
holds following a change, the mock backend clamping joints into new stops through its
transmission, and a driver without joint properties (the limiter's alone).

The robot (as test_system's): j1 revolute [-1, 1] rad, 10 N·m, 2 rad/s behind a
SimpleTransmission (actuator m1, reduction 10, joint offset 0.1 rad: j1 = m1/10 + 0.1); j2
prismatic [-0.5, 0.5] m, 100 N, 1 m/s (identity actuator); j3 mimics j1.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sdf_bridge.backends.mock import MockBackend
from sdf_bridge.description import load
from sdf_bridge.errors import BackendError, JointPropertyError
from sdf_bridge.hardware import HardwareSystem
from sdf_bridge.hardware.holds import Holds
from sdf_bridge.hardware.joint_properties import (
    LIMIT_PROPERTIES,
    PROPERTIES,
    check_changes,
    check_value,
)
from sdf_bridge.hardware.watchdog import CommandWatchdog
from sdf_bridge.limits.spec import JointLimits
from sdf_bridge.transmissions import TransmissionMap

from .test_backend_setup import _RealDriver
from .test_system import JOINTS

ROBOT = f'<robot name="propbot">{JOINTS}</robot>'
TOL = 1e-12


def _system(backend: object = "mock") -> HardwareSystem:
    return HardwareSystem(load(ROBOT), backend, command_timeout=0.0)


def _tick(system: HardwareSystem, now: float, dt: float = 0.1):
    system.write(now, dt)
    return system.read(now, dt)


# ---------------------------------------------------------------- the checks


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("damping", "x", r"joint_properties\.j1\.damping = 'x' is not a number"),
        ("damping", True, r"joint_properties\.j1\.damping = True is not a number"),
        (
            "damping",
            math.nan,
            r"joint_properties\.j1\.damping is NaN\. Fix: give a number in \[0, 1e6\]",
        ),
        (
            "damping",
            -1.0,
            r"joint_properties\.j1\.damping = -1 is out of range\. Fix: give \[0, 1e6\]",
        ),
        ("damping", math.inf, r"joint_properties\.j1\.damping = inf must be finite"),
        (
            "damping",
            1e308,
            r"joint_properties\.j1\.damping = 1e308 is beyond the bound \|value\| ≤ 1e6 "
            r"N·m·s/rad or N·s/m \(a magnitude no simulation can use\)\. Fix: give \[0, 1e6\]",
        ),
        (
            "spring_stiffness",
            1e300,
            r"joint_properties\.j1\.spring_stiffness = 1e300 is beyond the bound \|value\| ≤ 1e6",
        ),
        (
            "spring_reference",
            -1e300,
            r"joint_properties\.j1\.spring_reference = -1e300 is beyond the bound .* Fix: give "
            r"\[-1e6, 1e6\] rad or m",
        ),
        ("friction", 1.5e6, r"joint_properties\.j1\.friction = 1\.5e6 is beyond the bound"),
        ("stop_dissipation", 1e12, r"stop_dissipation = 1e12 is beyond the bound"),
        (
            "spring_reference",
            -math.inf,
            r"joint_properties\.j1\.spring_reference = -inf must be finite",
        ),
        (
            "effort",
            -0.5,
            r"joint_properties\.j1\.effort = -0\.5 is out of range\. Fix: give \[0, inf\] ",
        ),
        ("lower", math.inf, r"joint_properties\.j1\.lower = inf leaves no position for the joint"),
        (
            "upper",
            -math.inf,
            r"joint_properties\.j1\.upper = -inf leaves no position .* or inf for none",
        ),
        (
            "stop_stiffness",
            0.0,
            r"joint_properties\.j1\.stop_stiffness = 0 would not stop the joint",
        ),
    ],
)
def test_check_value_refuses(name: str, value: object, message: str) -> None:
    with pytest.raises(JointPropertyError, match=message):
        check_value("j1", name, value)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("lower", -math.inf),
        ("upper", math.inf),
        ("effort", math.inf),
        ("velocity", 0.0),
        ("effort", 1e308),  # (huge limits mean "not limited": not bounded)
        ("stop_stiffness", 1e300),  # (too stiff for any timestep: the rigid stop)
        ("damping", 1e6),  # the bound itself
        ("spring_reference", -1e6),
    ],
)
def test_check_value_accepts_the_meaningful_infinities(name: str, value: float) -> None:
    assert check_value("j1", name, value) == value
    assert PROPERTIES[name].gazebo  # every property names its Gazebo call


def test_check_changes_merges_and_refuses_whole() -> None:
    current = {"j1": {"lower": -1.0, "upper": 1.0, "effort": 10.0, "velocity": 2.0}}
    merged = check_changes(current, {"j1": {"upper": 0.5}}, LIMIT_PROPERTIES)
    assert merged == {"j1": {"lower": -1.0, "upper": 0.5, "effort": 10.0, "velocity": 2.0}}
    assert current["j1"]["upper"] == 1.0  # (not changed in place)
    with pytest.raises(JointPropertyError, match=r"no joint 'j9' has properties\. Fix: .*'j1'"):
        check_changes(current, {"j9": {"upper": 0.5}}, LIMIT_PROPERTIES)
    with pytest.raises(
        JointPropertyError,
        match=r"joint_properties\.j1\.damping: no such property \(the backend does not simulate "
        r"it\)\. Fix: use one of lower, upper, effort, velocity",
    ):
        check_changes(current, {"j1": {"damping": 0.5}}, LIMIT_PROPERTIES)
    with pytest.raises(
        JointPropertyError, match=r"joint_properties\.j1\.stiffness: no such property\. "
    ):
        check_changes(current, {"j1": {"stiffness": 0.5}}, LIMIT_PROPERTIES)
    with pytest.raises(
        JointPropertyError,
        match=r"joint_properties\.j1\.lower = 2 is not below joint_properties\.j1\.upper = 1: "
        r"the stops must bound an interval\. Fix: give lower < upper; to move both past each "
        r"other, give lower and upper together \(in the parameters file, or with "
        r"set_parameters_atomically at run time\)\.$",
    ):
        check_changes(current, {"j1": {"lower": 2.0}}, LIMIT_PROPERTIES)
    with pytest.raises(
        JointPropertyError, match=r"joint_properties\.j1\.lower = 0\.5 is not below"
    ):
        check_changes(current, {"j1": {"lower": 0.5, "upper": 0.5}}, LIMIT_PROPERTIES)
    # equal stops from the description stay while another property changes
    locked = {"j1": {"lower": 0.5, "upper": 0.5, "effort": 10.0, "velocity": 2.0}}
    assert check_changes(locked, {"j1": {"effort": 1.0}}, LIMIT_PROPERTIES)["j1"]["effort"] == 1.0


# ---------------------------------------------------------------- the hardware system


def test_mock_has_the_limiters_properties_only() -> None:
    system = _system()
    assert system.joint_property_names == LIMIT_PROPERTIES
    assert system.joint_properties() == {
        "j1": {"lower": -1.0, "upper": 1.0, "effort": 10.0, "velocity": 2.0},
        "j2": {"lower": -0.5, "upper": 0.5, "effort": 100.0, "velocity": 1.0},
    }
    with pytest.raises(
        JointPropertyError, match=r"joint_properties\.j1\.damping: no such property \(the"
    ):
        system.set_joint_properties({"j1": {"damping": 0.5}})


def test_new_stop_clamps_the_mock_through_its_transmission_and_the_limiter_follows() -> None:
    """j1 at 0.8 rad (m1 = 7): a new upper stop 0.5 rad puts it at 0.5 rad (m1 = 4) at once,
    velocity 0, with a note saying so; a position command of 0.9 is then limited to 0.5
    (reason position)."""
    system = _system()
    system.submit_joint_state(["j1"], [0.8], [], [], 0.0)
    _tick(system, 0.0, 1.0)
    assert system.set_joint_properties({"j1": {"upper": 0.5}}) == [
        "joint 'j1' is at 0.8, outside its new stops [-1, 0.5]: the stop brings it back (a "
        "simulated stop pushes it at once; move the stops in steps, or command the joint "
        "inside them first, for a gentle move)"
    ]
    state = system.read(1.0, 0.0)
    assert system.set_joint_properties({"j1": {"lower": -0.5}}) == []  # j1 inside: no note
    np.testing.assert_allclose(state.position[:2], [0.5, 0.0], atol=TOL)
    np.testing.assert_allclose(state.actuator_position, [4.0, 0.0], atol=TOL)
    assert state.velocity[0] == 0.0
    assert system.limiter.pmax.tolist() == [0.5, 0.5]
    system.submit_joint_state(["j1"], [0.9], [], [], 1.0)
    state = _tick(system, 1.0, 1.0)
    assert state.position[0] == pytest.approx(0.5, abs=TOL)
    assert system.diagnostics()["clamps"] == {"j1: position": 1}
    assert system.joint_properties()["j1"]["upper"] == 0.5


def test_reset_puts_the_mock_inside_run_time_stops() -> None:
    system = _system()
    system.set_joint_properties({"j1": {"lower": 0.2}})
    system.reset()
    assert system.read(0.0, 0.0).position[0] == pytest.approx(0.2, abs=TOL)


def test_effort_and_velocity_limits_cap_commands() -> None:
    """SetEffortLimit / SetVelocityLimit: the mock mirrors the limited commands."""
    system = _system()
    system.set_joint_properties({"j2": {"effort": 5.0, "velocity": 0.25}})
    system.submit_joint_state(["j2"], [], [], [1000.0], 0.0)
    assert _tick(system, 0.0).effort[1] == 5.0
    system.submit_joint_state(["j2"], [], [3.0], [], 0.1)
    assert _tick(system, 0.1).velocity[1] == 0.25
    system.set_joint_properties({"j2": {"effort": math.inf, "velocity": math.inf}})
    assert not system.limiter.limits[1].has_effort_limits
    system.submit_joint_state(["j2"], [], [3.0], [], 0.2)
    assert _tick(system, 0.2).velocity[1] == 3.0


def test_a_refused_change_changes_nothing() -> None:
    system = _system()
    before = system.joint_properties()
    limiter = system.limiter
    with pytest.raises(JointPropertyError, match=r"joint_properties\.j2\.lower = 2 is not below"):
        system.set_joint_properties({"j1": {"upper": 0.7}, "j2": {"lower": 2.0}})
    assert system.joint_properties() == before and system.limiter is limiter
    # both stops moved past the old ones together: accepted
    system.set_joint_properties({"j2": {"lower": 0.6, "upper": 0.8}})
    assert system.joint_properties()["j2"]["lower"] == 0.6
    assert system.read(0.0, 0.0).position[1] == pytest.approx(0.6, abs=TOL)


def test_limiter_with_limits_goes_on_from_the_previous_one() -> None:
    system = _system()
    system.submit_joint_state(["j1"], [5.0], [], [], 0.0)
    _tick(system, 0.0, 1.0)
    old = system.limiter
    new = old.with_limits([JointLimits(), JointLimits()])
    assert new.counts == old.counts == {("j1", "position"): 1}
    np.testing.assert_array_equal(new._prev, old._prev)


def test_holds_are_confined_to_new_stops() -> None:
    holds = Holds(2, None, CommandWatchdog(0.0))
    holds._hold = np.array([0.9, np.nan])
    holds._estop = (np.array([[0.9, -0.9], [np.nan] * 2, [np.nan] * 2]), None, None)
    holds.confine(np.array([-1.0, -0.5]), np.array([0.5, 0.5]))
    np.testing.assert_array_equal(holds._hold, [0.5, np.nan])
    np.testing.assert_array_equal(holds._estop[0][0], [0.5, -0.5])


def test_a_driver_without_joint_properties_gets_the_limiters() -> None:
    system = _system(_RealDriver())
    assert system.joint_property_names == LIMIT_PROPERTIES
    assert system.set_joint_properties({"j1": {"upper": 0.25}}) == []
    assert system.limiter.pmax[0] == 0.25


def test_mock_backend_refuses_directly() -> None:
    robot = load(ROBOT)
    tm = TransmissionMap.from_robot(robot, simulated_robot=True)
    mock = MockBackend()
    with pytest.raises(BackendError, match=r"mock backend used before configure\(\)"):
        mock.set_joint_properties({})
    mock.configure(robot, ["j2"], transmissions=tm, params={})  # one actuator of two
    assert mock.joint_properties() == {}
    with pytest.raises(BackendError, match=r"joint stops need every actuator .* drives 1 of 2"):
        mock.set_joint_properties({"j2": {"upper": 0.1}})
    with pytest.raises(JointPropertyError, match=r"joint_properties\.j2\.effort: no such property"):
        mock.set_joint_properties({"j2": {"effort": 1.0}})


def test_a_robot_of_ball_joints_only_starts_with_no_joint_properties() -> None:
    """MuJoCo gives a ball's angles no dynamics properties; a robot whose only joint is a ball
    (so no joint has any) starts, publishes the three angles and has no joint properties (it
    raised KeyError 'damping' at start)."""
    from sdf_bridge.description import load
    from sdf_bridge.hardware import HardwareSystem

    robot = load(
        """<sdf version="1.9"><model name="m"><link name="a"/>
  <joint name="fix" type="fixed"><parent>world</parent><child>a</child></joint>
  <link name="b"><inertial><mass>1</mass></inertial></link>
  <joint name="ball" type="ball"><parent>a</parent><child>b</child></joint>
</model></sdf>"""
    )
    system = HardwareSystem(robot, "mujoco", backend_params={"render_cameras": False})
    try:
        assert system.joint_names == ("ball/roll", "ball/pitch", "ball/yaw")
        assert system.joint_properties() == {}
    finally:
        system.close()
