"""Default PID gains of the MuJoCo backend: the joints' inertias and the rule that turns them
into gains that hold any robot (the rule is stated in :mod:`.pid`).

Per map joint ``k`` (MuJoCo dof ``k``), at the model's reference configuration ``qpos0``:

* ``own``: ``M_kk``, the diagonal of the joint-space inertia matrix: the composite inertia of
  everything the joint moves (its whole subtree, not just the child link) about its axis,
  armature included (MuJoCo's ``dof_M0``), kg·m² (kg for a slide);
* ``apparent``: ``1 / (M⁻¹)_kk``, the inertia a force on this joint alone meets when every
  other dof (a free base included) gives way: the lightest the joint can be (≤ ``own``), which
  bounds what the timestep can integrate;
* ``load``: for a joint of a free-floating robot, the inertia of the rest of the robot about
  the joint's axis, ``Σ_b (a·I_b·a + m_b·|(c_b − p) × a|²)`` over the bodies ``b`` outside
  its subtree (``a`` the unit axis and ``p`` a point of it, ``c_b`` the centre of mass): what
  the joint carries when its subtree is braced against the ground (a knee lifting the trunk
  and the other legs); for a slide joint the mass of the rest. 0 on a fixed base (the rest is
  welded to the world).

A joint that drives followers through couplings (mimic, gearbox, screw:
:func:`.couplings.coupled_followers`, multiplier ``m_f``) carries them: ``own`` adds each
follower's ``m_f²·own_f`` (its reflected inertia), ``apparent`` adds ``m_f²·apparent_f`` up to
``apparent / (1 − 0.95)`` (a coupling is soft: within one step it passes on its impedance's
share, :data:`.couplings.COUPLING_SOLIMP`, of a force on the joint), and the drive reflects the
followers' damping (``m_f²·b_f``) and friction (``|m_f|·f_f``) the same way (:func:`reflected`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import mujoco
import numpy as np

from .couplings import COUPLING_SOLIMP

BANDWIDTH = 2.0 * math.pi * 10.0
"""rad/s: closed-loop natural frequency ``ω`` the default gains aim at (10 Hz)."""
INTEGRAL_RATIO = 0.1
"""The integral's corner frequency as a fraction of ``ω`` (``i = p·ω/10`` where damping allows)."""
STIFFNESS_STEP = 0.5
"""Largest ``ω_k·timestep`` of a default stiffness on the joint's apparent inertia,
``ω_k = √(p / M_apparent)``: semi-implicit Euler integrates a spring stably up to 2; 0.5
keeps its period above 12 physics steps."""
DAMPING_STEP = 1.0
"""Largest ``d·timestep / M_apparent`` of a default damping. MuJoCo integrates the damping
implicitly (``implicitfast``) except while the actuator force is clamped at the effort limit
(MuJoCo then drops its derivative): one explicit step at the limit changes the damping force
by at most the limit itself, so the force cannot jump from one limit to the other (no
chatter between ±limit on light links)."""


LIGHT_RATIO = 1e4
"""``M / M_apparent`` above which a joint is too light for what it carries to be held by
gains the timestep allows (a 2·10⁻⁵ kg·m² wheel under a 4 kg robot oscillates): warned, with
its fix (an armature: the rotor inertia reflected through the gear)."""


@dataclass(frozen=True)
class JointInertia:
    """The inertias of the default-gain rule (module docstring), each shape (n,), kg·m² or kg."""

    own: np.ndarray
    apparent: np.ndarray
    load: np.ndarray

    @property
    def design(self) -> np.ndarray:
        """``max(own, load)``: the inertia the default gains are designed for, (n,)."""
        return np.maximum(self.own, self.load)


@dataclass(frozen=True)
class DefaultGains:
    """Default gains per joint, each shape (n,): ``p`` (N·m/rad), ``i`` (N·m/(rad·s)), ``d``
    (N·m·s/rad), ``i_clamp`` (N·m); ``bounded`` (n,) bool: the timestep lowered ``p`` or
    ``d`` below the aim (N, m for slides)."""

    p: np.ndarray
    i: np.ndarray
    d: np.ndarray
    i_clamp: np.ndarray
    bounded: np.ndarray


