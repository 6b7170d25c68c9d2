"""Sensors: SDFormat-style ``<sensor name type>`` elements.

:func:`parse_sensor` reads the SDFormat sensor element, used inside URDF
``<gazebo reference="link">`` and by the SDF loader (``<link><sensor>``, ``<joint><sensor>``).
Units are SI (angles rad, distances m, rates Hz). SDFormat's documented defaults
(sdformat.org spec, ``sensor.sdf``, ``camera.sdf``, ``lidar.sdf``/``ray.sdf``) are used for
elements that are absent, as every SDFormat reader does; present values that are not numbers are
errors. Where libsdformat keeps a value and Gazebo reads it its own way, the value is read as
Gazebo does, with a warning: a non-integral number where an integer is expected (image size,
ray samples) counts by its integer part; SDFormat's unset placeholders (``__default__``,
``__default_topic__``) mean "not given".

The sensor type names and the child tags of the sensor elements (the misspelling check) are
:mod:`.vocabulary`'s; urdfdom's top-level URDF ``<sensor>`` is read by
:mod:`sdf_bridge.description.urdf.sensor`.
"""

from __future__ import annotations

import math

from lxml import etree

from ...errors import InvalidValueError
from ...util.booleans import parse_bool
from ..model.pose import IDENTITY, Pose, matrix_to_rpy, quaternion_to_matrix
from ..model.sensor import (
    AirPressureParams,
    CameraParams,
    ContactParams,
    ForceTorqueParams,
    GpsParams,
    ImuParams,
    MagnetometerParams,
    Noise,
    RayParams,
    Sensor,
    SensorParams,
)
from ..xmlio import ParseContext, serialise
from .plugin_topics import plugin_topics
from .vocabulary import TYPE_ALIASES, check_children

FORCE_TORQUE_FRAMES = ("child", "parent", "sensor")
MEASURE_DIRECTIONS = ("child_to_parent", "parent_to_child")
NOISE_TYPES = ("none", "gaussian", "gaussian_quantized")


def first_child(elem: etree._Element | None, tag: str) -> etree._Element | None:
    """First element child ``tag`` of ``elem`` (or ``None``)."""
    if elem is None:
        return None
    for c in elem:
        if isinstance(c.tag, str) and c.tag == tag:
            return c
    return None


def _text(elem: etree._Element | None, tag: str) -> str | None:
    """Stripped text of child ``tag``, ``None`` when the child is absent."""
    child = first_child(elem, tag)
    if child is None:
        return None
    return (child.text or "").strip()


def _float(ctx: ParseContext, elem: etree._Element | None, tag: str, default: float) -> float:
    """Child ``tag`` of ``elem`` as a float; ``default`` (the spec's) when absent.

    Raises:
        InvalidValueError: present but not a finite number.
    """
    child = first_child(elem, tag)
    if child is None:
        return default
    return ctx.to_float(child, child.text, f"<{tag}>")


def parse_int(
    ctx: ParseContext, at: etree._Element, text: str | None, what: str, *, minimum: int = 0
) -> int:
    """An integer (``"640"``; an integral decimal like ``"640.0"`` is accepted) ≥ ``minimum``.

    Raises:
        InvalidValueError: not a number, not integral or below ``minimum``.
    """
    value = ctx.to_float(at, text, what)
    if value != math.floor(value) or value < minimum:
        raise ctx.error(
            InvalidValueError,
            at,
            f"{what} is {text!r}, not an integer ≥ {minimum}",
            f"write {what} as a whole number",
        )
    return int(value)


def _child_int(
    ctx: ParseContext, elem: etree._Element | None, tag: str, default: int, *, minimum: int = 0
) -> int:
    """Child ``tag`` as an integer, ``default`` when absent. A non-integral number is read as
    Gazebo reads it, by its integer part (libsdformat keeps the text), with a warning.

    Raises:
        InvalidValueError: not a number, or (its integer part) below ``minimum``.
    """
    child = first_child(elem, tag)
    if child is None:
        return default
    what = f"<{tag}>"
    value = ctx.to_float(child, child.text, what)
    whole = math.trunc(value)
    if whole < minimum:
        raise ctx.error(
            InvalidValueError,
            child,
            f"{what} is {(child.text or '').strip()!r}, not an integer ≥ {minimum}",
            f"write {what} as a whole number ≥ {minimum}",
        )
    if whole != value:
        ctx.warn(
            child,
            f"{what} is {(child.text or '').strip()!r}, not an integer; {whole} is used "
            "(its integer part, as Gazebo reads it)",
        )
    return whole


