"""sdf_bridge.hardware.backend_setup: the backend parameters gathered from the description's
``<ros2_control>`` blocks and the caller's overrides, the backend opened behind the joint-space
port with its name, the transmission map built for it (an unknown transmission type driven
as identity for a simulated robot, refused for real actuators; an actuator name two
transmissions use renamed for a simulated robot, refused for real actuators), and whether it
simulates.
Real MockBackend, MujocoBackend and TransmissionMap."""

from __future__ import annotations

import logging
import re

import numpy as np
import pytest

from sdf_bridge.backends.base import ActuatorState
from sdf_bridge.backends.mock import MockBackend
from sdf_bridge.description import load
from sdf_bridge.errors import BackendError, TransmissionError
from sdf_bridge.hardware import HardwareSystem
from sdf_bridge.hardware.backend_setup import (
    backend_parameters,
    backend_port,
    configure_backend,
    simulates,
    simulator,
)
from sdf_bridge.hardware.topic_block import PICKNIK
from sdf_bridge.transmissions import TransmissionMap


def _robot(blocks: str):
    return load(
        f"""<robot name="b"><link name="base"/><link name="l1"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/></joint>
  {blocks}
</robot>"""
    )


def _block(name: str, plugin: str, joint: str = "j1", **params: str) -> str:
    """A ``<ros2_control>`` block with ``params``, for ``joint`` (``""``: for no joint)."""
    written = "".join(f'<param name="{k}">{v}</param>' for k, v in params.items())
    joints = (
        f'<joint name="{joint}"><command_interface name="position"/>'
        '<state_interface name="position"/></joint>'
        if joint
        else ""
    )
    return (
        f'<ros2_control name="{name}" type="system"><hardware><plugin>{plugin}</plugin>'
        f"{written}</hardware>{joints}</ros2_control>"
    )


MOCK = "mock_components/GenericSystem"


def test_parameters_of_the_blocks_then_the_overrides() -> None:
    robot = _robot(_block("a", MOCK, calculate_dynamics="true", rate="2"))
    assert backend_parameters(robot, None) == {"calculate_dynamics": "true", "rate": "2"}
    assert backend_parameters(robot, {"calculate_dynamics": False, "x": 1.5}) == {
        "calculate_dynamics": False,
        "rate": "2",
        "x": 1.5,
    }


def test_a_topic_based_block_gives_no_backend_parameters() -> None:
    robot = _robot(_block("topics", PICKNIK, joint_commands_topic="/cmd"))
    assert backend_parameters(robot, None) == {}


def test_a_parameter_blocks_disagree_on_takes_the_later_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    robot = _robot(
        _block("a", MOCK, calculate_dynamics="true")
        + _block("b", MOCK, "", calculate_dynamics="false")
    )
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.hardware.backend_setup"):
        assert backend_parameters(robot, None) == {"calculate_dynamics": "false"}
    assert [r.getMessage() for r in caplog.records] == [
        "<ros2_control> hardware parameter 'calculate_dynamics' differs between blocks "
        "('true', 'false'); using 'false' from block 'b'"
    ]


def test_backend_port_names_it_and_configure_backend_configures_it() -> None:
    robot = _robot(_block("a", MOCK, calculate_dynamics="true"))
    tm = TransmissionMap.from_robot(robot, compiled=False)
    port, name = backend_port("mock")
    assert name == "mock" and isinstance(port.driver, MockBackend)
    configure_backend(port, robot, tm, None)
    assert port.driver.calculate_dynamics is True  # from <hardware><param>
    driver = MockBackend()
    port, name = backend_port(driver)
    assert port.driver is driver and name == "MockBackend"
    configure_backend(port, robot, tm, {"calculate_dynamics": False})
    assert driver.calculate_dynamics is False  # the override wins

    class Named(MockBackend):
        name = "bench_mock"

    assert backend_port(Named())[1] == "bench_mock"
    with pytest.raises(BackendError, match="unknown backend 'nope'"):
        backend_port("nope")


