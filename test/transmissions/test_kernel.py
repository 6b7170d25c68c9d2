"""Compiled hot path (:mod:`sdf_bridge.transmissions.kernel`) against the numpy reference.

Every comparison is exact: equal values bit for bit, NaN where the reference has NaN, and the
same sign on zeros (the kernels perform the numpy path's operations in the same order). With
``SDF_BRIDGE_JIT=0`` the kernels run as plain Python and the same checks hold.
"""

from __future__ import annotations

import math
from datetime import timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdf_bridge import jit
from sdf_bridge.description.model import Axis, Joint, JointType, Link, Robot
from sdf_bridge.transmissions import (
    DifferentialTransmission,
    Follower,
    FourBarLinkageTransmission,
    IdentityTransmission,
    SimpleTransmission,
    TransmissionMap,
    WristTransmission,
    kernel,
)

from .builders import chain, mimic, simple, two_by_two

#: Hypothesis' bound on one example (the first may compile the kernels): a runaway
#: example fails the test; setup.cfg's pytest timeout bounds the test as a whole.
DEADLINE = timedelta(seconds=30)

# huge random values overflow to ±inf in both paths alike; numpy's warnings about it are noise
pytestmark = pytest.mark.filterwarnings(
    "ignore:(overflow|invalid value) encountered:RuntimeWarning"
)

MECHANISMS = [
    SimpleTransmission,
    DifferentialTransmission,
    FourBarLinkageTransmission,
    WristTransmission,
    IdentityTransmission,
]

reduction = st.floats(0.5, 50.0).flatmap(lambda m: st.sampled_from([m, -m]))
offset = st.one_of(st.just(0.0), st.floats(-10.0, 10.0))
# any float64 a sensor or a command may carry, NaN (= no command) and ±inf included
value = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -0.0]))


