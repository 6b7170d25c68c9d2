"""HardwareSystem: full cycles on a small robot with a reduction and an offset (exact actuator
vs joint values), limits, watchdog, trajectories, e-stop, reset, followers, configuration
errors, diagnostics. Real TransmissionMap, JointLimiter and MockBackend throughout.

The robot: j1 (revolute, [-1, 1] rad, 2 rad/s) through a classic SimpleTransmission (actuator
m1, reduction 10, joint offset 0.1 rad: j1 = m1/10 + 0.1); j2 (prismatic, [-0.5, 0.5] m, 1 m/s,
identity actuator "j2"); j3 mimics j1 (2·j1 + 0.5).
"""

from __future__ import annotations

import logging
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sdf_bridge.backends.actuator_port import ActuatorPort, actuator_modes
from sdf_bridge.backends.base import JointSpaceState, Mode
from sdf_bridge.backends.mock import MockBackend
from sdf_bridge.description import load
from sdf_bridge.errors import BackendError, CommandError, ConfigError, LimitsError
from sdf_bridge.hardware import CycleState, HardwareSystem

TOL = 1e-12
NAN = math.nan

JOINTS = """
  <link name="base"/><link name="l1"/><link name="l2"/><link name="l3"/>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/>
  </joint>
  <joint name="j2" type="prismatic">
    <parent link="l1"/><child link="l2"/><axis xyz="1 0 0"/>
    <limit lower="-0.5" upper="0.5" effort="100" velocity="1"/>
  </joint>
  <joint name="j3" type="revolute">
    <parent link="l2"/><child link="l3"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="5"/>
    <mimic joint="j1" multiplier="2" offset="0.5"/>
  </joint>
  <transmission name="t1">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="j1">
      <hardwareInterface>hardware_interface/PositionJointInterface</hardwareInterface>
      <offset>0.1</offset></joint>
    <actuator name="m1"><mechanicalReduction>10</mechanicalReduction></actuator>
  </transmission>
"""
PLAIN = f'<robot name="sysbot">{JOINTS}</robot>'
ROS2_CONTROL = f"""<robot name="sysbot">{JOINTS}
  <ros2_control name="sys" type="system">
    <hardware>
      <plugin>mock_components/GenericSystem</plugin>
      <param name="calculate_dynamics">true</param>
    </hardware>
    <joint name="j1">
      <command_interface name="position"/>
      <state_interface name="position"><param name="initial_value">0.3</param></state_interface>
    </joint>
  </ros2_control>
</robot>"""


def _system(xml: str = PLAIN, **kwargs) -> HardwareSystem:
    """A system on the mock; the watchdog is off unless asked for (cycles here are 1 s)."""
    kwargs.setdefault("backend", "mock")
    kwargs.setdefault("command_timeout", 0.0)
    return HardwareSystem(load(xml), **kwargs)


def _cycle(system: HardwareSystem, now: float, dt: float = 1.0) -> CycleState:
    """write (commands of the previous cycle) then read: the state the commands produced."""
    system.write(now, dt)
    return system.read(now, dt)


def test_names() -> None:
    system = _system()
    assert system.joint_names == ("j1", "j2")
    assert system.state_names == ("j1", "j2", "j3")
    assert system.actuator_names == ("m1", "j2")
    assert isinstance(system.backend.driver, MockBackend) and system.backend_name == "mock"


def test_full_cycle_exact_actuator_and_joint_values() -> None:
    system = _system()
    state = system.read(0.0, 1.0)
    assert state.names == ("j1", "j2", "j3")
    # the mock starts at joint position 0 (no initial_value): actuator (0 − 0.1)·10 = −1
    np.testing.assert_allclose(state.actuator_position, [-1.0, 0.0], atol=TOL)
    np.testing.assert_allclose(state.position, [0.0, 0.0, 0.5], atol=TOL)  # mimic 2·0 + 0.5
    assert system.submit_joint_state(["j1", "j2"], [0.5, 0.2], [], [], now=0.0) == []
    state = _cycle(system, 1.0)
    np.testing.assert_allclose(state.actuator_position, [4.0, 0.2], atol=TOL)  # (0.5 − 0.1)·10
    np.testing.assert_allclose(state.position, [0.5, 0.2, 1.5], atol=TOL)
    assert math.isnan(state.effort[2])  # follower effort is unknown
    # effort mode: τ_actuator = τ_joint / 10
    system.submit_joint_state(["j1"], [], [], [3.0], now=1.0)
    state = _cycle(system, 2.0)
    np.testing.assert_allclose(state.actuator_effort, [0.3, 0.0], atol=TOL)
    np.testing.assert_allclose(state.effort[:2], [3.0, 0.0], atol=TOL)
    np.testing.assert_allclose(state.position[:2], [0.5, 0.2], atol=TOL)  # effort: no position cmd
    assert state.sim_time is None and dict(state.sensors) == {}


def test_array_commands_in_joints_order() -> None:
    system = _system(joints=["j2", "j1"])
    assert system.joint_names == ("j2", "j1")
    system.read(0.0, 1.0)
    system.submit_array("position", [0.3, -0.4], now=0.0)
    state = _cycle(system, 1.0)
    np.testing.assert_allclose(state.position[:2], [-0.4, 0.3], atol=TOL)
    np.testing.assert_allclose(state.actuator_position, [-5.0, 0.3], atol=TOL)
    assert "1 values for 2 joints" in system.submit_array("position", [0.1], now=1.0)[0]
    assert system.diagnostics()["rejected"] == {"wrong_length": 1}


def test_limits_clamp_and_are_counted() -> None:
    # exact clamp counting rules are the limiter's (sdf_bridge.limits); here: the values the
    # cycle produces and that the counts reach the diagnostics
    system = _system()
    system.read(0.0, 1.0)
    system.submit_joint_state(["j1", "j2"], [5.0, -2.0], [], [], now=0.0)
    state = _cycle(system, 1.0)
    np.testing.assert_allclose(state.position[:2], [1.0, -0.5], atol=TOL)
    np.testing.assert_allclose(state.actuator_position, [9.0, -0.5], atol=TOL)
    diagnostics = system.diagnostics()
    assert diagnostics["clamps"] == {"j1: position": 1, "j2: position": 1}
    assert diagnostics["clamps_total"] == 2
    system.submit_joint_state(["j1"], [], [], [50.0], now=1.0)
    state = _cycle(system, 2.0)
    assert state.effort[0] == 0.0  # at the upper limit: no effort pushing further
    assert any(key.startswith("j1: effort") for key in system.diagnostics()["clamps"])
    system.submit_joint_state(["j1"], [], [], [-50.0], now=2.0)
    state = _cycle(system, 3.0)
    assert state.effort[0] == pytest.approx(-10.0, abs=TOL)
    assert state.actuator_effort[0] == pytest.approx(-1.0, abs=TOL)
    clamps = system.diagnostics()["clamps"]
    assert system.diagnostics()["clamps_total"] == sum(clamps.values())