@pytest.mark.parametrize(
    ("backend", "logger", "misspelt", "meant"),
    [
        ("mock", "sdf_bridge.backends.mock", "calculate_dynamcs", "calculate_dynamics"),
        ("mujoco", "sdf_bridge.backends.mujoco.backend", "timestpe", "timestep"),
    ],
)
def test_a_real_drivers_parameters_and_a_misspelt_override_in_one_warning(
    caplog: pytest.LogCaptureFixture, backend: str, logger: str, misspelt: str, meant: str
) -> None:
    """The description's block is a real driver's (its parameters are not the backend's); a
    misspelt ``backend_params.*`` override is warned about in the same one warning."""
    robot = _robot(
        _block("arm", "kortex_driver/KortexMultiInterfaceHardware", robot_ip="10.0.0.2", port="1")
    )
    tm = TransmissionMap.from_robot(robot, compiled=False)
    with caplog.at_level(logging.WARNING, logger=logger):
        port, _ = backend_port(backend)
        configure_backend(port, robot, tm, {misspelt: "1"})
    port.close()
    (message,) = [r.getMessage() for r in caplog.records if r.name == logger]
    assert f"3 parameter(s) not its own, ignored: 'robot_ip', 'port', {misspelt!r} (" in message
    assert f"; {misspelt!r} is probably {meant!r}. Its parameters: " in message


class _Sim:
    """The two methods that make a simulator."""

    def pause(self, flag: bool) -> None: ...

    def step(self, n: int) -> None: ...


def test_what_simulates() -> None:
    sim = _Sim()
    assert simulates(sim) and simulator(sim, "sim") is sim
    assert not simulates(MockBackend())
    with pytest.raises(
        BackendError,
        match=r"^backend 'mock' does not simulate: it cannot pause or step\. Fix: use a "
        r"simulating backend \(mujoco\)\.$",
    ):
        simulator(MockBackend(), "mock")


def test_a_system_on_the_mock_cannot_pause_or_step() -> None:
    system = HardwareSystem(_robot(""), "mock", command_timeout=0.0)
    assert not system.simulating and not system.paused
    for call in (lambda: system.pause(True), lambda: system.step(1)):
        with pytest.raises(BackendError, match="backend 'mock' does not simulate"):
            call()


# --- the transmission map built for the backend: test/data/made_up_transmission.urdf has one
# transmission of a type no mechanism is registered for, on its two commanded joints

MADE_UP_JOINTS = ("head_1_joint", "head_2_joint")
#: the start of the loader's warning (its whole text: test/transmissions/test_loader.py)
SKIPPED = (
    r"transmission 'head_trans' \(.*made_up_transmission\.urdf:31\) has unknown type "
    r"'my_vendor/MadeUpTransmission'; skipped: its joints \['head_1_joint', 'head_2_joint'\] "
    r"are driven directly in joint space as gazebo_ros_control does; its actuators "
    r"\['head_1_motor', 'head_2_motor'\] are not modelled \(identity actuators named like the "
    r"joints; .*"
)


def _made_up(data_dir, *, without_transmission: bool = False):
    text = (data_dir / "made_up_transmission.urdf").read_text()
    if without_transmission:  # the same joints with identity actuators: the reference
        return load(re.sub(r"\s*<transmission .*</transmission>", "", text, flags=re.S))
    return load(data_dir / "made_up_transmission.urdf")


class _RealDriver:
    """An actuator-space plug-in of real hardware (it does not say ``simulated_robot``)."""

    def configure(self, robot, actuators, *, transmissions, params) -> None:
        self.position = np.zeros(len(actuators))

    def write(self, command, dt: float) -> None:
        np.copyto(self.position, command.position, where=~np.isnan(command.position))

    def read(self, dt: float) -> ActuatorState:
        zero = np.zeros_like(self.position)
        return ActuatorState(self.position.copy(), zero, zero.copy())

    def reset(self) -> None:
        self.position[:] = 0.0

    def close(self) -> None:
        pass


