"""Robot → MjSpec: inertials and their defaults, geoms, meshes, joints, stops, couplings, frames."""

from __future__ import annotations

import logging
import math
import struct
from pathlib import Path

import mujoco
import numpy as np
import pytest

from sdf_bridge.backends.mujoco.builder import (
    DEFAULT_INERTIA,
    DEFAULT_MASS,
    GROUND_NAME,
    SDF_DEFAULT_INERTIA,
    SDF_DEFAULT_MASS,
    BuildOptions,
    build_spec,
    compile_model,
)
from sdf_bridge.description import load
from sdf_bridge.description.kinematics import link_transforms
from sdf_bridge.description.model import (
    Axis,
    Box,
    Capsule,
    Collision,
    Cylinder,
    Dynamics,
    Ellipsoid,
    Inertia,
    Inertial,
    Joint,
    JointType,
    Limit,
    Link,
    Mesh,
    Mimic,
    Plane,
    Pose,
    Robot,
    Sphere,
)
from sdf_bridge.errors import BackendError

INERTIAL = Inertial(1.0, Inertia(0.01, 0, 0, 0.02, 0, 0.03), Pose((0.1, 0, 0)))


def _robot(*joints: Joint, links: dict[str, Link] | None = None, fmt: str = "urdf") -> Robot:
    all_links = dict(links or {})
    for j in joints:
        for name in (j.parent, j.child):
            all_links.setdefault(name, Link(name, inertial=INERTIAL))
    return Robot("r", links=all_links, joints={j.name: j for j in joints}, format=fmt)


def _compile(robot: Robot, **options) -> tuple[mujoco.MjModel, object]:
    built = build_spec(robot, BuildOptions(**options))
    return compile_model(built), built


def _joint(model: mujoco.MjModel, name: str):
    return model.joint(name)


def test_inertial_copied() -> None:
    robot = _robot(Joint("j", JointType.REVOLUTE, "a", "b", axis=Axis((0, 0, 1)), limit=Limit(-1, 1)))
    model, _ = _compile(robot)
    body = model.body("b")
    assert body.mass[0] == 1.0
    assert body.ipos == pytest.approx([0.1, 0, 0], abs=1e-12)
    assert sorted(body.inertia) == pytest.approx([0.01, 0.02, 0.03], abs=1e-12)


def test_link_without_inertial_gets_documented_default(caplog) -> None:
    robot = _robot(Joint("j", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))),
                   links={"b": Link("b"), "a": Link("a", inertial=INERTIAL)})
    with caplog.at_level(logging.INFO):
        model, built = _compile(robot)
    assert model.body("b").mass[0] == DEFAULT_MASS
    assert model.body("b").inertia == pytest.approx([DEFAULT_INERTIA] * 3, abs=1e-15)
    assert "1 link(s) without inertial get the default mass 0.001 kg" in caplog.text
    assert any(n.endswith(": b") for n in built.notes)


def test_sdf_link_without_inertial_gets_sdformat_default() -> None:
    robot = _robot(Joint("j", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))),
                   links={"b": Link("b"), "a": Link("a", inertial=INERTIAL)}, fmt="sdf")
    model, _ = _compile(robot)
    assert model.body("b").mass[0] == SDF_DEFAULT_MASS
    assert model.body("b").inertia == pytest.approx([SDF_DEFAULT_INERTIA] * 3, abs=1e-15)


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
    link = Link("b", inertial=INERTIAL, collisions=(Collision(geometry, Pose((0, 0, 0.5)), name="c"),))
    robot = _robot(Joint("j", JointType.FIXED, "a", "b", origin=Pose((0, 0, 1))), links={"b": link})
    model, _ = _compile(robot, ground_plane=False)
    geom = model.geom("b::collision::c")
    assert geom.type[0] == mjtype
    assert geom.size == pytest.approx(size, abs=1e-12)
    assert geom.pos == pytest.approx([0, 0, 0.5], abs=1e-12)
    # robot geoms touch the ground (contype 2 & ground conaffinity 2), not each other
    assert (geom.contype[0], geom.conaffinity[0]) == (2, 1)


