"""Differential test against urdfdom (issue 23): mutants of the shared corpus's URDFs
(test/mutants.py: deleted, duplicated and renamed elements, deleted and re-typed attributes).
Whenever urdfdom accepts a mutant (``urdf_to_graphviz``, of ``liburdfdom-tools``, exits 0),
the bridge loads it (possibly skipping elements, each warned) with ``check``'s verdict (no
problem that refuses the robot), and its kinematic tree (links; joints with parent and child)
equals urdfdom's.

The default suite runs :data:`DEFAULT_MUTANTS` mutants (a few seconds); ``pytest -m stress``
(setup.cfg's marker, run by .ci/run) runs :data:`STRESS_MUTANTS` more. Mutants the bridge
refuses on purpose where urdfdom does not are :func:`departure` (each class named, with why);
the rest must agree.
"""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import pytest
from lxml import etree
from mutants import Mutant, mutant
from prerequisites import SHARED, SHARED_URDF_ROBOTS, require_shared, require_tool

from sdf_bridge.description import load_with_warnings
from sdf_bridge.description.model import Robot
from sdf_bridge.errors import DescriptionError
from sdf_bridge.summary_text import print_summary

URDF_ROBOTS = SHARED_URDF_ROBOTS
DEFAULT_MUTANTS = 80
STRESS_MUTANTS = 1500

_NODE = re.compile(r'^"([^"]+)" \[label="[^"]*"\];$', re.M)
_EDGE = re.compile(r'^"([^"]+)" -> "([^"]+)"', re.M)


def urdfdom_tree(path: Path, out_dir: Path) -> tuple[set[str], dict[str, tuple[str, str]]] | None:
    """urdfdom's links and joints (name → (parent, child)) of ``path``, or ``None`` when
    urdfdom refuses it (``urdf_to_graphviz`` writes a Graphviz file of the parsed model)."""
    tool = require_tool("urdf_to_graphviz", "liburdfdom-tools")
    prefix = out_dir / "tree"
    gv = prefix.with_suffix(".gv")
    gv.unlink(missing_ok=True)
    result = subprocess.run(
        [tool, str(path), str(prefix)], capture_output=True, text=True, cwd=out_dir, timeout=60
    )
    if result.returncode != 0 or not gv.is_file():
        return None
    text = gv.read_text()
    links = set(_NODE.findall(text.split("node [shape=ellipse")[0]))
    parents: dict[str, str] = {}
    children: dict[str, str] = {}
    for a, b in _EDGE.findall(text):
        if a in links:
            parents[b] = a  # link -> joint
        else:
            children[a] = b  # joint -> link
    return links, {j: (parents[j], children[j]) for j in parents}


def our_tree(robot: Robot) -> tuple[set[str], dict[str, tuple[str, str]]]:
    return set(robot.links), {j.name: (j.parent, j.child) for j in robot.joints.values()}


def departure(m: Mutant, exc: DescriptionError) -> str | None:
    """Why the bridge refuses ``m`` on purpose where urdfdom loads it, or ``None``.

    The classes (each a rule of the kinematic tree, DESIGN.md):
    * a zero joint axis (urdfdom keeps (0, 0, 0); no motion is defined about it: case 011);
    * a non-finite joint value (urdfdom reads ``1e400``/``nan``; limits and poses need numbers);
    * a joint of a link to itself, a mimic loop or a mimic naming no joint (urdfdom does not
      check mimic references; the bridge drives followers from them).
    """
    text = str(exc)
    if "zero axis" in text:
        return "zero joint axis"
    if "not finite" in text or "'nan'" in text:
        return "non-finite value in the kinematic tree"
    if "mimic" in text:
        return "mimic reference"
    return None


def _documents() -> dict[str, bytes]:
    robots = require_shared(SHARED / "robots")
    docs = {}
    for name in URDF_ROBOTS:
        path = robots / name / f"{name}.urdf"
        if path.is_file():
            docs[name] = path.read_bytes()
    return docs


@pytest.fixture(scope="module")
def documents() -> dict[str, bytes]:
    return _documents()


def _check(index: int, documents: dict[str, bytes], tmp_path: Path) -> str:
    """Run mutant ``index``; return ``"refused"`` (urdfdom refuses it), ``"agrees"`` or the
    departure class. Fails when urdfdom accepts what the bridge refuses (not a departure),
    when ``check`` would exit 1, or when the trees differ."""
    names = sorted(documents)
    name = names[index % len(names)]
    m = mutant(documents[name], index)
    path = tmp_path / f"{name}_{index}.urdf"
    path.write_bytes(m.xml)
    reference = urdfdom_tree(path, tmp_path)
    if reference is None:
        return "refused"
    try:
        robot, warnings = load_with_warnings(path)
    except DescriptionError as exc:
        why = departure(m, exc)
        if why is None:
            pytest.fail(f"{name} mutant {index} ({m.what}): urdfdom loads it, the bridge: {exc}")
        return why
    assert isinstance(robot, Robot)
    problems = print_summary(robot, warnings, io.StringIO())
    assert problems == 0, f"{name} mutant {index} ({m.what}): check finds {problems} problem(s)"
    assert our_tree(robot) == reference, f"{name} mutant {index} ({m.what})"
    return "agrees"


def test_mutants_urdfdom_accepts_load(documents: dict[str, bytes], tmp_path: Path) -> None:
    outcomes = [_check(i, documents, tmp_path) for i in range(DEFAULT_MUTANTS)]
    # the sample exercises both sides: most mutants urdfdom accepts, some it refuses
    assert outcomes.count("agrees") >= DEFAULT_MUTANTS // 3
    assert "refused" in outcomes


@pytest.mark.stress
@pytest.mark.timeout(900)  # (hundreds of reference runs; ~2.5 min on an idle machine)
def test_many_mutants_urdfdom_accepts_load(documents: dict[str, bytes], tmp_path: Path) -> None:
    for i in range(DEFAULT_MUTANTS, DEFAULT_MUTANTS + STRESS_MUTANTS):
        _check(i, documents, tmp_path)


def test_the_graphviz_reading_of_urdfdom(tmp_path: Path) -> None:
    path = tmp_path / "r.urdf"
    path.write_text(
        '<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="fixed">'
        '<parent link="a"/><child link="b"/></joint></robot>'
    )
    assert urdfdom_tree(path, tmp_path) == ({"a", "b"}, {"j": ("a", "b")})
    path.write_text('<robot name="r"><link name="a"/><link name="a"/></robot>')
    assert urdfdom_tree(path, tmp_path) is None


def test_mutants_are_deterministic() -> None:
    doc = etree.tostring(etree.fromstring('<robot name="r"><link name="a"/></robot>'))
    assert [mutant(doc, i) for i in range(10)] == [mutant(doc, i) for i in range(10)]
