"""Which movable joints the bridge does not expose (not in ``joint_states``, not commandable), and
why.

``joint_states`` carries every driven one-axis joint of the :class:`~.map.TransmissionMap` and
every follower (mimic, gearbox, a screw's translation). The other movable joints are named here,
so that ``sdf-bridge check`` and the node say so instead of listing them as commandable:

* multi-axis joints (ball, universal, revolute2, planar, floating): simulated by the MuJoCo
  backend on all their axes, but exposed on none (one joint name carries one value in
  ``sensor_msgs/JointState``; ros2_control has no multi-axis joint either); a floating joint
  whose parent is ``world`` is a free base (a robot's pose in the world, as a free root link
  is), not a joint to expose: it is not named;
* joints that close a kinematic loop (other than gearboxes): kept in the model, not simulated
  (:func:`~sdf_bridge.description.kinematics.loop_joints`);
* gearboxes that cannot be coupled (no 1-DOF joint from their reference body to their parent
  link): simulated as a free hinge.
"""

from __future__ import annotations

from sdf_bridge.description.kinematics import loop_joints
from sdf_bridge.description.model import JointType, Robot

from .coupling import build_followers


def unexposed_joints(robot: Robot) -> dict[str, str]:
    """Movable joints not in ``joint_states`` → why, in document order (see the module
    docstring)."""
    followers = {f.name for f in build_followers(robot)[0]}
    loops = set(loop_joints(robot))
    out: dict[str, str] = {}
    for name, joint in robot.joints.items():
        if not joint.type.is_movable:
            continue
        if joint.type is JointType.FLOATING and joint.parent == "world":
            continue  # a free base (module doc)
        if joint.type.dof > 1:
            out[name] = (
                f"{joint.type} joint ({joint.type.dof} degrees of freedom): simulated by the "
                "MuJoCo backend, not in joint_states (one value per joint name there)"
            )
        elif name in loops:
            out[name] = "closes a kinematic loop: kept in the model, not simulated"
        elif joint.type is JointType.GEARBOX and name not in followers:
            out[name] = (
                "gearbox without a 1-DOF joint from its reference body to its parent link: "
                "simulated as a free hinge by the MuJoCo backend, not in joint_states"
            )
    return out


__all__ = ["unexposed_joints"]
