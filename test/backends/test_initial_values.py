"""Initial joint values shared by the mock and MuJoCo backends."""

from __future__ import annotations

import logging

import pytest

from sdf_bridge.backends.initial_values import initial_joint_values, parse_float
from sdf_bridge.description import load
from sdf_bridge.errors import BackendError
from sdf_bridge.hardware import HardwareSystem

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
      <state_interface name="velocity"><param name="initial_value">{velocity}</param>
        </state_interface>
    </joint>
  </ros2_control>
</robot>"""


def test_initial_values_by_interface_and_joint() -> None:
    values = initial_joint_values(load(ROBOT.format(velocity="-0.5")))
    assert values == {"position": {"j1": 0.25}, "velocity": {"j1": -0.5}, "effort": {}}


def test_bad_initial_value_names_block_joint_and_interface() -> None:
    with pytest.raises(
        BackendError,
        match=r"<ros2_control name='sys'> joint 'j1' state interface "
        r"'velocity' initial_value .* is 'fast', not a finite number",
    ):
        initial_joint_values(load(ROBOT.format(velocity="fast")))


@pytest.mark.parametrize("value", ["nan", "inf", None, "x"])
def test_parse_float_refuses_non_finite(value: object) -> None:
    with pytest.raises(BackendError, match="not a finite number. Fix: give a number."):
        parse_float(value, "thing")
    assert parse_float("1.5", "thing") == 1.5


KNEE = """<robot name="leg">
  <link name="hip"/>
  <link name="thigh"><inertial><origin xyz="0 0 -0.1"/><mass value="1"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="calf"><inertial><origin xyz="0 0 -0.1"/><mass value="0.5"/>
    <inertia ixx="0.005" ixy="0" ixz="0" iyy="0.005" iyz="0" izz="0.005"/></inertial></link>
  <joint name="thigh_joint" type="revolute"><parent link="hip"/><child link="thigh"/><axis
    xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="50" velocity="10"/></joint>
  <joint name="calf_joint" type="revolute"><parent link="thigh"/><child link="calf"/><origin
    xyz="0 0 -0.2"/>
    <axis xyz="0 1 0"/><limit lower="-2.7" upper="-0.9" effort="50" velocity="10"/></joint>
  <joint name="slide" type="prismatic"><parent link="hip"/><child link="foot"/><axis xyz="0 0 1"/>
    <limit lower="0.1" upper="0.2" effort="50" velocity="1"/></joint>
  <link name="foot"><inertial><mass value="0.1"/><inertia ixx="1e-4" ixy="0" ixz="0" iyy="1e-4"
    iyz="0" izz="1e-4"/>
    </inertial></link>
</robot>"""


def test_a_start_outside_the_limits_is_clamped_with_a_warning(caplog) -> None:
    """A knee whose range excludes 0 (Unitree's calves): it starts at its nearest limit."""
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.backends"):
        values = initial_joint_values(load(KNEE))
    assert values["position"] == {"calf_joint": -0.9, "slide": 0.1}
    assert [r.getMessage() for r in caplog.records] == [
        "initial positions outside the joint limits clamped into them (rad or m): calf_joint 0 → "
        "-0.9, slide 0 → 0.1"
    ]


@pytest.mark.parametrize("backend", ["mock", "mujoco"])
def test_both_backends_start_at_the_clamped_position(backend: str) -> None:
    hw = HardwareSystem(
        load(KNEE),
        backend,
        command_timeout=0.0,
        timed=False,
        backend_params={"gravity": [0.0, 0.0, 0.0]} if backend == "mujoco" else None,
    )
    try:
        state = hw.cycle(0.0, 0.01)
        position = dict(zip(hw.state_names, state.position.tolist()))
    finally:
        hw.close()
    assert position["thigh_joint"] == 0.0
    assert position["calf_joint"] == pytest.approx(-0.9, abs=1e-12)
    assert position["slide"] == pytest.approx(0.1, abs=1e-12)


def test_initial_position_of_a_universal_joint_is_axis1s() -> None:
    """SDFormat <axis><initial_position> of a universal joint starts u/axis1 there."""
    robot = load("""<sdf version="1.9"><model name="m"><link name="a"/><link name="b"/>
      <joint name="u" type="universal"><parent>a</parent><child>b</child>
        <axis><xyz>1 0 0</xyz><initial_position>0.25</initial_position></axis>
        <axis2><xyz>0 1 0</xyz></axis2></joint></model></sdf>""")
    assert initial_joint_values(robot)["position"] == {"u/axis1": 0.25}
