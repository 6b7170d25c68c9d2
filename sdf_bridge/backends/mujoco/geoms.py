"""Geometry of links in MuJoCo: collision and visual geoms, mesh assets, ground clearance.

Shapes (MuJoCo sizes are half extents): box → half sizes; cylinder and capsule → (radius, half
length); sphere → radius; ellipsoid → semi-axes; plane → half sizes (infinite when 0), oriented
by its normal; meshes MuJoCo reads (binary STL, OBJ, MSH) from ``Mesh.resolved``, other formats
(COLLADA, ASCII STL, …) converted through ``trimesh`` when installed; a mesh that cannot be read
is skipped with one warning naming the file. A degenerate shape (a zero or negative size:
``<box size="0 0 0"/>``, a zero radius or length; MuJoCo refuses to compile it) is left out
with one warning per geom (:func:`degenerate`); so is a mesh of no triangles (an empty binary
STL) or scaled by 0 along an axis, with one warning per file.

Collision filtering: robot collision geoms (group :data:`COLLISION_GROUP`) touch the ground
plane but not each other (URDF/Gazebo default; ``self_collide`` turns that on); visual geoms
(group :data:`VISUAL_GROUP`) never collide.
"""

from __future__ import annotations

import importlib.util
import math
import os
from collections.abc import Callable, Sequence

import mujoco
import numpy as np

from ...description.model import (
    Box,
    Capsule,
    Cylinder,
    Ellipsoid,
    Geometry,
    Mesh,
    Plane,
    Pose,
    Sphere,
)
from ...description.model.pose import matrix_to_quaternion
from ...errors import BackendError

COLLISION_GROUP = 3
"""MuJoCo geom group of collision geoms (hidden in renders, seen by rays)."""
VISUAL_GROUP = 1
"""MuJoCo geom group of visual geoms (rendered, not colliding, not seen by rays)."""
GROUND_NAME = "ground_plane"
"""Name of the ground plane geom."""

ROBOT_CONTYPE, ROBOT_CONAFFINITY = 2, 1  # robot geoms touch the ground, not each other
GROUND_CONTYPE, GROUND_CONAFFINITY = 1, 2
_MUJOCO_MESH_EXT = (".stl", ".obj", ".msh")


def wxyz(rot: np.ndarray) -> list[float]:
    """MuJoCo quaternion (w, x, y, z) of a (3, 3) rotation matrix."""
    x, y, z, w = matrix_to_quaternion(rot)
    return [w, x, y, z]


def set_frame(element: object, transform: np.ndarray) -> None:
    """Set ``pos`` and ``quat`` of an MjSpec element from a (4, 4) transform."""
    pos = [float(v) for v in transform[:3, 3]]
    element.pos = pos  # type: ignore[attr-defined]  # (an MjSpec element: it has pos and quat)
    element.quat = wxyz(transform[:3, :3])  # type: ignore[attr-defined]  # (likewise)


def z_to(normal: Sequence[float]) -> np.ndarray:
    """Rotation (3, 3) taking +z to the unit vector ``normal``."""
    n = np.asarray(normal, dtype=float)
    n = n / np.linalg.norm(n)
    z = np.array([0.0, 0.0, 1.0])
    c = float(z @ n)
    if c > 1.0 - 1e-12:
        return np.eye(3)
    if c < -1.0 + 1e-12:
        return np.diag([1.0, -1.0, -1.0])
    v = np.cross(z, n)
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + k + k @ k / (1.0 + c)


