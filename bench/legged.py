"""Free-floating robots standing in MuJoCo on default PID gains: the survey of issue 16.

Per robot: MuJoCo backend with a free base (``fixed_base: false``, no visual geoms, no camera
rendering), physics paused, ``reset`` to a keyframe (the robot placed on the ground at it),
the joints commanded to the keyframe, unpaused, 10 s simulated at 100 Hz. Printed: the
smallest up-axis · z of the IMU (the base link's when the robot has no IMU), the largest
distance of the base height from the keyframe's, the wheels'/feet's contact normal forces
over the robot's weight at the end (when it has contact sensors), instabilities, and whether
it stands (up · z > 0.95 and height within 2 cm throughout), with two peers measured in the
same run on the same robot: the previous default gains (``p = M_own·ω²``, ``d = 2·M_own·ω``,
``i = p·ω/10``: the subtree's inertia only, no timestep bounds) and hand-tuned gains ``p = 60,
d = 2`` (what a user tried on a public quadruped).

Robots: the mobile demo robot (``urdf/demo_mobile.urdf.xacro``, keyframe ``stand`` of
``config/demo_mobile_keyframes.yaml``) and any given with ``--robot FILE KEYFRAME_FILE NAME`` (a
description you fetched, e.g. unitree_ros' ``robots/a1_description/urdf/a1.urdf`` with keyframe
``a1_stand`` of ``bench/keyframes.yaml``, which also has ``anymal_c_stand``). A description that
cannot be loaded gets a row with the error.

Run: ``python bench/legged.py [--seconds 10] [--robot FILE KEYFRAME_FILE NAME ...]``
"""

from __future__ import annotations

import argparse
import logging
import math
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import mujoco  # noqa: E402  (after the path is set)
import numpy as np  # noqa: E402  (after the path is set)

from sdf_bridge.backends.mujoco.gains import BANDWIDTH  # noqa: E402  (after the path is set)
from sdf_bridge.description import load  # noqa: E402  (after the path is set)
from sdf_bridge.errors import SdfBridgeError  # noqa: E402  (after the path is set)
from sdf_bridge.hardware import HardwareSystem  # noqa: E402  (after the path is set)

DT = 0.01
DEMO = (
    REPO / "urdf" / "demo_mobile.urdf.xacro",
    REPO / "config" / "demo_mobile_keyframes.yaml",
    "stand",
)


def _params(keyframes: Path, name: str) -> dict:
    return {
        "fixed_base": False,
        "visual_geoms": False,
        "render_cameras": False,
        "keyframe_file": str(keyframes),
        "keyframe": name,
    }


def previous_gains(system: HardwareSystem) -> dict:
    """The previous default rule on this robot's joints: p = M_own·ω², d = 2·M_own·ω,
    i = p·ω/10, i_clamp = the effort limit."""
    inertia, limits = system.backend.inertia, system.backend.pid.effort_limit
    gains = {}
    for k, joint in enumerate(system.backend.joint_names):
        m = float(inertia.own[k])
        p = m * BANDWIDTH**2
        gains[joint] = {
            "p": p,
            "d": 2.0 * m * BANDWIDTH,
            "i": p * BANDWIDTH / 10.0,
            "i_clamp": float(limits[k]) if math.isfinite(limits[k]) else p,
        }
    return gains


def stand(robot, keyframes: Path, name: str, seconds: float, gains: str) -> dict:
    """One run (module doc); ``gains``: ``default``, ``previous`` or ``hand``."""
    params = _params(keyframes, name)
    if gains != "default":
        probe = HardwareSystem(robot, "mujoco", backend_params=params)
        names = probe.backend.joint_names
        params["pid_gains"] = (
            previous_gains(probe)
            if gains == "previous"
            else {j: {"p": 60.0, "d": 2.0} for j in names}
        )
        probe.close()
    system = HardwareSystem(
        robot,
        "mujoco",
        backend_params=params,
        command_timeout=0.0,
        update_rate=1.0 / DT,
        timed=False,
    )
    try:
        system.pause(True)
        system.reset()
        start = system.base_state()
        pose = system.backend.initial_pose.position
        joints = list(system.joint_names)
        system.submit_joint_state(joints, [pose.get(j, 0.0) for j in joints], None, None, 0.0)
        system.pause(False)
        imus = [s.name for s in robot.sensors if s.type == "imu"]
        up, dz, contacts, t = 1.0, 0.0, {}, 0.0
        wall = time.perf_counter()
        for _ in range(round(seconds / DT)):
            t += DT
            state = system.cycle(t, DT)
            base = system.base_state()
            reading = state.sensors.get(imus[0]) if imus else None
            q = (
                reading.orientation
                if reading is not None and reading.orientation is not None
                else (base.orientation if not imus else None)
            )
            if q is not None:
                up = min(up, 1.0 - 2.0 * (q[0] ** 2 + q[1] ** 2))
            dz = max(dz, abs(base.position[2] - start.position[2]))
            contacts.update({n: r for n, r in state.sensors.items() if hasattr(r, "contacts")})
        wall = time.perf_counter() - wall
        weight = mujoco.mj_getTotalmass(system.backend.model) * 9.81
        normal = sum(
            -float(np.dot(c.force, c.normal)) for r in contacts.values() for c in r.contacts
        )
        return {
            "up": up,
            "dz": dz,
            "contact": normal / weight if contacts else math.nan,
            "z0": start.position[2],
            "unstable": system.backend.instabilities,
            "rtf": seconds / wall,
            "joints": len(joints),
            "mass": weight / 9.81,
        }
    finally:
        system.close()


def main() -> int:
    """Run the survey and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="simulated seconds standing (default 10)"
    )
    parser.add_argument(
        "--robot",
        nargs=3,
        action="append",
        default=[],
        metavar=("FILE", "KEYFRAME_FILE", "NAME"),
        help="a description, a keyframe YAML and the keyframe's name",
    )
    ns = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    print(
        f"free base, physics 1 kHz, bridge 100 Hz, {ns.seconds:g} s standing after a paused "
        "start and reset; stands = up·z > 0.95 and |Δz| < 2 cm throughout"
    )
    header = (
        f"{'robot':16s} {'gains':9s} {'joints':>6s} {'kg':>6s} {'z0 m':>7s} {'min up·z':>9s} "
        f"{'max |Δz| m':>10s} {'contact/weight':>14s} {'unstable':>8s} {'RTF':>6s}  stands"
    )
    print(header)
    for file, keyframes, name in [DEMO, *((Path(f), Path(k), n) for f, k, n in ns.robot)]:
        try:
            robot = load(file)
        except SdfBridgeError as exc:
            print(f"{Path(file).stem:16s} cannot load: {exc}")
            continue
        for gains in ("default", "previous", "hand"):
            r = stand(robot, Path(keyframes), name, ns.seconds, gains)
            ok = r["up"] > 0.95 and r["dz"] < 0.02
            contact = "" if math.isnan(r["contact"]) else f"{r['contact'] * 100:.1f} %"
            print(
                f"{robot.name:16s} {gains:9s} {r['joints']:6d} {r['mass']:6.2f} {r['z0']:7.4f} "
                f"{r['up']:9.4f} {r['dz']:10.4f} {contact:>14s} {r['unstable']:8d} "
                f"{r['rtf']:6.1f}  {'yes' if ok else 'NO'}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
