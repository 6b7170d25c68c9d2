"""Real-time factor of the MuJoCo backend: physics alone, with the bridge loop, with ROS.

Robots: the demo arm (``urdf/demo_arm.urdf.xacro``) and the largest shared robot (pr2, from
``$SDF_BRIDGE_SHARED`` or ``../shared``). Physics at 1 kHz (timestep 1 ms), bridge at 100 Hz
(10 physics steps per cycle), every joint commanded to hold its position. Levels:

1. ``physics``: ``mujoco.mj_step(model, data, 10)`` per cycle on the backend's model
   (MuJoCo's own stepping cost, PID actuators and MuJoCo sensors included); ``physics-0s``: the
   same on the model built without the robot's sensors;
2. ``backend-0s``: :meth:`MujocoBackend.write` + :meth:`MujocoBackend.read` per cycle (the
   joint-space port), the robot's sensors removed (PID bookkeeping, state gathering and its
   mapping to actuator space: the backend's own overhead, compared with ``physics-0s``);
   ``backend``: the same with the robot's sensors (ray casting, contacts, IMU, F/T);
3. ``bridge``: :meth:`HardwareSystem.run_cycles` (limits, watchdog, command buffer as well; untimed,
   as the node builds it: its loop times the ticks), every sensor read when due; ``bridge-od``: the
   same with sensors on demand and none demanded (:meth:`HardwareSystem.set_sensor_demand`), which
   is what the node does for the sensors nobody subscribes to (as Gazebo's sensor plugins);
4. ``casting``: the robot's ray and range sensors read when due (``SensorSuite.read_due``
   with only them demanded, the state held, no stepping): what MuJoCo's ray casting
   (``mj_multiRay``) of its lasers costs per cycle at their update rates, part of ``bridge``
   but not the bridge's own work; printed with the bridge overhead without it (robots
   with rays only);
5. ``bridge+ros``: :meth:`BridgeNode.cycle` with joint_states, actuator_states, /clock and
   diagnostics published at 100 Hz, sensors on demand with no subscriber (the node's demand
   check run once after the first tick, as its timer does within 0.5 s) (rclpy,
   ``ROS_DOMAIN_ID`` from the environment, default 17, discovery on localhost).

Each level runs ``--seconds`` simulated on a fresh instance, timed in chunks of 10 cycles (0.1 s
simulated, which holds every sensor period of the robots here); the levels run in turn, and
that ``--repeat`` times, so that load bursts hit every level. The machine may be shared, so a
level's cost per cycle is its fastest chunk (the least disturbed; the median chunk is printed
too). Printed per level: that cost in µs per cycle and the real-time factor it gives (simulated
s / wall s), and the overhead over its physics peer measured in the same run (``physics-0s``
for ``backend-0s``, else ``physics``) in µs per cycle and in % of the peer's stepping cost;
then per robot MuJoCo's stepping cost and the bridge's overhead over it; the load average
before and after.

Targets: bridge overhead < 20 % of MuJoCo's stepping cost (printed for both bridge levels); ≥ 5×
real time for the demo with ROS publishing. Cameras are off (``render_cameras: false``); pr2's
camera rendering alone costs far more than its physics (software GL) and is reported separately with
``--cameras``.

Run: ``python bench/sim.py [--seconds 2] [--repeat 3] [--cameras] [--no-ros] [--robot pr2]``
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("ROS_DOMAIN_ID", "17")
os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")

import mujoco
import numpy as np

from sdf_bridge.backends.base import MODE_DTYPE, JointCommand, Mode
from sdf_bridge.backends.mujoco import MujocoBackend
from sdf_bridge.description import load
from sdf_bridge.hardware import HardwareSystem
from sdf_bridge.transmissions import TransmissionMap

DT = 0.01
CHUNK = 10  # cycles timed together (0.1 s simulated)
SHARED = Path(os.environ.get("SDF_BRIDGE_SHARED", REPO.parent / "shared"))
ROBOTS = {
    "demo_arm": REPO / "urdf" / "demo_arm.urdf.xacro",
    "pr2": SHARED / "robots" / "pr2" / "pr2.urdf",
}


def _params(cameras: bool) -> dict:
    return {"timestep": 0.001, "render_cameras": cameras}


Level = tuple[Callable[[int], None], Callable[[], None]]
"""A prepared level: ``run(k)`` runs ``k`` cycles, ``close()`` releases it."""


def _chunks(cycles: int) -> list[int]:
    """Chunk sizes (cycles) covering ``cycles``: :data:`CHUNK` each, the rest last."""
    sizes = [CHUNK] * (cycles // CHUNK)
    if cycles % CHUNK:
        sizes.append(cycles % CHUNK)
    return sizes


def physics_level(robot, cameras: bool, sensors: bool = True) -> Level:
    """Physics alone: ``mujoco.mj_step(model, data, 10)`` per cycle on the backend's
    model (``sensors=False``: built without the robot's sensors)."""
    if not sensors:
        robot = dataclasses.replace(robot, sensors=())
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend()
    backend.configure(robot, transmissions=tm, params=_params(cameras))
    model, data = backend.model, backend.data

    def run(k: int) -> None:
        for _ in range(k):
            # nstep positional, as the backend calls it (a keyword costs ~1 µs)
            mujoco.mj_step(model, data, 10)

    return run, backend.close


def backend_level(robot, cameras: bool, sensors: bool = True) -> Level:
    """Backend read + write per cycle (hold command); ``sensors=False`` simulates the robot
    without its sensors (to separate sensing from bridge overhead)."""
    if not sensors:
        robot = dataclasses.replace(robot, sensors=())
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend()
    backend.configure(robot, transmissions=tm, params=_params(cameras))
    n = len(tm.actuator_names)
    hold = backend.read(DT).joints[0, :n].copy()
    command = JointCommand(
        np.stack((hold, np.full(n, math.nan), np.full(n, math.nan))),
        np.full(n, Mode.POSITION, dtype=MODE_DTYPE),
        np.full(n, math.nan),
    )

    def run(k: int) -> None:
        for _ in range(k):
            backend.write(command, DT)
            backend.read(DT)

    return run, backend.close


def bridge_level(robot, cameras: bool, on_demand: bool = False) -> Level:
    """HardwareSystem cycles (commands held by the system); ``on_demand``: no sensor demanded
    after the first read."""
    # untimed, as the node builds it (its loop times the ticks: sdf_bridge.hardware.loop)
    hw = HardwareSystem(
        robot, "mujoco", command_timeout=0.0, backend_params=_params(cameras), timed=False
    )
    state = hw.read(0.0, DT)
    if on_demand:
        hw.set_sensor_demand(())
    hw.submit_array("position", _commandable(hw, state), 0.0)
    now = [0.0]

    def run(k: int) -> None:
        now[0] = hw.run_cycles(k, DT, now[0])

    return run, hw.close


def casting_level(robot, cameras: bool) -> Level:
    """The robot's ray / range sensors read when due, nothing else (the state held)."""
    tm = TransmissionMap.from_robot(robot)
    backend = MujocoBackend()
    backend.configure(robot, transmissions=tm, params=_params(cameras))
    suite = backend.sensors
    suite.set_demand(frozenset(s.name for s in robot.sensors if s.type in RAY_TYPES))
    now = [float(backend.data.time)]

    def run(k: int) -> None:
        for _ in range(k):
            now[0] += DT
            suite.read_due(now[0])

    return run, backend.close


RAY_TYPES = ("ray", "range")


def _commandable(hw: HardwareSystem, state) -> np.ndarray:
    index = {name: k for k, name in enumerate(state.names)}
    return np.array([state.position[index[j]] for j in hw.joint_names])


def ros_level(path: Path, cameras: bool) -> Level:
    """BridgeNode cycles publishing at 100 Hz."""
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
    node = BridgeNode(
        start=False, node_name="sdf_bridge_bench", context=context, parameter_overrides=overrides
    )
    node.cycle(0)  # the first readings create the sensor topics; nobody subscribes: none demanded
    node._update_sensor_demand()  # (what the node's timer does within SENSOR_DEMAND_PERIOD)
    tick = [1]

    def run(k: int) -> None:
        for _ in range(k):
            node.cycle(tick[0])
            tick[0] += 1

    def close() -> None:
        node.shutdown()
        node.destroy_node()
        rclpy.shutdown(context=context)

    return run, close


def measure(make: Callable[[], Level], seconds: float) -> np.ndarray:
    """Per-cycle wall time (s) of each chunk of ``seconds`` simulated on a fresh level."""
    run, close = make()
    try:
        walls = []
        for size in _chunks(int(round(seconds / DT))):
            start = time.perf_counter()
            run(size)
            walls.append((time.perf_counter() - start) / size)
        return np.array(walls)
    finally:
        close()


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # not available on this platform
        return "n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="simulated seconds per measurement"
    )
    parser.add_argument("--cameras", action="store_true", help="render camera sensors")
    parser.add_argument("--no-ros", action="store_true", help="skip the ROS level")
    parser.add_argument(
        "--robot", choices=sorted(ROBOTS), action="append", help="only these robots"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="runs per level, interleaved; the fastest "
        "chunk of all is kept (the machine is shared: the minimum is the least disturbed)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    print(
        f"physics 1 kHz, bridge 100 Hz, {args.seconds:g} s simulated per level and run, "
        f"{max(1, args.repeat)} run(s), chunks of {CHUNK} cycles, cameras "
        f"{'on' if args.cameras else 'off'}"
    )
    print(f"load average at start: {_load()}")
    print(
        f"{'robot':10} {'level':11} {'µs/cycle':>9} {'median':>8} {'RTF':>7} {'overhead µs':>12} "
        f"{'% of peer':>10}  peer"
    )
    for name, path in ROBOTS.items():
        if args.robot and name not in args.robot:
            continue
        robot = load(path)
        makers = {
            "physics": lambda: physics_level(robot, args.cameras),
            "physics-0s": lambda: physics_level(robot, args.cameras, sensors=False),
            "backend-0s": lambda: backend_level(robot, args.cameras, sensors=False),
            "backend": lambda: backend_level(robot, args.cameras),
            "bridge": lambda: bridge_level(robot, args.cameras),
            "bridge-od": lambda: bridge_level(robot, args.cameras, on_demand=True),
        }
        rays = any(sensor.type in RAY_TYPES for sensor in robot.sensors)
        if rays:
            makers["casting"] = lambda: casting_level(robot, args.cameras)
        if not args.no_ros:
            makers["bridge+ros"] = lambda: ros_level(path, args.cameras)
        samples: dict[str, list[np.ndarray]] = {level: [] for level in makers}
        for _ in range(max(1, args.repeat)):  # interleaved, so that load bursts hit every level
            for level, make in makers.items():
                samples[level].append(measure(make, args.seconds))
        best = {level: 1e6 * float(np.min(np.concatenate(s))) for level, s in samples.items()}
        for level, cost in best.items():
            median = 1e6 * float(np.median(np.concatenate(samples[level])))
            peer = (
                None
                if level.startswith("physics") or level == "casting"
                else "physics-0s"
                if level == "backend-0s"
                else "physics"
            )
            extra = ""
            if peer is not None:
                over = cost - best[peer]
                extra = f"{over:12.1f} {100.0 * over / best[peer]:+9.1f}%  {peer}"
            # (no simulated time passes)
            rtf = "" if level == "casting" else f"{1e6 * DT / cost:.1f}"
            print(f"{name:10} {level:11} {cost:9.1f} {median:8.1f} {rtf:>7} {extra}")
        stepping = best["physics"]
        for level, what in (
            ("bridge", "every sensor read"),
            ("bridge-od", "sensors on demand, none subscribed"),
        ):
            over = best[level] - stepping
            print(
                f"{name:10} MuJoCo stepping {stepping:.1f} µs/cycle; bridge overhead ({what}) "
                f"{over:.1f} µs/cycle = {100.0 * over / stepping:.1f} % of it (target < 20 %)"
            )
        if rays:
            cast = best["casting"]
            over = best["bridge"] - stepping - cast
            print(
                f"{name:10} of which MuJoCo's ray casting for the lasers {cast:.1f} µs/cycle; "
                f"bridge overhead without it (every sensor read) {over:.1f} µs/cycle = "
                f"{100.0 * over / stepping:.1f} %"
            )
    print(f"load average at end: {_load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
