"""``sdf-bridge demo --robot mobile``: the wheel-legged demo robot (``urdf/demo_mobile.urdf.xacro``)
in MuJoCo with a free-floating base, commanded from a second process.

Steps, in the order a free-floating robot is started ("pause → reset → command → unpause"):
start ``python -m sdf_bridge.ros.main`` paused (``start_paused``) with the ``stand`` keyframe
of ``config/demo_mobile_keyframes.yaml``; call ``~/reset`` (the robot placed on the ground at
that pose), command the legs to the pose, unpause (``~/pause`` false); then, each step lasting
``duration`` s of simulated time (the bridge's ``/clock``, so a loaded machine shows the same),

1. stand: print the base height and velocity (``odom``), the IMU's up axis, the wheels'
   contact forces against the robot's weight and what the lidar sees;
2. drive: the same wheel velocity on all four wheels, print the base speed against
   wheel velocity × radius;
3. turn: opposite wheel velocities left and right, print the yaw rate;
4. stop the wheels;

and stop the child with SIGINT. Exit code 0 when every step was seen and the child stopped
cleanly.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROBOT = Path("urdf") / "demo_mobile.urdf.xacro"
KEYFRAMES = Path("config") / "demo_mobile_keyframes.yaml"
WHEEL_RADIUS = 0.05
"""m: the demo robot's wheel radius."""


def bridge_command(robot_file: Path, keyframes: Path) -> list[str]:
    """The child's command line: the bridge on the mobile robot, MuJoCo, free base, paused,
    the ``stand`` keyframe, no camera rendering, no watchdog."""
    params = {
        "description_file": str(robot_file),
        "backend": "mujoco",
        "start_paused": "true",
        "command_timeout": "0.0",
        "publish_rate": "50.0",
        "backend_params.fixed_base": "false",
        "backend_params.keyframe_file": str(keyframes),
        "backend_params.keyframe": "stand",
        "backend_params.render_cameras": "false",
    }
    argv = [sys.executable, "-m", "sdf_bridge.ros.main", "--ros-args"]
    for key, value in params.items():
        argv += ["-p", f"{key}:={value}"]
    return argv


def up_axis(q: Any) -> float:
    """z component of the up axis of a frame with orientation quaternion ``q`` (x, y, z, w):
    1 upright, −1 upside down."""
    return 1.0 - 2.0 * (q.x * q.x + q.y * q.y)


def contact_normal_force(msg: Any) -> float:
    """The normal force (N) of a contact sensor's PointCloud2
    (:func:`sdf_bridge.ros.conversions.contact_msg`): the sum over its contacts of
    ``−force · normal`` (what the touching bodies push the link with, along the normals)."""
    import numpy as np

    from .conversions import CONTACT_FIELDS

    values = np.frombuffer(bytes(msg.data), dtype="<f4").reshape(-1, len(CONTACT_FIELDS))
    return float(-np.einsum("ij,ij->", values[:, 3:6], values[:, 6:9]))


def demo_mobile(duration: float, env: dict[str, str]) -> int:
    """Run the mobile demo (module doc) with ``duration`` s per step; returns the exit code."""
    from ..app.description_source import demo_description_file
    from ..description import load
    from .demo import with_bridge

    robot_file, keyframes = demo_description_file(ROBOT), demo_description_file(KEYFRAMES)
    robot = load(robot_file)
    mass = sum(link.inertial.mass for link in robot.links.values() if link.inertial is not None)
    print(
        f"sdf-bridge demo: robot {robot.name!r} from {robot_file} ({mass:g} kg), backend mujoco, "
        f"free-floating base, ROS_DOMAIN_ID={env['ROS_DOMAIN_ID']}",
        flush=True,
    )
    return with_bridge(
        bridge_command(robot_file, keyframes), env, lambda: _drive(robot, mass, duration)
    )


