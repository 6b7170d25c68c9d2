"""Benchmark: command → bridge joint_states → broadcaster latency through the real
controller_manager (prints a table; no assertions).

Per rate (100 Hz and 1 kHz: the controller_manager's ``update_rate`` and the bridge's), the
shared rig's ``ros2_control_node`` (``test/ros2_control_rig.py``; ``bash .ci/setup`` unpacks
it) drives the bridge (demo arm, mock backend, joint_states every cycle) through a topic-based
plugin (``--plugin``; the successor by default) with the block ``sdf-bridge ros2-control``
makes (position interfaces), forward_position_controller and joint_state_broadcaster active, as
``launch/ros2_control.launch.py`` starts them, the bridge's loop at the controller_manager's
thread priority (SCHED_FIFO 50 where permitted). This process sends forward_position_controller
commands (``std_msgs/Float64MultiArray``, base_yaw in 1 mrad steps: below the controller
manager's joint limiter step of 2 rad/s at 1 kHz) and times, on its monotonic clock, until

* **bridge**: the bridge's joint_states show the command: controller_manager read → update →
  write (the plugin publishes the command) → DDS → the bridge's next tick → DDS back;
* **broadcaster**: joint_state_broadcaster's joint_states show it: in addition, the plugin
  takes that state in the controller_manager's next read and the broadcaster publishes it.

Same-run peers: the C++ ``mock_components/GenericSystem`` in the same controller_manager, with
the same block, controllers and commands and no bridge (command → broadcaster; the printed ratio
is the bridge's p50 over GenericSystem's, per rate), and the bare DDS echo of
``bench/_latency_peers.py`` (``bench/loop.py``'s ``measure_latency`` with peer ``echo``): a
JointState command republished at once as joint_states, i.e. two DDS hops and the Python
callbacks, no loop. The ros2_control paths add three (bridge) or four (broadcaster) hops and the
waits for the ticks of two 100 Hz / 1 kHz loops: at 100 Hz the expected p50 is about one period
for the bridge's joint_states (half a tick in each loop) and 1.5 periods for the broadcaster's.

Usage: ``python bench/ros2_control.py [--samples N] [--runs R] [--plugin NAME]
[--rates 100 1000]``
(ROS_DOMAIN_ID: random unless set).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "test"))  # ros2_control_rig: the rig's processes and client

import rclpy  # noqa: E402  (loop set the ROS environment)
import rclpy.executors
import ros2_control_rig as rig
from diagnostic_msgs.msg import DiagnosticArray
from loop import _percentiles_ms, _stop_child, measure_latency  # noqa: E402  (bench/, the script's directory)
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray, String

from sdf_bridge.app.control_launch import MANAGER_PRIORITY
from sdf_bridge.description import load_with_xml
from sdf_bridge.hardware.topic_block import TopicBlockOptions, with_topic_block

DEMO = REPO / "urdf" / "demo_arm.urdf.xacro"
JOINTS = ("base_yaw", "shoulder_lift", "elbow", "wrist_pitch", "wrist_roll", "left_finger_joint")
START = (0.0, 0.0, 0.5, 0.0, 0.0, 0.02)  # the demo arm's initial positions
LATCHED = QoSProfile(
    depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL, reliability=ReliabilityPolicy.RELIABLE
)
CONTROLLERS = """/**/controller_manager:
  ros__parameters:
    update_rate: {rate}
    joint_state_broadcaster:
      type: joint_state_broadcaster/JointStateBroadcaster
    forward_position_controller:
      type: forward_command_controller/ForwardCommandController
/**/forward_position_controller:
  ros__parameters:
    joints: [{joints}]
    interface_name: position
