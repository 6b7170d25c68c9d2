"""``sdf-bridge control``: the bridge driven by the real ros2_control in one command.

    sdf-bridge control [--description FILE] [--backend mock|mujoco|NAME]
        [--mode position|velocity|effort|all] [--controllers YAML [--activate NAME ...]]
        [--xacro-arg K:=V ...] [--package-path PKG=DIR ...] [--model NAME] [--namespace NS]
        [--update-rate HZ] [--plugin P] [--work-dir DIR] [--timeout S]

What ``launch/ros2_control.launch.py`` starts, without ``ros2 launch``, ``spawner`` or
``ros2param`` (the launch file's logic, :func:`~.control_launch.control_plan`, is shared):

1. the controllers: ``--controllers YAML``, else a file generated for the robot's commandable
   joints in ``--mode`` (:func:`~.controllers_config.generated_controllers`: broadcaster and
   joint_trajectory_controller active, forward_position_controller inactive; or the velocity /
   effort forward controller active);
2. the description with the topic-based ``<ros2_control>`` block for ``--mode`` (default
   ``position``; with ``--controllers``, ``all``: each joint's own interfaces) (a block for
   other hardware, e.g. ``mock_components/GenericSystem``, is replaced, and this is said once),
   written to the work directory with the controllers file;
3. the bridge on it (it publishes it on ``robot_description`` and serves the block's topics) and
   the controller_manager's ``ros2_control_node``, found through the ament index or the
   prebuilt rig (:func:`~.controller_manager.find_manager`; a clear error naming what to
   install when it is absent), each in its own process, logging to the work directory;
4. once the hardware component is active, the controllers loaded, configured and the active ones
   activated through the controller_manager's services, and a status table printed
   (controllers, states, types, claimed interfaces); from then on the bridge is told which
   command interfaces the active controllers claim (:class:`ClaimsRelay`), so switching
   controllers (``--mode all``: position ↔ velocity ↔ effort) needs no restart;
5. then it waits: Ctrl-C (SIGINT) or SIGTERM stops the controller_manager and the bridge
   (each within :data:`STOP_GRACE` × 3 s, :meth:`Child.stop`) and exits 0; a child that
   dies on its own ends the command with 1 and its log's tail.

Several robots (a world of several robots, :mod:`.robots`): one topic-based block, controllers
file and controller_manager per robot, each in the robot's namespace (``<namespace>/<robot>``):
steps 1-2 for each robot alone (:func:`prepare_robots`), the blocks written into the robots'
``<model>`` elements of a copy of the world, one bridge on it (each robot's node follows its
block's topics and publishes the robot with its block on ``<robot>/robot_description``, which
that robot's controller_manager reads), then steps 4-5 for every controller_manager.

Exit status: 0 stopped by a signal; 1 a configuration error (one ``error:`` line naming the fix;
also a controller_manager or bridge of the same name already running in the domain,
:func:`refuse_running_nodes`) or a failed bring-up; 2 usage error.
"""

from __future__ import annotations

import json
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import ConfigError, SdfBridgeError

LOG_TAIL = 3000  # characters of a child's log printed when it fails
#: a failing child's first error lines printed (:meth:`Child.errors`)
ERROR_LINES = 5
#: characters of each of those lines
LINE_CHARS = 300
_ERROR = re.compile(r"\[ERROR\]|\bError\b")
STOP_GRACE = 2.0
"""s a started process is given after each signal of :meth:`Child.stop` before the next."""


