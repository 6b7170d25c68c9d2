"""JointLimiter: ros2_control's saturation and soft limiting, vectorised over all joints.

Per joint ``i`` with limits from :mod:`.spec` (``L, H`` = position range intersected with the
soft range; ``v̄`` max velocity; ``ā`` max acceleration; ``ē`` max effort; ``kp, kv`` soft
gains; ``q, v`` the measured position and velocity; ``dt`` the period), following
``joint_limits/src/joint_limits_helpers.cpp``, ``joint_saturation_limiter.cpp`` and
``joint_soft_limiter.cpp`` of ros2_control and the older ``joint_limits_interface`` soft
limit handles:

* **Soft velocity band** (when a soft range and ``kp`` and ``v̄`` are given):
  ``[clip(−kp (x − soft_lower), ±v̄), clip(−kp (x − soft_upper), ±v̄)]``, else ``[−v̄, v̄]``;
  ``x`` is the previous position command (position mode) or ``q`` (velocity/effort mode).
* **Position command**: clamped to ``[L, H]`` (reason ``position``, or ``soft_position`` when
  only the soft range is violated) and, when ``v̄`` is finite and ``dt > 0``, to what is
  reachable in one period from the reference ``r`` (the previous position command, or ``q``
  when there was none): ``[r + v_lo dt, r + v_hi dt] ∩ [L, H]`` (reason ``position_step``).
  Continuous joints have no ``L, H``.
* **Velocity command**: ``|v| ≤ v̄`` (``velocity``); not driving out of range,
  ``(q_min − q)/dt ≤ v ≤ (q_max − q)/dt`` (bounds relaxed to 0 so a joint outside its range
  may stop or come back), and the soft band (``velocity_position``); with ``ā``,
  ``|v − v_prev| ≤ ā dt`` (``acceleration``; ``v_prev`` = previous velocity command, else the
  measured velocity), applied first so that the position terms win when they conflict.
* **Effort command**: ``|τ| ≤ ē`` (``effort``); no pushing past a limit: at or beyond the
  lower limit while not moving up, ``τ ≥ 0``; at or beyond the upper limit while not moving
  down, ``τ ≤ 0`` (no cut while the velocity is unknown); beyond ``±v̄``, no effort that
  accelerates further; soft limits with
  ``kv``: ``[clip(−kv (v − v_lo), ±ē), clip(−kv (v − v_hi), ±ē)]`` (all ``effort_position``).
  ``kv = 0`` makes that band ``[0, 0]`` — ros2_control's behaviour — so building warns.

Each clamped command is counted once, under its first reason in the order ``position``,
``soft_position``, ``position_step``; ``velocity``, ``acceleration``, ``velocity_position``;
``effort``, ``effort_position``. Reasons are worked out only when something was clamped (the common,
unclamped cycle only computes the bounds and compares). NaN commands (= no command) stay NaN and are
not counted; a NaN measured position drops the terms that need it (range and reachability fall back
to ``[L, H]``). ``dt ≤ 0`` or non-finite disables the rate terms (reachability, range-by-velocity,
acceleration) and keeps the static ones. Implementations: the numpy path (:mod:`.numpy_path`,
stacked ufunc calls; the reference) and, when Numba is available (:mod:`sdf_bridge.jit`), one
compiled loop per cycle (:mod:`.kernel`) with identical results; ``JointLimiter(...,
compiled=False)`` forces the numpy path. Not done (documented differences): ros2_control's 1°/s
creep inside the soft band when the joint is already past a soft limit, deceleration and jerk
limits, and the exception it throws when the measured position is far outside the range.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from sdf_bridge import jit
from sdf_bridge.description.model import Robot
from sdf_bridge.errors import LimitsError

from . import kernel as _kernel
from .clamps import REASONS
from .numpy_path import NumpyPath
from .overrides import load_overrides
from .spec import JointLimits


class JointLimiter:
    """Enforces joint limits on joint-space commands (arrays in ``joint_names`` order).

    Attributes:
        joint_names: the joints, array order.
        limits: the merged :class:`~.spec.JointLimits` per joint.
        warnings: build-time warnings (e.g. ``k_velocity`` 0 on an effort-limited joint).
    """

    #: modules of the compiled kernels (each with ``warm_up()``; :mod:`.hardware.kernel_switch`)
    kernel_modules: ClassVar[tuple[str, ...]] = (_kernel.__name__,)

    def __init__(
        self,
        joint_names: Sequence[str],
        limits: Sequence[JointLimits],
        warnings: Sequence[str] = (),
        *,
        compiled: bool | None = None,
    ) -> None:
        """Build from per-joint limits (same length as ``joint_names``).

        Args:
            joint_names, limits, warnings: see the class attributes.
            compiled: run :meth:`enforce` through the compiled kernel (:mod:`.kernel`, one
                loop per cycle) rather than the numpy path; default :data:`sdf_bridge.jit.ENABLED`.
                Both give identical results. ``True`` without Numba runs the kernel as plain
                Python (slow; meant for tests).

        Raises:
            LimitsError: lengths differ.
        """
        if len(joint_names) != len(limits):
            raise LimitsError(
                f"{len(joint_names)} joint names but {len(limits)} limit sets. Fix: give one "
                "JointLimits per joint."
            )
        self.joint_names = tuple(joint_names)
        self.limits = tuple(limits)
        self.warnings = list(warnings)
        n = len(self.joint_names)
        # previous commands, rows position and velocity (updated in place by both paths)
        self._prev = np.full((2, n), np.nan)
        self._counts = np.zeros((len(REASONS), n), dtype=np.int64)
        self._numpy = NumpyPath(self.limits, self._prev, self._counts)
        self._numpy_enforce = self._numpy.enforce  # bound once: no lookup per cycle
        self._compiled = jit.ENABLED if compiled is None else bool(compiled)
        self._params = self._pack()
        self._shape3 = (3, n)
        if self._compiled:
            _kernel.warm_up()

    def _pack(self) -> np.ndarray:
        """The compiled kernel's parameter array (:func:`.kernel.pack`), from the numpy
        path's per-joint arrays."""
        k = _kernel
        a = self._numpy
        finite = np.isfinite(a.vmax)
        vnext = np.where(finite, np.nextafter(a.vmax, np.inf), np.nan)  # v > v̄ ⇔ v ≥ v̄'
        return k.pack(
            {
                k.PMIN: a.pmin,
                k.PMAX: a.pmax,
                k.LO: a.lo,
                k.HI: a.hi,
                k.VMAX: a.vmax,
                k.VNEXT: vnext,
                k.AMAX: a.amax,
                k.EMAX: a.emax,
                k.RAMP: a.ramp.astype(float),
                k.KPS0: a.kps2[0],
                k.KPS1: a.kps2[1],
                k.SOFT0: a.soft2[0],
                k.SOFT1: a.soft2[1],
                k.BASE0: a.bases2[0],
                k.BASE1: a.bases2[1],
                k.ESOFT: a.esoft.astype(float),
                k.KV: a.kv,
            },
            len(self.joint_names),
            a.any_vmax,
            a.any_pos_limits,
            a.any_amax,
        )

    # --------------------------------------------------------------------------- building
    @classmethod
    def from_robot(
        cls,
        robot: Robot,
        joint_names: Sequence[str],
        *,
        overrides: Mapping[str, Mapping[str, Any]] | str | Path | None = None,
        compiled: bool | None = None,
    ) -> JointLimiter:
        """Limits of ``joint_names`` from the URDF, ``<ros2_control>`` and an override.

        Args:
            robot: the robot.
            joint_names: joints to limit, array order (e.g. ``TransmissionMap.joint_names``).
            overrides: ``{joint: {field: value}}`` (as :meth:`load_overrides` returns, or a raw
                parsed YAML document), or a YAML file path.
            compiled: use the compiled kernel (see :meth:`__init__`); default
                :data:`sdf_bridge.jit.ENABLED`.

        Raises:
            LimitsError: a joint not in the robot, an override for an unknown joint or with a
                bad field, inconsistent limits.
        """
        from .loader import limits_of

        limits, warnings = limits_of(robot, joint_names, overrides)
        return cls(joint_names, limits, warnings, compiled=compiled)

    @staticmethod
    def load_overrides(path: str | Path) -> dict:
        """Read a ros2_control ``joint_limits`` YAML file (see :mod:`.overrides`).

        Raises:
            LimitsError: unreadable, invalid YAML, unknown field or wrong type.
        """
        return load_overrides(path)

    # ----------------------------------------------------------------------- diagnostics
    @property
    def counts(self) -> dict[tuple[str, str], int]:
        """``(joint, reason) → number of clamps`` since construction or :meth:`reset`
        (only non-zero entries; reasons in :data:`REASONS`)."""
        out: dict[tuple[str, str], int] = {}
        rs, js = np.nonzero(self._counts)
        for r, j in zip(rs.tolist(), js.tolist()):
            out[(self.joint_names[j], REASONS[r])] = int(self._counts[r, j])
        return out

    @property
    def compiled(self) -> bool:
        """Whether :meth:`enforce` runs the compiled kernel (else the numpy path)."""
        return self._compiled

    def use_compiled(self) -> None:
        """Limit through the compiled kernel from the next call on, warmed up first
        (:func:`.kernel.warm_up`: compiled, or loaded from Numba's cache, now). The previous
        commands and the clamp counters are the same arrays for both paths, so they carry over;
        switch between cycles."""
        _kernel.warm_up()
        self._compiled = True

    def reset(self) -> None:
        """Forget previous commands (after an e-stop or re-home) and zero the counters."""
        self._prev[:] = np.nan
        self._counts[:] = 0

    def actuator_limits(self, tmap: Any) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Actuator-side bounds through a :class:`~sdf_bridge.transmissions.TransmissionMap`
        whose ``joint_names`` equal this limiter's: ``{"position": (lo, hi), "velocity": …,
        "effort": …}``, each array of shape ``(n_actuators,)`` (negative reductions swap).

        Raises:
            LimitsError: the map's joints differ from the limiter's.
        """
        if tuple(tmap.joint_names) != self.joint_names:
            raise LimitsError(
                "the transmission map's joints differ from the limiter's. Fix: "
                "build the limiter with tmap.joint_names."
            )
        a = self._numpy
        return {
            "position": tmap.actuator_bounds(a.pmin, a.pmax, "position"),
            "velocity": tmap.actuator_bounds(-a.vmax, a.vmax, "velocity"),
            "effort": tmap.actuator_bounds(-a.emax, a.emax, "effort"),
        }

    # ------------------------------------------------------------------------- hot path
    def enforce(
        self,
        position: np.ndarray,
        velocity: np.ndarray,
        cmd_position: np.ndarray,
        cmd_velocity: np.ndarray,
        cmd_effort: np.ndarray,
        dt: float,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Limit one cycle's commands.

        Args:
            position, velocity: measured joint state, shape ``(n_joints,)`` (rad or m, rad/s or
                m/s); NaN where unknown.
            cmd_position, cmd_velocity, cmd_effort: commands, shape ``(n_joints,)``; NaN = no
                command for that joint and interface.
            dt: control period in s (≤ 0 or non-finite: only static limits), converted with
                ``float()``.

        Returns:
            The limited ``(cmd_position, cmd_velocity, cmd_effort)``, new arrays; NaN stays NaN.

        Raises:
            ValueError: arrays of the wrong shape, or a ``dt`` string that is not a number.
            TypeError: ``dt`` is not a number.

        Implementation (:class:`.numpy_path.NumpyPath`): the bounds of the interfaces that
        carry commands are computed together in one stacked, C-contiguous ``(slots, 2, n)``
        buffer in S-form (side 0 the negated lower bound, side 1 the upper bound; slots effort,
        position, velocity, plus two for the effort cut), about 15–25 ufunc calls whatever
        ``n``; only when a command lies outside them are the commands clamped and the reasons
        worked out, with results identical to clamping interface by interface. NaN state values
        drop the terms that need them (``fmin`` ignores NaN), so the bounds never contain NaN:
        an unknown position leaves ±v̄ and the static range in force, and never turns a valid
        command into NaN. Products of NaN/inf placeholders are expected there, so their
        floating-point warnings are silenced for this call only.

        With the compiled kernel (``compiled``, see :meth:`__init__`) the same rules run as one
        loop over the joints (:func:`.kernel.enforce`), with identical results; arguments it
        does not accept (not float64 arrays, wrong lengths, a non-float ``dt``) go to the
        numpy path, which converts them or raises.
        """
        dt = float(dt)  # a numpy scalar (e.g. float32) must not be compared in its own precision
        if self._compiled:
            try:
                out = np.empty(self._shape3)
                _kernel.enforce(
                    self._params,
                    self._prev,
                    self._counts,
                    position,
                    velocity,
                    cmd_position,
                    cmd_velocity,
                    cmd_effort,
                    dt,
                    out,
                )
            except (TypeError, ValueError):
                pass  # the numpy path converts or raises the documented error
            else:
                return out[0], out[1], out[2]
        with np.errstate(invalid="ignore", over="ignore"):
            return self._numpy_enforce(
                position, velocity, cmd_position, cmd_velocity, cmd_effort, dt
            )

    def enforce_stacked(
        self,
        measured: np.ndarray,
        commands: np.ndarray,
        dt: float,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        """:meth:`enforce` on stacked arrays, for the control cycle (fewer arguments to pass).

        Args:
            measured: shape ``(2 or 3, m)``, ``m ≥ n_joints``: rows measured position and
                velocity (a third row, e.g. effort, is ignored); columns ``joint_names``
                first (further columns, e.g. followers, are ignored).
            commands: shape ``(3, n_joints)``: rows position, velocity, effort commands (NaN =
                none).
            dt: control period, s (as :meth:`enforce`).
            out: a C-contiguous float64 ``(3, n_joints)`` array to write the result into (the
                control cycle's reused buffer), or ``None`` for a new one.

        Returns:
            ``out`` or a new ``(3, n_joints)`` array: the limited commands, equal to
            :meth:`enforce` of the rows.

        Raises:
            ValueError, TypeError: as :meth:`enforce` (shapes, ``dt``).
        """
        dt = float(dt)
        if self._compiled:
            try:
                if out is None:
                    out = np.empty(self._shape3)
                _kernel.enforce_stacked(
                    self._params, self._prev, self._counts, measured, commands, dt, out
                )
                return out
            except (TypeError, ValueError):
                pass  # the row-wise call converts or raises the documented error
        measured = np.asarray(measured)
        commands = np.asarray(commands)
        if (
            measured.ndim != 2
            or measured.shape[0] < 2
            or commands.ndim != 2
            or commands.shape[0] != 3
        ):
            raise ValueError(
                f"enforce_stacked: measured state of shape {measured.shape} (need (2 or 3, >= "
                f"{len(self.joint_names)})) and commands of shape {commands.shape} (need (3, "
                f"{len(self.joint_names)}))"
            )
        n = len(self.joint_names)
        limited = self.enforce(
            measured[0, :n], measured[1, :n], commands[0], commands[1], commands[2], dt
        )
        if out is None:
            return np.array(limited)
        out[...] = limited
        return out