def _drive(robot: Any, mass: float, duration: float) -> bool:
    import rclpy
    from nav_msgs.msg import Odometry
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.qos import qos_profile_sensor_data
    from rosgraph_msgs.msg import Clock
    from sensor_msgs.msg import Imu, JointState, LaserScan, PointCloud2
    from std_srvs.srv import SetBool, Trigger

    from .node import RELIABLE_QOS
    from .odometry import ODOM_QOS

    rclpy.init(args=[])
    node = rclpy.create_node("sdf_bridge_mobile_demo")
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    latest: dict[str, Any] = {}

    def keep(key: str) -> Callable[[Any], None]:
        return lambda msg: latest.__setitem__(key, msg)

    node.create_subscription(JointState, "joint_states", keep("joints"), RELIABLE_QOS)
    node.create_subscription(Clock, "/clock", keep("clock"), 10)  # (as the bridge publishes it)
    node.create_subscription(Odometry, "odom", keep("odom"), ODOM_QOS)
    node.create_subscription(Imu, "imu", keep("imu"), qos_profile_sensor_data)
    node.create_subscription(LaserScan, "scan", keep("scan"), qos_profile_sensor_data)
    wheels = [j for j in robot.joints if j.endswith("_wheel_joint")]
    legs = [j for j in robot.joints if j.endswith(("_hip_joint", "_knee_joint"))]
    for wheel in wheels:
        sensor = wheel.replace("_joint", "_contact")
        node.create_subscription(
            PointCloud2, f"sensors/{sensor}", keep(sensor), qos_profile_sensor_data
        )
    commands = node.create_publisher(JointState, "joint_commands", RELIABLE_QOS)

    def spin(seconds: float, until: Callable[[], bool] | None = None) -> bool:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            executor.spin_once(timeout_sec=0.05)
            if until is not None and until():
                return True
        return until is None

    def simulated_time() -> float:
        clock = latest["clock"].clock
        return clock.sec + clock.nanosec * 1e-9

    def spin_simulated(seconds: float) -> bool:
        """Spin until ``seconds`` of simulated time have passed (the bridge's /clock), so that
        a loaded machine (simulation slower than real time) shows the same motion; at most
        60 s of wall time more."""
        end = simulated_time() + seconds
        return spin(60.0 + seconds, lambda: simulated_time() >= end)

    def call(srv_type: type, name: str, request: Any) -> Any:
        client = node.create_client(srv_type, name)
        try:
            if not spin(30.0, client.service_is_ready):
                raise TimeoutError(f"service {name} did not appear within 30 s")
            future = client.call_async(request)
            spin(30.0, future.done)
            return future.result()
        finally:
            node.destroy_client(client)

    try:
        if not spin(60.0, lambda: "joints" in latest):
            print("no joint_states from the bridge within 60 s", flush=True)
            return False
        print(
            "\n>>> pause → reset → command → unpause: "
            f"{call(Trigger, 'sdf_bridge/reset', Trigger.Request()).message}",
            flush=True,
        )
        stand = {"hip": 0.6, "knee": -1.2}
        commands.publish(JointState(name=legs, position=[stand[j.split("_")[1]] for j in legs]))
        spin(0.5)
        call(SetBool, "sdf_bridge/pause", SetBool.Request(data=False))
        needed = ["clock", "odom", "imu", "scan"] + [
            w.replace("_joint", "_contact") for w in wheels
        ]
        if not spin(max(duration, 20.0), lambda: all(k in latest for k in needed)):
            print(
                f"missing topics after unpausing: {[k for k in needed if k not in latest]}",
                flush=True,
            )
            return False
        spin_simulated(duration)
        odom, imu, scan = latest["odom"], latest["imu"], latest["scan"]
        forces = [contact_normal_force(latest[w.replace("_joint", "_contact")]) for w in wheels]
        hits = [r for r in scan.ranges if math.isfinite(r)]
        print("\n=== stand (legs holding the keyframe, default PID gains)")
        print(
            f"base height {odom.pose.pose.position.z:.4f} m, speed "
            f"{odom.twist.twist.linear.x:+.4f} m/s, IMU up axis · z "
            f"{up_axis(imu.orientation):.4f}"
        )
        print(
            f"wheel contact normal forces {', '.join(f'{f:.2f}' for f in forces)} N: sum "
            f"{sum(forces):.2f} N, weight {mass * 9.81:.2f} N "
            f"({sum(forces) / (mass * 9.81) * 100:.1f} %)"
        )
        print(
            f"lidar: {len(scan.ranges)} rays, {len(hits)} hit(s)"
            + (
                f", nearest {min(hits):.3f} m"
                if hits
                else f" (open ground, nothing within {scan.range_max:g} m)"
            ),
            flush=True,
        )
        omega = 4.0
        for title, speeds in (
            ("drive", {w: omega for w in wheels}),
            ("turn", {w: (-omega if w.split("_")[0].endswith("l") else omega) for w in wheels}),
            ("stop", {w: 0.0 for w in wheels}),
        ):
            commands.publish(JointState(name=list(speeds), velocity=list(speeds.values())))
            spin_simulated(duration)
            odom = latest["odom"]
            twist, position = odom.twist.twist, odom.pose.pose.position
            print(
                f"\n=== {title}: wheel velocities "
                f"{', '.join(f'{v:+g}' for v in speeds.values())} rad/s"
            )
            expected = ""
            if title == "drive":
                expected = f" (wheel velocity × radius {omega * WHEEL_RADIUS:+.4f} m/s)"
            print(
                f"odom: x {position.x:+.3f} m, y {position.y:+.3f} m; speed "
                f"{twist.linear.x:+.4f} m/s{expected}, yaw rate {twist.angular.z:+.4f} rad/s",
                flush=True,
            )
        return True
    finally:
        node.destroy_node()
        executor.shutdown()
        rclpy.try_shutdown()
