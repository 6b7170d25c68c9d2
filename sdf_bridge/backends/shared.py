"""One physics, several robots: a backend configured on the combined model of several robots
(:func:`sdf_bridge.description.world.combine`: names scoped ``robot::name``), seen by each
robot through a :class:`~.shared.RobotSlice` — a backend of that robot alone, under its own names.

Each robot then has its own :class:`~sdf_bridge.hardware.HardwareSystem` (its commands,
limits, watchdog, e-stop, trajectory) over its slice, exactly as a single robot has over its
backend: one robot's fault holds that robot only. A tick is every system's ``write`` (each
slice puts its columns into the one joint command), then every system's ``read``: the first
read of the tick writes the whole command and steps the physics once, the others take their
columns of that state.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..description.model import Robot
from ..description.scope import scoped, unscoped
from ..errors import BackendError
from ..transmissions import TransmissionMap
from .base import MODE_DTYPE, BaseState, JointCommand, JointSpaceState, reads_joint_wrenches


class SharedPhysics:
    """The backend of the combined model, and the one command all slices fill.

    Args:
        backend: a joint-space backend (not configured yet).
        robot: the combined robot (``robot.robots``: the robots' names).
        params: the backend's parameters.

    Raises:
        BackendError, ConfigError, TransmissionError: as the backend's ``configure``.
    """

    simulated_robot = True

    def __init__(self, backend: Any, robot: Robot, params: Mapping[str, Any]) -> None:
        self.backend = backend
        self.robot = robot
        self.transmissions = TransmissionMap.from_robot(robot, simulated_robot=True)
        backend.configure(robot, transmissions=self.transmissions, params=dict(params))
        n = len(self.transmissions.joint_names)
        self.command = JointCommand(
            np.full((3, n), np.nan), np.zeros(n, dtype=MODE_DTYPE), np.full(n, np.nan)
        )
        self._state: JointSpaceState | None = None
        self._dirty = False
        self._write_dt = 0.0
        self._demand: dict[str, frozenset[str] | None] = {}
        #: id of a robot's columns (a slice's, kept alive by it) → the mode and hold arrays
        #: last copied from it
        self._written: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        #: held by every touch of the physics (a leaf lock: nothing else is taken under it),
        #: so that the robots' systems (each under its own lock) and the simulation controls
        #: never touch it at once
        self.lock = threading.RLock()

    def write(self, columns: np.ndarray, command: JointCommand, dt: float) -> None:
        """Put one robot's ``command`` into ``columns`` of the shared command."""
        with self.lock:
            self._write(columns, command, dt)

    def _write(self, columns: np.ndarray, command: JointCommand, dt: float) -> None:
        full = self.command
        full.values[:, columns] = command.values
        # mode and hold: copied only when this robot's arrays were replaced (JointCommand:
        # replaced on a change, never changed in place), so that an unchanged shared command
        # keeps its arrays (the backend may tell a change by identity) and no tick allocates
        last = self._written.get(id(columns))
        if last is None or last[0] is not command.mode or last[1] is not command.hold:
            mode = full.mode.copy()
            mode[columns] = command.mode
            full.mode = mode
            hold = full.hold.copy()
            hold[columns] = command.hold
            full.hold = hold
            # (the arrays themselves, kept alive: an id could be reused by a new array)
            self._written[id(columns)] = (command.mode, command.hold)
        self._dirty = True
        self._write_dt = dt

    def read(self, dt: float) -> JointSpaceState:
        """The state of this tick: the first read after writes writes the whole command and
        steps the physics by ``dt``; the others get the same state. A read of ``dt = 0`` (a
        robot's reset, :meth:`HardwareSystem._prime
        <sdf_bridge.hardware.HardwareSystem.reset>`) reads the state now without stepping and
        leaves the tick's writes to the tick's read, also when it comes between them (a reset
        from a ROS service while the loop ticks); a read without writes reads without
        stepping too."""
        with self.lock:
            return self._read(dt)

    def _read(self, dt: float) -> JointSpaceState:
        if dt == 0.0:
            return self.backend.read(0.0)
        if self._dirty:
            self.backend.write(self.command, self._write_dt)
            self._state = self.backend.read(dt)
            self._dirty = False
        elif self._state is None:
            self._state = self.backend.read(0.0)
        return self._state

    def set_demand(self, robot: str, names: frozenset[str] | None) -> None:
        """One robot's wanted sensors (scoped names; ``None``: all of its); the backend gets
        the union."""
        with self.lock:
            self._set_demand(robot, names)

    def _set_demand(self, robot: str, names: frozenset[str] | None) -> None:
        self._demand[robot] = names
        setter = getattr(self.backend, "set_sensor_demand", None)
        if setter is None:
            return
        wanted: set[str] = set()
        for name in self.robot.robots:
            mine = self._demand.get(name)
            if mine is None:
                wanted.update(s.name for s in self.robot.sensors if unscoped(name, s.name))
            else:
                wanted.update(mine)
        setter(frozenset(wanted))

    def reset(self) -> None:
        """Reset the whole simulation (every robot re-homed, time 0): the backend's
        ``reset``; each robot's hardware system then forgets its commands (its own reset)."""
        with self.lock:
            self.backend.reset()
            self._state = None

    def close(self) -> None:
        """Close the backend (once, by the owner of the shared physics)."""
        self.backend.close()


class RobotSlice:
    """Robot ``name`` of a :class:`SharedPhysics`, as a joint-space backend of that robot alone
    (its unscoped names): configure it with the robot as
    :func:`sdf_bridge.description.scope.unscope_robot` gives it."""

    joint_space = True
    simulated_robot = True

    def __init__(self, shared: SharedPhysics, name: str) -> None:
        self.shared = shared
        self.name = name
        self._columns = np.zeros(0, dtype=np.intp)
        self._state_columns = np.zeros(0, dtype=np.intp)
        self._actuators = np.zeros(0, dtype=np.intp)

    @property
    def reads_joint_wrenches(self) -> bool:
        """The shared backend's (:func:`~sdf_bridge.backends.base.reads_joint_wrenches`)."""
        return reads_joint_wrenches(self.shared.backend)

    def _index(self, names: tuple[str, ...], full: tuple[str, ...], what: str) -> np.ndarray:
        where = {n: i for i, n in enumerate(full)}
        missing = [n for n in names if scoped(self.name, n) not in where]
        if missing:
            raise BackendError(
                f"robot {self.name!r}: {what} {missing} are not in the shared simulation "
                "(its robot differs from the one the physics was built for)"
            )
        return np.array([where[scoped(self.name, n)] for n in names], dtype=np.intp)

    def configure(
        self, robot: Robot, *, transmissions: TransmissionMap, params: Mapping[str, Any]
    ) -> None:
        """Map this robot's joints, followers and actuators to the shared model's columns
        (``params`` were the shared backend's: ignored here).

        Raises:
            BackendError: a name the shared model does not have.
        """
        full = self.shared.transmissions
        tm = transmissions
        self._columns = self._index(tuple(tm.joint_names), tuple(full.joint_names), "joints")
        self._state_columns = np.concatenate(
            [
                self._columns,
                len(full.joint_names)
                + self._index(tuple(tm.follower_names), tuple(full.follower_names), "followers"),
            ]
        ).astype(np.intp)
        self._actuators = self._index(
            tuple(tm.actuator_names), tuple(full.actuator_names), "actuators"
        )
        self._prefix = scoped(self.name, "")

    def write(self, command: JointCommand, dt: float) -> None:
        """Put this robot's command into the shared one (no stepping)."""
        self.shared.write(self._columns, command, dt)

    def read(self, dt: float) -> JointSpaceState:
        """This robot's columns of the tick's state (:meth:`SharedPhysics.read`) and its
        sensors' readings, under its own names."""
        state = self.shared.read(dt)
        actuators = state.actuators
        if isinstance(actuators, np.ndarray):
            mine = actuators[:, self._actuators]
        else:
            mine = np.stack([np.asarray(row)[self._actuators] for row in actuators])
        prefix = self._prefix
        sensors = {
            name[len(prefix) :]: reading
            for name, reading in state.sensors.items()
            if name.startswith(prefix)
        }
        return JointSpaceState(state.joints[:, self._state_columns], mine, sensors, state.sim_time)

    def reset(self) -> None:
        """Re-home this robot alone (the backend's ``reset_robot``: its joints, free base,
        actuators and holds; the other robots and the simulated time untouched); a backend
        without ``reset_robot`` resets the whole simulation."""
        with self.shared.lock:
            partial = getattr(self.shared.backend, "reset_robot", None)
            if partial is None:
                self.shared.backend.reset()
            else:
                partial(self._prefix)
            self.shared._state = None

    def close(self) -> None:
        """Nothing: the shared physics is closed by its owner."""

    def set_sensor_demand(self, names: frozenset[str] | None) -> None:
        """This robot's wanted sensors (its names)."""
        self.shared.set_demand(
            self.name, None if names is None else frozenset(scoped(self.name, n) for n in names)
        )

    @property
    def joint_inertia(self) -> np.ndarray:
        """This robot's joints' lightest effective inertias (the shared backend's)."""
        return np.asarray(self.shared.backend.joint_inertia)[self._columns]

    @property
    def joint_property_names(self) -> tuple[str, ...]:
        """The joint properties the shared backend applies (none when it applies none)."""
        if not callable(getattr(self.shared.backend, "set_joint_properties", None)):
            return ()
        return tuple(getattr(self.shared.backend, "joint_property_names", ()))

    def joint_properties(self) -> dict[str, dict[str, float]]:
        """This robot's joints' dynamics properties now, under its own names."""
        with self.shared.lock:
            values = self.shared.backend.joint_properties()
        prefix = self._prefix
        return {j[len(prefix) :]: v for j, v in values.items() if j.startswith(prefix)}

    def set_joint_properties(self, changes: Mapping[str, Mapping[str, float]]) -> list[str]:
        """Change this robot's joints' properties (its names) in the shared backend, all or
        none (the backend's rules and errors); returns the backend's notes."""
        scoped_changes = {scoped(self.name, j): dict(v) for j, v in changes.items()}
        with self.shared.lock:
            return list(self.shared.backend.set_joint_properties(scoped_changes))

    def base_state(self) -> BaseState | None:
        """This robot's free-floating base, ``None`` when it has none."""
        roots = getattr(self.shared.backend, "free_roots", ())
        prefix = self._prefix
        for index, (_adr, _dof, body) in enumerate(roots):
            if body.startswith(prefix):
                state = self.shared.backend.base_state(index)
                if state is None:
                    return None
                return dataclasses.replace(state, link=state.link[len(prefix) :])
        return None


__all__ = ["RobotSlice", "SharedPhysics"]
