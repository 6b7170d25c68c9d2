"""Which joints a hardware system commands: the commandable joints and their command interfaces
(from the description's ``<ros2_control>``), and the ``joints`` parameter checked against them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from ..backends.base import INTERFACE_MODES
from ..description.model import Robot
from ..errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from ..transmissions import TransmissionMap


def commandable_joints(robot: Robot, transmissions: TransmissionMap) -> dict[str, tuple[str, ...]]:
    """Commandable joints and their command interfaces, in transmission-map order.

    Every map joint commands position, velocity and effort, unless the robot has
    ``<ros2_control>`` blocks listing joints: then only the joints listed there, with the
    standard command interfaces (position/velocity/effort) they list.
    """
    listed: dict[str, set[str]] = {}
    for block in robot.ros2_control:
        for info in block.joints:
            interfaces = listed.setdefault(info.name, set())
            interfaces.update(i.name for i in info.command_interfaces if i.name in INTERFACE_MODES)
    if not listed:
        return {name: ("position", "velocity", "effort") for name in transmissions.joint_names}
    order = ("position", "velocity", "effort")
    return {
        name: tuple(i for i in order if i in listed[name])
        for name in transmissions.joint_names
        if listed.get(name)
    }


def select_joints(
    joints: Sequence[str] | None, allowed: Mapping[str, Iterable[str]], tm: TransmissionMap
) -> tuple[str, ...]:
    """The joints of array commands, in their order: ``joints`` (the ``joints`` parameter)
    checked against ``allowed`` (:func:`commandable_joints`), or every allowed joint when it is
    empty or ``None``.

    Raises:
        ConfigError: a joint of ``joints`` follows another (mimic/gearbox), is not listed with
            command interfaces in ``<ros2_control>``, is not actuated, or is listed twice.
    """
    if joints is None or len(joints) == 0:
        return tuple(allowed)
    problems = []
    for name in joints:
        if name in allowed:
            continue
        if name in tm.follower_names:
            problems.append(f"{name!r} follows another joint (mimic/gearbox)")
        elif name in tm.joint_names:
            problems.append(f"{name!r} is not listed with command interfaces in <ros2_control>")
        else:
            problems.append(f"{name!r} is not an actuated joint")
    if len(set(joints)) != len(joints):
        problems.append("a joint is listed twice")
    if problems:
        raise ConfigError(
            f"joints parameter: {'; '.join(problems)}. Fix: list joints from {list(allowed)}."
        )
    return tuple(joints)
