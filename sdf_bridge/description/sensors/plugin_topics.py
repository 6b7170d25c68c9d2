r"""The ROS topics a sensor's Gazebo ROS plug-in names, read as gazebo_ros resolves them.

These are strings of the description: nothing is executed, expanded or looked up. A sensor's
topic is chosen in this order (the first that applies; the sensor-topic table of the documentation,
``doc/user/sensors.md``, says the same):

=====  ==========================================  ============================================
rank   the sensor has                              its topics
=====  ==========================================  ============================================
1      a ROS 2 gazebo_ros plug-in (a ``<plugin>``  the plug-in's names (below) in
       with a ``<ros>`` child)                     ``<ros><namespace>``, each ``<remapping>``
                                                   applied
2      a ROS 1 plug-in's ``<topicName>``           ``<robotNamespace>/<topicName>``; cameras
       (cameras: ``<cameraName>``,                 ``<robotNamespace>/<cameraName>/<image…>``
       ``<imageTopicName>``, …)
3      an SDFormat ``<topic>`` (a valid ROS name)  the ``<topic>`` (cameras: ``/image_raw``,
                                                   ``/camera_info`` beside it)
4      none of these                               ``sensors/<name>`` (and the camera topics)
=====  ==========================================  ============================================

A ROS 2 plug-in is the ROS node named by its ``name`` attribute in its ``<namespace>``
(gazebo_ros/src/node.cpp: absent or empty = ``/``); it publishes, by sensor kind
(gazebo_plugins/src/gazebo_ros_*.cpp, branch ros2):

=================  =========================================================================
imu, gps, ray,     ``~/out`` (the node's private name: ``<namespace>/<plug-in name>/out``)
range
force_torque       ``wrench``
contact            ``bumper_states``
camera             ``<camera_name>/image_raw``, ``<camera_name>/camera_info`` (the plug-in's
                   ``<camera_name>``, default the sensor's name)
depth              ``<camera_name>/depth/image_raw``, ``<camera_name>/depth/camera_info``
=================  =========================================================================

A ``<remapping>FROM:=TO</remapping>`` (``NODE:FROM:=TO`` applies to that node only) replaces a
name when FROM expands to it, both expanded as rcl does (``~`` = the node's private namespace,
a relative name in the namespace, ``{node}`` and ``{ns}`` substituted): husky's
``~/out:=gps/data`` gives ``gps/data``; ``image_raw:=x`` matches no camera topic (the camera
publishes ``<camera_name>/image_raw``: write ``<camera_name>/image_raw:=x``). The names are kept
relative to the bridge's namespace (``/`` by default, where Gazebo's are rooted), so that the
bridge's ``namespace`` launch argument still moves them; a name the remapping makes absolute
(``/x``) stays absolute. Several ROS 2 plug-ins on one sensor (gazebo_ros' ray demo has one per
output type): the first one's names. ``<ros><argument>``\ s (``__ns:=…``) are not read.
"""

from __future__ import annotations

from lxml import etree

from ...errors import InvalidValueError
from ...util.ros_names import is_topic_name
from ..xmlio import ParseContext

#: Sensor kind → message suffix (``""``: the one message; ``image_raw``, ``camera_info``) →
#: the name gazebo_ros' plug-in of that kind publishes on (``{camera}``: its camera name).
ROS2_NAMES: dict[str, dict[str, str]] = {
    "imu": {"": "~/out"},
    "gps": {"": "~/out"},
    "ray": {"": "~/out"},
    "range": {"": "~/out"},
    "force_torque": {"": "wrench"},
    "contact": {"": "bumper_states"},
    "camera": {"image_raw": "{camera}/image_raw", "camera_info": "{camera}/camera_info"},
    "depth": {
        "image_raw": "{camera}/depth/image_raw",
        "camera_info": "{camera}/depth/camera_info",
    },
}

#: ROS 1 gazebo_plugins: suffix → (the plug-in's tag, its default) of the topic, for cameras in
#: ``<cameraName>``'s namespace (gazebo_ros_camera_utils, gazebo_ros_openni_kinect).
ROS1_CAMERA_TAGS: dict[str, dict[str, tuple[str, str]]] = {
    "camera": {
        "image_raw": ("imageTopicName", "image_raw"),
        "camera_info": ("cameraInfoTopicName", "camera_info"),
    },
    "depth": {
        "image_raw": ("depthImageTopicName", "depth/image_raw"),
        "camera_info": ("depthImageCameraInfoTopicName", "depth/camera_info"),
    },
}


def _text(elem: etree._Element | None, tag: str) -> str | None:
    child = None if elem is None else elem.find(tag)
    return None if child is None or child.text is None else child.text.strip()


