"""Geoms: shapes and their sizes, planes, meshes (binary STL, trimesh conversion, missing or
unreadable files), visual geoms, collision filtering, lifting the robot above the ground."""

from __future__ import annotations

import logging
import math
import struct
from pathlib import Path

import mujoco
import numpy as np
import pytest
from mujoco_helpers import INERTIAL, chain_robot, compile_robot

from sdf_bridge.backends.mujoco.geoms import GROUND_NAME
from sdf_bridge.description import load
from sdf_bridge.description.model import (
    Box,
    Capsule,
    Collision,
    Cylinder,
    Ellipsoid,
    Joint,
    JointType,
    Link,
    Mesh,
    Plane,
    Pose,
    Robot,
    Sphere,
    Visual,
)


@pytest.mark.parametrize(
    ("geometry", "mjtype", "size"),
    [
        (Box((0.2, 0.4, 0.6)), mujoco.mjtGeom.mjGEOM_BOX, [0.1, 0.2, 0.3]),
        (Cylinder(0.1, 0.5), mujoco.mjtGeom.mjGEOM_CYLINDER, [0.1, 0.25, 0]),
        (Sphere(0.3), mujoco.mjtGeom.mjGEOM_SPHERE, [0.3, 0, 0]),
        (Capsule(0.05, 0.4), mujoco.mjtGeom.mjGEOM_CAPSULE, [0.05, 0.2, 0]),
        (Ellipsoid((0.1, 0.2, 0.3)), mujoco.mjtGeom.mjGEOM_ELLIPSOID, [0.1, 0.2, 0.3]),
        (Plane((0, 0, 1), (2.0, 4.0)), mujoco.mjtGeom.mjGEOM_PLANE, [1.0, 2.0, 1.0]),
    ],
)
def test_collision_shapes(geometry, mjtype, size) -> None:
    link = Link(
        "b", inertial=INERTIAL, collisions=(Collision(geometry, Pose((0, 0, 0.5)), name="c"),)
    )
    robot = chain_robot(
        Joint("j", JointType.FIXED, "a", "b", origin=Pose((0, 0, 1))), links={"b": link}
    )
    model, _ = compile_robot(robot, ground_plane=False)
    geom = model.geom("b::collision::c")
    assert geom.type[0] == mjtype
    assert geom.size == pytest.approx(size, abs=1e-12)
    assert geom.pos == pytest.approx([0, 0, 0.5], abs=1e-12)
    # robot geoms touch the ground (contype 2 & ground conaffinity 2), not each other
    assert (geom.contype[0], geom.conaffinity[0]) == (2, 1)


def test_tilted_plane_normal() -> None:
    link = Link("b", inertial=INERTIAL, collisions=(Collision(Plane((1, 0, 0)), name="p"),))
    robot = chain_robot(Joint("j", JointType.FIXED, "a", "b"), links={"b": link})
    model, _ = compile_robot(robot, ground_plane=False)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    normal = data.geom_xmat[model.geom("b::collision::p").id].reshape(3, 3)[:, 2]
    assert normal == pytest.approx([1, 0, 0], abs=1e-12)


def test_missing_mesh_skipped_with_one_warning(caplog) -> None:
    mesh = Mesh("package://robot/meshes/arm.dae")
    link = Link(
        "b",
        inertial=INERTIAL,
        collisions=(
            Collision(mesh, name="c1"),
            Collision(mesh, name="c2"),
            Collision(Sphere(0.1), name="s"),
        ),
    )
    robot = chain_robot(Joint("j", JointType.FIXED, "a", "b"), links={"b": link})
    with caplog.at_level(logging.WARNING):
        model, _ = compile_robot(robot)
    assert (
        caplog.text.count(
            "mesh 'package://robot/meshes/arm.dae' was not found; its geoms are skipped"
        )
        == 1
    )
    assert [model.geom(g).name for g in range(model.ngeom)] == [GROUND_NAME, "b::collision::s"]


