"""The ROS 2 side of sdf_bridge: the only subpackage that imports rclpy or message types.

Modules: :mod:`.node` (the ``sdf_bridge`` node), :mod:`.params` (parameters),
:mod:`.conversions` (messages ↔ arrays), :mod:`.main` (entry points), :mod:`.command_line`
(the ``sdf-bridge`` executable), :mod:`.demo` (``sdf-bridge demo``), :mod:`.control_command`
(``sdf-bridge control``); the ROS-free logic
they run (description sources, topic names, stop signals, the hardware time base, launch
arguments) is in :mod:`sdf_bridge.app`; the fixed-rate loop thread is
:class:`sdf_bridge.hardware.FixedRateLoop`. Importing this package itself imports nothing from
ROS.
"""
