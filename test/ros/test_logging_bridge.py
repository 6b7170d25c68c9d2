"""sdf_bridge.ros.logging_bridge: the package's Python log records reach the node's rclpy logger
(/rosout, checked across real processes), at the levels ``--ros-args --log-level`` sets, and
third-party INFO lines stay out of the bridge's output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from rcl_interfaces.msg import Log
from rclpy.qos import QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import Image, JointState

from sdf_bridge.ros.logging_bridge import rcutils_severity

from .conftest import ROSOUT_QOS, Probe

#: One revolute joint, an element nobody knows (a description warning), a GPS sensor (MuJoCo
#: cannot simulate it: a backend warning) and a small camera (rendering imports PyOpenGL, whose
#: INFO line "No OpenGL_accelerate module loaded" must not leak).
ROBOT = """<?xml version="1.0"?>
<robot name="chatty">
  <link name="base"/>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
      </inertial>
  </link>
  <joint name="swing" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
  <oddity/>
  <gazebo reference="arm"><sensor name="alt1" type="altimeter"><update_rate>5</update_rate></sensor>
    </gazebo>
  <gazebo reference="arm"><sensor name="cam" type="camera"><update_rate>5</update_rate>
    <camera><image><width>16</width><height>12</height></image></camera></sensor></gazebo>
</robot>
"""


@pytest.mark.parametrize(
    ("levelno", "severity"),
    [
        (1, 10),
        (10, 10),
        (15, 10),
        (20, 20),
        (25, 20),
        (30, 30),
        (35, 30),
        (40, 40),
        (50, 50),
        (60, 50),
    ],
)
def test_rcutils_severity(levelno: int, severity: int) -> None:
    assert rcutils_severity(levelno) == severity


def _from(probe: Probe, logger: str) -> list[Log]:
    return [m for m in probe.messages["/rosout"] if m.name == logger]


def _wait_log(probe: Probe, logger: str, text: str) -> Log:
    probe.wait_for(
        lambda: any(text in m.msg for m in _from(probe, logger)),
        f"{text!r} from {logger} on /rosout",
        timeout=90.0,
    )
    return next(m for m in _from(probe, logger) if text in m.msg)


def test_watchdog_description_and_mujoco_warnings_reach_rosout(
    start_bridge, probe: Probe, tmp_path: Path
) -> None:
    """One bridge process (MuJoCo backend): the description loader's warning, the MuJoCo
    backend's warning and a watchdog trip each arrive on /rosout from the node's child loggers,
    at WARN, and each is printed once (rclpy's console line, no second copy from Python's
    stderr handler); PyOpenGL's INFO line stays out although the camera rendered."""
    urdf = tmp_path / "chatty.urdf"
    urdf.write_text(ROBOT)
    probe.watch("/rosout", Log, ROSOUT_QOS)
    probe.watch("/chatty/joint_states", JointState)
    probe.watch(
        "/chatty/sensors/cam/image_raw",
        Image,
        QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT),
    )
    bridge = start_bridge(
        {"backend": "mujoco", "description_file": str(urdf), "command_timeout": 0.3},
        name="chatty",
        extra=["-r", "__ns:=/chatty"],
    )
    probe.wait_ready(bridge, "/chatty/joint_states", timeout=90.0)
    description = _wait_log(probe, "chatty.chatty.description", "unknown element <oddity>")
    mujoco = _wait_log(probe, "chatty.chatty.backends.mujoco.sensors", "sensor 'alt1'")
    probe.publisher("/chatty/joint_commands", JointState).publish(
        JointState(name=["swing"], position=[0.2])
    )
    watchdog = _wait_log(probe, "chatty.chatty.hardware.watchdog", "no command for")
    assert [m.level for m in (description, mujoco, watchdog)] == [Log.WARN] * 3
    assert "it publishes nothing in the MuJoCo backend" in mujoco.msg
    assert "(command_timeout 0.300 s): position-mode joints hold their position" in watchdog.msg
    probe.latest("/chatty/sensors/cam/image_raw")  # the camera rendered: PyOpenGL was imported
    assert bridge.stop() == 0
    output = bridge.output()
    assert output.count("unknown element <oddity>") == 1, output
    assert output.count("sensor 'alt1'") == 1, output
    assert "[WARN]" in output and "[chatty.chatty.hardware.watchdog]: no command for" in output, (
        output
    )
    assert "OpenGL_accelerate" not in output, output


