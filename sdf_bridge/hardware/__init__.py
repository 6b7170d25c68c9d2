"""The control cycle (ROS-free), one tick: commands → watchdog → limits → joint_to_actuator →
write → read → actuator_to_joint → [publish], then the loop sleeps; with command validation,
modes, e-stop and timing.

Main entry point: :class:`HardwareSystem`. Names are imported lazily, so that the small parts
(:mod:`.timing`, :mod:`.trajectory`, :mod:`.commands`) load without the transmission and limit
layers.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "CommandBuffer": ".commands",
    "REJECTION_REASONS": ".commands",
    "CommandWatchdog": ".watchdog",
    "CycleState": ".system",
    "HardwareSystem": ".system",
    "commandable_joints": ".system",
    "LoopTiming": ".timing",
    "Trajectory": ".trajectory",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sdf_bridge.hardware' has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
