"""``<transmission>`` elements written directly in an SDFormat ``<model>`` (classic / PR2 form).

libsdformat keeps elements it does not define as children of the model (SDFormat 12 logs "not
defined in SDF. Copying ... as children of [model]" and loads the file without errors), so a
``<transmission>`` written in the URDF spelling survives in an SDF model. This module reads such an
element with the shared :func:`~sdf_bridge.description.transmission.dialects.parse_transmission` and
scopes its names like every other name of a nested model.

SDFormat ≥ 1.8 forbids ``::`` in ``name`` attributes, also inside elements it does not define,
but not inside custom elements (SDFormat's "custom elements": a namespace prefix declared with
``xmlns:prefix``). A transmission whose names cross nested models (``arm::elbow`` named from the
top model) is therefore written as ``<sdf_bridge:transmission
xmlns:sdf_bridge="urn:sdf_bridge:description">``; :func:`read_transmission` reads both spellings.
"""

from __future__ import annotations

import copy

from lxml import etree

from ..model import Transmission
from ..xmlio import ParseContext
from .frames import join

#: Namespace of the custom-element spelling ``<sdf_bridge:transmission>``.
TRANSMISSION_NS = "urn:sdf_bridge:description"
#: Its prefix.
TRANSMISSION_PREFIX = "sdf_bridge"
#: Tags of model-level transmission elements (plain and custom-element spelling), lxml's names.
TRANSMISSION_TAGS = ("transmission", f"{{{TRANSMISSION_NS}}}transmission")


def named_nodes(elem: etree._Element) -> list[etree._Element]:
    """Elements of a transmission whose ``name`` attribute is a joint/actuator/transmission name
    (everything with ``name`` except ``<param>`` and what is under it)."""
    out = []
    for node in elem.iter():
        if not isinstance(node.tag, str) or etree.QName(node).localname == "param":
            continue
        parent = node.getparent()
        if parent is not None and etree.QName(parent).localname == "param":
            continue
        if node.get("name") is not None:
            out.append(node)
    return out


def plain(elem: etree._Element) -> etree._Element:
    """``elem`` itself when it is a plain ``<transmission>``, else a copy renamed from the
    custom-element spelling to ``<transmission>`` (namespace declaration removed)."""
    if elem.tag == "transmission":
        return elem
    out = copy.deepcopy(elem)
    out.tag = "transmission"
    etree.cleanup_namespaces(out)
    return out


def custom_element(raw_xml: str) -> str:
    """The custom-element spelling of the plain transmission ``raw_xml``."""
    elem = etree.fromstring(raw_xml)
    out = etree.Element(
        f"{{{TRANSMISSION_NS}}}transmission",
        dict(elem.attrib),
        nsmap={TRANSMISSION_PREFIX: TRANSMISSION_NS},
    )
    out.text = elem.text
    out.extend(list(elem))
    return etree.tostring(out, encoding="unicode", with_tail=False)


def scoped_copy(elem: etree._Element, scope: str) -> etree._Element:
    """A copy of ``elem`` with ``scope::`` put before every name of :func:`named_nodes` (the
    transmission's own, its joints', actuators' and PR2 entries'; ``<param name>`` keys are left
    alone). Source lines are kept. ``scope`` ``""`` returns ``elem`` itself.
    """
    if not scope:
        return elem
    out = copy.deepcopy(elem)
    for node in named_nodes(out):
        node.set("name", join(scope, node.get("name", "").strip()))
    return out


def read_transmission(elem: etree._Element, ctx: ParseContext, scope: str) -> Transmission:
    """A model-level ``<transmission>`` (or ``<sdf_bridge:transmission>``) of nested model ``scope``
    (``""`` for the top model) → :class:`~sdf_bridge.description.model.Transmission` with scoped
    transmission, joint and actuator names (``arm::elbow``); ``raw_xml`` holds the scoped element,
    so the transmission written back at the top of a model reads the same.

    Raises:
        InvalidValueError, DuplicateNameError: from ``parse_transmission`` (no name or type,
            zero or non-numeric reductions, bad roles).
    """
    from ..transmission.dialects import parse_transmission  # lazy: it imports the model package

    return parse_transmission(scoped_copy(plain(elem), scope), ctx)


__all__ = [
    "TRANSMISSION_NS",
    "TRANSMISSION_TAGS",
    "custom_element",
    "named_nodes",
    "plain",
    "read_transmission",
    "scoped_copy",
]
