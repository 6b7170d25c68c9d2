"""Cost of one control cycle of the transmission + limits engine.

One cycle = ``actuator_to_joint`` (state: position, velocity, effort) + ``followers`` +
``JointLimiter.enforce`` + ``joint_to_actuator`` (commands, three interfaces). Limiting is timed
with commands on all three interfaces within the limits (the usual cycle), position commands
only, and every command beyond a limit (clamps counted per joint and reason). Robots of 10, 100 and 1,000 joints, mixed:
40 % SimpleTransmission (reductions, offsets), 30 % Differential pairs, 30 % FourBar pairs, every
joint with position/velocity/effort limits and every tenth with soft limits. Target: < 20 µs at
100 joints and linear growth.

Run: ``python bench/transmissions.py`` (prints µs per cycle; no assertions).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sdf_bridge.description.model import (  # noqa: E402
    Axis,
    Joint,
    JointType,
    Limit,
    Link,
    Mimic,
    Robot,
    SafetyController,
    Transmission,
    TransmissionActuator,
    TransmissionJoint,
)
from sdf_bridge.limits import JointLimiter  # noqa: E402
from sdf_bridge.transmissions import TransmissionMap  # noqa: E402


def make_robot(n: int) -> Robot:
    """A chain of ``n`` revolute joints (plus n/10 mimic followers), mixed transmissions."""
    links = {"l0": Link("l0")}
    joints = {}
    trans = []
    k = 0
    i = 0
    while i < n:
        kind = ("simple", "simple", "simple", "simple", "diff", "diff", "diff", "four", "four", "four")[k % 10]
        width = 1 if kind == "simple" or i + 1 >= n else 2
        names = [f"j{i + w}" for w in range(width)]
        for name in names:
            idx = len(joints)
            links[f"l{idx + 1}"] = Link(f"l{idx + 1}")
            sc = SafetyController(10.0, -1.5, 1.5, 20.0) if idx % 10 == 0 else None
            joints[name] = Joint(name, JointType.REVOLUTE, f"l{idx}", f"l{idx + 1}", axis=Axis((0, 0, 1)),
                                 limit=Limit(-2.0, 2.0, 50.0, 3.0), safety_controller=sc)
        if width == 1:
            trans.append(Transmission(f"t{k}", "transmission_interface/SimpleTransmission", "classic",
                                      joints=(TransmissionJoint(names[0], offset=0.1),),
                                      actuators=(TransmissionActuator(f"m{k}", None, 50.0),)))
        else:
            ttype = ("transmission_interface/DifferentialTransmission" if kind == "diff"
                     else "transmission_interface/FourBarLinkageTransmission")
            trans.append(Transmission(
                f"t{k}", ttype, "ros2_control",
                joints=(TransmissionJoint(names[0], "joint1", 1.0, 0.0), TransmissionJoint(names[1], "joint2", 2.0, 0.1)),
                actuators=(TransmissionActuator(f"m{k}a", "actuator1", 30.0),
                           TransmissionActuator(f"m{k}b", "actuator2", 40.0)),
            ))
        i += width
        k += 1
    for f in range(n // 10):
        idx = len(joints)
        links[f"l{idx + 1}"] = Link(f"l{idx + 1}")
        joints[f"f{f}"] = Joint(f"f{f}", JointType.REVOLUTE, f"l{idx}", f"l{idx + 1}", axis=Axis((0, 0, 1)),
                                limit=Limit(-9.0, 9.0, 50.0, 9.0), mimic=Mimic(f"j{f}", -1.0, 0.1))
    return Robot(f"bench{n}", links=links, joints=joints, transmissions=tuple(trans))


def bench(n: int, mode: str, repeats: int = 20000) -> tuple[float, float]:
    """Best-of-7 (wall, CPU) µs per cycle. ``mode``: ``all`` (commands on all three
    interfaces, within limits), ``position`` (position commands only, within limits) or
    ``clamping`` (all three interfaces, every command beyond a limit: the counting path)."""
    robot = make_robot(n)
    tmap = TransmissionMap.from_robot(robot)
    lim = JointLimiter.from_robot(robot, tmap.joint_names)
    m = len(tmap.joint_names)
    rng = np.random.default_rng(0)
    qa, va, ta = (rng.normal(size=len(tmap.actuator_names)) * 0.01 for _ in range(3))
    q0, _, _ = tmap.actuator_to_joint(qa, va, ta)
    nan = np.full(m, np.nan)
    if mode == "clamping":
        cp, cv, ce = np.full(m, 5.0), np.full(m, 5.0), np.full(m, 80.0)
    else:
        cp = q0 + 1e-4
        cv = nan if mode == "position" else np.full(m, 0.1)
        ce = nan if mode == "position" else np.full(m, 1.0)
    dt = 0.001
    reps = max(200, repeats // max(1, n // 10))

    def cycle() -> None:
        q, v, e = tmap.actuator_to_joint(qa, va, ta)
        tmap.followers(q, v, e)
        p, vv, ee = lim.enforce(q, v, cp, cv, ce, dt)
        tmap.joint_to_actuator(p, vv, ee)

    for _ in range(200):
        cycle()
    best_wall = best_cpu = float("inf")
    for _ in range(7):
        w0, c0 = time.perf_counter(), time.process_time()
        for _ in range(reps):
            cycle()
        best_wall = min(best_wall, (time.perf_counter() - w0) / reps)
        best_cpu = min(best_cpu, (time.process_time() - c0) / reps)
    return best_wall * 1e6, best_cpu * 1e6


def parts(n: int, repeats: int = 20000) -> dict[str, float]:
    """CPU µs of each step alone (commands on all three interfaces, within limits)."""
    robot = make_robot(n)
    tmap = TransmissionMap.from_robot(robot)
    lim = JointLimiter.from_robot(robot, tmap.joint_names)
    m = len(tmap.joint_names)
    rng = np.random.default_rng(0)
    qa, va, ta = (rng.normal(size=len(tmap.actuator_names)) * 0.01 for _ in range(3))
    q, v, e = tmap.actuator_to_joint(qa, va, ta)
    cp, cv, ce = q + 1e-4, np.full(m, 0.1), np.full(m, 1.0)
    steps = {
        "actuator_to_joint": lambda: tmap.actuator_to_joint(qa, va, ta),
        "followers": lambda: tmap.followers(q, v, e),
        "enforce": lambda: lim.enforce(q, v, cp, cv, ce, 0.001),
        "joint_to_actuator": lambda: tmap.joint_to_actuator(q, v, e),
    }
    reps = max(200, repeats // max(1, n // 10))
    out = {}
    for name, fn in steps.items():
        best = float("inf")
        for _ in range(5):
            c0 = time.process_time()
            for _ in range(reps):
                fn()
            best = min(best, (time.process_time() - c0) / reps)
        out[name] = best * 1e6
    return out


def main() -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"one full cycle (a→j + followers + limits + j→a), µs; load average {load:.2f} "
          f"on {os.cpu_count()} CPUs (numbers inflate under load)")
    print(f"{'joints':>6}  {'mode':<9} {'wall µs':>8} {'cpu µs':>8}  {'µs/joint':>8}")
    for n in (10, 100, 1000):
        for mode in ("all", "position", "clamping"):
            wall, cpu = bench(n, mode)
            print(f"{n:6d}  {mode:<9} {wall:8.1f} {cpu:8.1f}  {cpu / n:8.3f}")
    print("\nper step, CPU µs (all interfaces, within limits):")
    for n in (10, 100, 1000):
        print(f"{n:6d}  " + "  ".join(f"{k} {v:.1f}" for k, v in parts(n).items()))


if __name__ == "__main__":
    main()
