"""Initial joint values shared by the mock and MuJoCo backends."""

from __future__ import annotations

import pytest

from sdf_bridge.backends.initial_values import initial_joint_values, parse_float
from sdf_bridge.description import load
from sdf_bridge.errors import BackendError

ROBOT = """<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j1" type="revolute"><parent link="a"/><child link="b"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="b"/><child link="c"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <ros2_control name="sys" type="system">
    <hardware><plugin>mock_components/GenericSystem</plugin></hardware>
    <joint name="j1">
      <command_interface name="position"/>
      <state_interface name="position"><param name="initial_value">0.25</param></state_interface>
      <state_interface name="velocity"><param name="initial_value">{velocity}</param></state_interface>
    </joint>
  </ros2_control>
</robot>"""


def test_initial_values_by_interface_and_joint() -> None:
    values = initial_joint_values(load(ROBOT.format(velocity="-0.5")))
    assert values == {"position": {"j1": 0.25}, "velocity": {"j1": -0.5}, "effort": {}}


def test_bad_initial_value_names_block_joint_and_interface() -> None:
    with pytest.raises(BackendError, match=r"<ros2_control name='sys'> joint 'j1' state interface "
                                           r"'velocity' initial_value .* is 'fast', not a finite number"):
        initial_joint_values(load(ROBOT.format(velocity="fast")))


@pytest.mark.parametrize("value", ["nan", "inf", None, "x"])
def test_parse_float_refuses_non_finite(value: object) -> None:
    with pytest.raises(BackendError, match="not a finite number. Fix: give a number."):
        parse_float(value, "thing")
    assert parse_float("1.5", "thing") == 1.5
