"""Backends: what stands behind the bridge's interfaces (ROS-free), through one joint-space port.

:func:`create_backend` returns a backend by name (``mock``, ``mujoco`` or an
``sdf_bridge.backends`` entry-point plug-in) behind that port; :func:`available_backends` lists
the names. The port, the actuator-driver protocol and the reading types are in
:mod:`sdf_bridge.backends.base`; :mod:`sdf_bridge.backends.actuator_port` puts an actuator-space
driver behind the port.

Names are imported on first use (module ``__getattr__``): importing :mod:`sdf_bridge.backends.base`
alone (``sdf-bridge check``) loads neither the actuator port nor the backend registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sdf_bridge.lazy_exports import lazy_exports

if TYPE_CHECKING:  # pragma: no cover
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

_BASE = (
    "MODE_DTYPE",
    "ActuatorCommand",
    "ActuatorDriver",
    "ActuatorState",
    "Backend",
    "Contact",
    "ContactReading",
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
)
_WHERE = {
    **dict.fromkeys(_BASE, "base"),
    "ActuatorPort": "actuator_port",
    "ENTRY_POINT_GROUP": "registry",
    "as_backend": "registry",
    "available_backends": "registry",
    "create_backend": "registry",
}

__all__ = [
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
    "MODE_DTYPE",
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


__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
