"""urdfdom's top-level URDF ``<sensor>`` (wiki.ros.org/urdf/XML/sensor)::

    <sensor name="cam" update_rate="20">
      <parent link="camera_link"/>
      <origin xyz="0 0 0" rpy="0 0 0"/>
      <camera>
        <image width="640" height="480" hfov="1.57" format="RGB8" near="0.01" far="50"/>
      </camera>
    </sensor>

or ``<ray><horizontal samples resolution min_angle max_angle/><vertical .../></ray>``. Units SI
(rad, m, Hz). SDFormat-style sensors (``<gazebo><sensor>``, SDF) are read by :mod:`.sdf_element`.

iDynTree's form (a ``type`` attribute; humanoids such as iCub and ergoCub write it) is read by
:func:`parse_robot_sensor` too::

    <sensor name="l_arm_ft" type="force_torque">
      <parent joint="l_arm_ft_joint"/>
      <force_torque><frame>child</frame><measure_direction>child_to_parent</measure_direction>
      </force_torque>
    </sensor>
    <sensor name="waist_imu_acc" type="accelerometer"><parent link="root_link"/><origin .../>
    </sensor>

``force_torque`` on a joint becomes a force-torque sensor of that joint (on its child link, as
SDFormat's joint sensors); ``accelerometer``, ``gyroscope`` and ``imu`` become IMU sensors of
their link (``raw_type`` keeps the written type). Other types are not read (the element is
skipped with a warning by the URDF loader's containment, :mod:`.contain`).
"""

from __future__ import annotations

from collections.abc import Mapping

from lxml import etree

from ...errors import InvalidValueError, MissingReferenceError, UnsupportedError
from ..model.joint import Joint
from ..model.pose import IDENTITY, Pose
from ..model.sensor import CameraParams, ImuParams, RayParams, Sensor, SensorParams
from ..sensors.sdf_element import (
    check_params,
    first_child,
    force_torque_params,
    parse_int,
    sensor_name,
)
from ..sensors.vocabulary import TYPE_ALIASES
from ..xmlio import ParseContext


def _urdf_origin(ctx: ParseContext, elem: etree._Element | None) -> Pose:
    """URDF ``<origin xyz rpy>`` (both optional, default zeros)."""
    if elem is None:
        return IDENTITY
    xyz = ctx.vector(elem, elem.get("xyz", "0 0 0"), 3, "attribute 'xyz'")
    rpy = ctx.vector(elem, elem.get("rpy", "0 0 0"), 3, "attribute 'rpy'")
    return Pose(xyz=xyz, rpy=rpy)  # type: ignore[arg-type]  # (ctx.vector(..., 3, ...) each)


def _urdf_ray_dim(
    ctx: ParseContext, elem: etree._Element | None
) -> tuple[int, float, float, float]:
    """samples, resolution, min_angle, max_angle of ``<horizontal>``/``<vertical>`` (urdfdom
    defaults 1, 1, 0, 0 for absent attributes or element)."""
    if elem is None:
        return 1, 1.0, 0.0, 0.0
    samples_text = elem.get("samples")
    samples = (
        1
        if samples_text is None
        else parse_int(ctx, elem, samples_text, "attribute 'samples'", minimum=1)
    )
    return (  # type: ignore[return-value]  # (float defaults: never None)
        samples,
        ctx.float_attr(elem, "resolution", 1.0),
        ctx.float_attr(elem, "min_angle", 0.0),
        ctx.float_attr(elem, "max_angle", 0.0),
    )


_URDF_SENSOR_TAGS = frozenset({"parent", "origin", "camera", "ray"})


