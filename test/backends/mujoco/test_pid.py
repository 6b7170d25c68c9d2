"""Joint PID: gain sources and their order, defaults, the control law, clamps, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sdf_bridge.backends.mujoco.gains import BANDWIDTH, JointInertia, default_gains
from sdf_bridge.backends.mujoco.pid import (
    JointPid,
    PidGains,
    integrate,
    resolve_gains,
    saturated_towards,
)
from sdf_bridge.description import load
from sdf_bridge.description.model import Robot
from sdf_bridge.errors import ConfigError

ROBOT = """<?xml version="1.0"?>
<robot name="two">
  <link name="base"/><link name="a"/><link name="b"/>
  <joint name="ja" type="continuous"><parent link="base"/><child link="a"/></joint>
  <joint name="jb" type="continuous"><parent link="base"/><child link="b"/></joint>
  <ros2_control name="hw" type="system">
    <hardware><plugin>x/Y</plugin></hardware>
    <joint name="ja">
      <command_interface name="position"/>
      <param name="p">7</param><param name="i">0.5</param><param name="d">0.25</param>
      <param name="i_clamp">2</param>
    </joint>
  </ros2_control>
</robot>"""

NAMES = ("ja", "jb")
INERTIA = JointInertia(own=np.array([2.0, 0.5]), apparent=np.array([2.0, 0.5]), load=np.zeros(2))
DEFAULTS = default_gains(INERTIA, 0.001, np.array([np.inf, np.inf]))


@pytest.fixture(scope="module")
def robot() -> Robot:
    return load(ROBOT)


def test_gains_from_ros2_control_params_and_default(robot: Robot) -> None:
    g = resolve_gains(robot, NAMES, {}, DEFAULTS)
    assert (g.p[0], g.i[0], g.d[0], g.i_clamp[0]) == (7.0, 0.5, 0.25, 2.0)
    # jb: default p = M·ω², d = 2·M·ω, i = p·ω/10 (nothing bounds them at 1 ms); no effort
    # limit given: i_clamp = p·1 rad
    assert g.p[1] == pytest.approx(0.5 * BANDWIDTH**2, rel=1e-15)
    assert g.d[1] == pytest.approx(2.0 * 0.5 * BANDWIDTH, rel=1e-15)
    assert g.i[1] == pytest.approx(0.5 * BANDWIDTH**3 / 10.0, rel=1e-15)
    assert g.i_clamp[1] == g.p[1]
    # only defaults follow M(q)
    assert g.scheduled is not None and g.scheduled.tolist() == [
        False,
        True,
    ]


def test_default_gains_are_logged_once_with_the_rule(
    robot: Robot, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("INFO", logger="sdf_bridge.backends.mujoco.pid"):
        resolve_gains(robot, NAMES, {}, DEFAULTS, INERTIA)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1
    assert (
        "M = max(M_own, M_load)" in lines[0]
        and "jb: p 1974, i 1.24e+04, d 62.83, i_clamp 1974" in lines[0]
        and "ja:" not in lines[0]
    )
    assert "M_own 0.5, M_apparent 0.5, M_load 0" in lines[0]


def test_default_integral_is_clamped_at_the_effort_limit(robot: Robot) -> None:
    defaults = default_gains(INERTIA, 0.001, np.array([3.0, 12.0]))
    g = resolve_gains(robot, NAMES, {}, defaults)
    assert (g.i_clamp[0], g.i_clamp[1]) == (2.0, 12.0)  # ja keeps its configured i_clamp


def test_default_gains_satisfy_routh_hurwitz(robot: Robot) -> None:
    """M·s³ + d·s² + p·s + i is stable iff d·p > M·i (all positive)."""
    g = resolve_gains(robot, NAMES, {}, DEFAULTS)
    assert g.d[1] * g.p[1] > INERTIA.own[1] * g.i[1]


def test_config_overrides_description_key_by_key(robot: Robot) -> None:
    g = resolve_gains(robot, NAMES, {"pid_gains": {"ja": {"p": 100}}}, DEFAULTS)
    assert (g.p[0], g.i[0], g.d[0], g.i_clamp[0]) == (100.0, 0.5, 0.25, 2.0)


def test_flat_ros_parameter_keys(robot: Robot) -> None:
    g = resolve_gains(robot, NAMES, {"pid_gains.jb.p": "30", "pid_gains.jb.d": 3}, DEFAULTS)
    assert (g.p[1], g.i[1], g.d[1]) == (30.0, 0.0, 3.0)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"pid_gains": {"ja": {"p": "soft"}}}, r"pid_gains.ja.p = 'soft' is not a number"),
        ({"pid_gains": {"ja": {"p": -1}}}, r"pid_gains.ja.p = -1 must be a finite number ≥ 0"),
        ({"pid_gains": {"ja": {"kp": 1}}}, r"pid_gains.ja has unknown key\(s\) \['kp'\]"),
        ({"pid_gains": {"ja": 5}}, r"pid_gains.ja must be a mapping"),
        ({"pid_gains": [1, 2]}, r"pid_gains must be a mapping"),
        (
            {"pid_gains": {"zz": {"p": 1}}},
            r"pid_gains names joint\(s\) \['zz'\] that are not commandable",
        ),
        ({"pid_gains.jb.i": math.inf}, r"pid_gains.jb.i = inf must be a finite number"),
        (
            {"pid_gains.jb.kp": 1},
            r"parameter 'pid_gains.jb.kp': use pid_gains.<joint>.<p\|i\|d\|i_clamp>",
        ),
        (
            {"pid_gains.zz.p": 1},
            r"parameter 'pid_gains.zz.p' names joint 'zz', which is not commandable",
        ),
    ],
)
def test_bad_gains(robot: Robot, params, message) -> None:
    with pytest.raises(ConfigError, match=message):
        resolve_gains(robot, NAMES, params, DEFAULTS)


def test_bad_description_param() -> None:
    robot = load(ROBOT.replace('<param name="p">7</param>', '<param name="p">seven</param>'))
    with pytest.raises(
        ConfigError, match=r"<ros2_control name='hw'> joint 'ja' param p = 'seven' is not a number"
    ):
        resolve_gains(robot, NAMES, {}, DEFAULTS)


def _pid() -> JointPid:
    gains = PidGains(
        p=np.array([10.0, 10.0]),
        i=np.array([4.0, 4.0]),
        d=np.array([2.0, 2.0]),
        i_clamp=np.array([1.0, 0.0]),
    )
    return JointPid(gains, effort_limit=np.array([5.0, np.inf]))


def test_integral_clamped_and_reset() -> None:
    pid = _pid()
    active = np.array([True, True])
    for _ in range(10):
        pid.update_integral(np.array([1.0, 1.0]), 0.1, active)
    # 4 · 1 · 0.1 · 10 = 4 → clamped to i_clamp 1 on the first; the second has no clamp
    assert pid.integral == pytest.approx([1.0, 4.0], abs=1e-12)
    pid.update_integral(np.array([1.0, 1.0]), 0.1, np.array([True, False]))
    assert pid.integral[1] == 0.0  # inactive joints drop their integral
    pid.reset()
    assert pid.integral.tolist() == [0.0, 0.0]


def test_affine_parameters_reproduce_the_law() -> None:
    pid = _pid()
    pid.integral[:] = [0.5, -0.5]
    q, v = np.array([0.1, -0.2]), np.array([0.3, 0.4])
    qt, vt, ff = np.array([0.4, 0.2]), np.array([0.05, -0.1]), np.array([0.0, 0.7])
    gain, bias0, bias_q, bias_v = pid.affine(vt, ff, np.array([True, False]))
    affine = gain * qt + bias0 + bias_q * q + bias_v * v
    assert affine[0] == pytest.approx(10 * 0.3 + 2 * (0.05 - 0.3) + 0.5, abs=1e-12)
    assert affine[1] == pytest.approx(0.7, abs=1e-12)  # inactive: feedforward (effort) only


def test_scale_multiplies_p_i_d_not_the_clamp() -> None:
    """Gain scheduling: scale 3 on the first joint triples p, d and the integral rate."""
    pid = _pid()
    pid.set_scale(np.array([3.0, 1.0]))
    gain, _, bias_q, bias_v = pid.affine(np.zeros(2), np.zeros(2), np.array([True, True]))
    assert (
        gain.tolist() == [30.0, 10.0]
        and bias_q.tolist() == [-30.0, -10.0]
        and bias_v.tolist() == [-6.0, -2.0]
    )
    pid.update_integral(np.array([0.05, 0.05]), 0.1, np.array([True, True]))
    assert pid.integral == pytest.approx([3 * 4 * 0.05 * 0.1, 4 * 0.05 * 0.1], abs=1e-15)
    pid.update_integral(np.array([10.0, 0.0]), 0.1, np.array([True, True]))
    assert pid.integral[0] == 1.0  # i_clamp is an effort bound: not scaled


def test_state_storage_is_shared_and_initialised() -> None:
    """The integral and scale live in the given (2, n) storage (the backend's joint table rows)."""
    storage = np.full((2, 2), 7.0)
    gains = PidGains(p=np.ones(2), i=np.ones(2), d=np.ones(2), i_clamp=np.zeros(2))
    pid = JointPid(gains, np.array([1.0, 1.0]), state=storage)
    assert storage.tolist() == [[0.0, 0.0], [1.0, 1.0]]
    pid.set_scale(np.array([2.0, 3.0]))
    pid.update_integral(np.array([1.0, -1.0]), 0.5, np.array([True, True]))
    assert storage.tolist() == [[1.0, -1.5], [2.0, 3.0]]  # i·scale·e·dt, unbounded (i_clamp 0)


@pytest.mark.parametrize(
    "storage", [np.zeros((2, 3)), np.zeros((3, 2)), np.zeros((2, 2), dtype=np.float32)]
)
def test_state_storage_of_wrong_shape_or_type_rejected(storage: np.ndarray) -> None:
    gains = PidGains(p=np.ones(2), i=np.ones(2), d=np.ones(2), i_clamp=np.zeros(2))
    with pytest.raises(
        ValueError, match=r"PID state storage must be a float64 array of shape \(2, 2\)"
    ):
        JointPid(gains, np.array([1.0, 1.0]), state=storage)


def test_integral_does_not_wind_up_while_saturated_towards_the_error() -> None:
    """Conditional integration: at +limit a positive error adds nothing, a negative one
    integrates (it brings the force back); at −limit the other way round; below the limit both."""
    force, limit = np.array([5.0, 5.0, -5.0, 4.0]), np.array([5.0, 5.0, 5.0, 5.0])
    error = np.array([0.1, -0.1, -0.1, 0.1])
    blocked = saturated_towards(force, limit, error)
    assert blocked.tolist() == [True, False, True, False]
    integral = np.zeros(4)
    integrate(
        integral,
        np.full(4, 10.0),
        np.zeros(4),
        np.ones(4),
        error,
        0.5,
        np.ones(4, dtype=bool),
        blocked,
    )
    assert integral.tolist() == [0.0, -0.5, 0.0, 0.5]
    assert not saturated_towards(
        np.array([1e9]), np.array([np.inf]), np.array([1.0])
    ).any()  # no limit


def test_a_joint_far_lighter_than_its_load_is_warned_with_the_fix(
    robot: Robot, caplog: pytest.LogCaptureFixture
) -> None:
    """jb carries 3 kg·m² on 2e-5 kg·m² (a small robot's wheel): over LIGHT_RATIO, warned with
    an armature of 100 × its apparent inertia; ja has configured gains and is not."""
    inertia = JointInertia(
        own=np.array([2e-5, 2e-5]), apparent=np.array([2e-5, 2e-5]), load=np.array([3.0, 3.0])
    )
    with caplog.at_level("WARNING", logger="sdf_bridge.backends.mujoco.pid"):
        resolve_gains(robot, NAMES, {}, default_gains(inertia, 0.001, np.full(2, 20.0)), inertia)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1
    assert warnings[0].startswith(
        "PID: joint(s) ['jb'] carry over 1e+04 times their own inertia (jb: M 3, M_apparent 2e-05)"
    )
    assert "backend_params.armature.<joint>, e.g. 100 × M_apparent = 0.002 kg·m²" in warnings[0]
