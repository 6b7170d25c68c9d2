"""The ``<ros2_control>`` block that lets a controller_manager drive the bridge through
ros2_control's topic-based hardware interfaces, made from any robot's description.

The plugins (:data:`TOPIC_BASED_PLUGINS`) run inside the controller_manager: each cycle they
publish the controllers' commands as a ``sensor_msgs/JointState`` on ``joint_commands_topic``
and read the joint states from ``joint_states_topic``, which the bridge serves. The block they
need (:func:`topic_block`), generated from the robot's joints and transmissions:

* ``<hardware>``: the plugin, its two topics, and ``trigger_joint_command_threshold`` = -1 (the
  plugins then publish the commands every cycle; with their default, 1e-5, they stop once the
  joint states equal the commands, and a velocity command whose state matches is no longer
  refreshed);
* every commandable joint (the bridge's :func:`~.command_interfaces.commandable_joints`) with the
  command interfaces of one control mode (``command_interfaces``), narrowed by what its classic
  transmissions declare (:func:`~.command_interfaces.block_interfaces`: an effort-only joint
  stays effort in a position block); default: the ones its description allows
  (:func:`~.command_interfaces.block_interfaces`: those its ``<ros2_control>`` block
  lists, else those its classic transmissions declare, e.g. effort
  only for ``EffortJointInterface``, else all three): the plugins do not tell the bridge which
  interfaces a controller claims, so a block listing several modes per joint sends stale values
  of the unclaimed ones (:mod:`.command_input`).
  Each keeps the ``<param>`` elements (``min``/``max``) its description gave that interface
  (but a ``min``/``max`` the bridge rejected and left out, e.g. a number in quotes:
  :meth:`~sdf_bridge.description.model.InterfaceInfo.written_parameters`);
  an interface new to the joint gets ``min``/``max`` from its ``<limit>``. State interfaces
  position, velocity, effort, position with its ``initial_value`` (what the bridge's backends
  start from);
* every other joint the bridge publishes (followers of mimic/gearbox couplings, joints listed
  without command interfaces, a ball's coordinates) state-only: position and velocity, and
  effort but on followers (whose effort the bridge publishes as NaN; the plug-ins refuse an
  effort value for a joint without that interface), with ``mimic="false"`` on mimic joints
  so that their state comes from the bridge (which applies the mimic offset) rather than being
  recomputed;
  not a screw's translation (``<joint>/translation``): the URDF has it as the ``<mimic>``
  prismatic joint of the screw's chain
  (:func:`~sdf_bridge.description.export.urdf_writer.chain_joints`), computed from the screw's
  angle, and no joint of the SDFormat model the bridge runs has its name;
* the ros2_control-dialect ``<transmission>`` elements of the description's blocks, unchanged (the
  bridge reads them from the block; the plugins ignore them);
* no ``<sensor>`` or ``<gpio>``: the plugins carry joint states only (PickNik's fails to load
  with sensor interfaces it does not export; the successor would export them as NaN forever).
  The bridge publishes IMU and force-torque readings on topics instead
  (``doc/user/ros2_control.md``, "Sensors").

:func:`with_topic_block` puts the block into a URDF in place of the description's
``<ros2_control>`` blocks; ``sdf-bridge ros2-control`` and ``launch/ros2_control.launch.py``
use it for descriptions that do not already name a topic-based plugin.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from ..backends.base import INTERFACE_MODES
from ..backends.initial_values import initial_joint_values
from ..description.coordinates import coordinate_joint
from ..description.model import HardwareComponent, Robot
from ..errors import ConfigError
from ..transmissions import TransmissionMap
from ..util.ros_names import is_topic_name
from .command_interfaces import block_interfaces

SUCCESSOR = "joint_state_topic_hardware_interface/JointStateTopicSystem"
"""The ros-controls plugin (package ``joint_state_topic_hardware_interface``)."""
PICKNIK = "topic_based_ros2_control/TopicBasedSystem"
"""PickNik's plugin (package ``topic_based_ros2_control``; the successor registers this name
too)."""
TOPIC_BASED_PLUGINS = (SUCCESSOR, PICKNIK)
"""ros2_control's topic-based hardware interfaces, whose block parameters are theirs, not a
backend's."""

