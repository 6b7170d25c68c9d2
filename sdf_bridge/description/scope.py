"""Scoped names: one robot's elements renamed ``<robot>::<name>`` so that several robots share
one model without two of their joints, links, sensors, actuators or transmissions clashing.

SDFormat scopes nested names with ``::`` (``arm::elbow``); a robot placed into a simulation of
several robots is scoped the same way under its name (``left::arm::elbow``). The link ``world``
(a URDF root named ``world``, an SDFormat joint whose parent is ``world``) is the one world of
the simulation: it is never scoped. Since robot names are distinct, and ``::`` is the scope
separator, two robots' scoped names cannot clash: the clash is impossible by construction.
"""

from __future__ import annotations

import dataclasses

from .model import (
    ComponentInfo,
    ContactParams,
    HardwareComponent,
    Joint,
    Link,
    Mimic,
    Pose,
    Robot,
    Sensor,
    Transmission,
)

SCOPE = "::"
"""The separator of a scoped name (SDFormat's)."""

WORLD_LINK = "world"
"""The link that stands for the world: shared by every robot, never scoped."""


def scoped(robot: str, name: str) -> str:
    """``name`` of robot ``robot`` as the simulation of several robots names it
    (``robot::name``); ``world`` stays ``world``."""
    return name if name == WORLD_LINK else f"{robot}{SCOPE}{name}"


def unscoped(robot: str, name: str) -> str | None:
    """The name ``name`` has inside robot ``robot`` (the inverse of :func:`scoped`), or ``None``
    when ``name`` is not one of that robot's."""
    prefix = f"{robot}{SCOPE}"
    return name[len(prefix) :] if name.startswith(prefix) else None


def owner(name: str, robots: tuple[str, ...]) -> str | None:
    """The robot of ``robots`` whose scoped name ``name`` is (the longest matching prefix, so
    that a robot named ``a`` does not claim ``a::b::joint`` of a robot named ``a::b``)."""
    best: str | None = None
    for robot in robots:
        if name.startswith(f"{robot}{SCOPE}") and (best is None or len(robot) > len(best)):
            best = robot
    return best


def _sensor(robot: str, sensor: Sensor) -> Sensor:
    topic = sensor.topic
    if topic and not topic.startswith("/"):
        topic = f"{robot}/{topic}"  # a relative topic: in the robot's namespace
    params = sensor.params
    if isinstance(params, ContactParams) and params.collisions:
        # a filter matches the collisions of the sensor's link only: by their own names, and
        # by the Gazebo names derived from the (now scoped) link name
        params = dataclasses.replace(
            params,
            collisions=params.collisions + tuple(scoped(robot, c) for c in params.collisions),
        )
    return dataclasses.replace(
        sensor,
        params=params,
        name=scoped(robot, sensor.name),
        link=None if sensor.link is None else scoped(robot, sensor.link),
        joint=None if sensor.joint is None else scoped(robot, sensor.joint),
        frame_id=None if sensor.frame_id is None else scoped(robot, sensor.frame_id),
        topic=topic,
    )


def _transmission(robot: str, transmission: Transmission) -> Transmission:
    return dataclasses.replace(
        transmission,
        name=scoped(robot, transmission.name),
        joints=tuple(
            dataclasses.replace(j, name=scoped(robot, j.name)) for j in transmission.joints
        ),
        actuators=tuple(
            dataclasses.replace(a, name=scoped(robot, a.name)) for a in transmission.actuators
        ),
    )


def _component(robot: str, info: ComponentInfo) -> ComponentInfo:
    return dataclasses.replace(info, name=scoped(robot, info.name))


def _hardware(robot: str, block: HardwareComponent) -> HardwareComponent:
    return dataclasses.replace(
        block,
        name=scoped(robot, block.name),
        joints=tuple(_component(robot, j) for j in block.joints),
        sensors=tuple(_component(robot, s) for s in block.sensors),
        gpios=tuple(_component(robot, g) for g in block.gpios),
        transmissions=tuple(_transmission(robot, t) for t in block.transmissions),
    )


def _joint(robot: str, joint: Joint, to_world: Pose) -> Joint:
    mimic = joint.mimic
    return dataclasses.replace(
        joint,
        name=scoped(robot, joint.name),
        parent=scoped(robot, joint.parent),
        child=scoped(robot, joint.child),
        origin=to_world @ joint.origin if joint.parent == WORLD_LINK else joint.origin,
        mimic=None
        if mimic is None
        else Mimic(scoped(robot, mimic.joint), mimic.multiplier, mimic.offset, mimic.axis),
        gearbox_reference_body=None
        if joint.gearbox_reference_body is None
        else scoped(robot, joint.gearbox_reference_body),
    )


