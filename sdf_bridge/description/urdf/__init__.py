"""The URDF ``<robot>`` loader: one pass over the document into a :class:`Robot`.

Covers the whole URDF specification (https://wiki.ros.org/urdf/XML): links with inertial, visual
and collision elements (box, cylinder, sphere, mesh; capsule as an extension), robot-level
materials referenced by name, joints of every URDF type with origin, axis, limit, dynamics,
safety_controller, calibration and mimic. ``<transmission>``, ``<ros2_control>``, top-level
``<sensor>`` and ``<gazebo>`` are handed to their element parsers. Tags this loader does not know
are reported as warnings and skipped, never fatal.

Contained per element (:mod:`.contain`): links, joints and their required attributes are the
kinematic tree and refuse the robot when faulty; a faulty inertial, visual, collision,
robot-level material, transmission, ``<ros2_control>`` block, sensor or ``<gazebo>`` extension
is skipped with one warning (file, line, why) and recorded on ``Robot.skipped``.

Departures from urdfdom, on purpose:

* absent ``<limit>`` attributes stay ``None`` ("not limited"), never 0 (urdfdom's 0 would
  freeze the joint);
* axes are normalised, and a zero axis on a movable joint is an error (no direction to move in);
* a revolute/prismatic joint without ``<limit>`` (or without ``effort``/``velocity``) loads with
  a warning instead of failing; it is then unlimited;
* a negative ``effort``/``velocity`` limit (urdfdom keeps it) is read as no limit, as SDFormat
  defines a negative one (``-1``), with a warning.

As urdfdom (and libsdformat's URDF reader): a revolute/prismatic ``<limit>`` without ``lower``
or ``upper`` has that bound at 0 (with a warning), so ``<limit effort velocity/>`` locks the joint
at [0, 0]; a ``<geometry>`` with several shapes is read as its first (with a warning).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import replace

from lxml import etree

from ...errors import DuplicateNameError, InvalidValueError, UnsupportedError
from ..contain import contained, prune, skip
from ..model import (
    Axis,
    Calibration,
    Collision,
    Dynamics,
    GazeboExtension,
    HardwareComponent,
    Inertia,
    Inertial,
    Joint,
    JointType,
    Limit,
    Link,
    Material,
    Mimic,
    Plugin,
    Pose,
    Robot,
    SafetyController,
    Sensor,
    Transmission,
    Visual,
)
from ..model.geometry import Geometry
from ..model.pose import IDENTITY
from ..resolve import PackagePaths
from ..ros2_control_parser import parse_ros2_control
from ..transmission.dialects import parse_transmission
from ..xmlio import ParseContext
from .gazebo import attach_sensor, gravity_off, parse_gazebo
from .sensor import parse_robot_sensor
from .shapes import ShapeReading

#: URDF joint types (urdfdom's set).
URDF_JOINT_TYPES: Mapping[str, JointType] = {
    t.value: t
    for t in (
        JointType.REVOLUTE,
        JointType.CONTINUOUS,
        JointType.PRISMATIC,
        JointType.FIXED,
        JointType.FLOATING,
        JointType.PLANAR,
    )
}

#: Joint types whose axis is meaningful (planar: the plane normal).
_AXIS_TYPES = frozenset(
    {JointType.REVOLUTE, JointType.CONTINUOUS, JointType.PRISMATIC, JointType.PLANAR}
)
_LIMIT_REQUIRED = frozenset({JointType.REVOLUTE, JointType.PRISMATIC})
_DEFAULT_AXIS = Axis((1.0, 0.0, 0.0))
#: Top-level elements of ``<robot>`` this loader reads; others are warned about.
_TOP_LEVEL = frozenset(
    {"material", "link", "joint", "transmission", "ros2_control", "sensor", "gazebo"}
)
#: Child tags each URDF element accepts (an unknown tag close to one of these is a misspelling).
_INERTIAL_TAGS = frozenset({"origin", "mass", "inertia"})
_SHAPE_TAGS = {
    "visual": frozenset({"origin", "geometry", "material"}),
    "collision": frozenset({"origin", "geometry", "verbose", "contact_coefficients"}),
}
_LINK_TAGS = frozenset({"visual", "collision", "inertial"})
_JOINT_TAGS = frozenset(
    {
        "parent",
        "child",
        "origin",
        "axis",
        "limit",
        "dynamics",
        "safety_controller",
        "calibration",
        "mimic",
    }
)
_ZERO3 = (0.0, 0.0, 0.0)


class _Reader(ShapeReading):
    """Parses one URDF document; holds the context and the robot-level state."""

    def __init__(
        self, ctx: ParseContext, base_dir: str | None, package_paths: PackagePaths | None
    ) -> None:
        self.ctx = ctx
        self.base_dir = base_dir
        self.package_paths = package_paths
        self.materials: dict[str, Material] = {}
        self.resolved: dict[str, str | None] = {}  # mesh filename → resolved path (files repeat)
        self.packages: dict = {}  # package → directory, memo for resolve_uri
        self.unresolved: set[str] = set()  # warnings already given about unresolved mesh paths

    # -- small value helpers ------------------------------------------------------------------

    def vec3(
        self, elem: etree._Element, attr: str, default: tuple[float, float, float]
    ) -> tuple[float, float, float]:
        """Attribute ``attr`` as three floats, ``default`` when absent."""
        text = elem.get(attr)
        if text is None:
            return default
        parts = text.split()
        if len(parts) == 3:
            try:
                x, y, z = float(parts[0]), float(parts[1]), float(parts[2])
            except ValueError:
                pass
            else:
                if math.isfinite(x) and math.isfinite(y) and math.isfinite(z):
                    return (x, y, z)
        raise self.ctx.error(
            InvalidValueError,
            elem,
            f"attribute {attr!r} is {text!r}: expected 3 finite numbers",
            f'write {attr}="x y z" with three space-separated decimal numbers',
        )

    def number(self, elem: etree._Element, attr: str) -> float | None:
        """Attribute ``attr`` as a finite float, ``None`` when absent."""
        text = elem.get(attr)
        if text is None:
            return None
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if math.isfinite(value):
            return value
        return self.ctx.to_float(elem, text, f"attribute {attr!r}")  # raises InvalidValueError

    def required_number(self, elem: etree._Element, attr: str) -> float:
        """Attribute ``attr`` as a finite float; an error when absent."""
        value = self.number(elem, attr)
        if value is None:
            raise self.ctx.error(
                InvalidValueError,
                elem,
                f"attribute {attr!r} is missing",
                f'add {attr}="..." to the element',
            )
        return value

    def size(self, elem: etree._Element, attr: str) -> float:
        """Attribute ``attr`` as a finite length ≥ 0 m; an error when absent or negative."""
        value = self.required_number(elem, attr)
        if value < 0.0:
            raise self.ctx.error(
                InvalidValueError,
                elem,
                f"attribute {attr!r} is {value:g}, negative",
                f"give a {attr} >= 0 m",
            )
        return value

    def name(self, elem: etree._Element, what: str) -> str:
        """The non-empty ``name`` attribute of ``elem``."""
        name = elem.get("name")
        if name is None or not name.strip():
            raise self.ctx.error(
                InvalidValueError,
                elem,
                f"{what} has no name",
                f'give the {what} a unique name="..." attribute',
            )
        return name

    def origin(self, elem: etree._Element | None) -> Pose:
        """The pose of an ``<origin>`` element (identity when ``None``)."""
        if elem is None:
            return IDENTITY
        xyz = self.vec3(elem, "xyz", _ZERO3)
        rpy = self.vec3(elem, "rpy", _ZERO3)
        if xyz == _ZERO3 and rpy == _ZERO3:
            return IDENTITY
        return Pose(xyz, rpy)

    def unknown(self, elem: etree._Element, parent: etree._Element, known: frozenset[str]) -> None:
        """A tag this loader does not read: an error when it is a misspelling of one of
        ``known`` (the tags ``parent`` accepts), else a warning.

        Raises:
            InvalidValueError: ``elem``'s tag is a close match of a tag in ``known``.
        """
        self.ctx.unknown_element(elem, parent, known)

    # -- links --------------------------------------------------------------------------------

    def inertial(self, elem: etree._Element) -> Inertial:
        """An ``<inertial>``: mass (kg), inertia (kg·m²) and its origin."""
        origin = IDENTITY
        mass = None
        inertia = None
        for child in elem:
            tag = child.tag
            if tag == "origin":
                origin = self.origin(child)
            elif tag == "mass":
                mass = self.required_number(child, "value")
            elif tag == "inertia":
                inertia = Inertia(
                    *(
                        self.required_number(child, a)
                        for a in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
                    )
                )
            elif isinstance(tag, str):
                self.unknown(child, elem, _INERTIAL_TAGS)
        if mass is None:
            raise self.ctx.error(
                InvalidValueError, elem, "<inertial> has no <mass>", 'add <mass value="..."/>'
            )
        if mass < 0.0:
            raise self.ctx.error(
                InvalidValueError, elem, f"mass is {mass}, negative", "give a mass ≥ 0 kg"
            )
        if inertia is None:
            raise self.ctx.error(
                InvalidValueError,
                elem,
                "<inertial> has no <inertia>",
                'add <inertia ixx="" ixy="" ixz="" iyy="" iyz="" izz=""/>',
            )
        return Inertial(mass=mass, inertia=inertia, origin=origin, source=self.ctx.source(elem))

    def shape_element(
        self, elem: etree._Element, kind: str
    ) -> tuple[Geometry, Pose, Material | None]:
        """Geometry, origin and material (visual only) of a ``<visual>``/``<collision>``."""
        origin = IDENTITY
        geometry = None
        material = None
        for child in elem:
            tag = child.tag
            if tag == "origin":
                origin = self.origin(child)
            elif tag == "geometry":
                geometry = self.geometry(child)
            elif tag == "material" and kind == "visual":
                material = self.material(child, robot_level=False)
            elif isinstance(tag, str) and not (
                kind == "collision" and tag in ("verbose", "contact_coefficients")
            ):
                self.unknown(child, elem, _SHAPE_TAGS[kind])
        if geometry is None:
            raise self.ctx.error(
                InvalidValueError,
                elem,
                f"<{kind}> has no <geometry>",
                f"add a <geometry> to the <{kind}>",
            )
        return geometry, origin, material

    def link(self, elem: etree._Element) -> Link:
        """A ``<link>``."""
        name = self.name(elem, "link")
        inertial = None
        visuals: list[Visual] = []
        collisions: list[Collision] = []
        for child in elem:
            tag = child.tag
            if tag in ("visual", "collision"):
                shape = contained(
                    self.ctx,
                    child,
                    tag,
                    lambda c=child, t=tag: self.shape_element(c, t),
                    name=child.get("name") or name,
                )
                if shape is None:
                    continue
                geometry, origin, material = shape
                if tag == "visual":
                    visuals.append(
                        Visual(
                            geometry=geometry,
                            origin=origin,
                            name=child.get("name"),
                            material=material,
                        )
                    )
                else:
                    collisions.append(
                        Collision(geometry=geometry, origin=origin, name=child.get("name"))
                    )
            elif tag == "inertial":  # a faulty one: the link is massless (urdfdom logs, goes on)
                inertial = contained(
                    self.ctx, child, "inertial", lambda c=child: self.inertial(c), name=name
                )
            elif isinstance(tag, str):
                self.unknown(child, elem, _LINK_TAGS)
        return Link(
            name=name,
            inertial=inertial,
            visuals=tuple(visuals),
            collisions=tuple(collisions),
            source=self.ctx.source(elem),
        )

    # -- joints -------------------------------------------------------------------------------

    def axis(self, elem: etree._Element, joint_name: str) -> Axis:
        """A normalised ``<axis xyz>`` (default (1, 0, 0) when the attribute is absent)."""
        x, y, z = self.vec3(elem, "xyz", (1.0, 0.0, 0.0))
        norm = math.sqrt(x * x + y * y + z * z)
        if norm == 0.0:
            raise self.ctx.error(
                InvalidValueError,
                elem,
                f"joint {joint_name!r} has a zero axis (0, 0, 0)",
                f'give joint {joint_name!r} a non-zero <axis xyz>, e.g. "0 0 1"',
            )
        if norm == 1.0:
            return Axis((x, y, z))
        return Axis((x / norm, y / norm, z / norm))

    def limit(self, elem: etree._Element) -> Limit:
        """A ``<limit>``; absent attributes stay ``None`` (not limited)."""
        limit = Limit(
            lower=self.number(elem, "lower"),
            upper=self.number(elem, "upper"),
            effort=self.number(elem, "effort"),
            velocity=self.number(elem, "velocity"),
        )
        for attr in ("effort", "velocity"):
            value = getattr(limit, attr)
            if value is not None and value < 0.0:  # urdfdom keeps it; SDFormat: negative = none
                skip(
                    self.ctx,
                    elem,
                    f"{attr} limit",
                    elem.getparent().get("name") if elem.getparent() is not None else None,
                    f"{attr} limit is {value:g}, negative: read as no {attr} limit (as SDFormat "
                    f"reads a negative one). Fix: give a {attr} limit >= 0, or leave it out",
                )
                limit = replace(limit, **{attr: None})
        return limit

    def joint(self, elem: etree._Element) -> Joint:
        """A ``<joint>``."""
        name = self.name(elem, "joint")
        type_text = elem.get("type")
        joint_type = URDF_JOINT_TYPES.get(type_text or "")
        if joint_type is None:
            raise self.ctx.error(
                InvalidValueError,
                elem,
                f"joint type is {type_text!r}",
                "use one of " + ", ".join(URDF_JOINT_TYPES),
            )
        parent = child = None
        origin = IDENTITY
        axis_elem = None
        limit = dynamics = safety = calibration = mimic = None
        limit_elem = None
        for sub in elem:
            tag = sub.tag
            if tag == "parent":
                parent = sub.get("link")
                if not parent:
                    raise self.ctx.error(
                        InvalidValueError, sub, "<parent> has no link", 'write <parent link="..."/>'
                    )
            elif tag == "child":
                child = sub.get("link")
                if not child:
                    raise self.ctx.error(
                        InvalidValueError, sub, "<child> has no link", 'write <child link="..."/>'
                    )
            elif tag == "origin":
                origin = self.origin(sub)
            elif tag == "axis":
                axis_elem = sub
            elif tag == "limit":
                limit = self.limit(sub)
                limit_elem = sub
            elif tag == "dynamics":
                dynamics = Dynamics(
                    damping=self.number(sub, "damping") or 0.0,
                    friction=self.number(sub, "friction") or 0.0,
                )
            elif tag == "safety_controller":
                safety = SafetyController(
                    k_velocity=self.required_number(sub, "k_velocity"),
                    soft_lower_limit=self.number(sub, "soft_lower_limit"),
                    soft_upper_limit=self.number(sub, "soft_upper_limit"),
                    k_position=self.number(sub, "k_position"),
                )
            elif tag == "calibration":
                calibration = Calibration(
                    rising=self.number(sub, "rising"),
                    falling=self.number(sub, "falling"),
                    reference_position=self.number(sub, "reference_position"),
                )
            elif tag == "mimic":
                leader = sub.get("joint")
                if not leader:
                    raise self.ctx.error(
                        InvalidValueError,
                        sub,
                        "<mimic> names no joint",
                        'write <mimic joint="leader_joint"/>',
                    )
                multiplier = self.number(sub, "multiplier")
                offset = self.number(sub, "offset")
                mimic = Mimic(
                    joint=leader,
                    multiplier=1.0 if multiplier is None else multiplier,
                    offset=0.0 if offset is None else offset,
                )
            elif isinstance(tag, str):
                self.unknown(sub, elem, _JOINT_TAGS)
        if parent is None or child is None:
            missing = "parent" if parent is None else "child"
            raise self.ctx.error(
                InvalidValueError,
                elem,
                f"joint {name!r} has no <{missing}>",
                f'add <{missing} link="..."/>',
            )
        axis = None
        if joint_type in _AXIS_TYPES:
            axis = self.axis(axis_elem, name) if axis_elem is not None else _DEFAULT_AXIS
        if joint_type in _LIMIT_REQUIRED:
            if limit is not None and (limit.lower is None or limit.upper is None):
                absent = [b for b in ("lower", "upper") if getattr(limit, b) is None]
                limit = replace(
                    limit,
                    lower=0.0 if limit.lower is None else limit.lower,
                    upper=0.0 if limit.upper is None else limit.upper,
                )
                self.ctx.warn(
                    elem,
                    f"<limit> of {joint_type.value} joint {name!r} has no "
                    + " or ".join(absent)
                    + f"; read as 0, as urdfdom and libsdformat read it (range [{limit.lower:g}, "
                    f"{limit.upper:g}]{', locked' if limit.lower == limit.upper else ''})",
                )
            if limit is None:
                self.ctx.warn(
                    elem,
                    f"{joint_type.value} joint {name!r} has no <limit>; it is treated as unlimited "
                    "(urdfdom rejects this file)",
                )
            elif limit_elem is not None and (
                limit_elem.get("effort") is None or limit_elem.get("velocity") is None
            ):
                self.ctx.warn(
                    elem,
                    f"<limit> of joint {name!r} lacks effort or velocity; those are treated as "
                    "unlimited (urdfdom rejects this file)",
                )
        return Joint(
            name=name,
            type=joint_type,
            parent=parent,
            child=child,
            origin=origin,
            axis=axis,
            limit=limit,
            dynamics=dynamics,
            safety_controller=safety,
            calibration=calibration,
            mimic=mimic,
            source=self.ctx.source(elem),
        )


def _add_unique(
    table: dict, name: str, value: object, elem: etree._Element, kind: str, ctx: ParseContext
) -> None:
    """Insert ``name → value`` into ``table``; a second entry with that name is an error."""
    if name in table:
        first = getattr(table[name], "source", None)
        where = f" (first defined at line {first.line})" if first is not None and first.line else ""
        raise ctx.error(
            DuplicateNameError,
            elem,
            f"two {kind}s are named {name!r}{where}",
            f"rename one of the {kind}s",
        )
    table[name] = value


def load_urdf(
    root: etree._Element,
    ctx: ParseContext,
    *,
    base_dir: str | os.PathLike[str] | None = None,
    package_paths: PackagePaths | None = None,
    source_file: str | None = None,
) -> Robot:
    """Build a validated :class:`Robot` from a URDF ``<robot>`` element.

    Args:
        root: the ``<robot>`` element (from :func:`~sdf_bridge.description.xmlio.parse_xml`).
        ctx: the parse context (file name for messages, warning sink).
        base_dir: directory for relative mesh paths (``None`` for a string).
        package_paths: package → directory map for ``package://`` (before the ament index).
        source_file: recorded as ``Robot.source_file``.

    Raises:
        DescriptionError: the first problem found (subclass per kind, see ``sdf_bridge.errors``).
    """
    from ..validate import validate_robot

    if root.tag != "robot":
        raise ctx.error(
            UnsupportedError, root, f"root element is <{root.tag}>, not <robot>", "load a URDF file"
        )
    reader = _Reader(ctx, None if base_dir is None else os.fspath(base_dir), package_paths)
    name = reader.name(root, "robot")

    # one pass over the top level: bucket by tag; materials first since visuals refer to them
    buckets: dict[str, list[etree._Element]] = {}
    ordered: list[etree._Element] = []
    for elem in root:
        tag = elem.tag
        if not isinstance(tag, str):
            continue
        if tag in _TOP_LEVEL:
            buckets.setdefault(tag, []).append(elem)
            ordered.append(elem)
        else:
            reader.unknown(elem, root, _TOP_LEVEL)

    for elem in buckets.get("material", ()):

        def add_material(elem: etree._Element = elem) -> None:
            mat_name = reader.name(elem, "material")
            _add_unique(
                reader.materials,
                mat_name,
                reader.material(elem, robot_level=True),
                elem,
                "material",
                ctx,
            )

        contained(ctx, elem, "material", add_material)

    links: dict[str, Link] = {}
    for elem in buckets.get("link", ()):
        link = reader.link(elem)
        _add_unique(links, link.name, link, elem, "link", ctx)
    joints: dict[str, Joint] = {}
    for elem in buckets.get("joint", ()):
        joint = reader.joint(elem)
        _add_unique(joints, joint.name, joint, elem, "joint", ctx)

    classic: list[Transmission] = []
    hardware: list[HardwareComponent] = []
    sensors: list[Sensor] = []
    gazebo: list[GazeboExtension] = []
    plugins: list[Plugin] = []
    handlers: dict[str, Callable[[etree._Element], None]] = {
        "transmission": lambda e: classic.append(parse_transmission(e, ctx)),
        "ros2_control": lambda e: hardware.append(parse_ros2_control(e, ctx)),
        "sensor": lambda e: sensors.extend(parse_robot_sensor(e, ctx, joints)),
    }

    def on_gazebo(elem: etree._Element) -> None:  # (all read before any is kept)
        extension, ext_sensors, ext_plugins = parse_gazebo(elem, ctx)
        attached = [attach_sensor(sensor, joints, links, ctx) for sensor in ext_sensors]
        gazebo.append(extension)
        sensors.extend(s for s in attached if s is not None)
        plugins.extend(ext_plugins)

    handlers["gazebo"] = on_gazebo
    for elem in ordered:  # each one contained: a faulty one is skipped, the others kept
        handler = handlers.get(elem.tag)
        if handler is not None:
            contained(ctx, elem, elem.tag, lambda h=handler, e=elem: h(e))

    for extension in gazebo:  # Gazebo's per-link gravity switches (parser_urdf.cc)
        if extension.reference in links and gravity_off(extension):
            links[extension.reference] = replace(links[extension.reference], gravity=False)
    transmissions = classic + [t for hc in hardware for t in hc.transmissions]
    robot = Robot(
        name=name,
        links=links,
        joints=joints,
        materials=reader.materials,
        transmissions=tuple(transmissions),
        ros2_control=tuple(hardware),
        sensors=tuple(sensors),
        gazebo=tuple(gazebo),
        plugins=tuple(plugins),
        format="urdf",
        source_file=source_file,
    )
    robot = prune(robot, ctx)
    validate_robot(robot, ctx)
    return robot