class _SimulatingDriver(_RealDriver):
    """The same driver, declared a simulated robot."""

    simulated_robot = True


def test_the_mock_drives_an_unknown_transmissions_joints_as_identity(
    data_dir, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.transmissions"):
        system = HardwareSystem(_made_up(data_dir), "mock", command_timeout=0.0)
    (warning,) = [r.getMessage() for r in caplog.records]
    assert re.fullmatch(SKIPPED, warning)
    assert system.joint_names == MADE_UP_JOINTS and system.actuator_names == MADE_UP_JOINTS
    assert system.submit_array("position", [0.4, -0.2], now=0.0) == []
    state = system.cycle(0.0, 1.0)  # 1 s: the 3 rad/s velocity limit allows the whole step
    # the mock mirrors position commands (GenericSystem): exact, in both spaces
    assert state.position.tolist() == [0.4, -0.2]
    assert state.actuator_position.tolist() == [0.4, -0.2]
    system.close()


def test_mujoco_drives_an_unknown_transmissions_joints_as_identity(
    data_dir, caplog: pytest.LogCaptureFixture
) -> None:
    """The same position command on the robot and on the robot without the transmission
    (identity actuators): the same states, bit for bit, every tick of 3 s; the default PID
    gains bring both joints to the command within 1e-9 rad by then (5.6e-12 measured)."""
    runs = []
    for without in (False, True):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="sdf_bridge.transmissions"):
            system = HardwareSystem(
                _made_up(data_dir, without_transmission=without), "mujoco", command_timeout=0.0
            )
        warnings = [r.getMessage() for r in caplog.records]
        assert len(warnings) == (0 if without else 1)
        assert without or re.fullmatch(SKIPPED, warnings[0])
        assert system.actuator_names == MADE_UP_JOINTS
        system.submit_array("position", [0.4, -0.2], now=0.0)
        states = [system.cycle(k * 0.01, 0.01) for k in range(300)]
        runs.append(np.array([s.joints for s in states]))
        np.testing.assert_allclose(states[-1].position, [0.4, -0.2], rtol=0, atol=1e-9)
        np.testing.assert_allclose(states[-1].actuator_position, [0.4, -0.2], rtol=0, atol=1e-9)
        system.close()
    assert np.array_equal(runs[0], runs[1])


def test_a_real_actuator_plug_in_refuses_an_unknown_transmission(data_dir) -> None:
    with pytest.raises(
        TransmissionError,
        match=r"made_up_transmission\.urdf:31: transmission 'head_trans' has unknown type "
        r"'my_vendor/MadeUpTransmission'\. Fix: use one of .* Simulating backends \(mock, "
        r"mujoco\) accept it, driving its joints directly in joint space as gazebo_ros_control "
        r"does; a backend of real actuators does not, as identity actuators would send joint "
        r"positions to the wrong motors\.$",
    ):
        HardwareSystem(_made_up(data_dir), _RealDriver(), command_timeout=0.0)
    system = HardwareSystem(_made_up(data_dir), _SimulatingDriver(), command_timeout=0.0)
    assert system.actuator_names == MADE_UP_JOINTS
    system.close()


# --- test/data/shared_actuator_name.urdf: two SimpleTransmissions name their actuator
# "actuator1", for shoulder_joint (reduction 1) and finger_joint (prismatic, reduction 100)

SHARED_JOINTS = ("shoulder_joint", "finger_joint")
SHARED_ACTUATORS = ("actuator1", "finger_trans/actuator1")
#: the start of the loader's warning (its whole text: test/transmissions/test_actuator_names.py)
RENAMED = (
    r".*shared_actuator_name\.urdf:39: actuator 'actuator1' is used by transmissions "
    r"'arm_trans' \(joints \['shoulder_joint'\]\) and 'finger_trans' \(joints "
    r"\['finger_joint'\]\); renamed 'actuator1' → 'finger_trans/actuator1' for 'finger_trans' "
    r"\(the other keeps it\)\. Gazebo .*"
)


