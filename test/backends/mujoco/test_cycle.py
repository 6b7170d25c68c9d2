"""Per-cycle bookkeeping of the MuJoCo backend (sdf_bridge.backends.mujoco.cycle): the command
rules, the table layout, and the backend's behaviour over many cycles (repeated and prepared
writes)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from mujoco_helpers import joint_command, nan

from sdf_bridge.backends.base import MODE_DTYPE, ActuatorCommand, Mode
from sdf_bridge.backends.mujoco import MujocoBackend, cycle
from sdf_bridge.description import load
from sdf_bridge.transmissions import TransmissionMap


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


# -- the backend over many cycles ----------------------------------------------------
def _run(repo_dir, mode: str, writes: str) -> np.ndarray:
    """Demo arm, 120 cycles of mixed commands (streamed and constant positions, velocity with
    effort, hold); ``writes``: "all" (every cycle), "gaps" (none every 7th cycle) or "once"
    (constant commands written only when they change). The commands are actuator-space ones
    as joint commands (``mujoco_helpers.joint_command``). Returns the trajectory (cycles,
    values: actuator state, qpos, act); checks the state's followers and the backend's
    ``joint_state`` on the way."""
    robot = load(str(repo_dir / "urdf" / "demo_arm.urdf.xacro"))
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend()
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


def test_repeating_a_command_changes_nothing(repo_dir) -> None:
    """Writing the same command every cycle or only when it changes gives the same trajectory,
    bit for bit (integral and inertia-scheduled default gains included)."""
    np.testing.assert_array_equal(_run(repo_dir, "pid", "all"), _run(repo_dir, "pid", "once"))


def _prepared_run(repo_dir, prepare: bool) -> list[np.ndarray]:
    """Demo arm (PID with integral, inertia-scheduled gains), 64 cycles of writes, reads,
    pauses and steps in the patterns that can leave a write's preparation unused: repeated and
    changed writes before a read, a paused read, a read of another ``dt``, ``step(n)`` of other
    and of the same number of steps. ``prepare``: the write prepares the actuators for the next
    read (the backend's way) or not (the read then refreshes them). Returns, after each read,
    the MuJoCo state (qpos, qvel, act, ctrl), the PID integral and — after reads that stepped —
    the actuator parameters."""
    robot = load(str(repo_dir / "urdf" / "demo_arm.urdf.xacro"))
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend()
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


def test_prepared_write_equals_refresh_at_read(repo_dir) -> None:
    """The write prepares the actuators for the next read's steps (cycle.prepare); whatever
    happens between the write and the read (another write, a pause, another dt, step()), the
    trajectory, integral and actuator parameters are those of refreshing them at the read,
    bit for bit."""
    prepared, refreshed = (
        _prepared_run(repo_dir, True),
        _prepared_run(repo_dir, False),
    )
    assert len(prepared) == len(refreshed) == 64 + 8
    for a, b in zip(prepared, refreshed):
        np.testing.assert_array_equal(a, b)
    assert np.abs(prepared[-1][-30:]).max() > 0.0  # (the actuators were written)
