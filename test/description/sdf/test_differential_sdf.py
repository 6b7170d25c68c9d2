"""Differential test against libsdformat (issue 23): mutants of the shared corpus's SDFormat
models (:mod:`mutants`). Whenever libsdformat loads a mutant without errors (the reference
probe, ``libsdformat_probe.cpp``), the bridge loads it (possibly skipping elements, each
warned) with ``check``'s verdict (no problem that refuses the robot), and its links, joints and
joint types equal libsdformat's.

The default suite runs :data:`DEFAULT_MUTANTS` mutants; ``pytest -m stress`` (setup.cfg's
marker, run by .ci/run) runs :data:`STRESS_MUTANTS` more.
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest
from mutants import mutant
from prerequisites import SHARED, SHARED_SDF_ROBOTS, require_shared

from sdf_bridge.description import load_with_warnings
from sdf_bridge.description.model import Robot, World
from sdf_bridge.description.sdf.joint_tree import WORLD_LINK
from sdf_bridge.errors import DescriptionError
from sdf_bridge.summary_text import print_summary

SDF_ROBOTS = SHARED_SDF_ROBOTS
DEFAULT_MUTANTS = 20
STRESS_MUTANTS = 400


def reference(probe_exe: Path, path: Path) -> dict | None:
    """libsdformat's models of ``path`` (name → {"links", "joints": name → type}), or ``None``
    when it reports errors (or crashes)."""
    result = subprocess.run(
        [str(probe_exe), str(path)], capture_output=True, text=True, cwd=path.parent, timeout=60
    )
    if result.returncode != 0:
        return None
    data = json.loads(result.stdout)
    if data["errors"]:
        return None
    return {
        name: {
            "links": set(model["links"]),
            "joints": {j: v["type"] for j, v in model["limits"].items()},
        }
        for name, model in data["models"].items()
    }


def ours(model: Robot | World) -> dict:
    robots = model.models if isinstance(model, World) else {model.name: model}
    return {
        name: {
            "links": set(robot.links) - {WORLD_LINK},
            "joints": {j.name: j.type.value for j in robot.joints.values()},
        }
        for name, robot in robots.items()
    }


@pytest.fixture(scope="module")
def documents() -> dict[str, bytes]:
    robots = require_shared(SHARED / "robots")
    return {
        name: (robots / name / f"{name}.sdf").read_bytes()
        for name in SDF_ROBOTS
        if (robots / name / f"{name}.sdf").is_file()
    }


def _check(index: int, documents: dict[str, bytes], probe_exe: Path, tmp_path: Path) -> str:
    names = sorted(documents)
    name = names[index % len(names)]
    m = mutant(documents[name], index)
    path = tmp_path / f"{name}_{index}.sdf"
    path.write_bytes(m.xml)
    expected = reference(probe_exe, path)
    if expected is None:
        return "refused"
    try:
        model, warnings = load_with_warnings(path)
    except DescriptionError as exc:
        pytest.fail(f"{name} mutant {index} ({m.what}): libsdformat loads it, the bridge: {exc}")
    robots = model.models.values() if isinstance(model, World) else [model]
    for robot in robots:
        problems = print_summary(robot, warnings, io.StringIO())
        assert problems == 0, f"{name} mutant {index} ({m.what}): check finds problems"
    assert ours(model) == expected, f"{name} mutant {index} ({m.what})"
    return "agrees"


def test_mutants_libsdformat_accepts_load(
    documents: dict[str, bytes], probe_exe: Path, tmp_path: Path
) -> None:
    outcomes = [_check(i, documents, probe_exe, tmp_path) for i in range(DEFAULT_MUTANTS)]
    assert outcomes.count("agrees") >= DEFAULT_MUTANTS // 3
    assert "refused" in outcomes


@pytest.mark.stress
@pytest.mark.timeout(900)  # (hundreds of reference runs; ~2.5 min on an idle machine)
def test_many_mutants_libsdformat_accepts_load(
    documents: dict[str, bytes], probe_exe: Path, tmp_path: Path
) -> None:
    for i in range(DEFAULT_MUTANTS, DEFAULT_MUTANTS + STRESS_MUTANTS):
        _check(i, documents, probe_exe, tmp_path)
