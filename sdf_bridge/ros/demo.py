"""``sdf-bridge demo``: the bridge on the demo robot, commanded from a second process.

Steps: start ``python -m sdf_bridge.ros.main`` on the demo robot in a child process (own
``ROS_DOMAIN_ID`` unless one is set, discovery limited to localhost), wait for its
``joint_states``, then command through the bridge's inputs

1. a position on the joint of a SimpleTransmission with a reduction and an offset
   (``joint_commands``),
2. both joints of the wrist DifferentialTransmission (``joint_commands``),
3. a two-point trajectory on the joints of the FourBar transmission (``~/joint_trajectory``),
4. the gripper (the joint mimic fingers follow),

print after each step the joint states and the actuator states seen, with the reductions and
offsets that relate them, and stop the child with SIGINT. Exit code 0 when every step was seen
and the child stopped cleanly.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..description.coordinates import coordinate_joint
from ..description.model import Robot


@dataclass(frozen=True)
class DemoPlan:
    """Joints the demo commands (names of the demo robot; empty when the robot lacks one)."""

    simple: tuple[str, ...]
    differential: tuple[str, ...]
    trajectory: tuple[str, ...]
    gripper: tuple[str, ...]


def plan_for(robot: Robot) -> DemoPlan:
    """Pick the demo's joints from ``robot``'s transmissions and mimic joints: the first
    SimpleTransmission joint with a non-zero offset (else the first one), the joints of the first
    DifferentialTransmission and of the first FourBar, and the leader of the first mimic joint."""
    differential: tuple[str, ...] = ()
    fourbar: tuple[str, ...] = ()
    leaders = tuple(dict.fromkeys(j.mimic.joint for j in robot.joints.values() if j.mimic))
    simple_candidates: list[tuple[bool, str]] = []
    for tr in robot.transmissions:
        names = tuple(j.name for j in sorted(tr.joints, key=lambda j: j.role or ""))
        kind = tr.short_type
        if kind == "SimpleTransmission" and names and names[0] not in leaders:
            simple_candidates.append((not any(j.offset for j in tr.joints), names[0]))
        elif "Differential" in kind and not differential:
            differential = names
        elif "FourBar" in kind and not fourbar:
            fourbar = names
    simple = (min(simple_candidates, key=lambda c: c[0])[1],) if simple_candidates else ()
    return DemoPlan(simple, differential, fourbar, leaders[:1])


def target(robot: Robot, joint: str, fraction: float) -> float:
    """A position ``fraction`` of the way from the lower to the upper limit (continuous joints
    and unlimited ones: ``fraction`` rad − 0.5 rad), in rad or m."""
    view = coordinate_joint(robot, joint)
    limit = view.limit if view is not None else None
    if limit is None or limit.lower is None or limit.upper is None or limit.lower >= limit.upper:
        return fraction - 0.5
    return limit.lower + fraction * (limit.upper - limit.lower)


def _format_table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)
    ]
    line = "  ".join(h.ljust(w) for h, w in zip(header, widths))
    out = [title, line, "-" * len(line)]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join(out)


def _fmt(v: float) -> str:
    return "nan" if math.isnan(v) else f"{v:+.4f}"


def transmission_notes(robot: Robot) -> tuple[dict[str, str], dict[str, str]]:
    """Per joint and per actuator a short text "<Type> red R offset O" from the description
    (as written: ``red`` is that side's ``<mechanicalReduction>``, e.g. a four-bar's joint
    side 1 and its actuators 100 and 80; roles in brackets)."""
    joints: dict[str, str] = {}
    actuators: dict[str, str] = {}
    for tr in robot.transmissions:
        for j in tr.joints:
            red = "" if j.mechanical_reduction is None else f" red {j.mechanical_reduction:g}"
            joints[j.name] = f"{tr.short_type}{red} offset {j.offset:g}"
        for a in tr.actuators:
            red = "" if a.mechanical_reduction is None else f" red {a.mechanical_reduction:g}"
            actuators[a.name] = f"{tr.short_type}{red}"
    for j in robot.joints.values():
        if j.mimic:
            joints[j.name] = f"mimic of {j.mimic.joint} ×{j.mimic.multiplier:g} {j.mimic.offset:+g}"
    return joints, actuators


def _spin_until(node, executor, predicate, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        executor.spin_once(timeout_sec=0.05)
        if predicate():
            return True
    return False


def demo(argv: Sequence[str]) -> int:
    """Run the demo (module doc); returns the exit code."""
    parser = argparse.ArgumentParser(prog="sdf-bridge demo", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--robot",
        choices=("arm", "mobile"),
        default="arm",
        help="arm (default): the demo arm's transmissions; mobile: the wheel-legged robot in "
        "MuJoCo with a free-floating base (stands, drives, turns; --backend is mujoco)",
    )
    parser.add_argument("--backend", default="mock", help="mock (default) or mujoco")
    parser.add_argument(
        "--duration", type=float, default=1.5, metavar="S", help="seconds per step (default 1.5)"
    )
    ns = parser.parse_args(list(argv))

    env = os.environ.copy()
    env.setdefault("ROS_DOMAIN_ID", str(random.randint(100, 200)))
    env.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
    os.environ.update({k: env[k] for k in ("ROS_DOMAIN_ID", "ROS_AUTOMATIC_DISCOVERY_RANGE")})
    if ns.robot == "mobile":
        from .demo_mobile import demo_mobile

        return demo_mobile(ns.duration, env)

    from ..app.description_source import demo_description_file
    from ..description import load

    demo_file = demo_description_file()
    robot = load(demo_file)
    plan = plan_for(robot)
    joint_notes, actuator_notes = transmission_notes(robot)
    from ..transmissions import TransmissionMap

    transmissions = TransmissionMap.from_robot(robot)
    print(
        f"sdf-bridge demo: robot {robot.name!r} from {demo_file}, backend {ns.backend}, "
        f"ROS_DOMAIN_ID={env['ROS_DOMAIN_ID']}",
        flush=True,
    )

    argv = [
        sys.executable,
        "-m",
        "sdf_bridge.ros.main",
        "--ros-args",
        "-p",
        f"backend:={ns.backend}",
        "-p",
        "command_timeout:=0.0",
        "-p",
        "publish_rate:=50.0",
    ]
    return with_bridge(
        argv,
        env,
        lambda: _drive(plan, robot, (joint_notes, actuator_notes, transmissions), ns.duration),
    )


def with_bridge(argv: Sequence[str], env: dict[str, str], drive: Callable[[], bool]) -> int:
    """Run the bridge command ``argv`` as a child process with ``env``, then ``drive()`` (the
    demo's steps, True when every step was seen), then stop the child with SIGINT (killed after
    15 s). Returns the demo's exit code: 0 when ``drive`` succeeded and the child stopped
    cleanly, 130 when interrupted (Ctrl-C), else 1."""
    child = subprocess.Popen(list(argv), env=env)
    interrupted = False
    try:
        ok = drive()
    except KeyboardInterrupt:
        ok, interrupted = False, True
    except Exception as exc:
        from rclpy.executors import ExternalShutdownException

        if not isinstance(exc, ExternalShutdownException):
            raise
        ok, interrupted = False, True  # Ctrl-C reached rclpy's handler first
    finally:
        child.send_signal(signal.SIGINT)
        try:
            code = child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()
            code = child.wait()
    print(f"bridge stopped (exit code {code})", flush=True)
    if interrupted:
        print("demo interrupted", flush=True)
        return 130
    return 0 if ok and code == 0 else 1


def _drive(plan: DemoPlan, robot: Robot, notes: tuple, step_time: float) -> bool:
    import rclpy
    from builtin_interfaces.msg import Duration
    from rclpy.executors import SingleThreadedExecutor
    from sensor_msgs.msg import JointState
    from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

    from .node import RELIABLE_QOS

    rclpy.init(args=[])
    node = rclpy.create_node("sdf_bridge_demo")
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    seen: dict[str, JointState] = {}
    recent: dict[str, deque] = {"joints": deque(maxlen=50), "actuators": deque(maxlen=50)}

    def record(kind: str, msg: JointState) -> None:
        recent[kind].append(msg)
        # the newest joint/actuator pair published in the same cycle (same stamp)
        stamps = {(m.header.stamp.sec, m.header.stamp.nanosec): m for m in recent["actuators"]}
        for joints in reversed(recent["joints"]):
            actuators = stamps.get((joints.header.stamp.sec, joints.header.stamp.nanosec))
            if actuators is not None:
                seen["joints"], seen["actuators"] = joints, actuators
                return

    node.create_subscription(
        JointState, "joint_states", lambda m: record("joints", m), RELIABLE_QOS
    )
    node.create_subscription(
        JointState, "sdf_bridge/actuator_states", lambda m: record("actuators", m), RELIABLE_QOS
    )
    commands = node.create_publisher(JointState, "joint_commands", RELIABLE_QOS)
    trajectory = node.create_publisher(JointTrajectory, "sdf_bridge/joint_trajectory", RELIABLE_QOS)
    try:
        if not _spin_until(node, executor, lambda: "joints" in seen and "actuators" in seen, 30.0):
            print("no joint_states from the bridge within 30 s", flush=True)
            return False
        _show("initial state", seen, *notes)

        def send(names: Sequence[str], positions: Sequence[float], what: str) -> None:
            msg = JointState(name=list(names), position=[float(p) for p in positions])
            commands.publish(msg)
            print(
                f"\n>>> {what}: " + ", ".join(f"{n} := {p:+.4f}" for n, p in zip(names, positions)),
                flush=True,
            )
            _spin_until(node, executor, lambda: False, step_time)
            _show(what, seen, *notes)

        if plan.simple:
            send(
                plan.simple,
                [target(robot, plan.simple[0], 0.75)],
                "position, SimpleTransmission joint",
            )
        if plan.differential:
            send(
                plan.differential,
                [target(robot, j, f) for j, f in zip(plan.differential, (0.6, 0.35))],
                "wrist DifferentialTransmission",
            )
        if plan.trajectory:
            names = list(plan.trajectory)
            msg = JointTrajectory(joint_names=names)
            for t, f in ((0.5 * step_time, 0.55), (step_time, 0.65)):
                sec = int(t)
                msg.points.append(
                    JointTrajectoryPoint(
                        positions=[target(robot, j, f) for j in names],
                        time_from_start=Duration(sec=sec, nanosec=int((t - sec) * 1e9)),
                    )
                )
            trajectory.publish(msg)
            print(
                f"\n>>> trajectory on {', '.join(names)}: 2 points over {step_time:g} s", flush=True
            )
            _spin_until(node, executor, lambda: False, step_time * 1.5)
            _show("trajectory (FourBar joints)", seen, *notes)
        if plan.gripper:
            send(
                plan.gripper,
                [target(robot, plan.gripper[0], 0.9)],
                "gripper (mimic finger follows)",
            )
        return True
    finally:
        node.destroy_node()
        executor.shutdown()
        rclpy.try_shutdown()


def _show(
    title: str,
    seen: dict,
    joint_notes: dict[str, str],
    actuator_notes: dict[str, str],
    transmissions=None,
) -> None:
    js, acts = seen["joints"], seen["actuators"]
    rows = [
        (n, _fmt(p), _fmt(v), _fmt(e), joint_notes.get(n, "(direct)"))
        for n, p, v, e in zip(js.name, js.position, js.velocity, js.effort)
    ]
    print(
        _format_table(
            f"\njoint_states after: {title}",
            ("joint", "position", "velocity", "effort", "transmission, joint side"),
            rows,
        )
    )
    rows = [
        (n, _fmt(p), _fmt(v), _fmt(e), actuator_notes.get(n, ""))
        for n, p, v, e in zip(acts.name, acts.position, acts.velocity, acts.effort)
    ]
    print(
        _format_table(
            "actuator_states",
            ("actuator", "position", "velocity", "effort", "transmission, actuator side"),
            rows,
        )
    )
    if transmissions is not None:
        print(transmission_check(transmissions, js, acts), flush=True)


def transmission_check(tm, js, acts) -> str:
    """One line comparing the published actuator positions with the transmission map applied
    to the published joint positions (they agree to rounding when the bridge is right)."""
    import numpy as np

    joint_pos = dict(zip(js.name, js.position))
    act_pos = dict(zip(acts.name, acts.position))
    q = np.array([joint_pos[n] for n in tm.joint_names])
    expected, _, _ = tm.joint_to_actuator(q, np.zeros_like(q), np.zeros_like(q))
    seen = np.array([act_pos[n] for n in tm.actuator_names])
    return (
        f"check: actuator positions = transmissions(joint positions) of the same cycle within "
        f"{float(np.max(np.abs(seen - expected))):.1e} (rad or m, actuator side)"
    )
