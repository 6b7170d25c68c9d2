"""Free-floating bases in MuJoCo on the mobile demo robot (urdf/demo_mobile.urdf.xacro): placed
on the ground at its keyframe, standing with default gains, the wheels' contact forces, driving
on its wheels, the ground-truth base state, friction from <gazebo>."""

from __future__ import annotations

import logging
from pathlib import Path

import mujoco
import numpy as np
import pytest

from sdf_bridge.backends.mujoco.geoms import lowest_point
from sdf_bridge.backends.mujoco.initial_state import GROUND_CLEARANCE
from sdf_bridge.description import load
from sdf_bridge.hardware import HardwareSystem

DT = 0.01
WHEEL_RADIUS = 0.05


@pytest.fixture(scope="module")
def robot(repo_dir: Path):
    return load(repo_dir / "urdf" / "demo_mobile.urdf.xacro")


def _system(robot, repo_dir: Path, keyframe: str = "stand") -> HardwareSystem:
    params = {
        "fixed_base": False,
        "render_cameras": False,
        "keyframe": keyframe,
        "keyframe_file": str(repo_dir / "config" / "demo_mobile_keyframes.yaml"),
    }
    return HardwareSystem(
        robot, "mujoco", backend_params=params, command_timeout=0.0, update_rate=1.0 / DT
    )


def _lowest(system: HardwareSystem) -> float:
    model, data = system.backend.model, system.backend.data
    mujoco.mj_kinematics(model, data)
    return min(
        lowest_point(model, data, g)
        for g in range(model.ngeom)
        if model.geom_bodyid[g] > 0 and model.geom_contype[g]
    )


def _stand(system: HardwareSystem, seconds: float, t: float = 0.0):
    """Command the legs to the keyframe and run ``seconds``; yield each tick's state."""
    pose = system.backend.initial_pose.position
    legs = [j for j in system.joint_names if "wheel" not in j]
    system.submit_joint_state(legs, [pose[j] for j in legs], None, None, t)
    for _ in range(round(seconds / DT)):
        t += DT
        yield t, system.cycle(t, DT)


def _up(quaternion) -> float:
    x, y = quaternion[0], quaternion[1]
    return 1.0 - 2.0 * (x * x + y * y)


def test_placed_on_the_ground_at_its_keyframe(robot, repo_dir: Path) -> None:
    system = _system(robot, repo_dir)
    try:
        assert _lowest(system) == pytest.approx(GROUND_CLEARANCE, abs=1e-12)
        data, qadr = system.backend.data, system.backend._qadr
        q = dict(zip(system.backend.joint_names, data.qpos[qadr]))
        assert (q["fl_hip_joint"], q["rr_knee_joint"], q["fl_wheel_joint"]) == (0.6, -1.2, 0.0)
    finally:
        system.close()


def test_keyframe_base_pose_is_used_as_given(robot, repo_dir: Path) -> None:
    system = _system(robot, repo_dir, "crouch")
    try:
        state = system.base_state()
        assert state is not None and state.position.tolist() == [0.0, 0.0, 0.22]
        assert state.orientation.tolist() == [0.0, 0.0, 0.0, 1.0] and state.link == "base_link"
    finally:
        system.close()


def test_base_state_is_mujocos_body_pose_and_twist(robot, repo_dir: Path) -> None:
    """The ground truth: pose = MuJoCo's body pose of the current state exactly (``xpos``,
    ``xquat`` after ``mj_forward``: a step leaves them at the state before it); twist = the
    body's velocity in its own frame (mj_objectVelocity, local) within rounding."""
    system = _system(robot, repo_dir)
    try:
        for _ in _stand(system, 0.3):
            pass
        model, data = system.backend.model, system.backend.data
        state = system.base_state()
        mujoco.mj_forward(model, data)  # (changes no state: kinematics and velocities of it)
        body = model.body("base_link").id
        assert state is not None and state.sim_time == data.time
        np.testing.assert_array_equal(state.position, data.xpos[body])
        w, x, y, z = data.xquat[body]
        np.testing.assert_array_equal(state.orientation, [x, y, z, w])
        velocity = np.zeros(6)
        # (the link frame)
        mujoco.mj_objectVelocity(model, data, mujoco.mjtObj.mjOBJ_XBODY, body, velocity, 1)
        np.testing.assert_allclose(state.angular_velocity, velocity[:3], rtol=0, atol=1e-12)
        np.testing.assert_allclose(state.linear_velocity, velocity[3:], rtol=0, atol=1e-12)
    finally:
        system.close()


