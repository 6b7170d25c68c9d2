"""Real-time factor of the MuJoCo backend: physics alone, with the bridge loop, with ROS.

Robots: the demo arm (``urdf/demo_arm.urdf.xacro``) and the largest shared robot (pr2, from
``$SDF_BRIDGE_SHARED`` or ``../shared``). Physics at 1 kHz (timestep 1 ms), bridge at 100 Hz
(10 physics steps per cycle), every joint commanded to hold its position. Levels:

1. ``physics``: ``mujoco.mj_step(model, data, nstep=10)`` per cycle on the backend's model
   (MuJoCo's own stepping cost, PID actuators included);
2. ``backend-0s``: :meth:`MujocoBackend.read` + :meth:`MujocoBackend.write` per cycle, the
   robot's sensors removed (transmission mapping and PID bookkeeping: the backend's own
   overhead); ``backend``: the same with the robot's sensors (ray casting, contacts, IMU, F/T);
3. ``bridge``: :meth:`HardwareSystem.run_cycles` (limits, watchdog, command buffer as well);
4. ``bridge+ros``: :meth:`BridgeNode.cycle` with joint_states, actuator_states, sensors,
   /clock and diagnostics published at 100 Hz (rclpy, ``ROS_DOMAIN_ID`` from the environment,
   default 17, discovery on localhost).

Prints the real-time factor (simulated s / wall s) and the overhead of each level over
``physics``. Targets: bridge overhead < 20 % of MuJoCo's stepping cost; ≥ 5× real time for the
demo with ROS publishing. Cameras are off (``render_cameras: false``); pr2's camera rendering
alone costs far more than its physics (software GL) and is reported separately with ``--cameras``.

Run: ``python bench/sim.py [--seconds 5] [--repeat 3] [--cameras] [--no-ros] [--robot pr2]``
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import math
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("ROS_DOMAIN_ID", "17")
os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")

import mujoco  # noqa: E402
import numpy as np  # noqa: E402

from sdf_bridge.backends.base import ActuatorCommand  # noqa: E402
from sdf_bridge.backends.mujoco import MujocoBackend  # noqa: E402
from sdf_bridge.description import load  # noqa: E402
from sdf_bridge.hardware import HardwareSystem  # noqa: E402
from sdf_bridge.transmissions import TransmissionMap  # noqa: E402

DT = 0.01
SHARED = Path(os.environ.get("SDF_BRIDGE_SHARED", REPO.parent / "shared"))
ROBOTS = {
    "demo_arm": REPO / "urdf" / "demo_arm.urdf.xacro",
    "pr2": SHARED / "robots" / "pr2" / "pr2.urdf",
}


def _params(cameras: bool) -> dict:
    return {"timestep": 0.001, "render_cameras": cameras}


def bench_physics(robot, seconds: float, cameras: bool) -> float:
    """Wall time of ``seconds`` of physics alone (MuJoCo stepping, 10 steps per call)."""
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend()
    backend.configure(robot, tm.actuator_names, transmissions=tm, params=_params(cameras))
    model, data = backend.model, backend.data
    cycles = int(round(seconds / DT))
    start = time.perf_counter()
    for _ in range(cycles):
        mujoco.mj_step(model, data, nstep=10)
    wall = time.perf_counter() - start
    backend.close()
    return wall


def bench_backend(robot, seconds: float, cameras: bool, sensors: bool = True) -> float:
    """Wall time of ``seconds`` of backend read + write cycles (hold command); ``sensors=False``
    simulates the robot without its sensors (to separate sensing from bridge overhead)."""
    if not sensors:
        robot = dataclasses.replace(robot, sensors=())
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend()
    backend.configure(robot, tm.actuator_names, transmissions=tm, params=_params(cameras))
    n = len(tm.actuator_names)
    hold = backend.read(DT).position.copy()
    command = ActuatorCommand(hold, np.full(n, math.nan), np.full(n, math.nan))
    cycles = int(round(seconds / DT))
    start = time.perf_counter()
    for _ in range(cycles):
        backend.read(DT)
        backend.write(command, DT)
    wall = time.perf_counter() - start
    backend.close()
    return wall


def bench_bridge(robot, seconds: float, cameras: bool) -> float:
    """Wall time of ``seconds`` of HardwareSystem cycles (commands held by the system)."""
    hw = HardwareSystem(robot, "mujoco", command_timeout=0.0, backend_params=_params(cameras))
    state = hw.read(0.0, DT)
    hw.submit_array("position", _commandable(hw, state), 0.0)
    cycles = int(round(seconds / DT))
    start = time.perf_counter()
    hw.run_cycles(cycles, DT)
    wall = time.perf_counter() - start
    hw.close()
    return wall


def _commandable(hw: HardwareSystem, state) -> np.ndarray:
    index = {name: k for k, name in enumerate(state.names)}
    return np.array([state.position[index[j]] for j in hw.joint_names])


def bench_ros(path: Path, seconds: float, cameras: bool) -> float:
    """Wall time of ``seconds`` of BridgeNode cycles publishing at 100 Hz."""
    import rclpy
    from rclpy.parameter import Parameter

    from sdf_bridge.ros.node import BridgeNode

    context = rclpy.Context()
    rclpy.init(context=context)
    overrides = [
        Parameter("backend", value="mujoco"),
        Parameter("description_file", value=str(path)),
        Parameter("update_rate", value=100.0),
        Parameter("publish_rate", value=100.0),
        Parameter("command_timeout", value=0.0),
        Parameter("backend_params.timestep", value=0.001),
        Parameter("backend_params.render_cameras", value=cameras),
    ]
    node = BridgeNode(start=False, node_name="sdf_bridge_bench", context=context, parameter_overrides=overrides)
    try:
        cycles = int(round(seconds / DT))
        start = time.perf_counter()
        for k in range(cycles):
            node.cycle(k)
        return time.perf_counter() - start
    finally:
        node.shutdown()
        node.destroy_node()
        rclpy.shutdown(context=context)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="simulated seconds per measurement")
    parser.add_argument("--cameras", action="store_true", help="render camera sensors")
    parser.add_argument("--no-ros", action="store_true", help="skip the ROS level")
    parser.add_argument("--robot", choices=sorted(ROBOTS), action="append", help="only these robots")
    parser.add_argument("--repeat", type=int, default=3, help="runs per level; the fastest is kept "
                        "(the machine is shared: the minimum is the least disturbed)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    print(f"physics 1 kHz, bridge 100 Hz, {args.seconds:g} s simulated per level, cameras "
          f"{'on' if args.cameras else 'off'}")
    print(f"{'robot':10} {'level':11} {'wall s':>8} {'RTF':>8} {'µs/cycle':>9} {'overhead vs physics':>20}")
    for name, path in ROBOTS.items():
        if args.robot and name not in args.robot:
            continue
        robot = load(path)
        levels = {
            "physics": lambda: bench_physics(robot, args.seconds, args.cameras),
            "backend-0s": lambda: bench_backend(robot, args.seconds, args.cameras, sensors=False),
            "backend": lambda: bench_backend(robot, args.seconds, args.cameras),
            "bridge": lambda: bench_bridge(robot, args.seconds, args.cameras),
        }
        if not args.no_ros:
            levels["bridge+ros"] = lambda: bench_ros(path, args.seconds, args.cameras)
        walls = {level: float("inf") for level in levels}
        for _ in range(max(1, args.repeat)):  # interleaved, so that load bursts hit every level
            for level, run in levels.items():
                walls[level] = min(walls[level], run())
        base = walls["physics"]
        for level, wall in walls.items():
            overhead = "" if level == "physics" else f"{100.0 * (wall - base) / base:+.1f} %"
            per_cycle = 1e6 * wall / (args.seconds / DT)
            print(f"{name:10} {level:11} {wall:8.3f} {args.seconds / wall:8.1f} {per_cycle:9.0f} {overhead:>20}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
