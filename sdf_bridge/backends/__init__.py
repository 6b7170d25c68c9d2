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

from sdf_bridge.util.lazy_exports import lazy_exports

if TYPE_CHECKING:  # pragma: no cover
    from .actuator_port import ActuatorPort
    from .backend_registry import ENTRY_POINT_GROUP, as_backend, available_backends, create_backend
    from .base import (
        MODE_DTYPE,
        ActuatorCommand,
        ActuatorDriver,
        ActuatorState,
        Backend,
        JointCommand,
        JointSpaceState,
        Mode,
    )
    from .sensor_readings import (
        Contact,
        ContactReading,
        ImageReading,
        ImuReading,
        PointCloudReading,
        RangeReading,
        ScanReading,
        SensorReading,
        WrenchReading,
    )

_BASE = (
    "MODE_DTYPE",
    "ActuatorCommand",
    "ActuatorDriver",
    "ActuatorState",
    "Backend",
    "JointCommand",
    "JointSpaceState",
    "Mode",
)
_READINGS = (
    "Contact",
    "ContactReading",
    "ImageReading",
    "ImuReading",
    "PointCloudReading",
    "RangeReading",
    "ScanReading",
    "SensorReading",
    "WrenchReading",
)
_WHERE = {
    **dict.fromkeys(_BASE, "base"),
    **dict.fromkeys(_READINGS, "sensor_readings"),
    "ActuatorPort": "actuator_port",
    "ENTRY_POINT_GROUP": "backend_registry",
    "as_backend": "backend_registry",
    "available_backends": "backend_registry",
    "create_backend": "backend_registry",
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