def test_limits_overrides_mapping_and_file(tmp_path: Path) -> None:
    system = _system(
        limits_overrides={
            "j1": {"has_position_limits": True, "max_position": 0.2, "min_position": -0.2}
        }
    )
    system.read(0.0, 1.0)
    system.submit_array("position", [0.9, 0.0], now=0.0)
    assert _cycle(system, 1.0).position[0] == pytest.approx(0.2, abs=TOL)
    path = tmp_path / "limits.yaml"
    path.write_text(
        "joint_limits:\n  j2:\n    has_position_limits: true\n    max_position: 0.1\n"
        "    min_position: -0.1\n"
    )
    system = _system(limits_overrides=path)
    system.read(0.0, 1.0)
    system.submit_array("position", [0.0, 0.4], now=0.0)
    assert _cycle(system, 1.0).position[1] == pytest.approx(0.1, abs=TOL)
    with pytest.raises(LimitsError, match="zz"):
        _system(limits_overrides={"zz": {"max_velocity": 1.0}})


def test_velocity_mode_and_watchdog_stop() -> None:
    system = _system(backend_params={"calculate_dynamics": True}, command_timeout=0.5)
    system.read(0.0, 0.1)
    system.submit_joint_state(["j2"], [], [0.5], [], now=0.0)
    positions = []
    now = 0.0
    for _ in range(8):
        now = round(now + 0.1, 10)
        positions.append(_cycle(system, now, 0.1).position[1])
    # mock backward Euler: moves from the 2nd cycle at 0.05 m per 0.1 s; watchdog trips at
    # t = 0.5 (0.5 s after the command): velocity command 0, the joint stops
    np.testing.assert_allclose(
        positions, [0.0, 0.05, 0.10, 0.15, 0.20, 0.20, 0.20, 0.20], atol=1e-12
    )
    diagnostics = system.diagnostics()
    assert diagnostics["watchdog_trips"] == 1 and diagnostics["watchdog_tripped"] is True
    system.submit_joint_state(["j2"], [], [0.5], [], now=now)
    assert system.diagnostics()["watchdog_tripped"] is True  # until the next check
    _cycle(system, now + 0.1, 0.1)
    assert system.diagnostics()["watchdog_tripped"] is False


def test_watchdog_holds_measured_position_in_position_mode() -> None:
    """A position command the mock does not reach (its state follows 0.01 behind in actuator
    space): the silence trips the watchdog, which holds what was measured."""
    system = _system(command_timeout=0.5, backend_params={"position_state_following_offset": 0.01})
    system.read(0.0, 1.0)
    system.submit_array("position", [0.4, 0.1], now=0.0)
    measured = _cycle(system, 0.25, 1.0).position[:2].copy()
    np.testing.assert_allclose(measured, [0.401, 0.11], atol=TOL)  # j1: + 0.01 / reduction 10
    _cycle(system, 1.0, 1.0)  # trips here: holds what was measured
    assert system.watchdog.trips == 1
    np.testing.assert_allclose(system.commands.position[:2], measured, atol=TOL)


