"""The control cycle (ROS-free), one tick: commands → holds → limits → backend write → backend
read → [publish], then the loop sleeps; with command validation, modes, holds (watchdog,
coupled partners, idle joints, e-stop), trajectories and timing.

Main entry point: :class:`HardwareSystem`; :class:`FixedRateLoop` runs its ticks at a rate.
"""

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

__all__ = [
    "REJECTION_REASONS",
    "CommandBuffer",
    "CommandWatchdog",
    "CycleState",
    "FixedRateLoop",
    "HardwareSystem",
    "Holds",
    "LoopTiming",
    "Trajectory",
    "TrajectoryRunner",
    "commandable_joints",
]
