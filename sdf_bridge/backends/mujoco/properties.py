"""The MuJoCo backend's joint properties changed at run time (Gazebo's ``physics::Joint``
setters; the properties and their checks: :mod:`sdf_bridge.hardware.joint_properties`).

Per map joint, into the compiled model (MuJoCo reads these arrays at every step, so a change
acts from the next physics step on):

=====================  ======================================================================
property               MuJoCo
=====================  ======================================================================
``damping``            ``dof_damping`` (the description's ``<dynamics damping>`` rule:
                       :mod:`.builder`)
``friction``           ``dof_frictionloss``
``spring_stiffness``   ``jnt_stiffness``; refused above ``√(k/M)·dt`` = 0.5 on ``dof_M0`` (the
                       stops' rule; MuJoCo integrates a spring explicitly and diverges above
                       2: :meth:`JointProperties.spring_bound`)
``spring_reference``   ``qpos_spring``
``lower``, ``upper``   ``jnt_range`` and ``jnt_limited`` (one infinite side: ±1e16, as
                       SDFormat's "no stop"; both infinite: not limited). A joint outside the
                       new stops is pushed back by the stop's constraint, as at a stop
``stop_stiffness``,    the stop's ``jnt_solref`` / ``jnt_solimp`` by
``stop_dissipation``   :func:`.builder.stop_solver_params` (the description's rule); a stop
                       ``inf`` is the rigid stop of URDF joints (:func:`.builder.rigid_stop`;
                       silently); a finite one too
                       stiff for the timestep is that stop too, with a note to log
``effort``             the PID actuator's ``forcerange`` (``forcelimited`` when finite), the
                       PID's effort limit; 0 makes the joint passive (as at configure)
=====================  ======================================================================

The angles of a ball joint (``<joint>/roll``, ``/pitch``, ``/yaw``: :mod:`.balls`) have no run-time
properties (their physics is one ball joint, not three axes): they are not listed and a change
naming one is refused as for an unknown joint.

The default PID gains depend on the damping, the friction and the effort limit
(:func:`.gains.default_gains`): on a change of any of them the gains are worked out again by the
one rule of the configuration (:func:`.drive.drive_gains`); configured gains stay as given.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import mujoco
import numpy as np

from ...description.coordinates import coordinate_joint
from ...description.model import Robot
from ...errors import JointPropertyError
from ...hardware.joint_properties import DYNAMICS_PROPERTIES, INF, check_changes, parameter_name
from . import cycle
from .builder import STOP_MAX_OMEGA_DT, BuiltModel, rigid_stop, stop_solver_params
from .drive import JointDrive, ball_columns, drive_gains, passive_joints
from .pid import PidGains

NAMES = ("lower", "upper", "effort", *DYNAMICS_PROPERTIES)
"""The properties the MuJoCo backend applies (the velocity limit is the limiter's alone)."""
NO_STOP = 1e16
"""The range bound standing for a side without a stop (SDFormat's default limits)."""
_GAIN_INPUTS = frozenset({"damping", "friction", "effort"})


class JointProperties:
    """The run-time joint properties of a compiled MuJoCo model (module doc).

    Args:
        robot: the robot (its stop stiffness and dissipation: the initial values).
        built: the build result (joint addresses, the spec's default stop).
        model: the compiled model.
        joint_names: the map joints, array order.
        drive: their drive (addresses, joint table, PID).
        params: the backend parameters (configured gains).
        effort_limit: (n,) the effort limits the drive was built with, N·m or N.
    """

    def __init__(
        self,
        robot: Robot,
        built: BuiltModel,
        model: mujoco.MjModel,
        joint_names: Sequence[str],
        drive: JointDrive,
        params: Mapping[str, Any],
        effort_limit: np.ndarray,
    ) -> None:
        self.robot, self.model, self.drive, self.params = robot, model, drive, params
        self.joint_names = tuple(joint_names)
        self.index = {name: k for k, name in enumerate(self.joint_names)}
        self.ball = ball_columns(robot, self.joint_names)
        self.jnt = np.array(
            [
                mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, built.mj_joint(j))
                for j in self.joint_names
            ],
            dtype=int,
        )
        self.effort_limit = np.array(effort_limit, dtype=float)
        self._default_stop = tuple(
            np.array(x, dtype=float) for x in rigid_stop(float(model.opt.timestep))
        )
        stops = []
        for name in self.joint_names:
            joint = coordinate_joint(robot, name)
            limit = None if joint is None else joint.limit
            k = None if limit is None else limit.stiffness
            b = None if limit is None else limit.dissipation
            stops.append((float(k) if k is not None and k > 0.0 else INF, float(b or 0.0)))
        self.stops = np.array(stops, dtype=float).reshape(len(self.joint_names), 2)

    def values(self) -> dict[str, dict[str, float]]:
        """joint → the :data:`~sdf_bridge.hardware.joint_properties.DYNAMICS_PROPERTIES` now
        (the stops' positions and the effort limit are the limiter's: not here)."""
        m, d = self.model, self.drive
        out = {}
        for k, name in enumerate(self.joint_names):
            if self.ball[k]:
                continue  # (no properties: see the class docstring)
            j, dof, q = self.jnt[k], d.dadr[k], d.qadr[k]
            out[name] = {
                "damping": float(m.dof_damping[dof]),
                "friction": float(m.dof_frictionloss[dof]),
                "spring_stiffness": float(m.jnt_stiffness[j]),
                "spring_reference": float(m.qpos_spring[q]),
                "stop_stiffness": float(self.stops[k, 0]),
                "stop_dissipation": float(self.stops[k, 1]),
            }
        return out

    def stops_of(self, joint: str) -> tuple[float, float]:
        """The stops of ``joint`` in the model now, ``(lower, upper)`` (rad or m; ∓inf: none)."""
        m = self.model
        j = self.jnt[self.index[joint]]
        if not m.jnt_limited[j]:
            return -INF, INF
        lo, hi = (float(x) for x in m.jnt_range[j])
        return (-INF if lo <= -NO_STOP else lo), (INF if hi >= NO_STOP else hi)

    def check(self, changes: Mapping[str, Mapping[str, object]]) -> dict[str, dict[str, float]]:
        """``changes`` (joint → property → value, properties of :data:`NAMES`; a change of
        one stop should carry the other: it is checked against the model's range otherwise)
        checked (:func:`~sdf_bridge.hardware.joint_properties.check_changes`).

        Raises:
            JointPropertyError: as ``check_changes``; a ``spring_stiffness`` above
                :meth:`spring_bound`.
        """
        current = self.values()
        for k, name in enumerate(self.joint_names):
            if self.ball[k]:
                continue
            lower, upper = self.stops_of(name)
            current[name].update(lower=lower, upper=upper, effort=float(self.effort_limit[k]))
        checked = {
            joint: {p: v for p, v in merged.items() if p in changes[joint]}
            for joint, merged in check_changes(current, changes, NAMES).items()
        }
        for joint, values in checked.items():
            if "spring_stiffness" in values:
                self._check_spring(joint, values["spring_stiffness"])
        return checked

    def spring_bound(self, joint: str) -> float:
        """The stiffest ``spring_stiffness`` of ``joint`` (N·m/rad or N/m) MuJoCo integrates
        well at its timestep: ``M·(0.5/dt)²``, i.e. ``ω·dt = √(k/M)·dt ≤ 0.5``
        (:data:`~.builder.STOP_MAX_OMEGA_DT`, the stops' rule) on the joint's inertia ``M``
        (``dof_M0``). MuJoCo integrates a joint spring explicitly (semi-implicit Euler), which
        diverges above ``ω·dt = 2``; the factor 4 in ω (16 in k) is the margin for an inertia
        that is smaller in another pose than in the initial one."""
        k = self.index[joint]
        inertia = float(self.model.dof_M0[self.drive.dadr[k]])
        return inertia * (STOP_MAX_OMEGA_DT / float(self.model.opt.timestep)) ** 2

    def _check_spring(self, joint: str, stiffness: float) -> None:
        """Refuse a ``spring_stiffness`` above :meth:`spring_bound` (MuJoCo would diverge and
        reset the simulation within a tick).

        Raises:
            JointPropertyError: naming the value, the bound, ``ω·dt`` and the fix.
        """
        most = self.spring_bound(joint)
        if stiffness <= most:
            return
        dt = float(self.model.opt.timestep)
        raise JointPropertyError(
            f"{parameter_name(joint, 'spring_stiffness')} = {stiffness:g} is too stiff for the "
            f"timestep {dt:g} s: ω·dt = √(k/M)·dt = "
            f"{STOP_MAX_OMEGA_DT * math.sqrt(stiffness / most):.3g} > {STOP_MAX_OMEGA_DT} on the "
            "joint's inertia M (MuJoCo integrates the spring explicitly and would diverge and "
            f"reset the simulation); nothing changed. Fix: give spring_stiffness ≤ {most:.4g}, "
            "or a smaller timestep."
        )

    def apply(self, changes: Mapping[str, Mapping[str, float]]) -> tuple[list[str], bool]:
        """Apply checked ``changes`` (:meth:`check`) to the model and the drive.

        Returns:
            The notes to log (finite stops too stiff for the timestep; an infinite
            stop_stiffness is the rigid stop asked for, without a note), and whether the PID gains
            changed (the backend then rewrites its actuators).
        """
        m, d = self.model, self.drive
        notes: list[str] = []
        regain = False
        rigid = []
        for joint, values in changes.items():
            k = self.index[joint]
            j, dof = self.jnt[k], d.dadr[k]
            if "damping" in values:
                m.dof_damping[dof] = values["damping"]
            if "friction" in values:
                m.dof_frictionloss[dof] = values["friction"]
            if "spring_stiffness" in values:
                m.jnt_stiffness[j] = values["spring_stiffness"]
            if "spring_reference" in values:
                m.qpos_spring[d.qadr[k]] = values["spring_reference"]
            if "lower" in values or "upper" in values:
                lo, hi = (float(x) for x in m.jnt_range[j])
                if not m.jnt_limited[j]:
                    lo, hi = -NO_STOP, NO_STOP
                lo = values.get("lower", lo)
                hi = values.get("upper", hi)
                m.jnt_limited[j] = math.isfinite(lo) or math.isfinite(hi)
                m.jnt_range[j] = [max(lo, -NO_STOP), min(hi, NO_STOP)]
            if "stop_stiffness" in values or "stop_dissipation" in values:
                self.stops[k] = (
                    values.get("stop_stiffness", self.stops[k, 0]),
                    values.get("stop_dissipation", self.stops[k, 1]),
                )
                if not self._set_stop(k) and math.isfinite(self.stops[k, 0]):
                    rigid.append(joint)  # (inf asks for the rigid stop: nothing to say)
            if "effort" in values:
                limit = values["effort"]
                self.effort_limit[k] = limit
                act = d.act_ids[k]
                m.actuator_forcelimited[act] = math.isfinite(limit)
                m.actuator_forcerange[act] = [-limit, limit] if math.isfinite(limit) else [0, 0]
            regain = regain or bool(_GAIN_INPUTS & set(values))
        if rigid:
            notes.append(
                f"joint stop stiffness of {rigid} is too stiff for the timestep "
                f"{m.opt.timestep} s (ω·dt > {STOP_MAX_OMEGA_DT}): the rigid stop (as URDF "
                "joints') is used. Fix: a smaller stop_stiffness (or stop_dissipation) for a "
                "soft stop, or .inf to ask for the rigid one"
            )
        if regain:
            self._set_gains()
        return notes, regain

    def _set_stop(self, k: int) -> bool:
        """The stop of joint ``k`` from its stiffness and dissipation
        (:func:`.builder.stop_solver_params` on ``dof_M0``); whether it is a spring (else
        MuJoCo's default stop)."""
        m = self.model
        j = self.jnt[k]
        stiffness, dissipation = self.stops[k]
        params = None
        if math.isfinite(stiffness):
            inertia = float(m.dof_M0[self.drive.dadr[k]])
            params = stop_solver_params(
                float(stiffness), float(dissipation), inertia, float(m.opt.timestep)
            )
        solref, solimp = self._default_stop if params is None else params
        m.jnt_solref[j] = solref
        m.jnt_solimp[j] = solimp
        return params is not None

    def _set_gains(self) -> None:
        """The PID gains again, by the configuration's rule (:func:`.drive.drive_gains`), from
        the model's damping and friction and the effort limits now; the joint table's gain,
        schedule, passive and limit rows and the PID updated."""
        d = self.drive
        limit = self.effort_limit
        passive = passive_joints(limit)
        gains: PidGains = drive_gains(
            self.robot,
            self.model,
            self.joint_names,
            self.params,
            d.inertia,
            d.dadr,
            limit,
            passive,
            log=False,
        )
        tab = d.tab
        tab[cycle.P], tab[cycle.I], tab[cycle.D] = gains.p, gains.i, gains.d
        tab[cycle.I_CLAMP] = gains.i_clamp
        tab[cycle.SCHEDULED] = gains.scheduled
        tab[cycle.PASSIVE] = passive
        tab[cycle.LIMIT] = limit
        d.scheduled[:] = gains.scheduled
        d.pid.set_gains(gains, limit)
