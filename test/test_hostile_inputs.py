"""Fuzz tests (hypothesis) of issue 12's seven fault classes, one property per class, each of
which the code before the fixes fails:

1. XML text with xacro in it (elements, ``${...}``, ``$(env ...)``, code that creates a file) is
   refused, never expanded: the file is never created.
2. xacro files that grow without end are stopped by the memory bound (or the document cap),
   never anything else.
3. The watchdog stops a velocity command within ``command_timeout`` + one tick of the time
   the robot lives (steady time, whatever the ROS clock does; simulated time for a simulator).
4. A trajectory is rejected exactly when its last point is in the past; one that started in
   the past is followed from its sample at "now".
5. Any number of SIGINT/SIGTERM: while starting exactly one StopRequested, once started none.
6. A MuJoCo timestep that does not divide the control period fails the first tick (which the
   loop runs in ``start()``) with one line naming ``backend_params.timestep``; an unknown
   backend is a ConfigError naming ``backend``.
7. Finite values beyond the documented bounds are refused; values within load and keep every
   published value finite; zero velocity/effort limits show as "not limited" in ``check``.

The whole module runs in well under 60 s (``SDF_BRIDGE_FUZZ_EXAMPLES`` scales the examples).
"""

from __future__ import annotations

import io
import math
import os
import signal
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
from hostile_inputs import XACRO_NS, creating, doubling_payload
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from sdf_bridge.description import load
from sdf_bridge.description.magnitudes import MAX_MAGNITUDE, MIN_REDUCTION
from sdf_bridge.errors import (
    BackendError,
    ConfigError,
    InvalidValueError,
    TrajectoryInPastError,
    UnexpandedXacroError,
    XacroError,
)
from sdf_bridge.hardware.trajectory import Trajectory

#: Hypothesis' bound on one example, far above a normal one: an input that makes the
#: loader run away fails the test; setup.cfg's pytest timeout bounds a hang.
DEADLINE = timedelta(seconds=10)

