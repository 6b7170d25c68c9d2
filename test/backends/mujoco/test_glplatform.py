"""Choice of MuJoCo's off-screen OpenGL platform, and headless camera rendering for real."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sdf_bridge.backends.mujoco.glplatform import (
    PACKAGES,
    choose_platform,
    configure_environment,
    describe_missing,
    egl_works,
)


def _libraries(*present: str):
    return lambda name: f"lib{name}.so" if name in present else None


def _egl(works: bool):
    return lambda path: works


@pytest.mark.parametrize(
    ("present", "egl_ok", "expected"),
    [
        (("EGL", "OSMesa"), True, "egl"),
        (("EGL",), True, "egl"),
        (("EGL", "OSMesa"), False, "osmesa"),  # EGL installed but no display initialises
        (("EGL",), False, None),
        (("OSMesa",), True, "osmesa"),
        ((), True, None),
    ],
)
def test_choose_platform_prefers_working_egl_then_osmesa(present, egl_ok, expected) -> None:
    assert choose_platform(_libraries(*present), _egl(egl_ok)) == expected


def test_egl_check_gets_the_library_path() -> None:
    seen: list[str] = []
    choose_platform(_libraries("EGL"), lambda path: seen.append(path) or True)
    assert seen == ["libEGL.so"]


def test_egl_works_is_false_for_a_library_without_egl() -> None:
    """A loadable library lacking EGL symbols, and a missing one, are not usable EGL."""
    assert egl_works("libc.so.6") is False
    assert egl_works("libno_such_library.so") is False


def test_configure_environment_sets_unset_variable() -> None:
    env: dict[str, str] = {}
    assert configure_environment(env, _libraries("OSMesa"), _egl(True)) == "osmesa"
    assert env == {"MUJOCO_GL": "osmesa"}


def test_configure_environment_keeps_user_choice() -> None:
    env = {"MUJOCO_GL": "glfw"}
    assert configure_environment(env, _libraries("EGL"), _egl(True)) == "glfw"
    assert env == {"MUJOCO_GL": "glfw"}


def test_no_library_is_warned_with_the_packages(caplog) -> None:
    env: dict[str, str] = {}
    with caplog.at_level(logging.WARNING):
        assert configure_environment(env, _libraries(), _egl(True)) is None
    assert env == {}
    assert (
        "neither a working EGL nor OSMesa is installed, cameras will publish nothing" in caplog.text
    )
    assert f"apt-get install {PACKAGES['osmesa']}" in caplog.text and PACKAGES["egl"] in caplog.text
    assert describe_missing() in caplog.text


_RENDER = """
import logging, os, sys
logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
sys.path.insert(0, sys.argv[1])
from mujoco_helpers import Sim
from sdf_bridge.description import load
import test_sensors
robot = load(test_sensors.SCENE.format(sensors=test_sensors.CAMERA.format(kind="camera")))
sim = Sim(robot)
image = sim.read(0.01).sensors.get("cam")
sim.backend.close()
shape = None if image is None else image.data.shape
print("MUJOCO_GL", os.environ.get("MUJOCO_GL"), "image", shape)
"""


def _render_in_subprocess(env_changes: dict[str, str | None]) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    for key in ("MUJOCO_GL", "PYOPENGL_PLATFORM", "DISPLAY"):
        env.pop(key, None)
    for key, value in env_changes.items():
        if value is not None:
            env[key] = value
    here = Path(__file__).resolve().parent
    env["PYTHONPATH"] = os.pathsep.join([str(here.parents[2]), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", _RENDER, str(here)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_camera_renders_headless_with_the_default_platform() -> None:
    """No DISPLAY, MUJOCO_GL unset: the package picks EGL (or OSMesa) from the libraries that
    .ci/setup installs, and the camera renders a 48 × 64 RGB image."""
    result = _render_in_subprocess({})
    assert result.returncode == 0, result.stderr
    assert "MUJOCO_GL was unset; using" in result.stderr
    assert "image (48, 64, 3)" in result.stdout


def test_camera_renders_with_osmesa() -> None:
    """The OSMesa fallback (libosmesa6) renders the same image."""
    result = _render_in_subprocess({"MUJOCO_GL": "osmesa"})
    assert result.returncode == 0, result.stderr
    assert "MUJOCO_GL osmesa image (48, 64, 3)" in result.stdout


def test_egl_without_a_driver_falls_back_to_osmesa() -> None:
    """libEGL present but unable to initialise (Mesa's software driver made unfindable with
    LIBGL_DRIVERS_PATH, as when libgl1-mesa-dri is missing; Mesa EGL as installed by .ci/setup):
    OSMesa is chosen and the camera renders."""
    result = _render_in_subprocess({"LIBGL_DRIVERS_PATH": "/nonexistent"})
    assert result.returncode == 0, result.stderr
    assert "MUJOCO_GL was unset; using 'osmesa'" in result.stderr
    assert "MUJOCO_GL osmesa image (48, 64, 3)" in result.stdout


def test_unusable_platform_is_reported_once_and_clearly() -> None:
    """EGL that cannot load (simulated by a conflicting PYOPENGL_PLATFORM): no crash, no image,
    one warning naming MUJOCO_GL, the failure and the Debian packages to install."""
    result = _render_in_subprocess({"MUJOCO_GL": "egl", "PYOPENGL_PLATFORM": "osmesa"})
    assert result.returncode == 0, result.stderr
    assert "MUJOCO_GL egl image None" in result.stdout
    assert result.stderr.count("sensor 'cam': off-screen rendering with MUJOCO_GL=egl failed") == 1
    assert f"apt-get install {PACKAGES['osmesa']}" in result.stderr
