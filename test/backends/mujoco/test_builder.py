"""Robot → MjSpec: joints, stops, couplings, frames, options (mass properties:
test_inertials.py)."""

from __future__ import annotations

import logging
import math

import mujoco
import numpy as np
import pytest
from mujoco_helpers import INERTIAL, chain_robot, compile_robot

from sdf_bridge.backends.mujoco.builder import (
    RIGID_STOP_SOLIMP,
    STOP_IMPEDANCE,
    BuildOptions,
    build_spec,
    compile_model,
    rigid_stop,
    stop_solver_params,
)
from sdf_bridge.backends.mujoco.couplings import joint_couplings
from sdf_bridge.description.inertia import DEFAULT_INERTIA
from sdf_bridge.description.kinematics import link_transforms
from sdf_bridge.description.model import (
    Axis,
    Dynamics,
    Joint,
    JointType,
    Limit,
    Link,
    Mimic,
    Pose,
    Robot,
)
from sdf_bridge.errors import BackendError


def _joint(model: mujoco.MjModel, name: str):
    return model.joint(name)


def test_joint_kinds() -> None:
    base = "a"
    joints = [
        Joint("rev", JointType.REVOLUTE, base, "l1", axis=Axis((0, 1, 0)), limit=Limit(-0.5, 1.5)),
        Joint(
            "cont", JointType.CONTINUOUS, base, "l2", axis=Axis((0, 0, 1)), limit=Limit(effort=3)
        ),
        Joint("pri", JointType.PRISMATIC, base, "l3", axis=Axis((1, 0, 0)), limit=Limit(0, 0.2)),
        Joint("ball", JointType.BALL, base, "l4", dynamics=Dynamics(damping=0.4, friction=0.2)),
        Joint("plan", JointType.PLANAR, base, "l5", axis=Axis((0, 0, 1))),
        Joint("uni", JointType.UNIVERSAL, base, "l6", axis=Axis((1, 0, 0)), axis2=Axis((0, 1, 0))),
        Joint("fix", JointType.FIXED, base, "l7"),
        Joint("float", JointType.FLOATING, base, "l8"),
    ]
    model, built = compile_robot(chain_robot(*joints))
    hinge, slide = mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE
    assert _joint(model, "rev").type[0] == hinge and _joint(model, "rev").limited[0] == 1
    assert _joint(model, "rev").range == pytest.approx([-0.5, 1.5])
    assert _joint(model, "cont").limited[0] == 0
    assert _joint(model, "pri").type[0] == slide and _joint(model, "pri").axis == pytest.approx(
        [1, 0, 0]
    )
    # a ball: MuJoCo's native ball joint (no gimbal lock); its damping on its three dofs (only
    # damping is mapped); its three coordinates on it: the quaternion's address and dof k
    assert built.joints["ball"].mj_joints == ["ball"]
    assert _joint(model, "ball").type[0] == mujoco.mjtJoint.mjJNT_BALL
    dof = _joint(model, "ball").dofadr[0]
    assert list(model.dof_damping[dof : dof + 3]) == [0.4] * 3
    assert list(model.dof_frictionloss[dof : dof + 3]) == [0.0] * 3
    qadr = _joint(model, "ball").qposadr[0]
    assert built.address("ball") is None and built.address("ball/pitch") == (qadr, dof + 1)
    assert built.mj_joint("ball/yaw") == "ball" and built.is_ball("ball/roll")
    assert not built.is_ball("uni/axis2") and not built.is_ball("nope")
    assert built.mj_joint("uni/axis2") == "uni__axis2" and built.address("plan") is None
    assert built.joints["plan"].mj_joints == ["plan", "plan__x", "plan__y"]
    assert [model.joint(n).type[0] for n in built.joints["plan"].mj_joints] == [hinge, slide, slide]
    assert built.joints["uni"].mj_joints == ["uni", "uni__axis2"]
    assert _joint(model, "uni__axis2").axis == pytest.approx([0, 1, 0])
    assert "fix" not in built.joints and model.body("l7").jntnum[0] == 0
    assert built.joints["float"].mj_joints == ["float__x", "float__y", "float__z", "float__rot"]


