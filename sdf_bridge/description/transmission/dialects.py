"""``<transmission>`` elements in the three dialects found in real descriptions.

This module only *reads*: every reduction and offset is recorded on the side of the element
where the file wrote it (joint or actuator), and the dialect is recorded, so that
:mod:`sdf_bridge.transmissions` applies each dialect's rule (which side carries the ratio, what
the default is). Nothing is defaulted to 1.0 here: an absent reduction is ``None``.

Dialects (see DESIGN.md, "Transmission dialects"):

``classic`` — ROS 1 ``transmission_interface`` (top-level ``<robot><transmission>``)::

    <transmission name="t1">
      <type>transmission_interface/SimpleTransmission</type>
      <joint name="j1">
        <hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface>
        <role>joint1</role><offset>0.1</offset><mechanicalReduction>1</mechanicalReduction></joint>
      <actuator name="m1"><mechanicalReduction>50</mechanicalReduction></actuator>
    </transmission>

  ``<hardwareInterface>`` may also sit on the actuator (legacy), with or without the
  ``hardware_interface/`` prefix (the prefix is removed).

``pr2`` — ``pr2_mechanism_model`` (``type`` attribute, no ``<type>`` element):

  * SimpleTransmission and unknown PR2 types: ``<joint name>``, ``<actuator name>`` and a
    ``<mechanicalReduction>`` directly under ``<transmission>``, which is recorded on the
    (single) actuator.
  * WristTransmission: ``<rightActuator>``, ``<leftActuator>``, ``<flexJoint>``, ``<rollJoint>``
    each with ``name`` and a ``mechanicalReduction`` attribute; the entries get the element tag
    as their ``role`` (``"rightActuator"``, ``"leftActuator"``, ``"flexJoint"``,
    ``"rollJoint"``) and the attribute as their reduction (actuator side for the actuators,
    joint side for the joints).
  * PR2GripperTransmission: ``<actuator name>``; ``<gap_joint name mechanical_reduction ...>``
    becomes the only joint (role ``"gap_joint"``, reduction on the joint side); the other
    ``gap_joint`` attributes go to ``params`` as ``("gap_joint.<attr>", value)``; each
    ``<passive_joint name>`` is a ``("passive_joint", name)`` param (they are driven as URDF
    mimic joints, not by the transmission); ``<simulated_actuated_joint>`` attributes are
    ``("simulated_actuated_joint.<attr>", value)`` params; ``<use_simulated_gripper_joint/>``
    is ``("use_simulated_gripper_joint", "")``.

``ros2_control`` — ``<ros2_control><transmission>`` (``hardware`` given)::

    <transmission name="t1">
      <plugin>transmission_interface/SimpleTransmission</plugin>
      <actuator name="m1" role="actuator1"/>
      <joint name="j1" role="joint1"><mechanical_reduction>2.0</mechanical_reduction>
        <offset>0.0</offset></joint>
      <param name="k">v</param>
    </transmission>

  Non-canonical spellings are accepted, stored where written and warned about:
  ``<mechanicalReduction>`` (camelCase), and a reduction under the ``<actuator>`` of a
  ``SimpleTransmission`` (whose ros2_control loader reads the joint side only; Differential and
  FourBar loaders read both sides, so there it is canonical). ``<hardwareInterface>``
  is warned about and ignored: in this dialect interfaces come from the ``<ros2_control>``
  joint's ``<command_interface>``/``<state_interface>`` only.

Roles: for ``DifferentialTransmission`` and ``FourBarLinkageTransmission`` only
``joint1``/``joint2`` and ``actuator1``/``actuator2`` are valid; other types accept any role
string (``SimpleTransmission`` ignores roles: ros2_control_demos example 8 gives its second simple
transmission roles ``joint2``/``actuator2``). A role repeated on one side is
a :class:`~sdf_bridge.errors.DuplicateNameError`, an invalid one an
:class:`~sdf_bridge.errors.InvalidValueError`; with several entries on one side, either all or
none must carry a role. Unknown transmission types are kept (with ``raw_xml``) for plug-ins.
"""

from __future__ import annotations

from dataclasses import replace

