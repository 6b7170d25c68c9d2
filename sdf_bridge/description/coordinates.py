"""Joint coordinates: the one-value names the bridge publishes and commands.

A joint with one freedom (revolute, continuous, prismatic, screw, gearbox) is one coordinate
named like the joint. A joint with several rotational freedoms is one coordinate per freedom,
named ``<joint>/<suffix>``, each with one position, velocity and effort in ``joint_states``
and in commands:

* ``universal`` and ``revolute2``: ``<joint>/axis1`` about SDFormat ``<axis>`` and
  ``<joint>/axis2`` about ``<axis2>`` (its ``<limit>`` and ``<dynamics>`` apply to that axis;
  an absent ``<axis2>`` is SDFormat's default, ``<xyz>0 0 1</xyz>`` without limits, as Gazebo
  reads it). The rotation of the child in the
  joint frame is ``R = rot(axis1, q1) · rot(axis2, q2)`` (axis2 is carried by axis1), as
  Gazebo's ``GetAngle(0)``/``GetAngle(1)``; the effort of a coordinate is the torque about its
  axis (Gazebo's ``SetForce(index)``: index 0 = axis1, 1 = axis2).
* ``ball``: ``<joint>/roll``, ``<joint>/pitch``, ``<joint>/yaw`` (:data:`BALL_SUFFIXES`, index
  order roll, pitch, yaw; as a chain of hinges from the parent, yaw first, then pitch, then
  roll: :data:`BALL_CHAIN`), the URDF / tf2 roll-pitch-yaw of the child's joint frame in the
  parent's joint frame, ``R = Rz(yaw) · Ry(pitch) · Rx(roll)``, continuous, not wrapped (a ball
  turning on keeps counting, through gimbal lock too: :func:`ball_angles`). Velocities are the
  angles' time derivatives, efforts their conjugate generalised forces ``τ_rpy = Jᵀ · τ`` of
  the torque ``τ`` in the child's joint axes (:func:`ball_rate_matrix`). The physics stays a
  ball (MuJoCo's native ball joint, a quaternion): the angles are computed from it and never
  enter the physics, so only the published coordinates are singular at pitch = ±π/2, never the
  motion (three hinges, one per angle, lock there: a free ball pendulum swinging through it
  gained 423 J where the native joint keeps its energy within 0.0093 J). Each ball coordinate is
  described as a ``continuous`` joint about x, y or z with the ball's ``<limit>`` effort and
  velocity and its damping (a ``revolute`` one, its commands limited, where the ``<limit>``
  gives lower and upper; MuJoCo's ball has no stop per angle).

Every layer that needs a joint by coordinate name (limits, backends, the summary) asks
:func:`coordinate_joint`, which returns a one-freedom :class:`Joint` record of the coordinate, so
that the rules written for one-freedom joints apply unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from .model import Axis, Dynamics, Joint, JointType, Limit, Mimic, Robot
from .model.pose import matrix_to_rpy

SEPARATOR = "/"
"""Between a multi-axis joint's name and its axis suffix (``shoulder/axis2``)."""

TWO_AXIS_SUFFIXES = ("axis1", "axis2")
"""Coordinates of universal and revolute2 joints, SetForce index order."""

BALL_SUFFIXES = ("roll", "pitch", "yaw")
"""Coordinates of ball joints, index order (that of :func:`ball_angles` and
:func:`ball_rate_matrix`): ``R = Rz(yaw) · Ry(pitch) · Rx(roll)``."""

BALL_CHAIN = ("yaw", "pitch", "roll")
"""The ball coordinates in chain order: hinges about z, then y′, then x″, parent to child, make
the ball's rotation ``R = Rz(yaw) · Ry(pitch) · Rx(roll)`` (for a kinematic view as hinges)."""

BALL_AXES = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
"""The joint-frame axis of each ball coordinate (roll x, pitch y, yaw z) at the zero angles."""

SDF_DEFAULT_AXIS2 = (0.0, 0.0, 1.0)
"""SDFormat's default ``<axis2><xyz>`` (``joint.sdf`` of every SDFormat version: ``0 0 1``)."""

_SUFFIXES = {
    JointType.UNIVERSAL: TWO_AXIS_SUFFIXES,
    JointType.REVOLUTE2: TWO_AXIS_SUFFIXES,
    JointType.BALL: BALL_SUFFIXES,
}

MULTI_AXIS_TYPES = frozenset(_SUFFIXES)
"""Joint types exposed as several coordinates."""


@dataclass(frozen=True)
class Coordinate:
    """One coordinate of a joint.

    Attributes:
        name: the coordinate name (the joint's own name for one-freedom joints).
        joint: the description joint's name.
        index: the freedom's index in the joint (Gazebo's ``SetForce(index)``; 0 for
            one-freedom joints).
    """

    name: str
    joint: str
    index: int


def axis_suffixes(joint: Joint) -> tuple[str, ...]:
    """The coordinate suffixes of a multi-axis ``joint`` in index order; ``()`` for others."""
    return _SUFFIXES.get(joint.type, ())


