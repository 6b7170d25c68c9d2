"""Default PID gains: the joints' inertias (own, apparent, load), the rule's bounds, and the
joints' damping and friction in it (targets reached on damped joints)."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest
from mujoco_helpers import G, pendulum_urdf

from sdf_bridge.backends.mujoco.gains import (
    BANDWIDTH,
    DAMPING_STEP,
    STIFFNESS_STEP,
    JointInertia,
    default_gains,
    joint_inertias,
)

# a 2 kg box body on a free joint, with a 0.5 kg rod on a hinge (axis y, through the body's
# origin) and a 0.25 kg block on a slide (axis x); inertias given explicitly
FREE = """<mujoco><worldbody>
  <body name="trunk" pos="0 0 1"><freejoint/>
    <inertial pos="0.1 0 0" mass="2" diaginertia="0.01 0.02 0.03"/>
    <body name="rod"><joint name="hinge" type="hinge" axis="0 1 0"/>
      <inertial pos="0 0 -0.2" mass="0.5" diaginertia="0.004 0.004 0.0001"/></body>
    <body name="block"><joint name="slide" type="slide" axis="1 0 0"/>
      <inertial pos="0 0 0" mass="0.25" diaginertia="0.001 0.001 0.001"/></body>
  </body></worldbody></mujoco>"""


def _inertias(xml: str) -> tuple[mujoco.MjModel, JointInertia]:
    model = mujoco.MjModel.from_xml_string(xml)
    joints = np.array([model.joint("hinge").id, model.joint("slide").id])
    return model, joint_inertias(model, joints, model.jnt_dofadr[joints])


GRAVITY = {"gravity": [0.0, 0.0, -G]}


def test_inertias_of_a_free_floating_robot() -> None:
    """own = the subtree about the axis; load = the rest of the robot about it (the hinge: the
    trunk's iyy + m·d² with d = 0.1 m, and the block at the axis: its iyy; the slide: the
    mass of the rest); apparent ≤ own (the free base gives way)."""
    model, inertia = _inertias(FREE)
    assert inertia.own[0] == pytest.approx(0.004 + 0.5 * 0.2**2, rel=1e-12)
    assert inertia.own[1] == pytest.approx(0.25, rel=1e-12)
    assert inertia.load[0] == pytest.approx(0.02 + 2.0 * 0.1**2 + 0.001, rel=1e-12)
    assert inertia.load[1] == pytest.approx(2.0 + 0.5, rel=1e-12)
    assert np.all(inertia.apparent < inertia.own)
    assert inertia.design.tolist() == [inertia.load[0], inertia.load[1]]


def test_a_fixed_base_carries_no_load() -> None:
    _, inertia = _inertias(FREE.replace("<freejoint/>", ""))
    assert inertia.load.tolist() == [0.0, 0.0]
    assert inertia.apparent == pytest.approx(inertia.own, rel=1e-12)  # the base does not move


def test_default_gains_aim_at_the_bandwidth_when_the_timestep_allows() -> None:
    inertia = JointInertia(own=np.array([0.5]), apparent=np.array([0.5]), load=np.array([0.0]))
    g = default_gains(inertia, 0.001, np.array([12.0]))
    assert (g.p[0], g.d[0]) == (
        pytest.approx(0.5 * BANDWIDTH**2, rel=1e-15),
        pytest.approx(BANDWIDTH, rel=1e-15),
    )
    assert g.i[0] == pytest.approx(g.p[0] * BANDWIDTH / 10.0, rel=1e-15)
    assert g.i_clamp[0] == 12.0 and not g.bounded[0]


def test_default_gains_of_a_light_loaded_joint_are_bounded_by_the_timestep() -> None:
    """A knee: 0.002 kg·m² apparent, carrying 1.25 kg·m²: p and d at the timestep bounds
    (ω·dt = 0.5 and d·dt/M = 1 on the apparent inertia), the integral Routh–Hurwitz-stable on
    the load (i < d·p/M)."""
    inertia = JointInertia(own=np.array([0.007]), apparent=np.array([0.002]), load=np.array([1.25]))
    g = default_gains(inertia, 0.001, np.array([np.inf]))
    assert g.p[0] == pytest.approx(0.002 * (STIFFNESS_STEP / 0.001) ** 2, rel=1e-12)
    assert g.d[0] == pytest.approx(0.002 * DAMPING_STEP / 0.001, rel=1e-12)
    assert g.i[0] == pytest.approx(g.p[0] * g.d[0] / (2.0 * 1.25), rel=1e-12)
    assert g.d[0] * g.p[0] > 1.25 * g.i[0]
    assert g.i_clamp[0] == g.p[0] and g.bounded[0]


# -- joint damping and friction (issue 25 item 5) ------------------------------------------------
def test_default_gains_place_a_pole_at_the_bandwidth_on_a_damped_joint() -> None:
    """b = 10 N·m·s/rad on 0.5 kg·m²: p = ω·(M·ω + b), d = 2·M·ω, so the PD loop
    M·s² + (d + b)·s + p has its poles at exactly −ω and −(ω + b/M); the integral keeps
    its corner ω/10 (Routh–Hurwitz margin (d + b)·p/M over i)."""
    inertia = JointInertia(own=np.array([0.5]), apparent=np.array([0.5]), load=np.array([0.0]))
    g = default_gains(inertia, 0.001, np.array([np.inf]), damping=np.array([10.0]))
    w = BANDWIDTH
    assert g.p[0] == pytest.approx(w * (0.5 * w + 10.0), rel=1e-15)
    assert g.d[0] == pytest.approx(2.0 * 0.5 * w, rel=1e-15)
    assert g.i[0] == pytest.approx(g.p[0] * w / 10.0, rel=1e-15)
    poles = np.sort(np.roots([0.5, g.d[0] + 10.0, g.p[0]]).real)
    assert poles == pytest.approx([-(w + 10.0 / 0.5), -w], rel=1e-12)
    assert (g.d[0] + 10.0) * g.p[0] > 0.5 * g.i[0] and not g.bounded[0]


def test_without_damping_and_friction_the_rule_is_unchanged() -> None:
    inertia = JointInertia(own=np.array([0.5]), apparent=np.array([0.5]), load=np.array([0.0]))
    given = default_gains(inertia, 0.001, np.array([np.inf]), np.zeros(1), np.zeros(1))
    default = default_gains(inertia, 0.001, np.array([np.inf]))
    for key in ("p", "i", "d", "i_clamp"):
        assert getattr(given, key)[0] == getattr(default, key)[0]
    assert given.p[0] == pytest.approx(0.5 * BANDWIDTH**2, rel=1e-15)


def test_the_stiffness_bound_stays_on_the_apparent_inertia_of_a_damped_joint() -> None:
    """A 10⁻³ kg·m² link with b = 10 at 1 ms: the aim ω·(M·ω + b) = 632.3 is over the bound
    10⁻³·(0.5/0.001)² = 250 (bounded); the PD loop is then overdamped, its slow pole
    2·p/(s + √(s² − 4·M·p)) = 24.75 rad/s (s = d + b), and the integral's corner a tenth of it
    (below ω/10 = 6.28)."""
    inertia = JointInertia(own=np.array([1e-3]), apparent=np.array([1e-3]), load=np.array([0.0]))
    g = default_gains(inertia, 0.001, np.array([np.inf]), damping=np.array([10.0]))
    assert BANDWIDTH * (1e-3 * BANDWIDTH + 10.0) == pytest.approx(632.3, abs=0.05)
    assert g.p[0] == pytest.approx(1e-3 * (STIFFNESS_STEP / 0.001) ** 2, rel=1e-15)
    assert g.p[0] == pytest.approx(250.0, rel=1e-12)
    assert g.d[0] == pytest.approx(2.0 * 1e-3 * BANDWIDTH, rel=1e-15)
    total = g.d[0] + 10.0
    slow = 2.0 * 250.0 / (total + np.sqrt(total**2 - 4.0 * 1e-3 * 250.0))
    assert slow == pytest.approx(-np.roots([1e-3, total, 250.0]).real.max(), rel=1e-9)
    assert slow == pytest.approx(24.75, abs=0.005)
    assert g.i[0] == pytest.approx(g.p[0] * slow / 10.0, rel=1e-12)
    assert g.bounded[0]


def test_the_integral_clamp_leaves_room_for_the_friction() -> None:
    """No effort limit: i_clamp = p·1 rad + f (f = 3 N·m); an effort limit stays the clamp."""
    inertia = JointInertia(own=np.full(2, 0.5), apparent=np.full(2, 0.5), load=np.zeros(2))
    g = default_gains(
        inertia, 0.001, np.array([np.inf, 40.0]), damping=np.zeros(2), friction=np.full(2, 3.0)
    )
    assert g.i_clamp[0] == pytest.approx(g.p[0] + 3.0, rel=1e-15)
    assert g.i_clamp[1] == 40.0


# a light link (0.1 kg at 0.1 m: M = 1.01·10⁻³ kg·m²) and a heavier one (5 kg at 0.1 m), each
# on a revolute joint with damping 10 N·m·s/rad, without and with 1 N·m of Coulomb friction
DAMPED = [(0.1, 0.0), (0.1, 1.0), (5.0, 0.0), (5.0, 1.0)]


def _damped_urdf(mass: float, friction: float) -> str:
    return pendulum_urdf(
        joint_type="revolute",
        mass=mass,
        length=0.1,
        inertia=1e-5,
        limit='<limit lower="-3" upper="3" effort="100" velocity="10"/>',
        dynamics=f'<dynamics damping="10" friction="{friction}"/>',
    )


def test_the_backend_takes_damping_and_friction_from_the_joint(make_sim) -> None:
    """The backend's default gains are the rule's with the joint's own b and f (MuJoCo's
    dof_damping and dof_frictionloss): p = ω·(M·ω + 10) on M = 5·0.1² + 10⁻⁵ kg·m²."""
    sim = make_sim(_damped_urdf(5.0, 1.0), GRAVITY)
    backend = sim.backend
    m = float(backend.inertia.design[0])
    assert m == pytest.approx(5.0 * 0.1**2 + 1e-5, rel=1e-9)
    assert backend.pid.gains.p[0] == pytest.approx(BANDWIDTH * (m * BANDWIDTH + 10.0), rel=1e-12)
    assert backend.pid.gains.i_clamp[0] == 100.0  # the effort limit
    unlimited = make_sim(_damped_urdf(5.0, 1.0).replace('effort="100"', 'effort="0"'), GRAVITY)
    gains = unlimited.backend.pid.gains
    assert gains.i_clamp[0] == pytest.approx(gains.p[0] + 1.0, rel=1e-15)  # p·1 rad + f


@pytest.mark.parametrize(("mass", "friction"), DAMPED)
def test_a_damped_joint_reaches_its_position_target(make_sim, mass, friction) -> None:
    """Position target 0.5 rad under gravity: within 1e-3 rad over the last 0.5 s of 2 s
    (measured: ≤ 7·10⁻⁵ rad after 1 s, ≤ 2·10⁻⁶ over the last 0.5 s; the rule without b left
    the light link 0.33 rad off at 2 s, swinging at √(i/b) ≈ 1.6 rad/s)."""
    sim = make_sim(_damped_urdf(mass, friction), GRAVITY)
    sim.position([0.5])
    positions = np.array([s.position[0] for s in sim.run(2.0)])
    assert np.abs(positions[-50:] - 0.5).max() < 1e-3


@pytest.mark.parametrize(("mass", "friction"), DAMPED)
def test_a_damped_joint_reaches_its_velocity_command(make_sim, mass, friction) -> None:
    """Velocity command 0.2 rad/s under gravity: within 2 % over the last 0.5 s of 2 s
    (measured: ≤ 0.06 %; the rule without b was 66 % off at 2 s on the light link)."""
    sim = make_sim(_damped_urdf(mass, friction), GRAVITY)
    sim.velocity([0.2])
    velocities = np.array([s.velocity[0] for s in sim.run(2.0)])
    assert np.abs(velocities[-50:] / 0.2 - 1.0).max() < 0.02


# -- coupled followers (issue 25: carlikebot's virtual joints drive mimic wheels) -----------------
# a 10⁻⁶ kg·m² leader hinge driving a follower hinge (gain 2) that drives another (gain 3),
# coupled as sdf_bridge.backends.mujoco.couplings.add_coupling does (tendon equalities)
COUPLED = """<mujoco><worldbody>
  <body name="virtual"><joint name="leader" type="hinge" axis="0 0 1"/>
    <inertial pos="0 0 0" mass="0.001" diaginertia="1e-6 1e-6 1e-6"/></body>
  <body name="wheel" pos="1 0 0"><joint name="f1" type="hinge" axis="0 0 1" damping="0.2"
      frictionloss="0.5"/>
    <inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.01"/></body>
  <body name="wheel2" pos="2 0 0"><joint name="f2" type="hinge" axis="0 0 1" damping="0.1"/>
    <inertial pos="0 0 0" mass="1" diaginertia="0.002 0.002 0.002"/></body>
  </worldbody>
  <tendon><fixed name="f1__coupling"><joint joint="f1" coef="1"/><joint joint="leader" coef="-2"/>
    </fixed><fixed name="f2__coupling"><joint joint="f2" coef="1"/><joint joint="f1" coef="-3"/>
    </fixed></tendon>
  <equality><tendon tendon1="f1__coupling"/><tendon tendon1="f2__coupling"/></equality>