class MeshLoader:
    """Adds mesh assets once per (file, scale); remembers failures to warn once per file.

    Args:
        spec: the MjSpec receiving the mesh assets.
        note: called with one warning message per unreadable mesh file.
    """

    def __init__(self, spec: mujoco.MjSpec, note: Callable[[str], None]) -> None:
        self._spec = spec
        self._note = note
        self._assets: dict[tuple[str, tuple[float, float, float]], str | None] = {}
        self._warned: set[str] = set()
        self._trimesh = importlib.util.find_spec("trimesh") is not None

    def note(self, message: str) -> None:
        """Pass a warning about the model's geometry to the builder's ``note``."""
        self._note(message)

    def _skip(self, mesh: Mesh, why: str) -> None:
        if mesh.filename not in self._warned:
            self._warned.add(mesh.filename)
            self._note(f"mesh {mesh.filename!r} {why}; its geoms are skipped")

    def asset(self, mesh: Mesh) -> str | None:
        """Name of the mesh asset for ``mesh``, or ``None`` when it cannot be read (warned)."""
        key = (mesh.resolved or mesh.filename, tuple(mesh.scale))
        if key in self._assets:
            return self._assets[key]
        name = f"mesh{len(self._assets)}"
        result: str | None = None
        if mesh.resolved is None or not os.path.isfile(mesh.resolved):
            self._skip(mesh, "was not found")
        elif not all(mesh.scale):
            self._skip(mesh, f"is scaled by {' '.join(f'{v:g}' for v in mesh.scale)} (flat)")
        elif empty_binary_stl(mesh.resolved):
            self._skip(mesh, "has no triangles")
        elif mesh.resolved.lower().endswith(_MUJOCO_MESH_EXT) and not is_ascii_stl(mesh.resolved):
            self._spec.add_mesh(name=name, file=mesh.resolved, scale=list(mesh.scale))
            result = name
        elif self._trimesh:
            result = self._convert(mesh, name)
        else:
            self._skip(
                mesh,
                "is in a format MuJoCo cannot read (it reads binary STL, OBJ, MSH) and trimesh "
                "is not installed",
            )
        self._assets[key] = result  # type: ignore[index]  # (tuple(mesh.scale): 3 floats)
        return result

    def _convert(self, mesh: Mesh, name: str) -> str | None:
        import trimesh  # optional dependency, checked by find_spec

        try:
            loaded = trimesh.load(mesh.resolved, force="mesh")
        except Exception as exc:  # trimesh raises many types for unreadable files
            self._skip(mesh, f"could not be converted by trimesh ({exc})")
            return None
        vertices = np.asarray(loaded.vertices, dtype=float) * np.asarray(mesh.scale)
        faces = np.asarray(loaded.faces, dtype=np.int32)
        if len(faces) == 0:
            self._skip(mesh, "has no triangles")
            return None
        self._spec.add_mesh(
            name=name, uservert=vertices.ravel().tolist(), userface=faces.ravel().tolist()
        )
        return name


def empty_binary_stl(path: str) -> bool:
    """True for a binary ``.stl`` file of no triangles (MuJoCo refuses it; empty meshes are
    written by exporters for placeholder links)."""
    if not path.lower().endswith(".stl") or is_ascii_stl(path):
        return False
    with open(path, "rb") as handle:
        header = handle.read(84)
    return int.from_bytes(header[80:84], "little") == 0


def is_ascii_stl(path: str) -> bool:
    """True for an ``.stl`` file that is not binary STL (MuJoCo reads binary STL only): a binary
    file is exactly 84 + 50·n bytes, n being the little-endian count at byte 80."""
    if not path.lower().endswith(".stl"):
        return False
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        header = handle.read(84)
    if len(header) < 84:
        return True
    return size != 84 + 50 * int.from_bytes(header[80:84], "little")


def degenerate(geometry: Geometry) -> str | None:
    """Why MuJoCo cannot compile ``geometry`` (a zero or negative size it needs positive),
    or ``None``. Planes (0 = infinite) and meshes (read by :class:`MeshLoader`) are never
    degenerate here."""
    sizes: tuple[tuple[str, float], ...] = ()
    if isinstance(geometry, Box):
        sizes = tuple(zip(("size x", "size y", "size z"), geometry.size))
    elif isinstance(geometry, (Cylinder, Capsule)):
        sizes = (("radius", geometry.radius),)
        if isinstance(geometry, Cylinder):
            sizes += (("length", geometry.length),)
    elif isinstance(geometry, Sphere):
        sizes = (("radius", geometry.radius),)
    elif isinstance(geometry, Ellipsoid):
        sizes = tuple(zip(("radius x", "radius y", "radius z"), geometry.radii))
    bad = [f"{what} {value:g} m" for what, value in sizes if not value > 0.0]
    if not bad:
        return None
    return f"{type(geometry).__name__.lower()} with {', '.join(bad)}"