def control_parser() -> Any:
    """The argument parser of ``sdf-bridge control``."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="sdf-bridge control",
        description="Run the bridge and the real ros2_control controller_manager on a "
        "description: the topic-based <ros2_control> block and the controllers are generated, "
        "the controllers activated through the controller_manager's services; Ctrl-C stops "
        "everything.",
    )
    parser.add_argument(
        "--description", metavar="FILE", help="URDF, xacro or SDFormat file (default: demo arm)"
    )
    parser.add_argument(
        "--model",
        metavar="NAME",
        action="append",
        default=[],
        help="a robot of the SDFormat world to run (repeatable; default: every robot, each "
        "with its own controller_manager in its namespace)",
    )
    parser.add_argument(
        "--robot",
        metavar="NAME=FILE[@x,y,z,roll,pitch,yaw][:fixed|:free]",
        action="append",
        default=[],
        help="add a robot beside the description's, as 'sdf-bridge run --robot' (repeatable; "
        "its own controller_manager in its namespace)",
    )
    parser.add_argument("--backend", default="mock", help="bridge backend (default: mock)")
    parser.add_argument(
        "--mode",
        choices=("position", "velocity", "effort", "all"),
        default=None,
        help="command interface of every commandable joint in the block, and the controllers "
        "generated for it (default: position, or all with --controllers; position: "
        "joint_trajectory_controller active, forward_position_controller inactive; all: each "
        "joint's own interfaces, joint_trajectory_controller active and a forward controller "
        "per interface inactive, to switch between at run time)",
    )
    parser.add_argument(
        "--controllers",
        metavar="YAML",
        help="controllers file (controller_manager: ros__parameters:) instead of the generated one",
    )
    parser.add_argument(
        "--activate",
        metavar="NAME",
        nargs="+",
        default=None,
        help="with --controllers: the controllers to activate (default: its "
        "joint_state_broadcaster and its first other controller); the others are loaded "
        "inactive",
    )
    parser.add_argument(
        "--xacro-arg", metavar="K:=V", action="append", default=[], help="xacro argument"
    )
    parser.add_argument(
        "--package-path",
        metavar="PKG=DIR",
        action="append",
        default=[],
        help="directory of a package for package:// and $(find PKG), searched before the ament "
        "index (repeatable; as for run/check): reaches the description's expansion, the "
        "generated block and the bridge (meshes)",
    )
    parser.add_argument("--namespace", default="", help="ROS namespace of every node")
    parser.add_argument(
        "--update-rate",
        type=float,
        default=100.0,
        metavar="HZ",
        help="controller_manager and bridge rate of a generated controllers file (default 100)",
    )
    parser.add_argument(
        "--plugin",
        default="joint_state_topic_hardware_interface/JointStateTopicSystem",
        help="topic-based hardware interface of the block (default: %(default)s)",
    )
    parser.add_argument(
        "--work-dir",
        metavar="DIR",
        help="where the generated files and the logs go (default: a new temporary folder, kept)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=90.0,
        metavar="S",
        help="seconds for the bring-up (default 90)",
    )
    return parser


@dataclass
class Child:
    """A process started by the command, its output in ``log``."""

    name: str
    process: subprocess.Popen[Any]
    log: Path

    def running(self) -> bool:
        return self.process.poll() is None

    def tail(self) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return text[-LOG_TAIL:]

    def errors(self) -> list[str]:
        """The first :data:`ERROR_LINES` lines of the log that report an error (``[ERROR]``,
        ``Error:``, e.g. urdfdom refusing the description), each cut to :data:`LINE_CHARS`:
        the cause, which the log's last lines (``Waiting for data…``) no longer show."""
        found: list[str] = []
        if not self.log.exists():
            return found
        with open(self.log, encoding="utf-8", errors="replace") as lines:
            for line in lines:
                if _ERROR.search(line):
                    text = line.rstrip()
                    cut = text[: LINE_CHARS - 1] + "…" if len(text) > LINE_CHARS else text
                    found.append(cut)
                    if len(found) == ERROR_LINES:
                        break
        return found

    def stop(self, out: IO[str] | None = None, grace: float = STOP_GRACE) -> int:
        """Stop the process in a bounded time; its exit code. SIGINT, and each ``grace`` s it
        still runs the next of SIGINT again (a ros2_control_node finishing its hardware
        initialisation misses the first one), SIGTERM and SIGKILL: at most 3 ``grace`` s
        (:data:`STOP_GRACE`: 6 s) and the reaping of the killed process. When the first
        SIGINT was not enough, ``waiting for <name> to stop…`` is said once on ``out``."""
        steps = (signal.SIGINT, signal.SIGINT, signal.SIGTERM)
        for step, signum in enumerate(steps):
            if self.process.poll() is not None:
                break
            if step == 1 and out is not None:
                _say(out, f"waiting for {self.name} to stop (SIGINT again, then SIGTERM, SIGKILL)…")
            self.process.send_signal(signum)
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                continue
        else:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        return int(self.process.returncode)


def _parent_death_signal() -> Any:
    """A ``preexec_fn`` that asks Linux to send the child SIGTERM when this process dies
    (``prctl(PR_SET_PDEATHSIG)``): a ``kill -9`` of the command then stops the bridge and the
    controller_manager as its Ctrl-C does, rather than leaving them running (a next
    ``control`` in the domain would find them). ``None`` where there is no such call. The
    function is looked up here, in the parent: the child only makes the system call."""
    import ctypes
    import ctypes.util

    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    set_death_signal, term = 1, int(signal.SIGTERM)  # PR_SET_PDEATHSIG (linux/prctl.h)

    def ask() -> None:
        prctl(set_death_signal, term, 0, 0, 0)

    return ask


def _start(name: str, argv: Sequence[str], log: Path, env: dict[str, str] | None) -> Child:
    with open(log, "w", encoding="utf-8") as out:
        # its own session: the terminal's Ctrl-C reaches this command only, which then stops
        # the children in order (controller_manager first); SIGTERM if this command is killed
        process = subprocess.Popen(
            list(argv),
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
            preexec_fn=_parent_death_signal(),  # noqa: PLW1509  (one system call, looked up before the fork)
        )
    return Child(name, process, log)


def _param(name: str, value: object) -> list[str]:
    return ["-p", f"{name}:={json.dumps(value)}"]


def package_share() -> Path:
    """The folder holding ``config/`` and ``urdf/`` of this package: the source tree beside
    this module when run from a checkout, else the ament share directory.

    Raises:
        ConfigError: neither is found.
    """
    tree = Path(__file__).resolve().parents[2]
    if (tree / "config" / "bridge.yaml").is_file():
        return tree
    try:
        from ament_index_python.packages import get_package_share_directory

        return Path(get_package_share_directory("sdf_bridge"))
    except (ImportError, LookupError) as exc:
        raise ConfigError(
            f"the sdf_bridge share directory (config/, urdf/) is not found ({exc}). Fix: "
            "install the package with colcon, or run from its source checkout."
        ) from None


