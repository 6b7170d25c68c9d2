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

import importlib
from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # (once)
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
