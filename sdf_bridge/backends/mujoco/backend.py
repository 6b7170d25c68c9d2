"""``MujocoBackend``: the robot description simulated by MuJoCo behind the bridge's joint-space
port.

The backend implements the :class:`~sdf_bridge.backends.base.Backend` port natively: it is
written a :class:`~sdf_bridge.backends.base.JointCommand` (per joint a mode, its values and,
for idle joints, the position to hold, all decided by the bridge) and read the joint state
with the followers and the actuator state (``TransmissionMap.joint_state``). Actuation happens
on MuJoCo's joints (not through MuJoCo's actuator gear), so every transmission mechanism
behaves alike; only the state is mapped to actuator space, for ``~/actuator_states``. How
each joint follows its command (the PID, velocity, effort, hold, ideal position mode, passive
joints): the command rules in :mod:`.cycle`.

If the simulation becomes unstable (MuJoCo meets NaN/Inf/huge values), the backend returns to
its initial state with the simulated time kept, counts it in
:attr:`MujocoBackend.instabilities` and logs an error naming the joint: never a NaN state, never
a silent reset.

The per-cycle bookkeeping (command → actuator parameters, the refresh, gathering the state)
is the vectorised numpy code of :mod:`.cycle` (its overhead over MuJoCo's stepping:
``bench/sim.py``).

State: joint position/velocity from MuJoCo, joint effort = the applied actuator effort; the actuator
state is ``joint_to_actuator`` of it. Sensor readings come from
:mod:`~sdf_bridge.backends.mujoco.sensors` (computed by MuJoCo at the start of the last physics
step, i.e. at most one timestep old), and, at every read, the wrench of each joint asking for
feedback, named ``joint_wrench/<joint>`` (:mod:`.joint_wrench`: a
:class:`~sdf_bridge.backends.sensor_readings.WrenchReading`, parent → child, in the joint frame at
the child; read only while demanded like a sensor).

Parameters: :mod:`.options` (``config/mujoco.yaml`` lists them with their defaults).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import mujoco
import numpy as np

from ...description.coordinates import coordinate_joint
from ...description.model import Robot
from ...errors import BackendError
from ...limits.spec import effort_bounds
from ..base import BaseState, JointCommand, JointSpaceState
from ..initial_pose import initial_pose
from . import cycle
from .actuation import add_pid_actuators
from .balls import BallCoordinates
from .builder import BuiltModel, build_spec, compile_model
from .couplings import ONE_DOF, static_loads
from .cycle import HOLD, MODE
from .divergence import diverged_joints, forward_mujoco_warnings, log_instability
from .drive import joint_drive, passive_joints
from .ideal import IdealJoints
from .initial_state import free_roots, reset_state
from .inputs import command_arrays, physics_steps
from .joint_wrench import JointWrenches
from .options import _bool, parse_options
from .properties import NAMES as PROPERTY_NAMES
from .properties import JointProperties
from .readings import with_readings
from .realtime import RealTimeFactor
from .sensors import SensorSuite
from .surfaces import apply_friction
from .world import World

if TYPE_CHECKING:  # pragma: no cover
    from ...transmissions import TransmissionMap


_NO_READINGS: Mapping[str, Any] = MappingProxyType({})
_UNSET = object()  # no read yet


class MujocoBackend:
    """MuJoCo physics backend (see the module docstring).

    Attributes:
        instabilities: how many times the simulation diverged and was reset (see the module doc).
        model, data: the MuJoCo model and data (after :meth:`configure`).
        built: the build result (link → body, joint → MuJoCo addresses, notes).
        sensors: the simulated sensors.
        inertia: the map joints' inertias of the default-gain rule (:class:`.gains.JointInertia`).
        initial_pose: where :meth:`reset` puts the robot
            (:class:`~sdf_bridge.backends.initial_pose.InitialPose`).
        world: the entities, run state and external wrenches (:class:`.world.World`; after
            :meth:`configure`).
    """

    joint_space: ClassVar[bool] = True  # the joint-space port, natively
    simulated_robot: ClassVar[bool] = True  # (backends.base.is_simulated_robot)
    reads_joint_wrenches: ClassVar[bool] = True  # (backends.base.reads_joint_wrenches)
    #: the joint properties it applies at run time (:meth:`set_joint_properties`)
    joint_property_names: ClassVar[tuple[str, ...]] = PROPERTY_NAMES

    def __init__(self) -> None:
        self.instabilities = 0
        self.model: mujoco.MjModel | None = None
        self.data: mujoco.MjData | None = None
        self.built: BuiltModel | None = None
        self.sensors: SensorSuite | None = None
        self.joint_wrenches = JointWrenches()  # (none before configure)
        self.world: World | None = None
        self._paused = False
        self._rtf = RealTimeFactor()
        self._write_dt: object = _UNSET  # last dt given to write (checked: see _set_write_dt)
        self._configured = False

    # -- configuration --------------------------------------------------------------------------
    def configure(
        self, robot: Robot, *, transmissions: TransmissionMap, params: Mapping[str, Any]
    ) -> None:
        """Build and compile the MuJoCo model of ``robot`` for the joints, followers and
        actuators of ``transmissions`` (their order fixes every array).

        The model is compiled in a worker thread (:func:`.builder.compile_spec`): a SIGINT or
        SIGTERM stops the bridge while MuJoCo compiles.

        Raises:
            ModelTooLargeError: more links than ``max_bodies`` (checked before building).
            BackendError: a mapped joint is not a simulated 1-DOF joint, or MuJoCo rejects the
                model.
            ConfigError: a parameter is invalid.
        """
        options, self.position_mode, seed = parse_options(robot, params)
        self.robot, self.tm, self.options = robot, transmissions, options
        self.actuator_names = tuple(transmissions.actuator_names)
        self.joint_names = tuple(transmissions.joint_names)
        for name in self.joint_names:
            joint = coordinate_joint(robot, name)
            if joint is None or joint.type not in ONE_DOF:
                kind = "missing" if joint is None else f"a {joint.type} joint"
                raise BackendError(
                    f"transmission joint {name!r} is {kind}; the MuJoCo backend drives 1-DOF "
                    "joints only"
                )

        forward_mujoco_warnings()  # MuJoCo's own warnings, throttled, through our log
        built = build_spec(robot, options)
        # as the limiter enforces them
        effort_limit = np.array(effort_bounds(robot, self.joint_names))
        passive = passive_joints(effort_limit)
        if passive.any():
            built.note(
                f"joint(s) {[j for j, p in zip(self.joint_names, passive) if p]} have "
                "effort limit 0: simulated as passive joints (their commands exert no "
                "effort); widen their effort limit to drive them"
            )
        add_pid_actuators(
            built.spec,
            self.joint_names,
            effort_limit,
            [built.mj_joint(n) for n in self.joint_names],
            [built.ball_axis(n) for n in self.joint_names],
        )
        apply_friction(robot, built)
        render = _bool(params.get("render_cameras", True), "render_cameras")
        self.sensors = SensorSuite.attach(robot, built, seed=seed, render_cameras=render)
        self.joint_wrenches = JointWrenches.attach(robot, built)
        model = compile_model(built)
        self.built, self.model = built, model
        self.data = mujoco.MjData(model)
        self.joint_wrenches.bind(model, self.data)
        self._warnings = self.data.warning.number  # (mjNWARNING,) view, updated by MuJoCo in place
        drive = joint_drive(robot, built, model, self.joint_names, params, effort_limit, passive)
        self._qadr, self._dadr, self._act_ids, self._act_adr = drive[:4]
        self.inertia, self._tab, self.pid = drive.inertia, drive.tab, drive.pid
        #: the ball joints' coordinates, computed (:mod:`.balls`)
        self.balls = BallCoordinates(built, self.joint_names)
        self._adr = cycle.addresses(self._tab)  # (fixed: made once, for every cycle)
        #: the joint properties changed at run time (:meth:`set_joint_properties`)
        self.properties = JointProperties(
            robot, built, model, self.joint_names, drive, params, effort_limit
        )
        n = len(self.joint_names)
        self._ideal_mode = self.position_mode == "ideal"
        self._drive_changed()
        self._n = n
        self._command_shapes = ((3, n), (n,), (n,))  # values, mode, hold of a JointCommand
        self._last_valid = False  # whether the table's LAST rows hold the command last applied
        self._prepared = (
            0  # steps the actuators were prepared for at the last write (cycle.prepare)
        )
        self._write_dt = _UNSET  # last dt given to write, its steps (0: invalid) and span, s
        self._write_n, self._write_span = 0, 0.0
        # views of MuJoCo's buffers (they stay valid: mj_resetData keeps the allocation)
        data = self.data
        self._qpos, self._qvel, self._act, self._ctrl = data.qpos, data.qvel, data.act, data.ctrl
        self._force = data.actuator_force
        self._inertia = cycle.inertia_buffer(model, data)
        self._gainprm, self._biasprm = model.actuator_gainprm, model.actuator_biasprm
        self._timestep = float(model.opt.timestep)
        self._read_dt: object = _UNSET  # last dt given to read (checked) and its step count
        self._read_n = 0
        # the joints imposed kinematically in ideal position mode (None: pid mode)
        self._ideal = (
            IdealJoints(self._qadr, self._dadr, exclude=self.balls.mask)
            if self._ideal_mode
            else None
        )
        self.initial_pose = initial_pose(robot, params)
        self._place_on_ground = (  # (several robots stand where they were placed, as built)
            options.ground_plane
            and options.lift_above_ground
            and options.base_pose is None
            and not robot.robots
        )
        # (qpos, dof address, body) of the free-floating roots' joints
        self._free = free_roots(model)
        self.world = World(self)
        self._configured = True
        self.reset()

    def _require(self) -> tuple[mujoco.MjModel, mujoco.MjData]:
        if not self._configured or self.model is None or self.data is None:
            raise BackendError(
                "MujocoBackend used before configure(); call configure(robot, actuators, ...) first"
            )
        return self.model, self.data

    # -- control cycle --------------------------------------------------------------------------
    def write(self, command: JointCommand, dt: float) -> None:
        """Apply the joint command ``command`` (:class:`~sdf_bridge.backends.base.JointCommand`:
        values, per-joint modes, idle joints' hold positions; columns ``joint_names``) for the
        next ``dt`` s (:func:`.cycle.apply_command`): a command that
        differs bit for bit from the last applied one goes into MuJoCo's actuators (an
        identical one changes nothing, as the integral and the scheduled gains are refreshed
        before every step; except in ideal position mode); then the actuators are prepared for
        the next ``dt`` s (:func:`.cycle.prepare`: the refresh :meth:`read` would do before
        stepping, done here; undone if those steps do not follow, e.g. while
        paused). Mode values that are not a joint command mode hold (``NONE``).

        Raises:
            BackendError: arrays of other shapes, or before configure.
        """
        if dt != self._write_dt:
            self._set_write_dt(dt)
        if self._prepared:
            self._unprepare()
        prep = self._refresh and self._write_n > 0 and not self._paused
        tab = self._tab
        values, mode, hold = command_arrays(command, self._command_shapes, self.joint_names)
        if not (
            self._last_valid
            and not self._ideal_mode
            and values.tobytes() == tab[cycle.LAST : cycle.LAST + 3].tobytes()
            # (int8 modes stored as floats: equal values, equal bytes; compared as bytes,
            # cheaper than np.array_equal of the mixed types: doc/dev/rationale.md)
            and mode.astype(np.float64).tobytes() == tab[cycle.LAST_MODE].tobytes()
            and hold.tobytes() == tab[cycle.LAST_HOLD].tobytes()
        ):
            before = tab[MODE].copy() if self.balls else None
            cycle.apply_command(
                tab,
                values,
                mode,
                hold,
                self._qpos,
                self._act,
                self._ctrl,
                self._gainprm,
                self._biasprm,
                self._ideal_mode,
                self._adr,
            )
            if before is not None:
                self.balls.command(tab, before, hold, self._qpos, self._act)
            tab[cycle.LAST : cycle.LAST + 3] = values
            tab[cycle.LAST_MODE] = mode
            tab[cycle.LAST_HOLD] = hold
        if prep:
            cycle.prepare(
                tab,
                self._qpos,
                self._act,
                self._inertia,
                self._force,
                self._gainprm,
                self._biasprm,
                self._write_span,
                self._has_i,
                adr=self._adr,
            )
        self._last_valid = True
        self._prepared = self._write_n if prep else 0
        if self._ideal is not None:
            self._ideal.follow(values[0], self._qpos[self._qadr], tab[MODE], dt)

    def _set_write_dt(self, dt: float) -> None:
        """Remember ``dt`` of :meth:`write` and its number of physics steps (0 when
        ``dt`` is not a multiple of the timestep: nothing is prepared, the read raises).

        Raises:
            BackendError: before configure.
        """
        self._require()
        try:
            n = physics_steps(dt, self.options.timestep)
        except BackendError:
            n = 0
        self._write_n, self._write_span, self._write_dt = n, n * self._timestep, dt

    def _unprepare(self) -> None:
        """Undo the preparation of the last write (:func:`.cycle.unprepare`), if any."""
        if self._prepared:
            cycle.unprepare(self._tab)
            self._prepared = 0

    def _advance(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Step physics ``n`` times (ideal joints imposed kinematically) after refreshing the
        actuators (:func:`.cycle.pre_step`: integral over the ``n`` steps, scheduled gains),
        unless the last write prepared them for exactly these ``n`` steps (a preparation for
        other steps is undone first: :func:`.cycle.unprepare`); check stability; return the
        state (:meth:`_state_now`)."""
        model, data = self.model, self.data  # (the callers checked configure)
        prepared = self._prepared
        if prepared != n and prepared:
            self._unprepare()  # prepared for other steps (paused since, or another dt)
        self._prepared = 0
        if n <= 0:
            return self._state_now()[:2]
        ts = self._timestep
        if self._refresh and prepared != n:
            cycle.pre_step(
                self._tab,
                self._qpos,
                self._act,
                self._inertia,
                self._force,
                self._gainprm,
                self._biasprm,
                n * ts,
                self._has_i,
                adr=self._adr,
            )
        wrapped = bool(self.balls) and self._drive_balls()
        t_end = data.time + n * ts
        # the joint array is made before stepping (the memory the step touches evicts what
        # Python would need to make it after it)
        joint = np.empty((3, self._n))
        ideal = self._ideal
        world = self.world
        if world is not None and world.acting:  # external wrenches act (.world)
            world.advance(n, self._stepper)
        elif wrapped:  # a ball beyond its actuators' wrap: its torque before every step
            for k in range(n):
                if k:
                    self._drive_balls()
                self._stepper(1)
        elif ideal is None or not ideal.mask.any():
            mujoco.mj_step(model, data, n)  # (positional: keywords are slower in pybind11)
        else:
            ideal.step(model, data, n)
        out, actuators, stable = self._state_now(joint)
        if not stable:
            self._check_stable(t_end)
            return self._state_now()[:2]
        return out, actuators

    def _drive_balls(self) -> bool:
        """Write the ball joints' actuators (:meth:`.balls.BallCoordinates.drive`); whether
        one must be driven again before each physics step."""
        return self.balls.drive(
            self._tab, self._qpos, self._act, self._gainprm, self._biasprm, self._act_ids
        )

    def _stepper(self, n: int) -> None:
        """Step physics ``n`` times as :meth:`_advance` does (ideal joints imposed)."""
        ideal = self._ideal
        if ideal is None or not ideal.mask.any():
            mujoco.mj_step(self.model, self.data, n)
        else:
            ideal.step(self.model, self.data, n)

    def _state_now(self, joint: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, bool]:
        """The state now: new arrays of the joint state with the followers, (3, n_joints +
        n_followers), rows position, velocity and applied effort (0 on ideal joints), and of
        the actuator state, (3, n_actuators) (:meth:`TransmissionMap.joint_state`); and whether
        the simulation is stable (:func:`.cycle.gather_state`). ``joint``: a (3, n_joints)
        scratch array to gather into (made when not given)."""
        if joint is None:
            joint = np.empty((3, self._n))
        stable = cycle.gather_state(
            self._tab, self._qpos, self._qvel, self._force, self._warnings, joint, adr=self._adr
        )
        if self.balls:
            self.balls.publish(self._qpos, self._qvel, joint)
        if self._ideal is not None:
            joint[2, self._ideal.mask] = 0.0
        out, actuators = self.tm.joint_state(joint)
        return out, actuators, stable

    def _check_stable(self, t_end: float) -> None:
        """Recover when MuJoCo met NaN/Inf/huge values (it then resets its data, time included,
        by itself, or leaves them non-finite): back to the initial state (:meth:`reset`) at
        simulated time ``t_end`` (s, where the steps should have ended), :attr:`instabilities`
        counted, and an error logged naming the joint (the 1st, 10th, 100th, … time)."""
        model, data = self._require()
        joints = diverged_joints(model, data, self._warnings)
        if joints is None:
            return
        sim_time = float(t_end)
        self.instabilities += 1
        log_instability(self.instabilities, sim_time, joints)
        self.reset()
        data.time = sim_time
        self._rtf.restart(sim_time)  # (reset marked time 0)

    def read(self, dt: float) -> JointSpaceState:
        """Step physics ``dt / timestep`` times (none while paused) and return the state: joints
        with followers, actuators (new arrays),
        the due sensor readings and the simulated time.

        Raises:
            BackendError: ``dt`` is not a multiple of the timestep, or before configure.
        """
        if not self._configured:
            self._require()
        data = self.data
        if dt != self._read_dt:
            self._read_n = physics_steps(dt, self.options.timestep)
            self._read_dt = dt
        n = 0 if self._paused else self._read_n
        joints, actuators = self._advance(n)
        t = data.time
        sensors: SensorSuite = self.sensors  # type: ignore[assignment]  # (set by configure)
        readings = sensors.read_due(t) if sensors.channels else _NO_READINGS
        if self.joint_wrenches.names:
            readings = with_readings(
                readings, self.joint_wrenches.read(sensors.demand, self._ideal)
            )
        return JointSpaceState(joints, actuators, readings, t)

    # -- extras ---------------------------------------------------------------------------------
    @property
    def real_time_factor(self) -> float:
        """The achieved real-time factor: simulated time over wall time (s/s) since the
        previous measurement, taken when asked at least :data:`.realtime.RTF_WINDOW` s of wall
        time after it (:class:`.realtime.RealTimeFactor`; the node asks once per diagnostics
        period; asked sooner, the last value is returned). 0 until measured (from
        :meth:`configure` or the last :meth:`reset`), and over a paused interval. Costs the
        control cycle nothing (no clock read per tick). Reading it starts a new interval: one
        reader (the node's diagnostics) should own it."""
        data = self.data
        if data is None:
            return 0.0
        return self._rtf.measure(data.time)

    def set_sensor_demand(self, names: frozenset[str] | None) -> None:
        """Read only the named sensors (``None``: all, the default): the others are not cast,
        rendered or copied while they are not wanted; their update schedule continues
        (:meth:`.sensors.SensorSuite.set_demand`).

        Raises:
            BackendError: before configure.
        """
        self._require()
        assert self.sensors is not None
        self.sensors.set_demand(names)

    def pause(self, flag: bool) -> None:
        """Pause (``True``) or resume physics; while paused :meth:`read` does not advance time."""
        self._paused = bool(flag)

    @property
    def paused(self) -> bool:
        """Whether physics is paused."""
        return self._paused

    def step(self, n: int) -> None:
        """Advance ``n`` physics steps now (also while paused), with the current commands.

        Raises:
            BackendError: ``n`` not a whole number ≥ 0, or before configure.
        """
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 0:
            raise BackendError(f"step(n={n!r}): n must be a whole number of physics steps ≥ 0")
        self._require()
        self._advance(int(n))

    def reset(self) -> None:
        """The initial state: the :attr:`initial_pose` (a keyframe's base pose and joint
        positions, else the description's ``<ros2_control>`` ``initial_value`` /
        ``initial_position``, else 0 within the limits: :mod:`sdf_bridge.backends.initial_pose`;
        a free-floating robot without a base pose placed on the ground), the followers of
        couplings (mimic, gearbox, screw) set consistently from their leaders, time 0, PID
        cleared, joints holding their initial position (:func:`.initial_state.reset_state`)."""
        self._reset_to_initial()
        if self.world is not None:
            self.world.forget_wrenches()  # (mj_resetData zeroed xfrc_applied)
        self._restart_clocks()

    def _restart_clocks(self) -> None:
        """The sensors' schedules and the real-time factor's measurement restart from the
        simulated time now."""
        model, data = self._require()
        if self.sensors is not None:
            self.sensors.bind(model, data)
        self._rtf.restart(data.time)  # measured from here

    def _reset_to_initial(self) -> None:
        """The state of :meth:`reset` (the wrenches' records and the clocks aside)."""
        model, data = self._require()
        assert self.built is not None
        reset_state(
            model,
            data,
            self.built,
            self.robot,
            self.initial_pose,
            place_on_ground=self._place_on_ground,
        )
        tab = self._tab
        tab[cycle.MODE : cycle.ACTIVE] = 0.0  # hold (mode 0), no velocity target, no feed-forward
        tab[HOLD] = data.qpos[self._qadr]
        self.balls.reset(data.qpos, self.initial_pose.position, self.joint_names, tab)
        tab[cycle.ACTIVE] = 1.0
        self._last_valid = False
        self._prepared = 0
        self.pid.reset()
        # the load at rest (mj_forward above)
        self.pid.preload(static_loads(model, data)[self._dadr])
        # scheduled gains at the reset configuration, actuators written (no time passes)
        cycle.pre_step(
            tab,
            self._qpos,
            self._act,
            self._inertia,
            self._force,
            self._gainprm,
            self._biasprm,
            0.0,
            False,
        )
        data.act[self._act_adr] = tab[HOLD]
        data.ctrl[self._act_ids] = 0.0
        if self.balls:  # (their actuators: the law of .balls, not the table's)
            self._drive_balls()
        if self._ideal is not None:
            self._ideal.clear()

    def reset_robot(self, prefix: str) -> None:
        """Re-home one robot of a model of several (:mod:`sdf_bridge.backends.shared`): the
        part whose bodies' names start with ``prefix`` (``"arm::"``) gets what :meth:`reset`
        gives it (its joints' positions and velocities, its free base's pose and twist, its
        actuators' states, its joint table columns: holds, PID integrals; wrenches on its
        bodies dropped); everything else keeps its state bit for bit (the other robots' joints,
        bases, actuators, commands, wrenches; the simulated time), so that a robot that does
        not touch this one moves on as if nothing happened.

        Raises:
            BackendError: before configure, or no body's name starts with ``prefix``.
        """
        model, data = self._require()
        part = self._part(prefix)
        self._unprepare()  # (a write's preparation of the next steps: made again by the next)
        spec = mujoco.mjtState.mjSTATE_INTEGRATION
        before = np.empty(mujoco.mj_stateSize(model, spec))
        mujoco.mj_getState(model, data, before, spec)
        # what the next steps' preparation reads from the last step's forward pass (the
        # joint-space inertia, the actuator forces), kept for the others: a forward pass now
        # would give them the values at the state after that step
        derived = (self._inertia.copy(), self._force.copy())
        kept = (
            self._tab.copy(),
            self._gainprm.copy(),
            self._biasprm.copy(),
            self.balls.angles.copy(),
            self.balls.rates.copy(),
            model.body_pos.copy(),
            model.body_quat.copy(),
        )
        ideal = None
        if self._ideal is not None:
            ideal = (
                self._ideal.mask.copy(),
                self._ideal.target.copy(),
                self._ideal.velocity.copy(),
            )
        self._reset_to_initial()
        q, d, a, u, cols = part["qpos"], part["dof"], part["act"], part["actuator"], part["column"]
        homed = (
            data.qpos[q].copy(),
            data.qvel[d].copy(),
            data.qacc_warmstart[d].copy(),
            data.act[a].copy(),
            data.ctrl[u].copy(),
        )
        mujoco.mj_setState(model, data, before, spec)  # (time, wrenches, the others' state)
        data.qpos[q], data.qvel[d], data.qacc_warmstart[d], data.act[a], data.ctrl[u] = homed
        data.qfrc_applied[d] = 0.0
        tab, gainprm, biasprm, angles, rates, body_pos, body_quat = kept
        others = ~cols
        self._tab[:, others] = tab[:, others]
        other_u = np.ones(model.nu, dtype=bool)
        other_u[u] = False
        self._gainprm[other_u], self._biasprm[other_u] = gainprm[other_u], biasprm[other_u]
        other_b = np.ones(model.nbody, dtype=bool)
        other_b[part["body"]] = False
        model.body_pos[other_b], model.body_quat[other_b] = body_pos[other_b], body_quat[other_b]
        mine_balls = np.array([n.startswith(prefix) for n in self.balls.names], dtype=bool)
        self.balls.angles[~mine_balls], self.balls.rates[~mine_balls] = (
            angles[~mine_balls],
            rates[~mine_balls],
        )
        if ideal is not None and self._ideal is not None:
            self._ideal.mask = np.where(cols, False, ideal[0])
            self._ideal.target = np.where(cols, 0.0, ideal[1])
            self._ideal.velocity = np.where(cols, 0.0, ideal[2])
        if self.world is not None:
            self.world.forget_wrenches(bodies=part["body"])
        mujoco.mj_forward(model, data)  # (the robot's derived quantities, its sensors')
        inertia, force = derived
        mine_diag = self._tab[cycle.DIAG, cols].astype(np.intp)
        inertia[mine_diag] = self._inertia[mine_diag]
        self._inertia[:] = inertia
        self._force[other_u] = force[other_u]
        self._restart_clocks()

    def _part(self, prefix: str) -> dict[str, np.ndarray]:
        """The indices of the part of the model whose bodies' names start with ``prefix``:
        ``body``, ``qpos`` and ``dof`` addresses of their joints, ``actuator`` (those acting
        on its joints, or named with the prefix) and their ``act`` addresses, and the joint
        table's ``column`` mask (map joints named with the prefix).

        Raises:
            BackendError: no body's name starts with ``prefix``.
        """
        model = self.model
        assert model is not None
        obj = mujoco.mjtObj
        bodies = [
            b
            for b in range(model.nbody)
            if (mujoco.mj_id2name(model, obj.mjOBJ_BODY, b) or "").startswith(prefix)
        ]
        if not bodies:
            raise BackendError(f"no body of the simulation belongs to robot {prefix!r}")
        mine = np.zeros(model.nbody, dtype=bool)
        mine[bodies] = True
        joints = [j for j in range(model.njnt) if mine[model.jnt_bodyid[j]]]
        kinds = mujoco.mjtJoint
        widths = {
            int(kinds.mjJNT_FREE): 7,
            int(kinds.mjJNT_BALL): 4,
        }  # qpos entries (slide, hinge: 1)
        qpos = [
            int(model.jnt_qposadr[j]) + k
            for j in joints
            for k in range(widths.get(int(model.jnt_type[j]), 1))
        ]
        dof = [d for d in range(model.nv) if mine[model.dof_bodyid[d]]]
        joint_set = set(joints)
        actuators = [
            i
            for i in range(model.nu)
            if (
                model.actuator_trntype[i] == mujoco.mjtTrn.mjTRN_JOINT
                and int(model.actuator_trnid[i, 0]) in joint_set
            )
            or (mujoco.mj_id2name(model, obj.mjOBJ_ACTUATOR, i) or "").startswith(prefix)
        ]
        act = [
            int(model.actuator_actadr[i]) + k
            for i in actuators
            if model.actuator_actadr[i] >= 0
            for k in range(int(model.actuator_actnum[i]))
        ]
        column = np.array([n.startswith(prefix) for n in self.joint_names], dtype=bool)

        def index(values: list[int]) -> np.ndarray:
            return np.array(values, dtype=np.intp)

        return {
            "body": index(bodies),
            "qpos": index(qpos),
            "dof": index(dof),
            "actuator": index(actuators),
            "act": index(act),
            "column": column,
        }

    def set_time(self, t: float) -> None:
        """Set the simulated time to ``t`` s, the state kept (a reset of the time alone, or the
        time kept across a reset of the state); the sensors' schedules and the real-time
        factor's measurement restart from it.

        Raises:
            BackendError: before configure, or ``t`` not a finite number ≥ 0.
        """
        model, data = self._require()
        if not (isinstance(t, (int, float)) and np.isfinite(t) and t >= 0):
            raise BackendError(f"set_time(t={t!r}): t must be a finite number of seconds ≥ 0")
        data.time = float(t)
        if self.sensors is not None:
            self.sensors.bind(model, data)
        self._rtf.restart(data.time)

    @property
    def free_roots(self) -> tuple[tuple[int, int, str], ...]:
        """``(qpos address, dof address, body name)`` of the free-floating roots' free joints
        (:func:`.initial_state.free_roots`; empty on a fixed base or before configure)."""
        return tuple(getattr(self, "_free", ()))

    def close(self) -> None:
        """Release renderers; the backend is not used afterwards."""
        if self.sensors is not None:
            self.sensors.close()
        self._configured = False
        self._write_dt = _UNSET  # (write checks configure when dt changes)

    def joint_state(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Joint-space ``(position, velocity, applied effort)`` of the map's joints, each shape
        (n_joints,) in ``transmissions.joint_names`` order (rad or m, rad/s or m/s, N·m or N)."""
        self._require()
        joint = self._state_now()[0][:, : self._n]
        return joint[0].copy(), joint[1].copy(), joint[2].copy()

    def joint_properties(self) -> dict[str, dict[str, float]]:
        """joint → its dynamics properties now (damping, friction, spring stiffness and
        reference, stop stiffness and dissipation: :meth:`.properties.JointProperties.values`).

        Raises:
            BackendError: before configure.
        """
        self._require()
        return self.properties.values()

    def check_joint_properties(self, changes: Mapping[str, Mapping[str, float]]) -> None:
        """Check a change as :meth:`set_joint_properties` would, changing nothing (the
        values, the stops' order, a spring too stiff for the timestep: :mod:`.properties`).

        Raises:
            JointPropertyError: as :meth:`set_joint_properties`.
            BackendError: before configure.
        """
        self._require()
        self.properties.check(changes)

    def set_joint_properties(self, changes: Mapping[str, Mapping[str, float]]) -> list[str]:
        """Change joint properties (joint → property → value; properties of
        :attr:`joint_property_names`) from the next physics step on, all or none: every value
        is checked before any is applied (:mod:`.properties`). The PID gains follow the
        damping, friction and effort limit by the configuration's rule; the actuators are
        rewritten at once.

        Returns:
            Notes to log (e.g. a stop too stiff for the timestep, made rigid). A joint whose stops
            move keeps its initial position (:meth:`reset`) inside them.

        Raises:
            JointPropertyError: an unknown joint or property, a value out of range, stops
                with lower ≥ upper, a spring too stiff for the timestep (nothing changed).
            BackendError: before configure.
        """
        self._require()
        checked = self.properties.check(changes)
        self._unprepare()
        notes, regain = self.properties.apply(checked)
        if regain:
            tab = self._tab
            self._drive_changed()
            tab[cycle.FEEDFORWARD, tab[cycle.PASSIVE] != 0.0] = 0.0
            cycle.write_affine(tab, self._gainprm, self._biasprm, adr=self._adr)
        self._last_valid = False  # the next write applies its command again, in full
        self._confine_initial_pose(checked)
        return notes

    def _drive_changed(self) -> None:
        """Whether the actuators are refreshed before every step, from the PID gains and the
        joint table (at configure and after a change of gains): with an integral, a gain
        schedule or kinematic (ideal) joints."""
        self._has_i = self.pid.has_integral
        self._refresh = self._has_i or bool(self._tab[cycle.SCHEDULED].any()) or self._ideal_mode

    def _confine_initial_pose(self, changes: Mapping[str, Mapping[str, float]]) -> None:
        """Move the initial position of joints whose stops ``changes`` moves into them, so
        that :meth:`reset` places the robot inside the stops in force (as the mock's reset)."""
        position = dict(self.initial_pose.position)
        for joint, values in changes.items():
            if "lower" in values or "upper" in values:
                lower, upper = self.properties.stops_of(joint)
                q = position.get(joint, 0.0)
                if not lower <= q <= upper:
                    position[joint] = float(np.clip(q, lower, upper))
        if position != dict(self.initial_pose.position):
            self.initial_pose = replace(self.initial_pose, position=position)

    @property
    def joint_inertia(self) -> np.ndarray:
        """Each map joint's lightest effective inertia, ``1/(M⁻¹)_kk`` at the reference
        configuration (:mod:`.gains`), shape (n_joints,), kg·m² or kg (a copy)."""
        return self.inertia.apparent.copy()

    def base_state(self, index: int = 0) -> BaseState | None:
        """The free-floating root link's ground-truth state now (free root ``index`` of
        :attr:`free_roots`, the first by default; ``None`` on a fixed base): MuJoCo's body pose
        of the link in the world and its twist in the link's frame (a copy, with the simulated
        time).

        Raises:
            BackendError: before configure.
        """
        _, data = self._require()
        if index >= len(self._free):
            return None
        adr, dof, link = self._free[index]
        pose = data.qpos[adr : adr + 7]
        quat = pose[3:7]  # w x y z: the free joint's qpos is the body's pose in the world
        rot = np.empty(9)
        mujoco.mju_quat2Mat(rot, quat)
        linear = rot.reshape(3, 3).T @ data.qvel[dof : dof + 3]  # (world frame in qvel)
        return BaseState(
            pose[:3].copy(),
            np.array([quat[1], quat[2], quat[3], quat[0]]),
            linear,
            data.qvel[dof + 3 : dof + 6].copy(),
            float(data.time),
            link,
        )

    @property
    def sim_time(self) -> float:
        """Simulated time in s."""
        _, data = self._require()
        return float(data.time)
