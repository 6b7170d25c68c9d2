"""sdf_bridge.backends.mujoco.options: the MuJoCo backend's parameters, refused at configure when
MuJoCo could not use them (not a number, not finite, negative where meaningless, beyond the
description's magnitude bound), and one warning for the parameters that are not its own."""

from __future__ import annotations

import logging
import math

import pytest
from mujoco_helpers import pendulum_urdf

from sdf_bridge.backends.mujoco.options import KNOWN_PARAMS, parse_options
from sdf_bridge.description import load
from sdf_bridge.description.magnitudes import MAX_MAGNITUDE
from sdf_bridge.errors import ConfigError

LOGGER = "sdf_bridge.backends.mujoco.backend"

ARMATURE_FIX = (
    r"Fix: give the rotor inertia reflected to the joint, 0 ≤ armature ≤ 1e6 \(kg·m² for a "
    r"revolute joint, kg for a prismatic one\)"
)
TIMESTEP_LOW = r"must be ≥ 1e-6 s \(at most 1e6 physics steps per simulated second\)"
BEYOND = r"is beyond the bound ±1e6 \(a value no simulator can use\)"

# The parameters of a real driver's <hardware> (Kinova's kortex_driver names), 12 of them.
DRIVER_PARAMS = {
    "robot_ip": "192.168.1.10",
    "username": "admin",
    "password": "admin",
    "port": "10000",
    "port_realtime": "10001",
    "session_inactivity_timeout_ms": "60000",
    "connection_inactivity_timeout_ms": "2000",
    "tf_prefix": '""',
    "use_internal_bus_gripper_comm": "true",
    "gripper_joint_name": "finger_joint",
    "gripper_max_velocity": "100.0",
    "gripper_max_force": "100.0",
}