def test_watchdog_trip_names_messages_that_set_no_value(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A trajectory controller's NaN goal: JointState messages keep coming, all NaN (not
    commanded): the watchdog still trips and holds the measured position, and its warning says
    that messages arrived without a finite value rather than asking for a steady rate."""
    system = _system(command_timeout=0.5, backend_params={"position_state_following_offset": 0.01})
    system.read(0.0, 1.0)
    system.submit_array("position", [0.4, 0.1], now=0.0)
    measured = _cycle(system, 0.25, 1.0).position[:2].copy()
    for now in (0.3, 0.6, 0.9):
        assert system.submit_joint_state(["j1", "j2"], [NAN, NAN], [], [], now=now) == []
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.hardware.watchdog"):
        _cycle(system, 1.0, 1.0)
    assert system.watchdog.trips == 1
    np.testing.assert_allclose(system.commands.position[:2], measured, atol=TOL)
    assert (
        "no usable command for 1.000 s (command_timeout 0.500 s): command messages kept "
        "arriving (the last 0.100 s ago) but set no finite value for any joint" in caplog.text
    )


def test_watchdog_does_not_trip_when_every_position_is_reached() -> None:
    """The commanded positions are reached (the mock mirrors them exactly), as when a
    topic-based plugin stops publishing because the states equal the commands: holding them
    is the stop, so the silence is no trip and the commands stay as they were."""
    system = _system(command_timeout=0.5)
    system.read(0.0, 1.0)
    system.submit_array("position", [0.4, 0.1], now=0.0)
    _cycle(system, 0.25, 1.0)
    for now in (1.0, 2.0, 30.0):
        state = _cycle(system, now, 1.0)
    np.testing.assert_allclose(state.position[:2], [0.4, 0.1], atol=TOL)
    assert system.watchdog.trips == 0 and system.diagnostics()["watchdog_tripped"] is False
    np.testing.assert_array_equal(system.commands.position[:2], [0.4, 0.1])
    # a velocity command keeps the watchdog's protection
    system.submit_array("velocity", [0.0, 0.2], now=30.0)
    _cycle(system, 31.0, 1.0)
    assert system.watchdog.trips == 1


def test_trajectory_linear_through_the_cycle() -> None:
    system = _system()
    system.read(10.0, 1.0)  # j1 at 0: the trajectory starts from there
    assert system.submit_trajectory(["j1"], [1.0, 2.0], [[0.3], [0.9]], [], [], now=10.0) == []
    assert system.diagnostics()["trajectory_active"]
    # write at t samples the trajectory; the mock shows it at the following read
    system.write(10.5, 0.5)
    assert system.read(10.5, 0.5).position[0] == pytest.approx(0.15, abs=TOL)
    system.write(11.5, 1.0)
    assert system.read(11.5, 1.0).position[0] == pytest.approx(0.6, abs=TOL)
    system.write(13.0, 1.5)
    assert system.read(13.0, 1.5).position[0] == pytest.approx(0.9, abs=TOL)
    assert not system.diagnostics()["trajectory_active"]  # ended: last point held
    assert _cycle(system, 14.0).position[0] == pytest.approx(0.9, abs=TOL)
    assert system.commands.mode_name("j1") == "position"


def test_cubic_trajectory_sets_velocity_feed_forward() -> None:
    system = _system()
    system.read(0.0, 1.0)
    system.submit_trajectory(
        ["j1", "j2"], [0.0, 2.0], [[0.1, 0.0], [0.5, 0.2]], [[0.0, 0.0], [0.0, 0.0]], [], now=0.0
    )
    system.write(1.0, 1.0)
    state = system.read(1.0, 1.0)
    np.testing.assert_allclose(state.position[:2], [0.3, 0.1], atol=TOL)
    # the mock (no dynamics) mirrors the velocity command: Hermite slope 1.5·Δp/T at s = 0.5;
    # the actuator velocity of j1 is 10× (reduction)
    np.testing.assert_allclose(state.velocity[:2], [0.3, 0.15], atol=TOL)
    np.testing.assert_allclose(state.actuator_velocity, [3.0, 0.15], atol=TOL)
    assert system.commands.mode_name("j1") == "position_velocity"


def test_direct_command_takes_a_joint_out_of_the_trajectory() -> None:
    system = _system()
    system.read(0.0, 1.0)
    system.submit_trajectory(["j1", "j2"], [0.0, 10.0], [[0.1, 0.0], [0.9, 0.5]], [], [], now=0.0)
    system.submit_joint_state(["j2"], [-0.3], [], [], now=0.0)
    system.write(5.0, 1.0)
    state = system.read(5.0, 1.0)
    np.testing.assert_allclose(state.position[:2], [0.5, -0.3], atol=TOL)
    system.submit_array("position", [0.0, 0.0], now=5.0)  # both out: trajectory over
    assert not system.diagnostics()["trajectory_active"]


@pytest.mark.parametrize(
    ("names", "match"),
    [
        (["j3"], "'j3' is not a commandable joint"),
        (["nope"], "'nope' is not a commandable joint"),
    ],
)
def test_bad_trajectory_joints_are_rejected_and_counted(names: list[str], match: str) -> None:
    system = _system()
    warnings = system.submit_trajectory(names, [0.0], [[0.0]], [], [], now=0.0)
    assert match in warnings[0]
    assert system.diagnostics()["rejected"] == {"bad_trajectory": 1}


def test_a_trajectory_in_the_past_is_rejected_and_counted() -> None:
    """A trajectory stamped (``start``) 100 s before it is received ends in the past: rejected
    with its own reason and nothing moves; one that started 0.5 s ago is followed from now."""
    system = _system()
    system.read(100.0, 1.0)
    warnings = system.submit_trajectory(
        ["j1"], [1.0, 2.0], [[0.5], [0.9]], [], [], now=100.0, start=0.0
    )
    assert warnings == [
        "trajectory rejected: trajectory ends 98 s in the past (header.stamp + the last point's "
        "time_from_start is before now). Fix: stamp it now or later, or 0 to start on receipt."
    ]
    assert system.diagnostics()["rejected"] == {"trajectory_in_past": 1}
    assert not system.diagnostics()["trajectory_active"]
    assert _cycle(system, 101.0).position[0] == pytest.approx(0.0, abs=TOL)
    assert (
        system.submit_trajectory(["j1"], [1.0, 2.0], [[0.5], [0.9]], [], [], now=101.0, start=100.5)
        == []
    )
    # 0.5 s in: the segment from the current state (0 at now) to 0.5 at 101.5
    system.write(101.0, 1.0)
    assert system.read(101.0, 1.0).position[0] == pytest.approx(0.0, abs=TOL)
    system.write(102.0, 1.0)  # 1.5 s in: halfway between the points
    assert system.read(102.0, 1.0).position[0] == pytest.approx(0.7, abs=TOL)


def test_trajectory_before_any_state_needs_a_point_at_zero() -> None:
    system = _system()
    warnings = system.submit_trajectory(["j1"], [1.0], [[0.2]], [], [], now=0.0)
    assert "current joint state is unknown" in warnings[0]


def test_trajectory_refused_for_effort_configured_joint() -> None:
    system = _system(command_modes={"j1": "effort"})
    warnings = system.submit_trajectory(["j1"], [0.0], [[0.0]], [], [], now=0.0)
    assert "configured for effort commands" in warnings[0]


def test_estop_holds_and_refuses_commands() -> None:
    system = _system()
    system.read(0.0, 1.0)
    system.submit_array("position", [0.5, 0.2], now=0.0)
    _cycle(system, 1.0)
    system.submit_array("position", [0.9, 0.4], now=1.0)
    system.enable(False)
    assert system.enabled is False
    warnings = system.submit_array("position", [0.0, 0.0], now=1.0)
    assert "disabled (e-stop)" in warnings[0]
    assert "disabled" in system.submit_joint_state(["j1"], [0.0], [], [], now=1.0)[0]
    assert "disabled" in system.submit_trajectory(["j1"], [0.0], [[0.0]], [], [], now=1.0)[0]
    state = _cycle(system, 2.0)
    np.testing.assert_allclose(state.position[:2], [0.5, 0.2], atol=TOL)  # held, 0.9/0.4 dropped
    np.testing.assert_allclose(system.backend.driver._cmd_p, [4.0, 0.2], atol=TOL)  # hold command
    assert system.diagnostics()["rejected"] == {"disabled": 3}
    system.enable(False)  # no change
    system.enable(True)
    assert system.commands.mode_name("j1") == ""
    state = _cycle(system, 3.0)
    np.testing.assert_allclose(state.position[:2], [0.5, 0.2], atol=TOL)  # nothing stale moves


def test_reset_returns_to_initial_state() -> None:
    system = _system(ROS2_CONTROL)
    assert system.read(0.0, 1.0).position[0] == pytest.approx(0.3, abs=TOL)  # initial_value
    system.submit_array("position", [0.8], now=0.0)
    assert _cycle(system, 1.0).position[0] == pytest.approx(0.8, abs=TOL)
    system.reset()
    assert system.commands.mode_name("j1") == ""
    state = _cycle(system, 2.0)
    np.testing.assert_allclose(state.position, [0.3, 0.0, 1.1], atol=TOL)
    np.testing.assert_allclose(state.actuator_position, [2.0, 0.0], atol=TOL)


def test_ros2_control_restricts_joints_and_interfaces() -> None:
    system = _system(ROS2_CONTROL)
    assert system.joint_names == ("j1",)
    assert system.backend.driver.calculate_dynamics is True  # from <hardware><param>
    warnings = system.submit_joint_state(["j1", "j2"], [0.2, 0.1], [1.0, NAN], [], now=0.0)
    text = "\n".join(warnings)
    assert "['j2'] are not commandable" in text and "['j1'] have no velocity" in text
    assert system.diagnostics()["rejected"] == {"not_commandable": 1, "interface_not_available": 1}
    assert system.commands.position[0] == 0.2  # j1's position still applied


def test_backend_params_override_ros2_control_params() -> None:
    system = _system(ROS2_CONTROL, backend_params={"calculate_dynamics": False})
    assert system.backend.driver.calculate_dynamics is False


def test_backend_instance_and_errors() -> None:
    backend = MockBackend()
    system = _system(backend=backend)
    assert system.backend.driver is backend and system.backend_name == "MockBackend"
    with pytest.raises(BackendError, match="unknown backend 'nope'"):
        _system(backend="nope")
    system.close()
    with pytest.raises(BackendError, match="before configure"):
        system.read(0.0, 0.01)


@pytest.mark.parametrize(
    ("xml", "joints", "match"),
    [
        (PLAIN, ["j1", "zz"], "'zz' is not an actuated joint"),
        (PLAIN, ["j3"], "'j3' follows another joint"),
        (PLAIN, ["j1", "j1"], "a joint is listed twice"),
        (ROS2_CONTROL, ["j2"], "'j2' is not listed with command interfaces"),
    ],
)
def test_bad_joints_parameter(xml: str, joints: list[str], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        _system(xml, joints=joints)


def test_bad_configuration_values() -> None:
    with pytest.raises(ConfigError, match="command_timeout"):
        _system(command_timeout=-1.0)
    with pytest.raises(ConfigError, match="update_rate"):
        _system(update_rate=0.0)
    with pytest.raises(ConfigError, match="command_modes"):
        _system(command_modes={"j3": "position"})


def test_unknown_array_interface_raises() -> None:
    with pytest.raises(CommandError, match="unknown command interface"):
        _system().submit_array("jerk", [0.0, 0.0], now=0.0)


def test_run_cycles_and_diagnostics() -> None:
    system = _system(update_rate=1000.0)
    end = system.run_cycles(5, 0.001, now=2.0)
    assert end == pytest.approx(2.005, abs=TOL)
    diagnostics = system.diagnostics()
    assert diagnostics["timing"]["cycles"] == 5
    assert diagnostics["timing"]["target_period"] == pytest.approx(0.001, abs=TOL)
    assert diagnostics["enabled"] is True and diagnostics["backend"] == "mock"
    assert diagnostics["modes"] == {"j1": "", "j2": ""}
    assert diagnostics["command_timeout"] == 0.0 and diagnostics["rejected_total"] == 0
    assert set(diagnostics) == {
        "enabled",
        "backend",
        "rejected",
        "rejected_total",
        "dropped",
        "watchdog_trips",
        "watchdog_tripped",
        "command_timeout",
        "clamps",
        "clamps_total",
        "trajectory_active",
        "modes",
        "timing",
    }


def test_clamp_counts_survive_reset() -> None:
    system = _system()
    system.read(0.0, 1.0)
    system.submit_array("position", [5.0, 0.0], now=0.0)
    _cycle(system, 1.0)
    system.reset()
    assert system.diagnostics()["clamps"] == {"j1: position": 1}


# ------------------------------------------------------------------ coupled actuators (demo)
@pytest.fixture(scope="module")
def demo_robot(repo_dir: Path):
    return load(repo_dir / "urdf" / "demo_arm.urdf.xacro")


def _actuator_modes(system: HardwareSystem) -> list[str]:
    """Each actuator's mode (label) as the actuator port derives it from the joint modes the
    holds give the backend now."""
    _, mode, _ = system.holds.apply(0.0, system.commands, system._measured, system.enabled)
    return [Mode(int(m)).label for m in actuator_modes(system.transmissions.dependency, mode)]


def test_demo_robot_modes_of_coupled_actuators(demo_robot) -> None:
    system = HardwareSystem(demo_robot, "mock")
    modes = dict(zip(system.actuator_names, _actuator_modes(system)))
    assert set(modes.values()) == {""}
    system.submit_joint_state(["wrist_pitch"], [], [0.1], [], now=0.0)
    modes = dict(zip(system.actuator_names, _actuator_modes(system)))
    # the differential couples wrist_pitch and wrist_roll; wrist_roll, not commanded, holds
    # (zero velocity) in its partner's mode
    assert modes["wrist_left_motor"] == "velocity" and modes["wrist_right_motor"] == "velocity"
    system.submit_joint_state(["wrist_roll"], [0.4], [], [], now=0.0)
    modes = dict(zip(system.actuator_names, _actuator_modes(system)))
    # pitch in velocity mode, roll in position mode: the shared motors get no single mode
    assert modes["wrist_left_motor"] == "" and modes["wrist_right_motor"] == ""
    system.submit_joint_state(["wrist_roll", "base_yaw"], [], [0.2, 0.3], [], now=0.0)
    modes = dict(zip(system.actuator_names, _actuator_modes(system)))
    assert modes["wrist_left_motor"] == "velocity" and modes["wrist_right_motor"] == "velocity"
    assert modes["base_yaw_motor"] == "velocity" and modes["gripper_motor"] == ""
    system.submit_joint_state(["left_finger_joint"], [0.01], [], [], now=0.0)
    modes = dict(zip(system.actuator_names, _actuator_modes(system)))
    assert modes["gripper_motor"] == "position"


def test_demo_robot_initial_state_and_followers(demo_robot) -> None:
    system = HardwareSystem(demo_robot, "mock")
    state = system.read(0.0, 0.01)
    named = dict(zip(state.names, state.position))
    assert named["elbow"] == pytest.approx(0.5, abs=1e-12)  # initial_value in <ros2_control>
    assert named["left_finger_joint"] == pytest.approx(0.02, abs=1e-12)
    assert named["right_finger_joint"] == pytest.approx(-0.018, abs=1e-12)  # −1·0.02 + 0.002
    assert not np.isnan(state.position).any()
    assert set(state.sensors) == {"imu_sensor", "ft_sensor"}
    assert system.joint_names == (
        "base_yaw",
        "shoulder_lift",
        "elbow",
        "wrist_pitch",
        "wrist_roll",
        "left_finger_joint",
    )
    warnings = system.submit_joint_state(["right_finger_joint"], [0.0], [], [], now=0.0)
    assert "follow another joint" in warnings[0]
    assert system.diagnostics()["rejected"] == {"follower_joint": 1}


def test_commands_from_another_thread_while_cycling() -> None:
    import threading

    system = _system()
    system.read(0.0, 0.001)
    stop = threading.Event()

    def publisher() -> None:
        k = 0
        while not stop.is_set() and k < 5000:
            k += 1
            system.submit_array("position", [0.001 * (k % 100), 0.0], now=0.0)
            system.submit_joint_state(["j1", "j2"], [0.0, 0.0005 * (k % 100)], [], [], now=0.0)

    thread = threading.Thread(target=publisher)
    thread.start()
    system.run_cycles(500, 1.0)
    stop.set()
    thread.join()
    system.submit_array("position", [0.25, -0.25], now=0.0)
    state = _cycle(system, 1e6)
    np.testing.assert_allclose(state.position[:2], [0.25, -0.25], atol=TOL)
    assert system.diagnostics()["rejected_total"] == 0


def test_robot_without_movable_joints() -> None:
    system = _system(
        '<robot name="rock"><link name="a"/><link name="b"/>'
        '<joint name="f" type="fixed"><parent link="a"/><child link="b"/></joint></robot>'
    )
    assert system.joint_names == () and system.state_names == () and system.actuator_names == ()
    end = system.run_cycles(3, 0.01)
    state = system.read(end, 0.01)
    assert state.position.shape == (0,)
    assert system.submit_array("position", [], now=0.0) == []


def test_backend_returning_wrong_shapes_is_a_backend_error() -> None:
    from sdf_bridge.backends.base import ActuatorState

    class ShortBackend(MockBackend):
        def read(self, dt: float) -> ActuatorState:
            state = super().read(dt)
            return ActuatorState(state.position[:1], state.velocity, state.effort)

    system = _system(backend=ShortBackend())
    with pytest.raises(BackendError, match=r"shapes \(1,\), \(2,\), \(2,\) for 2 actuators"):
        system.read(0.0, 0.01)


def test_empty_trajectory_is_rejected_and_the_running_one_goes_on() -> None:
    """As joint_trajectory_controller's validate_trajectory_msg ("Empty trajectory received."):
    a trajectory without points is refused and counted; the running trajectory is unchanged."""
    system = _system()
    system.read(0.0, 1.0)
    system.submit_trajectory(["j1"], [0.0, 10.0], [[0.0], [1.0]], [], [], now=0.0)
    system.write(4.0, 1.0)
    assert system.read(4.0, 1.0).position[0] == pytest.approx(0.4, abs=TOL)
    (warning,) = system.submit_trajectory(["j1"], [], [], [], [], now=4.0)
    assert warning == (
        "trajectory rejected: trajectory has no points. Fix: give at least one point (to stop "
        "where the joints are: one point at their current positions)."
    )
    assert system.diagnostics()["trajectory_active"] is True
    assert system.commands.rejections["bad_trajectory"] == 1
    state = _cycle(system, 6.0)
    assert state.position[0] == pytest.approx(0.6, abs=TOL)  # still on its way to 1.0 at t = 10


# -- coupled transmissions: an uncommanded partner holds ------------------------------------------


def test_commanding_one_joint_of_a_four_bar_holds_its_partner(repo_dir: Path) -> None:
    """Demo arm: shoulder_lift and elbow share the four-bar's actuators. Commanding only the
    shoulder must not move the elbow (it holds where it was: its initial value 0.5 rad)."""
    system = HardwareSystem(
        load(repo_dir / "urdf" / "demo_arm.urdf.xacro"), "mock", command_timeout=0.0
    )
    state = system.read(0.0, 0.01)
    names = list(state.names)
    elbow0 = state.position[names.index("elbow")]
    assert elbow0 == pytest.approx(0.5, abs=TOL)
    system.submit_joint_state(["shoulder_lift"], [0.3], [], [], 0.0)
    now = 0.0
    for _ in range(200):  # 2 s at 100 Hz: the shoulder reaches 0.3 rad (1.5 rad/s limit)
        now += 0.01
        state = _cycle(system, now, 0.01)
    assert state.position[names.index("shoulder_lift")] == pytest.approx(0.3, abs=TOL)
    assert state.position[names.index("elbow")] == pytest.approx(0.5, abs=TOL)
    # the partner's hold is released once it is commanded itself
    system.submit_joint_state(["elbow"], [0.2], [], [], now)
    for _ in range(200):
        now += 0.01
        state = _cycle(system, now, 0.01)
    assert state.position[names.index("elbow")] == pytest.approx(0.2, abs=TOL)
    assert state.position[names.index("shoulder_lift")] == pytest.approx(0.3, abs=TOL)


def test_velocity_on_one_wrist_joint_gives_the_other_zero_velocity(repo_dir: Path) -> None:
    """Demo arm: the differential wrist; a velocity command on wrist_pitch alone leaves
    wrist_roll still (its partner gets a zero-velocity command, not none)."""
    system = HardwareSystem(
        load(repo_dir / "urdf" / "demo_arm.urdf.xacro"),
        "mock",
        command_timeout=0.0,
        backend_params={"calculate_dynamics": True},
    )
    state = system.read(0.0, 0.01)
    names = list(state.names)
    roll0 = state.position[names.index("wrist_roll")]
    system.submit_joint_state(["wrist_pitch"], [], [0.5], [], 0.0)
    now = 0.0
    for _ in range(100):
        now += 0.01
        state = _cycle(system, now, 0.01)
    assert state.position[names.index("wrist_roll")] == pytest.approx(roll0, abs=1e-9)
    assert state.velocity[names.index("wrist_pitch")] == pytest.approx(0.5, abs=1e-9)


def test_trajectory_without_points_given_as_none_is_rejected() -> None:
    """A JointTrajectory without points arrives with ``positions=None``: rejected as invalid
    (no exception), nothing starts."""
    system = _system()
    system.read(0.0, 1.0)
    assert system.submit_trajectory(["j1"], [], None, None, None, 0.5) == [
        "trajectory rejected: trajectory has no points. Fix: give at least one point (to stop "
        "where the joints are: one point at their current positions)."
    ]
    assert system.diagnostics()["trajectory_active"] is False
    assert system.commands.rejections["bad_trajectory"] == 1


def test_partner_hold_is_reused_only_while_it_cannot_change(repo_dir: Path) -> None:
    """The coupled-partner hold is computed once per command and reused while the commands
    are unchanged; a partner whose measured position was NaN when the hold began is retried
    (nothing reused) until a finite position is known."""
    system = HardwareSystem(
        load(repo_dir / "urdf" / "demo_arm.urdf.xacro"), "mock", command_timeout=0.0
    )
    names = list(system.transmissions.joint_names)
    shoulder, elbow = names.index("shoulder_lift"), names.index("elbow")
    system.read(0.0, 0.01)
    system.submit_joint_state(["shoulder_lift"], [0.3], [], [], 0.0)
    wanted = system.commands.effective()

    def partners(commands: np.ndarray) -> np.ndarray:
        """The values the holds give for the buffer's effective ``commands`` this tick."""
        assert system.commands.effective() is commands
        return system.holds.apply(0.0, system.commands, system._measured, True)[0]

    first = partners(wanted)
    assert partners(wanted) is first  # reused
    assert first[0][elbow] == pytest.approx(0.5, abs=TOL) and first[0][shoulder] == 0.3
    assert first is not wanted and np.isnan(wanted[0][elbow])  # the buffer's array is unchanged
    system.holds._last = None
    fresh = partners(wanted)
    np.testing.assert_array_equal(first, fresh)
    # a new command replaces the effective array: recomputed (the hold is released)
    system.submit_joint_state(["elbow"], [0.2], [], [], 0.0)
    released = partners(system.commands.effective())
    assert released[0][elbow] == 0.2 and np.isnan(system.holds._partner_start).all()
    # unknown measured position when the hold begins: not reused, retried with the next state
    system.submit_joint_state(["shoulder_lift", "elbow"], [0.3, math.nan], [], [], 0.0)
    system.commands.clear()
    system.submit_joint_state(["shoulder_lift"], [0.3], [], [], 0.0)
    system._measured = np.full((3, len(names)), math.nan)
    wanted = system.commands.effective()
    held = partners(wanted)
    assert math.isnan(held[0][elbow]) and system.holds._last is None
    system._measured = np.full((3, len(names)), 0.4)
    held = partners(wanted)
    assert held[0][elbow] == 0.4 and partners(wanted) is held


