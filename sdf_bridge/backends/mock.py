"""An ideal mock backend with the behaviour of ros2_control's ``mock_components/GenericSystem``.

Behaviour (parity with GenericSystem's ``read``, described in its user documentation
https://control.ros.org/rolling/doc/ros2_control/hardware_interface/doc/mock_components_userdoc.html;
written from that description, no code copied). Everything happens in actuator space, per actuator
``i``, when :meth:`MockBackend.read` is called with the command stored by the previous
:meth:`MockBackend.write` (GenericSystem mirrors commands to states in ``read``):

* ``calculate_dynamics`` false (default): ``position[i] = command.position[i] + offset``;
  velocity, acceleration and effort commands are copied to the states. ``NaN`` commands leave
  the state as it is.
* ``calculate_dynamics`` true, by the actuator's command mode (``ActuatorCommand.mode``, a
  :class:`~sdf_bridge.backends.base.Mode` per actuator; every mode but ``VELOCITY`` and
  ``ACCELERATION`` counts as position mode, GenericSystem's default):

  - position: ``p ← cmd_p + offset``; ``v ← (p − p_old)/dt``; ``a ← (v − v_old)/dt``
    (finite differences);
  - velocity: ``p ← p + v·dt + offset`` (backward Euler with the previous velocity, and — as in
    GenericSystem — the following offset added every cycle); then ``v ← cmd_v``,
    ``a ← (v − v_old)/dt``;
  - acceleration (``ActuatorCommand.acceleration``): ``p ← p + v·dt + offset``;
    ``v ← v + a·dt``; ``a ← cmd_a``.

  Effort commands are copied to the effort state (looped back). With ``dt ≤ 0`` the
  integration and finite differences are skipped (positions still mirror).
* ``position_state_following_offset`` (float, default 0): the ``offset`` above. With
  ``custom_interface_with_following_offset`` set, the position state gets no offset and
  ``custom_interface_values[name]`` holds ``cmd_p + offset`` instead.
* ``initial_value`` of the ``<ros2_control>`` joints' ``position``/``velocity``/``effort``
  state interfaces are joint-space values: they are converted to actuator space through the
  :class:`~sdf_bridge.transmissions.TransmissionMap` (joints without one start at the URDF/SDF
  ``initial_position`` if given, else 0).
* Joint properties changed at run time (:mod:`sdf_bridge.hardware.joint_properties`): the mock
  applies the stops (``lower``, ``upper``, :meth:`MockBackend.set_joint_properties`): a joint
  outside new stops is clamped into them at once, its velocity set to 0, as a stop would stop
  it (on every reset too); the limiter keeps commands inside them. It simulates no dynamics
  (damping, friction, springs, stop stiffness), so it has none of those properties.
* ``disable_commands`` (bool): a lost link — :meth:`MockBackend.read` keeps returning the frozen
  state and never mirrors commands (joint or sensor).
* Sensors: each ``<ros2_control>`` ``<sensor>`` has its state interfaces at their
  ``initial_value``; without one they read ``NaN`` (as GenericSystem), unless the description
  also has an ``imu`` / ``force_torque`` sensor of that name. Description sensors of type
  ``imu`` and ``force_torque`` read zeros (the mock simulates no physics: gravity-free, no
  load; IMU orientation not provided = ``NaN``) at their ``update_rate`` (every read when 0 or
  for ``<ros2_control>``-only sensors). With ``mock_sensor_commands`` true,
  :meth:`MockBackend.set_sensor_state` sets an interface; the value shows at the next
  :meth:`MockBackend.read`.
  Readings: IMU-like interface sets (``angular_velocity.*`` or ``linear_acceleration.*``, with
  optional ``orientation.*``) give :class:`ImuReading`, ``force.*``/``torque.*`` give
  :class:`WrenchReading`; any other sensor's values are available through
  :meth:`MockBackend.sensor_values`. Other description sensor types (camera, ray, …) give no
  readings.

Parameters come from ``configure(..., params=...)`` as bools/numbers or as the strings of a
``<ros2_control><hardware><param>`` (``"true"``/``"false"``, case-insensitive). Others (a real
driver's ``<hardware><param>``\\ s, a misspelt ``backend_params.*``) are ignored with one warning
listing them (:func:`~.parameter_names.warn_unknown`).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..errors import BackendError
from ..hardware.joint_properties import check_changes
from ..util.booleans import parse_bool
from .base import MODE_DTYPE, MODES, ActuatorCommand, ActuatorState, Mode
from .initial_values import initial_joint_values, parse_float
from .parameter_names import warn_unknown
from .sensor_readings import ImuReading, SensorReading, WrenchReading

if TYPE_CHECKING:  # pragma: no cover
    from ..description.model import Robot
    from ..transmissions import TransmissionMap

_LOG = logging.getLogger(__name__)

KNOWN_PARAMS = (
    "calculate_dynamics",
    "disable_commands",
    "mock_sensor_commands",
    "fake_sensor_commands",
    "mock_gpio_commands",
    "position_state_following_offset",
    "custom_interface_with_following_offset",
)

_IMU_INTERFACES = (
    "orientation.x",
    "orientation.y",
    "orientation.z",
    "orientation.w",
    "angular_velocity.x",
    "angular_velocity.y",
    "angular_velocity.z",
    "linear_acceleration.x",
    "linear_acceleration.y",
    "linear_acceleration.z",
)
_WRENCH_INTERFACES = ("force.x", "force.y", "force.z", "torque.x", "torque.y", "torque.z")

_VELOCITY, _ACCELERATION = int(Mode.VELOCITY), int(Mode.ACCELERATION)
_VALID_MODES = np.array([int(m) for m in MODES])


def _parse_bool(params: Mapping[str, Any], key: str) -> bool:
    value = params.get(key, False)
    parsed = parse_bool(value)
    if parsed is not None:
        return parsed
    raise BackendError(
        f"mock backend parameter {key!r} is {value!r}, not a boolean. Fix: write true or false."
    )


@dataclass
class _SensorSlot:
    """Mutable storage of one mock sensor: interface names, values, pending commands."""

    name: str
    kind: str  # "imu", "force_torque" or "generic"
    interfaces: tuple[str, ...]
    initial: np.ndarray
    values: np.ndarray
    commands: np.ndarray
    period: float  # s between samples; 0 = every read
    elapsed: float = 0.0

    def reading(self) -> SensorReading | None:
        """The typed reading for IMU / force-torque slots (missing interfaces read NaN)."""
        lookup = dict(zip(self.interfaces, self.values.tolist()))

        def vector(keys: tuple[str, ...]) -> tuple[float, float, float]:
            x, y, z = (lookup.get(k, math.nan) for k in keys)
            return (x, y, z)

        if self.kind == "imu":
            orientation: tuple[float, float, float, float] | None = None
            qx, qy, qz, qw = (lookup.get(k, math.nan) for k in _IMU_INTERFACES[:4])
            if not any(math.isnan(q) for q in (qx, qy, qz, qw)):
                orientation = (qx, qy, qz, qw)
            return ImuReading(
                orientation, vector(_IMU_INTERFACES[4:7]), vector(_IMU_INTERFACES[7:])
            )
        if self.kind == "force_torque":
            return WrenchReading(vector(_WRENCH_INTERFACES[:3]), vector(_WRENCH_INTERFACES[3:]))
        return None


def _sensor_kind(interfaces: Sequence[str]) -> str:
    # orientation alone is not an IMU (e.g. a pose sensor: position.* + orientation.*)
    quantities = {i.split(".")[0] for i in interfaces}
    if quantities & {"angular_velocity", "linear_acceleration"}:
        return "imu"
    if quantities & {"force", "torque"}:
        return "force_torque"
    return "generic"


class MockBackend:
    """Ideal actuators mirroring their commands (ros2_control GenericSystem parity; see module doc).

    The attributes are set by :meth:`configure`.

    Attributes:
        actuator_names: actuator order of every array (n_actuators,).
        calculate_dynamics, disable_commands, mock_sensor_commands: the parsed parameters.
        position_state_following_offset: offset (rad or m) added to mirrored positions.
        custom_interface_values: ``{custom_interface_with_following_offset: (n_actuators,)}``
            when that parameter is set, else empty.

    :attr:`acceleration` is the (n_actuators,) acceleration state (rad/s² or m/s²).
    """

    simulated_robot: ClassVar[bool] = True  # an ideal robot (backends.base.is_simulated_robot)
    #: the joint properties it applies at run time: the stops (module doc)
    joint_property_names: ClassVar[tuple[str, ...]] = ("lower", "upper")

    def __init__(self) -> None:
        self.actuator_names: tuple[str, ...] = ()
        self.calculate_dynamics = False
        self.disable_commands = False
        self.mock_sensor_commands = False
        self.position_state_following_offset = 0.0
        self.custom_interface_with_following_offset = ""
        self.custom_interface_values: dict[str, np.ndarray] = {}
        self._configured = False
        self._sensors: dict[str, _SensorSlot] = {}
        self._mode_cache: tuple[object, np.ndarray] | None = None

    # ------------------------------------------------------------------ configure
    def configure(
        self,
        robot: Robot,
        actuators: Sequence[str],
        *,
        transmissions: TransmissionMap,
        params: Mapping[str, Any],
    ) -> None:
        """Set up ``actuators`` of ``robot``: parameters, initial values, sensors.

        Raises:
            BackendError: a parameter is not a boolean/number, an actuator is not in
                ``transmissions``, or an ``initial_value`` is not a finite number.
        """
        warn_unknown(_LOG, "mock backend", params, KNOWN_PARAMS)
        self.calculate_dynamics = _parse_bool(params, "calculate_dynamics")
        self.disable_commands = _parse_bool(params, "disable_commands")
        if "mock_sensor_commands" in params:
            self.mock_sensor_commands = _parse_bool(params, "mock_sensor_commands")
        elif "fake_sensor_commands" in params:
            _LOG.warning(
                "mock backend: 'fake_sensor_commands' is deprecated; use 'mock_sensor_commands'"
            )
            self.mock_sensor_commands = _parse_bool(params, "fake_sensor_commands")
        else:
            self.mock_sensor_commands = False
        if _parse_bool(params, "mock_gpio_commands"):
            _LOG.warning(
                "mock backend: mock_gpio_commands is set, but GPIO interfaces are not "
                "simulated by sdf_bridge's mock; the parameter has no effect"
            )
        self.position_state_following_offset = 0.0
        self.custom_interface_with_following_offset = ""
        if "position_state_following_offset" in params:
            self.position_state_following_offset = parse_float(
                params["position_state_following_offset"],
                "mock backend parameter 'position_state_following_offset'",
            )
            self.custom_interface_with_following_offset = str(
                params.get("custom_interface_with_following_offset", "") or ""
            )

        self.actuator_names = tuple(actuators)
        map_actuators = list(transmissions.actuator_names)
        index = {name: i for i, name in enumerate(map_actuators)}  # (a list search is O(n²))
        missing = [a for a in self.actuator_names if a not in index]
        if missing:
            raise BackendError(
                f"mock backend: actuators {missing} are not in the robot's transmissions "
                f"(known: {map_actuators}). Fix: configure with TransmissionMap.actuator_names."
            )
        self._order = np.array([index[a] for a in self.actuator_names], dtype=np.intp)
        self._tm = transmissions
        n_joints = len(transmissions.joint_names)
        #: joint-space stops set at run time (set_joint_properties), transmission-map order
        self._stops = np.stack([np.full(n_joints, -np.inf), np.full(n_joints, np.inf)])
        self._stopped = False  # whether any stop was set
        self._initial = self._initial_actuator_state(robot, transmissions)
        n = len(self.actuator_names)
        self._nan = np.full(n, np.nan)
        self.custom_interface_values = {}
        if self.custom_interface_with_following_offset:
            self.custom_interface_values[self.custom_interface_with_following_offset] = np.full(
                n, np.nan
            )
        self._sensors = self._build_sensors(robot)
        self._configured = True
        self.reset()

    def _initial_actuator_state(
        self, robot: Robot, transmissions: TransmissionMap
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        values = initial_joint_values(robot)
        position, velocity, effort = (
            np.array([values[interface].get(name, 0.0) for name in transmissions.joint_names])
            for interface in ("position", "velocity", "effort")
        )
        act_p, act_v, act_e = transmissions.joint_to_actuator(position, velocity, effort)
        return (
            np.asarray(act_p, dtype=float)[self._order].copy(),
            np.asarray(act_v, dtype=float)[self._order].copy(),
            np.asarray(act_e, dtype=float)[self._order].copy(),
        )

    def _build_sensors(self, robot: Robot) -> dict[str, _SensorSlot]:
        described = {s.name: s for s in robot.sensors}
        slots: dict[str, _SensorSlot] = {}
        for block in robot.ros2_control:
            for info in block.sensors:
                names = tuple(i.name for i in info.state_interfaces)
                kind = _sensor_kind(names)
                sensor = described.get(info.name)
                # a sensor also in the description (same name) reads like one: zeros
                # (orientation not provided); otherwise NaN as GenericSystem
                default = (
                    0.0 if sensor is not None and sensor.type in ("imu", "force_torque") else np.nan
                )
                initial = np.array(
                    [np.nan if name.startswith("orientation.") else default for name in names],
                    dtype=float,
                )
                for k, interface in enumerate(info.state_interfaces):
                    if interface.initial_value not in (None, ""):
                        initial[k] = parse_float(
                            interface.initial_value,
                            f"<ros2_control name={block.name!r}> sensor {info.name!r} state "
                            f"interface {interface.name!r} initial_value",
                        )
                period = (
                    1.0 / sensor.update_rate
                    if sensor is not None and sensor.update_rate > 0
                    else 0.0
                )
                slots[info.name] = _SensorSlot(
                    info.name,
                    kind,
                    names,
                    initial,
                    initial.copy(),
                    np.full(len(names), np.nan),
                    period,
                )
        for sensor in robot.sensors:
            if sensor.name in slots:
                continue
            if sensor.type == "imu":
                names, kind = _IMU_INTERFACES, "imu"
                initial = np.array([np.nan] * 4 + [0.0] * 6)
            elif sensor.type == "force_torque":
                names, kind = _WRENCH_INTERFACES, "force_torque"
                initial = np.zeros(6)
            else:
                _LOG.info(
                    "mock backend gives no readings for sensor %r of type %r "
                    "(only imu and force_torque); use a simulating backend for it",
                    sensor.name,
                    sensor.type,
                )
                continue
            period = 1.0 / sensor.update_rate if sensor.update_rate > 0 else 0.0
            slots[sensor.name] = _SensorSlot(
                sensor.name,
                kind,
                names,
                initial,
                initial.copy(),
                np.full(len(names), np.nan),
                period,
            )
        return slots

    # ------------------------------------------------------------------ cycle
    def _require_configured(self) -> None:
        if not self._configured:
            raise BackendError("mock backend used before configure(). Fix: call configure() first.")

    def read(self, dt: float) -> ActuatorState:
        """Mirror the last written command into the state (module doc) and return it.

        Returns:
            :class:`ActuatorState` with copies of the (n_actuators,) arrays and the sensors
            due this cycle; ``sim_time`` is ``None`` (the mock is not a simulator).
        """
        self._require_configured()
        if not self.disable_commands:
            self._mirror(dt)
        sensors = self._sample_sensors(dt)
        return ActuatorState(self._pos.copy(), self._vel.copy(), self._eff.copy(), sensors, None)

    def _mirror(self, dt: float) -> None:
        # vectorised with np.where / np.copyto(where=): no boolean fancy indexing (hot path)
        cmd_p, cmd_v, cmd_e, cmd_a = self._cmd_p, self._cmd_v, self._cmd_e, self._cmd_a
        custom = self.custom_interface_with_following_offset
        offset = 0.0 if custom else self.position_state_following_offset
        nan = self._nan
        has_p = cmd_p == cmd_p  # not NaN
        if not self.calculate_dynamics:
            np.copyto(self._pos, cmd_p + offset, where=has_p)
            if cmd_v is not nan:
                np.copyto(self._vel, cmd_v, where=cmd_v == cmd_v)
            if cmd_a is not nan:
                np.copyto(self._acc, cmd_a, where=cmd_a == cmd_a)
        elif not self._any_integrating:  # every actuator in position mode: the common case
            p, v = self._pos, self._vel
            new_p = np.where(has_p, cmd_p + offset, p)
            if dt > 0:
                fd_v = np.subtract(new_p, p)  # 0 where no command
                fd_v /= dt
                acc = np.subtract(fd_v, v)
                acc /= dt
                self._vel = np.where(has_p, fd_v, v)
                self._acc = np.where(has_p, acc, self._acc)
            self._pos = new_p
        else:
            p, v, a = self._pos, self._vel, self._acc
            modes = self._modes
            vel_mode = modes == _VELOCITY
            acc_mode = modes == _ACCELERATION
            pos_mode = ~(vel_mode | acc_mode) & has_p
            step = dt > 0
            if step and self._any_integrating:
                new_p = np.where(vel_mode | acc_mode, p + v * dt + offset, p)
                new_v = np.where(acc_mode, v + a * dt, v)
            else:
                new_p, new_v = p.copy(), v.copy()
            new_a = np.where(acc_mode & ~np.isnan(cmd_a), cmd_a, a)
            has_v = vel_mode & ~np.isnan(cmd_v)
            new_v = np.where(has_v, cmd_v, new_v)
            if step:
                new_a = np.where(has_v, (new_v - v) / dt, new_a)
            new_p = np.where(pos_mode, cmd_p + offset, new_p)
            if step:
                fd_v = (new_p - p) / dt
                new_v = np.where(pos_mode, fd_v, new_v)
                new_a = np.where(pos_mode, (fd_v - v) / dt, new_a)
            self._pos, self._vel, self._acc = new_p, new_v, new_a
        if cmd_e is not nan:
            np.copyto(self._eff, cmd_e, where=cmd_e == cmd_e)
        if custom:
            np.copyto(
                self.custom_interface_values[custom],
                cmd_p + self.position_state_following_offset,
                where=has_p,
            )
        if self.mock_sensor_commands:
            for slot in self._sensors.values():
                np.copyto(slot.values, slot.commands, where=~np.isnan(slot.commands))

    def _sample_sensors(self, dt: float) -> dict[str, SensorReading]:
        readings: dict[str, SensorReading] = {}
        for slot in self._sensors.values():
            if slot.period > 0:
                if slot.elapsed == math.inf:
                    slot.elapsed = 0.0
                else:
                    slot.elapsed += max(dt, 0.0)
                    if slot.elapsed + 1e-12 < slot.period:
                        continue
                    slot.elapsed -= slot.period
                    if slot.elapsed >= slot.period:  # reads slower than the rate: no bursts
                        slot.elapsed = 0.0
            reading = slot.reading()
            if reading is not None:
                readings[slot.name] = reading
        return readings

    def write(self, command: ActuatorCommand, dt: float) -> None:
        """Store ``command`` (each array (n_actuators,), NaN = none); applied at the next read.

        Raises:
            BackendError: an array does not have shape (n_actuators,).
        """
        self._require_configured()
        n = len(self.actuator_names)
        arrays = [command.position, command.velocity, command.effort]
        acceleration = command.acceleration
        if acceleration is not None:
            arrays.append(acceleration)
        for array in arrays:
            shape = getattr(array, "shape", None)  # (np.shape is slower on an ndarray)
            if (np.shape(array) if shape is None else shape) != (n,):
                raise BackendError(
                    f"mock backend: command array of shape {np.shape(array)} for {n} actuators. "
                    "Fix: send arrays in actuator_names order."
                )
        self._cmd_p = np.asarray(command.position, dtype=float)
        self._cmd_v = np.asarray(command.velocity, dtype=float)
        self._cmd_e = np.asarray(command.effort, dtype=float)
        self._cmd_a = self._nan if acceleration is None else np.asarray(acceleration, dtype=float)
        self._modes = self._mode_codes(command.mode)

    def _mode_codes(self, mode: np.ndarray) -> np.ndarray:
        """``mode`` checked: (n_actuators,) :class:`Mode` values (empty: ``NONE`` for all);
        cached by identity (the bridge's actuator port passes the same array while the modes
        do not change).

        Raises:
            BackendError: another length, or a value that is not a mode.
        """
        cache = self._mode_cache
        if cache is not None and cache[0] is mode:
            return cache[1]
        n = len(self.actuator_names)
        codes = np.asarray(mode)
        if codes.size == 0:
            codes = np.zeros(n, dtype=MODE_DTYPE)
        elif codes.shape != (n,):
            raise BackendError(f"mock backend: {codes.size} command modes for {n} actuators")
        elif not np.isin(codes, _VALID_MODES).all():
            bad = sorted({int(c) for c in codes if int(c) not in _VALID_MODES})
            raise BackendError(
                f"mock backend: command mode value(s) {bad} are not modes. "
                "Fix: use sdf_bridge.backends.base.Mode values."
            )
        self._mode_cache = (mode, codes)
        self._any_integrating = bool(np.any((codes == _VELOCITY) | (codes == _ACCELERATION)))
        return codes

    # ------------------------------------------------------------------ joint properties
    def joint_properties(self) -> dict[str, dict[str, float]]:
        """The mock's own joint properties: none (it simulates no dynamics; the stops and
        limits are the limiter's)."""
        return {}

    def set_joint_properties(self, changes: Mapping[str, Mapping[str, float]]) -> list[str]:
        """Set joint stops (joint → ``{"lower": rad or m, "upper": …}``, joint space; ∓inf:
        none), all or none: a joint now outside its stops is clamped into them and stopped
        (velocity 0), as a stop would (module doc).

        Returns:
            No notes (an empty list).

        Raises:
            JointPropertyError: an unknown joint, another property, or ``lower ≥ upper``
                (:func:`~sdf_bridge.hardware.joint_properties.check_changes`; nothing changed).
            BackendError: before configure, or configured for some actuators of the map only
                (the joints of the others are unknown).
        """
        self._require_configured()
        names = list(self._tm.joint_names)
        index = {name: k for k, name in enumerate(names)}
        lo, hi = self._stops
        current = {name: {"lower": lo[k], "upper": hi[k]} for name, k in index.items()}
        checked = check_changes(current, changes, self.joint_property_names)
        if len(self._order) != len(self._tm.actuator_names):
            raise BackendError(
                "mock backend: joint stops need every actuator of the transmissions, but it "
                f"drives {len(self._order)} of {len(self._tm.actuator_names)}. Fix: configure "
                "it with TransmissionMap.actuator_names."
            )
        for joint, values in checked.items():
            k = index[joint]
            lo[k], hi[k] = values["lower"], values["upper"]
        self._stopped = bool(np.isfinite(self._stops).any())
        self._confine()
        return []

    def _confine(self) -> None:
        """Clamp the joints outside the run-time stops into them, their velocity 0 (through
        the transmissions; only the actuators of those joints change), and drop the position
        and velocity commands stored for those actuators."""
        if not self._stopped:
            return
        tm = self._tm
        n = len(tm.actuator_names)
        full = [np.zeros(n), np.zeros(n), np.zeros(n)]
        for row, state in zip(full, (self._pos, self._vel, self._eff)):
            row[self._order] = state
        q, v, e = tm.actuator_to_joint(*full)
        clamped = np.clip(q, self._stops[0], self._stops[1])
        moved = (clamped != q) & ~np.isnan(q)  # (NaN: unknown, left alone)
        if not moved.any():
            return
        ap, av, _ = tm.joint_to_actuator(clamped, np.where(moved, 0.0, v), e)
        actuators, joints = tm.dependency.nonzero()
        touched = np.zeros(n, dtype=bool)
        touched[np.asarray(actuators)[moved[np.asarray(joints)]]] = True
        mine = touched[self._order]
        self._pos = np.where(mine, np.asarray(ap)[self._order], self._pos)
        self._vel = np.where(mine, np.asarray(av)[self._order], self._vel)
        # the command stored for the next read no longer moves them (the next write's,
        # limited to the new stops, does)
        self._cmd_p = np.where(mine, np.nan, self._cmd_p)
        self._cmd_v = np.where(mine, np.nan, self._cmd_v)

    # ------------------------------------------------------------------ extras
    def set_sensor_state(self, sensor: str, interface: str, value: float) -> None:
        """Set a mock sensor's state interface (mock_sensor_commands); shows at the next read.

        ``value`` NaN = no change.

        Raises:
            BackendError: ``mock_sensor_commands`` is not enabled, or the sensor or interface is
                unknown (the message lists the known ones).
        """
        self._require_configured()
        if not self.mock_sensor_commands:
            raise BackendError(
                "mock backend: sensor commands are disabled. "
                "Fix: set the backend parameter mock_sensor_commands to true."
            )
        slot = self._sensors.get(sensor)
        if slot is None:
            raise BackendError(
                f"mock backend: no sensor {sensor!r}. Fix: use one of {sorted(self._sensors)}."
            )
        if interface not in slot.interfaces:
            raise BackendError(
                f"mock backend: sensor {sensor!r} has no interface {interface!r}. "
                f"Fix: use one of {list(slot.interfaces)}."
            )
        slot.commands[slot.interfaces.index(interface)] = float(value)

    def sensor_values(self, sensor: str) -> dict[str, float]:
        """Current state interface values of a mock sensor (interface name → value).

        Raises:
            BackendError: unknown sensor.
        """
        self._require_configured()
        slot = self._sensors.get(sensor)
        if slot is None:
            raise BackendError(
                f"mock backend: no sensor {sensor!r}. Fix: use one of {sorted(self._sensors)}."
            )
        return dict(zip(slot.interfaces, slot.values.tolist()))

    @property
    def sensor_names(self) -> tuple[str, ...]:
        """Names of the sensors the mock serves."""
        return tuple(self._sensors)

    @property
    def acceleration(self) -> np.ndarray:
        """Acceleration state (n_actuators,) in rad/s² or m/s² (a copy)."""
        return self._acc.copy()

    def reset(self) -> None:
        """Back to the initial values: initial state, no commands, sensors at initial values."""
        self._require_configured()
        p, v, e = self._initial
        self._pos, self._vel, self._eff = p.copy(), v.copy(), e.copy()
        self._acc = np.zeros(len(self.actuator_names))
        self._cmd_p = self._cmd_v = self._cmd_e = self._cmd_a = self._nan
        self._modes = np.zeros(len(self.actuator_names), dtype=MODE_DTYPE)
        self._any_integrating = False
        self._mode_cache = None
        for values in self.custom_interface_values.values():
            values[:] = np.nan
        for slot in self._sensors.values():
            slot.values[:] = slot.initial
            slot.commands[:] = np.nan
            slot.elapsed = math.inf  # the first read samples every sensor
        self._confine()  # (the initial state may lie outside stops set at run time)

    def close(self) -> None:
        """Nothing to release; further use raises :class:`BackendError`."""
        self._configured = False
