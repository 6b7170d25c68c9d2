"""Containment per element: the rule that a description the reference parsers load also loads
here (DESIGN.md, "Contain per element").

The kinematic tree (links, joints and their required attributes) is essential: a fault there
is a :class:`~sdf_bridge.errors.DescriptionError` and the robot is refused. Every other element
(sensors, transmissions, ``<gazebo>`` extensions, ``<ros2_control>`` blocks, plug-ins,
inertials, visuals, collisions, shapes) is read through :func:`contained`: when its reading
raises a :class:`~sdf_bridge.errors.DescriptionError`, the element is left out, recorded as a
:class:`~sdf_bridge.description.model.Skip` (file, line, kind, name, reason) on
``ParseContext.skipped`` (which becomes :attr:`Robot.skipped
<sdf_bridge.description.model.Robot.skipped>`), and warned about once. After the reading,
:func:`prune` leaves out what refers to something that is not there (a transmission naming no
joint, a sensor on no link, a second sensor of one name, a negative inertia).

A real actuator cannot run without the transmissions and ``<ros2_control>`` blocks it was
described with: :func:`driver_skips` lists the skips that make a transmission map for a real
driver wrong, and the transmission loader refuses those (a simulated robot runs without them).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from lxml import etree

from ..errors import DescriptionError
from .coordinates import find_coordinate
from .model import (
    ComponentInfo,
    HardwareComponent,
    Joint,
    Link,
    Robot,
    Sensor,
    Skip,
    Source,
    Transmission,
)
from .xmlio import ParseContext

LOG = logging.getLogger("sdf_bridge.description")
T = TypeVar("T")

#: Skip kinds a real actuator cannot run without (:func:`driver_skips`): what changes its
#: transmission map, and the limits written for it (a bound the bridge could not read would
#: otherwise be enforced looser than the description meant).
DRIVER_KINDS = frozenset(
    {
        "transmission",
        "ros2_control",
        "ros2_control joint",
        "ros2_control limit",
        "effort limit",
        "velocity limit",
        "safety_controller",
    }
)


def reason_of(exc: DescriptionError, elem: etree._Element | None = None) -> str:
    """The reason text of a skip caused by ``exc``: its problem, the line when it is not
    ``elem``'s own, and its fix."""
    text = exc.problem.rstrip()
    if exc.line is not None and (elem is None or exc.line != elem.sourceline):
        text += f" (line {exc.line})"
    if exc.fix:
        if text[-1:] not in (".", "!", "?", ":", ";", ")"):
            text += "."
        elif text.endswith(")"):
            text += "."
        text += f" Fix: {exc.fix}"
    return text


def skip(
    ctx: ParseContext,
    where: etree._Element | Source | None,
    kind: str,
    name: str | None,
    reason: str,
) -> Skip:
    """Record that an element was left out: a :class:`Skip` on ``ctx.skipped`` and one warning
    ``file:line: <kind> '<name>' skipped: <reason>`` on ``ctx.warnings``
    (the loader logs them aggregated: :mod:`.warning_digest`).

    ``where`` is the element (its line is taken) or its :class:`Source`.
    """
    if isinstance(where, Source):
        source = where
    else:
        source = Source(ctx.file, None if where is None else where.sourceline)
    record = Skip(kind=kind, name=name or None, source=source, reason=reason)
    ctx.skipped.append(record)
    ctx.warnings.append(str(record))  # (logged by the loader, aggregated per kind)
    return record


def contained(
    ctx: ParseContext,
    elem: etree._Element,
    kind: str,
    read: Callable[[], T],
    *,
    name: str | None = None,
) -> T | None:
    """``read()``, or ``None`` when it raises a :class:`DescriptionError`: the element ``elem``
    (of ``kind``, named ``name``, default its ``name`` attribute) is then skipped
    (:func:`skip`) with the error's problem and fix as the reason.

    Use it for every non-essential element, never for links, joints or their required
    attributes (those errors refuse the robot).
    """
    try:
        return read()
    except DescriptionError as exc:
        skip(ctx, elem, kind, name if name is not None else elem.get("name"), reason_of(exc, elem))
        return None