# -- the tick: write → read, priming read, timing ------------------------------------------------


class _CountingBackend(MockBackend):
    """The mock, recording the ``dt`` of every read and the position of every write."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: list[float] = []
        self.writes: list[np.ndarray] = []

    def read(self, dt: float):
        self.reads.append(dt)
        return super().read(dt)

    def write(self, command, dt: float) -> None:
        self.writes.append(np.array(command.position))
        super().write(command, dt)


def test_cycle_writes_then_reads_back_the_command() -> None:
    backend = _CountingBackend()
    system = _system(backend=backend, update_rate=1.0)
    system.submit_array("position", [0.5, 0.2], now=0.0)
    state = system.cycle(1.0, 1.0)
    # the first write reads the state first (dt = 0), then the tick's read advances by dt
    assert backend.reads == [0.0, 1.0] and len(backend.writes) == 1
    np.testing.assert_allclose(state.position, [0.5, 0.2, 1.5], atol=TOL)
    state = system.cycle(2.0, 1.0)
    assert backend.reads == [0.0, 1.0, 1.0]
    np.testing.assert_allclose(state.position, [0.5, 0.2, 1.5], atol=TOL)
    assert system.timing.cycles == 2


def test_timing_covers_the_tick_until_end_cycle() -> None:
    system = _system(update_rate=1000.0)
    system.cycle(0.0, 0.001, end_cycle=False)
    assert system.timing.cycles == 0  # still open: the caller publishes, then ends it
    system.end_cycle()
    assert system.timing.cycles == 1
    system.end_cycle()  # no tick open: nothing counted
    system.write(0.001, 0.001)
    system.read(0.001, 0.001, end_cycle=False)
    system.end_cycle()
    system.write(0.002, 0.001)
    system.read(0.002, 0.001)
    assert system.timing.cycles == 3
    assert system.diagnostics()["timing"]["cycles"] == 3


def test_release_follows_a_far_setpoint_from_the_held_position_at_the_limit(
    demo_robot,
) -> None:
    """The newcomer's e-stop under ros2_control, on MuJoCo at 100 Hz: base_yaw (velocity limit
    2 rad/s) follows a setpoint advancing at 0.5 rad/s (a trajectory controller knows no
    e-stop); e-stop at t = 1 s holds it (within 0.012 rad), release at 2.5 s with the setpoint
    0.75 rad ahead. The position target starts from the held position and advances exactly
    v̄·dt = 0.02 rad per tick until it meets the setpoint (0.75 / (2 − 0.5) = 0.5 s later).
    The measured velocity peaks 9.5 % above the limit (2.19 rad/s: the PID following a ramp
    that starts at full speed; the same for any far new target) and the joint is back on the
    setpoint within 0.05 rad 0.5 s after release, 0.01 rad 1 s after it."""
    hw = HardwareSystem(demo_robot, "mujoco", command_timeout=0.0, update_rate=100.0)
    k = list(hw.joint_names).index("base_yaw")
    assert hw.limiter.limits[k].max_velocity == 2.0
    dt = 0.01
    q, v, target = [], [], []
    for i in range(400):
        t = i * dt
        if i == 100:
            hw.enable(False)
        elif i == 250:
            hw.enable(True)
        if hw.enabled:
            hw.submit_joint_state(["base_yaw"], [0.5 * t], [], [], now=t)
        state = hw.cycle(t, dt)
        target.append(hw._command.values[0, k] if hw.enabled else NAN)
        q.append(state.position[k])
        v.append(state.velocity[k])
    q, v, target = (np.array(x) for x in (q, v, target))
    assert np.ptp(q[100:250]) < 0.012  # held (the PID settling after the stop)
    steps = np.diff(target[250:301])
    np.testing.assert_allclose(target[250], q[249] + 0.02, atol=1e-12)
    np.testing.assert_allclose(steps[:48], 0.02, atol=1e-12)  # at the limit, from the hold
    assert 0.0 < steps[48] < 0.02  # (the tick it meets the setpoint)
    np.testing.assert_allclose(target[300:], 0.5 * np.arange(300, 400) * dt, atol=1e-9)
    assert np.abs(v[250:]).max() == pytest.approx(2.19, abs=0.01)
    setpoint = 0.5 * np.arange(400) * dt
    assert abs(q[300] - setpoint[300]) < 0.05
    assert np.abs(q[350:] - setpoint[350:]).max() < 0.01


def test_estop_before_any_read_holds_the_measured_position() -> None:
    system = _system(ROS2_CONTROL)
    system.enable(False)
    state = system.cycle(1.0, 1.0)
    np.testing.assert_allclose(system.backend.driver._cmd_p, [2.0, 0.0], atol=TOL)  # (0.3 − 0.1)·10
    assert not np.isnan(system.holds._estop[0][0]).any()
    assert state.position[0] == pytest.approx(0.3, abs=TOL)


def test_priming_read_sensors_reach_the_next_read(repo_dir: Path) -> None:
    system = HardwareSystem(load(repo_dir / "urdf" / "demo_arm.urdf.xacro"), "mock")
    system.write(0.0, 0.001)  # primes: the mock samples every sensor on its first read
    state = system.read(0.0, 0.001)
    assert set(state.sensors) == {"imu_sensor", "ft_sensor"}
    assert system._pending_sensors is None


def test_reset_reads_the_reset_state_for_the_next_write() -> None:
    backend = _CountingBackend()
    system = _system(ROS2_CONTROL, backend=backend)
    system.submit_array("position", [0.8], now=0.0)
    assert system.cycle(1.0, 1.0).position[0] == pytest.approx(0.8, abs=TOL)
    system.reset()
    assert backend.reads[-1] == 0.0  # the reset state is read at once
    assert system._measured[0, 0] == pytest.approx(0.3, abs=TOL)
    # a trajectory submitted now starts from the reset state, not from 0.8
    system.submit_trajectory(["j1"], [2.0], [[0.5]], [], [], now=1.0)
    assert system.cycle(2.0, 1.0).position[0] == pytest.approx(0.4, abs=TOL)  # halfway 0.3 → 0.5


# -- the joint-space port: a backend that takes joint commands as they are -------------------------


class _JointSpaceMock(ActuatorPort):
    """A joint-space backend (the mock behind its port, given as the backend itself): records
    the joint commands it is written."""

    def __init__(self) -> None:
        super().__init__(MockBackend())
        self.joint_writes: list[np.ndarray] = []

    def write(self, command, dt: float) -> None:
        self.joint_writes.append(np.array(command.values))
        super().write(command, dt)


def test_joint_space_backend_gets_limited_joint_commands_and_returns_the_state() -> None:
    """j1 commanded beyond its 1 rad limit: the backend is written 1 rad in joint space (and
    NaN for the uncommanded j2); the state is what the actuator-space mock gives (j1, j2, the
    mimic j3 = 2·j1 + 0.5; actuator m1 = 10·(j1 − 0.1))."""
    backend = _JointSpaceMock()
    system = _system(backend=backend)
    assert system.backend is backend  # a joint-space backend is used as it is
    plain = _system()
    for s in (system, plain):
        s.submit_joint_state(["j1"], [1.5], [], [], 0.0)
    got, want = system.cycle(1.0, 1.0), plain.cycle(1.0, 1.0)
    assert backend.joint_writes[-1][0, 0] == 1.0 and math.isnan(backend.joint_writes[-1][0, 1])
    assert got.names == want.names == ("j1", "j2", "j3")
    np.testing.assert_allclose(got.joints, want.joints, rtol=0.0, atol=TOL)
    np.testing.assert_allclose(got.position, [1.0, 0.0, 2.5], atol=TOL)
    np.testing.assert_allclose(
        np.stack(got.actuators), np.stack(want.actuators), rtol=0.0, atol=TOL
    )
    assert got.actuator_position[0] == pytest.approx(9.0, abs=TOL)
    assert system._measured[0, 0] == pytest.approx(1.0, abs=TOL)
    # e-stop: a joint-space hold (position mode) of the joint position measured last
    system.enable(False)
    system.cycle(2.0, 1.0)
    assert backend.joint_writes[-1][0].tolist() == [1.0, 0.0]
    assert backend.driver._cmd_p[0] == pytest.approx(9.0, abs=TOL)


def test_joint_space_backend_returning_wrong_shapes_is_a_backend_error() -> None:
    class Short(_JointSpaceMock):
        def read(self, dt: float) -> JointSpaceState:
            state = super().read(dt)
            return JointSpaceState(
                state.joints[:, :2], state.actuators, state.sensors, state.sim_time
            )

    system = _system(backend=Short())
    with pytest.raises(BackendError, match=r"shapes \(3, 2\) and \(3, 2\), expected \(3, 3\)"):
        system.read(0.0, 0.01)


def test_cycle_state_rows_are_views_of_its_tables() -> None:
    joints, actuators = np.arange(9.0).reshape(3, 3), (np.zeros(2), np.ones(2), np.full(2, 2.0))
    state = CycleState(("a", "b", "c"), joints, actuators)
    assert state.position.tolist() == [0.0, 1.0, 2.0] and np.shares_memory(state.position, joints)
    assert state.velocity.tolist() == [3.0, 4.0, 5.0] and state.effort.tolist() == [6.0, 7.0, 8.0]
    assert state.actuator_position is actuators[0] and state.actuator_effort.tolist() == [2.0, 2.0]
    assert state.sensors == {} and state.sim_time is None
    assert "names=('a', 'b', 'c')" in repr(state)


def test_mujoco_actuator_state_is_the_joint_state_through_the_map(repo_dir: Path) -> None:
    """The demo arm in MuJoCo: the actuator state of every tick is ``joint_to_actuator`` of its
    joint state (TransmissionMap.joint_state), bit for bit, while position commands move it."""
    pytest.importorskip("mujoco")
    robot = load(repo_dir / "urdf" / "demo_arm.urdf.xacro")
    system = HardwareSystem(
        robot, "mujoco", command_timeout=0.0, backend_params={"render_cameras": False}
    )
    n = len(system.transmissions.joint_names)
    now = 0.0
    for k in range(60):
        if k % 20 == 0:
            system.submit_array("position", np.full(len(system.joint_names), 0.1 * (k // 20)), now)
        now += 0.01
        state = system.cycle(now, 0.01)
        joints, actuators = system.transmissions.joint_state(state.joints[:, :n].copy())
        np.testing.assert_array_equal(np.stack(state.actuators), actuators)
        np.testing.assert_array_equal(state.joints, joints)
    # 0.2 s after its step from 0.1: near it
    assert state.position[0] == pytest.approx(0.2, abs=1e-2)


def test_untimed_system_runs_the_same_ticks_and_times_none() -> None:
    """timed=False (a caller whose loop times the ticks): no LoopTiming, end_cycle does
    nothing, no "timing" in the diagnostics; the ticks themselves are those of a timed system."""
    timed = _system(update_rate=1000.0)
    untimed = _system(update_rate=1000.0, timed=False)
    assert untimed.timing is None and timed.timing is not None
    for system in (timed, untimed):
        system.submit_array("position", [0.5, 0.2], now=0.0)
    for k in range(3):
        now = 0.001 * k
        a = timed.cycle(now, 0.001, end_cycle=False)
        b = untimed.cycle(now, 0.001, end_cycle=False)
        timed.end_cycle()
        untimed.end_cycle()  # no tick open, nothing to end: no effect
        np.testing.assert_array_equal(a.joints, b.joints)
        np.testing.assert_array_equal(np.stack(a.actuators), np.stack(b.actuators))
    untimed.write(0.003, 0.001)
    untimed.read(0.003, 0.001)
    assert timed.timing.cycles == 3 and untimed.timing is None
    diagnostics = untimed.diagnostics()
    assert "timing" not in diagnostics and diagnostics["backend"] == "mock"
    assert {k for k in timed.diagnostics() if k != "timing"} == set(diagnostics)
    # update_rate is checked either way
    with pytest.raises(ConfigError, match=r"update_rate is -1\.0\. Fix: give a rate in Hz > 0"):
        _system(update_rate=-1.0, timed=False)


def test_sensor_demand_goes_to_a_backend_that_takes_it(repo_dir: Path) -> None:
    """MuJoCo takes a demand (only the named sensors are read); the mock has no such method
    (every sensor read, False returned); unknown names are refused before anything changes."""
    pytest.importorskip("mujoco")
    robot = load(repo_dir / "urdf" / "demo_arm.urdf.xacro")
    system = HardwareSystem(
        robot, "mujoco", command_timeout=0.0, backend_params={"render_cameras": False}
    )
    system.read(0.0, 0.01)
    assert system.set_sensor_demand(["imu_sensor"]) is True
    assert set(system.cycle(0.01, 0.01).sensors) == {"imu_sensor"}
    with pytest.raises(
        ConfigError,
        match=r"unknown sensor\(s\) \['nope'\]. Fix: use names from \['ft_sensor', 'imu_sensor'\]",
    ):
        system.set_sensor_demand(["imu_sensor", "nope"])
    assert system.backend.sensors.demand == frozenset({"imu_sensor"})  # unchanged
    assert system.set_sensor_demand("ft_sensor") is True  # one name
    assert system.backend.sensors.demand == frozenset({"ft_sensor"})
    assert system.set_sensor_demand(None) is True
    assert set(system.cycle(0.02, 0.01).sensors) == {"imu_sensor", "ft_sensor"}
    mock = HardwareSystem(robot, "mock", command_timeout=0.0)
    assert mock.set_sensor_demand([]) is False
    mock.write(0.0, 0.001)
    assert set(mock.read(0.0, 0.001).sensors) == {"imu_sensor", "ft_sensor"}


def test_sensor_demand_takes_joint_wrench_readings(repo_dir: Path) -> None:
    """A joint asking for feedback has a demandable reading ``joint_wrench/<joint>`` (MuJoCo
    reads it only while demanded); the error lists it among the known names."""
    pytest.importorskip("mujoco")
    robot = load(repo_dir / "urdf" / "demo_arm.urdf.xacro")
    name = next(j.name for j in robot.joints.values() if j.type != "fixed")
    joints = dict(robot.joints)
    joints[name] = replace(joints[name], provide_feedback=True)
    system = HardwareSystem(
        replace(robot, joints=joints),
        "mujoco",
        command_timeout=0.0,
        backend_params={"render_cameras": False},
    )
    system.read(0.0, 0.01)
    wrench = f"joint_wrench/{name}"
    assert system.set_sensor_demand([wrench]) is True
    assert set(system.cycle(0.01, 0.01).sensors) == {wrench}
    with pytest.raises(ConfigError, match=rf"\['nope'\]. Fix: use names from \[.*'{wrench}'"):
        system.set_sensor_demand(["nope"])


ONE_ARM = """<robot name="one"><link name="base"/>
  <link name="arm"><inertial><mass value="1"/><origin xyz="0.1 0 0"/>
    <inertia ixx="0.001" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="waist" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-{0}" upper="{0}" effort="50" velocity="3.14"/></joint>
