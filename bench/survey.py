"""Survey of robot descriptions: does each load, convert, simulate and sense as Gazebo would?

One row per description found (URDF, xacro with its arguments, SDFormat model, or each robot
of an SDFormat world), columns:

* ``loads``: ``ok`` or the first problem (the loader's typed error, file, line and fix);
* ``links/joints``: counts of the loaded model;
* ``convert``: ``sdf-bridge convert`` output checked with libsdformat 12 (no errors; link poses,
  joint axes, types and limits equal to libsdformat's reading of the original, fixed joints
  lumped for URDF, as libsdformat's URDF reader does), compared only where libsdformat reads
  the original right (no errors, no warnings, none of its known silent misreadings; else
  ``n/a: libsdformat misreads the original (why)``, which passes): see :mod:`_survey_checks`;
* ``mock``: joints in the node's ``joint_states`` and the in-process tick rate (Hz) at the
  node's default update rate (100 Hz, one simulated second);
* ``mujoco``: 5 s simulated with no command, fixed base (the backend's default), kept clear of
  the ground in every configuration (the base lifted by the robot's reach, or no ground plane
  for a URDF ``world`` root whose start pose touches it): the largest joint drift from the
  first state (rad or m; the joint named), NaN or instabilities, and the real-time factor of
  the loop in process;
* ``sensors``: description sensors whose first reading converts to the node's ROS messages
  and is plausible (:func:`_survey_checks.plausible`);
* ``usable``: every column passes (drift < 0.02 rad).

Then the summary line ``N/M robots fully usable``.

Inputs: files or directories (searched recursively for ``*.urdf``, ``*.xacro``, ``*.sdf``,
``*.world``; an xacro or URDF file that another file of the search ``xacro:include``s is a fragment,
not a robot; a file whose model has no links is not a robot either), and ``--manifest FILE`` (YAML
list of ``{repo, commit, file, args, model, label, also, packages}``, paths relative to
``--root``/``<owner>+<name>``; ``also``: repositories whose packages the file includes too;
``packages``: package → directory in the repository, where the installed layout differs: the public
robots of the survey report, ``doc/reports/``). Packages for ``package://`` and ``$(find)``:
every ``package.xml`` under an input directory (or a manifest entry's repository), then
``--package-path pkg=DIR``.

Run::

    python bench/survey.py ../shared/robots --skip '*/src/*'
    python bench/survey.py --manifest bench/survey_public.yaml --root /path/to/fetched/repos
    python bench/survey.py robot.urdf.xacro --xacro-arg prefix:=left_ \\
        --package-path my_robot=src/my_robot
"""

from __future__ import annotations

import argparse
import fnmatch
import logging
import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _survey_checks as checks  # noqa: E402  (after the path set-up above)
from lxml import etree

from sdf_bridge.description import load_with_xml
from sdf_bridge.description.model import Robot, World
from sdf_bridge.description.world import robots_of, select_robot
from sdf_bridge.errors import DescriptionError, KinematicTreeError

SUFFIXES = (".urdf", ".xacro", ".sdf", ".world")
SKIP_DIRS = frozenset({".git", "meshes", "__pycache__", "node_modules"})
_INCLUDE = re.compile(r"<xacro:include[^>]*filename\s*=\s*[\"']([^\"']+)[\"']")


@dataclass
class Entry:
    """One description to survey: its file, xacro arguments, packages and an optional model
    name (a world's robot), with the label of its row and where it came from."""

    file: Path
    label: str
    xacro_args: dict[str, str] = field(default_factory=dict)
    packages: dict[str, str] = field(default_factory=dict)
    model: str | None = None
    source: str = ""


@dataclass
class Row:
    """One row of the table (see the module docstring)."""

    label: str
    fmt: str = "-"
    loads: str = "-"
    counts: str = "-"
    convert: checks.Check | None = None
    mock: checks.Check | None = None
    mujoco: checks.Check | None = None
    sensors: checks.Check | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        parts = (self.convert, self.mock, self.mujoco, self.sensors)
        return self.loads == "ok" and all(p is not None and p.ok for p in parts)


