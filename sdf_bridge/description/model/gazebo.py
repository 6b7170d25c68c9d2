"""Gazebo extensions and SDFormat plugins, kept for export and plug-ins."""

from __future__ import annotations

from dataclasses import dataclass

from .source import Source


@dataclass(frozen=True)
class GazeboExtension:
    """A URDF ``<gazebo>`` element.

    Attributes:
        reference: the link or joint it extends, or ``None`` for the model.
        properties: simple child elements (no children themselves) as (tag, text) pairs,
            e.g. ``("mu1", "0.2")``, ``("disableFixedJointLumping", "true")``.
        raw_xml: the whole element serialised (sensors and plugins included).
    """

    reference: str | None = None
    properties: tuple[tuple[str, str], ...] = ()
    raw_xml: str = ""
    source: Source | None = None

    def property(self, tag: str) -> str | None:
        """Text of the first simple child ``tag``, or ``None``."""
        for key, value in self.properties:
            if key == tag:
                return value
        return None


@dataclass(frozen=True)
class Plugin:
    """A ``<plugin>`` element (SDFormat, or inside ``<gazebo>``), kept raw."""

    name: str
    filename: str
    raw_xml: str = ""
    source: Source | None = None
