"""Launch-argument handling of ``launch/ros2_control.launch.py``: the bridge driven by a
controller_manager through ros2_control's topic-based hardware interfaces, as plain Python (no
``launch``), tested without a ROS install.

:func:`control_plan` takes the arguments (:data:`ARGUMENTS`: those of robot.launch.py but rviz,
:data:`~.launch_args.COMMON_ARGUMENTS`, read by the same code, plus the ros2_control ones) and
returns what the launch file starts, as ros2_control_demos do:

* robot_state_publisher on the description **with the topic-based block**: a description whose
  ``<ros2_control>`` block already names a topic-based plugin is used as it is (its plugin and
  topics); any other gets the block made from its joints and transmissions
  (:func:`sdf_bridge.hardware.topic_block.with_topic_block`: ``plugin``,
  ``command_interfaces``, topics ``/<namespace>/sdf_bridge/joint_commands`` and
  ``.../joint_states``), so no robot needs a hand-edited block;
* the bridge, on that description (from robot_state_publisher's ``robot_description``), at the
  controller_manager's ``update_rate``, its ``joint_states`` / ``joint_commands`` remapped to
  the block's topics (so joint_state_broadcaster alone publishes ``joint_states``, for
  robot_state_publisher), and each IMU / force-torque sensor that a sensor broadcaster of the
  controllers file names remapped to that broadcaster's topic (``<broadcaster>/imu``,
  ``<broadcaster>/wrench``): the plugins carry no sensor readings, so the bridge serves those
  topics itself (:func:`sensor_remappings`) and the broadcasters are not spawned;
* ``ros2_control_node`` with ``controllers_file`` (``/**/`` keys match any namespace), which
  takes the description from the ``robot_description`` topic;
* the spawners: joint_state_broadcaster and ``controllers`` active, ``inactive_controllers``
  loaded and configured (``ros2 control switch_controllers`` activates them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..description.model import Robot, Sensor
from ..errors import ConfigError
from .launch_args import (
    BRIDGE_CONFIG,
    COMMON_ARGUMENTS,
    PACKAGE,
    LaunchArgument,
    command_text,
    common_values,
)

CONTROLLERS_CONFIG = ("config", "ros2_controllers.yaml")
BROADCASTER = "joint_state_broadcaster/JointStateBroadcaster"
#: sensor broadcaster type → (sensor type it reads, its topic below its node name)
SENSOR_BROADCASTERS = {
    "imu_sensor_broadcaster/IMUSensorBroadcaster": ("imu", "imu"),
    "force_torque_sensor_broadcaster/ForceTorqueSensorBroadcaster": ("force_torque", "wrench"),
}

PACKAGE_PATHS = LaunchArgument(
    "package_paths",
    "",
    "Package directories for package:// and $(find pkg), 'pkg=DIR pkg2=DIR2', searched before "
    "the ament index (the description's expansion here and the bridge's meshes).",
)
ARGUMENTS: tuple[LaunchArgument, ...] = (
    *COMMON_ARGUMENTS,
    PACKAGE_PATHS,
    LaunchArgument(
        "model",
        "",
        "The robot of an SDFormat world holding several (empty: its only robot).",
    ),
    LaunchArgument(
        "controllers_file",
        None,
        "Controllers YAML (default: config/ros2_controllers.yaml, the demo arm's).",
        CONTROLLERS_CONFIG,
    ),
    LaunchArgument(
        "plugin",
        "joint_state_topic_hardware_interface/JointStateTopicSystem",
        "Topic-based hardware interface of a generated block: joint_state_topic_hardware_interface/"
        "JointStateTopicSystem or topic_based_ros2_control/TopicBasedSystem (PickNik's).",
    ),
    LaunchArgument(
        "command_interfaces",
        "position",
        "Command interfaces of every joint in a generated block: position, velocity, "
        "'position velocity' or effort; empty = each joint's own.",
    ),
    LaunchArgument("controllers", "forward_position_controller", "Controllers to activate, 'a b'."),
    LaunchArgument(
        "inactive_controllers",
        "",
        "Controllers to load and configure without activating, 'a b' (e.g. "
        "joint_trajectory_controller, to switch to later).",
    ),
)
"""The arguments of ros2_control.launch.py."""
BOOLEAN_ARGUMENTS = ("use_sim_time",)
_DEFAULTS = {a.name: a.default for a in ARGUMENTS}


@dataclass(frozen=True)
class ControlLaunchPlan:
    """What ros2_control.launch.py starts (module doc).

    Attributes:
        namespace, frame_prefix, use_sim_time: as for robot.launch.py.
        robot_description: the URDF with the topic-based block, for robot_state_publisher.
        plugin: the block's hardware interface.
        rsp_parameters: robot_state_publisher's parameters besides ``robot_description``.
        bridge_parameters: the bridge's parameter list (config/bridge.yaml, then overrides).
        bridge_remappings: ``(from, to)`` topic remappings of the bridge.
        manager_parameters: ros2_control_node's parameter list.
        spawners: the argument list of each spawner.
        packages_needed: the ROS packages of every executable and plugin (looked up first).
        notes: what the launch file logs (e.g. a sensor broadcaster the bridge cannot serve).
        bridge_model: for an SDFormat robot with joints URDF lacks (``robot_description`` has
            them as chains), the SDFormat text the bridge simulates, with the same block
            (:func:`~sdf_bridge.hardware.topic_block.sdf_with_block`); else ``None``.
    """

    namespace: str
    frame_prefix: str
    use_sim_time: bool
    robot_description: str
    plugin: str
    rsp_parameters: dict[str, Any]
    bridge_parameters: tuple[Any, ...]
    bridge_remappings: tuple[tuple[str, str], ...]
    manager_parameters: tuple[Any, ...]
    spawners: tuple[tuple[str, ...], ...]
    packages_needed: tuple[str, ...]
    notes: tuple[str, ...]
    bridge_model: str | None = None

    def packages(self) -> tuple[str, ...]:
        """The ROS packages the plan needs (checked before any node starts)."""
        return self.packages_needed

    def bridge_node(self) -> tuple[list[Any], list[tuple[str, str]]]:
        """The launch file's bridge node: its parameter list and remappings. With a
        :attr:`bridge_model` the bridge simulates that text (a ball stays a ball joint, not the
        three hinges of the chain, which lock at pitch ±π/2) given as its ``robot_description``
        parameter (local files allowed: the launch made it from the user's file, its meshes
        by absolute paths) instead of robot_state_publisher's topic, and its own URDF output
        goes to its private ``sdf_bridge/robot_description`` (robot_state_publisher
        publishes the description)."""
        config, overrides = self.bridge_parameters
        remappings = list(self.bridge_remappings)
        if self.bridge_model is not None:
            overrides = {
                **overrides,
                "use_description_topic": False,
                "robot_description": self.bridge_model,
                "allow_local_files": True,
            }
            base = f"/{self.namespace}/sdf_bridge" if self.namespace else "/sdf_bridge"
            remappings.append(("robot_description", f"{base}/robot_description"))
        return [config, overrides], remappings


def _node_parameters(data: Mapping[str, Any], node: str) -> dict[str, Any]:
    """The ``ros__parameters`` the YAML ``data`` gives node ``node`` (keys ``node``, ``/ns/node``,
    ``/**/node``, ``/**``; merged in file order)."""
    merged: dict[str, Any] = {}
    for key, value in data.items():
        if str(key) == "/**" or str(key).rstrip("/").rsplit("/", 1)[-1] == node:
            if isinstance(value, Mapping) and isinstance(value.get("ros__parameters"), Mapping):
                merged.update(value["ros__parameters"])
    return merged


def read_controllers(
    path: str | Path,
) -> tuple[dict[str, Any], dict[str, str], dict[str, dict[str, Any]]]:
    """A controllers YAML: ``(manager parameters, controller → type, controller → its
    parameters)``.

    Raises:
        ConfigError: the file is missing, not YAML, or declares no controller under
            ``controller_manager: ros__parameters:``.
    """
    import yaml

    file = Path(path)
    if not file.is_file():
        raise ConfigError(
            f"controllers_file:={file} does not exist. Fix: give a controllers YAML "
            "(see config/ros2_controllers.yaml)."
        )
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ConfigError(
            f"controllers_file {file} is not YAML: {exc}. Fix: correct its syntax."
        ) from None
    manager = _node_parameters(data if isinstance(data, Mapping) else {}, "controller_manager")
    types = {
        name: str(v["type"])
        for name, v in manager.items()
        if isinstance(v, Mapping) and "type" in v
    }
    if not types:
        raise ConfigError(
            f"controllers_file {file} declares no controller (controller_manager: ros__parameters: "
            "<name>: {type: ...}). Fix: declare them as config/ros2_controllers.yaml does."
        )
    return manager, types, {name: _node_parameters(data, name) for name in types}


def _sensor_for(robot: Robot, name: str, kind: str) -> Sensor | None:
    """The robot's sensor of type ``kind`` a broadcaster's ``sensor_name`` means: the one of
    that name, else the one on the link a ``<ros2_control>`` ``<sensor>`` of that name gives
    as its ``frame_id`` parameter."""
    sensors = [s for s in robot.sensors if s.type == kind]
    by_name = next((s for s in sensors if s.name == name), None)
    if by_name is not None:
        return by_name
    link = next(
        (
            c.param("frame_id")
            for block in robot.ros2_control
            for c in block.sensors
            if c.name == name
        ),
        None,
    )
    return next((s for s in sensors if link is not None and s.link == link), None)


def sensor_remappings(
    robot: Robot, types: Mapping[str, str], params: Mapping[str, Mapping[str, Any]]
) -> tuple[list[tuple[str, str]], list[str]]:
    """For each IMU / force-torque sensor broadcaster of a controllers file, the remapping of
    the bridge's topic of the sensor it names to the broadcaster's topic, e.g. ``("imu",
    "imu_sensor_broadcaster/imu")`` (relative: in the namespace, as the broadcaster's node);
    and a note for each broadcaster whose sensor the robot does not have."""
    from .topic_names import topic_of

    remaps: list[tuple[str, str]] = []
    notes: list[str] = []
    for name, type_ in types.items():
        if type_ not in SENSOR_BROADCASTERS:
            continue
        kind, suffix = SENSOR_BROADCASTERS[type_]
        sensor_name = str(params.get(name, {}).get("sensor_name", ""))
        sensor = _sensor_for(robot, sensor_name, kind) if sensor_name else None
        if sensor is None:
            notes.append(
                f"{name}: the robot has no {kind} sensor {sensor_name!r} (its sensor_name), so "
                f"nothing publishes {name}/{suffix}"
            )
            continue
        remaps.append((topic_of(sensor, ""), f"{name}/{suffix}"))
    return remaps, notes


MANAGER_PRIORITY = 50
"""``ros2_control_node``'s default ``thread_priority``: the SCHED_FIFO priority its update
thread asks for (and gets where the process may: root, CAP_SYS_NICE or an rtprio limit)."""


def manager_priority(manager: Mapping[str, Any], controllers_file: str | Path) -> int:
    """The bridge loop's ``thread_priority``: the controller_manager's own (its
    ``thread_priority`` parameter in ``manager``, default :data:`MANAGER_PRIORITY`), so that a
    real-time controller_manager does not starve the bridge it waits for (at 1 kHz on 2 cores:
    119–447 Hz). Where SCHED_FIFO is not permitted the loop runs normally, with one warning
    (:class:`~sdf_bridge.hardware.loop.FixedRateLoop`).

    Raises:
        ConfigError: a ``thread_priority`` that is not a whole number in 0..99.
    """
    value = manager.get("thread_priority", MANAGER_PRIORITY)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
        raise ConfigError(
            f"controllers_file {controllers_file}: controller_manager thread_priority {value!r} "
            "is not a whole number in 0..99. Fix: give e.g. 50 (SCHED_FIFO priority)."
        )
    return int(value)


def _value(values: Mapping[str, str | bool], name: str) -> str:
    """Argument ``name`` as given, else its default (:data:`ARGUMENTS`)."""
    value = values.get(name, _DEFAULTS[name])
    return "" if value is None else str(value)


def _names(text: str) -> list[str]:
    return [word for word in text.replace(",", " ").split() if word]


def control_plan(
    values: Mapping[str, str | bool], share_dir: str | Path, *, loaded: Any = None
) -> ControlLaunchPlan:
    """Validate the launch arguments ``values`` (name → text; ``use_sim_time`` a bool parsed
    with launch's condition parser) and build the :class:`ControlLaunchPlan` (module doc).
    ``loaded``: the description of ``values`` loaded already
    (:func:`~.launch_args.common_values`).

    Raises:
        ConfigError: as :func:`~.launch_args.common_values`; a bad plugin or command interfaces
            (:class:`~sdf_bridge.hardware.topic_block.TopicBlockOptions`); a bad controllers
            file; a controller to spawn that the file does not declare, a sensor broadcaster
            among them, one whose ``joints`` the robot does not command, or no
            joint_state_broadcaster in the file.
        DescriptionError, TransmissionError: the description is invalid.
    """
    from ..description.export.urdf_writer import needs_chains
    from ..hardware.command_interfaces import (
        listed_command_interfaces,
        offered_command_interfaces,
    )
    from ..hardware.topic_block import (
        TopicBlockOptions,
        block_topics,
        parse_command_interfaces,
        sdf_with_block,
        topic_based_block,
        with_topic_block,
        with_urdfdom_limits,
    )
    from ..transmissions import TransmissionMap

    share = Path(share_dir)
    common = common_values(values, share, ARGUMENTS, BOOLEAN_ARGUMENTS, loaded)
    ns = common.namespace
    robot = common.loaded.robot
    controllers_file = _value(values, "controllers_file") or str(
        share.joinpath(*CONTROLLERS_CONFIG)
    )
    manager, types, params = read_controllers(controllers_file)
    block = topic_based_block(robot)
    if block is None:
        base = f"/{ns}/sdf_bridge" if ns else "/sdf_bridge"
        options = TopicBlockOptions(
            plugin=_value(values, "plugin"),
            joint_commands_topic=f"{base}/joint_commands",
            joint_states_topic=f"{base}/joint_states",
            command_interfaces=parse_command_interfaces(_value(values, "command_interfaces")),
        )
        description = with_topic_block(robot, common.loaded.xml, options)
        plugin, commands_topic, states_topic = (
            options.plugin,
            options.joint_commands_topic,
            options.joint_states_topic,
        )
        # as the simulating backends build the map (the bridge refuses a transmission of
        # unknown type itself on real actuators)
        tmap = TransmissionMap.from_robot(robot, simulated_robot=True)
        commandable = set(offered_command_interfaces(robot, tmap))  # (not a ball's angles)
    else:  # the plugins' own defaults where the block gives no topic
        description, plugin = with_urdfdom_limits(robot, common.loaded.xml), str(block.plugin)
        commands_topic, states_topic = block_topics(block)
        commandable = {
            name for name, interfaces in listed_command_interfaces(robot).items() if interfaces
        }
    broadcaster = next((name for name, t in types.items() if t == BROADCASTER), None)
    if broadcaster is None:
        raise ConfigError(
            f"controllers_file {controllers_file} has no {BROADCASTER}, which publishes "
            "joint_states for robot_state_publisher. Fix: declare one (see "
            "config/ros2_controllers.yaml)."
        )
    active, inactive = (
        _names(_value(values, "controllers")),
        _names(_value(values, "inactive_controllers")),
    )
    for name in active + inactive:
        if name not in types:
            raise ConfigError(
                f"controller {name!r} is not declared in {controllers_file}. Fix: use one of "
                f"{sorted(types)}."
            )
        if types[name] in SENSOR_BROADCASTERS:
            raise ConfigError(
                f"{name} reads sensor interfaces, which the topic-based plugins do not carry; "
                "the bridge publishes its topic itself. Fix: leave it out of "
                "controllers/inactive_controllers."
            )
        foreign = [j for j in params[name].get("joints", ()) if j not in commandable]
        if foreign:
            raise ConfigError(
                f"controller {name!r} in {controllers_file} names joints {foreign} that robot "
                f"{robot.name!r} does not command through ros2_control. Fix: list joints of "
                f"{sorted(commandable)} in its joints parameter."
            )
    sensor_remaps, notes = sensor_remappings(robot, types, params)
    if manager.get("enforce_command_limits", True) is not False:
        notes.append(
            f"controllers file {controllers_file}: the controller_manager enforces the joint "
            "limits too (enforce_command_limits is not false), and deactivates a controller "
            "when a joint's state is more than 0.0087 rad past a limit; the bridge enforces "
            "them already. Fix: set enforce_command_limits: false under controller_manager: "
            "ros__parameters:"
        )
    manager_file = ("--param-file", controllers_file)
    spawners = [(broadcaster, *[n for n in active if n != broadcaster], *manager_file)]
    if inactive:
        spawners.append((*inactive, "--inactive", *manager_file))
    overrides = {
        "backend": common.backend,
        "use_sim_time": common.use_sim_time,
        "use_description_topic": True,
        "frame_prefix": common.frame_prefix,
        "update_rate": float(manager.get("update_rate", 100)),
        "thread_priority": manager_priority(manager, controllers_file),
        # the same directories as the expansion above (absolute), for the bridge's meshes
        "package_paths": command_text([f"{k}={v}" for k, v in common.package_paths.items()]),
    }
    bridge_model = None
    if block is None and robot.format == "sdf" and needs_chains(robot):
        bridge_model = sdf_with_block(robot, description)
        notes.append(
            "the controller_manager and robot_state_publisher read the robot's joints that "
            "URDF lacks as chains of URDF joints; the bridge simulates the SDFormat model"
        )
    controller_packages = {types[n].split("/", 1)[0] for n in (broadcaster, *active, *inactive)}
    return ControlLaunchPlan(
        namespace=ns,
        frame_prefix=common.frame_prefix,
        use_sim_time=common.use_sim_time,
        robot_description=description,
        plugin=plugin,
        rsp_parameters={"use_sim_time": common.use_sim_time, "frame_prefix": common.frame_prefix},
        bridge_parameters=(str(share.joinpath(*BRIDGE_CONFIG)), overrides),
        bridge_remappings=(
            ("joint_states", states_topic),
            ("joint_commands", commands_topic),
            *sensor_remaps,
        ),
        manager_parameters=(controllers_file, {"use_sim_time": common.use_sim_time}),
        spawners=tuple(spawners),
        packages_needed=(
            "robot_state_publisher",
            PACKAGE,
            "controller_manager",
            plugin.split("/", 1)[0],
            *sorted(controller_packages),
        ),
        notes=tuple(notes),
        bridge_model=bridge_model,
    )