def test_stands_ten_seconds_with_default_gains(robot, repo_dir: Path) -> None:
    """From its keyframe, legs commanded to it: upright (IMU up axis · z > 0.95) and within 2 cm
    of the keyframe's base height for 10 s; then the wheels' contact sensors carry its weight
    (normal force sum within 5 %)."""
    system = _system(robot, repo_dir)
    try:
        start = system.base_state()
        assert start is not None
        up, dz, contacts = 1.0, 0.0, {}
        for _, state in _stand(system, 10.0):
            imu = state.sensors.get("imu")
            if imu is not None:
                up = min(up, _up(imu.orientation))
            base = system.base_state()
            dz = max(dz, abs(base.position[2] - start.position[2]))
            contacts.update({n: r for n, r in state.sensors.items() if n.endswith("_contact")})
        assert up > 0.95 and dz < 0.02, (up, dz)
        weight = mujoco.mj_getTotalmass(system.backend.model) * 9.81
        assert sorted(contacts) == [
            "fl_wheel_contact",
            "fr_wheel_contact",
            "rl_wheel_contact",
            "rr_wheel_contact",
        ]
        normal = sum(-np.dot(c.force, c.normal) for r in contacts.values() for c in r.contacts)
        assert normal == pytest.approx(weight, rel=0.05)
    finally:
        system.close()


def test_wheels_drive_the_base_at_wheel_velocity_times_radius(robot, repo_dir: Path) -> None:
    """Standing, all wheels commanded ω = 4 rad/s on flat ground: after 2 s the base moves at
    ω·r = 0.2 m/s within 2 % (ground truth, base frame), straight ahead."""
    system = _system(robot, repo_dir)
    try:
        t = 0.0
        for t, _ in _stand(system, 0.5):
            pass
        wheels = [j for j in system.joint_names if "wheel" in j]
        system.submit_joint_state(wheels, None, [4.0] * 4, None, t)
        for _ in range(round(2.0 / DT)):
            t += DT
            system.cycle(t, DT)
        state = system.base_state()
        assert state.linear_velocity[0] == pytest.approx(4.0 * WHEEL_RADIUS, rel=0.02)
        assert abs(state.linear_velocity[1]) < 1e-3 and abs(state.angular_velocity[2]) < 1e-3
    finally:
        system.close()


def test_fixed_base_has_no_base_state(repo_dir: Path) -> None:
    system = HardwareSystem(
        load(repo_dir / "urdf" / "demo_arm.urdf.xacro"),
        "mujoco",
        backend_params={"render_cameras": False},
    )
    try:
        assert system.base_state() is None
    finally:
        system.close()
    mock = HardwareSystem(load(repo_dir / "urdf" / "demo_arm.urdf.xacro"), "mock")
    assert mock.base_state() is None  # no base_state on the port


WHEEL = """<?xml version="1.0"?>
<robot name="cart">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01"
    iyz="0" izz="0.01"/></inertial>
    <collision name="body"><geometry><box size="0.2 0.2 0.05"/></geometry></collision></link>
  <gazebo reference="base"><mu1>{mu1}</mu1><mu2>{mu2}</mu2></gazebo>
</robot>"""


@pytest.mark.parametrize(
    ("mu1", "mu2", "used", "note"),
    [
        ("0.7", "0.7", 0.7, None),
        (
            "0.9",
            "0.4",
            0.9,
            "mu1 = 0.9 and mu2 = 0.4 differ; MuJoCo's friction is isotropic, mu1 = 0.9 is used",
        ),
        (
            "-1",
            "0.3",
            0.3,
            "<mu1> = '-1' is not a friction coefficient ≥ 0; MuJoCo's default 1.0 is used",
        ),
    ],
)
def test_friction_from_gazebo_mu(mu1, mu2, used, note, caplog: pytest.LogCaptureFixture) -> None:
    """The link's collision geoms get mu1 (isotropic) and priority 1, so theirs is the friction
    against the ground plane (Gazebo: the smaller of the two, the ground's being 100)."""
    robot = load(WHEEL.format(mu1=mu1, mu2=mu2))
    with caplog.at_level(logging.INFO, logger="sdf_bridge.backends.mujoco"):
        system = HardwareSystem(robot, "mujoco", backend_params={"render_cameras": False})
    try:
        model = system.backend.model
        geom = model.geom("base::collision::body").id
        assert model.geom_friction[geom].tolist()[0] == used and model.geom_priority[geom] == 1
        assert model.geom_friction[model.geom("ground_plane").id][0] == 1.0
        messages = " ".join(r.getMessage() for r in caplog.records)
        assert f"contact friction from <gazebo> mu1/mu2: base {used:g}" in messages
        if note is not None:
            assert note in messages
    finally:
        system.close()
