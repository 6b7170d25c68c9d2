"""Compiled hot path of the MuJoCo backend's per-cycle bookkeeping (Numba, :mod:`sdf_bridge.jit`).

The rules are those of the numpy reference in :mod:`.cycle`, on its joint table ``tab`` (layout:
:mod:`.cycle`), compiled as one loop over the joints (:func:`sdf_bridge.jit.kernel`; ``*_kernel``:
about a microsecond each, where the numpy functions cost a few dozen array operations); the tests
check that both give bit-identical results, NaN included. Compiled, a cycle is two calls:
:func:`write_kernel` (command + refresh) and :func:`state_kernel` (state, fused with the
transmission map's followers and actuator state), which reach MuJoCo's arrays through one view
of its data (:func:`data_view`). The public kernels are locked after their warm-up
(:func:`warm_up`, :func:`sdf_bridge.jit.warm_up`); the fused ones call private bodies
(``_pre_step`` …) compiled for their own argument kinds. No kernel returns an array: handing one
back to Python costs about 1 µs (boxing), more than the work.

The kernels take the table's row constants of :mod:`.cycle` in as compile-time constants, and
Numba's disk cache watches only this file (Numba's documented cache limitation: a change in
another file is not seen): after changing the layout in :mod:`.cycle`, clear this module's
cache (``__pycache__/kernel.*.nbi``/``.nbc``) or change this file.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import mujoco
import numpy as np

from ... import jit
from ...jit import kernel
from ...transmissions import kernel as _transmissions
from ..base import MODE_DTYPE
from .cycle import (
    ACT_ADR,
    ACT_ID,
    ACTIVE,
    DADR,
    DIAG,
    EFFORT,
    EFFORT_MODE,
    FEEDFORWARD,
    HOLD,
    I_CLAMP,
    INERTIA0,
    INTEGRAL,
    LAST,
    LAST_HOLD,
    LAST_MODE,
    LIMIT,
    MODE,
    NONE,
    P_BIT,
    PASSIVE,
    POSITION,
    QADR,
    SAVED,
    SCALE,
    SCHEDULED,
    V_ACT,
    V_CTRL,
    V_FORCE,
    V_HAS_I,
    V_IDEAL,
    V_INERTIA,
    V_NQ,
    V_QPOS,
    V_QVEL,
    V_TARGET,
    VELOCITY,
    VELOCITY_MODE,
    WARN_QACC,
    WARN_QPOS,
    WARN_QVEL,
    D,
    I,
    P,
    apply_command,
    gather_state,
    inertia_buffer,
    make_table,
    pre_step,
)

VIEWED = ("qpos", "qvel", "act", "ctrl", "actuator_force")
"""The ``mujoco.MjData`` arrays the fused kernels reach through one view (:func:`data_view`),
with the inertia buffer (``M`` or ``qM``)."""


def data_view(data: mujoco.MjData, inertia: np.ndarray) -> tuple[np.ndarray, dict[str, int]] | None:
    """One float64 view over the part of ``data``'s buffer that holds the arrays of
    :data:`VIEWED` and ``inertia`` (``data.M`` or ``data.qM``), and where each starts in it
    (elements); ``None`` when they are not all float64 arrays inside ``data``'s one buffer of
    ``data.nbuffer`` bytes starting at ``qpos`` (MuJoCo allocates them there, ``qpos``
    first), at whole elements from each other. Each array argument of a compiled
    call costs about 0.1 µs to unbox: the fused kernels take this view instead of six arrays.
    The view is valid as long as ``data`` (``mj_resetData`` keeps the buffer).
    """
    arrays = {name: getattr(data, name) for name in VIEWED}
    arrays["inertia"] = inertia
    base = arrays["qpos"].ctypes.data
    end = base + int(getattr(data, "nbuffer", 0))
    offsets = {}
    for name, array in arrays.items():
        address = array.ctypes.data
        if (
            array.dtype != np.float64
            or array.ndim != 1
            or not array.flags.c_contiguous
            or address < base
            or address + array.nbytes > end
            or (address - base) % 8
        ):
            return None
        offsets[name] = (address - base) // 8
    span = max(offsets[name] + arrays[name].size for name in arrays)
    view = np.lib.stride_tricks.as_strided(
        arrays["qpos"], shape=(span,), strides=(8,), writeable=True
    )
    return view, offsets


def set_view(tab: np.ndarray, offsets: dict[str, int], nq: int, has_i: bool, ideal: bool) -> None:
    """Record the :func:`data_view` offsets and the static flags in ``tab``'s control rows."""
    for row, name in (
        (V_QPOS, "qpos"),
        (V_QVEL, "qvel"),
        (V_ACT, "act"),
        (V_CTRL, "ctrl"),
        (V_FORCE, "actuator_force"),
        (V_INERTIA, "inertia"),
    ):
        tab[row, 0] = offsets[name]
    tab[V_NQ, 0] = nq
    tab[V_HAS_I, 0] = float(has_i)
    tab[V_IDEAL, 0] = float(ideal)


