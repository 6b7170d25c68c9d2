"""The ROS 2 side of sdf_bridge: the only subpackage that imports rclpy or message types.

Modules: :mod:`.node` (the ``sdf_bridge`` node), :mod:`.params` (parameters),
:mod:`.conversions` (messages ↔ arrays), :mod:`.loop` (fixed-rate control loop thread),
:mod:`.description_source` (which description to run), :mod:`.topics` (sensor topic names),
:mod:`.main` (entry points),
:mod:`.demo` (``sdf-bridge demo``), :mod:`.launch_args` (launch-file logic, no ROS imports).
Importing this package itself imports nothing from ROS.
"""
