"""What the bridge will do with a robot, for ``sdf-bridge check``: per joint its command and
state interfaces, the limits it enforces and whether it is exposed; per sensor what it publishes
on which topic. Plain Python (no ROS): the rules are those the node and the hardware use
(:func:`~sdf_bridge.hardware.command_interfaces.commandable_joints`,
:func:`~sdf_bridge.hardware.command_interfaces.offered_command_interfaces`,
:func:`~sdf_bridge.limits.spec.description_limits`,
:func:`~sdf_bridge.transmissions.exposure.joint_roles`, :mod:`sdf_bridge.app.topic_names`).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from .app.topic_names import sensor_topics
from .description.coordinates import convention, coordinate_names, find_coordinate
from .description.model import Mesh, Robot, Sensor
from .errors import LimitsError, TransmissionError
from .hardware.command_interfaces import commandable_joints, offered_command_interfaces
from .limits.spec import description_limits
from .transmissions import TransmissionMap
from .transmissions.exposure import joint_roles

#: The state interfaces every joint in ``joint_states`` has.
STATE = "position,velocity,effort"


@dataclass(frozen=True)
class JointView:
    """One joint as the bridge runs it: ``command``/``state`` interfaces (``"-"`` for none),
    ``modes``: the command interfaces (control modes) the ``<ros2_control>`` block that
    ``sdf-bridge ros2-control`` / ``control`` generate offers it by default (``"-"`` for none;
    :func:`~sdf_bridge.hardware.command_interfaces.offered_command_interfaces`), enforced
    ``lower``/``upper`` (rad or m), ``velocity`` (rad/s or m/s), ``effort`` (N·m or N)
    (``None`` = not limited or not enforced), and ``note`` (why it is not exposed, that it
    follows another joint, or, on the first coordinate of a ball, universal or revolute2 joint,
    what its coordinates mean: :func:`~sdf_bridge.description.coordinates.convention`)."""

    command: str = "-"
    state: str = "-"
    modes: str = "-"
    lower: float | None = None
    upper: float | None = None
    velocity: float | None = None
    effort: float | None = None
    note: str = ""


def _bound(value: float) -> float | None:
    return value if math.isfinite(value) else None


def joint_views(robot: Robot) -> tuple[dict[str, JointView], list[str], list[str]]:
    """``(joint → JointView, limit warnings, problems)`` for every joint of ``robot``.

    A joint the transmission map drives is commandable with the interfaces
    :func:`~sdf_bridge.hardware.command_interfaces.commandable_joints` gives, offers the modes
    :func:`~sdf_bridge.hardware.command_interfaces.offered_command_interfaces` gives and is
    limited as the limiter does; a follower (mimic, gearbox, screw translation) is published,
    not commandable; an unexposed joint has neither (``note`` says why). ``problems``: why the
    map or the limits cannot be built (the bridge would refuse the robot); the views then give
    the joints' types only.
    """
    warnings: list[str] = []
    try:
        # as the built-in backends read it (they simulate
        # the robot: a transmission of unknown type is skipped, transmissions.report)
        tmap = TransmissionMap.from_robot(robot, simulated_robot=True)
        commands = commandable_joints(robot, tmap)
        offered = offered_command_interfaces(robot, tmap)
        limits = {name: description_limits(robot, name, warnings) for name in tmap.joint_names}
    except (TransmissionError, LimitsError) as exc:
        return {name: JointView() for name in robot.joints}, [], [str(exc)]
    unexposed = (tmap.roles or joint_roles(robot)).unexposed  # (as the map found them)
    followers = {f.name: f for f in tmap.followers_info}
    views: dict[str, JointView] = {}
    # a multi-axis joint in the map is listed by its coordinates (<joint>/axis1, …)
    names = (
        c
        for j in robot.joints.values()
        for c in (coordinate_names(j) if coordinate_names(j)[0] in limits else (j.name,))
    )
    for name in names:
        if name in limits:
            lim = limits[name]
            coord = find_coordinate(robot, name)
            joint = robot.joints[coord.joint] if coord is not None else None
            views[name] = JointView(
                note=convention(joint) if joint is not None and coord.index == 0 else "",
                command=",".join(commands.get(name, ())) or "-",
                state=STATE,
                modes=",".join(offered.get(name, ())) or "-",
                lower=lim.min_position if lim.has_position_limits else None,
                upper=lim.max_position if lim.has_position_limits else None,
                velocity=_bound(lim.max_velocity),
                effort=_bound(lim.max_effort),
            )
        elif name in followers:
            f = followers[name]
            views[name] = JointView(
                state=STATE,
                note=f"follows {f.leader} ({f.kind}, {f.multiplier:g}×"
                f"{f' {f.offset:+g}' if f.offset else ''}): not commandable",
            )
        else:
            views[name] = JointView(note=unexposed.get(name, ""))
    for name, f in followers.items():
        if name not in views:  # a screw's translation, <joint>/translation
            views[name] = JointView(
                state=STATE, note=f"follows {f.leader} ({f.kind}, {f.multiplier:g} m/rad)"
            )
    return views, warnings, []


def publishes(sensor: Sensor) -> str:
    """What ``sensor`` publishes, on which topics (``topic (message type)``, separated by
    semicolons), or why nothing."""
    topics = sensor_topics(sensor)
    if not topics:
        return (
            f"nothing: the bridge simulates no {sensor.raw_type or sensor.type} sensor "
            "(warned at start)"
        )
    return "; ".join(f"{topic} ({kind})" for topic, kind in topics.values())


__all__ = ["JointView", "STATE", "joint_views", "publishes"]


def missing_meshes(robot: Robot) -> list[str]:
    """One warning per mesh file of ``robot`` whose path resolved but names no file (the
    MuJoCo backend leaves the geoms of such a mesh out, and rviz draws nothing): ``FILE:LINE:
    link 'L': mesh 'URI' not found at PATH; …``, located at the link. A mesh whose path did
    not resolve (an unknown package) is warned about by the loader, not here."""
    warnings: list[str] = []
    seen: set[str] = set()
    for link in robot.links.values():
        for element in (*link.visuals, *link.collisions):
            mesh = element.geometry
            if not isinstance(mesh, Mesh) or mesh.resolved is None or mesh.resolved in seen:
                continue
            seen.add(mesh.resolved)
            if os.path.isfile(mesh.resolved):
                continue
            where = f"{link.source}: " if link.source is not None else ""
            warnings.append(
                f"{where}link {link.name!r}: mesh {mesh.filename!r} not found at "
                f"{mesh.resolved!r}; MuJoCo leaves its geoms out and rviz draws nothing. Fix: "
                "install the meshes there, or point --package-path PKG=DIR at the package "
                "that holds them"
            )
    return warnings
