"""The Python examples of the documentation run and give the values their comments state."""

from __future__ import annotations

import re

import pytest
from prerequisites import REPO


def _block(page: str, marker: str) -> str:
    text = (REPO / page).read_text(encoding="utf-8")
    block = re.search(rf"<!-- {marker}[^\n]*-->\n```python\n(.*?)```", text, re.S)
    assert block is not None, f"{page} lost its {marker} block"
    return block.group(1)


def test_python_api_example(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    namespace: dict = {}
    code = _block("doc/user/command_line.md", "python api example")
    exec(compile(code, "doc/user/command_line.md", "exec"), namespace)  # our own example
    assert (namespace["limit"].lower, namespace["limit"].upper) == (-2.5, 2.5)
    assert (namespace["limit"].effort, namespace["limit"].velocity) == (80.0, 2.0)
    assert namespace["base_yaw"] == pytest.approx(0.2, abs=1e-12)
    assert namespace["elbow"] == pytest.approx(1.0, abs=1e-9)  # rate-limited at 2 rad/s
    assert namespace["elbow_motor"] == pytest.approx(80.0, abs=1e-9)


def test_switch_controllers_example(tmp_path) -> None:
    """ros2_control.md's switching script, run as the page says (the rig's Python packages and
    libraries on the paths) against a real ``sdf-bridge control`` (demo arm, mock; its nodes in
    a namespace of this test, the script's ``manager`` set to it): the switch succeeds and the
    listing shows it."""
    import glob
    import os
    import subprocess
    import sys
    import time

    from child_process import ChildProcess
    from prerequisites import require_rig

    require_rig()
    from sdf_bridge.ros.controller_manager import find_manager

    code = _block("doc/user/ros2_control.md", "switch controllers example")
    default = 'manager = "/controller_manager"'
    assert default in code
    script = tmp_path / "switch_controllers.py"
    script.write_text(code.replace(default, 'manager = "/doc_switch/controller_manager"'))
    start = "import sys; from sdf_bridge.ros.control_command import control_command as c; "
    control = ChildProcess(
        [sys.executable, "-c", start + "sys.exit(c(sys.argv[1:]))", "--namespace", "doc_switch"]
        + ["--work-dir", str(tmp_path / "work")],
        cwd=REPO,
    )
    try:
        end = time.monotonic() + 90
        while "running; Ctrl-C" not in control.output() and control.running():
            assert time.monotonic() < end, control.output()
            time.sleep(0.2)
        assert control.running(), control.output()
        rig = find_manager()
        # as from a shell: the ROS wheels' start-up hook then puts the venv's own libraries
        # before the given LD_LIBRARY_PATH (this process's environment says it already has)
        shell = {k: v for k, v in os.environ.items() if k != "_ROS_WHEELS_BOOTSTRAP_COMPLETE"}
        env = {
            **shell,
            "PYTHONPATH": glob.glob(str(rig / "lib" / "python3.*" / "site-packages"))[0],
            "LD_LIBRARY_PATH": str(rig / "lib"),
        }
        done = subprocess.run(
            [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[0] == "switched: True", done.stdout
        assert sorted(lines[1:]) == [
            "forward_position_controller active",
            "joint_state_broadcaster active",
            "joint_trajectory_controller inactive",
        ]
    finally:
        assert control.stop(30) == 0, control.output()
