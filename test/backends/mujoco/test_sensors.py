"""Simulated sensors: IMU, force-torque, ray, camera, contact, rates, noise, unsupported kinds.

Static checks are exact up to float round-off (tolerance 1e-6 unless stated): a welded or
PID-held robot at rest has no motion, so MuJoCo's accelerometer and interaction forces are
exactly gravity's.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import threading

import numpy as np
import pytest
from mujoco_helpers import G, pendulum_urdf

from sdf_bridge.backends.sensor_readings import (
    ContactReading,
    ImageReading,
    ImuReading,
    PointCloudReading,
    ScanReading,
    WrenchReading,
)
from sdf_bridge.description import load

GRAVITY = {"gravity": [0.0, 0.0, -G]}


def _imu_robot(noise: str = "", rpy: str = "0 0 0") -> str:
    return f"""<?xml version="1.0"?>
<robot name="imu_bot">
  <link name="base"/>
  <link name="imu_link"/>
  <joint name="imu_joint" type="fixed">
    <parent link="base"/><child link="imu_link"/><origin xyz="0 0 0.5" rpy="{rpy}"/>
  </joint>
  <gazebo reference="imu_link">
    <sensor name="imu" type="imu"><update_rate>100</update_rate>{noise}</sensor>
  </gazebo>
</robot>"""


def test_imu_at_rest_reads_plus_g_up(make_sim) -> None:
    sim = make_sim(_imu_robot(), GRAVITY)
    reading = sim.read(0.01).sensors["imu"]
    assert isinstance(reading, ImuReading)
    assert reading.linear_acceleration == pytest.approx((0.0, 0.0, G), abs=1e-6)
    assert reading.angular_velocity == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)
    assert reading.orientation == pytest.approx((0.0, 0.0, 0.0, 1.0), abs=1e-12)


def test_imu_pitched_reads_g_along_its_own_axes(make_sim) -> None:
    """Pitch +π/2: the sensor's x axis points down (−z of the world), so +g appears on −x."""
    sim = make_sim(_imu_robot(rpy=f"0 {math.pi / 2} 0"), GRAVITY)
    reading = sim.read(0.01).sensors["imu"]
    assert reading.linear_acceleration == pytest.approx((-G, 0.0, 0.0), abs=1e-6)


def test_case_014_upside_down_imu(cases_dir, make_sim) -> None:
    """Case 014: IMU on imu_link flipped by roll π, gravity 9.8 → (0, 0, −9.8) in its own frame,
    orientation (±1, 0, 0, 0), frame_id = imu_link (tolerance 1e-6, from expect.yaml)."""
    case = cases_dir / "014-imu-frame-id-scoped-name"
    robot = load(case / "robot.urdf")
    sim = make_sim(robot, {"gravity": [0.0, 0.0, -9.8]})
    reading = sim.read(0.01).sensors["imu_sensor"]
    assert reading.linear_acceleration == pytest.approx((0.0, 0.0, -9.8), abs=1e-6)
    assert reading.angular_velocity == pytest.approx((0.0, 0.0, 0.0), abs=1e-6)
    x, y, z, w = reading.orientation
    assert abs(x) == pytest.approx(1.0, abs=1e-6) and (y, z, w) == pytest.approx(
        (0, 0, 0), abs=1e-6
    )
    (sensor,) = [s for s in robot.sensors if s.name == "imu_sensor"]
    assert sensor.ros_frame_id == "imu_link"


NOISE = """<imu><linear_acceleration><x><noise type="gaussian"><mean>0</mean><stddev>0.1</stddev>
  </noise></x>
</linear_acceleration></imu>"""


def test_imu_noise_is_seeded_gaussian(make_sim) -> None:
    """stddev 0.1 on x: 2000 samples give a sample stddev within 10 % (≈ 4.5σ of its estimate)
    and mean within 0.02 (≈ 9σ/√n); same seed → same samples, other seed → different."""

    def samples(seed: int) -> np.ndarray:
        sim = make_sim(_imu_robot(NOISE), {**GRAVITY, "noise_seed": seed})
        return np.array([s.sensors["imu"].linear_acceleration for s in sim.run(20.0, dt=0.01)])

    a, b, c = samples(3), samples(3), samples(4)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    assert np.std(a[:, 0]) == pytest.approx(0.1, rel=0.1)
    assert np.mean(a[:, 0]) == pytest.approx(0.0, abs=0.02)
    assert np.all(a[:, 1] == a[0, 1]) and a[0, 2] == pytest.approx(G, abs=1e-6)  # y, z noise-free