@dataclass(frozen=True)
class Setup:
    """What :func:`prepare` decided (module doc, steps 1-2)."""

    work_dir: Path
    description_file: Path
    controllers_file: Path
    active: tuple[str, ...]
    inactive: tuple[str, ...]
    plan: Any  # control_launch.ControlLaunchPlan
    notes: tuple[str, ...]
    offered: frozenset[str] = frozenset()  # the block's command interfaces, joint/interface
    bridge_file: Path | None = None  # the model the bridge runs, when not description_file


def _options(args: Any) -> dict[str, Any]:
    """The loading options of ``args``: ``xacro_args`` and ``package_paths``, as ``run``
    reads them (:mod:`~sdf_bridge.app.launch_args`)."""
    from ..app.launch_args import parse_package_paths, parse_xacro_args

    return {
        "xacro_args": parse_xacro_args(" ".join(shlex.quote(a) for a in args.xacro_arg)),
        "package_paths": parse_package_paths(" ".join(shlex.quote(a) for a in args.package_path)),
    }


def _source(args: Any) -> Path:
    """``--description`` as an absolute path, else the demo arm's xacro."""
    if args.description:
        return Path(args.description).expanduser().resolve()
    return package_share() / "urdf" / "demo_arm.urdf.xacro"


@dataclass(frozen=True)
class Loaded:
    """The description of the command line, loaded once (:func:`load_source`) for
    :func:`prepare_robots` and :func:`prepare`: each warning of reading it is printed once."""

    source: Path
    model: Any  # Robot | World
    xml: str


def load_source(args: Any) -> Loaded | None:
    """Load ``--description`` (else the demo arm) with ``--xacro-arg`` and ``--package-path``;
    ``None`` when the file does not exist (:func:`prepare` says so).

    Raises:
        ConfigError, DescriptionError: a bad option, an invalid description.
    """
    from ..description import load_with_xml

    source = _source(args)
    if not source.is_file():
        return None
    model, _warnings, xml = load_with_xml(source, **_options(args))
    return Loaded(source, model, xml)


def prepare(args: Any, work_dir: Path, loaded: Loaded | None = None) -> Setup:
    """Steps 1-2 of the module doc, in ``work_dir`` (plain Python); ``loaded``: the description
    of ``args`` loaded already (:func:`load_source`; else it is loaded here).

    Raises:
        ConfigError, DescriptionError, TransmissionError: as
            :func:`~.control_launch.control_plan` (a ``--package-path`` not ``pkg=DIR``) and
            :func:`~.controllers_config.generated_controllers`.
    """
    import yaml

    from ..app.control_launch import SENSOR_BROADCASTERS, control_plan, read_controllers
    from ..app.description_source import load_description
    from ..description.world import select_robot
    from ..hardware.command_interfaces import block_interfaces
    from ..hardware.topic_block import foreign_hardware, topic_based_block
    from ..transmissions import TransmissionMap
    from .controllers_config import generated_controllers

    share = package_share()
    mode = args.mode or ("all" if args.controllers else "position")
    description = Path(args.description).expanduser().resolve() if args.description else None
    if description is not None and not description.is_file():
        raise ConfigError(f"--description {description} does not exist. Fix: give a file.")
    xacro_args = " ".join(shlex.quote(a) for a in args.xacro_arg)
    package_paths = " ".join(shlex.quote(a) for a in args.package_path)
    source = description or share / "urdf" / "demo_arm.urdf.xacro"
    options = _options(args)
    if loaded is None or loaded.source != source:
        loaded = load_source(args)
    assert loaded is not None  # (the file exists)
    select_robot(loaded.model, (args.model or [None])[0])  # (a world of several: name one)
    # as control_plan's values load it (package directories absolute), read once
    description_loaded = load_description(
        source,
        is_file=True,
        xacro_args=options["xacro_args"],
        package_paths={
            name: str(Path(folder).expanduser().resolve())
            for name, folder in options["package_paths"].items()
        },
        model=",".join(args.model),
        preloaded=(loaded.model, loaded.xml),
    )
    robot = description_loaded.robot
    notes: list[str] = []
    if args.controllers:
        controllers = Path(args.controllers).expanduser().resolve()
        _manager, types, _params = read_controllers(controllers)
        usable = [n for n, t in types.items() if t not in SENSOR_BROADCASTERS]
        broadcaster = next(
            (n for n in usable if types[n] == "joint_state_broadcaster/JointStateBroadcaster"),
            None,
        )
        if args.activate:
            active = tuple(args.activate)
        else:
            first = next((n for n in usable if n != broadcaster), None)
            active = tuple(n for n in (broadcaster, first) if n)
        inactive = tuple(n for n in usable if n not in active)
    else:
        if args.activate:
            raise ConfigError(
                "--activate names controllers of a --controllers file. Fix: give the file too, "
                "or leave --activate out (the generated controllers are activated)."
            )
        tmap = TransmissionMap.from_robot(robot, simulated_robot=True)
        if topic_based_block(robot) is None:
            own = block_interfaces(robot, tmap, () if mode == "all" else (mode,))
        else:
            from ..hardware.command_interfaces import listed_command_interfaces

            listed = listed_command_interfaces(robot)
            own = {j: listed[j] for j in tmap.joint_names if listed.get(j)}
        generated = generated_controllers(list(own), mode, args.update_rate, own)
        controllers = work_dir / "controllers.yaml"
        controllers.write_text(yaml.safe_dump(generated.data, sort_keys=False), encoding="utf-8")
        active, inactive = generated.active, generated.inactive
    foreign = foreign_hardware(robot)
    if foreign is not None and topic_based_block(robot) is None:
        names = ", ".join(f"{b.name!r} ({b.plugin})" for b in robot.ros2_control)
        notes.append(
            f"the description's <ros2_control> block(s) {names} replaced by the bridge's "
            f"({args.plugin}), so that the controller_manager drives the bridge"
        )
    values: dict[str, str | bool] = {
        "description_file": str(source),
        "xacro_args": xacro_args,
        "package_paths": package_paths,
        "model": ",".join(args.model),
        "backend": args.backend,
        "use_sim_time": False,
        "namespace": args.namespace,
        "controllers_file": str(controllers),
        "plugin": args.plugin,
        "command_interfaces": "" if mode == "all" else mode,
        "controllers": " ".join(active),
        "inactive_controllers": " ".join(inactive),
    }
    plan = control_plan(values, share, loaded=description_loaded)
    notes.extend(plan.notes)
    description_file = work_dir / "robot_description.urdf"
    description_file.write_text(plan.robot_description, encoding="utf-8")
    bridge_file = None
    if plan.bridge_model is not None:  # (the plan's note says so; the bridge publishes the URDF)
        bridge_file = work_dir / "bridge_model.sdf"
        bridge_file.write_text(plan.bridge_model, encoding="utf-8")
    return Setup(
        work_dir,
        description_file,
        controllers,
        active,
        inactive,
        plan,
        tuple(notes),
        offered_interfaces(plan.robot_description),
        bridge_file,
    )