#: The command interface sets of one control mode each (the bridge's command modes).
CONTROL_MODES = (("position",), ("velocity",), ("position", "velocity"), ("effort",))


@dataclass(frozen=True)
class TopicBlockOptions:
    """How to make the block.

    Attributes:
        plugin: one of :data:`TOPIC_BASED_PLUGINS`.
        joint_commands_topic, joint_states_topic: the plugin's topics = the bridge's
            ``joint_commands`` input and ``joint_states`` output (absolute names are safest:
            the plugin's node lives in the controller_manager's process).
        command_interfaces: the command interfaces every commandable joint gets, one control
            mode of :data:`CONTROL_MODES`; ``()`` = each joint's own from the description
            (:func:`~.command_interfaces.block_interfaces`).
    """

    plugin: str = SUCCESSOR
    joint_commands_topic: str = "/sdf_bridge/joint_commands"
    joint_states_topic: str = "/sdf_bridge/joint_states"
    command_interfaces: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.plugin not in TOPIC_BASED_PLUGINS:
            raise ConfigError(
                f"plugin {self.plugin!r} is not a topic-based ros2_control hardware interface. "
                f"Fix: use {SUCCESSOR} or {PICKNIK}."
            )
        for what, topic in (
            ("joint_commands_topic", self.joint_commands_topic),
            ("joint_states_topic", self.joint_states_topic),
        ):
            if not is_topic_name(topic):
                raise ConfigError(
                    f"{what} {topic!r} is not a ROS topic name. Fix: give e.g. "
                    "/sdf_bridge/joint_states."
                )
        interfaces = tuple(i for i in INTERFACE_MODES if i in self.command_interfaces)
        unknown = sorted(set(self.command_interfaces) - set(INTERFACE_MODES))
        if unknown or (interfaces and interfaces not in CONTROL_MODES):
            raise ConfigError(
                f"command_interfaces {list(self.command_interfaces)} are not one control mode. "
                "Fix: give position, velocity, position and velocity, or effort (effort "
                "combines with nothing), or none (each joint's own)."
            )
        object.__setattr__(self, "command_interfaces", interfaces)


def parse_command_interfaces(text: str) -> tuple[str, ...]:
    """``"position,velocity"`` or ``"position velocity"`` → ``("position", "velocity")``
    (checked by :class:`TopicBlockOptions`)."""
    return tuple(word for word in re.split(r"[\s,]+", text.strip()) if word)


def topic_based_block(robot: Robot) -> HardwareComponent | None:
    """The robot's ``<ros2_control>`` block that names a topic-based plugin, or ``None``."""
    return next(
        (block for block in robot.ros2_control if block.plugin in TOPIC_BASED_PLUGINS), None
    )


#: The topics both plugins use when their block names none: (joint_commands, joint_states).
PLUGIN_DEFAULT_TOPICS = ("/robot_joint_commands", "/robot_joint_states")


def block_topics(block: HardwareComponent) -> tuple[str, str]:
    """``(joint_commands topic, joint_states topic)`` of a topic-based block: its
    ``joint_commands_topic`` / ``joint_states_topic`` params, else the plugins' defaults
    (:data:`PLUGIN_DEFAULT_TOPICS`). The bridge serves these (it follows the block)."""
    commands = block.param("joint_commands_topic") or PLUGIN_DEFAULT_TOPICS[0]
    states = block.param("joint_states_topic") or PLUGIN_DEFAULT_TOPICS[1]
    return commands, states


