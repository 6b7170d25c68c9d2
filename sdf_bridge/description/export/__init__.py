"""Export of a :class:`~sdf_bridge.description.model.Robot` to SDFormat or URDF text, and the
``sdf-bridge convert`` command."""

from .command import convert_command
from .lump import lump_fixed_joints, merge_inertials
from .sdf_writer import to_sdf
from .urdf_writer import to_urdf

__all__ = ["convert_command", "lump_fixed_joints", "merge_inertials", "to_sdf", "to_urdf"]