from lxml import etree

from ...errors import InvalidValueError
from ..model.transmission import Transmission, TransmissionActuator, TransmissionJoint
from ..xmlio import ParseContext, serialise
from .entries import CAMEL, SNAKE, Reader, check_roles, elements

#: Valid (joint roles, actuator roles) of the ROS transmission types that define roles.
ROLE_SETS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "DifferentialTransmission": (
        frozenset({"joint1", "joint2"}),
        frozenset({"actuator1", "actuator2"}),
    ),
    "FourBarLinkageTransmission": (
        frozenset({"joint1", "joint2"}),
        frozenset({"actuator1", "actuator2"}),
    ),
}

_WRIST_ACTUATORS = ("rightActuator", "leftActuator")
_WRIST_JOINTS = ("flexJoint", "rollJoint")


def parse_transmission(
    elem: etree._Element, ctx: ParseContext, *, hardware: str | None = None
) -> Transmission:
    """Read a ``<transmission>`` element of any dialect.

    Args:
        elem: the ``<transmission>`` element.
        ctx: parse context (file name, warning sink).
        hardware: name of the enclosing ``<ros2_control>`` block; when given the element is read
            in the ros2_control dialect.

    Returns:
        The :class:`Transmission`, with reductions/offsets as written (``None`` when absent) on
        the side where they were written, ``dialect`` ``"classic"``, ``"pr2"`` or
        ``"ros2_control"``, ``params`` and ``raw_xml``.

    Raises:
        InvalidValueError: no name, no type, an entry without a name, a reduction that is zero
            or not a number, an offset that is not a number, an invalid role, a misspelt child
            element (``<mechanicalReducton>``; other unknown children are warned about).
        DuplicateNameError: a role given twice on one side.
    """
    name = (elem.get("name") or "").strip()
    if not name:
        raise ctx.error(
            InvalidValueError, elem, "<transmission> has no name attribute", 'add name="..."'
        )
    reader = Reader(elem, ctx, name)
    if hardware is not None:
        return _parse_ros2_control(reader, hardware)
    type_child = elements(elem, "type")
    if not type_child and elem.get("type") is not None:
        return _parse_pr2(reader)
    if not type_child and elements(elem, "plugin"):
        reader.warn(elem, "has <plugin> outside <ros2_control>; read in the ros2_control dialect")
        return _parse_ros2_control(reader, None)
    return _parse_classic(reader)


def _type_text(reader: Reader, tags: tuple[str, ...], fix: str) -> str:
    """Text of the first of ``tags`` present.

    Raises:
        InvalidValueError: none present, or empty.
    """
    for tag in tags:
        children = elements(reader.elem, tag)
        if children:
            text = (children[0].text or "").strip()
            if not text:
                raise reader.error(InvalidValueError, children[0], f"<{tag}> is empty", fix)
            return text
    raise reader.error(InvalidValueError, reader.elem, f"the type is missing (no <{tags[0]}>)", fix)


def _finish(
    reader: Reader,
    ttype: str,
    dialect: str,
    joints: list[tuple[etree._Element, TransmissionJoint]],
    actuators: list[tuple[etree._Element, TransmissionActuator]],
    params: list[tuple[str, str]],
    hardware: str | None,
) -> Transmission:
    """Validate roles and build the :class:`Transmission`."""
    short = ttype.rsplit("/", 1)[-1].rsplit("::", 1)[-1]
    valid = ROLE_SETS.get(short)
    check_roles(reader, "joint", ((e, j.role) for e, j in joints), valid[0] if valid else None)
    check_roles(
        reader, "actuator", ((e, a.role) for e, a in actuators), valid[1] if valid else None
    )
    return Transmission(
        name=reader.name,
        type=ttype,
        dialect=dialect,
        joints=tuple(j for _, j in joints),
        actuators=tuple(a for _, a in actuators),
        hardware=hardware,
        params=tuple(params),
        raw_xml=serialise(reader.elem),
        source=reader.ctx.source(reader.elem),
    )


# -- classic ----------------------------------------------------------------------------------


