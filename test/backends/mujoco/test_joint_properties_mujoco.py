"""Joint properties changed at run time on the MuJoCo backend (Gazebo's physics::Joint
setters): each measured against its closed form on test/data/joint_properties.sdf, through a
HardwareSystem ticking at 100 Hz (timestep 1 ms), and the backend's own checks.

The rotor ``spin``: inertia I = 0.01 kg·m² about a vertical axis (no gravity torque). The
slider ``lift``: m = 1 kg on a vertical prismatic joint, resting on its lower stop under its
weight m·g = 9.81 N. An effort command of 0 turns a joint's PID off (free joint).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from sdf_bridge.backends.mujoco import cycle
from sdf_bridge.backends.mujoco.builder import STOP_IMPEDANCE, stop_solver_params
from sdf_bridge.backends.mujoco.gains import default_gains
from sdf_bridge.description import load
from sdf_bridge.errors import BackendError, JointPropertyError
from sdf_bridge.hardware import HardwareSystem

MODEL = Path(__file__).resolve().parents[2] / "data" / "joint_properties.sdf"
DT = 0.01
I_ROTOR = 0.01  # kg·m²
M_SLIDER = 1.0  # kg
G = 9.81


class Rig:
    """A HardwareSystem on MuJoCo with its own clock."""

    def __init__(self) -> None:
        self.hw = HardwareSystem(load(MODEL), "mujoco", command_timeout=0.0, update_rate=100.0)
        self.t = 0.0

    def effort(self, **efforts: float) -> None:
        self.hw.submit_joint_state(list(efforts), None, None, list(efforts.values()), self.t)

    def run(self, ticks: int) -> np.ndarray:
        """(ticks, 3, n) states: rows position, velocity, effort; columns spin, lift."""
        out = []
        for _ in range(ticks):
            state = self.hw.cycle(self.t, DT)
            self.t += DT
            out.append(np.array([state.position, state.velocity, state.effort]))
        return np.array(out)


@pytest.fixture
def rig() -> Rig:
    r = Rig()
    r.effort(spin=0.0, lift=0.0)  # both free
    r.run(50)  # the slider falls onto its lower stop
    return r


def crossings(t: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Times where ``x`` changes sign (linear interpolation)."""
    k = np.flatnonzero(np.sign(x[:-1]) != np.sign(x[1:]))
    return t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])


