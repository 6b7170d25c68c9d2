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
to ``[L, H]``). The rate terms are in the time that passes for the joint (simulated time on a
simulator): ``dt = 0`` — no time passes, e.g. a paused simulation — holds them, so a position
command stays at the reference ``r`` where ``v̄`` is finite and a velocity command at its
acceleration reference where ``ā`` is finite (range-by-velocity needs ``dt > 0`` and is
dropped); ``dt < 0`` or non-finite disables the rate terms (reachability, range-by-velocity,
acceleration) and keeps the static ones. A NaN acceleration window (an infinite reference)
does not bind. One implementation: stacked numpy calls on preallocated ``(3, n)`` buffers,
about 20–40 ufunc calls per cycle whatever ``n``, written in plain lower/upper bounds (see
:meth:`JointLimiter.enforce_stacked`). Not done (documented differences): ros2_control's 1°/s
creep inside the soft band when the joint is already past a soft limit, deceleration and jerk
limits, and the exception it throws when the measured position is far outside the range.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sdf_bridge.description.model import Robot
from sdf_bridge.errors import LimitsError

from . import clamps
from .clamps import REASONS
from .overrides import load_overrides
from .spec import JointLimits

_HUGE = 1e300
"""Stands in for an infinite velocity band in the soft effort band (``0·inf`` would be NaN:
``k_velocity = 0`` must give the band ``[0, 0]``, as ros2_control)."""
_fmax_rows = np.fmax.reduce  # per-row maximum ignoring NaN (NaN only for an all-NaN row)


def commanded_interfaces(commands: np.ndarray) -> tuple[bool, bool, bool]:
    """Which rows of ``commands`` (3, n) — position, velocity, effort — carry a command (a
    value that is not NaN somewhere). Not free per cycle: a caller whose command arrays are not
    changed in place computes it once per array and passes it to
    :meth:`JointLimiter.enforce_stacked` (doc/dev/rationale.md)."""
    if commands.shape[1] == 0:  # no joints
        return False, False, False
    has_p, has_v, has_e = (x == x for x in _fmax_rows(commands, axis=1).tolist())
    return has_p, has_v, has_e


