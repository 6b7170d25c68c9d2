"""Why a command was clamped: the reasons the limiter counts per joint, worked out only when
something was clamped (:class:`~sdf_bridge.limits.JointLimiter`; the rules are in
:mod:`.limiter`). Each clamped command is counted once, under its first reason in the order
of :data:`REASONS` within its interface.

Every function takes ``counts`` (len(REASONS), n) ints, updated in place, and the command
``cmd`` and its limited value ``out`` (each (n,); NaN commands are not counted).
"""

from __future__ import annotations

import numpy as np

#: Why the limiter changed a command, in the order counts and diagnostics list them.
REASONS = (
    "position",
    "soft_position",
    "position_step",
    "velocity",
    "velocity_position",
    "acceleration",
    "effort",
    "effort_position",
)
"""Clamp reasons counted per joint (see the :mod:`.limiter` module docstring)."""

_R = {name: i for i, name in enumerate(REASONS)}


def _changed(cmd: np.ndarray, out: np.ndarray) -> np.ndarray:
    changed = out != cmd
    changed &= cmd == cmd
    return changed


def count_position(
    counts: np.ndarray,
    cmd: np.ndarray,
    out: np.ndarray,
    pmin: np.ndarray,
    pmax: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
) -> None:
    """Position clamps: beyond ``[pmin, pmax]`` (``position``), else beyond the soft range
    ``[lo, hi]`` (``soft_position``), else not reachable in one period (``position_step``)."""
    changed = _changed(cmd, out)
    hard = (cmd < pmin) | (cmd > pmax)
    soft = ((cmd < lo) | (cmd > hi)) & ~hard
    counts[_R["position"]] += changed & hard
    counts[_R["soft_position"]] += changed & soft
    counts[_R["position_step"]] += changed & ~hard & ~soft


def count_velocity(
    counts: np.ndarray,
    cmd: np.ndarray,
    out: np.ndarray,
    vmax: np.ndarray,
    acc: tuple[np.ndarray, np.ndarray] | None,
) -> None:
    """Velocity clamps: beyond ``±vmax`` (``velocity``), else by the acceleration bounds
    ``acc`` (lower, upper; ``acceleration``), else by position (``velocity_position``)."""
    changed = _changed(cmd, out)
    over = np.abs(cmd) > vmax
    counts[_R["velocity"]] += changed & over
    rest = changed & ~over
    if acc is not None:
        outside = (cmd < acc[0]) | (cmd > acc[1])
        inside_now = (out >= acc[0]) & (out <= acc[1])
        by_acc = rest & outside & inside_now
        counts[_R["acceleration"]] += by_acc
        rest &= ~by_acc
    counts[_R["velocity_position"]] += rest


def count_effort(counts: np.ndarray, cmd: np.ndarray, out: np.ndarray, emax: np.ndarray) -> None:
    """Effort clamps: beyond ``±emax`` (``effort``), else by position or velocity
    (``effort_position``)."""
    changed = _changed(cmd, out)
    over = np.abs(cmd) > emax
    counts[_R["effort"]] += changed & over
    counts[_R["effort_position"]] += changed & ~over
