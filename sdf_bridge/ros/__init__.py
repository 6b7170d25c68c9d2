"""The ROS 2 side of sdf_bridge: the only subpackage that imports rclpy or message types.

Modules: :mod:`.node` (the ``sdf_bridge`` node), :mod:`.params` (parameters),
:mod:`.conversions` (messages ↔ arrays), :mod:`.description_source` (which description to
run), :mod:`.topics` (sensor topic names), :mod:`.main` (entry points), :mod:`.stop_signals`
(SIGINT/SIGTERM: one clean stop), :mod:`.hardware_time` (the time base of commands, watchdog and
trajectories), :mod:`.demo` (``sdf-bridge demo``), :mod:`.launch_args` (launch-file logic, no ROS
imports); the fixed-rate loop thread is :class:`sdf_bridge.hardware.FixedRateLoop`.
Importing this package itself imports nothing from ROS.
"""