def _prune_inertials(robot: Robot, ctx: ParseContext) -> dict[str, Link]:
    """Links whose inertial has a negative principal moment lose it (massless, as if the file
    gave none)."""
    links = dict(robot.links)
    for name, link in robot.links.items():
        inertial = link.inertial
        if inertial is None:
            continue
        i = inertial.inertia
        bad = [(a, v) for a, v in (("ixx", i.ixx), ("iyy", i.iyy), ("izz", i.izz)) if v < 0.0]
        if bad:
            attr, value = bad[0]
            skip(
                ctx,
                inertial.source or link.source or Source(ctx.file),
                "inertial",
                name,
                f"{attr} of link {name!r} is {value:g} kg·m², negative; the link is massless. "
                f"Fix: give {attr} >= 0 (a moment of inertia about the centre of mass)",
            )
            links[name] = replace(link, inertial=None)
    return links


def _prune_joint_extras(robot: Robot, ctx: ParseContext) -> dict[str, Joint]:
    """Joints whose ``<dynamics>`` has a negative value lose it (no damping or friction), and
    whose ``<safety_controller>`` has a negative gain or reversed soft limits lose it (no soft
    limits): urdfdom keeps both; they are not the kinematic tree."""
    joints = dict(robot.joints)
    for name, joint in robot.joints.items():
        where = joint.source or Source(ctx.file)
        dynamics = joint.dynamics
        bad = (
            []
            if dynamics is None
            else [
                (a, v)
                for a in ("damping", "friction", "spring_stiffness")
                if (v := getattr(dynamics, a)) < 0.0
            ]
        )
        if bad:
            attr, value = bad[0]
            skip(
                ctx,
                where,
                "dynamics",
                name,
                f"{attr} of joint {name!r} is {value:g}, negative (it would add energy); the "
                f"joint has no damping or friction. Fix: give a {attr} >= 0 in <dynamics>",
            )
            joint = replace(joint, dynamics=None)
        safety = joint.safety_controller
        reason = None
        if safety is not None:
            for gain in ("k_velocity", "k_position"):
                value = getattr(safety, gain)
                if value is not None and value < 0.0 and reason is None:
                    reason = (
                        f"{gain} of joint {name!r} is {value:g}, negative; the joint has no soft "
                        f"limits. Fix: give {gain} >= 0 in <safety_controller>"
                    )
            lo, hi = safety.soft_lower_limit, safety.soft_upper_limit
            if reason is None and lo is not None and hi is not None and lo > hi:
                reason = (
                    f"soft_lower_limit {lo:g} is above soft_upper_limit {hi:g}; the joint has no "
                    "soft limits. Fix: swap soft_lower_limit and soft_upper_limit"
                )
        if reason is not None:
            skip(ctx, where, "safety_controller", name, reason)
            joint = replace(joint, safety_controller=None)
        joints[name] = joint
    return joints


def _prune_transmissions(robot: Robot, ctx: ParseContext) -> tuple[Transmission, ...]:
    kept = []
    for transmission in robot.transmissions:
        missing = [e.name for e in transmission.joints if find_coordinate(robot, e.name) is None]
        if missing:
            skip(
                ctx,
                transmission.source or Source(ctx.file),
                "transmission",
                transmission.name,
                f"it names joint {missing[0]!r}, which is not a joint of the robot. Fix: name "
                "an existing joint in the transmission's <joint name=...>",
            )
            continue
        kept.append(transmission)
    return tuple(kept)


