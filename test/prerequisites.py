"""What some tests need from outside the repository, and what they do without it.

* the shared robot corpus and failure cases: ``../shared`` beside the checkout (as on developer
  machines and CI), or ``$SDF_BRIDGE_SHARED``;
* reference tools, the ``test_depend`` entries of package.xml: urdfdom's ``check_urdf``
  (``liburdfdom-tools``) and libsdformat 12 with ``g++`` and ``pkg-config`` (``libsdformat-dev``);
* the shared ros2_control rig (the real controller_manager, controllers and topic-based
  plugins), unpacked by ``.ci/setup`` (:mod:`ros2_control_rig`);
* the ROS 2 standard simulation interfaces (``simulation_interfaces``, not on PyPI): installed,
  or the shared rig unpacked by ``.ci/setup`` (:mod:`simulation_interfaces_rig`).

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

from sdf_bridge.util.booleans import parse_bool

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SDF_BRIDGE_SHARED", REPO.parent / "shared"))
SHARED_MISSING = (
    f"shared corpus (robots/, cases/) not found at {SHARED}: put the project's shared/ folder "
    "beside the checkout or set SDF_BRIDGE_SHARED to it"
)


def strict() -> bool:
    """Whether a missing prerequisite fails the test (``SDF_BRIDGE_STRICT=1``, as in CI; the
    package's one boolean vocabulary, :mod:`sdf_bridge.util.booleans`)."""
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


#: The robot folders of ``shared/robots``, each with one flattened description
#: ``<name>.urdf`` or ``<name>.sdf`` (:func:`shared_robot_file`); the corpus tests check that the
#: folder holds exactly these.
SHARED_ROBOTS = (
    "carlikebot",
    "gen3_robotiq",
    "husky",
    "panda_gazebo_ros1",
    "pr2",
    "rrbot_external_fts",
    "rrbot_ros1",
    "rrbot_transmissions",
    "sdf_joint_complete",
    "sdf_mimic_pendulums",
    "sdf_model_with_frames",
    "sdf_nested_include",
    "turtlebot3_waffle",
    "ur5e_ros2",
)
#: The shared robots described in SDFormat (``<name>.sdf``); the others are URDF.
SHARED_SDF_ROBOTS = (
    "sdf_joint_complete",
    "sdf_mimic_pendulums",
    "sdf_model_with_frames",
    "sdf_nested_include",
    "turtlebot3_waffle",
)
#: The shared robots described in URDF (``<name>.urdf``).
SHARED_URDF_ROBOTS = tuple(n for n in SHARED_ROBOTS if n not in SHARED_SDF_ROBOTS)


def shared_robot_file(robots_dir: Path, name: str) -> Path:
    """The flattened description of the shared robot ``name`` in ``robots_dir``.

    Raises:
        AssertionError: when its folder holds not exactly one of ``<name>.urdf``, ``<name>.sdf``.
    """
    folder = robots_dir / name
    files = [p for p in (folder / f"{name}.urdf", folder / f"{name}.sdf") if p.is_file()]
    assert len(files) == 1, f"{name}: expected one flattened description in {folder}"
    return files[0]


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


def require_simulation_interfaces() -> None:
    """Nothing when ``simulation_interfaces`` can be imported (installed, or the shared rig
    unpacked), else :func:`missing` saying why (:func:`simulation_interfaces_rig.si_problem`)."""
    from simulation_interfaces_rig import si_problem

    problem = si_problem()
    if problem is not None:
        missing(problem)
