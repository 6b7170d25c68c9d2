"""doc/_ext/bound_names.py: a docstring's cross-reference means what the name means in the code
of its module (class, module, the module's imports, absolute or package-relative paths), and
resolves to where the object is documented; a name the code does not bind stays unresolved, so
the nitpicky build (``-W -n``) fails on it. Also doc/conf.py's docstring hooks."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from prerequisites import REPO

sys.path.insert(0, str(REPO / "doc" / "_ext"))
import bound_names  # noqa: E402  (doc/_ext is not a package)


@pytest.mark.parametrize(
    ("target", "module", "cls", "expected"),
    [
        # a name the module imports (at top level) → where it is defined
        (
            "Robot",
            "sdf_bridge.description.loader",
            None,
            "sdf_bridge.description.model.robot.Robot",
        ),
        # a package's re-export → the defining module
        (
            "sdf_bridge.hardware.HardwareSystem",
            None,
            None,
            "sdf_bridge.hardware.system.HardwareSystem",
        ),
        # a method through the re-export
        (
            "sdf_bridge.hardware.HardwareSystem.cycle",
            None,
            None,
            "sdf_bridge.hardware.system.HardwareSystem.cycle",
        ),
        # a constant imported from another module → its home module
        (
            "DEFAULT_INERTIA",
            "sdf_bridge.backends.mujoco.inertials",
            None,
            "sdf_bridge.description.inertia.DEFAULT_INERTIA",
        ),
        # a constant re-exported by a package (a value has no __module__: the import says it)
        (
            "sdf_bridge.description.model.SURFACE_MODELS",
            None,
            None,
            "sdf_bridge.description.model.environment.SURFACE_MODELS",
        ),
        # a sibling of the class the docstring is in
        (
            "read",
            "sdf_bridge.backends.mock",
            "MockBackend",
            "sdf_bridge.backends.mock.MockBackend.read",
        ),
        # an inherited method → the base class that defines it
        (
            "sdf_bridge.backends.mujoco.noise.ImuNoise.take",
            None,
            None,
            "sdf_bridge.backends.mujoco.noise.NoiseStream.take",
        ),
        # another package's module imported under a name
        ("etree._Element", "sdf_bridge.description.sdf.model", None, "lxml.etree._Element"),
        # package-relative with a leading dot
        (
            ".inputs.physics_steps",
            "sdf_bridge.backends.mujoco",
            None,
            "sdf_bridge.backends.mujoco.inputs.physics_steps",
        ),
    ],
)
def test_a_name_means_what_the_module_binds(
    target: str, module: str | None, cls: str | None, expected: str
) -> None:
    assert bound_names.candidates(target, module, cls)[0] == expected


@pytest.mark.parametrize(
    ("target", "module"),
    [
        ("NoSuchRobot", "sdf_bridge.description.loader"),  # not bound in the module
        ("sdf_bridge.description.NoSuchRobot", None),  # not in the package
        ("sdf_bridge.no_such_module.thing", None),
        ("Robot", "sdf_bridge.util.booleans"),  # a name another module binds, not this one
    ],
)
def test_a_name_the_code_does_not_bind_has_no_candidate(target: str, module: str | None) -> None:
    assert bound_names.candidates(target, module, None) == []


def test_imported_names_include_lazy_and_type_checking_imports() -> None:
    names = bound_names.imported_names("sdf_bridge.ros.main")
    assert names["ExternalShutdownException"] == "rclpy.executors.ExternalShutdownException"
    names = bound_names.imported_names("sdf_bridge.description.sdf.model")
    assert names["PackagePaths"] == "sdf_bridge.description.resolve.PackagePaths"
    assert names["etree"] == "lxml.etree"


CONF = """
import sys
sys.path.insert(0, {ext!r})
extensions = ["bound_names"]
nitpicky = True
"""
PAGE = """
Test
====

.. py:class:: Robot
   :module: sdf_bridge.description.model.robot

.. py:currentmodule:: sdf_bridge.description.loader

See {reference}.
"""


def _build(tmp_path: Path, reference: str) -> subprocess.CompletedProcess:
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(CONF.format(ext=str(REPO / "doc" / "_ext")))
    (src / "index.rst").write_text(textwrap.dedent(PAGE.format(reference=reference)))
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-n", "-q", "-b", "html", str(src)]
        + [str(tmp_path / "out")],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )


def test_a_bound_name_resolves_in_a_nitpicky_build(tmp_path: Path) -> None:
    pytest.importorskip("sphinx")
    run = _build(tmp_path, ":class:`Robot` and :class:`sdf_bridge.description.Robot`")
    assert run.returncode == 0, run.stderr
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert html.count('"reference internal" href="#sdf_bridge.description.model.robot.Robot"') == 2


def test_an_unknown_sdf_bridge_name_fails_the_nitpicky_build(tmp_path: Path) -> None:
    pytest.importorskip("sphinx")
    run = _build(tmp_path, ":class:`sdf_bridge.description.NoSuchRobot`")
    assert run.returncode != 0
    assert (
        "py:class reference target not found: sdf_bridge.description.NoSuchRobot" in run.stderr
    ), run.stderr


def _conf():
    sys.path.insert(0, str(REPO / "doc"))
    try:
        import conf
    finally:
        sys.path.remove(str(REPO / "doc"))
    return conf


def test_shared_attribute_entries_are_split() -> None:
    """``lower, upper: limits`` in "Attributes:" → one entry each, continuation lines kept."""
    lines = [
        "A joint.",
        "",
        "Attributes:",
        "    lower, upper (rad): position limits,",
        "        when given.",
        "    name: its name.",
        "",
        "Args:",
        "    a, b: not attributes.",
    ]
    _conf()._split_shared_attributes(None, "class", "X", None, {}, lines)
    assert lines == [
        "A joint.",
        "",
        "Attributes:",
        "    lower (rad): position limits,",
        "        when given.",
        "    upper (rad): position limits,",
        "        when given.",
        "    name: its name.",
        "",
        "Args:",
        "    a, b: not attributes.",
    ]
