"""Backends: what stands behind the bridge's interfaces (ROS-free), through one joint-space port.

:func:`create_backend` returns a backend by name (``mock``, ``mujoco`` or an
``sdf_bridge.backends`` entry-point plug-in) behind that port; :func:`available_backends` lists
the names. The port, the actuator-driver protocol and the reading types are in
:mod:`sdf_bridge.backends.base`; :mod:`sdf_bridge.backends.actuator_port` puts an actuator-space
driver behind the port.
"""

from .actuator_port import ActuatorPort
from .base import (
    MODE_DTYPE,
    ActuatorCommand,
    ActuatorDriver,
    ActuatorState,
    Backend,
    Contact,
    ContactReading,
    ImageReading,
    ImuReading,
    JointCommand,
    JointSpaceState,
    Mode,
    PointCloudReading,
    RangeReading,
    ScanReading,
    SensorReading,
    WrenchReading,
)
from .registry import ENTRY_POINT_GROUP, as_backend, available_backends, create_backend

__all__ = [
    "MODE_DTYPE",
    "ActuatorCommand",
    "ActuatorDriver",
    "ActuatorPort",
    "ActuatorState",
    "Backend",
    "Contact",
    "ContactReading",
    "ENTRY_POINT_GROUP",
    "ImageReading",
    "ImuReading",
    "JointCommand",
    "JointSpaceState",
    "Mode",
    "PointCloudReading",
    "RangeReading",
    "ScanReading",
    "SensorReading",
    "WrenchReading",
    "as_backend",
    "available_backends",
    "create_backend",
]
