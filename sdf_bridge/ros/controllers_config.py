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
  active controllers claim, so switching between them works at run time);
* in every mode, a joint that does not offer the mode's interface (an ``EffortJointInterface``
  transmission: effort only) keeps its own interfaces and gets an active forward controller of
  its first one (e.g. ``forward_effort_only_controller`` beside the trajectory controller), so
  no joint is left without an active controller.

The controller_manager gets ``enforce_command_limits: false``: the bridge is the hardware and
enforces ros2_control's joint limits itself (:mod:`sdf_bridge.limits`), as a real driver that
enforces its own; enforced twice, the controller_manager's joint limiter would also deactivate a
controller whenever a simulated joint's state is more than 0.0087 rad past a limit
(ros2_control's ``OUT_OF_BOUNDS_EXCEPTION_TOLERANCE``).

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
ENFORCE_LIMITS = "enforce_command_limits"
"""The controller_manager's parameter switching its own joint limiting (default true since ROS 2
Kilted); false in the generated file (module doc)."""
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
    ``interfaces``: joint → the command interfaces the block gives it
    (:func:`~sdf_bridge.hardware.command_interfaces.block_interfaces`: the mode's, narrowed by
    the joint's transmissions; default the mode's, or all three in mode all):

    * mode position / all: joint_trajectory_controller (active) on the joints with position;
      velocity / effort: ``forward_<mode>_controller`` (active) on the joints with it;
    * the joints that controller cannot take (e.g. an effort-only joint in a position block)
      are not left without one: a forward controller of their first interface is active on
      them, ``forward_<interface>_controller`` when no other controller has that name (or it
      has exactly these joints), else ``forward_<interface>_only_controller``;
    * mode position: ``forward_position_controller`` loaded inactive; mode all: a forward
      controller per interface (on the joints that have it) loaded inactive, to switch between
      at run time.

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
    default = MODES if mode == ALL else (mode,)
    given = {j: tuple((interfaces or {}).get(j, default)) or default for j in joints}
    manager: dict[str, Any] = {
        "update_rate": int(update_rate),
        ENFORCE_LIMITS: False,  # once, by the bridge (module doc)
        BROADCASTER_NAME: {"type": "joint_state_broadcaster/JointStateBroadcaster"},
    }
    data: dict[str, Any] = {"/**/controller_manager": {"ros__parameters": manager}}
    members: dict[str, list[str]] = {}  # forward controller → its joints

    def forward(name: str, interface: str, names: list[str]) -> None:
        manager[name] = {"type": "forward_command_controller/ForwardCommandController"}
        data[f"/**/{name}"] = {"ros__parameters": {"joints": names, "interface_name": interface}}
        members[name] = names

    for interface in MODES if mode == ALL else (mode,):
        names = [j for j in joints if interface in given[j]]
        if names:
            forward(f"forward_{interface}_controller", interface, names)
    main = "position" if mode in ("position", ALL) else mode
    active: list[str] = [BROADCASTER_NAME]
    positioned = [j for j in joints if main == "position" and "position" in given[j]]
    if positioned:
        manager[TRAJECTORY] = {"type": "joint_trajectory_controller/JointTrajectoryController"}
        data[f"/**/{TRAJECTORY}"] = {
            "ros__parameters": {
                "joints": positioned,
                "command_interfaces": ["position"],
                "state_interfaces": ["position", "velocity"],
            }
        }
        active.append(TRAJECTORY)
    elif main != "position" and f"forward_{main}_controller" in members:
        active.append(f"forward_{main}_controller")
    rest: dict[str, list[str]] = {}
    for j in joints:
        if main not in given[j]:
            rest.setdefault(given[j][0], []).append(j)
    for interface, names in rest.items():
        name = f"forward_{interface}_controller"
        if name in members and members[name] != names:
            name = f"forward_{interface}_only_controller"
        if name not in members:
            forward(name, interface, names)
        active.append(name)
    inactive = tuple(n for n in members if n not in active)
    return GeneratedControllers(data, tuple(active), inactive)
