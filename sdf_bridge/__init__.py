"""sdf_bridge: a robot description with its transmissions, as a ROS 2 hardware interface.

Layers (see ``doc/dev/architecture.md``): :mod:`sdf_bridge.description` (file → typed ``Robot``),
:mod:`sdf_bridge.transmissions` (actuator ↔ joint space), :mod:`sdf_bridge.limits`,
:mod:`sdf_bridge.backends`, :mod:`sdf_bridge.hardware` (the control cycle) and
:mod:`sdf_bridge.ros` (the only layer that imports rclpy).
"""

__version__ = "0.1.0"
