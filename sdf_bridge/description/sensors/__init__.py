"""Sensor elements: SDFormat ``<sensor>`` elements, their vocabulary and the topics
their Gazebo ROS plug-ins name."""