def test_imu_reading_carries_the_noise_variances(make_sim) -> None:
    """stddev 0.1 m/s² on x only: linear acceleration variances (0.01, 0, 0) (m/s²)² (the
    other axes' noise models are type none: stddev 0); no angular velocity noise: unknown."""
    sim = make_sim(_imu_robot(NOISE), GRAVITY)
    reading = sim.read(0.01).sensors["imu"]
    assert reading.linear_acceleration_variance == pytest.approx((0.01, 0.0, 0.0), abs=1e-15)
    assert reading.angular_velocity_variance is None
    assert (
        make_sim(_imu_robot(), GRAVITY)
        .backend.read(0.01)
        .sensors["imu"]
        .linear_acceleration_variance
        is None
    )


def test_sensor_update_rate(make_sim) -> None:
    """100 Hz sensor, 1 kHz reads for 0.1 s: first read, then every 10 ms → 11 readings."""
    sim = make_sim(_imu_robot(), GRAVITY)
    states = sim.run(0.1, dt=0.001)
    times = [s.sim_time for s in states if "imu" in s.sensors]
    assert len(times) == 11
    assert np.diff(times[1:]) == pytest.approx([0.01] * 9, abs=1e-9)


def test_sensor_demand_skips_and_keeps_the_schedule(make_sim) -> None:
    """100 Hz IMU read at 1 kHz: not demanded for 25 ms (no readings; its schedule moves on),
    demanded again → read at its next due time (30 ms), then every 10 ms; None = all again."""
    sim = make_sim(_imu_robot(), GRAVITY)
    backend = sim.backend
    assert "imu" in backend.read(0.001).sensors  # due at once
    backend.set_sensor_demand(frozenset())
    skipped = [backend.read(0.001) for _ in range(24)]  # t = 2 … 25 ms
    assert all(len(s.sensors) == 0 for s in skipped)
    backend.set_sensor_demand(frozenset({"imu"}))
    # 26 … 45 ms
    times = [s.sim_time for s in (backend.read(0.001) for _ in range(20)) if "imu" in s.sensors]
    assert times == pytest.approx([0.03, 0.04], abs=1e-9)
    backend.set_sensor_demand(None)
    assert backend.sensors.demand is None


def test_sensor_demand_before_configure() -> None:
    from sdf_bridge.backends.mujoco import MujocoBackend
    from sdf_bridge.errors import BackendError

    with pytest.raises(BackendError, match="before configure"):
        MujocoBackend().set_sensor_demand(None)


FT_CHAIN = """
  <link name="link2">
    <inertial><origin xyz="0 0 -0.2"/><mass value="3"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <joint name="j2" type="fixed"><parent link="arm"/><child link="link2"/><origin xyz="0 0 -1"/>
    </joint>
  <gazebo reference="j">
    <sensor name="ft" type="force_torque">
      <force_torque><frame>child</frame><measure_direction>{direction}</measure_direction>
        </force_torque>
    </sensor>
  </gazebo>"""


@pytest.mark.parametrize(
    ("direction", "sign"), [("child_to_parent", -1.0), ("parent_to_child", 1.0)]
)
def test_force_torque_carries_weight_below(make_sim, direction, sign) -> None:
    """Joint j (held at 0 by the PID) carries arm (2 kg) + link2 (3 kg) hanging straight down:
    force = ∓(2+3)·g along z; zero torque (centres of mass below the joint)."""
    urdf = pendulum_urdf(
        mass=2.0,
        limit='<limit lower="-1" upper="1" effort="100" velocity="1"/>',
        joint_type="revolute",
        extra=FT_CHAIN.format(direction=direction),
    )
    sim = make_sim(urdf, GRAVITY)
    reading = sim.run(0.2)[-1].sensors["ft"]
    assert isinstance(reading, WrenchReading)
    assert reading.force == pytest.approx((0.0, 0.0, sign * 5.0 * G), abs=1e-6)
    assert reading.torque == pytest.approx((0.0, 0.0, 0.0), abs=1e-6)