</robot>"""


def _peak_velocity_to(system: HardwareSystem, target: float, now: float) -> float:
    """Command ``target`` and run 3 s of 100 Hz ticks; the largest |velocity| measured."""
    system.submit_array("position", [target], now)
    peak = 0.0
    for _ in range(300):
        now += 0.01
        state = system.cycle(now, 0.01)
        peak = max(peak, abs(float(state.velocity[0])))
    assert state.position[0] == pytest.approx(target, abs=1e-6)
    return peak


def _one_arm_on_mujoco(upper: float) -> HardwareSystem:
    """:data:`ONE_ARM` with position limits ±``upper`` (rad) on MuJoCo, no watchdog."""
    return HardwareSystem(
        load(ONE_ARM.format(upper)),
        "mujoco",
        command_timeout=0.0,
        backend_params={"render_cameras": False},
    )


@pytest.mark.parametrize("paused_ticks", [0, 200])
def test_commands_given_while_paused_move_at_the_velocity_limit_on_unpause(
    paused_ticks: int,
) -> None:
    """A 1.5 rad command streamed for 2 s of paused physics, then unpause: the limiter's
    rate is in simulated time (HardwareSystem._limiter_dt: 0 while paused), so the joint moves
    at its 3.14 rad/s limit plus the PID's overshoot — the same peak as without the pause
    (3.558 rad/s), not the step it was (35.7 rad/s before the fix)."""
    pytest.importorskip("mujoco")
    system = _one_arm_on_mujoco(3.14)
    if paused_ticks:
        system.pause(True)
    for _ in range(paused_ticks):  # while paused: the setpoint stays at the measured 0
        system.submit_array("position", [1.5], 0.0)
        state = system.cycle(0.0, 0.01)
        assert state.position[0] == 0.0 and system._command.values[0, 0] == 0.0
    system.pause(False)
    peak = _peak_velocity_to(system, 1.5, 0.0)
    assert 3.14 < peak == pytest.approx(3.558, abs=0.005)


def test_a_command_beyond_a_limit_stops_at_the_limit_on_mujoco() -> None:
    """2.5 rad commanded for a joint whose upper limit is 1 rad, arriving at its 3.14 rad/s
    limit: the limiter clamps the command at 1, and the rigid stop (builder.rigid_stop, τ 5 ms)
    keeps the overshoot at 0.0042 rad (0.025 rad with MuJoCo's default stop; bound v·τ/e =
    0.0066), inside ros2_control's 0.0087 rad out-of-bounds tolerance (joint_limits_helpers);
    at rest 1.0e-4 rad (2.1e-3 before)."""
    pytest.importorskip("mujoco")
    system = _one_arm_on_mujoco(1.0)
    system.submit_array("position", [2.5], 0.0)
    peak = -math.inf
    for k in range(300):
        state = system.cycle(0.01 * (k + 1), 0.01)
        assert system._command.values[0, 0] <= 1.0
        peak = max(peak, float(state.position[0]))
    assert peak - 1.0 == pytest.approx(4.21e-3, abs=5e-5)
    assert state.position[0] - 1.0 == pytest.approx(1.0e-4, abs=5e-6)