def _parse_classic(reader: Reader) -> Transmission:
    ctx = reader.ctx
    elem = reader.elem
    ttype = _type_text(
        reader, ("type",), "add <type>transmission_interface/SimpleTransmission</type>"
    )
    attr_type = elem.get("type")
    if attr_type is not None and attr_type.strip() != ttype:
        reader.warn(
            elem, f"type attribute {attr_type!r} differs from <type>{ttype}</type>; <type> is used"
        )
    joints = []
    for j in elements(elem, "joint"):
        jname = reader.required_name(j)
        red, spellings = reader.child_reduction(j, canonical=CAMEL)
        if SNAKE in spellings:
            reader.warn(j, f"<{SNAKE}> in the classic form; read as <{CAMEL}> of joint {jname!r}")
        _warn_unknown(reader, j, {"hardwareInterface", "role", "offset", CAMEL, SNAKE})
        joints.append(
            (
                j,
                TransmissionJoint(
                    name=jname,
                    role=reader.role(j),
                    mechanical_reduction=red,
                    offset=reader.offset(j),
                    hardware_interfaces=reader.interfaces(j),
                    source=ctx.source(j),
                ),
            )
        )
    actuators = []
    for a in elements(elem, "actuator"):
        aname = reader.required_name(a)
        red, spellings = reader.child_reduction(a, canonical=CAMEL)
        if SNAKE in spellings:
            reader.warn(
                a, f"<{SNAKE}> in the classic form; read as <{CAMEL}> of actuator {aname!r}"
            )
        _warn_unknown(reader, a, {"hardwareInterface", "role", CAMEL, SNAKE})
        actuators.append(
            (
                a,
                TransmissionActuator(
                    name=aname,
                    role=reader.role(a),
                    mechanical_reduction=red,
                    hardware_interfaces=reader.interfaces(a),
                    source=ctx.source(a),
                ),
            )
        )
    actuators = _apply_direct_reduction(reader, actuators)
    params = reader.params()
    known = {"type", "joint", "actuator", "param", CAMEL, SNAKE}
    _check_spelling(reader, known)
    for child in elements(elem):
        if child.tag not in known:
            params.extend(reader.extra_params(child))
    return _finish(reader, ttype, "classic", joints, actuators, params, None)


def _warn_unknown(reader: Reader, entry: etree._Element, known: set[str]) -> None:
    """Warn about children of a joint/actuator entry this dialect does not define.

    Raises:
        InvalidValueError: a child's tag is a misspelling of one in ``known``
            (``<mechanicalReducton>``), which would otherwise leave the reduction at its default.
    """
    for child in elements(entry):
        if child.tag not in known:
            reader.ctx.unknown_element(
                child,
                entry,
                known,
                warning="is not read",
                where=f" of transmission {reader.name!r}",
            )


def _check_spelling(reader: Reader, known: set[str]) -> None:
    """Children of the ``<transmission>`` outside ``known`` are kept as params; one that is a
    misspelling of a tag in ``known`` is an error.

    Raises:
        InvalidValueError: a child's tag is a close match of a tag in ``known``.
    """
    for child in elements(reader.elem):
        if child.tag not in known:
            reader.ctx.unknown_element(child, reader.elem, known, warning=None)


def _apply_direct_reduction(
    reader: Reader, actuators: list[tuple[etree._Element, TransmissionActuator]]
) -> list[tuple[etree._Element, TransmissionActuator]]:
    """A ``<mechanicalReduction>`` directly under ``<transmission>`` (PR2 form) → the actuator.

    Raises:
        InvalidValueError: bad number; given more than once; no single actuator to carry it; the
            actuator has its own different reduction.
    """
    direct = [c for c in elements(reader.elem) if c.tag in (CAMEL, SNAKE)]
    if not direct:
        return actuators
    if len(direct) > 1:
        raise reader.error(
            InvalidValueError,
            direct[1],
            "the reduction is given twice under <transmission>",
            "keep one",
        )
    node = direct[0]
    value = reader.reduction(node, node.text, f"<{node.tag}>")
    if len(actuators) != 1:
        raise reader.error(
            InvalidValueError,
            node,
            f"<{node.tag}> directly under <transmission> needs exactly one <actuator>, found "
            f"{len(actuators)}",
            "move the reduction into the <actuator> it belongs to",
        )
    at, act = actuators[0]
    if act.mechanical_reduction is not None and act.mechanical_reduction != value:
        raise reader.error(
            InvalidValueError,
            node,
            f"reduction {value} under <transmission> conflicts with {act.mechanical_reduction} in "
            f"<actuator name={act.name!r}>",
            "keep one of them",
        )
    if reader.elem.get("type") is None:
        reader.warn(
            node,
            f"<{node.tag}> directly under <transmission> is the PR2 form; applied to actuator "
            f"{act.name!r}",
        )
    return [(at, replace(act, mechanical_reduction=value))]