def assert_identical(got: np.ndarray, want: np.ndarray) -> None:
    """Same shape, same values, NaN at the same places, same sign of every non-NaN entry."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # NaN == NaN here
    finite = ~np.isnan(want)
    np.testing.assert_array_equal(np.signbit(got[finite]), np.signbit(want[finite]))


@st.composite
def transmission_map(draw):
    """A map built from random mechanisms (all built-in types and identities), joints in a
    random order, and random followers (mimic, gearbox, screw) of random leaders."""
    mechs, joints, k = [], [], 0
    for cls in draw(st.lists(st.sampled_from(MECHANISMS), min_size=0, max_size=6)):
        n = cls.num_joints
        names = [f"j{k + i}" for i in range(n)]
        if cls is IdentityTransmission:
            mech = cls(names[0], names, names)
        else:
            mech = cls(
                f"t{k}",
                names,
                [f"a{k + i}" for i in range(n)],
                draw(st.lists(reduction, min_size=n, max_size=n)),
                draw(st.lists(reduction, min_size=n, max_size=n)),
                draw(st.lists(offset, min_size=n, max_size=n)),
            )
        mechs.append(mech)
        joints += names
        k += n
    joints = draw(st.permutations(joints))
    followers = []
    if joints:
        for f in range(draw(st.integers(0, 5))):
            kind = draw(st.sampled_from(["mimic", "gearbox", "screw"]))
            followers.append(
                Follower(
                    f"f{f}", draw(st.sampled_from(joints)), draw(reduction), draw(offset), kind
                )
            )
    return joints, mechs, followers


def _pair(spec) -> tuple[TransmissionMap, TransmissionMap]:
    joints, mechs, followers = spec
    return (
        TransmissionMap(joints, mechs, followers, compiled=False),
        TransmissionMap(joints, mechs, followers, compiled=True),
    )


def _inputs(data, n: int) -> list[np.ndarray]:
    return [
        np.array(data.draw(st.lists(value, min_size=n, max_size=n)), dtype=float) for _ in range(3)
    ]


@settings(max_examples=200, deadline=DEADLINE)
@given(spec=transmission_map(), data=st.data())
def test_every_method_identical(spec, data) -> None:
    ref, fast = _pair(spec)
    assert not ref.compiled and fast.compiled
    n, nf = len(ref.joint_names), len(ref.follower_names)
    p, v, e = _inputs(data, n)
    s_ref, s_fast = ref.actuator_to_joint_stacked(p, v, e), fast.actuator_to_joint_stacked(p, v, e)
    assert s_fast.shape == (3, n)
    assert_identical(s_fast, s_ref)
    for got, want in zip(fast.actuator_to_joint(p, v, e), ref.actuator_to_joint(p, v, e)):
        assert_identical(got, want)
    for got, want in zip(fast.joint_to_actuator(p, v, e), ref.joint_to_actuator(p, v, e)):
        assert got.shape == (n,)
        assert_identical(got, want)
    for got, want in zip(fast.followers(p, v, e), ref.followers(p, v, e)):
        assert got.shape == (nf,)
        assert_identical(got, want)
    joints = np.stack((p, v, e))
    assert_identical(fast.followers_stacked(joints), ref.followers_stacked(joints))
    fused = fast.actuator_to_joint_with_followers(p, v, e)
    assert fused.shape == (3, n + nf)
    assert_identical(fused, ref.actuator_to_joint_with_followers(p, v, e))
    assert_identical(fused, np.concatenate((s_ref, ref.followers_stacked(s_ref)), axis=1))
    # a simulator's state and its actuators at once
    state, actuators = fast.joint_state(joints)
    assert state.shape == (3, n + nf) and actuators.shape == (3, n)
    ref_state, ref_actuators = ref.joint_state(joints)
    assert_identical(state, ref_state)
    assert_identical(actuators, ref_actuators)
    assert_identical(state, np.concatenate((joints, ref.followers_stacked(joints)), axis=1))
    assert_identical(actuators, np.stack(ref.joint_to_actuator(p, v, e)))


@settings(max_examples=50, deadline=DEADLINE)
@given(spec=transmission_map(), data=st.data())
def test_strided_inputs_identical(spec, data) -> None:
    """Views with a stride (columns of an (n, 3) array) give the same results."""
    ref, fast = _pair(spec)
    n = len(ref.joint_names)
    cols = np.stack(_inputs(data, n), axis=1)  # (n, 3): each column is strided
    p, v, e = cols[:, 0], cols[:, 1], cols[:, 2]
    assert_identical(
        fast.actuator_to_joint_stacked(p, v, e), ref.actuator_to_joint_stacked(p, v, e)
    )
    assert_identical(fast.followers_stacked(cols.T), ref.followers_stacked(cols.T))
    _assert_same_mapping(ref, fast, p, v, e, cols.T)


def _assert_same_mapping(
    ref: TransmissionMap,
    fast: TransmissionMap,
    p: np.ndarray,
    v: np.ndarray,
    e: np.ndarray,
    joints: np.ndarray,
) -> None:
    """joint → actuator, followers and the joint state of ``joints`` (3, n): identical in both
    maps."""
    for got, want in zip(fast.joint_to_actuator(p, v, e), ref.joint_to_actuator(p, v, e)):
        assert_identical(got, want)
    for got, want in zip(fast.followers(p, v, e), ref.followers(p, v, e)):
        assert_identical(got, want)
    for got, want in zip(fast.joint_state(joints), ref.joint_state(joints)):
        assert_identical(got, want)


def _sdf_gears(robot: Robot, ratio: float) -> Robot:
    """``robot`` plus SDFormat's gearbox pattern (base→g1, base→g2, gearbox g1→g2)."""
    links = dict(robot.links) | {n: Link(n) for n in ("gbase", "g1", "g2")}
    z = Axis((0.0, 0.0, 1.0))
    joints = dict(robot.joints) | {
        "gmount": Joint("gmount", JointType.FIXED, "l0", "gbase"),
        "gj1": Joint("gj1", JointType.REVOLUTE, "gbase", "g1", axis=z),
        "gj2": Joint("gj2", JointType.REVOLUTE, "gbase", "g2", axis=z),
        "gear": Joint(
            "gear",
            JointType.GEARBOX,
            "g1",
            "g2",
            axis=z,
            gearbox_ratio=ratio,
            gearbox_reference_body="gbase",
        ),
    }
    return Robot("gears", links=links, joints=joints, transmissions=robot.transmissions)


