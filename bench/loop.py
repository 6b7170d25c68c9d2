"""Benchmark of the bridge's control loop and command latency (prints tables; no assertions).

1. Loop: the bridge node in this process (its loop thread, an EventsExecutor spinning on another
   thread as in the bridge process, joint_states and actuator_states published every cycle to a
   subscriber = worst case) on the demo robot and on a generated 100-joint chain (a classic
   SimpleTransmission with reduction 10 per joint), at 100, 500 and 1,000 Hz. Columns (the loop's
   own timing, :attr:`FixedRateLoop.timing <sdf_bridge.hardware.loop.FixedRateLoop>`, over the whole
   measured window): achieved rate (Hz), p50 / p99 / max start-to-start period (ms), CPU time per
   cycle of the loop thread (µs, mean over every 8th cycle), overruns (cycles busy longer than the
   period, % of cycles).
2. Latency: the bridge in a child process (demo robot, 1 kHz loop, joint_states every cycle);
   this process sends position commands on ``joint_commands`` and times, on its own monotonic
   clock, how long until a ``joint_states`` message shows the commanded value (command → loop →
   backend → joint_states over DDS on loopback). p50 / p99 / max in ms, split at the message's
   stamp (the start of the bridge's tick, just before its write) into the way in and the way
   back, plus the bridge's own loop statistics from /diagnostics.

   Each run measures, in turn, two peers beside the bridge (the order rotates from run to run,
   so that load bursts on the shared machine hit all three; see ``bench/_latency_peers.py``):

   - **echo** (transport peer): a child process with a minimal rclpy node on the bridge's
     executor that republishes each ``joint_commands`` message at once as a ``joint_states``
     message of the bridge's shape, stamped on receipt. It is measured by the same probe
     (:func:`measure_latency`: same command, same matching rule, same samples): it is the
     floor of two DDS hops and the Python callbacks on both sides on this machine now.
     **bridge − echo** (difference of the runs' percentiles; medians of the per-run
     differences) is what the bridge adds: the wait for its next tick (0 … 1 period, ~0.5 ms
     on average at 1 kHz, ~1 ms at p99), its cycle, its command callback, and the load of its
     1 kHz loop and traffic on the probe and the machine.
   - **floor** (machine floor): the bridge's scheduler
     (:class:`sdf_bridge.hardware.loop.FixedRateLoop`) at 1 kHz with an empty cycle, in a child
     process, for as long as a latency run measures: tick lateness (cycle start − its deadline) p50
     / p99 / max in ms, % of ticks later than 0.5 ms, and re-anchoring overruns. A loop that does
     nothing cannot be more punctual than this, so the bridge's ticks (and its p99 latency) cannot
     either.
   - **steal**: hypervisor steal time during each measurement (ms summed over all CPUs, from
     ``/proc/stat``; "n/a" where not available): CPU time the virtual machine wanted and the
     host did not give. Steal in a run explains late ticks and a high p99 in that run.

   Reading a run: when the floor is clean (p99 lateness well below 0.5 ms, ~0 % late, little
   steal), the bridge's p99 should be about the echo's p99 plus one period; a bridge p99 above
   2 ms together with a late floor or steal in the same run is the machine's, and shows in the
   echo too when the burst hit it.

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
import json
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

import rclpy
from _latency_peers import LATE, steal_ms, steal_since  # noqa: E402  (bench/, the script's directory)
from diagnostic_msgs.msg import DiagnosticArray
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.parameter import Parameter
from rclpy.signals import SignalHandlerOptions
from sensor_msgs.msg import JointState

from sdf_bridge.hardware.timing import LoopTiming
from sdf_bridge.ros.main import spin_until_shutdown
from sdf_bridge.ros.node import RELIABLE_QOS, BridgeNode

PEERS = Path(__file__).resolve().with_name("_latency_peers.py")


def chain_urdf(n: int = 100) -> str:
    """A serial chain of ``n`` revolute joints, each with a classic SimpleTransmission
    (mechanicalReduction 10), as a URDF string."""
    parts = ['<?xml version="1.0"?>', '<robot name="chain100">', '<link name="link0"/>']
    for i in range(1, n + 1):
        parts += [
            f'<link name="link{i}"/>',
            f'<joint name="joint{i}" type="revolute"><parent link="link{i - 1}"/><child '
            f'link="link{i}"/><origin xyz="0 0 0.05"/><axis xyz="0 {i % 2} {(i + 1) % 2}"/>'
            '<limit lower="-3" upper="3" effort="10" velocity="5"/></joint>',
            f'<transmission name="t{i}"><type>transmission_interface/SimpleTransmission</type>'
            f'<joint name="joint{i}">'
            "<hardwareInterface>hardware_interface/PositionJointInterface</hardwareInterface>"
            f'</joint><actuator name="motor{i}"><mechanicalReduction>10</mechanicalReduction>'
            "</actuator></transmission>",
        ]
    parts.append("</robot>")
    return "\n".join(parts)


#: SIGINT stays Python's alone (rclpy's handler would also shut the contexts down under a
#: running measurement, and does so even where SIGINT is ignored): Ctrl-C raises
#: KeyboardInterrupt, and the ``finally`` blocks stop the node and the child processes.
_NO_SIGNAL_HANDLERS = SignalHandlerOptions.NO


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


def measure_loop(
    description: str | None, rate: float, seconds: float, priority: int
) -> dict[str, float]:
    """Run the node in-process at ``rate`` Hz for ``seconds`` (after 1 s warm-up), loop thread
    priority ``priority`` (0 = normal, 1..99 = SCHED_FIFO)."""
    context = rclpy.Context()
    rclpy.init(args=[], context=context, signal_handler_options=_NO_SIGNAL_HANDLERS)
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
        # fresh timing after the warm-up, with a window holding every measured cycle
        node.loop.timing = LoopTiming(
            node.loop.timing.target_period, window=int(rate * seconds * 1.5) + 10
        )
        time.sleep(seconds)
        s = node.loop.timing.snapshot().summary()
        joints = len(node.hardware.state_names)
    finally:
        node.shutdown()
        rclpy.try_shutdown(context=context)
        spin.join(2.0)
        executor.shutdown()
        node.destroy_node()
        listener.destroy_node()
    nan = float("nan")

    def scaled(key: str, unit: float) -> float:
        return nan if s[key] is None else s[key] * unit

    return {
        "joints": joints,
        "rate": scaled("rate_hz", 1.0),
        "p50": scaled("period_p50", 1e3),
        "p99": scaled("period_p99", 1e3),
        "max": scaled("period_max", 1e3),
        "cpu": scaled("cpu_mean", 1e6),
        "overruns": 100.0 * s["overruns"] / s["cycles"] if s["cycles"] else nan,
    }


@dataclass
class LatencyResult:
    """One latency run. Arrays in s, one entry per sample: ``total`` = command sent → first
    joint_states showing it (probe's monotonic clock); ``inside`` = command sent → the
    ``header.stamp`` of that message (the start of the bridge's tick that wrote it: DDS in +
    callback + wait for the tick); ``outside`` = stamp → arrival (write + read + publish + DDS
    out + the probe's callback dispatch). ``inside``/``outside`` use the system clock shared by both
    processes. ``loop``: the bridge's last /diagnostics loop values (name → str; empty for the
    echo peer). ``seconds``: the measured window (first to last command, s); ``steal``: steal
    time of all CPUs during it (ms, ``None`` where not available)."""

    total: np.ndarray
    inside: np.ndarray
    outside: np.ndarray
    loop: dict[str, str]
    seconds: float = float("nan")
    steal: float | None = None


def _stop_child(child: subprocess.Popen) -> None:
    """Stop ``child``: SIGINT (its clean stop), then SIGKILL after 10 s; waits for it either
    way, also when interrupted meanwhile (no process is left behind)."""
    try:
        if child.poll() is None:
            child.send_signal(signal.SIGINT)
            child.wait(10)
    except subprocess.TimeoutExpired:
        pass
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def _peer_command(peer: str, priority: int) -> list[str]:
    """Command line of the ``bridge`` (demo robot, 1 kHz, joint_states every cycle) or of the
    ``echo`` peer (``bench/_latency_peers.py``)."""
    if peer == "bridge":
        return [
            sys.executable,
            "-m",
            "sdf_bridge.ros.main",
            "--ros-args",
            "-p",
            "update_rate:=1000.0",
            "-p",
            "publish_rate:=1000.0",
            "-p",
            "command_timeout:=0.0",
            "-p",
            f"thread_priority:={priority}",
            "--log-level",
            "warn",
        ]
    if peer == "echo":
        return [
            sys.executable,
            str(PEERS),
            "echo",
            "--priority",
            str(priority),
            "--ros-args",
            "--log-level",
            "warn",
        ]
    raise ValueError(f"unknown latency peer {peer!r} (bridge or echo)")


def measure_latency(
    samples: int, priority: int, executor_kind: str = "events", peer: str = "bridge"
) -> LatencyResult:
    """Command → joint_states latencies against a child process: ``peer`` = ``bridge`` (at
    1 kHz, joint_states every cycle) or ``echo`` (the transport peer, see the module
    docstring); the probe spins an ``executor_kind`` executor. Only the wait for the peer to be
    ready differs between peers (the bridge publishes all the time, the echo only when
    commanded: for it, the probe waits until both topics are matched).

    Raises:
        RuntimeError: the peer was not ready within 60 s, or exited during the measurement.
        ValueError: unknown ``peer``.
    """
    child = subprocess.Popen(
        _peer_command(peer, priority),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        return _probe(samples, priority, executor_kind, peer, child)
    finally:
        _stop_child(child)


def _probe(
    samples: int, priority: int, executor_kind: str, peer: str, child: subprocess.Popen
) -> LatencyResult:
    """The measuring side of :func:`measure_latency` (the peer runs already as ``child``).

    Raises:
        RuntimeError: the peer was not ready within 60 s, or exited during the measurement.
    """
    context = rclpy.Context()
    rclpy.init(args=[], context=context, signal_handler_options=_NO_SIGNAL_HANDLERS)
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
                loop.update(
                    {kv.key: kv.value for kv in status.values if kv.key.startswith("loop.")}
                )

    state_sub = node.create_subscription(JointState, "joint_states", on_state, RELIABLE_QOS)
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
        if peer == "bridge":
            if not seen_any.wait(60.0) or child.poll() is not None:
                raise RuntimeError("the bridge published no joint_states within 60 s (or exited)")
        else:
            give_up = time.monotonic() + 60.0
            while not (pub.get_subscription_count() and state_sub.get_publisher_count()):
                if time.monotonic() > give_up or child.poll() is not None:
                    raise RuntimeError(
                        f"the {peer} peer did not match joint_commands / joint_states within 60 "
                        "s (or exited)"
                    )
                time.sleep(0.05)
        time.sleep(1.0)
        steal0, t0 = steal_ms(), time.perf_counter()
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
                if child.poll() is not None:
                    raise RuntimeError(
                        f"the {peer} peer exited (code {child.returncode}) during the measurement"
                    )
                continue
            time.sleep(0.002 + random.random() * 0.003)  # de-correlate from the loop phase
        seconds, steal = time.perf_counter() - t0, steal_since(steal0)
        time.sleep(0.2)  # one more /diagnostics
        n = min(warmup, len(total))
        return LatencyResult(
            np.array(total[n:]),
            np.array(inside[n:]),
            np.array(outside[n:]),
            dict(loop),
            seconds,
            steal,
        )
    finally:
        rclpy.try_shutdown(context=context)
        spin.join(2.0)
        executor.shutdown()
        node.destroy_node()


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
            "  bridge loop: {:.1f} Hz, period p99 {:.3f} ms, max {:.3f} ms, {} overruns / {} "
            "cycles".format(
                float(loop.get("loop.achieved_rate_hz", "nan")),
                float(loop.get("loop.period_p99_s", "nan")) * 1e3,
                float(loop.get("loop.period_max_s", "nan")) * 1e3,
                loop.get("loop.overruns", "?"),
                loop.get("loop.cycles", "?"),
            )
        )


def measure_floor(seconds: float, priority: int) -> dict[str, float | int | None]:
    """The machine floor: an empty :class:`~sdf_bridge.hardware.loop.FixedRateLoop` at 1 kHz in a
    child process (``bench/_latency_peers.py floor``) measured for ``seconds`` s, loop thread
    priority ``priority``. Returns its JSON result: lateness ``p50`` / ``p99`` / ``max`` (s),
    ``late`` (fraction of ticks > 0.5 ms), ``ticks``, ``overruns``, ``seconds``, ``steal`` (ms or
    ``None``).

    Raises:
        RuntimeError: the child failed or printed no result (its error is on stderr).
    """
    child = subprocess.Popen(
        [
            sys.executable,
            str(PEERS),
            "floor",
            "--seconds",
            f"{seconds:.3f}",
            "--rate",
            "1000",
            "--priority",
            str(priority),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        out, _ = child.communicate(timeout=seconds + 60.0)
    finally:
        _stop_child(child)
    if child.returncode != 0 or not out.strip():
        raise RuntimeError(f"the floor peer failed (exit code {child.returncode})")
    return json.loads(out.strip().splitlines()[-1])


def _steal(ms: float | None) -> str:
    """Steal time ``ms`` for printing (``n/a`` when not available)."""
    return "n/a" if ms is None else f"{ms:.0f}"


def _percentiles_ms(values: np.ndarray) -> np.ndarray:
    """``[p50, p99, max]`` of ``values`` (s) in ms (NaN without samples)."""
    if not values.size:
        return np.full(3, np.nan)
    return np.array([*np.percentile(values, [50, 99]), values.max()]) * 1e3


def print_peers(bridge: LatencyResult, echo: LatencyResult, floor: dict) -> None:
    """Print the peers of one latency run (after :func:`print_latency` of the bridge's)."""
    print(f"  echo peer: samples {echo.total.size}: {_ms(echo.total)}")
    if echo.total.size:
        (i50, i99), (o50, o99) = (
            np.percentile(v, [50, 99]) * 1e3 for v in (echo.inside, echo.outside)
        )
        print(
            f"    in (sent → stamp = receipt) p50 {i50:.3f} / p99 {i99:.3f} ms, "
            f"out p50 {o50:.3f} / p99 {o99:.3f} ms"
        )
    diff = _percentiles_ms(bridge.total) - _percentiles_ms(echo.total)
    print(f"  bridge − echo: p50 {diff[0]:+.3f} ms, p99 {diff[1]:+.3f} ms")
    print(
        f"  floor (empty FixedRateLoop, 1 kHz, {floor['seconds']:.1f} s): lateness p50 "
        f"{floor['p50'] * 1e3:.3f} ms, p99 {floor['p99'] * 1e3:.3f} ms, max "
        f"{floor['max'] * 1e3:.3f} ms; {100 * floor['late']:.2f} % of {floor['ticks']} ticks "
        f"> {LATE * 1e3:g} ms, {floor['overruns']} overruns"
    )
    print(
        f"  steal (ms, all CPUs): bridge {_steal(bridge.steal)} in {bridge.seconds:.1f} s, echo "
        f"{_steal(echo.steal)} in {echo.seconds:.1f} s, floor {_steal(floor['steal'])} in "
        f"{floor['seconds']:.1f} s"
    )


def print_peer_medians(runs: list[tuple[LatencyResult, LatencyResult, dict]]) -> None:
    """Medians over runs of the per-run figures (differences: medians of the per-run
    differences, i.e. paired)."""
    bridge = np.array([_percentiles_ms(b.total) for b, _, _ in runs])
    echo = np.array([_percentiles_ms(e.total) for _, e, _ in runs])
    diff = np.nanmedian(bridge - echo, axis=0)
    b, e = np.nanmedian(bridge, axis=0), np.nanmedian(echo, axis=0)
    floor = {
        key: float(np.median([f[key] for _, _, f in runs])) for key in ("p50", "p99", "max", "late")
    }

    def steal(values: list[float | None]) -> str:
        known = [v for v in values if v is not None]
        return _steal(float(np.median(known)) if known else None)

    print(
        f"medians over {len(runs)} runs (ms): bridge p50 {b[0]:.3f}, p99 {b[1]:.3f}, max "
        f"{b[2]:.3f} | echo p50 {e[0]:.3f}, p99 {e[1]:.3f}, max {e[2]:.3f} | bridge − echo "
        f"p50 {diff[0]:+.3f}, p99 {diff[1]:+.3f}"
    )
    print(
        f"  floor lateness p50 {floor['p50'] * 1e3:.3f}, p99 {floor['p99'] * 1e3:.3f}, max "
        f"{floor['max'] * 1e3:.3f}, {100 * floor['late']:.2f} % ticks > {LATE * 1e3:g} ms | "
        f"steal (ms) bridge {steal([r[0].steal for r in runs])}, echo "
        f"{steal([r[1].steal for r in runs])}, floor {steal([r[2]['steal'] for r in runs])}"
    )


def main() -> int:
    """Run the benchmarks and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="measured seconds per loop run (default 5)"
    )
    parser.add_argument(
        "--samples", type=int, default=500, help="latency samples per run (default 500)"
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=1,
        help="latency runs (medians of their percentiles are printed)",
    )
    parser.add_argument(
        "--priority",
        type=int,
        default=0,
        help="bridge parameter thread_priority (0 = normal, 1..99 = SCHED_FIFO if permitted)",
    )
    parser.add_argument(
        "--executor",
        choices=("events", "single"),
        default="events",
        help="executor of the measuring probe (default events)",
    )
    parser.add_argument(
        "--only", choices=("loop", "latency"), help="run only one of the two benchmarks"
    )
    ns = parser.parse_args()
    print(
        f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, "
        f"ROS_DOMAIN_ID={os.environ['ROS_DOMAIN_ID']}, load average {os.getloadavg()[0]:.2f}"
    )
    if ns.only != "latency":
        print(
            "\nControl loop (in-process node, joint_states every cycle, thread_priority "
            f"{ns.priority})"
        )
        header = (
            f"{'robot':<10} {'joints':>6} {'target Hz':>9} {'achieved Hz':>11} {'p50 ms':>8} "
            f"{'p99 ms':>8} {'max ms':>8} {'CPU µs/cycle':>12} {'overruns %':>10}"
        )
        print(header)
        print("-" * len(header))
        for label, description in (("demo", None), ("chain100", chain_urdf(100))):
            for rate in (100, 500, 1000):
                r = measure_loop(description, rate, ns.seconds, ns.priority)
                print(
                    f"{label:<10} {r['joints']:>6} {rate:>9} {r['rate']:>11.1f} {r['p50']:>8.3f} "
                    f"{r['p99']:>8.3f} {r['max']:>8.3f} {r['cpu']:>12.1f} "
                    f"{r['overruns']:>10.2f}",
                    flush=True,
                )
    if ns.only != "loop":
        print(
            "\nCommand → joint_states latency across processes (demo robot, 1 kHz loop, probe "
            f"executor {ns.executor})"
        )
        print(
            "peers in each run (order rotating): echo = transport peer, floor = empty 1 kHz "
            "FixedRateLoop; see the module docstring"
        )
        results = []
        peer_runs = []
        window = (
            ns.samples + 20
        ) * 0.005  # a latency run's measured window (s) until one is measured
        for run in range(ns.runs):
            measured: dict = {}
            order = ("bridge", "echo", "floor")[run % 3 :] + ("bridge", "echo", "floor")[: run % 3]
            for peer in order:  # rotating, so that load bursts hit all three
                if peer == "floor":
                    measured[peer] = measure_floor(window, ns.priority)
                else:
                    measured[peer] = measure_latency(ns.samples, ns.priority, ns.executor, peer)
                    window = measured[peer].seconds
            result = measured["bridge"]
            results.append(result)
            peer_runs.append((result, measured["echo"], measured["floor"]))
            print(f"run {run + 1}: ", end="")
            print_latency(result)
            print_peers(result, measured["echo"], measured["floor"])
            print(f"  load average {os.getloadavg()[0]:.2f}", flush=True)
        if ns.runs > 1:
            pct = (
                np.array([np.percentile(r.total, [50, 99]) for r in results if r.total.size]) * 1e3
            )
            if pct.size:
                print(
                    f"median over {len(pct)} runs: p50 {np.median(pct[:, 0]):.3f} ms, p99 "
                    f"{np.median(pct[:, 1]):.3f} ms"
                )
            print_peer_medians(peer_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
