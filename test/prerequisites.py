"""What some tests need from outside the repository, and what they do without it.

* the shared robot corpus and failure cases: ``../shared`` beside the checkout (as on developer
  machines and CI), or ``$SDF_BRIDGE_SHARED``;
* reference tools, the ``test_depend`` entries of package.xml: urdfdom's ``check_urdf``
  (``liburdfdom-tools``) and libsdformat 12 with ``g++`` and ``pkg-config`` (``libsdformat-dev``);
* the shared ros2_control rig (the real controller_manager, controllers and topic-based
  plugins), unpacked by ``.ci/setup`` (:mod:`ros2_control_rig`).

Where one is missing (e.g. in a colcon workspace, which has no ``shared/`` beside ``src/``), the
tests that need it are skipped with a reason naming it and how to get it. With
``SDF_BRIDGE_STRICT=1`` (set by ``.ci/run``) they fail instead, so CI cannot pass by skipping.
(A plain module, not a conftest, so test modules can import it.)
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from sdf_bridge.booleans import parse_bool

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SDF_BRIDGE_SHARED", REPO.parent / "shared"))
SHARED_MISSING = (
    f"shared corpus (robots/, cases/) not found at {SHARED}: put the project's shared/ folder "
    "beside the checkout or set SDF_BRIDGE_SHARED to it"
)


def strict() -> bool:
    """Whether a missing prerequisite fails the test (``SDF_BRIDGE_STRICT=1``, as in CI; the
    package's one boolean vocabulary, :mod:`sdf_bridge.booleans`)."""
    return parse_bool(os.environ.get("SDF_BRIDGE_STRICT", "")) is True


def missing(reason: str) -> None:
    """Skip the calling test with ``reason``, or fail it under :func:`strict`.

    Raises:
        pytest.skip.Exception, pytest.fail.Exception: always.
    """
    if strict():
        pytest.fail(f"{reason} (SDF_BRIDGE_STRICT is set)")
    pytest.skip(reason)


def require_shared(path: Path = SHARED) -> Path:
    """``path`` (the shared folder or a folder in it) when it exists, else :func:`missing`."""
    if not path.is_dir():
        missing(SHARED_MISSING)
    return path


def shared_skip_mark() -> pytest.MarkDecorator:
    """A module mark for tests whose parameters come from the corpus at collection time:
    skipped with :data:`SHARED_MISSING` when it is missing (under :func:`strict` the module's
    tests run and fail on the missing files)."""
    return pytest.mark.skipif(not SHARED.is_dir() and not strict(), reason=SHARED_MISSING)


def require_tool(name: str, debian_package: str) -> str:
    """The path of executable ``name`` on ``PATH``, else :func:`missing` naming the Debian
    package that has it."""
    path = shutil.which(name)
    if path is None:
        missing(
            f"{name} not found on PATH: apt-get install {debian_package} (a test_depend of "
            "package.xml)"
        )
    return path


def require_rig() -> None:
    """Nothing when the shared ros2_control rig can run here, else :func:`missing` saying why
    (:func:`ros2_control_rig.rig_problem`: no shared folder, or the set-up has not unpacked it)."""
    from ros2_control_rig import rig_problem

    problem = rig_problem()
    if problem is not None:
        missing(problem)