# -- PR2 --------------------------------------------------------------------------------------


def _parse_pr2(reader: Reader) -> Transmission:
    elem = reader.elem
    ttype = (elem.get("type") or "").strip()
    if not ttype:
        raise reader.error(
            InvalidValueError,
            elem,
            "the type attribute is empty",
            'write type="pr2_mechanism_model/SimpleTransmission"',
        )
    short = ttype.rsplit("/", 1)[-1]
    if short == "WristTransmission":
        return _parse_pr2_wrist(reader, ttype)
    ctx = reader.ctx
    handled = {"joint", "actuator", CAMEL, SNAKE}
    joints = []
    actuators = []
    params: list[tuple[str, str]] = []
    gripper = short == "PR2GripperTransmission"
    known = handled | {"param"}
    if gripper:
        known |= {
            "gap_joint",
            "passive_joint",
            "simulated_actuated_joint",
            "use_simulated_gripper_joint",
        }
    _check_spelling(reader, known)
    for child in elements(elem):
        if child.tag == "joint":
            entry = TransmissionJoint(
                name=reader.required_name(child), role=reader.role(child), source=ctx.source(child)
            )
            joints.append((child, entry))
        elif child.tag == "actuator":
            red, _ = reader.child_reduction(child, canonical=CAMEL)
            act = TransmissionActuator(
                name=reader.required_name(child),
                role=reader.role(child),
                mechanical_reduction=red,
                source=ctx.source(child),
            )
            actuators.append((child, act))
        elif gripper and child.tag == "gap_joint":
            gname = reader.required_name(child)
            red_text = child.get(SNAKE, child.get(CAMEL))
            red = (
                None
                if red_text is None
                else reader.reduction(child, red_text, f"gap_joint {SNAKE}")
            )
            gap = TransmissionJoint(
                name=gname, role="gap_joint", mechanical_reduction=red, source=ctx.source(child)
            )
            joints.append((child, gap))
            params.extend((f"gap_joint.{k}", v) for k, v in child.attrib.items() if k != "name")
        elif gripper and child.tag == "passive_joint":
            params.append(("passive_joint", reader.required_name(child)))
        elif child.tag not in handled and child.tag != "param":
            params.extend(reader.extra_params(child))
    actuators = _apply_direct_reduction(reader, actuators)
    params = reader.params() + params
    return _finish(reader, ttype, "pr2", joints, actuators, params, None)


def _parse_pr2_wrist(reader: Reader, ttype: str) -> Transmission:
    ctx = reader.ctx
    joints = []
    actuators = []
    params: list[tuple[str, str]] = []
    _check_spelling(reader, {*_WRIST_ACTUATORS, *_WRIST_JOINTS, "param"})
    for child in elements(reader.elem):
        if child.tag in _WRIST_ACTUATORS or child.tag in _WRIST_JOINTS:
            cname = reader.required_name(child)
            text = child.get(CAMEL, child.get(SNAKE))
            red = None if text is None else reader.reduction(child, text, f"{child.tag} {CAMEL}")
            if child.tag in _WRIST_ACTUATORS:
                actuators.append(
                    (child, TransmissionActuator(cname, child.tag, red, source=ctx.source(child)))
                )
            else:
                joints.append(
                    (child, TransmissionJoint(cname, child.tag, red, source=ctx.source(child)))
                )
        elif child.tag in ("joint", "actuator"):
            raise reader.error(
                InvalidValueError,
                child,
                "a WristTransmission names its entries "
                f"<rightActuator>/<leftActuator>/<flexJoint>/<rollJoint>, not <{child.tag}>",
                "rename the element",
            )
        elif child.tag != "param":
            params.extend(reader.extra_params(child))
    return _finish(reader, ttype, "pr2", joints, actuators, reader.params() + params, None)


