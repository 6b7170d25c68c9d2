"""Tests of sdf_bridge.description.sensors.plugin_topics: the topics a sensor's Gazebo ROS
plug-in names (gazebo_ros' <ros><namespace> and <remapping>, ROS 1's <topicName>), exact names,
and their
precedence over the SDFormat <topic> (through sdf_bridge.app.topic_names, which the node uses)."""

from __future__ import annotations

import re

import pytest

from sdf_bridge.app.topic_names import sensor_topics
from sdf_bridge.description import load


def _urdf(sensors: str) -> str:
    """A robot with links ``base`` and ``arm`` (joint ``wrist``) and ``sensors``: the bodies of
    ``<gazebo reference>`` elements, ``(reference, xml)`` joined."""
    return f"""<robot name="r">
  <link name="base"/><link name="arm"/>
  <joint name="wrist" type="fixed"><parent link="base"/><child link="arm"/></joint>
  {sensors}
</robot>"""


def _sensor(kind: str, plugin: str, reference: str = "base", extra: str = "") -> str:
    return (
        f'<gazebo reference="{reference}"><sensor name="s_{kind}" type="{kind}">{extra}'
        f"{plugin}</sensor></gazebo>"
    )


def _ros2(name: str, ros: str, extra: str = "") -> str:
    return f'<plugin name="{name}" filename="libgazebo_ros_x.so"><ros>{ros}</ros>{extra}</plugin>'


def _topics(*sensors: str) -> dict[str, dict[str, str]]:
    robot = load(_urdf("".join(sensors)))
    return {
        s.name: {suffix: topic for suffix, (topic, _) in sensor_topics(s).items()}
        for s in robot.sensors
    }


NS = "<namespace>/demo</namespace>"


def test_each_kind_the_bridge_publishes_follows_its_ros2_plugin() -> None:
    """Namespace /demo and a remapping of each plug-in's own name (gazebo_plugins, ros2)."""
    topics = _topics(
        _sensor("imu", _ros2("imu_plugin", NS + "<remapping>~/out:=imu/data</remapping>")),
        _sensor("gps", _ros2("gps_plugin", NS + "<remapping>~/out:=gps/data</remapping>")),
        _sensor("ray", _ros2("laser", NS + "<remapping>~/out:=scan</remapping>")),
        _sensor("sonar", _ros2("sonar", NS + "<remapping>~/out:=range/front</remapping>")),
        _sensor(
            "force_torque", _ros2("ft", NS + "<remapping>wrench:=wrist/ft</remapping>"), "wrist"
        ),
        _sensor("contact", _ros2("bumper", NS + "<remapping>bumper_states:=bump</remapping>")),
        _sensor(
            "camera",
            _ros2(
                "cam",
                NS + "<remapping>head/image_raw:=head/rgb</remapping>",
                "<camera_name>head</camera_name>",
            ),
        ),
        _sensor("depth", _ros2("kinect", NS + "<remapping>~/x:=y</remapping>")),
    )
    assert topics == {
        "s_imu": {"": "demo/imu/data"},
        "s_gps": {"": "demo/gps/data"},
        "s_ray": {"": "demo/scan"},
        "s_sonar": {"": "demo/range/front"},
        "s_force_torque": {"": "demo/wrist/ft"},
        "s_contact": {"": "demo/bump"},
        "s_camera": {"image_raw": "demo/head/rgb", "camera_info": "demo/head/camera_info"},
        # camera_name defaults to the sensor's name; the rule names no topic of the plug-in
        "s_depth": {
            "image_raw": "demo/s_depth/depth/image_raw",
            "camera_info": "demo/s_depth/depth/camera_info",
        },
    }


@pytest.mark.parametrize(
    "ros, topic",
    [
        ("", "imu_plugin/out"),  # the node's private name, in /
        ("<namespace></namespace>", "imu_plugin/out"),  # empty: / (gazebo_ros node.cpp)
        ("<namespace>demo</namespace>", "demo/imu_plugin/out"),  # made absolute: /demo
        ("<namespace>/a/b/</namespace><remapping>~/out:=~/data</remapping>", "a/b/imu_plugin/data"),
        ("<remapping>~/out:=/abs/imu</remapping>", "/abs/imu"),  # absolute stays absolute
        ("<remapping>/imu_plugin/out:=imu</remapping>", "imu"),  # FROM written in full
        ("<remapping>out:=imu</remapping>", "imu_plugin/out"),  # /out is not ~/out: unchanged
        ("<remapping>imu_plugin:~/out:=imu</remapping>", "imu"),  # rcl's NODE:FROM:=TO
        ("<remapping>other:~/out:=imu</remapping>", "imu_plugin/out"),  # another node's rule
        ("<remapping>~/out:={node}/data</remapping>", "imu_plugin/data"),
        ("<remapping>~/out:=a</remapping><remapping>~/out:=b</remapping>", "a"),  # first rule
    ],
)
def test_ros2_names_resolve_as_rcl_expands_them(ros: str, topic: str) -> None:
    assert _topics(_sensor("imu", _ros2("imu_plugin", ros))) == {"s_imu": {"": topic}}


