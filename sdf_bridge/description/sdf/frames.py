"""SDFormat pose and frame graph: ``<pose>`` parsing, ``//pose/@relative_to``, ``<frame>``.

Every frame of a model (the model frame ``__model__``, links, joints, explicit ``<frame>``
elements and nested models, scoped with ``::``) is a node holding its raw pose and the frame
that pose is relative to. :meth:`FrameGraph.resolve` walks those edges to the root model frame
and returns a (4, 4) homogeneous transform ``X_MF`` (frame F in the root model frame M).
Semantics follow the SDFormat specification "Pose frame semantics" (sdformat.org/tutorials,
``pose_frame_semantics``): default ``relative_to`` is the enclosing model frame for links,
frames and nested models, and the child link for joints; ``attached_to`` (frames) defaults to
the enclosing model frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from lxml import etree

from ...errors import InvalidValueError, KinematicTreeError, MissingReferenceError
from ...util.booleans import parse_bool
from ..model.pose import quaternion_to_matrix, rpy_to_matrix
from ..xmlio import ParseContext

MODEL_FRAME = "__model__"


def join(scope: str, name: str) -> str:
    """Scoped name ``scope::name`` (just ``name`` at the root scope ``""``)."""
    return f"{scope}::{name}" if scope else name


def model_frame(scope: str) -> str:
    """Graph key of the model frame of ``scope`` (root: ``"__model__"``)."""
    return scope if scope else MODEL_FRAME


def parse_pose(elem: etree._Element | None, ctx: ParseContext) -> np.ndarray:
    """The transform (4, 4) written in a ``<pose>`` element (identity when ``elem`` is None or
    empty).

    Accepts ``x y z roll pitch yaw`` (m, rad; ``degrees="true"`` for degrees, SDFormat ≥ 1.9)
    and ``rotation_format="quat_xyzw"`` with ``x y z qx qy qz qw`` (SDFormat ≥ 1.9).

    Raises:
        InvalidValueError: wrong number of values, non-numbers, unknown ``rotation_format``,
            or a zero quaternion.
    """
    t = np.eye(4)
    if elem is None:
        return t
    if elem.get("frame"):
        ctx.warn(
            elem,
            f"the SDFormat 1.5/1.6 pose attribute frame={elem.get('frame')!r} is ignored (as "
            "libsdformat does); use relative_to (SDFormat >= 1.7)",
        )
    text = (elem.text or "").strip()
    if not text:
        return t
    fmt = elem.get("rotation_format", "euler_rpy")
    if fmt == "euler_rpy":
        values = ctx.vector(elem, text, 6, "<pose>")
        rpy = values[3:]
        if parse_bool(elem.get("degrees")) is True:
            rpy = tuple(math.radians(v) for v in rpy)
        t[:3, :3] = rpy_to_matrix(rpy)  # type: ignore[arg-type]  # (the last 3 of 6 values)
    elif fmt == "quat_xyzw":
        values = ctx.vector(elem, text, 7, "<pose> (quat_xyzw)")
        try:
            t[:3, :3] = quaternion_to_matrix(values[3:])  # type: ignore[arg-type]  # (x y z w)
        except ValueError:
            raise ctx.error(
                InvalidValueError,
                elem,
                "the pose quaternion is (0, 0, 0, 0)",
                "give a non-zero unit quaternion",
            ) from None
    else:
        raise ctx.error(
            InvalidValueError,
            elem,
            f"rotation_format is {fmt!r}",
            'use rotation_format="euler_rpy" or "quat_xyzw"',
        )
    t[:3, 3] = values[:3]
    return t


@dataclass
class FrameNode:
    """One frame of the graph.

    Attributes:
        key: scoped name (graph key).
        kind: ``"model"``, ``"link"``, ``"joint"`` or ``"frame"``.
        relative_to: key of the frame ``pose`` is expressed in (``None`` only for the root).
        pose: (4, 4) transform of this frame in ``relative_to``.
        attached_to: key of the frame this one is attached to (frames: ``attached_to``; joints:
            the child link; models: the canonical link; links: ``None``).
        elem: the element, for messages; ctx: its file's parse context.
    """

    key: str
    kind: str
    relative_to: str | None
    pose: np.ndarray
    attached_to: str | None
    elem: etree._Element | None
    ctx: ParseContext


class FrameGraph:
    """Frames of one top-level model, keyed by scoped name; see the module docstring."""

    def __init__(self) -> None:
        self.nodes: dict[str, FrameNode] = {}
        self._resolved: dict[str, np.ndarray] = {}

    def add(self, node: FrameNode) -> None:
        """Add ``node`` (the caller checks for duplicate names)."""
        self.nodes[node.key] = node

    def lookup(
        self, scope: str, ref: str, elem: etree._Element, ctx: ParseContext, what: str
    ) -> str:
        """Graph key of the frame named ``ref`` as seen from model ``scope``.

        ``__model__`` is the scope's model frame; other names (possibly scoped, ``M2::L5``) are
        looked up inside ``scope``.

        Raises:
            MissingReferenceError: no such frame in the scope.
        """
        if ref == MODEL_FRAME:
            return model_frame(scope)
        if ref.startswith(MODEL_FRAME + "::"):
            ref = ref[len(MODEL_FRAME) + 2 :]
        key = join(scope, ref)
        if key in self.nodes:
            return key
        known = sorted(
            k.split("::")[-1] if not scope else k[len(scope) + 2 :]
            for k in self.nodes
            if k != MODEL_FRAME and (not scope or k.startswith(scope + "::"))
        )
        raise ctx.error(
            MissingReferenceError,
            elem,
            f"{what} {ref!r} is not a frame of model {scope or MODEL_FRAME!r} (known: "
            f"{', '.join(known) or 'none'})",
            "name an existing link, joint, frame or nested model of that model, or "
            f"{MODEL_FRAME!r}",
        )

    def resolve(self, key: str) -> np.ndarray:
        """Transform (4, 4) of frame ``key`` in the root model frame.

        Raises:
            KinematicTreeError: the ``relative_to`` edges form a cycle.
        """
        if key in self._resolved:
            return self._resolved[key]
        chain: list[str] = []
        seen: set[str] = set()
        cur: str | None = key
        while cur is not None and cur not in self._resolved:
            if cur in seen:
                node = self.nodes[key]
                cycle = " -> ".join(chain[chain.index(cur) :] + [cur])
                raise node.ctx.error(
                    KinematicTreeError,
                    node.elem,
                    f"the pose relative_to frames form a cycle: {cycle}",
                    "make one of these poses relative to a frame outside the cycle",
                )
            seen.add(cur)
            chain.append(cur)
            cur = self.nodes[cur].relative_to
        base = self._resolved[cur] if cur is not None else np.eye(4)
        for name in reversed(chain):
            base = base @ self.nodes[name].pose
            self._resolved[name] = base
        return self._resolved[key]

    def attached_link(self, key: str) -> str:
        """The link a frame is ultimately attached to (a link is attached to itself).

        Raises:
            KinematicTreeError: the ``attached_to`` edges form a cycle.
            MissingReferenceError: the chain ends at a model without links.
        """
        seen: list[str] = []
        cur = key
        while True:
            node = self.nodes[cur]
            if node.kind == "link":
                return cur
            if cur in seen:
                start = self.nodes[key]
                raise start.ctx.error(
                    KinematicTreeError,
                    start.elem,
                    "the attached_to frames form a cycle: "
                    f"{' -> '.join(seen[seen.index(cur) :] + [cur])}",
                    "attach one of these frames to a link",
                )
            seen.append(cur)
            if node.attached_to is None:
                raise node.ctx.error(
                    MissingReferenceError,
                    node.elem,
                    f"frame {key!r} is not attached to any link (model {cur!r} has no link)",
                    "attach it to a link, or give the model a link",
                )
            cur = node.attached_to
