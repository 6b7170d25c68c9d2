"""Benchmark of the bridge's control loop and command latency (prints tables; no assertions).

1. Loop: the bridge node in this process (its loop thread, an EventsExecutor spinning on
   another thread as in the bridge process, joint_states and actuator_states published every
   cycle to a subscriber = worst case) on the demo robot and on a generated 100-joint chain
   (a classic SimpleTransmission with reduction 10 per joint), at 100, 500 and 1,000 Hz.
   Columns: achieved rate (Hz), p50 / p99 / max start-to-start period (ms), CPU time per cycle
   of the loop thread (µs, mean), overruns (cycles ending after the next deadline, % of
   cycles).
2. Latency: the bridge in a child process (demo robot, 1 kHz loop, joint_states every cycle);
   this process sends position commands on ``joint_commands`` and times, on its own monotonic
   clock, how long until a ``joint_states`` message shows the commanded value (command → loop →
   backend → joint_states over DDS on loopback). p50 / p99 / max in ms, split at the message's
   stamp (the start of the bridge's tick, just before its write) into the way in and the way
   back, plus the bridge's own loop statistics from /diagnostics.

Targets (issue 5): 1 kHz with 100 joints at < 1 % overruns; p99 latency < 2 ms.

Reading the latency: each tick of the bridge writes the latest commands, reads the state back
and publishes it, then sleeps (:meth:`sdf_bridge.hardware.HardwareSystem.cycle`). A command
waits for the next tick (0 … 1 period, ~0.5 ms on average at 1 kHz; with the mock, which
mirrors commands at ``read`` like ros2_control's GenericSystem, it shows in that tick's
joint_states), plus the two DDS hops and the Python callbacks on each side. The floor at 1 kHz
is therefore about one period at p99; load on the machine (other processes taking the CPU
from the loop or the executor) adds to it.

Usage: ``python bench/loop.py [--seconds S] [--samples N] [--runs R] [--only loop|latency]
[--executor events|single] [--priority P]`` (ROS_DOMAIN_ID: random unless set; ``--priority 50``
runs the loop thread SCHED_FIFO, as ros2_control's default).
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
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("ROS_DOMAIN_ID", str(random.randint(100, 200)))
os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")

import rclpy  # noqa: E402
from diagnostic_msgs.msg import DiagnosticArray  # noqa: E402
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402

from sdf_bridge.ros.main import spin_until_shutdown  # noqa: E402
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


def _spin(executor, context: rclpy.Context) -> None:
    """Spin until ``context`` shuts down (the end of a measurement), quietly."""
    try:
        spin_until_shutdown(executor, context)
    except ExternalShutdownException:
        pass


def _make_executor(kind: str, context: rclpy.Context):
    """``events`` (rclpy.experimental.EventsExecutor) or ``single`` (SingleThreadedExecutor)."""
    if kind == "events":
        from rclpy.experimental import EventsExecutor

        return EventsExecutor(context=context)
    return SingleThreadedExecutor(context=context)


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
    # The bridge publishes states only to topics with subscribers: a listener (never spun,
    # messages just queue in its reader) makes it serialise and send both every cycle.
    listener = rclpy.create_node("loop_bench_listener", context=context)
    for topic in ("joint_states", f"{node.get_fully_qualified_name()}/actuator_states"):
        listener.create_subscription(JointState, topic, lambda msg: None, RELIABLE_QOS)
    executor = _make_executor("events", context)  # as the bridge process (main.make_executor)
    executor.add_node(node)
    spin = threading.Thread(target=_spin, args=(executor, context), daemon=True)
    spin.start()
    try:
        time.sleep(1.0)
        node.loop.stats.reset()
        time.sleep(seconds)
        s = node.loop.stats.summary()
        joints = len(node.hardware.state_names)
    finally:
        node.shutdown()
        rclpy.try_shutdown(context=context)
        spin.join(2.0)
        executor.shutdown()
        node.destroy_node()
        listener.destroy_node()
    return {
        "joints": joints, "rate": s.achieved_rate, "p50": s.period_p50 * 1e3, "p99": s.period_p99 * 1e3,
        "max": s.period_max * 1e3, "cpu": s.cpu_mean * 1e6,
        "overruns": 100.0 * s.overruns / s.cycles if s.cycles else float("nan"),
    }


@dataclass
class LatencyResult:
    """One latency run. Arrays in s, one entry per sample: ``total`` = command sent → first
    joint_states showing it (probe's monotonic clock); ``inside`` = command sent → the
    ``header.stamp`` of that message (the start of the bridge's tick that wrote it: DDS in +
    callback + wait for the tick); ``outside`` = stamp → arrival (write + read + publish + DDS
    out + the probe's callback dispatch). ``inside``/``outside`` use the system clock shared by both
    processes. ``loop``: the bridge's last /diagnostics loop values (name → str)."""

    total: np.ndarray
    inside: np.ndarray
    outside: np.ndarray
    loop: dict[str, str]


def measure_latency(samples: int, priority: int, executor_kind: str = "events") -> LatencyResult:
    """Command → joint_states latencies against a bridge child process at 1 kHz (joint_states
    every cycle); the probe spins an ``executor_kind`` executor."""
    child = subprocess.Popen(
        [sys.executable, "-m", "sdf_bridge.ros.main", "--ros-args", "-p", "update_rate:=1000.0",
         "-p", "publish_rate:=1000.0", "-p", "command_timeout:=0.0", "-p", f"thread_priority:={priority}",
         "--log-level", "warn"],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    context = rclpy.Context()
    rclpy.init(args=[], context=context)
    node = rclpy.create_node("latency_bench", context=context)
    target: dict = {"value": None, "sent": 0.0, "sent_ns": 0}
    arrived = threading.Event()
    seen_any = threading.Event()
    total: list[float] = []
    inside: list[float] = []
    outside: list[float] = []
    loop: dict[str, str] = {}
    index: dict[str, int] = {}

    def on_state(msg: JointState) -> None:
        now, now_ns = time.perf_counter(), time.time_ns()
        seen_any.set()
        value = target["value"]
        if value is None or arrived.is_set():
            return
        if not index:
            index.update({name: i for i, name in enumerate(msg.name)})
        position = msg.position[index["base_yaw"]]
        if abs(position - value) < 1e-9:
            stamp_ns = msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec
            total.append(now - target["sent"])
            inside.append((stamp_ns - target["sent_ns"]) * 1e-9)
            outside.append((now_ns - stamp_ns) * 1e-9)
            arrived.set()

    def on_diagnostics(msg: DiagnosticArray) -> None:
        for status in msg.status:
            if status.name.endswith("control loop"):
                loop.clear()
                loop.update({kv.key: kv.value for kv in status.values if kv.key.startswith("loop.")})

    node.create_subscription(JointState, "joint_states", on_state, RELIABLE_QOS)
    node.create_subscription(DiagnosticArray, "/diagnostics", on_diagnostics, 10)
    pub = node.create_publisher(JointState, "joint_commands", RELIABLE_QOS)
    executor = _make_executor(executor_kind, context)
    executor.add_node(node)

    def spin_rt() -> None:
        if priority > 0:  # the measuring side must not be the slow part
            try:
                os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
            except OSError:
                pass
        _spin(executor, context)

    spin = threading.Thread(target=spin_rt, daemon=True)
    spin.start()
    command = JointState(name=["base_yaw"], position=[0.0])
    warmup = 20
    try:
        if not seen_any.wait(60.0):
            raise RuntimeError("the bridge published no joint_states within 60 s")
        time.sleep(1.0)
        for i in range(samples + warmup):
            # steps of 1 mrad: below the velocity limit's per-cycle step (2 rad/s at 1 kHz)
            value = 0.001 * ((i % 2) + 1)
            arrived.clear()
            target["value"] = value
            command.position = [value]
            target["sent_ns"] = time.time_ns()
            target["sent"] = time.perf_counter()
            pub.publish(command)
            if not arrived.wait(1.0):
                continue
            time.sleep(0.002 + random.random() * 0.003)  # de-correlate from the loop phase
        time.sleep(0.2)  # one more /diagnostics
        n = min(warmup, len(total))
        return LatencyResult(np.array(total[n:]), np.array(inside[n:]), np.array(outside[n:]), dict(loop))
    finally:
        rclpy.try_shutdown(context=context)
        spin.join(2.0)
        executor.shutdown()
        node.destroy_node()
        child.send_signal(signal.SIGINT)
        child.wait(15)


def _ms(values: np.ndarray) -> str:
    """``p50 / p99 / max`` of ``values`` (s) in ms."""
    if not values.size:
        return "no samples"
    p50, p99 = np.percentile(values, [50, 99]) * 1e3
    return f"p50 {p50:.3f} ms, p99 {p99:.3f} ms, max {values.max() * 1e3:.3f} ms"


def print_latency(result: LatencyResult) -> None:
    """Print a :class:`LatencyResult`."""
    print(f"samples {result.total.size}: {_ms(result.total)}")
    print(f"  in  (sent → stamp = tick start):    {_ms(result.inside)}")
    print(f"  out (stamp → probe callback):       {_ms(result.outside)}")
    loop = result.loop
    if loop:
        print(
            "  bridge loop: {:.1f} Hz, period p99 {:.3f} ms, max {:.3f} ms, {} overruns / {} cycles".format(
                float(loop.get("loop.achieved_rate_hz", "nan")),
                float(loop.get("loop.period_p99_s", "nan")) * 1e3,
                float(loop.get("loop.period_max_s", "nan")) * 1e3,
                loop.get("loop.overruns", "?"), loop.get("loop.cycles", "?"),
            )
        )


def main() -> int:
    """Run the benchmarks and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured seconds per loop run (default 5)")
    parser.add_argument("--samples", type=int, default=500, help="latency samples per run (default 500)")
    parser.add_argument("--runs", type=int, default=1, help="latency runs (medians of their percentiles are printed)")
    parser.add_argument("--priority", type=int, default=0,
                        help="bridge parameter thread_priority (0 = normal, 1..99 = SCHED_FIFO if permitted)")
    parser.add_argument("--executor", choices=("events", "single"), default="events",
                        help="executor of the measuring probe (default events)")
    parser.add_argument("--only", choices=("loop", "latency"), help="run only one of the two benchmarks")
    ns = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, ROS_DOMAIN_ID={os.environ['ROS_DOMAIN_ID']}, "
          f"load average {os.getloadavg()[0]:.2f}")
    if ns.only != "latency":
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
    if ns.only != "loop":
        print(f"\nCommand → joint_states latency across processes (demo robot, 1 kHz loop, probe executor {ns.executor})")
        results = []
        for run in range(ns.runs):
            result = measure_latency(ns.samples, ns.priority, ns.executor)
            results.append(result)
            print(f"run {run + 1}: ", end="")
            print_latency(result)
        if ns.runs > 1:
            pct = np.array([np.percentile(r.total, [50, 99]) for r in results if r.total.size]) * 1e3
            if pct.size:
                print(f"median over {len(pct)} runs: p50 {np.median(pct[:, 0]):.3f} ms, p99 {np.median(pct[:, 1]):.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
