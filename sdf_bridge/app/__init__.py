"""The application layer: what ``sdf-bridge`` and the ROS node do, without ROS.

Description sources, launch arguments, the ros2_control plan, topic names, stop signals and
the hardware time base; ``cli``, ``summary`` and :mod:`sdf_bridge.ros` use it, and nothing
here imports rclpy."""