class JointLimiter:
    """Enforces joint limits on joint-space commands (arrays in ``joint_names`` order).

    Attributes:
        joint_names: the joints, array order.
        limits: the merged :class:`~.spec.JointLimits` per joint.
        warnings: build-time warnings (e.g. ``k_velocity`` 0 on an effort-limited joint).
        pmin, pmax: position range per joint, shape ``(n,)`` (rad or m; ``∓inf`` unlimited).
        lo, hi: the range intersected with the soft range, ``L, H``.
        vmax, amax, emax: ``v̄`` (rad/s or m/s), ``ā`` (rad/s² or m/s²), ``ē`` (N·m or N),
            ``inf`` where not limited.
    """

    def __init__(
        self,
        joint_names: Sequence[str],
        limits: Sequence[JointLimits],
        warnings: Sequence[str] = (),
    ) -> None:
        """Build from per-joint limits (same length as ``joint_names``).

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
        n = self._n = len(self.joint_names)
        # previous commands, rows position and velocity (NaN: none)
        self._prev = np.full((2, n), np.nan)
        self._counts = np.zeros((len(REASONS), n), dtype=np.int64)
        lims = self.limits

        def f(attr: str) -> np.ndarray:
            return np.array([getattr(lim, attr) for lim in lims], dtype=float)

        def has(attr: str) -> np.ndarray:
            return np.array([getattr(lim, f"has_{attr}_limits") for lim in lims], dtype=bool)

        has_pos, has_soft = has("position"), has("soft")
        self.pmin = np.where(has_pos, f("min_position"), -np.inf)
        self.pmax = np.where(has_pos, f("max_position"), np.inf)
        soft_lo = np.where(has_soft, f("soft_lower"), -np.inf)
        soft_hi = np.where(has_soft, f("soft_upper"), np.inf)
        self.lo = np.maximum(self.pmin, soft_lo)
        self.hi = np.minimum(self.pmax, soft_hi)
        self.vmax = np.where(has("velocity"), f("max_velocity"), np.inf)
        self.amax = np.where(has("acceleration"), f("max_acceleration"), np.inf)
        self.emax = np.where(has("effort"), f("max_effort"), np.inf)
        kp = np.where(has_soft, f("k_position"), np.nan)
        kv = np.where(has_soft, f("k_velocity"), np.nan)
        with np.errstate(invalid="ignore"):
            # the soft velocity band applies: soft range, kp > 0, finite v̄, position limits
            ramp = (
                np.isfinite(soft_lo)
                & np.isfinite(soft_hi)
                & np.isfinite(kp)
                & (kp > 0)
                & np.isfinite(self.vmax)
                & has_pos
            )
        esoft = np.isfinite(kv) & np.isfinite(self.emax)  # the soft effort band applies
        self._any_ramp = bool(ramp.any())
        self._any_esoft = bool(esoft.any())
        self._any_vmax = bool(np.isfinite(self.vmax).any())
        self._any_pos = bool(has_pos.any())
        self._any_amax = bool(np.isfinite(self.amax).any())
        self._any_cut = self._any_pos or self._any_vmax
        self._band_finite = bool(np.isfinite(self.vmax).all())  # no ±inf in a velocity band
        # ---- constants of the hot path, in pairs of rows (lower, upper), shape (2, n)
        vmax, emax = self.vmax, self.emax
        self._wide = np.stack([-vmax, vmax])  # the velocity band without soft limits
        self._band_soft = np.stack([np.where(ramp, soft_lo, 0.0), np.where(ramp, soft_hi, 0.0)])
        nkp = np.where(ramp, -kp, 0.0)
        self._band_gain = np.stack([nkp, nkp])
        self._band_base = np.where(ramp, 0.0, self._wide)
        self._nvmax2 = np.stack([-vmax, -vmax])
        self._lo2 = np.stack([self.lo, self.lo])
        self._hi2 = np.stack([self.hi, self.hi])
        self._lohi = np.stack([self.lo, self.hi])
        self._range = np.stack([self.pmin, self.pmax])
        self._unbounded = np.stack([np.full(n, -np.inf), np.full(n, np.inf)])
        self._effort_static = np.stack([-emax, emax])
        self._neg_emax2 = np.stack([-emax, -emax])
        self._emax2 = np.stack([emax, emax])
        esoft2 = np.stack([esoft, esoft])
        self._kv2 = np.where(esoft2, np.stack([kv, kv]), 0.0)
        # added to the soft effort band: ∓ē where it does not apply (the band is 0 there)
        self._effort_off = np.where(esoft2, 0.0, self._effort_static)
        self._sign = np.array([[1.0], [-1.0]])  # lower side, upper side (the effort cut)
        self._zeros = np.zeros(n)
        # ---- buffers (reused every cycle) and their row views (made once)
        self._cmd = np.empty((3, n))  # enforce(): the commands stacked
        self._bounds = np.full((2, 3, n), np.inf)  # [lower | upper] × [position, velocity, effort]
        self._bounds[0] = -np.inf
        self._lower, self._upper = self._bounds
        self._pair_p = self._bounds[:, 0]  # (2, n) views: (lower, upper) of one interface
        self._pair_v = self._bounds[:, 1]
        self._pair_e = self._bounds[:, 2]
        self._v_lo, self._v_hi = self._bounds[0, 1], self._bounds[1, 1]
        self._e_lo, self._e_hi = self._bounds[0, 2], self._bounds[1, 2]
        self._band_q = np.empty((2, n))  # the soft velocity band at q
        self._band_r = np.empty((2, n))  # … at the reference position
        self._ref = np.empty(n)
        self._work = np.empty((2, n))
        self._sv = np.empty((2, n))
        self._cut = np.empty((2, n), dtype=bool)
        self._cut2 = np.empty((2, n), dtype=bool)
        self._cut_lo, self._cut_hi = self._cut
        self._gate = np.empty((3, n), dtype=bool)
        self._gate2 = np.empty((3, n), dtype=bool)
        self._gate_v = np.empty(n, dtype=bool)
        self._vref = np.empty(n)
        self._acc_lo, self._acc_hi = np.empty(n), np.empty(n)
        self._dt = math.nan
        self._rate = False
        self._step = False
        self._amax_dt = self.amax
        self._inv_dt = math.nan
        self._wide_dt = self._wide

    # --------------------------------------------------------------------------- building
    @classmethod
    def from_robot(
        cls,
        robot: Robot,
        joint_names: Sequence[str],
        *,
        overrides: Mapping[str, Mapping[str, Any]] | str | Path | None = None,
    ) -> JointLimiter:
        """Limits of ``joint_names`` from the URDF, ``<ros2_control>`` and an override.

        Args:
            robot: the robot.
            joint_names: joints to limit, array order (e.g. ``TransmissionMap.joint_names``).
            overrides: ``{joint: {field: value}}`` (as :meth:`load_overrides` returns, or a raw
                parsed YAML document), or a YAML file path.

        Raises:
            LimitsError: a joint not in the robot, an override for an unknown joint or with a
                bad field, inconsistent limits.
        """
        from .from_description import limits_of

        limits, warnings = limits_of(robot, joint_names, overrides)
        return cls(joint_names, limits, warnings)

    def with_limits(self, limits: Sequence[JointLimits]) -> JointLimiter:
        """A limiter of the same joints with ``limits`` (one per joint, e.g. changed at run
        time: :mod:`sdf_bridge.hardware.joint_properties`), which goes on from this one: the
        previous commands (the reference of the position step and acceleration rules) and the
        clamp counts carry over. This limiter is left as it was.

        Raises:
            LimitsError: not one limit set per joint.
        """
        limiter = JointLimiter(self.joint_names, limits, self.warnings)
        limiter._prev[...] = self._prev
        limiter._counts[...] = self._counts
        return limiter

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
        return {
            "position": tmap.actuator_bounds(self.pmin, self.pmax, "position"),
            "velocity": tmap.actuator_bounds(-self.vmax, self.vmax, "velocity"),
            "effort": tmap.actuator_bounds(-self.emax, self.emax, "effort"),
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
            dt: time that passes for the joint over this command, s (the control period; 0
                while a simulation is paused: the rate terms hold, module doc; < 0 or
                non-finite: only static limits), converted with ``float()``.

        Returns:
            The limited ``(cmd_position, cmd_velocity, cmd_effort)``, new arrays; NaN stays NaN.

        Raises:
            ValueError: arrays of the wrong shape, or a ``dt`` string that is not a number.
            TypeError: ``dt`` is not a number.
        """
        dt = float(dt)  # a numpy scalar (e.g. float32) must not be compared in its own precision
        q = np.asarray(position, dtype=float)
        v = np.asarray(velocity, dtype=float)
        cp = np.asarray(cmd_position, dtype=float)
        cv = np.asarray(cmd_velocity, dtype=float)
        ce = np.asarray(cmd_effort, dtype=float)
        shape = (self._n,)
        if not (q.shape == v.shape == cp.shape == cv.shape == ce.shape == shape):
            raise ValueError(
                f"enforce: every array must have shape ({self._n},); got {q.shape}, {v.shape}, "
                f"{cp.shape}, {cv.shape}, {ce.shape}"
            )
        cmd = self._cmd
        cmd[0], cmd[1], cmd[2] = cp, cv, ce
        out = np.empty((3, self._n))
        self._limit(q, v, cmd, dt, out)
        return out[0], out[1], out[2]

    def enforce_stacked(
        self,
        measured: np.ndarray,
        commands: np.ndarray,
        dt: float,
        out: np.ndarray | None = None,
        *,
        commanded: tuple[bool, bool, bool] | None = None,
    ) -> np.ndarray:
        """:meth:`enforce` on stacked arrays, for the control cycle (fewer arguments to pass).

        Args:
            measured: shape ``(2 or 3, m)``, ``m ≥ n_joints``: rows measured position and
                velocity (a third row, e.g. effort, is ignored); columns ``joint_names``
                first (further columns, e.g. followers, are ignored).
            commands: shape ``(3, n_joints)``: rows position, velocity, effort commands (NaN =
                none).
            dt: control period, s (as :meth:`enforce`).
            out: a float64 ``(3, n_joints)`` array to write the result into (the control
                cycle's reused buffer; not ``commands``), or ``None`` for a new one.
            commanded: :func:`commanded_interfaces` of ``commands``, when the caller has it
                (e.g. kept while its command array is unchanged); computed when ``None``.

        Returns:
            ``out`` or a new ``(3, n_joints)`` array: the limited commands, equal to
            :meth:`enforce` of the rows.

        Raises:
            ValueError, TypeError: as :meth:`enforce` (shapes, ``dt``).

        Per cycle, for the interfaces that carry commands, the bounds of each command are
        computed in plain lower/upper form into one ``(2, 3, n)`` buffer (lower | upper ×
        position, velocity, effort):

        * soft velocity band at ``x``: ``clip(−kp (x − soft), −v̄, v̄)`` on joints with a soft
          ramp, ``[−v̄, v̄]`` elsewhere and where ``x`` is unknown;
        * position: ``clip(r + band(r)·dt, L, H)`` with ``r`` the previous position command
          (else ``q``; unknown: ``[L, H]``);
        * velocity: ``[min((q_min − q)/dt, 0), max((q_max − q)/dt, 0)] ∩ band(q)`` (unknown
          ``q``: the band), after the acceleration window ``v_ref ∓ ā·dt``;
        * effort: ``[−ē, ē]``, or ``clip(kv (band(q) − v), −ē, ē)`` with soft effort limits;
          then ``lower ≥ 0`` where at/below the lower limit and not moving up (``q ≤ q_min``,
          ``v ≤ 0``) or faster than ``v̄`` downwards, and the mirror image for the upper side.

        The commands are compared with the bounds; only when one lies outside are they clamped
        (``min(max(c, lower), upper)``, NaN stays NaN) and the reasons counted.
        """
        dt = float(dt)
        measured = np.asarray(measured, dtype=float)
        commands = np.asarray(commands, dtype=float)
        n = self._n
        if (
            measured.ndim != 2
            or measured.shape[0] < 2
            or commands.ndim != 2
            or commands.shape[0] != 3
        ):
            raise ValueError(
                f"enforce_stacked: measured state of shape {measured.shape} (need (2 or 3, >= "
                f"{n})) and commands of shape {commands.shape} (need (3, {n}))"
            )
        if measured.shape[1] < n or commands.shape[1] != n:
            raise ValueError(
                f"enforce_stacked: every array must have shape ({n},); got measured state of "
                f"shape {measured.shape} and commands of shape {commands.shape}"
            )
        if out is None:
            out = np.empty((3, n))
        self._limit(measured[0, :n], measured[1, :n], commands, dt, out, commanded)
        return out

    def _set_dt(self, dt: float) -> None:
        """Per-``dt`` constants (kept: the period rarely changes)."""
        self._dt = dt
        self._rate = dt >= 0.0 and math.isfinite(dt)  # reachability, acceleration
        self._step = step = dt > 0.0 and math.isfinite(dt)  # range-by-velocity (1/dt)
        with np.errstate(over="ignore", invalid="ignore"):
            # an infinite v̄ or ā stays infinite at dt = 0 (inf·0 would be NaN)
            self._amax_dt = np.where(np.isfinite(self.amax), self.amax * dt, np.inf)
            self._inv_dt = 1.0 / dt if step else math.nan
            self._wide_dt = np.where(np.isfinite(self._wide), self._wide * dt, self._wide)

    def _band(self, x: np.ndarray, out: np.ndarray) -> np.ndarray:
        """The soft velocity band at positions ``x`` (n,), rows lower, upper (see
        :meth:`enforce_stacked`): ``out`` (2, n), or the constant ``[−v̄, v̄]`` without soft
        ramps (read only)."""
        if not self._any_ramp:
            return self._wide
        np.subtract(x, self._band_soft, out=out)
        np.multiply(out, self._band_gain, out=out)
        np.add(out, self._band_base, out=out)
        np.maximum(out, self._nvmax2, out=out)
        np.minimum(out, self._wide[1], out=out)
        if math.isnan(x.dot(self._zeros)):  # an unknown or infinite x: the plain band there
            np.copyto(out, self._wide, where=np.isnan(out))
        return out

    def _limit(
        self,
        q: np.ndarray,
        v: np.ndarray,
        cmd: np.ndarray,
        dt: float,
        out: np.ndarray,
        commanded: tuple[bool, bool, bool] | None = None,
    ) -> None:
        """The limiting rules of :meth:`enforce_stacked` on checked arrays: ``q``, ``v`` (n,),
        ``cmd`` (3, n) → ``out`` (3, n); previous commands and counters updated. ``commanded``:
        :func:`commanded_interfaces` of ``cmd`` (computed when ``None``)."""
        if dt != self._dt:
            self._set_dt(dt)
        if self._n == 0:
            return
        # which interfaces carry commands (an all-NaN row: none)
        has_p, has_v, has_e = commanded_interfaces(cmd) if commanded is None else commanded
        prev = self._prev
        if not (has_p or has_v or has_e):
            out[...] = cmd
            prev[...] = cmd[:2]
            return
        rate = self._rate
        zeros = self._zeros
        with np.errstate(invalid="ignore", over="ignore"):
            band_q = self._band(q, self._band_q) if (has_v or has_e) else self._wide
            if has_p:
                pair = self._pair_p
                if rate and self._any_vmax:
                    r = prev[0]
                    unknown = math.isnan(r.dot(zeros))
                    if unknown:  # no previous command (or infinite): q
                        r = self._ref
                        np.copyto(r, prev[0])
                        np.copyto(r, q, where=np.isnan(r))
                        unknown = math.isnan(r.dot(zeros))
                    if self._any_ramp:
                        np.multiply(self._band(r, self._band_r), dt, out=pair)
                        if dt == 0.0:  # inf·0 where v̄ is infinite: unbounded there
                            np.copyto(pair, self._wide_dt, where=np.isnan(pair))
                        np.add(pair, r, out=pair)
                    else:
                        np.add(self._wide_dt, r, out=pair)
                    if unknown:  # still unknown: the static range there
                        np.copyto(pair, self._unbounded, where=np.isnan(pair))
                    np.maximum(pair, self._lo2, out=pair)
                    np.minimum(pair, self._hi2, out=pair)
                else:
                    np.copyto(pair, self._lohi)
            if has_v:
                if self._step and self._any_pos:
                    pair = self._pair_v
                    np.subtract(self._range, q, out=pair)
                    np.multiply(pair, self._inv_dt, out=pair)
                    lo, hi = self._v_lo, self._v_hi
                    np.minimum(lo, 0.0, out=lo)
                    np.maximum(hi, 0.0, out=hi)
                    np.fmax(lo, band_q[0], out=lo)  # unknown q: the band
                    np.fmin(hi, band_q[1], out=hi)
                else:
                    np.copyto(self._pair_v, band_q)
            if has_e:
                pair = self._pair_e
                if self._any_esoft:
                    if self._band_finite:
                        np.subtract(band_q, v, out=pair)
                    else:
                        np.maximum(band_q, -_HUGE, out=pair)
                        np.minimum(pair, _HUGE, out=pair)
                        np.subtract(pair, v, out=pair)
                    np.multiply(pair, self._kv2, out=pair)
                    np.add(pair, self._effort_off, out=pair)
                    if math.isnan(v.dot(zeros)):  # unknown (or infinite) v: [−ē, ē] there
                        np.copyto(pair, self._effort_static, where=np.isnan(pair))
                    np.maximum(pair, self._neg_emax2, out=pair)
                    np.minimum(pair, self._emax2, out=pair)
                else:
                    np.copyto(pair, self._effort_static)
                if self._any_cut:
                    # no effort further past a limit, nor further beyond v̄ (unknown v: no cut)
                    w, cut = self._work, self._cut
                    np.subtract(q, self._range, out=w)
                    np.multiply(w, self._sign, out=w)  # ≤ 0: at or beyond that side's limit
                    sv = np.multiply(v, self._sign, out=self._sv)  # ≤ 0: not moving away
                    np.maximum(w, sv, out=w)
                    np.less_equal(w, 0.0, out=cut)
                    cut |= np.less(sv, self._nvmax2, out=self._cut2)
                    if np.count_nonzero(cut):
                        np.maximum(self._e_lo, 0.0, out=self._e_lo, where=self._cut_lo)
                        np.minimum(self._e_hi, 0.0, out=self._e_hi, where=self._cut_hi)
            lower, upper = self._lower, self._upper
            gate = np.less(cmd, lower, out=self._gate)
            gate |= np.greater(cmd, upper, out=self._gate2)
            clamped = np.count_nonzero(gate)
            acc = None
            if has_v and rate and self._any_amax:
                vref = prev[1]
                if math.isnan(vref.dot(zeros)):  # no previous command: v, else the command
                    vref = self._vref
                    np.copyto(vref, prev[1])
                    np.copyto(vref, v, where=np.isnan(vref))
                    np.copyto(vref, cmd[1], where=np.isnan(vref))
                acc = (
                    np.subtract(vref, self._amax_dt, out=self._acc_lo),
                    np.add(vref, self._amax_dt, out=self._acc_hi),
                )
                if not math.isfinite(vref.dot(zeros)):  # inf ∓ inf: a NaN window binds nothing
                    np.fmax(acc[0], -np.inf, out=acc[0])
                    np.fmin(acc[1], np.inf, out=acc[1])
                gv = self._gate_v
                clamped = (
                    clamped
                    or np.count_nonzero(np.less(cmd[1], acc[0], out=gv))
                    or np.count_nonzero(np.greater(cmd[1], acc[1], out=gv))
                )
            if not clamped:
                out[...] = cmd
                prev[...] = cmd[:2]
                return
            if acc is not None:  # first (the position terms win when they conflict)
                np.maximum(cmd[1], acc[0], out=out[1])
                np.minimum(out[1], acc[1], out=out[1])
                out[0], out[2] = cmd[0], cmd[2]
                np.maximum(out, lower, out=out)
            else:
                np.maximum(cmd, lower, out=out)
            np.minimum(out, upper, out=out)
        counts = self._counts
        clamps.count_position(counts, cmd[0], out[0], self.pmin, self.pmax, self.lo, self.hi)
        clamps.count_velocity(counts, cmd[1], out[1], self.vmax, acc)
        clamps.count_effort(counts, cmd[2], out[2], self.emax)
        prev[...] = out[:2]
