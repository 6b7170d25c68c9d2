"""The typed, immutable robot model shared by every layer (no ROS, no backends)."""

from .gazebo import GazeboExtension, Plugin
from .geometry import (
    Box,
    Capsule,
    Collision,
    Cylinder,
    Ellipsoid,
    Geometry,
    Inertia,
    Inertial,
    Material,
    Mesh,
    Plane,
    Sphere,
    Visual,
)
from .joint import Axis, Calibration, Dynamics, Joint, JointType, Limit, Mimic, SafetyController
from .link import Link
from .pose import IDENTITY, Pose
from .robot import Robot, World, frozen_mapping
from .ros2_control import ComponentInfo, HardwareComponent, InterfaceInfo
from .sensor import (
    CameraParams,
    ContactParams,
    ForceTorqueParams,
    GpsParams,
    ImuParams,
    Noise,
    RayParams,
    Sensor,
)
from .source import Source
from .transmission import Transmission, TransmissionActuator, TransmissionJoint

__all__ = [
    "Axis",
    "Box",
    "Calibration",
    "CameraParams",
    "Capsule",
    "Collision",
    "ComponentInfo",
    "ContactParams",
    "Cylinder",
    "Dynamics",
    "Ellipsoid",
    "ForceTorqueParams",
    "GazeboExtension",
    "Geometry",
    "GpsParams",
    "HardwareComponent",
    "IDENTITY",
    "ImuParams",
    "Inertia",
    "Inertial",
    "InterfaceInfo",
    "Joint",
    "JointType",
    "Limit",
    "Link",
    "Material",
    "Mesh",
    "Mimic",
    "Noise",
    "Plane",
    "Plugin",
    "Pose",
    "RayParams",
    "Robot",
    "SafetyController",
    "Sensor",
    "Source",
    "Sphere",
    "Transmission",
    "TransmissionActuator",
    "TransmissionJoint",
    "Visual",
    "World",
    "frozen_mapping",
]