def _driver_block(**params: str) -> str:
    written = "".join(f'<param name="{k}">{v}</param>' for k, v in params.items())
    return (
        '<ros2_control name="arm" type="system"><hardware>'
        f"<plugin>kortex_driver/KortexMultiInterfaceHardware</plugin>{written}</hardware>"
        '<joint name="j"><command_interface name="position"/>'
        '<state_interface name="position"/></joint></ros2_control>'
    )


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"timestep": -1}, rf"timestep = -1 {TIMESTEP_LOW}"),
        ({"timestep": 0.0}, rf"timestep = 0.0 {TIMESTEP_LOW}"),
        ({"timestep": 1e-300}, rf"timestep = 1e-300 {TIMESTEP_LOW}"),
        ({"timestep": 1e7}, rf"timestep = 10000000.0 {BEYOND}"),
        ({"timestep": "fast"}, r"timestep = 'fast' is not a number\. Fix: give the physics step"),
        ({"timestep": math.inf}, r"timestep = inf must be finite"),
        ({"gravity": [0, 0]}, r"gravity .* must have 3 numbers, has 2\. Fix: give the world's"),
        ({"gravity": 9.81}, r"gravity = 9.81 must be a list of 3 numbers"),
        ({"gravity": "0 0 down"}, r"gravity\[2\] = 'down' is not a number"),
        (
            {"gravity": [0.0, 0.0, 1e308]},
            rf"gravity\[2\] = 1e\+308 {BEYOND}\. Fix: give the world's gravity in m/s², each "
            r"component within ±1e6 \(Earth: \[0\.0, 0\.0, -9\.81\]\)",
        ),
        ({"gravity": [math.nan, 0.0, -9.81]}, r"gravity\[0\] = nan must be finite"),
        ({"gravity": "0 0 -inf"}, r"gravity\[2\] = '-inf' must be finite"),
        ({"fixed_base": "maybe"}, r"fixed_base = 'maybe' is not a boolean"),
        ({"render_cameras": "sometimes"}, r"render_cameras = 'sometimes' is not a boolean"),
        ({"position_mode": "magic"}, r"position_mode = 'magic'; use 'pid' or 'ideal'"),
        ({"armature": -1.0}, rf"armature = -1.0 must be ≥ 0\. {ARMATURE_FIX}"),
        ({"armature": {"j": -0.5}}, rf"armature\.j = -0.5 must be ≥ 0\. {ARMATURE_FIX}"),
        ({"armature.j": "-2"}, rf"armature\.j = '-2' must be ≥ 0\. {ARMATURE_FIX}"),
        ({"armature": math.inf}, rf"armature = inf must be finite\. {ARMATURE_FIX}"),
        ({"armature.j": math.nan}, r"armature\.j = nan must be finite"),
        ({"armature": 2e6}, rf"armature = 2000000.0 {BEYOND}\. {ARMATURE_FIX}"),
        ({"armature": "heavy"}, r"armature = 'heavy' is not a number"),
        ({"armature": {"nope": 1}}, r"armature names unknown joint\(s\) \['nope'\]"),
        ({"armature.nope": 0.1}, r"armature.nope names unknown joint 'nope'"),
        ({"base_pose": [1, 2]}, r"base_pose .* must have 6 numbers"),
        (
            {"base_pose": [0, 0, 1e308, 0, 0, 0]},
            rf"base_pose\[2\] = 1e\+308 {BEYOND}\. Fix: give \[x, y, z, roll, pitch, yaw\] in m "
            r"and rad, each within ±1e6",
        ),
        ({"base_pose": "0 0 0 0 0 nan"}, r"base_pose\[5\] = 'nan' must be finite"),
        ({"noise_seed": -1}, r"noise_seed = -1 must be a whole number ≥ 0\. Fix: give a whole"),
        ({"noise_seed": "-3"}, r"noise_seed = '-3' must be a whole number ≥ 0"),
        ({"noise_seed": 1.5}, r"noise_seed = 1.5 must be a whole number ≥ 0"),
        ({"noise_seed": "2.5"}, r"noise_seed = '2.5' must be a whole number ≥ 0"),
        ({"noise_seed": True}, r"noise_seed = True is not a number"),
        ({"noise_seed": "lucky"}, r"noise_seed = 'lucky' is not a number"),
        ({"noise_seed": math.inf}, r"noise_seed = inf must be finite"),
        (
            {"pid_gains": {"j": {"p": 1e308}}},
            r"pid_gains\.j\.p = 1e\+308 is beyond the bound 1e6 \(a gain no simulator can use\)\. "
            r"Fix: give a finite number ≥ 0 and ≤ 1e6",
        ),
        ({"pid_gains.j.d": "2e6"}, r"pid_gains\.j\.d = '2e6' is beyond the bound 1e6"),
        ({"pid_gains.j.i": "-1"}, r"pid_gains\.j\.i = '-1' must be a finite number ≥ 0"),
        ({"pid_gains": {"nope": {"p": 1}}}, r"pid_gains names joint\(s\) \['nope'\]"),
    ],
)
def test_bad_parameters_refused_at_configure(make_sim, params, message) -> None:
    with pytest.raises(ConfigError, match=message):
        make_sim(pendulum_urdf(), params)


def test_a_description_gain_beyond_the_bound_is_refused(make_sim) -> None:
    urdf = pendulum_urdf(
        extra='<ros2_control name="s" type="system"><hardware><plugin>x/Y</plugin></hardware>'
        '<joint name="j"><param name="p">1e9</param><command_interface name="position"/>'
        "</joint></ros2_control>"
    )
    with pytest.raises(
        ConfigError, match=r"<ros2_control name='s'> joint 'j' param p = '1e9' is beyond the bound"
    ):
        make_sim(urdf)


def test_values_at_the_bounds_are_used_as_given(make_sim) -> None:
    """0 and MAX_MAGNITUDE are inside the bounds; an i_clamp is not bounded (huge = not
    clamped)."""
    sim = make_sim(
        pendulum_urdf(),
        {
            "armature": MAX_MAGNITUDE,
            "gravity": [0.0, 0.0, -MAX_MAGNITUDE],
            "timestep": 1e-6,
            "pid_gains": {"j": {"p": MAX_MAGNITUDE, "i": 0.0, "d": 0.0, "i_clamp": 1e300}},
        },
    )
    assert sim.backend.model.dof_armature[0] == MAX_MAGNITUDE
    assert list(sim.backend.model.opt.gravity) == [0.0, 0.0, -MAX_MAGNITUDE]
    assert sim.backend.model.opt.timestep == 1e-6
    gains = sim.backend.pid.gains
    assert (gains.p[0], gains.i[0], gains.d[0], gains.i_clamp[0]) == (MAX_MAGNITUDE, 0, 0, 1e300)
    assert make_sim(pendulum_urdf(), {"armature": 0}).backend.model.dof_armature[0] == 0.0


