"""The MuJoCo backend's per-cycle bookkeeping, as numpy reference functions and compiled kernels.

Every control cycle the backend turns a joint command (values, modes and hold positions of a
:class:`~sdf_bridge.backends.base.JointCommand`) into MuJoCo actuator parameters
(:func:`apply_command`), refreshes the PID's integral and inertia-scheduled gains before stepping
(:func:`pre_step`; or at the write, for the read that follows: :func:`prepare`, undone by
:func:`unprepare`) and gathers the joint state after stepping (:func:`gather_state`). Compiled,
these are two calls per cycle: :func:`write_kernel` (command + refresh) and :func:`state_kernel`
(state, fused with the transmission map's followers and actuator state). The public kernels are
locked after their warm-up (:func:`sdf_bridge.jit.warm_up`); the fused ones call private bodies
(``_pre_step`` …) compiled for their own argument kinds. No kernel returns an array: handing one
back to Python costs about 1 µs (boxing), more than the work. Written with numpy each is a few dozen
small array operations whose call overhead (about 0.5–1 µs each), not the arithmetic, sets the cost;
the same rules compiled as one loop over the joints (:func:`sdf_bridge.jit.kernel`; ``*_kernel``)
cost about a microsecond. The numpy functions are the reference and the fallback
(``SDF_BRIDGE_JIT=0`` or no Numba); the tests check that both give bit-identical results, NaN
included.

Everything a cycle needs about the joints is packed into one float table ``tab`` of shape
(:data:`ROWS`, n) built once by :func:`make_table` (each array argument of a compiled function
costs about 0.15 µs to unbox), indexed by the row constants below; column ``k`` is the ``k``-th
joint of the transmission map:

* addresses (integers stored exactly as floats): ``QADR`` / ``DADR``, the joint's ``qpos`` /
  ``qvel`` address; ``ACT_ADR``, its PID actuator's activation address (``data.act``);
  ``ACT_ID``, that actuator's id; ``DIAG``, the joint's diagonal entry in the inertia buffer
  (``data.M`` or ``data.qM``);
* PID parameters: gains ``P`` (N·m/rad), ``I`` (N·m/(rad·s)), ``D`` (N·m·s/rad), ``I_CLAMP``
  (N·m; 0 = unbounded), ``INERTIA0`` (kg·m², the inertia the gains were given for),
  ``SCHEDULED`` (1 = default gains follow the inertia, 0 = fixed), ``PASSIVE`` (1 = effort
  limit 0), ``LIMIT`` (the effort limit, N·m; ``inf`` = none: the integral stops growing while
  the actuator force is at it) — N and m for prismatic joints;
* command state, updated in place: ``MODE`` (the kind of the joint's command, a
  :class:`~sdf_bridge.backends.base.Mode` value: ``NONE``, ``POSITION`` — also for
  ``POSITION_VELOCITY``, whose velocity is a feed-forward —, ``VELOCITY`` or ``EFFORT``;
  :func:`command_kind`), ``HOLD`` (the position held in mode ``NONE``, rad or m),
  ``V_TARGET`` (rad/s or m/s), ``FEEDFORWARD`` (N·m or N), ``ACTIVE`` (1 = the PID acts, 0 =
  effort control or an ideal joint);
* PID state, updated in place: ``INTEGRAL`` (N·m, the integral term), ``SCALE`` (gain
  schedule factor, current / initial inertia);
* the fused kernels' view of MuJoCo's data, in column 0 (:func:`set_view`): ``V_QPOS`` …
  ``V_INERTIA``, where ``qpos``, ``qvel``, ``act``, ``ctrl``, ``actuator_force`` and the
  inertia buffer start in the view (:func:`data_view`), ``V_NQ`` the length of ``qpos``;
  ``V_HAS_I`` (1: the PID has an integral term) and ``V_IDEAL`` (1: ideal position mode);
* the write's work rows (:func:`write_kernel`): ``LAST`` … ``LAST + 4``, the command last
  applied (rows position, velocity, effort, mode, hold; compared bit for bit with the next
  one); ``SAVED``, the integral before the last :func:`prepare` (restored when the steps it
  was prepared for do not happen).

The PID law and its MuJoCo form are documented in :mod:`.pid`; the command rules in
:mod:`.backend`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import mujoco
import numpy as np

from ... import jit
from ...jit import kernel
from ...transmissions import kernel as _transmissions
from ..base import MODE_DTYPE, Mode
from .pid import affine_parameters, integrate, saturated_towards

QADR, DADR, ACT_ADR, ACT_ID, DIAG = range(5)
P, I, D, I_CLAMP, INERTIA0, SCHEDULED, PASSIVE, LIMIT = range(5, 13)
MODE, HOLD, V_TARGET, FEEDFORWARD, ACTIVE = range(13, 18)
INTEGRAL, SCALE = range(18, 20)
LAST, LAST_MODE, LAST_HOLD, SAVED = 20, 23, 24, 25
# the fused kernels' view of MuJoCo's data (column 0 only; :func:`set_view`)
V_QPOS, V_NQ, V_QVEL, V_ACT, V_CTRL, V_FORCE, V_INERTIA, V_HAS_I, V_IDEAL = range(26, 35)
ROWS = 35
"""Rows of the joint table (see the module docstring)."""
# the kinds of command in the table's MODE row (Mode values, as the table's floats)
NONE, POSITION, VELOCITY, EFFORT = (
    float(m) for m in (Mode.NONE, Mode.POSITION, Mode.VELOCITY, Mode.EFFORT)
)
_P_BIT, _VELOCITY_MODE, _EFFORT_MODE = int(Mode.POSITION), int(Mode.VELOCITY), int(Mode.EFFORT)
VIEWED = ("qpos", "qvel", "act", "ctrl", "actuator_force")
"""The ``mujoco.MjData`` arrays the fused kernels reach through one view (:func:`data_view`),
with the inertia buffer (``M`` or ``qM``)."""
# MuJoCo warnings that mean the simulation diverged (data.warning[w].number)
WARN_QACC = int(mujoco.mjtWarning.mjWARN_BADQACC)
WARN_QVEL = int(mujoco.mjtWarning.mjWARN_BADQVEL)
WARN_QPOS = int(mujoco.mjtWarning.mjWARN_BADQPOS)


def make_table(
    qadr: np.ndarray,
    dadr: np.ndarray,
    act_adr: np.ndarray,
    act_id: np.ndarray,
    diag: np.ndarray,
    p: np.ndarray,
    i: np.ndarray,
    d: np.ndarray,
    i_clamp: np.ndarray,
    inertia0: np.ndarray,
    scheduled: np.ndarray,
    passive: np.ndarray,
    limit: np.ndarray,
) -> np.ndarray:
    """The joint table (:data:`ROWS`, n) from its per-joint parts (each shape (n,); units in
    the module docstring); the command state holds (mode hold at position 0, PID active), the
    PID state is 0 with scale 1.

    Raises:
        ValueError: the parts do not all have shape (n,).
    """
    parts = (
        qadr,
        dadr,
        act_adr,
        act_id,
        diag,
        p,
        i,
        d,
        i_clamp,
        inertia0,
        scheduled,
        passive,
        limit,
    )
    n = np.shape(qadr)[0] if np.ndim(qadr) == 1 else -1
    if n < 0 or any(np.shape(x) != (n,) for x in parts):
        raise ValueError(
            f"joint table parts must all have shape (n,); got {[np.shape(x) for x in parts]}"
        )
    tab = np.zeros((ROWS, n))
    tab[: LIMIT + 1] = np.array(parts, dtype=float)
    tab[ACTIVE] = 1.0
    tab[SCALE] = 1.0
    return tab


def _rows(tab: np.ndarray, row: int) -> np.ndarray:
    return tab[row].astype(np.int64)


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


# -- numpy reference ------------------------------------------------------------------------------
def write_affine(tab: np.ndarray, gainprm: np.ndarray, biasprm: np.ndarray) -> None:
    """Write the PID law of the current command into the actuators (``gainprm[:, 0]``,
    ``biasprm[:, 0:3]`` of the rows ``ACT_ID``; :func:`.pid.affine_parameters`)."""
    active = tab[ACTIVE] != 0.0
    gain, bias0, bias_q, bias_v = affine_parameters(
        tab[P], tab[D], tab[SCALE], tab[INTEGRAL], tab[V_TARGET], tab[FEEDFORWARD], active
    )
    ids = _rows(tab, ACT_ID)
    gainprm[ids, 0] = gain
    biasprm[ids, 0] = bias0
    biasprm[ids, 1] = bias_q
    biasprm[ids, 2] = bias_v


def pre_step(
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
    """Before stepping ``dt`` s: scale the scheduled joints' gains by ``M(q) / M₀`` (``inertia``
    = ``data.M`` or ``data.qM``, as of the last physics step), then (``has_i``) integrate the
    error to the target, ``act − q``, into the integral (:func:`.pid.integrate`; not further
    in the direction where the actuator force, ``force`` = ``data.actuator_force`` of the last
    step, is at the effort limit ``LIMIT``), then write the actuators (:func:`write_affine`).
    ``tab``'s PID state is updated in place."""
    scheduled = tab[SCHEDULED] != 0.0
    tab[SCALE] = np.where(scheduled, inertia[_rows(tab, DIAG)] / tab[INERTIA0], tab[SCALE])
    if has_i:
        error = act[_rows(tab, ACT_ADR)] - qpos[_rows(tab, QADR)]
        blocked = saturated_towards(force[_rows(tab, ACT_ID)], tab[LIMIT], error)
        integrate(
            tab[INTEGRAL], tab[I], tab[I_CLAMP], tab[SCALE], error, dt, tab[ACTIVE] != 0.0, blocked
        )
    write_affine(tab, gainprm, biasprm)


