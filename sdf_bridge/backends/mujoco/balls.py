"""The MuJoCo backend's ball joints as coordinates: roll, pitch, yaw computed from MuJoCo's
native ball joint, and their commands (a PD on the rotation error, efforts mapped by J⁻ᵀ).

A ball joint is simulated as one ``mjJNT_BALL`` joint (qpos a quaternion, three dofs: the
angular velocity ``ω`` of the child's joint frame in its own axes); its three map coordinates
``<joint>/roll``, ``/pitch``, ``/yaw`` (:mod:`sdf_bridge.description.coordinates`) are a view
of it, never hinges in the physics (three hinges lock at pitch ±π/2). Each coordinate has a
MuJoCo actuator on the ball joint whose gear is the child's joint axis x, y or z (roll, pitch,
yaw), so its force is the torque ``τ`` about that axis (its length the rotation vector's
component, its velocity ``ω``'s). Per map column the joint table (:mod:`.cycle`) keeps the
quaternion's ``qpos`` address and dof ``k`` of the joint; the values published and the torques
applied are those below, written over the table's after :func:`.cycle.gather_state` and before
every physics step (:meth:`BallCoordinates.publish`, :meth:`BallCoordinates.drive`).

Published (:meth:`BallCoordinates.publish`):

* position: :func:`~sdf_bridge.description.coordinates.ball_angles` of the joint's rotation
  ``R`` (``R = Rz(yaw)·Ry(pitch)·Rx(roll)``), nearest the angles published last: continuous,
  not wrapped, through gimbal lock too;
* velocity: ``J⁻¹ · ω`` (``J`` = :func:`~sdf_bridge.description.coordinates.ball_rate_matrix`
  of the published roll and pitch); where ``|cos pitch|`` < :data:`LOCK_COS` (within 0.057° of
  the lock, where the angle rates of a finite ``ω`` grow as 1/cos pitch and are undefined at
  it), the rates published last are published again (never NaN, never a jump to 1000 times ω);
* effort: ``Jᵀ · τ`` of the torque ``τ`` the joint's actuators apply (0 when free): the
  generalised forces of the angles (power ``τ · ω``), defined at the lock too.

Commands (:meth:`BallCoordinates.drive`, before every physics step of a read; the command rows
of the joint table, :mod:`.cycle`, as for any joint):

* a ball with a coordinate in position, velocity or hold mode is driven by a PD on the
  rotation error in the child's joint axes (no gimbal lock: ``J`` is never inverted),
  ``τ = Kp·log(Rᵀ·R_target) − Kd·(ω − ω_target)``, with ``R_target = Rz(yaw)·Ry(pitch)·Rx(roll)``
  of the target angles: the commanded position, the velocity reference (integrated from the
  commanded velocity by the actuator, from the angle where the command started) or the held
  position, per coordinate; a coordinate commanded in effort (or a ball whose other
  coordinates are) keeps its current angle in the target. ``ω_target = J · v`` of the
  commanded (or feed-forward) rates ``v``. ``Kp``, ``Kd`` per axis of the joint frame are the
  coordinates' ``p`` and ``d`` (configured, or :mod:`.gains`' default rule on the ball's
  inertia about the child body's axes; no integral, no gain schedule). MuJoCo evaluates it at
  every physics step as an affine actuator per axis (force = ``Kp·(e₀ + ℓ₀ − ℓ) −
  Kd·(ω − ω_target)``, ℓ the actuator's length, the rotation vector's component along its
  axis, ``e₀`` and ``ℓ₀`` at the start of the control period; on a coordinate in velocity
  mode plus ``Kp·(a − a₀)``, the advance of its velocity reference ``a`` within the period,
  which is the joint-frame axis's advance where ``J = I`` and first-order close elsewhere),
  the error recomputed each period (where the ball is turned more than :data:`WRAP_ANGLE`
  from its zero, the length wraps at π: there the proportional part ``Kp·e`` is recomputed
  before every physics step instead, :meth:`BallCoordinates.drive`). ``position_mode:
  ideal`` does not impose ball angles (no ``qpos`` entries: :mod:`.ideal`): they are tracked
  so;
* an effort ``τ_rpy`` on the angles (effort mode, or a feed-forward with a position or
  velocity) adds the torque ``J⁻ᵀ · τ_rpy`` (J at the start of each control period). Where
  ``|cos pitch|`` < :data:`LOCK_COS`, ``J⁻ᵀ`` does not exist (a torque about the child's x and
  one about the parent's z both turn roll and yaw only, together): that torque is not applied
  while there, and a warning names the joint, the pitch and the fix (turn the joint frame so
  that the working pitch is away from ±π/2);
* each component is clamped to the coordinate's effort limit by its actuator; an idle ball is
  free (the hardware layer's rule for multi-freedom joints, an effort of 0:
  :func:`~sdf_bridge.description.coordinates.free_when_idle`).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence

import mujoco
import numpy as np

from ...description.coordinates import ball_angles, ball_rate_matrix
from ...description.model.pose import rpy_to_matrix
from .builder import BuiltModel
from .cycle import ACT_ADR, EFFORT, FEEDFORWARD, HOLD, MODE, NONE, PASSIVE, V_TARGET, VELOCITY, D, P

_LOG = logging.getLogger(__name__)

WRAP_ANGLE = math.pi - 0.6
"""rad: the ball's rotation from its reference up to which its PD's stiffness acts at every
physics step (the actuator length, MuJoCo's rotation vector of ``qpos``, wraps at π: beyond
this the proportional part is a torque recomputed before each physics step, the damping still
MuJoCo's per step: :meth:`BallCoordinates.drive`)."""

LOCK_COS = 1e-3
"""``|cos pitch|`` under which a ball's angle rates are not computed (the last ones are kept)
and effort commands are not applied (the ball is free): within 0.057° of gimbal lock."""


def quat_matrix(quat: np.ndarray) -> np.ndarray:
    """The rotation matrix (3, 3) of a MuJoCo quaternion ``quat`` (w, x, y, z; normalised)."""
    out = np.empty(9)
    mujoco.mju_quat2Mat(out, np.asarray(quat, dtype=float) / np.linalg.norm(quat))
    return out.reshape(3, 3)


def rotation_vector(rot: np.ndarray) -> np.ndarray:
    """The rotation vector ``θ·n`` (3,) of the rotation matrix ``rot`` (3, 3), ``θ`` in
    [0, π] (``log`` of SO(3)), as MuJoCo computes it from a quaternion."""
    quat = matrix_quat(rot)
    out = np.empty(3)
    mujoco.mju_quat2Vel(out, quat if quat[0] >= 0.0 else -quat, 1.0)
    return out


def matrix_quat(rot: np.ndarray) -> np.ndarray:
    """The MuJoCo quaternion (w, x, y, z) of the rotation matrix ``rot`` (3, 3)."""
    out = np.empty(4)
    mujoco.mju_mat2Quat(out, np.ascontiguousarray(rot, dtype=float).reshape(9))
    return out


class BallCoordinates:
    """The ball coordinates among the map joints of one model (see the module docstring).

    Args:
        built: the compiled build (joint slots and coordinates).
        joint_names: the map joints, column order.

    Attributes:
        names: the ball joints (description names), in map order.
        columns: (n_balls, 3) int, the map columns of each ball's roll, pitch and yaw.
        qadr: (n_balls,) int, each ball's quaternion address in ``qpos``.
        dadr: (n_balls,) int, its first dof address (``qvel``: ω in the child body's axes).
        frames: each ball's joint frame in its child body, ``C`` (3, 3)
            (:attr:`.builder.JointSlots.frame`).
        angles: (n_balls, 3) the angles published last, rad.
        rates: (n_balls, 3) the rates published last, rad/s.
        mask: (n,) bool, the map columns that are ball coordinates.
    """

    def __init__(self, built: BuiltModel, joint_names: Sequence[str]) -> None:
        index = {name: k for k, name in enumerate(joint_names)}
        found: dict[str, list[int]] = {}
        for name in joint_names:
            if built.is_ball(name):
                joint, k = built.coordinates[name]
                found.setdefault(joint, [-1, -1, -1])[k] = index[name]
        self.names = tuple(joint for joint, cols in found.items() if min(cols) >= 0)
        self.columns = np.array([found[j] for j in self.names], dtype=int).reshape(-1, 3)
        self.qadr = np.array([built.joints[j].qpos[0] for j in self.names], dtype=int)
        self.dadr = np.array([built.joints[j].dof[0] for j in self.names], dtype=int)
        self.frames = [np.asarray(built.joints[j].frame, dtype=float) for j in self.names]
        self.angles = np.zeros((len(self.names), 3))
        self.rates = np.zeros((len(self.names), 3))
        self.mask = np.zeros(len(joint_names), dtype=bool)
        self.mask[self.columns.reshape(-1)] = True
        self._warned: set[tuple[str, str]] = set()

    def __bool__(self) -> bool:
        return bool(self.names)

    def reset(
        self,
        qpos: np.ndarray,
        position: Mapping[str, float],
        names: Sequence[str],
        tab: np.ndarray,
    ) -> None:
        """After a reset of the state (:func:`.initial_state.reset_state`): the angles published
        last are the initial ``position`` of the coordinates (``names`` = the map joints;
        missing ones 0) when they describe the joint's quaternion, else those nearest 0, and
        the positions the joint table ``tab`` holds (row ``HOLD``); the rates 0; warnings may
        be given again."""
        for b, cols in enumerate(self.columns):
            given = np.array([float(position.get(names[c], 0.0)) for c in cols])
            self.angles[b] = ball_angles(given, self.rotation(b, qpos))
            tab[HOLD, cols] = self.angles[b]
        self.rates[:] = 0.0
        self._warned.clear()

    def command(
        self,
        tab: np.ndarray,
        before: np.ndarray,
        hold: np.ndarray,
        qpos: np.ndarray,
        act: np.ndarray,
    ) -> None:
        """After :func:`.cycle.apply_command` (``before``: the table's ``MODE`` row before it,
        ``hold`` the command's hold positions): a ball coordinate entering velocity mode starts
        its reference (``act``) at its current angle, one entering hold mode without a hold
        position holds its current angle (the table's rule, with the angle for the ``qpos``
        entry a ball coordinate has not)."""
        for b, cols in enumerate(self.columns):
            entering = tab[MODE, cols] != before[cols]
            if not entering.any():
                continue
            self.angles[b] = ball_angles(self.angles[b], self.rotation(b, qpos))
            now = self.angles[b]
            vel = entering & (tab[MODE, cols] == VELOCITY)
            act[tab[ACT_ADR, cols[vel]].astype(np.intp)] = now[vel]
            idle = entering & (tab[MODE, cols] == NONE) & ~np.isfinite(hold[cols])
            tab[HOLD, cols[idle]] = now[idle]

    def rotation(self, b: int, qpos: np.ndarray) -> np.ndarray:
        """The rotation (3, 3) of ball ``b``'s child joint frame in its parent joint frame,
        ``Cᵀ · R(q) · C``, from its quaternion in ``qpos``."""
        frame = self.frames[b]
        return frame.T @ quat_matrix(qpos[self.qadr[b] : self.qadr[b] + 4]) @ frame

    def publish(self, qpos: np.ndarray, qvel: np.ndarray, out: np.ndarray) -> None:
        """Write the balls' positions, velocities and efforts (rows 0, 1, 2 of ``out``, (3, n),
        whose row 2 holds each ball actuator's force, the torque about its axis) over their
        columns, and remember the angles and rates (see the module docstring)."""
        for b, cols in enumerate(self.columns):
            adr, dof = self.qadr[b], self.dadr[b]
            quat = qpos[adr : adr + 4]
            if not np.isfinite(quat).all() or not np.any(quat):
                continue  # (diverged: the backend resets; nothing to publish from)
            frame = self.frames[b]
            angles = ball_angles(self.angles[b], frame.T @ quat_matrix(quat) @ frame)
            jac = ball_rate_matrix(angles[0], angles[1])
            if abs(math.cos(angles[1])) >= LOCK_COS:
                self.rates[b] = np.linalg.solve(jac, frame.T @ qvel[dof : dof + 3])
            self.angles[b] = angles
            out[0, cols] = angles
            out[1, cols] = self.rates[b]
            out[2, cols] = jac.T @ out[2, cols]

    def drive(
        self,
        tab: np.ndarray,
        qpos: np.ndarray,
        act: np.ndarray,
        gainprm: np.ndarray,
        biasprm: np.ndarray,
        act_ids: np.ndarray,
    ) -> bool:
        """Write the balls' actuators for the next physics steps from the joint table's
        command (``tab`` rows ``MODE``, ``HOLD``, ``V_TARGET``, ``FEEDFORWARD``, ``PASSIVE``,
        ``P``, ``D``; ``act`` the actuators' activations, the position targets and velocity
        references; ``act_ids`` the map joints' actuator ids) at the ball's state now
        (``qpos``): the PD and the effort's torque of the module docstring.

        Returns:
            Whether a driven ball is turned beyond :data:`WRAP_ANGLE`, where its stiffness is
            not evaluated at every physics step: the caller then drives again before each step
            (a proportional torque held over a whole control period at the gains' timestep
            bound diverged: random targets within ±3 rad reset a chain of three balls).
        """
        wrapped = False
        for b, cols in enumerate(self.columns):
            rot = self.rotation(b, qpos)
            self.angles[b] = angles = ball_angles(self.angles[b], rot)
            roll, pitch = angles[0], angles[1]
            mode = tab[MODE, cols]
            given = tab[FEEDFORWARD, cols]
            tau_rpy = np.where((tab[PASSIVE, cols] == 0.0) & np.isfinite(given), given, 0.0)
            torque = np.zeros(3)
            if tau_rpy.any():
                if abs(math.cos(pitch)) < LOCK_COS:
                    self._warn(
                        b,
                        "lock",
                        f"ball joint {self.names[b]!r} is at gimbal lock (pitch {pitch:.6g} "
                        f"rad, |cos pitch| < {LOCK_COS}): an effort on its roll/pitch/yaw has "
                        "no torque there; it is not applied until the ball leaves the lock. "
                        "Fix: turn the joint frame (<joint><pose>) so that the working pitch "
                        "is away from ±π/2",
                    )
                else:
                    torque = np.linalg.solve(ball_rate_matrix(roll, pitch).T, tau_rpy)
                    self._warned.discard((self.names[b], "lock"))
            ids = act_ids[cols]
            kp = np.where(tab[PASSIVE, cols] == 0.0, tab[P, cols], 0.0)
            kd = np.where(tab[PASSIVE, cols] == 0.0, tab[D, cols], 0.0)
            if (mode != EFFORT).any() and (kp.any() or kd.any()):
                target = np.where(
                    mode == NONE,
                    tab[HOLD, cols],
                    np.where(mode == EFFORT, angles, act[tab[ACT_ADR, cols].astype(np.intp)]),
                )
                rates = np.where(mode == EFFORT, 0.0, tab[V_TARGET, cols])
                error = rotation_vector(rot.T @ rpy_to_matrix(tuple(target)))
                omega_t = ball_rate_matrix(roll, pitch) @ rates
                turned = np.empty(3)  # MuJoCo's ball actuator length: of qpos as it is
                mujoco.mju_quat2Vel(turned, qpos[self.qadr[b] : self.qadr[b] + 4], 1.0)
                if np.linalg.norm(turned) < WRAP_ANGLE:
                    stiff = kp
                else:
                    stiff, wrapped = np.zeros(3), wrapped or bool(kp.any())
                length = self.frames[b].T @ turned
                torque = torque + kp * error + stiff * length + kd * omega_t
                # a velocity reference moves on within the period: its activation's advance
                gain = np.where(mode == VELOCITY, stiff, 0.0)
                torque = torque - gain * act[tab[ACT_ADR, cols].astype(np.intp)]
            else:
                stiff, kd, gain = np.zeros(3), np.zeros(3), np.zeros(3)
            gainprm[ids, 0] = gain
            biasprm[ids, 0] = torque
            biasprm[ids, 1] = -stiff
            biasprm[ids, 2] = -kd
        return wrapped

    def _warn(self, b: int, kind: str, message: str) -> None:
        """Log ``message`` once per ball and ``kind`` until it is cleared."""
        key = (self.names[b], kind)
        if key not in self._warned:
            self._warned.add(key)
            _LOG.warning(message)


__all__ = ["LOCK_COS", "BallCoordinates", "matrix_quat", "quat_matrix", "rotation_vector"]
