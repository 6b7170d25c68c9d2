"""Which joints of a robot take commands, and on which interfaces (from its ``<ros2_control>``
blocks), in the bridge's one reading of the description; and which of them a generated
``<ros2_control>`` block offers (also narrowed by the classic transmissions' interfaces)."""

from __future__ import annotations

from ..backends.base import INTERFACE_MODES
from ..description.coordinates import is_ball_coordinate
from ..description.model import Robot
from ..transmissions import TransmissionMap


def listed_command_interfaces(robot: Robot) -> dict[str, tuple[str, ...]]:
    """Every joint the robot's ``<ros2_control>`` blocks list, with the standard command
    interfaces (position, velocity, effort, in that order) listed for it (none for a
    state-only joint, e.g. a mimic follower); empty when no block lists a joint."""
    listed: dict[str, set[str]] = {}
    for block in robot.ros2_control:
        for info in block.joints:
            interfaces = listed.setdefault(info.name, set())
            interfaces.update(i.name for i in info.command_interfaces if i.name in INTERFACE_MODES)
    return {
        name: tuple(i for i in INTERFACE_MODES if i in interfaces)
        for name, interfaces in listed.items()
    }


def commandable_joints(robot: Robot, transmissions: TransmissionMap) -> dict[str, tuple[str, ...]]:
    """Commandable joints and their command interfaces, in transmission-map order.

    Every map joint commands position, velocity and effort, unless the robot has
    ``<ros2_control>`` blocks listing joints: then only the map joints listed there with
    standard command interfaces (position/velocity/effort), with those
    (:func:`listed_command_interfaces`).
    """
    listed = listed_command_interfaces(robot)
    if not listed:
        return {name: tuple(INTERFACE_MODES) for name in transmissions.joint_names}
    return {name: listed[name] for name in transmissions.joint_names if listed.get(name)}


#: The command interfaces a classic transmission's ``<hardwareInterface>`` (ROS 1
#: ``hardware_interface`` names, prefix removed) gives its joint; other names (e.g.
#: ``JointStateInterface``, a driver's own) give none.
TRANSMISSION_INTERFACES: dict[str, tuple[str, ...]] = {
    "PositionJointInterface": ("position",),
    "VelocityJointInterface": ("velocity",),
    "EffortJointInterface": ("effort",),
    "PosVelJointInterface": ("position", "velocity"),
    "PosVelAccJointInterface": ("position", "velocity"),
}


def transmission_interfaces(robot: Robot) -> dict[str, tuple[str, ...]]:
    """Joint → the command interfaces (position, velocity, effort order) its classic (or pr2)
    transmissions declare (:data:`TRANSMISSION_INTERFACES`; a joint entry without a
    ``<hardwareInterface>`` takes its transmission's actuators'); only joints for which some
    transmission declares a command interface. The ros2_control dialect declares none here
    (its interfaces are the ``<ros2_control>`` joint's)."""
    declared: dict[str, set[str]] = {}
    for transmission in robot.transmissions:
        if transmission.dialect == "ros2_control":
            continue
        from_actuators = [n for a in transmission.actuators for n in a.hardware_interfaces]
        for joint in transmission.joints:
            names = joint.hardware_interfaces or tuple(from_actuators)
            granted = {i for n in names for i in TRANSMISSION_INTERFACES.get(n, ())}
            if granted:
                declared.setdefault(joint.name, set()).update(granted)
    return {
        name: tuple(i for i in INTERFACE_MODES if i in interfaces)
        for name, interfaces in declared.items()
    }


def offered_command_interfaces(
    robot: Robot, transmissions: TransmissionMap
) -> dict[str, tuple[str, ...]]:
    """The command interfaces a generated ``<ros2_control>`` block offers each commandable
    joint by default (what ``sdf-bridge check`` shows as its control modes), in
    transmission-map order: :func:`commandable_joints`, and where no ``<ros2_control>`` block
    lists joints, each joint narrowed to the interfaces its classic transmissions declare
    (:func:`transmission_interfaces`; e.g. ``EffortJointInterface`` only → effort only). A
    ``<ros2_control>`` block's listing wins over the classic transmissions (ros2_control reads
    the block only). A ball joint's coordinates (``<joint>/roll|pitch|yaw``) get none: they
    are state only in a generated block, so that a generated trajectory controller does not
    hold a passive caster (turtlebot3's); the bridge still takes their commands on its own
    topics."""
    own = {
        name: interfaces
        for name, interfaces in commandable_joints(robot, transmissions).items()
        if not is_ball_coordinate(robot, name)
    }
    if listed_command_interfaces(robot):
        return own
    declared = transmission_interfaces(robot)
    return {name: declared.get(name, interfaces) for name, interfaces in own.items()}


def narrowed_interfaces(requested: tuple[str, ...], own: tuple[str, ...]) -> tuple[str, ...]:
    """The interfaces of ``requested`` (a control mode; ``()``: none asked) that a joint
    offering ``own`` has, in position, velocity, effort order; all of ``own`` when it has none
    of them (an ``EffortJointInterface`` joint stays effort in a position block: ros2_control
    would refuse a controller claiming an interface its hardware cannot command)."""
    kept = tuple(i for i in INTERFACE_MODES if i in requested and i in own)
    return kept or tuple(own)


def block_interfaces(
    robot: Robot, transmissions: TransmissionMap, requested: tuple[str, ...] = ()
) -> dict[str, tuple[str, ...]]:
    """The command interfaces a generated ``<ros2_control>`` block gives each commandable joint
    for the ``requested`` control mode, in transmission-map order: without one, each joint's
    own (:func:`offered_command_interfaces`); with one, the mode, narrowed by the interfaces
    the joint's classic transmissions declare (:func:`transmission_interfaces`,
    :func:`narrowed_interfaces`) where no ``<ros2_control>`` block lists joints (a block's
    listing is for the hardware it names, which the generated block replaces). The one rule of
    :func:`~.topic_block.topic_block` and of the controllers ``sdf-bridge control`` generates
    for it."""
    offered = offered_command_interfaces(robot, transmissions)
    if not requested:
        return offered
    mode = tuple(i for i in INTERFACE_MODES if i in requested)
    declared = {} if listed_command_interfaces(robot) else transmission_interfaces(robot)
    return {
        name: narrowed_interfaces(mode, declared[name]) if name in declared else mode
        for name in offered
    }
