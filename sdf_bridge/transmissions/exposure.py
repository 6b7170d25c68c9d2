"""Which movable joints the bridge does not expose (not in ``joint_states``, not commandable), and
why.

``joint_states`` carries every driven coordinate of the :class:`~.map.TransmissionMap` (a
one-axis joint, one axis of a universal or revolute2 joint or one angle of a ball joint, named as
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

:func:`joint_roles` is the one place these rules are combined: it finds the followers, the
loop joints, the uncoupled gearboxes closing a loop and the unexposed joints once, in a frozen
:class:`JointRoles` that the transmission map is built from and carries
(``TransmissionMap.roles``), that ``sdf-bridge check`` reads from the map and that the node's
start-up warning of unexposed joints reads.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from sdf_bridge.description.coordinates import MULTI_AXIS_TYPES
from sdf_bridge.description.kinematics import loop_joints, tree_edges
from sdf_bridge.description.model import JointType, Robot

from .coupling import Follower, build_followers, uncoupled_loop_gearboxes


@dataclass(frozen=True)
class JointRoles:
    """What the bridge does with each movable joint of one robot, worked out once by
    :func:`joint_roles` and carried (:attr:`TransmissionMap.roles
    <sdf_bridge.transmissions.map.TransmissionMap.roles>`, read by ``sdf-bridge check``).

    Attributes:
        followers: every follower (:func:`~.coupling.build_followers`), in its order.
        follower_joints: the *joints* that are followers (not driven), document order.
        warnings: the warnings of finding the followers (uncoupled gearboxes).
        loops: joints that close a kinematic loop, gearboxes excepted
            (:func:`~sdf_bridge.description.kinematics.loop_joints`): not simulated.
        loop_gearboxes: gearboxes that close a loop and are not coupled
            (:func:`~.coupling.uncoupled_loop_gearboxes`): not simulated.
        unexposed: movable joints not in ``joint_states`` → why, in document order (see the
            module docstring); a read-only mapping.
    """

    followers: tuple[Follower, ...]
    follower_joints: tuple[str, ...]
    warnings: tuple[str, ...]
    loops: frozenset[str]
    loop_gearboxes: frozenset[str]
    unexposed: Mapping[str, str] = field(hash=False)  # (a read-only dict: not hashable)

    @property
    def not_driven(self) -> frozenset[str]:
        """Joints no actuator drives: the follower joints, the loops and the uncoupled
        gearboxes closing a loop."""
        return frozenset(self.follower_joints) | self.loops | self.loop_gearboxes


_ROLES: dict[int, tuple[weakref.ref[Robot], JointRoles]] = {}
"""id(robot) → (the robot, its roles): :func:`joint_roles` of each live robot, kept while the
robot lives (a :class:`Robot` is immutable, and unhashable: its maps are dicts)."""


def joint_roles(robot: Robot) -> JointRoles:
    """The :class:`JointRoles` of ``robot``: the one place followers, loop joints and unexposed
    joints are worked out (the transmission map, the node's warning of unexposed joints and
    ``sdf-bridge check`` all read it), once per robot: the result is kept while ``robot``
    lives, so that the start-up warning, the map and the summary share one computation. The
    joints closing a loop (:func:`~sdf_bridge.description.kinematics.tree_edges`) are found
    once for all rules.

    Raises:
        TransmissionError: as :func:`~.coupling.build_followers` (a mimic of a missing, fixed
            or multi-DOF joint, a mimic cycle, a non-finite multiplier, offset, ratio or
            pitch); nothing is kept then.
    """
    key = id(robot)
    kept = _ROLES.get(key)
    if kept is not None and kept[0]() is robot:
        return kept[1]
    roles = _joint_roles(robot)
    _ROLES[key] = (weakref.ref(robot, lambda _ref: _ROLES.pop(key, None)), roles)
    return roles


def _joint_roles(robot: Robot) -> JointRoles:
    """:func:`joint_roles`, computed."""
    closing = tree_edges(robot)[1]  # the joints closing a loop: found once, for each rule
    followers, follower_joints, warnings = build_followers(robot, closing)
    loops = frozenset(loop_joints(robot, closing))
    gearboxes = frozenset(uncoupled_loop_gearboxes(robot, {f.name for f in followers}, closing))
    return JointRoles(
        followers=tuple(followers),
        follower_joints=tuple(follower_joints),
        warnings=tuple(warnings),
        loops=loops,
        loop_gearboxes=gearboxes,
        unexposed=MappingProxyType(_unexposed(robot, loops, gearboxes)),
    )


def _unexposed(robot: Robot, loops: frozenset[str], gearboxes: frozenset[str]) -> dict[str, str]:
    """Movable joints not in ``joint_states`` → why, in document order, given the ``loops``
    and the uncoupled ``gearboxes`` closing a loop (see the module docstring)."""
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


def unexposed_joints(robot: Robot) -> dict[str, str]:
    """Movable joints not in ``joint_states`` → why, in document order (see the module
    docstring): a new dict of :attr:`JointRoles.unexposed` of :func:`joint_roles`.

    Raises:
        TransmissionError: as :func:`joint_roles`.
    """
    return dict(joint_roles(robot).unexposed)


__all__ = ["JointRoles", "joint_roles", "unexposed_joints"]
