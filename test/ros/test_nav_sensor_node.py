"""Navigation sensors across processes: a bridge (MuJoCo) publishes NavSatFix, MagneticField and
FluidPressure from a world with spherical coordinates, received by another process's node."""

from __future__ import annotations

import math

import pytest
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import FluidPressure, MagneticField, NavSatFix, NavSatStatus

from sdf_bridge.atmosphere import air_pressure

from .conftest import Probe

WORLD = f"""<?xml version="1.0"?><sdf version="1.9"><world name="field">
<spherical_coordinates><surface_model>EARTH_WGS84</surface_model>
  <latitude_deg>0</latitude_deg><longitude_deg>0</longitude_deg><elevation>100</elevation>
  <heading_deg>0</heading_deg></spherical_coordinates>
<magnetic_field>0 2e-5 -4e-5</magnetic_field>
<model name="rover"><pose>0 0 2 0 0 {math.pi / 2}</pose><link name="mast">
  <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
  <sensor name="roof_gps" type="navsat"><update_rate>20</update_rate><navsat><position_sensing>
    <vertical><noise type="gaussian"><stddev>0.5</stddev></noise></vertical>
  </position_sensing></navsat></sensor>
  <sensor name="compass" type="magnetometer"><update_rate>20</update_rate>
    <topic>mast/magnetic_field</topic></sensor>
  <sensor name="baro" type="air_pressure"><update_rate>20</update_rate>
    <air_pressure><reference_altitude>500</reference_altitude></air_pressure></sensor>
</link></model></world></sdf>"""

PARAMS = {"backend": "mujoco", "command_timeout": 0.0, "robot_description": WORLD}

TOPICS = {
    "/sensors/roof_gps": NavSatFix,
    "/mast/magnetic_field": MagneticField,
    "/sensors/baro": FluidPressure,
}


def test_nav_sensors_publish_across_processes(start_bridge, probe: Probe) -> None:
    """The mast 2 m above the origin (0°, 0°, 100 m): the fix at the origin's latitude and
    longitude (within 1e-9°) and 102 m up (the vertical noise is 0.5 m: within 3 m), variances
    (0, 0, 0.25) m² known; the field turned by the mast's 90° yaw, (2e-5, 0, −4e-5) T (1e-12 T);
    the pressure the 1976 atmosphere's at 500 + 2 m (1e-6 Pa)."""
    for topic, kind in TOPICS.items():
        probe.watch(topic, kind, qos_profile_sensor_data)
    bridge = start_bridge(PARAMS, name="nav_bridge")
    try:
        for topic in TOPICS:
            probe.wait_ready(bridge, topic, timeout=90.0)
        fix = probe.latest("/sensors/roof_gps")
        assert fix.header.frame_id == "mast"
        assert (fix.latitude, fix.longitude) == pytest.approx((0.0, 0.0), abs=1e-9)
        assert fix.altitude == pytest.approx(102.0, abs=3.0)
        assert (fix.status.status, fix.status.service) == (
            NavSatStatus.STATUS_FIX,
            NavSatStatus.SERVICE_GPS,
        )
        assert list(fix.position_covariance) == [0.0] * 8 + [0.25]
        assert fix.position_covariance_type == NavSatFix.COVARIANCE_TYPE_DIAGONAL_KNOWN
        field = probe.latest("/mast/magnetic_field").magnetic_field
        assert (field.x, field.y, field.z) == pytest.approx((2e-5, 0.0, -4e-5), abs=1e-12)
        pressure = probe.latest("/sensors/baro")
        assert pressure.fluid_pressure == pytest.approx(air_pressure(502.0), abs=1e-6)
        assert pressure.header.frame_id == "mast"
    finally:
        for topic in TOPICS:
            probe.unwatch(topic)
        assert bridge.stop() == 0, bridge.output()
