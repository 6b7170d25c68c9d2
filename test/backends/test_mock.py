"""MockBackend: each mock_components GenericSystem behaviour with exact values.

The robot: j1 (revolute) through a classic SimpleTransmission (actuator m1, reduction 10,
joint offset 0.1 rad), j2 (prismatic, identity actuator "j2"), j3 mimics j1. Actuator arrays
are (m1, j2).
"""

from __future__ import annotations

import logging
import math

import numpy as np
import pytest

from sdf_bridge.backends.base import MODE_DTYPE, ActuatorCommand, Mode
from sdf_bridge.backends.mock import KNOWN_PARAMS, MockBackend
from sdf_bridge.backends.sensor_readings import ImuReading, WrenchReading
from sdf_bridge.description import load
from sdf_bridge.errors import BackendError
from sdf_bridge.transmissions import TransmissionMap

TOL = 1e-12
NAN = math.nan

ROBOT = """<?xml version="1.0"?>
<robot name="mockbot">
  <link name="base"/><link name="l1"/><link name="l2"/><link name="l3"/>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="2"/>
  </joint>
  <joint name="j2" type="prismatic">
    <parent link="l1"/><child link="l2"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="100" velocity="1"/>
  </joint>
  <joint name="j3" type="revolute">
    <parent link="l2"/><child link="l3"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="2"/>
    <mimic joint="j1" multiplier="2" offset="0.5"/>
  </joint>
  <transmission name="t1">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="j1">
      <hardwareInterface>hardware_interface/PositionJointInterface</hardwareInterface>
      <offset>0.1</offset></joint>
    <actuator name="m1"><mechanicalReduction>10</mechanicalReduction></actuator>
  </transmission>
  <ros2_control name="sys" type="system">
    <hardware><plugin>mock_components/GenericSystem</plugin></hardware>
    <joint name="j1">
      <command_interface name="position"/>
      <command_interface name="velocity"/>
      <state_interface name="position"><param name="initial_value">INITIAL_J1</param>
        </state_interface>
      <state_interface name="velocity"/>
      <state_interface name="effort"/>
    </joint>
    <joint name="j2">
      <command_interface name="position"/>
      <command_interface name="effort"/>
      <state_interface name="position"><param name="initial_value">0.25</param></state_interface>
      <state_interface name="velocity"><param name="initial_value">0.5</param></state_interface>
      <state_interface name="effort"><param name="initial_value">-2.0</param></state_interface>
    </joint>
    <sensor name="tcp_fts">
      <state_interface name="force.x"><param name="initial_value">1.5</param></state_interface>
      <state_interface name="force.y"/>
      <state_interface name="force.z"/>
      <state_interface name="torque.x"/>
      <state_interface name="torque.y"/>
      <state_interface name="torque.z"/>
    </sensor>
    <sensor name="tcp_pose">
      <state_interface name="position.x"><param name="initial_value">0.4</param></state_interface>
      <state_interface name="orientation.w"><param name="initial_value">1</param></state_interface>
    </sensor>
    <sensor name="thermo">
      <state_interface name="temperature"><param name="initial_value">25.0</param></state_interface>
    </sensor>
    <sensor name="rc_imu">
      <state_interface name="orientation.x"><param name="initial_value">0</param></state_interface>
      <state_interface name="orientation.y"><param name="initial_value">0</param></state_interface>
      <state_interface name="orientation.z"><param name="initial_value">0</param></state_interface>
      <state_interface name="orientation.w"><param name="initial_value">1</param></state_interface>
      <state_interface name="angular_velocity.x"/>
      <state_interface name="linear_acceleration.z"><param name="initial_value">9.81</param>
        </state_interface>
    </sensor>
  </ros2_control>
  <gazebo reference="l2">
    <sensor name="gz_imu" type="imu"><update_rate>10</update_rate></sensor>
  </gazebo>
  <gazebo reference="l2">
    <sensor name="gz_ft" type="force_torque"/>
  </gazebo>
  <gazebo reference="l3">
    <sensor name="cam" type="camera"><update_rate>30</update_rate></sensor>
  </gazebo>
</robot>
"""