def find_packages(root: Path) -> dict[str, str]:
    """``package.xml`` name → its directory, for every package under ``root``."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("package.xml")):
        try:
            name = etree.parse(str(path)).getroot().findtext("name")
        except etree.XMLSyntaxError:
            continue
        if name and name.strip() not in found:
            found[name.strip()] = str(path.parent)
    return found


def discover(directory: Path, skip: list[str]) -> list[Path]:
    """Description files under ``directory`` (see the module docstring), sorted."""
    candidates: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if name.endswith(SUFFIXES) and not any(
                fnmatch.fnmatch(str(path), pattern) for pattern in skip
            ):
                candidates.append(path)
    included: set[str] = set()
    for path in candidates:
        if path.suffix in (".xacro", ".urdf"):
            text = path.read_text(encoding="utf-8", errors="replace")
            included.update(os.path.basename(m) for m in _INCLUDE.findall(text))
    return [p for p in candidates if p.name not in included]


def read_manifest(manifest: Path, root: Path) -> list[Entry]:
    """The entries of a survey manifest (YAML list; see the module docstring)."""
    import yaml

    entries = []
    packages_of: dict[str, dict[str, str]] = {}
    for item in yaml.safe_load(manifest.read_text(encoding="utf-8")):
        repo = str(item["repo"])
        packages: dict[str, str] = {}
        for name in (repo, *item.get("also", ())):
            if name not in packages_of:
                repo_dir = root / name.replace("/", "+")
                packages_of[name] = find_packages(repo_dir) if repo_dir.is_dir() else {}
            packages = {**packages_of[name], **packages}
        repo_dir = root / repo.replace("/", "+")
        packages.update(
            {str(k): str(repo_dir / v) for k, v in (item.get("packages") or {}).items()}
        )
        args = {str(k): str(v) for k, v in (item.get("args") or {}).items()}
        label = item.get("label") or Path(item["file"]).name
        entries.append(
            Entry(
                repo_dir / item["file"],
                str(label),
                args,
                packages,
                item.get("model"),
                f"{repo}@{str(item.get('commit', ''))[:10]}",
            )
        )
    return entries


def _label(path: Path, base: Path) -> str:
    try:
        return str(path.relative_to(base))
    except ValueError:
        return path.name


def _robots(model: Robot | World, wanted: str | None) -> list[Robot]:
    """The robots of a loaded description, as the bridge would run them
    (:func:`~sdf_bridge.description.world.select_robot`): the one named, else each robot
    (non-static model) of a world with the world's other models as its scenery."""
    if isinstance(model, Robot) or wanted is not None:
        return [select_robot(model, wanted)]
    return [select_robot(model, name) for name in robots_of(model)]


def survey(
    entry: Entry, probe: checks.Probe, sdf_paths: tuple[str, ...], cameras: bool
) -> list[Row]:
    """The rows of one description (none when it is not a robot: no links)."""
    try:
        model, warnings, xml = load_with_xml(
            entry.file,
            xacro_args=entry.xacro_args,
            package_paths=entry.packages,
            sdf_paths=sdf_paths,
        )
    except KinematicTreeError as exc:
        if "has no links" in exc.problem:
            return []
        return [Row(entry.label, loads=_short(exc))]
    except DescriptionError as exc:
        return [Row(entry.label, loads=_short(exc))]
    try:
        robots = _robots(model, entry.model)
    except DescriptionError as exc:
        return [Row(entry.label, loads=_short(exc))]
    if not robots:
        return []  # a world of static scenery only
    rows = []
    with tempfile.TemporaryDirectory(prefix="survey_") as tmp:
        work = Path(tmp)
        original = entry.file.resolve()
        is_urdf = robots[0].format == "urdf"
        # the XML the bridge read (xacro expanded), beside the original for relative paths
        if is_urdf:
            original = work / "read.urdf"
            original.write_text(xml, encoding="utf-8")
        for robot in robots:
            label = entry.label if len(robots) == 1 else f"{entry.label} :: {robot.name}"
            movable = sum(1 for j in robot.joints.values() if j.type.is_movable)
            row = Row(
                label,
                fmt=robot.format + (f" {robot.version}" if robot.version else ""),
                loads="ok",
                counts=f"{len(robot.links)}/{len(robot.joints)} ({movable})",
                warnings=list(warnings),
            )
            package_roots = tuple(
                str(Path(d).parent) for pkg, d in entry.packages.items() if Path(d).name == pkg
            )
            row.convert = checks.check_convert(
                robot, original, is_urdf, probe, robot.name, sdf_paths + package_roots, work
            )
            row.mock = checks.check_mock(robot)
            run = checks.check_mujoco(robot, cameras=cameras)
            row.mujoco, row.sensors = run.run, run.sensors
            rows.append(row)
    return rows


