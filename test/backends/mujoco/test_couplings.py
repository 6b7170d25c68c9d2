"""Couplings of MuJoCo joints (mimic, gearbox, screw translation) as tendon equalities: what
:func:`add_coupling` writes, what :func:`joint_couplings` reads back, and the constraint's
softness measured against its own inverse inertia, so that a coupling carrying a load (a nut on
a vertical screw) holds it.

A nut of mass m and axial inertia I on a screw of lead c (m/rad) is a hinge q_h and a slide q_s
on one body, M = diag(I, m) (centre of mass on the axis), coupled by r = q_s − c·q_h = 0, whose
row J = (−c, 1) has the inverse inertia A = J M⁻¹ Jᵀ = c²/I + 1/m.
"""

from __future__ import annotations

import mujoco
import numpy as np
import pytest
from mujoco_helpers import G

from sdf_bridge.backends.mujoco.couplings import COUPLING_SUFFIX, add_coupling, joint_couplings
from sdf_bridge.description import load

GRAVITY = {"gravity": [0.0, 0.0, -G]}

MASS, IZZ, PITCH = 0.5, 5e-4, 25.0
"""The nut: 0.5 kg, 5e-4 kg·m² about the screw, legacy <thread_pitch> 25 rad/m."""
LEAD = -1.0 / PITCH
"""m/rad: Gazebo classic's thread_pitch is rad/m, positive left-handed (−0.04 m/rad)."""
INVERSE_INERTIA = LEAD**2 / IZZ + 1.0 / MASS
"""A = c²/I + 1/m = 3.2 + 2 = 5.2 (1/kg) of the coupling's row."""

NUT = f"""<sdf version="1.6"><model name="jack"><link name="base"/>
  <link name="nut"><pose>0 0 0.5 0 0 0</pose>
    <inertial><mass>{MASS}</mass><inertia><ixx>{IZZ}</ixx><iyy>{IZZ}</iyy><izz>{IZZ}</izz>
    </inertia></inertial>
  </link>
  <joint name="thread" type="screw"><parent>base</parent><child>nut</child>
    <thread_pitch>{PITCH}</thread_pitch><axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>"""

DMIN, DMAX = 0.95, 0.99
"""The coupling's impedance at no violation and beyond its width (add_coupling's solimp)."""
TIMECONST = 0.005
"""s: add_coupling's time constant at the default 1 ms timestep, max(0.005, 4·0.001)."""
STIFFNESS = 1.0 / (DMAX**2 * TIMECONST**2)
"""MuJoCo's reference stiffness k = 1/(d_max²·timeconst²·dampratio²), dampratio 1 (1/s²)."""


def _two_hinges() -> mujoco.MjSpec:
    spec = mujoco.MjSpec()
    for name in ("lead", "f"):
        body = spec.worldbody.add_body(name=name, mass=1.0, inertia=[0.1, 0.1, 0.1])
        body.add_joint(name=name, type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0.0, 0.0, 1.0])
    return spec


def test_a_coupling_is_a_fixed_tendon_held_at_the_offset() -> None:
    """f = 0.3 − 2·lead: the tendon f + 2·lead held at 0.3 (a tendon equality without a second
    tendon); a second coupling of the same follower gets the next free tendon name."""
    spec = _two_hinges()
    add_coupling(spec, "f", "lead", -2.0, 0.3, 0.001)
    add_coupling(spec, "f", "lead", 0.5, 0.0, 0.001)
    model = spec.compile()
    assert [model.tendon(t).name for t in range(model.ntendon)] == [
        "f" + COUPLING_SUFFIX,
        "f" + COUPLING_SUFFIX + "2",
    ]
    assert list(model.eq_type) == [mujoco.mjtEq.mjEQ_TENDON] * 2
    assert list(model.eq_obj2id) == [-1, -1]
    adr = model.tendon_adr[0]
    assert list(model.wrap_objid[adr : adr + 2]) == [model.joint("f").id, model.joint("lead").id]
    assert list(model.wrap_prm[adr : adr + 2]) == [1.0, 2.0]
    assert model.eq_data[0, 0] == 0.3
    assert list(model.eq_solref[0]) == [TIMECONST, 1.0]
    assert list(model.eq_solimp[0]) == [DMIN, DMAX, 0.001, 0.5, 2.0]
    first, second = joint_couplings(model)
    f, lead = model.joint("f"), model.joint("lead")
    assert (first.follower_qpos, first.follower_dof) == (f.qposadr[0], f.dofadr[0])
    assert (first.leader_qpos, first.leader_dof) == (lead.qposadr[0], lead.dofadr[0])
    assert (first.gain, first.offset) == (-2.0, 0.3)
    assert (second.gain, second.offset) == (0.5, 0.0)


