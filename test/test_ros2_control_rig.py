"""test/ros2_control_rig.py's own logic: why the rig cannot run (the skip reason), and its
environment for the C++ processes (the rig's env.sh, for this interpreter)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import ros2_control_rig as rig


def test_rig_problem_names_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        rig, "NODE", tmp_path / "install" / "lib" / "controller_manager" / "ros2_control_node"
    )
    monkeypatch.setattr(rig, "RIG_ROOT", tmp_path)
    monkeypatch.setattr(rig, "RIG_SOURCE", tmp_path / "no_shared" / "rigs" / "ros2_control")
    assert rig.rig_problem() == (
        f"ros2_control rig not found at {tmp_path / 'no_shared' / 'rigs' / 'ros2_control'}: "
        "put the project's shared/ folder beside the checkout (or set SDF_BRIDGE_SHARED) "
        "and run bash .ci/setup"
    )
    source = tmp_path / "rigs"
    source.mkdir()
    (source / "install.tar.gz").write_bytes(b"")
    monkeypatch.setattr(rig, "RIG_SOURCE", source)
    assert rig.rig_problem() == f"ros2_control rig not unpacked at {tmp_path}: run bash .ci/setup"
    rig.NODE.parent.mkdir(parents=True)
    rig.NODE.write_text("")
    assert rig.rig_problem() is None


def test_environment_of_the_rig_processes() -> None:
    env = rig.rig_environment(rig.SUCCESSOR, base={"LD_LIBRARY_PATH": "/x", "PATH": "/bin"})
    assert env["PATH"] == "/bin"
    assert env["LD_LIBRARY_PATH"].split(os.pathsep)[:2] == [
        str(rig.INSTALL / "lib"),
        str(Path(sys.prefix) / "lib"),
    ]
    assert env["LD_LIBRARY_PATH"].endswith(os.pathsep + "/x")
    assert env["AMENT_PREFIX_PATH"] == os.pathsep.join([str(rig.INSTALL), sys.prefix])
    assert Path(env["LD_PRELOAD"]).name.startswith("libpython")
    assert env["PYTHONPATH"].startswith(str(rig.INSTALL / "lib"))