def joint_inertias(
    model: mujoco.MjModel,
    joints: np.ndarray,
    dofs: np.ndarray,
    followers: Sequence[Sequence[tuple[int, float]]] = (),
) -> JointInertia:
    """The inertias of MuJoCo joints ``joints`` (ids, shape (n,)) with dofs ``dofs`` (n,) at
    ``qpos0`` (module docstring). ``load`` is non-zero for joints in a kinematic tree whose
    root body has a free joint. ``followers[k]``: the ``(dof, multiplier)`` of each joint the
    couplings make follow joint ``k`` (``q_f = offset + multiplier·q_k``, :mod:`.couplings`;
    empty or shorter: none): their reflected inertia, ``multiplier²`` times the follower's,
    counts in joint ``k``'s ``own`` and ``apparent`` (the coupling moves them with it: a
    10⁻⁶ kg·m² virtual joint driving two wheels carries the wheels)."""
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    n = len(joints)
    pairs = [list(followers[k]) if k < len(followers) else [] for k in range(n)]
    extra = sorted({dof for group in pairs for dof, _m in group})
    every = np.concatenate([np.asarray(dofs, dtype=int), np.asarray(extra, dtype=int)])
    m0 = np.array(model.dof_M0, dtype=float)
    inverse = np.zeros((model.nv, 0))
    if len(every):
        unit = np.zeros((len(every), model.nv))
        unit[np.arange(len(every)), every] = 1.0
        inverse = np.zeros((len(every), model.nv))
        mujoco.mj_solveM(model, data, inverse, unit)
    alone = 1.0 / np.maximum(inverse[np.arange(len(every)), every], 1e-300)
    apparent_of = dict(zip(every.tolist(), alone.tolist()))
    own = m0[np.asarray(dofs, dtype=int)] + np.array(
        [sum(m * m * m0[f] for f, m in g) for g in pairs], dtype=float
    ).reshape(n)
    carried = np.array(
        [sum(m * m * apparent_of[f] for f, m in g) for g in pairs], dtype=float
    ).reshape(n)
    # within one step the coupling passes on at least the impedance's share of a force
    apparent = np.where(
        carried > 0.0,
        np.minimum(alone[:n] + carried, alone[:n] / (1.0 - COUPLING_SOLIMP[0])),
        alone[:n],
    ).reshape(n)
    load = np.zeros(n)
    free = {
        int(model.jnt_bodyid[j])
        for j in range(model.njnt)
        if model.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE
    }
    parent = np.asarray(model.body_parentid)
    for k, j in enumerate(joints):
        body = int(model.jnt_bodyid[j])
        root = int(model.body_rootid[body])
        if root not in free:
            continue
        subtree = _subtree(parent, body)
        axis, point = data.xaxis[j], data.xanchor[j]
        slide = model.jnt_type[j] == mujoco.mjtJoint.mjJNT_SLIDE
        total = 0.0
        for b in range(1, model.nbody):
            if b in subtree or int(model.body_rootid[b]) != root:
                continue
            mass = float(model.body_mass[b])
            if slide:
                total += mass
                continue
            rot = data.ximat[b].reshape(3, 3)
            inertia = rot @ np.diag(model.body_inertia[b]) @ rot.T
            arm = np.cross(data.xipos[b] - point, axis)
            total += float(axis @ inertia @ axis) + mass * float(arm @ arm)
        load[k] = total
    return JointInertia(own, apparent, load)


def _subtree(parent: np.ndarray, body: int) -> set[int]:
    """``body`` and every body below it (MuJoCo lists parents before children)."""
    inside = {body}
    for b in range(body + 1, len(parent)):
        if int(parent[b]) in inside:
            inside.add(b)
    return inside


