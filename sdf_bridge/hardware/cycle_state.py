"""What one control tick reads: :class:`CycleState`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..backends.sensor_readings import SensorReading


class CycleState:
    """What :meth:`HardwareSystem.read <sdf_bridge.hardware.system.HardwareSystem.read>` returns:
    the state of one tick.

    Attributes:
        names: ``state_names`` (map joints, then followers).
        joints: joint space, shape (3, len(names)): rows position (rad|m), velocity
            (rad/s|m/s), effort (N·m|N).
        actuators: actuator space, three rows of shape (len(actuator_names),) (an array
            (3, n_actuators), or a sequence of three arrays): position, velocity, effort.
        sensors: sensor name → reading (only sensors with a new sample this cycle).
        sim_time: the backend's simulated time (s) or ``None``.

    The properties :attr:`position`, :attr:`velocity`, :attr:`effort` are the rows of
    ``joints``; :attr:`actuator_position`, :attr:`actuator_velocity`,
    :attr:`actuator_effort` those of ``actuators``. The arrays are new on every read; the system
    keeps views of the joint position and velocity as the measured state for the next write, so do
    not modify them in place. (A slotted class whose rows are views made on access: one is built
    every tick, and most ticks publish only some of them.)
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
        return (
            f"CycleState(names={self.names!r}, joints={self.joints!r}, "
            f"actuators={self.actuators!r}, sensors={dict(self.sensors)!r}, "
            f"sim_time={self.sim_time!r})"
        )
