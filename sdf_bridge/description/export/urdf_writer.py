"""``Robot`` → URDF text, where the model fits URDF.

URDF puts the child link frame on the joint frame. An SDF joint whose ``joint_to_child`` is
not the identity is therefore written by moving that link's frame onto the joint frame: its
visuals, collisions, inertial and sensors, and the origins of the joints hanging from it, are
pre-multiplied by ``joint_to_child`` (the geometry does not move). Joint types URDF lacks
(ball, universal, revolute2, screw, gearbox), several root links, and shapes URDF lacks
(capsule, ellipsoid, plane) are refused with :class:`~sdf_bridge.errors.UnsupportedError`,
except with ``chains=True`` (the form a controller_manager and robot_state_publisher read):
then those joint types are written as chains of URDF joints through massless intermediate
links (:func:`chain_joints`: universal/revolute2 and ball as the standard chain of one-axis
joints named like the bridge's coordinates, a screw as a revolute joint and a ``<mimic>``
prismatic one, a gearbox as a revolute joint), and a link joined to nothing hangs from the
first root link by a ``floating`` joint (:func:`free_root_joints`).
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
from ..coordinates import BALL_CHAIN, SEPARATOR, axis_suffixes, coordinate_joint, mimic_leader
from ..model import (
    Axis,
    Box,
    Calibration,
    Cylinder,
    Inertial,
    Joint,
    JointType,
    Limit,
    Link,
    Material,
    Mesh,
    Mimic,
    Pose,
    Robot,
    SafetyController,
    Sphere,
)
from ..model.geometry import Geometry
from ..model.pose import IDENTITY
from ..urdf import URDF_JOINT_TYPES
from .common import fmt, fmt_vec, sub, to_text, verbatim
from .losses import top_level_transmissions, warn_urdf_losses

_URDF_TYPES = frozenset(URDF_JOINT_TYPES.values())
#: Stand-in for "unlimited" effort/velocity, which URDF cannot express.
UNLIMITED = 1e16


CHAIN_TYPES = frozenset(
    {JointType.UNIVERSAL, JointType.REVOLUTE2, JointType.BALL, JointType.SCREW, JointType.GEARBOX}
)
"""Joint types URDF lacks that ``to_urdf(chains=True)`` writes as a chain of URDF joints
(:func:`chain_joints`)."""


def needs_chains(robot: Robot) -> bool:
    """Whether ``to_urdf`` writes ``robot`` only with ``chains=True``: it has a joint of
    :data:`CHAIN_TYPES` or several root links (:func:`free_root_joints`)."""
    return any(j.type in CHAIN_TYPES for j in robot.joints.values()) or bool(
        free_root_joints(robot)
    )


def _refusal(robot: Robot, joint: Joint, problem: str, fix: str) -> UnsupportedError:
    return UnsupportedError(
        problem,
        file=joint.source.file if joint.source else robot.source_file,
        line=joint.source.line if joint.source else None,
        element=f'<joint name="{joint.name}">',
        fix=fix,
    )


def _one_axis(joint: Joint, name: str, kind: JointType, xyz: tuple[float, float, float]) -> Joint:
    """A one-axis record of ``joint`` named ``name``, of type ``kind`` about ``xyz``, without
    the multi-axis and coupling fields (``limit``, ``dynamics`` kept)."""
    return dataclasses.replace(
        joint,
        name=name,
        type=kind,
        axis=Axis(xyz),
        axis2=None,
        limit2=None,
        dynamics2=None,
        mimic=None,
        thread_pitch=None,
        thread_pitch_unit=None,
        gearbox_ratio=None,
        gearbox_reference_body=None,
    )


def chain_joints(robot: Robot, joint: Joint) -> tuple[Joint, ...]:
    """The URDF chain of ``joint``, of a type URDF lacks (:data:`CHAIN_TYPES`): URDF joint
    records, parent to child, each named ``<joint>/<suffix>``
    (:data:`~sdf_bridge.description.coordinates.SEPARATOR`) or ``<joint>``, and each but the
    last moving a massless intermediate link of its own name; the last moves ``joint.child``:

    * universal / revolute2: ``<joint>/axis1`` about ``<axis>`` with its ``<limit>`` and
      ``<dynamics>``, then ``<joint>/axis2`` about ``<axis2>`` with its own
      (:func:`~sdf_bridge.description.coordinates.coordinate_joint`): ``R = rot(axis1, q1) ·
      rot(axis2, q2)``;
    * ball: ``<joint>/yaw`` (z), ``<joint>/pitch`` (y), ``<joint>/roll`` (x)
      (:data:`~sdf_bridge.description.coordinates.BALL_CHAIN`), each the coordinate's record
      (:func:`~sdf_bridge.description.coordinates.coordinate_joint`: continuous, or revolute
      when the ball's ``<limit>`` bounds it, with its damping): ``R = Rz(yaw) · Ry(pitch) ·
      Rx(roll)``;
    * screw: ``<joint>/translation``
      (:func:`~sdf_bridge.description.kinematics.screw_translation_name`, the state the bridge
      publishes), prismatic along the axis, ``<mimic>`` of ``<joint>`` with the thread's lead
      (m/rad, :func:`~sdf_bridge.description.kinematics.screw_lead`) as multiplier, then
      ``<joint>``, revolute about the axis with the joint's limits (the bridge's coordinate;
      rotation and translation along one axis commute);
    * gearbox: ``<joint>`` alone, revolute about its axis (the bridge's kinematics of a gearbox
      joint in the tree, :mod:`~sdf_bridge.description.kinematics`; the ratio couples it to
      its reference body in the physics, not in the frames).

    The first record carries the joint's ``origin`` and ``parent``, the others the identity; the
    child link's frame through the chain is the SDF joint's (``joint_to_child`` is applied by
    :func:`to_urdf` as for any joint). ``()`` for a joint of any other type.

    Raises:
        UnsupportedError: a screw whose lead is undefined
            (:func:`~sdf_bridge.description.kinematics.screw_lead`).
    """
    from ..kinematics import screw_lead, screw_translation_name

    if joint.type not in CHAIN_TYPES:
        return ()
    axis = joint.axis.xyz if joint.axis is not None else (1.0, 0.0, 0.0)
    if joint.type is JointType.BALL:  # chain order (yaw, pitch, roll), not index order
        names = [f"{joint.name}{SEPARATOR}{suffix}" for suffix in BALL_CHAIN]
        views = (coordinate_joint(robot, name) for name in names)  # (each exists: its axes)
        records = [view for view in views if view is not None]
    elif joint.type is JointType.SCREW:
        lead = screw_lead(joint)
        if lead is None:
            raise _refusal(
                robot,
                joint,
                f"screw joint {joint.name!r} has no thread pitch (or a legacy <thread_pitch> "
                "of 0 rad/m), so its translation per turn is unknown",
                "give <screw_thread_pitch> (m/rev)",
            )
        slide = _one_axis(joint, screw_translation_name(joint.name), JointType.PRISMATIC, axis)
        records = [
            dataclasses.replace(
                slide,
                limit=None,
                dynamics=None,
                safety_controller=None,
                calibration=None,
                mimic=Mimic(joint.name, lead, 0.0),
            ),
            _one_axis(joint, joint.name, JointType.REVOLUTE, axis),
        ]
    elif joint.type is JointType.GEARBOX:
        records = [_one_axis(joint, joint.name, JointType.REVOLUTE, axis)]
    else:
        names = [f"{joint.name}{SEPARATOR}{suffix}" for suffix in axis_suffixes(joint)]
        views = (coordinate_joint(robot, name) for name in names)  # (each exists: its axes)
        records = [view for view in views if view is not None]
    chain = []
    for k, record in enumerate(records):
        last = k == len(records) - 1
        chain.append(
            dataclasses.replace(
                record,
                origin=joint.origin if k == 0 else IDENTITY,
                joint_to_child=IDENTITY,
                parent=joint.parent if k == 0 else records[k - 1].name,
                child=joint.child if last else record.name,
            )
        )
    return tuple(chain)


def free_root_joints(robot: Robot) -> tuple[Joint, ...]:
    """URDF ``floating`` joints from the model's first root link to each other root link (an
    SDFormat link joined to nothing: a free body of its model, which URDF, one tree, cannot
    otherwise hold), each named ``<link>/floating`` at the link's zero-configuration pose
    relative to the first root. robot_state_publisher publishes no TF for a floating joint
    (its pose is another node's, e.g. odometry's); ros2_control ignores it."""
    children = {j.child for j in robot.joints.values()}
    roots = [link for name, link in robot.links.items() if name not in children]
    if len(roots) < 2:
        return ()
    base = roots[0].pose or IDENTITY
    return tuple(
        Joint(
            name=f"{link.name}{SEPARATOR}floating",
            type=JointType.FLOATING,
            parent=roots[0].name,
            child=link.name,
            origin=base.inverse() @ (link.pose or IDENTITY),
        )
        for link in roots[1:]
    )


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


def _check_fits(robot: Robot, chains: bool) -> None:
    """Refuse what URDF cannot hold in the model's structure: a joint type URDF lacks (but
    :data:`CHAIN_TYPES` with ``chains``), a chain's intermediate link or joint named like a
    link or joint of the model, or other than exactly one root link (several are joined by
    :func:`free_root_joints` with ``chains``).

    Raises:
        UnsupportedError: naming the joint (file, line, element) or the root links, and the fix.
    """
    for joint in robot.joints.values():
        if chains and joint.type in CHAIN_TYPES:
            records = chain_joints(robot, joint)
            taken = [j.child for j in records[:-1] if j.child in robot.links]
            taken += [j.name for j in records if j.name != joint.name and j.name in robot.joints]
            if taken:
                raise _refusal(
                    robot,
                    joint,
                    f"the URDF chain of {joint.type} joint {joint.name!r} needs the name(s) "
                    f"{taken}, which the model already has",
                    "rename those links or joints",
                )
            continue
        if joint.type not in _URDF_TYPES:
            raise _refusal(
                robot,
                joint,
                f"joint {joint.name!r} is of type {joint.type}, which URDF does not have",
                "convert to SDF instead (`--to sdf`), or change the joint type",
            )
    free = free_root_joints(robot) if chains else ()
    taken = [j.name for j in free if j.name in robot.joints]
    if taken:
        raise UnsupportedError(
            f"the floating joints of the links joined to nothing need the name(s) {taken}, "
            "which the model already has",
            file=robot.source_file,
            fix="rename those joints",
        )
    children = {j.child for j in robot.joints.values()}
    roots = [name for name in robot.links if name not in children]
    if len(roots) != 1 and not free:
        raise UnsupportedError(
            f"the model has {len(roots)} root links ({', '.join(roots)}); URDF needs exactly one "
            "tree",
            file=robot.source_file,
            fix="connect the free links with joints, or convert to SDF instead",
        )


def _material(parent: etree._Element, material: Material, name: str) -> None:
    """Append ``<material name>`` to ``parent`` (the robot, or a visual) with its ``<color>``
    and ``<texture>`` when given."""
    m = sub(parent, "material", name=name)
    if material.color is not None:
        sub(m, "color", rgba=fmt_vec(material.color))
    if material.texture:
        sub(m, "texture", filename=material.texture)


def _inertial(le: etree._Element, inertial: Inertial, x: Pose) -> None:
    """Append ``<inertial>`` to link element ``le``: origin moved into the link frame shifted
    by ``x`` (``x @ origin``), mass and the six inertia components (inertia frame unchanged)."""
    ie = sub(le, "inertial")
    _origin(ie, x @ inertial.origin)
    sub(ie, "mass", value=fmt(inertial.mass))
    i = inertial.inertia
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


def _link(root: etree._Element, link: Link, x: Pose, robot: Robot) -> None:
    """Append ``<link>`` to ``root``: inertial, visuals (with their material) and collisions,
    each origin pre-multiplied by the frame shift ``x`` (``joint_to_child`` of the joint whose
    child the link is, identity for the root).

    Raises:
        UnsupportedError: a shape URDF lacks (:func:`_geometry`).
    """
    le = sub(root, "link", name=link.name)
    if link.inertial is not None:
        _inertial(le, link.inertial, x)
    for vis in link.visuals:
        ve = sub(le, "visual", name=vis.name)
        _origin(ve, x @ vis.origin)
        _geometry(ve, vis.geometry, robot, link.name)
        if vis.material is not None:
            _material(ve, vis.material, vis.material.name or "")
    for col in link.collisions:
        ce = sub(le, "collision", name=col.name)
        _origin(ce, x @ col.origin)
        _geometry(ce, col.geometry, robot, link.name)


def _optional(value: float | None) -> str | None:
    """``value`` formatted, or ``None`` (attribute left out) when not given."""
    return None if value is None else fmt(value)


def _calibration(je: etree._Element, c: Calibration) -> None:
    """Append ``<calibration>`` to joint element ``je``, with the attributes given."""
    sub(
        je,
        "calibration",
        rising=_optional(c.rising),
        falling=_optional(c.falling),
        reference_position=_optional(c.reference_position),
    )


def _limit(je: etree._Element, joint: Joint) -> None:
    """Append ``<limit>`` to joint element ``je`` where URDF needs or can hold one: always for
    a revolute or prismatic joint, for a continuous one when it has a limit. Unlimited effort
    or velocity is written as :data:`UNLIMITED`; a revolute or prismatic joint's missing bound
    as ∓:data:`UNLIMITED` (URDF and ros2_control read a missing bound as 0); a continuous
    joint gets no bounds."""
    kind = urdf_joint_type(joint)
    if kind not in (JointType.REVOLUTE, JointType.PRISMATIC) and (
        joint.limit is None or kind is not JointType.CONTINUOUS
    ):
        return
    lim = joint.limit if joint.limit is not None else Limit()  # (nothing given: unlimited)
    attrs = {
        "effort": fmt(UNLIMITED if lim.effort is None else lim.effort),
        "velocity": fmt(UNLIMITED if lim.velocity is None else lim.velocity),
    }
    if kind is not JointType.CONTINUOUS:
        attrs["lower"] = fmt(-UNLIMITED if lim.lower is None else lim.lower)
        attrs["upper"] = fmt(UNLIMITED if lim.upper is None else lim.upper)
    sub(je, "limit", **attrs)


def _safety_controller(je: etree._Element, s: SafetyController) -> None:
    """Append ``<safety_controller>`` to joint element ``je`` (optional attributes left out
    when not given)."""
    sub(
        je,
        "safety_controller",
        k_velocity=fmt(s.k_velocity),
        soft_lower_limit=_optional(s.soft_lower_limit),
        soft_upper_limit=_optional(s.soft_upper_limit),
        k_position=_optional(s.k_position),
    )


def _joint(root: etree._Element, joint: Joint, parent_shift: Pose, robot: Robot) -> None:
    """Append ``<joint>`` to ``root``, typed by :func:`urdf_joint_type`: origin in the parent
    link frame shifted by ``parent_shift`` (``parent_shift @ origin``), parent, child, axis
    (not on fixed joints), calibration, dynamics, limit (:func:`_limit`), mimic and safety
    controller, each when given."""
    je = sub(root, "joint", name=joint.name, type=str(urdf_joint_type(joint)))
    _origin(je, parent_shift @ joint.origin)
    sub(je, "parent", link=joint.parent)
    sub(je, "child", link=joint.child)
    if joint.axis is not None and joint.type is not JointType.FIXED:
        sub(je, "axis", xyz=fmt_vec(joint.axis.xyz))
    if joint.calibration is not None:
        _calibration(je, joint.calibration)
    if joint.dynamics is not None:
        d = joint.dynamics
        sub(je, "dynamics", damping=fmt(d.damping), friction=fmt(d.friction))
    _limit(je, joint)
    if joint.mimic is not None:
        m = joint.mimic
        leader = (
            mimic_leader(robot, m) or m.joint
        )  # (an axis of a universal leader: its chain joint)
        sub(je, "mimic", joint=leader, multiplier=fmt(m.multiplier), offset=fmt(m.offset))
    if joint.safety_controller is not None:
        _safety_controller(je, joint.safety_controller)


def _gazebo(root: etree._Element, robot: Robot, shift: dict[str, Pose]) -> None:
    """Append the ``<gazebo>`` extensions as read (``GazeboExtension.raw_xml``), then one
    ``<gazebo reference>`` per link sensor read from SDF (noise-free, its pose moved by the
    link's frame ``shift``); joint sensors are not written (URDF has no place for them)."""
    for ext in robot.gazebo:
        if ext.raw_xml:
            root.append(etree.fromstring(ext.raw_xml))
    from .sdf_writer import _noise_free_sensor

    for sensor in robot.sensors:
        if sensor.origin_format == "sdf" and sensor.link is not None and sensor.joint is None:
            gz = sub(root, "gazebo", reference=sensor.link)
            _noise_free_sensor(
                gz, dataclasses.replace(sensor, pose=shift.get(sensor.link, Pose()) @ sensor.pose)
            )


def to_urdf(robot: Robot, *, chains: bool = False) -> str:
    """URDF text of ``robot`` (see the module docstring): materials, links (then the massless
    intermediate links of the chains), joints (a multi-axis one, with ``chains``, as its chain,
    :func:`chain_joints`), classic transmissions (top level, as read), Gazebo extensions and SDF
    link sensors, ``<ros2_control>`` blocks (with their transmissions), in this order; what URDF
    cannot hold is warned about.

    Raises:
        UnsupportedError: a joint type URDF lacks (the message names the joint; with
            ``chains``, universal, revolute2 and ball joints fit), several root links, or a
            shape URDF lacks.
    """
    from .sdf_writer import _ros2_control

    _check_fits(robot, chains)
    # link frame shift: new link frame = joint frame, X_new_old = joint_to_child
    shift = {j.child: j.joint_to_child for j in robot.joints.values()}
    root = etree.Element("robot", name=robot.name)
    for material in robot.materials.values():
        _material(root, material, material.name)
    for link in robot.links.values():
        _link(root, link, shift.get(link.name, Pose()), robot)
    chain = {j.name: chain_joints(robot, j) if chains else () for j in robot.joints.values()}
    for records in chain.values():
        for record in records[:-1]:
            sub(root, "link", name=record.child)
    for joint in robot.joints.values():
        parent_shift = shift.get(joint.parent, Pose())
        for k, record in enumerate(chain[joint.name] or (joint,)):
            _joint(root, record, parent_shift if k == 0 else Pose(), robot)
    for joint in free_root_joints(robot) if chains else ():
        _joint(root, joint, Pose(), robot)
    for t in top_level_transmissions(robot):  # classic / PR2, as read
        verbatim(root, t.raw_xml)
    _gazebo(root, robot, shift)
    for hw in robot.ros2_control:  # their transmissions inside
        _ros2_control(root, hw, robot)
    warn_urdf_losses(robot)
    return to_text(root)
