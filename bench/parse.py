"""Benchmark: loading the largest shared robots with sdf_bridge vs urdf_parser_py and yourdfpy.

Usage::

    python bench/parse.py [--repeat N] [--shared DIR]

Each loader reads the same flattened URDF file from disk, with no mesh loading, N times (after
one warm-up); the table gives the median wall time per load in ms and the ratios. sdf_bridge's
time includes validation (tree, references, names) and parsing of transmissions,
``<ros2_control>``, sensors and ``<gazebo>`` extensions, which the others skip or keep raw.
Target: sdf_bridge no slower than urdf_parser_py.

SDFormat: :func:`sdf_rows` is the hook where the largest SDF is timed against libsdformat.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sdf_bridge.description import load
from sdf_bridge.util.similarity import _close_match

URDF_ROBOTS = ("pr2", "panda_gazebo_ros1", "gen3_robotiq", "husky", "ur5e_ros2")


@dataclass
class Row:
    """One benchmark line: ``times`` maps loader name → median seconds (``None`` = unavailable)."""

    robot: str
    size: int
    times: dict[str, float | None] = field(default_factory=dict)
    note: str = ""


def load_cold(path: Path) -> object:
    """Our loader as a node's first load sees it: the misspelling memo cleared first."""
    _close_match.cache_clear()
    return load(path)


def median_times(funcs: dict[str, Callable[[], object]], repeat: int) -> dict[str, float | None]:
    """Median wall time (s) of each function over ``repeat`` rounds, after one warm-up call.

    The loaders are interleaved round by round (each round runs every loader once, in rotating
    order), so that load from other processes affects all of them alike. A loader whose warm-up
    raises is reported as ``None`` (it cannot read the file).
    """
    samples: dict[str, list[float]] = {}
    for name, func in funcs.items():
        try:
            func()
        except Exception:  # noqa: BLE001 - a reference parser failing is a result, not a crash
            continue
        samples[name] = []
    names = list(samples)
    for round_index in range(repeat):
        shift = round_index % max(1, len(names))
        for name in names[shift:] + names[:shift]:
            start = time.perf_counter()
            funcs[name]()
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(samples[name]) if name in samples else None for name in funcs}


def _quiet(func: Callable[[], object]) -> Callable[[], object]:
    """Run ``func`` with stderr silenced (urdf_parser_py prints unknown-tag warnings)."""

    def run() -> object:
        with contextlib.redirect_stderr(io.StringIO()):
            return func()

    return run


def urdf_loaders(path: Path) -> dict[str, Callable[[], object]]:
    """The loaders compared, each reading ``path`` from disk."""
    loaders: dict[str, Callable[[], object]] = {"sdf_bridge": lambda: load_cold(path)}
    try:
        from urdf_parser_py.urdf import URDF as UpURDF

        loaders["urdf_parser_py"] = _quiet(lambda: UpURDF.from_xml_string(path.read_bytes()))
    except ImportError:
        pass
    try:
        import yourdfpy

        loaders["yourdfpy"] = _quiet(
            lambda: yourdfpy.URDF.load(
                str(path),
                load_meshes=False,
                load_collision_meshes=False,
                build_scene_graph=False,
                build_collision_scene_graph=False,
            )
        )
    except ImportError:
        pass
    return loaders


def urdf_rows(robots_dir: Path, repeat: int) -> list[Row]:
    """Time every URDF robot of :data:`URDF_ROBOTS` with every available loader."""
    rows = []
    for name in URDF_ROBOTS:
        path = robots_dir / name / f"{name}.urdf"
        if not path.is_file():
            continue
        row = Row(robot=name, size=path.stat().st_size)
        loaders = urdf_loaders(path)
        row.times = median_times(loaders, repeat)
        failures = []
        for loader, value in row.times.items():
            if value is None:
                try:
                    loaders[loader]()
                except Exception as exc:
                    failures.append(
                        f"{loader} fails ({type(exc).__name__}: "
                        f"{str(exc).strip().splitlines()[0][:80]})"
                    )
        robot = load(path)
        row.note = "; ".join(
            failures
            + [
                f"{len(robot.links)} links, {len(robot.joints)} joints, "
                f"{len(robot.transmissions)} transmissions, {len(robot.sensors)} sensors, "
                f"{len(robot.ros2_control)} ros2_control"
            ]
        )
        rows.append(row)
    return rows


def pr2_without_pr2_transmissions(robots_dir: Path, repeat: int, workdir: Path) -> list[Row]:
    """pr2 with its PR2-style (``type=`` attribute) transmissions removed, so that
    urdf_parser_py (which cannot read them) can be timed on the largest robot too."""
    from lxml import etree

    source = robots_dir / "pr2" / "pr2.urdf"
    if not source.is_file():
        return []
    tree = etree.parse(str(source))
    for elem in tree.getroot().findall("transmission"):
        if elem.get("type") is not None:
            elem.getparent().remove(elem)
    path = workdir / "pr2_no_pr2_transmissions.urdf"
    tree.write(str(path))
    row = Row(robot="pr2 (no PR2-style transmissions)", size=path.stat().st_size)
    row.times = median_times(urdf_loaders(path), repeat)
    return [row]


