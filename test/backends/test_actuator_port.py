"""ActuatorPort: an actuator-space driver behind the joint-space port. The documentation's
plug-in example (run from doc/user/extending.md itself) drives the demo robot; actuator modes;
errors."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from sdf_bridge.backends.actuator_port import ActuatorModes, ActuatorPort, actuator_modes
from sdf_bridge.backends.backend_registry import as_backend
from sdf_bridge.backends.base import MODE_DTYPE, ActuatorState, Mode, is_simulated_robot
from sdf_bridge.description import load
from sdf_bridge.errors import BackendError
from sdf_bridge.hardware import HardwareSystem

REPO = Path(__file__).resolve().parents[2]


EXTENDING = REPO / "doc" / "user" / "extending.md"


def _documented_driver() -> type:
    """The EchoDriver class of the documentation's plug-in example, executed from the page."""
    text = EXTENDING.read_text(encoding="utf-8")
    block = re.search(r"<!-- plug-in example[^\n]*-->\n```python\n(.*?)```", text, re.S)
    assert block is not None, "doc/user/extending.md lost its plug-in example block"
    namespace: dict = {}
    exec(compile(block.group(1), str(EXTENDING), "exec"), namespace)  # our own example
    return namespace["EchoDriver"]


@pytest.fixture(scope="module")
def demo():
    return load(REPO / "urdf" / "demo_arm.urdf.xacro")


def test_readme_example_drives_the_demo_robot_through_its_transmissions(demo) -> None:
    """Joint commands reach the driver as motor commands and come back as joint states:
    base_yaw (classic SimpleTransmission, reduction 50, joint offset 0.1 rad) at 0.3 rad is
    its motor at (0.3 − 0.1)·50 = 10 rad; the four-bar's elbow at 0.2 rad with shoulder_lift
    held; the differential wrist (pitch 0.1, roll 0.05); the gripper's mimic finger follows
    (−left + 0.002). Exact to 1e-12 (a map round trip) once the velocity limits let every
    joint get there (1 s of 10 ms ticks)."""
    driver = _documented_driver()()
    system = HardwareSystem(demo, driver, command_timeout=0.0)
    assert isinstance(system.backend, ActuatorPort) and system.backend.driver is driver
    assert system.backend_name == "EchoDriver"
    names = ["base_yaw", "elbow", "wrist_pitch", "wrist_roll", "left_finger_joint"]
    system.submit_joint_state(names, [0.3, 0.2, 0.1, 0.05, 0.01], [], [], 0.0)
    for k in range(100):
        state = system.cycle(0.01 * (k + 1), 0.01)
    position = dict(zip(state.names, state.position.tolist()))
    for name, value in zip(names, [0.3, 0.2, 0.1, 0.05, 0.01]):
        assert position[name] == pytest.approx(value, abs=1e-12), name
    assert position["shoulder_lift"] == pytest.approx(0.0, abs=1e-12)  # held partner (start 0)
    assert position["right_finger_joint"] == pytest.approx(-0.01 + 0.002, abs=1e-12)
    motors = dict(zip(system.actuator_names, state.actuator_position.tolist()))
    assert motors["base_yaw_motor"] == pytest.approx(10.0, abs=1e-12)
    # reset: the driver's reset (motors at 0) read back at once
    system.reset()
    assert system.cycle(1.01, 0.01).actuator_position.tolist() == [0.0] * len(system.actuator_names)


def test_actuator_modes_from_joint_modes() -> None:
    """An actuator takes the mode its commanded joints share; joints in NONE do not count;
    joints in different modes leave it NONE."""
    dependency = np.array([[True, False, False], [False, True, True], [False, True, True]])
    p, v, n = int(Mode.POSITION), int(Mode.VELOCITY), int(Mode.NONE)
    for joint, expected in (
        ([p, v, v], [p, v, v]),
        ([p, v, n], [p, v, v]),
        ([n, p, v], [n, n, n]),
        ([n, n, n], [n, n, n]),
    ):
        got = actuator_modes(dependency, np.array(joint, dtype=MODE_DTYPE))
        assert got.dtype == MODE_DTYPE and got.tolist() == expected


class _Wrong:
    """A driver returning a state of the wrong length."""

    def configure(self, robot, actuators, *, transmissions, params):
        self.n = len(actuators)

    def write(self, command, dt):
        pass

    def read(self, dt):
        return ActuatorState(np.zeros(self.n + 1), np.zeros(self.n), np.zeros(self.n))

    def reset(self):
        pass

    def close(self):
        pass

    def set_sensor_demand(self, names):
        self.demand = names


def test_wrong_state_shape_and_sensor_demand(demo) -> None:
    system = HardwareSystem(demo, _Wrong(), command_timeout=0.0)
    assert system.set_sensor_demand(["imu_sensor"]) is True  # forwarded to the driver
    assert system.backend.driver.demand == frozenset({"imu_sensor"})
    with pytest.raises(
        BackendError,
        match=r"backend '_Wrong' returned state arrays of shapes \(7,\), \(6,\), "
        r"\(6,\) for 6 actuators",
    ):
        system.read(0.0, 0.01)


def test_not_a_backend_nor_a_driver() -> None:
    with pytest.raises(
        BackendError,
        match=r"gave a str, which does not implement the Backend protocol .* nor "
        r"the ActuatorDriver protocol",
    ):
        as_backend("mock", "the test")


def test_a_driver_drives_real_actuators_unless_it_says_it_simulates() -> None:
    """``simulated_robot`` absent (the documented driver): real actuators; ``True``: simulated;
    anything but ``True`` (a truthy string) is not a declaration."""
    echo = _documented_driver()
    assert not is_simulated_robot(ActuatorPort(echo()))
    assert ActuatorPort(echo()).simulated_robot is False
    simulating = type("SimulatedEcho", (echo,), {"simulated_robot": True})
    assert ActuatorPort(simulating()).simulated_robot is True
    sloppy = type("SloppyEcho", (echo,), {"simulated_robot": "yes"})
    assert ActuatorPort(sloppy()).simulated_robot is False


def test_actuator_modes_equal_the_dense_formula_from_non_zeros() -> None:
    """:class:`ActuatorModes` (O(non-zeros)) equals the dense (n_actuators, n_joints) min/max
    it replaced, on random dependencies and modes."""
    rng = np.random.default_rng(3)
    for _ in range(300):
        dependency = rng.random((int(rng.integers(1, 7)), int(rng.integers(1, 7)))) < 0.4
        mode = rng.integers(0, 4, dependency.shape[1]).astype(np.int16)
        dep = dependency & (mode != 0)[None, :]
        low = np.where(dep, mode[None, :], 99).min(axis=1, initial=99)
        high = np.where(dep, mode[None, :], -1).max(axis=1, initial=-1)
        want = np.where(low == high, low, 0)
        got = ActuatorModes(dependency)(mode.astype(MODE_DTYPE))
        assert got.dtype == MODE_DTYPE and got.tolist() == want.tolist()
