"""The MuJoCo backend's ball joints as coordinates: roll, pitch, yaw computed from MuJoCo's
native ball joint, and their effort commands.

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

Commands (:meth:`BallCoordinates.drive`, before every physics step of a read): an effort
command ``τ_rpy`` on the angles (missing angles 0) is applied as the torque ``τ = J⁻ᵀ · τ_rpy``
(J at the angles at the start of the control period, held over it), each component clamped to
the coordinate's effort limit by its actuator. Where ``|cos pitch|`` < :data:`LOCK_COS`,
``J⁻ᵀ`` does not exist (a torque about the child's x and the parent's z both turn roll and yaw
only, together): the ball is left free (τ = 0) while there, and a warning names the joint, the
pitch and the fix (turn the joint frame so that the working pitch is away from ±π/2). Position
and velocity commands on ball coordinates are not supported: the ball is left free (τ = 0), with
a warning naming the joint (use effort commands). An idle ball is free (the hardware layer's
rule for multi-freedom joints: :func:`~sdf_bridge.description.coordinates.free_when_idle`).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence

import mujoco
import numpy as np

from ...description.coordinates import ball_angles, ball_rate_matrix
from .builder import BuiltModel
from .cycle import EFFORT, FEEDFORWARD, MODE, NONE, PASSIVE

_LOG = logging.getLogger(__name__)

LOCK_COS = 1e-3
"""``|cos pitch|`` under which a ball's angle rates are not computed (the last ones are kept)
and effort commands are not applied (the ball is free): within 0.057° of gimbal lock."""


def quat_matrix(quat: np.ndarray) -> np.ndarray:
    """The rotation matrix (3, 3) of a MuJoCo quaternion ``quat`` (w, x, y, z; normalised)."""
    out = np.empty(9)
    mujoco.mju_quat2Mat(out, np.asarray(quat, dtype=float) / np.linalg.norm(quat))
    return out.reshape(3, 3)


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

    def reset(self, qpos: np.ndarray, position: Mapping[str, float], names: Sequence[str]) -> None:
        """After a reset of the state (:func:`.initial_state.reset_state`): the angles published
        last are the initial ``position`` of the coordinates (``names`` = the map joints;
        missing ones 0) when they describe the joint's quaternion, else those nearest 0; the
        rates 0; warnings may be given again."""
        for b, cols in enumerate(self.columns):
            given = np.array([float(position.get(names[c], 0.0)) for c in cols])
            self.angles[b] = ball_angles(given, self.rotation(b, qpos))
        self.rates[:] = 0.0
        self._warned.clear()

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
        gainprm: np.ndarray,
        biasprm: np.ndarray,
        act_ids: np.ndarray,
    ) -> None:
        """Write the balls' actuators for the next physics steps from the joint table's
        command (``tab`` rows ``MODE``, ``FEEDFORWARD``, ``PASSIVE``; ``act_ids`` the map
        joints' actuator ids): the torque of the effort command at the angles now (from
        ``qpos``, continuing the ones published last), 0 where not defined (see the module
        docstring)."""
        for b, cols in enumerate(self.columns):
            mode = tab[MODE, cols]
            tau_rpy = np.where(
                (mode == EFFORT) & (tab[PASSIVE, cols] == 0.0), tab[FEEDFORWARD, cols], 0.0
            )
            tau_rpy = np.where(np.isfinite(tau_rpy), tau_rpy, 0.0)
            other = (mode != EFFORT) & (mode != NONE)
            if other.any():
                self._warn(
                    b,
                    "mode",
                    f"ball joint {self.names[b]!r}: position and velocity commands on its "
                    "roll/pitch/yaw are not supported; the ball is left free (torque 0). Fix: "
                    "command its coordinates' effort",
                )
            self.angles[b] = ball_angles(self.angles[b], self.rotation(b, qpos))
            roll, pitch = self.angles[b, 0], self.angles[b, 1]
            tau = np.zeros(3)
            if tau_rpy.any():
                if abs(math.cos(pitch)) < LOCK_COS:
                    self._warn(
                        b,
                        "lock",
                        f"ball joint {self.names[b]!r} is at gimbal lock (pitch {pitch:.6g} "
                        f"rad, |cos pitch| < {LOCK_COS}): an effort on its roll/pitch/yaw has "
                        "no torque there; the ball is left free until it leaves the lock. Fix: "
                        "turn the joint frame (<joint><pose>) so that the working pitch is away "
                        "from ±π/2",
                    )
                else:
                    tau = np.linalg.solve(ball_rate_matrix(roll, pitch).T, tau_rpy)
                    self._warned.discard((self.names[b], "lock"))
            ids = act_ids[cols]
            gainprm[ids, 0] = 0.0
            biasprm[ids, 0] = tau
            biasprm[ids, 1] = 0.0
            biasprm[ids, 2] = 0.0

    def _warn(self, b: int, kind: str, message: str) -> None:
        """Log ``message`` once per ball and ``kind`` until it is cleared."""
        key = (self.names[b], kind)
        if key not in self._warned:
            self._warned.add(key)
            _LOG.warning(message)


__all__ = ["LOCK_COS", "BallCoordinates", "matrix_quat", "quat_matrix"]
