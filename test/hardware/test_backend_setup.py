"""sdf_bridge.hardware.backend_setup: the backend parameters gathered from the description's
``<ros2_control>`` blocks and the caller's overrides, the backend opened behind the joint-space
port with its name, and whether it simulates. Real MockBackend and TransmissionMap."""

from __future__ import annotations

import logging

import pytest

from sdf_bridge.backends.mock import MockBackend
from sdf_bridge.description import load
from sdf_bridge.errors import BackendError
from sdf_bridge.hardware import HardwareSystem
from sdf_bridge.hardware.backend_setup import (
    backend_parameters,
    open_backend,
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


def test_open_backend_configures_it_and_names_it() -> None:
    robot = _robot(_block("a", MOCK, calculate_dynamics="true"))
    tm = TransmissionMap.from_robot(robot, compiled=False)
    port, name = open_backend("mock", robot, tm, None)
    assert name == "mock" and isinstance(port.driver, MockBackend)
    assert port.driver.calculate_dynamics is True  # from <hardware><param>
    driver = MockBackend()
    port, name = open_backend(driver, robot, tm, {"calculate_dynamics": False})
    assert port.driver is driver and name == "MockBackend"
    assert driver.calculate_dynamics is False  # the override wins

    class Named(MockBackend):
        name = "bench_mock"

    assert open_backend(Named(), robot, tm, None)[1] == "bench_mock"
    with pytest.raises(BackendError, match="unknown backend 'nope'"):
        open_backend("nope", robot, tm, None)


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
        port, _ = open_backend(backend, robot, tm, {misspelt: "1"})
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
