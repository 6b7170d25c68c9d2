"""The joints' properties as ROS parameters (``joint_properties.<joint>.<property>``) on
running bridges in their own processes: each changed over SetParameters /
SetParametersAtomically from this process and its effect measured in joint_states against its
closed form.

* MuJoCo (test/data/joint_properties.sdf, use_sim_time: joint_states stamped with simulated
  time, 100 Hz): the rotor ``spin`` (I = 0.01 kg·m², vertical axis) and the 1 kg slider
  ``lift`` resting on its lower stop under 9.81 N; both on effort 0 (their PID off).
* the mock (the URDF of test/hardware/test_joint_properties.py): the limiter's properties,
  the stops clamping the joint, the refusals and their reasons, start values.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rcl_interfaces.msg import Parameter as ParameterMsg
from rcl_interfaces.msg import ParameterType
from rcl_interfaces.srv import (
    DescribeParameters,
    GetParameters,
    SetParameters,
    SetParametersAtomically,
)
from rclpy.parameter import Parameter
from sensor_msgs.msg import JointState

from .conftest import Bridge, Probe

MODEL = Path(__file__).resolve().parents[1] / "data" / "joint_properties.sdf"
I_ROTOR, M_SLIDER, G = 0.01, 1.0, 9.81
STOP_IMPEDANCE = 0.01  # (sdf_bridge.backends.mujoco.builder: the stop's m' = m/(1 − D))

URDF = """<robot name="propbot">
  <link name="base"/><link name="l1"/><link name="l2"/>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/>
  </joint>
  <joint name="j2" type="prismatic">
    <parent link="l1"/><child link="l2"/><axis xyz="1 0 0"/>
    <limit lower="-0.5" upper="0.5" effort="100" velocity="1"/>
  </joint>
</robot>"""


def _msgs(values: dict[str, float]) -> list[ParameterMsg]:
    return [Parameter(name, value=float(v)).to_parameter_msg() for name, v in values.items()]


def set_params(probe: Probe, node: str, values: dict[str, float]) -> list[Any]:
    """SetParameters (each parameter on its own, as ``ros2 param set``): the results."""
    request = SetParameters.Request(parameters=_msgs(values))
    return list(probe.call(SetParameters, f"/{node}/set_parameters", request).results)


def set_atomically(probe: Probe, node: str, values: dict[str, float]) -> Any:
    """SetParametersAtomically: the one result."""
    request = SetParametersAtomically.Request(parameters=_msgs(values))
    return probe.call(SetParametersAtomically, f"/{node}/set_parameters_atomically", request).result


def get_params(probe: Probe, node: str, *names: str) -> list[float]:
    response = probe.call(
        GetParameters, f"/{node}/get_parameters", GetParameters.Request(names=names)
    )
    return [v.double_value for v in response.values]


def command(probe: Probe, **efforts: float) -> None:
    probe.publisher("/joint_commands", JointState).publish(
        JointState(name=list(efforts), effort=[float(e) for e in efforts.values()])
    )


def series(probe: Probe, joint: str, since: float = -math.inf) -> tuple[np.ndarray, ...]:
    """(t, position, velocity, effort) of ``joint`` in the recorded joint_states stamped at or
    after ``since`` (s)."""
    rows = []
    for msg in probe.messages["/joint_states"]:
        t = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
        if t >= since and joint in msg.name:
            k = list(msg.name).index(joint)
            rows.append((t, msg.position[k], msg.velocity[k], msg.effort[k]))
    rows.sort()
    return tuple(np.array(c) for c in zip(*rows))


def now(probe: Probe) -> float:
    """The stamp of the latest joint_states (simulated time), s."""
    stamp = probe.latest("/joint_states").header.stamp
    return stamp.sec + stamp.nanosec * 1e-9


def wait_sim(probe: Probe, seconds: float) -> float:
    """Wait until ``seconds`` of simulated time passed; returns the time then."""
    end = now(probe) + seconds
    probe.wait_for(lambda: now(probe) >= end, f"{seconds} s of simulated time")
    return now(probe)


def crossings(t: np.ndarray, x: np.ndarray) -> np.ndarray:
    k = np.flatnonzero(np.sign(x[:-1]) != np.sign(x[1:]))
    return t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])


def extreme_values(x: np.ndarray) -> np.ndarray:
    """Values of the local extremes of ``x`` (parabola through three samples)."""
    k = np.flatnonzero((x[1:-1] - x[:-2]) * (x[2:] - x[1:-1]) < 0) + 1
    a, b, c = x[k - 1], x[k], x[k + 1]
    shift = 0.5 * (a - c) / (a - 2 * b + c)
    return b - 0.25 * (a - c) * shift


# ---------------------------------------------------------------- MuJoCo


@pytest.fixture(scope="module")
def mujoco_bridge(start_bridge, probe: Probe) -> Any:
    probe.watch("/joint_states", JointState, 100)
    params = {
        "backend": "mujoco",
        "description_file": str(MODEL),
        "command_timeout": 0.0,
        "use_sim_time": True,
    }
    bridge = start_bridge(params, name="props_mj")
    probe.wait_ready(bridge, timeout=90.0)
    command(probe, spin=0.0, lift=0.0)
    probe.wait_for(
        lambda: probe.latest("/joint_states").effort[0] == 0.0, "the effort commands of 0"
    )
    wait_sim(probe, 0.5)  # the slider falls onto its stop
    yield bridge
    probe.unwatch("/joint_states")
    assert bridge.stop() == 0, bridge.output()


def test_damping_decays_the_rotor_as_exp_minus_b_t_over_i(mujoco_bridge, probe: Probe) -> None:
    """joint_properties.spin.damping = 0.01 N·m·s/rad (ros2 param set): once its effort is 0 the
    rotor's velocity decays as exp(−b·t/I) = e^−1 in 1 s (within 0.5 %)."""
    results = set_params(probe, "props_mj", {"joint_properties.spin.damping": 0.01})
    assert results[0].successful, results[0].reason
    command(probe, spin=0.1)
    probe.wait_for(lambda: probe.latest("/joint_states").velocity[0] > 0.5, "the rotor spun up")
    command(probe, spin=0.0)
    wait_sim(probe, 1.3)
    t, _, v, effort = series(probe, "spin")
    start = np.flatnonzero(effort == 0.1)[-1] + 1  # the first tick on effort 0
    t0 = t[start]
    end = np.flatnonzero(np.isclose(t, t0 + 1.0, atol=1e-6))[0]
    assert v[end] / v[start] == pytest.approx(math.exp(-0.01 * 1.0 / I_ROTOR), rel=5e-3)


