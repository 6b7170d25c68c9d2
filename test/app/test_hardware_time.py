"""sdf_bridge.app.hardware_time: the node's time base for commands, the watchdog and
trajectories (steady time, or simulated time from the first state that has one), alone and
with the hardware system. A fake steady clock makes every value exact."""

from __future__ import annotations

import pytest

from sdf_bridge.app.hardware_time import HardwareTime


class FakeSteady:
    """A steady clock the test advances."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def test_steady_time_for_a_backend_without_a_simulated_clock() -> None:
    steady = FakeSteady()
    time = HardwareTime(steady=steady)
    assert time.now() == 1000.0
    time.observe(None)
    steady.now += 0.75
    time.observe(None)
    assert time.now() == 1000.75 and not time.simulated


def test_simulated_time_continues_steady_time_and_stays_monotonic_across_a_reset() -> None:
    steady = FakeSteady()
    time = HardwareTime(steady=steady)
    time.observe(0.01)  # the first state with a sim_time: continuous at the switch
    assert time.simulated and time.now() == 1000.0
    steady.now += 10.0  # wall time no longer counts (paused, or faster than real time)
    assert time.now() == 1000.0
    time.observe(0.51)
    assert time.now() == pytest.approx(1000.5, abs=1e-12)
    time.observe(0.0)  # the simulation was reset to 0: time goes on from where it was
    assert time.now() == pytest.approx(1000.5, abs=1e-12)
    time.observe(0.25)
    assert time.now() == pytest.approx(1000.75, abs=1e-12)


def test_ros_stamps_on_the_time_base() -> None:
    steady = FakeSteady()
    time = HardwareTime(steady=steady)
    # a stamp 2 s in the ROS past is 2 s in the past of the time base, whatever the clocks' origins
    assert time.from_ros(1_700_000_000.0, 1_700_000_002.0) == pytest.approx(998.0, abs=1e-6)


# ------------------------------------------------------------------ with the hardware system
WHEEL = """<robot name="w"><link name="base"/><link name="wheel"/>
  <joint name="axle" type="continuous"><parent link="base"/><child link="wheel"/><axis xyz="0 1 0"/>
    <limit effort="10" velocity="5"/></joint></robot>"""
PERIOD = 0.01
TIMEOUT = 0.5


def simulating_mock(speed: float):
    """The mock backend with a simulated clock running ``speed`` times faster than its ticks'
    ``dt`` (a simulator at real_time_factor 10, say): its states carry ``sim_time``."""
    from dataclasses import replace

    from sdf_bridge.backends.mock import MockBackend

    class SimulatingMock(MockBackend):
        sim = 0.0

        def read(self, dt: float):
            self.sim += speed * dt
            return replace(super().read(dt), sim_time=self.sim)

    return SimulatingMock()


def _run_until_stopped(backend, time: HardwareTime, steady: FakeSteady) -> tuple[float, int]:
    """A velocity command at the start, then ticks every PERIOD of steady time with the ROS
    clock standing at 0; returns (time-base seconds from the command to the first tick that
    commands zero velocity, the watchdog's trips)."""
    from sdf_bridge.description import load
    from sdf_bridge.hardware import HardwareSystem

    system = HardwareSystem(
        load(WHEEL), backend, command_timeout=TIMEOUT, backend_params={"calculate_dynamics": True}
    )
    state = system.cycle(time.now(), PERIOD)
    time.observe(state.sim_time)
    commanded = time.now()
    assert system.submit_joint_state(["axle"], [], [2.0], [], time.now()) == []
    for _ in range(1000):
        steady.now += PERIOD
        now = time.now()
        state = system.cycle(now, PERIOD)
        time.observe(state.sim_time)
        if system.commands.effective()[1][0] == 0.0:
            return now - commanded, system.watchdog.trips
    raise AssertionError("the watchdog never tripped")


def test_the_watchdog_trips_on_steady_time_with_a_stopped_ros_clock() -> None:
    """use_sim_time with no /clock, mock backend (no simulated clock): the velocity command
    stops within command_timeout + one tick of steady time (it never did on the ROS clock)."""
    steady = FakeSteady()
    time = HardwareTime(steady=steady)
    from sdf_bridge.backends.mock import MockBackend

    elapsed, trips = _run_until_stopped(MockBackend(), time, steady)
    assert TIMEOUT <= elapsed <= TIMEOUT + PERIOD + 1e-9 and trips == 1


def test_the_watchdog_trips_on_simulated_time_for_a_simulator() -> None:
    """A simulator ten times faster than real time: the watchdog counts simulated time, so the
    command stops after command_timeout of simulated time (0.05 s of steady time)."""
    steady = FakeSteady()
    time = HardwareTime(steady=steady)
    start = steady.now
    elapsed, trips = _run_until_stopped(simulating_mock(10.0), time, steady)
    # one tick: 0.1 s simulated
    assert TIMEOUT <= elapsed <= TIMEOUT + 10 * PERIOD + 1e-9 and trips == 1
    assert steady.now - start <= TIMEOUT / 10 + PERIOD + 1e-9
