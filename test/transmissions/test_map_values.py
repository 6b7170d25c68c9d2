"""TransmissionMap's hot path against closed forms (simple, differential, four-bar, mimic), its
input kinds and shapes, the actuator dependency, and its linear build cost."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sdf_bridge.transmissions import TransmissionMap

from .builders import chain, mimic, simple, two_by_two

DIFF = "transmission_interface/DifferentialTransmission"
FOURBAR = "transmission_interface/FourBarLinkageTransmission"


def _demo() -> TransmissionMap:
    robot = chain(
        ("a", "revolute"),
        ("b", "revolute"),
        ("m", "revolute", mimic("a", -2.0, 0.1)),
        transmissions=[simple("t", "a", "ma", ared=-50.0, offset=0.2)],
    )
    return TransmissionMap.from_robot(robot)


def _mixed() -> TransmissionMap:
    """a: simple −50, offset 0.2; (b, c): differential, reductions j (2, 3), a (5, 7), offsets
    (0.1, −0.2); (d, e): four-bar, j (2, 4), a (10, 5); f follows d (3·d − 1)."""
    diff = two_by_two(
        "diff",
        DIFF,
        [("b", "joint1", 2.0, 0.1), ("c", "joint2", 3.0, -0.2)],
        [("mb", "actuator1", 5.0), ("mc", "actuator2", 7.0)],
    )
    fourbar = two_by_two(
        "fb",
        FOURBAR,
        [("d", "joint1", 2.0, 0.0), ("e", "joint2", 4.0, 0.0)],
        [("md", "actuator1", 10.0), ("me", "actuator2", 5.0)],
    )
    robot = chain(
        ("a", "revolute"),
        ("b", "revolute"),
        ("c", "revolute"),
        ("d", "revolute"),
        ("e", "revolute"),
        ("f", "revolute", mimic("d", 3.0, -1.0)),
        transmissions=[simple("t", "a", "ma", ared=-50.0, offset=0.2), diff, fourbar],
    )
    return TransmissionMap.from_robot(robot)


def test_mixed_map_closed_forms() -> None:
    tm = _mixed()
    assert tm.joint_names == ("a", "b", "c", "d", "e")
    assert tm.actuator_names == ("ma", "mb", "mc", "md", "me")
    assert tm.follower_names == ("f",)
    qa = np.array([-5.0, 10.0, 14.0, 8.0, 6.0])
    va = np.array([1.0, 1.0, 2.0, 4.0, -2.0])
    ea = np.array([2.0, 0.5, 0.25, 1.0, 3.0])
    s = tm.actuator_to_joint_with_followers(qa, va, ea)
    want_q = [
        -5.0 / -50.0 + 0.2,
        (10 / 5 + 14 / 7) / (2 * 2) + 0.1,
        (10 / 5 - 14 / 7) / (2 * 3) - 0.2,
        8.0 / (2 * 10),
        (6.0 / 5 - 8.0 / (2 * 10)) / 4,
    ]
    want_v = [
        1.0 / -50.0,
        (1 / 5 + 2 / 7) / 4,
        (1 / 5 - 2 / 7) / 6,
        4.0 / 20,
        (-2.0 / 5 - 4.0 / 20) / 4,
    ]
    want_e = [
        -50.0 * 2.0,
        2 * (5 * 0.5 + 7 * 0.25),
        3 * (5 * 0.5 - 7 * 0.25),
        2 * 10 * 1.0 + 5 * 3.0,
        4 * 5 * 3.0,
    ]
    np.testing.assert_allclose(s[0, :5], want_q, rtol=0, atol=1e-14)
    np.testing.assert_allclose(s[1, :5], want_v, rtol=0, atol=1e-14)
    np.testing.assert_allclose(s[2, :5], want_e, rtol=0, atol=1e-12)
    assert s[0, 5] == pytest.approx(3.0 * want_q[3] - 1.0, abs=1e-14)
    assert s[1, 5] == pytest.approx(3.0 * want_v[3], abs=1e-14) and math.isnan(s[2, 5])
    # and back: the exact inverse
    back = tm.joint_to_actuator(s[0, :5], s[1, :5], s[2, :5])
    for got, want in zip(back, (qa, va, ea)):
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_nan_reaches_only_the_dependent_outputs() -> None:
    tm = _mixed()
    q = np.zeros(5)
    q[1] = np.nan  # joint b: the differential's actuators only
    a = tm.joint_to_actuator(q, np.zeros(5), np.zeros(5))[0]
    assert np.isnan(a).tolist() == [False, True, True, False, False]
    q = np.zeros(5)
    q[3] = np.nan  # actuator md drives both four-bar joints
    j = tm.actuator_to_joint(q, np.zeros(5), np.zeros(5))[0]
    assert np.isnan(j).tolist() == [False, False, False, True, True]


def test_dependency_of_a_differential_and_a_simple_transmission() -> None:
    """A differential's two actuators each depend on both its joints; a simple transmission's
    actuator only on its joint (reduction −50, offset 0.2: the offset is no dependency)."""
    diff = two_by_two(
        "diff",
        DIFF,
        [("b", "joint1", 1.0, 0.0), ("c", "joint2", 1.0, 0.0)],
        [("mb", "actuator1", 1.0), ("mc", "actuator2", 1.0)],
    )
    robot = chain(
        ("a", "revolute"),
        ("b", "revolute"),
        ("c", "revolute"),
        transmissions=[simple("t", "a", "ma", ared=-50.0, offset=0.2), diff],
    )
    tm = TransmissionMap.from_robot(robot)
    assert tm.joint_names == ("a", "b", "c") and tm.actuator_names == ("ma", "mb", "mc")
    assert tm.dependency.tolist() == [
        [True, False, False],
        [False, True, True],
        [False, True, True],
    ]
    assert not tm.dependency.toarray().flags.writeable and tm.dependency.nnz == 5
    assert [x.tolist() for x in tm.dependency.nonzero()] == [[0, 1, 1, 2, 2], [0, 1, 2, 1, 2]]


def test_joint_state_rejects_a_wrong_shape() -> None:
    tm = _demo()
    with pytest.raises(ValueError, match=r"joint array of shape \(3, 3\), expected \(3, 2\)"):
        tm.joint_state(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="could not (be )?broadcast"):
        tm.actuator_to_joint_stacked(np.zeros(3), np.zeros(2), np.zeros(2))


def test_values_by_hand() -> None:
    """Joint a: ratio −50, offset 0.2; joint b identity; follower m = −2·a + 0.1."""
    tm = _demo()
    s = tm.actuator_to_joint_with_followers(
        np.array([-5.0, 3.0]), np.array([10.0, -1.0]), np.array([2.0, 0.5])
    )
    assert s[:, :2].tolist() == [[0.2 + 0.1, 3.0], [-0.2, -1.0], [-100.0, 0.5]]
    assert s[0, 2] == pytest.approx(-2.0 * 0.3 + 0.1, abs=1e-15)
    assert s[1, 2] == pytest.approx(0.4, abs=1e-15) and math.isnan(s[2, 2])
    a = tm.joint_to_actuator(
        np.array([0.2 + 0.1, np.nan]), np.array([np.nan, 1.0]), np.array([-100.0, 0.5])
    )
    assert a[0][0] == pytest.approx(-5.0, abs=1e-12) and math.isnan(a[0][1])
    assert math.isnan(a[1][0]) and a[1][1] == 1.0
    assert a[2].tolist() == [2.0, 0.5]
    state, actuators = tm.joint_state(np.array([[0.3, 3.0], [-0.2, -1.0], [-100.0, 0.5]]))
    np.testing.assert_allclose(state[:, :2], [[0.3, 3.0], [-0.2, -1.0], [-100.0, 0.5]])
    np.testing.assert_allclose(actuators, [[-5.0, 3.0], [10.0, -1.0], [2.0, 0.5]], atol=1e-12)


def test_other_input_kinds() -> None:
    """Lists, ints, scalars and read-only views are converted; wrong shapes raise."""
    tm = _demo()
    q, v, e = tm.actuator_to_joint([1, 2], np.array([1, 2]), 0.5)  # list, int array, scalar
    assert (q.tolist(), v.tolist(), e.tolist()) == (
        [1.0 / -50.0 + 0.2, 2.0],
        [-0.02, 2.0],
        [-25.0, 0.5],
    )
    frozen = np.array([0.3, 0.4])
    frozen.flags.writeable = False
    for got, want in zip(
        tm.joint_to_actuator(frozen, frozen, frozen),
        tm.joint_to_actuator(np.array([0.3, 0.4]), np.array([0.3, 0.4]), np.array([0.3, 0.4])),
    ):
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="could not broadcast"):
        tm.actuator_to_joint(np.zeros(3), np.zeros(2), np.zeros(2))
    with pytest.raises(ValueError, match="could not broadcast"):
        tm.joint_to_actuator(np.zeros(2), np.zeros(2), np.zeros(5))
    with pytest.raises(ValueError, match="could not broadcast"):
        tm.actuator_to_joint_with_followers(np.zeros(2), np.zeros(3), np.zeros(2))
    with pytest.raises(ValueError, match=r"joint array of shape \(1, 2\), expected \(3, 2\)"):
        tm.followers_stacked(np.zeros((1, 2)))
    with pytest.raises(ValueError, match=r"joint array of shape \(3, 3\), expected \(3, 2\)"):
        tm.followers_stacked(np.zeros((3, 3)))  # a wider array never gives wrong followers
    # followers() reads only its leaders: longer arrays are accepted
    pf, vf, ef = tm.followers(np.array([1.0, 2.0, 3.0]), [0.5, 0.0, 0.0], None)
    assert (pf.tolist(), vf.tolist()) == ([-1.9], [-1.0]) and math.isnan(ef[0])


def test_results_are_new_arrays() -> None:
    tm = _demo()
    x = np.array([0.1, 0.2])
    first = tm.actuator_to_joint_stacked(x, x, x)
    second = tm.actuator_to_joint_stacked(x, x, x)
    assert not np.shares_memory(first, second)
    for one, two in zip(tm.joint_to_actuator(x, x, x), tm.joint_to_actuator(x, x, x)):
        assert not np.shares_memory(one, two) and not np.shares_memory(one, x)
    assert not np.shares_memory(tm.followers(x, x, x)[0], tm.followers(x, x, x)[0])
    joints = np.stack((x, x, x))
    assert not np.shares_memory(tm.followers_stacked(joints), tm.followers_stacked(joints))
    assert not np.shares_memory(
        tm.actuator_to_joint_with_followers(x, x, x), tm.actuator_to_joint_with_followers(x, x, x)
    )


def test_empty_map() -> None:
    tm = TransmissionMap([], [])
    z = np.zeros(0)
    assert tm.actuator_to_joint_stacked(z, z, z).shape == (3, 0)
    assert tm.actuator_to_joint_with_followers(z, z, z).shape == (3, 0)
    assert [x.shape for x in tm.followers(z, z, z)] == [(0,)] * 3
    assert tm.dependency.shape == (0, 0)


@pytest.mark.stress
def test_ten_thousand_joint_chain_map_memory_is_linear() -> None:
    """10,000 joints, a simple transmission each: the map's build allocates megabytes, not the
    (3, n, n) dense matrices (2.4 GB each) or the (n, n) dependency of before; the dependency
    holds one entry per actuator."""
    import tracemalloc

    n = 10_000
    robot = chain(
        *((f"j{i}", "revolute") for i in range(n)),
        transmissions=[simple(f"t{i}", f"j{i}", f"m{i}", ared=10.0, offset=0.1) for i in range(n)],
    )
    tracemalloc.start()
    try:
        tm = TransmissionMap.from_robot(robot)
        dependency = tm.dependency
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, f"peak {peak / 2**20:.1f} MiB"
    assert dependency.shape == (n, n) and dependency.nnz == n
    x = np.full(n, 10.0)
    q = tm.actuator_to_joint(x, x, x)[0]
    np.testing.assert_allclose(q, np.full(n, 1.0 + 0.1), rtol=0, atol=1e-15)
