"""Actuator ↔ joint space: mechanisms, couplings and the robot-wide
:class:`~sdf_bridge.transmissions.map.TransmissionMap`.

Public API::

    from sdf_bridge.transmissions import TransmissionMap
    tmap = TransmissionMap.from_robot(robot)
    q, v, tau = tmap.actuator_to_joint(q_a, v_a, tau_a)      # (n_act,) → (n_joints,)
    q_a, v_a, tau_a = tmap.joint_to_actuator(q, v, tau)      # (n_joints,) → (n_act,)
    qf, vf, tauf = tmap.followers(q, v, tau)                 # → (n_followers,)
"""

from .base import Transmission
from .coupling import Follower
from .differential import DifferentialTransmission, WristTransmission
from .fourbar import FourBarLinkageTransmission
from .from_description import IdentityTransmission, MappedTransmission
from .map import TransmissionMap
from .mechanism_registry import available_types, lookup
from .simple import SimpleTransmission

__all__ = [
    "DifferentialTransmission",
    "Follower",
    "FourBarLinkageTransmission",
    "IdentityTransmission",
    "MappedTransmission",
    "SimpleTransmission",
    "Transmission",
    "TransmissionMap",
    "WristTransmission",
    "available_types",
    "lookup",
]
