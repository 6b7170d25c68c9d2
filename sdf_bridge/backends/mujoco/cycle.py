"""The MuJoCo backend's per-cycle bookkeeping: the joint table and its rules, vectorised.

Every control cycle the backend turns a joint command (values, modes and hold positions of a
:class:`~sdf_bridge.backends.base.JointCommand`) into MuJoCo actuator parameters
(:func:`apply_command`), refreshes the PID's integral and inertia-scheduled gains before stepping
(:func:`pre_step`; or at the write, for the read that follows: :func:`prepare`, undone by
:func:`unprepare`) and gathers the joint state after stepping (:func:`gather_state`). Each is a
few dozen array operations over all joints at once, no loop per joint.

Everything a cycle needs about the joints is packed into one float table ``tab`` of shape
(:data:`ROWS`, n) built once by :func:`make_table`, indexed by the row constants below; column
``k`` is the ``k``-th joint of the transmission map:

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
* the write's work rows (:meth:`.backend.MujocoBackend.write`): ``LAST`` … ``LAST + 4``, the
  command last applied (rows position, velocity, effort, mode, hold; compared bit for bit with
  the next one); ``SAVED``, the integral before the last :func:`prepare` (restored when the steps it
  was prepared for do not happen).

The command rules, per joint by its mode (the backend's behaviour; the PID law and its MuJoCo
form are documented in :mod:`.pid`):

* position / velocity commands are tracked by the per-joint PID of :mod:`.pid` (effort clamped
  to the joint's effort limit). The PID's P and D parts run inside every physics step as MuJoCo
  affine actuators on the joints (one per map joint, gear 1, force range = effort limit), its
  integral once per read (the error to the target at the start of each cycle, whether or not a
  command was written); default gains have an integral term and follow the joint's current
  inertia (:mod:`.pid`), so position commands settle on target under gravity. At every reset
  the integral starts at the static load the joint carries at rest (gravity, its coupled
  followers' included: :func:`.couplings.static_loads`, :meth:`.pid.JointPid.preload`), so a
  held joint does not sag first while the integral grows. Before the steps of every read the
  actuators are refreshed (:func:`pre_step`): first the scheduled gains, from the inertia as of
  the last physics step, then the integral with them. So a write repeating the previous command
  bit for bit would change nothing; it returns after comparing it (except in ideal mode).
  :meth:`.backend.MujocoBackend.write` does that refresh itself, for
  the read that follows (:func:`prepare`; nothing the refresh reads changes in between), and it
  is undone when those steps do not follow (paused, another ``dt``, another write first): the
  same actuator parameters and integral, bit for bit, one call fewer per cycle;
* velocity commands track a reference position integrated from the command at every physics
  step (the actuator's integrator activation), so a velocity is held without drift under load;
* effort commands are applied as they are (the PID off);
* no command on a joint (mode ``NONE``): hold the command's ``hold`` position (where the joint
  was when its command ended), by the PID;
* ``position_mode: ideal``: commanded positions are imposed kinematically (qpos set every physics
  step, velocity = finite difference), their effort reads 0.
* a joint whose effort limit is 0 (a ``<ros2_control>`` effort window ``[0, 0]``; a URDF
  ``<limit effort="0">`` means "not limited", as the limiter reads it) is passive: its commands
  exert no effort (noted once).
"""

from __future__ import annotations

import math

import mujoco
import numpy as np

from ..base import Mode
from .pid import affine_parameters, integrate, saturated_towards

QADR, DADR, ACT_ADR, ACT_ID, DIAG = range(5)
P, I, D, I_CLAMP, INERTIA0, SCHEDULED, PASSIVE, LIMIT = range(5, 13)
MODE, HOLD, V_TARGET, FEEDFORWARD, ACTIVE = range(13, 18)
INTEGRAL, SCALE = range(18, 20)
LAST, LAST_MODE, LAST_HOLD, SAVED = 20, 23, 24, 25
ROWS = 26
"""Rows of the joint table (see the module docstring)."""
# the kinds of command in the table's MODE row (Mode values, as the table's floats)
NONE, POSITION, VELOCITY, EFFORT = (
    float(m) for m in (Mode.NONE, Mode.POSITION, Mode.VELOCITY, Mode.EFFORT)
)
P_BIT, VELOCITY_MODE, EFFORT_MODE = int(Mode.POSITION), int(Mode.VELOCITY), int(Mode.EFFORT)
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
    return tab[row].astype(np.intp)


def addresses(tab: np.ndarray) -> np.ndarray:
    """The address rows ``QADR`` … ``DIAG`` as integers, (5, n), in one conversion (indexed by
    the row constants). They do not change after :func:`make_table`: a caller running cycles
    makes them once and passes them as ``adr`` to the functions below (made on each call
    otherwise)."""
    return tab[: DIAG + 1].astype(np.intp)