def _mock(params: dict | None = None, initial_j1: str = "0.6") -> MockBackend:
    robot = load(ROBOT.replace("INITIAL_J1", initial_j1))
    tm = TransmissionMap.from_robot(robot)
    assert tm.actuator_names == ("m1", "j2")
    backend = MockBackend()
    backend.configure(robot, tm.actuator_names, transmissions=tm, params=params or {})
    return backend


def _cmd(p=(NAN, NAN), v=(NAN, NAN), e=(NAN, NAN), mode=()) -> ActuatorCommand:
    """A command; ``mode``: one mode label per actuator (empty: not given)."""
    modes = np.array([int(Mode.from_label(m)) for m in mode], dtype=MODE_DTYPE)
    return ActuatorCommand(np.array(p, float), np.array(v, float), np.array(e, float), modes)


def _assert_state(backend: MockBackend, dt: float, p, v, e) -> None:
    state = backend.read(dt)
    np.testing.assert_allclose(state.position, p, atol=TOL)
    np.testing.assert_allclose(state.velocity, v, atol=TOL)
    np.testing.assert_allclose(state.effort, e, atol=TOL)


# ------------------------------------------------------------------------ initial values
def test_initial_values_in_actuator_space() -> None:
    backend = _mock()
    # j1 = 0.6 rad → m1 = (0.6 − 0.1) · 10 = 5.0; j2 identity: 0.25 m, 0.5 m/s, −2 N
    _assert_state(backend, 0.01, [5.0, 0.25], [0.0, 0.5], [0.0, -2.0])
    assert backend.calculate_dynamics is False and backend.disable_commands is False


def test_initial_value_not_a_number() -> None:
    with pytest.raises(
        BackendError, match=r"joint 'j1' state interface 'position' initial_value.*'abc'"
    ):
        _mock(initial_j1="abc")


# ------------------------------------------------------------------------ mirroring
def test_ideal_mirroring_without_dynamics() -> None:
    backend = _mock()
    backend.write(_cmd(p=(1.0, NAN), v=(NAN, 0.3), e=(NAN, 4.0)), 0.01)
    _assert_state(backend, 0.01, [1.0, 0.25], [0.0, 0.3], [0.0, 4.0])
    # velocity alone does not move a position without calculate_dynamics (GenericSystem)
    _assert_state(backend, 0.01, [1.0, 0.25], [0.0, 0.3], [0.0, 4.0])


def test_commands_apply_at_next_read() -> None:
    backend = _mock()
    state = backend.read(0.01)
    backend.write(_cmd(p=(2.0, 0.5)), 0.01)
    np.testing.assert_allclose(state.position, [5.0, 0.25], atol=TOL)  # copies, not views
    _assert_state(backend, 0.01, [2.0, 0.5], [0.0, 0.5], [0.0, -2.0])


def test_position_state_following_offset() -> None:
    backend = _mock({"position_state_following_offset": "0.05"})
    backend.write(_cmd(p=(1.0, NAN)), 0.01)
    _assert_state(backend, 0.01, [1.05, 0.25], [0.0, 0.5], [0.0, -2.0])


def test_custom_interface_with_following_offset() -> None:
    backend = _mock(
        {
            "position_state_following_offset": 0.05,
            "custom_interface_with_following_offset": "position_offset",
        }
    )
    backend.write(_cmd(p=(1.0, NAN)), 0.01)
    _assert_state(backend, 0.01, [1.0, 0.25], [0.0, 0.5], [0.0, -2.0])  # no offset on position
    np.testing.assert_allclose(backend.custom_interface_values["position_offset"], [1.05, NAN])


def test_custom_interface_ignored_without_offset_parameter() -> None:
    backend = _mock({"custom_interface_with_following_offset": "position_offset"})
    assert backend.custom_interface_values == {}


# ------------------------------------------------------------------------ calculate_dynamics
def test_dynamics_position_mode_finite_differences() -> None:
    backend = _mock({"calculate_dynamics": True})
    backend.write(_cmd(p=(5.2, NAN), mode=("position", "position")), 0.1)
    _assert_state(backend, 0.1, [5.2, 0.25], [2.0, 0.5], [0.0, -2.0])
    np.testing.assert_allclose(backend.acceleration, [20.0, 0.0], atol=1e-9)
    _assert_state(backend, 0.1, [5.2, 0.25], [0.0, 0.5], [0.0, -2.0])
    np.testing.assert_allclose(backend.acceleration, [-20.0, 0.0], atol=1e-9)