@dataclass(frozen=True)
class RobotsSetup:
    """What :func:`prepare_robots` decided: each robot's :class:`Setup` (its namespace
    ``<namespace>/<robot>``) and the bridge's description parameters (``description_file``:
    the world with the blocks of its robots, or the first robot's file; ``model``; ``robots``:
    the placed robots' files with their blocks)."""

    setups: tuple[Setup, ...]
    bridge_params: dict[str, Any]


def prepare_robots(args: Any, work_dir: Path, loaded: Loaded | None = None) -> RobotsSetup | None:
    """Several robots (module doc): ``None`` when the description and ``--robot`` hold one;
    ``loaded``: the description loaded already (:func:`load_source`).

    Each robot alone is written to ``<work_dir>/<robot>/robot.urdf`` (a placed robot as loaded,
    a robot of the world as it is there) and prepared (:func:`prepare`, in its folder and
    namespace); a robot of the world gets its block in its ``<model>`` of a copy of the world
    (``<work_dir>/world.sdf``), or in its ``<include>`` there (which the parser reads as the
    included model's block, :func:`~sdf_bridge.description.sdf.load_model`; the include's
    ``<uri>`` made the absolute path of the file it resolves to); a relative ``<uri>`` of the
    world that names a file beside it is made absolute too (:func:`absolute_uris`). A placed
    robot's file with its block is placed as ``--robot`` placed it.

    Raises:
        ConfigError: as :func:`prepare` per robot.
        DescriptionError: as :func:`~sdf_bridge.description.world.select_robots`.
    """
    import copy

    from lxml import etree

    from ..app.description_source import robot_xml
    from ..app.launch_args import parse_namespace, parse_package_paths, parse_xacro_args
    from ..backends import create_backend
    from ..description import load
    from ..description.model import World
    from ..description.scope import unscope_robot
    from ..description.sdf import world_models
    from ..description.world import load_placements, parse_robot_spec, select_robots
    from ..hardware.backend_setup import simulates
    from .robots import shared_physics_error

    source = Path(args.description).expanduser().resolve() if args.description else None
    if source is None and not args.robot:
        return None
    if source is None:
        source = package_share() / "urdf" / "demo_arm.urdf.xacro"
    if not source.is_file():
        return None  # (prepare says so)
    options = {
        "xacro_args": parse_xacro_args(" ".join(args.xacro_arg)),
        "package_paths": parse_package_paths(" ".join(shlex.quote(a) for a in args.package_path)),
    }
    loaded = loaded.model if loaded and loaded.source == source else load(source, **options)
    # (the placed robots' files read with the same xacro arguments and package paths, as run's)
    placements = {p.name: p for p in load_placements(args.robot, **options)}
    combined = select_robots(loaded, args.model, list(placements.values()))
    if not combined.robots:
        return None
    if len(combined.robots) > 1:  # before any process starts: the bridge would refuse them
        backend = create_backend(args.backend)
        simulating = simulates(backend)
        backend.close()
        if not simulating:
            raise shared_physics_error(args.backend, combined.robots)
    sdf = isinstance(loaded, World) or loaded.format == "sdf"  # (any suffix: .world too)
    root = etree.parse(str(source)).getroot() if sdf else None
    world = root.find("world") if root is not None else None
    models = {}
    if world is not None:
        models = world_models(world, source, package_paths=options["package_paths"])
        absolute_uris(world, source.parent)
    base = parse_namespace(args.namespace)
    setups: dict[str, Setup] = {}
    for name in combined.robots:
        folder = work_dir / name
        folder.mkdir(parents=True, exist_ok=True)
        if name in placements:
            robot = placements[name].robot
        elif world is None:
            robot = loaded  # the description's one robot, beside placed ones
        else:
            robot = unscope_robot(combined, name)
        alone = folder / "robot.urdf"
        alone.write_text(robot_xml(robot), encoding="utf-8")
        robot_args = copy.copy(args)
        robot_args.description, robot_args.xacro_arg, robot_args.model = str(alone), [], []
        robot_args.namespace = f"{base}/{name}" if base else name
        setups[name] = setup = prepare(robot_args, folder)
        if name in models:
            element, included = models[name]  # (an <include>: the block goes into it)
            if included is not None:
                element.find("uri").text = str(included)  # (the copy is elsewhere)
            for old in element.findall("ros2_control"):
                element.remove(old)
            text = setup.plan.robot_description.encode()
            for block in etree.fromstring(text).findall("ros2_control"):
                element.append(block)
    robots = []
    for text in args.robot:
        spec = parse_robot_spec(text)
        pose = (
            ""
            if spec.pose is None
            else "@" + ",".join(repr(float(v)) for v in (*spec.pose.xyz, *spec.pose.rpy))
        )
        robots.append(
            f"{spec.name}={setups[spec.name].description_file}{pose}"
            + (f":{spec.base}" if spec.base else "")
        )
    if world is not None:
        description = work_dir / "world.sdf"
        etree.ElementTree(root).write(str(description), xml_declaration=True, encoding="utf-8")
    else:
        description = setups[combined.robots[0]].description_file
    params = {"description_file": str(description), "model": ",".join(args.model)}
    if robots:
        params["robots"] = robots
    return RobotsSetup(tuple(setups.values()), params)


