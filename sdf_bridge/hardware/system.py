"""The hardware system: one control cycle, as ros2_control's write → read.

One tick of the control loop (the loop sleeps between ticks)::

    state = system.cycle(now, dt)    # write: trajectory sample → holds (watchdog, coupled
                                     #   partners, idle joints, e-stop) → limits → backend.write
                                     #   then read: backend.read(dt) (joint space + actuators)
    ...                              # the caller publishes state (joint_states, sensors, …)

(:meth:`HardwareSystem.cycle` is :meth:`~HardwareSystem.write` then :meth:`~HardwareSystem.read`
under one lock.) This is ros2_control's cyclic read → update → write with the sleep placed
before the write instead of before the read: a command that arrives during the sleep is
written at the start of the next tick and its effect is read back in the same tick, so the
state published at the end of a tick already answers the commands received before it. The
write of a tick uses the state read in the previous tick, which is the state *now*: for a
simulator, physics advances in ``read(dt)``, so the write at time ``now`` sees the state of
physics time ``now`` and the read returns the state at ``now + dt``. The first write (and the
first after :meth:`~HardwareSystem.reset`) reads the backend once with ``dt = 0`` before
commanding, so the limiter and the holds always start from a measured state (the sensor
readings of that read are returned by the next :meth:`~HardwareSystem.read`).

The backend is reached through one joint-space port (:mod:`sdf_bridge.backends.base`): it is
written a :class:`~sdf_bridge.backends.base.JointCommand` and read a
:class:`~sdf_bridge.backends.base.JointSpaceState`; an actuator-space driver sits behind an
:class:`~sdf_bridge.backends.actuator_port.ActuatorPort`, which applies the transmissions.
Every hold is decided by :mod:`.holds` in one place of the write; the limits apply to the
commands, not to the holds of idle joints nor to the e-stop's.

Commands arrive between cycles through :meth:`HardwareSystem.submit_joint_state`,
:meth:`~HardwareSystem.submit_array` and :meth:`~HardwareSystem.submit_trajectory`; bad input
is rejected and counted, never raised (see :mod:`sdf_bridge.hardware.commands`).

Timing (:class:`~sdf_bridge.hardware.timing.LoopTiming`, ``timed=True``, the default): a tick
starts at the beginning of ``write`` and ends at the end of ``read``, or, with
``read(..., end_cycle=False)``, at :meth:`~HardwareSystem.end_cycle` (after the caller published
the state, so that the busy time covers the whole tick). A caller whose loop times the ticks
itself builds the system with ``timed=False``: then the system measures nothing (each tick is
timed once, by its loop). The ROS node does so: its
:class:`~sdf_bridge.hardware.loop.FixedRateLoop` times each tick, publishing included.

Hot path: names are resolved to indices at construction; a cycle is a handful of numpy
operations on (n_actuators,) / (n_joints,) arrays, with no per-joint Python loop.

Threading: command submission (e.g. from ROS subscription callbacks), the services' calls
(enable, reset, pause, step) and the cycle (a loop thread) may run on different threads: every
public method takes the system's one lock, so a command is applied either wholly before or
wholly after a cycle's ``write``.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..backends.base import MODE_DTYPE, Backend, BaseState, JointCommand, is_simulated_robot
from ..backends.sensor_readings import SensorReading
from ..description.coordinates import free_when_idle
from ..description.feedback import feedback_joints, reading_name
from ..description.model import Robot
from ..errors import BackendError, ConfigError
from ..limits import JointLimiter
from ..limits.limiter import commanded_interfaces
from ..transmissions import TransmissionMap
from .backend_setup import backend_port, configure_backend, simulates, simulator
from .command_interfaces import commandable_joints, listed_command_interfaces
from .commands import POSITION, ClaimsUpdate, CommandBuffer
from .cycle_state import CycleState
from .effort_stability import effort_chatter
from .holds import Holds, coupling
from .joint_properties import (
    DYNAMICS_PROPERTIES,
    LIMIT_PROPERTIES,
    STOPS,
    check_changes,
    limit_values,
    limits_with,
)
from .joint_selection import select_joints
from .timing import LoopTiming
from .trajectory_runner import TrajectoryRunner
from .watchdog import CommandWatchdog

_LOG = logging.getLogger(__name__)

_F = TypeVar("_F", bound=Callable[..., Any])


def _locked(method: _F) -> _F:
    """Run ``method`` holding the instance's re-entrant lock."""

    @functools.wraps(method)
    def wrapper(self: "HardwareSystem", *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]  # (functools.wraps keeps the signature)


