"""Tests of sdf_bridge.backends.mujoco.contact_names: Gazebo's names of a URDF link's collisions,
lumped links included."""

from __future__ import annotations

from sdf_bridge.backends.mujoco.contact_names import gazebo_collision_names, lumped_links
from sdf_bridge.description import load

LEG = """<robot name="r">
  <link name="calf"><collision><geometry><box size="1 1 1"/></geometry></collision>
    <collision name="shin"><geometry><box size="1 1 1"/></geometry></collision></link>
  <link name="foot"><collision><geometry><sphere radius="1"/></geometry></collision></link>
  <link name="toe"><collision><geometry><sphere radius="1"/></geometry></collision></link>
  <link name="sensor"/>
  <link name="knee_pad"><collision><geometry><sphere radius="1"/></geometry></collision></link>
  <joint name="foot_fixed" type="fixed"><parent link="calf"/><child link="foot"/></joint>
  <joint name="toe_fixed" type="fixed"><parent link="foot"/><child link="toe"/></joint>
  <joint name="sensor_fixed" type="fixed"><parent link="calf"/><child link="sensor"/></joint>
  <joint name="pad_fixed" type="fixed"><parent link="calf"/><child link="knee_pad"/></joint>
  <gazebo reference="pad_fixed"><preserveFixedJoint>true</preserveFixedJoint></gazebo>
</robot>"""


def test_lumped_links_are_the_fixed_descendants_gazebo_lumps() -> None:
    robot = load(LEG)
    # knee_pad's joint is preserved
    assert lumped_links(robot, "calf") == [
        "calf",
        "foot",
        "toe",
        "sensor",
    ]
    assert lumped_links(robot, "knee_pad") == ["knee_pad"]


def test_gazebo_names_count_the_merged_links_collisions() -> None:
    names = gazebo_collision_names(load(LEG), "calf")
    assert names == [
        ("calf", 0, {"calf_collision"}),
        ("calf", 1, {"shin_collision_1", "calf_collision_1"}),
        ("foot", 0, {"calf_fixed_joint_lump__foot_collision_2", "foot_collision"}),
        ("toe", 0, {"calf_fixed_joint_lump__toe_collision_3", "toe_collision"}),
    ]


def test_an_sdformat_link_lumps_nothing() -> None:
    robot = load("""<sdf version="1.9"><model name="m"><link name="a"/><link name="b"/>
      <joint name="j" type="fixed"><parent>a</parent><child>b</child></joint></model></sdf>""")
    assert lumped_links(robot, "a") == ["a"]
