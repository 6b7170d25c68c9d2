"""Start-up of a large robot: ``HardwareSystem`` construction (mock backend) for chains of N
revolute joints, and, as the peer, the dense product ``D.T @ D`` over the same
(n_actuators, n_joints) dependency that the construction used to find the joints sharing an
actuator (int64, as at first: 65–70 s at 2,000 joints, uninterruptible; and float64, BLAS,
as next).

Printed per N: the construction (median of ``--repeat``; the transmission map, limiter,
backend, coupling), the coupling computation alone (:func:`sdf_bridge.hardware.holds.coupling`)
and the peers, in s, with the load average.

Run: ``python bench/startup.py [--joints 500 1000 2000] [--repeat 3] [--int64-up-to 1000]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sdf_bridge.description import load  # noqa: E402  (after the path is set)
from sdf_bridge.hardware import HardwareSystem  # noqa: E402
from sdf_bridge.hardware.holds import coupling  # noqa: E402


def chain(n: int) -> str:
    """A URDF chain of ``n`` revolute joints."""
    parts = ['<robot name="chain"><link name="l0"/>']
    parts += [f'<link name="l{i}"/><joint name="j{i}" type="revolute"><parent link="l{i - 1}"/><child link="l{i}"/>'
              '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>' for i in range(1, n + 1)]
    return "".join(parts) + "</robot>"


def timed(function, repeat: int) -> float:
    """Median wall time of ``repeat`` calls, s."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Parse the arguments and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--joints", type=int, nargs="+", default=[500, 1000, 2000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--int64-up-to", type=int, default=1000,
                        help="largest N for the int64 peer (2000 takes over a minute)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'N':>5} {'construction s':>15} {'coupling s':>11} {'peer int64 s':>13} {'peer float64 s':>15}")
    for n in args.joints:
        robot = load(chain(n))
        HardwareSystem(robot, "mock", update_rate=100.0, timed=False)  # kernels compiled / loaded once
        build = timed(lambda: HardwareSystem(robot, "mock", update_rate=100.0, timed=False), args.repeat)
        dependency = HardwareSystem(robot, "mock", timed=False).transmissions.dependency
        sharing = timed(lambda: coupling(dependency), args.repeat)
        as_float = dependency.astype(float)
        peer_float = timed(lambda: as_float.T @ as_float > 0, args.repeat)
        peer_int = "-"
        if n <= args.int64_up_to:
            as_int = dependency.astype(np.int64)
            peer_int = f"{timed(lambda: as_int.T @ as_int > 0, 1):.3f}"
        print(f"{n:>5} {build:>15.3f} {sharing:>11.4f} {peer_int:>13} {peer_float:>15.3f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