def test_tilted_plane_normal() -> None:
    link = Link("b", inertial=INERTIAL, collisions=(Collision(Plane((1, 0, 0)), name="p"),))
    robot = _robot(Joint("j", JointType.FIXED, "a", "b"), links={"b": link})
    model, _ = _compile(robot, ground_plane=False)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    normal = data.geom_xmat[model.geom("b::collision::p").id].reshape(3, 3)[:, 2]
    assert normal == pytest.approx([1, 0, 0], abs=1e-12)


def test_missing_mesh_skipped_with_one_warning(caplog) -> None:
    mesh = Mesh("package://robot/meshes/arm.dae")
    link = Link("b", inertial=INERTIAL,
                collisions=(Collision(mesh, name="c1"), Collision(mesh, name="c2"), Collision(Sphere(0.1), name="s")))
    robot = _robot(Joint("j", JointType.FIXED, "a", "b"), links={"b": link})
    with caplog.at_level(logging.WARNING):
        model, _ = _compile(robot)
    assert caplog.text.count("mesh 'package://robot/meshes/arm.dae' was not found; its geoms are skipped") == 1
    assert [model.geom(g).name for g in range(model.ngeom)] == [GROUND_NAME, "b::collision::s"]


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
    robot = _robot(Joint("j", JointType.FIXED, "a", "b", origin=Pose((0, 0, 1))), links={"b": link})
    model, _ = _compile(robot)
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
    link = Link("b", inertial=INERTIAL, collisions=(Collision(Mesh("arm.dae", resolved=str(path)), name="m"),))
    robot = _robot(Joint("j", JointType.FIXED, "a", "b"), links={"b": link})
    with caplog.at_level(logging.WARNING):
        model, _ = _compile(robot)
    assert "mesh 'arm.dae' is in a format MuJoCo cannot read (it reads binary STL, OBJ, MSH)" in caplog.text
    assert model.ngeom == 1


def test_ascii_stl_without_trimesh_skipped(tmp_path: Path, caplog, monkeypatch) -> None:
    """MuJoCo reads binary STL only; an ASCII one must not abort the whole model."""
    path = tmp_path / "ascii.stl"
    path.write_text("solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
                    "endloop\nendfacet\nendsolid t\n")
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    link = Link("b", inertial=INERTIAL, collisions=(Collision(Mesh("ascii.stl", resolved=str(path)), name="m"),))
    robot = _robot(Joint("j", JointType.FIXED, "a", "b"), links={"b": link})
    with caplog.at_level(logging.WARNING):
        model, _ = _compile(robot)
    assert "mesh 'ascii.stl' is in a format MuJoCo cannot read" in caplog.text
    assert model.ngeom == 1


def test_visual_geoms_do_not_collide() -> None:
    robot = load("""<robot name="v"><link name="a"><visual><geometry><sphere radius="0.1"/></geometry>
      <material name="m"><color rgba="0 1 0 1"/></material></visual></link></robot>""")
    model, _ = _compile(robot)
    (geom,) = [model.geom(g) for g in range(model.ngeom) if model.geom(g).name != GROUND_NAME]
    assert (geom.contype[0], geom.conaffinity[0], geom.group[0]) == (0, 0, 1)
    assert geom.rgba == pytest.approx([0, 1, 0, 1])
    model2, _ = _compile(robot, visual_geoms=False)
    assert model2.ngeom == 1


