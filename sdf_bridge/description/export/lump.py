"""Lumping of links joined by fixed joints (as Gazebo's URDF → SDF conversion does).

The child link C of a fixed joint is merged into its parent P: with ``X_PC = origin ·
joint_to_child``, C's visuals, collisions and sensors keep their place (poses become ``X_PC ·
pose``), joints hanging from C hang from P (``origin ← X_PC · origin``), and the mass properties
combine exactly (parallel-axis theorem, e.g. Featherstone, *Rigid Body Dynamics Algorithms*, §2.12):
total mass ``M = Σ mᵢ``, centre of mass ``c = Σ mᵢ cᵢ / M`` and ``I_c = Σ Rᵢ Iᵢ Rᵢᵀ + mᵢ (|dᵢ|² E₃ −
dᵢ dᵢᵀ)``, ``dᵢ = cᵢ − c``. ``<gazebo reference>`` extensions of a lumped link are dropped (their
collisions now belong to the parent; Gazebo would apply them to the whole merged link), and so are
transmissions that name a lumped joint; both with a warning. A fixed joint is kept when a ``<gazebo
reference="joint">`` extension sets ``disableFixedJointLumping`` or ``preserveFixedJoint`` to true.
"""

from __future__ import annotations

import dataclasses
import logging

import numpy as np

from ...util.booleans import parse_bool
from ..kinematics import joint_transform
from ..model import Inertia, Inertial, JointType, Pose, Robot

LOG = logging.getLogger("sdf_bridge.description.export")


def _true(text: str | None) -> bool:
    """A ``<gazebo>`` flag's text: true only when it reads true (anything else, as in Gazebo's
    ``Get<bool>``, is false)."""
    return parse_bool(text) is True


def preserved_fixed_joints(robot: Robot) -> set[str]:
    """Fixed joints marked to stay (``disableFixedJointLumping`` / ``preserveFixedJoint``)."""
    keep = set()
    for ext in robot.gazebo:
        if ext.reference in robot.joints and (
            _true(ext.property("disableFixedJointLumping"))
            or _true(ext.property("preserveFixedJoint"))
        ):
            keep.add(ext.reference)
    return keep


def _is_world(link, joints) -> bool:
    """True for the URDF ``world`` link (empty root named ``world``): Gazebo keeps joints to it."""
    return (
        link.name == "world"
        and link.inertial is None
        and not link.visuals
        and not link.collisions
        and all(j.child != "world" for j in joints.values())
    )


def _inertia_matrix(i: Inertia) -> np.ndarray:
    return np.array([[i.ixx, i.ixy, i.ixz], [i.ixy, i.iyy, i.iyz], [i.ixz, i.iyz, i.izz]])


def merge_inertials(parts: list[tuple[Inertial | None, np.ndarray]]) -> Inertial | None:
    """Combined mass properties of ``(inertial, X_P_link)`` pairs, expressed in frame P.

    Returns the inertial at the common centre of mass with axes parallel to P, or ``None`` when
    no part has mass properties.
    """
    items = [
        (inertial, x @ inertial.origin.matrix()) for inertial, x in parts if inertial is not None
    ]
    if not items:
        return None
    mass = sum(i.mass for i, _ in items)
    if mass == 0.0:
        com = np.mean([x[:3, 3] for _, x in items], axis=0)
    else:
        com = sum(i.mass * x[:3, 3] for i, x in items) / mass
    total = np.zeros((3, 3))
    for inertial, x in items:
        rot = x[:3, :3]
        d = x[:3, 3] - com
        total += rot @ _inertia_matrix(inertial.inertia) @ rot.T + inertial.mass * (
            float(d @ d) * np.eye(3) - np.outer(d, d)
        )
    inertia = Inertia(
        ixx=float(total[0, 0]),
        ixy=float(total[0, 1]),
        ixz=float(total[0, 2]),
        iyy=float(total[1, 1]),
        iyz=float(total[1, 2]),
        izz=float(total[2, 2]),
    )
    return Inertial(
        mass=float(mass),
        inertia=inertia,
        origin=Pose(xyz=tuple(float(v) for v in com)),  # type: ignore[arg-type]  # (com: 3 floats)
    )


def lump_fixed_joints(robot: Robot) -> Robot:
    """A copy of ``robot`` with every non-preserved fixed joint lumped (see module docstring)."""
    keep = preserved_fixed_joints(robot)
    links = dict(robot.links)
    joints = dict(robot.joints)
    sensors = list(robot.sensors)
    while True:
        target = next(
            (
                j
                for j in joints.values()
                if j.type is JointType.FIXED
                and j.name not in keep
                and not _is_world(links[j.parent], joints)
            ),
            None,
        )
        if target is None:
            break
        parent, child = links[target.parent], links[target.child]
        x_pc = joint_transform(target)
        pc = Pose.from_matrix(x_pc)
        merged = merge_inertials([(parent.inertial, np.eye(4)), (child.inertial, x_pc)])
        if parent.inertial is not None and child.inertial is None:
            merged = parent.inertial
        links[parent.name] = dataclasses.replace(
            parent,
            inertial=merged,
            visuals=parent.visuals
            + tuple(dataclasses.replace(v, origin=pc @ v.origin) for v in child.visuals),
            collisions=parent.collisions
            + tuple(dataclasses.replace(c, origin=pc @ c.origin) for c in child.collisions),
        )
        del links[child.name]
        del joints[target.name]
        for name, joint in list(joints.items()):
            if joint.parent == child.name:
                joints[name] = dataclasses.replace(
                    joint, parent=parent.name, origin=pc @ joint.origin
                )
        taken = {s.name for s in sensors if s.link == parent.name}
        moved = []
        for s in sensors:
            if s.link == child.name and s.joint is None:
                name = s.name
                if name in taken:
                    name = f"{child.name.replace('::', '_')}_{s.name}"
                    LOG.warning(
                        "lumping %s into %s: sensor %r renamed %r (name taken)",
                        child.name,
                        parent.name,
                        s.name,
                        name,
                    )
                taken.add(name)
                # the ROS frame stays the original link: a sensor's frame_id names the link it was
                # written on, even after that link is lumped into its parent
                s = dataclasses.replace(
                    s, name=name, link=parent.name, pose=pc @ s.pose, frame_id=s.frame_id or s.link
                )
            moved.append(s)
        sensors = moved
    gazebo = tuple(
        g
        for g in robot.gazebo
        if g.reference is None or g.reference in links or g.reference in joints
    )
    dropped = [
        g.reference
        for g in robot.gazebo
        if g not in gazebo and (g.reference in robot.links or g.reference in robot.joints)
    ]
    if dropped:
        LOG.warning(
            "lumping: <gazebo> extensions of lumped links/joints %s dropped",
            ", ".join(repr(r) for r in dropped),
        )
    transmissions = tuple(t for t in robot.transmissions if all(e.name in joints for e in t.joints))
    lost = [t.name for t in robot.transmissions if t not in transmissions]
    if lost:
        LOG.warning(
            "lumping: transmissions %s dropped: they drive lumped fixed joints",
            ", ".join(repr(n) for n in lost),
        )
    return dataclasses.replace(
        robot,
        links=links,
        joints=joints,
        sensors=tuple(sensors),
        gazebo=gazebo,
        transmissions=transmissions,
    )
