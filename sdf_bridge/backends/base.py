"""The backend port: what stands behind the bridge's interfaces, in joint space.

A backend is ROS-free. The bridge's :class:`~sdf_bridge.hardware.HardwareSystem` calls, once
per control tick (ros2_control's cyclic read → update → write, with the loop's sleep placed
before the write: see :mod:`sdf_bridge.hardware.system`)::

    backend.write(command, dt)   # a JointCommand, held for the next dt s
    state = backend.read(dt)     # advance by dt where relevant: a JointSpaceState + sensors

Before its first write (and after :meth:`Backend.reset`) the bridge calls ``read(0.0)`` once to
learn the state without advancing time: backends must accept ``dt = 0``.

There is one port, in joint space (:class:`Backend`): a simulator (MuJoCo) implements it
natively. A driver that works in actuator space (motors behind transmissions: the mock, a
user's plug-in) implements :class:`ActuatorDriver` instead and is wrapped by
:class:`~sdf_bridge.backends.actuator_port.ActuatorPort`, which alone applies the
:class:`~sdf_bridge.transmissions.TransmissionMap` and derives the actuators' modes: a motor
driver gets the transmissions for free (the contract and a template are in
:mod:`sdf_bridge.backends.actuator_port`).

A backend whose robot is a model, not motors (the mock and MuJoCo: the backends Gazebo stands
for) says so with the class attribute ``simulated_robot = True`` (:func:`is_simulated_robot`;
absent = ``False``, a driver of real actuators). It decides one rule: a transmission of a type
no mechanism is registered for (PAL TALOS's ``HalfDifferentialTransmission``) is skipped with a
warning on a simulated robot, its joints driven directly in joint space as gazebo_ros_control
does (identity actuators named like the joints), and refused
(:class:`~sdf_bridge.errors.TransmissionError`) on real actuators, where identity would send
joint positions to the wrong motors (:mod:`sdf_bridge.transmissions.map`). It is not the
``pause``/``step`` ability of a simulator (:func:`sdf_bridge.hardware.backend_setup.simulates`):
the mock simulates an ideal robot but has no clock to pause.

A backend that reads joint wrench feedback (sensor readings named
``joint_wrench/<joint>`` for the joints asking for it: :mod:`sdf_bridge.description.feedback`)
says so with the class attribute ``reads_joint_wrenches = True`` (:func:`reads_joint_wrenches`;
MuJoCo does, the mock has no constraint forces and does not): with any other backend the node
warns once at start that those joints publish nothing.

A command mode is a :class:`Mode` (the only encoding of a mode in the package), stored per
joint or actuator in ``int8`` arrays (:data:`MODE_DTYPE`). Arrays are in SI units (rad, m, rad/s,
m/s, N·m, N).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from .sensor_readings import SensorReading

if TYPE_CHECKING:  # pragma: no cover
    from ..description.model import Robot
    from ..transmissions import TransmissionMap


class Mode(enum.IntFlag):
    """The active command interfaces of a joint or an actuator: the one encoding of a command
    mode in sdf_bridge (arrays of them have dtype :data:`MODE_DTYPE`).

    ``NONE``: no command (the joint holds still, see :class:`JointCommand`); ``POSITION``,
    ``VELOCITY``, ``EFFORT``; ``POSITION_VELOCITY``: position with a velocity feed-forward, as
    joint_trajectory_controller claims them; ``ACCELERATION``: ros2_control's acceleration
    command interface (actuator drivers only, e.g. the mock's GenericSystem parity; the bridge
    does not command it). Effort is exclusive: it never combines with position or velocity.
    """

    NONE = 0
    POSITION = 1
    VELOCITY = 2
    POSITION_VELOCITY = 3
    EFFORT = 4
    ACCELERATION = 8

    @property
    def label(self) -> str:
        """The user-facing name: ``"position"``, ``"velocity"``, ``"effort"``,
        ``"position_velocity"``, ``"acceleration"`` or ``""`` (none)."""
        return "" if self is Mode.NONE else str(self.name).lower()

    @classmethod
    def from_label(cls, label: str) -> Mode:
        """The mode called ``label`` (:attr:`label`; ``""`` = ``NONE``).

        Raises:
            ValueError: not a mode's label (the message lists them).
        """
        for mode in MODES:
            if mode.label == label:
                return mode
        raise ValueError(
            f"unknown command mode {label!r}; use one of {[m.label for m in MODES if m]}"
        )


MODES: tuple[Mode, ...] = (
    Mode.NONE,
    Mode.POSITION,
    Mode.VELOCITY,
    Mode.POSITION_VELOCITY,
    Mode.EFFORT,
    Mode.ACCELERATION,
)
"""Every valid mode (bit combinations outside these are not modes)."""
MODE_DTYPE = np.int8
"""dtype of mode arrays (one :class:`Mode` value per joint or actuator)."""
INTERFACE_MODES: dict[str, Mode] = {
    "position": Mode.POSITION,
    "velocity": Mode.VELOCITY,
    "effort": Mode.EFFORT,
}
"""Command interface name → its mode bit (the rows of a :class:`JointCommand`, in this order)."""


@dataclass(frozen=True)
class BaseState:
    """The ground-truth state of a free-floating robot's root link (what nav_msgs/Odometry
    carries), from a simulating backend's ``base_state()``.

    Attributes:
        position: shape (3,), m: the link frame's origin in the world.
        orientation: shape (4,): quaternion (x, y, z, w) of the link frame in the world.
        linear_velocity: shape (3,), m/s: the origin's velocity, in the link's frame.
        angular_velocity: shape (3,), rad/s: the link's angular velocity, in the link's frame.
        sim_time: simulated time of this state, s.
        link: the root link's name (its frame).
    """

    position: np.ndarray
    orientation: np.ndarray
    linear_velocity: np.ndarray
    angular_velocity: np.ndarray
    sim_time: float
    link: str


@dataclass(slots=True)
class JointCommand:
    """What :meth:`Backend.write` receives: a plain slotted record, valid during the call.
    Treat it and its arrays as read-only and copy what you keep: they belong to the bridge,
    which writes the same record every tick (its ``values`` array refilled in place; ``mode``
    and ``hold`` arrays are replaced, never changed in place, so an identity check on them
    tells a change).

    Attributes:
        values: shape ``(3, n_joints)``: rows position (rad or m), velocity (rad/s or m/s),
            effort (N·m or N); columns the transmission map's ``joint_names``. A value is
            finite exactly on the interfaces of the joint's mode (NaN elsewhere).
        mode: shape ``(n_joints,)``, dtype :data:`MODE_DTYPE`: each joint's :class:`Mode`
            (``POSITION``: track ``values[0]``; ``POSITION_VELOCITY``: with ``values[1]`` as
            velocity feed-forward; ``VELOCITY``: track ``values[1]``; ``EFFORT``: apply
            ``values[2]``; ``NONE``: no command, see ``hold``).
        hold: shape ``(n_joints,)``: for joints in mode ``NONE``, the position they hold
            still at (rad or m: where the joint was when its command ended, or its reset
            position), decided by the bridge (:mod:`sdf_bridge.hardware.holds`); NaN = where
            it is. A backend that has no notion of holding (an actuator driver receives NaN
            for these joints) may ignore it.
    """

    values: np.ndarray
    mode: np.ndarray
    hold: np.ndarray


@dataclass(slots=True)
class JointSpaceState:
    """What :meth:`Backend.read` returns (made every tick: a plain slotted record; treat it
    as read-only).

    Attributes:
        joints: new array of shape ``(3, n_joints + n_followers)``: rows position (rad or m),
            velocity (rad/s or m/s) and effort (N·m or N), columns the transmission map's
            ``joint_names`` then ``follower_names`` (followers as
            :meth:`~sdf_bridge.transmissions.TransmissionMap.joint_state` computes them).
        actuators: the same rows in actuator space, columns ``actuator_names``: a new array
            of shape ``(3, n_actuators)``, or a sequence of three new (n_actuators,) arrays.
        sensors: sensor name → latest reading (only sensors with a new sample this cycle).
        sim_time: simulated time in s for simulating backends, else ``None``.
    """

    joints: np.ndarray
    actuators: np.ndarray | Sequence[np.ndarray]
    sensors: Mapping[str, SensorReading] = field(default_factory=dict)
    sim_time: float | None = None


@runtime_checkable
class Backend(Protocol):
    """The one port: a backend in joint space (a simulator, or an :class:`ActuatorDriver`
    behind :class:`~sdf_bridge.backends.actuator_port.ActuatorPort`).

    Optional, used when present (the hardware system exposes them, see
    :class:`~sdf_bridge.hardware.HardwareSystem`): ``set_sensor_demand(names: frozenset[str] |
    None)`` (only the named sensors' readings are wanted; ``None``: all, the default: a
    simulator may skip computing the others while nobody subscribes to them, as Gazebo's
    sensor plugins do); for simulators ``pause(flag)``, ``paused``, ``step(n)`` (physics
    steps), ``real_time_factor`` (simulated / wall time), ``base_state() -> BaseState | None``
    (the free-floating root link's ground truth, ``None`` on a fixed base; asked only when
    published, not every tick) and ``joint_inertia`` ((n_joints,) kg·m² or kg: the lightest
    effective inertia of each joint, for stability checks of the bridge's effort rules);
    the class attribute ``simulated_robot`` (:func:`is_simulated_robot`).
    """

    #: Marks a joint-space backend (the registry wraps every other backend class, an
    #: :class:`ActuatorDriver`, in :class:`~sdf_bridge.backends.actuator_port.ActuatorPort`).
    joint_space: ClassVar[bool]

    def configure(
        self, robot: Robot, *, transmissions: TransmissionMap, params: Mapping[str, Any]
    ) -> None:
        """Prepare for ``robot``: ``transmissions`` fixes the joint, follower and actuator order
        of every array; ``params`` are the backend's parameters (from config /
        ``<ros2_control><hardware>``; parameters the backend does not know belong to another
        plugin and are ignored).

        Raises:
            BackendError: the robot or parameters cannot be served.
            ConfigError: a parameter has a wrong value (named in the message).
        """

    def read(self, dt: float) -> JointSpaceState:
        """Advance by ``dt`` s (≥ 0; 0 = no time passes) where relevant and return the state."""

    def write(self, command: JointCommand, dt: float) -> None:
        """Apply ``command`` for the next ``dt`` s."""

    def reset(self) -> None:
        """Return to the initial state (initial values, zero velocity)."""

    def close(self) -> None:
        """Release resources; the backend is not used afterwards."""


def is_simulated_robot(backend: object) -> bool:
    """Whether ``backend`` (a :class:`Backend`, an :class:`ActuatorDriver` or a port) drives a
    simulated robot: its ``simulated_robot`` attribute is ``True`` (module doc; a backend that
    does not say so drives real actuators)."""
    return getattr(backend, "simulated_robot", False) is True


def reads_joint_wrenches(backend: object) -> bool:
    """Whether ``backend`` (a :class:`Backend`, an :class:`ActuatorDriver` or a port) reads the
    wrench of the joints asking for feedback: its ``reads_joint_wrenches`` attribute is
    ``True`` (module doc; absent = ``False``)."""
    return getattr(backend, "reads_joint_wrenches", False) is True


@dataclass(slots=True)
class ActuatorState:
    """What :meth:`ActuatorDriver.read` returns (made every tick: a plain slotted record, as a
    frozen dataclass is slower to build; treat it as read-only).

    Attributes:
        position, velocity, effort: shape (n_actuators,), SI units.
        sensors: sensor name → latest reading (only sensors with a new sample this cycle).
        sim_time: simulated time in s for simulating drivers, else ``None``.
    """

    position: np.ndarray
    velocity: np.ndarray
    effort: np.ndarray
    sensors: Mapping[str, SensorReading] = field(default_factory=dict)
    sim_time: float | None = None


@dataclass(slots=True)
class ActuatorCommand:
    """What :meth:`ActuatorDriver.write` receives (made every tick: a plain slotted record;
    treat it as read-only): shape (n_actuators,) each, ``NaN`` = not commanded.

    Attributes:
        position, velocity, effort: the commands (rad or m, rad/s or m/s, N·m or N).
        mode: shape (n_actuators,), dtype :data:`MODE_DTYPE`: per actuator the :class:`Mode`
            of the joints it drives when they agree (a differential's two joints both in
            velocity mode: ``VELOCITY``), else ``NONE`` (no command, or joints in different
            modes); empty = not given (``NONE`` everywhere).
        acceleration: optional (n_actuators,) acceleration commands (rad/s², m/s²), for
            drivers with ros2_control's acceleration interface (the bridge sends none).
    """

    position: np.ndarray
    velocity: np.ndarray
    effort: np.ndarray
    mode: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=MODE_DTYPE))
    acceleration: np.ndarray | None = None


@runtime_checkable
class ActuatorDriver(Protocol):
    """A driver in actuator space (motors behind the transmissions): the mock, or your own
    hardware. :class:`~sdf_bridge.backends.actuator_port.ActuatorPort` puts it behind the
    :class:`Backend` port. Register it through the ``sdf_bridge.backends`` entry-point group::

        [project.entry-points."sdf_bridge.backends"]
        my_driver = "my_pkg.driver:MyDriver"   # a class taking no arguments

    Optional, used when present: ``set_sensor_demand`` and the class attribute
    ``simulated_robot`` (as on :class:`Backend`; leave it out for real hardware).
    """

    def configure(
        self,
        robot: Robot,
        actuators: Sequence[str],
        *,
        transmissions: TransmissionMap,
        params: Mapping[str, Any],
    ) -> None:
        """Prepare for ``actuators`` (names, fixing array order) of ``robot``.

        Raises:
            BackendError: the robot or parameters cannot be served.
        """

    def read(self, dt: float) -> ActuatorState:
        """Advance by ``dt`` s (≥ 0; 0 = no time passes) where relevant and return the current
        actuator state."""

    def write(self, command: ActuatorCommand, dt: float) -> None:
        """Apply actuator commands for the next ``dt`` s."""

    def reset(self) -> None:
        """Return to the initial state (initial values, zero velocity)."""

    def close(self) -> None:
        """Release resources; the driver is not used afterwards."""
