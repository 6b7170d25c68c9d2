"""``sdf-bridge``: command-line front end.

Subcommands::

    sdf-bridge check FILE [--xacro-arg k:=v ...] [--package-path pkg=dir ...] [--sdf-path dir ...]
                          [--json]
    sdf-bridge info FILE [...]                      # the same summary, without the problems section
    sdf-bridge convert SOURCE [-o OUT] [--to sdf|urdf] [--lump-fixed] [--xacro-arg k:=v ...]
    sdf-bridge ros2-control SOURCE [-o OUT] [--plugin P] [--command-interfaces I,J]
                            [--xacro-arg k:=v ...]
    sdf-bridge run [bridge arguments, incl. --ros-args ...]
    sdf-bridge control [--description FILE] [--mode position|velocity|effort|all]
                       [--package-path PKG=DIR ...] [...]
    sdf-bridge demo [demo arguments]

The description file of ``check``, ``info``, ``convert`` and ``ros2-control`` is positional
or ``--description FILE``, as ``run`` and ``control`` take it. ``check`` exits with 1 when the
description has errors (the message names file, line, element
and fix; no traceback).

This module needs no ROS and imports nothing of it: it parses and runs the description
commands and lists ``run``, ``control`` and ``demo`` (:data:`ROS_COMMANDS`) in ``--help``.
The ``sdf-bridge`` executable is :func:`sdf_bridge.ros.command_line.main`, which runs those
three with the ROS layer and hands everything else to :func:`main` here.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TextIO

from .errors import ConfigError, DescriptionError, SdfBridgeError

if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from collections.abc import Iterator, Sequence

#: The commands that need ROS 2 → their line in ``sdf-bridge --help``. The ``sdf-bridge``
#: executable (:mod:`sdf_bridge.ros.command_line`) runs them; :func:`main` lists them only.
_ROS_COMMAND_HELP = {
    "run": "run the bridge node on a description (needs ROS 2; 'sdf-bridge run --help' lists "
    "its options; arguments after --ros-args go to ROS)",
    "control": "run the bridge with the real ros2_control controller_manager on a description: "
    "block and controllers generated, controllers activated, Ctrl-C stops all (needs ROS 2 "
    "and ros2_control; 'sdf-bridge control --help' lists its options)",
    "demo": "run the bridge on the demo arm, command it and print the joint states (needs ROS 2; "
    "'sdf-bridge demo --help' lists its options)",
}
#: The commands :func:`sdf_bridge.ros.command_line.main` runs with the ROS layer.
ROS_COMMANDS = frozenset(_ROS_COMMAND_HELP)


# -- argument helpers -------------------------------------------------------------------------


def package_path(text: str) -> tuple[str, str]:
    """One ``--package-path`` value ``pkg=DIR`` → ``(pkg, DIR)``, with the rule of ``run`` and
    the node's ``package_paths`` (:func:`sdf_bridge.app.launch_args.parse_package_paths`).

    Raises:
        argparse.ArgumentTypeError: any other form; ``pkg:=DIR`` gets a hint.
    """
    import argparse

    from .app.launch_args import parse_package_paths  # plain Python, no rclpy

    try:
        ((name, directory),) = parse_package_paths([text]).items()
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return name, directory


def xacro_arg(text: str) -> tuple[str, str]:
    """One ``--xacro-arg`` value ``name:=value`` → ``(name, value)``, with the rule of
    ``sdf-bridge run`` and the launch file (:func:`sdf_bridge.app.launch_args.parse_xacro_args`):
    ``:=`` required (as on the xacro command line), non-empty name.

    Raises:
        argparse.ArgumentTypeError: any other form (``name=value``, ``:=value``, ``name``).
    """
    import argparse

    from .app.launch_args import parse_xacro_args  # plain Python, no rclpy

    try:
        ((name, value),) = parse_xacro_args([text]).items()
    except ConfigError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not of the form name:=value with a non-empty name; write e.g. "
            "--xacro-arg prefix:=left_"
        ) from None
    return name, value


def _add_source_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--xacro-arg",
        dest="xacro_args",
        action="append",
        default=[],
        metavar="NAME:=VALUE",
        type=xacro_arg,
        help="xacro argument, as on the xacro command line (repeatable)",
    )
    parser.add_argument(
        "--package-path",
        dest="package_paths",
        action="append",
        default=[],
        metavar="PKG=DIR",
        type=package_path,
        help="directory of a package for package:// and $(find) (repeatable; before the ament "
        "index)",
    )
    parser.add_argument(
        "--sdf-path",
        dest="sdf_paths",
        action="append",
        default=[],
        metavar="DIR",
        help="directory searched for SDFormat model:// includes (repeatable; before "
        "GZ_SIM_RESOURCE_PATH)",
    )


def _add_description(parser: argparse.ArgumentParser, dest: str) -> None:
    """The description file: positional ``dest`` or ``--description FILE`` (as ``run`` and
    ``control`` take it); :func:`_one_description` checks that exactly one is given."""
    parser.add_argument(dest, nargs="?", help="URDF, xacro or SDFormat file")
    parser.add_argument(
        "--description",
        default=None,
        metavar="FILE",
        help="the same file as an option (as 'run' and 'control' take it)",
    )


def _one_description(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Put ``--description`` into the positional file of ``args``; a usage error (exit 2) when
    neither or two different files are given."""
    dest = "file" if hasattr(args, "file") else "source"
    given = {v for v in (getattr(args, dest), args.description) if v}
    if len(given) != 1:
        parser.error(
            f"{args.command}: give one description file, as FILE or --description FILE"
            + (f" (got {sorted(given)})" if given else "")
        )
    setattr(args, dest, given.pop())