@settings(max_examples=50, deadline=DEADLINE)
@given(data=st.data())
def test_robot_with_mimic_chain_gearbox_screw_identical(data) -> None:
    """From a description: transmissions of every kind, a mimic chain, a gearbox, a screw."""
    ratio = data.draw(reduction)
    screw = {
        "thread_pitch": data.draw(reduction),
        "thread_pitch_unit": data.draw(st.sampled_from(["m/rev", "rad/m"])),
    }
    specs = [
        ("a", "revolute"),
        ("b", "revolute"),
        ("c", "revolute"),
        ("d", "revolute"),
        ("e", "revolute"),
        ("s", "screw", screw),
        ("m1", "revolute", mimic("a", data.draw(reduction), data.draw(offset))),
        ("m2", "revolute", mimic("m1", data.draw(reduction), data.draw(offset))),
        ("m3", "revolute", mimic("m2", data.draw(reduction), data.draw(offset))),
    ]
    diff = two_by_two(
        "diff",
        "transmission_interface/DifferentialTransmission",
        [
            ("b", "joint1", data.draw(reduction), data.draw(offset)),
            ("c", "joint2", data.draw(reduction), data.draw(offset)),
        ],
        [("mb", "actuator1", data.draw(reduction)), ("mc", "actuator2", data.draw(reduction))],
    )
    four = two_by_two(
        "four",
        "transmission_interface/FourBarLinkageTransmission",
        [
            ("d", "joint1", data.draw(reduction), data.draw(offset)),
            ("e", "joint2", data.draw(reduction), data.draw(offset)),
        ],
        [("md", "actuator1", data.draw(reduction)), ("me", "actuator2", data.draw(reduction))],
    )
    robot = _sdf_gears(
        chain(
            *data.draw(st.permutations(specs)),
            transmissions=[
                simple("ta", "a", "ma", ared=data.draw(reduction), offset=data.draw(offset)),
                diff,
                four,
            ],
        ),
        ratio,
    )
    ref = TransmissionMap.from_robot(robot, compiled=False)
    fast = TransmissionMap.from_robot(robot, compiled=True)
    assert sorted(ref.follower_names) == ["gear", "gj2", "m1", "m2", "m3", "s/translation"]
    n = len(ref.joint_names)
    p, v, e = _inputs(data, n)
    assert_identical(
        fast.actuator_to_joint_with_followers(p, v, e),
        ref.actuator_to_joint_with_followers(p, v, e),
    )
    _assert_same_mapping(ref, fast, p, v, e, np.stack((p, v, e)))


def test_dependency_of_a_differential_and_a_simple_transmission() -> None:
    """A differential's two actuators each depend on both its joints; a simple transmission's
    actuator only on its joint (reduction −50, offset 0.2: the offset is no dependency)."""
    diff = two_by_two(
        "diff",
        "transmission_interface/DifferentialTransmission",
        [("b", "joint1", 1.0, 0.0), ("c", "joint2", 1.0, 0.0)],
        [("mb", "actuator1", 1.0), ("mc", "actuator2", 1.0)],
    )
    robot = chain(
        ("a", "revolute"),
        ("b", "revolute"),
        ("c", "revolute"),
        transmissions=[simple("t", "a", "ma", ared=-50.0, offset=0.2), diff],
    )
    for compiled in (False, True):
        tm = TransmissionMap.from_robot(robot, compiled=compiled)
        assert tm.joint_names == ("a", "b", "c") and tm.actuator_names == ("ma", "mb", "mc")
        assert tm.dependency.tolist() == [
            [True, False, False],
            [False, True, True],
            [False, True, True],
        ]
        assert not tm.dependency.flags.writeable


@pytest.mark.parametrize("compiled", [False, True])
def test_joint_state_rejects_a_wrong_shape(compiled: bool) -> None:
    tm = _demo_pair()[int(compiled)]
    with pytest.raises(ValueError, match=r"joint array of shape \(3, 3\), expected \(3, 2\)"):
        tm.joint_state(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="could not (be )?broadcast"):
        tm.actuator_to_joint_stacked(np.zeros(3), np.zeros(2), np.zeros(2))


def _demo_pair() -> tuple[TransmissionMap, TransmissionMap]:
    robot = chain(
        ("a", "revolute"),
        ("b", "revolute"),
        ("m", "revolute", mimic("a", -2.0, 0.1)),
        transmissions=[simple("t", "a", "ma", ared=-50.0, offset=0.2)],
    )
    return (
        TransmissionMap.from_robot(robot, compiled=False),
        TransmissionMap.from_robot(robot, compiled=True),
    )


def test_values_by_hand() -> None:
    """Joint a: ratio −50, offset 0.2; joint b identity; follower m = −2·a + 0.1."""
    ref, fast = _demo_pair()
    for tm in (ref, fast):
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