def test_force_torque_torque_of_horizontal_arm(make_sim) -> None:
    """Arm horizontal (2 kg at x = 0.5) held by an exact effort: parent→child wrench at the joint
    = (0, 0, 2g) N and (0, −g, 0) N·m (balancing gravity's moment 0.5·2g about +y)."""
    extra = FT_CHAIN.format(direction="parent_to_child").replace(
        '<mass value="3"/>', '<mass value="0"/>'
    )
    urdf = pendulum_urdf(mass=2.0, com_xyz="0.5 0 0", extra=extra)
    sim = make_sim(urdf, GRAVITY)
    sim.effort([-2.0 * G * 0.5])
    reading = sim.run(0.2)[-1].sensors["ft"]
    # link2 (mass 0 → the documented default 1 g) hangs 1 m below the joint: its weight adds
    m2 = 1e-3
    assert reading.force == pytest.approx((0.0, 0.0, (2.0 + m2) * G), abs=1e-6)
    assert reading.torque == pytest.approx((0.0, -G, 0.0), abs=1e-6)


IDYNTREE_FT = """
  <link name="link2">
    <inertial><origin xyz="0 0 -0.2"/><mass value="3"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <joint name="j2" type="fixed"><parent link="arm"/><child link="link2"/><origin xyz="0 0 -1"/>
    </joint>
  <sensor name="ft" type="force_torque"><parent joint="j"/>
    <force_torque><frame>child</frame><measure_direction>child_to_parent</measure_direction>
    </force_torque></sensor>
  <sensor name="acc" type="accelerometer"><parent link="link2"/></sensor>"""


def test_idyntree_robot_level_sensors_are_simulated(make_sim) -> None:
    """iDynTree's robot-level force_torque on joint j reads as the <gazebo> form does
    (test_force_torque_carries_weight_below); its accelerometer is an IMU of its link."""
    urdf = pendulum_urdf(
        mass=2.0,
        limit='<limit lower="-1" upper="1" effort="100" velocity="1"/>',
        joint_type="revolute",
        extra=IDYNTREE_FT,
    )
    sim = make_sim(urdf, GRAVITY)
    sensors = sim.run(0.2)[-1].sensors
    assert sensors["ft"].force == pytest.approx((0.0, 0.0, -5.0 * G), abs=1e-6)
    assert sensors["ft"].torque == pytest.approx((0.0, 0.0, 0.0), abs=1e-6)
    assert isinstance(sensors["acc"], ImuReading)
    assert sensors["acc"].linear_acceleration == pytest.approx((0.0, 0.0, G), abs=1e-4)


SCENE = """<?xml version="1.0"?>
<robot name="scanner">
  <link name="base"/>
  <link name="head"/>
  <joint name="head_joint" type="fixed"><parent link="base"/><child link="head"/><origin
    xyz="0 0 1"/></joint>
  <link name="wall">
    <visual><geometry><box size="0.2 10 2"/></geometry><material name="red"><color rgba="1 0 0 1"/>
      </material></visual>
    <collision><geometry><box size="0.2 10 2"/></geometry></collision>
  </link>
  <joint name="wall_joint" type="fixed"><parent link="base"/><child link="wall"/><origin
    xyz="3 0 1"/></joint>
  <gazebo reference="head">{sensors}</gazebo>
</robot>"""

LIDAR = """<sensor name="lidar" type="gpu_lidar"><update_rate>10</update_rate><ray>
  <scan><horizontal><samples>5</samples><min_angle>-0.2</min_angle><max_angle>0.2</max_angle>
    </horizontal>
  {vertical}</scan><range><min>0.1</min><max>10</max></range></ray></sensor>"""


