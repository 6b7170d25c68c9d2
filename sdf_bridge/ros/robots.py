"""Several robots in one simulation: one bridge node per robot, in the robot's own namespace,
over one shared physics (:mod:`sdf_bridge.backends.shared`).

When the description holds several robots (``Robot.robots``: every robot of an SDFormat world,
``--model`` names, ``--robot`` placements; :func:`sdf_bridge.description.world.select_robots`),
the node the process started (the *world node*) builds the shared physics of them all and one
:class:`~sdf_bridge.ros.node.BridgeNode` per robot, named as itself, in the namespace
``<its namespace>/<robot name>``, with:

* the robot alone under its own names (:func:`~sdf_bridge.description.scope.unscope_robot`):
  its ``joint_states``, ``joint_commands``, ``~/…_commands``, ``~/joint_trajectory``,
  ``~/actuator_states``, sensors, ``odom``, ``~/enable``, ``~/reset``, its diagnostics status
  and its latched ``robot_description`` (the robot alone, for its own robot_state_publisher);
* the frame prefix ``<frame_prefix><robot name>/`` on every frame id (as its
  robot_state_publisher is given ``frame_prefix:=<robot name>/``);
* its own hardware system: commands, limits, watchdog, e-stop: one robot's fault holds that
  robot only.

``/clock`` and the simulation controls (``~/pause``, ``~/step``, the simulation_interfaces
services, wrenches: :mod:`.simulation`) are the world node's, over the whole simulation
(:class:`WorldHardware`); ``start_paused`` pauses it. One loop ticks every robot: all robots'
writes, then all reads (the first steps the physics once), then each robot publishes. Every
robot's part of a tick is its own error boundary: an exception in one robot's tick is logged
(throttled) and the others go on. The world node drops its own command topics, ``~/enable`` and
``~/reset`` (no robot is behind them): a command goes to a robot's namespace.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..app.description_source import LoadedDescription, robot_xml
from ..backends import create_backend
from ..backends.shared import RobotSlice, SharedPhysics
from ..description.scope import unscope_robot
from ..errors import ConfigError
from ..hardware import FixedRateLoop
from ..hardware.backend_setup import simulates
from . import logging_bridge, simulation
from .params import PARAMETERS

if TYPE_CHECKING:  # pragma: no cover
    from .node import BridgeNode

#: parameters of the world node a robot's node does not take (its description is given; its
#: frame prefix is its own)
NOT_INHERITED = frozenset(
    {"robot_description", "description_file", "model", "robots", "robot_namespaces", "frame_prefix"}
)


def parse_robot_namespaces(items: tuple[str, ...], robots: tuple[str, ...]) -> dict[str, str]:
    """The ``robot_namespaces`` parameter: ``ROBOT=NAMESPACE`` items → robot → namespace.

    Raises:
        ConfigError: an item not of that form, a robot the simulation does not hold, or a
            namespace that is no ROS name.
    """
    from ..util.ros_names import is_topic_name

    out: dict[str, str] = {}
    for item in items:
        robot, sep, namespace = item.partition("=")
        robot, namespace = robot.strip(), namespace.strip()
        if not sep or robot not in robots or not is_topic_name(namespace):
            raise ConfigError(
                f"robot_namespaces item {item!r} is not ROBOT=NAMESPACE with one of the robots "
                f"({', '.join(robots)}) and a ROS namespace. Fix: give e.g. "
                f"{robots[0]}=fleet/{robots[0]}."
            )
        out[robot] = namespace
    return out


def robot_namespace(parent: str, robot: str, given: str | None = None) -> str:
    """The ROS namespace of robot ``robot`` under the world node's namespace ``parent``: its
    name, or ``given`` (``robot_namespaces``; absolute when it starts with ``/``).

    Raises:
        ConfigError: ``robot`` is not a valid namespace token (letters, digits, ``_``; not
            starting with a digit) and no namespace is given.
    """
    from ..util.ros_names import is_topic_name

    if given:
        return given if given.startswith("/") else f"{parent.rstrip('/')}/{given}"
    if "/" in robot or not is_topic_name(robot):
        raise ConfigError(
            f"robot name {robot!r} is not a valid ROS namespace token (letters, digits and _, "
            "not starting with a digit), and each robot of several runs in the namespace of "
            "its name. Fix: rename the robot (the world's <model name>, or --robot NAME=FILE), "
            f"or give its namespace: robot_namespaces:=['{robot}=NAMESPACE']."
        )
    return f"{parent.rstrip('/')}/{robot}"


def member_parameters(node: BridgeNode, robot: str) -> list[Any]:
    """The parameters of robot ``robot``'s node: the world node's (but :data:`NOT_INHERITED`),
    and the frame prefix ``<frame_prefix><robot>/``."""
    from rclpy.parameter import Parameter

    out = []
    for name in [*PARAMETERS, "use_sim_time"]:
        if name in NOT_INHERITED or not node.has_parameter(name):
            continue
        parameter = node.get_parameter_or(name)  # (an array never given: uninitialised)
        if parameter.type_ is not Parameter.Type.NOT_SET:
            out.append(parameter)
    for name, value in node.config.backend_params.items():
        out.append(Parameter(f"backend_params.{name}", value=value))
    out.append(Parameter("frame_prefix", value=f"{node.config.frame_prefix}{robot}/"))
    return out


def robot_step(member: Any, what: str, call: Any, *args: Any) -> Any:
    """``call(*args)``: one robot's part of a tick (``what``: ``write``, ``read``, ``publish``),
    its own error boundary: an exception is counted (``cycle_<what>`` in the robot's
    diagnostics), logged on the robot's node (throttled) and ``None`` returned, so the other
    robots' ticks go on; quiet once the context has shut down."""
    try:
        with logging_bridge.speaking_for(member):  # (its records logged as this robot's)
            return call(*args)
    except Exception as exc:
        if not member.context.ok():
            return None
        member.rejects[f"cycle_{what}"] += 1
        member.get_logger().error(
            f"control tick ({what}) failed for this robot: {type(exc).__name__}: {exc}",
            throttle_duration_sec=1.0,
        )
        return None


