"""``Robot`` → SDFormat text (version 1.9; 1.11 when a joint mimics another).

Layout: one ``<model>``; each link's ``<pose>`` is its frame in the model frame; each joint's
``<pose>`` is the joint frame in its child link frame (SDF's default ``relative_to``), i.e.
``joint_to_child⁻¹``; axes are written in the joint frame. Fixed joints stay ``fixed`` (unless
lumped, see :mod:`.lump`); continuous joints get no position limits. URDF ``<gazebo>`` extensions go
where Gazebo reads them: model-level plugins into ``<model>``, sensors into their link, link
properties (``mu1``, ``mu2``, ``kp``, ``kd``, ``minDepth``, ``maxVel``, ``fdir1``) into each
collision's ``<surface>``, ``selfCollide``/``kinematic`` into the link, its gravity switch
(``Link.gravity``: ``<gravity>`` / ``turnGravityOff``) as ``<gravity>false</gravity>``, Gazebo
material scripts into the visuals; joint ``provideFeedback``/``implicitSpringDamper`` into
``<physics><ode>``.

What libsdformat would refuse is mended first, with warnings (:mod:`.sdf_validity`: joints named
like links renamed, URDF links without mass given the simulator's, inertias no rigid body has
balanced, sensor types SDFormat 1.9 lacks left out).

Transmissions: classic / PR2 ``<transmission>`` elements (all those outside ``<ros2_control>``)
are written into the ``<model>`` exactly as read (``Transmission.raw_xml``), those of a
``<ros2_control>`` block inside that block. libsdformat (SDFormat 12) keeps elements it does not
define as children of the model and loads the file without errors (it logs a debug line; only
its opt-in strict policy for unrecognised elements would refuse them, as it refuses
``<ros2_control>``). The SDF loader reads them back
(:mod:`sdf_bridge.description.sdf.transmissions`). Whatever is not written is warned about
(:mod:`.losses`).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

from lxml import etree

from ...errors import UnsupportedError
from ..model import (
    Box,
    CameraParams,
    Capsule,
    Collision,
    ContactParams,
    Cylinder,
    Ellipsoid,
    ForceTorqueParams,
    GpsParams,
    ImuParams,
    Inertial,
    Joint,
    JointType,
    Limit,
    Link,
    Mesh,
    Plane,
    Pose,
    RayParams,
    Robot,
    Sensor,
    Sphere,
    Transmission,
    Visual,
)
from ..model.geometry import Geometry
from ..model.ros2_control import HardwareComponent, InterfaceInfo
from ..sdf.transmissions import custom_element, named_nodes
from .common import fmt, fmt_vec, model_poses, pose_text, sub, to_text, verbatim
from .losses import top_level_transmissions, warn_sdf_losses
from .lump import lump_fixed_joints
from .sdf_validity import sdf_names, simulated_masses

LOG = logging.getLogger("sdf_bridge.description.export")

_SURFACE = {
    "mu1": ("friction", "ode", "mu"),
    "mu2": ("friction", "ode", "mu2"),
    "kp": ("contact", "ode", "kp"),
    "kd": ("contact", "ode", "kd"),
    "minDepth": ("contact", "ode", "min_depth"),
    "maxVel": ("contact", "ode", "max_vel"),
    "fdir1": ("friction", "ode", "fdir1"),
}
_LINK_FLAGS = {"selfCollide": "self_collide", "kinematic": "kinematic"}
#: Image formats written by ROS users that SDFormat spells differently.
_CAMERA_FORMATS = {
    "RGB8": "R8G8B8",
    "BGR8": "B8G8R8",
    "MONO8": "L8",
    "MONO16": "L16",
    "rgb8": "R8G8B8",
    "bgr8": "B8G8R8",
}
#: Where Gazebo classic's named materials (``Gazebo/Red``) are defined (as urdf2sdf writes it).
_GAZEBO_MATERIAL_URI = "file://media/materials/scripts/gazebo.material"
_JOINT_ODE = {
    "provideFeedback": "provide_feedback",
    "implicitSpringDamper": "implicit_spring_damper",
}


def _geometry(parent: etree._Element, geometry: Geometry) -> None:
    g = sub(parent, "geometry")
    if isinstance(geometry, Box):
        sub(sub(g, "box"), "size", fmt_vec(geometry.size))
    elif isinstance(geometry, Cylinder):
        c = sub(g, "cylinder")
        sub(c, "radius", fmt(geometry.radius))
        sub(c, "length", fmt(geometry.length))
    elif isinstance(geometry, Sphere):
        sub(sub(g, "sphere"), "radius", fmt(geometry.radius))
    elif isinstance(geometry, Capsule):
        c = sub(g, "capsule")
        sub(c, "radius", fmt(geometry.radius))
        sub(c, "length", fmt(geometry.length))
    elif isinstance(geometry, Ellipsoid):
        sub(sub(g, "ellipsoid"), "radii", fmt_vec(geometry.radii))
    elif isinstance(geometry, Plane):
        p = sub(g, "plane")
        sub(p, "normal", fmt_vec(geometry.normal))
        sub(p, "size", fmt_vec(geometry.size))
    elif isinstance(geometry, Mesh):
        m = sub(g, "mesh")
        sub(m, "uri", geometry.filename)
        if geometry.scale != (1.0, 1.0, 1.0):
            sub(m, "scale", fmt_vec(geometry.scale))


def _pose(parent: etree._Element, pose: Pose) -> None:
    if not pose.is_identity:
        sub(parent, "pose", pose_text(pose))


def _limit(axis: etree._Element, limit: Limit | None, jtype: JointType) -> None:
    if limit is None:
        return
    values = {
        "lower": limit.lower,
        "upper": limit.upper,
        "effort": limit.effort,
        "velocity": limit.velocity,
        "stiffness": limit.stiffness,
        "dissipation": limit.dissipation,
    }
    if jtype is JointType.CONTINUOUS:
        values["lower"] = values["upper"] = None
    if all(v is None for v in values.values()):
        return
    lim = sub(axis, "limit")
    for key, value in values.items():
        if value is not None:
            sub(lim, key, fmt(value))


def _axis(joint_elem: etree._Element, tag: str, joint: Joint, second: bool) -> None:
    axis = joint.axis2 if second else joint.axis
    if axis is None:
        return
    a = sub(joint_elem, tag)
    sub(a, "xyz", fmt_vec(axis.xyz))
    if not second and joint.initial_position is not None:
        sub(a, "initial_position", fmt(joint.initial_position))
    dyn = joint.dynamics2 if second else joint.dynamics
    if dyn is not None:
        d = sub(a, "dynamics")
        sub(d, "damping", fmt(dyn.damping))
        sub(d, "friction", fmt(dyn.friction))
        sub(d, "spring_reference", fmt(dyn.spring_reference))
        sub(d, "spring_stiffness", fmt(dyn.spring_stiffness))
    _limit(a, joint.limit2 if second else joint.limit, joint.type)
    if not second and joint.mimic is not None:
        m = sub(a, "mimic", joint=joint.mimic.joint, axis=joint.mimic.axis)
        sub(m, "multiplier", fmt(joint.mimic.multiplier))
        sub(m, "offset", fmt(joint.mimic.offset))
        sub(m, "reference", "0")


def _camera(s: etree._Element, p: CameraParams, sensor: Sensor) -> None:
    """``<camera>``: field of view, image (the format in SDFormat's spelling,
    :data:`_CAMERA_FORMATS`) and clip planes."""
    c = sub(s, "camera")
    sub(c, "horizontal_fov", fmt(p.horizontal_fov))
    img = sub(c, "image")
    sub(img, "width", str(p.width))
    sub(img, "height", str(p.height))
    sub(img, "format", _CAMERA_FORMATS.get(p.format, p.format))
    clip = sub(c, "clip")
    sub(clip, "near", fmt(p.near))
    sub(clip, "far", fmt(p.far))


def _ray(s: etree._Element, p: RayParams, sensor: Sensor) -> None:
    """``<lidar>`` (for a ``lidar`` or ``gpu_lidar`` sensor) or ``<ray>``: horizontal and
    vertical scan (samples, resolution, angles) and range."""
    r = sub(s, "lidar" if sensor.raw_type in ("lidar", "gpu_lidar") else "ray")
    scan = sub(r, "scan")
    for side, n, res, lo, hi in (
        (
            "horizontal",
            p.horizontal_samples,
            p.horizontal_resolution,
            p.horizontal_min_angle,
            p.horizontal_max_angle,
        ),
        (
            "vertical",
            p.vertical_samples,
            p.vertical_resolution,
            p.vertical_min_angle,
            p.vertical_max_angle,
        ),
    ):
        e = sub(scan, side)
        sub(e, "samples", str(n))
        sub(e, "resolution", fmt(res))
        sub(e, "min_angle", fmt(lo))
        sub(e, "max_angle", fmt(hi))
    rng = sub(r, "range")
    sub(rng, "min", fmt(p.range_min))
    sub(rng, "max", fmt(p.range_max))
    sub(rng, "resolution", fmt(p.range_resolution))


def _force_torque(s: etree._Element, p: ForceTorqueParams, sensor: Sensor) -> None:
    """``<force_torque>``: frame and measure direction."""
    f = sub(s, "force_torque")
    sub(f, "frame", p.frame)
    sub(f, "measure_direction", p.measure_direction)


def _contact(s: etree._Element, p: ContactParams, sensor: Sensor) -> None:
    """``<contact>``: one ``<collision>`` per collision named."""
    c = sub(s, "contact")
    for name in p.collisions:
        sub(c, "collision", name)


def _imu(s: etree._Element, p: ImuParams, sensor: Sensor) -> None:
    """``<imu>`` with its orientation reference frame, only when one is given."""
    if p.orientation_reference_frame:
        frame = sub(sub(s, "imu"), "orientation_reference_frame")
        sub(frame, "localization", p.orientation_reference_frame)


def _navsat(s: etree._Element, p: GpsParams, sensor: Sensor) -> None:
    """``<navsat>``, empty (SDFormat's defaults)."""
    sub(s, "navsat")


#: The writer of each kind of sensor parameters (their SDFormat element).
_SENSOR_PARAMS = {
    CameraParams: _camera,
    RayParams: _ray,
    ForceTorqueParams: _force_torque,
    ContactParams: _contact,
    ImuParams: _imu,
    GpsParams: _navsat,
}


def _noise_free_sensor(link: etree._Element, sensor: Sensor) -> None:
    """Write ``sensor`` into ``link`` (a link or joint element): local (unscoped) name, made
    unique within the element; pose, ``always_on``, ``update_rate``, ``visualize``, topic and
    frame id; its parameters by kind (:data:`_SENSOR_PARAMS`; none for other kinds); its
    plugins as read. Noise is not written."""
    name = sensor.name.rpartition("::")[2]
    if any(e.get("name") == name for e in link.findall("sensor")):
        name = sensor.name.replace("::", "_")
    s = sub(link, "sensor", name=name, type=sensor.raw_type or sensor.type)
    _pose(s, sensor.pose)
    sub(s, "always_on", "true" if sensor.always_on else "false")
    sub(s, "update_rate", fmt(sensor.update_rate))
    sub(s, "visualize", "true" if sensor.visualize else "false")
    if sensor.topic:
        sub(s, "topic", sensor.topic)
    if sensor.frame_id:
        sub(s, "gz_frame_id", sensor.frame_id)
    write = _SENSOR_PARAMS.get(type(sensor.params))
    if write is not None:
        write(s, sensor.params, sensor)
    for raw in sensor.plugins:
        s.append(etree.fromstring(raw))


def _interfaces(parent: etree._Element, tag: str, items: tuple[InterfaceInfo, ...]) -> None:
    for info in items:
        e = sub(parent, tag, name=info.name)
        for key, value in info.written_parameters():
            sub(e, "param", value, name=key)


def _ros2_control(model: etree._Element, hw: HardwareComponent, robot: Robot) -> None:
    block = sub(model, "ros2_control", name=hw.name, type=hw.type)
    hardware = sub(block, "hardware")
    if hw.plugin:
        sub(hardware, "plugin", hw.plugin)
    for key, value in hw.parameters:
        sub(hardware, "param", value, name=key)
    for group in (hw.joints, hw.sensors, hw.gpios):
        for comp in group:
            e = sub(block, comp.type, name=comp.name)
            _interfaces(e, "command_interface", comp.command_interfaces)
            _interfaces(e, "state_interface", comp.state_interfaces)
            for key, value in comp.parameters:
                sub(e, "param", value, name=key)
    for t in hw.transmissions:
        if t.raw_xml:
            verbatim(block, t.raw_xml)
        else:
            LOG.warning(
                "transmission %r of <ros2_control name=%r> not written: it has no raw_xml (built "
                "in code, not read from a file)",
                t.name,
                hw.name,
            )


def _common_scope(names: list[str]) -> str:
    """The deepest nested-model scope holding all ``names`` (``""`` for the top model)."""
    scopes = [n.split("::")[:-1] for n in names]
    common: list[str] = []
    for parts in zip(*scopes) if scopes else ():
        if len(set(parts)) != 1:
            break
        common.append(parts[0])
    return "::".join(common)


def _transmission(scopes: "_Scopes", t: Transmission) -> None:
    """Write a transmission outside ``<ros2_control>``: into the nested model that holds all its
    names, with names local to it (as the loader reads them); when its names still need ``::``
    (they cross nested models), as the custom element ``<sdf_bridge:transmission>``, which
    SDFormat ≥ 1.8 allows (see :mod:`sdf_bridge.description.sdf.transmissions`). URDF transmissions
    have no scopes and are written exactly as read."""
    elem = etree.fromstring(t.raw_xml)
    nodes = named_nodes(elem)
    scope = _common_scope([n.get("name", "") for n in nodes])
    while scope and scope not in scopes.models:  # only into nested models the writer made
        scope = scope.rpartition("::")[0]
    raw = t.raw_xml
    if scope:
        for node in nodes:
            node.set("name", node.get("name", "")[len(scope) + 2 :])
        raw = etree.tostring(elem, encoding="unicode", with_tail=False)
    if any("::" in node.get("name", "") for node in nodes):
        raw = custom_element(raw)
    verbatim(scopes.models[scope], raw)


class _Scopes:
    """Nested ``<model>`` elements for ``::``-scoped names (SDFormat ≥ 1.8 forbids ``::`` in
    names). Nested models get the identity pose, so their frames coincide with the top model's
    and every written link pose stays a pose in the top model frame."""

    def __init__(self, model: etree._Element) -> None:
        self.models: dict[str, etree._Element] = {"": model}

    def place(self, name: str) -> tuple[etree._Element, str]:
        """(model element to hold ``name``, local name)."""
        scope, sep, local = name.rpartition("::")
        if not sep:
            return self.models[""], name
        return self._model(scope), local

    def _model(self, scope: str) -> etree._Element:
        if scope not in self.models:
            outer, _, local = scope.rpartition("::")
            self.models[scope] = sub(self._model(outer), "model", name=local)
        return self.models[scope]


def _relative(name: str, scope: str, joint: str) -> str:
    """``name`` as seen from nested model ``scope``.

    Raises:
        UnsupportedError: ``name`` lies outside ``scope`` (SDF cannot refer to it from there).
    """
    if not scope:
        return name
    if name.startswith(scope + "::"):
        return name[len(scope) + 2 :]
    raise UnsupportedError(
        f"joint {joint!r} in nested model {scope!r} refers to {name!r} outside that model",
        element=f'<joint name="{joint}">',
        fix="rename the joint so its scope contains the links it joins",
    )


def _world_link(robot: Robot) -> str | None:
    """The URDF convention's ``world`` link (an empty root link named ``world``), which SDFormat
    reserves: it is written as joint parent ``world`` instead of a link."""
    link = robot.links.get("world")
    if link is None or link.inertial is not None or link.visuals or link.collisions:
        return None
    if any(j.child == "world" for j in robot.joints.values()):
        return None
    return "world"


def _extension_properties(
    model: etree._Element, robot: Robot
) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """The ``<gazebo reference>`` properties per link and per joint (later extensions win a
    key), ``(link → properties, joint → properties)``; a model-level (no reference)
    ``<static>`` is written into ``model``. Extensions naming neither a link nor a joint are
    left to :func:`~.losses.warn_sdf_losses`."""
    link_ext: dict[str, dict[str, str]] = {}
    joint_ext: dict[str, dict[str, str]] = {}
    for ext in robot.gazebo:
        if ext.reference in robot.links:
            link_ext.setdefault(ext.reference, {}).update(dict(ext.properties))
        elif ext.reference in robot.joints:
            joint_ext.setdefault(ext.reference, {}).update(dict(ext.properties))
        elif ext.reference is None:
            for key, value in ext.properties:
                if key == "static":
                    sub(model, "static", value)
    return link_ext, joint_ext


def _inertial(le: etree._Element, inertial: Inertial) -> None:
    """Append ``<inertial>`` to link element ``le``: pose, mass and the six inertia
    components."""
    ie = sub(le, "inertial")
    _pose(ie, inertial.origin)
    sub(ie, "mass", fmt(inertial.mass))
    inertia = sub(ie, "inertia")
    for key in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"):
        sub(inertia, key, fmt(getattr(inertial.inertia, key)))


def _surface(ce: etree._Element, props: dict[str, str]) -> None:
    """Append to collision element ``ce`` the ``<surface>`` holding the link's Gazebo contact
    and friction properties (:data:`_SURFACE`: ``mu1`` → ``friction/ode/mu``, …), if it has
    any; nothing otherwise."""
    surface = [(k, v) for k, v in props.items() if k in _SURFACE]
    if not surface:
        return
    se = sub(ce, "surface")
    for key, value in surface:
        group, engine, tag = _SURFACE[key]
        ge = se.find(group) if se.find(group) is not None else sub(se, group)
        en = ge.find(engine) if ge.find(engine) is not None else sub(ge, engine)
        sub(en, tag, value)


def _collision(le: etree._Element, col: Collision, name: str, props: dict[str, str]) -> None:
    """Append ``<collision name>`` to link element ``le``: pose, geometry and the surface of
    the link's Gazebo properties ``props`` (:func:`_surface`)."""
    ce = sub(le, "collision", name=name)
    _pose(ce, col.origin)
    _geometry(ce, col.geometry)
    _surface(ce, props)


def _visual(le: etree._Element, vis: Visual, name: str, props: dict[str, str]) -> None:
    """Append ``<visual name>`` to link element ``le``: pose, geometry and a ``<material>``
    when the link has a Gazebo named material (``props["material"]``, as a script, which wins
    in Gazebo) or the visual a colour (ambient and diffuse)."""
    ve = sub(le, "visual", name=name)
    _pose(ve, vis.origin)
    _geometry(ve, vis.geometry)
    color = vis.material.color if vis.material is not None else None
    if "material" not in props and color is None:
        return
    me = sub(ve, "material")
    if "material" in props:
        script = sub(me, "script")
        sub(script, "uri", _GAZEBO_MATERIAL_URI)
        sub(script, "name", props["material"])
    if color is not None:
        sub(me, "ambient", fmt_vec(color))
        sub(me, "diffuse", fmt_vec(color))


def _link(
    parent: etree._Element,
    local: str,
    link: Link,
    pose: Pose,
    props: dict[str, str],
    sensors: list[Sensor],
) -> list[str]:
    """Append ``<link name=local>`` to ``parent`` (its model): ``pose`` (the link frame in the
    model frame), the Gazebo link flags of ``props`` (:data:`_LINK_FLAGS`), ``<gravity>false``
    when gravity is off for it, inertial, collisions and visuals (unnamed ones named
    ``<link>_collision_<i>`` / ``<link>_visual_<i>``), and those of ``sensors`` attached to
    it (not to a joint). Returns the names of the sensors written."""
    le = sub(parent, "link", name=local)
    _pose(le, pose)
    for key, tag in _LINK_FLAGS.items():
        if key in props:
            sub(le, tag, props[key])
    if not link.gravity:  # (for URDF: the <turnGravityOff> / <gravity> of its <gazebo>)
        sub(le, "gravity", "false")
    if link.inertial is not None:
        _inertial(le, link.inertial)
    for i, col in enumerate(link.collisions):
        _collision(le, col, col.name or f"{link.name}_collision_{i}", props)
    for i, vis in enumerate(link.visuals):
        _visual(le, vis, vis.name or f"{link.name}_visual_{i}", props)
    return _sensors(le, sensors, lambda s: s.link == link.name and s.joint is None)


def _sensors(
    elem: etree._Element, sensors: list[Sensor], here: Callable[[Sensor], bool]
) -> list[str]:
    """Write each of ``sensors`` for which ``here(sensor)`` holds into ``elem``
    (:func:`_noise_free_sensor`); return their names, in order."""
    written = []
    for sensor in sensors:
        if here(sensor):
            _noise_free_sensor(elem, sensor)
            written.append(sensor.name)
    return written


def _joint_kind(je: etree._Element, joint: Joint, scope: str) -> None:
    """Append the elements of ``joint``'s type to joint element ``je``: a screw's thread pitch
    (``<screw_thread_pitch>`` in m/rev, else the legacy ``<thread_pitch>``), a gearbox's ratio
    and reference body (relative to the nested model ``scope``)."""
    if joint.type is JointType.SCREW and joint.thread_pitch is not None:
        tag = "screw_thread_pitch" if joint.thread_pitch_unit == "m/rev" else "thread_pitch"
        sub(je, tag, fmt(joint.thread_pitch))
    if joint.type is not JointType.GEARBOX:
        return
    if joint.gearbox_ratio is not None:
        sub(je, "gearbox_ratio", fmt(joint.gearbox_ratio))
    if joint.gearbox_reference_body is not None:
        body = _relative(joint.gearbox_reference_body, scope, joint.name)
        sub(je, "gearbox_reference_body", body)


def _joint_physics(je: etree._Element, joint: Joint, props: dict[str, str]) -> None:
    """Append ``<physics>`` to joint element ``je`` when needed: SDFormat's own
    ``<provide_feedback>`` (``Joint.provide_feedback``), and the joint's Gazebo properties
    ``props`` of :data:`_JOINT_ODE` in ``<ode>`` (as urdf2sdf writes them)."""
    ode = [(tag, props[key]) for key, tag in _JOINT_ODE.items() if key in props]
    if not ode and not joint.provide_feedback:
        return
    pe = sub(je, "physics")
    if joint.provide_feedback:
        sub(pe, "provide_feedback", "true")
    if ode:
        oe = sub(pe, "ode")
        for tag, value in ode:
            sub(oe, tag, value)


def _joint(
    scopes: _Scopes, joint: Joint, world: str | None, props: dict[str, str], sensors: list[Sensor]
) -> list[str]:
    """Append ``<joint>`` to the nested model holding its name (:class:`_Scopes`): pose (the
    joint frame in the child link frame, ``joint_to_child⁻¹``), parent (``world`` for the
    URDF ``world`` link, :func:`_world_link`) and child relative to that model, the elements
    of its type (:func:`_joint_kind`), both axes (a mimic's leader made relative, :func:`_axis`),
    ``<physics>`` (:func:`_joint_physics`) and the ``sensors`` attached to it. Returns the
    names of the sensors written.

    Raises:
        UnsupportedError: the joint refers to a link or joint outside its nested model
            (:func:`_relative`).
    """
    parent_elem, local = scopes.place(joint.name)
    scope = joint.name[: -len(local) - 2] if local != joint.name else ""
    je = sub(parent_elem, "joint", name=local, type=str(joint.type))
    _pose(je, joint.joint_to_child.inverse())
    parent = "world" if joint.parent == world else _relative(joint.parent, scope, joint.name)
    sub(je, "parent", parent)
    sub(je, "child", _relative(joint.child, scope, joint.name))
    _joint_kind(je, joint, scope)
    named = joint.name
    if joint.mimic is not None:
        leader = _relative(joint.mimic.joint, scope, named)
        joint = dataclasses.replace(joint, mimic=dataclasses.replace(joint.mimic, joint=leader))
    _axis(je, "axis", joint, False)
    _axis(je, "axis2", joint, True)
    _joint_physics(je, joint, props)
    return _sensors(je, sensors, lambda s: s.joint == named)


def _plugins(model: etree._Element, robot: Robot) -> None:
    """Append the model's plugins to ``model``: as read (``raw_xml``), or ``<plugin name
    filename>`` for one built in code."""
    for plugin in robot.plugins:
        if plugin.raw_xml:
            model.append(etree.fromstring(plugin.raw_xml))
        else:
            sub(model, "plugin", name=plugin.name, filename=plugin.filename)


def to_sdf(robot: Robot, *, lump_fixed: bool = False) -> str:
    """SDFormat text of ``robot`` (see the module docstring for the layout): the model with
    its static flag and pose, links, joints, plugins, classic transmissions and
    ``<ros2_control>`` blocks, in this order; what is not written is warned about.

    Args:
        robot: any loaded robot (URDF or SDF).
        lump_fixed: merge links joined by fixed joints (except those Gazebo extensions keep),
            combining inertia and moving visuals, collisions and sensors.

    Returns:
        The document, ``<sdf version="1.9">`` (``"1.11"`` when a joint has a mimic).

    Raises:
        UnsupportedError: a joint refers to a link or joint outside its nested model.
    """
    robot = simulated_masses(robot)
    if lump_fixed:
        robot = lump_fixed_joints(robot)
    robot = sdf_names(robot)
    poses = model_poses(robot)
    version = "1.11" if any(j.mimic is not None for j in robot.joints.values()) else "1.9"
    root = etree.Element("sdf", version=version)
    model = sub(root, "model", name=robot.name)
    if robot.static:
        sub(model, "static", "true")
    _pose(model, robot.pose)
    link_ext, joint_ext = _extension_properties(model, robot)
    scopes = _Scopes(model)
    world = _world_link(robot)
    sensors = list(robot.sensors)
    written: list[str] = []  # sensors placed
    for link in robot.links.values():
        if link.name != world:
            parent, local = scopes.place(link.name)
            pose = Pose.from_matrix(poses[link.name])
            props = link_ext.get(link.name, {})
            written += _link(parent, local, link, pose, props, sensors)
    for joint in robot.joints.values():
        written += _joint(scopes, joint, world, joint_ext.get(joint.name, {}), sensors)
    _plugins(model, robot)
    for t in top_level_transmissions(robot):
        _transmission(scopes, t)
    for hw in robot.ros2_control:
        _ros2_control(model, hw, robot)
    warn_sdf_losses(
        robot,
        written_sensors=written,
        link_properties=(*_SURFACE, *_LINK_FLAGS, "material", "gravity", "turnGravityOff"),
        joint_properties=_JOINT_ODE,
    )
    return to_text(root)