#: SDFormat's placeholders for "not set" (libsdformat's unset string values), read as not given.
UNSET_PLACEHOLDERS = frozenset({"__default__", "__default_topic__"})


def _given_text(ctx: ParseContext, elem: etree._Element | None, tag: str) -> str | None:
    """Stripped text of child ``tag``; ``None`` when absent, empty or one of
    :data:`UNSET_PLACEHOLDERS` (warned about: the default is used)."""
    text = _text(elem, tag)
    if text in UNSET_PLACEHOLDERS:
        ctx.warn(
            first_child(elem, tag),
            f'<{tag}> is {text}, SDFormat\'s placeholder for "not set"; '
            "read as not given (the default is used)",
        )
        return None
    return text or None


def parse_sdf_bool(ctx: ParseContext, at: etree._Element, text: str, what: str) -> bool:
    """SDFormat boolean: ``true``/``false``/``1``/``0`` (any case, spaces stripped).

    Raises:
        InvalidValueError: any other text.
    """
    value = parse_bool(text)
    if value is not None:
        return value
    raise ctx.error(
        InvalidValueError,
        at,
        f"{what} is {text!r}, not a boolean",
        f"write {what} as true or false",
    )


def _child_bool(ctx: ParseContext, elem: etree._Element, tag: str, default: bool) -> bool:
    child = first_child(elem, tag)
    if child is None:
        return default
    return parse_sdf_bool(ctx, child, child.text or "", f"<{tag}>")


def parse_pose(ctx: ParseContext, elem: etree._Element | None) -> Pose:
    """SDFormat ``<pose>``: ``x y z roll pitch yaw`` (rad; degrees with ``degrees="true"``), or
    ``x y z qx qy qz qw`` with ``rotation_format="quat_xyzw"``; empty text is the identity.

    ``relative_to`` is not resolved here (the SDF loader does that).

    Raises:
        InvalidValueError: wrong count, not numbers, unknown ``rotation_format``, zero quaternion.
    """
    if elem is None:
        return IDENTITY
    text = (elem.text or "").strip()
    if not text:
        return IDENTITY
    fmt = (elem.get("rotation_format") or "euler_rpy").strip()
    degrees = parse_sdf_bool(ctx, elem, elem.get("degrees", "false"), "attribute 'degrees'")
    if fmt == "euler_rpy":
        values = ctx.vector(elem, text, 6, "<pose>")
        rpy = values[3:]
        if degrees:
            rpy = tuple(math.radians(v) for v in rpy)
        return Pose(xyz=values[:3], rpy=rpy)  # type: ignore[arg-type]  # (6 values: 3 xyz, 3 rpy)
    if fmt == "quat_xyzw":
        values = ctx.vector(elem, text, 7, "<pose>")
        quat = values[3:]
        try:
            rot = quaternion_to_matrix(quat)  # type: ignore[arg-type]  # (x y z w: 4 of 7 values)
        except ValueError:
            raise ctx.error(
                InvalidValueError,
                elem,
                f"<pose> quaternion is {quat}, of zero length",
                "give a unit quaternion x y z w",
            ) from None
        return Pose(
            xyz=values[:3],  # type: ignore[arg-type]  # (the first 3 of 7 values)
            rpy=matrix_to_rpy(rot),
        )
    raise ctx.error(
        InvalidValueError,
        elem,
        f"rotation_format is {fmt!r}",
        'use rotation_format="euler_rpy" or "quat_xyzw"',
    )


def parse_noise(ctx: ParseContext, elem: etree._Element | None) -> Noise | None:
    """SDFormat ``<noise>`` (``type`` as attribute (1.5+) or child element); ``None`` when absent.

    Raises:
        InvalidValueError: unknown noise type or non-numeric value.
    """
    if elem is None:
        return None
    check_children(ctx, elem, "noise")
    ntype = (elem.get("type") or _text(elem, "type") or "none").strip().lower()
    if ntype not in NOISE_TYPES:
        raise ctx.error(
            InvalidValueError,
            elem,
            f"noise type is {ntype!r}",
            f"use one of {', '.join(NOISE_TYPES)}",
        )
    spreads = {tag: _float(ctx, elem, tag, 0.0) for tag in ("stddev", "bias_stddev", "precision")}
    for tag, value in spreads.items():
        if value < 0:
            raise ctx.error(
                InvalidValueError,
                first_child(elem, tag),
                f"noise <{tag}> is {value:g}, negative",
                f"give a <{tag}> >= 0",
            )
    return Noise(
        type=ntype,
        mean=_float(ctx, elem, "mean", 0.0),
        bias_mean=_float(ctx, elem, "bias_mean", 0.0),
        **spreads,
    )