EXAMPLES = int(os.environ.get("SDF_BRIDGE_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=DEADLINE,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
#: Properties that start a process or build a simulator per example.
FEW = settings(FUZZ, max_examples=max(3, EXAMPLES // 6), deadline=timedelta(seconds=60))

ROBOT = """<robot name="fz"{ns}>
  <link name="base"{a}/>{e}
  <link name="arm"/>
  <joint name="lift" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="{effort}" velocity="{velocity}"/>{t}</joint>
</robot>"""


# ------------------------------------------------------------------ 1. text is never expanded
@pytest.fixture(scope="module")
def marker_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("markers")


def _xacro_use(marker: Path) -> st.SearchStrategy[str]:
    """One use of xacro: an expression, a substitution argument or code reaching os.system."""
    return st.sampled_from(
        [
            "${1+1}",
            "${pi/2}",
            "$(env HOME)",
            "$(optenv HOME x)",
            "$(arg prefix)",
            "$(eval 1+1)",
            "$(cwd)",
            "${xacro.load_yaml('/etc/passwd')}",
            f"${{{creating(marker)}}}",
            "prefix_${name}_suffix",
        ]
    )


_ELEMENTS = st.sampled_from(
    [
        '<xacro:property name="p" value="1"/>',
        '<xacro:include filename="/etc/passwd"/>',
        '<xacro:macro name="m" params="a"><link name="${a}"/></xacro:macro>',
        '<xacro:arg name="a" default="b"/>',
        '<xacro:m a="x"/>',
    ]
)


@FUZZ
@given(
    data=st.data(), declared=st.booleans(), place=st.sampled_from(["attribute", "element", "text"])
)
def test_xml_text_with_xacro_is_refused_and_runs_nothing(
    marker_dir: Path, data: st.DataObject, declared: bool, place: str
) -> None:
    marker = marker_dir / f"m{data.draw(st.integers(0, 10**9), label='marker')}"
    use = data.draw(_xacro_use(marker), label="use")
    parts = {
        "ns": f" {XACRO_NS}" if declared else "",
        "a": "",
        "e": "",
        "t": "",
        "effort": "1",
        "velocity": "1",
    }
    if place == "attribute":
        parts["a"] = f' note="{use}"'
    elif place == "element":
        parts["e"] = data.draw(_ELEMENTS, label="element")
    else:  # (a comment is no use: xacro copies comments unexpanded)
        parts["t"] = (
            f'<dynamics damping="0"/><!-- ${{not a use}} --><calibration>{use}</calibration>'
        )
    text = ROBOT.format(**parts)
    with pytest.raises(
        UnexpandedXacroError, match=r"text is never xacro-expanded\. Fix: expand it first"
    ):
        load(text)
    assert not marker.exists()


# ------------------------------------------------------------------ 2. bounded expansion
@FEW
@given(doublings=st.integers(10, 27))
@example(doublings=27)  # the finding: 1.4 kB asking for 2 GiB
def test_a_growing_xacro_file_expands_or_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, doublings: int
) -> None:
    from sdf_bridge.description.xacro.child_process import expand_xacro

    monkeypatch.setenv("SDF_BRIDGE_XACRO_MEMORY_MB", "64")
    path = tmp_path / f"grow{doublings}.urdf.xacro"
    path.write_text(doubling_payload(doublings))
    size = 16 * 2**doublings  # the last property, in characters
    try:
        text, _ = expand_xacro(path)
    except XacroError as exc:
        assert str(exc).startswith(
            f"{path}: xacro expansion needed more than its memory bound of 64 MiB"
        )
        assert size > 2**20  # a small one is never stopped
        return
    assert size < 2**24 and size <= len(text) < size + 2000  # (16 MiB of text do not fit in 64 MiB)


# ------------------------------------------------------------------ 3. watchdog time base
@FUZZ
@given(
    timeout=st.floats(0.05, 1.0),
    period=st.sampled_from([0.001, 0.002, 0.005, 0.01, 0.02, 0.05]),
    speed=st.sampled_from([None, 0.5, 1.0, 10.0]),
    commands=st.integers(1, 5),
)
def test_the_watchdog_stops_within_the_timeout_and_one_tick(
    timeout: float, period: float, speed: float | None, commands: int
) -> None:
    """On the node's time base (:mod:`sdf_bridge.app.hardware_time`; the ROS clock, frozen under
    use_sim_time without /clock, plays no part) with steady time advancing by the period per
    tick, or a simulator at ``speed`` × real time: after ``commands`` ticks with a velocity
    command, the command ends within command_timeout + one tick of the backend's time (steady
    or simulated) after the last one, in one trip."""
    from dataclasses import replace

    from sdf_bridge.app.hardware_time import HardwareTime
    from sdf_bridge.backends.mock import MockBackend
    from sdf_bridge.hardware import HardwareSystem

    steady = [100.0]

    class Simulator(MockBackend):
        sim = 0.0

        def read(self, dt: float):
            self.sim += (speed or 0.0) * dt
            return replace(super().read(dt), sim_time=self.sim)

    backend = MockBackend() if speed is None else Simulator()
    time = HardwareTime(steady=lambda: steady[0])
    robot = load(ROBOT.format(ns="", a="", e="", t="", effort="1", velocity="5"))
    system = HardwareSystem(
        robot, backend, command_timeout=timeout, backend_params={"calculate_dynamics": True}
    )
    tick = period * (speed or 1.0)  # the backend's time per tick
    assume(tick < timeout)
    last = math.nan
    for k in range(commands + int(timeout / tick) + 3):
        if k < commands:
            last = time.now()
            system.submit_joint_state(["lift"], [], [0.5], [], last)
        now = time.now()
        state = system.cycle(now, period)
        time.observe(state.sim_time)
        steady[0] += period
        if system.commands.effective()[1][0] == 0.0:
            assert timeout <= now - last <= timeout + tick + 1e-9 and system.watchdog.trips == 1
            return
    pytest.fail("the watchdog never stopped the joint")


# ------------------------------------------------------------------ 4. trajectories in the past
@FUZZ
@given(
    age=st.floats(-50.0, 300.0),
    first=st.one_of(st.just(0.0), st.floats(1e-6, 5.0)),
    span=st.floats(0.01, 100.0),
    current=st.floats(-1.0, 1.0),
)
@example(age=100.0, first=1.0, span=1.0, current=0.0)  # the finding: stamped now - 100 s
def test_past_trajectories_are_rejected_exactly_when_they_ended(
    age: float, first: float, span: float, current: float
) -> None:
    now = 1000.0
    start = now - age
    times, positions = [first, first + span], [[0.25], [0.75]]
    try:
        trajectory = Trajectory.build(
            ["j"],
            times,
            positions,
            None,
            None,
            start=start,
            current_position=np.array([current]),
            now=now,
        )
    except TrajectoryInPastError:
        assert start + first + span < now
        return
    assert start + first + span >= now
    position = trajectory.sample(now)[0][0]
    if start + first <= now:  # the first point is behind: the message's own sample at now
        assert position == pytest.approx(
            0.25 + 0.5 * min(1.0, (now - start - first) / span), abs=1e-9
        )
    elif first > 0.0:  # the segment to the first point starts now, from the current state
        assert position == pytest.approx(current, abs=1e-12)
    else:  # a first point at 0 of a future start is held until then
        assert position == 0.25


# ------------------------------------------------------------------ 5. signals
@pytest.fixture
def restored_handlers() -> Iterator[None]:
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    yield
    for s, handler in saved.items():
        signal.signal(s, handler)


@FUZZ
@given(
    signals=st.lists(st.sampled_from([signal.SIGINT, signal.SIGTERM]), min_size=1, max_size=8),
    held=st.integers(0, 8),
)
def test_any_number_of_signals_is_one_stop(
    restored_handlers: None, signals: list[int], held: int
) -> None:
    """Signals one after another, the start-up over (hold) after ``held`` of them: exactly one
    StopRequested, raised by the first signal, when that came before the hold; none after it;
    every signal leaves the stop requested by the first."""
    from sdf_bridge.app.stop_signals import StopRequested, StopSignals

    stop = StopSignals().install()
    raised = 0
    for k, signum in enumerate(signals):
        if k == held:
            stop.hold()
        try:
            signal.raise_signal(signum)
        except StopRequested as exc:
            raised += 1
            assert exc.signum == signals[0]
    assert raised == (1 if held > 0 else 0)
    assert stop.requested.is_set() and stop.signum == signals[0]


# ---------------------------------------------------------- 6. configuration errors at start
@FEW
@given(
    rate=st.sampled_from([50.0, 100.0, 125.0, 200.0, 250.0, 333.0, 500.0, 1000.0]),
    timestep=st.sampled_from([0.0005, 0.001, 0.002, 0.003, 0.004, 0.007]),
)
def test_a_timestep_that_does_not_divide_the_period_fails_the_first_tick(
    rate: float, timestep: float
) -> None:
    from sdf_bridge.hardware import FixedRateLoop, HardwareSystem

    robot = load(ROBOT.format(ns="", a="", e="", t="", effort="1", velocity="1"))
    system = HardwareSystem(
        robot, "mujoco", backend_params={"timestep": timestep, "render_cameras": False}
    )
    loop = FixedRateLoop(lambda k: system.cycle(0.0, 1.0 / rate), rate)
    steps = (1.0 / rate) / timestep
    try:
        try:
            loop.start()
        except BackendError as exc:
            assert abs(steps - round(steps)) > 1e-9 * steps
            assert "\n" not in str(exc) and "Fix: set backend_params.timestep to a divisor" in str(
                exc
            )
            assert not loop.running
            return
        assert abs(steps - round(steps)) <= 1e-9 * steps
    finally:
        loop.stop()
        system.close()


@FUZZ
@given(name=st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=12))
def test_an_unknown_backend_is_a_config_error_naming_it(name: str) -> None:
    from sdf_bridge.ros.params import make_config

    assume(name not in ("mock", "mujoco"))
    with pytest.raises(
        ConfigError, match=r"^backend .* is unknown\. Fix: set backend to one of mock, mujoco"
    ):
        make_config({"backend": name})


# ------------------------------------------------------------------ 7. magnitudes
_MAGNITUDE = st.builds(
    lambda m, e, s: s * m * 10.0**e,
    st.floats(1.0, 9.99),
    st.integers(-320, 307),
    st.sampled_from([1.0, -1.0]),
).filter(lambda v: math.isfinite(v) and v != 0.0)


@FUZZ
@given(value=_MAGNITUDE, where=st.sampled_from(["multiplier", "mass", "reduction"]))
@example(value=1e308, where="multiplier")  # the findings
@example(value=1e308, where="mass")
def test_values_beyond_the_bounds_are_refused_and_those_within_stay_finite(
    value: float, where: str
) -> None:
    from sdf_bridge.hardware import HardwareSystem

    mass = abs(value) if where == "mass" else 1.0
    multiplier = value if where == "multiplier" else 1.0
    reduction = value if where == "reduction" else 1.0
    text = f"""<robot name="m">
  <link name="a"><inertial><mass value="{mass!r}"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0"
    iyz="0"/></inertial></link>
  <link name="b"/><link name="c"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/><limit
    lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="f" type="revolute"><parent link="b"/><child link="c"/><axis xyz="0 0 1"/><limit
    lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="j" multiplier="{multiplier!r}"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="j"><hardwareInterface>PositionJointInterface</hardwareInterface></joint>
    <actuator name="m"><mechanicalReduction>{reduction!r}</mechanicalReduction></actuator>
      </transmission>
</robot>"""
    magnitude = abs(value)
    beyond = magnitude > MAX_MAGNITUDE or (where == "reduction" and magnitude < MIN_REDUCTION)
    try:
        robot = load(text)
    except InvalidValueError as exc:
        assert beyond and "beyond the bound" in str(exc)
        return
    assert not beyond
    system = HardwareSystem(robot, "mock", command_timeout=0.0)
    system.submit_joint_state(["j"], [1.0], [], [], 0.0)
    for k in range(3):
        state = system.cycle(0.01 * k, 0.01)
    assert np.isfinite(state.position).all() and np.isfinite(state.actuator_position).all()
    assert abs(state.position[1]) <= MAX_MAGNITUDE


@FUZZ
@given(
    velocity=st.sampled_from(["0", "0.0", "2", "1e-3"]),
    effort=st.sampled_from(["0", "0.0", "5", "1e9"]),
)
def test_check_shows_zero_limits_as_not_limited(velocity: str, effort: str) -> None:
    from sdf_bridge.summary_text import print_summary

    robot = load(ROBOT.format(ns="", a="", e="", t="", effort=effort, velocity=velocity))
    out = io.StringIO()
    print_summary(robot, [], out)
    row = next(line for line in out.getvalue().splitlines() if line.strip().startswith("lift"))
    cells = [cell for cell in row.split("  ") if cell.strip()]
    shown = {name: cells[index].strip() for name, index in (("velocity", 5), ("effort", 6))}
    for name, written in (("velocity", velocity), ("effort", effort)):
        assert shown[name] == (
            "not limited (0)" if float(written) == 0.0 else f"{float(written):g}"
        )
