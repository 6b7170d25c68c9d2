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

A joint asking for wrench feedback (:mod:`sdf_bridge.description.feedback`) publishes on
``~/joint_wrench/<token>`` (:func:`joint_wrench_topics`, the one rule ``check`` and ``run``
use): inside the node's namespace and name, e.g. ``/sdf_bridge/joint_wrench/elbow``. The token
is the joint's name when that is a valid ROS name token (letters, digits, ``_``, not starting
with a digit); otherwise each run of other characters becomes one ``_`` (``arm::elbow`` →
``arm_elbow``, ``sp ace`` → ``sp_ace``, ``ré`` → ``r_``) and a token that would start with a
digit or ``_`` gets ``j`` / ``j_`` in front (``1st`` → ``j_1st``: ``_`` would hide the topic
from ``ros2 topic list``). When such a token is also another joint's (``a.b`` and ``a-b`` →
``a_b``), every renamed joint of that group gets ``_`` and the first 6 hex digits of the SHA-256
of its name appended (``a_b_6e7d3a``), a joint named validly keeping its name: the names depend
only on the robot's joint names, never on their order or on which joints ask for feedback, and
a warning names the joints and their topics.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass

from ..description.feedback import feedback_joints
from ..description.model import Robot, Sensor
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


JOINT_WRENCH_NAMESPACE = "~/joint_wrench/"
"""Where the joint wrench topics are (:func:`joint_wrench_topics`)."""

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_NOT_TOKEN = re.compile(r"[^A-Za-z0-9_]+")


def _token(joint: str) -> str:
    """``joint`` as a ROS name token, before collisions are settled (module doc)."""
    if _TOKEN.match(joint):
        return joint
    clean = _NOT_TOKEN.sub("_", joint)
    if not clean[:1].isalpha():
        clean = ("j" if clean.startswith("_") else "j_") + clean
    return clean


def _suffixed(base: str, joint: str, digits: int) -> str:
    """``base`` told apart by the first ``digits`` hex digits of the SHA-256 of ``joint``."""
    return f"{base}_{hashlib.sha256(joint.encode()).hexdigest()[:digits]}"


@dataclass(frozen=True)
class JointWrenchTopics:
    """The wrench topic of each feedback joint (:func:`joint_wrench_topics`).

    Attributes:
        topics: joint name → topic (``~/joint_wrench/<token>``), in joint order.
        warnings: one message per group of feedback joints whose names map to one token.
    """

    topics: dict[str, str]
    warnings: tuple[str, ...]


def joint_wrench_topics(robot: Robot) -> JointWrenchTopics:
    """The topics of ``robot``'s joints asking for wrench feedback (module doc: the token of
    each, unique among the tokens of all the robot's joints), and a warning for each group of
    feedback joints that had to be told apart by a suffix."""
    groups: dict[str, list[str]] = {}
    for name in robot.joints:
        groups.setdefault(_token(name), []).append(name)
    token = {
        name: base if len(names) == 1 or name == base else _suffixed(base, name, 6)
        for base, names in groups.items()
        for name in names
    }
    used = Counter(token.values())
    for name, tok in token.items():  # (a joint named like a suffixed token: a longer suffix)
        digits = 6
        while used[tok] > 1 and tok != name:
            used[tok] -= 1
            digits += 1
            tok = _suffixed(_token(name), name, digits)
            used[tok] += 1
        token[name] = tok
    wanted = feedback_joints(robot)
    topics = {name: JOINT_WRENCH_NAMESPACE + token[name] for name in wanted}
    warnings = []
    for base, names in groups.items():
        renamed = [n for n in names if n != base and n in topics]
        if len(names) > 1 and renamed:
            where = ", ".join(f"{n!r} on {JOINT_WRENCH_NAMESPACE}{token[n]}" for n in renamed)
            warnings.append(
                f"joints {names} all map to the topic token {base!r} (a ROS name allows "
                f"letters, digits and _ only); their wrenches are published apart: {where}. "
                "Fix: rename the joints with letters, digits and _ (not starting with a digit)"
            )
    return JointWrenchTopics(topics, tuple(warnings))


__all__ = [
    "CAMERA_INFO",
    "IMAGE",
    "JOINT_WRENCH_NAMESPACE",
    "MESSAGES",
    "JointWrenchTopics",
    "joint_wrench_topics",
    "message_topic",
    "sensor_topic",
    "sensor_topics",
    "topic_of",
]
