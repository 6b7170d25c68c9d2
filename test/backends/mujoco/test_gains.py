"""Default PID gains: the joints' inertias (own, apparent, load) and the rule's bounds."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

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