def _add_file_options(parser: argparse.ArgumentParser) -> None:
    """The source file, ``-o``, ``--model`` and the source options of a command that writes a
    description (``convert``, ``ros2-control``)."""
    _add_description(parser, "source")
    parser.add_argument(
        "-o",
        "--output",
        default=None,
        metavar="FILE",
        help="output file, in an existing directory (default or '-': standard output)",
    )
    parser.add_argument(
        "--model",
        default=None,
        metavar="NAME",
        help="the model of an SDFormat world to write (needed when the world holds several robots)",
    )
    _add_source_options(parser)


def _wrap(text: str) -> str:
    """``text`` wrapped to 88 columns, each ``\\n``-separated paragraph on its own."""
    import textwrap

    return "\n".join(textwrap.fill(part, 88) for part in text.split("\n"))


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``sdf-bridge`` (``run``/``demo`` are listed but not parsed here)."""
    import argparse

    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="sdf-bridge",
        formatter_class=raw,
        description=_wrap(
            "Robot description (URDF, xacro, SDFormat) → hardware-interface bridge.\n\n"
            "check/info/convert need no ROS; run/demo need ROS 2 (rclpy and the message packages)."
        ),
        epilog="Run 'sdf-bridge COMMAND --help' for the options of a command.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser(
        "check",
        formatter_class=raw,
        help="load and validate a description; print a summary and any problems (exit 1 when "
        "the bridge refuses it)",
        description=_wrap(
            "Load a URDF, xacro or SDFormat description, validate it and print a summary: joints "
            "with limits and interfaces, transmissions with the side (joint or actuator) of "
            "each mechanical reduction and the effective ratio applied, sensors (also "
            "<ros2_control> sensors), warnings and problems.\nExit status: 0 the bridge runs "
            "the description (problems it works around are listed, marked), 1 the "
            "description cannot be loaded, or its transmissions or limits cannot be built "
            "(what the bridge refuses), 2 usage error."
        ),
        epilog="examples:\n  sdf-bridge check robot.urdf\n  sdf-bridge check robot.urdf.xacro "
        "--xacro-arg prefix:=left_ --package-path my_robot=src/my_robot\n  sdf-bridge check "
        "model.sdf --sdf-path ~/models --json > model.json",
    )
    p_info = sub.add_parser(
        "info",
        formatter_class=raw,
        help="print the summary of a description, without the problems section",
        description=_wrap(
            "Load a description and print the same summary as 'check' without judging it: the "
            "transmission problems section is left out and the exit status is 0 once the "
            "file loads."
        ),
        epilog="example:\n  sdf-bridge info robot.urdf --json",
    )
    for p in (p, p_info):
        _add_description(p, "file")
        _add_source_options(p)
        p.add_argument(
            "--json",
            action="store_true",
            help="print the model as JSON on standard output (warnings and problems go to "
            "standard error)",
        )
        p.add_argument(
            "--verbose",
            action="store_true",
            help="list every warning (by default a warning repeated for many elements or "
            "joints is one line per kind and file, with its count and first examples)",
        )
        p.add_argument(
            "--robot",
            dest="robots",
            action="append",
            default=[],
            metavar="NAME=FILE[@x,y,z,roll,pitch,yaw][:fixed|:free]",
            help="place another robot beside the description's, as 'sdf-bridge run --robot' "
            "does (repeatable): the summary is then that of the simulation of them all, names "
            "scoped NAME::name",
        )
    p = sub.add_parser(
        "convert",
        formatter_class=raw,
        help="convert a description to SDFormat or URDF",
        description=_wrap(
            "Load a URDF, xacro or SDFormat description and write it as SDFormat (default) or "
            "URDF. Everything the target format cannot carry is listed as 'warning:' lines "
            "on standard error; a model URDF cannot describe at all (several root links, "
            "capsules) is an error (exit 1). Of an SDFormat world the robot is written (its "
            "one non-static model, or --model NAME), not the world's other models."
        ),
        epilog="examples:\n  sdf-bridge convert robot.urdf.xacro -o robot.sdf\n"
        "  sdf-bridge convert model.sdf --to urdf --lump-fixed -o robot.urdf\n"
        "  sdf-bridge convert robot.urdf --xacro-arg prefix:=left_ > robot.sdf",
    )
    _add_file_options(p)
    p.add_argument(
        "--to", choices=("sdf", "urdf"), default="sdf", help="output format (default: sdf)"
    )
    p.add_argument(
        "--lump-fixed",
        action="store_true",
        help="merge links joined by fixed joints into their parent (as URDF→SDFormat converters "
        "do)",
    )
    p = sub.add_parser(
        "ros2-control",
        formatter_class=raw,
        help="write the description with the <ros2_control> block a controller_manager needs to "
        "drive the bridge through ros2_control's topic-based plugins",
        description=_wrap(
            "Load a description and write it as URDF with its <ros2_control> blocks replaced by "
            "one for a topic-based hardware interface "
            "(joint_state_topic_hardware_interface/JointStateTopicSystem or PickNik's "
            "topic_based_ros2_control/TopicBasedSystem) on the bridge's topics: every "
            "commandable joint with the command interfaces of one control mode, the other "
            "joints state-only, the description's transmissions kept, no sensors (the "
            "plugins carry joint states only). Give the same file to the controller_manager "
            "and the bridge (sdf_bridge.hardware.topic_block)."
        ),
        epilog="examples:\n  sdf-bridge ros2-control robot.urdf.xacro -o robot_topic.urdf\n"
        "  sdf-bridge ros2-control robot.urdf --plugin topic_based_ros2_control/TopicBasedSystem "
        "--command-interfaces velocity",
    )
    _add_file_options(p)
    p.add_argument(
        "--plugin",
        default="joint_state_topic_hardware_interface/JointStateTopicSystem",
        help="the hardware interface plugin (default: %(default)s)",
    )
    p.add_argument(
        "--command-interfaces",
        default="",
        metavar="I[,J]",
        help="command interfaces of every commandable joint: position, velocity, "
        "position,velocity or effort, narrowed by what its classic transmissions declare (an "
        "EffortJointInterface joint stays effort) (default: each joint's own from the "
        "description)",
    )
    p.add_argument(
        "--joint-commands-topic",
        default="/sdf_bridge/joint_commands",
        help="the bridge's joint_commands input (default: %(default)s)",
    )
    p.add_argument(
        "--joint-states-topic",
        default="/sdf_bridge/joint_states",
        help="the bridge's joint_states output (default: %(default)s)",
    )
    for command, text in _ROS_COMMAND_HELP.items():  # listed only (sdf_bridge.ros runs them)
        sub.add_parser(command, add_help=False, help=text)
    return parser


# -- JSON -------------------------------------------------------------------------------------


def to_jsonable(value: Any) -> Any:
    """Model objects → JSON-compatible values (dataclasses → dicts, enums → values, mappings →
    dicts, tuples → lists, non-finite floats → strings ``"inf"``/``"-inf"``/``"nan"``).
    Poses become ``{"xyz": [...], "rpy": [...]}``."""
    import dataclasses
    import enum
    import math

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


# -- commands ---------------------------------------------------------------------------------


def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``check``/``info``: load ``args.file`` and print its summary (or, with ``--json``, the
    model as JSON on ``out`` and the problems on ``err``). Returns 1 when the description cannot
    be loaded or, for ``check``, when the transmission report finds problems; else 0."""
    import json

    from .description import load_with_warnings
    from .description.model import World
    from .description.warning_digest import digest
    from .description.world import robots_of, scoping_note
    from .summary_text import print_summary, transmission_report

    with _quiet_library_logging():
        try:
            model, warnings = load_with_warnings(
                args.file,
                xacro_args=dict(args.xacro_args),
                package_paths=dict(args.package_paths),
                sdf_paths=args.sdf_paths,
            )
        except DescriptionError as exc:
            err.write(f"error: {exc}\n")
            return 1
        if args.robots:  # the simulation of several robots, as `run --robot` builds it
            from .description.world import load_placements, select_robots

            try:
                model = select_robots(
                    model,
                    (),
                    load_placements(
                        args.robots,
                        xacro_args=dict(args.xacro_args),
                        package_paths=dict(args.package_paths),
                        sdf_paths=args.sdf_paths,
                    ),
                )
            except DescriptionError as exc:
                err.write(f"error: {exc}\n")
                return 1
        robots = model.models if isinstance(model, World) else {model.name: model}
        if args.json:
            json.dump(to_jsonable(model), out, indent=2)
            out.write("\n")
            for warning in warnings if args.verbose else digest(warnings):
                err.write(f"warning: {warning}\n")
            if args.command != "check":
                return 0
            problems: list[str] = []
            for robot in robots.values():
                transmission_report(robot, problems)
            for problem in problems:
                err.write(f"error: {problem}\n")
            return 1 if problems else 0
        shown = robots
        if isinstance(model, World):
            several = robots_of(model)
            scenery = [name for name in model.models if name not in several]
            out.write(
                f"world: {model.name} ({len(robots)} models; scenery, static: "
                f"{', '.join(scenery) or 'none'})\n"
            )
            if len(several) > 1:
                out.write(scoping_note(several) + "\n")
            out.write("\n")
            if several:  # the robots; a static model is scenery, not summarised as a robot
                shown = {name: robots[name] for name in several}
        elif model.robots:
            out.write(scoping_note(model.robots) + "\n\n")
        count = 0
        for index, robot in enumerate(shown.values()):
            count += print_summary(
                robot,
                warnings if index == 0 else (),
                out,
                show_problems=args.command == "check",
                verbose=args.verbose,
            )
    return 1 if count and args.command == "check" else 0


