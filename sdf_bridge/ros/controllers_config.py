"""A controllers YAML made from a robot, for ``sdf-bridge control`` when the user gives none
(plain Python, no ROS imports).

:func:`generated_controllers` declares, for the robot's commandable joints (the ones its
topic-based block commands) in one control mode:

* ``joint_state_broadcaster`` (active);
* position mode: ``joint_trajectory_controller`` (command interface position, state interfaces
  position and velocity; active) and ``forward_position_controller`` (loaded inactive: ``ros2
  control switch_controllers`` or the controller_manager's ``switch_controller`` service swaps
  them);
* velocity / effort mode: ``forward_velocity_controller`` / ``forward_effort_controller``
  (``forward_command_controller/ForwardCommandController``, active);
* mode ``all``: joint_trajectory_controller active and a forward controller per interface
  inactive, each on the joints having that interface (the bridge follows which interfaces the
  active controllers claim, so switching between them works at run time).

Keys are ``/**/<node>`` so that they match the nodes in any namespace, as in
``config/ros2_controllers.yaml``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError

BROADCASTER_NAME = "joint_state_broadcaster"
TRAJECTORY = "joint_trajectory_controller"
MODES = ("position", "velocity", "effort")
ALL = "all"
"""The mode in which the block offers each joint its own interfaces (switch at run time)."""


@dataclass(frozen=True)
class GeneratedControllers:
    """A controllers file's content and which of its controllers to activate.

    Attributes:
        data: the YAML document (``/**/controller_manager: ros__parameters: ...`` and one
            ``/**/<controller>`` entry per controller with parameters).
        active: controllers to activate, the broadcaster first.
        inactive: controllers to load and configure only.
    """

    data: dict[str, Any]
    active: tuple[str, ...]
    inactive: tuple[str, ...]


def generated_controllers(
    joints: Sequence[str],
    mode: str = "position",
    update_rate: float = 100.0,
    interfaces: Mapping[str, Sequence[str]] | None = None,
) -> GeneratedControllers:
    """The controllers of ``joints`` in control ``mode`` at ``update_rate`` Hz (module doc).
    Mode ``all``: the block offers each joint its own command interfaces (``interfaces``: joint
    → its command interfaces; default all three), and a forward controller per interface (on
    the joints that have it) is loaded inactive beside the active joint_trajectory_controller
    (on the joints with position; without any, the first forward controller is active
    instead), to switch between at run time.

    Raises:
        ConfigError: an unknown mode, no joint, or an update rate that is not a positive whole
            number of Hz (the controller_manager's ``update_rate`` is an integer).
    """
    if mode not in (*MODES, ALL):
        raise ConfigError(
            f"control mode {mode!r} is unknown. Fix: use one of {', '.join((*MODES, ALL))}."
        )
    if not joints:
        raise ConfigError(
            "the robot has no commandable joint, so there is no controller to make. Fix: give "
            "a description with movable joints."
        )
    if update_rate <= 0 or update_rate != int(update_rate):
        raise ConfigError(
            f"update rate {update_rate:g} Hz is not a positive whole number. Fix: give e.g. 100."
        )
    own = {j: tuple((interfaces or {}).get(j, MODES)) for j in joints}
    manager: dict[str, Any] = {
        "update_rate": int(update_rate),
        BROADCASTER_NAME: {"type": "joint_state_broadcaster/JointStateBroadcaster"},
    }
    data: dict[str, Any] = {"/**/controller_manager": {"ros__parameters": manager}}
    forwards: list[str] = []
    for interface in MODES if mode == ALL else (mode,):
        members = [j for j in joints if mode != ALL or interface in own[j]]
        if not members:
            continue
        forward = f"forward_{interface}_controller"
        manager[forward] = {"type": "forward_command_controller/ForwardCommandController"}
        data[f"/**/{forward}"] = {
            "ros__parameters": {"joints": members, "interface_name": interface},
        }
        forwards.append(forward)
    positioned = [j for j in joints if mode == "position" or (mode == ALL and "position" in own[j])]
    if not positioned:
        return GeneratedControllers(data, (BROADCASTER_NAME, forwards[0]), tuple(forwards[1:]))
    manager[TRAJECTORY] = {"type": "joint_trajectory_controller/JointTrajectoryController"}
    data[f"/**/{TRAJECTORY}"] = {
        "ros__parameters": {
            "joints": positioned,
            "command_interfaces": ["position"],
            "state_interfaces": ["position", "velocity"],
        }
    }
    return GeneratedControllers(data, (BROADCASTER_NAME, TRAJECTORY), tuple(forwards))
