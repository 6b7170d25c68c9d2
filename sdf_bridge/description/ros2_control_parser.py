"""``<ros2_control>`` blocks, read the way ros2_control's component parser reads them.

Reference: ``hardware_interface/src/component_parser.cpp`` of ros-controls/ros2_control
(rolling, 2026). What it reads, and so what this reads::

    <ros2_control name="arm" type="system" is_async="false" rw_rate="100">
      <hardware>
        <plugin>mock_components/GenericSystem</plugin>      (legacy: <classType>)
        <param name="calculate_dynamics">true</param>
      </hardware>
      <joint name="j1" mimic="false">
        <limits enable="true"/>
        <command_interface name="position" data_type="double" size="1">
          <param name="min">-1</param><param name="max">1</param>
          <limits enable="false"/>
        </command_interface>
        <state_interface name="position"><param name="initial_value">0.0</param></state_interface>
        <param name="k">v</param>
      </joint>
      <sensor name="ft"> ... </sensor>
      <gpio name="io"> ... </gpio>
      <transmission name="t1"> ... </transmission>   (see transmission_parser)
    </ros2_control>

Rules kept from the reference: ``name`` and ``type`` are required; ``min``/``max``/
``initial_value`` of an interface are its ``<param>``s of those names (kept as strings, as
ros2_control does); an interface's limits are enabled unless its own ``<limits enable>`` or its
component's says false; booleans are ``true``/``false``/``1``/``0`` in any case
(:mod:`sdf_bridge.util.booleans`); ``size`` is a positive integer (default 1); ``data_type``
defaults to ``double``; ``rw_rate`` is a non-negative integer (default 0); a transmission's joints
must be joints of the block; in a ``type="actuator"`` block a transmission has exactly one joint
and, when it names no actuator, gets the implicit actuator ``actuator1`` (role ``actuator1``), as
ros2_control fills in.

Differences (documented, never silent): a legacy ``<classType>`` is accepted with a warning; a
second ``<plugin>`` is warned about (the first is used, as in ros2_control); unknown child
elements are warned about and skipped (ros2_control refuses the block), except misspellings of a
known tag (``<comand_interface>``), which are errors; ``<properties>`` and
``<hardware><group>`` are accepted and not modelled.
"""

from __future__ import annotations

import re
from dataclasses import replace

from lxml import etree

from ..errors import InvalidValueError, MissingReferenceError
from ..util import booleans
from .model.ros2_control import ComponentInfo, HardwareComponent, InterfaceInfo
from .model.transmission import Transmission, TransmissionActuator
from .transmission.dialects import parse_transmission
from .xmlio import ParseContext

COMPONENT_TYPES = ("system", "actuator", "sensor")

#: Child tags of the block, of ``<hardware>`` and of a joint/sensor/gpio (a close match of one of
#: these is a misspelling, an error; other unknown tags are warned about).
_BLOCK_TAGS = frozenset({"hardware", "joint", "sensor", "gpio", "transmission", "properties"})
_HARDWARE_TAGS = frozenset({"plugin", "classType", "param", "group"})
_COMPONENT_TAGS = frozenset({"command_interface", "state_interface", "param", "limits"})

_POSITIVE_INT = re.compile(r"[1-9][0-9]*")
_NON_NEGATIVE_INT = re.compile(r"[0-9]+")


def _elements(elem: etree._Element, tag: str | None = None) -> list[etree._Element]:
    """Element children (comments skipped), optionally by tag."""
    return [c for c in elem if isinstance(c.tag, str) and (tag is None or c.tag == tag)]


def _required_attr(ctx: ParseContext, elem: etree._Element, attr: str, fix: str) -> str:
    """Stripped, non-empty attribute ``attr``.

    Raises:
        InvalidValueError: absent or empty.
    """
    value = (elem.get(attr) or "").strip()
    if not value:
        raise ctx.error(InvalidValueError, elem, f"attribute {attr!r} is missing or empty", fix)
    return value


def parse_bool(ctx: ParseContext, elem: etree._Element, text: str, what: str) -> bool:
    """A boolean of ``<ros2_control>`` (:func:`sdf_bridge.util.booleans.parse_bool`: ``true``,
    ``false``, ``1``, ``0``, any letter case, spaces stripped).

    Raises:
        InvalidValueError: any other text.
    """
    value = booleans.parse_bool(text)
    if value is not None:
        return value
    raise ctx.error(
        InvalidValueError,
        elem,
        f"{what} is {text!r}, not a boolean",
        f'write {what} as "true" or "false"',
    )


def _params(ctx: ParseContext, parent: etree._Element) -> tuple[tuple[str, str], ...]:
    """``<param name="...">text</param>`` children, document order, texts stripped.

    Raises:
        InvalidValueError: a ``<param>`` without a name.
    """
    out = []
    for p in _elements(parent, "param"):
        key = (p.get("name") or "").strip()
        if not key:
            raise ctx.error(
                InvalidValueError,
                p,
                "<param> has no name attribute",
                'add name="..." to the <param>',
            )
        out.append((key, (p.text or "").strip()))
    return tuple(out)


