"""``MujocoBackend``: the robot description simulated by MuJoCo behind the bridge's joint-space
port.

The backend implements the :class:`~sdf_bridge.backends.base.Backend` port natively: it is
written a :class:`~sdf_bridge.backends.base.JointCommand` (per joint a mode, its values and,
for idle joints, the position to hold, all decided by the bridge) and read the joint state
with the followers and the actuator state (``TransmissionMap.joint_state``). Actuation happens
on MuJoCo's joints (not through MuJoCo's actuator gear), so every transmission mechanism
behaves alike; only the state is mapped to actuator space, for ``~/actuator_states``:

* position / velocity commands are tracked by the per-joint PID of :mod:`.pid` (effort clamped
  to the joint's effort limit). The PID's P and D parts run inside every physics step as MuJoCo
  affine actuators on the joints (one per map joint, gear 1, force range = effort limit), its
  integral once per read (the error to the target at the start of each cycle, whether or not a
  command was written); default gains have an integral term and follow the joint's current
  inertia (:mod:`.pid`), so position commands settle on target under gravity. At every reset
  the integral starts at the static load the joint carries at rest (gravity, its coupled
  followers' included: :func:`.couplings.static_loads`, :meth:`.pid.JointPid.preload`), so a
  held joint does not sag first while the integral grows. Before the steps of every read the
  actuators are refreshed (:func:`.cycle.pre_step`): first the scheduled
  gains, from the inertia as of the last physics step, then the integral with them. So a write
  repeating the previous command bit for bit would change nothing; it returns after comparing
  it (except in ideal mode). :meth:`MujocoBackend.write` does that refresh itself, in the same
  compiled call, for the read that follows (:func:`.cycle.prepare`; nothing the refresh reads
  changes in between), and it is undone when those steps do not follow (paused, another
  ``dt``, another write first): the same actuator parameters and integral, bit for bit, one
  call fewer per cycle;
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

If the simulation becomes unstable (MuJoCo meets NaN/Inf/huge values), the backend returns to
its initial state with the simulated time kept, counts it in
:attr:`MujocoBackend.instabilities` and logs an error naming the joint: never a NaN state, never
a silent reset.

The per-cycle bookkeeping (command → actuator parameters, the refresh, gathering the state)
runs as compiled kernels when Numba is available (:mod:`.kernel`, :mod:`sdf_bridge.jit`: two
calls per cycle, :func:`.kernel.write_kernel` and :func:`.kernel.state_kernel`; the backend's
whole overhead over MuJoCo's stepping is about 10 µs per cycle for the 6-joint demo arm,
``bench/sim.py``), else as the equivalent numpy code (:meth:`MujocoBackend.use_compiled` switches).

State: joint position/velocity from MuJoCo, joint effort = the applied actuator effort; the
actuator state is ``joint_to_actuator`` of it. Sensor readings come from :mod:`.sensors`
(computed by MuJoCo at the start of the last physics step, i.e. at most one timestep old).

Parameters: :mod:`.options` (``config/mujoco.yaml`` lists them with their defaults).
"""

from __future__ import annotations

import logging
import math
import numbers
import time
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import mujoco
import numpy as np

from ...description.model import Robot
from ...errors import BackendError
from ...limits.spec import effort_bounds
from ..base import MODE_DTYPE, BaseState, JointCommand, JointSpaceState
from ..initial_pose import initial_pose
from . import cycle, kernel
from .actuation import add_pid_actuators, inertia_diagonal_index
from .builder import BuiltModel, build_spec, compile_model
from .couplings import ONE_DOF, static_loads
from .cycle import HOLD, INTEGRAL, MODE, SCALE
from .gains import default_gains, joint_inertias
from .initial_state import free_roots, reset_state
from .options import _bool, parse_options
from .pid import JointPid, resolve_gains
from .sensors import SensorSuite
from .surfaces import apply_friction

if TYPE_CHECKING:  # pragma: no cover
    from ...transmissions import TransmissionMap

_LOG = logging.getLogger(__name__)