def test_floating_joint_from_world_is_free() -> None:
    robot = chain_robot(
        Joint("f", JointType.FLOATING, "world", "body"), links={"world": Link("world")}
    )
    model, built = compile_robot(robot)
    assert model.njnt == 1 and model.jnt_type[0] == mujoco.mjtJoint.mjJNT_FREE
    assert built.link_body["world"] == "world"


def test_fixed_base_option() -> None:
    robot = chain_robot(Joint("j", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))))
    model, built = compile_robot(robot, fixed_base=False)
    assert model.jnt_type[0] == mujoco.mjtJoint.mjJNT_FREE
    assert built.joints["a__free"].type is JointType.FLOATING
    model, _ = compile_robot(robot)
    assert mujoco.mjtJoint.mjJNT_FREE not in list(model.jnt_type)


def test_dynamics_and_armature() -> None:
    dyn = Dynamics(damping=0.7, friction=0.3, spring_reference=0.2, spring_stiffness=5.0)
    robot = chain_robot(
        Joint(
            "j",
            JointType.REVOLUTE,
            "a",
            "b",
            axis=Axis((0, 0, 1)),
            limit=Limit(-1, 1),
            dynamics=dyn,
        )
    )
    model, _ = compile_robot(robot, armature={"j": 0.05})
    assert model.dof_damping[0] == 0.7 and model.dof_frictionloss[0] == 0.3
    assert model.jnt_stiffness[0] == 5.0 and model.qpos_spring[0] == 0.2
    assert model.dof_armature[0] == 0.05


def test_stop_stiffness_and_dissipation_to_solref() -> None:
    """solref = (−(1−D)·k/M, −(1−D)·b/M), solimp = (D, D, …), D = STOP_IMPEDANCE, M = dof_M0
    (inertia about the axis incl. armature). Exact to 1e-12 (relative)."""
    robot = chain_robot(
        Joint(
            "j",
            JointType.REVOLUTE,
            "a",
            "b",
            axis=Axis((0, 0, 1)),
            limit=Limit(-1, 1, stiffness=1e3, dissipation=2.0),
        )
    )
    model, _ = compile_robot(robot)
    m0 = model.dof_M0[0]
    assert m0 == pytest.approx(0.03 + 1.0 * 0.1**2, rel=1e-9)  # izz + m·d² (COM 0.1 m off the axis)
    scale = (1.0 - STOP_IMPEDANCE) / m0
    assert model.jnt_solref[0] == pytest.approx([-1e3 * scale, -2.0 * scale], rel=1e-12)
    assert model.jnt_solimp[0, :2] == pytest.approx([STOP_IMPEDANCE, STOP_IMPEDANCE], abs=1e-15)


def test_stop_stiffness_gives_static_penetration_tau_over_k() -> None:
    """A constant torque τ = 1 N·m pushes the joint into its upper stop (k = 1e3 N·m/rad,
    b = 2·sqrt(k·M), critically damped): at rest the penetration is τ/k = 1 mm, exactly in
    the spring-damper model (tolerance 1e-9 rad after 2 s, settling time ~0.03 s)."""
    k, m0 = 1e3, 0.04
    robot = chain_robot(
        Joint(
            "j",
            JointType.REVOLUTE,
            "a",
            "b",
            axis=Axis((0, 0, 1)),
            limit=Limit(-1, 1, stiffness=k, dissipation=2.0 * math.sqrt(k * m0)),
        )
    )
    model, _ = compile_robot(robot, ground_plane=False)
    data = mujoco.MjData(model)
    data.qfrc_applied[0] = 1.0
    mujoco.mj_step(model, data, nstep=2000)
    assert data.qpos[0] - 1.0 == pytest.approx(1.0 / k, abs=1e-9)
    assert abs(data.qvel[0]) < 1e-9