# -- compiled kernels (same rules, one loop) ------------------------------------------------------
@kernel
def _affine_kernel(k: int, tab: np.ndarray, gainprm: np.ndarray, biasprm: np.ndarray) -> None:
    """:func:`.pid.affine_parameters` of joint ``k``, written into its actuator."""
    scale = tab[SCALE, k]
    if tab[ACTIVE, k] != 0.0:
        p = tab[P, k] * scale
        d = tab[D, k] * scale
        bias0 = (d * tab[V_TARGET, k] + tab[INTEGRAL, k]) + tab[FEEDFORWARD, k]
    else:
        p = 0.0
        d = 0.0
        bias0 = 0.0 + tab[FEEDFORWARD, k]
    u = int(tab[ACT_ID, k])
    gainprm[u, 0] = p
    biasprm[u, 0] = bias0
    biasprm[u, 1] = -p
    biasprm[u, 2] = -d


@kernel
def pre_step_kernel(
    tab: np.ndarray,
    qpos: np.ndarray,
    act: np.ndarray,
    inertia: np.ndarray,
    force: np.ndarray,
    gainprm: np.ndarray,
    biasprm: np.ndarray,
    dt: float,
    has_i: bool,
) -> None:
    """:func:`.cycle.pre_step`, compiled."""
    _pre_step(tab, qpos, act, inertia, force, gainprm, biasprm, dt, has_i)


# The public kernels are locked after their warm-up (sdf_bridge.jit.warm_up); the fused ones
# call these bodies instead, compiled for their own argument kinds.
@kernel
def _pre_step(
    tab: np.ndarray,
    qpos: np.ndarray,
    act: np.ndarray,
    inertia: np.ndarray,
    force: np.ndarray,
    gainprm: np.ndarray,
    biasprm: np.ndarray,
    dt: float,
    has_i: bool,
) -> None:
    for k in range(tab.shape[1]):
        if tab[SCHEDULED, k] != 0.0:
            tab[SCALE, k] = inertia[int(tab[DIAG, k])] / tab[INERTIA0, k]
        if has_i:
            if tab[ACTIVE, k] != 0.0:
                error = act[int(tab[ACT_ADR, k])] - qpos[int(tab[QADR, k])]
                step = tab[I, k] * tab[SCALE, k] * error * dt
                applied, limit = force[int(tab[ACT_ID, k])], tab[LIMIT, k]
                if (applied >= limit and error > 0.0) or (applied <= -limit and error < 0.0):
                    step = 0.0  # saturated towards the error: no wind-up
                x = tab[INTEGRAL, k] + step
                c = tab[I_CLAMP, k]
                if c > 0.0:
                    if x > c:
                        x = c
                    elif x < -c:
                        x = -c
                tab[INTEGRAL, k] = x
            else:
                tab[INTEGRAL, k] = 0.0
        _affine_kernel(k, tab, gainprm, biasprm)


