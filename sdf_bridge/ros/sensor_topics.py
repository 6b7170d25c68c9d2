"""The bridge node's sensor topics: named like Gazebo's plugins name them, created from each
sensor's first reading (names: :mod:`.topic_names`), published only while subscribed, and which
sensors are wanted.

Sensors are simulated on demand, as Gazebo's sensor plugins do: a sensor's topics are created
from its first reading; after that the backend reads it (casts its rays, renders its camera)
only while one of its topics has a subscriber (:meth:`SensorTopics.wanted`, asked by the node
every :data:`SENSOR_DEMAND_PERIOD` s).

Joint wrench feedback (:mod:`sdf_bridge.description.feedback`) is read and published the same
way: the reading ``joint_wrench/<joint>`` (geometry_msgs/WrenchStamped, parent → child in the
joint frame at the child; ``frame_id`` the child link) on ``~/joint_wrench/<token>``
(:func:`~sdf_bridge.app.topic_names.joint_wrench_topics`, the names ``check`` lists; the
token is the joint's name when that is a valid ROS name token).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rclpy.node import Node

from ..app.topic_names import joint_wrench_topics, message_topic, sensor_topic, topic_of
from ..description.feedback import reading_name
from ..description.model import Robot
from ..errors import BackendError
from . import conversions
from .qos import SENSOR_QOS

SENSOR_DEMAND_PERIOD = 0.5
"""s between checks of which sensors have subscribers (:meth:`SensorTopics.wanted`)."""


def sensor_frames(robot: Robot) -> dict[str, str]:
    """Sensor name → the ``frame_id`` of its messages: the sensor's ROS frame; for a joint
    sensor (SDF force_torque, ``<gazebo reference="a_joint">``) the joint's child link, which
    TF knows; for a camera the link's ``<link>_optical_frame`` (or ``_optical``) when the robot
    has one (the optical frame convention) and the sensor has no explicit frame."""
    frames: dict[str, str] = {}
    links = robot.links
    for sensor in robot.sensors:
        frame = sensor.ros_frame_id
        if sensor.frame_id is None and frame not in links and frame in robot.joints:
            frame = robot.joints[frame].child
        if sensor.type in ("camera", "depth") and sensor.frame_id is None:
            for candidate in (f"{frame}_optical_frame", f"{frame}_optical"):
                if candidate in links:
                    frame = candidate
                    break
        frames[sensor.name] = frame
    return frames


class SensorTopics:
    """The sensor publishers of one node (module doc).

    Args:
        node: the node the publishers belong to (and whose logger reports sensors that have
            no ROS message).
        robot: the robot whose sensors they are.
        frame_prefix: prepended to every frame_id (the bridge's ``frame_prefix`` parameter,
            as robot_state_publisher's prefixes the TF frames), also to a frame a reading names
            itself (a contact sensor's frame override).

    Attributes:
        frames: sensor name → frame_id (:func:`sensor_frames`, prefixed).
        pubs: (sensor name, topic suffix) → publisher, created from the first reading.
        groups: sensor name → its publishers (an empty list: the sensor has no ROS message,
            it is no longer read).
    """

    def __init__(self, node: Node, robot: Robot, frame_prefix: str = "") -> None:
        self.node = node
        self.robot = robot
        self.frame_prefix = frame_prefix
        self.frames = {name: frame_prefix + frame for name, frame in sensor_frames(robot).items()}
        self.pubs: dict[tuple[str, str], Any] = {}
        self.groups: dict[str, list[Any]] = {}
        self._sensors = {s.name: s for s in robot.sensors}
        wrenches = joint_wrench_topics(robot)
        for warning in wrenches.warnings:
            node.get_logger().warning(warning)
        self._wrench_topics = {reading_name(j): t for j, t in wrenches.topics.items()}
        feedback = {reading_name(j): robot.joints[j].child for j in wrenches.topics}
        self.frames.update({name: frame_prefix + child for name, child in feedback.items()})
        self._names = tuple(self._sensors) + tuple(n for n in feedback if n not in self._sensors)

    def publish(self, readings: Mapping[str, Any], stamp: Any) -> None:
        """Publish each reading on its sensor's topics (created at its first reading). A
        sensor's topics are fixed by its reading type, so once they exist, a sensor none of
        whose topics has a subscriber is skipped without building its messages (images and
        point clouds are costly to convert), or its reading (converted on access). A reading
        with no ROS message (:class:`~sdf_bridge.errors.BackendError` from
        :func:`.conversions.sensor_messages`) is logged as an error once for its sensor, which
        then gets no topic and is no longer read (:meth:`wanted`)."""
        groups = self.groups
        for name in readings:
            group = groups.get(name)
            if group is not None and not any(pub.get_subscription_count() for pub in group):
                continue
            reading = readings[name]
            frame = self.frames.get(name, name)
            try:
                messages = conversions.sensor_messages(reading, stamp, frame, self.frame_prefix)
            except BackendError as exc:
                self.node.get_logger().error(f"sensor {name!r} publishes nothing: {exc}")
                groups[name] = []  # no topics: skipped from now on, and not demanded
                continue
            used = []
            for suffix, msg in messages.items():
                key = (name, suffix)
                pub = self.pubs.get(key)
                if pub is None:
                    sensor = self._sensors.get(name)  # a plug-in backend may read more
                    wrench = self._wrench_topics.get(name)
                    topic = (
                        topic_of(sensor, suffix)
                        if sensor is not None
                        else message_topic(wrench or sensor_topic(name, None), suffix)
                    )
                    pub = self.node.create_publisher(type(msg), topic, SENSOR_QOS)
                    self.pubs[key] = pub
                pub.publish(msg)
                used.append(pub)
            if group is None:
                groups[name] = used

    def wanted(self) -> frozenset[str]:
        """The sensors to read: those somebody subscribes to, and those not published yet
        (their topics are created from their first reading, so that subscribers can find
        them), joint wrenches included. Asks every topic's subscriber count: call it on the
        executor thread, not in the control tick (doc/dev/rationale.md)."""
        groups = self.groups
        return frozenset(
            name
            for name in self._names
            if (group := groups.get(name)) is None
            or any(pub.get_subscription_count() for pub in group)
        )
