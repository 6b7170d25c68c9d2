"""The MuJoCo backend's compiled kernels (sdf_bridge.backends.mujoco.kernel): equal to the
numpy reference of sdf_bridge.backends.mujoco.cycle bit for bit (NaN included), locked after
their warm-up, and the one view of MuJoCo's data the fused kernels reach its arrays through."""

from __future__ import annotations

import math
from datetime import timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdf_bridge import jit
from sdf_bridge.backends.base import MODE_DTYPE
from sdf_bridge.backends.mujoco import MujocoBackend, cycle, kernel
from sdf_bridge.description import load
from sdf_bridge.transmissions import TransmissionMap

#: Hypothesis' bound on one example (the first may compile the kernels): a runaway
#: example fails the test; setup.cfg's pytest timeout bounds the test as a whole.
DEADLINE = timedelta(seconds=30)

NU = 12  # actuators in the fake MuJoCo buffers (more than joints: other actuators exist)
NQ = 15

values = st.one_of(
    st.floats(-10.0, 10.0, allow_nan=False),
    st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -0.0]),
)


@st.composite
def problem(draw: st.DrawFn) -> dict:
    """A joint table for n joints at random (distinct) addresses, its state and fake buffers."""
    n = draw(st.integers(1, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    qadr = rng.permutation(NQ)[:n]
    act_id = rng.permutation(NU)[:n]
    tab = cycle.make_table(
        qadr,
        rng.permutation(NQ)[:n],
        rng.permutation(NU)[:n],
        act_id,
        rng.permutation(NQ)[:n],
        rng.uniform(0, 100, n),
        rng.choice([0.0, 5.0], n),
        rng.uniform(0, 10, n),
        rng.choice([0.0, 0.5, 3.0], n),
        rng.uniform(0.1, 2.0, n),
        rng.choice([0.0, 1.0], n),
        rng.choice([0.0, 1.0], n, p=[0.8, 0.2]),
        rng.choice([np.inf, 1.0, 5.0], n),  # effort limits: the fake forces reach ±5, some saturate
    )
    tab[cycle.MODE] = rng.choice([cycle.NONE, cycle.POSITION, cycle.VELOCITY, cycle.EFFORT], n)
    tab[cycle.HOLD] = rng.uniform(-1, 1, n)
    tab[cycle.V_TARGET] = rng.uniform(-1, 1, n)
    tab[cycle.FEEDFORWARD] = rng.uniform(-1, 1, n)
    tab[cycle.ACTIVE] = rng.choice([0.0, 1.0], n)
    tab[cycle.INTEGRAL] = rng.uniform(-4, 4, n)
    tab[cycle.SCALE] = rng.uniform(0.5, 2, n)
    command = [
        np.array([draw(st.lists(values, min_size=n, max_size=n)) for _ in range(3)]),
        np.array(
            draw(st.lists(st.sampled_from([0, 1, 2, 3, 4, 8, -1]), min_size=n, max_size=n)),
            dtype=MODE_DTYPE,
        ),
        np.array(draw(st.lists(values, min_size=n, max_size=n))),
    ]
    return {
        "tab": tab,
        "command": command,
        "qpos": rng.uniform(-2, 2, NQ),
        "qvel": rng.uniform(-2, 2, NQ),
        "act": rng.uniform(-2, 2, NU),
        "ctrl": rng.uniform(-2, 2, NU),
        "inertia": rng.uniform(0.1, 3, NQ),
        "gainprm": rng.uniform(-1, 1, (NU, 10)),
        "biasprm": rng.uniform(-1, 1, (NU, 10)),
        "force": rng.choice([-5.0, -1.0, 0.0, 1.0, 5.0], NU) * rng.choice([1.0, rng.uniform(0, 1)]),
        "ideal": draw(st.booleans()),
        "has_i": draw(st.booleans()),
    }


def _copy(case: dict) -> dict:
    return {
        k: (
            v.copy()
            if isinstance(v, np.ndarray)
            else [x.copy() for x in v]
            if isinstance(v, list)
            else v
        )
        for k, v in case.items()
    }


def _assert_same(a: dict, b: dict) -> None:
    for key in ("tab", "act", "ctrl", "gainprm", "biasprm"):
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)  # exact; NaN equals NaN


@settings(max_examples=300, deadline=DEADLINE)
@given(case=problem())
def test_apply_command_kernel_equals_numpy(case: dict) -> None:
    ref, fast = _copy(case), _copy(case)
    for f, c in ((cycle.apply_command, ref), (kernel.apply_command_kernel, fast)):
        f(
            c["tab"],
            *c["command"],
            c["qpos"],
            c["act"],
            c["ctrl"],
            c["gainprm"],
            c["biasprm"],
            c["ideal"],
        )
    _assert_same(ref, fast)


@settings(max_examples=300, deadline=DEADLINE)
@given(case=problem(), dt=st.sampled_from([0.0, 0.001, 0.01, 0.5]))
def test_pre_step_kernel_equals_numpy(case: dict, dt: float) -> None:
    ref, fast = _copy(case), _copy(case)
    for f, c in ((cycle.pre_step, ref), (kernel.pre_step_kernel, fast)):
        f(
            c["tab"],
            c["qpos"],
            c["act"],
            c["inertia"],
            c["force"],
            c["gainprm"],
            c["biasprm"],
            dt,
            c["has_i"],
        )
    _assert_same(ref, fast)


@settings(max_examples=100, deadline=DEADLINE)
@given(case=problem(), bad=st.sampled_from(["none", "nan", "inf", "qacc", "qvel", "qpos"]))
def test_gather_state_kernel_equals_numpy(case: dict, bad: str) -> None:
    warnings = np.zeros(8, dtype=np.int32)
    if bad in ("nan", "inf"):
        case["qpos"][3] = math.nan if bad == "nan" else math.inf
    elif bad != "none":
        warnings[
            {"qacc": cycle.WARN_QACC, "qvel": cycle.WARN_QVEL, "qpos": cycle.WARN_QPOS}[bad]
        ] = 2
    n = case["tab"].shape[1]
    outs = [np.zeros((3, n)), np.zeros((3, n))]
    stable = [
        f(case["tab"], case["qpos"], case["qvel"], case["force"], warnings, out)
        for f, out in zip((cycle.gather_state, kernel.gather_state_kernel), outs)
    ]
    assert stable == [bad == "none"] * 2
    np.testing.assert_array_equal(outs[0], outs[1])
    qadr = case["tab"][cycle.QADR].astype(int)
    np.testing.assert_array_equal(outs[0][0], case["qpos"][qadr])


def test_cycle_kernels_are_locked_after_warm_up(repo_dir) -> None:
    """After a backend warmed them up, the public kernels refuse an argument of another kind
    (TypeError) instead of compiling inside a control cycle."""
    if not jit.ENABLED:
        pytest.skip(
            "compiled kernels off (no Numba or SDF_BRIDGE_JIT=0): the kernels are plain functions"
        )
    robot = load(str(repo_dir / "urdf" / "demo_arm.urdf.xacro"))
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend(compiled=True)
    backend.configure(robot, transmissions=tm, params={"render_cameras": False})
    tab = backend._tab.copy()
    qpos32 = backend.data.qpos.astype(np.float32)
    with pytest.raises(
        TypeError, match="No matching definition|cannot compile|Compilation is disabled"
    ):
        kernel.pre_step_kernel(
            tab,
            qpos32,
            backend.data.act.copy(),
            backend._inertia.copy(),
            backend._force.copy(),
            backend._gainprm.copy(),
            backend._biasprm.copy(),
            0.01,
            True,
        )
    with pytest.raises(
        TypeError, match="No matching definition|cannot compile|Compilation is disabled"
    ):
        n = len(tm.joint_names)
        kernel.write_kernel(
            tab,
            np.zeros((3, n), dtype=np.float32),
            np.zeros(n, dtype=MODE_DTYPE),
            np.zeros(n),
            *backend._write_buffers,
            0.01,
            False,
            True,
        )
    backend.close()


def test_data_view_reaches_mujocos_arrays(repo_dir) -> None:
    """kernel.data_view: one float64 view over MuJoCo's data buffer; at each offset the view
    is the array itself (writes through either are seen by the other, exactly). Arrays that
    are not in one buffer give None (the backend then runs its separate kernels)."""
    robot = load(str(repo_dir / "urdf" / "demo_arm.urdf.xacro"))
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend()
    backend.configure(robot, transmissions=tm, params={"render_cameras": False})
    data = backend.data
    viewed = kernel.data_view(data, backend._inertia)
    assert viewed is not None
    view, offsets = viewed
    assert set(offsets) == {*kernel.VIEWED, "inertia"} and offsets["qpos"] == 0
    for name in kernel.VIEWED:
        array = getattr(data, name)
        part = view[offsets[name] : offsets[name] + array.size]
        array[:] = np.arange(array.size) + 0.25
        np.testing.assert_array_equal(part, array)
        part[:] = -1.5
        np.testing.assert_array_equal(array, np.full(array.size, -1.5))
    backend.close()

    class Layout:  # stand-in for MjData: arrays in one pool, qpos at 50
        nbuffer = 8 * 50

        def __init__(self, pool: np.ndarray) -> None:
            for k, name in enumerate(kernel.VIEWED):
                setattr(self, name, pool[50 + 4 * k : 53 + 4 * k])

    pool = np.zeros(200)
    good = Layout(pool)
    view, offsets = kernel.data_view(good, pool[70:73])
    assert offsets == {
        "qpos": 0,
        "qvel": 4,
        "act": 8,
        "ctrl": 12,
        "actuator_force": 16,
        "inertia": 20,
    }
    assert view.shape == (23,) and np.shares_memory(view, pool)
    before = Layout(pool)
    before.qvel = pool[0:3]  # before qpos: not MuJoCo's order
    assert kernel.data_view(before, pool[70:73]) is None
    assert kernel.data_view(good, pool[98:101]) is None  # past nbuffer bytes from qpos
    single = Layout(pool)
    single.act = np.zeros(3, dtype=np.float32)
    assert kernel.data_view(single, pool[70:73]) is None