def prepare(
    tab: np.ndarray,
    qpos: np.ndarray,
    act: np.ndarray,
    inertia: np.ndarray,
    force: np.ndarray,
    gainprm: np.ndarray,
    biasprm: np.ndarray,
    dt: float,
    has_i: bool,
    step: Callable[..., None] | None = None,
) -> None:
    """:func:`pre_step` done at the write, for the steps of the next read: the integral is
    saved first into row ``SAVED`` (:func:`unprepare` restores it when those steps do not
    happen, or come with another ``dt``). Between a write and the next read nothing the
    refresh reads changes (``qpos``, ``act``, the inertia of the last step), so preparing at
    the write gives bit for bit the actuator parameters and integral of refreshing at the
    read. ``step``: the refresh to run (default :func:`pre_step`; :func:`pre_step_kernel`,
    compiled, gives the same)."""
    tab[SAVED] = tab[INTEGRAL]
    (step or pre_step)(tab, qpos, act, inertia, force, gainprm, biasprm, dt, has_i)


def unprepare(tab: np.ndarray) -> None:
    """Undo the integration of :func:`prepare` (the integral back to row ``SAVED``); the
    actuators are rewritten by the refresh before the next step."""
    tab[INTEGRAL] = tab[SAVED]


def command_kind(mode: np.ndarray) -> np.ndarray:
    """The kind of each joint's command (:data:`NONE`, :data:`POSITION`, :data:`VELOCITY` or
    :data:`EFFORT`, floats) from its :class:`~sdf_bridge.backends.base.Mode` (``mode``, (n,)):
    ``POSITION_VELOCITY`` tracks as ``POSITION`` (its velocity is a feed-forward); any value
    that is not a joint command mode holds (``NONE``)."""
    m = np.asarray(mode).astype(np.int64)
    return np.where(
        (m & _P_BIT) != 0,
        POSITION,
        np.where(m == _VELOCITY_MODE, VELOCITY, np.where(m == _EFFORT_MODE, EFFORT, NONE)),
    )