def test_dynamics_velocity_mode_integrates() -> None:
    backend = _mock({"calculate_dynamics": "True"})
    backend.write(_cmd(v=(1.0, NAN), mode=("velocity", "velocity")), 0.1)
    # backward Euler: the position moves with the previous velocity, then v ← command
    _assert_state(backend, 0.1, [5.0, 0.30], [1.0, 0.5], [0.0, -2.0])
    np.testing.assert_allclose(backend.acceleration, [10.0, 0.0], atol=1e-9)
    _assert_state(backend, 0.1, [5.1, 0.35], [1.0, 0.5], [0.0, -2.0])
    np.testing.assert_allclose(backend.acceleration, [0.0, 0.0], atol=1e-9)


def test_dynamics_velocity_mode_adds_following_offset_every_cycle() -> None:
    backend = _mock({"calculate_dynamics": True, "position_state_following_offset": 0.01})
    backend.write(_cmd(v=(1.0, NAN), mode=("velocity", "position")), 0.1)
    _assert_state(backend, 0.1, [5.01, 0.25], [1.0, 0.5], [0.0, -2.0])
    _assert_state(backend, 0.1, [5.12, 0.25], [1.0, 0.5], [0.0, -2.0])


def test_dynamics_acceleration_mode() -> None:
    backend = _mock({"calculate_dynamics": True})
    modes = _cmd(mode=("acceleration", "position")).mode
    command = ActuatorCommand(
        np.full(2, NAN), np.full(2, NAN), np.full(2, NAN), modes, acceleration=np.array([2.0, NAN])
    )
    backend.write(command, 0.1)
    _assert_state(backend, 0.1, [5.0, 0.25], [0.0, 0.5], [0.0, -2.0])
    np.testing.assert_allclose(backend.acceleration, [2.0, 0.0], atol=TOL)
    _assert_state(backend, 0.1, [5.0, 0.25], [0.2, 0.5], [0.0, -2.0])
    _assert_state(backend, 0.1, [5.02, 0.25], [0.4, 0.5], [0.0, -2.0])


def test_dynamics_effort_looped_back_and_position_held() -> None:
    backend = _mock({"calculate_dynamics": True})
    backend.write(_cmd(e=(3.0, NAN), mode=("effort", "")), 0.1)
    _assert_state(backend, 0.1, [5.0, 0.25], [0.0, 0.5], [3.0, -2.0])


def test_dynamics_zero_dt_skips_differences() -> None:
    backend = _mock({"calculate_dynamics": True})
    backend.write(_cmd(p=(6.0, NAN), mode=("position", "position")), 0.0)
    _assert_state(backend, 0.0, [6.0, 0.25], [0.0, 0.5], [0.0, -2.0])


# ------------------------------------------------------------------------ disable_commands
def test_disable_commands_freezes_state() -> None:
    backend = _mock({"disable_commands": "true", "mock_sensor_commands": True})
    backend.write(_cmd(p=(1.0, 1.0), v=(1.0, 1.0), e=(1.0, 1.0)), 0.01)
    backend.set_sensor_state("tcp_fts", "force.y", 3.0)
    _assert_state(backend, 0.01, [5.0, 0.25], [0.0, 0.5], [0.0, -2.0])
    assert math.isnan(backend.sensor_values("tcp_fts")["force.y"])