def test_stop_too_stiff_for_timestep_keeps_the_rigid_stop(caplog) -> None:
    """SDFormat's default stop stiffness 1e8 N·m/rad (ω·dt = 50 at 1 ms) cannot be integrated:
    the rigid stop of URDF joints is kept (noted), and the joint thrown at 2 rad/s into it stays
    finite and within 1e-3 rad of the limit."""
    robot = chain_robot(
        Joint(
            "j",
            JointType.REVOLUTE,
            "a",
            "b",
            axis=Axis((0, 0, 1)),
            limit=Limit(-1, 1, stiffness=1e8, dissipation=1.0),
        )
    )
    with caplog.at_level(logging.INFO):
        model, _ = compile_robot(robot, ground_plane=False)
    assert "joint stop stiffness of ['j'] is too stiff for the timestep 0.001 s" in caplog.text
    assert model.jnt_solref[0].tolist() == [0.005, 1.0]
    data = mujoco.MjData(model)
    data.qvel[0] = 2.0
    data.qfrc_applied[0] = 1.0
    mujoco.mj_step(model, data, nstep=2000)
    assert np.isfinite(data.qpos[0]) and data.qpos[0] == pytest.approx(1.0, abs=1e-3)


def test_urdf_stop_is_rigid() -> None:
    """A URDF joint's stop (no SDFormat stiffness): solref (5·timestep, 1), solimp
    RIGID_STOP_SOLIMP, at the model's timestep; a joint without a range gets none of it."""
    assert rigid_stop(0.004) == ([0.02, 1.0], [0.99, 0.99, 0.001, 0.5, 2.0])
    robot = chain_robot(
        Joint("j", JointType.REVOLUTE, "a", "b", axis=Axis((0, 0, 1)), limit=Limit(-1, 1))
    )
    model, _ = compile_robot(robot, ground_plane=False, timestep=0.002)
    assert model.jnt_solref[0].tolist() == pytest.approx([0.01, 1.0], rel=1e-15)
    assert model.jnt_solimp[0].tolist() == pytest.approx(list(RIGID_STOP_SOLIMP), abs=1e-15)


def test_stop_solver_params_threshold() -> None:
    """ω·dt = sqrt(k/M)·dt: 0.5 is accepted, above it is not; so is the damping term."""
    assert stop_solver_params(0.25e6, 0.0, 1.0, 1e-3) is not None  # ω·dt = 0.5
    assert stop_solver_params(0.26e6, 0.0, 1.0, 1e-3) is None
    assert stop_solver_params(1.0, 600.0, 1.0, 1e-3) is None  # (1 − D)·b/M·dt = 0.594


def test_degenerate_limits_noted(caplog) -> None:
    robot = chain_robot(
        Joint("j", JointType.REVOLUTE, "a", "b", axis=Axis((0, 0, 1)), limit=Limit(0.0, 0.0))
    )
    with caplog.at_level(logging.WARNING):
        model, _ = compile_robot(robot)
    assert model.jnt_limited[0] == 0
    assert "joint 'j': limits lower=0.0 upper=0.0 do not bound an interval" in caplog.text


def test_mimic_coupling() -> None:
    """f = 0.3 − 2·lead: one coupling (:mod:`.couplings`), follower f, gain −2, offset 0.3."""
    robot = chain_robot(
        Joint("lead", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))),
        Joint(
            "f",
            JointType.CONTINUOUS,
            "a",
            "c",
            axis=Axis((0, 0, 1)),
            mimic=Mimic("lead", -2.0, 0.3),
        ),
    )
    model, _ = compile_robot(robot)
    assert model.neq == 1
    (coupling,) = joint_couplings(model)
    f, lead = model.joint("f"), model.joint("lead")
    assert (coupling.follower_dof, coupling.leader_dof) == (f.dofadr[0], lead.dofadr[0])
    assert (coupling.follower_qpos, coupling.leader_qpos) == (f.qposadr[0], lead.qposadr[0])
    assert (coupling.gain, coupling.offset) == (-2.0, 0.3)


