"""``Robot`` → URDF text, where the model fits URDF.

URDF puts the child link frame on the joint frame. An SDF joint whose ``joint_to_child`` is
not the identity is therefore written by moving that link's frame onto the joint frame: its
visuals, collisions, inertial and sensors, and the origins of the joints hanging from it, are
pre-multiplied by ``joint_to_child`` (the geometry does not move). Joint types URDF lacks
(ball, universal, revolute2, screw, gearbox), several root links, and shapes URDF lacks
(capsule, ellipsoid, plane) are refused with :class:`~sdf_bridge.errors.UnsupportedError`.
Unlimited effort/velocity (``None``) of revolute and prismatic joints, which URDF requires, are
written as 1e16; a revolute joint without position bounds (SDFormat's default) is written as
``continuous`` (:func:`urdf_joint_type`), a missing single bound as ∓1e16 (URDF reads it as
0). Transmissions outside ``<ros2_control>`` (classic, PR2) are written at the top level exactly
as read (``Transmission.raw_xml``), ros2_control ones inside their block; what URDF cannot hold
is warned about (:mod:`.losses`).
"""

from __future__ import annotations

import dataclasses

from lxml import etree

from ...errors import UnsupportedError
from ..model import Box, Cylinder, Joint, JointType, Mesh, Pose, Robot, Sphere
from ..model.geometry import Geometry
from .common import fmt, fmt_vec, sub, to_text, verbatim
from .losses import top_level_transmissions, warn_urdf_losses

_URDF_TYPES = {
    JointType.REVOLUTE,
    JointType.CONTINUOUS,
    JointType.PRISMATIC,
    JointType.FIXED,
    JointType.FLOATING,
    JointType.PLANAR,
}
#: Stand-in for "unlimited" effort/velocity, which URDF cannot express.
UNLIMITED = 1e16


def urdf_joint_type(joint: Joint) -> JointType:
    """The URDF type of ``joint``: its own, except a revolute joint without position bounds
    (SDFormat's default, ±1e16) → ``continuous``: URDF reads the bounds a revolute joint does
    not give as 0, and ros2_control then clamps every command of it to [0, 0]."""
    lim = joint.limit
    if joint.type is JointType.REVOLUTE and (
        lim is None or (lim.lower is None and lim.upper is None)
    ):
        return JointType.CONTINUOUS
    return joint.type


def _origin(parent: etree._Element, pose: Pose) -> None:
    if not pose.is_identity:
        sub(parent, "origin", xyz=fmt_vec(pose.xyz), rpy=fmt_vec(pose.rpy))


def _geometry(parent: etree._Element, geometry: Geometry, robot: Robot, link: str) -> None:
    g = sub(parent, "geometry")
    if isinstance(geometry, Box):
        sub(g, "box", size=fmt_vec(geometry.size))
    elif isinstance(geometry, Cylinder):
        sub(g, "cylinder", radius=fmt(geometry.radius), length=fmt(geometry.length))
    elif isinstance(geometry, Sphere):
        sub(g, "sphere", radius=fmt(geometry.radius))
    elif isinstance(geometry, Mesh):
        sub(
            g,
            "mesh",
            filename=geometry.filename,
            scale=fmt_vec(geometry.scale) if geometry.scale != (1.0, 1.0, 1.0) else None,
        )
    else:
        raise UnsupportedError(
            f"link {link!r} has a {type(geometry).__name__.lower()} shape, which URDF cannot "
            "describe",
            file=robot.source_file,
            element=f'<link name="{link}">',
            fix="convert to SDF instead, or replace the shape by a mesh",
        )