# -- ros2_control -----------------------------------------------------------------------------


def _parse_ros2_control(reader: Reader, hardware: str | None) -> Transmission:
    ctx = reader.ctx
    elem = reader.elem
    if not elements(elem, "plugin") and elements(elem, "type"):
        reader.warn(elem, "uses the classic <type> inside <ros2_control>; read as <plugin>")
    ttype = _type_text(
        reader, ("plugin", "type"), "add <plugin>transmission_interface/SimpleTransmission</plugin>"
    )
    simple = ttype.rsplit("/", 1)[-1] == "SimpleTransmission"
    joints = []
    for j in elements(elem, "joint"):
        jname = reader.required_name(j)
        red, spellings = reader.child_reduction(j, canonical=SNAKE)
        if CAMEL in spellings:
            reader.warn(
                j,
                f"<{CAMEL}> (classic spelling) in joint {jname!r}; read as <{SNAKE}>={red} "
                f"(ros2_control itself ignores it and uses 1.0)",
            )
        _ros2_common_checks(reader, j)
        entry = TransmissionJoint(
            name=jname,
            role=reader.role(j),
            mechanical_reduction=red,
            offset=reader.offset(j),
            source=ctx.source(j),
        )
        joints.append((j, entry))
    actuators = []
    params = reader.params()
    for a in elements(elem, "actuator"):
        aname = reader.required_name(a)
        red, spellings = reader.child_reduction(a, canonical=SNAKE)
        if CAMEL in spellings:
            reader.warn(
                a, f"<{CAMEL}> (classic spelling) in actuator {aname!r}; read as <{SNAKE}>={red}"
            )
        if spellings and simple:
            reader.warn(
                a,
                f"<{spellings[0]}> under <actuator name={aname!r}>: a ros2_control "
                f"SimpleTransmission reads its ratio from <joint><{SNAKE}> only; kept on the "
                f"actuator side ({red})",
            )
        off = elements(a, "offset")
        if off:
            value = reader.number(off[0], off[0].text, "<offset>")
            reader.warn(
                off[0],
                f"actuator {aname!r} <offset> is not used by transmission_interface; kept as a "
                "param",
            )
            params.append((f"actuator.{aname}.offset", repr(value)))
        _ros2_common_checks(reader, a)
        act = TransmissionActuator(
            name=aname, role=reader.role(a), mechanical_reduction=red, source=ctx.source(a)
        )
        actuators.append((a, act))
    known = {"plugin", "type", "joint", "actuator", "param"}
    for child in elements(elem):
        if child.tag not in known:
            ctx.unknown_element(
                child,
                elem,
                known,
                where=f" of transmission {reader.name!r}",
                warning="is not part of the ros2_control transmission form; not read",
            )
    for at, entry in [*joints, *actuators]:
        if entry.role is None:
            reader.warn(
                at,
                f"<{at.tag} name={entry.name!r}> has no role attribute (ros2_control requires one)",
            )
    return _finish(reader, ttype, "ros2_control", joints, actuators, params, hardware)


def _ros2_common_checks(reader: Reader, entry: etree._Element) -> None:
    """Warnings shared by ros2_control joint/actuator entries."""
    for hi in elements(entry, "hardwareInterface"):
        reader.warn(
            hi,
            f"<hardwareInterface>{(hi.text or '').strip()}</hardwareInterface> is ignored in the "
            "ros2_control form; interfaces come from the <ros2_control> joint's "
            "<command_interface>/<state_interface>",
        )
    _warn_unknown(reader, entry, {"hardwareInterface", "role", "offset", CAMEL, SNAKE})
    if elements(entry, "role"):
        reader.warn(entry, "<role> child element in the ros2_control form; use the role attribute")


__all__ = ["ROLE_SETS", "parse_transmission"]