def test_mimic_of_multi_dof_joint_noted(caplog) -> None:
    robot = chain_robot(
        Joint("lead", JointType.BALL, "a", "b"),
        Joint("f", JointType.CONTINUOUS, "a", "c", axis=Axis((0, 0, 1)), mimic=Mimic("lead")),
    )
    with caplog.at_level(logging.WARNING):
        model, _ = compile_robot(robot)
    assert model.neq == 0
    assert "mimic joint 'f' → 'lead': both must be 1-DOF movable joints" in caplog.text


def test_screw_joint_couples_translation() -> None:
    """Legacy thread_pitch 20 rad/m → lead −1/20 m/rad; m/rev p → p/2π."""
    robot = chain_robot(
        Joint(
            "s",
            JointType.SCREW,
            "a",
            "b",
            axis=Axis((0, 0, 1)),
            thread_pitch=20.0,
            thread_pitch_unit="rad/m",
        )
    )
    model, built = compile_robot(robot)
    assert built.joints["s"].mj_joints == ["s", "s__slide"]
    (coupling,) = joint_couplings(model)
    assert coupling.follower_dof == model.joint("s__slide").dofadr[0]
    assert coupling.leader_dof == model.joint("s").dofadr[0]
    assert (coupling.gain, coupling.offset) == (-1.0 / 20.0, 0.0)
    robot = chain_robot(
        Joint(
            "s",
            JointType.SCREW,
            "a",
            "b",
            axis=Axis((0, 0, 1)),
            thread_pitch=0.01,
            thread_pitch_unit="m/rev",
        )
    )
    model, _ = compile_robot(robot)
    assert joint_couplings(model)[0].gain == pytest.approx(0.01 / (2 * math.pi), rel=1e-15)


def test_screw_without_pitch_is_an_error() -> None:
    robot = chain_robot(Joint("s", JointType.SCREW, "a", "b", axis=Axis((0, 0, 1))))
    with pytest.raises(BackendError, match=r"screw joint 's' has no non-zero thread pitch"):
        build_spec(robot)


def test_zero_axis_is_an_error() -> None:
    robot = chain_robot(
        Joint("j", JointType.REVOLUTE, "a", "b", axis=Axis((0, 0, 0)), limit=Limit(-1, 1))
    )
    with pytest.raises(BackendError, match=r"joint 'j' has a zero axis"):
        build_spec(robot)


def test_bad_timestep() -> None:
    with pytest.raises(BackendError, match=r"timestep must be > 0 s, got 0.0"):
        build_spec(chain_robot(Joint("j", JointType.FIXED, "a", "b")), BuildOptions(timestep=0.0))


def test_gearbox_without_input_noted(caplog) -> None:
    robot = chain_robot(
        Joint("g", JointType.GEARBOX, "a", "b", axis=Axis((0, 0, 1)), gearbox_ratio=2.0)
    )
    with caplog.at_level(logging.WARNING):
        model, _ = compile_robot(robot)
    assert model.neq == 0
    assert (
        "gearbox joint 'g': has no gearbox_reference_body (give <gearbox_reference_body>)"
        in caplog.text
    )
    assert "None" not in caplog.text


def test_options_gravity_ground_timestep() -> None:
    robot = chain_robot(Joint("j", JointType.FIXED, "a", "b", origin=Pose((0, 0, 1))))
    model, _ = compile_robot(robot, gravity=(0, 0, -1.62), timestep=0.002, ground_plane=False)
    assert list(model.opt.gravity) == [0, 0, -1.62] and model.opt.timestep == 0.002
    assert model.ngeom == 0