def test_joint_kinds() -> None:
    base = "a"
    joints = [
        Joint("rev", JointType.REVOLUTE, base, "l1", axis=Axis((0, 1, 0)), limit=Limit(-0.5, 1.5)),
        Joint("cont", JointType.CONTINUOUS, base, "l2", axis=Axis((0, 0, 1)), limit=Limit(effort=3)),
        Joint("pri", JointType.PRISMATIC, base, "l3", axis=Axis((1, 0, 0)), limit=Limit(0, 0.2)),
        Joint("ball", JointType.BALL, base, "l4"),
        Joint("plan", JointType.PLANAR, base, "l5", axis=Axis((0, 0, 1))),
        Joint("uni", JointType.UNIVERSAL, base, "l6", axis=Axis((1, 0, 0)), axis2=Axis((0, 1, 0))),
        Joint("fix", JointType.FIXED, base, "l7"),
        Joint("float", JointType.FLOATING, base, "l8"),
    ]
    model, built = _compile(_robot(*joints))
    hinge, slide, ball = mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE, mujoco.mjtJoint.mjJNT_BALL
    assert _joint(model, "rev").type[0] == hinge and _joint(model, "rev").limited[0] == 1
    assert _joint(model, "rev").range == pytest.approx([-0.5, 1.5])
    assert _joint(model, "cont").limited[0] == 0
    assert _joint(model, "pri").type[0] == slide and _joint(model, "pri").axis == pytest.approx([1, 0, 0])
    assert _joint(model, "ball").type[0] == ball
    assert built.joints["plan"].mj_joints == ["plan", "plan__x", "plan__y"]
    assert [model.joint(n).type[0] for n in built.joints["plan"].mj_joints] == [hinge, slide, slide]
    assert built.joints["uni"].mj_joints == ["uni", "uni__axis2"]
    assert _joint(model, "uni__axis2").axis == pytest.approx([0, 1, 0])
    assert "fix" not in built.joints and model.body("l7").jntnum[0] == 0
    assert built.joints["float"].mj_joints == ["float__x", "float__y", "float__z", "float__rot"]


def test_floating_joint_from_world_is_free() -> None:
    robot = _robot(Joint("f", JointType.FLOATING, "world", "body"), links={"world": Link("world")})
    model, built = _compile(robot)
    assert model.njnt == 1 and model.jnt_type[0] == mujoco.mjtJoint.mjJNT_FREE
    assert built.link_body["world"] == "world"


def test_fixed_base_option() -> None:
    robot = _robot(Joint("j", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))))
    model, built = _compile(robot, fixed_base=False)
    assert model.jnt_type[0] == mujoco.mjtJoint.mjJNT_FREE
    assert built.joints["a__free"].type is JointType.FLOATING
    model, _ = _compile(robot)
    assert mujoco.mjtJoint.mjJNT_FREE not in list(model.jnt_type)


def test_dynamics_and_armature() -> None:
    dyn = Dynamics(damping=0.7, friction=0.3, spring_reference=0.2, spring_stiffness=5.0)
    robot = _robot(Joint("j", JointType.REVOLUTE, "a", "b", axis=Axis((0, 0, 1)), limit=Limit(-1, 1), dynamics=dyn))
    model, _ = _compile(robot, armature={"j": 0.05})
    assert model.dof_damping[0] == 0.7 and model.dof_frictionloss[0] == 0.3
    assert model.jnt_stiffness[0] == 5.0 and model.qpos_spring[0] == 0.2
    assert model.dof_armature[0] == 0.05


def test_stop_stiffness_and_dissipation_to_solref() -> None:
    """solref = (−k/M, −b/M), M = dof_M0 (inertia about the axis incl. armature)."""
    robot = _robot(Joint("j", JointType.REVOLUTE, "a", "b", axis=Axis((0, 0, 1)),
                         limit=Limit(-1, 1, stiffness=1e4, dissipation=20.0)))
    model, _ = _compile(robot)
    m0 = model.dof_M0[0]
    assert m0 == pytest.approx(0.03 + 1.0 * 0.1**2, rel=1e-9)  # izz + m·d² (COM 0.1 m off the axis)
    assert model.jnt_solref[0] == pytest.approx([-1e4 / m0, -20.0 / m0], rel=1e-12)