def parse_urdf_sensor(elem: etree._Element, ctx: ParseContext) -> Sensor:
    """Read a urdfdom top-level ``<sensor name update_rate>`` (wiki.ros.org/urdf/XML/sensor).

    The kind is the first child that is not ``<parent>``/``<origin>`` (as urdfdom decides):
    ``<camera>`` needs ``<image>`` with ``width``, ``height``, ``format``, ``hfov`` (rad),
    ``near``, ``far`` (m) — all required, as in urdfdom; ``<ray>`` has optional
    ``<horizontal>``/``<vertical>`` with ``samples`` (default 1), ``resolution`` (1),
    ``min_angle``/``max_angle`` (0 rad). Other kinds are kept with ``params=None`` and a warning.

    Raises:
        InvalidValueError: no name, no ``<parent link>``, bad ``update_rate``/origin, missing or
            bad camera image attributes, bad ray attributes.
    """
    name = sensor_name(ctx, elem)
    parent = first_child(elem, "parent")
    link = (parent.get("link") or "").strip() if parent is not None else ""
    if not link:
        raise ctx.error(
            InvalidValueError,
            elem,
            f"sensor {name!r} has no <parent link=...>",
            'add <parent link="the_link"/>',
        )
    rate = ctx.float_attr(elem, "update_rate", 0.0) or 0.0
    if rate < 0:
        raise ctx.error(InvalidValueError, elem, f"update_rate is {rate}", "give a rate ≥ 0 Hz")
    for child in elem:
        if isinstance(child.tag, str) and child.tag not in _URDF_SENSOR_TAGS:
            ctx.unknown_element(child, elem, _URDF_SENSOR_TAGS, warning=None)
    body = next(
        (c for c in elem if isinstance(c.tag, str) and c.tag not in ("parent", "origin")),
        None,
    )
    params: SensorParams = None
    if body is None:
        raise ctx.error(
            InvalidValueError,
            elem,
            f"sensor {name!r} has no <camera> or <ray> element",
            "add <camera> or <ray>",
        )
    raw_type = body.tag
    if body.tag == "camera":
        image = first_child(body, "image")
        if image is None:
            raise ctx.error(
                InvalidValueError,
                body,
                f"camera sensor {name!r} has no <image>",
                "add <image width height format hfov near far/>",
            )
        for attr in ("width", "height", "format", "hfov", "near", "far"):
            if image.get(attr) is None:
                raise ctx.error(
                    InvalidValueError,
                    image,
                    f"camera sensor {name!r}: <image> has no {attr} attribute",
                    f'add {attr}="..."',
                )
        params = CameraParams(
            horizontal_fov=ctx.float_attr(  # type: ignore[arg-type]  # (required: not None)
                image, "hfov", required=True
            ),
            width=parse_int(ctx, image, image.get("width"), "attribute 'width'", minimum=1),
            height=parse_int(ctx, image, image.get("height"), "attribute 'height'", minimum=1),
            format=image.get("format", "").strip(),
            near=ctx.float_attr(image, "near", required=True),  # type: ignore[arg-type]  # (ditto)
            far=ctx.float_attr(image, "far", required=True),  # type: ignore[arg-type]  # (ditto)
        )
    elif body.tag == "ray":
        hs, hr, hmin, hmax = _urdf_ray_dim(ctx, first_child(body, "horizontal"))
        vs, vr, vmin, vmax = _urdf_ray_dim(ctx, first_child(body, "vertical"))
        params = RayParams(
            horizontal_samples=hs,
            horizontal_resolution=hr,
            horizontal_min_angle=hmin,
            horizontal_max_angle=hmax,
            vertical_samples=vs,
            vertical_resolution=vr,
            vertical_min_angle=vmin,
            vertical_max_angle=vmax,
        )
    else:
        ctx.warn(
            body,
            f"sensor {name!r}: <{body.tag}> is not a urdfdom sensor kind (camera, ray); kept "
            "untyped",
        )
    return Sensor(
        name=name,
        type=TYPE_ALIASES.get(raw_type, raw_type),
        link=link,
        raw_type=raw_type,
        pose=_urdf_origin(ctx, first_child(elem, "origin")),
        update_rate=rate,
        params=check_params(ctx, elem, name, params),
        origin_format="urdf",
        source=ctx.source(elem),
    )


