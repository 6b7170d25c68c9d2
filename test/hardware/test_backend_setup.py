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
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from sdf_bridge.backends.base import ActuatorState
from sdf_bridge.backends.mock import MockBackend
from sdf_bridge.backends.mujoco import MujocoBackend
from sdf_bridge.description import load
from sdf_bridge.description.feedback import with_feedback
from sdf_bridge.errors import BackendError, TransmissionError
from sdf_bridge.hardware import HardwareSystem
from sdf_bridge.hardware.backend_setup import (
    backend_parameters,
    backend_port,
    configure_backend,
    simulates,
    simulator,
    unread_feedback,
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
    tm = TransmissionMap.from_robot(robot)
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
    tm = TransmissionMap.from_robot(robot)
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


# --- the transmission map built for the backend: descriptions the simulating backends (mock,
# MuJoCo) accept with one warning and a real-actuator plug-in refuses


@dataclass(frozen=True)
class _Accepted:
    """A description of test/data accepted with one warning by simulating backends only.

    ``warning`` and ``refusal`` are regular expressions (the whole texts: the tests of
    sdf_bridge.transmissions); ``reference`` is the same robot as the bridge reads it, written
    so that it gives no warning; ``command`` a position command (rad or m) in joint order,
    ``actuator_command`` the same in actuator space.
    """

    file: str
    warning: str
    refusal: str
    reference: Callable[[str], str]
    joints: tuple[str, ...]
    actuators: tuple[str, ...]
    command: tuple[float, ...]
    actuator_command: tuple[float, ...]

    def robot(self, data_dir, *, reference: bool = False):
        path = data_dir / self.file
        if reference:
            text = self.reference(path.read_text())
            assert text != path.read_text()
            return load(text)
        return load(path)


ACCEPTED = {
    # one transmission of a type no mechanism is registered for, on two commanded joints: the
    # joints are driven as identity (reference: the robot without the transmission)
    "unknown-type": _Accepted(
        "made_up_transmission.urdf",
        warning=r"transmission 'head_trans' \(.*made_up_transmission\.urdf:31\) has unknown "
        r"type 'my_vendor/MadeUpTransmission'; skipped: its joints \['head_1_joint', "
        r"'head_2_joint'\] are driven directly in joint space as gazebo_ros_control does; its "
        r"actuators \['head_1_motor', 'head_2_motor'\] are not modelled \(identity actuators "
        r"named like the joints; .*",
        refusal=r"made_up_transmission\.urdf:31: transmission 'head_trans' has unknown type "
        r"'my_vendor/MadeUpTransmission'\. Fix: use one of .* Simulating backends \(mock, "
        r"mujoco\) accept it, driving its joints directly in joint space as gazebo_ros_control "
        r"does; a backend of real actuators does not, as identity actuators would send joint "
        r"positions to the wrong motors\.$",
        reference=lambda text: re.sub(r"\s*<transmission .*</transmission>", "", text, flags=re.S),
        joints=("head_1_joint", "head_2_joint"),
        actuators=("head_1_joint", "head_2_joint"),
        command=(0.4, -0.2),
        actuator_command=(0.4, -0.2),
    ),
    # two SimpleTransmissions name their actuator "actuator1", for shoulder_joint (reduction 1)
    # and the prismatic finger_joint (reduction 100): the later one is renamed (reference: the
    # finger's actuator written with that name)
    "shared-actuator-name": _Accepted(
        "shared_actuator_name.urdf",
        warning=r".*shared_actuator_name\.urdf:39: actuator 'actuator1' is used by transmissions "
        r"'arm_trans' \(joints \['shoulder_joint'\]\) and 'finger_trans' \(joints "
        r"\['finger_joint'\]\); renamed 'actuator1' → 'finger_trans/actuator1' for "
        r"'finger_trans' \(the other keeps it\)\. Gazebo .*",
        refusal=r"shared_actuator_name\.urdf:39: actuator 'actuator1' is used by transmissions "
        r"'arm_trans' \(joints \['shoulder_joint'\]\) and 'finger_trans' \(joints "
        r"\['finger_joint'\]\)\. Fix: give each transmission its own actuator names .* "
        r"Simulating backends \(mock, mujoco\) accept it, renaming the actuator of "
        r"'finger_trans' to 'finger_trans/actuator1', as Gazebo drives joints and ignores "
        r"actuator names; a backend of real actuators does not, as one name cannot say which "
        r"motor each joint has\.$",
        reference=lambda text: text.replace(
            '<actuator name="actuator1"><mechanicalReduction>100',
            '<actuator name="finger_trans/actuator1"><mechanicalReduction>100',
        ),
        joints=("shoulder_joint", "finger_joint"),
        actuators=("actuator1", "finger_trans/actuator1"),
        command=(0.5, 0.03125),
        actuator_command=(0.5, 3.125),
    ),
}


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


@pytest.mark.parametrize("case", ACCEPTED.values(), ids=ACCEPTED)
def test_the_mock_drives_the_joints_with_one_warning(
    case: _Accepted, data_dir, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.transmissions"):
        system = HardwareSystem(case.robot(data_dir), "mock", command_timeout=0.0)
    (warning,) = [r.getMessage() for r in caplog.records]
    assert re.fullmatch(case.warning, warning)
    assert system.joint_names == case.joints and system.actuator_names == case.actuators
    assert system.submit_array("position", list(case.command), now=0.0) == []
    state = system.cycle(0.0, 1.0)  # 1 s: within every joint's velocity limit
    # the mock mirrors position commands (GenericSystem): exact, in both spaces
    assert state.position.tolist() == list(case.command)
    assert state.actuator_position.tolist() == list(case.actuator_command)
    system.close()


@pytest.mark.parametrize("case", ACCEPTED.values(), ids=ACCEPTED)
def test_mujoco_drives_the_joints_as_the_reference_robot(
    case: _Accepted, data_dir, caplog: pytest.LogCaptureFixture
) -> None:
    """The same position command on the robot and on its reference (no warning): the same
    states, bit for bit, every tick of 3 s; the default PID gains bring the joints to the
    command within 1e-9 (rad, m) by then (measured: unknown-type 5.6e-12 rad; shared name
    8.6e-12 rad and 1.3e-12 m, 1.3e-10 on the finger's ×100 actuator)."""
    runs = []
    for reference in (False, True):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="sdf_bridge.transmissions"):
            system = HardwareSystem(
                case.robot(data_dir, reference=reference), "mujoco", command_timeout=0.0
            )
        warnings = [r.getMessage() for r in caplog.records]
        assert len(warnings) == (0 if reference else 1)
        assert reference or re.fullmatch(case.warning, warnings[0])
        assert system.actuator_names == case.actuators
        system.submit_array("position", list(case.command), now=0.0)
        states = [system.cycle(k * 0.01, 0.01) for k in range(300)]
        runs.append(np.array([s.joints for s in states]))
        np.testing.assert_allclose(states[-1].position, case.command, rtol=0, atol=1e-9)
        np.testing.assert_allclose(
            states[-1].actuator_position, case.actuator_command, rtol=0, atol=1e-9
        )
        system.close()
    assert np.array_equal(runs[0], runs[1])


@pytest.mark.parametrize("case", ACCEPTED.values(), ids=ACCEPTED)
def test_a_real_actuator_plug_in_refuses_it(case: _Accepted, data_dir) -> None:
    with pytest.raises(TransmissionError, match=case.refusal):
        HardwareSystem(case.robot(data_dir), _RealDriver(), command_timeout=0.0)
    system = HardwareSystem(case.robot(data_dir), _SimulatingDriver(), command_timeout=0.0)
    assert system.actuator_names == case.actuators
    system.close()


FEEDBACK = '<gazebo reference="j1"><provideFeedback>true</provideFeedback></gazebo>'


def test_unread_feedback_names_the_backend_the_joints_and_the_fix() -> None:
    mock, _ = backend_port("mock")
    assert mock.reads_joint_wrenches is False  # (the port forwards the driver's: absent)
    assert MujocoBackend.reads_joint_wrenches is True
    asked = with_feedback(_robot(""), ["j1"])
    assert unread_feedback(asked, mock, "mock", ["j1"]) == (
        "backend 'mock' computes no joint wrenches: the joints asking for wrench feedback "
        "(joint_feedback ['j1']) publish no ~/joint_wrench topic. Fix: use the mujoco backend "
        "(backend:=mujoco), or leave joint_feedback unset"
    )
    assert unread_feedback(_robot(FEEDBACK), mock, "mock") == (
        "backend 'mock' computes no joint wrenches: the joints asking for wrench feedback "
        "(the description's <provide_feedback> ['j1']) publish no ~/joint_wrench topic. Fix: "
        "use the mujoco backend (backend:=mujoco)"
    )
    assert unread_feedback(_robot(""), mock, "mock") is None  # nothing asks
    assert unread_feedback(asked, MujocoBackend(), "mujoco", ["j1"]) is None  # read