def foreign_hardware(robot: Robot) -> str | None:
    """Why a controller_manager given ``robot``'s description would not drive the bridge: a
    sentence naming its ``<ros2_control>`` blocks whose plugin is not topic-based
    (``mock_components/GenericSystem``, ``gz_ros2_control/GazeboSimSystem``, a driver's…)
    with file and line, and the fix; ``None`` when every block is topic-based (or there is
    none)."""
    foreign = [b for b in robot.ros2_control if b.plugin not in TOPIC_BASED_PLUGINS]
    if not foreign:
        return None
    named = ", ".join(
        f"{b.name!r} ({b.plugin or 'no plugin'}{f', {b.source}' if b.source else ''})"
        for b in foreign
    )
    return (
        f"the description of robot {robot.name!r} carries <ros2_control> block(s) {named}: a "
        "controller_manager reading it loads that hardware, not the bridge (its controllers "
        "then report targets reached while the bridge's joints do not move). Fix: run "
        "'sdf-bridge control --description FILE' (it replaces the block), or write the "
        "description with the bridge's block ('sdf-bridge ros2-control FILE -o "
        "robot_topic.urdf') and give that file to the bridge."
    )


def block_name(robot: Robot) -> str:
    """The block's name, which the plugins and the controller_manager make a ROS node name of:
    the description's block's when it has one, else ``<robot>_system``, made a valid node name
    (``[A-Za-z_][A-Za-z0-9_]*``: other characters become ``_``, a leading digit gets ``hw_``)."""
    name = robot.ros2_control[0].name if len(robot.ros2_control) == 1 else f"{robot.name}_system"
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return f"hw_{name}" if not name or name[0].isdigit() else name


def _sub(parent: etree._Element, tag: str, text: str | None = None, **attrs: str) -> etree._Element:
    elem = etree.SubElement(parent, tag, attrs)
    if text is not None:
        elem.text = text
    return elem


def _limit_params(robot: Robot, joint: str, interface: str) -> tuple[tuple[str, str], ...]:
    """``min``/``max`` of an interface the description's block did not give the joint, from
    its ``<limit>``: position lower/upper, ±velocity, ±effort (none where not given)."""
    view = coordinate_joint(robot, joint)  # (an axis coordinate: that axis's <limit>)
    limit = view.limit if view is not None else None
    if limit is None:
        return ()
    if interface == "position":
        low, high = limit.lower, limit.upper
    else:
        bound = limit.velocity if interface == "velocity" else limit.effort
        low, high = (None, None) if bound is None else (-abs(bound), abs(bound))
    if low is None or high is None:
        return ()
    return (("min", repr(float(low))), ("max", repr(float(high))))


def topic_block(robot: Robot, options: TopicBlockOptions = TopicBlockOptions()) -> etree._Element:
    """The ``<ros2_control>`` element for ``options.plugin`` (module doc), without the
    description's transmissions (:func:`with_topic_block` adds them).

    Raises:
        ConfigError: the robot has no commandable joint.
        TransmissionError: the robot's transmissions cannot be built.
    """
    # as the bridge's simulating backends build it (a bridge on real actuators refuses a
    # transmission of unknown type itself, at its start)
    tm = TransmissionMap.from_robot(robot, simulated_robot=True)
    commandable = block_interfaces(robot, tm, options.command_interfaces)
    if not commandable:
        raise ConfigError(
            f"robot {robot.name!r} has no commandable joint, so a controller_manager has nothing "
            "to drive. Fix: list joints with command interfaces in its <ros2_control> "
            "block, or remove the block."
        )
    described = {info.name: info for block in robot.ros2_control for info in block.joints}
    initial = initial_joint_values(robot)["position"]
    root = etree.Element("ros2_control", name=block_name(robot), type="system")
    hardware = _sub(root, "hardware")
    _sub(hardware, "plugin", options.plugin)
    _sub(hardware, "param", options.joint_commands_topic, name="joint_commands_topic")
    _sub(hardware, "param", options.joint_states_topic, name="joint_states_topic")
    _sub(hardware, "param", "-1", name="trigger_joint_command_threshold")
    # (a screw's translation: a <mimic> joint of the screw's URDF chain, not in the block)
    followers = tuple(f.name for f in tm.followers_info if f.kind != "screw")
    for joint in tuple(tm.joint_names) + followers:
        view = coordinate_joint(robot, joint)
        attrs = {"mimic": "false"} if view is not None and view.mimic is not None else {}
        elem = _sub(root, "joint", name=joint, **attrs)
        info = described.get(joint)
        own = {i.name: i for i in (info.command_interfaces if info is not None else ())}
        interfaces = commandable.get(joint, ())
        for interface in interfaces:
            command = _sub(elem, "command_interface", name=interface)
            params = (
                own[interface].written_parameters()  # (not a min/max the bridge rejected)
                if interface in own
                else _limit_params(robot, joint, interface)
            )
            for key, value in params:
                _sub(command, "param", value, name=key)
        position = _sub(elem, "state_interface", name="position")
        if joint in initial:
            _sub(position, "param", repr(float(initial[joint])), name="initial_value")
        _sub(elem, "state_interface", name="velocity")
        if joint not in followers:  # (a follower's effort is NaN; the plug-ins refuse an
            # effort for a joint without that state interface: a ball's coordinates have one)
            _sub(elem, "state_interface", name="effort")
    return root


