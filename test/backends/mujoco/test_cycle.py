"""Per-cycle bookkeeping of the MuJoCo backend: the compiled kernels equal the numpy reference
bit for bit (NaN included), the table layout, and the backend's behaviour with either."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mujoco_helpers import joint_command, nan

from sdf_bridge import jit
from sdf_bridge.backends.base import MODE_DTYPE, ActuatorCommand, Mode
from sdf_bridge.backends.mujoco import MujocoBackend, cycle
from sdf_bridge.description import load
from sdf_bridge.transmissions import TransmissionMap

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


@settings(max_examples=300, deadline=None)
@given(case=problem())
def test_apply_command_kernel_equals_numpy(case: dict) -> None:
    ref, fast = _copy(case), _copy(case)
    for f, c in ((cycle.apply_command, ref), (cycle.apply_command_kernel, fast)):
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


@settings(max_examples=300, deadline=None)
@given(case=problem(), dt=st.sampled_from([0.0, 0.001, 0.01, 0.5]))
def test_pre_step_kernel_equals_numpy(case: dict, dt: float) -> None:
    ref, fast = _copy(case), _copy(case)
    for f, c in ((cycle.pre_step, ref), (cycle.pre_step_kernel, fast)):
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


@settings(max_examples=100, deadline=None)
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
        for f, out in zip((cycle.gather_state, cycle.gather_state_kernel), outs)
    ]
    assert stable == [bad == "none"] * 2
    np.testing.assert_array_equal(outs[0], outs[1])
    qadr = case["tab"][cycle.QADR].astype(int)
    np.testing.assert_array_equal(outs[0][0], case["qpos"][qadr])


def test_apply_command_rules_on_one_joint_each() -> None:
    """Each joint by its mode: position (velocity feed-forward, a finite effort as feed-forward),
    velocity, effort, none (holding where it is: NaN hold), none with a hold position, and a
    value that is no joint mode (held, as none); a change of kind drops the integral."""
    tab = cycle.make_table(
        *(np.arange(6) for _ in range(5)),
        np.full(6, 10.0),
        np.ones(6),
        np.full(6, 2.0),
        np.zeros(6),
        np.ones(6),
        np.zeros(6),
        np.zeros(6),
        np.full(6, np.inf),
    )
    tab[cycle.INTEGRAL] = 0.5
    tab[cycle.MODE] = cycle.EFFORT  # all but joint 2 change kind
    qpos, act, ctrl = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]), np.full(6, 9.0), np.zeros(6)
    gainprm, biasprm = np.zeros((6, 10)), np.zeros((6, 10))
    nan = math.nan
    values = np.array(
        [
            [1.0, nan, nan, nan, nan, nan],
            [0.5, 0.7, nan, nan, nan, nan],
            [0.25, nan, 3.0, nan, nan, nan],
        ]
    )
    mode = np.array(
        [
            Mode.POSITION_VELOCITY,
            Mode.VELOCITY,
            Mode.EFFORT,
            Mode.NONE,
            Mode.NONE,
            Mode.ACCELERATION,
        ],
        dtype=MODE_DTYPE,
    )
    hold = np.array([nan, nan, nan, nan, -0.5, nan])
    cycle.apply_command(tab, values, mode, hold, qpos, act, ctrl, gainprm, biasprm, False)
    kinds = [cycle.POSITION, cycle.VELOCITY, cycle.EFFORT, cycle.NONE, cycle.NONE, cycle.NONE]
    assert tab[cycle.MODE].tolist() == kinds
    # target, velocity ref from q, effort: the (old) hold, none: q, none: the hold given, no mode: q
    assert act.tolist() == [1.0, 0.2, 0.0, 0.4, -0.5, 0.6]
    # only joints entering none hold
    assert tab[cycle.HOLD].tolist() == [
        0.0,
        0.0,
        0.0,
        0.4,
        -0.5,
        0.6,
    ]
    assert ctrl.tolist() == [0.0, 0.7, 0.0, 0.0, 0.0, 0.0]
    # dropped where the kind changed
    assert tab[cycle.INTEGRAL].tolist() == [
        0.0,
        0.0,
        0.5,
        0.0,
        0.0,
        0.0,
    ]
    # position joint: effort = 10·act + (2·0.5 + 0 + 0.25) − 10·q − 2·v
    assert (gainprm[0, 0], biasprm[0, 0], biasprm[0, 1], biasprm[0, 2]) == (10.0, 1.25, -10.0, -2.0)
    # effort joint: feed-forward only
    assert (gainprm[2, 0], biasprm[2, 0], biasprm[2, 1]) == (
        0.0,
        3.0,
        -0.0,
    )
    np.testing.assert_array_equal(cycle.command_kind(mode), kinds)


def test_make_table_layout_and_shape_error() -> None:
    tab = cycle.make_table(*(np.arange(2) + k for k in range(13)))
    assert tab.shape == (cycle.ROWS, 2)
    assert tab[cycle.PASSIVE].tolist() == [11.0, 12.0] and tab[cycle.P].tolist() == [5.0, 6.0]
    assert tab[cycle.LIMIT].tolist() == [12.0, 13.0]
    assert tab[cycle.ACTIVE].tolist() == [1.0, 1.0] and tab[cycle.SCALE].tolist() == [1.0, 1.0]
    assert tab[cycle.MODE].tolist() == [cycle.NONE] * 2 and tab[cycle.INTEGRAL].tolist() == [
        0.0,
        0.0,
    ]
    with pytest.raises(ValueError, match=r"joint table parts must all have shape \(n,\)"):
        cycle.make_table(*(np.arange(2) for _ in range(12)), np.arange(3))
    with pytest.raises(ValueError, match=r"joint table parts must all have shape \(n,\)"):
        cycle.make_table(*(np.zeros((2, 2)) for _ in range(13)))


# -- the backend with either implementation ----------------------------------------------------
def _run(repo_dir, compiled: bool, mode: str, writes: str) -> np.ndarray:
    """Demo arm, 120 cycles of mixed commands (streamed and constant positions, velocity with
    effort, hold); ``writes``: "all" (every cycle), "gaps" (none every 7th cycle) or "once"
    (constant commands written only when they change). The commands are actuator-space ones
    as joint commands (``mujoco_helpers.joint_command``). Returns the trajectory (cycles,
    values: actuator state, qpos, act); checks the state's followers and the backend's
    ``joint_state`` on the way."""
    robot = load(str(repo_dir / "urdf" / "demo_arm.urdf.xacro"))
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend(compiled=compiled)
    backend.configure(
        robot, transmissions=tm, params={"render_cameras": False, "position_mode": mode}
    )
    n = len(tm.actuator_names)
    hold = backend.read(0.01).actuators[0].copy()
    rows, last = [], b""
    for k in range(120):
        phase = (k // 30) % 4
        if phase == 0:
            command = ActuatorCommand(hold + 0.3 * math.sin(0.05 * k), nan(n), nan(n))
        elif phase == 1:
            command = ActuatorCommand(hold + 0.2, nan(n), nan(n))
        elif phase == 2:
            v = np.where(np.arange(n) % 2 == 0, 0.3, math.nan)
            command = ActuatorCommand(nan(n), v, np.where(np.arange(n) % 3 == 0, 0.5, math.nan))
        else:
            command = ActuatorCommand(nan(n), nan(n), nan(n))
        key = b"".join(x.tobytes() for x in (command.position, command.velocity, command.effort))
        if (
            writes == "all"
            or (writes == "gaps" and k % 7 != 3)
            or (writes == "once" and key != last)
        ):
            backend.write(joint_command(tm, command), 0.01)
        last = key
        state = backend.read(0.01)
        assert state.joints.shape == (3, len(tm.joint_names) + len(tm.follower_names))
        # gathered again: nothing changed since the read
        joint_state = np.stack(backend.joint_state())
        np.testing.assert_array_equal(state.joints[:, :n], joint_state)
        np.testing.assert_array_equal(state.joints[:, n:], tm.followers_stacked(joint_state))
        rows.append(np.concatenate([*state.actuators, backend.data.qpos, backend.data.act]))
    backend.close()
    return np.array(rows)


@pytest.mark.parametrize("mode", ["pid", "ideal"])
def test_backend_compiled_equals_numpy(repo_dir, mode: str) -> None:
    np.testing.assert_array_equal(
        _run(repo_dir, True, mode, "gaps"), _run(repo_dir, False, mode, "gaps")
    )


def test_without_the_data_view_equals_with_it(repo_dir, monkeypatch) -> None:
    """When MuJoCo's data cannot be viewed as one buffer (cycle.data_view gives None), the
    backend runs the separate kernels (compiled pre_step at the write): the same trajectory,
    bit for bit."""
    viewed = _run(repo_dir, True, "pid", "gaps")
    monkeypatch.setattr(cycle, "data_view", lambda data, inertia: None)
    np.testing.assert_array_equal(_run(repo_dir, True, "pid", "gaps"), viewed)


def test_repeating_a_command_changes_nothing(repo_dir) -> None:
    """Writing the same command every cycle or only when it changes gives the same trajectory,
    bit for bit (integral and inertia-scheduled default gains included)."""
    np.testing.assert_array_equal(
        _run(repo_dir, True, "pid", "all"), _run(repo_dir, True, "pid", "once")
    )


def _prepared_run(repo_dir, compiled: bool, prepare: bool) -> list[np.ndarray]:
    """Demo arm (PID with integral, inertia-scheduled gains), 64 cycles of writes, reads,
    pauses and steps in the patterns that can leave a write's preparation unused: repeated and
    changed writes before a read, a paused read, a read of another ``dt``, ``step(n)`` of other
    and of the same number of steps. ``prepare``: the write prepares the actuators for the next
    read (the backend's way) or not (the read then refreshes them). Returns, after each read,
    the MuJoCo state (qpos, qvel, act, ctrl), the PID integral and — after reads that stepped —
    the actuator parameters."""
    robot = load(str(repo_dir / "urdf" / "demo_arm.urdf.xacro"))
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend(compiled=compiled)
    backend.configure(robot, transmissions=tm, params={"render_cameras": False})
    assert backend.pid.has_integral
    if not prepare:
        set_write_dt = backend._set_write_dt

        def unprepared(dt: float) -> None:  # no steps known at the write: nothing prepared
            set_write_dt(dt)
            backend._write_n = 0

        backend._set_write_dt = unprepared
    n = len(tm.actuator_names)
    hold = backend.read(0.01).actuators[0].copy()
    data, model = backend.data, backend.model
    rows = []

    def write(k: int, dt: float = 0.01) -> None:
        backend.write(
            joint_command(tm, ActuatorCommand(hold + 0.3 * math.sin(0.1 * k), nan(n), nan(n))), dt
        )

    def read(dt: float = 0.01) -> None:
        backend.read(dt)
        parts = [data.qpos, data.qvel, data.act, data.ctrl, backend.pid.state[0]]
        if not backend.paused:
            parts += [model.actuator_gainprm[:, 0], model.actuator_biasprm[:, :3].ravel()]
        rows.append(np.concatenate(parts))

    for k in range(64):
        pattern = k % 8
        if pattern != 7:
            write(k)
        if pattern == 1:
            write(k)  # the same again
        elif pattern == 2:
            write(k + 100)  # another one
        elif pattern == 3:
            backend.pause(True)
            read()  # no steps: the preparation is undone
            backend.pause(False)
        elif pattern == 4:
            read(0.02)  # prepared for 10 steps, 20 follow
            continue
        elif pattern == 5:
            backend.step(3)
        elif pattern == 6:
            backend.step(10)  # the 10 prepared steps; the read then refreshes for its own
        read()
    backend.close()
    return rows


@pytest.mark.parametrize("compiled", [True, False])
def test_prepared_write_equals_refresh_at_read(repo_dir, compiled: bool) -> None:
    """The write prepares the actuators for the next read's steps (cycle.prepare); whatever
    happens between the write and the read (another write, a pause, another dt, step()), the
    trajectory, integral and actuator parameters are those of refreshing them at the read,
    bit for bit."""
    prepared, refreshed = (
        _prepared_run(repo_dir, compiled, True),
        _prepared_run(repo_dir, compiled, False),
    )
    assert len(prepared) == len(refreshed) == 64 + 8
    for a, b in zip(prepared, refreshed):
        np.testing.assert_array_equal(a, b)
    assert np.abs(prepared[-1][-30:]).max() > 0.0  # (the actuators were written)


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
        cycle.pre_step_kernel(
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
        cycle.write_kernel(
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
    """cycle.data_view: one float64 view over MuJoCo's data buffer; at each offset the view
    is the array itself (writes through either are seen by the other, exactly). Arrays that
    are not in one buffer give None (the backend then runs its separate kernels)."""
    robot = load(str(repo_dir / "urdf" / "demo_arm.urdf.xacro"))
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend()
    backend.configure(robot, transmissions=tm, params={"render_cameras": False})
    data = backend.data
    viewed = cycle.data_view(data, backend._inertia)
    assert viewed is not None
    view, offsets = viewed
    assert set(offsets) == {*cycle.VIEWED, "inertia"} and offsets["qpos"] == 0
    for name in cycle.VIEWED:
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
            for k, name in enumerate(cycle.VIEWED):
                setattr(self, name, pool[50 + 4 * k : 53 + 4 * k])

    pool = np.zeros(200)
    good = Layout(pool)
    view, offsets = cycle.data_view(good, pool[70:73])
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
    assert cycle.data_view(before, pool[70:73]) is None
    assert cycle.data_view(good, pool[98:101]) is None  # past nbuffer bytes from qpos
    single = Layout(pool)
    single.act = np.zeros(3, dtype=np.float32)
    assert cycle.data_view(single, pool[70:73]) is None
