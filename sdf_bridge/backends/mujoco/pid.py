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
``<param name="p|i|d|i_clamp">``, else the default rule below; gains given in the configuration
or description are used as given (unset keys are 0, as in control_toolbox).

Default gains (:func:`.gains.default_gains`, from the inertias of :mod:`.gains`), so that any
robot holds its pose under gravity, a free-floating one included, without light links
oscillating or chattering::

    M = max(M_own, M_load)                         the inertia the joint moves or carries
    p = min(ω·(M·ω + b), M_apparent·(0.5/timestep)²) stiffness, bounded by the physics step
    d = min(2·M·ω, M_apparent·1.0/timestep)         damping (critical on M), bounded likewise
    i = p·min(ω/10, (d + b)/(2·M))                  integral, Routh–Hurwitz-stable on M
    i_clamp = the joint's effort limit              (p·1 rad or m + f when it has none)

with ``ω`` = :data:`~.gains.BANDWIDTH` (2π·10 Hz); ``b`` the joint's viscous damping and ``f``
its Coulomb friction (``<dynamics damping friction>``, MuJoCo's ``dof_damping`` and
``dof_frictionloss``): by pole placement on the plant ``M·s² + b·s`` the PD loop's poles are
``−ω`` and ``−(ω + b/M)`` (:func:`.gains.default_gains` states the derivation and its source),
so a damped joint reaches its target at the bandwidth ``ω`` as an undamped one does;
``M_own`` the composite inertia of the joint's subtree about its axis (armature included),
``M_apparent`` = ``1/(M⁻¹)_kk`` the lightest it can be (all other dofs free), ``M_load``
(free-floating bases only) the inertia of the rest of the robot about the joint's axis, what
a leg joint lifts when its foot is on the ground: the whole robot's mass counts. The stiffness
bound keeps semi-implicit Euler's ``ω·timestep`` ≤ 0.5 (stable to 2); the damping bound keeps
``d·timestep/M`` ≤ 1, so a physics step with the force clamped at the effort limit (MuJoCo then
integrates the damping explicitly) cannot swing the force to the opposite limit (no ±limit
chatter). The effort limit is the force range of the actuator (saturation), and the integral
never winds up past it: it is clamped to ``±i_clamp`` and stops growing while the actuator is
saturated in the direction of the error (conditional integration). The rule and each joint's
gains are logged once per robot.