# -- numpy reference ------------------------------------------------------------------------------
def write_affine(
    tab: np.ndarray,
    gainprm: np.ndarray,
    biasprm: np.ndarray,
    *,
    adr: np.ndarray | None = None,
    active: np.ndarray | None = None,
) -> None:
    """Write the PID law of the current command into the actuators (``gainprm[:, 0]``,
    ``biasprm[:, 0:3]`` of the rows ``ACT_ID``; :func:`.pid.affine_parameters`). ``adr``:
    :func:`addresses` of ``tab``; ``active``: ``tab[ACTIVE] != 0`` (both made when not
    given)."""
    if active is None:
        active = tab[ACTIVE] != 0.0
    gain, bias0, bias_q, bias_v = affine_parameters(
        tab[P], tab[D], tab[SCALE], tab[INTEGRAL], tab[V_TARGET], tab[FEEDFORWARD], active
    )
    ids = _rows(tab, ACT_ID) if adr is None else adr[ACT_ID]
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
    *,
    adr: np.ndarray | None = None,
) -> None:
    """Before stepping ``dt`` s: scale the scheduled joints' gains by ``M(q) / M₀`` (``inertia``
    = ``data.M`` or ``data.qM``, as of the last physics step), then (``has_i``) integrate the
    error to the target, ``act − q``, into the integral (:func:`.pid.integrate`; not further
    in the direction where the actuator force, ``force`` = ``data.actuator_force`` of the last
    step, is at the effort limit ``LIMIT``), then write the actuators (:func:`write_affine`).
    ``tab``'s PID state is updated in place. ``adr``: :func:`addresses` of ``tab`` (made when
    not given)."""
    if adr is None:
        adr = addresses(tab)
    np.divide(inertia[adr[DIAG]], tab[INERTIA0], out=tab[SCALE], where=tab[SCHEDULED] != 0.0)
    active = tab[ACTIVE] != 0.0
    if has_i:
        error = act[adr[ACT_ADR]] - qpos[adr[QADR]]
        blocked = saturated_towards(force[adr[ACT_ID]], tab[LIMIT], error)
        integrate(tab[INTEGRAL], tab[I], tab[I_CLAMP], tab[SCALE], error, dt, active, blocked)
    write_affine(tab, gainprm, biasprm, adr=adr, active=active)


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
    *,
    adr: np.ndarray | None = None,
) -> None:
    """:func:`pre_step` done at the write, for the steps of the next read: the integral is
    saved first into row ``SAVED`` (:func:`unprepare` restores it when those steps do not
    happen, or come with another ``dt``). Between a write and the next read nothing the
    refresh reads changes (``qpos``, ``act``, the inertia of the last step), so preparing at
    the write gives bit for bit the actuator parameters and integral of refreshing at the
    read."""
    tab[SAVED] = tab[INTEGRAL]
    pre_step(tab, qpos, act, inertia, force, gainprm, biasprm, dt, has_i, adr=adr)


def unprepare(tab: np.ndarray) -> None:
    """Undo the integration of :func:`prepare` (the integral back to row ``SAVED``); the
    actuators are rewritten by the refresh before the next step."""
    tab[INTEGRAL] = tab[SAVED]


def command_kind(mode: np.ndarray) -> np.ndarray:
    """The kind of each joint's command (``NONE``, ``POSITION``, ``VELOCITY`` or ``EFFORT``, floats)
    from its :class:`~sdf_bridge.backends.base.Mode` (``mode``, (n,)): ``POSITION_VELOCITY`` tracks
    as ``POSITION`` (its velocity is a feed-forward); any value that is not a joint command mode
    holds (``NONE``)."""
    m = np.asarray(mode).astype(np.int64)
    return np.where(
        (m & P_BIT) != 0,
        POSITION,
        np.where(m == VELOCITY_MODE, VELOCITY, np.where(m == EFFORT_MODE, EFFORT, NONE)),
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
    adr: np.ndarray | None = None,
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
    ``adr``: :func:`addresses` of ``tab`` (made when not given).
    """
    if adr is None:
        adr = addresses(tab)
    q = qpos[adr[QADR]]
    qt, vt, et = values
    kind = command_kind(mode)
    entering = kind != tab[MODE]
    is_pos, is_vel, is_none = kind == POSITION, kind == VELOCITY, kind == NONE
    act_adr = adr[ACT_ADR]
    given = np.isfinite(hold)
    tab[HOLD] = np.where(is_none & given, hold, np.where(is_none & entering, q, tab[HOLD]))
    tab[INTEGRAL, entering] = 0.0
    tab[MODE] = kind
    vel_ref = np.where(entering, q, act[act_adr])
    v_cmd = np.where(np.isfinite(vt), vt, 0.0)
    target = np.where(is_pos, qt, np.where(is_vel, vel_ref, tab[HOLD]))
    tab[V_TARGET] = np.where(is_pos | is_vel, v_cmd, 0.0)
    tab[FEEDFORWARD] = np.where(np.isfinite(et) & (tab[PASSIVE] == 0.0), et, 0.0)
    tab[ACTIVE] = (kind != EFFORT) & ~(is_pos & ideal)
    write_affine(tab, gainprm, biasprm, adr=adr)
    act[act_adr] = target
    ctrl[adr[ACT_ID]] = np.where(is_vel, v_cmd, 0.0)


def gather_state(
    tab: np.ndarray,
    qpos: np.ndarray,
    qvel: np.ndarray,
    force: np.ndarray,
    warnings: np.ndarray,
    out: np.ndarray,
    *,
    adr: np.ndarray | None = None,
) -> bool:
    """Joint state after stepping into ``out`` (3, n) (rows position rad or m, velocity rad/s
    or m/s, actuator force N·m or N); return whether the simulation is stable: none of the
    divergence counters in ``warnings`` (``data.warning.number``) is set and ``Σ qpos²`` is
    finite. ``adr``: :func:`addresses` of ``tab`` (made when not given)."""
    if adr is None:
        adr = addresses(tab)
    qpos.take(adr[QADR], out=out[0])
    qvel.take(adr[DADR], out=out[1])
    force.take(adr[ACT_ID], out=out[2])
    if warnings[WARN_QACC] or warnings[WARN_QVEL] or warnings[WARN_QPOS]:
        return False
    return math.isfinite(float(qpos @ qpos))


def inertia_buffer(model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray:
    """The joint-space inertia buffer the table's ``DIAG`` row indexes: ``data.M`` (MuJoCo ≥ 3.3)
    or ``data.qM`` (:func:`.actuation.inertia_diagonal_index`)."""
    return data.M if hasattr(model, "M_rownnz") else data.qM