#: URDF joint types whose ``<limit>`` urdfdom requires (with ``lower``/``upper``).
_BOUNDED_TYPES = ("revolute", "prismatic")


def fill_limits(document: etree._Element, robot: Robot) -> list[str]:
    """Make the URDF ``document`` (``robot``'s, a ``<robot>`` element) one urdfdom reads, as
    the controller_manager must: the bridge accepts a revolute or prismatic joint without
    ``<limit>`` and a ``<limit>`` without ``effort`` or ``velocity`` (treated as not limited),
    urdfdom refuses the whole file. Each such joint gets the missing ``<limit>`` or attributes,
    and an ``effort``/``velocity`` of 0 (which the bridge reads as not limited, ros2_control
    as a bound of 0) is rewritten, with the values the bridge enforces
    (:func:`~sdf_bridge.limits.spec.urdf_limits`): where it enforces none, the URDF writer's
    stand-in :data:`~sdf_bridge.description.export.urdf_writer.UNLIMITED` (±1e16; urdfdom
    reads no ``inf``). The bridge runs on the written file, so it enforces what is written.
    Returns the names of the joints changed."""
    import math

    from ..description.export.common import fmt
    from ..description.export.urdf_writer import UNLIMITED
    from ..limits.spec import urdf_limits

    def number(value: float) -> str:
        return fmt(value if math.isfinite(value) else math.copysign(UNLIMITED, value))

    changed = []
    for elem in document.findall("joint"):
        name, kind = elem.get("name"), elem.get("type")
        limit = elem.find("limit")
        if coordinate_joint(robot, str(name)) is None or (
            limit is None and kind not in _BOUNDED_TYPES
        ):
            continue
        missing = [] if limit is None else [a for a in ("effort", "velocity") if _unset(limit, a)]
        if limit is not None and not missing:
            continue
        lim = urdf_limits(robot, str(name), [])
        values = {
            "lower": number(lim.min_position),
            "upper": number(lim.max_position),
            "effort": number(lim.max_effort),
            "velocity": number(lim.max_velocity),
        }
        if limit is None:
            limit = etree.SubElement(elem, "limit", values)
        else:
            for attribute in missing:
                limit.set(attribute, values[attribute])
        changed.append(str(name))
    return changed


def _unset(limit: etree._Element, attribute: str) -> bool:
    """Whether ``<limit attribute>`` is absent or 0 (both "not limited" to the bridge)."""
    text = limit.get(attribute)
    try:
        return text is None or float(text) == 0.0
    except ValueError:
        return False  # (the bridge refuses the description before this is used)


def with_urdfdom_limits(robot: Robot, xml: str) -> str:
    """``xml`` (``robot``'s URDF) with :func:`fill_limits` applied; the text unchanged when
    nothing needs filling (or when it is no URDF)."""
    from ..description.xmlio import parse_xml

    document = parse_xml(xml)
    if document.tag != "robot" or not fill_limits(document, robot):
        return xml
    return etree.tostring(document, encoding="unicode", xml_declaration=False) + "\n"