@kernel
def apply_command_kernel(
    tab: np.ndarray,
    values: np.ndarray,
    mode: np.ndarray,
    hold: np.ndarray,
    qpos: np.ndarray,
    act: np.ndarray,
    ctrl: np.ndarray,
    gainprm: np.ndarray,
    biasprm: np.ndarray,
    ideal: bool,
) -> None:
    """:func:`.cycle.apply_command`, compiled."""
    _apply_command(tab, values, mode, hold, qpos, act, ctrl, gainprm, biasprm, ideal)


@kernel
def _apply_command(
    tab: np.ndarray,
    values: np.ndarray,
    mode: np.ndarray,
    hold: np.ndarray,
    qpos: np.ndarray,
    act: np.ndarray,
    ctrl: np.ndarray,
    gainprm: np.ndarray,
    biasprm: np.ndarray,
    ideal: bool,
) -> None:
    for k in range(tab.shape[1]):
        m = int(mode[k])
        if m & P_BIT:
            kind = POSITION
        elif m == VELOCITY_MODE:
            kind = VELOCITY
        elif m == EFFORT_MODE:
            kind = EFFORT
        else:
            kind = NONE
        vt = values[1, k]
        et = values[2, k]
        has_v = math.isfinite(vt)
        adr = int(tab[ACT_ADR, k])
        if kind != tab[MODE, k]:
            q = qpos[int(tab[QADR, k])]
            if kind == NONE:
                tab[HOLD, k] = q
            tab[INTEGRAL, k] = 0.0
            tab[MODE, k] = kind
            vel_ref = q
        else:
            vel_ref = act[adr]
        if kind == NONE and math.isfinite(hold[k]):
            tab[HOLD, k] = hold[k]
        v_cmd = vt if has_v else 0.0
        if kind == POSITION:
            target = values[0, k]
        elif kind == VELOCITY:
            target = vel_ref
        else:
            target = tab[HOLD, k]
        tab[V_TARGET, k] = v_cmd if (kind == POSITION or kind == VELOCITY) else 0.0
        tab[FEEDFORWARD, k] = et if (math.isfinite(et) and tab[PASSIVE, k] == 0.0) else 0.0
        active = kind != EFFORT and not (kind == POSITION and ideal)
        tab[ACTIVE, k] = 1.0 if active else 0.0
        _affine_kernel(k, tab, gainprm, biasprm)
        act[adr] = target
        ctrl[int(tab[ACT_ID, k])] = v_cmd if kind == VELOCITY else 0.0


@kernel
def gather_state_kernel(
    tab: np.ndarray,
    qpos: np.ndarray,
    qvel: np.ndarray,
    force: np.ndarray,
    warnings: np.ndarray,
    out: np.ndarray,
) -> bool:
    """:func:`.cycle.gather_state`, compiled."""
    return _gather_state(tab, qpos, qvel, force, warnings, out)


@kernel
def _gather_state(
    tab: np.ndarray,
    qpos: np.ndarray,
    qvel: np.ndarray,
    force: np.ndarray,
    warnings: np.ndarray,
    out: np.ndarray,
) -> bool:
    for k in range(tab.shape[1]):
        out[0, k] = qpos[int(tab[QADR, k])]
        out[1, k] = qvel[int(tab[DADR, k])]
        out[2, k] = force[int(tab[ACT_ID, k])]
    if warnings[WARN_QACC] != 0 or warnings[WARN_QVEL] != 0 or warnings[WARN_QPOS] != 0:
        return False
    total = 0.0
    for x in qpos:
        total += x * x
    return math.isfinite(total)


# -- the fused per-cycle calls (through one view of MuJoCo's data) ---------------------------------
@kernel
def _view(tab: np.ndarray, view: np.ndarray, row: int) -> np.ndarray:
    """The part of :func:`data_view`'s ``view`` from the offset in control row ``row`` on."""
    return view[int(tab[row, 0]) :]


