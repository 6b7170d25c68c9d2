"""An element of a flattened SDFormat model with the scope it was read in: the unit of work of
:mod:`~sdf_bridge.description.sdf.model`'s two passes (pass 1 registers it, pass 2 turns it into a
model type), and its frame lookups (``__model__`` of an element of a merged model names the frame it
was merged as).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ..xmlio import ParseContext
from .frames import MODEL_FRAME, FrameGraph


@dataclass
class ScopedElement:
    """An element waiting for pass 2: its scope, file context, base dir, version and graph key
    (``""`` for elements that are not frames: ``<ros2_control>``, ``<transmission>``); ``frame``
    is the frame ``__model__`` names for it when that is not its scope's model frame (an
    element of a model merged into its parent, ``<include merge="true">``)."""

    elem: etree._Element
    scope: str
    ctx: ParseContext
    base_dir: Path
    version: tuple[int, int]
    key: str = ""
    frame: str | None = None

    def lookup(self, graph: FrameGraph, ref: str, elem: etree._Element, what: str) -> str:
        """:meth:`FrameGraph.lookup` from this element's model."""
        if ref == MODEL_FRAME and self.frame is not None:
            return self.frame
        return graph.lookup(self.scope, ref, elem, self.ctx, what)