@contextlib.contextmanager
def _quiet_library_logging() -> Iterator[None]:
    """Keep the library's ``logging`` warnings off the terminal while ``check``/``info`` run:
    the summary lists every warning once (its ``warnings (N)`` section, or ``warning:`` lines
    on standard error with ``--json``) and every transmission note."""
    import logging

    logger = logging.getLogger("sdf_bridge")
    handler = logging.NullHandler()
    propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def output_problem(output: str | None) -> str | None:
    """Why ``convert -o output`` cannot be written (a directory, a missing or non-directory
    parent, no write permission), or ``None`` (also for standard output: ``None``/``"-"``)."""
    if output in (None, "-"):
        return None
    if os.path.isdir(output):
        return (
            f"output {output!r} is a directory. Fix: give a file name, e.g. -o "
            f"{os.path.join(output, 'robot.sdf')}"
        )
    parent = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(parent):
        return (
            f"cannot write {output!r}: directory {parent!r} does not exist. Fix: create it "
            "or choose another -o"
        )
    if not os.access(parent, os.W_OK) or (
        os.path.exists(output) and not os.access(output, os.W_OK)
    ):
        return f"cannot write {output!r}: permission denied. Fix: choose a writable location for -o"
    return None


def _convert(args: argparse.Namespace, err: TextIO) -> int:
    """``convert``: check ``-o`` first (one-line error, exit 1), then delegate to
    :func:`sdf_bridge.description.export.convert_command`."""
    from .description.export import convert_command

    problem = output_problem(args.output)
    if problem is not None:
        err.write(f"error: {problem}\n")
        return 1
    args.xacro_args = dict(args.xacro_args)
    args.package_paths = dict(args.package_paths)
    try:
        return int(convert_command(args))
    except OSError as exc:  # e.g. the disk filled up while writing
        err.write(f"error: cannot write {args.output!r}: {exc.strerror or exc}\n")
        return 1


