"""``ActuatorPort``: an actuator-space driver behind the bridge's joint-space backend port.

A motor driver works in actuator space: it knows motor positions, velocities and torques, not
the joints behind gears, differentials and four-bar linkages. Write it as an
:class:`~sdf_bridge.backends.base.ActuatorDriver` and the port gives it the transmissions: each
tick the joint command (:class:`~sdf_bridge.backends.base.JointCommand`) goes through
``TransmissionMap.joint_to_actuator`` and each read through ``actuator_to_joint`` (mimic and
gearbox followers included); this module is the only place that maps commands to actuator space
and derives the actuators' modes. The registry wraps every backend class that is not a
joint-space :class:`~sdf_bridge.backends.base.Backend` (``joint_space = True``) in a port, so a
driver registered under ``sdf_bridge.backends`` is used as it is.

The contract, for a driver of ``n`` actuators (the ``actuators`` given to ``configure``, which
fix the order of every array; SI units: rad, m, rad/s, m/s, N·m, N):

* ``configure(robot, actuators, *, transmissions, params)``: prepare; ``params`` are the
  backend parameters (``backend_params.*`` and the ``<ros2_control><hardware><param>``\\ s, as
  strings; ignore the ones that are not yours). Raise
  :class:`~sdf_bridge.errors.BackendError` when the robot cannot be served.
* ``write(command, dt)``: an :class:`~sdf_bridge.backends.base.ActuatorCommand` — position,
  velocity, effort, each (n,), NaN = no command on that interface (hold as your hardware
  does); ``mode`` (n,) :class:`~sdf_bridge.backends.base.Mode` per actuator (``NONE``: no
  command, or the joints it drives are in different modes). Commands are already limited (joint
  limits, soft limits, watchdog, e-stop) by the bridge.
* ``read(dt)`` → :class:`~sdf_bridge.backends.base.ActuatorState`: the state after ``dt`` s
  (``dt = 0``: now, without advancing), each array (n,) and new on every call, plus sensor
  readings (``sensors``) and, for a simulator, ``sim_time``.
* ``reset()``: back to the initial state; ``close()``: release the hardware.
* optional ``set_sensor_demand(names)``: only these sensors are wanted (``None``: all).
* optional joint properties changed at run time, in joint space (the mock's stops): the class
  attribute ``joint_property_names``, ``joint_properties()`` and
  ``set_joint_properties(changes)`` (:mod:`sdf_bridge.hardware.joint_properties`).
* optional class attribute ``simulated_robot = True``: the driver simulates its robot (as the
  mock does) rather than driving motors; the bridge then drives the joints of a transmission
  of unknown type directly (identity actuators) instead of refusing the robot
  (:func:`~sdf_bridge.backends.base.is_simulated_robot`). Leave it out for real hardware.

A template (a dozen lines; ``doc/user/extending.md`` shows the same driver registered as a
plug-in)::

    import numpy as np
    from sdf_bridge.backends.base import ActuatorState

    class EchoDriver:
        \"\"\"Motors that reach every position command at once.\"\"\"

        def configure(self, robot, actuators, *, transmissions, params):
            self.position = np.zeros(len(actuators))

        def write(self, command, dt):
            np.copyto(self.position, command.position, where=~np.isnan(command.position))

        def read(self, dt):
            zero = np.zeros_like(self.position)
            return ActuatorState(self.position.copy(), zero, zero.copy())

        def reset(self):
            self.position[:] = 0.0

        def close(self):
            pass
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..errors import BackendError
from .base import (
    MODE_DTYPE,
    ActuatorCommand,
    ActuatorDriver,
    JointCommand,
    JointSpaceState,
    is_simulated_robot,
    reads_joint_wrenches,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..description.model import Robot
    from ..transmissions import TransmissionMap


class ActuatorModes:
    """Each actuator's mode from its joints' modes: the mode its commanded joints share, or
    ``NONE`` when they differ or none is commanded (joints in mode ``NONE`` do not count: a
    coupled partner with no command follows the commanded one). Built once from the
    dependency's non-zero entries; each call is O(non-zeros) (no (n_actuators, n_joints)
    array: a chain of 10,000 joints has 10,000 non-zeros, not 10^8 entries).

    Args:
        dependency: (n_actuators, n_joints) bool, which joints each actuator's command
            depends on (:attr:`TransmissionMap.dependency
            <sdf_bridge.transmissions.TransmissionMap.dependency>`; anything with ``.shape``
            and ``.nonzero()``, such as a sparse matrix).
    """

    def __init__(self, dependency: np.ndarray) -> None:
        actuators, joints = dependency.nonzero()
        self._actuators = np.asarray(actuators, dtype=np.intp)
        self._joints = np.asarray(joints, dtype=np.intp)
        self.n_actuators = int(dependency.shape[0])

    def __call__(self, joint_mode: np.ndarray) -> np.ndarray:
        """(n_actuators,) modes, dtype :data:`~sdf_bridge.backends.base.MODE_DTYPE`, for the
        (n_joints,) ``joint_mode``."""
        mode = joint_mode.astype(np.int16)[self._joints]
        commanded = mode != 0
        actuators, mode = self._actuators[commanded], mode[commanded]
        low = np.full(self.n_actuators, 99, dtype=np.int16)
        high = np.full(self.n_actuators, -1, dtype=np.int16)
        np.minimum.at(low, actuators, mode)
        np.maximum.at(high, actuators, mode)
        return np.where(low == high, low, 0).astype(MODE_DTYPE)


def actuator_modes(dependency: np.ndarray, joint_mode: np.ndarray) -> np.ndarray:
    """:class:`ActuatorModes` of ``dependency`` for ``joint_mode``, once.

    Returns:
        (n_actuators,) modes, dtype :data:`~sdf_bridge.backends.base.MODE_DTYPE`.
    """
    return ActuatorModes(dependency)(joint_mode)


class ActuatorPort:
    """The joint-space :class:`~sdf_bridge.backends.base.Backend` port of an actuator-space
    ``driver`` (module doc).

    Args:
        driver: an unconfigured :class:`~sdf_bridge.backends.base.ActuatorDriver`.

    Attributes:
        driver: the driver (its own extras, e.g. the mock's ``set_sensor_state``, are there).
        name: the driver's class name (for messages).
        simulated_robot: the driver's
            (:func:`~sdf_bridge.backends.base.is_simulated_robot`: ``False`` unless it says so).
        reads_joint_wrenches: the driver's
            (:func:`~sdf_bridge.backends.base.reads_joint_wrenches`: ``False`` unless it says so).
        set_sensor_demand: the driver's, when it has one (else absent).
        joint_property_names, joint_properties, set_joint_properties: the driver's, when it
            has ``set_joint_properties`` (else absent).
    """

    joint_space: ClassVar[bool] = True

    def __init__(self, driver: ActuatorDriver) -> None:
        self.driver = driver
        self.name = type(driver).__name__
        self.simulated_robot = is_simulated_robot(driver)
        self.reads_joint_wrenches = reads_joint_wrenches(driver)
        demand = getattr(driver, "set_sensor_demand", None)
        if callable(demand):
            self.set_sensor_demand = demand
        setter = getattr(driver, "set_joint_properties", None)
        if callable(setter):  # joint properties (module doc), in joint space already
            self.joint_property_names = tuple(getattr(driver, "joint_property_names", ()))
            self.joint_properties = getattr(driver, "joint_properties", dict)
            self.set_joint_properties = setter

    def configure(
        self, robot: Robot, *, transmissions: TransmissionMap, params: Mapping[str, Any]
    ) -> None:
        """Configure the driver for every actuator of ``transmissions`` (their order).

        Raises:
            BackendError, ConfigError: from the driver.
        """
        self.tm = transmissions
        self.actuator_names = tuple(transmissions.actuator_names)
        self.driver.configure(
            robot, self.actuator_names, transmissions=transmissions, params=params
        )
        self._actuator_modes = ActuatorModes(transmissions.dependency)
        self._shape = (len(self.actuator_names),)
        self._followers = len(transmissions.follower_names) > 0
        self._modes: tuple[object, np.ndarray] | None = None  # (joint mode array, actuator modes)

    def write(self, command: JointCommand, dt: float) -> None:
        """Map ``command`` to actuator space (``joint_to_actuator``; a joint in mode ``NONE``
        is not commanded: NaN) and write it to the driver, with each actuator's mode
        (:class:`ActuatorModes`, recomputed only when the joint modes change)."""
        values = command.values
        ap, av, ae = self.tm.joint_to_actuator(values[0], values[1], values[2])
        cached = self._modes
        if cached is None or cached[0] is not command.mode:
            cached = self._modes = (command.mode, self._actuator_modes(command.mode))
        self.driver.write(ActuatorCommand(ap, av, ae, cached[1]), dt)

    def read(self, dt: float) -> JointSpaceState:
        """Read the driver and map its state to joint space (followers appended).

        Raises:
            BackendError: from the driver, or state arrays that are not (n_actuators,).
        """
        state = self.driver.read(dt)
        ap, av, ae = state.position, state.velocity, state.effort
        shape = self._shape
        if (
            getattr(ap, "shape", None) != shape
            or getattr(av, "shape", None) != shape
            or getattr(ae, "shape", None) != shape
        ):
            raise BackendError(
                f"backend {self.name!r} returned state arrays of shapes {np.shape(ap)}, "
                f"{np.shape(av)}, {np.shape(ae)} for {shape[0]} actuators "
                f"{list(self.actuator_names)}. Fix: the backend must return one value per "
                "configured actuator."
            )
        if self._followers:  # one call, one array for joints and followers
            joints = self.tm.actuator_to_joint_with_followers(ap, av, ae)
        else:
            joints = self.tm.actuator_to_joint_stacked(ap, av, ae)
        return JointSpaceState(joints, (ap, av, ae), state.sensors, state.sim_time)

    def reset(self) -> None:
        """Reset the driver."""
        self.driver.reset()
        self._modes = None

    def close(self) -> None:
        """Close the driver."""
        self.driver.close()
