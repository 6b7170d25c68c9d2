"""The hardware system: one control cycle, as ros2_control's write → read.

One tick of the control loop (the loop sleeps between ticks)::

    state = system.cycle(now, dt)    # write: commands → watchdog → limits → joint_to_actuator
                                     #   → backend.write;  then read: backend.read(dt)
                                     #   → actuator_to_joint (+ followers)
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
commanding, so the limiter, the watchdog hold, the e-stop hold and the coupled-partner hold
always start from a measured state (the sensor readings of that read are returned by the next
:meth:`~HardwareSystem.read`).

Commands arrive between cycles through :meth:`HardwareSystem.submit_joint_state`,
:meth:`~HardwareSystem.submit_array` and :meth:`~HardwareSystem.submit_trajectory`; bad input
is rejected and counted, never raised (see :mod:`sdf_bridge.hardware.commands`). The watchdog
is evaluated before the limits so that its hold/zero commands are limited like any other.

Timing (:class:`~sdf_bridge.hardware.timing.LoopTiming`, ``timed=True``, the default): a tick
starts at the beginning of ``write`` and ends at the end of ``read``, or, with
``read(..., end_cycle=False)``, at :meth:`~HardwareSystem.end_cycle` (after the caller published
the state, so that the busy time covers the whole tick). A caller whose loop times the ticks
itself builds the system with ``timed=False``: then the system measures nothing (each tick is
timed once, by its loop). The ROS node does so: its
:class:`~sdf_bridge.ros.loop.FixedRateLoop` times each tick, publishing included.

Coupled joints (a differential wrist, a four-bar): commanding one joint of a pair gives its
uncommanded partner a hold on the same interface (the position it had when the hold began,
zero velocity, zero effort), so the shared actuators move only the commanded joint. The
partner's hold ends as soon as it is commanded itself.

Hot path: names are resolved to indices at construction; a cycle is a handful of numpy
operations (or compiled kernels, :mod:`sdf_bridge.jit`) on (n_actuators,) / (n_joints,)
arrays, with no per-joint Python loop. A backend that simulates joints
(:class:`~sdf_bridge.backends.base.JointSpaceBackend`, e.g. MuJoCo) is written the limited
joint commands and returns joint and actuator state together, so that it can fuse the
transmission mapping with its own per-cycle work instead of converting back and forth.

Threading: command submission (e.g. from ROS subscription callbacks) and the cycle (a loop
thread) may run on different threads: every public method takes the system's internal lock, so
a command is applied either wholly before or wholly after a cycle's ``write``.
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

from ..backends.base import ActuatorCommand, Backend, JointSpaceBackend, SensorReading
from ..backends.registry import create_backend
from ..description.model import Robot
from ..errors import BackendError, CommandError, ConfigError
from ..limits import JointLimiter
from ..transmissions import TransmissionMap
from .commands import EFFORT, INTERFACE_BITS, MODE_NAMES, POSITION, VELOCITY, CommandBuffer
from .timing import LoopTiming
from .trajectory import Trajectory
from .watchdog import CommandWatchdog

_LOG = logging.getLogger(__name__)

_F = TypeVar("_F", bound=Callable[..., Any])


def _locked(method: _F) -> _F:
    """Run ``method`` holding the instance's re-entrant lock."""

    @functools.wraps(method)
    def wrapper(self: "HardwareSystem", *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


_ACTUATOR_MODE = {0: "", POSITION: "position", POSITION | VELOCITY: "position",
                  VELOCITY: "velocity", EFFORT: "effort"}


class CycleState:
    """What :meth:`HardwareSystem.read` returns: the state of one tick.

    Attributes:
        names: ``state_names`` (map joints, then followers).
        joints: joint space, shape (3, len(names)): rows position (rad|m), velocity
            (rad/s|m/s), effort (N·m|N).
        actuators: actuator space, three rows of shape (len(actuator_names),) (an array
            (3, n_actuators), or a sequence of three arrays): position, velocity, effort.
        position, velocity, effort: the rows of ``joints`` (properties).
        actuator_position, actuator_velocity, actuator_effort: the rows of ``actuators``.
        sensors: sensor name → reading (only sensors with a new sample this cycle).
        sim_time: the backend's simulated time (s) or ``None``.

    The arrays are new on every read; the system keeps views of the joint position and
    velocity as the measured state for the next write, so do not modify them in place. (A
    slotted class whose rows are views made on access: one is built every tick, and most
    ticks publish only some of them.)
    """

    __slots__ = ("names", "joints", "actuators", "sensors", "sim_time")

    def __init__(
        self,
        names: tuple[str, ...],
        joints: np.ndarray,
        actuators: np.ndarray | Sequence[np.ndarray],
        sensors: Mapping[str, SensorReading] | None = None,
        sim_time: float | None = None,
    ) -> None:
        self.names = names
        self.joints = joints
        self.actuators = actuators
        self.sensors: Mapping[str, SensorReading] = {} if sensors is None else sensors
        self.sim_time = sim_time

    @property
    def position(self) -> np.ndarray:
        """Joint positions, (len(names),), rad or m."""
        return self.joints[0]

    @property
    def velocity(self) -> np.ndarray:
        """Joint velocities, (len(names),), rad/s or m/s."""
        return self.joints[1]

    @property
    def effort(self) -> np.ndarray:
        """Joint efforts, (len(names),), N·m or N."""
        return self.joints[2]

    @property
    def actuator_position(self) -> np.ndarray:
        """Actuator positions, (n_actuators,), rad or m."""
        return self.actuators[0]

    @property
    def actuator_velocity(self) -> np.ndarray:
        """Actuator velocities, (n_actuators,), rad/s or m/s."""
        return self.actuators[1]

    @property
    def actuator_effort(self) -> np.ndarray:
        """Actuator efforts, (n_actuators,), N·m or N."""
        return self.actuators[2]

    def __repr__(self) -> str:
        return (f"CycleState(names={self.names!r}, joints={self.joints!r}, actuators={self.actuators!r}, "
                f"sensors={dict(self.sensors)!r}, sim_time={self.sim_time!r})")


def commandable_joints(robot: Robot, transmissions: TransmissionMap) -> dict[str, tuple[str, ...]]:
    """Commandable joints and their command interfaces, in transmission-map order.

    Every map joint commands position, velocity and effort, unless the robot has
    ``<ros2_control>`` blocks listing joints: then only the joints listed there, with the
    standard command interfaces (position/velocity/effort) they list.
    """
    listed: dict[str, set[str]] = {}
    for block in robot.ros2_control:
        for info in block.joints:
            interfaces = listed.setdefault(info.name, set())
            interfaces.update(i.name for i in info.command_interfaces if i.name in INTERFACE_BITS)
    if not listed:
        return {name: ("position", "velocity", "effort") for name in transmissions.joint_names}
    order = ("position", "velocity", "effort")
    return {
        name: tuple(i for i in order if i in listed[name])
        for name in transmissions.joint_names
        if listed.get(name)
    }


class HardwareSystem:
    """A robot's joints behind a backend, with transmissions, limits, watchdog and timing.

    Args:
        robot: the robot model.
        backend: a :class:`Backend` instance, or a backend name for
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
            ROS node's :class:`~sdf_bridge.ros.loop.FixedRateLoop`.

    Attributes:
        joint_names: commandable joints (order of Float64MultiArray commands).
        state_names: joint_states names: map joints then followers.
        actuator_names: actuators, order of actuator-space arrays.
        transmissions, limiter, commands, watchdog: the parts.
        timing: the :class:`LoopTiming` of the ticks, or ``None`` when built with
            ``timed=False``.
        enabled: False while the e-stop is engaged.

    Raises:
        ConfigError: ``joints`` names an unknown, follower or uncommandable joint or repeats
            one; bad ``command_modes``, ``command_timeout`` or ``update_rate``.
        TransmissionError, LimitsError: from building the transmission map or limiter.
        BackendError: the backend cannot be created or configured.
    """

    def __init__(
        self,
        robot: Robot,
        backend: Backend | str,
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
        self.transmissions = TransmissionMap.from_robot(robot)
        tm = self.transmissions
        self.actuator_names: tuple[str, ...] = tuple(tm.actuator_names)
        self.state_names: tuple[str, ...] = tuple(tm.joint_names) + tuple(tm.follower_names)
        allowed = commandable_joints(robot, tm)
        self.joint_names = self._select_joints(joints, allowed, tm)
        self.commands = CommandBuffer(
            tm.joint_names, tm.follower_names, self.joint_names, allowed, command_modes
        )
        self.watchdog = CommandWatchdog(command_timeout)
        if update_rate is not None and not (isinstance(update_rate, (int, float)) and update_rate > 0):
            raise ConfigError(f"update_rate is {update_rate!r}. Fix: give a rate in Hz > 0.")
        self.timing: LoopTiming | None = (
            LoopTiming(None if update_rate is None else 1.0 / update_rate) if timed else None
        )
        if isinstance(limits_overrides, PathLike):
            limits_overrides = Path(limits_overrides)
        self.limiter = JointLimiter.from_robot(robot, tm.joint_names, overrides=limits_overrides)
        self._dependency = self._actuator_dependency()
        shared = (self._dependency.T.astype(np.int64) @ self._dependency.astype(np.int64)) > 0
        np.fill_diagonal(shared, False)
        #: (n_joints, n_joints) bool: joints that share an actuator (differential, four-bar), or
        #: None when no transmission couples joints.
        self._coupled: np.ndarray | None = shared if shared.any() else None
        self._partner_hold = np.full(len(tm.joint_names), np.nan)
        #: (commands, result) of the last _hold_coupled_partners call, while it cannot change
        self._partner_cache: tuple[Any, ...] | None = None
        self.backend: Backend = create_backend(backend) if isinstance(backend, str) else backend
        self.backend_name = backend if isinstance(backend, str) else type(backend).__name__
        self.backend.configure(
            robot, self.actuator_names, transmissions=tm, params=self._backend_params(backend_params)
        )
        #: the backend takes joint-space commands and state (a simulator): mapped here once
        self._joint_space = isinstance(self.backend, JointSpaceBackend)
        n_joints, n_act = len(tm.joint_names), len(self.actuator_names)
        self._actuator_table_shape = (3, n_act)
        self._state_shape = (3, len(self.state_names))
        #: the state of the last read, (3, n_joints [+ n_followers]): rows position, velocity,
        #: effort; the measured state of the next write (columns: the map joints first)
        self._measured = np.full((3, n_joints), np.nan)
        self._actuators: Sequence[np.ndarray] = (np.full(n_act, np.nan),) * 3  # of the last read
        self._n_joints = n_joints
        self._state_known = False  # no read yet: the next write primes (_prime)
        self._pending_sensors: dict[str, SensorReading] | None = None
        self._nan_act = np.full(n_act, np.nan)
        self._act_shape = (n_act,)
        self._has_followers = len(tm.follower_names) > 0
        self._mode_cache: tuple[int, tuple[str, ...]] = (-1, ())
        self._trajectory: Trajectory | None = None
        self._trajectory_index = np.zeros(0, dtype=np.intp)
        self._trajectory_active = np.zeros(0, dtype=bool)
        self._hold: ActuatorCommand | None = None
        self._clamps_before: Counter[tuple[str, str]] = Counter()
        self._lock = threading.RLock()
        self.enabled = True

    # ------------------------------------------------------------------ configuration
    @staticmethod
    def _select_joints(
        joints: Sequence[str] | None, allowed: Mapping[str, Iterable[str]], tm: TransmissionMap
    ) -> tuple[str, ...]:
        if joints is None or len(joints) == 0:
            return tuple(allowed)
        problems = []
        for name in joints:
            if name in allowed:
                continue
            if name in tm.follower_names:
                problems.append(f"{name!r} follows another joint (mimic/gearbox)")
            elif name in tm.joint_names:
                problems.append(f"{name!r} is not listed with command interfaces in <ros2_control>")
            else:
                problems.append(f"{name!r} is not an actuated joint")
        if len(set(joints)) != len(joints):
            problems.append("a joint is listed twice")
        if problems:
            raise ConfigError(
                f"joints parameter: {'; '.join(problems)}. Fix: list joints from {list(allowed)}."
            )
        return tuple(joints)

    def _backend_params(self, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
        params: dict[str, Any] = {}
        for block in self.robot.ros2_control:
            for key, value in block.parameters:
                if key in params and params[key] != value:
                    _LOG.warning(
                        "<ros2_control> hardware parameter %r differs between blocks (%r, %r); "
                        "using %r from block %r", key, params[key], value, value, block.name,
                    )
                params[key] = value
        params.update(overrides or {})
        return params

    def _actuator_dependency(self) -> np.ndarray:
        """(n_actuators, n_joints) bool: which joints each actuator's command depends on
        (probed through joint_to_actuator, so any transmission type works)."""
        tm = self.transmissions
        n_joints, n_act = len(tm.joint_names), len(tm.actuator_names)
        zero = np.zeros(n_joints)
        base = [np.asarray(x, dtype=float) for x in tm.joint_to_actuator(zero, zero, zero)]
        dependency = np.zeros((n_act, n_joints), dtype=bool)
        for k in range(n_joints):
            probe = zero.copy()
            probe[k] = 0.1
            out = tm.joint_to_actuator(probe, probe, probe)
            for b, o in zip(base, out):
                dependency[:, k] |= ~np.isclose(np.asarray(o, dtype=float), b, rtol=0.0, atol=1e-12)
        return dependency

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
            BackendError: from the backend, or when it returns arrays that are not
                (n_actuators,).
        """
        self._write(now, dt)
        return self._read(dt, end_cycle)

    @_locked
    def read(self, now: float, dt: float, *, end_cycle: bool = True) -> CycleState:
        """Second half of a tick: read the backend (advancing it by ``dt``) and map to joint
        space (followers appended). Ends the tick's timing unless ``end_cycle`` is False.

        Args:
            now: current time, s (node clock; unused, kept for symmetry with :meth:`write`).
            dt: time the backend advances, s (the tick period).
            end_cycle: see :meth:`cycle`.

        Raises:
            BackendError: from the backend, or when it returns arrays that are not
                (n_actuators,).
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
        velocity, effort; columns ``state_names``), ``actuators`` the three actuator-space
        arrays (n_actuators,). Keeps the measured joint and actuator positions for the next
        write. A :class:`JointSpaceBackend` returns both (:meth:`TransmissionMap.joint_state`);
        any other is read in actuator space and mapped here."""
        tm = self.transmissions
        if self._joint_space:
            read = self.backend.read_joints(dt)  # type: ignore[attr-defined]
            joints, actuators = read.joints, read.actuators
            try:
                wrong = joints.shape != self._state_shape or actuators.shape != self._actuator_table_shape
            except AttributeError:  # not arrays
                wrong = True
            if wrong:
                raise BackendError(
                    f"backend {self.backend_name!r} returned joint and actuator states of shapes "
                    f"{np.shape(joints)} and {np.shape(actuators)}, expected {self._state_shape} "
                    f"({list(self.state_names)}) and {self._actuator_table_shape} ({list(self.actuator_names)}). "
                    "Fix: read_joints must return TransmissionMap.joint_state of its joint state."
                )
            sensors, sim_time = read.sensors, read.sim_time
        else:
            state = self.backend.read(dt)
            actuators = (state.position, state.velocity, state.effort)
            ap, av, ae = actuators
            shape = self._act_shape
            if (getattr(ap, "shape", None) != shape or getattr(av, "shape", None) != shape
                    or getattr(ae, "shape", None) != shape):
                raise BackendError(
                    f"backend {self.backend_name!r} returned state arrays of shapes {np.shape(ap)}, "
                    f"{np.shape(av)}, {np.shape(ae)} for {shape[0]} actuators {list(self.actuator_names)}. "
                    "Fix: the backend must return one value per configured actuator."
                )
            if self._has_followers:  # one call, one array for joints and followers
                joints = tm.actuator_to_joint_with_followers(ap, av, ae)
            else:
                joints = tm.actuator_to_joint_stacked(ap, av, ae)
            sensors, sim_time = state.sensors, state.sim_time
        self._measured = joints
        self._actuators = actuators
        self._state_known = True
        return joints, actuators, sensors, sim_time

    def _prime(self) -> None:
        """Read the backend once with ``dt = 0`` (no time passes) so that the write has a
        measured state; its sensor readings go to the next :meth:`read`."""
        sensors = self._read_backend(0.0)[2]
        if sensors:
            self._pending_sensors = dict(sensors)

    @_locked
    def write(self, now: float, dt: float) -> None:
        """First half of a tick (starts its timing): trajectory sample at ``now`` → watchdog →
        limits (against the state of the last read) → joint_to_actuator → backend.

        While disabled the backend receives only a hold command (the actuator positions read
        before the e-stop, position mode). The first write, and the first after :meth:`reset`,
        reads the backend with ``dt = 0`` first (module doc).

        Raises:
            BackendError: from the backend.
        """
        self._write(now, dt)

    def _write(self, now: float, dt: float) -> None:
        if self.timing is not None:
            self.timing.start()
        if not self._state_known:
            self._prime()
        if not self.enabled:
            if self._hold is None:
                self._hold = ActuatorCommand(
                    np.array(self._actuators[0], dtype=float), self._nan_act, self._nan_act,
                    ("position",) * len(self.actuator_names),
                )
            self.backend.write(self._hold, dt)
            return
        commands = self.commands
        if self._trajectory is not None:
            self._sample_trajectory(now)
        if self.watchdog.check(now, commands.last_command_time):
            commands.stop(self._measured[0, :self._n_joints])
        wanted = commands.effective()
        if self._coupled is not None:
            wanted = self._hold_coupled_partners(wanted)
        limited = self.limiter.enforce_stacked(self._measured, wanted, dt)
        if self._joint_space:
            self.backend.write_joints(limited, dt)  # type: ignore[attr-defined]
            return
        ap, av, ae = self.transmissions.joint_to_actuator(limited[0], limited[1], limited[2])
        self.backend.write(ActuatorCommand(ap, av, ae, self._actuator_modes()), dt)

    def _hold_coupled_partners(self, commands: np.ndarray) -> np.ndarray:
        """Give an uncommanded joint that shares actuators with a commanded one (a differential
        or four-bar partner) a hold command on the same interface: the position it had when the
        hold began, zero velocity, zero effort. Without it the partner's NaN would leave the
        shared actuator uncommanded and the partner would move with the commanded joint.
        ``commands``: (3, n_joints), rows position, velocity, effort, NaN = no command; returns
        the commands with the holds (``commands`` itself when there are none, else a copy).

        The result depends only on the commands and on the held positions, which stay fixed
        once every needed hold has started from a finite position: then it is kept and
        returned again as long as the command buffer's array is the same (``commands`` is
        :meth:`CommandBuffer.effective`'s cached array, replaced on every change).
        """
        cached = self._partner_cache
        if cached is not None and cached[0] is commands:
            return cached[1]  # type: ignore[no-any-return]
        p, v, e = commands
        idle = np.isnan(p) & np.isnan(v) & np.isnan(e)
        held = self._partner_hold
        if not idle.any():
            held.fill(np.nan)
            self._partner_cache = (commands, commands)
            return commands
        coupled = self._coupled
        need = idle & (coupled @ ~np.isnan(p))
        start = need & np.isnan(held)
        held[start] = self._measured[0, :self._n_joints][start]
        held[~need] = np.nan
        out = commands
        settled = True
        if need.any():
            out = commands.copy()
            out[0, need] = held[need]
            settled = not np.isnan(held[need]).any()  # a NaN start is retried next cycle
        for row in (1, 2):  # zero velocity / effort for the partners of commanded joints
            zero = idle & (coupled @ ~np.isnan(commands[row]))
            if zero.any():
                if out is commands:
                    out = commands.copy()  # (the command buffer's array must not change)
                out[row, zero] = 0.0
        self._partner_cache = (commands, out) if settled else None
        return out

    def _actuator_modes(self) -> tuple[str, ...]:
        version = self.commands.mode_version
        if self._mode_cache[0] != version:
            mode = self.commands.mode.astype(np.int16)
            dep = self._dependency
            dep = dep & (mode != 0)[None, :]  # joints without a mode follow their partners'
            low = np.where(dep, mode[None, :], 99).min(axis=1, initial=99)
            high = np.where(dep, mode[None, :], -1).max(axis=1, initial=-1)
            names = tuple(
                _ACTUATOR_MODE.get(int(lo), "") if lo == hi else "" for lo, hi in zip(low, high)
            )
            self._mode_cache = (version, names)
        return self._mode_cache[1]

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
        return [self.commands.reject("disabled", f"{what} ignored: the bridge is disabled (e-stop)", now)]

    def _cancel_trajectory_for(self, index: np.ndarray) -> None:
        if self._trajectory is not None and index.size:
            self._trajectory_active &= ~np.isin(self._trajectory_index, index)
            if not self._trajectory_active.any():
                self._trajectory = None

    @_locked
    def submit_joint_state(
        self,
        names: Sequence[str],
        position: Sequence[float] | np.ndarray | None,
        velocity: Sequence[float] | np.ndarray | None,
        effort: Sequence[float] | np.ndarray | None,
        now: float,
    ) -> list[str]:
        """A ``sensor_msgs/JointState`` command (case 013 rules). Joints it commands leave a
        running trajectory. Returns the warnings for rejected parts."""
        refused = self._refuse_when_disabled("JointState command", now)
        if refused is not None:
            return refused
        warnings = self.commands.submit_joint_state(names, position, velocity, effort, now)
        self._cancel_trajectory_for(self.commands.last_accepted)
        return warnings

    @_locked
    def submit_array(self, interface: str, values: Sequence[float] | np.ndarray, now: float) -> list[str]:
        """A ``Float64MultiArray`` command for ``interface`` (position/velocity/effort) in
        :attr:`joint_names` order; wrong length rejects it whole. Returns the warnings.

        Raises:
            CommandError: unknown interface name (a caller bug, not user input).
        """
        refused = self._refuse_when_disabled(f"{interface} array command", now)
        if refused is not None:
            return refused
        warnings = self.commands.submit_array(interface, values, now)
        self._cancel_trajectory_for(self.commands.last_accepted)
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
    ) -> list[str]:
        """A ``JointTrajectory`` starting at ``now`` (s); ``times`` are the points'
        ``time_from_start``. It replaces any running trajectory. A trajectory without points
        cancels the running one: its joints hold their measured position (as
        joint_trajectory_controller does). An invalid trajectory is rejected whole
        (``bad_trajectory``). Returns the warnings (empty when accepted)."""
        refused = self._refuse_when_disabled("trajectory", now)
        if refused is not None:
            return refused
        commands = self.commands
        if len(times) == 0 and (positions is None or len(positions) == 0):
            self._stop_trajectory(now)
            return []
        try:
            index = self._trajectory_joints(names)
            trajectory = Trajectory.build(
                names, times, positions, velocities, accelerations, start=now,
                current_position=self._measured[0][index], current_velocity=self._measured[1][index],
            )
        except CommandError as exc:
            return [commands.reject("bad_trajectory", f"trajectory rejected: {exc}", now)]
        self._trajectory = trajectory
        self._trajectory_index = index
        self._trajectory_active = np.ones(index.shape, dtype=bool)
        commands.last_command_time = now
        return []

    def _stop_trajectory(self, now: float) -> None:
        if self._trajectory is None:
            return
        index = self._trajectory_index[self._trajectory_active]
        hold = self._measured[0][index]
        known = np.isfinite(hold)
        self.commands.apply_source(index[known], hold[known], None, now)
        self._trajectory = None

    def _trajectory_joints(self, names: Sequence[str]) -> np.ndarray:
        commands = self.commands
        index = []
        problems = []
        for name in names:
            k = commands.index_of(name)
            if k is None:
                problems.append(f"{name!r} is not a commandable joint")
            elif not commands.allowed[k] & POSITION:
                problems.append(f"{name!r} has no position command interface")
            elif commands.fixed[k] and not commands.mode[k] & POSITION:
                problems.append(f"{name!r} is configured for {MODE_NAMES[int(commands.mode[k])]} commands")
            else:
                index.append(k)
        if problems:
            raise CommandError("; ".join(problems) + f". Commandable joints: {list(commands.commandable)}")
        return np.array(index, dtype=np.intp)

    def _sample_trajectory(self, now: float) -> None:
        trajectory = self._trajectory
        assert trajectory is not None
        position, velocity, done = trajectory.sample(now)
        active = self._trajectory_active
        index = self._trajectory_index[active]
        self.commands.apply_source(
            index, position[active], None if velocity is None else velocity[active], now
        )
        if done:
            self._trajectory = None

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
            ConfigError: a name that is not a sensor of the robot.
        """
        if isinstance(names, str):
            names = (names,)
        demand = None if names is None else frozenset(names)
        if demand is not None:
            unknown = sorted(demand - {s.name for s in self.robot.sensors})
            if unknown:
                raise ConfigError(
                    f"sensor demand names unknown sensor(s) {unknown}. Fix: use names from "
                    f"{sorted(s.name for s in self.robot.sensors)}."
                )
        setter = getattr(self.backend, "set_sensor_demand", None)
        if not callable(setter):
            return False
        setter(demand)
        return True

    # ------------------------------------------------------------------ e-stop, reset
    @_locked
    def enable(self, on: bool) -> None:
        """Engage (``False``) or release (``True``) the e-stop. Both clear all commands and
        any trajectory, so nothing stale moves the robot when it is released; disabled, the
        backend holds the actuator positions of the last read."""
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
        """Clear commands, trajectory, watchdog silence, hold command and the limiter's
        memory of previous commands (its clamp counts are kept in the diagnostics)."""
        self.commands.clear()
        self._trajectory = None
        self.watchdog.reset()
        self._hold = None
        self._clamps_before.update(self.limiter.counts)
        self.limiter.reset()

    @_locked
    def close(self) -> None:
        """Close the backend; the system is not used afterwards."""
        self.backend.close()

    # ------------------------------------------------------------------ diagnostics
    def diagnostics(self) -> dict[str, Any]:
        """Counters and timing as a plain dict: ``enabled``, ``backend``, ``rejected``
        (reason → count), ``rejected_total``, ``watchdog_trips``, ``watchdog_tripped``,
        ``command_timeout`` (s), ``clamps`` (``"joint: reason"`` → count), ``clamps_total``,
        ``trajectory_active``, ``modes`` (commandable joint → mode name) and, when the system
        is timed, ``timing`` (:meth:`LoopTiming.summary`). The values are taken under the
        lock; the timing statistics (~0.2 ms for a 1000-cycle window) are computed from a
        snapshot after releasing it, so a control cycle waiting for the lock is not held up by
        them."""
        with self._lock:
            total = Counter(self._clamps_before)
            total.update(self.limiter.counts)
            values: dict[str, Any] = {
                "enabled": self.enabled,
                "backend": self.backend_name,
                "rejected": dict(self.commands.rejections),
                "rejected_total": int(sum(self.commands.rejections.values())),
                "watchdog_trips": self.watchdog.trips,
                "watchdog_tripped": self.watchdog.tripped,
                "command_timeout": self.watchdog.timeout,
                "trajectory_active": self._trajectory is not None,
                "modes": {name: self.commands.mode_name(name) for name in self.joint_names},
            }
            timing = self.timing.snapshot() if self.timing is not None else None
        clamps = {f"{joint}: {reason}": int(n) for (joint, reason), n in sorted(total.items())}
        values["clamps"] = clamps
        values["clamps_total"] = int(sum(clamps.values()))
        if timing is not None:
            values["timing"] = timing.summary()
        return values