def to_urdf(robot: Robot) -> str:
    """URDF text of ``robot`` (see the module docstring).

    Raises:
        UnsupportedError: a joint type URDF lacks (the message names the joint), several root
            links, or a shape URDF lacks.
    """
    for joint in robot.joints.values():
        if joint.type not in _URDF_TYPES:
            raise UnsupportedError(
                f"joint {joint.name!r} is of type {joint.type}, which URDF does not have",
                file=joint.source.file if joint.source else robot.source_file,
                line=joint.source.line if joint.source else None,
                element=f'<joint name="{joint.name}">',
                fix="convert to SDF instead (`--to sdf`), or change the joint type",
            )
    children = {j.child for j in robot.joints.values()}
    roots = [name for name in robot.links if name not in children]
    if len(roots) != 1:
        raise UnsupportedError(
            f"the model has {len(roots)} root links ({', '.join(roots)}); URDF needs exactly one "
            "tree",
            file=robot.source_file,
            fix="connect the free links with joints, or convert to SDF instead",
        )
    # link frame shift: new link frame = joint frame, X_new_old = joint_to_child
    shift = {j.child: j.joint_to_child for j in robot.joints.values()}
    root = etree.Element("robot", name=robot.name)
    for material in robot.materials.values():
        m = sub(root, "material", name=material.name)
        if material.color is not None:
            sub(m, "color", rgba=fmt_vec(material.color))
        if material.texture:
            sub(m, "texture", filename=material.texture)
    for link in robot.links.values():
        x = shift.get(link.name, Pose())
        le = sub(root, "link", name=link.name)
        if link.inertial is not None:
            ie = sub(le, "inertial")
            _origin(ie, x @ link.inertial.origin)
            sub(ie, "mass", value=fmt(link.inertial.mass))
            i = link.inertial.inertia
            sub(
                ie,
                "inertia",
                ixx=fmt(i.ixx),
                ixy=fmt(i.ixy),
                ixz=fmt(i.ixz),
                iyy=fmt(i.iyy),
                iyz=fmt(i.iyz),
                izz=fmt(i.izz),
            )
        for vis in link.visuals:
            ve = sub(le, "visual", name=vis.name)
            _origin(ve, x @ vis.origin)
            _geometry(ve, vis.geometry, robot, link.name)
            if vis.material is not None:
                me = sub(ve, "material", name=vis.material.name or "")
                if vis.material.color is not None:
                    sub(me, "color", rgba=fmt_vec(vis.material.color))
                if vis.material.texture:
                    sub(me, "texture", filename=vis.material.texture)
        for col in link.collisions:
            ce = sub(le, "collision", name=col.name)
            _origin(ce, x @ col.origin)
            _geometry(ce, col.geometry, robot, link.name)
    for joint in robot.joints.values():
        je = sub(root, "joint", name=joint.name, type=str(urdf_joint_type(joint)))
        _origin(je, shift.get(joint.parent, Pose()) @ joint.origin)
        sub(je, "parent", link=joint.parent)
        sub(je, "child", link=joint.child)
        if joint.axis is not None and joint.type is not JointType.FIXED:
            sub(je, "axis", xyz=fmt_vec(joint.axis.xyz))
        if joint.calibration is not None:
            c = joint.calibration
            sub(
                je,
                "calibration",
                rising=None if c.rising is None else fmt(c.rising),
                falling=None if c.falling is None else fmt(c.falling),
                reference_position=None
                if c.reference_position is None
                else fmt(c.reference_position),
            )
        if joint.dynamics is not None:
            sub(
                je,
                "dynamics",
                damping=fmt(joint.dynamics.damping),
                friction=fmt(joint.dynamics.friction),
            )
        lim = joint.limit
        kind = urdf_joint_type(joint)
        if kind in (JointType.REVOLUTE, JointType.PRISMATIC) or (
            lim is not None and kind is JointType.CONTINUOUS
        ):
            effort = lim.effort if lim is not None and lim.effort is not None else UNLIMITED
            velocity = lim.velocity if lim is not None and lim.velocity is not None else UNLIMITED
            attrs = {"effort": fmt(effort), "velocity": fmt(velocity)}
            if kind is not JointType.CONTINUOUS:
                # URDF reads a missing bound as 0 (so does ros2_control): one bound given alone,
                # or a prismatic joint without bounds, keeps the other side unlimited
                lower = lim.lower if lim is not None else None
                upper = lim.upper if lim is not None else None
                attrs["lower"] = fmt(-UNLIMITED if lower is None else lower)
                attrs["upper"] = fmt(UNLIMITED if upper is None else upper)
            sub(je, "limit", **attrs)
        if joint.mimic is not None:
            sub(
                je,
                "mimic",
                joint=joint.mimic.joint,
                multiplier=fmt(joint.mimic.multiplier),
                offset=fmt(joint.mimic.offset),
            )
        if joint.safety_controller is not None:
            s = joint.safety_controller
            sub(
                je,
                "safety_controller",
                k_velocity=fmt(s.k_velocity),
                soft_lower_limit=None if s.soft_lower_limit is None else fmt(s.soft_lower_limit),
                soft_upper_limit=None if s.soft_upper_limit is None else fmt(s.soft_upper_limit),
                k_position=None if s.k_position is None else fmt(s.k_position),
            )
    # classic / PR2 at top level, as read; ros2_control ones in their block
    for t in top_level_transmissions(robot):
        verbatim(root, t.raw_xml)
    for ext in robot.gazebo:
        if ext.raw_xml:
            root.append(etree.fromstring(ext.raw_xml))
    from .sdf_writer import _noise_free_sensor, _ros2_control

    for sensor in robot.sensors:
        if sensor.origin_format == "sdf" and sensor.link is not None and sensor.joint is None:
            gz = sub(root, "gazebo", reference=sensor.link)
            _noise_free_sensor(
                gz, dataclasses.replace(sensor, pose=shift.get(sensor.link, Pose()) @ sensor.pose)
            )

    for hw in robot.ros2_control:
        _ros2_control(root, hw, robot)
    warn_urdf_losses(robot)
    return to_text(root)
