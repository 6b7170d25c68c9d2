"""Start-up of the bridge: time to the first joint_states and to the compiled kernels; what the
background compilation does to the control loop; the construction of a large robot.

``start`` (real processes, the node as users start it: ``python -m sdf_bridge.ros.main --ros-args -p
backend:=B``, as ``ros2 run`` does): for the mock and the MuJoCo backend, the time from starting the
process to the first joint_states received by a subscriber in this process, and to the bridge's
"switched to the compiled kernels" log line (:mod:`sdf_bridge.hardware.kernel_switch`); ``cold``: an
empty Numba cache (``NUMBA_CACHE_DIR`` a fresh temporary directory, as on a new machine), ``warm``:
the same directory again. Peers measured in the same run, interleaved: a bare rclpy process
publishing a JointState as soon as it sees the subscriber (Python, rclpy and DDS discovery: the
floor of any ROS node) and the bridge with ``SDF_BRIDGE_JIT=0`` (numpy only). Discovery: every
process here uses a FastDDS profile with a 0.1 s participant announcement period (written to a
temporary file, ``FASTDDS_DEFAULT_PROFILES_FILE``): with localhost-only discovery
(``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST``) and the default 3 s period, a subscriber that exists
before the publisher may learn of it only at its next announcement, which adds up to 3 s to every
figure, the peer's included (``--default-discovery`` measures that).

``loop`` (``--only loop``): the bridge's loop (``FixedRateLoop`` running ``HardwareSystem.cycle`` on
the demo arm in MuJoCo, numpy kernels, as the node starts it: switch interval, Numba set up and
frozen garbage collector as in ``BridgeNode.configure``) at 100 Hz and 1 kHz, in a fresh process per
row, while in the background: nothing (the peer, 10 s); ``thread``: the kernels compiled in a thread
of the bridge (empty cache), then switched; ``switch``: :class:`KernelSwitch` with an empty cache (a
child process compiles, then the bridge loads and switches); ``switch-warm``: :class:`KernelSwitch`
with the cache filled (load and switch only, every later start). Printed per row: the window (s),
ticks done of those due, late ticks (a period > 1.5 × the target), period p99 and maximum, the
longest tick (ms).

``construction`` (``--only construction``): a large robot's ``HardwareSystem`` construction
(mock backend) for chains of N revolute joints, and, as the peer, the dense product ``D.T @ D``
over the same (n_actuators, n_joints) dependency that the construction used to find the joints
sharing an actuator (int64, as at first: 65–70 s at 2,000 joints, uninterruptible; and float64,
BLAS, as next). Printed per N: the construction (median of ``--repeat``; the transmission map,
limiter, backend, coupling), the coupling computation alone
(:func:`sdf_bridge.hardware.holds.coupling`) and the peers, in s.

Run: ``python bench/startup.py [--only start|loop|construction] [--rounds 1] [--warm 3] [--rates 100
1000] [--joints 500 1000 2000] [--repeat 3] [--int64-up-to 1000]`` (``ROS_DOMAIN_ID`` from the
environment, default 17, discovery on localhost).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
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
SWITCHED = "switched to the compiled kernels"
NOT_USED = "compiled kernels not used"
# s a measured process may take (a cold compilation at nice 10 on a loaded machine: ~1 min)
TIMEOUT = 900.0
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

    def measure(
        self, argv_for: Callable[[str], list[str]], env: dict[str, str], switch: bool
    ) -> tuple[float, float | None]:
        """Start ``argv_for(namespace)``; return seconds to its first joint_states and (``switch``)
        to its switch line (``None``: it said the compiled kernels are not used)."""
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
        lines: list[tuple[float, str]] = []
        t0 = time.monotonic()
        child = subprocess.Popen(
            argv_for(ns),
            env={**os.environ, **env},
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        reader = threading.Thread(
            target=lambda: lines.extend((time.monotonic(), line) for line in child.stdout),
            daemon=True,
        )
        reader.start()

        def said(text: str) -> float | None:
            return next((t for t, line in list(lines) if text in line), None)

        try:
            while time.monotonic() - t0 < TIMEOUT and child.poll() is None:
                if first and (not switch or said(SWITCHED) or said(NOT_USED)):
                    break
                self.rclpy.spin_once(self.node, timeout_sec=0.01)
            if not first:
                raise RuntimeError(
                    f"no joint_states from {argv_for(ns)}: "
                    f"{''.join(line for _, line in lines)[-2000:]}"
                )
            t_switch = said(SWITCHED)
            return first[0] - t0, (None if t_switch is None else t_switch - t0)
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


def _fmt(values: list[float]) -> str:
    """Fastest (median) of ``values``, s."""
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.2f}"
    return f"{min(values):.2f} (median {statistics.median(values):.2f})"


def start_level(rounds: int, warm: int) -> None:
    """``rounds`` times, per backend: the peer, numpy only, a cold start and ``warm`` warm starts
    (each after a peer run), interleaved; per row the fastest and the median."""
    probe = _Probe()
    rows: dict[str, tuple[list[float], list[float]]] = {}

    def record(label: str, result: tuple[float, float | None]) -> None:
        row = rows.setdefault(label, ([], []))
        row[0].append(result[0])
        if result[1] is not None:
            row[1].append(result[1])

    try:
        for _ in range(rounds):
            for backend in ("mock", "mujoco"):
                with tempfile.TemporaryDirectory(prefix="numba_cache_") as cache:
                    env = {"NUMBA_CACHE_DIR": cache}
                    record(f"{backend}: peer, bare rclpy node", probe.measure(_peer, {}, False))
                    record(
                        f"{backend}: numpy only (JIT=0)",
                        probe.measure(_bridge(backend), {"SDF_BRIDGE_JIT": "0"}, False),
                    )
                    record(
                        f"{backend}: cold (empty cache)", probe.measure(_bridge(backend), env, True)
                    )
                    for _ in range(warm):
                        record(f"{backend}: peer, bare rclpy node", probe.measure(_peer, {}, False))
                        record(
                            f"{backend}: warm (cache filled)",
                            probe.measure(_bridge(backend), env, True),
                        )
    finally:
        probe.close()
    print(f"{'process':32} {'first joint_states, s':>28} {'compiled kernels, s':>28}")
    for label, (firsts, switches) in sorted(rows.items(), key=lambda item: item[0].split(":")[0]):
        print(f"{label:32} {_fmt(firsts):>28} {_fmt(switches):>28}")


# -------------------------------------------------------------------------------------- loop
def loop_child(strategy: str, rate: float) -> dict[str, float]:
    """(In a fresh process.) The numpy loop at ``rate`` Hz while ``strategy`` runs; its stats."""
    import numpy as np

    from sdf_bridge import jit
    from sdf_bridge.description import load
    from sdf_bridge.hardware import FixedRateLoop, HardwareSystem, kernel_switch

    system = HardwareSystem(
        load(str(REPO / "urdf" / "demo_arm.urdf.xacro")),
        "mujoco",
        command_timeout=0.0,
        backend_params={"render_cameras": False},
        timed=False,
        compiled=False,
    )
    dt = 1.0 / rate
    starts: list[float] = []
    ends: list[float] = []

    def cycle(k: int) -> None:
        starts.append(time.perf_counter())
        system.cycle(k * dt, dt)
        ends.append(time.perf_counter())

    sys.setswitchinterval(min(sys.getswitchinterval(), 0.2 / rate))  # as BridgeNode.configure
    jit.initialise()  # (KernelSwitch.start, before the loop starts)
    gc.freeze()
    loop = FixedRateLoop(cycle, rate)
    loop.start()
    time.sleep(1.0)
    t0 = time.perf_counter()
    if strategy == "none":
        time.sleep(10.0)
    elif strategy == "thread":

        def compile_all() -> None:
            for name in kernel_switch.kernel_modules(system):
                importlib.import_module(name).warm_up()

        worker = threading.Thread(target=compile_all)
        worker.start()
        worker.join()
        system.use_compiled()
    else:
        switch = kernel_switch.KernelSwitch(system)
        switch.start()
        switch.wait()
        if switch.state != "switched":
            raise RuntimeError(f"the switch {switch.state}")
    t1 = time.perf_counter()
    time.sleep(0.2)
    loop.stop()
    s, e = np.array(starts), np.array(ends)
    inside = (s >= t0) & (s <= t1)
    periods = np.diff(s)[inside[1:]] * 1e3
    busy = (e - s)[inside] * 1e3
    return {
        "window": t1 - t0,
        "ticks": int(inside.sum()),
        "due": int((t1 - t0) * rate),
        "late": int((periods > 1.5e3 / rate).sum()),
        "p99": float(np.percentile(periods, 99)),
        "max": float(periods.max()),
        "busy_max": float(busy.max()),
    }


def loop_level(rates: list[float], rounds: int) -> None:
    """Per rate, ``rounds`` times: each background in a fresh process (:func:`loop_child`)."""
    print(
        f"{'rate':>6} {'background':12} {'window s':>9} {'ticks/due':>13} {'late':>7} "
        f"{'p99 ms':>7} {'max ms':>7} {'longest tick ms':>16}"
    )
    for rate in [r for r in rates for _ in range(rounds)]:
        with (
            tempfile.TemporaryDirectory(prefix="numba_cache_") as thread_cache,
            tempfile.TemporaryDirectory(prefix="numba_cache_") as switch_cache,
        ):
            for strategy, cache in (
                ("none", thread_cache),
                ("thread", thread_cache),
                ("switch", switch_cache),
                ("switch-warm", switch_cache),
            ):
                run = subprocess.run(
                    [sys.executable, __file__, "--loop-child", strategy, str(rate)],
                    cwd=REPO,
                    env={**os.environ, "NUMBA_CACHE_DIR": cache},
                    capture_output=True,
                    text=True,
                    timeout=TIMEOUT,
                )
                if run.returncode != 0:
                    raise RuntimeError(f"{strategy} at {rate:g} Hz failed: {run.stderr[-2000:]}")
                r = json.loads(run.stdout.strip().splitlines()[-1])
                print(
                    f"{rate:6g} {strategy:12} {r['window']:9.1f} {r['ticks']:>6}/{r['due']:<6} "
                    f"{100.0 * r['late'] / max(r['ticks'], 1):6.1f}% {r['p99']:7.1f} "
                    f"{r['max']:7.1f} {r['busy_max']:16.1f}"
                )


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
        # kernels compiled / loaded once
        HardwareSystem(robot, "mock", update_rate=100.0, timed=False)
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
    parser.add_argument("--only", choices=("start", "loop", "construction"), help="one level only")
    parser.add_argument(
        "--rounds", type=int, default=1, help="start and loop: rounds (interleaved)"
    )
    parser.add_argument(
        "--warm", type=int, default=3, help="start: warm starts per backend and round"
    )
    parser.add_argument(
        "--rates", type=float, nargs="+", default=[100.0, 1000.0], help="loop rates, Hz"
    )
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
    parser.add_argument(
        "--loop-child", nargs=2, metavar=("STRATEGY", "RATE"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.loop_child:
        print(json.dumps(loop_child(args.loop_child[0], float(args.loop_child[1]))))
        return 0
    print("load average at start:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    if args.only in (None, "start"):
        with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as profile:
            profile.write(FAST_DISCOVERY)
        try:
            if not args.default_discovery:
                os.environ["FASTDDS_DEFAULT_PROFILES_FILE"] = profile.name
            print(
                f"start: {'default' if args.default_discovery else '0.1 s'} DDS announcement "
                f"period; {args.rounds} round(s) of a cold and {args.warm} warm start(s) per "
                "backend"
            )
            start_level(max(1, args.rounds), max(0, args.warm))
        finally:
            os.unlink(profile.name)
    if args.only in (None, "loop"):
        print(
            "loop: demo arm in MuJoCo on the numpy kernels while the compiled ones are made in "
            "the background"
        )
        loop_level(args.rates, max(1, args.rounds))
    if args.only in (None, "construction"):
        print("construction: HardwareSystem (mock) for chains of revolute joints")
        construction_level(args.joints, args.repeat, args.int64_up_to)
    print("load average at end:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