def absolute_uris(world: Any, base: Path) -> None:
    """Make every ``<uri>`` of ``world`` (an lxml element) that is a relative path naming a
    file or directory in ``base`` (the world file's directory) the absolute path, so that a
    copy of the world written elsewhere names the same files (a mesh beside the world)."""
    import os

    for uri in world.iter("uri"):
        text = (uri.text or "").strip()
        if text and "://" not in text and not os.path.isabs(text) and (base / text).exists():
            uri.text = str((base / text).resolve())


def offered_interfaces(urdf: str) -> frozenset[str]:
    """The command interfaces (``joint/interface``) the ``<ros2_control>`` blocks of ``urdf``
    offer."""
    from ..description.xmlio import parse_xml

    return frozenset(
        f"{joint.get('name')}/{command.get('name')}"
        for block in parse_xml(urdf).findall("ros2_control")
        for joint in block.findall("joint")
        for command in joint.findall("command_interface")
    )


def bridge_argv(setup: Setup) -> list[str]:
    """The bridge's command line: the plan's parameters and remappings, on the written
    description (the bridge publishes it on ``robot_description`` for the controller_manager);
    the mock backend with ``calculate_dynamics`` (velocity commands integrated)."""
    plan = setup.plan
    config, overrides = plan.bridge_parameters
    argv = [sys.executable, "-m", "sdf_bridge.ros.main", "--ros-args", "-r", "__node:=sdf_bridge"]
    if plan.namespace:
        argv += ["-r", f"__ns:=/{plan.namespace}"]
    argv += ["--params-file", str(config)]
    params = {
        **overrides,
        "use_description_topic": False,
        "description_file": str(setup.bridge_file or setup.description_file),
    }
    if overrides.get("backend") == "mock":
        # the generated block has no GenericSystem parameters: a velocity command moves the
        # joint (integrated), as on a simulating backend, rather than only showing as velocity
        params["backend_params.calculate_dynamics"] = True
    for name, value in params.items():
        argv += _param(name, value)
    for source, target in plan.bridge_remappings:
        argv += ["-r", f"{source}:={target}"]
    return argv


def robots_bridge_argv(robots: RobotsSetup, namespace: str) -> list[str]:
    """The bridge's command line for several robots: the first robot's plan's parameters, on
    the descriptions with every robot's block (``RobotsSetup.bridge_params``: each robot's
    node follows its block's topics), the process's node in ``namespace``."""
    config, overrides = robots.setups[0].plan.bridge_parameters
    argv = [sys.executable, "-m", "sdf_bridge.ros.main", "--ros-args", "-r", "__node:=sdf_bridge"]
    if namespace:
        argv += ["-r", f"__ns:=/{namespace}"]
    argv += ["--params-file", str(config)]
    params = {
        **overrides,
        "use_description_topic": False,
        "frame_prefix": "",
        **robots.bridge_params,
    }
    for name, value in params.items():
        argv += _param(name, value)
    return argv


def manager_argv(setup: Setup, node: Path) -> list[str]:
    """``ros2_control_node``'s command line (controllers file, namespace)."""
    argv = [str(node), "--ros-args", "--params-file", str(setup.controllers_file)]
    argv += _param("use_sim_time", bool(setup.plan.use_sim_time))
    if setup.plan.namespace:
        argv += ["-r", f"__ns:=/{setup.plan.namespace}"]
    return argv


def _say(out: IO[str], text: str) -> None:
    out.write(text + "\n")
    out.flush()