@pytest.mark.parametrize("compiled", [False, True])
def test_fallback_inputs_behave_as_numpy(compiled: bool) -> None:
    """Inputs the kernels do not take (lists, ints, scalars, read-only views) give what the
    numpy path gives; wrong shapes raise its ValueError."""
    ref, fast = _demo_pair()
    tm = fast if compiled else ref
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
        ref.joint_to_actuator(np.array([0.3, 0.4]), np.array([0.3, 0.4]), np.array([0.3, 0.4])),
    ):
        assert_identical(got, want)
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
    # followers() reads only its leaders, as the numpy path: longer arrays are accepted
    pf, vf, ef = tm.followers(np.array([1.0, 2.0, 3.0]), [0.5, 0.0, 0.0], None)
    assert (pf.tolist(), vf.tolist()) == ([-1.9], [-1.0]) and math.isnan(ef[0])


@pytest.mark.parametrize("compiled", [False, True])
def test_results_are_new_arrays(compiled: bool) -> None:
    tm = _demo_pair()[int(compiled)]
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
    for compiled in (False, True):
        tm = TransmissionMap([], [], compiled=compiled)
        assert tm.actuator_to_joint_stacked(np.zeros(0), np.zeros(0), np.zeros(0)).shape == (3, 0)
        z = np.zeros(0)
        assert tm.actuator_to_joint_with_followers(z, z, z).shape == (3, 0)
        assert [x.shape for x in tm.followers(np.zeros(0), np.zeros(0), np.zeros(0))] == [(0,)] * 3


def test_default_follows_jit_switch() -> None:
    robot = chain(("a", "revolute"))
    assert TransmissionMap.from_robot(robot).compiled is jit.ENABLED
    assert TransmissionMap.from_robot(robot, compiled=False).compiled is False


def test_pack_layout() -> None:
    _, fast = _demo_pair()
    p = fast._pack
    k = fast._k
    assert p.shape == (kernel.FIRST_BLOCK_ROW + 12 * k + 3, 4)
    assert p[0].tolist() == [2.0, 1.0, 1.0, 1.0]  # n, followers, slots, has offsets
    assert p[kernel.OFFSETS_ROW, :2].tolist() == [0.2, 0.0]
    assert p[kernel.FIRST_BLOCK_ROW : kernel.FIRST_BLOCK_ROW + 3, :2].tolist() == [[0, 1]] * 3
    assert p[kernel.FIRST_BLOCK_ROW + 3, :2].tolist() == [-1 / 50.0, 1.0]  # a2j position weights
    assert p[kernel.FIRST_BLOCK_ROW + 12 * k :, 0].tolist() == [0.0, -2.0, 0.1]  # follower


def test_pack_rejects_cross_interface_index() -> None:
    good = np.array([[[0, 1], [2, 3], [4, 5]]])  # n = 2: interface i reads i·n + column
    bad = np.array([[[0, 1], [2, 3], [0, 5]]])  # effort row 0 reads position column 0
    with pytest.raises(ValueError, match="slot 0, interface 2: a gather index reads another"):
        kernel.pack(
            bad,
            np.ones((1, 3, 2)),
            good,
            np.ones((1, 3, 2)),
            np.zeros(2),
            False,
            np.zeros(0, dtype=np.int64),
            np.zeros(0),
            np.zeros(0),
        )


@pytest.mark.skipif(not jit.ENABLED, reason="compiled kernels off (SDF_BRIDGE_JIT=0 or no Numba)")
def test_warm_up_compiles_once_and_never_in_a_cycle() -> None:
    _demo_pair()  # builds a compiled map: kernels warm
    assert kernel.warm_up() == 0.0
    before = {fn.__name__: len(fn.signatures) for fn in kernel.KERNELS}
    assert before == {fn.__name__: 2 for fn in kernel.KERNELS}  # contiguous and strided inputs
    with pytest.raises(TypeError, match="No matching definition"):
        kernel.actuator_to_joint(
            np.zeros(2, dtype=np.int64),
            np.zeros(2),
            np.zeros(2),
            _demo_pair()[1]._pack,
            np.empty((3, 2)),
        )
    assert {fn.__name__: len(fn.signatures) for fn in kernel.KERNELS} == before


def test_kernels_reject_an_output_of_the_wrong_shape() -> None:
    pack = _demo_pair()[1]._pack  # two joints, one follower
    x = np.zeros(2)
    with pytest.raises(ValueError, match=r"output array is not \(3, width\)"):
        kernel.actuator_to_joint(x, x, x, pack, np.empty((3, 3)))
    with pytest.raises(ValueError, match=r"output array is not \(3, width\)"):
        kernel.joint_to_actuator(x, x, x, pack, np.empty((2, 2)))
    with pytest.raises(ValueError, match=r"output array is not \(3, width\)"):
        kernel.followers_stacked(np.zeros((3, 2)), pack, np.empty((3, 2)))
