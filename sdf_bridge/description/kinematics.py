"""Forward kinematics of a :class:`~sdf_bridge.description.model.Robot` at given joint positions.

Each link's pose in the root (model) frame is the product along the tree path of, per joint::

    T_parent_child = origin · motion(q) · joint_to_child

where ``motion(q)`` is a rotation of ``q`` rad about the unit axis (revolute, continuous, and the
rotation of screw and gearbox joints), a translation of ``q`` m along the axis (prismatic), and
the identity for fixed joints and for multi-DOF joints (floating, planar, ball, universal,
revolute2), which are evaluated at their zero configuration. Screw joints contribute only their
rotation here (their coupled translation depends on the thread-pitch convention and is not
applied). For URDF ``joint_to_child`` is the identity (URDF convention: child frame = joint frame).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence

import numpy as np

from .model import Joint, JointType, Robot
from .model.pose import axis_angle_matrix

_ROTATING = frozenset(
    {JointType.REVOLUTE, JointType.CONTINUOUS, JointType.SCREW, JointType.GEARBOX}
)

_EMPTY: Mapping[str, float] = {}


def screw_lead(joint: Joint) -> float | None:
    """Translation per rotation of a screw ``joint`` along its axis, m/rad (the multiplier of
    its translation :func:`screw_translation_name`); ``None`` when it has no thread pitch or a
    legacy pitch of 0 rad/m (no translation per turn is defined).

    ``m/rev`` (SDFormat ≥ 1.10 ``<screw_thread_pitch>`` p): ``p / 2π`` (right-handed positive).
    ``rad/m`` (legacy ``<thread_pitch>`` p, Gazebo classic): ``−1 / p`` (SDFormat:
    ``screw_thread_pitch = −2π / thread_pitch``).
    """
    pitch = joint.thread_pitch
    if pitch is None:
        return None
    if joint.thread_pitch_unit == "rad/m":
        return None if pitch == 0.0 else -1.0 / float(pitch)
    return float(pitch) / (2.0 * math.pi)


def screw_translation_name(joint: str) -> str:
    """The name of screw joint ``joint``'s axial translation (m): ``<joint>/translation``, a
    state the bridge publishes (:mod:`sdf_bridge.transmissions.coupling`) and the prismatic
    joint of the screw's URDF chain."""
    return f"{joint}/translation"


def joint_motion(joint: Joint, position: float) -> np.ndarray:
    """The (4, 4) motion transform of ``joint`` at ``position`` (rad or m).

    Revolute, continuous, screw and gearbox: rotation of ``position`` rad about ``joint.axis``
    (Rodrigues' formula). Prismatic: translation of ``position`` m along ``joint.axis``. Every
    other type: identity. A joint without an axis uses URDF's default (1, 0, 0).
    """
    motion = np.eye(4)
    if position == 0.0:
        return motion
    axis = joint.axis.xyz if joint.axis is not None else (1.0, 0.0, 0.0)
    if joint.type in _ROTATING:
        motion[:3, :3] = axis_angle_matrix(axis, position)
    elif joint.type is JointType.PRISMATIC:
        motion[:3, 3] = np.asarray(axis, dtype=float) * position
    return motion


def joint_transform(joint: Joint, position: float = 0.0) -> np.ndarray:
    """The (4, 4) transform parent link frame → child link frame at ``position``:
    ``origin · motion(position) · joint_to_child``."""
    t = joint.origin.matrix()
    if position != 0.0:
        t = t @ joint_motion(joint, position)
    if not joint.joint_to_child.is_identity:
        t = t @ joint.joint_to_child.matrix()
    return t


def link_transforms(robot: Robot, positions: Mapping[str, float] = _EMPTY) -> dict[str, np.ndarray]:
    """Each link's pose in the root-link (model) frame at the given joint positions.

    Args:
        robot: a validated robot (one tree).
        positions: joint name → position (rad or m); missing joints are at 0. Names that are not
            joints of ``robot`` are ignored.

    Returns:
        link name → homogeneous transform of shape (4, 4), root link = identity. Links not
        reachable from the root (impossible after validation) are omitted.
    """
    children: dict[str, list[Joint]] = {}
    child_links = set()
    for joint in robot.joints.values():
        children.setdefault(joint.parent, []).append(joint)
        child_links.add(joint.child)
    result: dict[str, np.ndarray] = {}
    roots = [name for name in robot.links if name not in child_links]
    stack = [(root, np.eye(4)) for root in reversed(roots)]
    while stack:
        link, pose = stack.pop()
        if link in result:
            continue
        result[link] = pose
        for joint in reversed(children.get(link, ())):
            q = float(positions.get(joint.name, 0.0))
            stack.append((joint.child, pose @ joint_transform(joint, q)))
    return result


def tree_edges(robot: Robot) -> tuple[list[tuple[str, Joint | None]], list[Joint]]:
    """Links parent-before-child with the joint that attaches each (``None`` for roots: links
    that are no joint's child), and the joints left over that close a loop.

    Non-gearbox joints are preferred as tree edges, so that an SDFormat gearbox joining two
    links already attached to its reference body closes a loop (becomes a constraint). A URDF
    is one tree: nothing is left over; SDFormat models may close loops (libsdformat accepts a
    link that is the child of several joints).

    The order is that of passes over the joints in their order, each placing a joint whose
    parent is placed and child is not (gearboxes only once no other joint can be placed),
    computed in O(n log n) with a heap of ``(pass, index)``: a joint becomes ready when its
    parent is placed, in the same pass when it comes later in the joints' order, else in the
    next one (repeated passes with list removals were O(n²): seconds at 10,000 joints).
    """
    joints = list(robot.joints.values())
    children = {j.child for j in joints}
    order: list[tuple[str, Joint | None]] = [
        (name, None) for name in robot.links if name not in children
    ]
    placed = {name for name, _ in order}
    by_parent: dict[str, list[int]] = {}
    for index, joint in enumerate(joints):
        by_parent.setdefault(joint.parent, []).append(index)
    used = [False] * len(joints)
    for allow_gearbox in (False, True):
        # the first pass of this phase: every joint whose parent is placed already
        ready = [
            (0, index)
            for index, joint in enumerate(joints)
            if not used[index]
            and joint.parent in placed
            and (allow_gearbox or joint.type is not JointType.GEARBOX)
        ]
        heapq.heapify(ready)
        while ready:
            sweep, index = heapq.heappop(ready)
            joint = joints[index]
            if used[index] or joint.child in placed:
                continue  # its child was placed first: it stays over (closes a loop)
            used[index] = True
            order.append((joint.child, joint))
            placed.add(joint.child)
            for later in by_parent.get(joint.child, ()):
                if not used[later] and (
                    allow_gearbox or joints[later].type is not JointType.GEARBOX
                ):
                    heapq.heappush(ready, (sweep if later > index else sweep + 1, later))
    return order, [joint for index, joint in enumerate(joints) if not used[index]]


def loop_joints(robot: Robot, closing: Sequence[Joint] | None = None) -> tuple[str, ...]:
    """Names of the joints that close a kinematic loop and are not gearboxes (:func:`tree_edges`):
    simulators cannot simulate them, so they are neither driven nor published. ``closing``:
    ``tree_edges(robot)[1]`` when the caller has it already (worked out here otherwise)."""
    if closing is None:
        closing = tree_edges(robot)[1]
    return tuple(j.name for j in closing if j.type is not JointType.GEARBOX)