_NO_READINGS: Mapping[str, Any] = MappingProxyType({})
_UNSET = object()  # no read yet
RTF_WINDOW = 0.1
"""Shortest wall-time interval over which :attr:`MujocoBackend.real_time_factor` is measured, s."""
_UNSTABLE = (
    int(mujoco.mjtWarning.mjWARN_BADQACC),
    int(mujoco.mjtWarning.mjWARN_BADQVEL),
    int(mujoco.mjtWarning.mjWARN_BADQPOS),
)


class MujocoBackend:
    """MuJoCo physics backend (see the module docstring).

    Attributes:
        real_time_factor: achieved simulated-time / wall-time ratio (see the property).
        instabilities: how many times the simulation diverged and was reset (see the module doc).
        model, data: the MuJoCo model and data (after :meth:`configure`).
        built: the build result (link → body, joint → MuJoCo addresses, notes).
        sensors: the simulated sensors.
        inertia: the map joints' inertias of the default-gain rule (:class:`.gains.JointInertia`).
        initial_pose: where :meth:`reset` puts the robot
            (:class:`~sdf_bridge.backends.initial_pose.InitialPose`).
    """

    joint_space: ClassVar[bool] = True  # the joint-space port, natively
    # (hardware.kernel_switch warms them up)
    kernel_modules: ClassVar[tuple[str, ...]] = (kernel.__name__,)

    def __init__(self, *, compiled: bool | None = None) -> None:
        """``compiled``: the per-cycle bookkeeping as compiled kernels (:mod:`.kernel`) or
        (``False``) the numpy reference; default: as the transmission map given to
        :meth:`configure`."""
        self._compiled_choice, self.compiled = compiled, bool(compiled)  # (decided at configure)
        self.instabilities = 0
        self.model: mujoco.MjModel | None = None
        self.data: mujoco.MjData | None = None
        self.built: BuiltModel | None = None
        self.sensors: SensorSuite | None = None
        self._paused = False
        self._rtf_mark: tuple[float, float] | None = (
            None  # (wall s, simulated s) of the last measure
        )
        self._rtf = 0.0
        self._clock = time.perf_counter  # wall clock of the real-time factor, s
        self._write_dt: object = _UNSET  # last dt given to write (checked: see _set_write_dt)
        self._configured = False

    # -- configuration --------------------------------------------------------------------------
    def configure(
        self, robot: Robot, *, transmissions: TransmissionMap, params: Mapping[str, Any]
    ) -> None:
        """Build and compile the MuJoCo model of ``robot`` for the joints, followers and
        actuators of ``transmissions`` (their order fixes every array).

        Raises:
            BackendError: a mapped joint is not a simulated 1-DOF joint, or MuJoCo rejects the
                model.
            ConfigError: a parameter is invalid.
        """
        options, self.position_mode, seed = parse_options(robot, params)
        self.robot, self.tm, self.options = robot, transmissions, options
        self.actuator_names = tuple(transmissions.actuator_names)
        self.joint_names = tuple(transmissions.joint_names)
        for name in self.joint_names:
            joint = robot.joints.get(name)
            if joint is None or joint.type not in ONE_DOF:
                kind = "missing" if joint is None else f"a {joint.type} joint"
                raise BackendError(
                    f"transmission joint {name!r} is {kind}; the MuJoCo backend drives 1-DOF "
                    "joints only"
                )

        built = build_spec(robot, options)
        # as the limiter enforces them
        effort_limit = np.array(effort_bounds(robot, self.joint_names))
        self._passive = effort_limit == 0.0
        if self._passive.any():
            built.note(
                f"joint(s) {[j for j, p in zip(self.joint_names, self._passive) if p]} have "
                "effort limit 0: simulated as passive joints (their commands exert no "
                "effort); widen their effort limit to drive them"
            )
        add_pid_actuators(built.spec, self.joint_names, effort_limit)
        apply_friction(robot, built)
        render = _bool(params.get("render_cameras", True), "render_cameras")
        self.sensors = SensorSuite.attach(robot, built, seed=seed, render_cameras=render)
        model = compile_model(built)
        self.built, self.model = built, model
        self.data = mujoco.MjData(model)
        self._warnings = self.data.warning.number  # (mjNWARNING,) view, updated by MuJoCo in place
        self._qadr = np.array([built.joints[n].qpos[0] for n in self.joint_names], dtype=int)
        self._dadr = np.array([built.joints[n].dof[0] for n in self.joint_names], dtype=int)
        n = len(self.joint_names)
        self._act_ids = np.array(
            [
                mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_ACTUATOR, f"{j}__pid")
                for j in self.joint_names
            ],
            dtype=int,
        )
        self._act_adr = np.array(model.actuator_actadr[self._act_ids], dtype=int)
        jnt_ids = np.array(
            [
                mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, built.joints[j].mj_joints[0])
                for j in self.joint_names
            ],
            dtype=int,
        )
        self.inertia = joint_inertias(model, jnt_ids, self._dadr)
        defaults = default_gains(self.inertia, float(model.opt.timestep), effort_limit)
        gains = resolve_gains(robot, self.joint_names, params, defaults, self.inertia)
        for array in (gains.p, gains.i, gains.d):
            array[self._passive] = 0.0
        inertia0 = np.maximum(np.array(model.dof_M0)[self._dadr], 1e-9)
        self._scheduled = (
            np.zeros(n, dtype=bool) if gains.scheduled is None else gains.scheduled.copy()
        )
        self._scheduled &= ~self._passive
        self._ideal_mode = self.position_mode == "ideal"
        # the joint table of the per-cycle functions (layout: sdf_bridge.backends.mujoco.cycle)
        self._tab = cycle.make_table(
            self._qadr,
            self._dadr,
            self._act_adr,
            self._act_ids,
            inertia_diagonal_index(model)[self._dadr],
            gains.p,
            gains.i,
            gains.d,
            gains.i_clamp,
            inertia0,
            self._scheduled,
            self._passive,
            effort_limit,
        )
        self.pid = JointPid(gains, effort_limit, state=self._tab[INTEGRAL : SCALE + 1])
        self._has_i = self.pid.has_integral
        # integral, gain schedule or kinematic joints: the actuators are refreshed before every step
        self._refresh = self._has_i or bool(self._scheduled.any()) or self._ideal_mode
        self._n = n
        # joint_state outputs
        self._state_shapes = (
            (3, n + len(transmissions.follower_names)),
            (3, n),
        )
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
        self.compiled = (
            transmissions.compiled if self._compiled_choice is None else bool(self._compiled_choice)
        )
        self._select_kernels()
        self._timestep = float(model.opt.timestep)
        self._read_dt: object = _UNSET  # last dt given to read (checked) and its step count
        self._read_n = 0
        self._ideal_mask = np.zeros(n, dtype=bool)
        self._ideal_target = np.zeros(n)
        self._ideal_velocity = np.zeros(n)
        self.initial_pose = initial_pose(robot, params)
        self._place_on_ground = (
            options.ground_plane and options.lift_above_ground and options.base_pose is None
        )
        # (qpos, dof address, body) of the free-floating roots' joints
        self._free = free_roots(model)
        self._configured = True
        self.reset()

    def _select_kernels(self) -> None:
        """The per-cycle functions by :attr:`compiled` (:func:`.kernel.functions`,
        :func:`.kernel.fused`); state stays."""
        self._pre_step, self._apply_command, self._gather_state = kernel.functions(self.compiled)
        self._pack, self._view = kernel.fused(
            self.tm.kernel_pack if self.compiled else None,
            self.data,
            self._inertia,
            self._tab,
            self._has_i,
            self._ideal_mode,
        )
        # write_kernel's, after the command
        self._write_buffers = (
            self._view,
            self._gainprm,
            self._biasprm,
        )

    def use_compiled(self) -> None:
        """The compiled kernels (again after the map switched: the fused ones) from the next cycle
        on, same results and state (``HardwareSystem.use_compiled``); BackendError before
        configure."""
        self._require()
        self.compiled = True
        self._select_kernels()

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
        next ``dt`` s, in one compiled call (:func:`.kernel.write_kernel`): a command that
        differs bit for bit from the last applied one goes into MuJoCo's actuators (an
        identical one changes nothing, as the integral and the scheduled gains are refreshed
        before every step; except in ideal position mode); then the actuators are prepared for
        the next ``dt`` s (:func:`.cycle.prepare`: the refresh :meth:`read` would do before
        stepping, done here in the same call; undone if those steps do not follow, e.g. while
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
        try:
            values, mode, hold = command.values, command.mode, command.hold
        except AttributeError:  # not a JointCommand
            values, mode, hold = self._checked(command)
        if self._pack is not None:
            write_kernel = kernel.write_kernel
            try:
                write_kernel(
                    tab,
                    values,
                    mode,
                    hold,
                    *self._write_buffers,
                    self._write_span,
                    self._last_valid,
                    prep,
                )
            except TypeError:  # not the warmed-up kinds (C-contiguous float64, int8): convert
                values, mode, hold = self._checked(command)
                write_kernel(
                    tab,
                    values,
                    mode,
                    hold,
                    *self._write_buffers,
                    self._write_span,
                    self._last_valid,
                    prep,
                )
            except ValueError:
                self._checked(command)  # raises the shape error
                raise
        else:
            values, mode, hold = self._checked(command)
            if not (
                self._last_valid
                and not self._ideal_mode
                and values.tobytes() == tab[cycle.LAST : cycle.LAST + 3].tobytes()
                and np.array_equal(mode, tab[cycle.LAST_MODE])
                and hold.tobytes() == tab[cycle.LAST_HOLD].tobytes()
            ):
                self._apply_command(
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
                )
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
                    self._pre_step,
                )
        self._last_valid = True
        self._prepared = self._write_n if prep else 0
        if self._ideal_mode:
            self._follow_ideally(values[0], dt)

    def _set_write_dt(self, dt: float) -> None:
        """Remember ``dt`` of :meth:`write` and its number of physics steps (0 when
        ``dt`` is not a multiple of the timestep: nothing is prepared, the read raises).

        Raises:
            BackendError: before configure.
        """
        self._require()
        try:
            n = self._steps(dt)
        except BackendError:
            n = 0
        self._write_n, self._write_span, self._write_dt = n, n * self._timestep, dt

    def _checked(self, command: JointCommand) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``command``'s arrays as C-contiguous copies: values float64 (3, n_joints), mode
        int8 (n_joints,), hold float64 (n_joints,).

        Raises:
            BackendError: other shapes, or not numbers.
        """
        try:  # (copies: writeable, contiguous)
            values = np.array(command.values, dtype=float, order="C")
            mode = np.array(command.mode, dtype=MODE_DTYPE, order="C")
            hold = np.array(command.hold, dtype=float, order="C")
        except (AttributeError, TypeError, ValueError) as exc:  # ragged, not numbers, not a command
            raise BackendError(
                f"joint command is not (3, {self._n}), ({self._n},), ({self._n},) arrays of "
                f"numbers (values, mode, hold): {exc}"
            ) from exc
        shapes = (values.shape, mode.shape, hold.shape)
        if shapes != self._command_shapes:
            raise BackendError(
                f"joint command arrays of shapes {shapes}, expected {self._command_shapes} "
                "(values: rows position, velocity, effort; mode; hold; columns "
                f"{list(self.joint_names)})"
            )
        return values, mode, hold

    def _unprepare(self) -> None:
        """Undo the preparation of the last write (:func:`.cycle.unprepare`), if any."""
        if self._prepared:
            cycle.unprepare(self._tab)
            self._prepared = 0

    def _follow_ideally(self, qt: np.ndarray, dt: float) -> None:
        """Ideal position mode: the joints in position mode move to ``qt`` (rad or m) over the
        next ``dt`` s, kinematically."""
        q = self._qpos[self._qadr]
        ideal = self._tab[MODE] == cycle.POSITION
        self._ideal_mask = ideal
        self._ideal_velocity = np.where(ideal, (qt - q) / dt if dt > 0 else 0.0, 0.0)
        self._ideal_target = np.where(ideal, qt, 0.0)

    def _steps(self, dt: float) -> int:
        ts = self.options.timestep
        if not (isinstance(dt, numbers.Real) and math.isfinite(dt)) or dt > 1e9:
            raise BackendError(
                f"read(dt={dt!r}): dt must be a finite number of seconds up to 1e9 (a multiple "
                f"of the physics timestep {ts} s)"
            )
        dt = float(dt)  # (a numpy scalar is not compared in its own precision)
        n = int(round(dt / ts))
        if dt < 0.0 or abs(n * ts - dt) > 1e-9 * max(1.0, dt) + 1e-12:
            divisor = f" (e.g. {dt / math.ceil(dt / ts):.6g} s)" if dt > 0.0 else ""
            raise BackendError(
                f"read(dt={dt}) is not a multiple of the physics timestep {ts} s (backend "
                f"parameter timestep). Fix: set backend_params.timestep to a divisor of the "
                f"control period 1/update_rate{divisor}, or update_rate so that 1/update_rate "
                "is a multiple of the timestep"
            )
        return n

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
            self._pre_step(
                self._tab,
                self._qpos,
                self._act,
                self._inertia,
                self._force,
                self._gainprm,
                self._biasprm,
                n * ts,
                self._has_i,
            )
        t_end = data.time + n * ts
        # the state's arrays are made before stepping (the memory the step touches evicts
        # what Python would need to make them after it)
        out, actuators = np.empty(self._state_shapes[0]), np.empty(self._state_shapes[1])
        if not (self._ideal_mode and self._ideal_mask.any()):
            mujoco.mj_step(model, data, n)  # (positional: a keyword costs ~1 µs in pybind11)
        else:
            idx_q, idx_d = self._qadr[self._ideal_mask], self._dadr[self._ideal_mask]
            start = data.qpos[idx_q].copy()
            target = self._ideal_target[self._ideal_mask]
            for k in range(1, n + 1):
                data.qpos[idx_q] = start + (target - start) * (k / n)
                data.qvel[idx_d] = self._ideal_velocity[self._ideal_mask]
                mujoco.mj_step(model, data)
            data.qpos[idx_q] = target
            data.qvel[idx_d] = 0.0
            mujoco.mj_forward(model, data)
        out, actuators, stable = self._state_now(out, actuators)
        if not stable:
            self._check_stable(t_end)
            return self._state_now()[:2]
        return out, actuators

    def _state_now(
        self, out: np.ndarray | None = None, actuators: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, bool]:
        """The state now: new arrays (or ``out`` and ``actuators``, if given) of the joint
        state with the followers, (3, n_joints + n_followers), rows position, velocity and
        applied effort (0 on ideal joints), and of the actuator state, (3, n_actuators)
        (:meth:`TransmissionMap.joint_state`); and whether the simulation is stable
        (:func:`.cycle.gather_state`). One compiled call (:func:`.kernel.state_kernel`) outside
        ideal position mode."""
        if out is None or actuators is None:
            out, actuators = np.empty(self._state_shapes[0]), np.empty(self._state_shapes[1])
        if self._pack is not None and not self._ideal_mode:
            stable = kernel.state_kernel(
                self._tab, self._view, self._warnings, self._pack, out, actuators
            )
            return out, actuators, stable
        joint = np.empty((3, self._n))
        stable = self._gather_state(
            self._tab, self._qpos, self._qvel, self._force, self._warnings, joint
        )
        if self._ideal_mode:
            joint[2, self._ideal_mask] = 0.0
        out, actuators = self.tm.joint_state(joint)
        return out, actuators, stable

    def _check_stable(self, t_end: float) -> None:
        """Recover when MuJoCo met NaN/Inf/huge values (it then resets its data, time included,
        by itself, or leaves them non-finite): back to the initial state (:meth:`reset`) at
        simulated time ``t_end`` (s, where the steps should have ended), :attr:`instabilities`
        counted, and an error logged naming the joint (the 1st, 10th, 100th, … time)."""
        model, data = self._require()
        count = self._warnings  # view of data.warning.number; scalar reads: this runs every cycle
        qpos = data.qpos
        if not (
            count[_UNSTABLE[0]] or count[_UNSTABLE[1]] or count[_UNSTABLE[2]]
        ) and math.isfinite(qpos @ qpos):
            return
        joints = sorted(
            {
                model.joint(int(model.dof_jntid[stat.lastinfo])).name
                for w in _UNSTABLE
                if (stat := data.warning[w]).number and 0 <= stat.lastinfo < model.nv
            }
        )
        sim_time = float(t_end)
        self.instabilities += 1
        if math.log10(self.instabilities).is_integer():
            where = f" at joint(s) {joints}" if joints else ""
            _LOG.error(
                "MuJoCo simulation became unstable (NaN, Inf or huge values) near t = %.4f s%s; "
                "reset to the initial state (%d time(s) so far). Fix: check the masses and "
                "inertias of the links there (tiny or huge values), joint stop stiffness, "
                "PID gains and effort limits, or use a smaller timestep",
                sim_time,
                where,
                self.instabilities,
            )
        self.reset()
        data.time = sim_time
        self._rtf_mark = (self._clock(), sim_time)  # (reset marked time 0)

    def read(self, dt: float) -> JointSpaceState:
        """Step physics ``dt / timestep`` times (none while paused) and return the state: joints
        with followers, actuators (new arrays, one compiled call: :func:`.kernel.state_kernel`),
        the due sensor readings and the simulated time.

        Raises:
            BackendError: ``dt`` is not a multiple of the timestep, or before configure.
        """
        if not self._configured:
            self._require()
        data = self.data
        if dt != self._read_dt:
            self._read_n = self._steps(dt)
            self._read_dt = dt
        n = 0 if self._paused else self._read_n
        joints, actuators = self._advance(n)
        t = data.time
        sensors: SensorSuite = self.sensors  # type: ignore[assignment]  # (set by configure)
        readings = sensors.read_due(t) if sensors.channels else _NO_READINGS
        return JointSpaceState(joints, actuators, readings, t)

    # -- extras ---------------------------------------------------------------------------------
    @property
    def real_time_factor(self) -> float:
        """The achieved real-time factor: simulated time over wall time (s/s) since the
        previous measurement, taken when asked at least :data:`RTF_WINDOW` s of wall time
        after it (the node asks once per diagnostics period; asked sooner, the last value is
        returned). 0 until measured (from :meth:`configure` or the last :meth:`reset`), and
        over a paused interval. Costs the control cycle nothing (no clock read per tick).
        Reading it starts a new interval: one reader (the node's diagnostics) should own it."""
        data = self.data
        if data is None:
            return 0.0
        now, t = self._clock(), float(data.time)
        mark = self._rtf_mark
        if mark is None or t < mark[1]:  # (time went back: set from outside)
            self._rtf_mark = (now, t)
        elif now - mark[0] >= RTF_WINDOW:
            self._rtf = (t - mark[1]) / (now - mark[0])
            self._rtf_mark = (now, t)
        return self._rtf

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
        a free-floating robot without a base pose placed on the ground), followers of joint
        equalities (mimic, gearbox) set consistently from their leaders, time 0, PID cleared,
        joints holding their initial position (:func:`.initial_state.reset_state`)."""
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
        tab[cycle.ACTIVE] = 1.0
        self._last_valid = False
        self._prepared = 0
        self.pid.reset()
        # the load at rest (mj_forward above)
        self.pid.preload(static_loads(model, data)[self._dadr])
        # scheduled gains at the reset configuration, actuators written (no time passes)
        self._pre_step(
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
        self._ideal_mask = np.zeros(len(self.joint_names), dtype=bool)
        if self.sensors is not None:
            self.sensors.bind(model, data)
        self._rtf_mark, self._rtf = (self._clock(), float(data.time)), 0.0  # measured from here

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

    @property
    def joint_inertia(self) -> np.ndarray:
        """Each map joint's lightest effective inertia, ``1/(M⁻¹)_kk`` at the reference
        configuration (:mod:`.gains`), shape (n_joints,), kg·m² or kg (a copy)."""
        return self.inertia.apparent.copy()

    def base_state(self) -> BaseState | None:
        """The free-floating root link's ground-truth state now (the first free root; ``None``
        on a fixed base): MuJoCo's body pose of the link in the world and its twist in the
        link's frame (a copy, with the simulated time).

        Raises:
            BackendError: before configure.
        """
        _, data = self._require()
        if not self._free:
            return None
        adr, dof, link = self._free[0]
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
