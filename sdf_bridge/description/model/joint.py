"""Joints and their properties (URDF and SDFormat joint types)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .pose import IDENTITY, Pose, Vec3
from .source import Source


class JointType(str, Enum):
    """Joint types of URDF and SDFormat. Compare with strings freely (``joint.type == "fixed"``)."""

    REVOLUTE = "revolute"
    CONTINUOUS = "continuous"
    PRISMATIC = "prismatic"
    FIXED = "fixed"
    FLOATING = "floating"
    PLANAR = "planar"
    BALL = "ball"
    UNIVERSAL = "universal"
    REVOLUTE2 = "revolute2"
    SCREW = "screw"
    GEARBOX = "gearbox"

    def __str__(self) -> str:
        return self.value

    @property
    def is_movable(self) -> bool:
        """True for every type but ``fixed``."""
        return self is not JointType.FIXED

    @property
    def dof(self) -> int:
        """Degrees of freedom (floating 6, planar 3, ball 3, universal/revolute2 2, fixed 0, else
        1)."""
        return _DOF[self]


_DOF = {
    JointType.REVOLUTE: 1,
    JointType.CONTINUOUS: 1,
    JointType.PRISMATIC: 1,
    JointType.FIXED: 0,
    JointType.FLOATING: 6,
    JointType.PLANAR: 3,
    JointType.BALL: 3,
    JointType.UNIVERSAL: 2,
    JointType.REVOLUTE2: 2,
    JointType.SCREW: 1,
    JointType.GEARBOX: 1,
}


@dataclass(frozen=True)
class Limit:
    """Joint limits. ``None`` means "not given" = not limited (never "limited to 0").

    Attributes:
        lower, upper: position limits (rad or m).
        effort: maximum ``|effort|`` (N·m or N).
        velocity: maximum ``|velocity|`` (rad/s or m/s).
        stiffness, dissipation: SDFormat joint-stop stiffness and dissipation, when given.
    """

    lower: float | None = None
    upper: float | None = None
    effort: float | None = None
    velocity: float | None = None
    stiffness: float | None = None
    dissipation: float | None = None


@dataclass(frozen=True)
class Dynamics:
    """Joint dynamics: ``damping`` (N·m·s/rad or N·s/m), Coulomb ``friction`` (N·m or N),
    SDFormat spring ``spring_reference`` (rad or m) and ``spring_stiffness`` (N·m/rad or N/m)."""

    damping: float = 0.0
    friction: float = 0.0
    spring_reference: float = 0.0
    spring_stiffness: float = 0.0


@dataclass(frozen=True)
class SafetyController:
    """URDF ``<safety_controller>``: soft limits and their gains (ros2_control SoftJointLimits)."""

    k_velocity: float
    soft_lower_limit: float | None = None
    soft_upper_limit: float | None = None
    k_position: float | None = None


@dataclass(frozen=True)
class Calibration:
    """URDF ``<calibration>``: reference positions (rad or m)."""

    rising: float | None = None
    falling: float | None = None
    reference_position: float | None = None


@dataclass(frozen=True)
class Mimic:
    """This joint follows ``joint``: value = multiplier · leader + offset (URDF semantics).

    ``axis`` is SDFormat 1.11's leader axis (``"axis"`` or ``"axis2"``).
    """

    joint: str
    multiplier: float = 1.0
    offset: float = 0.0
    axis: str = "axis"


@dataclass(frozen=True)
class Axis:
    """A joint axis: unit vector ``xyz`` expressed in the joint frame."""

    xyz: Vec3


@dataclass(frozen=True)
class Joint:
    """A joint between ``parent`` and ``child`` links.

    Frames: ``origin`` is the joint frame in the parent link frame (URDF ``<origin>``; DESIGN.md's
    ``parent_to_joint``); ``joint_to_child`` is the child link frame in the joint frame (identity
    for URDF; SDFormat may differ). Axes are unit vectors in the joint frame.

    ``axis2``, ``limit2``, ``dynamics2`` concern the second axis of universal/revolute2 joints.
    Screw joints: ``thread_pitch`` is the value as written and ``thread_pitch_unit`` says which
    SDFormat convention it follows: ``"m/rev"`` (``<screw_thread_pitch>``, SDFormat ≥ 1.10) or
    ``"rad/m"`` (legacy ``<thread_pitch>``, Gazebo classic). Gearbox joints: ``gearbox_ratio``
    and ``gearbox_reference_body`` as written. ``provide_feedback``: SDFormat's
    ``<physics><provide_feedback>`` (the joint's transmitted wrench is published; URDF's
    Gazebo ``provideFeedback`` is read by :func:`~sdf_bridge.description.feedback.feedback_joints`).
    """

    name: str
    type: JointType
    parent: str
    child: str
    origin: Pose = IDENTITY
    joint_to_child: Pose = IDENTITY
    axis: Axis | None = None
    limit: Limit | None = None
    dynamics: Dynamics | None = None
    safety_controller: SafetyController | None = None
    calibration: Calibration | None = None
    mimic: Mimic | None = None
    axis2: Axis | None = None
    limit2: Limit | None = None
    dynamics2: Dynamics | None = None
    initial_position: float | None = None
    thread_pitch: float | None = None
    thread_pitch_unit: str | None = None
    gearbox_ratio: float | None = None
    gearbox_reference_body: str | None = None
    provide_feedback: bool = False
    source: Source | None = None

    @property
    def parent_to_joint(self) -> Pose:
        """Alias of ``origin`` (DESIGN.md's name)."""
        return self.origin