def test_spring_period_is_two_pi_root_i_over_k(mujoco_bridge, probe: Probe) -> None:
    """joint_properties.spin.spring_stiffness = 1 N·m/rad with spring_reference 0.3 rad from
    the rotor (one atomic call, damping back to 0): it oscillates about the reference with
    period 2π·√(I/k) = 0.6283 s (within 0.5 %)."""
    reference = probe.latest("/joint_states").position[0] + 0.3
    result = set_atomically(
        probe,
        "props_mj",
        {
            "joint_properties.spin.damping": 0.0,
            "joint_properties.spin.spring_stiffness": 1.0,
            "joint_properties.spin.spring_reference": reference,
        },
    )
    assert result.successful, result.reason
    since = now(probe) + 0.05
    wait_sim(probe, 1.5)
    t, q, _, _ = series(probe, "spin", since)
    half = np.diff(crossings(t, q - reference))
    assert len(half) >= 3
    assert 2.0 * half.mean() == pytest.approx(2 * math.pi * math.sqrt(I_ROTOR / 1.0), rel=5e-3)


def test_a_spring_too_stiff_for_the_timestep_is_refused_by_the_call(
    mujoco_bridge, probe: Probe
) -> None:
    """The newcomer's attack: spring_stiffness = 1e6 inside the descriptor's range (0 … 1e6) but
    ω·dt = 10 on the rotor (bound I·(0.5/dt)² = 2500 N·m/rad): the SetParameters call itself is
    refused with the bound, the parameter keeps its value and the simulation does not reset."""
    before = get_params(probe, "props_mj", "joint_properties.spin.spring_stiffness")
    result = set_params(probe, "props_mj", {"joint_properties.spin.spring_stiffness": 1e6})[0]
    assert not result.successful
    assert result.reason.startswith(
        "joint_properties.spin.spring_stiffness = 1e+06 is too stiff for the timestep 0.001 s"
    )
    assert "Fix: give spring_stiffness ≤ 2500, or a smaller timestep." in result.reason
    assert get_params(probe, "props_mj", "joint_properties.spin.spring_stiffness") == before
    wait_sim(probe, 0.1)
    assert "became unstable" not in mujoco_bridge.output()
    assert "not applied" not in mujoco_bridge.output()