def _short(exc: Exception) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:220]


def _cell(check: checks.Check | None) -> str:
    return "-" if check is None else check.text.replace("|", "\\|")


def print_table(rows: list[Row], out=sys.stdout) -> None:  # noqa: ANN001 (a text stream)
    """The Markdown table and the summary line."""
    out.write(
        "| robot | format | loads | links/joints (movable) | convert (libsdformat) | mock "
        "(joint_states) | MuJoCo 5 s, no command | sensors | usable |\n"
    )
    out.write("|---|---|---|---|---|---|---|---|---|\n")
    for row in rows:
        cells = [
            row.label,
            row.fmt,
            row.loads.replace("|", "\\|"),
            row.counts,
            _cell(row.convert),
            _cell(row.mock),
            _cell(row.mujoco),
            _cell(row.sensors),
            "yes" if row.usable else "**no**",
        ]
        out.write("| " + " | ".join(cells) + " |\n")
    usable = sum(1 for row in rows if row.usable)
    out.write(f"\n{usable}/{len(rows)} robots fully usable\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "paths", nargs="*", type=Path, help="description files or directories to search"
    )
    parser.add_argument(
        "--manifest", type=Path, help="YAML list of descriptions in fetched repositories"
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=Path("."),
        help="directory holding <owner>+<name>/ repositories",
    )
    parser.add_argument(
        "--package-path",
        action="append",
        default=[],
        metavar="PKG=DIR",
        help="package directory for package:// and $(find) (repeatable)",
    )
    parser.add_argument(
        "--xacro-arg",
        action="append",
        default=[],
        metavar="NAME:=VALUE",
        help="xacro argument for every xacro file given or found (repeatable)",
    )
    parser.add_argument(
        "--sdf-path", action="append", default=[], metavar="DIR", help="model:// search directory"
    )
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        metavar="GLOB",
        help="paths to leave out (repeatable)",
    )
    parser.add_argument("--no-cameras", action="store_true", help="do not render cameras (faster)")
    parser.add_argument(
        "--warnings", action="store_true", help="print each row's load warnings after the table"
    )
    args = parser.parse_args(argv)
    checks.quiet_logging()
    packages = dict(p.split("=", 1) for p in args.package_path)
    xacro_args = dict(a.split(":=", 1) for a in args.xacro_arg)
    entries: list[Entry] = []
    for path in args.paths:
        if path.is_dir():
            found = {**find_packages(path), **packages}
            entries += [
                Entry(p, _label(p, path), dict(xacro_args), found)
                for p in discover(path, args.skip)
            ]
        else:
            entries.append(Entry(path, path.name, dict(xacro_args), packages))
    if args.manifest is not None:
        for entry in read_manifest(args.manifest, args.root):
            entry.packages.update(packages)
            entries.append(entry)
    probe = checks.Probe()
    rows: list[Row] = []
    start = time.perf_counter()
    try:
        for entry in entries:
            t0 = time.perf_counter()
            new = survey(entry, probe, tuple(args.sdf_path), not args.no_cameras)
            rows += new
            for row in new:
                print(
                    f"  {row.label}: {'usable' if row.usable else 'NOT usable'} "
                    f"({time.perf_counter() - t0:.1f} s)",
                    file=sys.stderr,
                )
    finally:
        probe.close()
    print_table(rows)
    print(f"({len(entries)} files, {time.perf_counter() - start:.0f} s)")
    if args.warnings:
        for row in rows:
            for warning in row.warnings:
                print(f"{row.label}: warning: {warning}")
    return 0


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR)
    sys.exit(main())