def test_lidar_scan_hits_wall(make_sim) -> None:
    """Wall face at x = 2.9 m: range(h) = 2.9 / cos(h) (tolerance 1e-9)."""
    sim = make_sim(
        SCENE.format(sensors=LIDAR.format(vertical="")), {**GRAVITY, "render_cameras": False}
    )
    scan = sim.read(0.01).sensors["lidar"]
    assert isinstance(scan, ScanReading)
    angles = np.linspace(-0.2, 0.2, 5)
    assert scan.angle_min == -0.2 and scan.angle_max == 0.2
    assert scan.angle_increment == pytest.approx(0.1, abs=1e-15)
    assert scan.ranges == pytest.approx(2.9 / np.cos(angles), abs=1e-9)
    assert (scan.range_min, scan.range_max) == (0.1, 10.0)


def test_each_sensor_at_its_own_rate(make_sim) -> None:
    """IMU at 100 Hz and lidar at 10 Hz on one robot, 1 kHz reads for 0.1 s: each is sampled at
    the first read, then whenever its period has elapsed (times exact to 1e-9 s)."""
    imu = '<sensor name="imu" type="imu"><update_rate>100</update_rate></sensor>'
    sim = make_sim(SCENE.format(sensors=LIDAR.format(vertical="") + imu), GRAVITY)
    states = sim.run(0.1, dt=0.001)
    imu_times = [s.sim_time for s in states if "imu" in s.sensors]
    lidar_times = [s.sim_time for s in states if "lidar" in s.sensors]
    assert imu_times == pytest.approx([0.001] + [0.01 * k for k in range(1, 11)], abs=1e-9)
    assert lidar_times == pytest.approx([0.001, 0.1], abs=1e-9)


def test_lidar_out_of_range_is_inf(make_sim) -> None:
    sensors = LIDAR.format(vertical="").replace("<max>10</max>", "<max>2</max>")
    sim = make_sim(SCENE.format(sensors=sensors), GRAVITY)
    assert np.all(np.isinf(sim.read(0.01).sensors["lidar"].ranges))


def test_multilayer_lidar_gives_point_cloud(make_sim) -> None:
    vertical = (
        "<vertical><samples>3</samples><min_angle>-0.1</min_angle>"
        "<max_angle>0.1</max_angle></vertical>"
    )
    sim = make_sim(SCENE.format(sensors=LIDAR.format(vertical=vertical)), GRAVITY)
    cloud = sim.read(0.01).sensors["lidar"]
    assert isinstance(cloud, PointCloudReading)
    assert cloud.points.shape == (15, 3)
    assert cloud.points[:, 0] == pytest.approx([2.9] * 15, abs=1e-9)


CAMERA = """<sensor name="cam" type="{kind}"><update_rate>5</update_rate><camera>
  <horizontal_fov>1.0</horizontal_fov><image><width>64</width><height>48</height></image>
  <clip><near>0.05</near><far>50</far></clip></camera></sensor>"""


def test_camera_renders_wall_with_intrinsics(make_sim) -> None:
    """Needs off-screen GL (MUJOCO_GL=egl or osmesa). The red wall fills the view centre."""
    sim = make_sim(SCENE.format(sensors=CAMERA.format(kind="camera")), GRAVITY)
    image = sim.read(0.01).sensors["cam"]
    assert isinstance(image, ImageReading)
    assert (
        image.encoding == "rgb8"
        and image.data.shape == (48, 64, 3)
        and image.data.dtype == np.uint8
    )
    assert image.fx == pytest.approx(32.0 / math.tan(0.5), abs=1e-12) and image.fy == image.fx
    assert (image.cx, image.cy) == (32.0, 24.0)
    centre = image.data[20:28, 28:36].astype(float).mean(axis=(0, 1))
    assert centre[0] > 2.0 * centre[1] and centre[0] > 2.0 * centre[2]


def test_depth_camera_measures_distance(make_sim) -> None:
    """Depth along the optical axis to the wall face: 2.9 m (tolerance 1 mm, depth buffer)."""
    sim = make_sim(SCENE.format(sensors=CAMERA.format(kind="depth")), GRAVITY)
    image = sim.read(0.01).sensors["cam"]
    assert image.encoding == "32FC1" and image.data.shape == (48, 64)
    assert float(image.data[24, 32]) == pytest.approx(2.9, abs=1e-3)


