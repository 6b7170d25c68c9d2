"""The ``sdf_bridge`` node: a :class:`~sdf_bridge.hardware.HardwareSystem` on ROS topics.

ROS interface (names relative to the node's namespace; ``~`` = ``<node name>/``):

=====  ============================  ===============================  =============================
dir    name                          type                             notes
=====  ============================  ===============================  =============================
out    ``joint_states``              sensor_msgs/JointState           every non-fixed joint incl.
                                                                      mimic followers, reliable,
                                                                      publish_rate
out    ``~/actuator_states``         sensor_msgs/JointState           actuator space, publish_rate
out    ``robot_description``         std_msgs/String                  transient local; only when
                                                                      the bridge is the
                                                                      description's source
out    ``/diagnostics``              diagnostic_msgs/DiagnosticArray  rate, overruns, clamps,
                                                                      watchdog, rejected commands
out    ``/clock``                    rosgraph_msgs/Clock              when the backend gives sim
                                                                      time
out    sensor topics                 Imu, WrenchStamped, LaserScan,   reliable (REP-2003), frame_id
                                     PointCloud2, Image+CameraInfo,   = ``Sensor.ros_frame_id``
                                     Range, contacts: PointCloud2
                                     (conversions.contact_msg)
in     ``joint_commands``            sensor_msgs/JointState           topic_based_ros2_control
                                                                      contract
in     ``~/position_commands`` etc.  std_msgs/Float64MultiArray       order = ``joints`` parameter
in     ``~/joint_trajectory``        trajectory_msgs/JointTrajectory  at most max_trajectory_points,
                                                                      read off the executor
                                                                      (.trajectory_intake)
in     ``~/claimed_interfaces``      std_msgs/String                  .control_topics
srv    ``~/enable`` ``~/reset``      std_srvs/SetBool, Trigger
srv    ``~/pause`` ``~/step``        std_srvs/SetBool, Trigger        only if the backend can
srv    ``~/step_simulation`` etc.    simulation_interfaces (ROS 2     simulating backends, when the
                                     standard)                        package is installed
                                                                      (:mod:`.simulation`)
in     ``~/wrench``                  geometry_msgs/WrenchStamped      MuJoCo: external wrenches
       ``~/world_wrench``                                             (:mod:`.simulation`)
out    ``odom``, ``/tf``             nav_msgs/Odometry, TFMessage     free-floating bases
                                                                      (.odometry)
out    ``~/joint_wrench/<joint>``    geometry_msgs/WrenchStamped      joints asking for feedback
                                                                      (.sensor_topics); frame_id
                                                                      = the child link
param  ``joint_properties.*``        double, writable                 the joints' properties:
                                                                      stops, limits, damping, …
                                                                      (.joint_parameters)
=====  ============================  ===============================  =============================

``joint_states`` / ``joint_commands`` move to the topics of the description's topic-based
``<ros2_control>`` block unless remapped (:mod:`.control_topics`).

Control tick (:meth:`BridgeNode.cycle`): write the latest commands → read the state they
produced → publish it, then the loop sleeps until the next tick; a command received during the
sleep is written, read back and published by the next tick (:mod:`sdf_bridge.hardware.system`),
where the limiter's rate limits apply over the tick's period.
joint_states / actuator_states are only serialised and published while the topic has
subscribers. Sensors are simulated on demand, as Gazebo's sensor plugins
(:mod:`.sensor_topics`): checked every :data:`~.sensor_topics.SENSOR_DEMAND_PERIOD` s on the
executor thread (``BridgeNode._update_sensor_demand``, ``HardwareSystem.set_sensor_demand``).
``/diagnostics``: :mod:`.diagnostics`.

Threads: the control tick runs on a :class:`~sdf_bridge.hardware.FixedRateLoop` thread;
subscriptions, services and the ``/diagnostics`` timer run on the executor's thread
(:func:`sdf_bridge.ros.main.make_executor`). The node talks to the hardware system only, whose
one lock serialises the tick, command submission and the services. Bad commands are rejected
with a throttled warning and counted (they never stop the loop). Every callback is an error
boundary (:mod:`.callback_guard`): an exception in one, or a ``/clock`` stamp rclpy cannot take
under ``use_sim_time``, is counted (``callback_dropped.<name>`` in ``/diagnostics``) and logged
the 1st, 10th, 100th, … time, never the end of the process.
"""

from __future__ import annotations