def check_params(
    ctx: ParseContext, elem: etree._Element, name: str, params: SensorParams
) -> SensorParams:
    """Range checks of camera and ray parameters, common to both sensor forms.

    Raises:
        InvalidValueError: a camera field of view not in (0, 2π] rad, a clip range without
            0 <= near < far (m), a ray scan with min_angle > max_angle (rad) or a range with
            min > max (m).
    """
    problem = fix = None
    if isinstance(params, CameraParams):
        if not 0.0 < params.horizontal_fov <= 2.0 * math.pi:
            problem, fix = (
                f"horizontal field of view is {params.horizontal_fov:g} rad",
                "give a value in (0, 2π] rad",
            )
        elif not 0.0 <= params.near < params.far:
            problem, fix = (
                f"clip range near {params.near:g} m, far {params.far:g} m",
                "give 0 <= near < far (m)",
            )
    elif isinstance(params, RayParams):
        for direction in ("horizontal", "vertical"):
            low, high = (
                getattr(params, f"{direction}_min_angle"),
                getattr(params, f"{direction}_max_angle"),
            )
            if low > high:
                problem, fix = (
                    f"{direction} min_angle {low:g} rad is above max_angle {high:g} rad",
                    "swap min_angle and max_angle",
                )
                break
        else:
            if params.range_min > params.range_max:
                problem, fix = (
                    f"range min {params.range_min:g} m is above max {params.range_max:g} m",
                    "swap the range min and max",
                )
    if problem is not None:
        raise ctx.error(InvalidValueError, elem, f"sensor {name!r}: {problem}", fix or "")
    return params


def _camera(ctx: ParseContext, sensor: etree._Element, *, depth: bool) -> CameraParams:
    cam = first_child(sensor, "camera")
    image = first_child(cam, "image")
    clip = first_child(cam, "clip")
    for elem, kind in ((cam, "camera"), (image, "image"), (clip, "clip")):
        check_children(ctx, elem, kind)
    return CameraParams(
        horizontal_fov=_float(ctx, cam, "horizontal_fov", 1.047),
        width=_child_int(ctx, image, "width", 320, minimum=1),
        height=_child_int(ctx, image, "height", 240, minimum=1),
        format=_text(image, "format") or "R8G8B8",
        near=_float(ctx, clip, "near", 0.1),
        far=_float(ctx, clip, "far", 100.0),
        depth=depth,
        noise=parse_noise(ctx, first_child(cam, "noise")),
    )


def _ray(ctx: ParseContext, sensor: etree._Element) -> RayParams:
    ray = first_child(sensor, "ray")
    if ray is None:
        ray = first_child(sensor, "lidar")
    scan = first_child(ray, "scan")
    hor = first_child(scan, "horizontal")
    ver = first_child(scan, "vertical")
    rng = first_child(ray, "range")
    for elem, kind in (
        (ray, "ray"),
        (scan, "scan"),
        (hor, "scan_dimension"),
        (ver, "scan_dimension"),
        (rng, "range"),
    ):
        check_children(ctx, elem, kind)
    return RayParams(
        horizontal_samples=_child_int(ctx, hor, "samples", 640, minimum=1),
        horizontal_resolution=_float(ctx, hor, "resolution", 1.0),
        horizontal_min_angle=_float(ctx, hor, "min_angle", 0.0),
        horizontal_max_angle=_float(ctx, hor, "max_angle", 0.0),
        vertical_samples=_child_int(ctx, ver, "samples", 1, minimum=1),
        vertical_resolution=_float(ctx, ver, "resolution", 1.0),
        vertical_min_angle=_float(ctx, ver, "min_angle", 0.0),
        vertical_max_angle=_float(ctx, ver, "max_angle", 0.0),
        range_min=_float(ctx, rng, "min", 0.0),
        range_max=_float(ctx, rng, "max", 0.0),
        range_resolution=_float(ctx, rng, "resolution", 0.0),
        noise=parse_noise(ctx, first_child(ray, "noise")),
    )


def _xyz_noise(ctx: ParseContext, elem: etree._Element | None) -> tuple[Noise, Noise, Noise] | None:
    if elem is None:
        return None
    out = []
    for axis in ("x", "y", "z"):
        noise = parse_noise(ctx, first_child(first_child(elem, axis), "noise"))
        out.append(noise if noise is not None else Noise())
    return (out[0], out[1], out[2])