@kernel
def write_kernel(
    tab: np.ndarray,
    values: np.ndarray,
    mode: np.ndarray,
    hold: np.ndarray,
    view: np.ndarray,
    gainprm: np.ndarray,
    biasprm: np.ndarray,
    dt: float,
    last_valid: bool,
    prep: bool,
) -> bool:
    """The backend's write in one call: a joint command (``values`` (3, n), rows position,
    velocity, effort, C-contiguous; ``mode`` (n,) int8; ``hold`` (n,), C-contiguous) that differs
    bit for bit from the last applied one (``tab`` rows ``LAST`` … ``LAST_HOLD``; all differ
    unless ``last_valid``; always in ideal mode) is applied (:func:`apply_command_kernel`) and
    recorded in those rows; then, if ``prep``, the actuators are prepared for the next ``dt`` s
    (:func:`.cycle.prepare`: row ``SAVED`` ← the integral, then :func:`pre_step_kernel`). MuJoCo's
    arrays are reached through ``view`` (:func:`data_view`, offsets and flags in ``tab``'s
    control rows: :func:`set_view`). Returns whether the command was applied.

    Raises:
        ValueError: ``values`` is not (3, n), or ``mode`` or ``hold`` not (n,).
    """
    n = tab.shape[1]
    if values.shape[0] != 3 or values.shape[1] != n or mode.shape[0] != n or hold.shape[0] != n:
        raise ValueError("command arrays are not (3, n), (n,), (n,)")
    ideal = tab[V_IDEAL, 0] != 0.0
    changed = ideal or not last_valid
    if not changed:  # bit for bit (NaN payloads and signed zeros included)
        new = values.ravel().view(np.int64)
        old = tab.ravel().view(np.int64)
        base = LAST * n
        for k in range(3 * n):
            if new[k] != old[base + k]:
                changed = True
                break
        if not changed:
            held = hold.view(np.int64)
            for k in range(n):
                if float(mode[k]) != tab[LAST_MODE, k] or held[k] != old[LAST_HOLD * n + k]:
                    changed = True
                    break
    qpos = _view(tab, view, V_QPOS)
    act = _view(tab, view, V_ACT)
    if changed:
        _apply_command(
            tab, values, mode, hold, qpos, act, _view(tab, view, V_CTRL), gainprm, biasprm, ideal
        )
        tab[LAST : LAST + 3] = values
        for k in range(n):
            tab[LAST_MODE, k] = float(mode[k])
            tab[LAST_HOLD, k] = hold[k]
    if prep:
        for k in range(n):
            tab[SAVED, k] = tab[INTEGRAL, k]
        _pre_step(
            tab,
            qpos,
            act,
            _view(tab, view, V_INERTIA),
            _view(tab, view, V_FORCE),
            gainprm,
            biasprm,
            dt,
            tab[V_HAS_I, 0] != 0.0,
        )
    return changed


@kernel
def state_kernel(
    tab: np.ndarray,
    view: np.ndarray,
    warnings: np.ndarray,
    transmissions: np.ndarray,
    out: np.ndarray,
    actuators: np.ndarray,
) -> bool:
    """:func:`gather_state_kernel` into the first n columns of ``out`` (3, n + n_followers),
    then the followers into its other columns and the actuator state into ``actuators``
    (3, n) (:func:`sdf_bridge.transmissions.kernel.joint_state`): one call instead of two.
    MuJoCo's arrays are reached through ``view`` (:func:`data_view`). Returns whether the
    simulation is stable."""
    joint = out[:, : tab.shape[1]]
    qpos = _view(tab, view, V_QPOS)[: int(tab[V_NQ, 0])]
    stable = _gather_state(
        tab, qpos, _view(tab, view, V_QVEL), _view(tab, view, V_FORCE), warnings, joint
    )
    _transmissions.joint_state(joint, transmissions, out, actuators)
    return stable


def functions(
    compiled: bool,
) -> tuple[Callable[..., None], Callable[..., None], Callable[..., bool]]:
    """``(pre_step, apply_command, gather_state)``: the compiled kernels, warmed up first
    (:func:`warm_up`: compiled, or loaded from Numba's cache, now, never in a control cycle),
    or (``compiled`` False) the numpy reference."""
    if compiled:
        warm_up()
        return pre_step_kernel, apply_command_kernel, gather_state_kernel
    return pre_step, apply_command, gather_state


