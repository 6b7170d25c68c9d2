"""Tests of sdf_bridge.description.export.sdf_validity: ``convert`` output that libsdformat loads
without errors for inputs URDF allows and SDFormat does not, and the round trip's dynamics."""

from __future__ import annotations

import logging
from pathlib import Path

import mujoco
import numpy as np
import pytest

from sdf_bridge.backends.mujoco.builder import BuildOptions, build_spec, compile_model
from sdf_bridge.description import load
from sdf_bridge.description.export import to_sdf
from sdf_bridge.description.model import Robot

#: A URDF arm whose names SDFormat cannot take as they are: joint "head_camera" and link
#: "head_camera" (a frame of the URDF), a massless link on a revolute joint ("wrist"), a
#: massless flange on a fixed joint, a mimic of the renamed joint, a transmission, a
#: <ros2_control> block and a <gazebo reference> naming it.
ARM = """<?xml version="1.0"?>
<robot name="arm">
  <link name="base"><inertial><mass value="2"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02"
    iyz="0" izz="0.02"/>
    </inertial></link>
  <link name="head_camera"><inertial><origin xyz="0.1 0 0"/><mass value="0.5"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.002"/></inertial></link>
  <joint name="head_camera" type="revolute"><parent link="base"/><child link="head_camera"/><origin
    xyz="0 0 0.5"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="2"/></joint>
  <link name="wrist"/>
  <joint name="wrist_joint" type="revolute"><parent link="head_camera"/><child link="wrist"/><origin
    xyz="0.3 0 0"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="2"/>
    <mimic joint="head_camera" multiplier="0.5"/></joint>
  <link name="flange"/>
  <joint name="flange_mount" type="fixed"><parent link="wrist"/><child link="flange"/><origin
    xyz="0.05 0 0"/></joint>
  <link name="tool"><inertial><origin xyz="0 0 -0.1"/><mass value="0.3"/>
    <inertia ixx="0.0005" ixy="0" ixz="0" iyy="0.0005" iyz="0" izz="0.0005"/></inertial></link>
  <joint name="tool_joint" type="revolute"><parent link="flange"/><child link="tool"/>
    <axis xyz="1 0 0"/><limit lower="-2" upper="2" effort="5" velocity="3"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="head_camera">
      <hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
    <actuator name="motor"><mechanicalReduction>50</mechanicalReduction></actuator></transmission>
  <ros2_control name="hw" type="system"><hardware><plugin>mock_components/GenericSystem</plugin>
    </hardware>
    <joint name="head_camera"><command_interface name="position"/><state_interface name="position"/>
      </joint>
    <joint name="tool_joint"><command_interface name="position"/><state_interface name="position"/>
      </joint>
  </ros2_control>
  <gazebo reference="head_camera"><provideFeedback>true</provideFeedback></gazebo>
</robot>
"""


def _convert(tmp_path: Path, robot: Robot, *, lump: bool = False) -> tuple[Path, list[str]]:
    class Collect(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.WARNING)
            self.messages: list[str] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.messages.append(record.getMessage())

    handler = Collect()
    logger = logging.getLogger("sdf_bridge.description.export")
    logger.addHandler(handler)
    try:
        text = to_sdf(robot, lump_fixed=lump)
    finally:
        logger.removeHandler(handler)
    path = tmp_path / ("lumped.sdf" if lump else "out.sdf")
    path.write_text(text)
    return path, handler.messages


def test_a_joint_named_like_a_link_is_renamed_with_every_reference(tmp_path: Path, probe) -> None:
    path, warnings = _convert(tmp_path, load(ARM))
    assert probe(path)["errors"] == []
    assert (
        "joints 'head_camera' renamed 'head_camera_joint': SDFormat gives links and joints one "
        "namespace and these names are also links' (libsdformat renames such joints the same "
        "way in files before SDFormat 1.7)"
    ) in warnings
    back = load(path)
    assert list(back.joints) == ["head_camera_joint", "wrist_joint", "flange_mount", "tool_joint"]
    assert back.joints["wrist_joint"].mimic.joint == "head_camera_joint"
    assert [j.name for j in back.transmissions[0].joints] == ["head_camera_joint"]
    assert [c.name for c in back.ros2_control[0].joints] == ["head_camera_joint", "tool_joint"]
    assert back.ros2_control[0].joints[0].command_interfaces[0].name == "position"


def test_massless_urdf_links_keep_the_simulators_mass(tmp_path: Path, probe) -> None:
    path, warnings = _convert(tmp_path, load(ARM))
    assert (
        "URDF links 'wrist', 'flange' have no mass: written with the mass the simulator uses, "
        "0.001 kg and 1e-06 kg·m² (not SDFormat's default 1 kg)"
    ) in warnings
    masses = probe(path)["models"]["arm"]["masses"]
    assert masses == {"base": 2.0, "head_camera": 0.5, "wrist": 0.001, "flange": 0.001, "tool": 0.3}


