"""Every URDF robot of the shared corpus loads from its original xacro/URDF sources and from its
flattened file, with the link/joint/joint-type counts of robots/INDEX.md.

The xacro command, its arguments and the package → directory mapping are read from each
robot's SOURCE.md (the ``ln -s "$PWD/<dir>" $P/share/<pkg>`` lines and the ``xacro ... -o`` line),
so the test follows the corpus rather than repeating it.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path

import pytest
from prerequisites import SHARED, shared_skip_mark

from sdf_bridge.description import Robot, load, load_with_warnings

ROBOTS_DIR = SHARED / "robots"
pytestmark = shared_skip_mark()

_ROW = re.compile(
    r"^\| \[(?P<name>[^\]]+)\]\([^)]*\) \| (?P<format>[^|]+) \| (?P<links>\d+) \| "
    r"(?P<joints>[^|]+) \|"
)
_PACKAGE = re.compile(r'packages/(?P<pkg>[\w-]+); ln -s "\$PWD/(?P<dir>[^"]+)"')
_COMMAND = re.compile(
    r"^AMENT_PREFIX_PATH=\$P xacro (?P<file>\S+)(?P<args>(?: \S+:=\S*)*) -o (?P<out>\S+)\s*$", re.M
)


def _index(robots_dir: Path) -> dict[str, dict]:
    entries = {}
    for line in (robots_dir / "INDEX.md").read_text().splitlines():
        match = _ROW.match(line)
        if not match:
            continue
        joints_text = match.group("joints").strip()
        total, _, detail = joints_text.partition(" ")
        types = {k: int(v) for k, v in re.findall(r"(\w+) (\d+)", detail)}
        entries[match.group("name")] = {
            "format": match.group("format").strip(),
            "links": int(match.group("links")),
            "joints": int(total),
            "types": types,
        }
    return entries


def _urdf_names() -> list[str]:
    if not ROBOTS_DIR.is_dir():  # the module is skipped (or fails, under SDF_BRIDGE_REQUIRE_SHARED)
        return []
    return sorted(n for n, e in _index(ROBOTS_DIR).items() if e["format"] == "URDF")


def _source(robot_dir: Path) -> tuple[Path, dict[str, str], dict[str, Path]]:
    text = (robot_dir / "SOURCE.md").read_text()
    command = _COMMAND.search(text)
    assert command, f"no xacro command in {robot_dir / 'SOURCE.md'}"
    args = dict(a.split(":=", 1) for a in command.group("args").split())
    packages = {m.group("pkg"): robot_dir / m.group("dir") for m in _PACKAGE.finditer(text)}
    return robot_dir / command.group("file"), args, packages


def _check_counts(robot: Robot, entry: dict) -> None:
    assert len(robot.links) == entry["links"]
    assert len(robot.joints) == entry["joints"]
    assert dict(Counter(j.type.value for j in robot.joints.values())) == entry["types"]


def test_index_lists_the_urdf_robots(robots_dir: Path) -> None:
    names = [n for n, e in _index(robots_dir).items() if e["format"] == "URDF"]
    assert len(names) == 9
    assert sorted(names) == _urdf_names()


@pytest.mark.parametrize("name", _urdf_names())
def test_flattened_file_loads_with_index_counts(robots_dir: Path, name: str) -> None:
    entry = _index(robots_dir)[name]
    robot, _ = load_with_warnings(robots_dir / name / f"{name}.urdf")
    assert isinstance(robot, Robot)
    _check_counts(robot, entry)
    assert robot.format == "urdf"
    assert robot.source_file == str(robots_dir / name / f"{name}.urdf")


@pytest.mark.parametrize("name", _urdf_names())
def test_original_xacro_loads_with_index_counts(robots_dir: Path, name: str) -> None:
    entry = _index(robots_dir)[name]
    source, args, packages = _source(robots_dir / name)
    assert packages, "SOURCE.md maps at least one package"
    robot = load(source, xacro_args=args, package_paths=packages)
    assert isinstance(robot, Robot)
    _check_counts(robot, entry)
    flat = load(robots_dir / name / f"{name}.urdf")
    assert list(robot.links) == list(flat.links)
    assert list(robot.joints) == list(flat.joints)
    # same joints, field by field, apart from where they were read
    assert [dataclasses.replace(j, source=None) for j in robot.joints.values()] == [
        dataclasses.replace(j, source=None) for j in flat.joints.values()
    ]


@pytest.mark.parametrize("name", _urdf_names())
def test_flattened_file_loads_from_a_string(robots_dir: Path, name: str) -> None:
    text = (robots_dir / name / f"{name}.urdf").read_text()
    robot = load(text)
    assert isinstance(robot, Robot)
    assert robot.source_file is None
    assert len(robot.joints) == _index(robots_dir)[name]["joints"]


def test_meshes_resolve_into_the_package_tree(robots_dir: Path) -> None:
    source, args, packages = _source(robots_dir / "pr2")
    robot = load(source, xacro_args=args, package_paths=packages)
    meshes = [
        v.geometry
        for link in robot.links.values()
        for v in link.visuals
        if hasattr(v.geometry, "filename")
    ]
    assert meshes
    root = str(packages["pr2_description"])
    for mesh in meshes:
        assert mesh.filename.startswith("package://pr2_description/")
        assert mesh.resolved == root + "/" + mesh.filename[len("package://pr2_description/") :]