def add_geom(
    body: mujoco.MjsBody,
    geometry: Geometry,
    origin: Pose,
    meshes: MeshLoader,
    *,
    name: str | None,
    visual: bool,
    rgba: Sequence[float] | None,
    self_collide: bool,
) -> bool:
    """Add one geom for ``geometry`` at ``origin`` (link frame), named
    ``<link>::collision::<name>`` / ``<link>::visual::<name>`` when the element has a name.

    Returns:
        False when the geometry was skipped (an unreadable mesh (warned once per file) or a
        degenerate shape, :func:`degenerate`, warned through the mesh loader's ``note``).
    """
    reason = degenerate(geometry)
    if reason is not None:
        kind = "visual" if visual else "collision"
        meshes.note(
            f"link {body.name!r}: {kind}{f' {name!r}' if name else ''} is a {reason}, which "
            "MuJoCo cannot compile; left out of the MuJoCo model"
        )
        return False
    frame = origin.matrix()
    kwargs: dict[str, object] = {}
    if isinstance(geometry, Box):
        kwargs = {"type": mujoco.mjtGeom.mjGEOM_BOX, "size": [s / 2.0 for s in geometry.size]}
    elif isinstance(geometry, Cylinder):
        kwargs = {
            "type": mujoco.mjtGeom.mjGEOM_CYLINDER,
            "size": [geometry.radius, geometry.length / 2.0, 0],
        }
    elif isinstance(geometry, Sphere):
        kwargs = {"type": mujoco.mjtGeom.mjGEOM_SPHERE, "size": [geometry.radius, 0, 0]}
    elif isinstance(geometry, Capsule):
        kwargs = {
            "type": mujoco.mjtGeom.mjGEOM_CAPSULE,
            "size": [geometry.radius, geometry.length / 2.0, 0],
        }
    elif isinstance(geometry, Ellipsoid):
        kwargs = {"type": mujoco.mjtGeom.mjGEOM_ELLIPSOID, "size": list(geometry.radii)}
    elif isinstance(geometry, Plane):
        frame = frame.copy()
        frame[:3, :3] = frame[:3, :3] @ z_to(geometry.normal)
        sx, sy = geometry.size
        kwargs = {"type": mujoco.mjtGeom.mjGEOM_PLANE, "size": [sx / 2.0, sy / 2.0, 1.0]}
    elif isinstance(geometry, Mesh):
        asset = meshes.asset(geometry)
        if asset is None:
            return False
        kwargs = {"type": mujoco.mjtGeom.mjGEOM_MESH, "meshname": asset}
    else:  # pragma: no cover - the model's Geometry union is closed
        raise BackendError(
            f"geometry {type(geometry).__name__} is not supported by the MuJoCo backend"
        )
    geom = body.add_geom(**kwargs)
    if name:
        geom.name = f"{body.name}::{'visual' if visual else 'collision'}::{name}"
    set_frame(geom, frame)
    geom.mass = 0.0
    if visual:
        geom.contype, geom.conaffinity, geom.group = 0, 0, VISUAL_GROUP
    else:
        geom.group = COLLISION_GROUP
        geom.contype, geom.conaffinity = (
            (3, 3) if self_collide else (ROBOT_CONTYPE, ROBOT_CONAFFINITY)
        )
    if rgba is not None:
        geom.rgba = list(rgba)
    return True


def lowest_point(model: mujoco.MjModel, data: mujoco.MjData, geom: int) -> float:
    """World z (m) of the lowest point of ``geom`` at ``data``'s kinematics: exact for spheres,
    capsules, cylinders, ellipsoids and boxes (a shape's extent along world z in its frame);
    other shapes (meshes) by their bounding box in their frame."""
    gtype, size = model.geom_type[geom], model.geom_size[geom]
    down = np.asarray(data.geom_xmat[geom]).reshape(3, 3)[2]  # world z in the geom's frame
    z = float(data.geom_xpos[geom, 2])
    g = mujoco.mjtGeom
    if gtype == g.mjGEOM_SPHERE:
        return z - float(size[0])
    if gtype == g.mjGEOM_CAPSULE:
        return z - float(size[1]) * abs(float(down[2])) - float(size[0])
    if gtype == g.mjGEOM_CYLINDER:
        axial = abs(float(down[2]))
        return (
            z - float(size[1]) * axial - float(size[0]) * math.sqrt(max(0.0, 1.0 - axial * axial))
        )
    if gtype == g.mjGEOM_ELLIPSOID:
        return z - float(np.linalg.norm(np.asarray(size[:3]) * down))
    if gtype == g.mjGEOM_BOX:
        return z - float(np.abs(down) @ np.asarray(size[:3]))
    center, half = model.geom_aabb[geom, :3], model.geom_aabb[geom, 3:]
    return z + float(down @ center) - float(np.abs(down) @ half)


def penetration(model: mujoco.MjModel, data: mujoco.MjData | None = None) -> float:
    """How far (m) the lowest robot collision geom reaches below z = 0 (negative: how far above
    it the lowest one is; 0 without collision geoms), at ``data``'s configuration (its
    kinematics are computed) or at qpos0 (:func:`lowest_point`)."""
    if data is None:
        data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    lowest = math.inf
    for g in range(model.ngeom):
        if (
            model.geom_bodyid[g] == 0
            or model.geom_contype[g] == 0
            and model.geom_conaffinity[g] == 0
        ):
            continue
        if model.geom_type[g] == mujoco.mjtGeom.mjGEOM_PLANE:
            continue
        lowest = min(lowest, lowest_point(model, data, g))
    return 0.0 if lowest == math.inf else -lowest