def extremes(t: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Times and values of the local extremes of ``x`` (parabola through three samples)."""
    k = np.flatnonzero((x[1:-1] - x[:-2]) * (x[2:] - x[1:-1]) < 0) + 1
    a, b, c = x[k - 1], x[k], x[k + 1]
    shift = 0.5 * (a - c) / (a - 2 * b + c)
    return t[k] + shift * DT, b - 0.25 * (a - c) * shift


def test_initial_properties_are_the_descriptions() -> None:
    """The description's limits and SDFormat's default stop (1e8 N·m/rad, 1 N·m·s/rad)."""
    props = Rig().hw.joint_properties()
    assert props["spin"] == {
        "lower": -100.0,
        "upper": 100.0,
        "effort": 5.0,
        "velocity": 50.0,
        "damping": 0.0,
        "friction": 0.0,
        "spring_stiffness": 0.0,
        "spring_reference": 0.0,
        "stop_stiffness": 1e8,
        "stop_dissipation": 1.0,
    }


def test_damping_decays_velocity_as_exp_minus_b_t_over_i(rig: Rig) -> None:
    """SetDamping: v(t) = v0·exp(−b·t/I) with b = 0.01 N·m·s/rad (rate 1/s) within 0.1 % over
    1 s; the default gains follow the damping (the configuration's rule)."""
    rig.effort(spin=0.1)
    rig.run(10)  # spun up to 1 rad/s
    rig.hw.set_joint_properties({"spin": {"damping": 0.01}})
    rig.effort(spin=0.0)
    states = rig.run(101)
    v = states[:, 1, 0]
    assert v[100] / v[0] == pytest.approx(math.exp(-0.01 * 1.0 / I_ROTOR), rel=1e-3)
    backend = rig.hw.backend
    expected = default_gains(
        backend.inertia,
        0.001,
        np.array([5.0, 50.0]),
        damping=np.array([0.01, 0.0]),
        friction=np.zeros(2),
    )
    np.testing.assert_allclose(backend._tab[cycle.P], expected.p, rtol=1e-12)
    np.testing.assert_allclose(backend._tab[cycle.I], expected.i, rtol=1e-12)
    np.testing.assert_allclose(backend.pid.gains.d, expected.d, rtol=1e-12)


def test_spring_period_is_two_pi_root_i_over_k(rig: Rig) -> None:
    """SetStiffnessDamping: a spring k = 1 N·m/rad with its reference 0.3 rad away oscillates
    about the reference with period 2π·√(I/k) = 0.6283 s (within 0.1 %) and amplitude 0.3."""
    q0 = rig.run(1)[0, 0, 0]
    rig.hw.set_joint_properties({"spin": {"spring_stiffness": 1.0, "spring_reference": q0 + 0.3}})
    states = rig.run(150)
    t = np.arange(150) * DT
    x = states[:, 0, 0] - (q0 + 0.3)
    half = np.diff(crossings(t, x))
    assert len(half) >= 3
    assert 2 * half.mean() == pytest.approx(2 * math.pi * math.sqrt(I_ROTOR / 1.0), rel=1e-3)
    assert np.abs(x).max() == pytest.approx(0.3, rel=1e-2)


def test_friction_lowers_the_acceleration_by_f_over_i(rig: Rig) -> None:
    """SetParam("friction"): under an effort τ = 0.1 N·m above the friction f = 0.05 N·m the
    rotor accelerates at (τ − f)/I = 5 rad/s² (within 0.1 %)."""
    rig.hw.set_joint_properties({"spin": {"friction": 0.05}})
    rig.effort(spin=0.1)
    states = rig.run(31)
    v = states[:, 1, 0]
    assert (v[30] - v[10]) / 0.2 == pytest.approx((0.1 - 0.05) / I_ROTOR, rel=1e-3)


def test_new_stop_brings_the_joint_back_and_stiffness_sets_penetration(rig: Rig) -> None:
    """SetLowStop: the slider resting at −0.5 m is pushed up to the new stop −0.2 m (rigid:
    within 5 mm); then stop stiffness k = 100 N/m and dissipation b = 2 N·s/m: it rests
    m·g/k = 0.0981 m into the stop (within 1 %) and its oscillation decays by
    exp(−π·ζ/√(1 − ζ²)) per half period, ζ = b/(2·√(k·m')), m' = m/(1 − D) (within 1 %)."""
    assert rig.run(1)[0, 0, 1] == pytest.approx(-0.5, abs=5e-3)
    rig.hw.set_joint_properties({"lift": {"lower": -0.2}})
    rested = rig.run(100)[-1, 0, 1]
    assert rested == pytest.approx(-0.2, abs=5e-3)
    assert rig.hw.limiter.pmin[1] == -0.2
    rig.hw.set_joint_properties({"lift": {"stop_stiffness": 100.0, "stop_dissipation": 2.0}})
    states = rig.run(400)
    x = states[:, 0, 1]
    rest = -0.2 - M_SLIDER * G / 100.0
    assert x[300:].mean() == pytest.approx(rest, rel=1e-2)
    t = np.arange(400) * DT
    _, peaks = extremes(t, x - rest)
    m_eff = M_SLIDER / (1.0 - STOP_IMPEDANCE)
    zeta = 2.0 / (2.0 * math.sqrt(100.0 * m_eff))
    ratio = math.exp(-math.pi * zeta / math.sqrt(1.0 - zeta**2))
    assert np.abs(peaks[1:4] / peaks[0:3]) == pytest.approx([ratio] * 3, rel=1e-2)
    backend = rig.hw.backend
    j = backend.properties.jnt[1]
    solref, solimp = stop_solver_params(100.0, 2.0, M_SLIDER, 0.001)
    np.testing.assert_allclose(backend.model.jnt_solref[j], solref, rtol=1e-9)
    np.testing.assert_allclose(backend.model.jnt_solimp[j], solimp)


def test_effort_limit_caps_the_applied_effort(rig: Rig) -> None:
    """SetEffortLimit: an effort command of 1 N·m on a joint limited to 0.2 N·m applies 0.2
    N·m (joint and actuator states) and accelerates the rotor at 0.2/I = 20 rad/s²; the PID
    integral's clamp follows (the default rule: i_clamp = effort limit)."""
    rig.hw.set_joint_properties({"spin": {"effort": 0.2}})
    rig.effort(spin=1.0)
    states = rig.run(11)
    assert states[-1, 2, 0] == 0.2
    assert (states[10, 1, 0] - states[0, 1, 0]) / 0.1 == pytest.approx(20.0, rel=1e-2)
    backend = rig.hw.backend
    assert backend.model.actuator_forcerange[backend._act_ids[0]].tolist() == [-0.2, 0.2]
    assert backend._tab[cycle.I_CLAMP, 0] == 0.2


def test_velocity_limit_caps_velocity_commands(rig: Rig) -> None:
    """SetVelocityLimit: a velocity command of 5 rad/s on a joint limited to 1 rad/s runs the
    rotor at 1 rad/s (within 0.5 %)."""
    rig.hw.set_joint_properties({"spin": {"velocity": 1.0}})
    rig.hw.submit_joint_state(["spin"], None, [5.0], None, rig.t)
    assert rig.run(100)[-1, 1, 0] == pytest.approx(1.0, rel=5e-3)


def test_zero_effort_limit_makes_a_joint_passive_and_back() -> None:
    """Effort 0: the PID's gains are 0 (passive, as at configure); a finite limit again drives
    the joint with the default gains."""
    rig = Rig()
    p0 = rig.hw.backend._tab[cycle.P].copy()
    rig.hw.set_joint_properties({"spin": {"effort": 0.0}})
    assert rig.hw.backend._tab[cycle.P, 0] == 0.0 and rig.hw.backend._tab[cycle.PASSIVE, 0] == 1
    rig.hw.set_joint_properties({"spin": {"effort": 5.0}})
    np.testing.assert_array_equal(rig.hw.backend._tab[cycle.P], p0)


def test_infinite_stop_is_rigid_silently_and_too_stiff_one_with_a_note() -> None:
    """stop_stiffness inf (documented: rigid) is MuJoCo's default stop, without a note; a
    finite one too stiff for the timestep (the description's rule: ω·dt > 0.5) is that stop
    too, said in a note naming the joint, the timestep and the fix."""
    rig = Rig()
    j = rig.hw.backend.properties.jnt[1]
    assert rig.hw.set_joint_properties({"lift": {"stop_stiffness": math.inf}}) == []
    assert rig.hw.backend.model.jnt_solref[j].tolist() == [0.005, 1.0]  # builder.rigid_stop
    assert rig.hw.set_joint_properties({"lift": {"stop_stiffness": 100.0}}) == []
    assert rig.hw.backend.model.jnt_solref[j].tolist() != [0.005, 1.0]  # a soft stop
    notes = rig.hw.set_joint_properties({"lift": {"stop_stiffness": 1e8}})
    assert notes == [
        "joint stop stiffness of ['lift'] is too stiff for the timestep 0.001 s (ω·dt > 0.5): "
        "the rigid stop (as URDF joints') is used. Fix: a smaller stop_stiffness (or "
        "stop_dissipation) for a soft stop, or .inf to ask for the rigid one"
    ]
    assert rig.hw.backend.model.jnt_solref[j].tolist() == [0.005, 1.0]


def test_a_spring_too_stiff_for_the_timestep_is_refused() -> None:
    """spring_stiffness beyond M·(0.5/dt)² (the stops' rule ω·dt ≤ 0.5, M the joint's inertia
    dof_M0: 0.01 kg·m² for the rotor, so 2500 N·m/rad at 1 ms) is refused, by the check alone
    too, naming ω·dt and the bound, nothing changed; the bound itself is taken. (Measured on
    this rotor: ω·dt = 1.9 still oscillates, with 3× the amplitude; 2.1 diverges and resets, as
    semi-implicit Euler does above ω·dt = 2; the newcomer's 1e6 is ω·dt = 10.)"""
    rig = Rig()
    props = rig.hw.backend.properties
    inertia = float(props.model.dof_M0[props.drive.dadr[0]])
    assert inertia == pytest.approx(I_ROTOR, rel=1e-9)
    bound = props.spring_bound("spin")
    assert bound == pytest.approx(2500.0, rel=1e-9)
    assert bound == inertia * (0.5 / 0.001) ** 2
    message = (
        r"joint_properties\.spin\.spring_stiffness = 1e\+06 is too stiff for the timestep "
        r"0\.001 s: ω·dt = √\(k/M\)·dt = 10 > 0\.5 on the joint's inertia M \(MuJoCo "
        r"integrates the spring explicitly and would diverge and reset the simulation\); "
        r"nothing changed\. Fix: give spring_stiffness ≤ 2500, or a smaller timestep\."
    )
    with pytest.raises(JointPropertyError, match=message):
        rig.hw.check_joint_properties({"spin": {"spring_stiffness": 1e6}})
    with pytest.raises(JointPropertyError, match=message):
        rig.hw.set_joint_properties({"spin": {"spring_stiffness": 1e6, "damping": 0.5}})
    assert rig.hw.joint_properties()["spin"]["spring_stiffness"] == 0.0  # nothing changed
    assert rig.hw.joint_properties()["spin"]["damping"] == 0.0
    assert props.model.jnt_stiffness[props.jnt[0]] == 0.0
    with pytest.raises(JointPropertyError, match=r"ω·dt = √\(k/M\)·dt = 0\.5 > 0\.5"):
        rig.hw.set_joint_properties({"spin": {"spring_stiffness": bound * (1 + 1e-6)}})
    assert rig.hw.set_joint_properties({"spin": {"spring_stiffness": bound}}) == []
    assert rig.hw.joint_properties()["spin"]["spring_stiffness"] == bound


def test_removing_both_stops_unlimits_the_joint() -> None:
    """lower = −inf and upper = inf: no stop in the physics nor in the limiter."""
    rig = Rig()
    rig.hw.set_joint_properties({"lift": {"lower": -math.inf, "upper": math.inf}})
    j = rig.hw.backend.properties.jnt[1]
    assert not rig.hw.backend.model.jnt_limited[j]
    assert not rig.hw.limiter.limits[1].has_position_limits
    rig.hw.set_joint_properties({"lift": {"upper": 0.25}})  # one side
    assert rig.hw.backend.model.jnt_limited[j]
    assert rig.hw.backend.model.jnt_range[j].tolist() == [-1e16, 0.25]


def test_backend_checks_before_it_changes_anything() -> None:
    """MujocoBackend.set_joint_properties refuses a bad change whole (nothing applied)."""
    rig = Rig()
    backend = rig.hw.backend
    before = backend.model.dof_damping.copy()
    with pytest.raises(
        JointPropertyError, match=r"joint_properties\.lift\.friction = -1 is out of range"
    ):
        backend.set_joint_properties({"spin": {"damping": 1.0}, "lift": {"friction": -1.0}})
    np.testing.assert_array_equal(backend.model.dof_damping, before)
    with pytest.raises(
        JointPropertyError, match=r"joint_properties\.spin\.velocity: no such property"
    ):
        backend.set_joint_properties({"spin": {"velocity": 1.0}})
    with pytest.raises(JointPropertyError, match=r"no joint 'elbow' has properties"):
        backend.set_joint_properties({"elbow": {"damping": 1.0}})
    with pytest.raises(JointPropertyError, match=r"joint_properties\.lift\.lower = 1 is not below"):
        backend.set_joint_properties({"lift": {"lower": 1.0}})
    with pytest.raises(BackendError, match="before configure"):
        type(backend)().set_joint_properties({})


def test_an_idle_joint_holds_on_a_new_stop_without_pressing_it() -> None:
    """An idle joint (no command: the PID holds where it was, 0) whose new stops exclude its
    hold: the hold moves onto the stop (−0.1 rad), so the joint rests there with no effort,
    instead of the PID pressing it into the stop up to its effort limit."""
    rig = Rig()
    rig.run(10)
    rig.hw.set_joint_properties({"spin": {"lower": -1.0, "upper": -0.1}})
    states = rig.run(100)
    assert states[-1, 0, 0] == pytest.approx(-0.1, abs=1e-3)
    assert abs(states[-1, 2, 0]) < 1e-3


def test_reset_places_the_joint_inside_run_time_stops() -> None:
    """~/reset after new stops [0.2, 0.5] on the rotor (initial position 0): it restarts on
    the lower stop, 0.2 rad, and rests there with no effort."""
    rig = Rig()
    rig.hw.set_joint_properties({"spin": {"lower": 0.2, "upper": 0.5}})
    rig.hw.reset()
    assert rig.hw.read(rig.t, 0.0).position[0] == pytest.approx(0.2, abs=1e-12)
    states = rig.run(50)
    assert states[-1, 0, 0] == pytest.approx(0.2, abs=1e-3)
    assert abs(states[-1, 2, 0]) < 1e-3


#: A revolute2 joint (in MuJoCo: two hinges, one per coordinate) and a ball joint (MuJoCo's
#: native ball joint: its angles are coordinates, without joint properties).
MULTI_AXIS = """<sdf version="1.9"><model name="m">
  <link name="base"/>
  <joint name="anchor" type="fixed"><parent>world</parent><child>base</child></joint>
  <link name="arm"><inertial><mass>2</mass>
    <inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.3</izz></inertia></inertial></link>
  <joint name="r2" type="revolute2"><parent>base</parent><child>arm</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis>
    <axis2><xyz>1 0 0</xyz><limit><lower>-0.5</lower><upper>0.5</upper></limit></axis2></joint>
  <link name="head"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass>
    <inertia><ixx>0.01</ixx><iyy>0.02</iyy><izz>0.03</izz></inertia></inertial></link>
  <joint name="neck" type="ball"><parent>arm</parent><child>head</child></joint>
</model></sdf>"""


def test_each_axis_of_a_multi_axis_joint_has_its_own_properties() -> None:
    """revolute2 axis2's stops are its own (read from <axis2>, set alone: axis1's unchanged);
    a ball joint has no joint properties (neither as a whole nor by angle: one ball joint in
    the physics, not three axes)."""
    hw = HardwareSystem(load(MULTI_AXIS), "mujoco", command_timeout=0.0, update_rate=100.0)
    props = hw.joint_properties()
    assert (props["r2/axis1"]["lower"], props["r2/axis1"]["upper"]) == (-1.0, 1.0)
    assert (props["r2/axis2"]["lower"], props["r2/axis2"]["upper"]) == (-0.5, 0.5)
    hw.set_joint_properties({"r2/axis2": {"lower": -0.25, "upper": 0.25}})
    props = hw.joint_properties()
    assert (props["r2/axis2"]["lower"], props["r2/axis2"]["upper"]) == (-0.25, 0.25)
    assert (props["r2/axis1"]["lower"], props["r2/axis1"]["upper"]) == (-1.0, 1.0)
    assert sorted(props) == ["r2/axis1", "r2/axis2"]
    for name in ("neck", "neck/pitch"):
        with pytest.raises(JointPropertyError, match=rf"no joint '{name}' has properties"):
            hw.set_joint_properties({name: {"damping": 0.5}})