</mujoco>"""


def test_followers_are_found_through_chains_of_couplings() -> None:
    from sdf_bridge.backends.mujoco.couplings import coupled_followers

    model = mujoco.MjModel.from_xml_string(COUPLED)
    leader, f1, f2 = (int(model.joint(n).dofadr[0]) for n in ("leader", "f1", "f2"))
    assert coupled_followers(model, [leader]) == [[(f1, 2.0), (f2, 6.0)]]
    assert coupled_followers(model, [leader, f1]) == [[(f1, 2.0)], [(f2, 3.0)]]


def test_a_leaders_inertia_counts_its_followers_reflected_inertia() -> None:
    """own = 10⁻⁶ + 2²·0.01 + 6²·0.002 kg·m² (multiplier² × follower); apparent: the same sum
    of the joints' apparent inertias, but at most the leader's own over 1 − 0.95 (the share of
    a force its coupling passes on within one step): 2·10⁻⁵ here."""
    from sdf_bridge.backends.mujoco.couplings import COUPLING_SOLIMP, coupled_followers

    model = mujoco.MjModel.from_xml_string(COUPLED)
    joints = np.array([model.joint("leader").id])
    dofs = model.jnt_dofadr[joints]
    inertia = joint_inertias(model, joints, dofs, coupled_followers(model, dofs))
    assert inertia.own[0] == pytest.approx(1e-6 + 4 * 0.01 + 36 * 0.002, rel=1e-9)
    assert COUPLING_SOLIMP[0] == 0.95
    assert inertia.apparent[0] == pytest.approx(1e-6 / 0.05, rel=1e-9)
    alone = joint_inertias(model, joints, dofs)
    assert alone.own[0] == pytest.approx(1e-6, rel=1e-9)
    assert alone.apparent[0] == pytest.approx(1e-6, rel=1e-9)


def test_followers_damping_and_friction_are_reflected() -> None:
    """damping 0.2·2² + 0.1·6² (multiplier², as an inertia); friction 0.5·|2| (|multiplier|)."""
    from sdf_bridge.backends.mujoco.couplings import coupled_followers
    from sdf_bridge.backends.mujoco.gains import reflected

    model = mujoco.MjModel.from_xml_string(COUPLED)
    dofs = model.jnt_dofadr[[model.joint("leader").id]]
    followers = coupled_followers(model, dofs)
    assert reflected(model.dof_damping, dofs, followers)[0] == pytest.approx(0.8 + 3.6, rel=1e-12)
    assert reflected(model.dof_frictionloss, dofs, followers, 1)[0] == pytest.approx(1.0)


def test_the_integral_corner_follows_the_pd_loops_slowest_pole() -> None:
    """ω/10 at the rule's aims (slow pole −ω exactly); a tenth of the slow real pole of an
    overdamped loop; the real part of a complex pair (the free knee above: 2/(2·1.25))."""
    from sdf_bridge.backends.mujoco.gains import integral_corner

    w, m, b = BANDWIDTH, 0.5, 10.0
    aims = integral_corner(np.array([m]), np.array([2 * m * w + b]), np.array([w * (m * w + b)]))
    assert aims[0] == pytest.approx(w / 10.0, rel=1e-12)
    over = integral_corner(np.array([8.5e-4]), np.array([0.62]), np.array([5.0]))
    slow = -np.roots([8.5e-4, 0.62, 5.0]).real.max()
    assert over[0] == pytest.approx(slow / 10.0, rel=1e-9)
    assert integral_corner(np.array([1.25]), np.array([2.0]), np.array([500.0]))[0] == 0.8
