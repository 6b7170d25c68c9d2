"""Stability of the bridge's effort rules on the simulated joints: the soft-limit effort bound
at the control rate.

ros2_control's soft limits bound an effort command by ``−k_velocity·(v − v_bound)``
(:mod:`sdf_bridge.limits.limiter`), evaluated once per control period ``dt`` from the measured
velocity. On a joint of effective inertia ``M`` this is a discrete velocity loop,
``v ← v − (k_velocity·dt/M)·(v − v_bound)``: it overshoots when ``k_velocity·dt/M > 1`` and
diverges when it exceeds 2, where the bound chatters between ±max_effort every period (a
light link without armature at 100 Hz). :func:`effort_chatter` names those joints and the fix:
an armature of at least ``k_velocity·dt`` (kg·m² or kg), or an update rate of at least
``k_velocity/M`` Hz.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..limits.spec import JointLimits

CHATTER_RATIO = 1.0
"""Largest ``k_velocity·dt/M`` of a soft-limit effort bound that does not overshoot."""


def effort_chatter(
    joint_names: Sequence[str], limits: Sequence[JointLimits], inertia: np.ndarray, dt: float
) -> list[str]:
    """One message per joint whose soft-limit effort bound overshoots at the control period
    ``dt`` (s) on its effective ``inertia`` ((n,) kg·m² or kg, the backend's lightest): joints
    with soft limits, an effort limit and ``k_velocity·dt/M`` above :data:`CHATTER_RATIO`
    (module docstring). ``limits``: the limiter's per-joint limits, in ``joint_names`` order."""
    problems = []
    for name, lim, m in zip(joint_names, limits, np.asarray(inertia, dtype=float)):
        kv = lim.k_velocity
        if not (
            lim.has_soft_limits
            and lim.has_effort_limits
            and math.isfinite(kv)
            and kv > 0.0
            and m > 0.0
        ):
            continue
        ratio = kv * dt / m
        if ratio > CHATTER_RATIO:
            problems.append(
                f"joint {name!r}: its soft-limit effort bound (k_velocity {kv:g}) at "
                f"{1.0 / dt:g} Hz on an effective inertia of {m:.3g} has k_velocity·dt/M = "
                f"{ratio:.3g} > {CHATTER_RATIO:g}: effort commands near its soft limits "
                f"{'chatter between ±max_effort' if ratio > 2.0 else 'overshoot'}. Fix: give "
                f"it an armature ≥ {kv * dt:.3g} (backend_params.armature.{name}), or an "
                f"update_rate ≥ {kv / m:.4g} Hz, or a smaller k_velocity"
            )
    return problems
