"""The control cycle (ROS-free), one tick: commands → holds → limits → backend write → backend
read → [publish], then the loop sleeps; with command validation, modes, holds (watchdog,
coupled partners, idle joints, e-stop), trajectories and timing.

Main entry point: :class:`HardwareSystem`; :class:`FixedRateLoop` runs its ticks at a rate.

The names below are imported on first use (module ``__getattr__``): importing a light
submodule such as ``sdf_bridge.hardware.command_interfaces`` (``sdf-bridge check``) does not
load the control path (limiter, backends, loop).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sdf_bridge.util.lazy_exports import lazy_exports

if TYPE_CHECKING:  # pragma: no cover
    from .command_interfaces import commandable_joints
    from .commands import REJECTION_REASONS, CommandBuffer
    from .cycle_state import CycleState
    from .holds import Holds
    from .loop import FixedRateLoop
    from .system import HardwareSystem
    from .timing import LoopTiming
    from .trajectory import Trajectory
    from .trajectory_runner import TrajectoryRunner
    from .watchdog import CommandWatchdog

_WHERE = {
    "REJECTION_REASONS": "commands",
    "CommandBuffer": "commands",
    "CommandWatchdog": "watchdog",
    "CycleState": "cycle_state",
    "FixedRateLoop": "loop",
    "HardwareSystem": "system",
    "Holds": "holds",
    "LoopTiming": "timing",
    "Trajectory": "trajectory",
    "TrajectoryRunner": "trajectory_runner",
    "commandable_joints": "command_interfaces",
}

__all__ = [
    "CommandBuffer",
    "CommandWatchdog",
    "CycleState",
    "FixedRateLoop",
    "HardwareSystem",
    "Holds",
    "LoopTiming",
    "REJECTION_REASONS",
    "Trajectory",
    "TrajectoryRunner",
    "commandable_joints",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