def apply_command(
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
    """Apply a joint command: ``values`` (3, n) (rows position, velocity, effort, NaN off the
    joint's mode), ``mode`` (n,) :class:`~sdf_bridge.backends.base.Mode`, ``hold`` (n,) the
    positions idle joints hold (NaN: where they are when they become idle).

    Per joint, by the kind of its mode (:func:`command_kind`): position tracks ``values[0]``
    (with ``values[1]`` as velocity feed-forward when given), velocity tracks a reference
    integrated from ``values[1]``, effort applies ``values[2]`` (the PID off), none holds
    ``hold`` (or the position it had when it became idle). A joint changing kind drops its
    integral; entering velocity its reference starts at its current position. The target (the
    actuator activation) is the commanded position, the velocity reference (integrated by
    MuJoCo from ``ctrl`` = the commanded velocity) or the held position; a finite effort is a
    feed-forward (0 on passive joints). ``ideal``: position joints are imposed kinematically by
    the caller (PID inactive). Updates ``tab``, ``act``, ``ctrl`` and the actuators in place.
    """
    q = qpos[_rows(tab, QADR)]
    qt, vt, et = values
    kind = command_kind(mode)
    entering = kind != tab[MODE]
    is_pos, is_vel, is_none = kind == POSITION, kind == VELOCITY, kind == NONE
    adr = _rows(tab, ACT_ADR)
    given = np.isfinite(hold)
    tab[HOLD] = np.where(is_none & given, hold, np.where(is_none & entering, q, tab[HOLD]))
    tab[INTEGRAL, entering] = 0.0
    tab[MODE] = kind
    vel_ref = np.where(entering, q, act[adr])
    v_cmd = np.where(np.isfinite(vt), vt, 0.0)
    target = np.where(is_pos, qt, np.where(is_vel, vel_ref, tab[HOLD]))
    tab[V_TARGET] = np.where(is_pos | is_vel, v_cmd, 0.0)
    tab[FEEDFORWARD] = np.where(np.isfinite(et) & (tab[PASSIVE] == 0.0), et, 0.0)
    tab[ACTIVE] = (kind != EFFORT) & ~(is_pos & ideal)
    write_affine(tab, gainprm, biasprm)
    act[adr] = target
    ctrl[_rows(tab, ACT_ID)] = np.where(is_vel, v_cmd, 0.0)


def gather_state(
    tab: np.ndarray,
    qpos: np.ndarray,
    qvel: np.ndarray,
    force: np.ndarray,
    warnings: np.ndarray,
    out: np.ndarray,
) -> bool:
    """Joint state after stepping into ``out`` (3, n) (rows position rad or m, velocity rad/s
    or m/s, actuator force N·m or N); return whether the simulation is stable: none of the
    divergence counters in ``warnings`` (``data.warning.number``) is set and ``Σ qpos²`` is
    finite."""
    out[0] = qpos[_rows(tab, QADR)]
    out[1] = qvel[_rows(tab, DADR)]
    out[2] = force[_rows(tab, ACT_ID)]
    if warnings[WARN_QACC] or warnings[WARN_QVEL] or warnings[WARN_QPOS]:
        return False
    return math.isfinite(float(qpos @ qpos))


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
    """:func:`pre_step`, compiled."""
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
    """:func:`apply_command`, compiled."""
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
        if m & _P_BIT:
            kind = POSITION
        elif m == _VELOCITY_MODE:
            kind = VELOCITY
        elif m == _EFFORT_MODE:
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
    """:func:`gather_state`, compiled."""
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
    (:func:`prepare`: row ``SAVED`` ← the integral, then :func:`pre_step_kernel`). MuJoCo's
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


def inertia_buffer(model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray:
    """The joint-space inertia buffer the table's ``DIAG`` row indexes: ``data.M`` (MuJoCo ≥ 3.3)
    or ``data.qM`` (:func:`.actuation.inertia_diagonal_index`)."""
    return data.M if hasattr(model, "M_rownnz") else data.qM


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