def _expand(name: str, namespace: str, node: str) -> str:
    """An rcl name expanded to a fully qualified one in ``namespace`` (absolute, ``/`` rooted)
    for node ``node``."""
    name = name.replace("{node}", node).replace("{ns}", namespace).replace("{namespace}", namespace)
    base = namespace.rstrip("/")
    if name == "~" or name.startswith("~/"):
        return f"{base}/{node}{name[1:]}"
    if name.startswith("/"):
        return name
    return f"{base}/{name}"


def _checked(ctx: ParseContext, at: etree._Element, name: str, what: str) -> str:
    if not is_topic_name(name):
        raise ctx.error(
            InvalidValueError,
            at,
            f"{what} gives the topic {name!r}, not a valid ROS name",
            "give names of letters, digits and '_' separated by '/' (e.g. imu/data)",
        )
    return name


def _ros2(
    ctx: ParseContext, plugin: etree._Element, ros: etree._Element, kind: str, sensor: str
) -> tuple[tuple[str, str], ...]:
    node = (plugin.get("name") or "").strip()
    if not node:
        raise ctx.error(
            InvalidValueError,
            plugin,
            "a gazebo_ros plug-in (<plugin> with <ros>) has no name: its ROS node has none",
            'add name="..." to the <plugin> (it names the node and its private topics)',
        )
    namespace = "/" + (_text(ros, "namespace") or "").strip("/")
    camera = _text(plugin, "camera_name") or sensor
    rules = []
    for remap in ros.findall("remapping"):
        text = (remap.text or "").strip()
        rule, sep, target = text.partition(":=")
        prefix, colon, source = rule.rpartition(":")
        if not sep or not source or not target:
            raise ctx.error(
                InvalidValueError,
                remap,
                f"<remapping> {text!r} of plug-in {node!r} is not FROM:=TO",
                "write the rule as rcl takes it, e.g. ~/out:=imu/data",
            )
        if colon and prefix != node:
            continue  # a rule for another node (rcl's NODE:FROM:=TO)
        rules.append((_expand(source, namespace, node), target, remap))
    topics = []
    for suffix, private in ROS2_NAMES.get(kind, {}).items():
        written = private.format(camera=camera)
        full, at = _expand(written, namespace, node), plugin
        for source, target, remap in rules:
            if source == full:
                written, at = target, remap
                full = _expand(target, namespace, node)
                break
        topic = full if written.startswith("/") else full[1:]
        topics.append((suffix, _checked(ctx, at, topic, f"plug-in {node!r}")))
    return tuple(topics)


def _ros1(
    ctx: ParseContext, plugin: etree._Element, kind: str
) -> tuple[tuple[str, str], ...] | None:
    namespace = (_text(plugin, "robotNamespace") or "").strip("/")
    prefix = f"{namespace}/" if namespace else ""
    if kind in ROS1_CAMERA_TAGS:
        tags = ROS1_CAMERA_TAGS[kind]
        if not any(_text(plugin, t) for t in ("cameraName", *(t for t, _ in tags.values()))):
            return None
        camera = (_text(plugin, "cameraName") or "").strip("/")
        base = prefix + (f"{camera}/" if camera else "")
        return tuple(
            (suffix, _checked(ctx, plugin, _in(base, _text(plugin, tag) or default), f"<{tag}>"))
            for suffix, (tag, default) in tags.items()
        )
    topic = _text(plugin, "topicName") or _text(plugin, "bumperTopicName")
    if not topic or kind not in ROS2_NAMES:  # the kinds Gazebo's ROS plug-ins publish
        return None
    return (("", _checked(ctx, plugin, _in(prefix, topic), "<topicName>")),)


def _in(prefix: str, topic: str) -> str:
    """ROS 1 name ``topic`` resolved in the node handle's namespace ``prefix`` (absolute names
    as they are)."""
    return topic if topic.startswith("/") else prefix + topic


def plugin_topics(
    ctx: ParseContext, sensor: etree._Element, kind: str, name: str
) -> tuple[tuple[str, str], ...]:
    """(message suffix, topic) pairs the ROS plug-ins of ``sensor`` name (ranks 1 and 2 of the
    module docstring: the first ROS 2 plug-in, else the first ROS 1 plug-in naming a topic),
    ``()`` when none does.

    Args:
        ctx: parse context (file and line of errors).
        sensor: the ``<sensor>`` element.
        kind: its normalised type (``imu``, ``camera``, …).
        name: its name (a ROS 2 camera's default camera name).

    Raises:
        InvalidValueError: a ``<remapping>`` that is not ``FROM:=TO``, or a topic that is not
            a valid ROS name (the element, its value and the fix in the message).
    """
    plugins = sensor.findall("plugin")
    for plugin in plugins:
        ros = plugin.find("ros")
        if ros is not None:
            return _ros2(ctx, plugin, ros, kind, name)
    for plugin in plugins:
        ros1 = _ros1(ctx, plugin, kind)
        if ros1 is not None:
            return ros1
    return ()


__all__ = ["ROS1_CAMERA_TAGS", "ROS2_NAMES", "plugin_topics"]
