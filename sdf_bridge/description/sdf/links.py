"""SDFormat ``<link>`` contents: inertial, visual and collision geometry, materials.

Poses are resolved by the caller (:mod:`~sdf_bridge.description.sdf.model`), which passes the
element's pose in the link frame; this module reads values and resolves mesh URIs
(:func:`make_mesh_resolver`). Geometry units are m; mass kg; inertia kg·m².
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from lxml import etree

from ...errors import InvalidValueError, RefusedPathError, UnsupportedError
from ..confine import (
    FIX,
    REFUSED_MESH,
    is_confined,
    local_file_refusal,
    outside_refusal,
    refused_mesh_warning,
)
from ..model import (
    Box,
    Capsule,
    Collision,
    Cylinder,
    Ellipsoid,
    Geometry,
    Inertia,
    Inertial,
    Material,
    Mesh,
    Plane,
    Pose,
    Sphere,
    Visual,
)
from ..resolve import PackagePaths, resolve_uri, split_package_uri, unresolved_reason
from ..xmlio import ParseContext


def _positive(
    ctx: ParseContext, elem: etree._Element, tag: str, *, default: float | None = None
) -> float:
    """Child ``tag`` of ``elem`` as a length ≥ 0 m (``default`` when absent).

    Raises:
        InvalidValueError: absent without default, not a number, or negative.
    """
    value = ctx.child_float(elem, tag, default)
    if value is None:
        raise ctx.error(
            InvalidValueError, elem, f"<{tag}> is missing", f"add <{tag}> (m) to the shape"
        )
    if value < 0:
        raise ctx.error(
            InvalidValueError, elem, f"<{tag}> is {value}, negative", f"give a non-negative <{tag}>"
        )
    return value


def _sizes(
    ctx: ParseContext, elem: etree._Element, tag: str, default: str, n: int
) -> tuple[float, ...]:
    """Child ``tag`` of ``elem`` as ``n`` lengths ≥ 0 m (``default`` text when absent).

    Raises:
        InvalidValueError: wrong count, not numbers, or a negative entry.
    """
    child = elem.find(tag)
    values = ctx.vector(
        elem if child is None else child, ctx.child_text(elem, tag, default), n, f"<{tag}>"
    )
    if min(values) < 0:
        raise ctx.error(
            InvalidValueError,
            elem,
            f"<{tag}> {values} has a negative entry",
            f"give <{tag}> values >= 0 m",
        )
    return values


#: ``(uri, base directory) → local file path`` of a mesh, or ``None`` when it cannot be found.
MeshResolver = Callable[[str, Path], "str | None"]


def make_mesh_resolver(
    search: Sequence[Path],
    package_paths: PackagePaths | None,
    file: str | None,
    warn: Callable[[str], None] | None = None,
    *,
    network: bool = False,
    text_base: Path | None = None,
) -> MeshResolver:
    """A resolver of mesh URIs: ``model://name/rel`` → the first existing ``<dir>/name/rel`` on the
    include search path; ``package://``, ``file://``, absolute and relative paths through
    :func:`~sdf_bridge.description.resolve.resolve_uri` (relative to the file's directory).

    ``warn`` is called once per unknown package (or ``model://`` URI) whose paths stay
    unresolved (``None``).

    ``network``: the description came from the network, so its mesh paths are confined
    (:mod:`sdf_bridge.description.confine`): a ``model://`` path must stay inside the search path, a
    relative path is resolved only from an included file's directory (inside it), never from
    ``text_base`` (the base directory of the network text itself: the current directory). A refused
    path stays unresolved, with one warning per load (through ``warn``).

    Raises (when called):
        PathResolutionError: a ``package://`` path leaves its package.
    """
    cache: dict = {}
    warned: set[str] = set()

    def lookup(uri: str, base_dir: Path) -> str | None:
        if uri.startswith("model://"):
            rest = uri[len("model://") :]
            for directory in search:
                candidate = directory / rest
                if network and not is_confined(candidate, [directory]):
                    raise RefusedPathError(outside_refusal("mesh", uri), file=file, fix=FIX)
                if candidate.exists():
                    return os.path.normpath(os.fspath(candidate.resolve()))
            return None
        if network and base_dir == text_base and split_package_uri(uri) is None:
            if not uri.startswith(("http://", "https://", "ftp://")):  # (never resolved)
                raise RefusedPathError(local_file_refusal("mesh", uri), file=file, fix=FIX)
        return resolve_uri(
            uri,
            base_dir=base_dir,
            package_paths=package_paths,
            file=file,
            cache=cache,
            network=network,
        )

    def resolve(uri: str, base_dir: Path) -> str | None:
        try:
            resolved = lookup(uri, base_dir)
        except RefusedPathError as exc:  # a network description: the mesh is left out
            if REFUSED_MESH not in warned and warn is not None:
                warned.add(REFUSED_MESH)
                warn(refused_mesh_warning(exc))
            return None
        reason = unresolved_reason(uri) if resolved is None and warn is not None else None
        if reason is not None and reason not in warned:
            warned.add(reason)
            warn(reason)  # type: ignore[misc]  # (reason is None when warn is None)
        return resolved

    return resolve


def _default_resolver(uri: str, base_dir: Path) -> str | None:
    return resolve_uri(uri, base_dir=base_dir)


def parse_geometry(
    elem: etree._Element,
    ctx: ParseContext,
    *,
    base_dir: Path,
    resolve: MeshResolver = _default_resolver,
) -> Geometry:
    """The shape inside a ``<geometry>`` element.

    Defaults are the SDFormat spec's (box size 1 1 1, sphere radius 1, cylinder radius 1 /
    length 1, capsule radius 0.5 / length 1, plane normal 0 0 1 / size 1 1).

    Raises:
        InvalidValueError: no shape, negative sizes, non-numbers.
        UnsupportedError: a shape this model has no type for (heightmap, polyline, image).
    """
    shapes = [c for c in elem if isinstance(c.tag, str) and c.tag != "empty"]
    if not shapes:
        raise ctx.error(
            InvalidValueError,
            elem,
            "<geometry> holds no shape",
            "add <box>, <cylinder>, <sphere>, <mesh>, ...",
        )
    shape = shapes[0]
    tag = shape.tag
    if tag == "box":
        return Box(
            size=_sizes(ctx, shape, "size", "1 1 1", 3),  # type: ignore[arg-type]  # (3 floats)
        )
    if tag == "sphere":
        return Sphere(radius=_positive(ctx, shape, "radius", default=1.0))
    if tag == "cylinder":
        return Cylinder(
            radius=_positive(ctx, shape, "radius", default=1.0),
            length=_positive(ctx, shape, "length", default=1.0),
        )
    if tag == "capsule":
        return Capsule(
            radius=_positive(ctx, shape, "radius", default=0.5),
            length=_positive(ctx, shape, "length", default=1.0),
        )
    if tag == "ellipsoid":
        return Ellipsoid(
            radii=_sizes(ctx, shape, "radii", "1 1 1", 3),  # type: ignore[arg-type]  # (3 floats)
        )
    if tag == "plane":
        normal = ctx.vector(shape, ctx.child_text(shape, "normal", "0 0 1"), 3, "<normal>")
        return Plane(
            normal=normal,  # type: ignore[arg-type]  # (ctx.vector(..., 3, ...): 3 floats)
            size=_sizes(ctx, shape, "size", "1 1", 2),  # type: ignore[arg-type]  # (2 floats)
        )
    if tag == "mesh":
        uri = ctx.child_text(shape, "uri")
        if not uri:
            raise ctx.error(
                InvalidValueError, shape, "<mesh> has no <uri>", "add <uri> naming the mesh file"
            )
        scale = ctx.vector(shape, ctx.child_text(shape, "scale", "1 1 1"), 3, "<scale>")
        resolved = resolve(uri, base_dir)
        return Mesh(
            filename=uri,
            scale=scale,  # type: ignore[arg-type]  # (ctx.vector(..., 3, ...): 3 floats)
            resolved=resolved,
        )
    raise ctx.error(
        UnsupportedError,
        shape,
        f"geometry <{tag}> is not supported",
        "use box, cylinder, sphere, capsule, ellipsoid, plane or mesh",
    )


def parse_material(elem: etree._Element | None, ctx: ParseContext) -> Material | None:
    """Colour of a visual's ``<material>``: ``<diffuse>`` (else ``<ambient>``) RGBA; script name
    kept. Three numbers are RGB with alpha 1, as libsdformat's ``gz::math::Color`` reads them.

    Raises:
        InvalidValueError: a colour that is neither 3 nor 4 numbers.
    """
    if elem is None:
        return None
    color = None
    for tag in ("diffuse", "ambient"):
        text = ctx.child_text(elem, tag)
        if text:
            n = 3 if len(text.split()) == 3 else 4
            values = ctx.vector(elem.find(tag), text, n, f"<{tag}>")
            color = (*values, 1.0) if n == 3 else values
            break
    name = ctx.child_text(elem.find("script"), "name") if elem.find("script") is not None else None
    return Material(name=name, color=color)  # type: ignore[arg-type]  # (4 floats: RGBA)


def parse_inertial(elem: etree._Element, ctx: ParseContext, origin: Pose) -> Inertial:
    """``<inertial>`` with its pose ``origin`` (centre of mass in the link frame) already resolved.

    Defaults per the SDFormat spec: mass 1 kg, ixx = iyy = izz = 1, products 0.

    Raises:
        InvalidValueError: non-numbers or a negative mass.
    """
    mass = ctx.child_float(elem, "mass", 1.0)
    assert mass is not None
    if mass < 0:
        raise ctx.error(InvalidValueError, elem, f"mass is {mass}, negative", "give a mass >= 0 kg")
    ie = elem.find("inertia")
    if ie is None:
        inertia = Inertia(ixx=1.0, iyy=1.0, izz=1.0)
    else:
        vals = {
            k: ctx.child_float(ie, k, 1.0 if k in ("ixx", "iyy", "izz") else 0.0)
            for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
        }
        inertia = Inertia(**vals)  # type: ignore[arg-type]  # (float defaults: no None)
    return Inertial(mass=mass, inertia=inertia, origin=origin, source=ctx.source(elem))


def parse_visual(
    elem: etree._Element,
    ctx: ParseContext,
    origin: Pose,
    *,
    base_dir: Path,
    resolve: MeshResolver = _default_resolver,
) -> Visual:
    """A ``<visual>`` with its resolved ``origin`` in the link frame.

    Raises:
        InvalidValueError: no ``<geometry>`` (or a bad one).
    """
    geometry = elem.find("geometry")
    if geometry is None:
        raise ctx.error(
            InvalidValueError, elem, "<visual> has no <geometry>", "add a <geometry> element"
        )
    return Visual(
        geometry=parse_geometry(geometry, ctx, base_dir=base_dir, resolve=resolve),
        origin=origin,
        name=elem.get("name"),
        material=parse_material(elem.find("material"), ctx),
    )


def parse_collision(
    elem: etree._Element,
    ctx: ParseContext,
    origin: Pose,
    *,
    base_dir: Path,
    resolve: MeshResolver = _default_resolver,
) -> Collision:
    """A ``<collision>`` with its resolved ``origin`` in the link frame.

    Raises:
        InvalidValueError: no ``<geometry>`` (or a bad one).
    """
    geometry = elem.find("geometry")
    if geometry is None:
        raise ctx.error(
            InvalidValueError, elem, "<collision> has no <geometry>", "add a <geometry> element"
        )
    return Collision(
        geometry=parse_geometry(geometry, ctx, base_dir=base_dir, resolve=resolve),
        origin=origin,
        name=elem.get("name"),
    )
