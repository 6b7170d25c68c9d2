"""Tests of sdf_bridge.description.kinematics on hand-built robots (exact values, tol 1e-12)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sdf_bridge.description.kinematics import joint_motion, joint_transform, link_transforms
from sdf_bridge.description.model import Axis, Joint, JointType, Link, Pose, Robot

TOL = 1e-12


def _robot(*joints: Joint) -> Robot:
    names = ["base"] + [j.child for j in joints]
    return Robot(name="r", links={n: Link(name=n) for n in names}, joints={j.name: j for j in joints})


def test_revolute_rotates_about_axis_after_origin() -> None:
    j = Joint("j", JointType.REVOLUTE, "base", "a", origin=Pose((1.0, 0.0, 0.0)), axis=Axis((0.0, 0.0, 1.0)))
    t = link_transforms(_robot(j), {"j": math.pi / 2})["a"]
    expected = np.array([[0, -1, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=float)
    np.testing.assert_allclose(t, expected, atol=TOL)


def test_chain_composes_origin_motion_and_child() -> None:
    j1 = Joint("j1", JointType.CONTINUOUS, "base", "a", origin=Pose((0.0, 0.0, 1.0)), axis=Axis((0.0, 0.0, 1.0)))
    j2 = Joint("j2", JointType.FIXED, "a", "b", origin=Pose((1.0, 0.0, 0.0)))
    poses = link_transforms(_robot(j1, j2), {"j1": math.pi / 2})
    np.testing.assert_allclose(poses["base"], np.eye(4), atol=TOL)
    np.testing.assert_allclose(poses["b"][:3, 3], [0.0, 1.0, 1.0], atol=TOL)


def test_prismatic_translates_along_axis() -> None:
    j = Joint("s", JointType.PRISMATIC, "base", "a", origin=Pose((0.0, 0.0, 0.0), (0.0, 0.0, math.pi / 2)),
              axis=Axis((0.6, 0.8, 0.0)))
    t = link_transforms(_robot(j), {"s": 0.1})["a"]
    # the axis is in the joint frame, which is yawed by 90°: (0.06, 0.08, 0) → (-0.08, 0.06, 0)
    np.testing.assert_allclose(t[:3, 3], [-0.08, 0.06, 0.0], atol=TOL)
    np.testing.assert_allclose(t[:3, :3], Pose(rpy=(0.0, 0.0, math.pi / 2)).rotation, atol=TOL)


def test_missing_joint_is_zero_and_unknown_names_ignored() -> None:
    j = Joint("j", JointType.REVOLUTE, "base", "a", origin=Pose((0.5, 0.0, 0.0)), axis=Axis((0.0, 1.0, 0.0)))
    poses = link_transforms(_robot(j), {"other": 3.0})
    np.testing.assert_allclose(poses["a"], Pose((0.5, 0.0, 0.0)).matrix(), atol=TOL)


@pytest.mark.parametrize("kind", [JointType.FIXED, JointType.FLOATING, JointType.PLANAR, JointType.BALL,
                                  JointType.UNIVERSAL, JointType.REVOLUTE2])
def test_fixed_and_multi_dof_joints_stay_at_zero(kind: JointType) -> None:
    j = Joint("j", kind, "base", "a", origin=Pose((0.0, 2.0, 0.0)), axis=Axis((0.0, 0.0, 1.0)))
    np.testing.assert_allclose(joint_motion(j, 1.3), np.eye(4), atol=TOL)
    np.testing.assert_allclose(link_transforms(_robot(j), {"j": 1.3})["a"][:3, 3], [0.0, 2.0, 0.0], atol=TOL)


@pytest.mark.parametrize("kind", [JointType.SCREW, JointType.GEARBOX])
def test_screw_and_gearbox_rotate_like_revolute(kind: JointType) -> None:
    j = Joint("j", kind, "base", "a", axis=Axis((1.0, 0.0, 0.0)))
    rot = joint_motion(j, math.pi)[:3, :3]
    np.testing.assert_allclose(rot, np.diag([1.0, -1.0, -1.0]), atol=TOL)


def test_joint_to_child_applied_after_motion() -> None:
    j = Joint("j", JointType.REVOLUTE, "base", "a", axis=Axis((0.0, 0.0, 1.0)),
              joint_to_child=Pose((1.0, 0.0, 0.0)))
    t = joint_transform(j, math.pi / 2)
    np.testing.assert_allclose(t[:3, 3], [0.0, 1.0, 0.0], atol=TOL)


def test_default_axis_is_x_when_absent() -> None:
    j = Joint("j", JointType.REVOLUTE, "base", "a")
    np.testing.assert_allclose(joint_motion(j, math.pi)[:3, :3], np.diag([1.0, -1.0, -1.0]), atol=TOL)