def scope_robot(robot: Robot, name: str, pose: Pose) -> Robot:
    """``robot`` renamed ``name`` with every element scoped (module doc) and placed at ``pose``
    in the world.

    Its model frame moves from ``robot.pose`` to ``pose``: a root link (no parent joint, not
    ``world``) gets ``Link.pose`` in the world frame (``pose · link.pose``; a URDF root ``pose``),
    an SDFormat link below it its pose in the world frame too, and a joint whose parent is
    ``world`` the origin ``pose · robot.pose⁻¹ · origin`` (SDFormat writes it in the world
    frame, URDF in the robot's). The result's own ``pose`` is the identity.
    """
    to_world = pose @ robot.pose.inverse()
    children = {j.child for j in robot.joints.values()}
    links: dict[str, Link] = {}
    for link in robot.links.values():
        if link.name == WORLD_LINK:
            links[WORLD_LINK] = dataclasses.replace(link, pose=None)
            continue
        if link.pose is not None:
            placed: Pose | None = pose @ link.pose
        elif link.name not in children:
            placed = pose
        else:
            placed = None
        links[scoped(name, link.name)] = dataclasses.replace(
            link, name=scoped(name, link.name), pose=placed
        )
    return dataclasses.replace(
        robot,
        name=name,
        links=links,
        joints={scoped(name, j.name): _joint(name, j, to_world) for j in robot.joints.values()},
        transmissions=tuple(_transmission(name, t) for t in robot.transmissions),
        ros2_control=tuple(_hardware(name, b) for b in robot.ros2_control),
        sensors=tuple(_sensor(name, s) for s in robot.sensors),
        gazebo=tuple(
            dataclasses.replace(
                g, reference=None if g.reference is None else scoped(name, g.reference)
            )
            for g in robot.gazebo
        ),
        pose=Pose(),
        scenery=(),
    )


def _rename(name: str | None, robot: str) -> str | None:
    if name is None:
        return None
    own = unscoped(robot, name)
    return name if own is None else own


def unscope_robot(combined: Robot, robot: str) -> Robot:
    """Robot ``robot`` of ``combined`` (:func:`sdf_bridge.description.world.combine`) alone,
    under its own names: what its ``robot_description`` says and its interfaces show. Its
    links keep their world poses (a root link's ``pose``, a joint to ``world`` its origin in
    the world); ``world`` is its link when one of its joints hangs from it; a relative sensor
    topic loses the ``robot/`` prefix :func:`scope_robot` gave it.

    Raises:
        KeyError: ``robot`` is not one of ``combined.robots``.
    """
    if robot not in combined.robots:
        raise KeyError(f"{robot!r} is not one of the robots {list(combined.robots)}")

    def mine(name: str) -> bool:
        return owner(name, combined.robots) == robot

    joints = {}
    for joint in combined.joints.values():
        if not mine(joint.name):
            continue
        mimic = joint.mimic
        joints[unscoped(robot, joint.name)] = dataclasses.replace(
            joint,
            name=unscoped(robot, joint.name),
            parent=_rename(joint.parent, robot),
            child=_rename(joint.child, robot),
            mimic=None
            if mimic is None
            else Mimic(_rename(mimic.joint, robot), mimic.multiplier, mimic.offset, mimic.axis),
            gearbox_reference_body=_rename(joint.gearbox_reference_body, robot),
        )
    links = {}
    if any(j.parent == WORLD_LINK for j in joints.values()):
        links[WORLD_LINK] = combined.links.get(WORLD_LINK, Link(WORLD_LINK))
    for link in combined.links.values():
        if mine(link.name):
            links[unscoped(robot, link.name)] = dataclasses.replace(
                link, name=unscoped(robot, link.name)
            )

    def sensor(s: Sensor) -> Sensor:
        topic = s.topic
        if topic and topic.startswith(f"{robot}/"):
            topic = topic[len(robot) + 1 :]
        params = s.params
        if isinstance(params, ContactParams):
            own = f"{robot}{SCOPE}"
            params = dataclasses.replace(
                params, collisions=tuple(c for c in params.collisions if not c.startswith(own))
            )
        return dataclasses.replace(
            s,
            params=params,
            name=_rename(s.name, robot),
            link=_rename(s.link, robot),
            joint=_rename(s.joint, robot),
            frame_id=_rename(s.frame_id, robot),
            topic=topic,
        )

    def transmission(t: Transmission) -> Transmission:
        return dataclasses.replace(
            t,
            name=_rename(t.name, robot),
            joints=tuple(dataclasses.replace(j, name=_rename(j.name, robot)) for j in t.joints),
            actuators=tuple(
                dataclasses.replace(a, name=_rename(a.name, robot)) for a in t.actuators
            ),
        )

    def component(c: ComponentInfo) -> ComponentInfo:
        return dataclasses.replace(c, name=_rename(c.name, robot))

    return dataclasses.replace(
        combined,
        name=robot,
        links=links,
        joints=joints,
        transmissions=tuple(transmission(t) for t in combined.transmissions if mine(t.name)),
        ros2_control=tuple(
            dataclasses.replace(
                b,
                name=_rename(b.name, robot),
                joints=tuple(component(c) for c in b.joints),
                sensors=tuple(component(c) for c in b.sensors),
                gpios=tuple(component(c) for c in b.gpios),
                transmissions=tuple(transmission(t) for t in b.transmissions),
            )
            for b in combined.ros2_control
            if mine(b.name)
        ),
        sensors=tuple(sensor(s) for s in combined.sensors if mine(s.name)),
        gazebo=tuple(
            dataclasses.replace(g, reference=_rename(g.reference, robot))
            for g in combined.gazebo
            if g.reference is not None and mine(g.reference)
        ),
        scenery=(),
        robots=(),
    )


__all__ = ["SCOPE", "WORLD_LINK", "owner", "scope_robot", "scoped", "unscope_robot", "unscoped"]
