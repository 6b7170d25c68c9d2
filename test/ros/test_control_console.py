"""What ``sdf-bridge control`` prints before its status table: each warning of reading the
description once (it was loaded by three steps and printed three times), and no
controller_manager "Error parsing the limits" for a ``min``/``max`` the bridge rejected (the
generated block leaves it out)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from child_process import ChildProcess
from prerequisites import require_rig

from .conftest import REPO

INERTIAL = (
    '<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" '
    'iyz="0"/></inertial>'
)
#: A transmission naming no joint (skipped) and a <ros2_control> min/max in quotes (skipped).
ROBOT = f"""<robot name="warned">
  <link name="base"/>
  <link name="l1">{INERTIAL}</link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
  <transmission name="t_bad"><type>transmission_interface/SimpleTransmission</type>
    <joint name="nosuch"><hardwareInterface>hardware_interface/PositionJointInterface
    </hardwareInterface></joint>
    <actuator name="m"><mechanicalReduction>2</mechanicalReduction></actuator></transmission>
  <ros2_control name="hw" type="system">
    <hardware><plugin>mock_components/GenericSystem</plugin></hardware>
    <joint name="j1"><command_interface name="position"><param name="min">"-3.14"</param>
      <param name="max">"3.14"</param></command_interface>
      <state_interface name="position"/></joint>
  </ros2_control>
</robot>
"""
SKIPPED_TRANSMISSION = "transmission 't_bad' skipped: it names joint 'nosuch'"
SKIPPED_LIMIT = "ros2_control limit 'j1/position' skipped"


def _control(args: list[str], work_dir: Path) -> ChildProcess:
    code = "import sys; from sdf_bridge.ros.control_command import control_command as c; "
    code += "sys.exit(c(sys.argv[1:]))"
    return ChildProcess([sys.executable, "-c", code, *args, "--work-dir", str(work_dir)], cwd=REPO)


def _until_running(control: ChildProcess) -> str:
    end = time.monotonic() + 90
    while "running; Ctrl-C" not in control.output() and control.running():
        if time.monotonic() > end:
            pytest.fail(f"control did not come up:\n{control.output()}")
        time.sleep(0.2)
    assert control.running(), control.output()
    assert control.stop(30) == 0, control.output()
    return control.output()


@pytest.fixture
def robot_file(tmp_path: Path) -> Path:
    path = tmp_path / "warned.urdf"
    path.write_text(ROBOT, encoding="utf-8")
    return path


def test_each_warning_is_printed_once(robot_file: Path, tmp_path: Path) -> None:
    require_rig()
    control = _control(
        ["--description", str(robot_file), "--namespace", "ctl_once"], tmp_path / "work"
    )
    try:
        output = _until_running(control)
    finally:
        control.stop()
    assert output.count(SKIPPED_TRANSMISSION) == 1, output
    assert output.count(SKIPPED_LIMIT) == 1, output
    assert output.index(SKIPPED_TRANSMISSION) < output.index("files and logs:")
    manager_log = (tmp_path / "work" / "controller_manager.log").read_text()
    assert "Error parsing the limits" not in manager_log, manager_log


def test_two_robots_print_each_ones_warnings_once(robot_file: Path, tmp_path: Path) -> None:
    """The description and a ``--robot`` of the same file: two robots, each read once (not
    again from the file ``control`` writes for each robot)."""
    require_rig()
    control = _control(
        [
            "--description",
            str(robot_file),
            "--robot",
            f"second={robot_file}@0.8,0,0,0,0,0:fixed",
            "--backend",
            "mujoco",
            "--namespace",
            "ctl_twice",
        ],
        tmp_path / "work",
    )
    try:
        output = _until_running(control)
    finally:
        control.stop()
    assert output.count(SKIPPED_TRANSMISSION) == 2, output
    assert output.count(SKIPPED_LIMIT) == 2, output
    assert "robot.urdf" not in output.split("files and logs:")[0], output
    for name in ("warned", "second"):
        log = (tmp_path / "work" / name / "controller_manager.log").read_text()
        assert "Error parsing the limits" not in log, log
