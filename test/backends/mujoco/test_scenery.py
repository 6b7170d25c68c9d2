"""The other models of an SDFormat world as fixed MuJoCo world geometry
(sdf_bridge.backends.mujoco.scenery). Positions exact to 1e-12 m."""

from __future__ import annotations

import logging

import mujoco
import numpy as np
import pytest
from mujoco_helpers import compile_robot

from sdf_bridge.description import load
from sdf_bridge.description.world import select_robot

WORLD = """<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <model name="ground_plane"><static>true</static>
      <link name="link"><collision name="c"><geometry><plane><normal>0 0 1</normal><size>9 9</size>
        </plane></geometry>
      </collision></link></model>
    <model name="shelf"><static>true</static><pose>1 2 0 0 0 1.5707963267948966</pose>
      <link name="board"><pose>0 0 0.5 0 0 0</pose>
        <collision name="top"><pose>0.1 0 0 0 0 0</pose><geometry><box><size>1 0.4 0.02</size></box>
          </geometry></collision>
        <visual name="look"><geometry><box><size>1 0.4 0.02</size></box></geometry></visual>
      </link></model>
    <model name="cart"><pose>-3 0 0 0 0 0</pose>
      <link name="body"><collision name="c"><geometry><sphere><radius>0.3</radius></sphere>
        </geometry></collision></link>
    </model>
    <model name="bot"><link name="base"><inertial><mass>1</mass><inertia><ixx>0.1</ixx>
      <iyy>0.1</iyy><izz>0.1</izz>
      </inertia></inertial></link></model>
  </world>
</sdf>"""


def test_scenery_geoms_are_fixed_world_geoms_at_their_world_poses(caplog) -> None:
    robot = select_robot(load(WORLD), "bot")
    with caplog.at_level(logging.WARNING):
        model, built = compile_robot(robot)
    names = [model.geom(g).name for g in range(model.ngeom) if model.geom_bodyid[g] == 0]
    # a world has its own ground: the backend adds none
    assert robot.world == "w"
    assert names == [
        "ground_plane::link::collision::c",
        "shelf::board::collision::top",
        "shelf::board::visual::look",
        "cart::body::collision::c",
    ]
    top = model.geom("shelf::board::collision::top")
    # shelf at (1, 2, 0) turned 90° about z; the board 0.5 up; the box 0.1 along the board's
    # x → world +y
    np.testing.assert_allclose(top.pos, [1.0, 2.1, 0.5], rtol=0, atol=1e-12)
    np.testing.assert_allclose(top.size, [0.5, 0.2, 0.01], rtol=0, atol=1e-12)
    assert (top.contype, top.conaffinity) == (1, 2)  # touches the robot, as the ground does
    look = model.geom("shelf::board::visual::look")
    assert (look.contype, look.conaffinity) == (0, 0)
    np.testing.assert_allclose(
        model.geom("cart::body::collision::c").pos, [-3.0, 0.0, 0.0], rtol=0, atol=1e-12
    )
    assert (
        "world model(s) ['cart'] are not the robot: simulated as fixed world geometry"
        in built.notes
    )


def test_a_world_without_a_ground_gets_none() -> None:
    """gz-sim's joint_trajectory_controller world hangs its arms below z = 0 with no ground: a
    plane of the backend's own would push them up."""
    robot = select_robot(
        load(
            WORLD.replace("<plane>", "<box><size>1 1 1</size></box><!--").replace("</plane>", "-->")
        ),
        "bot",
    )
    model, _ = compile_robot(robot)
    assert not any(model.geom_type[g] == mujoco.mjtGeom.mjGEOM_PLANE for g in range(model.ngeom))


@pytest.mark.parametrize("visual_geoms, expected", [(True, 4), (False, 3)])
def test_scenery_visuals_follow_the_visual_geoms_option(visual_geoms: bool, expected: int) -> None:
    model, _ = compile_robot(select_robot(load(WORLD), "bot"), visual_geoms=visual_geoms)
    assert sum(1 for g in range(model.ngeom) if model.geom_bodyid[g] == 0) == expected