def test_friction_takes_f_off_the_effort(mujoco_bridge, probe: Probe) -> None:
    """joint_properties.spin.friction = 0.05 N·m (spring off): under an effort of 0.1 N·m the rotor,
    turning forward, accelerates at (τ − f)/I = 5 rad/s² (within 2 %)."""
    result = set_atomically(
        probe,
        "props_mj",
        {"joint_properties.spin.spring_stiffness": 0.0, "joint_properties.spin.friction": 0.05},
    )
    assert result.successful, result.reason
    command(probe, spin=0.1)
    since = now(probe) + 0.05
    wait_sim(probe, 1.0)
    t, _, v, effort = series(probe, "spin", since)
    forward = (v > 0.05) & (effort == 0.1)
    slope = np.polyfit(t[forward], v[forward], 1)[0]
    assert forward.sum() > 20
    assert slope == pytest.approx((0.1 - 0.05) / I_ROTOR, rel=2e-2)


def test_effort_limit_caps_the_applied_effort(mujoco_bridge, probe: Probe) -> None:
    """joint_properties.spin.effort = 0.02 N·m: an effort command of 1 N·m applies 0.02 N·m, in
    joint_states and ~/actuator_states."""
    probe.watch("/props_mj/actuator_states", JointState, 10)
    assert set_params(probe, "props_mj", {"joint_properties.spin.effort": 0.02})[0].successful
    command(probe, spin=1.0)
    probe.wait_for(
        lambda: probe.latest("/joint_states").effort[0] == pytest.approx(0.02, abs=1e-12),
        "the applied effort at the new limit",
    )
    probe.wait_messages("/props_mj/actuator_states", 2)
    actuators = probe.latest("/props_mj/actuator_states")
    assert actuators.effort[list(actuators.name).index("spin")] == pytest.approx(0.02, abs=1e-12)
    probe.unwatch("/props_mj/actuator_states")
    command(probe, spin=0.0)


def test_new_lower_stop_lifts_the_slider_and_stop_stiffness_sets_its_rest(
    mujoco_bridge, probe: Probe
) -> None:
    """joint_properties.lift.lower −0.5 → −0.2 m: the slider resting on the old stop is brought
    up to the new one (rigid: within 5 mm). Then stop_stiffness 100 N/m and stop_dissipation
    2 N·s/m (atomic): it rests m·g/k = 0.0981 m into the stop (within 1 %), its oscillation
    decaying by exp(−π·ζ/√(1 − ζ²)) per half period, ζ = b/(2·√(k·m/(1 − D))) (within 3 %)."""
    assert probe.latest("/joint_states").position[1] == pytest.approx(-0.5, abs=5e-3)
    assert set_params(probe, "props_mj", {"joint_properties.lift.lower": -0.2})[0].successful
    wait_sim(probe, 1.0)
    assert probe.latest("/joint_states").position[1] == pytest.approx(-0.2, abs=5e-3)
    result = set_atomically(
        probe,
        "props_mj",
        {
            "joint_properties.lift.stop_stiffness": 100.0,
            "joint_properties.lift.stop_dissipation": 2.0,
        },
    )
    assert result.successful, result.reason
    since = now(probe) + 0.02
    wait_sim(probe, 3.0)
    t, x, _, _ = series(probe, "lift", since)
    rest = -0.2 - M_SLIDER * G / 100.0
    assert x[t > t[-1] - 1.0].mean() == pytest.approx(rest, rel=1e-2)
    peaks = extreme_values(x - rest)
    zeta = 2.0 / (2.0 * math.sqrt(100.0 * M_SLIDER / (1.0 - STOP_IMPEDANCE)))
    ratio = math.exp(-math.pi * zeta / math.sqrt(1.0 - zeta**2))
    assert np.abs(peaks[1:4] / peaks[0:3]) == pytest.approx([ratio] * 3, rel=3e-2)
    assert get_params(
        probe, "props_mj", "joint_properties.lift.lower", "joint_properties.lift.stop_stiffness"
    ) == [
        -0.2,
        100.0,
    ]


# ---------------------------------------------------------------- the mock


@pytest.fixture(scope="module")
def mock_bridge(start_bridge, probe: Probe) -> Any:
    probe.watch("/mock_states", JointState, 100)
    params = {
        "robot_description": URDF,
        "command_timeout": 0.0,
        "joint_properties.j1.upper": 0.5,  # applied at start
        "joint_properties.j1.uper": 0.5,  # a misspelling: warned about
    }
    bridge = start_bridge(params, name="props_mock", extra=["-r", "joint_states:=/mock_states"])
    probe.wait_ready(bridge, "/mock_states", timeout=60.0)
    yield bridge
    probe.unwatch("/mock_states")
    assert bridge.stop() == 0, bridge.output()


