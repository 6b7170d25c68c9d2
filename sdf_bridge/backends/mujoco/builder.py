"""Robot → ``mujoco.MjSpec``: bodies, inertials, geoms, joints, stops and couplings.

One MuJoCo body per link (named as the link), nested as the kinematic tree; a link on a fixed
joint is a body without joints (MuJoCo welds it to its parent, so its frame, mass and sensors
stay addressable). Root links (one in a URDF; an SDFormat model may have several unjoined
ones) are welded to the world when ``fixed_base`` (default) or get a free joint; a root link
named ``world`` *is* the MuJoCo world body.

Mappings (documented defaults, logged once per model):

* Mass properties (``<inertial>``, its defaults and repairs): :mod:`.inertials`.
* Universal/revolute2 joints whose two axes are parallel get an armature of
  :data:`DEFAULT_INERTIA` on both hinges (else the mass matrix is singular), with a note.
* Joints: revolute/continuous → hinge (continuous unlimited), prismatic → slide, ball →
  MuJoCo's native ball joint (a quaternion; its ``<dynamics>`` damping on its three dofs; its
  roll, pitch, yaw coordinates are computed from the quaternion, :mod:`.balls`: three hinges
  would lock at pitch ±π/2, :mod:`sdf_bridge.description.coordinates`),
  floating → free (root) or three slides + ball (nested), planar → two slides + hinge,
  universal/revolute2 → two hinges, screw → hinge + slide coupled by the thread pitch, fixed →
  no joint; gearbox → a coupling (see :func:`.couplings.add_gearboxes`: the loop form couples
  the two revolute joints from the reference body, the tree form is a coupled hinge).
  Extra MuJoCo joints of multi-DOF joints are named ``<joint>__<suffix>``.
* A link without gravity (``Link.gravity`` false: SDFormat ``<gravity>false</gravity>``,
  Gazebo's ``<turnGravityOff>``) gets MuJoCo's ``gravcomp`` 1 (its weight compensated).
* ``<dynamics>``: damping → ``damping``, friction → ``frictionloss``, spring stiffness and
  reference → ``stiffness`` and ``springref``; ``armature`` from the parameters.
* Limits: ``range`` with ``limited`` when both bounds are given, a rigid stop
  (:func:`rigid_stop`: the stiffest MuJoCo integrates stably). SDFormat stop stiffness ``k``
  (N·m/rad or N/m) and dissipation ``b`` (N·m·s/rad or N·s/m): see :func:`stop_solver_params`.
  A stop too stiff to integrate at the timestep (SDFormat's default ``k`` = 1e8 is one) keeps
  the rigid stop, like URDF joints (noted).
* Mimic joints, gearboxes and screws: couplings ``q_follower = offset + multiplier · q_leader``
  (tendon equalities: :func:`.couplings.add_coupling`).

Shapes, meshes and collision filtering: :mod:`.geoms`; the other models of an SDFormat world
(``Robot.scenery``): :mod:`.scenery`.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

import mujoco
import numpy as np

from ...description.coordinates import SDF_DEFAULT_AXIS2, coordinate_names
from ...description.inertia import DEFAULT_INERTIA
from ...description.kinematics import joint_transform, screw_lead, tree_edges
from ...description.model import Dynamics, Joint, JointType, Limit, Pose, Robot
from ...description.scope import owner as owner_of
from ...errors import BackendError, ModelTooLargeError
from .couplings import add_coupling, add_gearboxes, add_mimics
from .geoms import (
    GROUND_CONAFFINITY,
    GROUND_CONTYPE,
    GROUND_NAME,
    MeshLoader,
    add_geom,
    penetration,
    set_frame,
    z_to,
)
from .inertials import note_defaulted, set_inertial
from .scenery import add_scenery

_LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class BuildOptions:
    """How to build the model.

    Attributes:
        timestep: physics step in s (> 0).
        gravity: m/s² in the world frame.
        fixed_base: weld the root link to the world (else a free joint).
        ground_plane: add an infinite plane z = 0 in the world (not for a robot of an SDFormat
            world, ``Robot.world``: the world's own models are its ground).
        visual_geoms: add visual geoms (rendered only: contype/conaffinity 0).
        self_collide: let robot collision geoms collide with each other.
        armature: joint name → armature (rotor inertia reflected, kg·m² or kg); missing = 0.
        base_pose: pose of the model frame in the world (root links sit at their SDFormat
            ``Link.pose`` in it; a URDF root at its origin); ``None`` = the model's pose.
        lift_above_ground: with a ground plane, raise the root so that the lowest collision
            geom of the initial configuration is at z ≥ 0 (like spawning a model above the
            ground in Gazebo), instead of starting in deep penetration. Not for several robots
            (``Robot.robots``): each stands at the pose it was placed at.
        max_bodies: the most bodies (links) a model may have: :func:`build_spec` refuses a
            bigger one (:class:`~sdf_bridge.errors.ModelTooLargeError`) before building it
            (compiling a 10,000-link model took over 7 minutes and 7 GB).
    """

    timestep: float = 0.001
    gravity: tuple[float, float, float] = (0.0, 0.0, -9.81)
    fixed_base: bool = True
    ground_plane: bool = True
    visual_geoms: bool = True
    self_collide: bool = False
    armature: Mapping[str, float] = field(default_factory=dict)
    base_pose: Pose | None = None
    lift_above_ground: bool = True
    max_bodies: int = 1000


@dataclass
class JointSlots:
    """Where a description joint lives in MuJoCo.

    Attributes:
        name: description joint name.
        type: its type.
        mj_joints: MuJoCo joint names (first = the joint's primary DOF when it has one; for
            universal and revolute2 joints, one hinge per coordinate in coordinate index
            order; a ball joint's one ``mjJNT_BALL`` joint carries its three coordinates).
        qpos: qpos addresses of ``mj_joints`` (first element of each).
        dof: dof addresses of ``mj_joints`` (first element of each).
        frame: of a ball joint, the rotation (3, 3) of its joint frame in the child body's
            frame ``C`` (MuJoCo's ball quaternion turns the body: the joint frame turns by
            ``Cᵀ · R(q) · C`` and its angular velocity is ``Cᵀ · qvel``); ``None`` otherwise.
    """

    name: str
    type: JointType
    mj_joints: list[str] = field(default_factory=list)
    qpos: list[int] = field(default_factory=list)
    dof: list[int] = field(default_factory=list)
    frame: np.ndarray | None = None


@dataclass
class BuiltModel:
    """Result of :func:`build_spec` (+ :func:`compile_model`).

    Attributes:
        spec: the MjSpec (sensors may add sites/cameras before compiling).
        model: the compiled model (``None`` until :func:`compile_model`).
        link_body: link name → MuJoCo body name (``"world"`` for a ``world`` root link).
        joints: description joint → :class:`JointSlots` (fixed joints excluded).
        coordinates: coordinate name (:mod:`sdf_bridge.description.coordinates`: a 1-DOF joint,
            ``<joint>/axis1``, ``<joint>/axis2``, or a ball's ``<joint>/roll``, ``/pitch``,
            ``/yaw``) → (description joint, index into its :class:`JointSlots` lists; of a
            ball, the coordinate's index, all three on its one MuJoCo joint).
        notes: warnings/notes emitted while building (also logged).
    """

    spec: mujoco.MjSpec
    model: mujoco.MjModel | None = None
    link_body: dict[str, str] = field(default_factory=dict)
    joints: dict[str, JointSlots] = field(default_factory=dict)
    coordinates: dict[str, tuple[str, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    _stops: list[tuple[str, float, float]] = field(default_factory=list)
    _root_bodies: list[str] = field(default_factory=list)
    _lift: bool = False

    def note(self, message: str, *, warning: bool = True) -> None:
        """Record and log a build note."""
        self.notes.append(message)
        (_LOG.warning if warning else _LOG.info)(message)

    def mj_joint(self, name: str) -> str:
        """The MuJoCo joint of coordinate ``name`` (``KeyError`` when it has none; a ball
        coordinate's is the ball joint)."""
        joint, k = self.coordinates[name]
        slots = self.joints[joint]
        return slots.mj_joints[0 if slots.type is JointType.BALL else k]

    def address(self, name: str) -> tuple[int, int] | None:
        """The ``qpos`` and ``qvel`` addresses of coordinate ``name`` (after
        :func:`compile_model`), ``None`` when it is not a simulated coordinate. A ball
        coordinate (index k) gives its ball joint's quaternion address (not the coordinate's
        value: :mod:`.balls` computes it) and dof ``k`` of the joint (the angular velocity
        about the child's joint axis x, y or z)."""
        found = self.coordinates.get(name)
        if found is None:
            return None
        slots, k = self.joints[found[0]], found[1]
        if slots.type is JointType.BALL:
            return slots.qpos[0], slots.dof[0] + k
        return slots.qpos[k], slots.dof[k]

    def ball_axis(self, name: str) -> tuple[float, float, float] | None:
        """The axis (child body frame) of ball coordinate ``name``: x, y or z of the ball's
        joint frame (roll, pitch, yaw; :data:`~sdf_bridge.description.coordinates.BALL_AXES`);
        ``None`` for any other coordinate."""
        if not self.is_ball(name):
            return None
        joint, k = self.coordinates[name]
        frame = self.joints[joint].frame
        assert frame is not None
        x, y, z = (float(v) for v in frame[:, k])
        return (x, y, z)

    def is_ball(self, name: str) -> bool:
        """Whether coordinate ``name`` is an angle of a ball joint (computed, :mod:`.balls`)."""
        found = self.coordinates.get(name)
        return found is not None and self.joints[found[0]].type is JointType.BALL


def _unit(joint: Joint, which: str = "axis") -> np.ndarray:
    axis = getattr(joint, which)
    vec = np.asarray(axis.xyz if axis is not None else (1.0, 0.0, 0.0), dtype=float)
    norm = float(np.linalg.norm(vec))
    if norm == 0.0:
        raise BackendError(f"joint {joint.name!r} has a zero {which}; give a non-zero axis xyz")
    return vec / norm


def _perpendicular_pair(normal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rot = z_to(normal)
    return rot[:, 0], rot[:, 1]


class _JointMaker:
    """Adds the MuJoCo joints of one description joint to its child body."""

    def __init__(self, built: BuiltModel, options: BuildOptions) -> None:
        self.built = built
        self.options = options

    def add(self, body: mujoco.MjsBody, joint: Joint) -> None:
        """Add MuJoCo joints for ``joint`` on ``body`` (the child link's body)."""
        jtype = joint.type
        if jtype is JointType.FIXED:
            return
        # joint frame expressed in the child body frame
        j_in_child = np.linalg.inv(joint.joint_to_child.matrix())
        rot, pos = j_in_child[:3, :3], [float(v) for v in j_in_child[:3, 3]]
        slots = JointSlots(joint.name, jtype)
        self.built.joints[joint.name] = slots
        if jtype.dof == 1 or jtype in (JointType.UNIVERSAL, JointType.REVOLUTE2, JointType.BALL):
            for k, name in enumerate(coordinate_names(joint)):
                self.built.coordinates[name] = (joint.name, k)
        hinge, slide = mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE

        def make(name: str, mjtype: int, axis: np.ndarray | None = None) -> mujoco.MjsJoint:
            mj = body.add_joint(name=name, type=mjtype, pos=pos)
            if axis is not None:
                mj.axis = [float(v) for v in rot @ axis]
            mj.armature = float(self.options.armature.get(joint.name, 0.0))
            slots.mj_joints.append(name)
            return mj

        if jtype in (JointType.REVOLUTE, JointType.CONTINUOUS, JointType.GEARBOX):
            mj = make(joint.name, hinge, _unit(joint))
            self._dynamics(mj, joint, joint.dynamics)
            if jtype is JointType.REVOLUTE:
                self._limits(mj, joint, joint.limit)
        elif jtype is JointType.PRISMATIC:
            mj = make(joint.name, slide, _unit(joint))
            self._dynamics(mj, joint, joint.dynamics)
            self._limits(mj, joint, joint.limit)
        elif jtype is JointType.SCREW:
            mj = make(joint.name, hinge, _unit(joint))
            self._dynamics(mj, joint, joint.dynamics)
            self._limits(mj, joint, joint.limit)
            make(f"{joint.name}__slide", slide, _unit(joint))
            add_coupling(
                self.built.spec,
                f"{joint.name}__slide",
                joint.name,
                _screw_lead(joint),
                0.0,
                self.options.timestep,
            )
        elif jtype is JointType.BALL:
            mj = make(joint.name, mujoco.mjtJoint.mjJNT_BALL)
            slots.frame = np.array(rot, dtype=float)
            if joint.dynamics is not None:
                mj.damping = _poly(float(joint.dynamics.damping))
        elif jtype is JointType.FLOATING:
            for suffix, axis in (("x", (1, 0, 0)), ("y", (0, 1, 0)), ("z", (0, 0, 1))):
                make(f"{joint.name}__{suffix}", slide, np.asarray(axis, dtype=float))
            make(f"{joint.name}__rot", mujoco.mjtJoint.mjJNT_BALL)
        elif jtype is JointType.PLANAR:
            normal = _unit(joint)
            u, v = _perpendicular_pair(normal)
            make(f"{joint.name}__x", slide, u)
            make(f"{joint.name}__y", slide, v)
            mj = make(joint.name, hinge, normal)
            slots.mj_joints.insert(0, slots.mj_joints.pop())  # primary DOF first
        elif jtype in (JointType.UNIVERSAL, JointType.REVOLUTE2):
            mj = make(joint.name, hinge, _unit(joint))
            self._dynamics(mj, joint, joint.dynamics)
            self._limits(mj, joint, joint.limit)
            axis2 = _unit(joint, "axis2") if joint.axis2 else np.array(SDF_DEFAULT_AXIS2)
            mj2 = make(f"{joint.name}__axis2", hinge, axis2)
            self._dynamics(mj2, joint, joint.dynamics2)
            self._limits(mj2, joint, joint.limit2)
            if abs(float(np.dot(axis2, _unit(joint)))) > 1.0 - 1e-9:
                self.built.note(
                    f"joint {joint.name!r}: axis and axis2 are parallel (redundant hinges); "
                    f"armature {DEFAULT_INERTIA} added to both to keep the mass matrix regular"
                )
                mj.armature = max(mj.armature, DEFAULT_INERTIA)
                mj2.armature = max(mj2.armature, DEFAULT_INERTIA)
        else:  # pragma: no cover - JointType is closed
            raise BackendError(
                f"joint {joint.name!r}: type {jtype} is not supported by the MuJoCo backend"
            )

    def _dynamics(self, mj: mujoco.MjsJoint, joint: Joint, dynamics: Dynamics | None) -> None:
        """damping (N·m·s/rad or N·s/m) → ``damping``, friction (N·m or N) → ``frictionloss``,
        spring stiffness (N·m/rad or N/m) and reference (rad or m) → ``stiffness``,
        ``springref``."""
        if dynamics is None:
            return
        mj.damping = _poly(float(dynamics.damping))
        mj.frictionloss = float(dynamics.friction)
        if dynamics.spring_stiffness:
            mj.stiffness = _poly(float(dynamics.spring_stiffness))
            mj.springref = float(dynamics.spring_reference)

    def _limits(self, mj: mujoco.MjsJoint, joint: Joint, limit: Limit | None) -> None:
        """Position stop ``range = (lower, upper)`` when both bounds are given and lower < upper
        (else unlimited, noted when they do not bound an interval); SDFormat stop stiffness and
        dissipation are kept for :func:`compile_model`'s solref pass."""
        if limit is None or limit.lower is None or limit.upper is None:
            mj.limited = mujoco.mjtLimited.mjLIMITED_FALSE
            return
        lower, upper = float(limit.lower), float(limit.upper)
        if not lower < upper:
            self.built.note(
                f"joint {joint.name!r}: limits lower={lower} upper={upper} do not bound an "
                "interval; the joint is simulated without a position stop"
            )
            mj.limited = mujoco.mjtLimited.mjLIMITED_FALSE
            return
        mj.limited = mujoco.mjtLimited.mjLIMITED_TRUE
        mj.range = [lower, upper]
        mj.solref_limit, mj.solimp_limit = rigid_stop(self.options.timestep)
        k, b = limit.stiffness, limit.dissipation
        if k is not None and k > 0.0:
            self.built._stops.append((mj.name, float(k), float(b or 0.0)))


def _poly(linear: float) -> list[float]:
    """MuJoCo ≥ 3.4 joint damping/stiffness are polynomial coefficients; the linear one first."""
    return [linear, 0.0, 0.0]


def _screw_lead(joint: Joint) -> float:
    """Translation per rotation of a screw joint, m/rad
    (:func:`~sdf_bridge.description.kinematics.screw_lead`), non-zero.

    Raises:
        BackendError: no thread pitch, or one that gives no translation.
    """
    lead = screw_lead(joint)
    if lead is None or lead == 0.0:
        raise BackendError(
            f"screw joint {joint.name!r} has no non-zero thread pitch; give <screw_thread_pitch>"
        )
    return lead


def build_spec(robot: Robot, options: BuildOptions = BuildOptions()) -> BuiltModel:
    """Build the MjSpec of ``robot`` (not compiled: sensors may still add sites).

    Raises:
        ModelTooLargeError: more links than ``options.max_bodies``.
        BackendError: unsupported content (zero axis, screw joint without pitch, bad options),
            naming the joint or link.
    """
    if not options.timestep > 0.0:
        raise BackendError(f"timestep must be > 0 s, got {options.timestep}")
    if len(robot.links) > options.max_bodies:
        raise ModelTooLargeError(
            f"the model of {robot.name!r} has {len(robot.links)} bodies (links), over the "
            f"MuJoCo backend's cap of {options.max_bodies}. Fix: raise the cap with "
            f"backend_params.max_bodies (e.g. -p backend_params.max_bodies:={len(robot.links)}) "
            "if this machine can compile a model that large (10,000 bodies took over 7 minutes "
            "and 7 GB), or simulate a smaller model"
        )
    spec = mujoco.MjSpec()
    spec.modelname = robot.name or "robot"
    spec.compiler.inertiafromgeom = mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_FALSE
    spec.compiler.balanceinertia = True
    spec.compiler.autolimits = False
    spec.compiler.degree = False
    spec.option.timestep = options.timestep
    spec.option.gravity = list(options.gravity)
    spec.option.integrator = mujoco.mjtIntegrator.mjINT_IMPLICITFAST
    built = BuiltModel(spec=spec)
    meshes = MeshLoader(spec, built.note)
    world = spec.worldbody
    ground = options.ground_plane and robot.world is None  # a world has its own ground, or none
    if ground:
        world.add_geom(
            name=GROUND_NAME,
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            size=[0, 0, 1],
            contype=GROUND_CONTYPE,
            conaffinity=GROUND_CONAFFINITY,
            rgba=[0.5, 0.5, 0.5, 1],
        )
        world.add_light(pos=[0, 0, 5], dir=[0, 0, -1], type=mujoco.mjtLightType.mjLIGHT_DIRECTIONAL)

    joints_maker = _JointMaker(built, options)
    # several robots (Robot.robots) touch each other: their geoms collide, pairs of one robot's
    # bodies are excluded below unless self_collide
    collide = options.self_collide or bool(robot.robots)
    defaulted: list[str] = []
    sdf_defaulted: list[str] = []
    no_gravity: list[str] = []
    bodies: dict[str, mujoco.MjsBody] = {}
    order, loops = tree_edges(robot)
    for link_name, parent_joint in order:
        link = robot.links[link_name]
        if parent_joint is None:
            if link_name == "world":
                body = world
                built.link_body[link_name] = "world"
            else:
                body = world.add_body(name=link_name)
                base = options.base_pose if options.base_pose is not None else robot.pose
                frame = base.matrix() if link.pose is None else base.matrix() @ link.pose.matrix()
                set_frame(body, frame)
                built._root_bodies.append(link_name)
                # several robots stand where their poses place them (no lift)
                built._lift = ground and options.lift_above_ground and not robot.robots
                if not (options.fixed_base or robot.static):  # SDFormat <static> models never move
                    body.add_freejoint(name=f"{link_name}__free")
                    built.joints[f"{link_name}__free"] = JointSlots(
                        f"{link_name}__free", JointType.FLOATING, [f"{link_name}__free"]
                    )
        else:
            parent_body = bodies[parent_joint.parent]
            body = parent_body.add_body(name=link_name)
            set_frame(body, joint_transform(parent_joint, 0.0))
            if parent_joint.type is JointType.FLOATING and parent_body is world:
                body.add_freejoint(name=parent_joint.name)
                built.joints[parent_joint.name] = JointSlots(
                    parent_joint.name, JointType.FLOATING, [parent_joint.name]
                )
            else:
                joints_maker.add(body, parent_joint)
        bodies[link_name] = body
        built.link_body.setdefault(link_name, link_name)
        if body is world:
            continue
        set_inertial(body, link, built, defaulted, sdf_defaulted, robot.format == "sdf")
        if not link.gravity:
            body.gravcomp = 1.0  # MuJoCo cancels gravity on the body, as Gazebo's gravity switch
            no_gravity.append(link_name)
        for col in link.collisions:
            add_geom(
                body,
                col.geometry,
                col.origin,
                meshes,
                name=col.name,
                visual=False,
                rgba=None,
                self_collide=collide,
            )
        if options.visual_geoms:
            for vis in link.visuals:
                color = vis.material.color if vis.material is not None else None
                if (
                    color is None
                    and vis.material is not None
                    and vis.material.name in robot.materials
                ):
                    color = robot.materials[vis.material.name].color
                add_geom(
                    body,
                    vis.geometry,
                    vis.origin,
                    meshes,
                    name=vis.name,
                    visual=True,
                    rgba=color,
                    self_collide=False,
                )
    if robot.robots and not options.self_collide:
        _exclude_within_robots(spec, robot, built)
    moving = add_scenery(spec, robot, meshes, visual_geoms=options.visual_geoms)
    if moving:
        built.note(f"world model(s) {moving} are not the robot: simulated as fixed world geometry")
    if no_gravity:
        built.note(
            "link(s) without gravity (<gravity>false</gravity> / Gazebo's <turnGravityOff>): "
            f"{no_gravity}; MuJoCo compensates their weight (gravcomp)",
            warning=False,
        )
    note_defaulted(built, defaulted, sdf_defaulted)
    for joint in loops:
        if joint.type is not JointType.GEARBOX:
            built.note(f"joint {joint.name!r} closes a kinematic loop; it is not simulated")
    add_mimics(robot, built, options.timestep)
    add_gearboxes(robot, built, options.timestep, loops)
    return built


def _exclude_within_robots(spec: mujoco.MjSpec, robot: Robot, built: BuiltModel) -> None:
    """Exclude the contacts between two bodies of one robot of a simulation of several
    (``Robot.robots``; names scoped ``robot::link``), so that robots touch each other and the
    ground, and not themselves (``self_collide`` off, as for one robot). One exclusion per pair
    of a robot's bodies that hold collision geoms."""
    by_robot: dict[str, list[str]] = {}
    for link_name, body_name in built.link_body.items():
        link = robot.links[link_name]
        owner = owner_of(link_name, robot.robots)
        if owner is None or body_name == "world" or not link.collisions:
            continue
        by_robot.setdefault(owner, []).append(body_name)
    for bodies in by_robot.values():
        for i, first in enumerate(bodies):
            for second in bodies[i + 1 :]:
                spec.add_exclude(bodyname1=first, bodyname2=second)


RIGID_STOP_STEPS = 5.0
"""Time constant of a rigid joint stop in physics steps. MuJoCo accepts 2 (its ``refsafe`` rule
raises a smaller ``solref`` time constant to 2 steps), but at 2 a joint found 0.1 rad inside a
stop moved at run time (joint properties) is thrown 0.4 rad out of it and its PID's integral
left pressing; at 5 it comes out in 0.02 s without overshoot."""
RIGID_STOP_SOLIMP = (0.99, 0.99, 0.001, 0.5, 2.0)
"""MuJoCo ``solimp`` of a rigid joint stop: impedance 0.99 (MuJoCo's default 0.9–0.95 lets a
pushed joint sink further into its stop)."""


def rigid_stop(timestep: float) -> tuple[list[float], list[float]]:
    """MuJoCo ``(solref_limit, solimp_limit)`` of a joint's position stop without an SDFormat
    stop stiffness (URDF joints): a critically damped stop of time constant ``τ`` =
    :data:`RIGID_STOP_STEPS` × ``timestep`` (5 ms at the default 1 ms step) and impedance 0.99
    (:data:`RIGID_STOP_SOLIMP`).

    Why: the limiter clamps a position command at the limit, and a joint arriving there at its
    velocity limit ``v`` overshoots into the stop by up to ``v·τ/e`` (MuJoCo's reference
    dynamics ``r'' = −(2/τ)·r' − r/τ²`` from ``r' = v``; the PID's deceleration only lowers it).
    With MuJoCo's default ``τ`` = 0.02 s a 3.14 rad/s joint went 0.025 rad past its URDF limit
    (bound 3.58·0.02/e = 0.026), past ros2_control's 0.0087 rad out-of-bounds tolerance (the
    controller_manager then deactivates the controller); at ``τ`` = 5 ms 0.0042 rad (bound
    0.0066; ``test_a_command_beyond_a_limit_stops_at_the_limit_on_mujoco`` in
    ``test/hardware/test_system.py``), and at rest, pushed by the PID, 1e-4 rad instead of 2e-3.
    """
    return [RIGID_STOP_STEPS * float(timestep), 1.0], list(RIGID_STOP_SOLIMP)


STOP_IMPEDANCE = 0.01
"""Constant MuJoCo impedance ``d`` of SDFormat joint stops (see :func:`stop_solver_params`)."""
STOP_MAX_OMEGA_DT = 0.5
"""Largest ``ω·timestep`` (``ω = sqrt(k/M)``) and ``b/M·timestep`` of a stop simulated as a
spring."""


def stop_solver_params(
    k: float, b: float, inertia: float, timestep: float
) -> tuple[list[float], list[float]] | None:
    """MuJoCo ``(solref, solimp)`` making a joint stop a spring-damper of stiffness ``k`` and
    damping ``b`` (SDFormat ``<limit><stiffness>``, ``<dissipation>``), or ``None`` when that
    spring is too stiff to integrate stably at ``timestep`` (``ω·dt`` or ``b/M·dt`` above
    :data:`STOP_MAX_OMEGA_DT`).

    MuJoCo's limit row obeys ``a + d·(B·v + K·d·r) = (1 − d)·a₀`` with, for a negative solref,
    ``K = −solref[0]/d_max²`` and ``B = −solref[1]/d_max`` (MuJoCo documentation, "Solver
    parameters"; ``r`` the penetration, ``a₀`` the unconstrained acceleration). With a constant
    impedance ``d = d_max = D`` (:data:`STOP_IMPEDANCE`) and ``solref = (−(1 − D)·k/M,
    −(1 − D)·b/M)`` this is ``M·a = (1 − D)·(τ − k·r − b·v)``: the static penetration under a
    load ``τ`` is exactly ``τ/k``, the dynamics those of the spring-damper with the inertia ``M``
    raised by 1/(1 − D) (1 %).

    Args:
        k: N·m/rad or N/m (> 0). b: N·m·s/rad or N·s/m (≥ 0).
        inertia: the joint's effective inertia ``M`` (kg·m² or kg), MuJoCo's ``dof_M0``.
        timestep: physics step, s.
    """
    scale = (1.0 - STOP_IMPEDANCE) / inertia
    if (
        math.sqrt(k / inertia) * timestep > STOP_MAX_OMEGA_DT
        or scale * b * timestep > STOP_MAX_OMEGA_DT
    ):
        return None
    solimp = [STOP_IMPEDANCE, STOP_IMPEDANCE, 0.001, 0.5, 2.0]
    return [-scale * k, -scale * b], solimp


#: How often (s) the thread waiting for a compilation wakes up: a signal handler of the main
#: thread (SIGINT/SIGTERM, :mod:`sdf_bridge.app.stop_signals`) runs within this.
COMPILE_POLL = 0.05


def _yield_cpu(worker: threading.Thread) -> None:
    """Give an abandoned compilation's thread the lowest CPU priority (Linux: a thread's nice
    value is its own), so that it does not slow the process's exit on a busy machine (measured
    on 2 loaded cores: 1.3-1.8 s from the signal to the exit without this)."""
    native = getattr(worker, "native_id", None)
    if native is None or not hasattr(os, "setpriority"):
        return
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, native, 19)


#: Compilations a stop abandoned (:func:`compile_spec`), their threads possibly still running.
_ABANDONED: list[threading.Thread] = []


def compilation_abandoned() -> bool:
    """Whether a compilation a stop abandoned is still running (its daemon thread alive): the
    process must then end without the interpreter's finalisation (``os._exit``), which would
    stop the thread inside MuJoCo's C++ code."""
    return any(worker.is_alive() for worker in _ABANDONED)


def compile_spec(spec: mujoco.MjSpec) -> mujoco.MjModel:
    """``spec.compile()`` in a worker thread, the caller waiting in slices of
    :data:`COMPILE_POLL` s: MuJoCo compiles without the GIL, so the main thread's signal
    handlers run meanwhile and an exception they raise (the bridge's
    :class:`~sdf_bridge.app.stop_signals.StopRequested`) ends the wait at once. The abandoned
    compilation runs on in its daemon thread, at the lowest priority, until the process exits.

    Raises:
        ValueError: MuJoCo rejects the model (its own exception, re-raised here).
    """
    result: list[mujoco.MjModel] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(spec.compile())
        except BaseException as exc:  # handed to the waiting thread
            failure.append(exc)

    worker = threading.Thread(target=run, name="mujoco-compile", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(COMPILE_POLL)
    except BaseException:  # abandoned (a stop signal): let the process exit unhindered
        _yield_cpu(worker)
        _ABANDONED.append(worker)
        raise
    if failure:
        raise failure[0]
    return result[0]


def compile_model(built: BuiltModel) -> mujoco.MjModel:
    """Compile ``built.spec`` (:func:`compile_spec`: a signal can stop the wait); map SDFormat
    stop stiffness/dissipation to solref/solimp (second pass, needing ``dof_M0``:
    :func:`stop_solver_params`); lift the robot above the ground.

    Raises:
        BackendError: MuJoCo rejects the model (its message included).
    """
    try:
        model = compile_spec(built.spec)
        if built._stops:
            rigid = []
            for name, k, b in built._stops:
                jid = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, name)
                inertia = float(model.dof_M0[model.jnt_dofadr[jid]])
                params = stop_solver_params(k, b, inertia, float(model.opt.timestep))
                if params is None:
                    rigid.append(name)
                    continue
                joint = built.spec.joint(name)
                joint.solref_limit, joint.solimp_limit = params
            if rigid:
                built.note(
                    f"joint stop stiffness of {rigid} is too stiff for the timestep "
                    f"{model.opt.timestep} s (ω·dt > {STOP_MAX_OMEGA_DT}); a rigid stop "
                    "stop is used",
                    warning=False,
                )
            model = compile_spec(built.spec)
        if built._lift and built._root_bodies:
            depth = penetration(model)
            if depth > 0.0:
                for name in built._root_bodies:
                    body = built.spec.body(name)
                    pos = list(body.pos)
                    body.pos = [pos[0], pos[1], pos[2] + depth + 1e-3]
                built.note(
                    f"root link(s) {built._root_bodies} raised by {depth + 1e-3:.4f} m so that "
                    "the robot starts above the ground plane",
                    warning=False,
                )
                model = compile_spec(built.spec)
    except ValueError as exc:
        raise BackendError(
            f"MuJoCo cannot compile the model of {built.spec.modelname!r}: {exc}"
        ) from exc
    for slots in built.joints.values():
        ids = [mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, n) for n in slots.mj_joints]
        slots.qpos = [int(model.jnt_qposadr[i]) for i in ids]
        slots.dof = [int(model.jnt_dofadr[i]) for i in ids]
    built.model = model
    return model
