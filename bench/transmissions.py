"""Cost of one control cycle of the transmission + limits engine.

One cycle = ``actuator_to_joint`` (state: position, velocity, effort) + ``followers`` +
``JointLimiter.enforce`` + ``joint_to_actuator`` (commands, three interfaces). Limiting is timed
with commands on all three interfaces within the limits (the usual cycle), position commands
only, and every command beyond a limit (clamps counted per joint and reason). Robots of 10, 100
and 1,000 joints, mixed: 40 % SimpleTransmission (reductions, offsets), 30 % Differential
pairs, 30 % FourBar pairs, every joint with position/velocity/effort limits and every tenth
with soft limits, plus n/10 mimic followers. Target: < 20 µs at 100 joints and linear growth.
Each cost is also given in plain numpy ufunc calls on the same machine in the same run (the
peer: ``np.add`` on (n,) arrays), so that numbers compare across machines and loads. The
per-step table adds ``a→j+f``: ``actuator_to_joint_with_followers`` (both state steps in one
call, as ``HardwareSystem.read`` needs them).

Also: ``HardwareSystem.run_cycles`` (read + write with the mock backend) for the demo arm and
a generated 100-joint robot.

Run: ``python bench/transmissions.py`` (prints µs per cycle; no assertions). On a machine with
``OPENBLAS_CORETYPE`` set, numpy may be slower: ``env -u OPENBLAS_CORETYPE python bench/...``.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sdf_bridge.description.model import (
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
from sdf_bridge.limits import JointLimiter
from sdf_bridge.transmissions import TransmissionMap


def make_robot(n: int) -> Robot:
    """A chain of ``n`` revolute joints (plus n/10 mimic followers), mixed transmissions."""
    links = {"l0": Link("l0")}
    joints = {}
    trans = []
    k = 0
    i = 0
    while i < n:
        kind = (
            "simple",
            "simple",
            "simple",
            "simple",
            "diff",
            "diff",
            "diff",
            "four",
            "four",
            "four",
        )[k % 10]
        width = 1 if kind == "simple" or i + 1 >= n else 2
        names = [f"j{i + w}" for w in range(width)]
        for name in names:
            idx = len(joints)
            links[f"l{idx + 1}"] = Link(f"l{idx + 1}")
            sc = SafetyController(10.0, -1.5, 1.5, 20.0) if idx % 10 == 0 else None
            joints[name] = Joint(
                name,
                JointType.REVOLUTE,
                f"l{idx}",
                f"l{idx + 1}",
                axis=Axis((0, 0, 1)),
                limit=Limit(-2.0, 2.0, 50.0, 3.0),
                safety_controller=sc,
            )
        if width == 1:
            trans.append(
                Transmission(
                    f"t{k}",
                    "transmission_interface/SimpleTransmission",
                    "classic",
                    joints=(TransmissionJoint(names[0], offset=0.1),),
                    actuators=(TransmissionActuator(f"m{k}", None, 50.0),),
                )
            )
        else:
            ttype = (
                "transmission_interface/DifferentialTransmission"
                if kind == "diff"
                else "transmission_interface/FourBarLinkageTransmission"
            )
            trans.append(
                Transmission(
                    f"t{k}",
                    ttype,
                    "ros2_control",
                    joints=(
                        TransmissionJoint(names[0], "joint1", 1.0, 0.0),
                        TransmissionJoint(names[1], "joint2", 2.0, 0.1),
                    ),
                    actuators=(
                        TransmissionActuator(f"m{k}a", "actuator1", 30.0),
                        TransmissionActuator(f"m{k}b", "actuator2", 40.0),
                    ),
                )
            )
        i += width
        k += 1
    for f in range(n // 10):
        idx = len(joints)
        links[f"l{idx + 1}"] = Link(f"l{idx + 1}")
        joints[f"f{f}"] = Joint(
            f"f{f}",
            JointType.REVOLUTE,
            f"l{idx}",
            f"l{idx + 1}",
            axis=Axis((0, 0, 1)),
            limit=Limit(-9.0, 9.0, 50.0, 9.0),
            mimic=Mimic(f"j{f}", -1.0, 0.1),
        )
    return Robot(f"bench{n}", links=links, joints=joints, transmissions=tuple(trans))


MEDIAN: dict[str, float] = {}
"""Median µs of the last :func:`_best_us` call (key ``"last"``), printed beside the minimum."""


def _best_us(fn: Callable[[], object], reps: int, batches: int = 200) -> float:
    """Cost of ``fn`` in µs: the minimum over ``batches`` short batches of ``reps`` calls (a
    short batch is rarely interrupted, so the minimum is the cost of the code rather than of
    the machine's other load), timed with ``time.perf_counter_ns``; the median of the batches
    is kept in :data:`MEDIAN`."""
    per_call = []
    for _ in range(batches):
        t0 = time.perf_counter_ns()
        for _ in range(reps):
            fn()
        per_call.append((time.perf_counter_ns() - t0) / reps)
    MEDIAN["last"] = float(np.median(per_call)) / 1000.0
    return min(per_call) / 1000.0


SIZES = (10, 100, 1000)
MODES = ("all", "position", "clamping")


def _setup(n: int):
    """Robot, map, limiter and actuator state for ``n`` joints."""
    robot = make_robot(n)
    tmap = TransmissionMap.from_robot(robot)
    lim = JointLimiter.from_robot(robot, tmap.joint_names)
    rng = np.random.default_rng(0)
    qa, va, ta = (rng.normal(size=len(tmap.actuator_names)) * 0.01 for _ in range(3))
    return robot, tmap, lim, (qa, va, ta)


def _commands(tmap: TransmissionMap, q0: np.ndarray, mode: str):
    m = len(tmap.joint_names)
    nan = np.full(m, np.nan)
    if mode == "clamping":
        return np.full(m, 5.0), np.full(m, 5.0), np.full(m, 80.0)
    return (
        q0 + 1e-4,
        nan if mode == "position" else np.full(m, 0.1),
        nan if mode == "position" else np.full(m, 1.0),
    )


def bench(n: int, mode: str) -> float:
    """µs per cycle. ``mode``: ``all`` (commands on all three interfaces, within limits),
    ``position`` (position commands only, within limits) or ``clamping`` (all three
    interfaces, every command beyond a limit: the counting path)."""
    _, tmap, lim, (qa, va, ta) = _setup(n)
    q0, _, _ = tmap.actuator_to_joint(qa, va, ta)
    cp, cv, ce = _commands(tmap, q0, mode)
    dt = 0.001

    def cycle() -> None:
        q, v, e = tmap.actuator_to_joint(qa, va, ta)
        tmap.followers(q, v, e)
        p, vv, ee = lim.enforce(q, v, cp, cv, ce, dt)
        tmap.joint_to_actuator(p, vv, ee)

    return _best_us(cycle, reps=20 if n <= 100 else 5)


def parts(n: int) -> dict[str, float]:
    """µs of each step alone (commands on all three interfaces, within limits), and of the
    fused state step ``a→j+f`` (:meth:`TransmissionMap.actuator_to_joint_with_followers`)."""
    _, tmap, lim, (qa, va, ta) = _setup(n)
    q, v, e = tmap.actuator_to_joint(qa, va, ta)
    cp, cv, ce = _commands(tmap, q, "all")
    steps = {
        "a→j": lambda: tmap.actuator_to_joint(qa, va, ta),
        "followers": lambda: tmap.followers(q, v, e),
        "enforce": lambda: lim.enforce(q, v, cp, cv, ce, 0.001),
        "j→a": lambda: tmap.joint_to_actuator(q, v, e),
        "a→j+f": lambda: tmap.actuator_to_joint_with_followers(qa, va, ta),
    }
    return {
        name: _best_us(fn, reps=20 if n <= 100 else 5, batches=100) for name, fn in steps.items()
    }


def numpy_call_us(n: int) -> float:
    """Cost of one plain numpy ufunc call on (n,) arrays (``np.add(a, b, out=c)``): the unit
    that makes cycle costs comparable across machines and loads."""
    a, b, c = np.ones(n), np.ones(n), np.empty(n)
    return _best_us(lambda: np.add(a, b, out=c), reps=50)


def system_cycle(robot: Robot) -> tuple[float, int]:
    """µs per ``HardwareSystem.run_cycles`` cycle (read + write, mock backend, position
    commands held, watchdog fed) and the number of commandable joints."""
    from sdf_bridge.hardware import HardwareSystem

    logging.disable(logging.WARNING)
    try:
        system = HardwareSystem(robot, "mock")
    finally:
        logging.disable(logging.NOTSET)
    system.run_cycles(5, 0.001)
    system.submit_array("position", np.full(len(system.joint_names), 0.01), 0.0)
    now = [0.0]

    def cycles() -> None:
        now[0] = system.run_cycles(10, 0.001, now[0])
        system.commands.last_command_time = now[0]  # keep the watchdog quiet

    return _best_us(cycles, reps=1, batches=200) / 10.0, len(system.joint_names)


def _measure_system() -> dict[str, list[float]]:
    """``{label: [µs per cycle, median µs, joints]}`` of :func:`system_cycle` for the demo arm
    and the generated 100-joint robot."""
    demo = Path(__file__).resolve().parents[1] / "urdf" / "demo_arm.urdf.xacro"
    from sdf_bridge.description import load as load_description

    out = {}
    for label, robot in (("demo_arm", load_description(demo)), ("generated 100", make_robot(100))):
        us, joints = system_cycle(robot)
        out[label] = [us, MEDIAN["last"] / 10.0, joints]
    return out


def main() -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"load average {load:.2f} on {os.cpu_count()} CPUs; each number is the minimum over "
        "short batches (robust to load, still inflated on a busy machine)"
    )
    unit = {n: numpy_call_us(n) for n in SIZES}
    print(
        "\none full cycle (a→j + followers + limits + j→a); 'calls' = cycle cost in plain "
        "numpy ufunc calls on the same machine (the peer: np.add on (n,) arrays)"
    )
    print(
        f"{'joints':>6}  {'mode':<9} {'µs/cycle':>9} {'median':>7} {'µs/joint':>9} "
        f"{'numpy call µs':>14} {'calls':>6}"
    )
    for n in SIZES:
        for mode in MODES:
            us = bench(n, mode)
            med = MEDIAN["last"]
            print(
                f"{n:6d}  {mode:<9} {us:9.1f} {med:7.1f} {us / n:9.3f} "
                f"{unit[n]:14.2f} {us / unit[n]:6.0f}"
            )
    print("\nper step, µs (all interfaces, within limits; a→j+f = a→j and followers in one call):")
    for n in SIZES:
        steps = parts(n)
        print(f"{n:6d}  " + "  ".join(f"{k} {v:.1f}" for k, v in steps.items()))
    print(
        "\nHardwareSystem.run_cycles, mock backend, µs per cycle (read + write, with timing and "
        "lock; position commands held):"
    )
    for label, (us, med, joints) in _measure_system().items():
        print(f"  {label:<14} {joints:4d} joints  {us:7.1f} µs (median {med:.1f})")


if __name__ == "__main__":
    main()