def test_degenerate_limits_noted(caplog) -> None:
    robot = _robot(Joint("j", JointType.REVOLUTE, "a", "b", axis=Axis((0, 0, 1)), limit=Limit(0.0, 0.0)))
    with caplog.at_level(logging.WARNING):
        model, _ = _compile(robot)
    assert model.jnt_limited[0] == 0
    assert "joint 'j': limits lower=0.0 upper=0.0 do not bound an interval" in caplog.text


def test_mimic_equality() -> None:
    robot = _robot(
        Joint("lead", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))),
        Joint("f", JointType.CONTINUOUS, "a", "c", axis=Axis((0, 0, 1)), mimic=Mimic("lead", -2.0, 0.3)),
    )
    model, _ = _compile(robot)
    assert model.neq == 1 and model.eq_type[0] == mujoco.mjtEq.mjEQ_JOINT
    assert (model.eq_obj1id[0], model.eq_obj2id[0]) == (model.joint("f").id, model.joint("lead").id)
    assert model.eq_data[0, :5] == pytest.approx([0.3, -2.0, 0, 0, 0])


def test_mimic_of_multi_dof_joint_noted(caplog) -> None:
    robot = _robot(
        Joint("lead", JointType.BALL, "a", "b"),
        Joint("f", JointType.CONTINUOUS, "a", "c", axis=Axis((0, 0, 1)), mimic=Mimic("lead")),
    )
    with caplog.at_level(logging.WARNING):
        model, _ = _compile(robot)
    assert model.neq == 0
    assert "mimic joint 'f' → 'lead': both must be 1-DOF movable joints" in caplog.text


def test_screw_joint_couples_translation() -> None:
    """Legacy thread_pitch 20 rad/m → lead −1/20 m/rad; m/rev p → p/2π."""
    robot = _robot(Joint("s", JointType.SCREW, "a", "b", axis=Axis((0, 0, 1)), thread_pitch=20.0,
                         thread_pitch_unit="rad/m"))
    model, built = _compile(robot)
    assert built.joints["s"].mj_joints == ["s", "s__slide"]
    assert model.eq_data[0, :2] == pytest.approx([0.0, -1.0 / 20.0])
    robot = _robot(Joint("s", JointType.SCREW, "a", "b", axis=Axis((0, 0, 1)), thread_pitch=0.01,
                         thread_pitch_unit="m/rev"))
    model, _ = _compile(robot)
    assert model.eq_data[0, 1] == pytest.approx(0.01 / (2 * math.pi))


def test_screw_without_pitch_is_an_error() -> None:
    robot = _robot(Joint("s", JointType.SCREW, "a", "b", axis=Axis((0, 0, 1))))
    with pytest.raises(BackendError, match=r"screw joint 's' has no non-zero thread pitch"):
        build_spec(robot)


def test_zero_axis_is_an_error() -> None:
    robot = _robot(Joint("j", JointType.REVOLUTE, "a", "b", axis=Axis((0, 0, 0)), limit=Limit(-1, 1)))
    with pytest.raises(BackendError, match=r"joint 'j' has a zero axis"):
        build_spec(robot)


def test_bad_timestep() -> None:
    with pytest.raises(BackendError, match=r"timestep must be > 0 s, got 0.0"):
        build_spec(_robot(Joint("j", JointType.FIXED, "a", "b")), BuildOptions(timestep=0.0))


def test_gearbox_without_input_noted(caplog) -> None:
    robot = _robot(Joint("g", JointType.GEARBOX, "a", "b", axis=Axis((0, 0, 1)), gearbox_ratio=2.0))
    with caplog.at_level(logging.WARNING):
        model, _ = _compile(robot)
    assert model.neq == 0
    assert "gearbox joint 'g': reference body None is not joined" in caplog.text


