"""Links."""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import Collision, Inertial, Visual
from .pose import Pose
from .source import Source


@dataclass(frozen=True)
class Link:
    """A rigid body.

    Attributes:
        name: unique link name (scoped with ``::`` for nested SDF models).
        inertial: mass properties, or ``None`` when the description gives none.
        visuals, collisions: shapes in the link frame.
        pose: SDFormat only: pose of the link frame in the model frame at the zero configuration
            (``None`` for URDF, where link frames follow from joint origins).
        gravity: whether gravity acts on the link (SDFormat ``<gravity>``; URDF: a
            ``<gazebo reference>`` with ``<turnGravityOff>true`` or ``<gravity>false``, as
            Gazebo reads it: the PR2's counterbalanced arms).
        source: where the element was read.
    """

    name: str
    inertial: Inertial | None = None
    visuals: tuple[Visual, ...] = ()
    collisions: tuple[Collision, ...] = ()
    pose: Pose | None = None
    gravity: bool = True
    source: Source | None = None