@pytest.mark.parametrize(
    ("geometry", "why"),
    [
        (Box((0.0, 0.0, 0.0)), "box with size x 0 m, size y 0 m, size z 0 m"),
        (Box((0.1, 0.0, 0.1)), "box with size y 0 m"),
        (Sphere(0.0), "sphere with radius 0 m"),
        (Cylinder(0.0, 1.0), "cylinder with radius 0 m"),
        (Cylinder(0.1, 0.0), "cylinder with length 0 m"),
        (Capsule(0.0, 0.3), "capsule with radius 0 m"),
        (Ellipsoid((0.1, 0.0, 0.1)), "ellipsoid with radius y 0 m"),
    ],
)
def test_degenerate_shapes_are_left_out_with_a_warning(geometry, why: str) -> None:
    """MuJoCo refuses to compile a zero size; urdfdom and libsdformat load it: the geom is left
    out (visual or collision), the robot compiles."""
    link = Link(
        "b",
        inertial=INERTIAL,
        collisions=(Collision(geometry, name="c"), Collision(Sphere(0.1), name="s")),
        visuals=(Visual(geometry, name="v"),),
    )
    robot = chain_robot(Joint("j", JointType.FIXED, "a", "b"), links={"b": link})
    model, built = compile_robot(robot, ground_plane=False, visual_geoms=True)
    assert [model.geom(g).name for g in range(model.ngeom)] == ["b::collision::s"]
    assert [n for n in built.notes if "MuJoCo cannot compile" in n] == [
        f"link 'b': collision 'c' is a {why}, which MuJoCo cannot compile; left out of the "
        "MuJoCo model",
        f"link 'b': visual 'v' is a {why}, which MuJoCo cannot compile; left out of the MuJoCo "
        "model",
    ]


@pytest.mark.parametrize(
    ("scale", "why"),
    [((1.0, 1.0, 1.0), "has no triangles"), ((0.0, 1.0, 1.0), "is scaled by 0 1 1 (flat)")],
)
def test_empty_or_flat_mesh_is_left_out_with_one_warning(tmp_path: Path, scale, why) -> None:
    path = tmp_path / "empty.stl"
    path.write_bytes(b"\0" * 80 + struct.pack("<I", 0))  # a binary STL of no triangles
    mesh = Mesh("package://robot/empty.stl", scale=scale, resolved=str(path))
    link = Link(
        "b",
        inertial=INERTIAL,
        collisions=(Collision(mesh, name="c1"), Collision(mesh, name="c2")),
    )
    robot = chain_robot(Joint("j", JointType.FIXED, "a", "b"), links={"b": link})
    model, built = compile_robot(robot, ground_plane=False)
    assert model.ngeom == 0
    assert [n for n in built.notes if "mesh" in n] == [
        f"mesh 'package://robot/empty.stl' {why}; its geoms are skipped"
    ]


def test_zero_size_visual_box_of_a_urdf_compiles() -> None:
    robot = load(
        '<robot name="r"><link name="a"/><link name="b"><inertial><mass value="1"/><inertia '
        'ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial><visual><geometry>'
        '<box size="0 0 0"/></geometry></visual></link><joint name="j" type="continuous">'
        '<parent link="a"/><child link="b"/></joint></robot>'
    )
    model, _ = compile_robot(robot, ground_plane=False, visual_geoms=True)
    assert model.ngeom == 0 and model.njnt == 1


TETRAHEDRON = [
    ((0, 0, 0), (0, 1, 0), (1, 0, 0)),
    ((0, 0, 0), (1, 0, 0), (0, 0, 1)),
    ((0, 0, 0), (0, 0, 1), (0, 1, 0)),
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
]


def _binary_stl(triangles) -> bytes:
    """A binary STL (MuJoCo reads binary STL only): 80-byte header, count, 50 bytes a facet."""
    out = b"\0" * 80 + struct.pack("<I", len(triangles))
    for tri in triangles:
        out += struct.pack("<12fH", 0, 0, 0, *(c for v in tri for c in v), 0)
    return out


def test_stl_mesh_read_and_scaled(tmp_path: Path) -> None:
    path = tmp_path / "tet.stl"
    path.write_bytes(_binary_stl(TETRAHEDRON))
    mesh = Mesh("tet.stl", scale=(2.0, 2.0, 2.0), resolved=str(path))
    link = Link("b", inertial=INERTIAL, collisions=(Collision(mesh, name="m"),))
    robot = chain_robot(
        Joint("j", JointType.FIXED, "a", "b", origin=Pose((0, 0, 1))), links={"b": link}
    )
    model, _ = compile_robot(robot)
    geom = model.geom("b::collision::m")
    assert geom.type[0] == mujoco.mjtGeom.mjGEOM_MESH
    assert model.nmeshvert == 4
    # MuJoCo moves the mesh to its inertial frame (a rigid motion): edge lengths are kept, ×2
    v = model.mesh_vert
    edges = sorted(float(np.linalg.norm(v[i] - v[j])) for i in range(4) for j in range(i + 1, 4))
    assert edges == pytest.approx([2.0] * 3 + [2.0 * math.sqrt(2.0)] * 3, abs=1e-6)