def test_options_gravity_ground_timestep() -> None:
    robot = _robot(Joint("j", JointType.FIXED, "a", "b", origin=Pose((0, 0, 1))))
    model, _ = _compile(robot, gravity=(0, 0, -1.62), timestep=0.002, ground_plane=False)
    assert list(model.opt.gravity) == [0, 0, -1.62] and model.opt.timestep == 0.002
    assert model.ngeom == 0


def test_lift_above_ground() -> None:
    """A sphere of radius 0.1 at the root origin is raised by 0.1 + 1e-3 m."""
    link = Link("a", inertial=INERTIAL, collisions=(Collision(Sphere(0.1)),))
    robot = Robot("r", links={"a": link})
    model, built = _compile(robot)
    assert model.body("a").pos == pytest.approx([0, 0, 0.101], abs=1e-9)
    model, _ = _compile(robot, lift_above_ground=False)
    assert model.body("a").pos == pytest.approx([0, 0, 0], abs=1e-12)


def test_link_frames_match_kinematics() -> None:
    """Body poses at q = 0 equal sdf_bridge.description.kinematics.link_transforms (1e-12)."""
    robot = _robot(
        Joint("j1", JointType.REVOLUTE, "a", "b", origin=Pose((0.1, 0.2, 0.3), (0.3, -0.2, 0.5)),
              axis=Axis((0, 0, 1)), limit=Limit(-1, 1)),
        Joint("j2", JointType.FIXED, "b", "c", origin=Pose((0.5, 0, 0), (math.pi, 0, 0))),
        Joint("j3", JointType.PRISMATIC, "c", "d", origin=Pose((0, 0, 0.4), (0, 0.4, 0)),
              joint_to_child=Pose((0.1, 0, 0), (0, 0, 0.3)), axis=Axis((1, 0, 0)), limit=Limit(0, 1)),
    )
    model, _ = _compile(robot, ground_plane=False)
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    expected = link_transforms(robot)
    for name in "abcd":
        bid = model.body(name).id
        assert data.xpos[bid] == pytest.approx(expected[name][:3, 3], abs=1e-12)
        assert data.xmat[bid].reshape(3, 3) == pytest.approx(expected[name][:3, :3], abs=1e-12)
    # the prismatic joint sits at the joint frame (child frame · joint_to_child⁻¹), axis rotated
    jid = model.joint("j3").id
    joint_frame = expected["c"] @ Pose((0, 0, 0.4), (0, 0.4, 0)).matrix()
    assert data.xanchor[jid] == pytest.approx(joint_frame[:3, 3], abs=1e-12)
    assert data.xaxis[jid] == pytest.approx(joint_frame[:3, 0], abs=1e-12)


def test_compile_error_wrapped(monkeypatch) -> None:
    built = build_spec(_robot(Joint("j", JointType.FIXED, "a", "b")))
    built.spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_MESH, meshname="nope")
    with pytest.raises(BackendError, match=r"MuJoCo cannot compile the model of 'r'"):
        compile_model(built)


def test_parallel_universal_axes_get_armature(caplog) -> None:
    robot = _robot(Joint("u", JointType.UNIVERSAL, "a", "b", axis=Axis((0, 0, 1)), axis2=Axis((0, 0, 1))))
    with caplog.at_level(logging.WARNING):
        model, _ = _compile(robot)
    assert list(model.dof_armature) == [DEFAULT_INERTIA, DEFAULT_INERTIA]
    assert "joint 'u': axis and axis2 are parallel" in caplog.text
    assert np.all(np.isfinite(model.dof_M0))