def default_gains(
    inertia: JointInertia,
    timestep: float,
    effort_limit: np.ndarray,
    damping: np.ndarray | None = None,
    friction: np.ndarray | None = None,
) -> DefaultGains:
    """The default gains of :mod:`.pid`'s rule for joints of ``inertia`` at physics step
    ``timestep`` (s) with ``effort_limit`` (n,) N·m or N (``inf`` = none), the joints' viscous
    ``damping`` ``b`` (n,) N·m·s/rad or N·s/m (MuJoCo's ``dof_damping``, from ``<dynamics
    damping>``) and Coulomb ``friction`` ``f`` (n,) N·m or N (``dof_frictionloss``, from
    ``<dynamics friction>``), both 0 when not given; all shape (n,)::

        M  = max(own, load)                          (JointInertia.design)
        p  = min(ω·(M·ω + b), apparent·(STIFFNESS_STEP/timestep)²)
        d  = min(2·M·ω, apparent·DAMPING_STEP/timestep)
        i  = p·integral_corner(M, d + b, p)          (ω/10 at the aims; Routh–Hurwitz-safe)
        i_clamp = effort limit (p·1 rad + f where there is none)

    Source: pole placement on the joint's plant ``M·s² + b·s`` (the PID design by pole
    placement for a second-order process model, Åström & Hägglund, *Advanced PID Control*,
    ISA 2006), derived here: the PD part's characteristic polynomial is then exactly
    ``M·s² + (d + b)·s + p = (s + ω)·(M·s + M·ω + b)`` for ``d = 2·M·ω``: one pole at the
    design bandwidth ``−ω`` whatever the damping, the other at ``−(ω + b/M)`` (further left
    the more damped the joint; ``b = 0``: the critical double pole at ``−ω``). Without the
    ``b·ω`` term a damped joint's loop was ``(d + b)·s² + p·s + i``, dominated by ``b`` on a
    light link: a slow, barely damped oscillation of the integral (``√(i/b)`` rad/s, damping
    ratio ``p/(2·√(i·b))``, 0.13 for ``b`` = 10 N·m·s/rad on 10⁻³ kg·m²). The joint damping
    adds to ``d`` in the Routh–Hurwitz bound of the integral. The stiffness bound stays on the
    apparent inertia alone: where it cuts ``p``, the slow pole is near ``−p/(d + b)``, still
    settling in well under a second on the joints measured; relaxing it by the implicitly
    integrated ``b·timestep`` made a 10⁻⁶ kg·m² virtual joint driving mimic wheels (the shared
    carlikebot) unstable through its soft coupling constraints. Where the bound cuts ``p`` and
    the loop is overdamped, the integral's corner follows its slow pole
    (:func:`integral_corner`): at ``ω/10`` it outran that pole on carlikebot (its followers
    counted) and oscillated.
    The Coulomb friction is overcome by the integral (the proportional part alone stops
    ``f/p`` short); without an effort limit its clamp leaves room for ``f`` on top of
    ``p``·1 rad.
    """
    n = np.shape(inertia.own)[0]
    b = np.zeros(n) if damping is None else np.maximum(np.asarray(damping, dtype=float), 0.0)
    f = np.zeros(n) if friction is None else np.maximum(np.asarray(friction, dtype=float), 0.0)
    m = np.maximum(inertia.design, 1e-9)
    apparent = np.maximum(inertia.apparent, 1e-12)
    p_aim, d_aim = BANDWIDTH * (m * BANDWIDTH + b), 2.0 * m * BANDWIDTH
    p = np.minimum(p_aim, apparent * (STIFFNESS_STEP / timestep) ** 2)
    d = np.minimum(d_aim, apparent * DAMPING_STEP / timestep)
    i = p * integral_corner(m, d + b, p)
    limit = np.abs(np.asarray(effort_limit, dtype=float))
    i_clamp = np.where(np.isfinite(limit) & (limit > 0.0), limit, p * 1.0 + f)
    return DefaultGains(p, i, d, i_clamp, (p < p_aim) | (d < d_aim))


def too_light(inertia: JointInertia) -> np.ndarray:
    """(n,) bool: joints whose design inertia is over :data:`LIGHT_RATIO` times their apparent
    one (their default gains cannot damp what they carry)."""
    return inertia.design > LIGHT_RATIO * np.maximum(inertia.apparent, 1e-300)


def reflected(
    values: np.ndarray,
    dofs: np.ndarray,
    followers: Sequence[Sequence[tuple[int, float]]],
    power: int = 2,
) -> np.ndarray:
    """Per dof of ``dofs`` (n,): its own entry of ``values`` (nv,) plus each coupled
    follower's (``followers``, as :func:`joint_inertias` takes them) reflected through the
    coupling, ``|gain|**power ×`` the follower's: a viscous damping (N·m·s/rad) with power 2,
    a Coulomb friction (N·m) with power 1."""
    own = np.asarray(values, dtype=float)[np.asarray(dofs, dtype=int)]
    extra = [sum(abs(g) ** power * float(values[f]) for f, g in group) for group in followers]
    extra += [0.0] * (len(own) - len(extra))
    return own + np.asarray(extra[: len(own)], dtype=float)


def integral_corner(m: np.ndarray, damping: np.ndarray, p: np.ndarray) -> np.ndarray:
    """(n,) rad/s: the integral's corner ``i / p`` for the PD loop ``m·s² + damping·s + p``
    (``damping`` = the gain ``d`` plus the joint's own ``b``): :data:`INTEGRAL_RATIO` times its
    slowest pole when its poles are real — ``ω/10`` with the rule's aims (``d = 2·m·ω``,
    ``p = ω·(m·ω + b)`` put the slow pole at ``−ω`` exactly), ``≈ p / (10·damping)`` where the
    timestep bounds ``p`` and the loop is overdamped (a light joint driving heavy mimic
    followers: an integral faster than that slow pole oscillates) —, and when they are a
    complex pair (a load the timestep leaves underdamped) the smaller of ``ω/10`` and their
    real part ``damping/(2·m)`` (Routh–Hurwitz margin 2: ``i < damping·p/m``). The slow real
    pole is ``2·p / (damping + √(damping² − 4·m·p))`` (the cancellation-free root)."""
    m, damping, p = (np.asarray(x, dtype=float) for x in (m, damping, p))
    disc = damping * damping - 4.0 * m * p
    slow = 2.0 * p / np.maximum(damping + np.sqrt(np.maximum(disc, 0.0)), 1e-300)
    aim = BANDWIDTH * INTEGRAL_RATIO
    return np.where(
        disc >= 0.0,
        np.minimum(aim, INTEGRAL_RATIO * slow),
        np.minimum(aim, damping / (2.0 * m)),
    )
