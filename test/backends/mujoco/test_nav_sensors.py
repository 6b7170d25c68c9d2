"""NavSat, magnetometer and air pressure sensors in MuJoCo (sdf_bridge.backends.mujoco.nav_sensors).

The robot is one box welded to the world (fixed_base) at (3, -2, 1.5) m, turned 90° about z;
its sensors sit at (0.1, 0, 0.2) m on it, so at world (3, -1.9, 1.7) m. Expected fixes are the
conversion of that position by the independent route of test/test_geodesy.py (ENU unit
vectors, iterated ECEF → geodetic), printed to 16 digits; tolerances 1e-9° (0.1 mm) and 1e-6 m.
"""

from __future__ import annotations

import dataclasses
import logging
import math

import numpy as np
import pytest

from sdf_bridge.atmosphere import air_pressure
from sdf_bridge.backends.mujoco.noise import BLOCK, channel_seed
from sdf_bridge.backends.sensor_readings import (
    FluidPressureReading,
    MagneticFieldReading,
    NavSatReading,
)
from sdf_bridge.description import load
from sdf_bridge.description.model import Environment, SphericalCoordinates
from sdf_bridge.errors import BackendError
from sdf_bridge.geodesy import LocalTangentPlane

SPHERICAL = """<spherical_coordinates><surface_model>EARTH_WGS84</surface_model>
  <world_frame_orientation>ENU</world_frame_orientation><latitude_deg>47.3769</latitude_deg>
  <longitude_deg>8.5417</longitude_deg><elevation>408</elevation><heading_deg>30</heading_deg>
</spherical_coordinates>"""
FIELD = (1e-5, 2e-5, -4e-5)
SENSOR_POSITION = (3.0, -1.9, 1.7)


def _world(sensors: str, world: str = SPHERICAL) -> str:
    return f"""<?xml version="1.0"?><sdf version="1.9"><world name="w">{world}
<magnetic_field>{" ".join(map(str, FIELD))}</magnetic_field>
<model name="box"><pose>3 -2 1.5 0 0 {math.pi / 2}</pose><link name="body">
  <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia>
  </inertial>{sensors}</link></model></world></sdf>"""


def _sensor(name: str, kind: str, inner: str = "") -> str:
    return (
        f'<sensor name="{name}" type="{kind}"><pose>0.1 0 0.2 0 0 0</pose>'
        f"<update_rate>10</update_rate>{inner}</sensor>"
    )


def test_navsat_fix_from_the_world_position_and_spherical_coordinates(make_sim) -> None:
    sim = make_sim(_world(_sensor("gps", "navsat")))
    reading = sim.read(0.01).sensors["gps"]
    assert isinstance(reading, NavSatReading)
    assert reading.latitude == pytest.approx(47.3768986918299, abs=1e-9)
    assert reading.longitude == pytest.approx(8.541746979234976, abs=1e-9)
    assert reading.altitude == pytest.approx(409.70000098645687, abs=1e-6)
    assert reading.position_variance is None


def test_without_spherical_coordinates_the_sdformat_defaults_with_a_warning(
    make_sim, caplog
) -> None:
    with caplog.at_level(logging.WARNING):
        sim = make_sim(_world(_sensor("gps", "gps"), world=""))
    assert (
        "sensor 'gps': the world has no <spherical_coordinates>; its origin is taken at latitude "
        "0°, longitude 0°, elevation 0 m, heading 0° on WGS 84 (SDFormat's defaults, as Gazebo "
        "classic; gz-sim publishes no fix without them)" in caplog.text
    )
    reading = sim.read(0.01).sensors["gps"]
    assert reading.latitude == pytest.approx(-1.7183015453205892e-05, abs=1e-9)
    assert reading.longitude == pytest.approx(2.694945134059789e-05, abs=1e-9)
    assert reading.altitude == pytest.approx(1.700000991113484, abs=1e-6)


def test_navsat_noise_in_metres_before_the_conversion(make_sim) -> None:
    """Horizontal stddev 2 m on world x and y, vertical 4 m on z (mean 0.5 m on z), drawn from
    the sensor's generator (noise_seed 7, name "gps": row 0 of its first block); the variances
    (4, 4, 16) m² go with the fix."""
    noise = """<navsat><position_sensing>
      <horizontal><noise type="gaussian"><stddev>2</stddev></noise></horizontal>
      <vertical><noise type="gaussian"><mean>0.5</mean><stddev>4</stddev></noise></vertical>
      </position_sensing></navsat>"""
    sim = make_sim(_world(_sensor("gps", "navsat", noise)), {"noise_seed": 7})
    reading = sim.read(0.01).sensors["gps"]
    z = np.random.default_rng(channel_seed(np.random.SeedSequence(7), "gps")).standard_normal(
        (BLOCK, 3)
    )[0]
    x, y, height = SENSOR_POSITION
    noisy = (x + 2.0 * z[0], y + 2.0 * z[1], height + 0.5 + 4.0 * z[2])
    origin = SphericalCoordinates(
        latitude_deg=47.3769, longitude_deg=8.5417, elevation=408.0, heading_deg=30.0
    )
    expected = LocalTangentPlane(origin).geodetic(*noisy)
    assert (reading.latitude, reading.longitude, reading.altitude) == pytest.approx(
        expected, abs=1e-12
    )
    assert reading.position_variance == (4.0, 4.0, 16.0)


