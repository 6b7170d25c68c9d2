"""The simulation controls of a simulating backend on ROS: the ROS 2 standard simulation
interfaces (``simulation_interfaces``) when that package can be imported, the std_srvs
``~/pause`` and ``~/step`` always, and external wrenches on the robot's links.

Names (``~`` = the node's name; Gazebo's ros_gz_sim serves the same names on its ``gzserver``
node, so a script written against Gazebo drives the bridge run as ``-r __node:=gzserver``):

======  ================================  ======================================================
kind    name                              type
======  ================================  ======================================================
srv     ``~/get_simulator_features``      simulation_interfaces/srv/GetSimulatorFeatures
srv     ``~/get_simulation_state``        simulation_interfaces/srv/GetSimulationState
srv     ``~/set_simulation_state``        simulation_interfaces/srv/SetSimulationState
srv     ``~/reset_simulation``            simulation_interfaces/srv/ResetSimulation
srv     ``~/step_simulation``             simulation_interfaces/srv/StepSimulation
action  ``~/simulate_steps``              simulation_interfaces/action/SimulateSteps
srv     ``~/get_entities``                simulation_interfaces/srv/GetEntities
srv     ``~/get_entity_state``            simulation_interfaces/srv/GetEntityState
srv     ``~/get_entities_states``         simulation_interfaces/srv/GetEntitiesStates
srv     ``~/set_entity_state``            simulation_interfaces/srv/SetEntityState
srv     ``~/spawn_entity``                simulation_interfaces/srv/SpawnEntity (not supported)
srv     ``~/delete_entity``               simulation_interfaces/srv/DeleteEntity (not supported)
srv     ``~/pause``, ``~/step``           std_srvs/SetBool, std_srvs/Trigger
in      ``~/wrench``                      geometry_msgs/WrenchStamped (link frame)
in      ``~/world_wrench``                geometry_msgs/WrenchStamped (world frame)
srv     ``~/clear_wrenches``              std_srvs/Trigger
======  ================================  ======================================================

Semantics (the standard's, as Gazebo answers them): stepping only while paused (else
``RESULT_OPERATION_FAILED``); ``SetSimulationState`` per
:func:`~sdf_bridge.backends.mujoco.world.plan_transition` (``ALREADY_IN_TARGET_STATE`` for the
state it is in, ``RESULT_FEATURE_UNSUPPORTED`` for quitting and the world states); reset scopes
time, state or both (``SCOPE_SPAWNED`` alone: nothing is ever spawned, unsupported); entities,
their states and teleporting: :mod:`sdf_bridge.backends.mujoco.world`; spawning and deleting:
``RESULT_FEATURE_UNSUPPORTED``. ``GetSimulatorFeatures`` lists exactly :data:`FEATURES`.

Wrenches: the message's ``frame_id`` names the link (``link`` or ``<robot>::link``, or the
robot for its root link); the force and torque act at the link frame's origin, in that link's
frame (``~/wrench``, the ROS convention of a stamped vector) or the world frame
(``~/world_wrench``), for ``wrench_duration`` s of simulated time (0: until cleared, by an
all-zero wrench on the link or ``~/clear_wrenches``); a new wrench on a link replaces its last.

The package is not on PyPI: :func:`load_interfaces` imports it from the Python path, else from
an unpacked install tree (``$SDF_BRIDGE_SIMULATION_INTERFACES``, else
``<venv>/simulation_interfaces/install``, where ``.ci/setup`` unpacks the shared rig), loading
its libraries by path. Threads: the services run on the node's executor; the action on a
helper node's own two-thread executor (rclpy's EventsExecutor does not resume an awaiting
coroutine, and a cancel must be served while steps run); every touch of physics holds the
hardware system's lock. Errors: the services are the node's error boundaries
(:mod:`.callback_guard`: ``RESULT_OPERATION_FAILED`` with the error named); the action
aborts with it.
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from geometry_msgs.msg import WrenchStamped
from std_srvs.srv import SetBool, Trigger

from ..errors import SdfBridgeError
from ..hardware import HardwareSystem
from .qos import RELIABLE_QOS

if TYPE_CHECKING:  # pragma: no cover  (importing it imports mujoco: only when a world exists)
    from ..backends.mujoco.world import EntityState, World

MAX_STEPS = 100_000
"""Most physics steps one ``~/step_simulation`` call advances (the control loop waits
meanwhile); ``~/simulate_steps`` takes any number, one step at a time."""

PREFIX_VARIABLE = "SDF_BRIDGE_SIMULATION_INTERFACES"
_LIBRARIES = (
    "rosidl_generator_c",
    "rosidl_typesupport_c",
    "rosidl_typesupport_fastrtps_c",
    "rosidl_typesupport_introspection_c",
    "rosidl_generator_py",
)
_PY = f"python{sys.version_info[0]}.{sys.version_info[1]}"
_loaded: SimpleNamespace | None = None
_why_not: str | None = None


def install_prefix() -> Path:
    """Where an unpacked simulation_interfaces install tree is looked for:
    ``$SDF_BRIDGE_SIMULATION_INTERFACES``, else ``<sys.prefix>/simulation_interfaces/install``."""
    given = os.environ.get(PREFIX_VARIABLE)
    return Path(given) if given else Path(sys.prefix) / "simulation_interfaces" / "install"


def _import() -> SimpleNamespace:
    """The package's modules, their type support checked (raises ImportError and rosidl's
    errors)."""
    from simulation_interfaces import action, msg, srv

    type(srv.StepSimulation).__import_type_support__()
    type(action.SimulateSteps).__import_type_support__()
    return SimpleNamespace(msg=msg, srv=srv, action=action)


def load_interfaces() -> SimpleNamespace | None:
    """``simulation_interfaces`` (``.msg``, ``.srv``, ``.action``), or ``None`` when it cannot
    be imported (:func:`why_not` says why); found as the module doc says, once per process."""
    global _loaded, _why_not
    if _loaded is not None or _why_not is not None:
        return _loaded
    try:
        _loaded = _import()
        return _loaded
    except Exception as exc:  # ImportError, or its type support missing (UnsupportedTypeSupport)
        first = f"{type(exc).__name__}: {exc}"
    prefix = install_prefix()
    site = prefix / "lib" / _PY / "site-packages"
    if not (site / "simulation_interfaces").is_dir():
        _why_not = f"{first}; no install tree at {prefix} either"
        return None
    try:
        for kind in _LIBRARIES:
            ctypes.CDLL(
                str(prefix / "lib" / f"libsimulation_interfaces__{kind}.so"), ctypes.RTLD_GLOBAL
            )
        if str(site) not in sys.path:
            sys.path.insert(0, str(site))
        # as the rig's README sets them, for what looks the package up by name (ament_index,
        # rosidl's type-support loader) and for child processes
        for variable, path in (("AMENT_PREFIX_PATH", prefix), ("LD_LIBRARY_PATH", prefix / "lib")):
            value = os.environ.get(variable, "")
            if str(path) not in value.split(os.pathsep):
                os.environ[variable] = os.pathsep.join(p for p in (str(path), value) if p)
        _loaded = _import()
    except Exception as exc:
        _why_not = f"{first}; the install tree at {prefix} failed too: {type(exc).__name__}: {exc}"
    return _loaded


def why_not() -> str | None:
    """Why :func:`load_interfaces` found no package (``None`` once it did, or before asked)."""
    return _why_not


FEATURES = (
    "ENTITY_STATE_GETTING",
    "ENTITY_STATE_SETTING",
    "SIMULATION_RESET",
    "SIMULATION_RESET_TIME",
    "SIMULATION_RESET_STATE",
    "SIMULATION_STATE_GETTING",
    "SIMULATION_STATE_SETTING",
    "SIMULATION_STATE_PAUSE",
    "STEP_SIMULATION_SINGLE",
    "STEP_SIMULATION_MULTIPLE",
    "STEP_SIMULATION_ACTION",
)
"""The ``SimulatorFeatures`` the bridge lists (and serves): getting and setting entity states,
reset (time, state), getting and setting the run state (pausing too), stepping once, many
times and by the action."""


def _features(si: SimpleNamespace) -> list[int]:
    """The values of :data:`FEATURES`."""
    return [int(getattr(si.msg.SimulatorFeatures, name)) for name in FEATURES]


class SimulationControls:
    """The simulation controls of ``node`` over ``hardware`` (module doc); made by
    :func:`register`. :meth:`close` ends the action's helper node."""

    def __init__(self, node: Any, hardware: HardwareSystem, world: World | None) -> None:
        self.node, self.hardware, self.world = node, hardware, world
        if world is not None:  # (MuJoCo is imported already: the world is its backend's)
            from ..backends.mujoco import world as world_module

            self._w = world_module
        self._helper = None
        self._spinner: threading.Thread | None = None
        self._closing = threading.Event()
        node.create_service(SetBool, "~/pause", self._on_pause)
        node.create_service(Trigger, "~/step", self._on_step)
        self.si = load_interfaces() if world is not None else None
        if world is not None:
            node.create_subscription(
                WrenchStamped, "~/wrench", self._wrench(local=True), RELIABLE_QOS
            )
            node.create_subscription(
                WrenchStamped, "~/world_wrench", self._wrench(local=False), RELIABLE_QOS
            )
            node.create_service(Trigger, "~/clear_wrenches", self._on_clear_wrenches)
        if self.si is None:
            node.get_logger().info(
                "simulation_interfaces is not installed: the ROS 2 standard simulation services "
                "(step_simulation, set_simulation_state, …) are not served; ~/pause and ~/step "
                f"(std_srvs) are ({why_not() or 'no MuJoCo world'})"
            )
            return
        si = self.si
        srv = si.srv
        for type_, name, callback in (
            (srv.GetSimulatorFeatures, "get_simulator_features", self._on_features),
            (srv.GetSimulationState, "get_simulation_state", self._on_get_state),
            (srv.SetSimulationState, "set_simulation_state", self._on_set_state),
            (srv.ResetSimulation, "reset_simulation", self._on_reset),
            (srv.StepSimulation, "step_simulation", self._on_step_simulation),
            (srv.GetEntities, "get_entities", self._on_entities),
            (srv.GetEntityState, "get_entity_state", self._on_entity_state),
            (srv.GetEntitiesStates, "get_entities_states", self._on_entities_states),
            (srv.SetEntityState, "set_entity_state", self._on_set_entity_state),
            (srv.SpawnEntity, "spawn_entity", self._unsupported("spawning entities")),
            (srv.DeleteEntity, "delete_entity", self._unsupported("deleting entities")),
        ):
            node.create_service(type_, f"~/{name}", callback)  # (guarded: .callback_guard)
        self._start_action()

    # -- helpers --------------------------------------------------------------------------------
    def _result(self, code: int, message: str = "") -> Any:
        """A ``simulation_interfaces/msg/Result``."""
        return self.si.msg.Result(result=code, error_message=message)

    def _state(self) -> int:
        """The run state now (``SimulationState`` value; the caller holds the lock)."""
        return int(self.world.simulation_state(self.hardware.paused))

    # -- std_srvs -------------------------------------------------------------------------------
    def _on_pause(self, request: SetBool.Request, response: SetBool.Response) -> SetBool.Response:
        """``~/pause``: pause (``data`` true) or run the physics."""
        with self.hardware.lock:
            self.hardware.pause(bool(request.data))
            if self.world is not None:
                self.world.clear_stopped()
        response.success, response.message = True, "paused" if request.data else "running"
        return response

    def _on_step(self, request: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        """``~/step``: advance one physics step (also while running)."""
        try:
            self.hardware.step(1)
        except SdfBridgeError as exc:
            response.success, response.message = False, str(exc)
            return response
        response.success, response.message = True, "advanced 1 physics step"
        return response

    # -- run state ------------------------------------------------------------------------------
    def _on_features(self, request: Any, response: Any) -> Any:
        response.features.features = _features(self.si)
        response.features.spawn_formats = []
        return response

    def _on_get_state(self, request: Any, response: Any) -> Any:
        with self.hardware.lock:
            response.state.state = self._state()
        response.result = self._result(self.si.msg.Result.RESULT_OK)
        return response

    def _on_set_state(self, request: Any, response: Any) -> Any:
        Result, Srv = self.si.msg.Result, self.si.srv.SetSimulationState.Response
        target = int(request.state.state)
        with self.hardware.lock:
            Outcome = self._w.Outcome
            plan = self._w.plan_transition(
                self.world.simulation_state(self.hardware.paused), target
            )
            if plan.outcome is Outcome.UNSUPPORTED:
                response.result = self._result(
                    Result.RESULT_FEATURE_UNSUPPORTED,
                    f"state {target} cannot be set: only STATE_STOPPED (0), STATE_PLAYING (1) "
                    "and STATE_PAUSED (2) are",
                )
                return response
            if plan.outcome is Outcome.ALREADY:
                response.result = self._result(
                    Srv.ALREADY_IN_TARGET_STATE, f"the simulation is in state {target} already"
                )
                return response
            if plan.pause is not None:
                self.hardware.pause(plan.pause)
            if plan.reset:
                self.hardware.reset()
                self.world.mark_stopped()
            else:
                self.world.clear_stopped()
        response.result = self._result(Result.RESULT_OK)
        self.node.get_logger().info(f"simulation state set to {target}")
        return response

    def _on_reset(self, request: Any, response: Any) -> Any:
        Result, Req = self.si.msg.Result, self.si.srv.ResetSimulation.Request
        scope = int(request.scope)
        if scope in (Req.SCOPE_DEFAULT, Req.SCOPE_ALL):
            scope = Req.SCOPE_TIME | Req.SCOPE_STATE
        if scope & ~(Req.SCOPE_TIME | Req.SCOPE_STATE):
            response.result = self._result(
                Result.RESULT_FEATURE_UNSUPPORTED,
                f"reset scope {scope}: only SCOPE_TIME (1), SCOPE_STATE (2), both, "
                "SCOPE_DEFAULT and SCOPE_ALL are supported (nothing is ever spawned)",
            )
            return response
        backend = self.hardware.backend
        with self.hardware.lock:
            stopped = self._state() == self._w.SimulationState.STOPPED
            if scope & Req.SCOPE_STATE:
                t = self.world.time
                self.hardware.reset()
                if not scope & Req.SCOPE_TIME:
                    backend.set_time(t)
            else:
                backend.set_time(0.0)
            if stopped:
                self.world.mark_stopped()
            else:  # (paused or playing it stays: a reset does not stop it)
                self.world.clear_stopped()
        response.result = self._result(Result.RESULT_OK)
        self.node.get_logger().info(f"simulation reset (scope {int(request.scope)})")
        return response

    def _on_step_simulation(self, request: Any, response: Any) -> Any:
        Result = self.si.msg.Result
        steps = int(request.steps)
        if steps > MAX_STEPS:
            response.result = self._result(
                Result.RESULT_OPERATION_FAILED,
                f"{steps} steps refused: at most {MAX_STEPS} per call (the control loop waits "
                "meanwhile). Fix: call again, or use the simulate_steps action",
            )
            return response
        with self.hardware.lock:
            if not self.hardware.paused:
                response.result = self._result(
                    Result.RESULT_OPERATION_FAILED,
                    "the simulation has to be paused before stepping (set_simulation_state)",
                )
                return response
            self.hardware.step(steps)
        response.result = self._result(Result.RESULT_OK)
        return response

    # -- the action -----------------------------------------------------------------------------
    def _start_action(self) -> None:
        """The ``~/simulate_steps`` action server on a helper node and executor (module doc)."""
        import rclpy
        from rclpy.action import ActionServer, CancelResponse, GoalResponse
        from rclpy.callback_groups import ReentrantCallbackGroup
        from rclpy.executors import MultiThreadedExecutor
        from rclpy.qos import QoSProfile

        node = self.node
        helper = rclpy.create_node(
            f"{node.get_name()}_simulate_steps",
            namespace=node.get_namespace(),
            context=node.context,
            start_parameter_services=False,
            # not the process's -p/-r: '__node' would rename it as the bridge, and a helper on
            # use_sim_time woke its executor without pause (a core at 100 %, the loop starved)
            use_global_arguments=False,
        )
        group = ReentrantCallbackGroup()
        ActionServer(
            helper,
            self.si.action.SimulateSteps,
            f"{node.get_fully_qualified_name()}/simulate_steps",
            execute_callback=self._simulate_steps,
            goal_callback=lambda goal: GoalResponse.ACCEPT,
            cancel_callback=lambda goal: CancelResponse.ACCEPT,
            callback_group=group,
            feedback_pub_qos_profile=QoSProfile(depth=1000),  # (a feedback per step: none dropped)
        )
        executor = MultiThreadedExecutor(num_threads=2, context=node.context)
        executor.add_node(helper)
        self._helper, self._executor = helper, executor

        def spin() -> None:
            while not self._closing.is_set() and node.context.ok():
                try:
                    executor.spin_once(timeout_sec=0.1)
                except Exception:  # the context shut down under it
                    if node.context.ok() and not self._closing.is_set():
                        raise
                    return

        self._spinner = threading.Thread(target=spin, name="simulate_steps", daemon=True)
        self._spinner.start()

    def _simulate_steps(self, goal_handle: Any) -> Any:
        """``~/simulate_steps``: while paused, step one physics step at a time with feedback
        after each; a cancel ends it after the current step; an error aborts it (logged, its
        message in the result)."""
        try:
            return self._run_steps(goal_handle)
        except Exception as exc:  # an error boundary: the goal ends, the node goes on
            text = f"simulate_steps failed: {type(exc).__name__}: {exc}"
            self.node.get_logger().error(text)
            result = self.si.action.SimulateSteps.Result()
            result.result = self._result(self.si.msg.Result.RESULT_OPERATION_FAILED, text)
            goal_handle.abort()
            return result

    def _run_steps(self, goal_handle: Any) -> Any:
        si = self.si
        Result = si.msg.Result
        result = si.action.SimulateSteps.Result()
        steps = int(goal_handle.request.steps)
        feedback = si.action.SimulateSteps.Feedback()
        if not self.hardware.paused:
            result.result = self._result(
                Result.RESULT_OPERATION_FAILED,
                "the simulation has to be paused before stepping (set_simulation_state)",
            )
            goal_handle.abort()
            return result
        for done in range(1, steps + 1):
            if goal_handle.is_cancel_requested or self._closing.is_set():
                result.result = self._result(Result.RESULT_OK, f"canceled after {done - 1} steps")
                goal_handle.canceled()
                return result
            with self.hardware.lock:
                if not self.hardware.paused:
                    result.result = self._result(
                        Result.RESULT_OPERATION_FAILED,
                        f"the simulation was played after {done - 1} of {steps} steps",
                    )
                    goal_handle.abort()
                    return result
                self.hardware.step(1)
            feedback.completed_steps, feedback.remaining_steps = done, steps - done
            goal_handle.publish_feedback(feedback)
        result.result = self._result(Result.RESULT_OK, f"simulated {steps} steps")
        goal_handle.succeed()
        return result

    # -- entities -------------------------------------------------------------------------------
    def _entity_code(self, error: Any) -> int:
        """The result code of an :class:`~sdf_bridge.backends.mujoco.world.EntityError`."""
        Result = self.si.msg.Result
        return {
            "not_found": Result.RESULT_NOT_FOUND,
            "invalid_pose": self.si.srv.SetEntityState.Response.INVALID_POSE,
            "frame": Result.RESULT_FEATURE_UNSUPPORTED,
        }.get(error.reason, Result.RESULT_OPERATION_FAILED)

    def _filtered(self, filters: Any) -> tuple[list[str] | None, Any]:
        """The entity names matching ``filters`` (name as a regular expression), or ``None``
        and the result saying why not (categories, tags and bounds: unsupported)."""
        Result = self.si.msg.Result
        if filters.categories or filters.tags.tags or filters.bounds.type != 0:
            return None, self._result(
                Result.RESULT_FEATURE_UNSUPPORTED,
                "entity categories, tags and bounds are not supported: filter by name",
            )
        names = list(self.world.entities())
        if filters.filter:
            try:
                pattern = re.compile(filters.filter)
            except re.error as exc:
                return None, self._result(
                    Result.RESULT_OPERATION_FAILED, f"filter {filters.filter!r}: {exc}"
                )
            names = [n for n in names if pattern.search(n)]
        return names, self._result(Result.RESULT_OK)

    def _on_entities(self, request: Any, response: Any) -> Any:
        names, response.result = self._filtered(request.filters)
        response.entities = names or []
        return response

    def _fill(self, message: Any, state: "EntityState") -> None:
        """An ``EntityState`` message from the world's state (frame ``world``)."""
        from . import conversions

        message.header.frame_id = "world"
        message.header.stamp = conversions.time_msg(state.sim_time)
        p, q = message.pose.position, message.pose.orientation
        p.x, p.y, p.z = (float(v) for v in state.position)
        q.x, q.y, q.z, q.w = (float(v) for v in state.orientation)
        for vector, values in (
            (message.twist.linear, state.linear_velocity),
            (message.twist.angular, state.angular_velocity),
            (message.acceleration.linear, state.linear_acceleration),
            (message.acceleration.angular, state.angular_acceleration),
        ):
            vector.x, vector.y, vector.z = (float(v) for v in values)

    def _on_entity_state(self, request: Any, response: Any) -> Any:
        try:
            with self.hardware.lock:
                state = self.world.state(request.entity)
        except self._w.EntityError as exc:
            response.result = self._result(self._entity_code(exc), str(exc))
            return response
        self._fill(response.state, state)
        response.result = self._result(self.si.msg.Result.RESULT_OK)
        return response

    def _on_entities_states(self, request: Any, response: Any) -> Any:
        names, response.result = self._filtered(request.filters)
        if names is None:
            return response
        with self.hardware.lock:
            states = [self.world.state(n) for n in names]
        response.entities = names
        response.states = []
        for state in states:
            message = self.si.msg.EntityState()
            self._fill(message, state)
            response.states.append(message)
        return response

    def _on_set_entity_state(self, request: Any, response: Any) -> Any:
        s = request.state
        try:
            if s.header.frame_id not in ("", "world"):
                raise self._w.EntityError(
                    "frame",
                    f"reference frame {s.header.frame_id!r}: only the world frame ('' or "
                    "'world') is supported",
                )
            p, q, v, w = s.pose.position, s.pose.orientation, s.twist.linear, s.twist.angular
            with self.hardware.lock:
                self.world.set_state(
                    request.entity,
                    (p.x, p.y, p.z),
                    (q.x, q.y, q.z, q.w),
                    (v.x, v.y, v.z),
                    (w.x, w.y, w.z),
                )
        except self._w.EntityError as exc:
            response.result = self._result(self._entity_code(exc), str(exc))
            return response
        response.result = self._result(self.si.msg.Result.RESULT_OK)
        return response

    def _unsupported(self, what: str) -> Any:
        def callback(request: Any, response: Any) -> Any:
            response.result = self._result(
                self.si.msg.Result.RESULT_FEATURE_UNSUPPORTED,
                f"{what} is not supported: the bridge simulates the robot it was started with",
            )
            return response

        return callback

    # -- wrenches -------------------------------------------------------------------------------
    def _wrench(self, *, local: bool) -> Any:
        topic = "wrench" if local else "world_wrench"

        def callback(msg: WrenchStamped) -> None:
            f, t = msg.wrench.force, msg.wrench.torque
            duration = float(self.node.config.wrench_duration)
            try:
                with self.hardware.lock:
                    world = self.world
                    world.apply_wrench(
                        msg.header.frame_id,
                        (f.x, f.y, f.z),
                        (t.x, t.y, t.z),
                        local=local,
                        steps=world.steps_for(duration) if duration > 0 else None,
                    )
            except SdfBridgeError as exc:
                self._refuse_wrench(topic, exc)

        return callback

    def _refuse_wrench(self, topic: str, exc: SdfBridgeError) -> None:
        """Count a refused wrench per reason (``node_rejected.wrench_<reason>`` in
        /diagnostics: ``not_found``, ``static``, ``not_finite``, ``too_large``, else
        ``invalid``) and warn, throttled per reason (one reason's flood hides no other)."""
        key = f"wrench_{getattr(exc, 'reason', 'invalid')}"
        node = self.node
        node.rejects[key] += 1
        node._warn_throttled(
            f"~/{topic}: wrench refused: {exc} (refused so far for {key}: {node.rejects[key]})",
            key=key,
        )

    def _on_clear_wrenches(
        self, request: Trigger.Request, response: Trigger.Response
    ) -> Trigger.Response:
        with self.hardware.lock:
            self.world.clear_wrench()
        response.success, response.message = True, "every wrench cleared"
        return response

    # -- end ------------------------------------------------------------------------------------
    def close(self) -> None:
        """End the action's helper node and its executor (idempotent)."""
        self._closing.set()
        if self._spinner is not None:
            self._spinner.join(timeout=2.0)
            self._spinner = None
        if self._helper is not None:
            self._executor.shutdown(timeout_sec=1.0)
            self._helper.destroy_node()
            self._helper = None


def register(node: Any, hardware: HardwareSystem, *, stopped: bool = False) -> SimulationControls:
    """Serve the simulation controls of ``node``'s simulating ``hardware`` (module doc): the
    std_srvs ones always, the MuJoCo world's (standard services, wrenches) when the backend has
    one (``backend.world``). ``stopped``: the simulation starts stopped (paused at its initial
    state: ``start_paused``)."""
    world = getattr(hardware.backend, "world", None)
    if stopped and world is not None:
        with hardware.lock:
            world.mark_stopped()
    return SimulationControls(node, hardware, world)


__all__ = [
    "FEATURES",
    "MAX_STEPS",
    "SimulationControls",
    "install_prefix",
    "load_interfaces",
    "register",
    "why_not",
]
