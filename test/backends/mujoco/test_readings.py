"""The mapping ``read_due`` returns: the operations callers use, conversion once, read-only, fresh
per read."""

from __future__ import annotations

import pytest
from mujoco_helpers import G, pendulum_urdf

from sdf_bridge.backends.mujoco.readings import SensorReadings
from sdf_bridge.backends.sensor_readings import ImuReading, ScanReading, WrenchReading

SENSORS = """
  <gazebo reference="arm">
    <sensor name="imu" type="imu"><update_rate>100</update_rate></sensor>
    <sensor name="lidar" type="gpu_lidar"><update_rate>50</update_rate><ray>
      <scan><horizontal><samples>5</samples><min_angle>-0.2</min_angle><max_angle>0.2</max_angle>
        </horizontal></scan>
      <range><min>0.1</min><max>10</max></range></ray></sensor>
  </gazebo>
  <gazebo reference="j"><sensor name="ft" type="force_torque"><update_rate>100</update_rate>
    </sensor></gazebo>"""
GRAVITY = {"gravity": [0.0, 0.0, -G], "render_cameras": False}


@pytest.fixture
def sim(make_sim):
    return make_sim(pendulum_urdf(extra=SENSORS), GRAVITY)


def test_mapping_operations(sim) -> None:
    """Keys in sensor order, lazy (imu, ft) and eager (lidar) values alike."""
    m = sim.read(0.01).sensors
    assert isinstance(m, SensorReadings)
    assert list(m) == ["imu", "lidar", "ft"] and list(m.keys()) == ["imu", "lidar", "ft"]
    assert len(m) == 3 and bool(m)
    assert "imu" in m and "ft" in m and "gps" not in m
    assert isinstance(m["imu"], ImuReading) and isinstance(m["ft"], WrenchReading)
    assert isinstance(m["lidar"], ScanReading)
    items = dict(m.items())
    assert list(items) == ["imu", "lidar", "ft"]
    assert list(m.values()) == list(items.values())
    assert dict(m) == items and m == items
    merged = {**m, **{"other": 1}}
    assert merged == {**items, "other": 1}
    assert m.get("gps") is None and m.get("ft") is items["ft"]
    assert m["imu"].linear_acceleration == pytest.approx((0.0, 0.0, G), abs=1e-6)
    assert "SensorReadings({'imu': ImuReading(" in repr(m)


def test_value_converted_once(sim) -> None:
    m = sim.read(0.01).sensors
    assert m["ft"] is m["ft"] and dict(m)["imu"] is m["imu"]


def test_missing_key_and_read_only(sim) -> None:
    m = sim.read(0.01).sensors
    with pytest.raises(KeyError, match="gps"):
        m["gps"]
    with pytest.raises(TypeError, match="does not support item assignment"):
        m["imu"] = None
    with pytest.raises(AttributeError):
        m.pop("imu")


def test_only_due_sensors_fresh_per_read(sim) -> None:
    """Lidar at 50 Hz, the others at 100 Hz, reads every 10 ms (t = 0.01, 0.02, 0.03 s): the
    lidar at the first read and at t = 0.02 s, not at 0.03 s; each read a new mapping, earlier
    ones unchanged; nothing due → an empty, falsy mapping."""
    first = sim.read(0.01).sensors
    first_ft = first["ft"]
    second = sim.read(0.01).sensors
    third = sim.read(0.01).sensors
    assert list(second) == ["imu", "lidar", "ft"] and list(third) == ["imu", "ft"]
    assert third is not first and second is not first
    assert list(first) == ["imu", "lidar", "ft"] and first["ft"] is first_ft
    suite = sim.backend.sensors
    nothing = suite.read_due(sim.backend.data.time)
    assert len(nothing) == 0 and not nothing and dict(nothing) == {}
    assert suite.read_due(sim.backend.data.time) is not nothing
