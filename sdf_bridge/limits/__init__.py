"""Joint limits: merged from URDF, ``<ros2_control>`` and YAML, enforced like ros2_control.

Public API::

    from sdf_bridge.limits import JointLimiter
    limiter = JointLimiter.from_robot(robot, tmap.joint_names, overrides="limits.yaml")
    cp, cv, ce = limiter.enforce(q, v, cmd_p, cmd_v, cmd_e, dt)
    limiter.counts   # {(joint, reason): n}
"""

from .limiter import REASONS, JointLimiter
from .overrides import load_overrides, validate_overrides
from .spec import JointLimits

__all__ = ["REASONS", "JointLimiter", "JointLimits", "load_overrides", "validate_overrides"]
