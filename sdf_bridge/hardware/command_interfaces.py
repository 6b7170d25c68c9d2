"""Which joints of a robot take commands, and on which interfaces (from its ``<ros2_control>``
blocks), in the bridge's one reading of the description."""

from __future__ import annotations

from ..backends.base import INTERFACE_MODES
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
