"""Ray and range sensors as Gazebo sees: from range_min on, not seeing the robot's own mount,
REP-117 infinities; a lidar on a mobile base in a world with one wall
(sdf_bridge.backends.mujoco.rays).

Distances are exact up to MuJoCo's ray arithmetic (tolerance 1e-9 m) unless stated.
"""

from __future__ import annotations

import math

import numpy as np
from mujoco_helpers import G

from sdf_bridge.backends.mujoco.rays import inside, scan_directions
from sdf_bridge.backends.sensor_readings import RangeReading, ScanReading
from sdf_bridge.description import load
from sdf_bridge.description.model import RayParams

GRAVITY = {"gravity": [0.0, 0.0, -G], "render_cameras": False}

#: A mobile base: a 0.2 m-radius, 0.3 m-tall cylinder body; its lidar link sits *inside* the
#: cylinder (z = 0.25 of 0.3), with a 5 cm housing box of its own; a 10 cm bumper box 3 cm in
#: front of the lidar, on a link of its own. The world: a ground plane and a wall whose face
#: is at x = 2 m, both static.
WORLD = """<?xml version="1.0"?>
<sdf version="1.9">
  <world name="one_wall">
    <model name="ground_plane"><static>true</static>
      <link name="link"><collision name="c"><geometry><plane><normal>0 0 1</normal>
        <size>50 50</size></plane>
      </geometry></collision></link>
    </model>
    <model name="wall"><static>true</static><pose>2.1 0 0.5 0 0 0</pose>
      <link name="link"><collision name="c"><geometry><box><size>0.2 4 1</size></box></geometry>
        </collision></link>
    </model>
    <model name="base_bot">
      <link name="base_link">
        <inertial><mass>5</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia>
          </inertial>
        <collision name="body"><pose>0 0 0.15 0 0 0</pose><geometry><cylinder><radius>0.2</radius>
          <length>0.3</length></cylinder></geometry></collision>
      </link>
      <link name="lidar_link"><pose>0 0 0.25 0 0 0</pose>
        <inertial><mass>0.1</mass><inertia><ixx>1e-4</ixx><iyy>1e-4</iyy><izz>1e-4</izz></inertia>
          </inertial>
        <collision name="housing"><geometry><box><size>0.05 0.05 0.05</size></box></geometry>
          </collision>
        <sensor name="lidar" type="gpu_lidar"><update_rate>10</update_rate><lidar>
          <scan><horizontal><samples>5</samples><min_angle>-0.2</min_angle>
            <max_angle>0.2</max_angle></horizontal></scan>
          <range><min>{range_min}</min><max>{range_max}</max></range></lidar></sensor>
        <sensor name="sonar" type="sonar"><update_rate>10</update_rate>
          <pose>0 0 0 0 0 3.14159265358979</pose>
          <ray><range><min>0.05</min><max>{range_max}</max></range></ray></sensor>
      </link>
      <joint name="lidar_mount" type="fixed"><parent>base_link</parent><child>lidar_link</child>
        </joint>
      <link name="bumper"><pose>0.08 0 0.25 0 0 0</pose>
        <inertial><mass>0.1</mass><inertia><ixx>1e-4</ixx><iyy>1e-4</iyy><izz>1e-4</izz></inertia>
          </inertial>
        <collision name="c"><geometry><box><size>0.02 0.4 0.02</size></box></geometry></collision>
      </link>
      <joint name="bumper_mount" type="fixed"><parent>base_link</parent><child>bumper</child>
        </joint>
    </model>
  </world>
</sdf>"""


def _scan(
    make_sim, range_min: float = 0.1, range_max: float = 10.0
) -> tuple[ScanReading, RangeReading]:
    robot = load(WORLD.format(range_min=range_min, range_max=range_max))
    assert robot.name == "base_bot" and [m.name for m in robot.scenery] == ["ground_plane", "wall"]
    sensors = make_sim(robot, GRAVITY).backend.read(0.0).sensors
    return sensors["lidar"], sensors["sonar"]


def test_lidar_on_a_mobile_base_reads_the_wall_of_its_world(make_sim) -> None:
    """The lidar sits inside its base's cylinder and behind a bumper nearer than range_min:
    it sees through both and reads the wall, 2 m / cos(h) (item: within 1 cm; here 1e-9)."""
    scan, _ = _scan(make_sim)
    angles = np.linspace(-0.2, 0.2, 5)
    np.testing.assert_allclose(scan.ranges, 2.0 / np.cos(angles), rtol=0.0, atol=1e-9)


def test_the_wall_beyond_range_max_is_plus_inf(make_sim) -> None:
    scan, sonar = _scan(make_sim, range_max=1.5)
    assert np.all(scan.ranges == math.inf) and sonar.range == math.inf  # sonar looks back: nothing


def test_the_world_nearer_than_range_min_is_minus_inf(make_sim) -> None:
    """REP-117: an object of the world within range_min is too close to measure."""
    scan, _ = _scan(make_sim, range_min=2.5)
    assert np.all(scan.ranges == -math.inf)


def test_without_the_mount_rules_the_rays_would_stop_at_the_base(make_sim) -> None:
    """The base's cylinder, seen from inside, is 0.2 m away: what MuJoCo's ray gives."""
    robot = load(WORLD.format(range_min=0.1, range_max=10.0))
    sim = make_sim(robot, GRAVITY)
    model, data = sim.backend.model, sim.backend.data
    geom = next(g for g in range(model.ngeom) if model.geom(g).name == "base_link::collision::body")
    site = data.site_xpos[model.site("sensor0__site").id]
    assert inside(model, data, geom, site)
    wall = next(g for g in range(model.ngeom) if model.geom(g).name == "wall::link::collision::c")
    assert not inside(model, data, wall, site)


def test_scan_directions_are_vertical_major() -> None:
    local, h = scan_directions(
        RayParams(
            horizontal_samples=3,
            horizontal_min_angle=-0.5,
            horizontal_max_angle=0.5,
            vertical_samples=2,
            vertical_min_angle=0.0,
            vertical_max_angle=0.3,
        )
    )
    np.testing.assert_array_equal(h, [-0.5, 0.0, 0.5])
    expected = [
        [math.cos(v) * math.cos(a), math.cos(v) * math.sin(a), math.sin(v)]
        for v in (0.0, 0.3)
        for a in (-0.5, 0.0, 0.5)
    ]
    np.testing.assert_allclose(local, expected, rtol=0.0, atol=1e-15)