def _shared(data_dir, *, own_names: bool = False):
    path = data_dir / "shared_actuator_name.urdf"
    if own_names:  # the reference: the finger's actuator already has the name the bridge gives
        text = path.read_text().replace(
            '<actuator name="actuator1"><mechanicalReduction>100',
            '<actuator name="finger_trans/actuator1"><mechanicalReduction>100',
        )
        assert text != path.read_text()
        return load(text)
    return load(path)


def test_the_mock_drives_both_joints_of_a_shared_actuator_name(
    data_dir, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.transmissions"):
        system = HardwareSystem(_shared(data_dir), "mock", command_timeout=0.0)
    (warning,) = [r.getMessage() for r in caplog.records]
    assert re.fullmatch(RENAMED, warning)
    assert system.joint_names == SHARED_JOINTS and system.actuator_names == SHARED_ACTUATORS
    assert system.submit_array("position", [0.5, 0.03125], now=0.0) == []
    state = system.cycle(0.0, 1.0)  # 1 s: within both velocity limits (3 rad/s, 0.5 m/s)
    # the mock mirrors position commands: exact in joint space, ×100 on the finger's actuator
    assert state.position.tolist() == [0.5, 0.03125]
    assert state.actuator_position.tolist() == [0.5, 3.125]
    system.close()


def test_mujoco_drives_both_joints_of_a_shared_actuator_name(
    data_dir, caplog: pytest.LogCaptureFixture
) -> None:
    """The robot and the same robot whose finger actuator is already named as the bridge
    renames it: the same states, bit for bit, every tick of 3 s; both joints reach the
    command within 1e-9 (rad, m) by then (8.6e-12 rad and 1.3e-12 m measured), the actuators
    too (the finger's ×100: 1.3e-10)."""
    runs = []
    for own_names in (False, True):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="sdf_bridge.transmissions"):
            system = HardwareSystem(
                _shared(data_dir, own_names=own_names), "mujoco", command_timeout=0.0
            )
        warnings = [r.getMessage() for r in caplog.records]
        assert len(warnings) == (0 if own_names else 1)
        assert own_names or re.fullmatch(RENAMED, warnings[0])
        assert system.actuator_names == SHARED_ACTUATORS
        system.submit_array("position", [0.5, 0.03125], now=0.0)
        states = [system.cycle(k * 0.01, 0.01) for k in range(300)]
        runs.append(np.array([s.joints for s in states]))
        np.testing.assert_allclose(states[-1].position, [0.5, 0.03125], rtol=0, atol=1e-9)
        np.testing.assert_allclose(states[-1].actuator_position, [0.5, 3.125], rtol=0, atol=1e-7)
        system.close()
    assert np.array_equal(runs[0], runs[1])


def test_a_real_actuator_plug_in_refuses_a_shared_actuator_name(data_dir) -> None:
    with pytest.raises(
        TransmissionError,
        match=r"shared_actuator_name\.urdf:39: actuator 'actuator1' is used by transmissions "
        r"'arm_trans' \(joints \['shoulder_joint'\]\) and 'finger_trans' \(joints "
        r"\['finger_joint'\]\)\. Fix: give each transmission its own actuator names .* "
        r"Simulating backends \(mock, mujoco\) accept it, renaming the actuator of "
        r"'finger_trans' to 'finger_trans/actuator1', as Gazebo drives joints and ignores "
        r"actuator names; a backend of real actuators does not, as one name cannot say which "
        r"motor each joint has\.$",
    ):
        HardwareSystem(_shared(data_dir), _RealDriver(), command_timeout=0.0)
    system = HardwareSystem(_shared(data_dir), _SimulatingDriver(), command_timeout=0.0)
    assert system.actuator_names == SHARED_ACTUATORS
    system.close()
