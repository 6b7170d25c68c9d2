"""Start-up of the bridge: time to the first joint_states and peak memory, against a bare rclpy
node; the construction of a large robot.

``start`` (real processes, the node as users start it: ``python -m sdf_bridge.ros.main --ros-args -p
backend:=B``, as ``ros2 run`` does): for the mock and the MuJoCo backend, the time from starting the
process to the first joint_states received by a subscriber in this process, and the process's peak
resident set (``VmHWM`` from ``/proc``, read 1 s after its first joint_states, before it is
stopped). Peer measured in the same run, interleaved: a bare rclpy process publishing a JointState
as soon as it sees the subscriber (Python, rclpy and DDS discovery: the floor of any ROS node);
printed with the ratio bridge/peer. Discovery: every process here uses a FastDDS profile with a
0.1 s participant announcement period (written to a temporary file,
``FASTDDS_DEFAULT_PROFILES_FILE``): with localhost-only discovery
(``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST``) and the default 3 s period, a subscriber that exists
before the publisher may learn of it only at its next announcement, which adds up to 3 s to every
figure, the peer's included (``--default-discovery`` measures that).

``construction`` (``--only construction``): a large robot's ``HardwareSystem`` construction
(mock backend) for chains of N revolute joints, and, as the peer, the dense product ``D.T @ D``
over the same (n_actuators, n_joints) dependency that the construction used to find the joints
sharing an actuator (int64, as at first: 65–70 s at 2,000 joints, uninterruptible; and float64,
BLAS, as next). Printed per N: the construction (median of ``--repeat``; the transmission map,
limiter, backend, coupling), the coupling computation alone
(:func:`sdf_bridge.hardware.holds.coupling`) and the peers, in s.

Run: ``python bench/startup.py [--only start|construction] [--rounds 3] [--joints 500 1000 2000]
[--repeat 3] [--int64-up-to 1000]`` (``ROS_DOMAIN_ID`` from the environment, default 17, discovery
on localhost).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("ROS_DOMAIN_ID", "17")
os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")

FAST_DISCOVERY = """<?xml version="1.0" encoding="UTF-8" ?>
<profiles xmlns="http://www.eprosima.com">
  <participant profile_name="bench_startup" is_default_profile="true">
    <rtps><builtin><discovery_config>
      <leaseAnnouncement><sec>0</sec><nanosec>100000000</nanosec></leaseAnnouncement>
    </discovery_config></builtin></rtps>
  </participant>
</profiles>
"""
TIMEOUT = 120.0  # s a measured process may take to its first joint_states
_PEER = """
import sys, rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.qos import QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
rclpy.init()
node = rclpy.create_node("startup_peer")
reliable = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
pub = node.create_publisher(JointState, sys.argv[1], reliable)
node.create_timer(0.01, lambda: pub.publish(JointState()) if pub.get_subscription_count() else None)
try:
    rclpy.spin(node)
except (KeyboardInterrupt, ExternalShutdownException):  # (the SIGINT that ends it)
    pass
"""


# ------------------------------------------------------------------------------------- start
class _Probe:
    """A subscriber in this process; one topic per measured process (no cross-talk)."""

    def __init__(self) -> None:
        import rclpy

        self.rclpy = rclpy
        rclpy.init()
        self.node = rclpy.create_node("startup_bench_probe")
        self.runs = 0

    def measure(self, argv_for: Callable[[str], list[str]]) -> tuple[float, float]:
        """Start ``argv_for(namespace)``; return seconds to its first joint_states and its peak
        resident set 1 s later, MiB."""
        from rclpy.qos import QoSProfile, ReliabilityPolicy
        from sensor_msgs.msg import JointState

        self.runs += 1
        ns = f"/startup_bench_{os.getpid()}_{self.runs}"
        first: list[float] = []
        sub = self.node.create_subscription(
            JointState,
            f"{ns}/joint_states",
            lambda m: first.append(time.monotonic()),
            QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE),
        )
        lines: list[str] = []
        t0 = time.monotonic()
        child = subprocess.Popen(
            argv_for(ns),
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        reader = threading.Thread(target=lambda: lines.extend(child.stdout), daemon=True)
        reader.start()
        try:
            while time.monotonic() - t0 < TIMEOUT and child.poll() is None and not first:
                self.rclpy.spin_once(self.node, timeout_sec=0.01)
            if not first:
                raise RuntimeError(f"no joint_states from {argv_for(ns)}: {''.join(lines)[-2000:]}")
            t_end = time.monotonic() + 1.0
            while time.monotonic() < t_end:
                self.rclpy.spin_once(self.node, timeout_sec=0.01)
            return first[0] - t0, peak_rss_mib(child.pid)
        finally:
            self.node.destroy_subscription(sub)
            child.send_signal(signal.SIGINT)
            try:
                child.wait(15)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()

    def close(self) -> None:
        """Destroy the node and shut rclpy down."""
        self.node.destroy_node()
        self.rclpy.try_shutdown()


def _bridge(backend: str) -> Callable[[str], list[str]]:
    """The bridge's command line in a namespace, as ``ros2 run`` starts it."""
    return lambda ns: [
        sys.executable,
        "-m",
        "sdf_bridge.ros.main",
        "--ros-args",
        "-r",
        f"__ns:={ns}",
        "-p",
        f"backend:={backend}",
    ]