class WorldLock:
    """The lock of the whole simulation: the world's tick lock (held by the loop for a whole
    tick of every robot), then the shared physics' (a leaf lock). Held by the simulation
    controls, it keeps the loop out, so that they may take a robot's own lock under it (a
    reset: the world's, then each robot's, then the physics'; the loop takes them in that
    order too)."""

    def __init__(self, world: RobotsWorld) -> None:
        self._world = world

    def __enter__(self) -> WorldLock:
        self._world.tick_lock.acquire()
        try:
            self._world.shared.lock.acquire()
        except BaseException:
            self._world.tick_lock.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._world.shared.lock.release()
        self._world.tick_lock.release()


class WorldHardware:
    """The whole simulation of several robots as :mod:`.simulation` drives a hardware system:
    pause, step and reset act on the shared physics (a reset re-homes every robot, time 0:
    each one's commands, holds and trajectory cleared; a robot's own ``~/reset`` re-homes that
    robot alone); ``lock`` is the whole simulation's (:class:`WorldLock`)."""

    def __init__(self, world: RobotsWorld) -> None:
        self._world = world
        self._lock = WorldLock(world)

    @property
    def lock(self) -> WorldLock:
        """The whole simulation's lock (:class:`WorldLock`)."""
        return self._lock

    @property
    def backend(self) -> Any:
        """The shared physics' backend (its entities: :mod:`.simulation`)."""
        return self._world.shared.backend

    @property
    def paused(self) -> bool:
        """Whether the simulation is paused."""
        return bool(getattr(self.backend, "paused", False))

    def pause(self, flag: bool) -> None:
        """Pause (``True``) or resume the whole simulation."""
        with self.lock:
            self.backend.pause(bool(flag))

    def step(self, n: int) -> None:
        """Advance ``n`` physics steps now, with every robot's current commands."""
        with self.lock:
            self.backend.step(n)

    def reset(self) -> None:
        """Reset the whole simulation (:meth:`SharedPhysics.reset
        <sdf_bridge.backends.shared.SharedPhysics.reset>`: every robot re-homed, time 0), then
        each robot's own reset (its commands, holds and trajectory cleared; its re-homing of
        itself changes nothing then). Each robot's reset takes its own lock, then the
        physics'."""
        self._world.shared.reset()
        for member in self._world.members:
            member.hardware.reset()