import gc
import logging
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from diagnostic_msgs.msg import DiagnosticArray
from rclpy.clock import Clock, ClockType
from rclpy.exceptions import ParameterException
from rclpy.service import Service
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray, String
from std_srvs.srv import SetBool, Trigger
from trajectory_msgs.msg import JointTrajectory

from ..app.description_source import LoadedDescription, load_description, resolve_description
from ..app.hardware_time import HardwareTime
from ..app.stop_signals import StopRequested, interruptible
from ..backends import create_backend
from ..backends.base import Mode
from ..description.feedback import with_feedback
from ..errors import CommandError, ConfigError, DescriptionError, SdfBridgeError
from ..hardware import FixedRateLoop, HardwareSystem
from ..hardware.backend_setup import simulates, unread_feedback
from ..util.clip import clipped_list
from . import conversions, logging_bridge, name_clash, robots, sim_clock, simulation
from .callback_guard import GuardedNode
from .control_topics import follow_topic_block, subscribe_claims
from .diagnostics import LoopDiagnostics, slow_loop_warning
from .joint_parameters import JointParameters
from .odometry import OdometryPublisher
from .params import BridgeConfig, declare_parameters, rclpy_parameter_error
from .qos import LATCHED_QOS, RELIABLE_QOS, QosOverridesNode
from .sensor_topics import SENSOR_DEMAND_PERIOD, SensorTopics
from .trajectory_intake import TrajectoryIntake, decode_trajectory

COMMAND_INTERFACES = ("position", "velocity", "effort")


