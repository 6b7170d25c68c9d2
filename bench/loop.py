"""Benchmark of the bridge's control loop and command latency (prints tables; no assertions).

1. Loop: the bridge node in this process (its loop thread, executor spinning on another
   thread, joint_states published every cycle = worst case) on the demo robot and on a generated
   100-joint chain (a classic SimpleTransmission with reduction 10 per joint), at 100, 500 and
   1,000 Hz. Columns: achieved rate (Hz), p50 / p99 / max start-to-start period (ms), CPU time
   per cycle of the loop thread (µs, mean), overruns (cycles ending after the next deadline, %
   of cycles).
2. Latency: the bridge in a child process (demo robot, 1 kHz loop, joint_states every cycle);
   this process sends position commands on ``joint_commands`` and times, on its own monotonic
   clock, how long until a ``joint_states`` message shows the commanded value (command → loop →
   backend → joint_states over DDS on loopback). p50 / p99 / max in ms.

Targets (issue 5): 1 kHz with 100 joints at < 1 % overruns; p99 latency < 2 ms.

Reading the latency: a command is applied at the next ``write`` (0 … 1 period away) and, with
the mock (which mirrors commands at ``read``, like ros2_control's GenericSystem), shows in the
state read one period later; so at 1 kHz it carries 1–2 ms of cycle structure before the two
DDS hops and the Python callbacks on each side.

Usage: ``python bench/loop.py [--seconds S] [--samples N] [--priority P]`` (ROS_DOMAIN_ID: random
unless set; ``--priority 50`` runs the loop thread SCHED_FIFO, as ros2_control's default).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("ROS_DOMAIN_ID", str(random.randint(100, 200)))
os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")

import rclpy  # noqa: E402
from rclpy.executors import SingleThreadedExecutor  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402

from sdf_bridge.ros.node import RELIABLE_QOS, BridgeNode  # noqa: E402


def chain_urdf(n: int = 100) -> str:
    """A serial chain of ``n`` revolute joints, each with a classic SimpleTransmission
    (mechanicalReduction 10), as a URDF string."""
    parts = ['<?xml version="1.0"?>', '<robot name="chain100">', '<link name="link0"/>']
    for i in range(1, n + 1):
        parts += [
            f'<link name="link{i}"/>',
            f'<joint name="joint{i}" type="revolute"><parent link="link{i - 1}"/><child link="link{i}"/>'
            f'<origin xyz="0 0 0.05"/><axis xyz="0 {i % 2} {(i + 1) % 2}"/>'
            f'<limit lower="-3" upper="3" effort="10" velocity="5"/></joint>',
            f'<transmission name="t{i}"><type>transmission_interface/SimpleTransmission</type>'
            f'<joint name="joint{i}"><hardwareInterface>hardware_interface/PositionJointInterface</hardwareInterface></joint>'
            f'<actuator name="motor{i}"><mechanicalReduction>10</mechanicalReduction></actuator></transmission>',
        ]
    parts.append("</robot>")
    return "\n".join(parts)


def measure_loop(description: str | None, rate: float, seconds: float, priority: int) -> dict[str, float]:
    """Run the node in-process at ``rate`` Hz for ``seconds`` (after 1 s warm-up), loop thread
    priority ``priority`` (0 = normal, 1..99 = SCHED_FIFO)."""
    context = rclpy.Context()
    rclpy.init(args=[], context=context)
    overrides = [
        Parameter("update_rate", value=float(rate)),
        Parameter("publish_rate", value=float(rate)),
        Parameter("command_timeout", value=0.0),
        Parameter("thread_priority", value=priority),
    ]
    if description is not None:
        overrides.append(Parameter("robot_description", value=description))
    node = BridgeNode(context=context, parameter_overrides=overrides)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(node)
    spin = threading.Thread(target=executor.spin, daemon=True)
    spin.start()
    try:
        time.sleep(1.0)
        node.loop.stats.reset()
        time.sleep(seconds)
        s = node.loop.stats.summary()
        joints = len(node.hardware.state_names)
    finally:
        node.shutdown()
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown(context=context)
        spin.join(2.0)
    return {
        "joints": joints, "rate": s.achieved_rate, "p50": s.period_p50 * 1e3, "p99": s.period_p99 * 1e3,
        "max": s.period_max * 1e3, "cpu": s.cpu_mean * 1e6,
        "overruns": 100.0 * s.overruns / s.cycles if s.cycles else float("nan"),
    }


def measure_latency(samples: int, priority: int) -> np.ndarray:
    """Command → joint_states latencies (s) against a bridge child process at 1 kHz."""
    child = subprocess.Popen(
        [sys.executable, "-m", "sdf_bridge.ros.main", "--ros-args", "-p", "update_rate:=1000.0",
         "-p", "publish_rate:=1000.0", "-p", "command_timeout:=0.0", "-p", f"thread_priority:={priority}",
         "--log-level", "warn"],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    context = rclpy.Context()
    rclpy.init(args=[], context=context)
    node = rclpy.create_node("latency_bench", context=context)
    target = {"value": None, "sent": 0.0}
    arrived = threading.Event()
    latencies: list[float] = []
    seen_any = threading.Event()

    def on_state(msg: JointState) -> None:
        now = time.perf_counter()
        seen_any.set()
        value = target["value"]
        if value is None or arrived.is_set():
            return
        try:
            position = msg.position[list(msg.name).index("base_yaw")]
        except ValueError:
            return
        if abs(position - value) < 1e-9:
            latencies.append(now - target["sent"])
            arrived.set()

    node.create_subscription(JointState, "joint_states", on_state, RELIABLE_QOS)
    pub = node.create_publisher(JointState, "joint_commands", RELIABLE_QOS)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(node)

    def spin_rt() -> None:
        if priority > 0:  # the measuring side must not be the slow part
            try:
                os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
            except OSError:
                pass
        executor.spin()

    spin = threading.Thread(target=spin_rt, daemon=True)
    spin.start()
    try:
        if not seen_any.wait(60.0):
            raise RuntimeError("the bridge published no joint_states within 60 s")
        time.sleep(1.0)
        for i in range(samples + 20):
            # steps of 1 mrad: below the velocity limit's per-cycle step (2 rad/s at 1 kHz)
            value = 0.001 * ((i % 2) + 1)
            arrived.clear()
            target["value"] = value
            target["sent"] = time.perf_counter()
            pub.publish(JointState(name=["base_yaw"], position=[value]))
            if not arrived.wait(1.0):
                continue
            time.sleep(0.002 + random.random() * 0.003)  # de-correlate from the loop phase
        return np.array(latencies[20:])
    finally:
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown(context=context)
        spin.join(2.0)
        child.send_signal(signal.SIGINT)
        child.wait(15)


def main() -> int:
    """Run both benchmarks and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured seconds per loop run (default 5)")
    parser.add_argument("--samples", type=int, default=500, help="latency samples (default 500)")
    parser.add_argument("--priority", type=int, default=0,
                        help="bridge parameter thread_priority (0 = normal, 1..99 = SCHED_FIFO if permitted)")
    ns = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, ROS_DOMAIN_ID={os.environ['ROS_DOMAIN_ID']}")
    print(f"\nControl loop (in-process node, joint_states every cycle, thread_priority {ns.priority})")
    header = f"{'robot':<10} {'joints':>6} {'target Hz':>9} {'achieved Hz':>11} {'p50 ms':>8} {'p99 ms':>8} " \
             f"{'max ms':>8} {'CPU µs/cycle':>12} {'overruns %':>10}"
    print(header)
    print("-" * len(header))
    for label, description in (("demo", None), ("chain100", chain_urdf(100))):
        for rate in (100, 500, 1000):
            r = measure_loop(description, rate, ns.seconds, ns.priority)
            print(f"{label:<10} {r['joints']:>6} {rate:>9} {r['rate']:>11.1f} {r['p50']:>8.3f} {r['p99']:>8.3f} "
                  f"{r['max']:>8.3f} {r['cpu']:>12.1f} {r['overruns']:>10.2f}", flush=True)
    lat = measure_latency(ns.samples, ns.priority) * 1e3
    print("\nCommand → joint_states latency across processes (demo robot, 1 kHz loop)")
    if lat.size:
        print(f"samples {lat.size}: p50 {np.percentile(lat, 50):.3f} ms, p99 {np.percentile(lat, 99):.3f} ms, "
              f"max {lat.max():.3f} ms")
    else:
        print("no samples (no command was seen in joint_states)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