def control_command(argv: Sequence[str], out: IO[str] = sys.stdout) -> int:
    """``sdf-bridge control`` (module doc); returns the exit status."""
    from ..app.stop_signals import StopRequested, StopSignals

    stop = StopSignals().install()
    parser = control_parser()
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:
        stop.ignore()
        return int(exc.code or 0)
    children: list[Child] = []
    try:
        return _run(args, stop, children, out)
    except StopRequested:
        return 0
    except (SdfBridgeError, RuntimeError) as exc:
        if stop.requested.is_set():
            return 0
        sys.stderr.write(f"error: {exc}\n")
        for child in children:
            if not child.running() or isinstance(exc, RuntimeError):
                errors = child.errors()
                if errors:
                    sys.stderr.write(
                        f"--- {child.name} log ({child.log}), first error lines:\n"
                        + "\n".join(errors)
                        + "\n"
                    )
                sys.stderr.write(
                    f"--- {child.name} log ({child.log}), last lines:\n{child.tail()}\n"
                )
        return 1
    finally:
        stop.hold()
        for child in reversed(children):  # the controller_manager first, then the bridge
            child.stop(out)
        stop.ignore()


def check_arguments(args: Any) -> None:
    """Refuse, before any process starts, what the bridge or the controller_manager would only
    refuse seconds later: ``--backend`` not a known backend, ``--update-rate`` outside the
    bridge's ``update_rate`` range (the controller_manager ran at 1e9 Hz with real-time
    priority until the bridge refused it), ``--timeout`` not a positive number of seconds.

    Raises:
        ConfigError: naming the argument and the fix.
    """
    import math

    from ..backends.backend_registry import available_backends
    from .params import PARAMETERS

    backends = available_backends()
    if args.backend not in backends:
        from ..util.similarity import close_match

        guess = close_match(args.backend, backends)
        hint = f"did you mean {guess!r}? " if guess else ""
        raise ConfigError(
            f"--backend {args.backend!r} is not a backend. Fix: {hint}one of {backends}."
        )
    (bounds,) = PARAMETERS["update_rate"][1].floating_point_range
    low, high = bounds.from_value, bounds.to_value
    if not low <= args.update_rate <= high:
        raise ConfigError(
            f"--update-rate {args.update_rate:g} Hz is outside the bridge's update_rate range "
            f"[{low:g}, {high:g}]. Fix: give e.g. 100."
        )
    if not (math.isfinite(args.timeout) and args.timeout > 0):
        raise ConfigError(
            f"--timeout {args.timeout:g} is not a positive number of seconds. Fix: give e.g. 90."
        )


def work_directory(text: str | None) -> tuple[Path, bool]:
    """The folder of ``--work-dir`` (``text``; ``None``: a new temporary one), created with its
    parents where missing and checked writable (a file is created in it and removed), and
    whether this call created it.

    Raises:
        ConfigError: the path is a file, lies under a file, or cannot be created or written
            (naming the path, the reason and the fix).
    """
    if text is None:
        try:
            return Path(tempfile.mkdtemp(prefix="sdf-bridge-control-")), True
        except OSError as exc:
            raise ConfigError(
                f"no temporary folder for the generated files and logs can be made in "
                f"{tempfile.gettempdir()} ({exc.strerror}). Fix: give --work-dir DIR, a "
                "writable folder, or set TMPDIR to one."
            ) from None
    folder = Path(text).expanduser().absolute()
    existed = folder.is_dir()
    fix = "Fix: give --work-dir a folder you may write to (it is made if missing)."
    if folder.exists() and not existed:
        raise ConfigError(f"--work-dir {folder} is a file, not a folder. {fix}")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        if not existed and folder.is_dir():
            folder.rmdir()  # (made here, empty: not left behind)
        blocker = next((p for p in folder.parents if p.exists() and not p.is_dir()), None)
        why = (
            f"{blocker} is a file"
            if blocker is not None
            else f"making it or a file in it: {exc.strerror}"
        )
        raise ConfigError(
            f"--work-dir {folder} cannot hold the generated files and logs ({why}). {fix}"
        ) from None
    return folder, not existed