def test_ros1_topic_names() -> None:
    ros1 = '<plugin name="p" filename="libgazebo_ros_imu.so">'
    topics = _topics(
        _sensor(
            "imu", f"{ros1}<robotNamespace>/bot</robotNamespace><topicName>imu</topicName></plugin>"
        ),
        _sensor("ray", f"{ros1}<topicName>/scan</topicName></plugin>"),
        _sensor("contact", f"{ros1}<bumperTopicName>bumps</bumperTopicName></plugin>"),
        _sensor(
            "camera",
            f"{ros1}<cameraName>head</cameraName><imageTopicName>rgb</imageTopicName>"
            "<cameraInfoTopicName>/info</cameraInfoTopicName></plugin>",
        ),
        _sensor(
            "depth",
            f"{ros1}<robotNamespace>bot</robotNamespace><cameraName>rs</cameraName>"
            "<depthImageTopicName>depth/image_rect_raw</depthImageTopicName></plugin>",
        ),
    )
    assert topics == {
        "s_imu": {"": "bot/imu"},
        "s_ray": {"": "/scan"},
        "s_contact": {"": "bumps"},
        "s_camera": {"image_raw": "head/rgb", "camera_info": "/info"},
        "s_depth": {
            "image_raw": "bot/rs/depth/image_rect_raw",
            "camera_info": "bot/rs/depth/camera_info",
        },
    }


def test_precedence_plugin_ros_then_topicname_then_topic_then_the_default() -> None:
    ros1 = '<plugin name="p1" filename="a.so"><topicName>ros1_imu</topicName></plugin>'
    ros2 = _ros2("p2", "<remapping>~/out:=ros2_imu</remapping>")
    topic = "<topic>sdf_imu</topic>"
    assert _topics(_sensor("imu", ros1 + ros2, extra=topic)) == {"s_imu": {"": "ros2_imu"}}
    assert _topics(_sensor("imu", ros1, extra=topic)) == {"s_imu": {"": "ros1_imu"}}
    assert _topics(_sensor("imu", "", extra=topic)) == {"s_imu": {"": "sdf_imu"}}
    assert _topics(_sensor("imu", "")) == {"s_imu": {"": "sensors/s_imu"}}
    # a plug-in without ROS topic elements names nothing
    plain = '<plugin name="p" filename="libgazebo_ros_imu_sensor.so"><x>1</x></plugin>'
    assert _topics(_sensor("imu", plain, extra=topic)) == {"s_imu": {"": "sdf_imu"}}
    # kinds gazebo_ros has no plug-in for keep their <topic>
    assert _topics(_sensor("magnetometer", _ros2("m", NS), extra="<topic>mag</topic>")) == {
        "s_magnetometer": {"": "mag"}
    }


def test_an_sdformat_model_reads_the_same_plugins() -> None:
    sdf = f"""<?xml version="1.0"?><sdf version="1.9"><model name="m"><link name="l">
      <sensor name="imu" type="imu"><topic>gz_imu</topic>
        {_ros2("imu_plugin", NS + "<remapping>~/out:=imu/data</remapping>")}</sensor>
    </link></model></sdf>"""
    (sensor,) = load(sdf).sensors
    assert sensor.plugin_topics == (("", "demo/imu/data"),)
    assert sensor_topics(sensor) == {"": ("demo/imu/data", "sensor_msgs/Imu")}


def _gazebo_skip(text: str) -> str:
    """The one skip of loading ``text``: a ``<gazebo>`` extension (its sensor left out)."""
    robot = load(text)
    assert robot.sensors == ()
    (skipped,) = robot.skipped
    assert skipped.kind == "gazebo"
    return str(skipped)


@pytest.mark.parametrize(
    "ros, message",
    [
        (
            "<remapping>~/out</remapping>",
            r"<remapping> '~/out' of plug-in 'imu_plugin' is not FROM:=TO\. Fix: write the rule "
            r"as rcl takes it, e.g\. ~/out:=imu/data",
        ),
        (
            "<remapping>~/out:=</remapping>",
            r"<remapping> '~/out:=' of plug-in 'imu_plugin' is not FROM:=TO",
        ),
        (
            "<remapping>~/out:=imu data</remapping>",
            r"plug-in 'imu_plugin' gives the topic 'imu data', not a valid ROS name\. Fix: give "
            r"names of letters, digits and '_' separated by '/' \(e\.g\. imu/data\)",
        ),
        (
            "<namespace>bad-ns</namespace>",
            r"plug-in 'imu_plugin' gives the topic 'bad-ns/imu_plugin/out', not a valid ROS name",
        ),
    ],
)
def test_bad_plugin_names_skip_the_extension_naming_the_element(ros: str, message: str) -> None:
    skipped = _gazebo_skip(_urdf(_sensor("imu", _ros2("imu_plugin", ros))))
    assert re.search(r"^<string>:\d+: gazebo skipped: .*" + message, skipped), skipped


def test_a_nameless_ros2_plugin_skips_its_extension() -> None:
    plugin = '<plugin filename="libgazebo_ros_imu_sensor.so"><ros/></plugin>'
    skipped = _gazebo_skip(_urdf(_sensor("imu", plugin)))
    assert re.search(
        r"^<string>:\d+: gazebo skipped: a gazebo_ros plug-in \(<plugin> with <ros>\) has no "
        r"name: its ROS node has none\. Fix: add name=",
        skipped,
    ), skipped


def test_a_bad_ros1_topic_skips_its_extension() -> None:
    plugin = '<plugin name="p" filename="a.so"><topicName>1imu</topicName></plugin>'
    skipped = _gazebo_skip(_urdf(_sensor("imu", plugin)))
    assert "<topicName> gives the topic '1imu', not a valid ROS name" in skipped
