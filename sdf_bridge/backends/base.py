"""The backend protocol: what stands behind the bridge's interfaces, in actuator space.

A backend is ROS-free. The bridge calls, once per control tick (ros2_control's cyclic
read → update → write, with the loop's sleep placed before the write: see
:mod:`sdf_bridge.hardware.system`)::

    backend.write(commands, dt)   # actuator-space commands, held for the next dt s
    state = backend.read(dt)      # advance by dt where relevant; actuator-space state + sensors
    ...                           # the bridge publishes state; transmissions, limits, watchdog
                                  # (sdf_bridge.hardware) turn the next commands into actuator space

Before its first write (and after :meth:`Backend.reset`) the bridge calls ``read(0.0)`` once to
learn the state without advancing time: backends must accept ``dt = 0``.

Arrays have shape ``(n_actuators,)`` in the order of ``actuator_names`` given to
:meth:`Backend.configure`, SI units (rad, m, rad/s, m/s, N·m, N). In commands, ``NaN`` means
"no command on this interface for this actuator".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, Union, runtime_checkable

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ..description.model import Robot
    from ..transmissions import TransmissionMap

Quaternion = tuple[float, float, float, float]
Vector3 = tuple[float, float, float]


@dataclass(frozen=True)
class ImuReading:
    """IMU sample in the sensor's link frame: ``orientation`` quaternion (x, y, z, w) of the link
    relative to the world (``None`` if not provided), ``angular_velocity`` rad/s,
    ``linear_acceleration`` m/s² (specific force: reads +9.81 up at rest);
    ``angular_velocity_variance`` (rad/s)² and ``linear_acceleration_variance`` (m/s²)² per axis
    (the diagonal of the ROS covariance), ``None`` when unknown."""

    orientation: Quaternion | None
    angular_velocity: Vector3
    linear_acceleration: Vector3
    angular_velocity_variance: Vector3 | None = None
    linear_acceleration_variance: Vector3 | None = None


@dataclass(frozen=True)
class WrenchReading:
    """Force (N) and torque (N·m) in the sensor frame."""

    force: Vector3
    torque: Vector3


@dataclass(frozen=True)
class ScanReading:
    """Planar scan (sensor_msgs/LaserScan semantics): angles rad, ranges m (``inf`` = no hit)."""

    angle_min: float
    angle_max: float
    angle_increment: float
    range_min: float
    range_max: float
    ranges: np.ndarray
    intensities: np.ndarray | None = None
    scan_time: float = 0.0


@dataclass(frozen=True)
class PointCloudReading:
    """Multi-layer lidar: points (N, 3) in m in the sensor frame."""

    points: np.ndarray


@dataclass(frozen=True)
class ImageReading:
    """Camera image: ``data`` uint8 (height, width, 3) for ``rgb8`` or float32 (height, width)
    metres for ``32FC1`` depth; intrinsics ``fx, fy, cx, cy`` in pixels."""

    encoding: str
    data: np.ndarray
    fx: float
    fy: float
    cx: float
    cy: float


@dataclass(frozen=True)
class RangeReading:
    """Single range (sensor_msgs/Range semantics), m."""

    range: float
    min_range: float
    max_range: float
    field_of_view: float


@dataclass(frozen=True)
class Contact:
    """One contact point of a contact sensor, in the frame of its :class:`ContactReading`
    (the sensor's link unless the sensor overrides its frame).

    Attributes:
        body1: the sensor link's collision that touches (backend-specific name; MuJoCo:
            the geom name, e.g. ``box::collision::box_col``, or its body's name when unnamed).
        body2: what it touches (another link's collision, or ``ground_plane``).
        position: contact point, m, shape (3,).
        normal: unit vector, shape (3,), pointing from ``body1`` (the sensor's link) towards
            ``body2``: out of the sensor's link.
        force: force exerted by ``body2`` on ``body1`` (on the sensor's link), N, shape (3,)
            (normal and friction parts; a pushing contact has ``force · normal < 0``). A box
            of mass m resting on the ground reads contacts whose forces sum to m·g upwards.
    """

    body1: str
    body2: str
    position: Vector3
    normal: Vector3
    force: Vector3


@dataclass(frozen=True)
class ContactReading:
    """All current contacts of a contact sensor (each :class:`Contact` with ``body1`` the
    sensor link's collision); empty when nothing touches.

    Attributes:
        contacts: the contacts, in frame ``frame``.
        frame: the frame they are expressed in (the frame_id of their ROS message): the
            sensor's link, or its frame override (e.g. ``world``, as Gazebo's bumper
            ``frameName``); ``""`` = the sensor's ROS frame.
    """

    contacts: tuple[Contact, ...] = ()
    frame: str = ""


SensorReading = Union[
    ImuReading, WrenchReading, ScanReading, PointCloudReading, ImageReading, RangeReading, ContactReading
]


@dataclass(frozen=True)
class ActuatorState:
    """What :meth:`Backend.read` returns.

    Attributes:
        position, velocity, effort: shape (n_actuators,), SI units.
        sensors: sensor name → latest reading (only sensors with a new sample this cycle).
        sim_time: simulated time in s for simulating backends, else ``None``.
    """

    position: np.ndarray
    velocity: np.ndarray
    effort: np.ndarray
    sensors: Mapping[str, SensorReading] = field(default_factory=dict)
    sim_time: float | None = None


@dataclass(frozen=True)
class ActuatorCommand:
    """What :meth:`Backend.write` receives: shape (n_actuators,) each, ``NaN`` = not commanded.

    ``mode`` holds per actuator the active command interface: ``"position"``, ``"velocity"``,
    ``"effort"`` or ``""`` (none active, hold).
    """

    position: np.ndarray
    velocity: np.ndarray
    effort: np.ndarray
    mode: tuple[str, ...] = ()


@dataclass(slots=True)
class JointSpaceState:
    """What :meth:`JointSpaceBackend.read_joints` returns (made every tick: a plain slotted
    record, as a frozen dataclass costs ~1.5 µs more to build; treat it as read-only).

    Attributes:
        joints: new array of shape ``(3, n_joints + n_followers)``: rows position (rad or m),
            velocity (rad/s or m/s) and effort (N·m or N), columns the transmission map's
            ``joint_names`` then ``follower_names`` (followers as
            :meth:`~sdf_bridge.transmissions.TransmissionMap.joint_state` computes them).
        actuators: new array of shape ``(3, n_actuators)``, the same rows in actuator space,
            columns ``actuator_names`` (``joint_to_actuator`` of the joints).
        sensors, sim_time: as in :class:`ActuatorState`.
    """

    joints: np.ndarray
    actuators: np.ndarray
    sensors: Mapping[str, SensorReading] = field(default_factory=dict)
    sim_time: float | None = None


@runtime_checkable
class Backend(Protocol):
    """A hardware backend (mock, simulation or a real driver), in actuator space.

    Register your own through the ``sdf_bridge.backends`` entry-point group::

        [project.entry-points."sdf_bridge.backends"]
        my_driver = "my_pkg.driver:MyBackend"   # a class taking no arguments

    Optional, used when present: ``set_sensor_demand(names: frozenset[str] | None)`` — only
    the named sensors' readings are wanted (``None``: all, the default); a simulator may skip
    computing the others (ray casting, rendering) while nobody subscribes to them, as
    Gazebo's sensor plugins do. The bridge node calls it from its subscriber counts.
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

        ``transmissions`` maps actuator ↔ joint space (simulators need joint space);
        ``params`` are the backend's parameters (from config / ``<ros2_control>``).

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
        """Release resources; the backend is not used afterwards."""


@runtime_checkable
class JointSpaceBackend(Backend, Protocol):
    """A backend that simulates the joints themselves (MuJoCo) and works in joint space.

    The bridge then calls :meth:`write_joints` and :meth:`read_joints` instead of ``write``
    and ``read`` in its ticks (``write`` is still used for the e-stop hold: the actuator
    positions of the last read, position mode), so that the backend can fuse the
    transmission mapping with its own
    per-cycle work (one compiled call each way) instead of converting actuator → joint on
    every write and joint → actuator on every read. The two paths must be interchangeable
    from one tick to the next: :meth:`write_joints` behaves as ``write`` of
    ``joint_to_actuator(*commands)``, :meth:`read_joints` returns what
    ``read`` would, mapped to joint space. :class:`~sdf_bridge.transmissions.TransmissionMap`
    has both halves: :meth:`~sdf_bridge.transmissions.TransmissionMap.through_actuators` and
    :meth:`~sdf_bridge.transmissions.TransmissionMap.joint_state`.
    """

    def write_joints(self, commands: np.ndarray, dt: float) -> None:
        """Apply the (limited) joint commands ``commands``, shape ``(3, n_joints)``: rows
        position, velocity, effort, columns the map's ``joint_names`` (NaN = not commanded),
        for the next ``dt`` s, as the actuators would carry them: a joint is commanded on an
        interface only when every actuator it shares (a differential, a four-bar) is
        (:meth:`~sdf_bridge.transmissions.TransmissionMap.through_actuators`)."""

    def read_joints(self, dt: float) -> JointSpaceState:
        """Advance by ``dt`` s (≥ 0; 0 = no time passes) and return the joint and actuator
        state."""