def test_several_root_links_all_built() -> None:
    """An SDFormat model may hold unjoined links: each is a root body at its Link.pose."""
    robot = Robot(
        "two",
        links={"a": Link("a", inertial=INERTIAL, pose=Pose((0, 0, 1))),
               "b": Link("b", inertial=INERTIAL, pose=Pose((1, 0, 2), (0, 0, 0.5)))},
        format="sdf",
        pose=Pose((0, 1, 0)),
    )
    model, _ = _compile(robot, ground_plane=False)
    assert model.body("a").pos == pytest.approx([0, 1, 1], abs=1e-12)
    assert model.body("b").pos == pytest.approx([1, 1, 2], abs=1e-12)
    model, _ = _compile(robot, ground_plane=False, fixed_base=False)
    assert list(model.jnt_type) == [mujoco.mjtJoint.mjJNT_FREE] * 2


def test_rotated_inertial_frame() -> None:
    """Inertial frame yawed by π/2 with (ixx, iyy, izz) = (1, 2, 2.5): in the link frame the
    tensor is diag(2, 1, 2.5), plus an off-diagonal term rotated the same way (1e-9)."""
    inertial = Inertial(1.0, Inertia(1.0, 0.1, 0.0, 2.0, 0.0, 2.5), Pose((0, 0, 0), (0, 0, math.pi / 2)))
    robot = _robot(Joint("j", JointType.BALL, "a", "b"), links={"b": Link("b", inertial=inertial)})
    model, _ = _compile(robot)
    bid = model.body("b").id
    rot = np.zeros(9)
    mujoco.mju_quat2Mat(rot, model.body_iquat[bid])
    rot = rot.reshape(3, 3)
    tensor = rot @ np.diag(model.body_inertia[bid]) @ rot.T
    r = Pose(rpy=(0, 0, math.pi / 2)).rotation
    expected = r @ np.array([[1.0, 0.1, 0], [0.1, 2.0, 0], [0, 0, 2.5]]) @ r.T
    assert tensor == pytest.approx(expected, abs=1e-9)
    assert expected[0, 0] == pytest.approx(2.0) and expected[0, 1] == pytest.approx(-0.1)


def test_non_physical_inertia_warned(caplog) -> None:
    inertial = Inertial(1.0, Inertia(0.1, 0, 0, 0.1, 0, 1.0))
    robot = _robot(Joint("j", JointType.BALL, "a", "b"), links={"b": Link("b", inertial=inertial)})
    with caplog.at_level(logging.WARNING):
        model, _ = _compile(robot)
    assert "link 'b': principal inertias [0.1, 0.1, 1.0] violate the triangle inequality" in caplog.text
    assert model.body("b").inertia == pytest.approx([0.4, 0.4, 0.4], abs=1e-12)


def test_static_model_stays_welded() -> None:
    robot = Robot("s", links={"a": Link("a", inertial=INERTIAL)}, format="sdf", static=True)
    model, _ = _compile(robot, fixed_base=False)
    assert model.njnt == 0


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
    module.load = _FakeTrimesh.load  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "trimesh", module)
    monkeypatch.setattr("importlib.util.find_spec", lambda name: object())
    good, bad = tmp_path / "arm.dae", tmp_path / "bad.dae"
    good.write_text("<COLLADA/>")
    bad.write_text("<COLLADA/>")
    link = Link("b", inertial=INERTIAL, collisions=(
        Collision(Mesh("arm.dae", scale=(3, 3, 3), resolved=str(good)), name="m"),
        Collision(Mesh("bad.dae", resolved=str(bad)), name="x"),
    ))
    robot = _robot(Joint("j", JointType.FIXED, "a", "b", origin=Pose((0, 0, 1))), links={"b": link})
    with caplog.at_level(logging.WARNING):
        model, _ = _compile(robot)
    assert model.geom("b::collision::m").type[0] == mujoco.mjtGeom.mjGEOM_MESH
    v = model.mesh_vert
    edges = sorted(float(np.linalg.norm(v[i] - v[j])) for i in range(4) for j in range(i + 1, 4))
    assert edges == pytest.approx([3.0] * 3 + [3.0 * math.sqrt(2.0)] * 3, abs=1e-5)  # scale applied
    assert "mesh 'bad.dae' could not be converted by trimesh (not a mesh)" in caplog.text
