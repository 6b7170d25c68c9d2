"""Shapes, materials, visuals, collisions and inertia of links (URDF and SDFormat)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .pose import IDENTITY, Pose, Vec3
from .source import Source


@dataclass(frozen=True)
class Box:
    """Box centred on its frame; ``size`` = full edge lengths (x, y, z) in m."""

    size: Vec3


@dataclass(frozen=True)
class Cylinder:
    """Cylinder along its frame's z axis, centred; ``radius`` and ``length`` in m."""

    radius: float
    length: float


@dataclass(frozen=True)
class Sphere:
    """Sphere centred on its frame; ``radius`` in m."""

    radius: float


@dataclass(frozen=True)
class Capsule:
    """Capsule along z (SDFormat ≥ 1.8, URDF extension); ``length`` excludes the caps, in m."""

    radius: float
    length: float


@dataclass(frozen=True)
class Ellipsoid:
    """Ellipsoid with semi-axes ``radii`` (m) along x, y, z (SDFormat ≥ 1.8)."""

    radii: Vec3


@dataclass(frozen=True)
class Plane:
    """Plane through the frame origin with ``normal``; ``size`` (m) of its finite extent."""

    normal: Vec3 = (0.0, 0.0, 1.0)
    size: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Mesh:
    """Mesh file. ``filename`` as written (``package://``, ``model://``, relative, ``file://``);
    ``resolved`` is the absolute path when it could be resolved, else ``None``;
    ``scale`` per axis (unitless)."""

    filename: str
    scale: Vec3 = (1.0, 1.0, 1.0)
    resolved: str | None = None


Geometry = Union[Box, Cylinder, Sphere, Capsule, Ellipsoid, Plane, Mesh]


@dataclass(frozen=True)
class Material:
    """A material: ``color`` RGBA in [0, 1], optional ``texture`` file name."""

    name: str | None = None
    color: tuple[float, float, float, float] | None = None
    texture: str | None = None


@dataclass(frozen=True)
class Visual:
    """A visual element of a link; ``origin`` is relative to the link frame."""

    geometry: Geometry
    origin: Pose = IDENTITY
    name: str | None = None
    material: Material | None = None


@dataclass(frozen=True)
class Collision:
    """A collision element of a link; ``origin`` is relative to the link frame."""

    geometry: Geometry
    origin: Pose = IDENTITY
    name: str | None = None


@dataclass(frozen=True)
class Inertia:
    """Rotational inertia (kg·m²) about the centre of mass, in the inertial frame."""

    ixx: float = 0.0
    ixy: float = 0.0
    ixz: float = 0.0
    iyy: float = 0.0
    iyz: float = 0.0
    izz: float = 0.0


@dataclass(frozen=True)
class Inertial:
    """Mass properties: ``mass`` in kg, centre of mass frame ``origin`` relative to the link."""

    mass: float
    inertia: Inertia = Inertia()
    origin: Pose = IDENTITY
    source: Source | None = None