def _run(args: Any, stop: Any, children: list[Child], out: IO[str]) -> int:
    import shutil

    from ..app.launch_args import parse_namespace
    from .controller_manager import find_manager, import_manager_messages, manager_environment

    check_arguments(args)
    prefix = find_manager()
    work_dir, made = work_directory(args.work_dir)
    import_manager_messages(prefix)
    import rclpy
    from rclpy.context import Context
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.signals import SignalHandlerOptions

    from .controller_manager import ControllerManagerClient, LeftActive, status_table

    context = Context()
    rclpy.init(args=[], context=context, signal_handler_options=SignalHandlerOptions.NO)
    try:
        # the node first: discovery (for refuse_running_nodes) runs while the files are made
        own = parse_namespace(args.namespace)
        node = rclpy.create_node("sdf_bridge_control", namespace=f"/{own}", context=context)
        executor = SingleThreadedExecutor(context=context)
        executor.add_node(node)
        try:
            loaded = load_source(args)  # (once: each of its warnings printed once)
            robots = prepare_robots(args, work_dir, loaded)
            if robots is None:
                setups: tuple[Setup, ...] = (prepare(args, work_dir, loaded),)
                bridge = bridge_argv(setups[0])
            else:
                setups = robots.setups
                bridge = robots_bridge_argv(robots, parse_namespace(args.namespace))
            managers = [
                f"/{setup.plan.namespace}/controller_manager".replace("//", "/") for setup in setups
            ]
            space = setups[0].plan.namespace if robots is None else parse_namespace(args.namespace)
            started = [*managers, f"/{space}/sdf_bridge".replace("//", "/")]
            refuse_running_nodes(node, executor, started, wait=DISCOVERY_WAIT)
        except BaseException:
            if made:  # (refused before it was announced: nothing left behind)
                shutil.rmtree(work_dir, ignore_errors=True)
            raise
        for setup in setups:
            for note in setup.notes:
                _say(out, f"note: {note}")
        _say(out, f"files and logs: {work_dir}")
        children.append(_start("bridge", bridge, work_dir / "bridge.log", None))
        node_path = prefix / "lib" / "controller_manager" / "ros2_control_node"
        for setup in setups:
            label = "controller_manager"
            if robots is not None:
                label = f"controller_manager {setup.plan.namespace}"
            log = setup.work_dir / "controller_manager.log"
            children.append(
                _start(label, manager_argv(setup, node_path), log, manager_environment(prefix))
            )
        deadline = time.monotonic() + args.timeout

        def check_children() -> None:
            for child in children:
                if not child.running():
                    raise RuntimeError(
                        f"{child.name} exited with {child.process.returncode} during the bring-up"
                    )

        def spin_until(future: Any, timeout: float) -> None:
            end = time.monotonic() + timeout
            while (future is None or not future.done()) and time.monotonic() < end:
                if stop.requested.is_set():
                    return
                check_children()
                executor.spin_once(timeout_sec=min(0.05, max(0.0, end - time.monotonic())))

        relays = []
        for setup, manager in zip(setups, managers):
            client = ControllerManagerClient(
                node, spin_until, manager, timeout=max(1.0, deadline - time.monotonic())
            )
            _bring_up(client, setup, deadline, stop)
            if stop.requested.is_set():
                return 0
            refuse_running_nodes(node, executor, started, wait=0.5, own=1)
            controllers = client.controllers()
            if robots is not None:
                _say(out, f"{manager}:")
            _say(out, status_table(controllers))
            claims = ClaimsRelay(node, manager, setup.plan.namespace, out)
            claims.publish(controllers)
            watch = LeftActive(manager, setup.active, setup.work_dir / "controller_manager.log")
            relays.append((client, claims, watch))
        _say(out, "running; Ctrl-C stops the controller_manager and the bridge")
        stop.hold()
        while not stop.requested.is_set():
            for child in children:
                if not child.running():
                    raise RuntimeError(f"{child.name} exited with {child.process.returncode}")
            executor.spin_once(timeout_sec=0.1)
            for client, claims, watch in relays:
                if claims.due():
                    controllers = client.controllers()
                    claims.publish(controllers)
                    for line in watch.check(controllers):
                        _say(out, line)
        return 0
    finally:
        rclpy.try_shutdown(context=context)


DISCOVERY_WAIT = 1.5
"""s spent discovering the graph before the children start (:func:`refuse_running_nodes`)."""


def refuse_running_nodes(
    node: Any,
    executor: Any,
    names: Sequence[str],
    wait: float = DISCOVERY_WAIT,
    own: int = 0,
) -> None:
    """Refuse when more than ``own`` nodes named as one of ``names`` (fully qualified: the
    controller_managers and the bridge this command starts) run in this ROS domain, looking
    for ``wait`` s of discovery (at least once). Two controller_managers of one name both
    answer ``load_controller``, ``list_controllers`` and ``switch_controller``, so the status
    table would describe the other one while this one's controllers stay unconfigured (a
    second ``sdf-bridge control`` in another terminal); a bridge of the same name (an
    ``sdf-bridge run`` left open) publishes its own ``robot_description`` and
    ``joint_states``, which the controllers read instead. Called with ``own=0`` before the
    children start (quick, but discovery may not have found the other one yet) and with
    ``own=1`` after the bring-up (by then this process has long discovered both).

    Raises:
        ConfigError: naming the node, the domain and the fix.
    """
    import os

    from .name_clash import graph_names

    end = time.monotonic() + wait
    found: list[str] = []
    while not found:
        executor.spin_once(timeout_sec=0.1 if wait > 0 else 0.0)
        running = graph_names(node)
        found = [m for m in names if running.count(m) > own]
        if time.monotonic() >= end:
            break
    if found:
        domain = os.environ.get("ROS_DOMAIN_ID", "0")
        raise ConfigError(
            f"a node {found[0]!r} already runs in ROS_DOMAIN_ID {domain} (another "
            "`sdf-bridge control` or `run`, or a ros2_control_node?): its topics and services "
            "would answer in place of this command's. Fix: stop it, or run this one in another "
            "domain (ROS_DOMAIN_ID) or namespace (--namespace)."
        )


