"""Bring up a robot from its description: robot_state_publisher, the sdf_bridge node, rviz2.

    ros2 launch sdf_bridge robot.launch.py [description_file:=FILE] [xacro_args:='k:=v k2:=v2']
        [backend:=mock|mujoco] [rviz:=true|false] [use_sim_time:=false|true]
        [namespace:=NS] [frame_prefix:=PREFIX/]

robot_state_publisher gets the xacro-expanded description (``xacro FILE k:=v ...`` through
``Command``) and publishes ``robot_description`` and TF; the bridge (``config/bridge.yaml`` plus
the overrides) takes the description from that topic, as ros2_control's controller manager
does, and publishes ``joint_states``; rviz2 shows the robot (``config/robot.rviz`` with the
robot's root link as fixed frame). Every node runs in ``namespace``; every frame gets
``frame_prefix`` (default ``<namespace>/`` with a namespace). Booleans are read with launch's
own condition parser (true/false/1/0). Before any node starts, the packages of all of them are
looked up, so a missing rviz2 stops the launch with a clear message instead of leaving the
other nodes running. The argument handling is :func:`sdf_bridge.app.launch_args.launch_plan`
(plain Python, tested).
"""

import tempfile

from ament_index_python.packages import get_package_share_directory
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.conditions import evaluate_condition_expression
from launch.substitutions import Command, LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

from launch import LaunchDescription
from sdf_bridge.app.launch_args import (
    ARGUMENTS,
    BOOLEAN_ARGUMENTS,
    PACKAGE,
    argument_values,
    command_text,
    launch_plan,
    require_packages,
)


def launch_setup(context, *args, **kwargs):
    """Resolve the launch arguments, check the packages and return the nodes."""
    values = argument_values(
        ARGUMENTS,
        BOOLEAN_ARGUMENTS,
        lambda name: LaunchConfiguration(name).perform(context),
        lambda name: evaluate_condition_expression(context, [LaunchConfiguration(name)]),
    )
    plan = launch_plan(values, get_package_share_directory(PACKAGE))
    require_packages(plan.packages(), {"rviz2": " or rviz:=false"})
    namespace = plan.namespace or None
    robot_description = ParameterValue(Command(command_text(plan.xacro_command)), value_type=str)
    nodes = [
        Node(
            package="robot_state_publisher",
            executable="robot_state_publisher",
            namespace=namespace,
            output="both",
            parameters=[{"robot_description": robot_description, **plan.rsp_parameters}],
        ),
        Node(
            package=PACKAGE,
            executable="bridge",
            name="sdf_bridge",
            namespace=namespace,
            output="both",
            parameters=list(plan.bridge_parameters),
        ),
    ]
    if plan.rviz:
        with tempfile.NamedTemporaryFile(
            "w", prefix="sdf_bridge_", suffix=".rviz", delete=False
        ) as config:
            config.write(plan.rviz_config)
        nodes.append(
            Node(
                package="rviz2",
                executable="rviz2",
                name="rviz2",
                namespace=namespace,
                output="log",
                arguments=["-d", config.name],
                parameters=[{"use_sim_time": plan.use_sim_time}],
            )
        )
    return nodes


def generate_launch_description():
    """Declare the arguments of :data:`sdf_bridge.app.launch_args.ARGUMENTS` and the nodes."""
    share = get_package_share_directory(PACKAGE)
    declared = [
        DeclareLaunchArgument(
            a.name, default_value=a.default_value(share), description=a.description
        )
        for a in ARGUMENTS
    ]
    return LaunchDescription(declared + [OpaqueFunction(function=launch_setup)])