def coordinate_names(joint: Joint) -> tuple[str, ...]:
    """The coordinate names of a multi-axis ``joint`` (``<joint>/axis1``, …, index order);
    ``(joint.name,)`` for every other joint."""
    suffixes = axis_suffixes(joint)
    if not suffixes:
        return (joint.name,)
    return tuple(f"{joint.name}{SEPARATOR}{s}" for s in suffixes)


def convention(joint: Joint) -> str:
    """One line stating what the coordinates of a multi-axis ``joint`` mean (``sdf-bridge
    check`` prints it); ``""`` for other joints."""
    names = coordinate_names(joint)
    if joint.type is JointType.BALL:
        return (
            f"{joint.type} joint as {', '.join(names)}: R = Rz(yaw)·Ry(pitch)·Rx(roll) of the "
            "child in the joint frame (URDF rpy, continuous), no position limits, free while "
            "not commanded"
        )
    if joint.type in MULTI_AXIS_TYPES:
        return (
            f"{joint.type} joint as {names[0]} (about <axis>) and {names[1]} (about <axis2>, "
            "carried by axis1), each with its own limits and dynamics, free while not commanded"
        )
    return ""


def mimic_leader(robot: Robot, mimic: Mimic) -> str | None:
    """The coordinate a ``<mimic>`` follows: of a universal or revolute2 leader, the axis its
    SDFormat 1.11 ``axis`` attribute names (``<leader>/axis1`` for ``"axis"``,
    ``<leader>/axis2`` for ``"axis2"``); of any other joint, the joint itself (``axis`` is not
    read); ``None`` when the leader does not exist."""
    leader = robot.joints.get(mimic.joint)
    if leader is None:
        return None
    if leader.type in (JointType.UNIVERSAL, JointType.REVOLUTE2):
        return coordinate_names(leader)[1 if mimic.axis == "axis2" else 0]
    return leader.name


FREE_WHEN_IDLE_TYPES = MULTI_AXIS_TYPES | {JointType.GEARBOX}
"""Joint types whose coordinates are free, not held, while no command drives them: joints the
bridge left undriven before it exposed them (every angle of a ball joint — a caster —, every
axis of a universal or revolute2 joint, an uncoupled gearbox), as Gazebo leaves a joint no
plug-in drives."""


def _joint_type_of(robot: Robot, name: str) -> JointType | None:
    """The type of the joint coordinate ``name`` belongs to; ``None`` when it is none."""
    coord = find_coordinate(robot, name)
    return None if coord is None else robot.joints[coord.joint].type


def free_when_idle(robot: Robot, name: str) -> bool:
    """Whether coordinate ``name`` is free while idle (:data:`FREE_WHEN_IDLE_TYPES`); every
    other joint holds its position (:mod:`sdf_bridge.hardware.holds`)."""
    return _joint_type_of(robot, name) in FREE_WHEN_IDLE_TYPES


def is_ball_coordinate(robot: Robot, name: str) -> bool:
    """Whether ``name`` is one of a ball joint's angles (``<joint>/roll|pitch|yaw``)."""
    return _joint_type_of(robot, name) is JointType.BALL


def find_coordinate(robot: Robot, name: str) -> Coordinate | None:
    """The coordinate ``name`` of ``robot``: a joint of that name (index 0), or
    ``<joint>/<suffix>`` of a multi-axis joint; ``None`` when there is none. A joint whose own
    name contains ``/`` wins over a coordinate spelled the same way."""
    if name in robot.joints:
        return Coordinate(name, name, 0)
    joint_name, sep, suffix = name.rpartition(SEPARATOR)
    joint = robot.joints.get(joint_name) if sep else None
    if joint is None:
        return None
    suffixes = axis_suffixes(joint)
    if suffix not in suffixes:
        return None
    return Coordinate(name, joint_name, suffixes.index(suffix))


def coordinate_joint(robot: Robot, name: str) -> Joint | None:
    """The one-freedom :class:`Joint` record of coordinate ``name`` (see the module
    docstring), ``None`` when ``robot`` has no such coordinate.

    A joint's own name returns the joint itself. A coordinate of a universal / revolute2
    joint returns a ``revolute`` joint named like the coordinate, between the same links, with
    that axis, its ``<limit>`` and ``<dynamics>`` (``limit2``/``dynamics2`` for axis2); a ball
    coordinate a ``continuous`` joint about x, y or z (:data:`BALL_AXES`) with the ball's
    ``<limit>`` (effort, velocity, and lower and upper: then a ``revolute`` record, its
    commands limited, though the physics has no stop per angle) and its damping. The record
    describes the freedom for limits and reports; its ``origin`` is the joint's, not
    a kinematic frame of the coordinate.
    """
    coord = find_coordinate(robot, name)
    if coord is None:
        return None
    joint = robot.joints[coord.joint]
    if coord.name == joint.name:
        return joint
    if joint.type is JointType.BALL:
        given = joint.limit
        limit = None
        if given is not None:  # (no stop stiffness: the ball has no stops per angle)
            limit = Limit(given.lower, given.upper, given.effort, given.velocity)
        bounded = limit is not None and limit.lower is not None and limit.upper is not None
        damping = 0.0 if joint.dynamics is None else joint.dynamics.damping
        return replace(
            joint,
            name=coord.name,
            type=JointType.REVOLUTE if bounded else JointType.CONTINUOUS,
            axis=Axis(BALL_AXES[coord.index]),
            limit=limit,
            dynamics=None if joint.dynamics is None else Dynamics(damping=damping),
            axis2=None,
            limit2=None,
            dynamics2=None,
            mimic=None,
        )
    if coord.index == 0:
        axis, limit, dynamics = joint.axis, joint.limit, joint.dynamics
    else:
        axis = joint.axis2 if joint.axis2 is not None else Axis(SDF_DEFAULT_AXIS2)
        limit, dynamics = joint.limit2, joint.dynamics2
    return replace(
        joint,
        name=coord.name,
        type=JointType.REVOLUTE,
        axis=axis,
        limit=limit,
        dynamics=dynamics,
        axis2=None,
        limit2=None,
        dynamics2=None,
        mimic=None,
    )