def _imu(ctx: ParseContext, sensor: etree._Element) -> ImuParams:
    imu = first_child(sensor, "imu")
    check_children(ctx, imu, "imu")
    ref = first_child(imu, "orientation_reference_frame")
    return ImuParams(
        angular_velocity_noise=_xyz_noise(ctx, first_child(imu, "angular_velocity")),
        linear_acceleration_noise=_xyz_noise(ctx, first_child(imu, "linear_acceleration")),
        orientation_reference_frame=_text(ref, "localization") if ref is not None else None,
    )


def force_torque_params(ctx: ParseContext, sensor: etree._Element) -> ForceTorqueParams:
    """The ``<force_torque>`` child of ``sensor`` (``frame``, ``measure_direction``; SDFormat's
    defaults ``child``, ``child_to_parent``), as SDFormat and iDynTree write it.

    Raises:
        InvalidValueError: a frame or direction outside SDFormat's values.
    """
    ft = first_child(sensor, "force_torque")
    check_children(ctx, ft, "force_torque")
    frame = _text(ft, "frame") or "child"
    direction = _text(ft, "measure_direction") or "child_to_parent"
    if frame not in FORCE_TORQUE_FRAMES:
        raise ctx.error(
            InvalidValueError,
            first_child(ft, "frame"),
            f"force_torque frame is {frame!r}",
            f"use one of {', '.join(FORCE_TORQUE_FRAMES)}",
        )
    if direction not in MEASURE_DIRECTIONS:
        raise ctx.error(
            InvalidValueError,
            first_child(ft, "measure_direction"),
            f"measure_direction is {direction!r}",
            f"use one of {', '.join(MEASURE_DIRECTIONS)}",
        )
    return ForceTorqueParams(frame=frame, measure_direction=direction)


def _contact(sensor: etree._Element) -> ContactParams:
    contact = first_child(sensor, "contact")
    if contact is None:
        return ContactParams()
    names = tuple(
        (c.text or "").strip() for c in contact if isinstance(c.tag, str) and c.tag == "collision"
    )
    return ContactParams(collisions=names)


def _gps(ctx: ParseContext, sensor: etree._Element, raw_type: str) -> GpsParams:
    block = first_child(sensor, "navsat" if raw_type == "navsat" else "gps")
    if block is None:
        block = first_child(sensor, "gps" if raw_type == "navsat" else "navsat")
    pos = first_child(block, "position_sensing")
    check_children(ctx, block, "navsat")
    check_children(ctx, pos, "navsat_sensing")
    return GpsParams(
        horizontal_position_noise=parse_noise(
            ctx, first_child(first_child(pos, "horizontal"), "noise")
        ),
        vertical_position_noise=parse_noise(
            ctx, first_child(first_child(pos, "vertical"), "noise")
        ),
    )


def _magnetometer(ctx: ParseContext, sensor: etree._Element) -> MagnetometerParams:
    block = first_child(sensor, "magnetometer")
    check_children(ctx, block, "magnetometer")
    return MagnetometerParams(noise=_xyz_noise(ctx, block))


def _air_pressure(ctx: ParseContext, sensor: etree._Element) -> AirPressureParams:
    block = first_child(sensor, "air_pressure")
    check_children(ctx, block, "air_pressure")
    return AirPressureParams(
        reference_altitude=_float(ctx, block, "reference_altitude", 0.0),
        pressure_noise=parse_noise(ctx, first_child(first_child(block, "pressure"), "noise")),
    )


def _params(ctx: ParseContext, sensor: etree._Element, kind: str, raw_type: str) -> SensorParams:
    if kind in ("camera", "depth"):
        return _camera(ctx, sensor, depth=kind == "depth")
    if kind == "ray":
        return _ray(ctx, sensor)
    if kind == "imu":
        return _imu(ctx, sensor)
    if kind == "force_torque":
        return force_torque_params(ctx, sensor)
    if kind == "contact":
        return _contact(sensor)
    if kind == "gps":
        return _gps(ctx, sensor, raw_type)
    if kind == "magnetometer":
        return _magnetometer(ctx, sensor)
    if kind == "air_pressure":
        return _air_pressure(ctx, sensor)
    return None