class BridgeNode(GuardedNode, QosOverridesNode):
    # every callback an error boundary (.callback_guard); every topic's QoS overridable (.qos)
    """The bridge node (see module docstring for its interface).

    Args:
        start: start the control loop once configured (tests/bench may pass ``False`` and call
            :meth:`cycle` themselves).
        **kwargs: passed to :class:`rclpy.node.Node` (``context``, ``cli_args``,
            ``parameter_overrides``, …).

    Raises:
        ConfigError, DescriptionError, TransmissionError, LimitsError, BackendError: the
            parameters, description or backend cannot be used (raised from the constructor when
            the description comes from a parameter or the demo; when it arrives on the
            ``robot_description`` topic, a DescriptionError is logged and the node waits for
            another description, any other error is kept in ``failure``).
    """

    def __init__(
        self,
        *,
        start: bool = True,
        node_name: str = "sdf_bridge",
        member: tuple[LoadedDescription, Any, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        #: a robot of a simulation of several (:mod:`.robots`): its description alone, its
        #: slice of the shared physics and the world (its loop); ``None`` for a bridge of its own
        self._member = member
        try:
            super().__init__(node_name, **kwargs)
        except ParameterException as exc:  # a bad use_sim_time (rclpy declares it here)
            raise rclpy_parameter_error(exc) from exc
        try:
            self._set_up(start)
        except BaseException:
            # incl. a signal while starting (StopRequested, or the context shut down under these
            # calls): nothing of the half-built node outlives it (the loop thread, the log
            # forwarding, the rcl handles), as the caller never gets the node
            self.shutdown()
            self.destroy_node()
            raise

    def _set_up(self, start: bool) -> None:
        """The rest of construction (``__init__``): parameters, topics, services, and the robot
        when its description is given (configured and running)."""
        logging_bridge.attach(self)  # the package's Python log records → this node's rclpy logger
        self.config: BridgeConfig = declare_parameters(self)
        # The node reports rejected commands through its own (throttled) logger.
        logging.getLogger("sdf_bridge.hardware.commands").setLevel(logging.ERROR)
        self._start = start
        self.hardware: HardwareSystem | None = None
        self.joint_parameters: JointParameters | None = None
        self.description: LoadedDescription | None = None
        self.sensor_topics: SensorTopics | None = None
        self.loop: FixedRateLoop | None = None
        self.odometry: OdometryPublisher | None = None
        self.simulation: simulation.SimulationControls | None = None
        self.rejects: Counter[str] = Counter()  # reason → count
        self.command_warnings = 0
        self._warned: dict[str, float] = {}
        self._overridden_said: set[str] = set()  # inputs warned about (_say_if_overridden)
        self._sensor_demand: frozenset[str] | None = (
            None  # what the hardware was last asked to read
        )
        self._decimation = max(1, round(self.config.update_rate / self.config.state_rate))
        self.diagnostics = LoopDiagnostics(
            # the node's namespace in it, so that two namespaced bridges are told apart
            f"{self.get_fully_qualified_name().lstrip('/')}: control loop",
            self.config.update_rate,
            self.config.real_time_factor,
        )
        self._dt = 1.0 / self.config.update_rate
        self._description_pub = None
        self._description_sub = None
        self._clock = self.get_clock()
        #: the hardware system's now (commands, watchdog, trajectories): steady or simulated time
        self._time = HardwareTime()
        #: each tick's simulated time: observed, and on /clock (not by a robot of several:
        #: their world node publishes it, :mod:`.robots`)
        self.sim_clock = sim_clock.ClockPublisher(self, self._time, publish=self._member is None)
        #: a configuration error found once the description arrived on the topic: the process
        #: ends with it (sdf_bridge.ros.main)
        self.failure: SdfBridgeError | None = None

        self.joint_state_pub = self.create_publisher(JointState, "joint_states", RELIABLE_QOS)
        self.actuator_state_pub = self.create_publisher(
            JointState, "~/actuator_states", RELIABLE_QOS
        )
        self.diagnostics_pub = self.create_publisher(DiagnosticArray, "/diagnostics", 10)
        # On the executor thread, not in the control loop (building the message is costly);
        # steady clock, so diagnostics keep coming while a simulation is paused.
        self.create_timer(
            1.0 / self.config.diagnostics_rate,
            self._publish_diagnostics,
            clock=Clock(clock_type=ClockType.STEADY_TIME),
        )
        # which sensors are wanted, from their subscriber counts (one call per topic: on the
        # executor thread, not in the control tick; doc/dev/rationale.md)
        self.create_timer(
            SENSOR_DEMAND_PERIOD,
            self._update_sensor_demand,
            clock=Clock(clock_type=ClockType.STEADY_TIME),
        )

        self.joint_command_sub = self.create_subscription(
            JointState, "joint_commands", self._on_joint_commands, RELIABLE_QOS
        )
        #: the robot's other command topics and services (a node running several robots
        #: destroys them: each robot's node has its own, :mod:`.robots`)
        self._robot_interfaces: list[Any] = [subscribe_claims(self)]  # a manager's claims
        for interface in COMMAND_INTERFACES:
            self._robot_interfaces.append(
                self.create_subscription(
                    Float64MultiArray,
                    f"~/{interface}_commands",
                    self._array_callback(interface),
                    RELIABLE_QOS,
                )
            )
        # raw: counted and bounded before it is read, read off the executor thread
        # (.trajectory_intake)
        self._trajectory_intake = TrajectoryIntake(
            self.config.max_trajectory_points,
            self._on_trajectory_bytes,
            self._reject,
            self._on_trajectory_error,
        )
        self._robot_interfaces += [
            self.create_subscription(
                JointTrajectory,
                "~/joint_trajectory",
                self._trajectory_intake.offer,
                RELIABLE_QOS,
                raw=True,
            ),
            self.create_service(SetBool, "~/enable", self._on_enable),
            self.create_service(Trigger, "~/reset", self._on_reset),
        ]

        #: the simulation of several robots this node runs (:mod:`.robots`), else ``None``
        self.world: robots.RobotsWorld | None = None
        if self._member is not None:  # one robot of several: its description is given
            loaded, slice_, _loop = self._member
            self.configure(loaded, backend=slice_)
            self._description_pub = self.create_publisher(String, "robot_description", LATCHED_QOS)
            self._description_pub.publish(String(data=loaded.xml))
            return
        loaded = resolve_description(
            self.config.robot_description,
            self.config.description_file,
            self.config.xacro_args,
            self.config.use_description_topic,
            package_paths=self.config.package_paths,
            model=self.config.model,
            robots=self.config.robots,
            allow_local_files=self.config.allow_local_files,
        )
        if loaded is None:
            self.get_logger().info("waiting for the description on the robot_description topic")
            self._description_sub = self.create_subscription(
                String, "robot_description", self._on_description_topic, LATCHED_QOS
            )
        else:
            self.configure(loaded)
            # the bridge is the description's source: publish it latched (as
            # robot_state_publisher does)
            self._description_pub = self.create_publisher(String, "robot_description", LATCHED_QOS)
            self._description_pub.publish(String(data=loaded.xml))

    # ------------------------------------------------------------------ configuration

    def configure(self, loaded: LoadedDescription, backend: Any = None) -> None:
        """Build backend + hardware system for ``loaded`` and start the loop; several robots
        (``loaded.robot.robots``): one node per robot over one shared physics
        (:mod:`.robots`). ``backend``: the backend to use (a robot's slice of the shared
        physics), else the ``backend`` parameter's.

        Raises:
            SdfBridgeError: (subclasses) the robot, limits or backend cannot be used.
        """
        cfg = self.config
        if loaded.robot.robots and self._member is None:
            self.world = robots.RobotsWorld(self, loaded)
            self.description = loaded
            # no robot behind this node's own command topics and services: each robot's
            # node serves them in the robot's namespace (a command sent here would be lost)
            for entity in (self.joint_command_sub, *self._robot_interfaces):
                if isinstance(entity, Service):
                    self.destroy_service(entity)
                else:
                    self.destroy_subscription(entity)
            self._robot_interfaces = []
            return
        follow_topic_block(self, loaded.robot)  # its topics, as its controller_manager's plugin
        overrides = None
        if cfg.joint_limits_file:
            from ..limits import JointLimiter

            overrides = JointLimiter.load_overrides(cfg.joint_limits_file)
        backend = create_backend(cfg.backend) if backend is None else backend
        if cfg.start_paused and not simulates(backend) and self._member is None:
            raise ConfigError(
                f"start_paused is true but backend {cfg.backend!r} does not simulate. "
                "Fix: use a simulating backend (mujoco) or start_paused:=false."
            )
        robot = with_feedback(loaded.robot, cfg.joint_feedback)  # (the description's, if none)
        hardware = HardwareSystem(
            robot,
            backend,
            joints=list(cfg.joints) or None,
            command_timeout=cfg.command_timeout,
            limits_overrides=overrides,
            backend_params=cfg.backend_params or None,
            update_rate=cfg.update_rate,
            timed=False,  # the loop times each tick, publishing included (self.loop.timing)
        )
        self.sensor_topics = SensorTopics(self, robot, frame_prefix=cfg.frame_prefix)
        unread = unread_feedback(robot, hardware.backend, cfg.backend, cfg.joint_feedback)
        if unread:  # (a warning when the parameter asks; the description's ask alone: info)
            logger = self.get_logger()
            (logger.warning if cfg.joint_feedback else logger.info)(unread)
        self.hardware, self.description = hardware, loaded
        # joint_properties.<joint>.<property>: the joints' properties, writable (.joint_parameters)
        self.joint_parameters = JointParameters(self, hardware)
        self._joint_writer = conversions.JointStateWriter(hardware.state_names)
        self._actuator_writer = conversions.JointStateWriter(hardware.actuator_names)
        # warns once if use_sim_time is on and /clock never comes (a simulating backend is
        # the /clock source: at 0 it is paused, as start_paused asks)
        if self._member is None and not hardware.simulating:
            sim_clock.watch(self, cfg.backend)
        if self._member is None:  # warns once if another node has this one's name
            name_clash.watch(self)
        if cfg.start_paused:
            hardware.pause(True)
            self.get_logger().info(
                "physics paused (start_paused): ~/reset places the robot, ~/pause false runs it"
            )
        if hardware.simulating:  # ~/pause, ~/step, the standard simulation services (.simulation)
            self.simulation = simulation.register(self, hardware, stopped=cfg.start_paused)
        if hardware.base_state() is not None:  # a free-floating base: ground-truth odometry
            self.odometry = OdometryPublisher(
                self, cfg.odom_frame, cfg.base_frame, cfg.odom_tf, cfg.frame_prefix
            )
        self.get_logger().info(
            f"robot {loaded.robot.name!r} from {loaded.origin}: {len(hardware.state_names)} joints "
            f"({len(hardware.joint_names)} commandable), {len(hardware.actuator_names)} actuators, "
            f"backend {cfg.backend!r}, {cfg.update_rate:g} Hz"
        )
        if self._start:
            # A thread waiting for the GIL gets it after at most the switch interval (5 ms by
            # default): keep that well below the period so the loop thread wakes on time.
            sys.setswitchinterval(min(sys.getswitchinterval(), 0.2 / cfg.update_rate))
            # Everything built so far (rclpy, numpy, the robot: ~10⁵ objects) lives as
            # long as the process: move it out of the garbage collector's generations, so a
            # full collection triggered later scans only newer objects instead of stalling
            # the loop (doc/dev/rationale.md).
            gc.freeze()
            self.loop = FixedRateLoop(
                self.cycle,
                cfg.update_rate,
                real_time_factor=cfg.real_time_factor,
                priority=cfg.thread_priority,
            )
            self.loop.start()

    def _on_description_topic(self, msg: String) -> None:
        if self.hardware is not None:
            self.get_logger().warning(
                "robot_description changed; restart the bridge to use the new description",
                throttle_duration_sec=10.0,
            )
            return
        try:
            with interruptible():  # a SIGINT/SIGTERM abandons the configuration (the process stops)
                self.configure(
                    load_description(
                        msg.data,
                        is_file=False,
                        origin="topic robot_description",
                        package_paths=self.config.package_paths,
                        model=self.config.model,
                        robots=self.config.robots,
                        allow_local_files=self.config.allow_local_files,
                    )
                )
        except StopRequested:
            self.shutdown()
        except DescriptionError as exc:  # this text cannot be used (a corrected one may follow)
            self.get_logger().error(
                f"refused the description from the topic (waiting for another): {exc}"
            )
        except SdfBridgeError as exc:  # a configuration error: the process ends with it
            self.shutdown()
            self.failure = exc

    # ------------------------------------------------------------------ control cycle

    def cycle(self, k: int) -> None:
        """One control tick (``k`` counts ticks from 0): write the latest commands, read the state
        they produced, publish it (joint/actuator states at ``publish_rate``: every tick by default;
        sensors, /clock); the loop then sleeps until the next tick
        (:meth:`sdf_bridge.hardware.HardwareSystem.cycle`). A command received during the sleep is
        therefore written, read back and published within the next tick. (``/diagnostics`` is
        published by a timer on the executor thread.)

        Raises:
            SdfBridgeError, rclpy._rclpy_pybind11.RCLError: from the hardware system or a
                publish, unless the context shut down meanwhile (SIGINT/SIGTERM while the cycle
                runs: the cycle ends quietly; the loop is stopped right after).
        """
        if not self.context.ok():
            return
        try:
            self._cycle(k)
        except Exception:
            if self.context.ok():
                raise

    def _cycle(self, k: int) -> None:
        stamp_time = self._clock.now()
        state = self.hardware.cycle(self._time.now(), self._dt)
        self.publish_state(k, state, stamp_time)

    def publish_state(self, k: int, state: Any, stamp_time: Any) -> None:
        """Publish the state of tick ``k`` read at ``stamp_time`` (node clock): ``/clock``
        (not by a robot of several: their world publishes it), joint and actuator states,
        odometry, sensors."""
        hardware = self.hardware
        clock = self._clock
        sim_time = state.sim_time
        # first, so that the states' stamps are not ahead of /clock
        self.sim_clock.tick(sim_time)
        if sim_time is not None and clock.ros_time_is_active:
            # on simulated time the state is that of the simulation after this tick's step
            stamp = conversions.time_msg(sim_time)
        else:
            stamp = stamp_time.to_msg()
        if k % self._decimation == 0:
            self._publish_states(state, stamp)
            odometry = self.odometry
            if odometry is not None and odometry.wanted():
                base = hardware.base_state()
                if base is not None:
                    odometry.publish(base, stamp)
        if state.sensors:
            self.sensor_topics.publish(state.sensors, stamp)

    def _publish_states(self, state: Any, stamp: Any) -> None:
        """Publish joint_states and actuator_states of ``state`` (on the loop thread: the
        writers reuse their buffers)."""
        # Published already serialised (the names once, then only stamp and arrays
        # written), and only to a topic somebody subscribes to (one subscriber count per
        # topic), which a volatile subscriber cannot tell apart (doc/dev/rationale.md).
        pub = self.joint_state_pub
        if pub.get_subscription_count():
            pub.publish(
                self._joint_writer.serialized(state.position, state.velocity, state.effort, stamp)
            )
        pub = self.actuator_state_pub
        if pub.get_subscription_count():
            pub.publish(
                self._actuator_writer.serialized(
                    state.actuator_position,
                    state.actuator_velocity,
                    state.actuator_effort,
                    stamp,
                )
            )

    def _update_sensor_demand(self) -> None:
        """Timer callback (every :data:`~.sensor_topics.SENSOR_DEMAND_PERIOD` s): ask the
        hardware for the readings of the sensors wanted now (:meth:`SensorTopics.wanted
        <sdf_bridge.ros.sensor_topics.SensorTopics.wanted>`: subscribed, or not published yet).
        Sensors nobody listens to are then not simulated — no ray casting, no rendering — as
        Gazebo's sensor plugins do; a new subscriber gets readings within one period."""
        hardware, topics = self.hardware, self.sensor_topics
        if hardware is None or topics is None or not self.context.ok():
            return
        demand = topics.wanted()
        if demand == self._sensor_demand:
            return
        hardware.set_sensor_demand(demand)
        self._sensor_demand = demand
        self.get_logger().debug(
            f"sensors read now (subscribed or not yet published): {sorted(demand)}"
        )

    # ------------------------------------------------------------------ diagnostics

    def _publish_diagnostics(self) -> None:
        """Timer callback: publish :meth:`diagnostics_message` stamped with the node clock, and
        warn (every 10 s at most) when the loop falls well behind its rate. Quiet once the
        context has shut down (SIGINT/SIGTERM may land between the timer firing and here)."""
        if not self.context.ok():
            return
        message = self.diagnostics_message(self.get_clock().now().to_msg())
        try:
            self.diagnostics_pub.publish(message)
        except Exception:
            if self.context.ok():
                raise
            return
        self._warn_if_slow({kv.key: kv.value for kv in message.status[0].values})

    def _warn_if_slow(self, values: dict[str, str]) -> None:
        """Warn (every 10 s at most) when the loop falls well behind its rate
        (:func:`.diagnostics.slow_loop_warning`)."""
        warning = slow_loop_warning(values, self.config.update_rate)
        if warning is not None:
            self._warn_throttled(warning, period=10.0, key="slow_loop")  # (rate in the text)

    def diagnostics_message(self, stamp: Any) -> DiagnosticArray:
        """``/diagnostics`` now (:meth:`.diagnostics.LoopDiagnostics.message`)."""
        return self.diagnostics.message(
            stamp,
            self.hardware,
            self.loop if self._member is None else self._member[2].loop,
            self.rejects,
            self.command_warnings,
            self.callback_guard.dropped,
            self.description.robot.name if self.description else "",
        )

    # ------------------------------------------------------------------ command inputs

    def _submit(self, source: str, submit: Callable[[Any], list[str]]) -> None:
        """Run one ``HardwareSystem.submit_*`` call under the lock; count and log problems."""
        hardware = self.hardware
        if hardware is None:
            self.rejects["not_configured"] += 1
            self._warn_throttled(f"{source}: command ignored, no robot description yet")
            return
        now = self._time.now()
        try:
            warnings = submit(now)
        except CommandError as exc:
            self.rejects[source] += 1
            self._warn_throttled(f"{source}: command rejected: {exc}")
            return
        except Exception as exc:  # a bad message must never stop the node: count it, say it
            self.rejects[source] += 1
            self.get_logger().error(
                f"{source}: command could not be applied ({type(exc).__name__}: {exc}); "
                "the last good command holds",
                throttle_duration_sec=1.0,
            )
            return
        if warnings:
            self.command_warnings += len(warnings)
            for warning in warnings:
                self._warn_throttled(f"{source}: {warning}")

    def _warn_throttled(self, text: str, period: float = 1.0, key: str | None = None) -> None:
        """Log ``text`` as a warning unless the same text (or the same ``key``, for a text that
        carries a changing number) was logged less than ``period`` s ago (so a flood of one bad
        command logs once a second, while different problems all show)."""
        now = time.monotonic()
        key = text if key is None else key
        if now - self._warned.get(key, -math.inf) >= period:
            if len(self._warned) > 1000:
                self._warned.clear()
            self._warned[key] = now
            self.get_logger().warning(text)

    def _on_joint_commands(self, msg: JointState) -> None:
        cmd = conversions.joint_state_command(msg)
        self._submit(
            "joint_commands",
            lambda now: self.hardware.submit_joint_state(
                cmd.names, cmd.position, cmd.velocity, cmd.effort, now
            ),
        )

    def _say_if_overridden(self, source: str, joints: Sequence[str], interface: str) -> None:
        """Warn once per input ``source`` when the bridge follows a controller_manager's claims
        (:mod:`.control_topics`) and an active controller claims ``interface`` of any of
        ``joints``: the topic-based plugin sends that controller's command every cycle, which
        overrides this input's (a trajectory on ``~/joint_trajectory`` beside
        joint_trajectory_controller would else be silently lost)."""
        hardware = self.hardware
        if source in self._overridden_said or hardware is None:
            return
        commands = hardware.commands
        claimed = commands.claimed
        if claimed is None:
            return
        bit = int(Mode[interface.upper()])
        index = [commands.index_of(j) for j in joints]
        taken = [j for j, k in zip(joints, index) if k is not None and int(claimed[k]) & bit]
        if not taken:
            return
        self._overridden_said.add(source)
        self.get_logger().warning(
            f"{source}: the {interface} of {clipped_list(taken)} is claimed by an active "
            "controller of the controller_manager, whose commands (every cycle) override this "
            "input's: the bridge's own command inputs are not for use beside a "
            "controller_manager. Fix: command these joints through the controller (e.g. "
            "joint_trajectory_controller's ~/joint_trajectory), or deactivate it (said once)"
        )

    def _array_callback(self, interface: str) -> Callable[[Float64MultiArray], None]:
        def callback(msg: Float64MultiArray) -> None:
            values = conversions.float_array(msg)
            if self.hardware is not None:
                commandable = self.hardware.commands.commandable
                self._say_if_overridden(f"{interface}_commands", commandable, interface)
            self._submit(
                f"{interface}_commands",
                lambda now: self.hardware.submit_array(interface, values, now),
            )

        return callback

    def _reject(self, reason: str, text: str) -> None:
        """Count a refused command under ``reason`` (``node_rejected.<reason>``) and warn
        (throttled)."""
        self.rejects[reason] += 1
        self._warn_throttled(text)

    def _on_trajectory_bytes(self, data: bytes) -> None:
        """A serialised JointTrajectory the intake accepted (worker thread, or the executor's
        for a small one): its arrays read straight from the CDR bytes
        (:func:`.trajectory_intake.decode_trajectory`), then submitted."""
        try:
            traj = decode_trajectory(data)
        except CommandError as exc:  # (one stamped before 0: as in the past, trajectory_in_past)
            reason = getattr(exc, "reason", "joint_trajectory")
            self._reject(reason, f"joint_trajectory: command rejected: {exc}")
            return
        self._submit_trajectory(traj)

    def _on_trajectory_error(self, exc: Exception) -> None:
        """An exception processing a trajectory (e.g. bytes rclpy cannot deserialise): counted
        as a dropped call of the trajectory subscription (.callback_guard)."""
        self.callback_guard.record(self.resolve_topic_name("~/joint_trajectory"), exc)

    def _submit_trajectory(self, traj: conversions.TrajectoryCommand) -> None:
        """Submit ``traj`` to the hardware system, its stamp taken on the node's time base."""
        self._say_if_overridden("joint_trajectory", traj.names, "position")
        self._submit(
            "joint_trajectory",
            lambda now: self.hardware.submit_trajectory(
                traj.names,
                traj.times,
                traj.positions,
                traj.velocities,
                traj.accelerations,
                now,
                start=None
                if traj.start is None
                else self._time.from_ros(traj.start, self._clock.now().nanoseconds * 1e-9),
            ),
        )

    # ------------------------------------------------------------------ services

    def _on_enable(self, request: SetBool.Request, response: SetBool.Response) -> SetBool.Response:
        if self.hardware is None:
            response.success, response.message = False, "no robot description yet"
            return response
        self.hardware.enable(bool(request.data))
        response.success = True
        response.message = "enabled" if request.data else "disabled: commands are held"
        self.get_logger().info(f"~/enable: {response.message}")
        return response

    def _on_reset(self, request: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        if self.hardware is None:
            response.success, response.message = False, "no robot description yet"
            return response
        self.hardware.reset()
        response.success, response.message = True, "reset to the initial state"
        self.get_logger().info("~/reset: reset to the initial state")
        return response

    # ------------------------------------------------------------------ shutdown

    def shutdown(self) -> None:
        """Stop the loop and close the hardware system (idempotent; also on a node whose
        construction was interrupted before these were made)."""
        world = getattr(self, "world", None)
        if world is not None:
            world.close()  # the robots' nodes, the shared loop and physics
            self.world = None
        intake = getattr(self, "_trajectory_intake", None)
        if intake is not None:
            intake.close()
        loop = getattr(self, "loop", None)
        controls = getattr(self, "simulation", None)
        if controls is not None:
            controls.close()
        if loop is not None:
            loop.stop()
        hardware, self.hardware = getattr(self, "hardware", None), None
        if hardware is not None:
            hardware.close()
        logging_bridge.detach(self)
