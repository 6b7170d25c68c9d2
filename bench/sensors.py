"""Per-cycle cost of the MuJoCo backend's sensor reading (:meth:`SensorSuite.read_due`).

Robot: the demo arm (``urdf/demo_arm.urdf.xacro``: a noisy IMU and a force-torque sensor, both
100 Hz), physics at 1 kHz, 0.5 s simulated first. Each timed call makes every sensor due (sets
its ``next_due`` to the current time) and reads: ``schedule only`` is that setting alone (the
peer subtracted), ``read_due`` reads without looking at the values (IMU and force-torque are
converted on access, see :mod:`sdf_bridge.backends.mujoco.samplers`), ``read_due + access``
converts every value as a publisher would. Printed: the best of ``--repeat`` runs of
``--number`` calls in µs per call, net of the peer, and the load average before and after.

Run: ``python bench/sensors.py [--number 3000] [--repeat 5]``
"""

from __future__ import annotations

import argparse
import os
import sys
import timeit
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sdf_bridge.backends.mujoco import MujocoBackend
from sdf_bridge.description import load
from sdf_bridge.transmissions import TransmissionMap


def main() -> None:
    """Parse the arguments, build the demo arm, print the costs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=3000, help="calls per timed run")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs (the best is printed)")
    args = parser.parse_args()
    robot = load(REPO / "urdf" / "demo_arm.urdf.xacro")
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend()
    backend.configure(robot, transmissions=tm, params={"timestep": 0.001, "render_cameras": False})
    for _ in range(50):
        backend.read(0.01)
    suite, data = backend.sensors, backend.data
    assert suite is not None and data is not None
    channels = suite.channels

    def schedule() -> None:
        for ch in channels:
            ch.next_due = data.time

    def read() -> None:
        schedule()
        suite.read_due(data.time)

    def read_access() -> None:
        schedule()
        for _ in suite.read_due(data.time).values():
            pass

    def best(fn) -> float:
        return min(timeit.repeat(fn, number=args.number, repeat=args.repeat)) / args.number * 1e6

    print(
        f"sensors: {[(ch.sensor.name, ch.sensor.type) for ch in channels]}; load before "
        f"{os.getloadavg()}"
    )
    peer = best(schedule)
    print(f"schedule only      {peer:6.2f} µs")
    print(f"read_due           {best(read) - peer:6.2f} µs (net)")
    print(f"read_due + access  {best(read_access) - peer:6.2f} µs (net)")
    print(f"load after {os.getloadavg()}")
    backend.close()


if __name__ == "__main__":
    main()