def test_lumping_merges_the_simulators_masses(tmp_path: Path, probe) -> None:
    """The massless flange is lumped into the massless wrist: 1 g each, as the simulator moves
    them."""
    path, warnings = _convert(tmp_path, load(ARM), lump=True)
    assert probe(path)["errors"] == []
    assert (
        "URDF links 'wrist', 'flange' have no mass: written with the mass the simulator uses, "
        "0.001 kg and 1e-06 kg·m² (not SDFormat's default 1 kg)"
    ) in warnings
    assert probe(path)["models"]["arm"]["masses"] == {
        "base": 2.0,
        "head_camera": 0.5,
        "wrist": 0.002,
        "tool": 0.3,
    }


def _gravity_torques(robot: Robot, joints: list[str]) -> np.ndarray:
    """Generalised gravity forces at q = 0 (N·m), MuJoCo's ``qfrc_bias`` with zero velocity."""
    built = build_spec(robot, BuildOptions(ground_plane=False, gravity=(0.0, 0.0, -9.81)))
    model = compile_model(built)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    return np.array([data.qfrc_bias[built.joints[j].dof[0]] for j in joints])


@pytest.mark.parametrize("lump", [False, True])
def test_round_trip_gives_the_same_gravity_torques(tmp_path: Path, lump: bool) -> None:
    """The converted file, loaded back, has the same static joint torques under gravity (1e-9
    N·m)."""
    robot = load(ARM)
    back = load(_convert(tmp_path, robot, lump=lump)[0])
    before = _gravity_torques(robot, ["head_camera", "wrist_joint", "tool_joint"])
    after = _gravity_torques(back, ["head_camera_joint", "wrist_joint", "tool_joint"])
    assert np.abs(before).max() > 1.0  # gravity really loads the joints
    np.testing.assert_allclose(after, before, rtol=0.0, atol=1e-9)


def test_universal_and_revolute2_keep_their_second_axis(tmp_path: Path, probe) -> None:
    robot = load("""<sdf version="1.9"><model name="m"><link name="a"/><link name="b"/><link
      name="c"/>
      <joint name="u" type="universal"><parent>a</parent><child>b</child><axis><xyz>1 0 0</xyz>
        </axis>
        <axis2><xyz>0 1 0</xyz><limit><lower>-0.5</lower><upper>0.75</upper></limit></axis2></joint>
      <joint name="r2" type="revolute2"><parent>b</parent><child>c</child><axis><xyz>0 0 1</xyz>
        </axis>
        <axis2><xyz>1 0 0</xyz><dynamics><damping>0.25</damping></dynamics></axis2></joint></model>
          </sdf>""")
    path, _ = _convert(tmp_path, robot)
    ref = probe(path)
    assert ref["errors"] == []
    joints, limits = ref["models"]["m"]["joints"], ref["models"]["m"]["limits"]
    np.testing.assert_array_equal(joints["u"]["axis2"], [0.0, 1.0, 0.0])
    np.testing.assert_array_equal(joints["r2"]["axis2"], [1.0, 0.0, 0.0])
    assert limits["u"]["axis2"][:2] == [-0.5, 0.75]
    back = load(path)
    assert back.joints["r2"].dynamics2.damping == 0.25 and back.joints["u"].limit2.upper == 0.75


def test_a_sensor_type_sdformat_19_lacks_is_not_written(tmp_path: Path, probe) -> None:
    robot = load("""<sdf version="1.11"><model name="m"><link name="a">
      <sensor name="speed" type="air_speed"><update_rate>10</update_rate></sensor>
      <sensor name="imu" type="imu"><update_rate>10</update_rate></sensor></link></model></sdf>""")
    path, warnings = _convert(tmp_path, robot)
    assert "sensors 'speed' not written: SDFormat 1.9 has no sensor type 'air_speed'" in warnings
    assert probe(path)["errors"] == [] and [s.name for s in load(path).sensors] == ["imu"]


def test_a_link_without_gravity_is_written_so(tmp_path: Path) -> None:
    robot = load(
        ARM.replace(
            '<gazebo reference="head_camera">',
            '<gazebo reference="tool"><turnGravityOff>true'
            '</turnGravityOff></gazebo><gazebo reference="head_camera">',
        )
    )
    path, _ = _convert(tmp_path, robot)
    assert "<gravity>false</gravity>" in path.read_text()
    assert [n for n, link in load(path).links.items() if not link.gravity] == ["tool"]
