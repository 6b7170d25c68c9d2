"""URDF ``<gazebo>`` extensions: properties, sensors and plugins.

::

    <gazebo reference="wheel_link">          (a link, a joint, or no reference = the model)
      <mu1>0.2</mu1>                          → property ("mu1", "0.2")
      <kp value="1e7"/>                       → property ("kp", "1e7")   (old value= form)
      <sensor name="imu" type="imu">...</sensor>    → Sensor (link = the reference)
      <plugin name="p" filename="libp.so">...</plugin>  → Plugin (raw XML kept)
    </gazebo>

Where a ``<gazebo reference>`` sensor goes (:func:`attach_sensor`) and whether an extension turns
a link's gravity off (:func:`gravity_off`) are decided by the URDF loader, which knows the links
and joints, with these functions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from lxml import etree

from ...util.booleans import parse_bool
from ..model.gazebo import GazeboExtension, Plugin
from ..model.joint import Joint
from ..model.link import Link
from ..model.sensor import Sensor
from ..sensors.sdf_element import parse_sensor
from ..xmlio import ParseContext, serialise

#: Tags a ``<gazebo>`` extension is known to carry: those the URDF→SDFormat converter
#: (sdformat ``parser_urdf.cc``) interprets, and the SDFormat link/joint/model/collision elements
#: it copies through. An unknown tag that is a close match of one of these (``<selfColide>``) is
#: a misspelling, an error: Gazebo would drop it silently. Other tags are kept as properties.
GAZEBO_TAGS = frozenset(
    {
        # parser_urdf.cc
        "material",
        "static",
        "turnGravityOff",
        "gravity",
        "dampingFactor",
        "maxVel",
        "minDepth",
        "mu1",
        "mu2",
        "fdir1",
        "kp",
        "kd",
        "selfCollide",
        "maxContacts",
        "laserRetro",
        "springReference",
        "springStiffness",
        "stopCfm",
        "stopErp",
        "fudgeFactor",
        "provideFeedback",
        "canonicalBody",
        "cfmDamping",
        "implicitSpringDamper",
        "disableFixedJointLumping",
        "preserveFixedJoint",
        "visual",
        "collision",
        "sensor",
        "plugin",
        # SDFormat elements copied into the link / joint / model
        "self_collide",
        "enable_wind",
        "kinematic",
        "velocity_decay",
        "must_be_base_link",
        "allow_auto_disable",
        "pose",
        "frame",
        "light",
        "projector",
        "audio_source",
        "audio_sink",
        "battery",
        "particle_emitter",
        "physics",
        "surface",
        "laser_retro",
        "max_contacts",
        "provide_feedback",
        "implicit_spring_damper",
        "max_vel",
        "min_depth",
    }
)


def parse_plugin(elem: etree._Element, ctx: ParseContext) -> Plugin:
    """A ``<plugin name filename>`` kept raw; a missing name or filename is warned about and
    recorded as ``""``."""
    name = (elem.get("name") or "").strip()
    filename = (elem.get("filename") or "").strip()
    for attr, value in (("name", name), ("filename", filename)):
        if not value:
            ctx.warn(elem, f"<plugin> has no {attr} attribute")
    return Plugin(name=name, filename=filename, raw_xml=serialise(elem), source=ctx.source(elem))


def parse_gazebo(
    elem: etree._Element, ctx: ParseContext
) -> tuple[GazeboExtension, list[Sensor], list[Plugin]]:
    """Read a URDF ``<gazebo>`` element.

    Args:
        elem: the ``<gazebo>`` element.
        ctx: parse context.

    Returns:
        ``(extension, sensors, plugins)``: the :class:`GazeboExtension` (``reference`` or
        ``None``; ``properties`` = (tag, text) of each child without element children, the text
        being the ``value`` attribute when the element has no text; ``raw_xml``), the
        ``<sensor>`` children read by
        :func:`~sdf_bridge.description.sensors.sdf_element.parse_sensor` with ``link`` = the
        reference and ``origin_format="gazebo"``, and the direct ``<plugin>`` children (plugins
        inside a sensor stay in :attr:`Sensor.plugins`).

    Raises:
        InvalidValueError: from the sensor parser (bad sensor values); a child whose tag is a
            misspelling of one of :data:`GAZEBO_TAGS`.
    """
    ref_text = elem.get("reference")
    reference = ref_text.strip() if ref_text is not None and ref_text.strip() else None
    if ref_text is not None and reference is None:
        ctx.warn(elem, 'reference="" is empty; the extension applies to the model')
    properties: list[tuple[str, str]] = []
    sensors: list[Sensor] = []
    plugins: list[Plugin] = []
    for child in elem:
        if not isinstance(child.tag, str):
            continue
        if child.tag == "sensor":
            sensors.append(parse_sensor(child, ctx, link=reference, origin_format="gazebo"))
            continue
        if child.tag == "plugin":
            plugins.append(parse_plugin(child, ctx))
            continue
        if child.tag not in GAZEBO_TAGS:
            ctx.unknown_element(child, elem, GAZEBO_TAGS, warning=None)
        if not any(isinstance(c.tag, str) for c in child):
            text = (child.text or "").strip()
            if not text and child.get("value") is not None:
                text = child.get("value", "").strip()
            properties.append((child.tag, text))
    extension = GazeboExtension(
        reference=reference,
        properties=tuple(properties),
        raw_xml=serialise(elem),
        source=ctx.source(elem),
    )
    return extension, sensors, plugins


def attach_sensor(
    sensor: Sensor, joints: Mapping[str, Joint], links: Mapping[str, Link], ctx: ParseContext
) -> Sensor | None:
    """Where a ``<gazebo reference>`` sensor goes, as libsdformat's URDF reader puts it.

    A link reference: that link. A joint reference (force-torque, as Gazebo classic writes
    it): the joint, its frame being the joint's child link frame (SDFormat's default ``child``);
    a sensor of another kind there is warned about (Gazebo puts it into the joint too). A
    reference that names neither: ``None``, warned (Gazebo ignores the extension, so the sensor
    is not simulated).
    """
    reference = sensor.link
    if reference is None or reference in links:
        return sensor
    joint = joints.get(reference)
    if joint is None:
        ctx.warn(
            None,
            f'sensor {sensor.name!r} in <gazebo reference="{reference}">{_line(sensor)}: '
            f"{reference!r} is "
            "no link or joint of the robot, so Gazebo ignores the extension; the sensor is not "
            "simulated",
        )
        return None
    if sensor.type != "force_torque":
        ctx.warn(
            None,
            f"{sensor.type} sensor {sensor.name!r} in <gazebo "
            f'reference="{reference}">{_line(sensor)} names '
            "a joint, not a link; it is attached to the joint's frame on its child link "
            f"{joint.child!r}, as Gazebo does",
        )
    return replace(sensor, link=joint.child, joint=joint.name)


def gravity_off(extension: GazeboExtension) -> bool:
    """Whether a ``<gazebo reference="link">`` turns gravity off for the link:
    ``<turnGravityOff>true`` (Gazebo classic) or ``<gravity>false`` (``<gravity>`` wins)."""
    gravity = extension.property("gravity")
    if gravity is not None:
        return parse_bool(gravity) is False
    return parse_bool(extension.property("turnGravityOff") or "") is True


def _line(sensor: Sensor) -> str:
    return (
        f" (line {sensor.source.line})" if sensor.source is not None and sensor.source.line else ""
    )


__all__ = ["GAZEBO_TAGS", "attach_sensor", "gravity_off", "parse_gazebo", "parse_plugin"]