def test_camera_closes_cleanly_after_rendering_on_another_thread(make_sim, caplog) -> None:
    """The bridge renders on its loop thread and closes on the main thread after the loop ended
    (Ctrl-C): no exception (EGL would refuse to make a context current that an ended thread
    still holds), nothing logged, the render thread gone, and a second close does nothing."""
    from sdf_bridge.backends.mujoco.render import THREAD_NAME

    sim = make_sim(SCENE.format(sensors=CAMERA.format(kind="depth")), GRAVITY)
    images: list = []
    loop = threading.Thread(target=lambda: images.append(sim.read(0.01).sensors["cam"]))
    loop.start()
    loop.join()
    assert images[0].data.shape == (48, 64)
    with caplog.at_level(logging.DEBUG, logger="sdf_bridge"):
        sim.backend.close()
        sim.backend.close()
    assert caplog.text == ""
    assert not [t.name for t in threading.enumerate() if t.name.startswith(THREAD_NAME)]


def test_cameras_off(make_sim, caplog) -> None:
    with caplog.at_level(logging.WARNING):
        sim = make_sim(
            SCENE.format(sensors=CAMERA.format(kind="camera")), {**GRAVITY, "render_cameras": False}
        )
    assert "cam" not in sim.read(0.01).sensors
    assert "sensor 'cam': camera rendering is off" in caplog.text


BOX = """<?xml version="1.0"?>
<robot name="box">
  <link name="box">
    <inertial><mass value="2"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
      </inertial>
    <collision name="box_col"><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
  </link>
  <gazebo reference="box">
    <sensor name="touch" type="contact"><contact><collision>box_col</collision></contact></sensor>
  </gazebo>
</robot>"""


def test_contact_sensor_on_free_box_resting_on_ground(make_sim) -> None:
    """A free 2 kg box settles on the ground: the forces on the box sum to (0, 0, +2g) in its
    (unrotated) link frame (tolerance 1 % — MuJoCo's soft contacts settle to within that in 2 s;
    frames and signs in detail: test_contact.py)."""
    sim = make_sim(BOX, {**GRAVITY, "fixed_base": False})
    reading = sim.run(2.0)[-1].sensors["touch"]
    assert isinstance(reading, ContactReading)
    assert len(reading.contacts) >= 1
    assert {(c.body1, c.body2) for c in reading.contacts} == {
        ("box::collision::box_col", "ground_plane")
    }
    total = np.sum([c.force for c in reading.contacts], axis=0)
    assert total[2] == pytest.approx(2.0 * G, rel=0.01)
    assert total[:2] == pytest.approx([0.0, 0.0], abs=0.01 * 2.0 * G)


def test_unsupported_sensor_reported_once(make_sim, caplog) -> None:
    urdf = _imu_robot().replace(
        "</gazebo>",
        '<sensor name="where" type="logical_camera"/><sensor name="high" type="altimeter"/>'
        '<sensor name="wind" type="air_speed"/></gazebo>',
    )
    with caplog.at_level(logging.WARNING):
        sim = make_sim(urdf, GRAVITY)
        states = sim.run(0.05)
    assert all(not {"where", "high", "wind"} & set(s.sensors) for s in states)
    assert caplog.text.count("sensor 'where': sensor type 'logical_camera' is not simulated") == 1
    assert sim.backend.sensors.unsupported == [
        "sensor 'where': sensor type 'logical_camera' is not simulated; it publishes nothing in "
        "the MuJoCo backend",
        "sensor 'high': sensor type 'altimeter' is not simulated: sensor_msgs has no altimeter "
        "message (Gazebo's gz.msgs.Altimeter bridges to ros_gz_interfaces/Altimeter, which is "
        "not installable from PyPI); it publishes nothing in the MuJoCo backend",
        "sensor 'wind': sensor type 'air_speed' is not simulated: sensor_msgs has no air speed "
        "message (ros_gz_bridge bridges no gz.msgs.AirSpeed); it publishes nothing in the "
        "MuJoCo backend",
    ]


