"""Joint limits: merged from URDF, ``<ros2_control>`` and YAML, enforced like ros2_control.

Public API::

    from sdf_bridge.limits import JointLimiter
    limiter = JointLimiter.from_robot(robot, tmap.joint_names, overrides="limits.yaml")
    cp, cv, ce = limiter.enforce(q, v, cmd_p, cmd_v, cmd_e, dt)
    limiter.counts   # {(joint, reason): n}

Names are imported on first use (module ``__getattr__``): :mod:`sdf_bridge.limits.spec` alone
(``sdf-bridge check``) does not load the limiter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sdf_bridge.util.lazy_exports import lazy_exports

if TYPE_CHECKING:  # pragma: no cover
    from .limiter import REASONS, JointLimiter
    from .overrides import load_overrides, validate_overrides
    from .spec import JointLimits

_WHERE = {
    "REASONS": "limiter",
    "JointLimiter": "limiter",
    "JointLimits": "spec",
    "load_overrides": "overrides",
    "validate_overrides": "overrides",
}

__all__ = [
    "JointLimiter",
    "JointLimits",
    "REASONS",
    "load_overrides",
    "validate_overrides",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
