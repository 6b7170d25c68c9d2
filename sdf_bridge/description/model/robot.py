"""The robot model: the single source of truth for every other layer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .environment import Environment
from .gazebo import GazeboExtension, Plugin
from .geometry import Material
from .joint import Joint
from .link import Link
from .pose import IDENTITY, Pose
from .ros2_control import HardwareComponent
from .sensor import Sensor
from .source import Skip
from .transmission import Transmission

SDFORMAT_GRAVITY = (0.0, 0.0, -9.8)
"""A world's gravity when its ``<gravity>`` is absent, m/s² (the SDFormat specification's
``world.sdf`` default, which Gazebo simulates)."""


def frozen_mapping(items: Mapping | None = None) -> Mapping:
    """A read-only mapping (insertion order kept) for model fields."""
    return MappingProxyType(dict(items or {}))


@dataclass(frozen=True)
class Robot:
    """A robot (URDF ``<robot>`` or SDFormat ``<model>``), immutable.

    Attributes:
        name: robot or model name.
        links, joints: name → element, in document order (read-only mappings).
        materials: named materials (URDF robot-level ``<material>``).
        transmissions: classic/PR2 top-level transmissions, then those of ``<ros2_control>``
            blocks, in document order.
        ros2_control: the ``<ros2_control>`` blocks.
        sensors: every sensor (URDF, ``<gazebo>`` and SDF), in document order.
        gazebo: ``<gazebo>`` extensions (URDF).
        plugins: model-level ``<plugin>`` elements (SDF, and URDF ``<gazebo><plugin>``).
        format: ``"urdf"`` or ``"sdf"``; ``version`` the SDFormat version string or ``None``.
        source_file: the file it was loaded from, or ``None`` for a string.
        pose: SDFormat model pose in its parent (world) frame; identity for URDF.
        static: SDFormat ``<static>``.
        scenery: the other models of the SDFormat world the robot was selected from (a ground
            plane, walls, …), each at its world ``pose``; simulators make them fixed world
            geometry (:mod:`sdf_bridge.description.world`).
        world: the name of that world, ``None`` for a robot not taken from a world (a world
            has what it says: simulators add no ground plane of their own to it).
        environment: that world's magnetic field and spherical coordinates (SDFormat's
            defaults for a robot not taken from a world).
        gravity: that world's ``<gravity>``, shape (3,), m/s² in the world frame (SDFormat's
            default :data:`SDFORMAT_GRAVITY` when the world gives none, as Gazebo simulates
            it); ``None`` for a robot not taken from a world (URDF, a lone SDFormat
            ``<model>``: the description says nothing, simulators use their own default).
        skipped: the non-essential elements the loader left out, each with file, line and
            reason (:mod:`sdf_bridge.description.contain`), in the order found.
        robots: the robots a simulation of several robots holds, by name, in order
            (:func:`sdf_bridge.description.world.combine`: every element of robot ``r`` is named
            ``r::<name>``); empty for one robot, whose names are its own.
    """

    name: str
    links: Mapping[str, Link] = field(default_factory=frozen_mapping)
    joints: Mapping[str, Joint] = field(default_factory=frozen_mapping)
    materials: Mapping[str, Material] = field(default_factory=frozen_mapping)
    transmissions: tuple[Transmission, ...] = ()
    ros2_control: tuple[HardwareComponent, ...] = ()
    sensors: tuple[Sensor, ...] = ()
    gazebo: tuple[GazeboExtension, ...] = ()
    plugins: tuple[Plugin, ...] = ()
    format: str = "urdf"
    version: str | None = None
    source_file: str | None = None
    pose: Pose = IDENTITY
    static: bool = False
    scenery: tuple["Robot", ...] = ()
    world: str | None = None
    environment: Environment = Environment()
    gravity: tuple[float, float, float] | None = None
    skipped: tuple[Skip, ...] = ()
    robots: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("links", "joints", "materials"):
            value = getattr(self, name)
            if not isinstance(value, MappingProxyType):
                object.__setattr__(self, name, frozen_mapping(value))

    @property
    def root_link(self) -> str:
        """Name of the one link that is no joint's child (validated at load time)."""
        children = {j.child for j in self.joints.values()}
        for name in self.links:
            if name not in children:
                return name
        raise LookupError(f"robot {self.name!r} has no root link")

    @property
    def movable_joints(self) -> tuple[str, ...]:
        """Names of non-fixed joints, document order."""
        return tuple(n for n, j in self.joints.items() if j.type.is_movable)

    def child_joints(self, link: str) -> tuple[Joint, ...]:
        """Joints whose parent is ``link``, document order."""
        return tuple(j for j in self.joints.values() if j.parent == link)

    def parent_joint(self, link: str) -> Joint | None:
        """The joint whose child is ``link``, or ``None`` for the root."""
        for j in self.joints.values():
            if j.child == link:
                return j
        return None


@dataclass(frozen=True)
class World:
    """An SDFormat ``<world>``: ``models`` maps model names to :class:`Robot`;
    ``gravity`` in m/s²; ``environment`` its ``<magnetic_field>`` and
    ``<spherical_coordinates>``; ``source_file`` as for :class:`Robot`."""

    name: str
    models: Mapping[str, Robot] = field(default_factory=frozen_mapping)
    gravity: tuple[float, float, float] = SDFORMAT_GRAVITY
    plugins: tuple[Plugin, ...] = ()
    version: str | None = None
    source_file: str | None = None
    environment: Environment = Environment()

    def __post_init__(self) -> None:
        if not isinstance(self.models, MappingProxyType):
            object.__setattr__(self, "models", frozen_mapping(self.models))