def _ros2_control(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``ros2-control``: the description with the topic-based block
    (:func:`sdf_bridge.hardware.topic_block.with_topic_block`) on ``out`` or in ``-o``."""
    from .description import load_with_xml
    from .description.world import select_robot
    from .hardware.topic_block import TopicBlockOptions, parse_command_interfaces, with_topic_block

    problem = output_problem(args.output)
    if problem is not None:
        err.write(f"error: {problem}\n")
        return 1
    options = TopicBlockOptions(
        plugin=args.plugin,
        joint_commands_topic=args.joint_commands_topic,
        joint_states_topic=args.joint_states_topic,
        command_interfaces=parse_command_interfaces(args.command_interfaces),
    )
    model, _warnings, xml = load_with_xml(
        args.source,
        xacro_args=dict(args.xacro_args) or None,
        package_paths=dict(args.package_paths) or None,
        sdf_paths=args.sdf_paths,
    )
    text = with_topic_block(select_robot(model, args.model), xml, options)
    if args.output in (None, "-"):
        out.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the description commands of ``sdf-bridge`` (``check``, ``info``, ``convert``,
    ``ros2-control``, ``--help``) with ``argv`` (default ``sys.argv[1:]``); return the exit
    code (0 success, 1 description or command errors, 2 usage errors, also a command of
    :data:`ROS_COMMANDS`, which :func:`sdf_bridge.ros.command_line.main` runs)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in ROS_COMMANDS:
        sys.stderr.write(
            f"error: sdf-bridge {args_list[0]} needs ROS 2: the sdf-bridge executable runs it "
            f"(sdf_bridge.ros.command_line; python -m sdf_bridge.ros.command_line "
            f"{args_list[0]} ...), not sdf_bridge.cli. An sdf-bridge executable that prints this "
            "was installed from an older setup.py: reinstall the package (pip install -e ., or "
            "bash .ci/setup).\n"
        )
        return 2
    parser = build_parser()
    try:
        args = parser.parse_args(args_list)
        _one_description(parser, args)
    except SystemExit as exc:  # argparse exits on usage errors and --help
        return int(exc.code or 0)
    try:
        if args.command in ("check", "info"):
            return _check(args, sys.stdout, sys.stderr)
        if args.command == "ros2-control":
            return _ros2_control(args, sys.stdout, sys.stderr)
        return _convert(args, sys.stderr)
    except SdfBridgeError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 1
    except BrokenPipeError:  # `sdf-bridge check ... | head`: the reader left; stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
