"""The collisions a contact sensor of a URDF link covers, by the names Gazebo gives them.

Gazebo reads a URDF through libsdformat, which lumps every link joined by a fixed joint into its
parent (``parser_urdf.cc``, unless the joint is marked ``disableFixedJointLumping`` /
``preserveFixedJoint``): a contact sensor on a calf then covers the foot lumped into it, and its
``<contact><collision>`` filter names the foot's collision as the lumped link names it. The
bridge keeps the links apart, so it maps those names back:

* the merged link's collisions are its own, then those of each lumped link (depth-first, in
  document order), and the k-th of them is named ``<base>_collision`` with ``_<k>`` appended
  for k ≥ 1 (``CreateCollisions``);
* ``<base>`` is the collision's name (else its link's) for the link's own collisions, and
  ``<link>_fixed_joint_lump__<collision or lumped link name>`` for lumped ones: the Unitree
  robots' feet are ``FR_calf_fixed_joint_lump__FR_foot_collision_1``;
* before URDF collisions had names, ``<link>`` stood for the name: those forms are accepted
  too, as are each lumped link's own unlumped names (``FR_foot_collision``).
"""

from __future__ import annotations

from ...description.export.lump import preserved_fixed_joints
from ...description.model import JointType, Robot


def lumped_links(robot: Robot, link: str) -> list[str]:
    """``link`` and the links Gazebo lumps into it, depth-first in document order (for an
    SDFormat robot, nothing is lumped: ``[link]``)."""
    if robot.format != "urdf":
        return [link]
    keep = preserved_fixed_joints(robot)
    out: list[str] = []

    def visit(name: str) -> None:
        out.append(name)
        for joint in robot.child_joints(name):
            if joint.type is JointType.FIXED and joint.name not in keep:
                visit(joint.child)

    visit(link)
    return out


def gazebo_collision_names(robot: Robot, link: str) -> list[tuple[str, int, set[str]]]:
    """For each collision of ``link`` merged with its lumped links (see the module docstring):
    ``(owning link, index among that link's collisions, the names Gazebo knows it by)``."""
    out: list[tuple[str, int, set[str]]] = []
    k = 0
    for member in lumped_links(robot, link):
        for index, collision in enumerate(robot.links[member].collisions):
            suffix = f"_{k}" if k else ""
            if member == link:
                names = {f"{collision.name or link}_collision{suffix}", f"{link}_collision{suffix}"}
            else:
                own = f"_{index}" if index else ""
                names = {
                    f"{link}_fixed_joint_lump__{collision.name or member}_collision{suffix}",
                    f"{link}_fixed_joint_lump__{member}_collision{suffix}",
                    f"{collision.name or member}_collision{own}",
                    f"{member}_collision{own}",
                }
            out.append((member, index, names))
            k += 1
    return out


__all__ = ["gazebo_collision_names", "lumped_links"]