def test_unreadable_mesh_format_without_trimesh(tmp_path: Path, caplog, monkeypatch) -> None:
    path = tmp_path / "arm.dae"
    path.write_text("<COLLADA/>")
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    link = Link(
        "b",
        inertial=INERTIAL,
        collisions=(Collision(Mesh("arm.dae", resolved=str(path)), name="m"),),
    )
    robot = chain_robot(Joint("j", JointType.FIXED, "a", "b"), links={"b": link})
    with caplog.at_level(logging.WARNING):
        model, _ = compile_robot(robot)
    assert (
        "mesh 'arm.dae' is in a format MuJoCo cannot read (it reads binary STL, OBJ, MSH)"
        in caplog.text
    )
    assert model.ngeom == 1


def test_ascii_stl_without_trimesh_skipped(tmp_path: Path, caplog, monkeypatch) -> None:
    """MuJoCo reads binary STL only; an ASCII one must not abort the whole model."""
    path = tmp_path / "ascii.stl"
    path.write_text(
        "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
        "endloop\nendfacet\nendsolid t\n"
    )
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    link = Link(
        "b",
        inertial=INERTIAL,
        collisions=(Collision(Mesh("ascii.stl", resolved=str(path)), name="m"),),
    )
    robot = chain_robot(Joint("j", JointType.FIXED, "a", "b"), links={"b": link})
    with caplog.at_level(logging.WARNING):
        model, _ = compile_robot(robot)
    assert "mesh 'ascii.stl' is in a format MuJoCo cannot read" in caplog.text
    assert model.ngeom == 1


def test_visual_geoms_do_not_collide() -> None:
    robot = load("""<robot name="v"><link name="a"><visual><geometry><sphere radius="0.1"/>
      </geometry>
      <material name="m"><color rgba="0 1 0 1"/></material></visual></link></robot>""")
    model, _ = compile_robot(robot)
    (geom,) = [model.geom(g) for g in range(model.ngeom) if model.geom(g).name != GROUND_NAME]
    assert (geom.contype[0], geom.conaffinity[0], geom.group[0]) == (0, 0, 1)
    assert geom.rgba == pytest.approx([0, 1, 0, 1])
    model2, _ = compile_robot(robot, visual_geoms=False)
    assert model2.ngeom == 1


def test_lift_above_ground() -> None:
    """A sphere of radius 0.1 at the root origin is raised by 0.1 + 1e-3 m."""
    link = Link("a", inertial=INERTIAL, collisions=(Collision(Sphere(0.1)),))
    robot = Robot("r", links={"a": link})
    model, built = compile_robot(robot)
    assert model.body("a").pos == pytest.approx([0, 0, 0.101], abs=1e-9)
    model, _ = compile_robot(robot, lift_above_ground=False)
    assert model.body("a").pos == pytest.approx([0, 0, 0], abs=1e-12)


class _FakeTrimesh:
    """Stands in for the optional trimesh package: ``load`` returns a unit right tetrahedron,
    or raises for files named ``bad.*``."""

    @staticmethod
    def load(path: str, force: str):
        assert force == "mesh"
        if Path(path).name.startswith("bad"):
            raise ValueError("not a mesh")

        class Loaded:
            vertices = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
            faces = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])

        return Loaded()


def test_other_formats_converted_with_trimesh(tmp_path: Path, monkeypatch, caplog) -> None:
    import sys
    import types

    module = types.ModuleType("trimesh")
    module.load = _FakeTrimesh.load  # type: ignore[attr-defined]  # (a stand-in trimesh)
    monkeypatch.setitem(sys.modules, "trimesh", module)
    monkeypatch.setattr("importlib.util.find_spec", lambda name: object())
    good, bad = tmp_path / "arm.dae", tmp_path / "bad.dae"
    good.write_text("<COLLADA/>")
    bad.write_text("<COLLADA/>")
    link = Link(
        "b",
        inertial=INERTIAL,
        collisions=(
            Collision(Mesh("arm.dae", scale=(3, 3, 3), resolved=str(good)), name="m"),
            Collision(Mesh("bad.dae", resolved=str(bad)), name="x"),
        ),
    )
    robot = chain_robot(
        Joint("j", JointType.FIXED, "a", "b", origin=Pose((0, 0, 1))), links={"b": link}
    )
    with caplog.at_level(logging.WARNING):
        model, _ = compile_robot(robot)
    assert model.geom("b::collision::m").type[0] == mujoco.mjtGeom.mjGEOM_MESH
    v = model.mesh_vert
    edges = sorted(float(np.linalg.norm(v[i] - v[j])) for i in range(4) for j in range(i + 1, 4))
    assert edges == pytest.approx([3.0] * 3 + [3.0 * math.sqrt(2.0)] * 3, abs=1e-5)  # scale applied
    assert "mesh 'bad.dae' could not be converted by trimesh (not a mesh)" in caplog.text
