"""The simulated world as entities, the simulation's run state, and external wrenches: what the
ROS 2 standard simulation interfaces (``simulation_interfaces``, served by
:mod:`sdf_bridge.ros.simulation`) read and change in a MuJoCo simulation. ROS-free.

Entities (:meth:`World.entities`), named as the bridge names SDFormat scopes (``::``):

* ``<robot>``: the robot; its state is its root link's (the free-floating base, or the link
  welded to the world);
* ``<robot>::<link>``: each link of the robot that is a MuJoCo body (read only, except the
  free-floating root link, which is the robot);
* ``<model>``: each scenery model of the robot's SDFormat world (static: fixed world
  geometry, at rest at its world pose).

An :class:`EntityState` is expressed in the world frame: the pose of the entity's frame (the
link frame: origin and orientation) and the velocity of that origin and the angular velocity
now, and the accelerations of the last physics step (ground truth, gravity not included: a
body in free fall reads ``g``).

:meth:`World.set_state` teleports the free-floating base (pose and twist, the joints keep
their positions and velocities); any other entity is refused with a typed
:class:`EntityError` whose :attr:`~EntityError.reason` the service layer turns into the
standard's result code.

Run state (:class:`SimulationState`, the standard's values): playing, paused, or stopped —
paused at the state a stop reset to, until time advances or playing/pausing is asked
(:meth:`World.mark_stopped`, :meth:`World.simulation_state`); :func:`plan_transition` is the
one table of the standard's ``SetSimulationState`` transitions.

External wrenches (:meth:`World.apply_wrench`): a force and torque on a link, in the world
frame or the link's, acting at the link frame's origin, for a number of physics steps or until
cleared, through MuJoCo's ``xfrc_applied`` (a force at the body's centre of mass: the torque
is shifted by ``(origin − com) × F``), updated before every physics step while one acts
(:meth:`World.advance`, called by the backend in place of ``mj_step``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import mujoco
import numpy as np

from ...errors import BackendError
from ...util.clip import clip

if TYPE_CHECKING:  # pragma: no cover
    from .backend import MujocoBackend

QUATERNION_TOLERANCE = 1e-3
"""How far from 1 the norm of a requested orientation quaternion may be (it is normalised);
further, or not finite, the pose is invalid."""


class SimulationState(enum.IntEnum):
    """The run states of ``simulation_interfaces/msg/SimulationState`` (same values)."""

    STOPPED = 0
    PLAYING = 1
    PAUSED = 2
    QUITTING = 3


class Outcome(enum.Enum):
    """How a requested run-state change ends (:func:`plan_transition`)."""

    DONE = "done"  # the transition is made
    ALREADY = "already"  # already in the target state: nothing to do
    UNSUPPORTED = "unsupported"  # a target this simulator cannot be set to


@dataclass(frozen=True)
class Transition:
    """What :func:`plan_transition` asks for: pause (``True``/``False``, ``None``: unchanged),
    reset (the whole simulation, time included), and the outcome."""

    pause: bool | None
    reset: bool
    outcome: Outcome


def plan_transition(current: SimulationState, target: int) -> Transition:
    """The standard's ``SetSimulationState`` transition from ``current`` to ``target``:

    ========  ==================================  ======================================
    target    from another state                  from itself
    ========  ==================================  ======================================
    STOPPED   pause and reset (time 0)            ALREADY
    PLAYING   run                                 ALREADY
    PAUSED    pause (from STOPPED: paused at the  ALREADY
              reset state, no step taken)
    other     UNSUPPORTED (QUITTING, NO_WORLD,    UNSUPPORTED
              LOADING_WORLD: the bridge's world
              stays)
    ========  ==================================  ======================================
    """
    try:
        wanted = SimulationState(target)
    except ValueError:
        wanted = None
    if wanted not in (SimulationState.STOPPED, SimulationState.PLAYING, SimulationState.PAUSED):
        return Transition(None, False, Outcome.UNSUPPORTED)
    if wanted == current:
        return Transition(None, False, Outcome.ALREADY)
    if wanted == SimulationState.STOPPED:
        return Transition(True, True, Outcome.DONE)
    return Transition(wanted == SimulationState.PAUSED, False, Outcome.DONE)


class EntityError(BackendError):
    """An entity request the world cannot serve; :attr:`reason` says which kind:
    ``"not_found"`` (no such entity), ``"invalid_pose"`` (a non-finite value or a quaternion
    that is not a unit one), ``"static"`` (a twist for a static entity, or moving one),
    ``"not_finite"`` and ``"too_large"`` (a wrench's value, :meth:`World.apply_wrench`),
    ``"not_settable"`` (a link of the robot that is not its free-floating base, or the robot
    on a fixed base), ``"frame"`` (a reference frame other than the world)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        #: Which kind of request failed (see the class docstring).
        self.reason = reason


@dataclass(frozen=True)
class EntityState:
    """An entity's ground-truth state in the world frame (module doc).

    Attributes:
        position: (3,), m. orientation: (4,) quaternion (x, y, z, w).
        linear_velocity, angular_velocity: (3,), m/s and rad/s.
        linear_acceleration, angular_acceleration: (3,), m/s² and rad/s².
        sim_time: simulated time of the state, s.
    """

    position: np.ndarray
    orientation: np.ndarray
    linear_velocity: np.ndarray
    angular_velocity: np.ndarray
    linear_acceleration: np.ndarray
    angular_acceleration: np.ndarray
    sim_time: float


@dataclass(frozen=True)
class Entity:
    """One entity: its ``name``, ``kind`` (``"robot"``, ``"link"``, ``"scenery"``), MuJoCo
    ``body`` (-1 for scenery), the free joint's ``(qpos, dof)`` addresses when it is the
    free-floating base, and for scenery its fixed world ``pose`` (position, quaternion xyzw)."""

    name: str
    kind: str
    body: int
    free: tuple[int, int] | None = None
    pose: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def static(self) -> bool:
        """Whether it never moves (scenery)."""
        return self.kind == "scenery"


@dataclass
class _Wrench:
    body: int
    force: np.ndarray
    torque: np.ndarray
    local: bool
    remaining: int | None  # physics steps left; None: until cleared


#: A wrench is refused above this many g on the mass its link carries (and a torque above that
#: force × 1 m): 1e6 N on a 1 kg hand diverges MuJoCo, which resets the simulation.
MAX_WRENCH_G = 100.0
#: The least mass a wrench bound is computed on (kg): a massless link's bound is not 0.
MIN_WRENCH_MASS = 1.0
#: Standard gravity (m/s²) for :data:`MAX_WRENCH_G`.
GRAVITY = 9.80665


class World:
    """The entities, run state and wrenches of a configured :class:`MujocoBackend` (made by
    it at configure: ``backend.world``). Not thread-safe: the caller holds the hardware
    system's lock (:attr:`sdf_bridge.hardware.HardwareSystem.lock`)."""

    def __init__(self, backend: MujocoBackend) -> None:
        model, data = backend.model, backend.data
        assert model is not None and data is not None and backend.built is not None
        self.model, self.data, self._backend = model, data, backend
        robot = backend.robot
        free = {body: (adr, dof) for adr, dof, body in backend.free_roots}
        entities: dict[str, Entity] = {}
        try:
            root: str | None = robot.root_link
        except LookupError:
            root = None
        links = [
            (link, name)
            for link, name in backend.built.link_body.items()
            if name != "world" and mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, name) > 0
        ]
        root_body = self._root_body(model, links, root)
        if root_body is not None:
            body_name = model.body(root_body).name
            entities[robot.name] = Entity(robot.name, "robot", root_body, free.get(body_name))
        for link, name in links:
            body = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, name)
            scoped = f"{robot.name}::{link}"
            entities[scoped] = Entity(
                scoped, "link", body, free.get(name) if body == root_body else None
            )
        for scenery in robot.scenery:
            if scenery.name in entities:
                continue  # (a scenery model named as the robot: the robot keeps the name)
            quat = np.array(scenery.pose.quaternion, dtype=float)
            entities[scenery.name] = Entity(
                scenery.name, "scenery", -1, None, (np.array(scenery.pose.xyz, float), quat)
            )
        self._entities = entities
        self._wrenches: dict[int, _Wrench] = {}
        self._stopped_at: float | None = None

    @staticmethod
    def _root_body(
        model: mujoco.MjModel, links: Sequence[tuple[str, str]], root: str | None
    ) -> int | None:
        """The robot's root body: the root link's, else the first body on the world."""
        for link, name in links:
            if link == root:
                return mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, name)
        for body in range(1, model.nbody):
            if model.body_parentid[body] == 0:
                return body
        return None

    # -- entities -------------------------------------------------------------------------------
    def entities(self) -> tuple[str, ...]:
        """Every entity's name: the robot, its links, the scenery (module doc)."""
        return tuple(self._entities)

    def entity(self, name: str) -> Entity:
        """The entity called ``name``.

        Raises:
            EntityError: ``"not_found"``, naming the entities there are.
        """
        entity = self._entities.get(name)
        if entity is None:
            known = ", ".join(self._entities) or "none"
            raise EntityError(
                "not_found",
                f"no entity {clip(name)!r}; the entities are: {known} (GetEntities)",
            )
        return entity

    def state(self, name: str) -> EntityState:
        """The ground-truth state of entity ``name`` now, in the world frame (module doc).

        Raises:
            EntityError: ``"not_found"``.
        """
        entity = self.entity(name)
        model, data = self.model, self.data
        t = float(data.time)
        zero = np.zeros(3)
        if entity.body < 0:
            assert entity.pose is not None
            position, orientation = entity.pose
            return EntityState(position.copy(), orientation.copy(), zero, zero, zero, zero, t)
        body = entity.body
        q = data.xquat[body]
        velocity, acceleration = np.empty(6), np.empty(6)
        # after mj_step the poses are those the step started from: recompute them (and the
        # velocities) for the state now; these stages leave the dynamics' results alone
        mujoco.mj_kinematics(model, data)
        mujoco.mj_comPos(model, data)
        mujoco.mj_comVel(model, data)
        mujoco.mj_objectVelocity(model, data, mujoco.mjtObj.mjOBJ_XBODY, body, velocity, 0)
        mujoco.mj_rnePostConstraint(model, data)  # cacc, from the last step's qacc
        mujoco.mj_objectAcceleration(model, data, mujoco.mjtObj.mjOBJ_XBODY, body, acceleration, 0)
        return EntityState(
            data.xpos[body].copy(),
            np.array([q[1], q[2], q[3], q[0]]),
            velocity[3:].copy(),
            velocity[:3].copy(),
            acceleration[3:] + model.opt.gravity,  # (MuJoCo's includes −g, as an accelerometer)
            acceleration[:3].copy(),
            t,
        )

    def set_state(
        self,
        name: str,
        position: Sequence[float],
        orientation: Sequence[float],
        linear_velocity: Sequence[float] = (0.0, 0.0, 0.0),
        angular_velocity: Sequence[float] = (0.0, 0.0, 0.0),
    ) -> None:
        """Teleport the free-floating base (entity ``<robot>`` or ``<robot>::<root link>``):
        its link frame to ``position`` (m) and ``orientation`` (quaternion x, y, z, w; normalised
        when its norm is within :data:`QUATERNION_TOLERANCE` of 1), moving at
        ``linear_velocity`` (the origin's, m/s) and ``angular_velocity`` (rad/s), both in the
        world frame. The joints keep their state; the kinematics are recomputed at once.

        Raises:
            EntityError: ``"not_found"``; ``"invalid_pose"`` (non-finite value, not a unit
                quaternion); ``"static"`` (scenery); ``"not_settable"`` (another link, or the
                robot on a fixed base).
        """
        entity = self.entity(name)
        values = np.array(
            [*position, *orientation, *linear_velocity, *angular_velocity], dtype=float
        )
        if values.shape != (13,) or not np.all(np.isfinite(values)):
            raise EntityError(
                "invalid_pose",
                f"state of {name!r} has a value that is not a finite number (or not 3 + 4 + 3 "
                "+ 3 of them). Fix: send finite numbers",
            )
        quat = values[3:7]
        norm = float(np.linalg.norm(quat))
        if abs(norm - 1.0) > QUATERNION_TOLERANCE:
            raise EntityError(
                "invalid_pose",
                f"orientation of {name!r} is not a unit quaternion (norm {norm:.6g}). Fix: "
                "send x, y, z, w with x² + y² + z² + w² = 1",
            )
        if entity.static:
            raise EntityError(
                "static",
                f"{name!r} is static scenery of the world (MuJoCo world geometry): it cannot "
                "be moved or given a twist",
            )
        if entity.free is None:
            what = "the robot is on a fixed base" if entity.kind == "robot" else "a link"
            raise EntityError(
                "not_settable",
                f"{name!r} cannot be set ({what}): only the free-floating base "
                f"({self._free_name()}) is. Fix: command the joints, or use fixed_base:=false",
            )
        adr, dof = entity.free
        x, y, z, w = quat / norm
        data = self.data
        data.qpos[adr : adr + 3] = values[:3]
        data.qpos[adr + 3 : adr + 7] = (w, x, y, z)
        rot = np.empty(9)
        mujoco.mju_quat2Mat(rot, data.qpos[adr + 3 : adr + 7])
        data.qvel[dof : dof + 3] = values[7:10]
        data.qvel[dof + 3 : dof + 6] = rot.reshape(3, 3).T @ values[10:13]  # (the body frame's)
        mujoco.mj_forward(self.model, data)

    def _free_name(self) -> str:
        names = [e.name for e in self._entities.values() if e.free is not None]
        return " or ".join(repr(n) for n in names) if names else "none here"

    # -- run state ------------------------------------------------------------------------------
    @property
    def time(self) -> float:
        """Simulated time, s."""
        return float(self.data.time)

    def mark_stopped(self) -> None:
        """The simulation is stopped now (paused at its reset state): it reads
        ``SimulationState.STOPPED`` until time advances or :meth:`clear_stopped`."""
        self._stopped_at = float(self.data.time)

    def clear_stopped(self) -> None:
        """Playing or pausing was asked: no longer stopped."""
        self._stopped_at = None

    def simulation_state(self, paused: bool) -> SimulationState:
        """The run state, given whether physics is ``paused``."""
        if not paused:
            return SimulationState.PLAYING
        if self._stopped_at is not None and self._stopped_at == float(self.data.time):
            return SimulationState.STOPPED
        return SimulationState.PAUSED

    # -- wrenches -------------------------------------------------------------------------------
    def wrench_body(self, link: str) -> int:
        """The MuJoCo body of ``link`` (a link name, scoped ``<robot>::<link>`` or plain, or the
        robot's name for its root link).

        Raises:
            EntityError: ``"not_found"`` (no such link of the robot); ``"static"`` (scenery).
        """
        entity = self._entities.get(link) or self._entities.get(
            f"{self._backend.robot.name}::{link}"
        )
        if entity is None:
            self.entity(link)  # raises not_found, naming the entities
        assert entity is not None
        if entity.body < 0:
            raise EntityError("static", f"{link!r} is static scenery: no wrench moves it")
        return entity.body

    def apply_wrench(
        self,
        link: str,
        force: Sequence[float],
        torque: Sequence[float],
        *,
        local: bool = False,
        steps: int | None = None,
    ) -> None:
        """Apply ``force`` (N) and ``torque`` (N·m) to ``link`` at its frame's origin, expressed
        in the world frame (``local=False``) or the link's frame (``local=True``), for
        ``steps`` physics steps (``None``: until cleared). It replaces the link's previous
        wrench; an all-zero wrench clears it.

        Raises:
            EntityError: ``"not_found"``, ``"static"`` (:meth:`wrench_body`); ``"not_finite"``
                for a value that is not finite; ``"too_large"`` for a force above
                :data:`MAX_WRENCH_G` g on the mass the link carries (``body_subtreemass``; at
                least :data:`MIN_WRENCH_MASS`) or a torque above that force × 1 m: a peer's
                wrench must not diverge the simulation (which resets it).
            BackendError: ``steps`` not a whole number ≥ 1.
        """
        body = self.wrench_body(link)
        f, t = np.array(force, dtype=float), np.array(torque, dtype=float)
        if (
            f.shape != (3,)
            or t.shape != (3,)
            or not (np.all(np.isfinite(f)) and np.all(np.isfinite(t)))
        ):
            raise EntityError(
                "not_finite",
                f"wrench on {link!r}: force and torque must be 3 finite numbers each",
            )
        mass = float(self.model.body_subtreemass[body])
        f_max = MAX_WRENCH_G * GRAVITY * max(mass, MIN_WRENCH_MASS)
        if float(np.linalg.norm(f)) > f_max or float(np.linalg.norm(t)) > f_max:  # (× 1 m)
            raise EntityError(
                "too_large",
                f"wrench on {link!r}: |force| {np.linalg.norm(f):.6g} N or |torque| "
                f"{np.linalg.norm(t):.6g} N·m is above the bound {f_max:.6g} ({MAX_WRENCH_G} g "
                f"on the {mass:.6g} kg the link carries; torque: that force at 1 m). Fix: send a "
                "smaller wrench (a larger one diverges the simulation, which then resets)",
            )
        if steps is not None and (not isinstance(steps, (int, np.integer)) or steps < 1):
            raise BackendError(f"wrench on {link!r}: steps={steps!r} must be a whole number ≥ 1")
        if not f.any() and not t.any():
            self.clear_wrench(link)
            return
        self._wrenches[body] = _Wrench(body, f, t, local, None if steps is None else int(steps))

    def clear_wrench(self, link: str | None = None) -> None:
        """Stop the wrench on ``link`` (``None``: every wrench).

        Raises:
            EntityError: ``link`` is not a link of the robot (:meth:`wrench_body`).
        """
        bodies = list(self._wrenches) if link is None else [self.wrench_body(link)]
        for body in bodies:
            self._wrenches.pop(body, None)
            self.data.xfrc_applied[body] = 0.0

    @property
    def acting(self) -> bool:
        """Whether a wrench acts (the backend then steps through :meth:`advance`)."""
        return bool(self._wrenches)

    @property
    def wrenches(self) -> dict[int, tuple[np.ndarray, np.ndarray, bool, int | None]]:
        """The acting wrenches: body → (force, torque, local, steps left or ``None``)."""
        return {b: (w.force, w.torque, w.local, w.remaining) for b, w in self._wrenches.items()}

    def steps_for(self, seconds: float) -> int:
        """Physics steps for a duration of ``seconds`` s (rounded, at least 1)."""
        return max(1, round(seconds / float(self.model.opt.timestep)))

    def advance(self, n: int, step: Callable[[int], None]) -> None:
        """Advance ``n`` physics steps through ``step(k)`` (steps ``k`` at once): while a wrench
        acts, one at a time with ``xfrc_applied`` set before each (module doc); wrenches that
        have run their steps end."""
        data = self.data
        while n > 0 and self._wrenches:
            self._load()
            step(1)
            n -= 1
            for body, wrench in list(self._wrenches.items()):
                if wrench.remaining is not None:
                    wrench.remaining -= 1
                    if wrench.remaining <= 0:
                        del self._wrenches[body]
                        data.xfrc_applied[body] = 0.0
        if n > 0:
            step(n)

    def _load(self) -> None:
        """``xfrc_applied`` of every acting wrench, from the bodies' poses now."""
        data = self.data
        for body, w in self._wrenches.items():
            force, torque = w.force, w.torque
            if w.local:
                rot = data.xmat[body].reshape(3, 3)
                force, torque = rot @ force, rot @ torque
            arm = data.xpos[body] - data.xipos[body]  # origin − centre of mass
            data.xfrc_applied[body, :3] = force
            data.xfrc_applied[body, 3:] = torque + np.cross(arm, force)

    def forget_wrenches(self, bodies: Sequence[int] | None = None) -> None:
        """Drop every wrench (after ``mj_resetData`` zeroed ``xfrc_applied``: a reset), or
        those on ``bodies`` (ids; their ``xfrc_applied`` zeroed: one robot's reset)."""
        if bodies is None:
            self._wrenches.clear()
            return
        for body in bodies:
            self._wrenches.pop(int(body), None)
            self.data.xfrc_applied[body] = 0.0


__all__ = [
    "Entity",
    "EntityError",
    "EntityState",
    "Outcome",
    "SimulationState",
    "Transition",
    "World",
    "plan_transition",
]
