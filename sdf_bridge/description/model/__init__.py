"""The typed, immutable robot model shared by every layer (no ROS, no backends)."""

from .environment import DEFAULT_MAGNETIC_FIELD, SURFACE_MODELS, Environment, SphericalCoordinates
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
from .robot import SDFORMAT_GRAVITY, Robot, World, frozen_mapping
from .ros2_control import ComponentInfo, HardwareComponent, InterfaceInfo
from .sensor import (
    AirPressureParams,
    CameraParams,
    ContactParams,
    ForceTorqueParams,
    GpsParams,
    ImuParams,
    MagnetometerParams,
    Noise,
    RayParams,
    Sensor,
)
from .source import Skip, Source
from .transmission import Transmission, TransmissionActuator, TransmissionJoint

__all__ = [
    "AirPressureParams",
    "Axis",
    "Box",
    "Calibration",
    "CameraParams",
    "Capsule",
    "Collision",
    "ComponentInfo",
    "ContactParams",
    "Cylinder",
    "DEFAULT_MAGNETIC_FIELD",
    "Dynamics",
    "Ellipsoid",
    "Environment",
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
    "MagnetometerParams",
    "Material",
    "Mesh",
    "Mimic",
    "Noise",
    "Plane",
    "Plugin",
    "Pose",
    "RayParams",
    "Robot",
    "SDFORMAT_GRAVITY",
    "SURFACE_MODELS",
    "SafetyController",
    "Sensor",
    "Skip",
    "Source",
    "Sphere",
    "SphericalCoordinates",
    "Transmission",
    "TransmissionActuator",
    "TransmissionJoint",
    "Visual",
    "World",
    "frozen_mapping",
]