def sdf_rows(robots_dir: Path, repeat: int) -> list[Row]:
    """Hook: the largest shared SDFormat robot, sdf_bridge vs libsdformat (added by the SDF owner).

    Returns rows in the same form as :func:`urdf_rows`; see :func:`libsdformat_sdf_rows`.
    """
    return libsdformat_sdf_rows(robots_dir, repeat)


def libsdformat_sdf_rows(robots_dir: Path, repeat: int) -> list[Row]:
    """The largest shared SDF file (and the largest SDF model), sdf_bridge vs libsdformat 12.

    libsdformat is timed in-process by ``test/description/sdf/libsdformat_probe.cpp --time N``
    (mean of N ``sdf::Root::Load`` calls, process start excluded), compiled here with g++ and
    ``pkg-config sdformat12`` (Debian ``libsdformat-dev``); sdf_bridge by :func:`median_times`.
    The note gives sdf_bridge/libsdformat (target ≤ 2).
    """
    import json
    import shutil
    import subprocess

    files = sorted(robots_dir.glob("*/*.sdf"), key=lambda p: p.stat().st_size, reverse=True)
    if not files:
        return []
    chosen = [files[0]]
    models = [p for p in files if "<world" not in p.read_text()]
    if models and models[0] != files[0]:
        chosen.append(models[0])
    probe_source = REPO / "test" / "description" / "sdf" / "libsdformat_probe.cpp"
    exe = None
    with tempfile.TemporaryDirectory() as tmp:
        flags = subprocess.run(
            ["pkg-config", "--cflags", "--libs", "sdformat12"], capture_output=True, text=True
        )
        if shutil.which("g++") and flags.returncode == 0:
            exe = Path(tmp) / "probe"
            built = subprocess.run(
                ["g++", "-O2", "-o", str(exe), str(probe_source), *flags.stdout.split()],
                capture_output=True,
                text=True,
            )
            if built.returncode != 0:
                exe = None
        rows = []
        for path in chosen:
            row = Row(robot=path.stem, size=path.stat().st_size)
            row.times = median_times({"sdf_bridge": lambda path=path: load_cold(path)}, repeat)
            if exe is not None:
                out = subprocess.run(
                    [str(exe), "--time", str(repeat), str(path)],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                row.times["libsdformat"] = json.loads(out.stdout)["seconds_per_load"]
                ours = row.times["sdf_bridge"]
                row.note = (
                    f"sdf_bridge/libsdformat = {ours / row.times['libsdformat']:.3f} (target <= "
                    "2); libsdformat: mean of in-process sdf::Root::Load calls"
                )
            else:
                row.times["libsdformat"] = None
                row.note = (
                    "libsdformat probe not built (apt-get install g++ pkg-config libsdformat-dev)"
                )
            rows.append(row)
    return rows


def print_table(rows: list[Row], reference: str = "sdf_bridge") -> None:
    """Print ``rows`` as a table with times in ms and ratios other/sdf_bridge (> 1: we are
    faster)."""
    loaders: list[str] = []
    for row in rows:
        for name in row.times:
            if name not in loaders:
                loaders.append(name)
    others = [n for n in loaders if n != reference]
    header = ["robot", "kB"] + [f"{n} ms" for n in loaders] + [f"{n}/{reference}" for n in others]
    lines = [header]
    for row in rows:
        cells = [row.robot, f"{row.size / 1024:.0f}"]
        for name in loaders:
            t = row.times.get(name)
            cells.append("fails" if t is None else f"{t * 1e3:.2f}")
        ref = row.times.get(reference)
        for name in others:
            t = row.times.get(name)
            cells.append("-" if t is None or not ref else f"{t / ref:.2f}x")
        lines.append(cells)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print(
            "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(line, widths)))
        )
    for row in rows:
        if row.note:
            print(f"  {row.robot}: {row.note}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeat", type=int, default=30, help="timed runs per loader (median reported)"
    )
    parser.add_argument(
        "--shared",
        type=Path,
        default=Path(os.environ.get("SDF_BRIDGE_SHARED", REPO.parent / "shared")),
        help="the shared corpus directory",
    )
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)  # loader warnings are not part of the timing output
    robots_dir = args.shared / "robots"
    print(f"median of {args.repeat} loads per cell, Python {sys.version.split()[0]}")
    rows = urdf_rows(robots_dir, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        rows += pr2_without_pr2_transmissions(robots_dir, args.repeat, Path(tmp))
    print_table(rows)
    extra = sdf_rows(robots_dir, args.repeat)
    if extra:
        print()
        print_table(extra)
    return 0


if __name__ == "__main__":
    sys.exit(main())