def ball_angles(previous: Sequence[float], rot: np.ndarray) -> tuple[float, float, float]:
    """The ball coordinates (roll, pitch, yaw), rad, of the rotation ``rot`` (3, 3) that are
    nearest ``previous`` (the angles published last): continuous along a continuous motion,
    through gimbal lock included (pitch then leaves [−π/2, π/2] rather than roll and yaw
    jumping by π), as a ball joint's coordinates are published (module docstring:
    ``R = Rz(yaw) · Ry(pitch) · Rx(roll)``, not wrapped).

    Of the two roll-pitch-yaw solutions of ``rot``, (r, p, y) and (r + π, π − p, y + π), each
    angle shifted by the multiple of 2π nearest ``previous``, the one nearest ``previous``
    (Euclidean). At exact lock (``rot[2, 1] == rot[2, 2] == 0``: only y − r, or y + r at
    pitch −π/2, is defined) that sum is split nearest ``previous``. ``rpy_to_matrix`` of the
    result is ``rot`` to rounding (a quaternion-based backend publishes its ball joints so).

    Raises:
        ValueError: ``previous`` is not 3 finite numbers or ``rot`` not a finite (3, 3) array.
    """
    prev = np.asarray(previous, dtype=float)
    mat = np.asarray(rot, dtype=float)
    if prev.shape != (3,) or not np.isfinite(prev).all():
        raise ValueError(f"previous ball angles must be 3 finite numbers (rad); got {previous!r}")
    if mat.shape != (3, 3) or not np.isfinite(mat).all():
        raise ValueError(f"a ball rotation must be a finite (3, 3) matrix; got shape {mat.shape}")
    roll, pitch, yaw = matrix_to_rpy(mat)
    if mat[2, 1] == 0.0 and mat[2, 2] == 0.0:  # exact lock: roll is 0, yaw holds y ∓ r
        sign = 1.0 if pitch > 0.0 else -1.0  # R depends on y − r (p = π/2) or y + r (−π/2)
        yaw += 2.0 * math.pi * round((prev[2] - sign * prev[0] - yaw) / (2.0 * math.pi))
        roll = (prev[0] + sign * (prev[2] - yaw)) / 2.0
        return (roll, pitch, yaw + sign * roll)
    best: np.ndarray | None = None
    for cand in (
        np.array([roll, pitch, yaw]),
        np.array([roll + math.pi, math.pi - pitch, yaw + math.pi]),
    ):
        cand = cand + 2.0 * math.pi * np.round((prev - cand) / (2.0 * math.pi))
        if best is None or float((cand - prev) @ (cand - prev)) < float(
            (best - prev) @ (best - prev)
        ):
            best = cand
    assert best is not None
    return (float(best[0]), float(best[1]), float(best[2]))


def ball_rate_matrix(roll: float, pitch: float) -> np.ndarray:
    """The (3, 3) matrix ``J`` with ``ω = J · (roll', pitch', yaw')``: the angular velocity of
    the child's joint frame in its own axes (a ball joint's physical velocity, MuJoCo's ball
    ``qvel``) from the ball coordinates' rates. The coordinates' efforts are ``Jᵀ · τ`` of
    the torque ``τ`` in those axes (power ``τ · ω``). ``det J = cos(pitch)``: singular at
    gimbal lock, in the angles only (never in the native joint's physics)."""
    sr, cr, sp, cp = math.sin(roll), math.cos(roll), math.sin(pitch), math.cos(pitch)
    return np.array([[1.0, 0.0, -sp], [0.0, cr, sr * cp], [0.0, -sr, cr * cp]])


__all__ = [
    "BALL_AXES",
    "BALL_CHAIN",
    "BALL_SUFFIXES",
    "Coordinate",
    "MULTI_AXIS_TYPES",
    "SDF_DEFAULT_AXIS2",
    "SEPARATOR",
    "TWO_AXIS_SUFFIXES",
    "axis_suffixes",
    "ball_angles",
    "ball_rate_matrix",
    "convention",
    "coordinate_joint",
    "coordinate_names",
    "FREE_WHEN_IDLE_TYPES",
    "find_coordinate",
    "free_when_idle",
    "mimic_leader",
]
