"""Which joints a hardware system commands: the ``joints`` parameter checked against the
commandable joints (:func:`~.command_interfaces.commandable_joints`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from ..errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from ..transmissions import TransmissionMap


def select_joints(
    joints: Sequence[str] | None, allowed: Mapping[str, Iterable[str]], tm: TransmissionMap
) -> tuple[str, ...]:
    """The joints of array commands, in their order: ``joints`` (the ``joints`` parameter) checked
    against ``allowed`` (:func:`~.command_interfaces.commandable_joints`), or every allowed joint
    when it is empty or ``None``.

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