def test_link_frames_match_kinematics() -> None:
    """Body poses at q = 0 equal sdf_bridge.description.kinematics.link_transforms (1e-12)."""
    robot = chain_robot(
        Joint(
            "j1",
            JointType.REVOLUTE,
            "a",
            "b",
            origin=Pose((0.1, 0.2, 0.3), (0.3, -0.2, 0.5)),
            axis=Axis((0, 0, 1)),
            limit=Limit(-1, 1),
        ),
        Joint("j2", JointType.FIXED, "b", "c", origin=Pose((0.5, 0, 0), (math.pi, 0, 0))),
        Joint(
            "j3",
            JointType.PRISMATIC,
            "c",
            "d",
            origin=Pose((0, 0, 0.4), (0, 0.4, 0)),
            joint_to_child=Pose((0.1, 0, 0), (0, 0, 0.3)),
            axis=Axis((1, 0, 0)),
            limit=Limit(0, 1),
        ),
    )
    model, _ = compile_robot(robot, ground_plane=False)
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
    built = build_spec(chain_robot(Joint("j", JointType.FIXED, "a", "b")))
    built.spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_MESH, meshname="nope")
    with pytest.raises(BackendError, match=r"MuJoCo cannot compile the model of 'r'"):
        compile_model(built)


def test_parallel_universal_axes_get_armature(caplog) -> None:
    robot = chain_robot(
        Joint("u", JointType.UNIVERSAL, "a", "b", axis=Axis((0, 0, 1)), axis2=Axis((0, 0, 1)))
    )
    with caplog.at_level(logging.WARNING):
        model, _ = compile_robot(robot)
    assert list(model.dof_armature) == [DEFAULT_INERTIA, DEFAULT_INERTIA]
    assert "joint 'u': axis and axis2 are parallel" in caplog.text
    assert np.all(np.isfinite(model.dof_M0))


def test_several_root_links_all_built() -> None:
    """An SDFormat model may hold unjoined links: each is a root body at its Link.pose."""
    robot = Robot(
        "two",
        links={
            "a": Link("a", inertial=INERTIAL, pose=Pose((0, 0, 1))),
            "b": Link("b", inertial=INERTIAL, pose=Pose((1, 0, 2), (0, 0, 0.5))),
        },
        format="sdf",
        pose=Pose((0, 1, 0)),
    )
    model, _ = compile_robot(robot, ground_plane=False)
    assert model.body("a").pos == pytest.approx([0, 1, 1], abs=1e-12)
    assert model.body("b").pos == pytest.approx([1, 1, 2], abs=1e-12)
    model, _ = compile_robot(robot, ground_plane=False, fixed_base=False)
    assert list(model.jnt_type) == [mujoco.mjtJoint.mjJNT_FREE] * 2


def test_static_model_stays_welded() -> None:
    robot = Robot("s", links={"a": Link("a", inertial=INERTIAL)}, format="sdf", static=True)
    model, _ = compile_robot(robot, fixed_base=False)
    assert model.njnt == 0


def test_loop_closing_joint_noted(caplog) -> None:
    robot = chain_robot(
        Joint("j1", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))),
        Joint("j2", JointType.CONTINUOUS, "a", "c", axis=Axis((0, 0, 1))),
        Joint("loop", JointType.FIXED, "b", "c"),
    )
    with caplog.at_level(logging.WARNING):
        model, _ = compile_robot(robot)
    assert "joint 'loop' closes a kinematic loop; it is not simulated" in caplog.text
    assert model.nbody == 4 and model.njnt == 2


def test_robot_of_only_a_root_link_builds() -> None:
    """No joints: one welded body (fixed base) or one free body; no joint slots otherwise."""
    robot = Robot("lone", links={"a": Link("a", inertial=INERTIAL)})
    model, built = compile_robot(robot)
    assert model.nbody == 2 and model.njnt == 0 and built.joints == {}
    model, built = compile_robot(robot, fixed_base=False)
    assert list(model.jnt_type) == [mujoco.mjtJoint.mjJNT_FREE] and list(built.joints) == [
        "a__free"
    ]


def test_robot_of_only_the_world_link_builds() -> None:
    robot = Robot("w", links={"world": Link("world")})
    model, built = compile_robot(robot)
    assert model.nbody == 1 and built.link_body == {"world": "world"}
