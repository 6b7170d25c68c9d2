"""Joint wrench feedback: the wrench a joint transmits from its parent to its child, from
MuJoCo's constraint and internal forces (Gazebo's ``Joint::GetForceTorque``).

Convention (Gazebo's ``JointWrench`` ``body2Force`` / ``body2Torque``): the force and torque the
joint exerts *on the child link* (parent → child), expressed in the joint frame as attached to
the child (origin at the joint, axes of the joint frame; for a URDF joint this is the child link
frame), the torque taken about the joint origin. It carries everything the child subtree needs
beyond what acts on it directly: at rest, its weight (a body hanging from a fixed joint: force
= +m·g up) and the moment of that weight about the joint (a horizontal arm of mass m at lever
arm L: ``|torque| = m·g·L`` about the joint axis when a motor or a stop holds it).

How: :func:`mujoco.mj_rnePostConstraint` fills ``data.cfrc_int`` (per body, the spatial force
[torque, force] the parent exerts on the body's subtree, world orientation, torque about the
subtree centre of mass of the body's tree root, ``data.subtree_com[body_rootid]``), whose moment
is carried to the joint origin and both rotated into the joint frame
(:func:`joint_wrench`). It is what MuJoCo's ``force`` / ``torque`` sensors read at a site.

Links without gravity (``<gravity>false</gravity>``, Gazebo's ``<turnGravityOff>``) are bodies
with MuJoCo's ``gravcomp`` (:mod:`.builder`): MuJoCo cancels their weight with a generalized
force (``qfrc_gravcomp``), which ``cfrc_int`` does not count, so ``cfrc_int`` of a subtree at
rest still holds its weight. :func:`joint_wrench` subtracts, for each body ``b`` of the child's
subtree, the compensating force ``-gravcomp_b · m_b · g`` (up) applied at its centre of mass
(``xipos``), as Gazebo, where such a link has no weight to carry: a gravity-off link at rest
with no effort reads a zero wrench (a fractional ``gravcomp`` removes that fraction).

Joints imposed kinematically (``position_mode: ideal``, :mod:`.ideal`) are not moved by forces:
MuJoCo's ``qacc`` there is the free fall the next step undoes. :meth:`JointWrenches.read`
computes the wrenches with the imposed acceleration instead, zero at those joints (they end each
period at rest), so a joint held in ideal mode carries the holding load as in ``pid`` mode (the
other joints' accelerations stay MuJoCo's: exact at rest, approximate while moving).

Fixed joints are supported: the builder keeps a link on a fixed joint as a body of its own
(:mod:`.builder`), so its ``cfrc_int`` is the fixed joint's load. A joint whose child is the
world body (a ``world`` link) carries nothing measurable: it is skipped with a warning.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

import mujoco
import numpy as np

from ...description.feedback import feedback_joints, feedback_skips, reading_name
from ...description.model import Robot
from ..sensor_readings import WrenchReading
from .builder import BuiltModel

if TYPE_CHECKING:
    from .ideal import IdealJoints

_LOG = logging.getLogger(__name__)


def compensated_bodies(model: mujoco.MjModel, body: int) -> np.ndarray:
    """The ids of the bodies of ``body``'s subtree (``body`` included) whose weight MuJoCo
    compensates (``body_gravcomp`` ≠ 0, massive), for :func:`joint_wrench`."""
    parent = model.body_parentid
    ids = []
    for b in range(body, model.nbody):  # (a subtree's bodies follow its root in id order)
        a = b
        while a > body:
            a = parent[a]
        if a == body and model.body_gravcomp[b] != 0.0 and model.body_mass[b] > 0.0:
            ids.append(b)
    return np.asarray(ids, dtype=int)


def joint_wrench(
    model: mujoco.MjModel,
    data: mujoco.MjData,
    body: int,
    frame: np.ndarray,
    compensated: np.ndarray | None = None,
) -> WrenchReading:
    """The wrench (N, N·m) that ``body``'s parent exerts on ``body``'s subtree, expressed in
    ``frame`` ((4, 4) pose in the body frame) with the torque about its origin.

    ``compensated``: the subtree's bodies with ``gravcomp`` (:func:`compensated_bodies`,
    computed here when ``None``), whose compensating force (``-gravcomp · m · g`` at their
    centre of mass, which ``cfrc_int`` leaves out) the parent does not have to carry (module
    doc). ``data.cfrc_int`` must be current: call :func:`mujoco.mj_rnePostConstraint` after
    the last ``mj_step``/``mj_forward`` first (:meth:`JointWrenches.read` does).
    """
    rot_b = data.xmat[body].reshape(3, 3)
    rot = rot_b @ frame[:3, :3]  # the frame's world orientation
    origin = data.xpos[body] + rot_b @ frame[:3, 3]  # its world position
    torque_c, force = data.cfrc_int[body, :3], data.cfrc_int[body, 3:]
    com = data.subtree_com[model.body_rootid[body]]
    torque = torque_c + np.cross(com - origin, force)  # moment carried to the frame origin
    if compensated is None:
        compensated = compensated_bodies(model, body)
    if len(compensated):  # the gravcomp forces (up) the subtree gets besides its parent's
        lift = -np.outer(
            model.body_gravcomp[compensated] * model.body_mass[compensated], model.opt.gravity
        )
        force = force - lift.sum(axis=0)
        torque = torque - np.cross(data.xipos[compensated] - origin, lift).sum(axis=0)
    f, t = (rot.T @ force).tolist(), (rot.T @ torque).tolist()
    return WrenchReading((f[0], f[1], f[2]), (t[0], t[1], t[2]))


class JointWrenches:
    """The joints of a robot whose wrench is read
    (:func:`~sdf_bridge.description.feedback.feedback_joints`), made by :meth:`attach` before
    compiling, bound by :meth:`bind`.

    Attributes:
        names: reading name (``joint_wrench/<joint>``) → (child body name, joint frame in the
            child body (4, 4)).
        unsupported: one message per feedback joint that is not read (warned once).
    """

    def __init__(self) -> None:
        self.names: dict[str, tuple[str, np.ndarray]] = {}
        self.unsupported: list[str] = []
        self._bodies: list[tuple[str, int, np.ndarray, np.ndarray]] = []
        self._model: mujoco.MjModel | None = None
        self._data: mujoco.MjData | None = None

    @classmethod
    def attach(cls, robot: Robot, built: BuiltModel) -> JointWrenches:
        """The feedback joints of ``robot`` placed on the bodies of ``built``."""
        out = cls()
        for message in feedback_skips(robot):
            _LOG.warning(message)
        for joint_name in feedback_joints(robot):
            joint = robot.joints[joint_name]
            body = built.link_body.get(joint.child)
            if body is None or body == "world":
                why = "its child is the world body" if body else "its child is not simulated"
                message = f"joint {joint_name!r}: {why}; its wrench feedback is not published"
                out.unsupported.append(message)
                _LOG.warning(message)
                continue
            out.names[reading_name(joint_name)] = (
                body,
                np.linalg.inv(joint.joint_to_child.matrix()),
            )
        return out

    def bind(self, model: mujoco.MjModel, data: mujoco.MjData) -> None:
        """Resolve the body ids in the compiled ``model``."""
        self._model, self._data = model, data
        self._bodies = []
        for name, (body, frame) in self.names.items():
            body_id = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, body)
            self._bodies.append((name, body_id, frame, compensated_bodies(model, body_id)))

    def read(
        self, demand: frozenset[str] | None = None, ideal: IdealJoints | None = None
    ) -> Mapping[str, WrenchReading]:
        """The wrench of each feedback joint (those in ``demand`` when it is not ``None``) at
        the current state: one :func:`mujoco.mj_rnePostConstraint` then :func:`joint_wrench`
        each; an empty dict (no MuJoCo call) when none is wanted. ``ideal``: the backend's
        kinematically imposed joints (ideal position mode), whose acceleration is taken as 0
        (module doc; ``data.qacc`` is restored afterwards); asked only when a wrench is read."""
        wanted = [b for b in self._bodies if demand is None or b[0] in demand]
        if not wanted:
            return {}
        model, data = self._model, self._data
        assert model is not None and data is not None
        imposed = ideal.imposed_dofs() if ideal is not None else None
        if imposed is not None and len(imposed):
            kept = data.qacc[imposed].copy()
            data.qacc[imposed] = 0.0
            mujoco.mj_rnePostConstraint(model, data)
            data.qacc[imposed] = kept
        else:
            mujoco.mj_rnePostConstraint(model, data)
        return {
            name: joint_wrench(model, data, body, frame, compensated)
            for name, body, frame, compensated in wanted
        }
