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
    """The joints whose soft-limit effort bound overshoots at the control period ``dt`` (s) on
    their effective ``inertia`` ((n,) kg·m² or kg, the backend's lightest): joints with soft
    limits, an effort limit and ``k_velocity·dt/M`` above :data:`CHATTER_RATIO` (module
    docstring). ``limits``: the limiter's per-joint limits, in ``joint_names`` order.

    Returns:
        ``[]``, or one message naming every such joint with its ratio and the armature that
        fixes it, and the update rate that fixes them all (one warning per kind).
    """
    rows = []
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
            rows.append((name, kv, m, ratio))
    if not rows:
        return []
    joints = "; ".join(
        f"{name!r} (k_velocity {kv:g}, M {m:.3g}: {ratio:.3g}, "
        f"{'chatters' if ratio > 2.0 else 'overshoots'}; armature ≥ {kv * dt:.3g})"
        for name, kv, m, ratio in rows
    )
    rate = max(kv / m for _, kv, m, _ in rows)
    example = rows[0][0]
    return [
        f"{len(rows)} joint(s) whose soft-limit effort bound at {1.0 / dt:g} Hz has "
        f"k_velocity·dt/M > {CHATTER_RATIO:g} on its effective inertia M: {joints}. Effort "
        "commands near their soft limits overshoot, above 2 chatter between ±max_effort. Fix: "
        f"give each the armature named (backend_params.armature.<joint>, e.g. "
        f"backend_params.armature.{example}), or an update_rate ≥ {rate:.4g} Hz, or a smaller "
        "k_velocity"
    ]
