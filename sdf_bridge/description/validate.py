"""Whole-robot checks run after parsing: tree structure, references, names and value ranges.

Every problem is raised as its :class:`~sdf_bridge.errors.DescriptionError` subclass located at
the element concerned (file, line, element) with the fix; lesser issues are warnings through the
:class:`~sdf_bridge.description.xmlio.ParseContext` (and ``logging``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import (
    DescriptionError,
    DuplicateNameError,
    InvalidValueError,
    KinematicTreeError,
    MissingReferenceError,
)
from .coordinates import find_coordinate
from .magnitudes import check_magnitudes
from .model import Joint, Robot, Sensor, Source
from .xmlio import ParseContext


def _error(
    cls: type[DescriptionError],
    ctx: ParseContext,
    source: Source | None,
    element: str | None,
    problem: str,
    fix: str,
) -> DescriptionError:
    """An error of ``cls`` at ``source`` (falls back to the context's file)."""
    return cls(
        problem,
        file=source.file if source is not None and source.file is not None else ctx.file,
        line=None if source is None else source.line,
        element=element,
        fix=fix,
    )


def _joint_tag(joint: Joint) -> str:
    return f'<joint name="{joint.name}">'


def check_tree(robot: Robot, ctx: ParseContext) -> str:
    """Check that links and joints form one tree and return the root link's name.

    Raises:
        MissingReferenceError: a joint's parent or child link does not exist.
        KinematicTreeError: no links, a joint joins a link to itself, a link has two parent
            joints, there are several roots, or there is a cycle.
    """
    if not robot.links:
        raise _error(
            KinematicTreeError,
            ctx,
            None,
            f'<robot name="{robot.name}">',
            "the robot has no links",
            "add at least one <link>",
        )
    parent_of: dict[str, Joint] = {}
    children: dict[str, list[str]] = {}
    for joint in robot.joints.values():
        for role, link in (("parent", joint.parent), ("child", joint.child)):
            if link not in robot.links:
                raise _error(
                    MissingReferenceError,
                    ctx,
                    joint.source,
                    _joint_tag(joint),
                    f"{role} link {link!r} of joint {joint.name!r} does not exist",
                    f'define <link name="{link}"> or correct the joint\'s <{role} link>',
                )
        if joint.parent == joint.child:
            raise _error(
                KinematicTreeError,
                ctx,
                joint.source,
                _joint_tag(joint),
                f"joint {joint.name!r} connects link {joint.child!r} to itself",
                "give the joint different parent and child links",
            )
        previous = parent_of.get(joint.child)
        if previous is not None:
            raise _error(
                KinematicTreeError,
                ctx,
                joint.source,
                _joint_tag(joint),
                f"link {joint.child!r} is the child of two joints, {previous.name!r} and "
                f"{joint.name!r}",
                "a link may have only one parent joint; remove one joint or use another child link",
            )
        parent_of[joint.child] = joint
        children.setdefault(joint.parent, []).append(joint.child)
    roots = [name for name in robot.links if name not in parent_of]
    if len(roots) > 1:
        link = robot.links[roots[1]]
        raise _error(
            KinematicTreeError,
            ctx,
            link.source,
            f'<link name="{roots[1]}">',
            f"the robot has {len(roots)} root links ({', '.join(map(repr, roots[:5]))}"
            f"{', …' if len(roots) > 5 else ''}); a URDF must be one tree",
            "connect every link except the root to a parent with a joint",
        )
    if not roots:
        joint = next(iter(robot.joints.values()))
        raise _error(
            KinematicTreeError,
            ctx,
            joint.source,
            _joint_tag(joint),
            "every link is the child of a joint, so the joints form a cycle and there is no root "
            "link",
            "remove the joint that closes the loop",
        )
    seen = {roots[0]}
    stack = [roots[0]]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    if len(seen) != len(robot.links):
        cyclic = [name for name in robot.links if name not in seen]
        joint = parent_of[cyclic[0]]
        raise _error(
            KinematicTreeError,
            ctx,
            joint.source,
            _joint_tag(joint),
            f"links {', '.join(map(repr, cyclic[:5]))} form a cycle not connected to root "
            f"{roots[0]!r}",
            "remove the joint that closes the loop",
        )
    return roots[0]


def check_joints(robot: Robot, ctx: ParseContext) -> None:
    """Mimic targets exist, dynamics are non-negative, limits and soft limits are ordered.

    Raises:
        MissingReferenceError: a ``<mimic joint>`` names no joint of the robot.
        InvalidValueError: a joint mimics itself, a negative damping, friction or spring
            stiffness, a negative safety-controller gain, lower > upper, soft_lower > soft_upper.
    """
    for joint in robot.joints.values():
        if joint.mimic is not None:
            leader = joint.mimic.joint
            if leader not in robot.joints:
                raise _error(
                    MissingReferenceError,
                    ctx,
                    joint.source,
                    _joint_tag(joint),
                    f"joint {joint.name!r} mimics {leader!r}, which is not a joint of the robot",
                    "name an existing joint in <mimic joint=...>",
                )
            if leader == joint.name:
                raise _error(
                    InvalidValueError,
                    ctx,
                    joint.source,
                    _joint_tag(joint),
                    f"joint {joint.name!r} mimics itself",
                    "name another joint in <mimic joint=...>",
                )
            if not robot.joints[leader].type.is_movable:
                ctx.warn(
                    None, f"joint {joint.name!r} mimics fixed joint {leader!r}; it will never move"
                )
        dynamics = joint.dynamics
        if dynamics is not None:
            for attr in ("damping", "friction", "spring_stiffness"):
                value = getattr(dynamics, attr)
                if value < 0.0:
                    raise _error(
                        InvalidValueError,
                        ctx,
                        joint.source,
                        _joint_tag(joint),
                        f"{attr} of joint {joint.name!r} is {value:g}, negative (it would add "
                        "energy)",
                        f"give a {attr} >= 0 in <dynamics>",
                    )
        limit = joint.limit
        if (
            limit is not None
            and limit.lower is not None
            and limit.upper is not None
            and limit.lower > limit.upper
        ):
            raise _error(
                InvalidValueError,
                ctx,
                joint.source,
                _joint_tag(joint),
                f"lower limit {limit.lower} is above upper limit {limit.upper}",
                "swap the lower and upper attributes of <limit>",
            )
        safety = joint.safety_controller
        for gain in ("k_velocity", "k_position"):
            value = None if safety is None else getattr(safety, gain)
            if value is not None and value < 0.0:
                raise _error(
                    InvalidValueError,
                    ctx,
                    joint.source,
                    _joint_tag(joint),
                    f"{gain} of joint {joint.name!r} is {value:g}, negative",
                    f"give {gain} >= 0 in <safety_controller>",
                )
        if (
            safety is not None
            and safety.soft_lower_limit is not None
            and safety.soft_upper_limit is not None
            and safety.soft_lower_limit > safety.soft_upper_limit
        ):
            raise _error(
                InvalidValueError,
                ctx,
                joint.source,
                _joint_tag(joint),
                f"soft_lower_limit {safety.soft_lower_limit} is above soft_upper_limit "
                f"{safety.soft_upper_limit}",
                "swap soft_lower_limit and soft_upper_limit in <safety_controller>",
            )


def check_mimic_chains(robot: Robot, ctx: ParseContext) -> None:
    """Mimic chains end at a joint that mimics nothing (run after :func:`check_joints`).

    A chain (``c`` mimics ``b`` mimics ``a``) is allowed; a loop (``a`` mimics ``b`` mimics
    ``a``) has no leader that could be commanded.

    Raises:
        InvalidValueError: the ``<mimic>`` references form a loop.
    """
    done: set[str] = set()
    for start in robot.joints.values():
        chain: list[str] = []
        joint: Joint | None = start
        while joint is not None and joint.name not in done:
            if joint.name in chain:
                loop = chain[chain.index(joint.name) :] + [joint.name]
                raise _error(
                    InvalidValueError,
                    ctx,
                    joint.source,
                    _joint_tag(joint),
                    f"the mimic joints form a loop ({' -> '.join(loop)}); no joint of it can be "
                    "commanded",
                    "make one joint of the loop a leader by removing its <mimic>",
                )
            chain.append(joint.name)
            joint = None if joint.mimic is None else robot.joints.get(joint.mimic.joint)
        done.update(chain)


def check_inertials(robot: Robot, ctx: ParseContext) -> None:
    """Principal moments of inertia are non-negative.

    Checks the diagonal ``ixx, iyy, izz`` (kg·m²) of every link's ``<inertial>``. A tensor that
    is not positive semi-definite or breaks the triangle inequality is kept as written: ``check``
    reports it as a problem the bridge works around, and whoever balances it (the MuJoCo
    backend, ``convert``) warns (:func:`.inertia.inertia_fix`).

    Raises:
        InvalidValueError: a negative ``ixx``, ``iyy`` or ``izz``.
    """
    for link in robot.links.values():
        inertial = link.inertial
        if inertial is None:
            continue
        i = inertial.inertia
        element = f'<link name="{link.name}">'
        for attr, value in (("ixx", i.ixx), ("iyy", i.iyy), ("izz", i.izz)):
            if value < 0.0:
                raise _error(
                    InvalidValueError,
                    ctx,
                    inertial.source or link.source,
                    element,
                    f"{attr} of link {link.name!r} is {value:g} kg·m², negative",
                    f"give {attr} >= 0 (a moment of inertia about the centre of mass)",
                )


def check_transmissions(robot: Robot, ctx: ParseContext) -> None:
    """Every transmission joint (classic and ros2_control) and ros2_control joint exists, and
    no ``<joint>/<interface>`` is exported twice by the ``<ros2_control>`` blocks.

    Raises:
        MissingReferenceError: a transmission or ``<ros2_control>`` block names an unknown joint.
        DuplicateNameError: a joint's state (or command) interface is listed twice, in one block
            or in two (ros2_control's resource manager refuses such a description).
    """
    for transmission in robot.transmissions:
        for entry in transmission.joints:
            if find_coordinate(robot, entry.name) is None:  # (a joint or one of its axes)
                raise _error(
                    MissingReferenceError,
                    ctx,
                    entry.source or transmission.source,
                    f'<transmission name="{transmission.name}">',
                    f"transmission {transmission.name!r} names joint {entry.name!r}, which is "
                    "not a joint of the robot",
                    "name an existing joint in the transmission's <joint name=...>",
                )
    exported: dict[tuple[str, str], str] = {}
    for component in robot.ros2_control:
        if component.plugin is None:
            ctx.warn(
                None,
                f"ros2_control block {component.name!r} has no <hardware><plugin>; ros2_control "
                "cannot load it (the bridge does not need it)",
            )
        for info in component.joints:
            for kind, interfaces in (
                ("state", info.state_interfaces),
                ("command", info.command_interfaces),
            ):
                for interface in interfaces:
                    full = f"{info.name}/{interface.name}"
                    first = exported.get((kind, full))
                    if first is not None:
                        raise _error(
                            DuplicateNameError,
                            ctx,
                            info.source or component.source,
                            f'<ros2_control name="{component.name}">',
                            f"{kind} interface {full!r} is listed twice (first in ros2_control "
                            f"block {first!r})",
                            f'list each joint\'s <{kind}_interface name="{interface.name}"> once',
                        )
                    exported[(kind, full)] = component.name
            if find_coordinate(robot, info.name) is None:
                raise _error(
                    MissingReferenceError,
                    ctx,
                    info.source or component.source,
                    f'<ros2_control name="{component.name}">',
                    f"ros2_control block {component.name!r} names joint {info.name!r}, which is "
                    "not a joint of the robot",
                    "name an existing joint in <joint name=...> of the <ros2_control> block",
                )


def check_sensors_and_extensions(robot: Robot, ctx: ParseContext) -> None:
    """Sensor names are unique and their links exist; ``<gazebo reference>`` targets and the
    ``frame_id`` of ``<ros2_control>`` sensors name links (else a warning).

    Raises:
        DuplicateNameError: two sensors share a name (names key topics and readings).
        MissingReferenceError: a sensor is attached to a link (or joint) that does not exist.
    """
    seen: dict[str, Sensor] = {}
    for sensor in robot.sensors:
        element = f'<sensor name="{sensor.name}">'
        first = seen.get(sensor.name)
        if first is not None:
            where = f" (first on {first.link or first.joint!r}" + (
                f", line {first.source.line})" if first.source and first.source.line else ")"
            )
            raise _error(
                DuplicateNameError,
                ctx,
                sensor.source,
                element,
                f"two sensors are named {sensor.name!r}{where}; sensor names key topics and "
                "readings",
                "rename one of the sensors",
            )
        seen[sensor.name] = sensor
        if (
            sensor.link is not None
            and sensor.link not in robot.links
            and sensor.link not in robot.joints
        ):
            raise _error(
                MissingReferenceError,
                ctx,
                sensor.source,
                element,
                f"sensor {sensor.name!r} is attached to {sensor.link!r}, which is not a link of "
                "the robot",
                "attach the sensor to an existing link",
            )
        if sensor.joint is not None and sensor.joint not in robot.joints:
            raise _error(
                MissingReferenceError,
                ctx,
                sensor.source,
                element,
                f"sensor {sensor.name!r} is attached to joint {sensor.joint!r}, which does not "
                "exist",
                "attach the sensor to an existing joint",
            )
    for block in robot.ros2_control:
        for info in block.sensors:
            frame = info.param("frame_id")
            if frame and frame not in robot.links:
                ctx.warn(
                    None,
                    f"<ros2_control name={block.name!r}> sensor {info.name!r}: frame_id "
                    f"{frame!r} is no link of the robot; its readings carry it as written, "
                    "and TF may not know it",
                )
    for extension in robot.gazebo:
        ref = extension.reference
        if ref is not None and ref not in robot.links and ref not in robot.joints:
            line = (
                f" (line {extension.source.line})"
                if extension.source and extension.source.line
                else ""
            )
            ctx.warn(
                None,
                f'<gazebo reference="{ref}">{line} names no link or joint; simulators ignore it',
            )


def check_unique_names(
    kind: str, names: Iterable[tuple[str, Source | None]], ctx: ParseContext
) -> None:
    """Raise :class:`DuplicateNameError` at the second occurrence of a repeated name."""
    seen: set[str] = set()
    for name, source in names:
        if name in seen:
            raise _error(
                DuplicateNameError,
                ctx,
                source,
                f'<{kind} name="{name}">',
                f"two {kind}s are named {name!r}",
                f"rename one of the {kind}s",
            )
        seen.add(name)


def validate_robot(robot: Robot, ctx: ParseContext) -> str:
    """Run every check on ``robot`` and return the root link's name.

    Raises:
        DescriptionError: the first problem found (see the ``check_*`` functions).
    """
    root = check_tree(robot, ctx)
    check_references(robot, ctx)
    return root


def check_references(robot: Robot, ctx: ParseContext) -> None:
    """Every check except the one-tree check (SDFormat models may hold several free links).

    Raises:
        DescriptionError: the first problem found (see the ``check_*`` functions).
    """
    check_joints(robot, ctx)
    check_magnitudes(robot, ctx)  # (values beyond what any simulator or driver can use)
    check_mimic_chains(robot, ctx)
    check_inertials(robot, ctx)
    check_unique_names("ros2_control", ((c.name, c.source) for c in robot.ros2_control), ctx)
    check_transmissions(robot, ctx)
    check_sensors_and_extensions(robot, ctx)
