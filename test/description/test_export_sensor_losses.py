"""The URDF export's sensor losses (:func:`~sdf_bridge.description.export.losses.warn_urdf_losses`)
name only sensors the written file lacks: a URDF ``<gazebo reference="a_joint">`` sensor (the
demo arm's force-torque sensor) is written with its extension as read, so it is no loss (it
was reported as one under ``sdf-bridge control``, which writes each robot's URDF, although the
bridge published the sensor); an SDFormat sensor on a joint is, and the warning says it
concerns the exported file."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from sdf_bridge.description import load, load_with_xml
from sdf_bridge.description.export import to_urdf

DEMO = Path(__file__).resolve().parents[2] / "urdf" / "demo_arm.urdf.xacro"
SDF_JOINT_SENSOR = """<sdf version="1.9"><model name="m">
  <link name="a"/><link name="b"><inertial><mass>1</mass></inertial></link>
  <joint name="j" type="revolute"><parent>a</parent><child>b</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis>
    <sensor name="ft" type="force_torque"><update_rate>100</update_rate></sensor></joint>
</model></sdf>
"""


def _export_warnings(robot, caplog: pytest.LogCaptureFixture) -> list[str]:
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.description.export"):
        text = to_urdf(robot)
    assert text
    return [r.getMessage() for r in caplog.records if "sensors" in r.getMessage()]


def test_a_gazebo_sensor_on_a_joint_is_written_and_not_reported(
    caplog: pytest.LogCaptureFixture,
) -> None:
    robot = load(DEMO)
    assert {s.name: s.joint for s in robot.sensors}["ft_sensor"] == "ft_joint"
    assert [m for m in _export_warnings(robot, caplog) if "not written into" in m] == []
    again, _warnings, _xml = load_with_xml(to_urdf(robot))
    assert {s.name: s.joint for s in again.sensors}["ft_sensor"] == "ft_joint"


def test_an_sdformat_sensor_on_a_joint_is_reported_as_the_files_loss(
    caplog: pytest.LogCaptureFixture,
) -> None:
    robot = load(SDF_JOINT_SENSOR)
    assert _export_warnings(robot, caplog) == [
        "sensors 'ft' not written into the URDF (the exported file only): URDF <gazebo> "
        "sensors hang from links only"
    ]