def _prune_ros2_control(
    robot: Robot, ctx: ParseContext
) -> tuple[tuple[HardwareComponent, ...], set[int]]:
    """The blocks kept, with their joint entries naming no joint (or exporting an interface
    a previous entry exports) left out; and the ids of the transmissions of dropped blocks."""
    blocks: list[HardwareComponent] = []
    dropped: set[int] = set()
    names: set[str] = set()
    exported: dict[tuple[str, str], str] = {}
    for block in robot.ros2_control:
        if block.name in names:
            skip(
                ctx,
                block.source or Source(ctx.file),
                "ros2_control",
                block.name,
                f"a previous <ros2_control> block is named {block.name!r}. Fix: rename one of "
                "the blocks",
            )
            dropped.update(id(t) for t in block.transmissions)
            continue
        names.add(block.name)
        joints = []
        for info in block.joints:
            reason = None
            if find_coordinate(robot, info.name) is None:  # (a joint or one of its axes)
                reason = (
                    f"ros2_control block {block.name!r} names joint {info.name!r}, which is not a "
                    "joint of the robot. Fix: name an existing joint in <joint name=...>"
                )
            else:
                local: set[tuple[str, str]] = set()
                for kind, interfaces in (
                    ("state", info.state_interfaces),
                    ("command", info.command_interfaces),
                ):
                    for interface in interfaces:
                        key = (kind, f"{info.name}/{interface.name}")
                        first = block.name if key in local else exported.get(key)
                        local.add(key)
                        if first is not None and reason is None:
                            reason = (
                                f"{kind} interface '{info.name}/{interface.name}' is listed twice "
                                f"(first in ros2_control block {first!r}). Fix: list each "
                                f'joint\'s <{kind}_interface name="{interface.name}"> once'
                            )
            if reason is not None:
                skip(
                    ctx,
                    info.source or block.source or Source(ctx.file),
                    "ros2_control joint",
                    info.name,
                    reason,
                )
                continue
            info = _numeric_bounds(info, block, ctx)
            for kind, interfaces in (
                ("state", info.state_interfaces),
                ("command", info.command_interfaces),
            ):
                for interface in interfaces:
                    exported[(kind, f"{info.name}/{interface.name}")] = block.name
            joints.append(info)
        blocks.append(
            block if tuple(joints) == block.joints else replace(block, joints=tuple(joints))
        )
    return tuple(blocks), dropped


def _number(text: str | None) -> float | None:
    """``text`` as a finite float, else ``None``."""
    try:
        value = float(text)  # type: ignore[arg-type]  # (None: TypeError)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def _not_a_number(key: str, text: str) -> str:
    """``min '"1.5"' is a number in quotes`` or ``max 'abc' is no finite number``."""
    quoted = _number(text.strip().strip("'\"")) is not None
    return f"{key} {text!r} is " + ("a number in quotes" if quoted else "no finite number")


def _numeric_bounds(
    info: ComponentInfo, block: HardwareComponent, ctx: ParseContext
) -> ComponentInfo:
    """``info`` with each command interface's ``min``/``max`` that is no finite number, or a
    ``min`` above its ``max``, left out (skipped: the interface is then bounded by the URDF
    limits alone). ros2_control keeps them as strings; the bridge enforces numbers."""
    interfaces = []
    for iface in info.command_interfaces:
        bad = [k for k in ("min", "max") if getattr(iface, k) is not None]
        bad = [k for k in bad if _number(getattr(iface, k)) is None]
        lo, hi = _number(iface.min), _number(iface.max)
        if not bad and lo is not None and hi is not None and lo > hi:
            bad = ["min", "max"]
            why = f"min {iface.min!r} is above max {iface.max!r}"
        else:
            why = " and ".join(_not_a_number(k, getattr(iface, k)) for k in bad)
        if bad:
            skip(
                ctx,
                info.source or block.source or Source(ctx.file),
                "ros2_control limit",
                f"{info.name}/{iface.name}",
                f"command interface {info.name}/{iface.name} of ros2_control block "
                f"{block.name!r}: {why}; {' and '.join(bad)} left out (the URDF limits apply). "
                'Fix: write <param name="min"> and <param name="max"> as numbers, min <= max',
            )
            iface = replace(iface, **{k: None for k in bad})
        interfaces.append(iface)
    if interfaces == list(info.command_interfaces):
        return info
    return replace(info, command_interfaces=tuple(interfaces))