def test_log_level_from_ros_args(start_bridge, probe: Probe) -> None:
    """``--log-level`` applies to the package's Python ``logging`` records too: the mock
    backend's WARNING reaches /rosout at the default level, and not under ``--log-level error``
    (checked once that bridge publishes joint_states: its backend is configured, the warning
    would have been sent; /rosout is reliable)."""
    probe.watch("/rosout", Log, ROSOUT_QOS)
    probe.watch("/quiet/joint_states", JointState)
    unknown = "mock backend: 1 parameter(s) not its own, ignored: 'no_such_option'"
    params = {"backend_params.no_such_option": 1.0}
    loud = start_bridge(params, name="loud")
    quiet = start_bridge(params, name="quiet", extra=["--log-level", "error", "-r", "__ns:=/quiet"])
    warning = _wait_log(probe, "loud.backends.mock", unknown)
    assert warning.level == Log.WARN
    probe.wait_messages("/quiet/joint_states", 1)
    probe.spin_for(1.0)
    assert not [m for m in probe.messages["/rosout"] if unknown in m.msg and "quiet" in m.name]
    assert loud.stop() == 0 and quiet.stop() == 0


def test_third_party_info_stays_out_package_info_shows() -> None:
    """The bridge process's logging set-up (before any node): a third-party INFO line is
    dropped, its WARNING and the package's INFO are printed to stderr."""
    code = (
        "import logging\n"
        "from sdf_bridge.ros.logging_bridge import configure_process_logging\n"
        "configure_process_logging()\n"
        "logging.getLogger('OpenGL.acceleratesupport').info('third-party info')\n"
        "logging.getLogger('trimesh.exchange').warning('third-party warning')\n"
        "logging.getLogger('sdf_bridge.description').info('package info')\n"
        "logging.getLogger('sdf_bridge.description').debug('package debug')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stderr.splitlines() == [
        "[WARNING] [trimesh.exchange]: third-party warning",
        "[INFO] [sdf_bridge.description]: package info",
    ]


def test_records_go_to_the_node_a_thread_speaks_for() -> None:
    """Two attached nodes (two robots of one simulation): a record logged within
    speaking_for(first) reaches the first's logger, outside it the last attached node's (before:
    always the last attached node's, so one robot's watchdog trip was logged as another's)."""
    import logging

    from sdf_bridge.ros import logging_bridge

    class Logger:
        def __init__(self, name: str, got: list[tuple[str, str]]) -> None:
            self.name, self.got = name, got

        def get_child(self, suffix: str) -> Logger:
            return Logger(f"{self.name}.{suffix}", self.got)

        def is_enabled_for(self, severity: int) -> bool:
            return True

        def warning(self, text: str) -> None:
            self.got.append((self.name, text))

    class Node:
        def __init__(self, name: str, got: list[tuple[str, str]]) -> None:
            self.logger = Logger(name, got)

        def get_logger(self) -> Logger:
            return self.logger

    got: list[tuple[str, str]] = []
    first, second = Node("first", got), Node("second", got)
    logging_bridge.attach(first)
    logging_bridge.attach(second)
    try:
        log = logging.getLogger("sdf_bridge.hardware.watchdog")
        with logging_bridge.speaking_for(first):
            log.warning("trip of the first")
        log.warning("trip of someone")
    finally:
        logging_bridge.detach(second)
        logging_bridge.detach(first)
    assert got == [
        ("first.hardware.watchdog", "trip of the first"),
        ("second.hardware.watchdog", "trip of someone"),
    ]