def _limits_enabled(ctx: ParseContext, elem: etree._Element) -> bool:
    """``<limits enable="...">`` child of ``elem`` (true when absent).

    Raises:
        InvalidValueError: ``<limits>`` without ``enable`` or with a non-boolean value.
    """
    limits = _elements(elem, "limits")
    if not limits:
        return True
    text = limits[0].get("enable")
    if text is None:
        raise ctx.error(
            InvalidValueError,
            limits[0],
            "<limits> has no enable attribute",
            'write <limits enable="false"/>',
        )
    return parse_bool(ctx, limits[0], text, "attribute 'enable'")


def _interface(ctx: ParseContext, elem: etree._Element, component_limits: bool) -> InterfaceInfo:
    """A ``<command_interface>`` / ``<state_interface>``.

    Raises:
        InvalidValueError: no name, bad ``size``, bad ``<limits enable>``, nameless ``<param>``.
    """
    name = _required_attr(
        ctx, elem, "name", f'add name="position" (or another interface) to the <{elem.tag}>'
    )
    params = _params(ctx, elem)
    values = dict(params)
    size_text = elem.get("size")
    size = 1
    if size_text is not None:
        if not _POSITIVE_INT.fullmatch(size_text.strip()):
            raise ctx.error(
                InvalidValueError,
                elem,
                f"attribute 'size' is {size_text!r}, not a positive integer",
                'write e.g. size="4"',
            )
        size = int(size_text.strip())
    data_type = (elem.get("data_type") or "double").strip() or "double"
    return InterfaceInfo(
        name=name,
        min=values.get("min"),
        max=values.get("max"),
        initial_value=values.get("initial_value"),
        data_type=data_type,
        size=size,
        enable_limits=_limits_enabled(ctx, elem) and component_limits,
        parameters=params,
    )


def _component(ctx: ParseContext, elem: etree._Element) -> ComponentInfo:
    """A ``<joint>``, ``<sensor>`` or ``<gpio>`` of the block.

    Raises:
        InvalidValueError: no name, bad ``mimic`` boolean, bad interface.
    """
    kind = elem.tag
    name = _required_attr(ctx, elem, "name", f'add name="..." to the <{kind}>')
    is_mimic = None
    if kind == "joint" and elem.get("mimic") is not None:
        is_mimic = parse_bool(ctx, elem, elem.get("mimic", ""), "attribute 'mimic'")
    enable = _limits_enabled(ctx, elem) if kind != "gpio" else True
    for child in _elements(elem):
        if child.tag not in _COMPONENT_TAGS:
            ctx.unknown_element(
                child, elem, _COMPONENT_TAGS, warning="is not part of ros2_control; not read"
            )
    return ComponentInfo(
        name=name,
        type=kind,
        command_interfaces=tuple(
            _interface(ctx, c, enable) for c in _elements(elem, "command_interface")
        ),
        state_interfaces=tuple(
            _interface(ctx, c, enable) for c in _elements(elem, "state_interface")
        ),
        parameters=_params(ctx, elem),
        is_mimic=is_mimic,
        enable_limits=enable,
        source=ctx.source(elem),
    )


def _hardware(
    ctx: ParseContext, block: str, hw: etree._Element
) -> tuple[str, tuple[tuple[str, str], ...]]:
    """Plugin name and params of ``<hardware>``.

    Raises:
        InvalidValueError: no ``<plugin>`` (nor legacy ``<classType>``), or an empty one.
    """
    for child in _elements(hw):
        if child.tag not in _HARDWARE_TAGS:
            ctx.unknown_element(child, hw, _HARDWARE_TAGS, warning=None)
    plugins = _elements(hw, "plugin")
    tag = "plugin"
    if not plugins:
        plugins = _elements(hw, "classType")
        tag = "classType"
        if plugins:
            ctx.warn(
                plugins[0],
                f"ros2_control {block!r}: <classType> is the pre-Foxy spelling; read as <plugin>",
            )
    if not plugins:
        raise ctx.error(
            InvalidValueError,
            hw,
            f"ros2_control {block!r}: <hardware> has no <plugin>",
            "add <plugin>package/HardwareClass</plugin> (e.g. mock_components/GenericSystem)",
        )
    if len(plugins) > 1:
        names = [(p.text or "").strip() for p in plugins]
        ctx.warn(
            plugins[1],
            f"ros2_control {block!r}: <hardware> has {len(plugins)} <{tag}> elements {names}; "
            "the first is used",
        )
    plugin = (plugins[0].text or "").strip()
    if not plugin:
        raise ctx.error(
            InvalidValueError,
            plugins[0],
            f"ros2_control {block!r}: <{tag}> is empty",
            "write the hardware plugin class name",
        )
    return plugin, _params(ctx, hw)