Default gains follow the joint's inertia as the robot moves (gain scheduling): ``p``, ``i``,
``d`` are given for ``M_own`` at the model's reference configuration, and the backend scales
them by ``M_kk(q) / M_own`` (the current diagonal of the joint-space inertia matrix,
:meth:`JointPid.set_scale`), so a turntable whose inertia grows 60-fold when the arm stretches
out stays damped and its integral stable (``p``'s damping term ``b·ω`` is scaled with it: a
stiffer loop where the joint is heavier, the real parts of its poles still left of ``−ω``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...description.magnitudes import MAX_MAGNITUDE, short_number
from ...description.model import Robot
from ...errors import ConfigError
from .gains import BANDWIDTH, LIGHT_RATIO, DefaultGains, JointInertia, too_light

_LOG = logging.getLogger(__name__)

_KEYS = ("p", "i", "d", "i_clamp")
_BOUND = short_number(MAX_MAGNITUDE)


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


def _as_gain(value: Any, where: str, key: str) -> float:
    """Gain ``key`` (one of ``p, i, d, i_clamp``), given at ``where``: a finite number ≥ 0, and
    for ``p``, ``i``, ``d`` at most :data:`~sdf_bridge.description.magnitudes.MAX_MAGNITUDE`
    (a huge ``i_clamp`` means "not clamped").

    Raises:
        ConfigError: otherwise (``where``, the value and the fix in the message).
    """
    bounded = key != "i_clamp"
    fix = f"give a finite number ≥ 0{f' and ≤ {_BOUND}' if bounded else ''}"
    try:
        result = float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{where} = {value!r} is not a number. Fix: {fix}") from None
    if not math.isfinite(result) or result < 0.0:
        raise ConfigError(f"{where} = {value!r} must be a finite number ≥ 0. Fix: {fix}")
    if bounded and result > MAX_MAGNITUDE:
        raise ConfigError(
            f"{where} = {value!r} is beyond the bound {_BOUND} (a gain no simulator can use). "
            f"Fix: {fix}"
        )
    return result


def _config_gains(params: Mapping[str, Any], joint: str) -> dict[str, float]:
    found: dict[str, float] = {}
    nested = params.get("pid_gains")
    if nested is not None and not isinstance(nested, Mapping):
        raise ConfigError(
            f"pid_gains must be a mapping joint → {{p, i, d, i_clamp}}, got {nested!r}"
        )
    entry = (nested or {}).get(joint)
    if entry is not None:
        if not isinstance(entry, Mapping):
            raise ConfigError(
                f"pid_gains.{joint} must be a mapping with keys p, i, d, i_clamp, got {entry!r}"
            )
        unknown = set(entry) - set(_KEYS)
        if unknown:
            raise ConfigError(
                f"pid_gains.{joint} has unknown key(s) {sorted(unknown)}; use p, i, d, i_clamp"
            )
        for key, value in entry.items():
            found[key] = _as_gain(value, f"pid_gains.{joint}.{key}", key)
    for key in _KEYS:
        flat = params.get(f"pid_gains.{joint}.{key}")
        if flat is not None:
            found[key] = _as_gain(flat, f"pid_gains.{joint}.{key}", key)
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
                    found[key] = _as_gain(
                        value,
                        f"<ros2_control name={block.name!r}> joint {joint!r} param {key}",
                        key,
                    )
    return found


def resolve_gains(
    robot: Robot,
    joint_names: Sequence[str],
    params: Mapping[str, Any],
    defaults: DefaultGains,
    inertia: JointInertia | None = None,
    *,
    log: bool = True,
) -> PidGains:
    """Gains for ``joint_names`` (see the module docstring for the order of sources):
    configured ones, else ``defaults`` (:func:`.gains.default_gains`, shape (n,) each). The
    joints on default gains are logged once, in one message with the rule and their gains
    (and ``inertia``, when given), unless ``log`` is false (the same gains worked out again
    for a run-time change of the joints' properties).

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
                    f"parameter {key!r} names joint {parts[1]!r}, which is not commandable; "
                    f"known: {list(joint_names)}"
                )
    if isinstance(nested, Mapping):
        unknown = sorted(set(nested) - set(joint_names))
        if unknown:
            raise ConfigError(
                f"pid_gains names joint(s) {unknown} that are not commandable; known: "
                f"{list(joint_names)}"
            )
    n = len(joint_names)
    out = {k: np.zeros(n) for k in _KEYS}
    scheduled = np.zeros(n, dtype=bool)
    for k, joint in enumerate(joint_names):
        gains = _description_gains(robot, joint)
        gains.update(_config_gains(params, joint))
        if "p" not in gains and "d" not in gains:
            scheduled[k] = True
            for key in _KEYS:
                gains.setdefault(key, float(getattr(defaults, key)[k]))
        for key in _KEYS:
            out[key][k] = gains.get(key, 0.0)
    if log and scheduled.any():
        _LOG.info(
            "PID: default gains for %d joint(s) without configured gains: %s",
            int(scheduled.sum()),
            describe_defaults(joint_names, defaults, scheduled, inertia),
        )
        light = scheduled & too_light(inertia) if inertia is not None else np.zeros(n, dtype=bool)
        if light.any():
            _LOG.warning(
                "PID: joint(s) %s carry over %.0e times their own inertia (%s); default gains "
                "the timestep allows cannot damp that, the joint may oscillate. Fix: give "
                "them an armature (the rotor inertia reflected through the gear, "
                "backend_params.armature.<joint>, e.g. 100 × M_apparent = %s kg·m²) or "
                "configure pid_gains",
                [j for j, x in zip(joint_names, light) if x],
                LIGHT_RATIO,
                ", ".join(
                    f"{j}: M {inertia.design[k]:.3g}, M_apparent {inertia.apparent[k]:.3g}"
                    for k, j in enumerate(joint_names)
                    if light[k]
                ),
                ", ".join(f"{100 * inertia.apparent[k]:.2g}" for k in range(n) if light[k]),
            )
    return PidGains(out["p"], out["i"], out["d"], out["i_clamp"], scheduled)


def describe_defaults(
    joint_names: Sequence[str],
    defaults: DefaultGains,
    which: np.ndarray,
    inertia: JointInertia | None = None,
) -> str:
    """The default-gain rule and, per joint of ``joint_names`` where ``which`` (n,) bool,
    its gains (and inertias), as one text (the once-per-robot log line)."""
    rows = []
    for k, joint in enumerate(joint_names):
        if not which[k]:
            continue
        where = ""
        if inertia is not None:
            where = (
                f" (M_own {inertia.own[k]:.3g}, M_apparent {inertia.apparent[k]:.3g}, "
                f"M_load {inertia.load[k]:.3g})"
            )
        bound = ", bounded by the timestep" if defaults.bounded[k] else ""
        rows.append(
            f"{joint}: p {defaults.p[k]:.4g}, i {defaults.i[k]:.4g}, d {defaults.d[k]:.4g}, "
            f"i_clamp {defaults.i_clamp[k]:.4g}{where}{bound}"
        )
    return (
        "M = max(M_own, M_load), b = joint damping, f = joint friction, p = min(ω·(M·ω + b), "
        "M_apparent·(0.5/timestep)²), d = min(2·M·ω, M_apparent/timestep), "
        "i = p·min(ω/10, (d + b)/(2·M)), i_clamp = effort limit (else p·1 + f), ω = "
        f"{BANDWIDTH:.1f} rad/s; " + "; ".join(rows)
    )


def integrate(
    integral: np.ndarray,
    i: np.ndarray,
    i_clamp: np.ndarray,
    scale: np.ndarray,
    error: np.ndarray,
    dt: float,
    active: np.ndarray,
    blocked: np.ndarray | None = None,
) -> None:
    """In place: ``integral += i·scale·error·dt`` where ``active``, clamped to ±``i_clamp`` where
    ``i_clamp`` > 0; 0 where not ``active``. All arrays shape (n,): integral N·m (N), ``i``
    N·m/(rad·s), ``i_clamp`` N·m, ``scale`` the gain schedule factor, ``error`` rad (m), ``dt`` s.
    ``blocked`` (n,) bool: joints whose actuator force is at the effort limit in the direction
    of their error (:func:`saturated_towards`): their integral does not grow (conditional
    integration, no wind-up while saturated)."""
    # in place on one temporary (a control-cycle hot path): the same operations in the same
    # order as ``np.where(active & ~blocked, i·scale·error·dt, 0)`` added, then clipped
    inactive = np.logical_not(active)
    step = np.multiply(i, scale)
    step *= error
    step *= dt
    np.copyto(step, 0.0, where=inactive if blocked is None else np.logical_or(blocked, inactive))
    integral += step
    bounded = i_clamp > 0.0
    np.maximum(integral, np.negative(i_clamp), out=integral, where=bounded)
    np.minimum(integral, i_clamp, out=integral, where=bounded)
    np.copyto(integral, 0.0, where=inactive)


def saturated_towards(force: np.ndarray, limit: np.ndarray, error: np.ndarray) -> np.ndarray:
    """Where the actuator ``force`` (n,) N·m or N is at the effort ``limit`` (n,) (``inf`` =
    none) on the side the ``error`` (n,) pushes to: ``force ≥ limit`` with ``error > 0``, or
    ``force ≤ −limit`` with ``error < 0``; (n,) bool."""
    return ((force >= limit) & (error > 0.0)) | ((force <= -limit) & (error < 0.0))


def affine_parameters(
    p: np.ndarray,
    d: np.ndarray,
    scale: np.ndarray,
    integral: np.ndarray,
    v_target: np.ndarray,
    feedforward: np.ndarray,
    active: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Parameters ``(gain, bias0, bias_q, bias_v)``, shapes (n,), of an affine actuator whose
    activation holds the position target ``q_t``: ``effort = gain·q_t + bias0 + bias_q·q +
    bias_v·v`` equals the PID law (gains ``p``, ``d`` times ``scale``, ``integral`` N·m,
    ``v_target`` rad/s, ``feedforward`` N·m) where ``active`` (n,) bool, and ``feedforward``
    elsewhere (effort control)."""
    inactive = np.logical_not(active)
    ps = np.multiply(p, scale)
    np.copyto(ps, 0.0, where=inactive)
    ds = np.multiply(d, scale)
    np.copyto(ds, 0.0, where=inactive)
    bias0 = np.multiply(ds, v_target)
    bias0 += integral
    np.copyto(bias0, 0.0, where=inactive)
    bias0 += feedforward
    return ps, bias0, np.negative(ps), np.negative(ds)


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

    def __init__(
        self, gains: PidGains, effort_limit: np.ndarray, state: np.ndarray | None = None
    ) -> None:
        self.gains = gains
        self.effort_limit = np.asarray(effort_limit, dtype=float)
        n = self.effort_limit.shape[0]
        if state is None:
            state = np.zeros((2, n))
        elif state.shape != (2, n) or state.dtype != np.float64:
            raise ValueError(
                f"PID state storage must be a float64 array of shape (2, {n}), got {state.dtype} "
                f"{state.shape}"
            )
        self.state = state
        self.state[0] = 0.0
        self.state[1] = 1.0
        self.integral = self.state[0]
        self.scale = self.state[1]
        self._has_i = bool(np.any(gains.i != 0.0))

    def set_gains(self, gains: PidGains, effort_limit: np.ndarray) -> None:
        """Use ``gains`` and ``effort_limit`` ((n,), N·m or N) from now on (a run-time change
        of the joints' properties); the integral and the scale are kept."""
        self.gains = gains
        self.effort_limit[:] = effort_limit
        self._has_i = bool(np.any(gains.i != 0.0))

    @property
    def has_integral(self) -> bool:
        """Whether any joint has an integral gain (else the integral stays 0)."""
        return self._has_i

    def set_scale(self, scale: np.ndarray) -> None:
        """Scale ``p``, ``i``, ``d`` by ``scale`` (n,) from now on (1 = as given; gain
        scheduling of ``PidGains.scheduled`` joints by their inertia ratio)."""
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

    def update_integral(
        self, error: np.ndarray, dt: float, active: np.ndarray, blocked: np.ndarray | None = None
    ) -> None:
        """Integrate ``i · error · dt`` (error shape (n,)) where ``active`` (n,) bool and not
        ``blocked`` (saturated towards the error, see :func:`integrate`); clamp to
        ±i_clamp where i_clamp > 0 (i_clamp = 0 means the integral is unbounded only if i = 0)."""
        if not self._has_i:  # all i = 0: the integral stays 0
            return
        g = self.gains
        integrate(self.integral, g.i, g.i_clamp, self.scale, error, dt, active, blocked)

    def affine(
        self, v_target: np.ndarray, feedforward: np.ndarray, active: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:func:`affine_parameters` with this PID's gains, scale and integral."""
        g = self.gains
        return affine_parameters(g.p, g.d, self.scale, self.integral, v_target, feedforward, active)
