"""Backends: what stands behind the bridge's interfaces (ROS-free, actuator space, or joint space for simulators).

:func:`create_backend` returns a backend by name (``mock``, ``mujoco`` or an
``sdf_bridge.backends`` entry-point plug-in); :func:`available_backends` lists the names.
The protocol and reading types are in :mod:`sdf_bridge.backends.base`.
"""

from .base import (
    ActuatorCommand,
    ActuatorState,
    Backend,
    Contact,
    ContactReading,
    ImageReading,
    ImuReading,
    JointSpaceBackend,
    JointSpaceState,
    PointCloudReading,
    RangeReading,
    ScanReading,
    SensorReading,
    WrenchReading,
)
from .registry import ENTRY_POINT_GROUP, available_backends, create_backend

__all__ = [
    "ActuatorCommand", "ActuatorState", "Backend", "Contact", "ContactReading",
    "ENTRY_POINT_GROUP", "ImageReading", "ImuReading", "JointSpaceBackend", "JointSpaceState",
    "PointCloudReading", "RangeReading",
    "ScanReading", "SensorReading", "WrenchReading", "available_backends", "create_backend",
]