def _frame_id(ctx: ParseContext, sensor: etree._Element) -> str | None:
    """Explicit frame override: ``<gz_frame_id>``, ``<ignition_frame_id>``, ``<frame_id>``, then
    the first plugin's ``frameName`` / ``frame_name`` / ``<ros><frame_name>``. Differing
    overrides are warned about (the first in that order is used)."""
    found: list[tuple[str, str]] = []
    for tag in ("gz_frame_id", "ignition_frame_id", "frame_id"):
        text = _given_text(ctx, sensor, tag)
        if text:
            found.append((f"<{tag}>", text))
    for plugin in sensor:
        if not (isinstance(plugin.tag, str) and plugin.tag == "plugin"):
            continue
        for tag in ("frameName", "frame_name"):
            text = _given_text(ctx, plugin, tag)
            if text:
                found.append((f"plugin <{tag}>", text))
        text = _given_text(ctx, first_child(plugin, "ros"), "frame_name")
        if text:
            found.append(("plugin <ros><frame_name>", text))
    if not found:
        return None
    if len({v for _, v in found}) > 1:
        ctx.warn(
            sensor, f"several frame overrides {found}; {found[0][0]} = {found[0][1]!r} is used"
        )
    return found[0][1]


def sensor_name(ctx: ParseContext, elem: etree._Element) -> str:
    """The stripped ``name`` attribute of a ``<sensor>`` (SDFormat or URDF).

    Raises:
        InvalidValueError: the attribute is missing or blank.
    """
    name = (elem.get("name") or "").strip()
    if not name:
        raise ctx.error(
            InvalidValueError,
            elem,
            "<sensor> has no name attribute",
            'add name="..." to the <sensor>',
        )
    return name


def parse_sensor(
    elem: etree._Element,
    ctx: ParseContext,
    *,
    link: str | None,
    joint: str | None = None,
    origin_format: str,
) -> Sensor:
    """Read an SDFormat-style ``<sensor name="..." type="...">``.

    Args:
        elem: the ``<sensor>`` element.
        ctx: parse context.
        link: the link it is attached to (the ``<gazebo reference>`` or SDF parent link), or
            ``None``.
        joint: the joint for SDF joint sensors (force_torque).
        origin_format: ``"gazebo"`` (URDF ``<gazebo>``) or ``"sdf"``.

    Returns:
        The :class:`Sensor`: ``type`` normalised by :data:`~.vocabulary.TYPE_ALIASES`
        (other types kept as written), ``raw_type`` as written, ``pose`` from ``<pose>``
        (numbers only; SDF ``relative_to`` is the SDF loader's job), typed ``params`` for
        camera/depth (the first ``<camera>`` of a multicamera), ray (``<ray>`` or ``<lidar>``),
        imu, force_torque, contact, gps/navsat, magnetometer and air_pressure, ``plugins`` as
        raw XML.

    Raises:
        InvalidValueError: missing name or type; a number, integer or boolean that is not one;
            a bad pose; unknown noise type, force-torque frame or measure direction; a negative
            noise spread; camera or ray values out of range (see ``check_params``); a misspelt
            element (a close match of a tag of :data:`~.vocabulary.KNOWN_CHILDREN`, e.g.
            ``<horizontal_fvo>``); a plug-in's ``<remapping>`` or topic that is not one
            (:func:`~.plugin_topics.plugin_topics`).
    """
    name = sensor_name(ctx, elem)
    raw_type = (elem.get("type") or "").strip()
    if not raw_type:
        raise ctx.error(
            InvalidValueError,
            elem,
            f"sensor {name!r} has no type attribute",
            'add type="imu" (camera, ray, gpu_lidar, ...)',
        )
    kind = TYPE_ALIASES.get(raw_type.lower(), raw_type)
    check_children(ctx, elem, "sensor")
    rate = _float(ctx, elem, "update_rate", 0.0)
    if rate < 0:
        raise ctx.error(
            InvalidValueError,
            first_child(elem, "update_rate"),
            f"update_rate is {rate}",
            "give a rate ≥ 0 Hz",
        )
    return Sensor(
        name=name,
        type=kind,
        link=link,
        raw_type=raw_type,
        joint=joint,
        pose=parse_pose(ctx, first_child(elem, "pose")),
        update_rate=rate,
        topic=_given_text(ctx, elem, "topic"),
        frame_id=_frame_id(ctx, elem),
        always_on=_child_bool(ctx, elem, "always_on", False),
        visualize=_child_bool(ctx, elem, "visualize", False),
        params=check_params(ctx, elem, name, _params(ctx, elem, kind, raw_type.lower())),
        plugins=tuple(serialise(p) for p in elem if isinstance(p.tag, str) and p.tag == "plugin"),
        plugin_topics=plugin_topics(ctx, elem, kind, name),
        origin_format=origin_format,
        source=ctx.source(elem),
    )


__all__ = [
    "FORCE_TORQUE_FRAMES",
    "UNSET_PLACEHOLDERS",
    "MEASURE_DIRECTIONS",
    "NOISE_TYPES",
    "check_params",
    "first_child",
    "parse_int",
    "parse_noise",
    "parse_pose",
    "parse_sdf_bool",
    "parse_sensor",
]
