"""``sdf-bridge``: command-line front end.

Subcommands::

    sdf-bridge check FILE [--xacro-arg k:=v ...] [--package-path pkg=dir ...] [--sdf-path dir ...] [--json]
    sdf-bridge info FILE [...]                      # the same summary, without the problems section
    sdf-bridge convert SOURCE [-o OUT] [--to sdf|urdf] [--lump-fixed] [--xacro-arg k:=v ...]
    sdf-bridge run [bridge arguments, incl. --ros-args ...]
    sdf-bridge demo [demo arguments]

``check`` exits with 1 when the description has errors (the message names file, line, element
and fix; no traceback). ``run`` and ``demo`` hand their raw arguments to
:mod:`sdf_bridge.ros.main` (they carry ROS arguments argparse must not see).
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import json
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from .description.model import Robot, World
from .errors import DescriptionError, SdfBridgeError, TransmissionError

_DEFAULT_INTERFACES = ("position", "velocity", "effort")


# -- argument helpers -------------------------------------------------------------------------


def _key_value(separators: tuple[str, ...], what: str):  # noqa: ANN202 (argparse type factory)
    def parse(text: str) -> tuple[str, str]:
        for sep in separators:
            key, found, value = text.partition(sep)
            if found and key:
                return key, value
        raise argparse.ArgumentTypeError(f"{what} must look like name{separators[0]}value, got {text!r}")

    return parse


def _add_source_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--xacro-arg", dest="xacro_args", action="append", default=[], metavar="NAME:=VALUE",
        type=_key_value((":=", "="), "--xacro-arg"), help="xacro argument (repeatable)",
    )
    parser.add_argument(
        "--package-path", dest="package_paths", action="append", default=[], metavar="PKG=DIR",
        type=_key_value(("=",), "--package-path"),
        help="directory of a package for package:// and $(find) (repeatable; before the ament index)",
    )
    parser.add_argument(
        "--sdf-path", dest="sdf_paths", action="append", default=[], metavar="DIR",
        help="directory searched for SDFormat model:// includes (repeatable; before GZ_SIM_RESOURCE_PATH)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``sdf-bridge`` (``run``/``demo`` are listed but not parsed here)."""
    parser = argparse.ArgumentParser(
        prog="sdf-bridge", description="Robot description → hardware-interface bridge."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, text in (("check", "load and validate a description; print a summary and any problems"),
                       ("info", "print a summary of a description")):
        p = sub.add_parser(name, help=text, description=text)
        p.add_argument("file", help="URDF, xacro or SDFormat file")
        _add_source_options(p)
        p.add_argument("--json", action="store_true", help="print the model as JSON instead")
    p = sub.add_parser("convert", help="convert a description to SDFormat or URDF")
    p.add_argument("source", help="URDF, xacro or SDFormat file")
    p.add_argument("-o", "--output", default=None, help="output file (default: standard output)")
    p.add_argument("--to", choices=("sdf", "urdf"), default="sdf", help="output format (default sdf)")
    p.add_argument("--lump-fixed", action="store_true", help="merge links joined by fixed joints")
    _add_source_options(p)
    sub.add_parser("run", help="run the bridge node (arguments go to the node, incl. --ros-args)",
                   add_help=False)
    sub.add_parser("demo", help="run the bridge on the demo robot and print joint states", add_help=False)
    return parser


# -- JSON -------------------------------------------------------------------------------------


def to_jsonable(value: Any) -> Any:
    """Model objects → JSON-compatible values (dataclasses → dicts, enums → values, mappings →
    dicts, tuples → lists, non-finite floats → strings ``"inf"``/``"-inf"``/``"nan"``).
    Poses become ``{"xyz": [...], "rpy": [...]}``."""
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


# -- summary ----------------------------------------------------------------------------------


def _val(value: object) -> str:
    """A report value for display: ``-`` for ``None``, ``%g`` for numbers."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _interfaces(robot: Robot) -> dict[str, tuple[str, str]]:
    """joint → (command interfaces, state interfaces), from ``<ros2_control>`` when present."""
    result: dict[str, tuple[str, str]] = {}
    for component in robot.ros2_control:
        for info in component.joints:
            result[info.name] = (
                ",".join(i.name for i in info.command_interfaces) or "-",
                ",".join(i.name for i in info.state_interfaces) or "-",
            )
    if robot.ros2_control:
        return result
    default = ",".join(_DEFAULT_INTERFACES)
    return {name: (default, default) for name, j in robot.joints.items() if j.type.is_movable}


def _table(rows: list[list[str]], out: TextIO) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        out.write("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() + "\n")


def _describe_transmissions(robot: Robot, problems: list[str]) -> list[dict]:
    if not robot.transmissions:
        return []
    try:
        from .transmissions.report import describe_transmissions
    except ImportError as exc:  # optional during development only
        problems.append(f"transmission report unavailable: {exc}")
        return []
    try:
        return describe_transmissions(robot)
    except TransmissionError as exc:
        problems.append(str(exc))
        return []


def print_summary(robot: Robot, warnings: Sequence[str], out: TextIO, *, show_problems: bool = True) -> int:
    """Print the readable summary of ``robot``; return the number of problems found."""
    problems: list[str] = []
    counts: dict[str, int] = {}
    for joint in robot.joints.values():
        counts[joint.type.value] = counts.get(joint.type.value, 0) + 1
    out.write(f"robot: {robot.name} ({robot.format}{' ' + robot.version if robot.version else ''})\n")
    if robot.source_file:
        out.write(f"file: {robot.source_file}\n")
    out.write(
        f"links: {len(robot.links)}  joints: {len(robot.joints)} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(counts.items())) or 'none'})  "
        f"movable: {len(robot.movable_joints)}  transmissions: {len(robot.transmissions)}  "
        f"ros2_control: {len(robot.ros2_control)}  sensors: {len(robot.sensors)}\n"
    )
    if robot.joints:
        out.write("\njoints:\n")
        interfaces = _interfaces(robot)
        rows = [["name", "type", "parent -> child", "lower", "upper", "velocity", "effort", "command", "state", "mimic"]]
        for joint in robot.joints.values():
            limit = joint.limit
            command, state = interfaces.get(joint.name, ("-", "-"))
            mimic = "-"
            if joint.mimic is not None:
                mimic = f"{joint.mimic.multiplier:g}*{joint.mimic.joint}{joint.mimic.offset:+g}"
            rows.append([
                joint.name, joint.type.value, f"{joint.parent} -> {joint.child}",
                _val(limit.lower if limit else None), _val(limit.upper if limit else None),
                _val(limit.velocity if limit else None), _val(limit.effort if limit else None),
                command, state, mimic,
            ])
        _table(rows, out)
    described = _describe_transmissions(robot, problems)
    if described:
        out.write("\ntransmissions:\n")
        for entry in described:
            out.write(f"  {entry.get('name')} ({entry.get('type')}, {entry.get('dialect')}): "
                      f"{entry.get('effective', '')}\n")
            for joint in entry.get("joints", ()):
                out.write(f"    joint {joint.get('name')} role={_val(joint.get('role'))} "
                          f"reduction={_val(joint.get('reduction'))} offset={_val(joint.get('offset'))}\n")
            for actuator in entry.get("actuators", ()):
                out.write(f"    actuator {actuator.get('name')} role={_val(actuator.get('role'))} "
                          f"reduction={_val(actuator.get('reduction'))}\n")
            for note in entry.get("notes", ()):
                out.write(f"    note: {note}\n")
    if robot.sensors:
        out.write("\nsensors:\n")
        rows = [["name", "type", "link", "rate (Hz)", "topic"]]
        for sensor in robot.sensors:
            rows.append([sensor.name, sensor.type, str(sensor.link or sensor.joint or "-"),
                         f"{sensor.update_rate:g}", sensor.topic or "-"])
        _table(rows, out)
    if warnings:
        out.write(f"\nwarnings ({len(warnings)}):\n")
        for warning in warnings:
            out.write(f"  {warning}\n")
    if show_problems:
        out.write(f"\nproblems ({len(problems)}):\n" if problems else "\nproblems: none\n")
        for problem in problems:
            out.write(f"  {problem}\n")
    return len(problems)


def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``check``/``info``: load ``args.file`` and print its summary (or, with ``--json``, the
    model as JSON on ``out`` and the problems on ``err``). Returns 1 when the description cannot
    be loaded or, for ``check``, when the transmission report finds problems; else 0."""
    from .description import load_with_warnings

    try:
        model, warnings = load_with_warnings(
            args.file, xacro_args=dict(args.xacro_args), package_paths=dict(args.package_paths),
            sdf_paths=args.sdf_paths,
        )
    except DescriptionError as exc:
        err.write(f"error: {exc}\n")
        return 1
    robots = model.models if isinstance(model, World) else {model.name: model}
    if args.json:
        json.dump(to_jsonable(model), out, indent=2)
        out.write("\n")
        if args.command != "check":
            return 0
        problems: list[str] = []
        for robot in robots.values():
            _describe_transmissions(robot, problems)
        for problem in problems:
            err.write(f"error: {problem}\n")
        return 1 if problems else 0
    if isinstance(model, World):
        out.write(f"world: {model.name} ({len(robots)} models)\n\n")
    count = 0
    for index, robot in enumerate(robots.values()):
        count += print_summary(robot, warnings if index == 0 else (), out, show_problems=args.command == "check")
    return 1 if count and args.command == "check" else 0


def _convert(args: argparse.Namespace) -> int:
    from .description.export import convert_command

    args.xacro_args = dict(args.xacro_args)
    args.package_paths = dict(args.package_paths)
    return int(convert_command(args))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``sdf-bridge`` with ``argv`` (default ``sys.argv[1:]``); return the exit code
    (0 success, 1 description or command errors, 2 usage errors)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in ("run", "demo"):
        from .ros import main as ros_main

        runner = ros_main.run_command if args_list[0] == "run" else ros_main.demo_command
        return int(runner(args_list[1:]))
    parser = build_parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse exits on usage errors and --help
        return int(exc.code or 0)
    try:
        if args.command in ("check", "info"):
            return _check(args, sys.stdout, sys.stderr)
        return _convert(args)
    except SdfBridgeError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
