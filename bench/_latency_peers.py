"""Peers of the bridge for ``bench/loop.py --only latency`` (each runs as a child process).

- ``echo``: the **transport peer**. A minimal rclpy node on the bridge's executor
  (:func:`sdf_bridge.ros.main.spin_node`) that
  subscribes to ``joint_commands`` (``sensor_msgs/JointState``, ``RELIABLE_QOS`` of
  :mod:`sdf_bridge.ros.node`) and, in the callback, publishes at once one ``joint_states``
  message shaped as the bridge's (the demo robot's joint names, position / velocity / effort
  arrays written by the bridge's :class:`~sdf_bridge.ros.conversions.JointStateWriter` into
  its pre-serialised message, published as bytes as the bridge does)
  carrying the commanded positions, stamped on receipt with the node clock. It has no loop, no
  hardware and publishes only when commanded: what the bridge adds over it is its tick wait
  and cycle (plus its command callback and the load of its 1 kHz loop and traffic).
- ``floor``: the **machine floor**. The bridge's scheduler,
  :class:`sdf_bridge.hardware.loop.FixedRateLoop`, at ``--rate`` Hz with a cycle that does nothing,
  for ``--seconds`` s after 0.5 s of warm-up. Prints one JSON line: tick lateness (start of
  the cycle − its deadline, s) p50 / p99 / max, the fraction of ticks later than 0.5 ms,
  overruns (ticks so late that the loop re-anchored; the tick after one has no deadline of its
  own and is not in the lateness figures), and the steal time (ms) of the window.

Run: ``python bench/_latency_peers.py echo [--priority P]`` (until SIGINT/SIGTERM) or
``python bench/_latency_peers.py floor --seconds S [--rate HZ] [--priority P]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

#: A tick starting later than this after its deadline counts as late (s).
LATE = 5e-4


def steal_ms() -> float | None:
    """Steal time of all CPUs since boot, ms (``/proc/stat``, 8th value of the ``cpu`` line, in
    clock ticks of ``SC_CLK_TCK`` Hz; see proc(5)); ``None`` where it is not available."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
        if fields[0] != "cpu" or len(fields) < 9:
            return None
        return int(fields[8]) * 1e3 / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def steal_since(start: float | None) -> float | None:
    """Steal time (ms, all CPUs) since ``start`` = an earlier :func:`steal_ms`, or ``None``."""
    now = steal_ms()
    return None if start is None or now is None else now - start


def run_floor(seconds: float, rate: float, priority: int) -> dict[str, float | int | None]:
    """The machine floor (see module docstring): an empty :class:`FixedRateLoop` at ``rate`` Hz,
    thread priority ``priority`` (as the bridge's ``thread_priority``), measured ``seconds`` s.
    Returns lateness ``p50`` / ``p99`` / ``max`` (s), ``late`` (fraction of ticks > :data:`LATE`),
    ``ticks``, ``overruns``, ``seconds`` (measured window, s), ``steal`` (ms or ``None``).

    Raises:
        RuntimeError: no tick recorded a deadline (the loop's ``_sleep_until`` hook changed).
    """
    import numpy as np

    from sdf_bridge.hardware.loop import FixedRateLoop

    class FloorLoop(FixedRateLoop):
        """Records each tick's lateness against the deadline the scheduler slept to, and counts
        re-anchored ticks (started without a sleep: the tick before ended after its deadline)."""

        def __init__(self) -> None:
            super().__init__(self._tick, rate, priority=priority, name="latency_floor")
            self.deadline: float | None = None
            self.record = False
            self.lateness: list[float] = []
            self.reanchored = 0

        def _sleep_until(self, deadline: float) -> None:
            self.deadline = deadline  # the next tick's deadline (after an overrun: not called)
            super()._sleep_until(deadline)

        def _tick(self, k: int) -> None:
            now = time.perf_counter()
            deadline, self.deadline = self.deadline, None
            if self.record:
                if deadline is None:
                    self.reanchored += 1
                else:
                    self.lateness.append(now - deadline)

    # as the bridge process does before starting its loop (BridgeNode.configure)
    sys.setswitchinterval(min(sys.getswitchinterval(), 0.2 / rate))
    gc.freeze()
    loop = FloorLoop()
    loop.start()
    try:
        time.sleep(0.5)
        steal0, t0 = steal_ms(), time.perf_counter()
        loop.record = True
        time.sleep(seconds)
        loop.record = False
        window, steal = time.perf_counter() - t0, steal_since(steal0)
        overruns = loop.reanchored
    finally:
        loop.stop()
    late = np.array(loop.lateness)
    if not late.size:
        raise RuntimeError(
            "the floor loop recorded no tick deadline (FixedRateLoop._sleep_until changed?)"
        )
    p50, p99 = np.percentile(late, [50, 99])
    return {
        "p50": float(p50),
        "p99": float(p99),
        "max": float(late.max()),
        "late": float(np.mean(late > LATE)),
        "ticks": int(late.size),
        "overruns": int(overruns),
        "seconds": window,
        "steal": steal,
    }


def run_echo(priority: int) -> int:
    """The transport peer (see module docstring) until SIGINT/SIGTERM; returns 0."""
    import numpy as np
    import rclpy
    from sensor_msgs.msg import JointState

    from sdf_bridge.app.description_source import resolve_description
    from sdf_bridge.backends import create_backend
    from sdf_bridge.hardware import HardwareSystem
    from sdf_bridge.ros.conversions import JointStateWriter
    from sdf_bridge.ros.main import spin_node
    from sdf_bridge.ros.node import RELIABLE_QOS

    # the bridge's joint_states names for the demo robot (same message size as the bridge's)
    names = HardwareSystem(
        resolve_description("", "", {}, False).robot, create_backend("mock")
    ).state_names
    index = {name: i for i, name in enumerate(names)}
    position = np.zeros(len(names))
    zeros = np.zeros(len(names))
    writer = JointStateWriter(names)

    rclpy.init(args=sys.argv)
    try:
        node = rclpy.create_node("latency_echo")
        clock = node.get_clock()
        pub = node.create_publisher(JointState, "joint_states", RELIABLE_QOS)

        def on_command(msg: JointState) -> None:
            stamp = clock.now().to_msg()
            for name, value in zip(msg.name, msg.position):
                i = index.get(name)
                if i is not None:
                    position[i] = value
            pub.publish(writer.serialized(position, zeros, zeros, stamp))  # as the bridge

        node.create_subscription(JointState, "joint_commands", on_command, RELIABLE_QOS)
        try:
            spin_node(node, priority)  # as the bridge process with this thread_priority
        finally:
            node.destroy_node()
    except KeyboardInterrupt:
        pass
    finally:
        rclpy.try_shutdown()
    return 0


def main() -> int:
    """Command line (see module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("peer", choices=("echo", "floor"))
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="floor: measured seconds (default 3)"
    )
    parser.add_argument(
        "--rate", type=float, default=1000.0, help="floor: loop rate, Hz (default 1000)"
    )
    parser.add_argument(
        "--priority", type=int, default=0, help="the bridge's thread_priority (default 0)"
    )
    ns, _ = parser.parse_known_args()  # ROS arguments pass through to rclpy
    try:
        if ns.peer == "echo":
            return run_echo(ns.priority)
        print(json.dumps(run_floor(ns.seconds, ns.rate, ns.priority)), flush=True)
        return 0
    except KeyboardInterrupt:  # Ctrl-C in the terminal reaches the children too: stop quietly
        return 130


if __name__ == "__main__":
    sys.exit(main())