def test_ros2_control_sensor_without_a_simulated_sensor_is_reported(make_sim, caplog) -> None:
    """A <ros2_control> sensor (state interfaces only) is no sensor MuJoCo can simulate: warned
    at start, never dropped silently; one named like a description sensor is that sensor."""
    block = """<ros2_control name="sensors" type="sensor"><hardware><plugin>p</plugin></hardware>
      <sensor name="wrist_ft"><state_interface name="force.x"/></sensor>
      <sensor name="imu"><state_interface name="angular_velocity.x"/></sensor></ros2_control>"""
    urdf = _imu_robot().replace("</robot>", block + "</robot>")
    with caplog.at_level(logging.WARNING):
        sim = make_sim(urdf, GRAVITY)
    assert sim.backend.sensors.unsupported == [
        "<ros2_control> sensor 'wrist_ft' has no simulated sensor of its name (a <gazebo> or "
        "SDFormat <sensor>); it publishes nothing in the MuJoCo backend"
    ]
    assert caplog.text.count("<ros2_control> sensor 'wrist_ft'") == 1


def test_sensor_on_missing_link_reported(make_sim, caplog) -> None:
    """The loader rejects such robots; a hand-built model still gets a clear warning."""
    robot = load(_imu_robot())
    robot = dataclasses.replace(
        robot, sensors=(dataclasses.replace(robot.sensors[0], link="nowhere"),)
    )
    with caplog.at_level(logging.WARNING):
        sim = make_sim(robot, GRAVITY)
    assert "sensor 'imu': its link 'nowhere' is not in the model" in caplog.text
    assert "imu" not in sim.read(0.01).sensors


def _fake_glfw(monkeypatch):
    """Pretend mujoco was imported with GLFW (MUJOCO_GL unset) on a machine without display;
    returns the module whose ``GLContext`` ``mujoco.Renderer`` uses (restored after the test)."""
    import sys

    import mujoco

    class GLContext:
        __module__ = "mujoco.glfw"

        def __init__(self, *args, **kwargs):
            raise AssertionError("GLFW must not be used without a display (it aborts the process)")

    module = sys.modules[mujoco.Renderer.__module__].gl_context
    monkeypatch.setattr(module, "GLContext", GLContext)
    monkeypatch.delenv("DISPLAY", raising=False)
    return module


def test_glfw_without_display_switches_to_offscreen(make_sim, monkeypatch, caplog) -> None:
    """mujoco imported with GLFW before this package chose a platform: the renderer is
    switched to EGL/OSMesa and the camera renders."""
    module = _fake_glfw(monkeypatch)
    sim = make_sim(SCENE.format(sensors=CAMERA.format(kind="camera")), GRAVITY)
    with caplog.at_level(logging.INFO):
        image = sim.read(0.01).sensors["cam"]
    assert image.data.shape == (48, 64, 3)
    assert module.GLContext.__module__ in ("mujoco.egl", "mujoco.osmesa")
    assert "off-screen rendering switched to" in caplog.text


def test_glfw_without_display_and_no_offscreen_library_reported_once(
    make_sim, monkeypatch, caplog
) -> None:
    """Neither EGL nor OSMesa installed: the camera is reported once, with the packages to
    install, instead of aborting the process."""
    from sdf_bridge.backends.mujoco import sensors

    _fake_glfw(monkeypatch)
    monkeypatch.setattr(sensors, "choose_platform", lambda: None)
    sim = make_sim(SCENE.format(sensors=CAMERA.format(kind="camera")), GRAVITY)
    with caplog.at_level(logging.WARNING):
        states = sim.run(0.5)
    assert all("cam" not in s.sensors for s in states)
    assert (
        caplog.text.count(
            "sensor 'cam': mujoco uses GLFW, which needs a display, and neither a working EGL nor "
            "OSMesa is installed. Fix: install OSMesa (Debian: apt-get install libosmesa6"
        )
        == 1
    )