# ------------------------------------------------------------------------ sensors
def test_sensor_readings_and_rates() -> None:
    backend = _mock()
    assert set(backend.sensor_names) == {
        "tcp_fts",
        "tcp_pose",
        "thermo",
        "rc_imu",
        "gz_imu",
        "gz_ft",
    }
    first = backend.read(0.04).sensors
    # thermo and tcp_pose (orientation without IMU quantities) have no typed reading
    assert set(first) == {"tcp_fts", "rc_imu", "gz_imu", "gz_ft"}
    assert backend.sensor_values("tcp_pose") == {"position.x": 0.4, "orientation.w": 1.0}
    fts = first["tcp_fts"]
    assert isinstance(fts, WrenchReading)
    assert fts.force[0] == 1.5 and all(math.isnan(x) for x in fts.force[1:] + fts.torque)
    imu = first["rc_imu"]
    assert isinstance(imu, ImuReading) and imu.orientation == (0.0, 0.0, 0.0, 1.0)
    assert all(math.isnan(x) for x in imu.angular_velocity)  # no initial value / not declared
    assert imu.linear_acceleration[2] == 9.81
    assert first["gz_imu"] == ImuReading(None, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    assert first["gz_ft"] == WrenchReading((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    # gz_imu at 10 Hz: the next samples after each 0.1 s of reads
    seen = [("gz_imu" in backend.read(0.025).sensors) for _ in range(8)]
    assert seen == [False, False, False, True, False, False, False, True]
    assert "tcp_fts" in backend.read(0.025).sensors  # <ros2_control>-only: every read
    assert backend.sensor_values("thermo") == {"temperature": 25.0}


def test_ros2_control_sensor_without_initial_value_reads_nan() -> None:
    backend = _mock()
    values = backend.sensor_values("rc_imu")
    assert math.isnan(values["angular_velocity.x"]) and values["orientation.w"] == 1.0


def test_set_sensor_state_shows_at_next_read() -> None:
    backend = _mock({"mock_sensor_commands": "true"})
    backend.set_sensor_state("gz_imu", "linear_acceleration.z", 9.81)
    backend.set_sensor_state("thermo", "temperature", 30.0)
    assert backend.sensor_values("thermo") == {"temperature": 25.0}
    readings = backend.read(0.01).sensors
    assert readings["gz_imu"].linear_acceleration == (0.0, 0.0, 9.81)
    assert backend.sensor_values("thermo") == {"temperature": 30.0}
    backend.set_sensor_state("thermo", "temperature", NAN)  # NaN = no change
    backend.read(0.01)
    assert backend.sensor_values("thermo") == {"temperature": 30.0}


def test_deprecated_fake_sensor_commands(caplog: pytest.LogCaptureFixture) -> None:
    backend = _mock({"fake_sensor_commands": "true"})
    assert backend.mock_sensor_commands is True
    assert "deprecated" in caplog.text


def test_sensor_command_errors() -> None:
    backend = _mock()
    with pytest.raises(BackendError, match="set the backend parameter mock_sensor_commands"):
        backend.set_sensor_state("thermo", "temperature", 1.0)
    backend = _mock({"mock_sensor_commands": True})
    with pytest.raises(BackendError, match=r"no sensor 'cam'\. Fix: use one of"):
        backend.set_sensor_state("cam", "x", 1.0)
    with pytest.raises(BackendError, match=r"has no interface 'pressure'.*temperature"):
        backend.set_sensor_state("thermo", "pressure", 1.0)
    with pytest.raises(BackendError, match="no sensor 'cam'"):
        backend.sensor_values("cam")


# ------------------------------------------------------------------------ reset, errors
def test_reset_returns_to_initial_values() -> None:
    backend = _mock({"mock_sensor_commands": True})
    backend.write(_cmd(p=(1.0, 0.9), e=(5.0, 5.0)), 0.01)
    backend.set_sensor_state("thermo", "temperature", 99.0)
    backend.read(0.01)
    backend.reset()
    _assert_state(backend, 0.01, [5.0, 0.25], [0.0, 0.5], [0.0, -2.0])
    assert backend.sensor_values("thermo") == {"temperature": 25.0}


@pytest.mark.parametrize(
    ("params", "match"),
    [
        (
            {"calculate_dynamics": "yes please"},
            "'calculate_dynamics' is 'yes please', not a boolean",
        ),
        ({"disable_commands": 1}, "not a boolean"),
        (
            {"position_state_following_offset": "abc"},
            "position_state_following_offset.*not a finite",
        ),
        ({"position_state_following_offset": "inf"}, "not a finite number"),
    ],
)
def test_bad_parameters(params: dict, match: str) -> None:
    with pytest.raises(BackendError, match=match):
        _mock(params)


def test_unknown_parameters_are_ignored_with_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Another plug-in's parameters and a misspelt one (with the one it probably meant)."""
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.backends.mock"):
        backend = _mock(
            {"example_param_hw_start_duration_sec": "0", "calculate_dynamic": "true", "x": 1}
        )
    assert backend.calculate_dynamics is False
    assert [r.getMessage() for r in caplog.records] == [
        "mock backend: 3 parameter(s) not its own, ignored: "
        "'example_param_hw_start_duration_sec', 'calculate_dynamic', 'x' (the parameters of "
        "another plug-in, e.g. a real driver's <ros2_control><hardware><param>s, or a misspelt "
        "backend_params.*); 'calculate_dynamic' is probably 'calculate_dynamics'. Its "
        "parameters: " + ", ".join(sorted(KNOWN_PARAMS))
    ]


def test_its_own_parameters_give_no_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.backends.mock"):
        _mock({"calculate_dynamics": "true", "position_state_following_offset": "0.1"})
    assert caplog.records == []


def test_unknown_actuator() -> None:
    robot = load(ROBOT.replace("INITIAL_J1", "0"))
    tm = TransmissionMap.from_robot(robot)
    with pytest.raises(
        BackendError, match=r"actuators \['m9'\] are not in the robot's transmissions"
    ):
        MockBackend().configure(robot, ["m1", "m9"], transmissions=tm, params={})


def test_actuator_order_is_the_given_one() -> None:
    robot = load(ROBOT.replace("INITIAL_J1", "0.6"))
    tm = TransmissionMap.from_robot(robot)
    backend = MockBackend()
    backend.configure(robot, ["j2", "m1"], transmissions=tm, params={})
    np.testing.assert_allclose(backend.read(0.01).position, [0.25, 5.0], atol=TOL)


def test_write_errors() -> None:
    backend = _mock()
    with pytest.raises(BackendError, match=r"shape \(3,\) for 2 actuators"):
        backend.write(ActuatorCommand(np.zeros(3), np.zeros(2), np.zeros(2)), 0.01)
    with pytest.raises(BackendError, match="1 command modes for 2 actuators"):
        backend.write(_cmd(mode=("position",)), 0.01)
    with pytest.raises(
        BackendError,
        match=r"command mode value\(s\) \[16\] are not modes. Fix: use "
        "sdf_bridge.backends.base.Mode values",
    ):
        backend.write(
            ActuatorCommand(
                np.zeros(2), np.zeros(2), np.zeros(2), np.array([16, 1], dtype=MODE_DTYPE)
            ),
            0.01,
        )
    with pytest.raises(ValueError, match="unknown command mode 'torque'"):
        Mode.from_label("torque")


def test_use_before_configure_and_after_close() -> None:
    backend = MockBackend()
    with pytest.raises(BackendError, match="before configure"):
        backend.read(0.01)
    backend = _mock()
    backend.close()
    with pytest.raises(BackendError, match="before configure"):
        backend.write(_cmd(), 0.01)


def test_dynamics_mixed_modes() -> None:
    backend = _mock({"calculate_dynamics": True})
    backend.write(_cmd(p=(NAN, 0.45), v=(1.0, NAN), mode=("velocity", "position")), 0.1)
    # m1 integrates (velocity mode); j2 finite differences: (0.45 − 0.25)/0.1, (2 − 0.5)/0.1
    _assert_state(backend, 0.1, [5.0, 0.45], [1.0, 2.0], [0.0, -2.0])
    np.testing.assert_allclose(backend.acceleration, [10.0, 15.0], atol=1e-9)


def test_gpio_commands_are_not_simulated(caplog: pytest.LogCaptureFixture) -> None:
    _mock({"mock_gpio_commands": "true"})
    assert "GPIO interfaces are not simulated" in caplog.text


def test_description_initial_position_when_no_initial_value() -> None:
    import dataclasses

    robot = load(ROBOT.replace("INITIAL_J1", "0.6"))
    joints = dict(robot.joints)
    joints["j2"] = dataclasses.replace(joints["j2"], initial_position=0.4)
    robot = dataclasses.replace(robot, joints=joints, ros2_control=())  # no initial_value left
    tm = TransmissionMap.from_robot(robot)
    backend = MockBackend()
    backend.configure(robot, tm.actuator_names, transmissions=tm, params={})
    # j1 = 0 → m1 = (0 − 0.1)·10 = −1; j2 from the joint's initial_position
    np.testing.assert_allclose(backend.read(0.01).position, [-1.0, 0.4], atol=TOL)
