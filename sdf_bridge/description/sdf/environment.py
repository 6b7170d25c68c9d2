"""A world's ``<magnetic_field>`` and ``<spherical_coordinates>`` →
:class:`~sdf_bridge.description.model.Environment`, read as libsdformat's ``sdf::World`` reads
them (``World::Implementation::LoadSphericalCoordinates``): absent elements take SDFormat's
defaults; a surface model or world frame orientation libsdformat refuses is an error; a custom
surface's axes that gz-math's ``SphericalCoordinates::SetSurface`` does not take (not
``0 < polar <= equatorial``) are replaced by WGS 84's, as gz-math does, with a warning.
"""

from __future__ import annotations

from lxml import etree

from ...errors import InvalidValueError
from ..model import (
    DEFAULT_MAGNETIC_FIELD,
    SURFACE_MODELS,
    Environment,
    SphericalCoordinates,
)
from ..xmlio import ParseContext

#: ``<world_frame_orientation>`` values libsdformat accepts.
WORLD_FRAME_ORIENTATIONS = ("ENU",)


def _number(ctx: ParseContext, elem: etree._Element, tag: str, default: float) -> float:
    child = elem.find(tag)
    if child is None:
        return default
    return ctx.to_float(child, child.text, f"<spherical_coordinates><{tag}>")


def _choice(
    ctx: ParseContext, elem: etree._Element, tag: str, allowed: tuple[str, ...], fix: str
) -> str:
    """Child ``tag``'s text, ``allowed[0]`` (libsdformat's default) when absent.

    Raises:
        InvalidValueError: a text not in ``allowed``.
    """
    text = ctx.child_text(elem, tag) or allowed[0]
    if text not in allowed:
        raise ctx.error(
            InvalidValueError,
            elem.find(tag),
            f"<{tag}> is {text!r}, which libsdformat does not support",
            fix,
        )
    return text


def parse_spherical_coordinates(ctx: ParseContext, elem: etree._Element) -> SphericalCoordinates:
    """One ``<spherical_coordinates>`` element (module doc).

    Raises:
        InvalidValueError: a number that is not a finite number, a ``<surface_model>`` not
            in :data:`~sdf_bridge.description.model.SURFACE_MODELS`, a
            ``<world_frame_orientation>`` other than ``ENU``, a ``CUSTOM_SURFACE`` without
            ``<surface_axis_equatorial>`` and ``<surface_axis_polar>``.
    """
    surface = _choice(
        ctx, elem, "surface_model", SURFACE_MODELS, f"use one of {', '.join(SURFACE_MODELS)}"
    )
    _choice(
        ctx,
        elem,
        "world_frame_orientation",
        WORLD_FRAME_ORIENTATIONS,
        "use ENU (turn the world frame with <heading_deg>)",
    )
    axes = {"surface_axis_equatorial": 0.0, "surface_axis_polar": 0.0}
    if surface == "CUSTOM_SURFACE":
        for tag in axes:
            if elem.find(tag) is None:
                raise ctx.error(
                    InvalidValueError,
                    elem,
                    f"a CUSTOM_SURFACE needs <{tag}>",
                    "give the surface's semi-axes in m: <surface_axis_equatorial> and "
                    "<surface_axis_polar>",
                )
            axes[tag] = _number(ctx, elem, tag, 0.0)
        equatorial, polar = axes.values()
        if not 0.0 < polar <= equatorial:
            ctx.warn(
                elem,
                f"CUSTOM_SURFACE axes equatorial {equatorial:g} m, polar {polar:g} m are not "
                "0 < polar <= equatorial; WGS 84's are used, as gz-math does",
            )
            surface, axes = "EARTH_WGS84", dict.fromkeys(axes, 0.0)
    latitude = _number(ctx, elem, "latitude_deg", 0.0)
    if not -90.0 <= latitude <= 90.0:
        ctx.warn(
            elem.find("latitude_deg"),
            f"<latitude_deg> is {latitude:g}, beyond ±90°; used as written, as gz-math does",
        )
    return SphericalCoordinates(
        surface_model=surface,
        latitude_deg=latitude,
        longitude_deg=_number(ctx, elem, "longitude_deg", 0.0),
        elevation=_number(ctx, elem, "elevation", 0.0),
        heading_deg=_number(ctx, elem, "heading_deg", 0.0),
        **axes,
    )


def parse_environment(ctx: ParseContext, world: etree._Element) -> Environment:
    """The ``<magnetic_field>`` (T; :data:`~sdf_bridge.description.model.DEFAULT_MAGNETIC_FIELD`
    when absent) and ``<spherical_coordinates>`` (``None`` when absent) of ``world``.

    Raises:
        InvalidValueError: a ``<magnetic_field>`` that is not 3 finite numbers; a bad
            ``<spherical_coordinates>`` (:func:`parse_spherical_coordinates`).
    """
    field = world.find("magnetic_field")
    magnetic_field = DEFAULT_MAGNETIC_FIELD
    if field is not None:
        x, y, z = ctx.vector(field, field.text, 3, "<magnetic_field>")
        magnetic_field = (x, y, z)
    spherical = world.find("spherical_coordinates")
    return Environment(
        magnetic_field=magnetic_field,
        spherical_coordinates=None
        if spherical is None
        else parse_spherical_coordinates(ctx, spherical),
    )


__all__ = ["WORLD_FRAME_ORIENTATIONS", "parse_environment", "parse_spherical_coordinates"]