def test_renderer_failure_reported_once(make_sim, monkeypatch, caplog) -> None:
    """Any failure to create the GL context (here: a missing libEGL) gives one warning naming
    MUJOCO_GL, the error and the fix; no image, no exception."""
    import mujoco

    def broken(*args, **kwargs):
        raise ImportError("libEGL.so.1: cannot open shared object file")

    monkeypatch.setattr(mujoco, "Renderer", broken)
    monkeypatch.setenv("MUJOCO_GL", "egl")
    sim = make_sim(SCENE.format(sensors=CAMERA.format(kind="camera")), GRAVITY)
    with caplog.at_level(logging.WARNING):
        states = sim.run(0.5)
    assert all("cam" not in s.sensors for s in states)
    assert (
        caplog.text.count(
            "sensor 'cam': off-screen rendering with MUJOCO_GL=egl failed (ImportError: "
            "libEGL.so.1: cannot open shared object file). Fix: install OSMesa"
        )
        == 1
    )


def test_force_torque_on_world_reported(make_sim, caplog) -> None:
    urdf = """<?xml version="1.0"?>
<robot name="w"><link name="world"/><link name="a">
  <inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/>
    </inertial></link>
  <joint name="j" type="revolute"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
  <gazebo reference="world"><sensor name="ft" type="force_torque"/></gazebo>
</robot>"""
    with caplog.at_level(logging.WARNING):
        sim = make_sim(urdf, GRAVITY)
    assert "sensor 'ft': it is attached to the world, which carries no joint load" in caplog.text
    assert "ft" not in sim.read(0.01).sensors


FT_POSED = """
  <gazebo reference="j">
    <sensor name="ft" type="force_torque"><pose>0.1 0.2 -0.3 0.3 -0.2 0.5</pose>
      <force_torque><frame>{frame}</frame><measure_direction>{direction}</measure_direction>
        </force_torque>
    </sensor>
  </gazebo>"""


def _rot_y(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


@pytest.mark.parametrize("direction", ["child_to_parent", "parent_to_child"])
def test_force_torque_frames_are_consistent(make_sim, direction) -> None:
    """One swinging arm measured in the sensor, child and parent frames (same physics, so the
    same instant): child = R·sensor, torque + p × force (R, p: the sensor pose in the child
    link); parent = R_y(q)·R·sensor (joint about y at the child origin, q of the kinematics the
    reading was computed with). Tolerance 1e-9 N, N·m."""
    readings, q = {}, 0.0
    for frame in ("sensor", "child", "parent"):
        urdf = pendulum_urdf(
            mass=2.0, com_xyz="0.5 0 -0.2", extra=FT_POSED.format(frame=frame, direction=direction)
        )
        sim = make_sim(urdf, GRAVITY)
        sim.effort([3.0])
        readings[frame] = sim.run(0.13)[-1].sensors["ft"]
        # the joint angle of the kinematics the reading was computed with (the last step's start)
        body = sim.backend.model.body(sim.backend.built.link_body["arm"]).id
        arm = sim.backend.data.xmat[body].reshape(3, 3)
        q = math.atan2(arm[0, 2], arm[0, 0])
        assert abs(q - float(sim.backend.joint_state()[0][0])) < 0.01  # one step behind the state
    pose = (
        load(pendulum_urdf(extra=FT_POSED.format(frame="sensor", direction=direction)))
        .sensors[0]
        .pose.matrix()
    )
    rot, pos = pose[:3, :3], pose[:3, 3]
    f_s, t_s = np.array(readings["sensor"].force), np.array(readings["sensor"].torque)
    assert np.linalg.norm(f_s) > 1.0  # a real load
    f_c = rot @ f_s
    assert readings["child"].force == pytest.approx(tuple(f_c), abs=1e-9)
    assert readings["child"].torque == pytest.approx(
        tuple(rot @ t_s + np.cross(pos, f_c)), abs=1e-9
    )
    assert readings["parent"].force == pytest.approx(tuple(_rot_y(q) @ f_c), abs=1e-9)
    assert readings["parent"].torque == pytest.approx(tuple(_rot_y(q) @ rot @ t_s), abs=1e-9)