class ClaimsRelay:
    """Tells the bridge which command interfaces the active controllers claim
    (:mod:`.control_topics`, ``~/claimed_interfaces``): after each message on the
    controller_manager's ``~/activity`` topic (a controller or hardware state changed), and at
    least every :attr:`PERIOD` s, from ``list_controllers``; published (latched) when it
    changes, and again when another node published claims on that topic (any node may: the
    relay speaks for the controller_manager, so a foreign message is overridden at once and
    :attr:`REPEAT` times more a :attr:`PERIOD` apart, said on ``out`` the first time)."""

    #: s: the longest time between two ``list_controllers`` calls.
    PERIOD = 1.0
    #: own messages remembered to tell them from other nodes' (a relay publishes a few a second
    #: at most; its subscription receives them too, possibly after a newer one)
    OWN = 8
    #: periodic publications after a foreign message: the bridge may receive that message
    #: after the relay's first answer to it (no order between two publishers)
    REPEAT = 3

    def __init__(self, node: Any, manager: str, namespace: str, out: IO[str] | None = None) -> None:
        from controller_manager_msgs.msg import ControllerManagerActivity
        from std_msgs.msg import String

        from .control_topics import CLAIMS_TOPIC
        from .qos import LATCHED_QOS

        self._string = String
        self.topic = f"/{namespace}/sdf_bridge/{CLAIMS_TOPIC[2:]}".replace("//", "/")
        self._pub = node.create_publisher(String, self.topic, LATCHED_QOS)
        self._out = out
        self._changed = False
        self._foreign = self._said = False
        self._repeat = 0
        self._next = time.monotonic() + self.PERIOD
        self._last: str | None = None
        self._own: list[str] = []
        node.create_subscription(
            ControllerManagerActivity, f"{manager}/activity", self._on_activity, 10
        )
        node.create_subscription(String, self.topic, self._on_claims, LATCHED_QOS)

    def _on_activity(self, msg: Any) -> None:
        self._changed = True

    def _on_claims(self, msg: Any) -> None:
        if msg.data in self._own:
            return
        self._foreign = self._changed = True
        self._repeat = self.REPEAT
        if self._out is not None and not self._said:
            from ..util.clip import clip

            self._said = True
            _say(
                self._out,
                f"another node published claims on {self.topic} ({clip(msg.data)!r}); the "
                "controller_manager's claims are published again (and after any later one)",
            )

    def due(self) -> bool:
        """Whether to ask ``list_controllers`` now (an activity or a foreign claims message
        came, or the period passed)."""
        return self._changed or time.monotonic() >= self._next

    def publish(self, controllers: Sequence[Any]) -> None:
        """Publish the active controllers' claimed interfaces when they changed or another
        node's claims replaced them."""
        self._changed = False
        self._next = time.monotonic() + self.PERIOD
        claimed = sorted(
            {i for c in controllers if c.state == "active" for i in c.claimed_interfaces}
        )
        text = " ".join(claimed)
        if text != self._last or self._foreign or self._repeat:
            if not self._foreign:
                self._repeat = max(0, self._repeat - 1)
            self._last, self._foreign = text, False
            self._own = [*self._own[-(self.OWN - 1) :], text]
            self._pub.publish(self._string(data=text))


def _bring_up(client: Any, setup: Setup, deadline: float, stop: Any) -> None:
    """Load and configure every controller, then activate the active ones, retrying until
    ``deadline`` while the controller_manager waits for the description and the hardware.

    Raises:
        ConfigError: the controller_manager refused to load a controller, at once (its name,
            type and the reason its log gives: :func:`refused_load`); an active controller
            needs interfaces the block lacks.
        RuntimeError: not done by ``deadline`` (the last failure's text).
    """
    from .controller_manager import LoadRefused

    last = ""
    while not stop.requested.is_set():
        try:
            try:
                client.load(*setup.active, *setup.inactive)
            except LoadRefused as exc:
                raise refused_load(setup, exc.controller, client.manager) from None
            controllers = {c.name: c for c in client.controllers()}
            for name in setup.active:
                missing = sorted(set(controllers[name].required_command_interfaces) - setup.offered)
                if missing:
                    raise ConfigError(
                        f"controller {name!r} needs command interfaces {missing}, which the "
                        f"robot's <ros2_control> block ({setup.description_file}) does not "
                        "offer. Fix: choose the block's interfaces with --mode (e.g. --mode "
                        "velocity), or leave those joints out of the controller's joints."
                    )
            states = {n: c.state for n, c in controllers.items()}
            pending = [n for n in setup.active if states.get(n) != "active"]
            if not pending:
                return
            client.switch(pending)
            return
        except RuntimeError as exc:
            last = str(exc)
        if time.monotonic() > deadline:
            raise RuntimeError(f"the controllers did not come up in time: {last}")
        client.spin_until(None, 1.0)


def refused_load(setup: Setup, controller: str, manager: str, wait: float = 1.0) -> ConfigError:
    """The error of ``controller`` refused by ``manager``'s ``load_controller``: its name, its
    type in the controllers file and the reason from the controller_manager's log
    (:func:`~.controller_manager.controller_errors`; the log is read for up to ``wait`` s, as
    the process may not have written the lines yet when its answer came)."""
    from ..app.control_launch import read_controllers
    from .controller_manager import controller_errors

    log = setup.work_dir / "controller_manager.log"
    try:
        declared = read_controllers(setup.controllers_file)[1].get(controller)
    except SdfBridgeError:
        declared = None
    kind = f"type {declared!r}" if declared else "no type"
    end = time.monotonic() + wait
    reasons = controller_errors(log, controller)
    while not reasons and time.monotonic() < end:
        time.sleep(0.05)
        reasons = controller_errors(log, controller)
    why = " ".join(reasons) if reasons else f"no reason in {log}."
    return ConfigError(
        f"{manager} cannot load controller {controller!r} ({kind}): {why} Fix: correct its "
        f"entry in {setup.controllers_file} (a type the controller_manager has: its log lists "
        "them after a 'not found'; or install the package of that type; or its parameters)."
    )
