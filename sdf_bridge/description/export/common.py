"""Helpers shared by the SDF and URDF writers: link poses in the model frame, number formatting."""

from __future__ import annotations

import numpy as np
from lxml import etree

from ..kinematics import link_transforms, tree_edges
from ..model import Pose, Robot


def fmt(value: float) -> str:
    """Shortest round-trip text of a float (``repr``), ``0`` for negative zero."""
    if value == 0.0:
        return "0"
    return repr(float(value))


def fmt_vec(values) -> str:
    """Space-separated :func:`fmt` of a sequence."""
    return " ".join(fmt(v) for v in values)


def pose_text(pose: Pose) -> str:
    """SDF ``<pose>`` text ``x y z roll pitch yaw`` (m, rad)."""
    return fmt_vec(tuple(pose.xyz) + tuple(pose.rpy))


def model_poses(robot: Robot) -> dict[str, np.ndarray]:
    """Each link's (4, 4) pose in the model frame at the zero configuration.

    Uses :func:`~sdf_bridge.description.kinematics.link_transforms` per tree and places each tree
    at its root link's ``Link.pose`` (SDF; identity when ``None``, as for URDF). Joints closing a
    loop are not tree edges (:func:`~sdf_bridge.description.kinematics.tree_edges`).
    """
    rel = link_transforms(robot)
    parent_of = {link: joint.parent for link, joint in tree_edges(robot)[0] if joint is not None}
    out: dict[str, np.ndarray] = {}
    for name in robot.links:
        root = name
        seen = {root}
        while root in parent_of and parent_of[root] not in seen:
            root = parent_of[root]
            seen.add(root)
        base = robot.links[root].pose
        base_m = base.matrix() if base is not None else np.eye(4)
        out[name] = base_m @ rel.get(name, np.eye(4)) if name in rel else base_m
    return out


def sub(parent: etree._Element, tag: str, text: str | None = None, **attrs: str) -> etree._Element:
    """Append child ``tag`` with ``text`` and attributes; returns it."""
    elem = etree.SubElement(parent, tag, {k: v for k, v in attrs.items() if v is not None})
    if text is not None:
        elem.text = text
    return elem


#: Tag of the stand-in for an element copied verbatim (see :func:`verbatim`).
_VERBATIM = "sdf_bridge_verbatim"


def verbatim(parent: etree._Element, raw_xml: str) -> None:
    """Append the element ``raw_xml`` (e.g. ``Transmission.raw_xml``) to ``parent`` so that
    :func:`to_text` writes it exactly as given: pretty-printing does not re-indent it, and the
    element read back serialises to the same ``raw_xml``.

    Raises:
        lxml.etree.XMLSyntaxError: ``raw_xml`` is not one well-formed element.
    """
    etree.fromstring(raw_xml)  # fail here, at the caller, on malformed text
    sub(parent, _VERBATIM, raw_xml)


def to_text(root: etree._Element) -> str:
    """Pretty-printed document with an XML declaration (elements added by :func:`verbatim`
    are put in after indenting, untouched)."""
    etree.indent(root, space="  ")
    for stand_in in list(root.iter(_VERBATIM)):
        elem = etree.fromstring(stand_in.text)
        elem.tail = stand_in.tail
        stand_in.getparent().replace(stand_in, elem)
    return '<?xml version="1.0"?>\n' + etree.tostring(root, encoding="unicode") + "\n"
