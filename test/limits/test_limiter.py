"""JointLimiter.enforce: each rule at the boundary and beyond, soft limits, case 007, counts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from transmissions.builders import chain

from sdf_bridge.description import load
from sdf_bridge.description.model import (
    Limit,
    SafetyController,
    Transmission,
    TransmissionActuator,
    TransmissionJoint,
)
from sdf_bridge.errors import LimitsError
from sdf_bridge.limits import JointLimiter, JointLimits
from sdf_bridge.transmissions import TransmissionMap

NAN = math.nan
TOL = 1e-12


def one(
    limit: Limit | None = Limit(-1.0, 1.0, 10.0, 2.0),
    sc: SafetyController | None = None,
    jtype: str = "revolute",
    overrides=None,
) -> JointLimiter:
    extra = {"limit": limit}
    if sc is not None:
        extra["safety_controller"] = sc
    return JointLimiter.from_robot(chain(("j", jtype, extra)), ["j"], overrides=overrides)


def run(lim: JointLimiter, q=0.0, v=0.0, p=NAN, vel=NAN, e=NAN, dt=0.01):
    out = lim.enforce(
        np.array([q]), np.array([v]), np.array([p]), np.array([vel]), np.array([e]), dt
    )
    return tuple(float(x[0]) for x in out)


# ---- position ----------------------------------------------------------------------------------
def test_position_range_static() -> None:
    lim = one()
    assert run(lim, p=1.0, dt=NAN)[0] == 1.0
    assert run(lim, p=1.5, dt=NAN)[0] == 1.0
    assert run(lim, p=-7.0, dt=NAN)[0] == -1.0
    assert lim.counts == {("j", "position"): 2}


def test_position_reachable_in_one_period() -> None:
    lim = one()  # v_max 2 rad/s
    assert run(lim, q=0.0, p=0.02)[0] == pytest.approx(0.02, abs=TOL)  # exactly reachable
    lim.reset()
    assert run(lim, q=0.0, p=0.5)[0] == pytest.approx(0.02, abs=TOL)
    # the previous command is the reference (ros2_control), not the lagging state
    assert run(lim, q=0.0, p=0.5)[0] == pytest.approx(0.04, abs=TOL)
    assert lim.counts == {("j", "position_step"): 2}


def test_position_nan_stays_nan_and_resets_reference() -> None:
    lim = one()
    assert run(lim, q=0.0, p=0.5)[0] == pytest.approx(0.02, abs=TOL)
    assert math.isnan(run(lim, q=0.3, p=NAN)[0])
    assert run(lim, q=0.3, p=0.5)[0] == pytest.approx(0.32, abs=TOL)  # reference back to state
    assert lim.counts == {("j", "position_step"): 2}


def test_unknown_state_uses_range_only() -> None:
    assert run(one(), q=NAN, p=0.7)[0] == 0.7


def test_case_007(cases_dir) -> None:
    robot = load(cases_dir / "007-continuous-joint-no-limits" / "robot.urdf")
    lim = JointLimiter.from_robot(robot, ["wheel_joint", "turret_joint"])

    def cmd(joint, iface, value, dt=NAN):
        arrays = {k: np.full(2, NAN) for k in ("position", "velocity", "effort")}
        arrays[iface][["wheel_joint", "turret_joint"].index(joint)] = value
        out = lim.enforce(
            np.zeros(2), np.zeros(2), arrays["position"], arrays["velocity"], arrays["effort"], dt
        )
        return dict(zip(("position", "velocity", "effort"), out))[iface][
            ["wheel_joint", "turret_joint"].index(joint)
        ]

    assert cmd("wheel_joint", "position", 7.5) == pytest.approx(7.5, abs=1e-9)
    assert cmd("wheel_joint", "position", -20.0) == pytest.approx(-20.0, abs=1e-9)
    assert cmd("wheel_joint", "velocity", 15.0) == pytest.approx(10.0, abs=1e-9)
    assert cmd("wheel_joint", "velocity", -3.0) == pytest.approx(-3.0, abs=1e-9)
    assert cmd("turret_joint", "velocity", 15.0) == pytest.approx(15.0, abs=1e-9)
    assert cmd("turret_joint", "position", 4.0) == pytest.approx(4.0, abs=1e-9)
    assert cmd("wheel_joint", "effort", 9.0) == pytest.approx(5.0, abs=1e-9)


def test_case_007_held_command_converges_unwrapped(cases_dir) -> None:
    robot = load(cases_dir / "007-continuous-joint-no-limits" / "robot.urdf")
    lim = JointLimiter.from_robot(robot, ["wheel_joint"])
    q = 0.0
    for _ in range(100):  # a held 7.5 rad command at 100 Hz, state following the command
        q = float(
            lim.enforce(
                np.array([q]), np.zeros(1), np.array([7.5]), np.full(1, NAN), np.full(1, NAN), 0.01
            )[0][0]
        )
    assert q == pytest.approx(7.5, abs=1e-9)  # never clamped to ±π or 0


# ---- velocity ----------------------------------------------------------------------------------
def test_velocity_saturation() -> None:
    lim = one()
    assert run(lim, vel=2.0)[1] == 2.0
    assert run(lim, vel=2.5)[1] == 2.0
    assert run(lim, vel=-9.0)[1] == -2.0
    assert lim.counts == {("j", "velocity"): 2}


def test_velocity_not_driving_out_of_range() -> None:
    lim = one()
    assert run(lim, q=0.99, vel=1.0)[1] == pytest.approx(1.0, abs=TOL)  # exactly reaches 1.0
    assert run(lim, q=0.99, vel=1.5)[1] == pytest.approx(1.0, abs=TOL)
    assert run(lim, q=0.99, vel=-2.0)[1] == -2.0
    assert run(lim, q=1.2, vel=0.5)[1] == 0.0  # beyond the limit: may stop...
    assert run(lim, q=1.2, vel=-0.5)[1] == -0.5  # ...or come back
    assert lim.counts == {("j", "velocity_position"): 2}


def test_acceleration_limit_from_override() -> None:
    lim = one(overrides={"j": {"max_acceleration": 10.0}})
    assert run(lim, v=0.0, vel=2.0)[1] == pytest.approx(0.1, abs=TOL)
    assert run(lim, v=0.0, vel=2.0)[1] == pytest.approx(0.2, abs=TOL)  # from the previous command
    assert lim.counts == {("j", "acceleration"): 2}


# ---- effort ------------------------------------------------------------------------------------
def test_effort_saturation() -> None:
    lim = one()
    assert run(lim, e=10.0)[2] == 10.0
    assert run(lim, e=11.0)[2] == 10.0
    assert run(lim, e=-30.0)[2] == -10.0
    assert lim.counts == {("j", "effort"): 2}


def test_effort_cut_past_position_limit() -> None:
    lim = one()
    assert run(lim, q=1.0, v=0.0, e=5.0)[2] == 0.0  # at the upper limit pushing up
    assert run(lim, q=1.0, v=0.0, e=-5.0)[2] == -5.0
    assert run(lim, q=1.0, v=-0.1, e=5.0)[2] == 5.0  # moving away: allowed
    assert run(lim, q=-1.3, v=0.0, e=-5.0)[2] == 0.0  # beyond the lower limit pushing down
    assert run(lim, q=0.0, v=2.5, e=5.0)[2] == 0.0  # overspeed: no further acceleration
    assert run(lim, q=0.0, v=2.5, e=-5.0)[2] == -5.0
    assert lim.counts == {("j", "effort_position"): 3}


def test_nan_commands_not_counted() -> None:
    lim = one()
    out = run(lim, q=5.0, v=5.0)
    assert all(math.isnan(x) for x in out) and lim.counts == {}


# ---- soft limits -------------------------------------------------------------------------------
SC = SafetyController(k_velocity=5.0, soft_lower_limit=-0.8, soft_upper_limit=0.8, k_position=10.0)


def test_soft_position() -> None:
    lim = one(sc=SC)
    assert run(lim, q=0.0, p=0.9, dt=NAN)[0] == 0.8
    assert lim.counts == {("j", "soft_position"): 1}
    lim.reset()
    # reference 0.75: v_hi = clip(−10·(0.75 − 0.8), ±2) = 0.5 → 0.75 + 0.5·0.01 = 0.755
    assert run(lim, q=0.75, p=0.9)[0] == pytest.approx(0.755, abs=TOL)
    assert lim.counts == {("j", "soft_position"): 1}  # one clamp, counted under its first reason
    lim.reset()
    assert run(lim, q=0.75, p=0.78)[0] == pytest.approx(0.755, abs=TOL)
    assert lim.counts == {("j", "position_step"): 1}
    lim.reset()
    assert run(lim, q=0.0, p=1.5, dt=NAN)[0] == 0.8
    assert lim.counts == {("j", "position"): 1}


def test_soft_velocity_band() -> None:
    lim = one(sc=SC)
    # q = 0.75: band [−2, 0.5]
    assert run(lim, q=0.75, vel=1.0)[1] == pytest.approx(0.5, abs=TOL)
    assert run(lim, q=0.75, vel=-1.0)[1] == -1.0
    assert run(lim, q=0.9, vel=0.2)[1] == pytest.approx(-1.0, abs=TOL)  # past soft: pushed back


def test_soft_effort_k_velocity() -> None:
    lim = one(sc=SC)
    # q = 0.75, v = 0: band [−2, 0.5] → effort [clip(−5·(0 + 2)), clip(−5·(0 − 0.5))] = [−10, 2.5]
    assert run(lim, q=0.75, v=0.0, e=5.0)[2] == pytest.approx(2.5, abs=TOL)
    assert run(lim, q=0.75, v=0.0, e=-5.0)[2] == -5.0
    assert run(lim, q=0.75, v=0.0, e=2.5)[2] == pytest.approx(2.5, abs=TOL)
    assert lim.counts == {("j", "effort_position"): 1}


def test_soft_effort_k_velocity_zero() -> None:
    lim = one(sc=SafetyController(0.0, -0.8, 0.8, 10.0))
    assert run(lim, e=3.0)[2] == 0.0
    assert lim.warnings


def test_safety_k_velocity_without_soft_range() -> None:
    # PR2 casters: k_velocity only; band = ±v_max → effort [clip(−kv(v + v̄)), clip(−kv(v − v̄))]
    lim = one(limit=Limit(effort=7.0, velocity=15.0), sc=SafetyController(10.0), jtype="continuous")
    assert run(lim, v=14.9, e=7.0)[2] == pytest.approx(1.0, abs=1e-9)
    assert run(lim, v=0.0, e=7.0)[2] == 7.0


# ---- misc ------------------------------------------------------------------------------------
def test_vectorised_mixed() -> None:
    robot = chain(
        ("a", "revolute"),
        ("b", "continuous", {"limit": Limit(effort=1.0, velocity=1.0)}),
        ("c", "prismatic"),
    )
    lim = JointLimiter.from_robot(robot, ["a", "b", "c"])
    p, v, e = lim.enforce(
        np.zeros(3),
        np.zeros(3),
        np.array([5.0, 5.0, NAN]),
        np.array([NAN, 3.0, 0.5]),
        np.array([NAN, NAN, 20.0]),
        NAN,  # no rate terms (dt = 0 would hold the positions at q)
    )
    assert p[:2].tolist() == [1.0, 5.0] and math.isnan(p[2])
    assert math.isnan(v[0]) and v[1:].tolist() == [1.0, 0.5]
    assert np.isnan(e[:2]).all() and e[2] == 10.0


def test_counts_and_reset() -> None:
    lim = one()
    for _ in range(3):
        run(lim, vel=5.0)
    assert lim.counts == {("j", "velocity"): 3}
    lim.reset()
    assert lim.counts == {}


def test_actuator_limits_negative_reduction() -> None:
    spec = Transmission(
        "t",
        "transmission_interface/SimpleTransmission",
        "classic",
        joints=(TransmissionJoint("j"),),
        actuators=(TransmissionActuator("m", None, -50.0),),
    )
    robot = chain(("j", "revolute", {"limit": Limit(-1.0, 2.0, 10.0, 2.0)}), transmissions=[spec])
    tmap = TransmissionMap.from_robot(robot)
    lim = JointLimiter.from_robot(robot, tmap.joint_names)
    bounds = lim.actuator_limits(tmap)
    assert [b[0] for b in bounds["position"]] == [-100.0, 50.0]
    assert [b[0] for b in bounds["velocity"]] == [-100.0, 100.0]
    assert [b[0] for b in bounds["effort"]] == [-0.2, 0.2]


def test_actuator_limits_wrong_map() -> None:
    lim = one()
    tmap = TransmissionMap.from_robot(chain(("x", "revolute")))
    with pytest.raises(LimitsError, match="the transmission map's joints differ"):
        lim.actuator_limits(tmap)


def test_constructor_lengths() -> None:
    with pytest.raises(LimitsError, match="2 joint names but 1 limit sets"):
        JointLimiter(["a", "b"], [JointLimits()])


# ---- the stacked hot path: many joints at once = each joint alone -------------------------------
def _mixed_robot():
    """Joints with every kind of limit: plain, soft ramp + k_velocity, continuous, k_velocity 0,
    no effort limit, acceleration (override)."""
    return chain(
        ("a", "revolute"),
        ("b", "revolute", {"safety_controller": SC}),
        (
            "c",
            "continuous",
            {
                "limit": Limit(effort=7.0, velocity=15.0),
                "safety_controller": SafetyController(10.0),
            },
        ),
        ("d", "prismatic", {"limit": Limit(-0.5, 0.5, None, 1.0)}),
        ("e", "revolute", {"safety_controller": SafetyController(0.0, -0.8, 0.8, 10.0)}),
        ("f", "continuous"),
    )


@pytest.mark.parametrize("dt", [0.01, 0.0, -1.0])
def test_stacked_equals_one_joint_at_a_time(dt) -> None:
    robot = _mixed_robot()
    names = list(robot.joints)
    overrides = {"a": {"max_acceleration": 10.0}}
    together = JointLimiter.from_robot(robot, names, overrides=overrides)
    alone = [
        JointLimiter.from_robot(robot, [n], overrides=overrides if n == "a" else None)
        for n in names
    ]
    rng = np.random.default_rng(7)
    m = len(names)
    for _ in range(300):
        q, v = rng.uniform(-1.5, 1.5, m), rng.uniform(-3.0, 3.0, m)
        q[rng.random(m) < 0.1] = NAN  # unknown state: its terms drop, never a NaN bound
        v[rng.random(m) < 0.1] = NAN
        cmds = [rng.uniform(-1.5, 1.5, m), rng.uniform(-3.0, 3.0, m), rng.uniform(-12.0, 12.0, m)]
        for c in cmds:
            c[rng.random(m) < 0.3] = NAN
        got = together.enforce(q, v, *cmds, dt)
        for k, lim in enumerate(alone):
            one_out = lim.enforce(q[k : k + 1], v[k : k + 1], *(c[k : k + 1] for c in cmds), dt)
            for g, o, c in zip(got, one_out, cmds):
                assert (math.isnan(g[k]) and math.isnan(o[0])) or g[k] == o[0], (
                    names[k],
                    g[k],
                    o[0],
                )
                assert math.isnan(g[k]) == math.isnan(c[k])  # NaN in ⇔ NaN out
    counts = together.counts
    assert counts and counts == {key: n for lim in alone for key, n in lim.counts.items()}


def test_unknown_position_keeps_velocity_limit_with_soft_joint_elsewhere() -> None:
    # joint "b" has a soft ramp; joint "a"'s position is unknown: its velocity command is still
    # limited to ±v̄ (2 rad/s), never dropped to NaN and never left unlimited
    lim = JointLimiter.from_robot(
        chain(("a", "revolute"), ("b", "revolute", {"safety_controller": SC})), ["a", "b"]
    )
    p, v, e = lim.enforce(
        np.array([NAN, 0.0]),
        np.zeros(2),
        np.full(2, NAN),
        np.array([5.0, 1.0]),
        np.full(2, NAN),
        0.01,
    )
    assert v.tolist() == [2.0, 1.0]
    assert lim.counts == {("a", "velocity"): 1}


def test_outputs_are_new_arrays() -> None:
    lim = one()
    cp, cv, ce = np.array([0.01]), np.array([0.5]), np.array([1.0])
    out = lim.enforce(np.zeros(1), np.zeros(1), cp, cv, ce, 0.01)
    for o, c in zip(out, (cp, cv, ce)):
        assert o is not c and not np.shares_memory(o, c) and o.tolist() == c.tolist()