def shared_physics_error(backend: str, robots: Sequence[str]) -> ConfigError:
    """The error for several ``robots`` on a ``backend`` that does not simulate (the mock, a
    driver): several robots share one physics (the one rule, for the node and ``control``)."""
    return ConfigError(
        f"the description holds {len(robots)} robots ({', '.join(robots)}) and backend "
        f"{backend!r} does not simulate: several robots share one physics. Fix: "
        "backend:=mujoco, or choose one robot with --model NAME."
    )


class RobotsWorld:
    """The robots' nodes, the shared physics and the loop of a world node (module doc).

    Raises:
        ConfigError: a backend that does not simulate; a robot name that is no namespace
            token.
        SdfBridgeError: a robot the backend or hardware cannot use.
    """

    def __init__(self, node: BridgeNode, loaded: LoadedDescription) -> None:
        from .node import BridgeNode

        cfg = node.config
        self.node = node
        self.loop: FixedRateLoop | None = None
        #: held by the loop for a whole tick, and by the simulation controls (:class:`WorldLock`)
        self.tick_lock = threading.RLock()
        self.members: list[BridgeNode] = []
        self.shared: SharedPhysics | None = None
        robot = loaded.robot
        given = parse_robot_namespaces(cfg.robot_namespaces, robot.robots)
        namespaces = [
            robot_namespace(node.get_namespace(), name, given.get(name)) for name in robot.robots
        ]
        backend = create_backend(cfg.backend)
        if not simulates(backend):
            backend.close()
            raise shared_physics_error(cfg.backend, robot.robots)
        try:
            self.shared = SharedPhysics(backend, robot, cfg.backend_params or {})
            for name, namespace in zip(robot.robots, namespaces):
                alone = unscope_robot(robot, name)
                member = LoadedDescription(
                    alone, robot_xml(alone, chains=True), f"{loaded.origin}, robot {name!r}"
                )
                self.members.append(
                    BridgeNode(
                        start=False,
                        node_name=node.get_name(),
                        namespace=namespace,
                        context=node.context,
                        use_global_arguments=False,
                        parameter_overrides=member_parameters(node, name),
                        member=(member, RobotSlice(self.shared, name), self),
                    )
                )
        except BaseException:
            self.close()
            raise
        #: the whole simulation, as the world node's simulation controls drive it
        self.hardware = WorldHardware(self)
        if cfg.start_paused:
            self.hardware.pause(True)
        self.controls = simulation.register(node, self.hardware, stopped=cfg.start_paused)
        node.get_logger().info(
            f"{len(self.members)} robots in one simulation from {loaded.origin}: "
            + ", ".join(m.get_namespace() for m in self.members)
        )
        if node._start:
            sys.setswitchinterval(min(sys.getswitchinterval(), 0.2 / cfg.update_rate))
            self.loop = FixedRateLoop(
                self.cycle,
                cfg.update_rate,
                real_time_factor=cfg.real_time_factor,
                priority=cfg.thread_priority,
            )
            self.loop.start()

    def cycle(self, k: int) -> None:
        """One tick of every robot (module doc), under :attr:`tick_lock`; quiet once the
        context has shut down."""
        with self.tick_lock:
            self._cycle(k)

    def _cycle(self, k: int) -> None:
        node = self.node
        if not node.context.ok():
            return
        dt = node._dt
        stamp_time = node._clock.now()
        nows = []
        for member in self.members:
            now = member._time.now()
            nows.append(now)
            robot_step(member, "write", member.hardware.write, now, dt)
        clock_sent = False
        for member, now in zip(self.members, nows):
            state = robot_step(member, "read", member.hardware.read, now, dt)
            if state is None:
                continue
            if not clock_sent and state.sim_time is not None:
                node.sim_clock.tick(state.sim_time)  # (the world node's: /clock)
                clock_sent = True
            robot_step(member, "publish", member.publish_state, k, state, stamp_time)

    def close(self) -> None:
        """Stop the loop, close the robots' nodes and the shared physics (idempotent)."""
        controls = getattr(self, "controls", None)
        if controls is not None:
            controls.close()
            self.controls = None
        if self.loop is not None:
            self.loop.stop()
            self.loop = None
        for member in self.members:
            member.shutdown()
            member.destroy_node()
        self.members = []
        if self.shared is not None:
            self.shared.close()
            self.shared = None


__all__ = [
    "NOT_INHERITED",
    "RobotsWorld",
    "WorldHardware",
    "WorldLock",
    "member_parameters",
    "parse_robot_namespaces",
    "robot_namespace",
    "robot_step",
]