def test_magnetometer_turned_90_degrees_about_z_reads_the_field_in_its_frame(make_sim) -> None:
    """The sensor's x is the world's y, its y the world's −x: (B_y, −B_x, B_z) T (1e-18 T)."""
    sim = make_sim(_world(_sensor("mag", "magnetometer")))
    reading = sim.read(0.01).sensors["mag"]
    assert isinstance(reading, MagneticFieldReading)
    assert reading.field == pytest.approx((FIELD[1], -FIELD[0], FIELD[2]), abs=1e-18)
    assert reading.variance is None


def test_magnetometer_default_field_and_noise_variances(make_sim) -> None:
    noise = """<magnetometer><x><noise type="gaussian"><stddev>1e-6</stddev></noise></x>
      <z><noise type="gaussian"><stddev>3e-6</stddev></noise></z></magnetometer>"""
    text = _world(_sensor("mag", "magnetometer", noise)).replace(
        f"<magnetic_field>{' '.join(map(str, FIELD))}</magnetic_field>", ""
    )
    sim = make_sim(text, {"noise_seed": 3})
    reading = sim.read(0.01).sensors["mag"]
    assert reading.variance == pytest.approx((1e-12, 0.0, 9e-12), rel=1e-12)
    z = np.random.default_rng(channel_seed(np.random.SeedSequence(3), "mag")).standard_normal(
        (BLOCK, 2)
    )[0]
    bx, by, bz = 5.5645e-6, 22.8758e-6, -42.3884e-6  # SDFormat's default field
    assert reading.field == pytest.approx((by + 1e-6 * z[0], -bx, bz + 3e-6 * z[1]), abs=1e-18)


def test_air_pressure_at_reference_altitude_plus_height(make_sim) -> None:
    """Reference 1000 m + 1.7 m: the 1976 atmosphere there (89857.76 Pa; the table's 1000 m is
    89876 Pa), exactly the model's value (test_atmosphere checks the model)."""
    inner = "<air_pressure><reference_altitude>1000</reference_altitude></air_pressure>"
    sim = make_sim(_world(_sensor("baro", "air_pressure", inner)))
    reading = sim.read(0.01).sensors["baro"]
    assert isinstance(reading, FluidPressureReading)
    assert reading.pressure == pytest.approx(air_pressure(1001.7), abs=1e-9)
    assert reading.pressure == pytest.approx(89857.76, abs=0.005)
    assert reading.variance == 0.0


def test_air_pressure_noise_variance(make_sim) -> None:
    inner = """<air_pressure><pressure><noise type="gaussian"><mean>0.2</mean><stddev>0.5</stddev>
      </noise></pressure></air_pressure>"""
    sim = make_sim(_world(_sensor("baro", "air_pressure", inner)), {"noise_seed": 11})
    reading = sim.read(0.01).sensors["baro"]
    z = np.random.default_rng(channel_seed(np.random.SeedSequence(11), "baro")).standard_normal(
        (BLOCK, 1)
    )[0]
    assert reading.pressure == pytest.approx(air_pressure(1.7) + 0.2 + 0.5 * z[0], abs=1e-9)
    assert reading.variance == 0.25


def test_nav_sensors_read_at_their_rate(make_sim) -> None:
    """10 Hz at 100 Hz reads (at 0.01, 0.02, … s): due at 0, 0.1 and 0.2 s, so read by the 1st,
    10th and 20th reads."""
    sensors = _sensor("gps", "navsat") + _sensor("mag", "magnetometer")
    sim = make_sim(_world(sensors))
    due = [sorted(state.sensors) for state in sim.run(0.2)]
    assert due == [["gps", "mag"] if k in (0, 9, 19) else [] for k in range(20)]


def test_spherical_coordinates_the_loader_never_gives_are_a_backend_error(make_sim) -> None:
    robot = load(_world(_sensor("gps", "navsat")))
    odd = SphericalCoordinates(surface_model="CUSTOM_SURFACE", surface_axis_equatorial=1.0)
    robot = dataclasses.replace(robot, environment=Environment(spherical_coordinates=odd))
    with pytest.raises(
        BackendError,
        match=r"^sensor 'gps': the world's spherical coordinates cannot be used \(custom surface "
        r"axes 1\.0, 0\.0 m: need 0 < polar <= equatorial\)\. Fix: give a surface model of "
        r"EARTH_WGS84, MOON_SCS, CUSTOM_SURFACE \(a CUSTOM_SURFACE with axes 0 < polar <= "
        r"equatorial\)$",
    ):
        make_sim(robot)
