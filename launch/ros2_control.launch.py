"""The bridge driven by ros2_control: robot_state_publisher, the sdf_bridge node, the
controller_manager with a topic-based hardware interface, and the controllers' spawners.

    ros2 launch sdf_bridge ros2_control.launch.py [description_file:=FILE] [xacro_args:='k:=v']
        [backend:=mock|mujoco] [use_sim_time:=false|true] [namespace:=NS] [frame_prefix:=PREFIX/]
        [package_paths:='pkg=DIR pkg2=DIR2'] [model:=NAME] [controllers_file:=FILE]
        [plugin:=joint_state_topic_hardware_interface/JointStateTopicSystem]
        [command_interfaces:=position] [controllers:='forward_position_controller']
        [inactive_controllers:=joint_trajectory_controller]

As ros2_control_demos do: robot_state_publisher publishes the description (with the
``<ros2_control>`` block for the topic-based plugin, generated unless the description names
one) and TF from joint_state_broadcaster's ``joint_states``; ``ros2_control_node`` reads the
description from the ``robot_description`` topic and the controllers from ``controllers_file``;
the plugin exchanges commands and states with the bridge on the block's topics; the spawners
start joint_state_broadcaster and ``controllers`` and load ``inactive_controllers``. The bridge
serves the topics of the file's IMU / force-torque sensor broadcasters itself. Before any node
starts, the packages of all of them are looked up. The argument handling is
:func:`sdf_bridge.app.control_launch.control_plan` (plain Python, tested).
"""

from ament_index_python.packages import get_package_share_directory
from launch.actions import DeclareLaunchArgument, LogInfo, OpaqueFunction
from launch.conditions import evaluate_condition_expression
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

from launch import LaunchDescription
from sdf_bridge.app.control_launch import ARGUMENTS, BOOLEAN_ARGUMENTS, control_plan
from sdf_bridge.app.launch_args import PACKAGE, argument_values, require_packages


def launch_setup(context, *args, **kwargs):
    """Resolve the launch arguments, check the packages and return the nodes."""
    values = argument_values(
        ARGUMENTS,
        BOOLEAN_ARGUMENTS,
        lambda name: LaunchConfiguration(name).perform(context),
        lambda name: evaluate_condition_expression(context, [LaunchConfiguration(name)]),
    )
    plan = control_plan(values, get_package_share_directory(PACKAGE))
    require_packages(plan.packages())
    namespace = plan.namespace or None
    bridge_parameters, bridge_remappings = plan.bridge_node()
    actions = [LogInfo(msg=f"sdf_bridge: {note}") for note in plan.notes]
    actions += [
        Node(
            package="robot_state_publisher",
            executable="robot_state_publisher",
            namespace=namespace,
            output="both",
            parameters=[
                {
                    "robot_description": ParameterValue(plan.robot_description, value_type=str),
                    **plan.rsp_parameters,
                }
            ],
        ),
        Node(
            package=PACKAGE,
            executable="bridge",
            name="sdf_bridge",
            namespace=namespace,
            output="both",
            parameters=bridge_parameters,
            remappings=bridge_remappings,
        ),
        Node(
            package="controller_manager",
            executable="ros2_control_node",
            namespace=namespace,
            output="both",
            parameters=list(plan.manager_parameters),
        ),
    ]
    actions += [
        Node(
            package="controller_manager",
            executable="spawner",
            namespace=namespace,
            output="both",
            arguments=list(arguments),
        )
        for arguments in plan.spawners
    ]
    return actions


def generate_launch_description():
    """Declare the arguments of :data:`sdf_bridge.app.control_launch.ARGUMENTS` and the nodes."""
    share = get_package_share_directory(PACKAGE)
    declared = [
        DeclareLaunchArgument(
            a.name, default_value=a.default_value(share), description=a.description
        )
        for a in ARGUMENTS
    ]
    return LaunchDescription(declared + [OpaqueFunction(function=launch_setup)])
