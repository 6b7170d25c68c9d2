"""sdf_bridge.app.control_launch (ros2_control.launch.py's logic, no ``launch`` needed) and the
launch file's structure (read as source: ``launch`` is not installed here)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from sdf_bridge.app.control_launch import (
    ARGUMENTS,
    BOOLEAN_ARGUMENTS,
    control_plan,
    read_controllers,
    sensor_remappings,
)
from sdf_bridge.app.launch_args import ARGUMENTS as ROBOT_ARGUMENTS
from sdf_bridge.description import load
from sdf_bridge.errors import ConfigError
from sdf_bridge.hardware.topic_block import PICKNIK, SUCCESSOR, topic_based_block

DEMO_JOINTS = [
    "base_yaw",
    "shoulder_lift",
    "elbow",
    "wrist_pitch",
    "wrist_roll",
    "left_finger_joint",
]


@pytest.fixture()
def share(repo_dir: Path) -> Path:
    """The source tree has the share layout (urdf/, config/)."""
    return repo_dir


def test_arguments_extend_those_of_robot_launch() -> None:
    names = [a.name for a in ARGUMENTS]
    assert names == [
        "description_file",
        "xacro_args",
        "backend",
        "use_sim_time",
        "namespace",
        "frame_prefix",
        "package_paths",
        "model",
        "controllers_file",
        "plugin",
        "command_interfaces",
        "controllers",
        "inactive_controllers",
    ]
    shared = {a.name: a for a in ROBOT_ARGUMENTS}
    assert all(a is shared[a.name] for a in ARGUMENTS if a.name in shared)  # the same declarations
    assert BOOLEAN_ARGUMENTS == ("use_sim_time",) and all(a.description for a in ARGUMENTS)


def test_defaults_plan(share: Path) -> None:
    plan = control_plan({"use_sim_time": False}, share)
    controllers = str(share / "config" / "ros2_controllers.yaml")
    assert plan.plugin == SUCCESSOR and plan.namespace == "" and plan.frame_prefix == ""
    block = topic_based_block(load(plan.robot_description))
    assert block.param("joint_states_topic") == "/sdf_bridge/joint_states"
    assert {j.name: [i.name for i in j.command_interfaces] for j in block.joints} == {
        **{j: ["position"] for j in DEMO_JOINTS},
        "right_finger_joint": [],
    }
    assert plan.bridge_parameters == (
        str(share / "config" / "bridge.yaml"),
        {
            "backend": "mock",
            "use_sim_time": False,
            "use_description_topic": True,
            "frame_prefix": "",
            "update_rate": 100.0,
            "thread_priority": 50,
            "package_paths": "",
        },
    )
    # joint_states only from the broadcaster; the IMU and F/T broadcasters' topics served by
    # the bridge
    assert plan.bridge_remappings == (
        ("joint_states", "/sdf_bridge/joint_states"),
        ("joint_commands", "/sdf_bridge/joint_commands"),
        ("imu", "imu_sensor_broadcaster/imu"),
        ("ft", "force_torque_sensor_broadcaster/wrench"),
    )
    assert plan.manager_parameters == (controllers, {"use_sim_time": False})
    assert plan.spawners == (
        ("joint_state_broadcaster", "forward_position_controller", "--param-file", controllers),
    )
    assert plan.packages() == (
        "robot_state_publisher",
        "sdf_bridge",
        "controller_manager",
        "joint_state_topic_hardware_interface",
        "forward_command_controller",
        "joint_state_broadcaster",
    )
    assert plan.rsp_parameters == {"use_sim_time": False, "frame_prefix": ""} and plan.notes == ()


def test_namespace_picknik_and_one_mode(share: Path) -> None:
    plan = control_plan(
        {
            "use_sim_time": True,
            "namespace": "left",
            "plugin": PICKNIK,
            "command_interfaces": "velocity",
            "controllers": "forward_velocity_controller",
            "inactive_controllers": "joint_trajectory_controller forward_position_controller",
        },
        share,
    )
    block = topic_based_block(load(plan.robot_description))
    assert (
        block.plugin == PICKNIK
        and block.param("joint_commands_topic") == "/left/sdf_bridge/joint_commands"
    )
    assert all([i.name for i in j.command_interfaces] in (["velocity"], []) for j in block.joints)
    assert plan.frame_prefix == "left/" and plan.bridge_parameters[1]["frame_prefix"] == "left/"
    assert plan.bridge_remappings[:2] == (
        ("joint_states", "/left/sdf_bridge/joint_states"),
        ("joint_commands", "/left/sdf_bridge/joint_commands"),
    )
    assert plan.spawners[1][:3] == (
        "joint_trajectory_controller",
        "forward_position_controller",
        "--inactive",
    )
    assert (
        "topic_based_ros2_control" in plan.packages()
        and "joint_trajectory_controller" in plan.packages()
    )
    assert plan.use_sim_time is True and plan.manager_parameters[1] == {"use_sim_time": True}


def test_a_topic_based_block_of_the_description_is_used_as_it_is(share: Path) -> None:
    """The demo xacro with a topic-based plugin: its block, plugin and topics (not generated)."""
    plan = control_plan(
        {
            "use_sim_time": False,
            "plugin": SUCCESSOR,
            "xacro_args": f"hardware_plugin:={PICKNIK} joint_states_topic:=/arm/states",
        },
        share,
    )
    assert plan.plugin == PICKNIK
    block = topic_based_block(load(plan.robot_description))
    # its own
    assert [i.name for i in block.joints[0].command_interfaces] == [
        "position",
        "velocity",
        "effort",
    ]
    assert plan.bridge_remappings[:2] == (
        ("joint_states", "/arm/states"),
        ("joint_commands", "/sdf_bridge/joint_commands"),
    )


def test_another_robot_with_its_controllers(share: Path, tmp_path: Path) -> None:
    urdf = tmp_path / "r.urdf"
    urdf.write_text(
        '<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="continuous">'
        '<parent link="a"/><child link="b"/><limit effort="1" velocity="1"/></joint></robot>'
    )
    controllers = tmp_path / "c.yaml"
    controllers.write_text(
        yaml.safe_dump(
            {
                "controller_manager": {
                    "ros__parameters": {
                        "update_rate": 250,
                        "jsb": {"type": "joint_state_broadcaster/JointStateBroadcaster"},
                        "fwd": {"type": "forward_command_controller/ForwardCommandController"},
                        "imu_b": {"type": "imu_sensor_broadcaster/IMUSensorBroadcaster"},
                    }
                },
                "fwd": {"ros__parameters": {"joints": ["j"], "interface_name": "position"}},
                "imu_b": {"ros__parameters": {"sensor_name": "nowhere"}},
            }
        )
    )
    plan = control_plan(
        {
            "use_sim_time": False,
            "description_file": str(urdf),
            "controllers_file": str(controllers),
            "controllers": "fwd",
        },
        share,
    )
    assert plan.spawners == (("jsb", "fwd", "--param-file", str(controllers)),)
    assert plan.bridge_parameters[1]["update_rate"] == 250.0
    assert plan.notes == (
        "imu_b: the robot has no imu sensor 'nowhere' (its sensor_name), so nothing publishes "
        "imu_b/imu",
        f"controllers file {controllers}: the controller_manager enforces the joint limits too "
        "(enforce_command_limits is not false), and deactivates a controller when a joint's "
        "state is more than 0.0087 rad past a limit; the bridge enforces them already. Fix: set "
        "enforce_command_limits: false under controller_manager: ros__parameters:",
    )
    assert topic_based_block(load(plan.robot_description)).joints[0].name == "j"
    data = yaml.safe_load(controllers.read_text())
    for value, noted in ((False, False), (True, True)):
        data["controller_manager"]["ros__parameters"]["enforce_command_limits"] = value
        controllers.write_text(yaml.safe_dump(data))
        again = control_plan(
            {
                "description_file": str(urdf),
                "controllers_file": str(controllers),
                "controllers": "fwd",
            },
            share,
        )
        assert any("enforce_command_limits" in note for note in again.notes) is noted


@pytest.mark.parametrize(
    ("values", "match"),
    [
        (
            {"plugin": "mock_components/GenericSystem"},
            "is not a topic-based ros2_control hardware interface",
        ),
        ({"command_interfaces": "position effort"}, "are not one control mode"),
        ({"controllers": "nope"}, r"controller 'nope' is not declared in .*ros2_controllers.yaml"),
        (
            {"controllers": "imu_sensor_broadcaster"},
            "reads sensor interfaces, which the topic-based plugins do not carry",
        ),
        (
            {"controllers_file": "/nonexistent.yaml"},
            r"controllers_file:=/nonexistent.yaml does not exist",
        ),
        ({"namespace": "2x"}, r"namespace:='2x' is not a ROS namespace"),
        ({"rviz": True}, r"unknown launch arguments \['rviz'\]"),
    ],
)
def test_plan_errors(share: Path, values: dict, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        control_plan({"use_sim_time": False, **values}, share)


def test_controllers_file_errors(share: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [")
    with pytest.raises(ConfigError, match="is not YAML"):
        read_controllers(bad)
    bad.write_text("controller_manager:\n  ros__parameters:\n    update_rate: 100\n")
    with pytest.raises(ConfigError, match="declares no controller"):
        read_controllers(bad)
    bad.write_text(
        "controller_manager:\n  ros__parameters:\n    f:\n      type: "
        "forward_command_controller/X\n"
    )
    with pytest.raises(ConfigError, match="has no joint_state_broadcaster/JointStateBroadcaster"):
        control_plan(
            {"use_sim_time": False, "controllers_file": str(bad), "controllers": ""}, share
        )
    other = tmp_path / "other.yaml"
    data = yaml.safe_load((share / "config" / "ros2_controllers.yaml").read_text())
    data["/**/forward_position_controller"]["ros__parameters"]["joints"] = [
        "base_yaw",
        "right_finger_joint",
    ]
    other.write_text(yaml.safe_dump(data))
    with pytest.raises(
        ConfigError,
        match=r"names joints \['right_finger_joint'\] that robot 'demo_arm' does not command",
    ):
        control_plan({"use_sim_time": False, "controllers_file": str(other)}, share)


def test_config_file_declares_what_the_readme_and_tests_use(share: Path) -> None:
    manager, types, params = read_controllers(share / "config" / "ros2_controllers.yaml")
    assert manager["update_rate"] == 100
    assert types == {
        "joint_state_broadcaster": "joint_state_broadcaster/JointStateBroadcaster",
        "forward_position_controller": "forward_command_controller/ForwardCommandController",
        "forward_velocity_controller": "forward_command_controller/ForwardCommandController",
        "forward_effort_controller": "forward_command_controller/ForwardCommandController",
        "joint_trajectory_controller": "joint_trajectory_controller/JointTrajectoryController",
        "imu_sensor_broadcaster": "imu_sensor_broadcaster/IMUSensorBroadcaster",
        "force_torque_sensor_broadcaster": (
            "force_torque_sensor_broadcaster/ForceTorqueSensorBroadcaster"
        ),
    }
    for mode in ("position", "velocity", "effort"):
        assert params[f"forward_{mode}_controller"] == {
            "joints": DEMO_JOINTS,
            "interface_name": mode,
        }
    assert params["joint_trajectory_controller"]["command_interfaces"] == ["position"]


def test_launch_file_structure(repo_dir: Path) -> None:
    """The launch file uses control_plan, declares every argument, reads use_sim_time with
    launch's condition parser, looks every package up before starting a node, and starts
    robot_state_publisher, the bridge (with the plan's remappings), ros2_control_node and the
    spawners, all in the namespace (checked on its syntax tree)."""
    source = (repo_dir / "launch" / "ros2_control.launch.py").read_text()
    tree = ast.parse(source)
    assert {"generate_launch_description", "launch_setup"} <= {
        n.name for n in tree.body if isinstance(n, ast.FunctionDef)
    }
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    called = {c.func.id for c in calls if isinstance(c.func, ast.Name)}
    assert {
        "DeclareLaunchArgument",
        "OpaqueFunction",
        "Node",
        "evaluate_condition_expression",
        "argument_values",
        "require_packages",
        "control_plan",
        "LogInfo",
    } <= called
    nodes = [c for c in calls if isinstance(c.func, ast.Name) and c.func.id == "Node"]
    executables = {
        kw.value.value
        for c in nodes
        for kw in c.keywords
        if kw.arg == "executable" and isinstance(kw.value, ast.Constant)
    }
    assert executables == {"robot_state_publisher", "bridge", "ros2_control_node", "spawner"}
    assert all(any(kw.arg == "namespace" for kw in c.keywords) for c in nodes)
    assert "bridge_parameters, bridge_remappings = plan.bridge_node()" in source
    assert "remappings=bridge_remappings" in source and "parameters=bridge_parameters" in source


def test_a_broadcaster_takes_the_topic_the_sensors_plugin_names() -> None:
    """The bridge publishes the IMU on its gazebo_ros plug-in's remapped topic, so that is the
    topic remapped to the broadcaster's."""
    robot = load(
        """<robot name="r"><link name="base"/><gazebo reference="base">
      <sensor name="imu" type="imu"><plugin name="imu_plugin" filename="libgazebo_ros_imu.so">
        <ros><namespace>/rover</namespace><remapping>~/out:=imu/data</remapping></ros>
      </plugin></sensor></gazebo></robot>"""
    )
    types = {"imu_sensor_broadcaster": "imu_sensor_broadcaster/IMUSensorBroadcaster"}
    params = {"imu_sensor_broadcaster": {"sensor_name": "imu"}}
    assert sensor_remappings(robot, types, params) == (
        [("rover/imu/data", "imu_sensor_broadcaster/imu")],
        [],
    )


def test_the_bridge_loop_takes_the_controller_managers_thread_priority(
    share: Path, tmp_path: Path
) -> None:
    """ros2_control_node's thread_priority (default 50) is the bridge's; a bad one is refused."""
    data = yaml.safe_load((share / "config" / "ros2_controllers.yaml").read_text())
    manager = data["/**/controller_manager"]["ros__parameters"]
    path = tmp_path / "c.yaml"

    def plan_with(priority: object) -> dict:
        manager.pop("thread_priority", None)
        if priority is not None:
            manager["thread_priority"] = priority
        path.write_text(yaml.safe_dump(data))
        return control_plan({"use_sim_time": False, "controllers_file": str(path)}, share)

    for given, expected in ((None, 50), (70, 70), (0, 0)):
        assert plan_with(given).bridge_parameters[1]["thread_priority"] == expected
    for bad in (120, "high", True):
        with pytest.raises(ConfigError, match=r"thread_priority .* not a whole number in 0\.\.99"):
            plan_with(bad)


def test_a_ball_joint_robot_runs_the_sdformat_model_in_the_bridge(
    share: Path, tmp_path: Path
) -> None:
    """An SDFormat model with a universal and a ball joint: robot_state_publisher and the
    controller_manager get the URDF with the chains (u/axis1, u/axis2; b/yaw, b/pitch,
    b/roll), the bridge the SDFormat model with the same block as text (the ball stays a ball
    joint), its own robot_description remapped to its private topic, local files allowed."""
    model = tmp_path / "m.sdf"
    model.write_text(
        """<sdf version="1.9"><model name="m"><link name="base"/>
  <joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
  <link name="a"><inertial><mass>1</mass></inertial></link>
  <joint name="u" type="universal"><parent>base</parent><child>a</child>
    <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
  <link name="c"><inertial><mass>1</mass></inertial></link>
  <joint name="b" type="ball"><parent>a</parent><child>c</child></joint>
</model></sdf>"""
    )
    controllers = tmp_path / "c.yaml"
    controllers.write_text(
        yaml.safe_dump(
            {
                "controller_manager": {
                    "ros__parameters": {
                        "jsb": {"type": "joint_state_broadcaster/JointStateBroadcaster"},
                        "fwd": {"type": "forward_command_controller/ForwardCommandController"},
                    }
                },
                "fwd": {"ros__parameters": {"joints": ["u/axis1", "u/axis2"]}},
            }
        )
    )
    values = {"use_sim_time": False, "description_file": str(model), "controllers": "fwd"}
    plan = control_plan({**values, "controllers_file": str(controllers)}, share)
    urdf = load(plan.robot_description)
    assert [n for n in urdf.joints if "/" in n] == [
        "u/axis1",
        "u/axis2",
        "b/yaw",
        "b/pitch",
        "b/roll",
    ]
    assert plan.bridge_parameters[1]["use_description_topic"] is True  # (control's: a file)
    (_config, params), remappings = plan.bridge_node()
    assert params["robot_description"] == plan.bridge_model
    bridge = load(params["robot_description"])
    assert bridge.format == "sdf" and bridge.joints["b"].type.value == "ball"
    assert [j.name for j in bridge.ros2_control[0].joints] == [
        j.name for j in urdf.ros2_control[0].joints
    ]
    assert (params["use_description_topic"], params["allow_local_files"]) == (False, True)
    assert remappings[-1] == ("robot_description", "/sdf_bridge/robot_description")
    assert plan.bridge_remappings == tuple(remappings[:-1])
    assert any("the bridge simulates the SDFormat model" in note for note in plan.notes)
