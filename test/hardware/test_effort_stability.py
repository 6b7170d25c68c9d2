"""The soft-limit effort bound's stability at the control rate: which joints chatter, and the
warning the hardware system gives with the fix."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from sdf_bridge.description import load
from sdf_bridge.hardware import HardwareSystem
from sdf_bridge.hardware.effort_stability import effort_chatter
from sdf_bridge.limits.spec import JointLimits

SOFT = JointLimits(
    has_effort_limits=True,
    max_effort=2.0,
    has_soft_limits=True,
    soft_lower=-1.0,
    soft_upper=1.0,
    k_position=10.0,
    k_velocity=0.5,
)


def test_chatter_when_k_velocity_dt_over_inertia_exceeds_one() -> None:
    """k_velocity·dt/M: 0.5·0.01/0.001 = 5 (chatters), 0.5·0.01/0.004 = 1.25 (overshoots),
    0.5·0.01/0.01 = 0.5 (fine); joints without soft or effort limits are never reported."""
    limits = [SOFT, SOFT, SOFT, JointLimits(has_effort_limits=True, max_effort=2.0), JointLimits()]
    problems = effort_chatter(
        ["light", "mid", "heavy", "no_soft", "none"],
        limits,
        np.array([0.001, 0.004, 0.01, 1e-6, 1e-6]),
        0.01,
    )
    assert problems == [
        "2 joint(s) whose soft-limit effort bound at 100 Hz has k_velocity·dt/M > 1 on its "
        "effective inertia M: 'light' (k_velocity 0.5, M 0.001: 5, chatters; armature ≥ 0.005); "
        "'mid' (k_velocity 0.5, M 0.004: 1.25, overshoots; armature ≥ 0.005). Effort commands "
        "near their soft limits overshoot, above 2 chatter between ±max_effort. Fix: give each "
        "the armature named (backend_params.armature.<joint>, e.g. "
        "backend_params.armature.light), or an update_rate ≥ 500 Hz, or a smaller k_velocity"
    ]
    assert effort_chatter(["heavy"], [SOFT], np.array([0.01]), 0.01) == []


LIGHT = """<?xml version="1.0"?>
<robot name="light">
  <link name="base"/>
  <link name="tip"><inertial><origin xyz="0.05 0 0"/><mass value="0.01"/>
    <inertia ixx="1e-6" ixy="0" ixz="0" iyy="1e-6" iyz="0" izz="1e-6"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="tip"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="2"/>
    <safety_controller soft_lower_limit="-0.9" soft_upper_limit="0.9" k_position="10"
      k_velocity="0.5"/></joint>
</robot>"""


def test_hardware_system_warns_about_a_light_link(caplog: pytest.LogCaptureFixture) -> None:
    """MuJoCo: the link's inertia about the joint is 0.01·0.05² + 1e-6 = 2.6e-5 kg·m², so at
    100 Hz k_velocity·dt/M ≈ 192: warned once, with the armature that fixes it."""
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.hardware.system"):
        system = HardwareSystem(
            load(LIGHT), "mujoco", backend_params={"render_cameras": False}, update_rate=100.0
        )
    system.close()
    warnings = [r.getMessage() for r in caplog.records if r.name == "sdf_bridge.hardware.system"]
    assert len(warnings) == 1
    assert warnings[0].startswith(
        "1 joint(s) whose soft-limit effort bound at 100 Hz has k_velocity·dt/M > 1 on its "
        "effective inertia M: 'j' (k_velocity 0.5, M 2.6e-05: 192, chatters; armature ≥ 0.005)"
    )
    assert "backend_params.armature.j" in warnings[0]
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.hardware.system"):
        caplog.clear()
        system = HardwareSystem(
            load(LIGHT),
            "mujoco",
            backend_params={"render_cameras": False, "armature": 0.01},
            update_rate=100.0,
        )
    system.close()
    # the fix silences it
    assert not [r for r in caplog.records if r.name == "sdf_bridge.hardware.system"]
