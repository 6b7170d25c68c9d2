"""The vocabulary of SDFormat sensor elements: the sensor type names
(:data:`~.vocabulary.TYPE_ALIASES`, written type → :attr:`~.model.sensor.Sensor.type`, shared by
:mod:`.sdf_element` and :mod:`~sdf_bridge.description.urdf.sensor`) and the child tags of each
sensor element (:data:`~.vocabulary.KNOWN_CHILDREN`), against which
:func:`~.vocabulary.check_children` tells a misspelt tag (an error) from a foreign one (left alone).
"""

from __future__ import annotations

from lxml import etree

from ..xmlio import ParseContext

#: Written sensor type → normalised :attr:`~sdf_bridge.description.model.sensor.Sensor.type`.
TYPE_ALIASES: dict[str, str] = {
    "camera": "camera",
    "multicamera": "camera",
    "wideanglecamera": "camera",
    "wide_angle_camera": "camera",
    "depth": "depth",
    "depth_camera": "depth",
    "rgbd_camera": "depth",
    "rgbd": "depth",
    "ray": "ray",
    "gpu_ray": "ray",
    "lidar": "ray",
    "gpu_lidar": "ray",
    "imu": "imu",
    "force_torque": "force_torque",
    "contact": "contact",
    "gps": "gps",
    "navsat": "gps",
    "altimeter": "altimeter",
    "magnetometer": "magnetometer",
    "air_pressure": "air_pressure",
    "air_speed": "air_speed",
    "sonar": "range",
    "range": "range",
}


#: Child tags of SDFormat sensor elements (sdformat.org spec, sensor.sdf and the sensor kinds):
#: an unknown child that is a close match of one of these is a misspelling, an error (it would
#: otherwise fall back to the spec's default silently). Other unknown children are left alone
#: (SDFormat readers ignore them, plug-ins read some).
KNOWN_CHILDREN: dict[str, frozenset[str]] = {
    "sensor": frozenset(
        {
            "always_on",
            "update_rate",
            "visualize",
            "topic",
            "enable_metrics",
            "frame_id",
            "gz_frame_id",
            "ignition_frame_id",
            "pose",
            "plugin",
            "air_pressure",
            "air_speed",
            "altimeter",
            "camera",
            "contact",
            "force_torque",
            "gps",
            "imu",
            "lidar",
            "gpu_ray",
            "logical_camera",
            "magnetometer",
            "navsat",
            "ray",
            "rfid",
            "rfidtag",
            "sonar",
            "transceiver",
        }
    ),
    "camera": frozenset(
        {
            "pose",
            "horizontal_fov",
            "image",
            "clip",
            "save",
            "depth_camera",
            "noise",
            "distortion",
            "lens",
            "visibility_mask",
            "optical_frame_id",
            "camera_info_topic",
            "triggered",
            "trigger_topic",
            "segmentation_type",
            "box_type",
        }
    ),
    "image": frozenset({"width", "height", "format", "anti_aliasing"}),
    "clip": frozenset({"near", "far"}),
    "ray": frozenset({"scan", "range", "noise", "visibility_mask"}),
    "scan": frozenset({"horizontal", "vertical"}),
    "scan_dimension": frozenset({"samples", "resolution", "min_angle", "max_angle"}),
    "range": frozenset({"min", "max", "resolution"}),
    "noise": frozenset(
        {
            "type",
            "mean",
            "stddev",
            "bias_mean",
            "bias_stddev",
            "dynamic_bias_stddev",
            "dynamic_bias_correlation_time",
            "precision",
        }
    ),
    "imu": frozenset(
        {
            "orientation_reference_frame",
            "angular_velocity",
            "linear_acceleration",
            "enable_orientation",
            "topic",
            "noise",
        }
    ),
    "force_torque": frozenset({"frame", "measure_direction", "force", "torque"}),
    "navsat": frozenset({"position_sensing", "velocity_sensing"}),
    "navsat_sensing": frozenset({"horizontal", "vertical"}),
    "magnetometer": frozenset({"x", "y", "z"}),
    "air_pressure": frozenset({"reference_altitude", "pressure"}),
}


#: camelCase spellings found in old Gazebo descriptions: warned about, not errors (real robot
#: files carry them; Gazebo ignores them, so the default applies there too).
_LEGACY_SPELLINGS = {"alwaysOn": "always_on", "updateRate": "update_rate"}


def check_children(ctx: ParseContext, elem: etree._Element | None, kind: str) -> None:
    """Refuse a child of ``elem`` that is a misspelling of a tag of ``KNOWN_CHILDREN[kind]``.

    Raises:
        InvalidValueError: e.g. ``<horizontal_fvo>`` in a ``<camera>``.
    """
    if elem is None:
        return
    known = KNOWN_CHILDREN[kind]
    for child in elem:
        if not isinstance(child.tag, str) or child.tag in known:
            continue
        spelling = _LEGACY_SPELLINGS.get(child.tag)
        if spelling is not None and spelling in known:
            ctx.warn(
                child,
                f"<{child.tag}> is not an SDFormat element (libsdformat ignores it); not read: "
                f"write <{spelling}>",
            )
            continue
        ctx.unknown_element(child, elem, known, warning=None)


__all__ = ["KNOWN_CHILDREN", "TYPE_ALIASES", "check_children"]
