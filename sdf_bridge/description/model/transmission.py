"""Transmissions as written in the description (both dialects), before any maths."""

from __future__ import annotations

from dataclasses import dataclass

from .source import Source


@dataclass(frozen=True)
class TransmissionJoint:
    """A joint entry of a transmission.

    Attributes:
        name: the joint's name.
        role: ``joint1``, ``joint2``, … (``<role>`` child or ``role`` attribute), or ``None``.
        mechanical_reduction: the joint-side reduction as written, or ``None`` when absent.
        offset: joint offset (rad or m), 0.0 when absent.
        hardware_interfaces: interface names given on the joint (classic ``<hardwareInterface>``,
            ``hardware_interface/`` prefix removed, e.g. ``"EffortJointInterface"``).
        source: where the element was read.
    """

    name: str
    role: str | None = None
    mechanical_reduction: float | None = None
    offset: float = 0.0
    hardware_interfaces: tuple[str, ...] = ()
    source: Source | None = None


@dataclass(frozen=True)
class TransmissionActuator:
    """An actuator entry of a transmission (``mechanical_reduction`` as written, or ``None``)."""

    name: str
    role: str | None = None
    mechanical_reduction: float | None = None
    hardware_interfaces: tuple[str, ...] = ()
    source: Source | None = None


@dataclass(frozen=True)
class Transmission:
    """A ``<transmission>`` element.

    Attributes:
        name: transmission name (may repeat in real files; not an identity).
        type: the full type string, e.g. ``"transmission_interface/SimpleTransmission"`` or
            ``"pr2_mechanism_model/WristTransmission"``.
        dialect: ``"classic"`` (``<robot><transmission><type>``), ``"pr2"`` (``type``
            attribute, ``pr2_mechanism_model``) or ``"ros2_control"`` (inside ``<ros2_control>``).
        joints, actuators: entries in document order (map by ``role``, never by this order).
        hardware: name of the enclosing ``<ros2_control>`` block (ros2_control dialect only).
        params: extra ``<param name>`` values and simple child values, as strings.
        raw_xml: the element serialised, for transmission plug-ins that read more.
        source: where the element was read.
    """

    name: str
    type: str
    dialect: str
    joints: tuple[TransmissionJoint, ...] = ()
    actuators: tuple[TransmissionActuator, ...] = ()
    hardware: str | None = None
    params: tuple[tuple[str, str], ...] = ()
    raw_xml: str = ""
    source: Source | None = None

    @property
    def short_type(self) -> str:
        """The type without its namespace, e.g. ``"SimpleTransmission"``."""
        return self.type.rsplit("/", 1)[-1].rsplit("::", 1)[-1]
