"""``sdf-bridge check|info|convert|ros2-control`` load nothing of the control path they do not
run (no limiter, hardware system, loop, backend, ROS node, rclpy or MuJoCo): each command runs
in a fresh interpreter that then lists the modules it imported. Not a timing assertion: what
is imported is what costs start-up time and memory (``bench``: ``/usr/bin/time -v``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CONTROL_PATH = (
    "sdf_bridge.hardware.system",
    "sdf_bridge.hardware.loop",
    "sdf_bridge.hardware.holds",
    "sdf_bridge.hardware.commands",
    "sdf_bridge.limits.limiter",
    "sdf_bridge.backends.actuator_port",
    "sdf_bridge.backends.backend_registry",
    "sdf_bridge.backends.mock",
    "sdf_bridge.backends.mujoco",
    "sdf_bridge.ros.node",
    "rclpy",
    "mujoco",
)

_PROBE = """
import contextlib, io, json, sys
from sdf_bridge.ros import command_line  # the sdf-bridge executable
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = command_line.main(sys.argv[1:])
print(json.dumps([code, sorted(sys.modules)]))
"""


def _imported(*argv: str) -> tuple[int, set[str]]:
    run = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
        timeout=120,
    )
    code, modules = json.loads(run.stdout.strip().splitlines()[-1])
    return code, set(modules)


@pytest.mark.parametrize(
    "command",
    [
        ["check"],
        ["info"],
        ["convert", "-o", "{tmp}/robot.sdf"],
        ["ros2-control", "-o", "{tmp}/robot.urdf"],
    ],
    ids=["check", "info", "convert", "ros2-control"],
)
def test_description_commands_load_no_control_path(
    repo_dir: Path, tmp_path: Path, command: list[str]
) -> None:
    demo = str(repo_dir / "urdf" / "demo_arm.urdf.xacro")
    argv = [command[0], demo, *(part.format(tmp=tmp_path) for part in command[1:])]
    code, modules = _imported(*argv)
    assert code == 0
    assert "sdf_bridge.description.loader" in modules  # (it did run)
    assert sorted(m for m in CONTROL_PATH if m in modules) == []


def test_lazy_package_names_resolve() -> None:
    """The packages that import their names on first use still offer every name."""
    import sdf_bridge.backends as backends
    import sdf_bridge.hardware as hardware
    import sdf_bridge.limits as limits

    for package in (backends, hardware, limits):
        for name in package.__all__:
            assert getattr(package, name) is not None, (package.__name__, name)
        assert set(package.__all__) <= set(dir(package))
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        _ = hardware.nothing
