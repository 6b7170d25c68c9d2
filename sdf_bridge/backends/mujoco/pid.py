"""Per-joint PID position/velocity control, vectorised over the simulated joints.

Law (joint space, per joint ``k``; control_toolbox / gazebo_ros2_control convention)::

    e      = q_target − q                         (rad or m)
    I     += i · e · dt,  clamped to ±i_clamp      (N·m or N: the i_clamp bounds the integral term)
    effort = p · e + d · (v_target − v) + I + feedforward,  clamped to ±effort_limit

The MuJoCo backend evaluates the proportional and derivative parts inside every physics step
through MuJoCo affine actuators with an integrator activation holding the position target
(``effort = p·act + (d·v_t + I + ff) − p·q − d·v``, force range = effort limit; for velocity
commands ``act`` integrates ``v_t`` every physics step), whose parameters
:meth:`JointPid.affine` provides; MuJoCo's actuator force range clamps the sum to the effort
limit.

Gains come, per joint and in this order, from ``params["pid_gains"][joint]`` (nested mapping) or
flat ``params["pid_gains.<joint>.<p|i|d|i_clamp>"]`` keys, then from the joint's ``<ros2_control>``
``<param name="p|i|d|i_clamp">``, else a documented default tuned to the joint's effective
inertia ``M`` (kg·m² or kg): ``p = M·ω²``, ``d = 2·M·ω`` (critically damped, ``ω`` =
:data:`DEFAULT_BANDWIDTH` rad/s), ``i = p·ω_i`` (``ω_i`` = :data:`DEFAULT_INTEGRAL_FREQUENCY`
= ω/10: the integral removes the steady-state error a constant load such as gravity leaves,
error decaying as ``exp(−ω_i·t)``; the closed loop ``M·s³ + d·s² + p·s + i`` is stable as
``i < d·p/M = 2·M·ω³`` (Routh–Hurwitz), here ``i = M·ω³/10``) and ``i_clamp`` = the joint's
effort limit (``p``·1 rad or m when it has none) — and a note is logged naming the joints.
Default gains follow the joint's inertia as the robot moves (gain scheduling): ``p``, ``i``,
``d`` are given for the inertia ``M`` passed in, and the backend scales them by
``M(q) / M`` (the current diagonal of the joint-space inertia matrix, :meth:`JointPid.set_scale`),
so a turntable whose inertia grows 60-fold when the arm stretches out stays critically damped
and the integral stable. Gains given in the configuration or description are used as given (unset keys are 0, as in
control_toolbox).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...description.model import Robot
from ...errors import ConfigError

_LOG = logging.getLogger(__name__)

DEFAULT_BANDWIDTH = 2.0 * math.pi * 10.0
"""rad/s: closed-loop natural frequency of the default gains (10 Hz)."""
DEFAULT_INTEGRAL_FREQUENCY = DEFAULT_BANDWIDTH / 10.0
"""rad/s: ``i / p`` of the default gains (the integral's corner frequency, 1 Hz)."""
_KEYS = ("p", "i", "d", "i_clamp")


@dataclass(frozen=True)
class PidGains:
    """Gains per joint, each shape (n,): ``p`` (N·m/rad), ``i`` (N·m/(rad·s)), ``d`` (N·m·s/rad),
    ``i_clamp`` (N·m, bound of the integral term) — N and m for prismatic joints;
    ``scheduled`` (n,) bool: default gains, to be scaled with the joint's current inertia
    (``None`` = none)."""

    p: np.ndarray
    i: np.ndarray
    d: np.ndarray
    i_clamp: np.ndarray
    scheduled: np.ndarray | None = None


def _as_gain(value: Any, where: str) -> float:
    try:
        result = float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{where} = {value!r} is not a number; give a finite number ≥ 0") from None
    if not math.isfinite(result) or result < 0.0:
        raise ConfigError(f"{where} = {value!r} must be a finite number ≥ 0")
    return result


def _config_gains(params: Mapping[str, Any], joint: str) -> dict[str, float]:
    found: dict[str, float] = {}
    nested = params.get("pid_gains")
    if nested is not None and not isinstance(nested, Mapping):
        raise ConfigError(f"pid_gains must be a mapping joint → {{p, i, d, i_clamp}}, got {nested!r}")
    entry = (nested or {}).get(joint)
    if entry is not None:
        if not isinstance(entry, Mapping):
            raise ConfigError(f"pid_gains.{joint} must be a mapping with keys p, i, d, i_clamp, got {entry!r}")
        unknown = set(entry) - set(_KEYS)
        if unknown:
            raise ConfigError(f"pid_gains.{joint} has unknown key(s) {sorted(unknown)}; use p, i, d, i_clamp")
        for key, value in entry.items():
            found[key] = _as_gain(value, f"pid_gains.{joint}.{key}")
    for key in _KEYS:
        flat = params.get(f"pid_gains.{joint}.{key}")
        if flat is not None:
            found[key] = _as_gain(flat, f"pid_gains.{joint}.{key}")
    return found


def _description_gains(robot: Robot, joint: str) -> dict[str, float]:
    found: dict[str, float] = {}
    for block in robot.ros2_control:
        for info in block.joints:
            if info.name != joint:
                continue
            for key in _KEYS:
                value = info.param(key)
                if value is not None:
                    found[key] = _as_gain(value, f"<ros2_control name={block.name!r}> joint {joint!r} param {key}")
    return found


def resolve_gains(
    robot: Robot,
    joint_names: Sequence[str],
    params: Mapping[str, Any],
    effective_inertia: np.ndarray,
    effort_limit: np.ndarray | None = None,
) -> PidGains:
    """Gains for ``joint_names`` (see the module docstring for the order of sources).

    Args:
        effective_inertia: shape (n,), kg·m² or kg, used for default gains.
        effort_limit: shape (n,), N·m or N (``inf`` = unlimited; default: all unlimited), the
            ``i_clamp`` of default gains.

    Raises:
        ConfigError: a gain is not a finite number ≥ 0, or ``pid_gains`` is malformed, or it
            names a joint that is not simulated.
    """
    nested = params.get("pid_gains") or {}
    for key in params:
        parts = str(key).split(".")
        if parts[0] == "pid_gains" and len(parts) > 1:
            if len(parts) != 3 or parts[2] not in _KEYS:
                raise ConfigError(f"parameter {key!r}: use pid_gains.<joint>.<p|i|d|i_clamp>")
            if parts[1] not in joint_names:
                raise ConfigError(
                    f"parameter {key!r} names joint {parts[1]!r}, which is not commandable; known: {list(joint_names)}"
                )
    if isinstance(nested, Mapping):
        unknown = sorted(set(nested) - set(joint_names))
        if unknown:
            raise ConfigError(
                f"pid_gains names joint(s) {unknown} that are not commandable; known: {list(joint_names)}"
            )
    n = len(joint_names)
    limits = np.full(n, np.inf) if effort_limit is None else np.asarray(effort_limit, dtype=float)
    out = {k: np.zeros(n) for k in _KEYS}
    defaulted: list[str] = []
    for k, joint in enumerate(joint_names):
        gains = _description_gains(robot, joint)
        gains.update(_config_gains(params, joint))
        if "p" not in gains and "d" not in gains:
            defaulted.append(joint)
            m = max(float(effective_inertia[k]), 1e-9)
            p = gains.setdefault("p", m * DEFAULT_BANDWIDTH**2)
            gains.setdefault("d", 2.0 * m * DEFAULT_BANDWIDTH)
            gains.setdefault("i", p * DEFAULT_INTEGRAL_FREQUENCY)
            limit = abs(float(limits[k]))
            gains.setdefault("i_clamp", limit if math.isfinite(limit) and limit > 0.0 else p * 1.0)
        for key in _KEYS:
            out[key][k] = gains.get(key, 0.0)
    if defaulted:
        _LOG.info(
            "PID: no gains configured for %s; using p = M·ω², d = 2·M·ω, i = p·ω/10 with ω = %.1f rad/s, "
            "i_clamp = effort limit",
            ", ".join(defaulted),
            DEFAULT_BANDWIDTH,
        )
    scheduled = np.array([joint in defaulted for joint in joint_names], dtype=bool)
    return PidGains(out["p"], out["i"], out["d"], out["i_clamp"], scheduled)


def integrate(integral: np.ndarray, i: np.ndarray, i_clamp: np.ndarray, scale: np.ndarray, error: np.ndarray,
              dt: float, active: np.ndarray) -> None:
    """In place: ``integral += i·scale·error·dt`` where ``active``, clamped to ±``i_clamp`` where
    ``i_clamp`` > 0; 0 where not ``active``. All arrays shape (n,): integral N·m (N), ``i``
    N·m/(rad·s), ``i_clamp`` N·m, ``scale`` the gain schedule factor, ``error`` rad (m), ``dt`` s."""
    integral += np.where(active, i * scale * error * dt, 0.0)
    bounded = i_clamp > 0.0
    integral[...] = np.where(bounded, np.clip(integral, -i_clamp, i_clamp), integral)
    integral[~active] = 0.0


def affine_parameters(
    p: np.ndarray, d: np.ndarray, scale: np.ndarray, integral: np.ndarray, v_target: np.ndarray,
    feedforward: np.ndarray, active: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Parameters ``(gain, bias0, bias_q, bias_v)``, shapes (n,), of an affine actuator whose
    activation holds the position target ``q_t``: ``effort = gain·q_t + bias0 + bias_q·q +
    bias_v·v`` equals the PID law (gains ``p``, ``d`` times ``scale``, ``integral`` N·m,
    ``v_target`` rad/s, ``feedforward`` N·m) where ``active`` (n,) bool, and ``feedforward``
    elsewhere (effort control)."""
    ps = np.where(active, p * scale, 0.0)
    ds = np.where(active, d * scale, 0.0)
    bias0 = np.where(active, ds * v_target + integral, 0.0) + feedforward
    return ps, bias0, -ps, -ds


class JointPid:
    """Vectorised PID state for ``n`` joints.

    Args:
        gains: per-joint gains.
        effort_limit: shape (n,), N·m or N; ``inf`` = unlimited.
        state: optional storage (2, n) float64 for :attr:`state` (e.g. rows of a larger table,
            shared with compiled code); default a new array. It is initialised (integral 0,
            scale 1).

    Raises:
        ValueError: ``state`` has the wrong shape or dtype.

    Attributes:
        state: (2, n) float, rows ``integral`` (N·m or N) and ``scale`` (gain schedule factor),
            updated in place (the backend's compiled cycle writes them too).
        integral, scale: views of the rows of :attr:`state`.
    """

    def __init__(self, gains: PidGains, effort_limit: np.ndarray, state: np.ndarray | None = None) -> None:
        self.gains = gains
        self.effort_limit = np.asarray(effort_limit, dtype=float)
        n = self.effort_limit.shape[0]
        if state is None:
            state = np.zeros((2, n))
        elif state.shape != (2, n) or state.dtype != np.float64:
            raise ValueError(
                f"PID state storage must be a float64 array of shape (2, {n}), got {state.dtype} {state.shape}"
            )
        self.state = state
        self.state[0] = 0.0
        self.state[1] = 1.0
        self.integral = self.state[0]
        self.scale = self.state[1]
        self._has_i = bool(np.any(gains.i != 0.0))

    @property
    def has_integral(self) -> bool:
        """Whether any joint has an integral gain (else the integral stays 0)."""
        return self._has_i

    def set_scale(self, scale: np.ndarray) -> None:
        """Scale ``p``, ``i``, ``d`` by ``scale`` (n,) from now on (1 = as given; gain
        scheduling of :attr:`PidGains.scheduled` joints by their inertia ratio)."""
        self.scale[:] = scale

    def reset(self, mask: np.ndarray | None = None) -> None:
        """Zero the integral term (all joints, or where ``mask`` (n,) bool is true)."""
        if mask is None:
            self.integral[:] = 0.0
        else:
            self.integral[mask] = 0.0

    def preload(self, load: np.ndarray) -> None:
        """Start the integral term at the static ``load`` (n,) N·m or N the joints carry (a
        bumpless start: a held joint does not first sag under gravity until the integral has
        grown), bounded by ±i_clamp, on the joints with an integral gain (elsewhere it stays 0:
        a constant term there would never adapt)."""
        g = self.gains
        bound = np.where(g.i_clamp > 0.0, g.i_clamp, np.inf)
        self.integral[:] = np.where(g.i > 0.0, np.clip(load, -bound, bound), 0.0)

    def update_integral(self, error: np.ndarray, dt: float, active: np.ndarray) -> None:
        """Integrate ``i · error · dt`` (error shape (n,)) where ``active`` (n,) bool; clamp to
        ±i_clamp where i_clamp > 0 (i_clamp = 0 means the integral is unbounded only if i = 0)
        (:func:`integrate`)."""
        if not self._has_i:  # all i = 0: the integral stays 0
            return
        g = self.gains
        integrate(self.integral, g.i, g.i_clamp, self.scale, error, dt, active)

    def affine(
        self, v_target: np.ndarray, feedforward: np.ndarray, active: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:func:`affine_parameters` with this PID's gains, scale and integral."""
        g = self.gains
        return affine_parameters(g.p, g.d, self.scale, self.integral, v_target, feedforward, active)