def _peer(ns: str) -> list[str]:
    """The bare rclpy node's command line (:data:`_PEER`)."""
    return [sys.executable, "-c", _PEER, f"{ns}/joint_states"]


def peak_rss_mib(pid: int) -> float:
    """Peak resident set of process ``pid`` so far (``VmHWM``), MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024.0
    raise RuntimeError(f"no VmHWM for process {pid}")


def _fmt(values: list[float], unit: str = "s") -> str:
    """Fastest (median) of ``values``."""
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.2f} {unit}"
    return f"{min(values):.2f} {unit} (median {statistics.median(values):.2f})"


def start_level(rounds: int) -> None:
    """``rounds`` times, per backend: the peer then the bridge, interleaved; per row the fastest
    and the median, and the ratios of the medians to the peer's."""
    probe = _Probe()
    rows: dict[str, tuple[list[float], list[float]]] = {}

    def record(label: str, result: tuple[float, float]) -> None:
        row = rows.setdefault(label, ([], []))
        row[0].append(result[0])
        row[1].append(result[1])

    try:
        for _ in range(rounds):
            for backend in ("mock", "mujoco"):
                record(f"{backend}: peer, bare rclpy node", probe.measure(_peer))
                record(f"{backend}: bridge", probe.measure(_bridge(backend)))
    finally:
        probe.close()
    print(f"{'process':32} {'first joint_states':>28} {'peak RSS':>30} {'ratio to peer':>16}")
    for backend in ("mock", "mujoco"):
        peer = rows[f"{backend}: peer, bare rclpy node"]
        for label in (f"{backend}: peer, bare rclpy node", f"{backend}: bridge"):
            firsts, rss = rows[label]
            ratio = (
                f"{statistics.median(firsts) / statistics.median(peer[0]):.2f}× "
                f"{statistics.median(rss) / statistics.median(peer[1]):.2f}×"
            )
            print(f"{label:32} {_fmt(firsts):>28} {_fmt(rss, 'MiB'):>30} {ratio:>16}")


# ------------------------------------------------------------------------------ construction
def chain(n: int) -> str:
    """A URDF chain of ``n`` revolute joints."""
    parts = ['<robot name="chain"><link name="l0"/>']
    parts += [
        f'<link name="l{i}"/><joint name="j{i}" type="revolute"><parent link="l{i - 1}"/><child '
        f'link="l{i}"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" '
        'velocity="1"/></joint>'
        for i in range(1, n + 1)
    ]
    return "".join(parts) + "</robot>"


def timed(function, repeat: int) -> float:
    """Median wall time of ``repeat`` calls, s."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def construction_level(joints: list[int], repeat: int, int64_up_to: int) -> None:
    """``HardwareSystem`` construction for chains of ``joints`` revolute joints, with its peers."""
    import numpy as np

    from sdf_bridge.description import load
    from sdf_bridge.hardware import HardwareSystem
    from sdf_bridge.hardware.holds import coupling

    print(
        f"{'N':>5} {'construction s':>15} {'coupling s':>11} {'peer int64 s':>13} "
        f"{'peer float64 s':>15}"
    )
    for n in joints:
        robot = load(chain(n))
        HardwareSystem(robot, "mock", update_rate=100.0, timed=False)  # (imports, caches)
        build = timed(lambda: HardwareSystem(robot, "mock", update_rate=100.0, timed=False), repeat)
        dependency = HardwareSystem(robot, "mock", timed=False).transmissions.dependency
        sharing = timed(lambda: coupling(dependency), repeat)
        as_float = dependency.astype(float)
        peer_float = timed(lambda: as_float.T @ as_float > 0, repeat)
        peer_int = "-"
        if n <= int64_up_to:
            as_int = dependency.astype(np.int64)
            peer_int = f"{timed(lambda: as_int.T @ as_int > 0, 1):.3f}"
        print(f"{n:>5} {build:>15.3f} {sharing:>11.4f} {peer_int:>13} {peer_float:>15.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("start", "construction"), help="one level only")
    parser.add_argument("--rounds", type=int, default=3, help="start: rounds (interleaved)")
    parser.add_argument(
        "--joints",
        type=int,
        nargs="+",
        default=[500, 1000, 2000],
        help="construction: chain lengths",
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="construction: runs per chain (median)"
    )
    parser.add_argument(
        "--int64-up-to",
        type=int,
        default=1000,
        help="construction: largest N for the int64 peer (2000 takes over a minute)",
    )
    parser.add_argument(
        "--default-discovery",
        action="store_true",
        help="FastDDS's default 3 s announcement period (see the module doc)",
    )
    args = parser.parse_args(argv)
    print("load average at start:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    if args.only in (None, "start"):
        with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as profile:
            profile.write(FAST_DISCOVERY)
        try:
            if not args.default_discovery:
                os.environ["FASTDDS_DEFAULT_PROFILES_FILE"] = profile.name
            print(
                f"start: {'default' if args.default_discovery else '0.1 s'} DDS announcement "
                f"period; {args.rounds} round(s) per backend"
            )
            start_level(max(1, args.rounds))
        finally:
            os.unlink(profile.name)
    if args.only in (None, "construction"):
        print("construction: HardwareSystem (mock) for chains of revolute joints")
        construction_level(args.joints, args.repeat, args.int64_up_to)
    print("load average at end:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
