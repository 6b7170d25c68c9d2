"""Several robots in one simulation: do ten copies of the demo arm hold 100 Hz with a real-time
factor ≥ 1, and what do they cost against one copy?

``N`` copies of ``urdf/demo_arm.urdf.xacro`` (welded, 1.5 m apart along y: they never touch)
are combined into one MuJoCo model (:func:`sdf_bridge.description.world.combine`) and driven as
the bridge node drives several robots (:mod:`sdf_bridge.ros.robots`): one
:class:`~sdf_bridge.hardware.HardwareSystem` per robot over its
:class:`~sdf_bridge.backends.shared.RobotSlice`, every joint commanded to a position each tick,
every robot's ``write`` then every robot's ``read`` (one physics step of 10 ms: ten 1 ms
MuJoCo steps). Cameras off. A tick is timed in chunks of 10 ticks; a configuration's cost is
its fastest chunk (the least disturbed on a shared machine; the median is printed too), over
``--repeat`` rounds that alternate the configurations.

Printed per ``N``: µs per tick, the real-time factor at 100 Hz it allows (10 ms / cost) and the
cost as a ratio against one copy; then whether ten copies hold 100 Hz with a real-time factor
≥ 1 (cost ≤ 10 ms). ROS publishing is not included (per robot it is what one bridge publishes:
``bench/sim.py``'s ``bridge+ros`` level less its ``bridge`` level).

Run: ``python bench/robots.py [--copies 1 10] [--seconds 2] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from sdf_bridge.backends import create_backend  # noqa: E402 (after sys.path is set)
from sdf_bridge.backends.shared import RobotSlice, SharedPhysics  # noqa: E402 (after sys.path is set)
from sdf_bridge.description import load  # noqa: E402 (after sys.path is set)
from sdf_bridge.description.model import Pose  # noqa: E402 (after sys.path is set)
from sdf_bridge.description.scope import unscope_robot  # noqa: E402 (after sys.path is set)
from sdf_bridge.description.world import Placement, combine  # noqa: E402 (after sys.path is set)
from sdf_bridge.hardware import HardwareSystem  # noqa: E402 (after sys.path is set)

DT = 0.01
"""s: the bridge's tick (100 Hz)."""
CHUNK = 10
"""ticks timed together."""


def build(arm, copies: int) -> tuple[SharedPhysics, list[HardwareSystem]]:
    """The shared physics of ``copies`` arms and one hardware system per arm."""
    robot = combine(
        [
            Placement(f"arm{i}", arm, Pose((0.0, 1.5 * i, 0.0), (0.0, 0.0, 0.0)), "fixed")
            for i in range(copies)
        ],
        name="arms",
    )
    shared = SharedPhysics(create_backend("mujoco"), robot, {"render_cameras": False})
    systems = [
        HardwareSystem(
            unscope_robot(robot, name),
            RobotSlice(shared, name),
            command_timeout=0.0,
            update_rate=1.0 / DT,
            timed=False,
        )
        for name in robot.robots
    ]
    return shared, systems


def run(arm, copies: int, seconds: float) -> list[float]:
    """Seconds of wall time per tick, one value per chunk of :data:`CHUNK` ticks."""
    shared, systems = build(arm, copies)
    try:
        targets = [0.3] * len(systems[0].joint_names)
        t = 0.0
        chunks = []
        for _ in range(max(1, round(seconds / DT / CHUNK))):
            start = time.perf_counter()
            for _ in range(CHUNK):
                for system in systems:
                    system.submit_joint_state(system.joint_names, targets, None, None, t)
                    system.write(t, DT)
                for system in systems:
                    system.read(t, DT)
                t += DT
            chunks.append((time.perf_counter() - start) / CHUNK)
        return chunks
    finally:
        for system in systems:
            system.close()
        shared.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 10], help="arms per run")
    parser.add_argument("--seconds", type=float, default=2.0, help="simulated s per run")
    parser.add_argument("--repeat", type=int, default=3, help="rounds over the configurations")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)  # (the demo arm's build notes)
    arm = load(REPO / "urdf" / "demo_arm.urdf.xacro")
    chunks: dict[int, list[float]] = {n: [] for n in args.copies}
    for _ in range(args.repeat):
        for n in args.copies:
            chunks[n] += run(arm, n, args.seconds)
    base = min(chunks[args.copies[0]])
    print(f"demo arm copies, 100 Hz ticks of 10 x 1 ms MuJoCo steps ({args.repeat} rounds)")
    print(f"{'copies':>6}  {'best us/tick':>12}  {'median':>8}  {'RTF at 100 Hz':>13}  ratio")
    for n in args.copies:
        best, median = min(chunks[n]), statistics.median(chunks[n])
        print(
            f"{n:>6}  {best * 1e6:>12.0f}  {median * 1e6:>8.0f}  {DT / best:>13.1f}  "
            f"{best / base:.2f}x of {args.copies[0]}"
        )
    if 10 in chunks:
        best, median = min(chunks[10]), statistics.median(chunks[10])
        verdict = "holds" if best <= DT else "does not hold"
        print(
            f"ten copies {verdict} 100 Hz with real-time factor >= 1 "
            f"(best tick {best * 1e3:.2f} ms of 10 ms; median {median * 1e3:.2f} ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
