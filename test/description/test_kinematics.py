"""Tests of sdf_bridge.description.kinematics on hand-built robots (exact values, tol 1e-12)."""

from __future__ import annotations

import math
from datetime import timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdf_bridge.description.kinematics import (
    joint_motion,
    joint_transform,
    link_transforms,
    tree_edges,
)
from sdf_bridge.description.model import Axis, Joint, JointType, Link, Pose, Robot

#: Hypothesis' bound on one example (the first may compile the kernels): a runaway
#: example fails the test; setup.cfg's pytest timeout bounds the test as a whole.
DEADLINE = timedelta(seconds=30)

TOL = 1e-12


def _robot(*joints: Joint) -> Robot:
    names = ["base"] + [j.child for j in joints]
    return Robot(
        name="r", links={n: Link(name=n) for n in names}, joints={j.name: j for j in joints}
    )


def test_revolute_rotates_about_axis_after_origin() -> None:
    j = Joint(
        "j",
        JointType.REVOLUTE,
        "base",
        "a",
        origin=Pose((1.0, 0.0, 0.0)),
        axis=Axis((0.0, 0.0, 1.0)),
    )
    t = link_transforms(_robot(j), {"j": math.pi / 2})["a"]
    expected = np.array([[0, -1, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=float)
    np.testing.assert_allclose(t, expected, atol=TOL)


def test_chain_composes_origin_motion_and_child() -> None:
    j1 = Joint(
        "j1",
        JointType.CONTINUOUS,
        "base",
        "a",
        origin=Pose((0.0, 0.0, 1.0)),
        axis=Axis((0.0, 0.0, 1.0)),
    )
    j2 = Joint("j2", JointType.FIXED, "a", "b", origin=Pose((1.0, 0.0, 0.0)))
    poses = link_transforms(_robot(j1, j2), {"j1": math.pi / 2})
    np.testing.assert_allclose(poses["base"], np.eye(4), atol=TOL)
    np.testing.assert_allclose(poses["b"][:3, 3], [0.0, 1.0, 1.0], atol=TOL)


def test_prismatic_translates_along_axis() -> None:
    j = Joint(
        "s",
        JointType.PRISMATIC,
        "base",
        "a",
        origin=Pose((0.0, 0.0, 0.0), (0.0, 0.0, math.pi / 2)),
        axis=Axis((0.6, 0.8, 0.0)),
    )
    t = link_transforms(_robot(j), {"s": 0.1})["a"]
    # the axis is in the joint frame, which is yawed by 90°: (0.06, 0.08, 0) → (-0.08, 0.06, 0)
    np.testing.assert_allclose(t[:3, 3], [-0.08, 0.06, 0.0], atol=TOL)
    np.testing.assert_allclose(t[:3, :3], Pose(rpy=(0.0, 0.0, math.pi / 2)).rotation, atol=TOL)


def test_missing_joint_is_zero_and_unknown_names_ignored() -> None:
    j = Joint(
        "j",
        JointType.REVOLUTE,
        "base",
        "a",
        origin=Pose((0.5, 0.0, 0.0)),
        axis=Axis((0.0, 1.0, 0.0)),
    )
    poses = link_transforms(_robot(j), {"other": 3.0})
    np.testing.assert_allclose(poses["a"], Pose((0.5, 0.0, 0.0)).matrix(), atol=TOL)


@pytest.mark.parametrize(
    "kind",
    [
        JointType.FIXED,
        JointType.FLOATING,
        JointType.PLANAR,
        JointType.BALL,
        JointType.UNIVERSAL,
        JointType.REVOLUTE2,
    ],
)
def test_fixed_and_multi_dof_joints_stay_at_zero(kind: JointType) -> None:
    j = Joint("j", kind, "base", "a", origin=Pose((0.0, 2.0, 0.0)), axis=Axis((0.0, 0.0, 1.0)))
    np.testing.assert_allclose(joint_motion(j, 1.3), np.eye(4), atol=TOL)
    np.testing.assert_allclose(
        link_transforms(_robot(j), {"j": 1.3})["a"][:3, 3], [0.0, 2.0, 0.0], atol=TOL
    )


@pytest.mark.parametrize("kind", [JointType.SCREW, JointType.GEARBOX])
def test_screw_and_gearbox_rotate_like_revolute(kind: JointType) -> None:
    j = Joint("j", kind, "base", "a", axis=Axis((1.0, 0.0, 0.0)))
    rot = joint_motion(j, math.pi)[:3, :3]
    np.testing.assert_allclose(rot, np.diag([1.0, -1.0, -1.0]), atol=TOL)


def test_joint_to_child_applied_after_motion() -> None:
    j = Joint(
        "j",
        JointType.REVOLUTE,
        "base",
        "a",
        axis=Axis((0.0, 0.0, 1.0)),
        joint_to_child=Pose((1.0, 0.0, 0.0)),
    )
    t = joint_transform(j, math.pi / 2)
    np.testing.assert_allclose(t[:3, 3], [0.0, 1.0, 0.0], atol=TOL)


def test_default_axis_is_x_when_absent() -> None:
    j = Joint("j", JointType.REVOLUTE, "base", "a")
    np.testing.assert_allclose(
        joint_motion(j, math.pi)[:3, :3], np.diag([1.0, -1.0, -1.0]), atol=TOL
    )


_angles = st.floats(min_value=-10.0, max_value=10.0, allow_nan=False)


@settings(max_examples=100, deadline=DEADLINE)
@given(
    q1=_angles,
    q2=_angles,
    ax=st.tuples(_angles, _angles, _angles).filter(lambda v: sum(c * c for c in v) > 1e-3),
)
def test_poses_are_rigid_and_periodic(q1: float, q2: float, ax: tuple[float, float, float]) -> None:
    n = math.sqrt(sum(c * c for c in ax))
    axis = Axis(tuple(c / n for c in ax))  # type: ignore[arg-type]  # (ax normalised: 3 floats)
    j1 = Joint(
        "j1",
        JointType.REVOLUTE,
        "base",
        "a",
        origin=Pose((0.1, 0.2, 0.3), (0.3, -0.2, 0.1)),
        axis=axis,
    )
    j2 = Joint(
        "j2",
        JointType.CONTINUOUS,
        "a",
        "b",
        origin=Pose((0.0, 0.0, 0.5)),
        axis=Axis((0.0, 0.0, 1.0)),
    )
    robot = _robot(j1, j2)
    pose = link_transforms(robot, {"j1": q1, "j2": q2})["b"]
    rot = pose[:3, :3]
    np.testing.assert_allclose(rot @ rot.T, np.eye(3), atol=1e-9)
    assert np.linalg.det(rot) == pytest.approx(1.0, abs=1e-9)
    np.testing.assert_allclose(pose[3], [0.0, 0.0, 0.0, 1.0], atol=0.0)
    shifted = link_transforms(robot, {"j1": q1 + 2 * math.pi, "j2": q2 - 2 * math.pi})["b"]
    np.testing.assert_allclose(shifted, pose, atol=1e-9)
    # the joint's own motion leaves points on its axis in place
    motion = joint_motion(j1, q1)
    np.testing.assert_allclose(motion[:3, :3] @ np.asarray(axis.xyz), axis.xyz, atol=1e-9)


# ------------------------------------------------------------------ tree_edges in O(n log n)
def _tree_edges_by_passes(robot: Robot) -> tuple[list, list]:
    """tree_edges as it was (repeated passes, O(n²)): the oracle of the heap version."""
    children = {j.child for j in robot.joints.values()}
    order = [(name, None) for name in robot.links if name not in children]
    placed = {name for name, _ in order}
    pending = list(robot.joints.values())
    for allow_gearbox in (False, True):
        changed = True
        while changed:
            changed = False
            for joint in list(pending):
                if joint.type is JointType.GEARBOX and not allow_gearbox:
                    continue
                if joint.parent in placed and joint.child not in placed:
                    order.append((joint.child, joint))
                    placed.add(joint.child)
                    pending.remove(joint)
                    changed = True
    return order, pending


@settings(max_examples=500, deadline=timedelta(seconds=2))
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.lists(
            st.tuples(
                st.integers(0, n - 1),
                st.integers(0, n - 1),
                st.sampled_from([JointType.REVOLUTE, JointType.FIXED, JointType.GEARBOX]),
            ),
            max_size=12,
        ).map(lambda edges: (n, edges))
    )
)
def test_tree_edges_equals_the_passes_over_the_joints(case: tuple[int, list]) -> None:
    """The same order and loop joints as repeated passes, on random graphs (loops, gearboxes,
    several roots, unreachable links, a link the child of several joints)."""
    n, edges = case
    robot = Robot(
        name="r",
        links={f"l{i}": Link(name=f"l{i}") for i in range(n)},
        joints={
            f"j{k}": Joint(f"j{k}", kind, f"l{a}", f"l{b}")
            for k, (a, b, kind) in enumerate(edges)
            if a != b
        },
    )
    assert tree_edges(robot) == _tree_edges_by_passes(robot)


@pytest.mark.timeout(10)
def test_tree_edges_of_a_reversed_chain_of_ten_thousand_joints() -> None:
    """Joints listed child-first (the passes' worst case: one joint placed per pass)."""
    n = 10_000
    joints = [Joint(f"j{i}", JointType.REVOLUTE, f"l{i}", f"l{i + 1}") for i in range(n)]
    robot = Robot(
        name="r",
        links={f"l{i}": Link(name=f"l{i}") for i in range(n + 1)},
        joints={j.name: j for j in reversed(joints)},
    )
    order, loops = tree_edges(robot)
    assert [name for name, _ in order] == [f"l{i}" for i in range(n + 1)]
    assert loops == []