def fused(
    pack: np.ndarray | None,
    data: mujoco.MjData,
    inertia: np.ndarray,
    tab: np.ndarray,
    has_i: bool,
    ideal: bool,
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """``(pack, view)`` for the fused kernels (:func:`write_kernel`, :func:`state_kernel`): the
    transmission map's ``pack`` (``None``: the map runs numpy) and :func:`data_view` of ``data``
    with ``inertia`` (its offsets and the flags ``has_i``, ``ideal`` recorded in ``tab``:
    :func:`set_view`); ``(None, None)`` when either is missing (the separate kernels run)."""
    viewed = data_view(data, inertia) if pack is not None else None
    if viewed is None:
        return None, None
    set_view(tab, viewed[1], data.model.nq, has_i, ideal)
    return pack, viewed[0]


# -- warm-up ---------------------------------------------------------------------------------------
_WARM_UP_MODEL = """<mujoco><worldbody><body><joint name="j"/><geom size="0.1"/></body></worldbody>
<actuator><general joint="j" dyntype="integrator" biastype="affine"/></actuator></mujoco>"""
"""One joint driven as the backend drives its joints (:func:`.actuation.add_pid_actuators`)."""


def warm_up() -> float:
    """Compile (or load from Numba's disk cache) the public kernels, then lock them
    (:func:`sdf_bridge.jit.warm_up`): an argument of another kind then raises ``TypeError``
    instead of compiling inside a control cycle (the backend's write converts its input then).
    They are called on the arrays of a one-joint MuJoCo model (:data:`_WARM_UP_MODEL`): the
    backend passes MuJoCo's arrays, whose kinds are the same for every model (C-contiguous
    float64; ``data.warning.number`` a strided int32 view, only read), and tables and commands
    made as here. The fused kernels are skipped when MuJoCo's data cannot be viewed as one
    buffer (:func:`data_view`; the backend runs the separate kernels then). Needs no backend,
    so a child process can fill the cache for the bridge (:mod:`sdf_bridge.hardware.kernel_switch`).

    Returns:
        The time spent, s (0.0 when already warm or compiled kernels are off).
    """
    model = mujoco.MjModel.from_xml_string(_WARM_UP_MODEL)
    data = mujoco.MjData(model)
    inertia = inertia_buffer(model, data)
    zero, one = np.zeros(1), np.ones(1)
    tab = make_table(zero, zero, zero, zero, zero, one, one, one, one, one, one, zero, one)
    joint, mode, hold = np.full((3, 1), np.nan), np.zeros(1, dtype=MODE_DTYPE), np.full(1, np.nan)
    qpos, act, force = data.qpos, data.act, data.actuator_force
    gainprm, biasprm, warnings = model.actuator_gainprm, model.actuator_biasprm, data.warning.number

    def run_cycle() -> None:
        apply_command_kernel(tab, joint, mode, hold, qpos, act, data.ctrl, gainprm, biasprm, False)
        pre_step_kernel(tab, qpos, act, inertia, force, gainprm, biasprm, 0.0, True)
        gather_state_kernel(tab, qpos, data.qvel, force, warnings, joint)

    spent = jit.warm_up(
        "MuJoCo cycle kernels",
        (apply_command_kernel, pre_step_kernel, gather_state_kernel),
        run_cycle,
    )
    # one identity joint, no followers (transmissions.kernel.pack)
    cols = np.arange(3).reshape(1, 3, 1)
    empty = np.zeros(0)
    pack, view = fused(
        _transmissions.pack(
            cols,
            np.ones((1, 3, 1)),
            cols,
            np.ones((1, 3, 1)),
            zero,
            False,
            empty.astype(np.int64),
            empty,
            empty,
        ),
        data,
        inertia,
        tab,
        True,
        False,
    )
    if view is None:
        return spent

    def run_fused() -> None:
        for last_valid in (False, True):
            write_kernel(
                tab, joint.copy(), mode, hold, view, gainprm, biasprm, 0.0, last_valid, True
            )
        state_kernel(tab, view, warnings, pack, np.empty((3, 1)), np.empty((3, 1)))

    return spent + jit.warm_up(
        "MuJoCo fused cycle kernels", (write_kernel, state_kernel), run_fused
    )
