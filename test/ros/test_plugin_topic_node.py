"""A sensor topic named by its gazebo_ros plug-in across processes: a bridge (MuJoCo) publishes
an IMU on the topic its plug-in's <ros><namespace> and <remapping> give, received by another
process's node (sdf_bridge.description.sensors.plugin_topics)."""

from __future__ import annotations

import pytest
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import Imu

from .conftest import Probe

URDF = """<robot name="probe_bot">
  <link name="base"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <gazebo reference="base">
    <sensor name="imu_sensor" type="imu"><update_rate>50</update_rate><topic>sdf_imu</topic>
      <plugin name="imu_plugin" filename="libgazebo_ros_imu_sensor.so">
        <ros><namespace>/rover</namespace><remapping>~/out:=imu/data</remapping></ros>
      </plugin>
    </sensor>
  </gazebo>
</robot>"""

PARAMS = {"backend": "mujoco", "command_timeout": 0.0, "robot_description": URDF}


def test_a_remapped_plugin_topic_publishes(start_bridge, probe: Probe) -> None:
    """On /rover/imu/data (not the <topic> sdf_imu nor sensors/imu_sensor): the base is welded
    at rest, so the accelerometer reads +9.81 m/s² up (1e-6 m/s²: no noise) in frame base."""
    topic = "/rover/imu/data"
    probe.watch(topic, Imu, qos_profile_sensor_data)
    bridge = start_bridge(PARAMS, name="plugin_topic_bridge")
    try:
        probe.wait_ready(bridge, topic, timeout=90.0)
        imu = probe.latest(topic)
        assert imu.header.frame_id == "base"
        acc = imu.linear_acceleration
        assert (acc.x, acc.y, acc.z) == pytest.approx((0.0, 0.0, 9.81), abs=1e-6)
        names = {name for name, _ in probe.node.get_topic_names_and_types()}
        assert "/sdf_imu" not in names and "/sensors/imu_sensor" not in names
    finally:
        probe.unwatch(topic)
        assert bridge.stop() == 0, bridge.output()