def parse_ros2_control(elem: etree._Element, ctx: ParseContext) -> HardwareComponent:
    """Read a ``<ros2_control>`` block.

    Args:
        elem: the ``<ros2_control>`` element (below ``<robot>`` or ``<sdf><model>``).
        ctx: parse context.

    Returns:
        The :class:`HardwareComponent` (``type`` lower-case), its transmissions read through
        :func:`~sdf_bridge.description.transmission.dialects.parse_transmission` with
        ``hardware`` = the block name.

    Raises:
        InvalidValueError: missing name or type, a type other than system/actuator/sensor, bad
            ``is_async``/``rw_rate``/``mimic``/``size``/``<limits enable>``, missing or empty
            hardware plugin, nameless ``<param>``/component/interface, an actuator block whose
            transmission has not exactly one joint, a misspelt element (``<comand_interface>``).
        MissingReferenceError: a transmission names a joint the block does not list.
        DuplicateNameError: from the transmission parser (roles).
    """
    name = _required_attr(ctx, elem, "name", 'add name="MySystem" to the <ros2_control> block')
    raw_type = _required_attr(
        ctx, elem, "type", 'add type="system" (or "actuator", "sensor") to the <ros2_control> block'
    )
    ctype = raw_type.lower()
    if ctype not in COMPONENT_TYPES:
        raise ctx.error(
            InvalidValueError,
            elem,
            f"type is {raw_type!r}; ros2_control knows system, actuator and sensor",
            'write type="system", "actuator" or "sensor"',
        )
    if ctype != raw_type:
        ctx.warn(elem, f"type {raw_type!r} read as {ctype!r}")
    is_async = False
    if elem.get("is_async") is not None:
        is_async = parse_bool(ctx, elem, elem.get("is_async", ""), "attribute 'is_async'")
    rw_rate = 0
    rate_text = elem.get("rw_rate")
    if rate_text is not None:
        if not _NON_NEGATIVE_INT.fullmatch(rate_text.strip()):
            raise ctx.error(
                InvalidValueError,
                elem,
                f"attribute 'rw_rate' is {rate_text!r}, not a non-negative integer (Hz)",
                'write e.g. rw_rate="100"',
            )
        rw_rate = int(rate_text.strip())

    plugin: str | None = None
    parameters: tuple[tuple[str, str], ...] = ()
    joints: list[ComponentInfo] = []
    sensors: list[ComponentInfo] = []
    gpios: list[ComponentInfo] = []
    trans_elems: list[etree._Element] = []
    for child in _elements(elem):
        if child.tag == "hardware":
            if plugin is not None:
                ctx.warn(
                    child, f"ros2_control {name!r} has a second <hardware>; it replaces the first"
                )
            plugin, parameters = _hardware(ctx, name, child)
        elif child.tag == "joint":
            joints.append(_component(ctx, child))
        elif child.tag == "sensor":
            sensors.append(_component(ctx, child))
        elif child.tag == "gpio":
            gpios.append(_component(ctx, child))
        elif child.tag == "transmission":
            trans_elems.append(child)
        elif child.tag != "properties":
            ctx.unknown_element(
                child,
                elem,
                _BLOCK_TAGS,
                warning="is not a ros2_control element (ros2_control refuses the block); not read",
            )
    joint_names = {j.name for j in joints}
    transmissions = [_block_transmission(ctx, t, name, ctype, joint_names) for t in trans_elems]
    return HardwareComponent(
        name=name,
        type=ctype,
        plugin=plugin,
        parameters=parameters,
        joints=tuple(joints),
        sensors=tuple(sensors),
        gpios=tuple(gpios),
        transmissions=tuple(transmissions),
        is_async=is_async,
        rw_rate=rw_rate,
        source=ctx.source(elem),
    )


def _block_transmission(
    ctx: ParseContext, elem: etree._Element, block: str, ctype: str, joint_names: set[str]
) -> Transmission:
    """A transmission of the block, checked against the block's joints.

    Raises:
        MissingReferenceError: a transmission joint is not a joint of the block.
        InvalidValueError: an actuator block's transmission without exactly one joint.
    """
    trans = parse_transmission(elem, ctx, hardware=block)
    for joint in trans.joints:
        if joint.name not in joint_names:
            raise MissingReferenceError(
                f"transmission {trans.name!r} names joint {joint.name!r}, which is not a <joint> "
                f"of ros2_control {block!r}",
                file=ctx.file,
                line=joint.source.line if joint.source else elem.sourceline,
                element=f'<joint name="{joint.name}">',
                fix=f'add <joint name="{joint.name}"> with its interfaces to the block, or fix '
                "the name",
            )
    if ctype == "actuator":
        if len(trans.joints) != 1:
            raise ctx.error(
                InvalidValueError,
                elem,
                f"transmission {trans.name!r} of actuator block {block!r} has "
                f"{len(trans.joints)} joints; an actuator component drives exactly one",
                'use one <joint> or make the block type="system"',
            )
        if not trans.actuators:
            implicit = TransmissionActuator(name="actuator1", role="actuator1", source=trans.source)
            trans = replace(trans, actuators=(implicit,))
    return trans


__all__ = ["COMPONENT_TYPES", "parse_bool", "parse_ros2_control"]