def test_the_coupling_is_softened_by_its_own_inverse_inertia(make_sim) -> None:
    """MuJoCo's estimate of the row's inverse inertia (efc_diagA, from which it takes
    R = (1 − d)/d · Â) is the nut's A = 5.2 exactly (rounding: rel 1e-12), and R the one of
    d = 0.95 at no violation: the coupling gets A/(A + R) = 95 % of the force that holds it
    at once. (A MuJoCo joint equality has Â = 1/I + 1/m = 2002: R 385 times too large, 4.7 %
    of the force.)"""
    sim = make_sim(load(NUT), GRAVITY)
    model, data = sim.backend.model, sim.backend.data
    mujoco.mj_forward(model, data)
    (row,) = np.flatnonzero(data.efc_type == mujoco.mjtConstraint.mjCNSTR_EQUALITY)
    assert data.efc_diagA[row] == pytest.approx(INVERSE_INERTIA, rel=1e-12)
    assert data.efc_R[row] == pytest.approx((1 - DMIN) / DMIN * INVERSE_INERTIA, rel=1e-12)


def _impedance(violation: float) -> float:
    """MuJoCo's impedance d(r) of add_coupling's solimp (0.95, 0.99, width 0.001, midpoint
    0.5, power 2): ``d = d_min + y·(d_max − d_min)``, ``y = 2x²`` for ``x = |r|/width ≤ 0.5``
    (the violations here)."""
    x = abs(violation) / 0.001
    assert x <= 0.5
    return DMIN + 2.0 * x**2 * (DMAX - DMIN)


def test_a_nut_on_a_vertical_screw_holds_under_gravity(make_sim) -> None:
    """No command for 2 s from the reset, default gains: the hinge's integral starts at the
    weight moved through the thread, c·m·g, so the nut is held from the start and only the
    coupling's softness lets it move. A soft constraint at rest under the load m·g·A (in the
    row's acceleration: the slide's g plus the hinge's c²·m·g/I) settles at the violation
    r = (1 − d)·m·g·A / (k·d²) (MuJoCo: a = (1 − d)·a₀ + d·a_ref, a_ref = −k·d·r; here
    3.455e-5 m, d(r) = 0.9501), reached within 1e-3 of it in 2 s, never passed by more
    (critically damped); it moves the hinge by |c|/(I·A) of it, at most
    δ = |c|·m·g·(1 − d)/(I·k·d²) = 5.33e-4 rad with d ≥ 0.95 (the PID's feedback only pulls
    the hinge back). As a MuJoCo joint equality the same nut turned 0.018 rad and the slide
    sank 2.5 mm below the thread; the survey's criterion is 0.02 rad."""
    sim = make_sim(load(NUT), GRAVITY)
    assert sim.backend.pid.integral[0] == pytest.approx(LEAD * MASS * G, rel=1e-12)
    hinge_bound = abs(LEAD) * MASS * G * (1 - DMIN) / (IZZ * STIFFNESS * DMIN**2)
    assert hinge_bound == pytest.approx(5.33e-4, abs=5e-7)
    rest = 0.0
    for _ in range(20):  # the fixed point r = (1 − d(r))·m·g·A / (k·d(r)²), |r| decreasing in d
        d = _impedance(rest)
        rest = (1 - d) * MASS * G * INVERSE_INERTIA / (STIFFNESS * d**2)
    assert rest == pytest.approx(3.455e-5, abs=5e-9)
    slide = sim.backend.built.joints["thread"].qpos[1]
    hinge, violation = [], []
    for _ in range(200):
        sim.read(0.01)
        hinge.append(sim.qpos("thread"))
        violation.append(sim.backend.data.qpos[slide] - LEAD * sim.qpos("thread"))
    assert max(np.abs(hinge)) < hinge_bound
    assert violation[-1] == pytest.approx(-rest, rel=1e-3)
    assert max(np.abs(violation)) < rest * (1 + 1e-3)