def _prune_sensors(robot: Robot, ctx: ParseContext) -> tuple[Sensor, ...]:
    kept: list[Sensor] = []
    seen: dict[str, Sensor] = {}
    for sensor in robot.sensors:
        where = sensor.source or Source(ctx.file)
        first = seen.get(sensor.name)
        if first is not None:
            line = f", line {first.source.line}" if first.source and first.source.line else ""
            skip(
                ctx,
                where,
                "sensor",
                sensor.name,
                f"a previous sensor (on {first.link or first.joint!r}{line}) has this name, and "
                "sensor names key topics and readings. Fix: rename one of the sensors",
            )
            continue
        target = None
        if (
            sensor.link is not None
            and sensor.link not in robot.links
            and sensor.link not in robot.joints
        ):
            target = f"link {sensor.link!r}"
        elif sensor.joint is not None and sensor.joint not in robot.joints:
            target = f"joint {sensor.joint!r}"
        if target is not None:
            skip(
                ctx,
                where,
                "sensor",
                sensor.name,
                f"it is attached to {target}, which the robot does not have. Fix: attach the "
                "sensor to an existing link or joint",
            )
            continue
        seen[sensor.name] = sensor
        kept.append(sensor)
    return tuple(kept)


def prune(robot: Robot, ctx: ParseContext, *, first: int = 0) -> Robot:
    """``robot`` without the non-essential elements that refer to what it does not have, each
    skipped (:func:`skip`): transmissions naming no joint of the robot; ``<ros2_control>``
    blocks of a name already used (with their transmissions), and their joint entries naming
    no joint or exporting an interface already exported; sensors on no link or joint, and
    sensors of a name already used; inertials with a negative principal moment (the link
    becomes massless); a joint's ``<dynamics>`` with a negative value, and its
    ``<safety_controller>`` with a negative gain or reversed soft limits.

    ``robot.skipped`` becomes ``ctx.skipped[first:]`` (what was skipped since the robot's
    reading began: a world's models share one context).
    """
    links = _prune_inertials(robot, ctx)
    joints = _prune_joint_extras(robot, ctx)
    hardware, dropped = _prune_ros2_control(robot, ctx)
    survivors = replace(
        robot,
        transmissions=tuple(t for t in robot.transmissions if id(t) not in dropped),
    )
    transmissions = _prune_transmissions(survivors, ctx)
    sensors = _prune_sensors(robot, ctx)
    return replace(
        robot,
        links=links,
        joints=joints,
        transmissions=transmissions,
        ros2_control=hardware,
        sensors=sensors,
        skipped=tuple(ctx.skipped[first:]),
    )


def driver_skips(robot: Robot) -> tuple[Skip, ...]:
    """The skips of ``robot`` that a real actuator cannot run without (:data:`DRIVER_KINDS`:
    transmissions, ``<ros2_control>`` blocks, their joints and bounds, joint limits and soft
    limits)."""
    return tuple(s for s in robot.skipped if s.kind in DRIVER_KINDS)


def refused_skips(robot: Robot) -> str:
    """The message refusing :func:`driver_skips` for a real actuator (each skip on a line)."""
    skips = driver_skips(robot)
    lines = "\n".join(f"  {s}" for s in skips)
    return (
        f"{len(skips)} transmission, <ros2_control> or limit element(s) of robot "
        f"{robot.name!r} could not be read, and a real actuator cannot run without them:\n"
        f"{lines}\nFix: correct them (a simulated robot runs without them)"
    )


__all__ = [
    "DRIVER_KINDS",
    "contained",
    "driver_skips",
    "prune",
    "reason_of",
    "refused_skips",
    "skip",
]
