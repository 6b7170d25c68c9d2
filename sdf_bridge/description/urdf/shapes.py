"""URDF visual and collision shapes and materials, as urdfdom reads them (a part of the URDF
reader, :mod:`.urdf`)."""

from __future__ import annotations

from lxml import etree

from ...errors import InvalidValueError, PathResolutionError, RefusedPathError, UnsupportedError
from ...util.similarity import close_match
from ..confine import REFUSED_MESH, refused_mesh_warning
from ..model import Box, Capsule, Cylinder, Material, Mesh, Sphere
from ..model.geometry import Geometry
from ..resolve import resolve_uri, unresolved_reason

_MATERIAL_TAGS = frozenset({"color", "texture"})
_ZERO3 = (0.0, 0.0, 0.0)


class ShapeReading:
    """The URDF reader's ``<material>`` and ``<geometry>`` parts. The reader that uses it
    provides ``ctx`` (:class:`~.xmlio.ParseContext`), ``materials`` (name → robot-level
    :class:`Material`), ``vec3``, ``size`` and ``unknown`` (element readers), and the mesh
    resolution state ``base_dir``, ``package_paths``, ``packages``, ``resolved`` and
    ``unresolved``."""

    def material(self, elem: etree._Element, *, robot_level: bool) -> Material:
        """A ``<material>``: a definition (color and/or texture) or, inside a visual, a
        reference."""
        name = elem.get("name")
        color = None
        texture = None
        for child in elem:
            tag = child.tag
            if tag == "color":
                rgba = child.get("rgba")
                if rgba is None:
                    raise self.ctx.error(
                        InvalidValueError,
                        child,
                        "<color> has no rgba attribute",
                        'write <color rgba="r g b a"/>',
                    )
                color = self.ctx.vector(child, rgba, 4, "attribute 'rgba'")
            elif tag == "texture":
                texture = child.get("filename")
            elif isinstance(tag, str):
                self.unknown(child, elem, _MATERIAL_TAGS)
        if color is None and texture is None:
            if robot_level:
                raise self.ctx.error(
                    InvalidValueError,
                    elem,
                    "robot-level material defines neither <color> nor <texture>",
                    'add <color rgba="r g b a"/> or <texture filename="..."/>',
                )
            if not name:
                raise self.ctx.error(
                    InvalidValueError,
                    elem,
                    "material has no name, color or texture",
                    "name a robot-level material or give a <color>",
                )
            found = self.materials.get(name)
            if found is None:  # urdfdom warns ("material ... undefined") and keeps the visual
                self.ctx.warn(
                    elem,
                    f'material {name!r} is not defined (no robot-level <material name="{name}">, '
                    "no "
                    "<color>); the visual has no colour, as urdfdom reads it",
                )
                return Material(name=name)
            return found
        material = Material(name=name or None, color=color, texture=texture)
        if not robot_level and name and name not in self.materials:
            self.materials[name] = material  # urdfdom makes named inline materials global too
        return material

    def geometry(self, elem: etree._Element) -> Geometry:
        """The shape inside ``<geometry>``; of several, the first (as urdfdom reads it), with a
        warning naming the others."""
        shapes = [c for c in elem if isinstance(c.tag, str)]
        if not shapes:
            raise self.ctx.error(
                InvalidValueError,
                elem,
                "<geometry> holds no shape",
                "give one of <box>, <cylinder>, <sphere>, <mesh>, <capsule>",
            )
        shape = shapes[0]
        if len(shapes) > 1:
            others = ", ".join(f"<{c.tag}>" for c in shapes[1:])
            self.ctx.warn(
                elem,
                f"<geometry> holds {len(shapes)} shapes; the first, <{shape.tag}>, is read and "
                f"{others} ignored, as urdfdom reads it",
            )
        tag = shape.tag
        if tag == "box":
            size = shape.get("size")
            if size is None:
                raise self.ctx.error(
                    InvalidValueError, shape, "<box> has no size", 'write <box size="x y z"/>'
                )
            box = self.vec3(shape, "size", _ZERO3)
            if min(box) < 0.0:
                raise self.ctx.error(
                    InvalidValueError,
                    shape,
                    f"<box> size {size!r} has a negative edge",
                    "give edge lengths >= 0 m",
                )
            return Box(box)
        if tag == "cylinder":
            return Cylinder(self.size(shape, "radius"), self.size(shape, "length"))
        if tag == "sphere":
            return Sphere(self.size(shape, "radius"))
        if tag == "capsule":
            return Capsule(self.size(shape, "radius"), self.size(shape, "length"))
        if tag == "mesh":
            filename = shape.get("filename")
            if not filename:
                raise self.ctx.error(
                    InvalidValueError,
                    shape,
                    "<mesh> has no filename",
                    'write <mesh filename="package://..."/>',
                )
            scale = self.vec3(shape, "scale", (1.0, 1.0, 1.0))
            if filename in self.resolved:
                resolved = self.resolved[filename]
            else:
                try:
                    resolved = resolve_uri(
                        filename,
                        base_dir=self.base_dir,
                        package_paths=self.package_paths,
                        file=self.ctx.file,
                        cache=self.packages,
                        network=self.ctx.network,
                    )
                except RefusedPathError as exc:  # a network description: the mesh is left out
                    resolved = None
                    if REFUSED_MESH not in self.unresolved:
                        self.unresolved.add(REFUSED_MESH)
                        self.ctx.warn(shape, refused_mesh_warning(exc))
                except PathResolutionError as exc:
                    raise self.ctx.error(
                        PathResolutionError, shape, exc.problem, exc.fix or ""
                    ) from None
                self.resolved[filename] = resolved
                reason = unresolved_reason(filename) if resolved is None else None
                if reason is not None and reason not in self.unresolved:
                    self.unresolved.add(reason)
                    self.ctx.warn(shape, reason)
            return Mesh(filename=filename, scale=scale, resolved=resolved)
        match = close_match(str(tag), ("box", "cylinder", "sphere", "mesh", "capsule"))
        raise self.ctx.error(
            UnsupportedError,
            shape,
            f"unknown geometry <{tag}>" + (f"; did you mean <{match}>?" if match else ""),
            "use <box>, <cylinder>, <sphere>, <mesh> or <capsule>",
        )
