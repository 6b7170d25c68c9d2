"""Helpers that build small :class:`Robot` objects from the model dataclasses."""

from __future__ import annotations

from sdf_bridge.description.model import (
    Axis,
    Joint,
    JointType,
    Limit,
    Link,
    Mimic,
    Robot,
    Transmission,
    TransmissionActuator,
    TransmissionJoint,
)


def chain(*specs: tuple, transmissions: tuple = (), ros2_control: tuple = ()) -> Robot:
    """A serial chain: each spec is ``(name, type)`` or ``(name, type, dict(extra fields))``."""
    links = {"l0": Link("l0")}
    joints = {}
    for i, spec in enumerate(specs):
        name, jtype = spec[0], JointType(spec[1])
        extra = spec[2] if len(spec) > 2 else {}
        child = f"l{i + 1}"
        links[child] = Link(child)
        kwargs = dict(axis=Axis((0.0, 0.0, 1.0)))
        if jtype in (JointType.REVOLUTE, JointType.PRISMATIC):
            kwargs["limit"] = Limit(lower=-1.0, upper=1.0, effort=10.0, velocity=2.0)
        kwargs.update(extra)
        joints[name] = Joint(name, jtype, f"l{i}", child, **kwargs)
    return Robot(
        "test",
        links=links,
        joints=joints,
        transmissions=tuple(transmissions),
        ros2_control=tuple(ros2_control),
    )


def simple(
    name: str,
    joint: str,
    actuator: str,
    *,
    dialect: str = "classic",
    jred: float | None = None,
    ared: float | None = None,
    offset: float = 0.0,
    iface: tuple[str, ...] = (),
    ttype: str = "transmission_interface/SimpleTransmission",
) -> Transmission:
    """A one-joint, one-actuator transmission as the parser would store it."""
    return Transmission(
        name,
        ttype,
        dialect,
        joints=(
            TransmissionJoint(
                joint, "joint1" if dialect == "ros2_control" else None, jred, offset, iface
            ),
        ),
        actuators=(
            TransmissionActuator(
                actuator, "actuator1" if dialect == "ros2_control" else None, ared, iface
            ),
        ),
    )


def two_by_two(
    name: str,
    ttype: str,
    joints: list[tuple],
    actuators: list[tuple],
    dialect: str = "ros2_control",
) -> Transmission:
    """joints: ``(name, role, reduction, offset)``; actuators: ``(name, role, reduction)``."""
    return Transmission(
        name,
        ttype,
        dialect,
        joints=tuple(TransmissionJoint(n, r, red, off) for n, r, red, off in joints),
        actuators=tuple(TransmissionActuator(n, r, red) for n, r, red in actuators),
    )


def mimic(leader: str, multiplier: float = 1.0, offset: float = 0.0) -> dict:
    """Extra joint fields for a mimic joint."""
    return {"mimic": Mimic(leader, multiplier, offset)}
