"""ROS topic names of a robot's sensors, as the node publishes them (plain Python, no rclpy:
``sdf-bridge check`` shows them too).

A sensor whose Gazebo ROS plug-in names its topics publishes on those
(``Sensor.plugin_topics``: :mod:`sdf_bridge.description.sensors.plugin_topics` has the order of
precedence and how gazebo_ros resolves ``<ros><namespace>`` and ``<remapping>``). Otherwise a
sensor's *base* is its ``<topic>`` when that is a valid ROS name (relative names resolve in
the node's namespace), else ``sensors/<name>`` (characters ROS does not allow become ``_``).
Cameras (``camera``, ``depth``) publish two topics, named as gazebo_ros' camera plugin and
ros_gz_bridge users name them (image_transport's convention):

=============================  ============================  ============================
base                           image (sensor_msgs/Image)     camera_info
=============================  ============================  ============================
``cam`` (or ``sensors/cam``)   ``cam/image_raw``             ``cam/camera_info``
``cam/image_raw``              ``cam/image_raw`` (as is)     ``cam/camera_info``
``image_raw``                  ``image_raw``                 ``camera_info``
=============================  ============================  ============================

Every other sensor publishes its one message on its base (Imu, WrenchStamped, LaserScan,
PointCloud2, Range, NavSatFix, MagneticField, FluidPressure; contacts as PointCloud2).
"""

from __future__ import annotations

import re

from ..description.model import Sensor
from ..util.ros_names import is_topic_name

IMAGE = "image_raw"
CAMERA_INFO = "camera_info"

#: The message of each simulated sensor kind, by reading (``""``: the one message).
MESSAGES = {
    "imu": {"": "sensor_msgs/Imu"},
    "force_torque": {"": "geometry_msgs/WrenchStamped"},
    "ray": {"": "sensor_msgs/LaserScan (one vertical sample) or PointCloud2"},
    "range": {"": "sensor_msgs/Range"},
    "contact": {"": "sensor_msgs/PointCloud2 (one point per contact)"},
    "gps": {"": "sensor_msgs/NavSatFix"},
    "magnetometer": {"": "sensor_msgs/MagneticField"},
    "air_pressure": {"": "sensor_msgs/FluidPressure"},
    "camera": {IMAGE: "sensor_msgs/Image", CAMERA_INFO: "sensor_msgs/CameraInfo"},
    "depth": {IMAGE: "sensor_msgs/Image (32FC1, m)", CAMERA_INFO: "sensor_msgs/CameraInfo"},
}


def sensor_topic(name: str, topic: str | None) -> str:
    """Topic base of a sensor: its ``topic`` as written when it is a valid ROS name, else
    ``sensors/<name>`` with invalid characters replaced by ``_``."""
    if topic and is_topic_name(topic, private=True):
        return topic
    clean = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not clean or clean[0].isdigit():
        clean = f"s_{clean}"
    return f"sensors/{clean}"


def message_topic(base: str, suffix: str) -> str:
    """The topic of a sensor's message ``suffix`` (``""``, ``"image_raw"``, ``"camera_info"``)
    for topic base ``base`` (see the module docstring)."""
    if not suffix:
        return base
    parent, _, last = base.rpartition("/")
    if last == IMAGE:  # the topic names the image already: not suffixed again, info beside it
        return base if suffix == IMAGE else (f"{parent}/{suffix}" if parent else suffix)
    return f"{base}/{suffix}"


def topic_of(sensor: Sensor, suffix: str) -> str:
    """The topic of ``sensor``'s message ``suffix``: its plug-in's name for it, else
    :func:`message_topic` of its base (module docstring)."""
    named = dict(sensor.plugin_topics).get(suffix)
    return (
        named
        if named is not None
        else message_topic(sensor_topic(sensor.name, sensor.topic), suffix)
    )


def sensor_topics(sensor: Sensor) -> dict[str, tuple[str, str]]:
    """Suffix → (topic, message type) a simulated sensor of ``sensor``'s kind publishes; empty
    for kinds the bridge publishes nothing for."""
    return {
        suffix: (topic_of(sensor, suffix), kind)
        for suffix, kind in MESSAGES.get(sensor.type, {}).items()
    }


__all__ = [
    "CAMERA_INFO",
    "IMAGE",
    "MESSAGES",
    "message_topic",
    "sensor_topic",
    "sensor_topics",
    "topic_of",
]