class HardwareSystem:
    """A robot's joints behind a backend, with transmissions, limits, holds and timing.

    Args:
        robot: the robot model.
        backend: a joint-space :class:`~sdf_bridge.backends.base.Backend`, an
            :class:`~sdf_bridge.backends.base.ActuatorDriver` (put behind an
            :class:`~sdf_bridge.backends.actuator_port.ActuatorPort`), or a backend name for
            :func:`~sdf_bridge.backends.create_backend`.
        joints: commandable joints and the order of array commands (default: every
            commandable joint in transmission-map order).
        command_timeout: watchdog timeout, s (0 = off).
        limits_overrides: a ``joint_limits`` mapping or the path of its YAML file
            (:meth:`JointLimiter.load_overrides`).
        backend_params: backend parameters; they override the ``<ros2_control><hardware>``
            parameters of the description, which are passed as strings.
        command_modes: fixed command mode per joint (see :mod:`sdf_bridge.hardware.commands`).
        update_rate: intended cycle rate, Hz, for overrun counting (``None`` = unknown).
        timed: time the ticks in :attr:`timing`. ``False``: the system does not time its
            ticks (``timing`` is ``None``, :meth:`end_cycle` does nothing, :meth:`diagnostics`
            has no ``"timing"`` entry), for callers whose loop times the ticks itself, as the
            ROS node's :class:`~sdf_bridge.hardware.loop.FixedRateLoop`.

    Attributes:
        joint_names: commandable joints (order of Float64MultiArray commands).
        state_names: joint_states names: map joints then followers.
        actuator_names: actuators, order of actuator-space arrays.
        transmissions, limiter, commands, watchdog, holds, trajectory: the parts.
        timing: the :class:`LoopTiming` of the ticks, or ``None`` when built with
            ``timed=False``.
        enabled: False while the e-stop is engaged.

    Raises:
        ConfigError: ``joints`` names an unknown, follower or uncommandable joint or repeats
            one; bad ``command_modes``, ``command_timeout`` or ``update_rate``.
        TransmissionError, LimitsError: from building the transmission map or limiter (the
            map is built for the backend: a transmission of unknown type is skipped for one
            that simulates the robot, refused for real actuators;
            :func:`~sdf_bridge.backends.base.is_simulated_robot`).
        BackendError: the backend cannot be created or configured.
    """

    def __init__(
        self,
        robot: Robot,
        backend: Backend | Any | str,
        *,
        joints: Sequence[str] | None = None,
        command_timeout: float = 0.5,
        limits_overrides: Mapping[str, Any] | str | PathLike | None = None,
        backend_params: Mapping[str, Any] | None = None,
        command_modes: Mapping[str, str] | None = None,
        update_rate: float | None = None,
        timed: bool = True,
    ) -> None:
        self.robot = robot
        #: the backend, and the name given, else the class of the backend (of the driver
        #: behind a port); configured below, with the map built for it
        self.backend, self.backend_name = backend_port(backend)
        self.transmissions = TransmissionMap.from_robot(
            robot, simulated_robot=is_simulated_robot(self.backend)
        )
        tm = self.transmissions
        self.actuator_names: tuple[str, ...] = tuple(tm.actuator_names)
        self.state_names: tuple[str, ...] = tuple(tm.joint_names) + tuple(tm.follower_names)
        allowed = commandable_joints(robot, tm)
        self.joint_names = select_joints(joints, allowed, tm)
        self.commands = CommandBuffer(
            tm.joint_names,
            tm.follower_names,
            self.joint_names,
            allowed,
            command_modes,
            command_interfaces=listed_command_interfaces(robot) or allowed,
        )
        self.watchdog = CommandWatchdog(command_timeout)
        if update_rate is not None and not (
            isinstance(update_rate, (int, float)) and update_rate > 0
        ):
            raise ConfigError(f"update_rate is {update_rate!r}. Fix: give a rate in Hz > 0.")
        self.timing: LoopTiming | None = (
            LoopTiming(None if update_rate is None else 1.0 / update_rate) if timed else None
        )
        if isinstance(limits_overrides, PathLike):
            limits_overrides = Path(limits_overrides)
        self.limiter = JointLimiter.from_robot(robot, tm.joint_names, overrides=limits_overrides)
        n_joints, n_act = len(tm.joint_names), len(self.actuator_names)
        free = np.array([free_when_idle(robot, name) for name in tm.joint_names], dtype=bool)
        self.holds = Holds(n_joints, coupling(tm.dependency), self.watchdog, free)
        self.trajectory = TrajectoryRunner(self.commands)
        configure_backend(self.backend, robot, tm, backend_params)
        self._update_rate = update_rate
        for problem in self._effort_chatter():
            _LOG.warning(problem)
        #: joint → property → value now (:meth:`set_joint_properties`)
        self._properties = self._initial_properties()
        #: the record every enabled tick writes (its values the limiter's output buffer; its
        #: mode and hold those of the holds): reused, as the port allows (JointCommand)
        self._command = JointCommand(
            np.full((3, n_joints), np.nan),
            np.zeros(n_joints, dtype=MODE_DTYPE),
            np.full(n_joints, np.nan),
        )
        #: the command array of the last limited write and its commanded interfaces
        #: (:func:`~sdf_bridge.limits.limiter.commanded_interfaces`): the holds' arrays are not
        #: changed in place (a new one when the commands change), so kept while it is the same
        self._commanded_for: np.ndarray | None = None
        self._commanded = (False, False, False)
        self._state_shape = (3, len(self.state_names))
        self._act_shape = (n_act,)
        #: the state of the last read, (3, n_joints [+ n_followers]): rows position, velocity,
        #: effort; the measured state of the next write (columns: the map joints first)
        self._measured = np.full((3, n_joints), np.nan)
        self._state_known = False  # no read yet: the next write primes (_prime)
        #: the simulated time of the last read (None: a backend without one) and of the
        #: state the last limited write saw (None: none since configure or a reset)
        self._measured_time: float | None = None
        self._limited_time: float | None = None
        self._pending_sensors: dict[str, SensorReading] | None = None
        self._clamps_before: Counter[tuple[str, str]] = Counter()
        self._lock = threading.RLock()
        self.enabled = True

    # ------------------------------------------------------------------ cycle
    @_locked
    def cycle(self, now: float, dt: float, *, end_cycle: bool = True) -> CycleState:
        """One tick: :meth:`write` then :meth:`read` under one lock (module doc).

        Args:
            now: current time, s (the clock of the commands; the trajectory is sampled and the
                watchdog checked at ``now``).
            dt: tick period, s: the commands hold for ``dt`` and the backend advances by ``dt``.
            end_cycle: end the timed tick after the read (``False``: the caller ends it with
                :meth:`end_cycle`, e.g. after publishing the state).

        Returns:
            The state read after the write (:class:`CycleState`).

        Raises:
            BackendError: from the backend, or when it returns a state of the wrong shape.
        """
        self._write(now, dt)
        return self._read(dt, end_cycle)

    @_locked
    def read(self, now: float, dt: float, *, end_cycle: bool = True) -> CycleState:
        """Second half of a tick: read the backend (advancing it by ``dt``): joint space with
        the followers, and actuator space. Ends the tick's timing unless ``end_cycle`` is False.

        Args:
            now: current time, s (node clock; unused, kept for symmetry with :meth:`write`).
            dt: time the backend advances, s (the tick period).
            end_cycle: see :meth:`cycle`.

        Raises:
            BackendError: from the backend, or when it returns a state of the wrong shape.
        """
        return self._read(dt, end_cycle)

    @_locked
    def end_cycle(self) -> None:
        """End the timed tick (after the caller published the state of ``read(...,
        end_cycle=False)``); no effect when no tick is open or the system is not timed."""
        if self.timing is not None:
            self.timing.stop()

    def _read(self, dt: float, end_cycle: bool) -> CycleState:
        joints, actuators, sensors, sim_time = self._read_backend(dt)
        if self._pending_sensors is not None:  # readings of the priming read (module doc)
            sensors = {**self._pending_sensors, **sensors}
            self._pending_sensors = None
        result = CycleState(self.state_names, joints, actuators, sensors, sim_time)
        if end_cycle and self.timing is not None:
            self.timing.stop()
        return result

    def _read_backend(
        self, dt: float
    ) -> tuple[np.ndarray, Sequence[np.ndarray], Mapping[str, SensorReading], float | None]:
        """Read the backend (advancing it by ``dt``) and return ``(joints, actuators, sensors,
        sim_time)``: ``joints`` a new (3, n_joints + n_followers) array (rows position,
        velocity, effort; columns ``state_names``), ``actuators`` its three actuator-space
        rows (n_actuators,), checked on the first read after configure or a reset. Keeps the
        joint state as the measured state of the next write.

        Raises:
            BackendError: the backend's, or a state of the wrong shape.
        """
        state = self.backend.read(dt)
        joints, actuators = state.joints, state.actuators
        try:  # the actuator rows on the priming reads (a backend's structure does not change)
            wrong = joints.shape != self._state_shape or (
                not self._state_known
                and (
                    len(actuators) != 3
                    or any(np.shape(row) != self._act_shape for row in actuators)
                )
            )
        except (AttributeError, TypeError):  # not arrays
            wrong = True
        if wrong:
            raise BackendError(
                f"backend {self.backend_name!r} returned joint and actuator states of shapes "
                f"{np.shape(joints)} and {np.shape(actuators)}, expected {self._state_shape} "
                f"({list(self.state_names)}) and (3, {self._act_shape[0]}) "
                f"({list(self.actuator_names)}). Fix: read must return "
                "TransmissionMap.joint_state of its joint state."
            )
        self._measured = joints
        self._measured_time = state.sim_time
        self._state_known = True
        return joints, actuators, state.sensors, state.sim_time

    def _prime(self) -> None:
        """Read the backend once with ``dt = 0`` (no time passes) so that the write has a
        measured state; its sensor readings go to the next :meth:`read`."""
        sensors = self._read_backend(0.0)[2]
        if sensors:
            self._pending_sensors = dict(sensors)

    @_locked
    def write(self, now: float, dt: float) -> None:
        """First half of a tick (starts its timing): trajectory sample at ``now`` → holds
        (:mod:`.holds`: watchdog, coupled partners, idle joints, e-stop) → limits (against the
        state of the last read; not while disabled) → backend.

        The first write, and the first after :meth:`reset`, reads the backend with ``dt = 0``
        first (module doc).

        Raises:
            BackendError: from the backend.
        """
        self._write(now, dt)

    def _write(self, now: float, dt: float) -> None:
        if self.timing is not None:
            self.timing.start()
        if not self._state_known:
            self._prime()
        if self.trajectory.trajectory is not None:
            self.trajectory.sample(now)
        values, mode, hold = self.holds.apply(now, self.commands, self._measured, self.enabled)
        if self.enabled:
            command = self._command
            if values is not self._commanded_for:
                self._commanded = commanded_interfaces(values)
                self._commanded_for = values
            self.limiter.enforce_stacked(
                self._measured,
                values,
                self._limiter_dt(dt),
                command.values,
                commanded=self._commanded,
            )
            command.mode = mode
            command.hold = hold
        else:  # the e-stop's hold, unlimited (rare: a record of its own)
            command = JointCommand(values, mode, hold)
        self.backend.write(command, dt)

    def _limiter_dt(self, dt: float) -> float:
        """The time the limiter's rate terms allow for this write (ros2_control's limits are
        in the robot's time): ``dt`` for a backend without a simulated clock; on a simulator the
        simulated time elapsed since the state the previous limited write saw — 0 while paused,
        so a command given while paused does not advance the limited setpoint and the joint
        moves at its velocity limit after unpausing (not as a step); ``n`` steps of
        :meth:`step` for the write after them. ``dt`` when that time is not known (first write
        after configure or a reset, unless paused: 0) and where it equals ``dt`` to 1e-6
        (the sum of the physics steps' rounding), so the limiter keeps its per-``dt``
        constants."""
        now = self._measured_time
        if now is None:
            return dt
        before, self._limited_time = self._limited_time, now
        if before is None or now < before:
            return 0.0 if self.paused else dt
        elapsed = now - before
        return dt if abs(elapsed - dt) <= 1e-6 * abs(dt) else elapsed

    @_locked
    def run_cycles(self, n: int, dt: float, now: float = 0.0) -> float:
        """Run ``n`` ticks back to back (:meth:`cycle`: write + read, no sleeping) with
        simulated time advancing by ``dt`` s; for benchmarks. Returns the final ``now``."""
        write, read = self._write, self._read
        for _ in range(n):
            now += dt
            write(now, dt)
            read(dt, True)
        return now

    # ------------------------------------------------------------------ commands
    def _refuse_when_disabled(self, what: str, now: float) -> list[str] | None:
        if self.enabled:
            return None
        return [
            self.commands.reject(
                "disabled", f"{what} ignored: the bridge is disabled (e-stop)", now
            )
        ]

    @_locked
    def submit_joint_state(
        self,
        names: Sequence[str],
        position: Sequence[float] | np.ndarray | None,
        velocity: Sequence[float] | np.ndarray | None,
        effort: Sequence[float] | np.ndarray | None,
        now: float,
    ) -> list[str]:
        """A ``sensor_msgs/JointState`` command (rules in :mod:`sdf_bridge.hardware.commands`).
        Joints it commands leave a running trajectory. Returns the warnings for rejected parts."""
        refused = self._refuse_when_disabled("JointState command", now)
        if refused is not None:
            return refused
        warnings = self.commands.submit_joint_state(names, position, velocity, effort, now)
        self.trajectory.release(self.commands.last_accepted)
        return warnings

    @_locked
    def set_claims(self, claims: Iterable[str] | None) -> ClaimsUpdate:
        """Follow the command interfaces (``<joint>/<interface>``) the active controllers of a
        controller_manager claim (:meth:`CommandBuffer.set_claims
        <sdf_bridge.hardware.commands.CommandBuffer.set_claims>`); ``None`` stops following.
        Joints whose position commands are released leave a running trajectory too. Returns
        what the message did (a refused one changed nothing)."""
        update = self.commands.set_claims(claims)
        if claims is not None and not update.refused:
            released = np.flatnonzero((self.commands.claimed & POSITION) == 0)
            self.trajectory.release(released.astype(np.intp))
        return update

    @_locked
    def submit_array(
        self, interface: str, values: Sequence[float] | np.ndarray, now: float
    ) -> list[str]:
        """A ``Float64MultiArray`` command for ``interface`` (position/velocity/effort) in
        :attr:`joint_names` order; wrong length rejects it whole. Returns the warnings.

        Raises:
            CommandError: unknown interface name (a caller bug, not user input).
        """
        refused = self._refuse_when_disabled(f"{interface} array command", now)
        if refused is not None:
            return refused
        warnings = self.commands.submit_array(interface, values, now)
        self.trajectory.release(self.commands.last_accepted)
        return warnings

    @_locked
    def submit_trajectory(
        self,
        names: Sequence[str],
        times: Sequence[float] | np.ndarray,
        positions: Sequence[Sequence[float]] | np.ndarray | None,
        velocities: Sequence[Sequence[float]] | np.ndarray | None,
        accelerations: Sequence[Sequence[float]] | np.ndarray | None,
        now: float,
        *,
        start: float | None = None,
    ) -> list[str]:
        """A ``JointTrajectory`` received at ``now`` (s), starting at ``start`` (``None``: at
        ``now``); ``times`` are the points' ``time_from_start``. It replaces any running
        trajectory. An invalid trajectory is rejected whole (``bad_trajectory``; one without
        points too, and the running one goes on, as in joint_trajectory_controller:
        :mod:`.trajectory_runner`), one whose last point is before ``now`` too
        (``trajectory_in_past``); one that started before ``now`` is followed from its sample at
        ``now`` (:mod:`.trajectory`). Returns the warnings (empty when accepted)
        (:class:`~.trajectory_runner.TrajectoryRunner`)."""
        refused = self._refuse_when_disabled("trajectory", now)
        if refused is not None:
            return refused
        return self.trajectory.submit(
            names, times, positions, velocities, accelerations, now, self._measured, start=start
        )

    # ------------------------------------------------------------------ joint properties
    def _effort_chatter(self) -> list[str]:
        """The limiter's soft-limit effort bounds that chatter on the backend's joint inertia
        at the update rate (:func:`.effort_stability.effort_chatter`; none without either)."""
        inertia = getattr(self.backend, "joint_inertia", None)
        if self._update_rate is None or inertia is None:
            return []
        return effort_chatter(
            self.transmissions.joint_names, self.limiter.limits, inertia, 1.0 / self._update_rate
        )

    def _backend_property_names(self) -> tuple[str, ...]:
        """The joint properties the backend applies (its ``joint_property_names``, when it has
        ``set_joint_properties``)."""
        if not callable(getattr(self.backend, "set_joint_properties", None)):
            return ()
        return tuple(getattr(self.backend, "joint_property_names", ()))

    @property
    def joint_property_names(self) -> tuple[str, ...]:
        """The joint properties there are (:mod:`.joint_properties`): the limiter's
        (``lower``, ``upper``, ``effort``, ``velocity``) and the dynamics the backend
        simulates (MuJoCo: damping, friction, springs, stop stiffness and dissipation)."""
        backend = self._backend_property_names()
        return LIMIT_PROPERTIES + tuple(p for p in DYNAMICS_PROPERTIES if p in backend)

    def _initial_properties(self) -> dict[str, dict[str, float]]:
        """Each map joint's properties at start: the limiter's limits
        (:func:`.joint_properties.limit_values`) and the backend's dynamics; a joint the
        backend gives no dynamics while it gives others' (MuJoCo: a ball joint's angles) has
        no properties."""
        getter = getattr(self.backend, "joint_properties", None)
        simulated = callable(getter) and any(
            p in DYNAMICS_PROPERTIES for p in self._backend_property_names()
        )
        dynamics = getter() if simulated else {}
        names = self.joint_property_names
        out = {}
        for joint, lim in zip(self.transmissions.joint_names, self.limiter.limits):
            if simulated and joint not in dynamics:  # (also when it gives none: balls only)
                continue
            values = limit_values(lim)
            values.update(dynamics.get(joint, {}))
            out[joint] = {p: float(values[p]) for p in names}
        return out

    @_locked
    def joint_properties(self) -> dict[str, dict[str, float]]:
        """joint → property → value now (a copy), for every joint of the transmission map that
        has properties (``_initial_properties``) and every property of
        :attr:`joint_property_names`."""
        return {joint: dict(values) for joint, values in self._properties.items()}

    @_locked
    def check_joint_properties(self, changes: Mapping[str, Mapping[str, float]]) -> None:
        """Check a change of joint properties (joint → property → value) as
        :meth:`set_joint_properties` would, changing nothing: every value, the stops' order and
        the limiter's new limits. A change this accepts is then applied by
        :meth:`set_joint_properties` unless the state changed in between or the backend fails
        (a ``BackendError``: the driver gone, a mock configured for part of the map).

        A backend's own checks run too when it offers ``check_joint_properties(changes)``
        (MuJoCo: a spring too stiff for its timestep), so that a change the backend would
        refuse is refused here, before a ROS parameter call is answered.

        Raises:
            JointPropertyError: as :meth:`set_joint_properties` (nothing changed).
        """
        _, _, to_backend, _ = self._plan_joint_properties(changes)
        check = getattr(self.backend, "check_joint_properties", None)
        if to_backend and callable(check):
            check(to_backend)

    def _plan_joint_properties(
        self, changes: Mapping[str, Mapping[str, float]]
    ) -> tuple[dict[str, dict[str, float]], JointLimiter, dict[str, dict[str, float]], bool]:
        """The checked change (:func:`.joint_properties.check_changes`): the merged properties
        of the changed joints, the limiter with the new limits, the backend's part (a change of
        one stop passes both) and whether stops move. Changes nothing.

        Raises:
            JointPropertyError: an unknown joint or property, a bad value, lower ≥ upper.
        """
        names = self.joint_property_names
        merged = check_changes(self._properties, changes, names)
        index = {name: k for k, name in enumerate(self.transmissions.joint_names)}
        limits = list(self.limiter.limits)
        backend_names = self._backend_property_names()
        to_backend: dict[str, dict[str, float]] = {}
        stops_moved = False
        for joint, values in merged.items():
            changed = set(changes[joint])
            if changed & set(STOPS):
                changed |= set(STOPS)  # (the pair: the backend checks lower < upper)
                stops_moved = True
            limited = {p: values[p] for p in LIMIT_PROPERTIES if p in changed}
            if limited:
                limits[index[joint]] = limits_with(joint, limits[index[joint]], limited)
            mine = {p: values[p] for p in sorted(changed) if p in backend_names}
            if mine:
                to_backend[joint] = mine
        return merged, self.limiter.with_limits(limits), to_backend, stops_moved

    @_locked
    def set_joint_properties(self, changes: Mapping[str, Mapping[str, float]]) -> list[str]:
        """Change joint properties (joint → property → value) between two ticks, all or none
        (Gazebo's ``physics::Joint`` setters, :mod:`.joint_properties`): every value and the
        stops' order are checked first (:meth:`check_joint_properties`), then the limiter is
        given the new limits (the next tick limits with them) and the backend the properties it
        applies (MuJoCo: from the next physics step; a change of one stop passes both). Idle
        and e-stop holds outside new stops are moved onto them (:meth:`.holds.Holds.confine`),
        so that nothing holds a joint against a stop.

        Returns:
            Notes to log (the backend's, e.g. a stop too stiff for the timestep; soft-limit
            effort bounds that now chatter).

        Raises:
            JointPropertyError: an unknown joint or property, a value out of range, stops with
                lower ≥ upper, or one the backend refuses (MuJoCo: a spring too stiff for the
                timestep); nothing changed.
            BackendError: from the backend (which changes nothing when it raises).
        """
        merged, limiter, to_backend, stops_moved = self._plan_joint_properties(changes)
        notes = list(self.backend.set_joint_properties(to_backend)) if to_backend else []
        # committed: nothing below raises
        self.limiter = limiter
        if stops_moved:
            self.holds.confine(limiter.pmin, limiter.pmax)
            notes.extend(self._outside_stops(limiter.pmin, limiter.pmax))
        self._properties.update(merged)
        if any("effort" in values for values in changes.values()):
            notes.extend(self._effort_chatter())
        return notes

    def _outside_stops(self, lower: np.ndarray, upper: np.ndarray) -> list[str]:
        """One note per joint whose last measured position is outside its new stops
        ``[lower, upper]`` ((n_joints,), rad or m): a simulating backend's stop pushes it back
        at once (as Gazebo's), which can be fast; the mock clamps it."""
        position = self._measured[0, : len(lower)]
        outside = np.flatnonzero((position < lower) | (position > upper))
        names = self.transmissions.joint_names
        return [
            f"joint {names[k]!r} is at {position[k]:.6g}, outside its new stops "
            f"[{lower[k]:.6g}, {upper[k]:.6g}]: the stop brings it back (a simulated stop "
            "pushes it at once; move the stops in steps, or command the joint inside them "
            "first, for a gentle move)"
            for k in outside
        ]

    # ------------------------------------------------------------------ sensors
    @_locked
    def set_sensor_demand(self, names: Iterable[str] | None) -> bool:
        """Ask the backend for the readings of the named sensors only (``None``: all, the
        default; one string: that sensor), e.g. those somebody subscribes to; a simulating
        backend then skips the others (ray casting, rendering). Backends without
        ``set_sensor_demand`` read every sensor as before.

        Returns:
            Whether the backend takes a demand.

        Raises:
            ConfigError: a name that is not a sensor of the robot, nor the joint wrench reading
                (``joint_wrench/<joint>``) of a joint asking for feedback.
        """
        if isinstance(names, str):
            names = (names,)
        demand = None if names is None else frozenset(names)
        if demand is not None:
            known = {s.name for s in self.robot.sensors}
            known.update(reading_name(j) for j in feedback_joints(self.robot))
            unknown = sorted(demand - known)
            if unknown:
                raise ConfigError(
                    f"sensor demand names unknown sensor(s) {unknown}. Fix: use names from "
                    f"{sorted(known)}."
                )
        setter = getattr(self.backend, "set_sensor_demand", None)
        if not callable(setter):
            return False
        setter(demand)
        return True

    # ------------------------------------------------------------------ e-stop, reset, simulation
    @_locked
    def enable(self, on: bool) -> None:
        """Engage (``False``) or release (``True``) the e-stop. Both clear all commands and
        any trajectory, so nothing stale moves the robot when it is released; disabled, the
        backend holds the joint positions measured when the e-stop engaged (:mod:`.holds`)."""
        on = bool(on)
        if on == self.enabled:
            return
        self._forget()
        self.enabled = on
        _LOG.info("hardware %s", "enabled" if on else "disabled (e-stop): holding position")

    @_locked
    def reset(self) -> None:
        """Re-home: ``backend.reset()`` (initial values), clear commands and trajectory, and
        read the reset state (``dt = 0``, sensors to the next :meth:`read`) so that holds,
        limits and new trajectories start from it.

        Raises:
            BackendError: from the backend (the next write then reads it again first).
        """
        self.backend.reset()
        self._forget()
        self._state_known = False
        self._prime()

    def _forget(self) -> None:
        """Clear commands, trajectory, holds (and the watchdog's silence) and the limiter's
        memory of previous commands (its clamp counts are kept in the diagnostics)."""
        self.commands.clear()
        self.trajectory.clear()
        self.holds.reset()
        self._clamps_before.update(self.limiter.counts)
        self.limiter.reset()
        self._limited_time = None

    @property
    def lock(self) -> threading.RLock:
        """The system's one re-entrant lock (every public method takes it): hold it to use the
        backend directly between ticks, e.g. the simulation services
        (:mod:`sdf_bridge.ros.simulation`) reading and teleporting entities."""
        return self._lock

    @property
    def simulating(self) -> bool:
        """Whether the backend simulates (can pause and step: MuJoCo; :func:`simulates`)."""
        return simulates(self.backend)

    @_locked
    def pause(self, flag: bool) -> None:
        """Pause (``True``) or resume the simulation; while paused a tick does not advance time.

        Raises:
            BackendError: the backend does not simulate (:attr:`simulating`).
        """
        simulator(self.backend, self.backend_name).pause(bool(flag))

    @property
    def paused(self) -> bool:
        """Whether the simulation is paused (False for a backend that does not simulate)."""
        return bool(getattr(self.backend, "paused", False))

    @_locked
    def step(self, n: int) -> None:
        """Advance ``n`` physics steps now (also while paused), with the current commands.

        Raises:
            BackendError: ``n`` not a whole number ≥ 0, or the backend does not simulate.
        """
        simulator(self.backend, self.backend_name).step(n)

    @_locked
    def base_state(self) -> BaseState | None:
        """The free-floating root link's ground truth now
        (:class:`~sdf_bridge.backends.base.BaseState`), ``None`` on a fixed base or for a backend
        without ``base_state``."""
        getter = getattr(self.backend, "base_state", None)
        return getter() if callable(getter) else None

    @property
    def real_time_factor(self) -> float | None:
        """The backend's achieved real-time factor (simulated / wall time), ``None`` when it
        does not simulate. Reading it starts a new measurement interval (one reader: the
        node's diagnostics)."""
        rtf = getattr(self.backend, "real_time_factor", None)
        return float(rtf) if isinstance(rtf, (int, float)) else None

    @_locked
    def close(self) -> None:
        """Close the backend; the system is not used afterwards."""
        self.backend.close()

    # ------------------------------------------------------------------ diagnostics
    def diagnostics(self) -> dict[str, Any]:
        """Counters and timing as a plain dict: ``enabled``, ``backend``, ``rejected``
        (reason → count), ``rejected_total``, ``dropped`` (reason → values dropped without a
        warning, :attr:`CommandBuffer.dropped
        <sdf_bridge.hardware.commands.CommandBuffer.dropped>`), ``watchdog_trips``,
        ``watchdog_tripped``, ``command_timeout`` (s), ``clamps`` (``"joint: reason"`` →
        count), ``clamps_total``, ``trajectory_active``, ``modes`` (commandable joint → mode
        name) and, when the system is timed, ``timing`` (:meth:`LoopTiming.summary`). The
        values are taken under the lock; the timing statistics (costly over a long window) are
        computed from a snapshot after releasing it, so a control cycle waiting for the lock is
        not held up by them."""
        with self._lock:
            total = Counter(self._clamps_before)
            total.update(self.limiter.counts)
            values: dict[str, Any] = {
                "enabled": self.enabled,
                "backend": self.backend_name,
                "rejected": dict(self.commands.rejections),
                "rejected_total": int(sum(self.commands.rejections.values())),
                "dropped": dict(self.commands.dropped),
                "watchdog_trips": self.watchdog.trips,
                "watchdog_tripped": self.watchdog.tripped,
                "command_timeout": self.watchdog.timeout,
                "trajectory_active": self.trajectory.active,
                "modes": {name: self.commands.mode_name(name) for name in self.joint_names},
            }
            timing = self.timing.snapshot() if self.timing is not None else None
        clamps = {f"{joint}: {reason}": int(n) for (joint, reason), n in sorted(total.items())}
        values["clamps"] = clamps
        values["clamps_total"] = int(sum(clamps.values()))
        if timing is not None:
            values["timing"] = timing.summary()
        return values
