"""The checks of what the bridge gives the MuJoCo backend: a control period as a whole number of
physics steps (:func:`~.inputs.physics_steps`) and a joint command's arrays
(:func:`~.inputs.command_arrays`)."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np

from ...errors import BackendError
from ..base import MODE_DTYPE, JointCommand


def physics_steps(dt: float, timestep: float) -> int:
    """The number of physics steps of ``timestep`` s in a period of ``dt`` s.

    Raises:
        BackendError: ``dt`` is not a finite number of seconds up to 1e9, or not a multiple of
            ``timestep`` (within 1e-9 relative, 1e-12 s absolute); the message names the fix.
    """
    ts = timestep
    if not (isinstance(dt, numbers.Real) and math.isfinite(dt)) or dt > 1e9:
        raise BackendError(
            f"read(dt={dt!r}): dt must be a finite number of seconds up to 1e9 (a multiple "
            f"of the physics timestep {ts} s)"
        )
    dt = float(dt)  # (a numpy scalar is not compared in its own precision)
    n = int(round(dt / ts))
    if dt < 0.0 or abs(n * ts - dt) > 1e-9 * max(1.0, dt) + 1e-12:
        divisor = f" (e.g. {dt / math.ceil(dt / ts):.6g} s)" if dt > 0.0 else ""
        raise BackendError(
            f"read(dt={dt}) is not a multiple of the physics timestep {ts} s (backend "
            f"parameter timestep). Fix: set backend_params.timestep to a divisor of the "
            f"control period 1/update_rate{divisor}, or update_rate so that 1/update_rate "
            "is a multiple of the timestep"
        )
    return n


def command_arrays(
    command: JointCommand, shapes: tuple[tuple[int, ...], ...], joint_names: Sequence[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``command``'s arrays as C-contiguous copies: values float64 (3, n_joints), mode int8
    (n_joints,), hold float64 (n_joints,); ``shapes`` = ``((3, n), (n,), (n,))``, the shapes
    expected, for the columns ``joint_names``.

    Raises:
        BackendError: other shapes, or not numbers.
    """
    n = shapes[1][0]
    try:  # (copies: writeable, contiguous)
        values = np.array(command.values, dtype=float, order="C")
        mode = np.array(command.mode, dtype=MODE_DTYPE, order="C")
        hold = np.array(command.hold, dtype=float, order="C")
    except (AttributeError, TypeError, ValueError) as exc:  # ragged, not numbers, not a command
        raise BackendError(
            f"joint command is not (3, {n}), ({n},), ({n},) arrays of "
            f"numbers (values, mode, hold): {exc}"
        ) from exc
    got = (values.shape, mode.shape, hold.shape)
    if got != shapes:
        raise BackendError(
            f"joint command arrays of shapes {got}, expected {shapes} "
            "(values: rows position, velocity, effort; mode; hold; columns "
            f"{list(joint_names)})"
        )
    return values, mode, hold