def with_topic_block(
    robot: Robot, xml: str, options: TopicBlockOptions = TopicBlockOptions()
) -> str:
    """URDF for the controller_manager and the bridge: ``xml`` (the text ``robot`` was loaded
    from; an SDFormat model is exported to URDF first, its universal, revolute2 and ball joints
    as chains of one-axis joints named like the bridge's coordinates,
    :func:`~sdf_bridge.description.export.urdf_writer.chain_joints`) with its ``<ros2_control>``
    blocks replaced by :func:`topic_block`, which takes over their ``<transmission>`` elements,
    and the limits urdfdom requires filled in (:func:`fill_limits`). Everything else is kept as
    written.

    Raises:
        ConfigError, TransmissionError: as :func:`topic_block`; also an SDFormat model that URDF
            cannot carry even so (a screw joint, several root links, …:
            :func:`~sdf_bridge.description.export.to_urdf`), as the controller_manager reads
            URDF only.
        DescriptionError: ``xml`` is not well-formed.
    """
    from ..description.export import to_urdf
    from ..description.xmlio import parse_xml
    from ..errors import DescriptionError

    if robot.format == "sdf":
        try:
            xml = to_urdf(robot, chains=True)
        except DescriptionError as exc:
            where = ":".join(str(part) for part in (exc.file, exc.line) if part is not None)
            raise ConfigError(
                f"{where + ': ' if where else ''}the controller_manager reads URDF only, and "
                f"SDFormat model {robot.name!r} does not fit URDF ({exc.problem}). Fix: "
                "describe the robot in URDF for ros2_control (the bridge alone runs the "
                "SDFormat model as it is)."
            ) from exc
    document = parse_xml(xml)
    fill_limits(document, robot)  # (urdfdom, in the controller_manager, reads it)
    block = topic_block(robot, options)
    for old in document.findall("ros2_control"):
        block.extend(old.findall("transmission"))
        document.remove(old)
    if len(document):
        document[-1].tail = "\n\n  "
    document.append(block)
    etree.indent(block, space="  ", level=1)
    block.tail = "\n"
    return etree.tostring(document, encoding="unicode", xml_declaration=False) + "\n"


def _meshes_resolved(robot: Robot) -> Robot:
    """``robot`` with each mesh's ``filename`` replaced by its resolved absolute path where it
    was resolved (a relative one is relative to the description's folder, not to a file written
    elsewhere)."""
    from dataclasses import replace

    from ..description.model import Mesh

    def fixed(items: tuple) -> tuple:
        return tuple(
            replace(item, geometry=replace(item.geometry, filename=item.geometry.resolved))
            if isinstance(item.geometry, Mesh) and item.geometry.resolved
            else item
            for item in items
        )

    links = {
        name: replace(link, visuals=fixed(link.visuals), collisions=fixed(link.collisions))
        for name, link in robot.links.items()
    }
    return replace(robot, links=links)


def sdf_with_block(robot: Robot, urdf: str) -> str:
    """SDFormat text of ``robot`` (an SDFormat model with joints URDF lacks) with the
    ``<ros2_control>`` block(s) of ``urdf`` (the controller_manager's description) in place of
    its own, for the bridge: it simulates the joints as they are (a ball as a ball, not three
    hinges locking at pitch ±π/2) and publishes the URDF form with that block
    (:func:`~sdf_bridge.app.description_source.load_description`), whose chain joints are named
    like the coordinates it serves (``sdf-bridge control`` runs the bridge on it). The model is
    written by :func:`~sdf_bridge.description.export.to_sdf` (its sensors without noise), its
    meshes by their resolved absolute paths (the text is written outside the description's
    folder)."""
    from dataclasses import replace

    from ..description.export import to_sdf
    from ..description.xmlio import parse_xml

    document = parse_xml(to_sdf(replace(_meshes_resolved(robot), ros2_control=())))
    model = document.find("model")
    assert model is not None  # (to_sdf writes one <model>)
    for block in parse_xml(urdf).findall("ros2_control"):
        model.append(block)
    return etree.tostring(document, encoding="unicode", xml_declaration=False) + "\n"
