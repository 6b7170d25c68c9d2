"""Contact sensors on ROS: a ``sensor_msgs/PointCloud2`` per contact sensor (one point per
contact: position, normal, force on the sensor's link, in its frame), topic created at its first
reading, read on demand like the other sensors; a reading with no message is reported once.

Robot: a fixed pad and a 2 kg cube on a passive prismatic joint resting on it, a contact sensor
on each (MuJoCo, robot geoms colliding). In-process tests drive :meth:`BridgeNode.cycle`
directly; the last one runs the bridge in its own process and subscribes over DDS.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from rclpy.context import Context
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import PointCloud2

from sdf_bridge.ros import conversions
from sdf_bridge.ros.node import BridgeNode

from .conftest import Probe

pytest.importorskip("mujoco")

G = 9.81
SLIDER_MASS = 2.0  # kg
FORCE_TOL = 1e-3  # N: the settled cube's weight, carried by its contacts (float32 in the message)

# test/data/contact_stack.urdf with a 50 Hz pad sensor and a 100 Hz slider sensor on its own topic
STACK = (
    (Path(__file__).parents[1] / "data" / "contact_stack.urdf")
    .read_text()
    .replace(
        '<sensor name="pad_touch" type="contact"/>',
        '<sensor name="pad_touch" type="contact"><update_rate>50</update_rate></sensor>',
    )
    .replace(
        '<sensor name="slider_touch" type="contact"/>',
        '<sensor name="slider_touch" type="contact"><update_rate>100</update_rate>'
        "<topic>slider_contacts</topic></sensor>",
    )
)
assert STACK.count("<update_rate>") == 2  # (the replacements matched)

PARAMS = {
    "backend": "mujoco",
    "command_timeout": 0.0,
    "update_rate": 100.0,
    "robot_description": STACK,
    "backend_params.self_collide": True,
}


def _points(msg: PointCloud2) -> np.ndarray:
    """(width, 9) float32 values in :data:`conversions.CONTACT_FIELDS` order."""
    assert [f.name for f in msg.fields] == list(conversions.CONTACT_FIELDS)
    return np.frombuffer(bytes(msg.data), dtype="<f4").reshape(
        msg.width, len(conversions.CONTACT_FIELDS)
    )


def _settled(msg: PointCloud2) -> bool:
    """Whether the message carries the cube's weight (force_z summed ≈ m·g, ``FORCE_TOL``)."""
    return msg.width > 0 and abs(float(_points(msg)[:, 8].sum()) - SLIDER_MASS * G) < FORCE_TOL


@pytest.fixture
def node(ros_context: Context) -> Iterator[BridgeNode]:
    overrides = [Parameter(name, value=value) for name, value in PARAMS.items()]
    bridge = BridgeNode(
        context=ros_context, node_name="contact_bridge", start=False, parameter_overrides=overrides
    )
    yield bridge
    bridge.shutdown()
    bridge.destroy_node()


def test_contact_topics_appear_at_the_first_reading(node: BridgeNode) -> None:
    node.cycle(0)
    pad, slider = (
        node.sensor_topics.pubs[("pad_touch", "")],
        node.sensor_topics.pubs[("slider_touch", "")],
    )
    assert pad.msg_type is PointCloud2 and slider.msg_type is PointCloud2
    assert (pad.topic_name, slider.topic_name) == ("/sensors/pad_touch", "/slider_contacts")
    assert node.sensor_topics.groups == {"pad_touch": [pad], "slider_touch": [slider]}


def test_contact_sensor_read_on_demand(node: BridgeNode, probe: Probe) -> None:
    suite = node.hardware.backend.sensors
    node.cycle(0)
    node._update_sensor_demand()
    assert suite.demand == frozenset()  # published once, nobody listens: not read any more
    probe.watch("/slider_contacts", PointCloud2, qos_profile_sensor_data)
    pub = node.sensor_topics.pubs[("slider_touch", "")]
    probe.wait_for(
        lambda: pub.get_subscription_count() > 0, "the bridge to see the contact subscriber"
    )
    node._update_sensor_demand()
    assert suite.demand == frozenset({"slider_touch"})
    for k in range(1, 201):  # 2 s of simulation: the cube falls 5 cm onto the pad and settles
        node.cycle(k)
    probe.wait_for(
        lambda: any(_settled(m) for m in probe.messages["/slider_contacts"]),
        "a contact cloud carrying the cube's weight",
    )
    msg = probe.messages["/slider_contacts"][-1]
    assert msg.header.frame_id == "slider"
    points = _points(msg)
    assert points.shape == (4, 9)
    # the cube's bottom face (m)
    np.testing.assert_allclose(points[:, 2], -0.1, rtol=0.0, atol=1e-4)
    np.testing.assert_array_equal(points[:, 3:6], np.tile(np.float32([0.0, 0.0, -1.0]), (4, 1)))
    assert points[:, 6:].sum(axis=0) == pytest.approx((0.0, 0.0, SLIDER_MASS * G), abs=FORCE_TOL)
    assert node.sensor_topics.pubs[("pad_touch", "")].get_subscription_count() == 0
    probe.unwatch("/slider_contacts")


@dataclass(frozen=True)
class _OdometerReading:
    distance: float


class _Logger:
    def __init__(self) -> None:
        self.errors: list[str] = []

    def error(self, text: str) -> None:
        self.errors.append(text)

    def debug(self, text: str) -> None:
        pass


def test_reading_without_message_reported_once_and_not_read_again(
    node: BridgeNode, monkeypatch
) -> None:
    logger = _Logger()
    monkeypatch.setattr(node, "get_logger", lambda: logger)
    stamp = conversions.time_msg(0.0)
    for _ in range(3):
        node.sensor_topics.publish({"pad_touch": _OdometerReading(1.0)}, stamp)
    assert len(logger.errors) == 1
    assert logger.errors[0].startswith(
        "sensor 'pad_touch' publishes nothing: no ROS message for a sensor reading of type "
        "'_OdometerReading'"
    )
    assert ("pad_touch", "") not in node.sensor_topics.pubs
    assert node.sensor_topics.groups["pad_touch"] == []
    node._update_sensor_demand()
    assert "pad_touch" not in node.hardware.backend.sensors.demand
    assert "slider_touch" in node.hardware.backend.sensors.demand  # not published yet: still read


def test_contact_cloud_across_processes(start_bridge, probe: Probe) -> None:
    """The bridge in its own process (loop thread, real time): the slider's contact cloud
    arrives, in the slider's frame, with the cube's weight pushing it up."""
    bridge = start_bridge(PARAMS, name="contact_bridge")
    probe.watch("/slider_contacts", PointCloud2, qos_profile_sensor_data)
    messages = probe.messages["/slider_contacts"]
    start = len(messages)  # only this bridge's messages (earlier tests published on the topic too)
    try:
        probe.wait_for(
            lambda: any(_settled(m) for m in messages[start:]) or not bridge.running(),
            "a contact cloud carrying the cube's weight",
            timeout=90.0,
        )
        assert bridge.running(), bridge.output()
        msg = next(m for m in reversed(messages[start:]) if _settled(m))
        assert msg.header.frame_id == "slider"
        assert msg.width == 4 and msg.point_step == 36 and msg.is_dense
        forces = _points(msg)[:, 6:]
        assert np.all(forces[:, 2] > 0.0)  # the pad pushes the cube up
    finally:
        probe.unwatch("/slider_contacts")
        assert bridge.stop() == 0, bridge.output()
