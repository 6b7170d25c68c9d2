"""Bring up a robot from its description: robot_state_publisher, the sdf_bridge node, rviz2.

    ros2 launch sdf_bridge robot.launch.py [description_file:=FILE] [xacro_args:='k:=v k2:=v2']
        [backend:=mock|mujoco] [rviz:=true|false] [use_sim_time:=false|true]

robot_state_publisher gets the xacro-expanded description (``xacro FILE k:=v ...`` through
``Command``) and publishes ``robot_description`` and TF; the bridge (``config/bridge.yaml`` plus
the overrides) takes the description from that topic, as ros2_control's controller manager
does, and publishes ``joint_states``; rviz2 shows the robot with ``config/robot.rviz``.
The argument handling is :func:`sdf_bridge.ros.launch_args.launch_plan` (plain Python, tested).
"""

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.conditions import IfCondition
from launch.substitutions import Command, LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

from sdf_bridge.ros.launch_args import ARGUMENTS, DEMO_FILE, PACKAGE, command_text, launch_plan


def launch_setup(context, *args, **kwargs):
    """Resolve the launch arguments and return the three nodes."""
    share = get_package_share_directory(PACKAGE)
    values = {a.name: LaunchConfiguration(a.name).perform(context) for a in ARGUMENTS}
    plan = launch_plan(values, share)
    robot_description = ParameterValue(Command(command_text(plan.xacro_command)), value_type=str)
    robot_state_publisher = Node(
        package="robot_state_publisher",
        executable="robot_state_publisher",
        output="both",
        parameters=[{"robot_description": robot_description, **plan.rsp_parameters}],
    )
    bridge = Node(
        package=PACKAGE,
        executable="bridge",
        name="sdf_bridge",
        output="both",
        parameters=list(plan.bridge_parameters),
    )
    rviz = Node(
        package="rviz2",
        executable="rviz2",
        name="rviz2",
        output="log",
        arguments=list(plan.rviz_arguments),
        parameters=[{"use_sim_time": plan.use_sim_time}],
        condition=IfCondition(LaunchConfiguration("rviz")),
    )
    return [robot_state_publisher, bridge, rviz]


def generate_launch_description():
    """Declare the arguments of :data:`sdf_bridge.ros.launch_args.ARGUMENTS` and the nodes."""
    demo = "/".join((get_package_share_directory(PACKAGE), *DEMO_FILE))
    declared = [
        DeclareLaunchArgument(a.name, default_value=demo if a.default is None else a.default,
                              description=a.description)
        for a in ARGUMENTS
    ]
    return LaunchDescription(declared + [OpaqueFunction(function=launch_setup)])
