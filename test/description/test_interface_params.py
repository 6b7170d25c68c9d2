"""The ``<param>``s of a ``<ros2_control>`` interface written back
(:meth:`~sdf_bridge.description.model.InterfaceInfo.written_parameters`): a ``min``/``max``
the bridge rejected (a number in quotes, as Interbotix's descriptions write them) is left out of
the generated topic-based block and of an export, so that the controller_manager does not log
"Error parsing the limits … Skipping it" for it; each parameter is written once."""

from __future__ import annotations

from lxml import etree

from sdf_bridge.description import load_with_xml
from sdf_bridge.description.export import to_urdf
from sdf_bridge.description.model import InterfaceInfo
from sdf_bridge.hardware.topic_block import with_topic_block

INERTIAL = (
    '<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" '
    'iyz="0"/></inertial>'
)
ROBOT = f"""<robot name="quoted">
  <link name="base"/><link name="l1">{INERTIAL}</link><link name="l2">{INERTIAL}</link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
  <ros2_control name="hw" type="system">
    <hardware><plugin>mock_components/GenericSystem</plugin></hardware>
    <joint name="j1"><command_interface name="position">
      <param name="min">"-3.14"</param><param name="max">"3.14"</param>
      <param name="gain">4</param></command_interface>
      <state_interface name="position"/></joint>
    <joint name="j2"><command_interface name="position">
      <param name="min">-0.5</param><param name="max">0.5</param></command_interface>
      <state_interface name="position"/></joint>
  </ros2_control>
</robot>
"""


def _params(text: str) -> dict[str, list[tuple[str, str]]]:
    """joint → the (name, text) of its position command interface's <param>s."""
    document = etree.fromstring(text.encode())
    return {
        joint.get("name"): [
            (p.get("name"), p.text)
            for p in joint.find("command_interface[@name='position']").findall("param")
        ]
        for joint in document.iter("joint")
        if joint.find("command_interface[@name='position']") is not None
    }


def test_the_fields_decide_min_max_and_initial_value() -> None:
    info = InterfaceInfo(
        "position",
        min="-1",
        max=None,  # (rejected by the reader)
        parameters=(("max", '"2"'), ("gain", "3"), ("min", "-1")),
        initial_value="0.2",
    )
    assert info.written_parameters() == (("gain", "3"), ("min", "-1"), ("initial_value", "0.2"))
    assert InterfaceInfo("velocity").written_parameters() == ()


def test_the_generated_block_leaves_the_rejected_min_max_out() -> None:
    robot, warnings, xml = load_with_xml(ROBOT)
    assert any("ros2_control limit 'j1/position' skipped" in w for w in warnings)
    params = _params(with_topic_block(robot, xml))
    assert params == {"j1": [("gain", "4")], "j2": [("min", "-0.5"), ("max", "0.5")]}


def test_an_export_writes_each_parameter_once_and_no_rejected_one() -> None:
    robot, _warnings, _xml = load_with_xml(ROBOT)
    params = _params(to_urdf(robot))
    assert params == {"j1": [("gain", "4")], "j2": [("min", "-0.5"), ("max", "0.5")]}