"""


GENERIC = "mock_components/GenericSystem"


def measure_ros2_control(
    rate: int, samples: int, plugin: str, folder: Path, *, generic: bool = False
) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Latencies (s) through the controller_manager at ``rate`` Hz: ``bridge`` and
    ``broadcaster`` (module doc), one entry per sample; and the bridge's last /diagnostics
    values (achieved rate, overruns, rejected commands, watchdog trips). With ``generic``:
    the same-run peer, the same controller_manager, controllers and block with the C++
    ``mock_components/GenericSystem`` instead of the topic-based plugin and no bridge
    (``broadcaster`` only; empty diagnostics).

    Raises:
        RuntimeError: a process did not come up, or the controllers did not start.
    """
    ns = f"rc{'generic' if generic else 'bench'}_{rate}"
    robot, _warnings, xml = load_with_xml(DEMO)
    options = TopicBlockOptions(
        plugin=plugin,
        joint_commands_topic=f"/{ns}/sdf_bridge/joint_commands",
        joint_states_topic=f"/{ns}/sdf_bridge/joint_states",
        command_interfaces=("position",),
    )
    description = with_topic_block(robot, xml, options)
    if generic:
        description = description.replace(
            f"<plugin>{plugin}</plugin>", f"<plugin>{GENERIC}</plugin>"
        )
    urdf, controllers = folder / f"{ns}.urdf", folder / f"{ns}.yaml"
    urdf.write_text(description)
    controllers.write_text(CONTROLLERS.format(rate=rate, joints=", ".join(JOINTS)))
    bridge = (
        None
        if generic
        else subprocess.Popen(
            [
                sys.executable,
                "-m",
                "sdf_bridge.ros.main",
                "--ros-args",
                "-r",
                "__node:=sdf_bridge",
                "-r",
                f"__ns:=/{ns}",
                "-p",
                f"description_file:={urdf}",
                "-p",
                f"update_rate:={float(rate)}",
                "-p",
                # as sdf-bridge control starts it: the controller_manager's priority
                f"thread_priority:={MANAGER_PRIORITY}",
                "-r",
                "joint_states:=sdf_bridge/joint_states",
                "-r",
                "joint_commands:=sdf_bridge/joint_commands",
                "-r",
                "robot_description:=sdf_bridge/robot_description",
                "--log-level",
                "warn",
            ],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    )
    manager = rig.ControllerManager(
        controllers, plugin=plugin, namespace=ns, extra=["--log-level", "warn"]
    )
    context = rclpy.Context()
    rclpy.init(args=[], context=context)
    node = rclpy.create_node("ros2_control_bench", context=context)
    executor = rclpy.executors.SingleThreadedExecutor(context=context)
    executor.add_node(node)
    target: dict = {"value": None, "sent": 0.0}
    got: dict[str, list[float]] = (
        {"broadcaster": []} if generic else {"bridge": [], "broadcaster": []}
    )
    events = {key: threading.Event() for key in got}

    def on_state(key: str):
        def callback(msg: JointState) -> None:
            now = time.perf_counter()
            value = target["value"]
            if value is None or events[key].is_set() or "base_yaw" not in msg.name:
                return
            if abs(msg.position[msg.name.index("base_yaw")] - value) < 1e-9:
                got[key].append(now - target["sent"])
                events[key].set()

        return callback

    if not generic:
        node.create_subscription(
            JointState, f"/{ns}/sdf_bridge/joint_states", on_state("bridge"), 10
        )
    node.create_subscription(JointState, f"/{ns}/joint_states", on_state("broadcaster"), 10)
    diagnostics: dict[str, str] = {}

    def on_diagnostics(msg: DiagnosticArray) -> None:
        for status in msg.status:
            if status.name == f"{ns}/sdf_bridge: control loop":
                diagnostics.update({kv.key: kv.value for kv in status.values})

    node.create_subscription(DiagnosticArray, "/diagnostics", on_diagnostics, 10)
    node.create_publisher(String, f"/{ns}/robot_description", LATCHED).publish(
        String(data=description)
    )
    command = node.create_publisher(
        Float64MultiArray, f"/{ns}/forward_position_controller/commands", 10
    )

    def spin_until(future, timeout: float) -> None:
        end = time.monotonic() + timeout
        while (future is None or not future.done()) and time.monotonic() < end:
            executor.spin_once(timeout_sec=0.02)

    spinning = threading.Event()

    def spin() -> None:
        while spinning.is_set():
            executor.spin_once(timeout_sec=0.02)

    thread = threading.Thread(target=spin, daemon=True)
    try:
        client = rig.ControllerManagerClient(
            node, spin_until, f"/{ns}/controller_manager", timeout=60.0
        )
        client.load("joint_state_broadcaster", "forward_position_controller")
        client.switch(["joint_state_broadcaster", "forward_position_controller"])
        spin_until(None, 1.0)
        spinning.set()
        thread.start()
        warmup = 20
        for i in range(samples + warmup):
            value = 0.001 * ((i % 2) + 1)
            for event in events.values():
                event.clear()
            target["value"] = value
            target["sent"] = time.perf_counter()
            command.publish(Float64MultiArray(data=[value, *START[1:]]))
            if not all(e.wait(1.0) for e in events.values()):
                if (bridge is not None and bridge.poll() is not None) or not manager.running():
                    raise RuntimeError(
                        "the bridge or the controller_manager exited during the measurement"
                    )
            time.sleep(0.002 + random.random() * 0.003)  # de-correlate from the loops' phases
        time.sleep(1.1)  # one more /diagnostics
        return {key: np.array(values[warmup:]) for key, values in got.items()}, dict(diagnostics)
    finally:
        spinning.clear()
        if thread.is_alive():
            thread.join(2.0)
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown(context=context)
        manager.stop()
        if bridge is not None:
            _stop_child(bridge)


def _row(rate: str, path: str, values: np.ndarray) -> str:
    p50, p99, top = _percentiles_ms(values)
    return f"| {rate} | {path} | {values.size} | {p50:.2f} | {p99:.2f} | {top:.2f} |"


def main() -> int:
    """Run the measurements and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--samples", type=int, default=300, help="samples per measurement (default 300)"
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="runs (each measures every rate and the echo)"
    )
    parser.add_argument(
        "--plugin",
        default=rig.SUCCESSOR,
        choices=(rig.SUCCESSOR, rig.PICKNIK),
        help="the topic-based hardware interface (default: the successor)",
    )
    parser.add_argument(
        "--rates",
        type=int,
        nargs="+",
        default=[100, 1000],
        choices=(100, 1000),
        help="update rates to measure, Hz (default: 100 1000)",
    )
    ns = parser.parse_args()
    problem = rig.rig_problem()
    if problem is not None:
        print(f"cannot run: {problem}", file=sys.stderr)
        return 1
    print(
        f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}, "
        f"ROS_DOMAIN_ID={os.environ['ROS_DOMAIN_ID']}, plugin {ns.plugin}"
    )
    print("| rate | path | samples | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|---|")
    notes = []
    ratios: dict[int, list[float]] = {rate: [] for rate in ns.rates}
    with tempfile.TemporaryDirectory(prefix="ros2_control_bench.") as tmp:
        for run in range(ns.runs):
            for rate in ns.rates:
                result, loop = measure_ros2_control(rate, ns.samples, ns.plugin, Path(tmp))
                peer, _ = measure_ros2_control(rate, ns.samples, ns.plugin, Path(tmp), generic=True)
                print(_row(f"{rate} Hz", "command → bridge joint_states", result["bridge"]))
                print(
                    _row(f"{rate} Hz", "command → broadcaster joint_states", result["broadcaster"]),
                    flush=True,
                )
                print(
                    _row(f"{rate} Hz", f"{GENERIC} peer → broadcaster", peer["broadcaster"]),
                    flush=True,
                )
                ours, theirs = np.median(result["broadcaster"]), np.median(peer["broadcaster"])
                ratio = float(ours / theirs)
                ratios[rate].append(ratio)
                notes.append(
                    f"run {run + 1}, {rate} Hz: broadcaster p50 bridge / GenericSystem = "
                    f"{ratio:.2f} ({1e3 * (ours - theirs):+.2f} ms)"
                )
                notes.append(
                    f"run {run + 1}, {rate} Hz: bridge loop "
                    f"{loop.get('loop.achieved_rate_hz', '?')} Hz, "
                    f"{loop.get('loop.overruns', '?')} overruns / "
                    f"{loop.get('loop.cycles', '?')} cycles, rejected commands "
                    f"{loop.get('rejected_total', '?')}, watchdog trips "
                    f"{loop.get('watchdog_trips', '?')}"
                )
            echo = measure_latency(ns.samples, 0, "events", "echo")
            print(_row("—", "bare DDS echo (same run)", echo.total), flush=True)
    print("\n".join(notes), f"\nload average {os.getloadavg()[0]:.2f}", sep="\n")
    for rate, values in ratios.items():
        print(
            f"ratio bridge+cm / GenericSystem, command → broadcaster p50, {rate} Hz: "
            f"median {np.median(values):.2f} over {len(values)} run(s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
