"""Which movable joints the bridge does not expose (not in ``joint_states``, not commandable), and
why.

``joint_states`` carries every driven coordinate of the :class:`~.map.TransmissionMap` (a
one-axis joint, or one axis of a ball, universal or revolute2 joint, named as
:mod:`sdf_bridge.description.coordinates` says) and every follower (mimic, gearbox, a screw's
translation). The other movable joints are named here, so that ``sdf-bridge check`` and the
node say so instead of listing them as commandable:

* planar and floating joints: simulated by the MuJoCo backend on all their freedoms, exposed
  on none (their translations are not joint coordinates a ROS user commands; a floating base
  is the simulation's entity state); a floating joint whose parent is ``world`` is a free base
  (a robot's pose in the world, as a free root link is), not a joint to expose: it is not
  named;
* joints that close a kinematic loop (other than gearboxes): kept in the model, not simulated
  (:func:`~sdf_bridge.description.kinematics.loop_joints`).

A gearbox that cannot be coupled (no 1-DOF joint from its reference body to its parent link) is
driven as a plain hinge (:mod:`.coupling`), so it is exposed like a revolute joint, unless it
closes a loop (:func:`~.coupling.uncoupled_loop_gearboxes`): then it is not simulated.
"""

from __future__ import annotations

from sdf_bridge.description.coordinates import MULTI_AXIS_TYPES
from sdf_bridge.description.kinematics import loop_joints
from sdf_bridge.description.model import JointType, Robot

from .coupling import build_followers, uncoupled_loop_gearboxes


def unexposed_joints(robot: Robot) -> dict[str, str]:
    """Movable joints not in ``joint_states`` → why, in document order (see the module
    docstring)."""
    followers = {f.name for f in build_followers(robot)[0]}
    loops = set(loop_joints(robot))
    gearboxes = uncoupled_loop_gearboxes(robot, followers)
    out: dict[str, str] = {}
    for name, joint in robot.joints.items():
        if not joint.type.is_movable:
            continue
        if joint.type is JointType.FLOATING and joint.parent == "world":
            continue  # a free base (module doc)
        if name in loops:
            out[name] = "closes a kinematic loop: kept in the model, not simulated"
        elif joint.type.dof > 1 and joint.type not in MULTI_AXIS_TYPES:
            out[name] = (
                f"{joint.type} joint ({joint.type.dof} degrees of freedom): simulated by the "
                "MuJoCo backend, not in joint_states (not joint coordinates)"
            )
        elif name in gearboxes:
            out[name] = (
                "gearbox closing a loop without 1-DOF joints from its reference body to its "
                "parent and child links: not simulated"
            )
    return out


__all__ = ["unexposed_joints"]
