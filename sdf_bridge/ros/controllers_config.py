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
  (``forward_command_controller/ForwardCommandController``, active).

Keys are ``/**/<node>`` so that they match the nodes in any namespace, as in
``config/ros2_controllers.yaml``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError

BROADCASTER_NAME = "joint_state_broadcaster"
TRAJECTORY = "joint_trajectory_controller"
MODES = ("position", "velocity", "effort")


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
    joints: Sequence[str], mode: str = "position", update_rate: float = 100.0
) -> GeneratedControllers:
    """The controllers of ``joints`` in control ``mode`` at ``update_rate`` Hz (module doc).

    Raises:
        ConfigError: an unknown mode, no joint, or an update rate that is not a positive whole
            number of Hz (the controller_manager's ``update_rate`` is an integer).
    """
    if mode not in MODES:
        raise ConfigError(f"control mode {mode!r} is unknown. Fix: use one of {', '.join(MODES)}.")
    if not joints:
        raise ConfigError(
            "the robot has no commandable joint, so there is no controller to make. Fix: give "
            "a description with movable joints."
        )
    if update_rate <= 0 or update_rate != int(update_rate):
        raise ConfigError(
            f"update rate {update_rate:g} Hz is not a positive whole number. Fix: give e.g. 100."
        )
    forward = f"forward_{mode}_controller"
    manager: dict[str, Any] = {
        "update_rate": int(update_rate),
        BROADCASTER_NAME: {"type": "joint_state_broadcaster/JointStateBroadcaster"},
        forward: {"type": "forward_command_controller/ForwardCommandController"},
    }
    data: dict[str, Any] = {
        "/**/controller_manager": {"ros__parameters": manager},
        f"/**/{forward}": {
            "ros__parameters": {"joints": list(joints), "interface_name": mode},
        },
    }
    if mode != "position":
        return GeneratedControllers(data, (BROADCASTER_NAME, forward), ())
    manager[TRAJECTORY] = {"type": "joint_trajectory_controller/JointTrajectoryController"}
    data[f"/**/{TRAJECTORY}"] = {
        "ros__parameters": {
            "joints": list(joints),
            "command_interfaces": ["position"],
            "state_interfaces": ["position", "velocity"],
        }
    }
    return GeneratedControllers(data, (BROADCASTER_NAME, TRAJECTORY), (forward,))