@pytest.mark.parametrize(
    ("given", "seed"),
    [
        (0, 0),
        (7, 7),
        (3.0, 3),
        ("42", 42),
        (" 12345678901234567890 ", 12345678901234567890),  # exactly, not through a float
        ("1e3", 1000),
        (None, None),
        ("", None),
    ],
)
def test_noise_seed(given, seed) -> None:
    assert parse_options(load(pendulum_urdf()), {"noise_seed": given})[2] == seed


def test_string_parameters_accepted(make_sim) -> None:
    """Values from ``<ros2_control><param>`` arrive as strings."""
    sim = make_sim(
        pendulum_urdf(), {"timestep": "0.002", "gravity": "0 0 -1.62", "fixed_base": "true"}
    )
    assert sim.backend.model.opt.timestep == 0.002
    assert list(sim.backend.model.opt.gravity) == [0.0, 0.0, -1.62]


def test_flat_ros_parameters(make_sim) -> None:
    """ROS flattens nested backend_params: pid_gains.<joint>.<gain>, armature.<joint>."""
    sim = make_sim(
        pendulum_urdf(), {"pid_gains.j.p": 12.0, "pid_gains.j.d": "3", "armature.j": 0.25}
    )
    assert (sim.backend.pid.gains.p[0], sim.backend.pid.gains.d[0]) == (12.0, 3.0)
    assert sim.backend.model.dof_armature[0] == 0.25


def test_a_real_drivers_parameters_give_one_warning(make_sim, caplog) -> None:
    """A description for a real driver: its 12 ``<hardware><param>``\\ s are ignored with one
    warning that names each of them once and the backend's own parameters once."""
    from sdf_bridge.hardware.backend_setup import backend_parameters

    robot = load(pendulum_urdf(extra=_driver_block(**DRIVER_PARAMS)))
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        sim = make_sim(robot, backend_parameters(robot, None))
    messages = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    names = ", ".join(repr(k) for k in DRIVER_PARAMS)
    assert messages == [
        f"MuJoCo backend: 12 parameter(s) not its own, ignored: {names} (the parameters of "
        "another plug-in, e.g. a real driver's <ros2_control><hardware><param>s, or a misspelt "
        "backend_params.*). Its parameters: " + ", ".join(sorted(KNOWN_PARAMS))
    ]
    assert sim.backend.model.opt.timestep == 0.001  # (the defaults)


def test_a_misspelt_parameter_is_warned_with_the_one_meant(make_sim, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        sim = make_sim(pendulum_urdf(), {"timstep": 0.002, "Gravity": [0, 0, -1], "robot_ip": "x"})
    (message,) = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    assert message.startswith(
        "MuJoCo backend: 3 parameter(s) not its own, ignored: 'timstep', 'Gravity', 'robot_ip' "
    )
    assert "; 'timstep' is probably 'timestep'; 'Gravity' is probably 'gravity'. Its" in message
    assert sim.backend.model.opt.timestep == 0.001


def test_known_and_flattened_parameters_give_no_warning(make_sim, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        make_sim(pendulum_urdf(), {"timestep": 0.001, "pid_gains.j.p": 5.0, "armature.j": 0.1})
    assert [r for r in caplog.records if r.name == LOGGER] == []


def test_config_file_holds_the_defaults(repo_dir) -> None:
    """config/mujoco.yaml lists the backend's defaults: parsing it gives the same options as
    parsing no parameters, and every key is known."""
    import yaml

    config = yaml.safe_load((repo_dir / "config" / "mujoco.yaml").read_text())
    params = config["/**"]["ros__parameters"]
    assert params["backend"] == "mujoco"
    backend_params = params["backend_params"]
    assert set(backend_params) <= KNOWN_PARAMS
    robot = load(pendulum_urdf())
    assert parse_options(robot, backend_params) == parse_options(robot, {})