#: iDynTree sensor types read as IMU sensors (each a part of what an IMU measures).
IDYNTREE_IMU_TYPES = frozenset({"accelerometer", "gyroscope", "imu"})


def _idyntree_sensor(
    elem: etree._Element, ctx: ParseContext, joints: Mapping[str, Joint]
) -> Sensor:
    """An iDynTree ``<sensor name type>`` (module docstring).

    Raises:
        InvalidValueError: no name, no ``<parent>`` of the kind the type needs, bad origin or
            ``<force_torque>`` values.
        MissingReferenceError: a force-torque sensor on a joint the robot does not have.
        UnsupportedError: a type other than force_torque, accelerometer, gyroscope, imu.
    """
    name = (elem.get("name") or "").strip()
    raw_type = (elem.get("type") or "").strip()
    if not name:
        raise ctx.error(InvalidValueError, elem, "<sensor> has no name attribute", 'add name="..."')
    parent = first_child(elem, "parent")
    pose = _urdf_origin(ctx, first_child(elem, "origin"))
    rate = ctx.float_attr(elem, "update_rate", 0.0) or 0.0
    if raw_type == "force_torque":
        joint_name = (parent.get("joint") or "").strip() if parent is not None else ""
        if not joint_name:
            raise ctx.error(
                InvalidValueError,
                elem,
                f"force_torque sensor {name!r} has no <parent joint=...>",
                'add <parent joint="the_joint"/>',
            )
        joint = joints.get(joint_name)
        if joint is None:
            raise ctx.error(
                MissingReferenceError,
                parent,
                f"force_torque sensor {name!r} is on joint {joint_name!r}, which the robot does "
                "not have",
                "name an existing joint in <parent joint=...>",
            )
        return Sensor(
            name=name,
            type="force_torque",
            link=joint.child,
            joint=joint.name,
            raw_type=raw_type,
            pose=pose,
            update_rate=rate,
            params=force_torque_params(ctx, elem),
            origin_format="urdf",
            source=ctx.source(elem),
        )
    if raw_type in IDYNTREE_IMU_TYPES:
        link = (parent.get("link") or "").strip() if parent is not None else ""
        if not link:
            raise ctx.error(
                InvalidValueError,
                elem,
                f"{raw_type} sensor {name!r} has no <parent link=...>",
                'add <parent link="the_link"/>',
            )
        return Sensor(
            name=name,
            type="imu",
            link=link,
            raw_type=raw_type,
            pose=pose,
            update_rate=rate,
            params=ImuParams(),
            origin_format="urdf",
            source=ctx.source(elem),
        )
    raise ctx.error(
        UnsupportedError,
        elem,
        f"sensor type {raw_type!r} is not one the bridge reads (force_torque on a joint, "
        "accelerometer, gyroscope, imu; or urdfdom's <camera>/<ray>)",
        "leave it for the tools that read it; the bridge simulates no such sensor",
    )


def parse_robot_sensor(
    elem: etree._Element, ctx: ParseContext, joints: Mapping[str, Joint]
) -> list[Sensor]:
    """A robot-level URDF ``<sensor>``: iDynTree's form when it has a ``type`` attribute or a
    ``<parent joint>``, else urdfdom's (:func:`parse_urdf_sensor`). ``joints``: the robot's
    joints, for sensors on a joint. Returns the sensor as a one-element list.

    Raises:
        DescriptionError: as :func:`parse_urdf_sensor` and for iDynTree's form (module
            docstring); the URDF loader contains it (the sensor is skipped with a warning).
    """
    parent = first_child(elem, "parent")
    if elem.get("type") is not None or (parent is not None and parent.get("joint") is not None):
        return [_idyntree_sensor(elem, ctx, joints)]
    return [parse_urdf_sensor(elem, ctx)]


__all__ = ["IDYNTREE_IMU_TYPES", "parse_robot_sensor", "parse_urdf_sensor"]