def test_mock_declares_the_limiters_properties_with_descriptors(
    mock_bridge: Bridge, probe: Probe
) -> None:
    """The mock has lower, upper, effort, velocity per joint (no dynamics: damping is not
    declared), writable doubles with their range, unit and Gazebo call; values given at
    start are applied, a misspelt one is warned about with the right name."""
    request = DescribeParameters.Request(
        names=["joint_properties.j1.upper", "joint_properties.j2.effort"]
    )
    upper, effort = probe.call(
        DescribeParameters, "/props_mock/describe_parameters", request
    ).descriptors
    assert upper.type == ParameterType.PARAMETER_DOUBLE and not upper.read_only
    assert "Unit: rad or m; inf: no upper stop. Gazebo: physics::Joint::SetHighStop." in (
        upper.description
    )
    assert (effort.floating_point_range[0].from_value, effort.floating_point_range[0].to_value) == (
        0.0,
        math.inf,
    )
    assert get_params(
        probe, "props_mock", "joint_properties.j1.upper", "joint_properties.j2.velocity"
    ) == [0.5, 1.0]
    (result,) = set_params(probe, "props_mock", {"joint_properties.j1.damping": 0.1})
    assert not result.successful and "undeclared parameter" in result.reason  # (rclpy's text)
    probe.wait_for(
        lambda: "did you mean 'joint_properties.j1.upper'?" in mock_bridge.output(),
        "the misspelling warning",
    )


def test_refusals_give_the_reason(mock_bridge: Bridge, probe: Probe) -> None:
    """Inconsistent stops, a NaN, a negative limit: refused with the reason; nothing changes."""
    (result,) = set_params(probe, "props_mock", {"joint_properties.j1.lower": 0.7})
    assert not result.successful
    assert result.reason == (
        "joint_properties.j1.lower = 0.7 is not below joint_properties.j1.upper = 0.5: the stops "
        "must bound an interval. Fix: give lower < upper; to move both past each other, give "
        "lower and upper together (in the parameters file, or with set_parameters_atomically "
        "at run time)."
    )
    nan, negative = set_params(
        probe,
        "props_mock",
        {"joint_properties.j2.effort": math.nan, "joint_properties.j2.velocity": -1.0},
    )
    assert not nan.successful and nan.reason.startswith(
        "Parameter joint_properties.j2.effort out of range"
    )
    assert (
        not negative.successful and "joint_properties.j2.velocity out of range" in negative.reason
    )
    result = set_atomically(
        probe, "props_mock", {"joint_properties.j1.upper": 0.9, "joint_properties.j2.lower": 2.0}
    )  # all or none
    assert not result.successful and result.reason.startswith(
        "joint_properties.j2.lower = 2 is not below"
    )
    assert get_params(
        probe, "props_mock", "joint_properties.j1.upper", "joint_properties.j2.lower"
    ) == [0.5, -0.5]
    # an undeclared name: named, with the closest declared one (rclpy alone: "…: []")
    (result,) = set_params(probe, "props_mock", {"joint_properties.j1.uper": 0.4})
    assert not result.successful
    assert result.reason == (
        "Invalid access to undeclared parameter(s): 'joint_properties.j1.uper': joint 'j1' has "
        "no property 'uper' (did you mean 'joint_properties.j1.upper'?). Fix: "
        "joint_properties.<joint>.<property>, <property> one of lower, upper, effort, velocity"
    )


def test_stops_moved_together_clamp_the_joint(mock_bridge: Bridge, probe: Probe) -> None:
    """SetParametersAtomically moves both stops of j2 past the old ones, [0.6, 0.8] m: the
    joint at 0 is put on the new lower stop."""
    result = set_atomically(
        probe, "props_mock", {"joint_properties.j2.lower": 0.6, "joint_properties.j2.upper": 0.8}
    )
    assert result.successful, result.reason
    probe.wait_for(
        lambda: probe.latest("/mock_states").position[1] == pytest.approx(0.6, abs=1e-12),
        "j2 on its new lower stop",
    )


def test_effort_and_velocity_limits_cap_commands(mock_bridge: Bridge, probe: Probe) -> None:
    """joint_properties.j1.effort = 2 N·m and joint_properties.j1.velocity = 0.25 rad/s:
    commands of 50 N·m and 3 rad/s read 2 and 0.25 in joint_states (the mock mirrors its
    limited commands)."""
    results = set_params(
        probe,
        "props_mock",
        {"joint_properties.j1.effort": 2.0, "joint_properties.j1.velocity": 0.25},
    )
    assert all(r.successful for r in results)
    joint_commands = probe.publisher("/joint_commands", JointState)
    joint_commands.publish(JointState(name=["j1"], effort=[50.0]))
    probe.wait_for(lambda: probe.latest("/mock_states").effort[0] == 2.0, "effort capped at 2")
    joint_commands.publish(JointState(name=["j1"], velocity=[3.0]))
    probe.wait_for(
        lambda: probe.latest("/mock_states").velocity[0] == 0.25, "velocity capped at 0.25"
    )
