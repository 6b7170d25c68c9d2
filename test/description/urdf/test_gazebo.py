"""Tests of sdf_bridge.description.urdf.gazebo."""

from __future__ import annotations

import pytest

from sdf_bridge.description import load
from sdf_bridge.description.model import ContactParams
from sdf_bridge.description.urdf.gazebo import parse_gazebo, parse_plugin
from sdf_bridge.description.xmlio import ParseContext, parse_xml
from sdf_bridge.errors import InvalidValueError


def _parse(xml: str):
    ctx = ParseContext("g.urdf")
    return (*parse_gazebo(parse_xml(xml, "g.urdf"), ctx), ctx.warnings)


def test_link_extension_properties_sensor_and_plugin():
    ext, sensors, plugins, warnings = _parse(
        """<gazebo reference="base_link">
        <selfCollide>false</selfCollide>
        <mu1 value="1.0"/>
        <material>Gazebo/Black</material>
        <provideFeedback/>
        <sensor name="base_contact_sensor" type="contact">
          <update_rate>100.0</update_rate>
          <contact><collision>base_link_collision</collision></contact>
          <plugin filename="libgazebo_ros_bumper.so" name="bumper"><frameName>world</frameName>
            </plugin>
        </sensor>
        <plugin filename="libgazebo_ros_p3d.so" name="p3d"><bodyName>base_link</bodyName></plugin>
        </gazebo>"""
    )
    assert ext.reference == "base_link"
    assert ext.properties == (
        ("selfCollide", "false"),
        ("mu1", "1.0"),
        ("material", "Gazebo/Black"),
        ("provideFeedback", ""),
    )
    assert ext.property("mu1") == "1.0" and ext.property("absent") is None
    assert ext.raw_xml.startswith('<gazebo reference="base_link">') and "<sensor" in ext.raw_xml
    assert ext.source is not None and ext.source.line == 1
    (s,) = sensors
    assert (s.name, s.type, s.link, s.origin_format, s.update_rate, s.frame_id) == (
        "base_contact_sensor",
        "contact",
        "base_link",
        "gazebo",
        100.0,
        "world",
    )
    assert s.params == ContactParams(collisions=("base_link_collision",))
    (p,) = plugins  # the sensor's own plugin stays in Sensor.plugins
    assert (p.name, p.filename) == ("p3d", "libgazebo_ros_p3d.so")
    assert "<bodyName>base_link</bodyName>" in p.raw_xml
    assert len(s.plugins) == 1 and "libgazebo_ros_bumper.so" in s.plugins[0]
    assert warnings == []


def test_model_extension_without_reference():
    ext, sensors, plugins, warnings = _parse(
        '<gazebo><plugin filename="libgazebo_ros2_control.so" name="gazebo_ros2_control">'
        "<parameters>control.yaml</parameters></plugin><static>false</static></gazebo>"
    )
    assert ext.reference is None and ext.properties == (("static", "false"),)
    assert sensors == [] and [(p.name, p.filename) for p in plugins] == [
        ("gazebo_ros2_control", "libgazebo_ros2_control.so")
    ]
    assert warnings == []


def test_empty_reference_is_the_model_with_warning():
    ext, _, _, warnings = _parse('<gazebo reference=" "><mu1>0.2</mu1></gazebo>')
    assert ext.reference is None
    assert len(warnings) == 1 and 'reference=""' in warnings[0]


def test_joint_reference_and_nested_property_element_kept_raw_only():
    ext, _, _, _ = _parse(
        '<gazebo reference="elbow"><implicitSpringDamper>1</implicitSpringDamper><physics><ode>'
        "<cfm>0.1</cfm></ode></physics></gazebo>"
    )
    assert ext.reference == "elbow"
    assert ext.properties == (("implicitSpringDamper", "1"),)
    assert "<cfm>0.1</cfm>" in ext.raw_xml


def test_sensor_without_reference_has_no_link():
    _, sensors, _, _ = _parse('<gazebo><sensor name="s" type="imu"/></gazebo>')
    assert sensors[0].link is None


def test_sensor_errors_propagate():
    with pytest.raises(
        InvalidValueError, match=r"g\.urdf:1: <sensor name=\"s\">: sensor 's' has no type"
    ):
        _parse('<gazebo reference="l"><sensor name="s"/></gazebo>')


@pytest.mark.parametrize(
    ("attrs", "missing"), [('filename="f.so"', "name"), ('name="p"', "filename")]
)
def test_plugin_missing_attribute_is_warned(attrs, missing):
    ctx = ParseContext("g.urdf")
    plugin = parse_plugin(parse_xml(f"<plugin {attrs}/>"), ctx)
    assert getattr(plugin, missing) == ""
    assert len(ctx.warnings) == 1 and f"no {missing} attribute" in ctx.warnings[0]


def test_misspelt_gazebo_property_is_an_error() -> None:
    with pytest.raises(
        InvalidValueError,
        match=r"g\.urdf:1: <selfColide>: unknown element <selfColide> in <gazebo>; "
        r"did you mean <selfCollide>\?",
    ):
        _parse('<gazebo reference="l"><selfColide>true</selfColide></gazebo>')


def test_unrelated_gazebo_property_is_kept() -> None:
    ext, _, _, warnings = _parse(
        '<gazebo reference="l"><my_custom_flag>1</my_custom_flag></gazebo>'
    )
    assert ext.properties == (("my_custom_flag", "1"),)
    assert warnings == []


@pytest.mark.parametrize(
    "properties, gravity",
    [
        ("<turnGravityOff>true</turnGravityOff>", False),
        ('<turnGravityOff value="true"/>', False),
        ("<gravity>false</gravity>", False),
        ("<gravity>true</gravity><turnGravityOff>true</turnGravityOff>", True),  # <gravity> wins
        ("<mu1>0.5</mu1>", True),
    ],
)
def test_a_links_gravity_switch_as_gazebo_reads_it(properties: str, gravity: bool) -> None:
    """The PR2 turns gravity off on its counterbalanced arms."""
    robot = load(
        '<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="continuous">'
        '<parent link="a"/><child link="b"/></joint><gazebo '
        f'reference="b">{properties}</gazebo></robot>'
    )
    assert (robot.links["a"].gravity, robot.links["b"].gravity) == (True, gravity)


def test_an_sdformat_links_gravity() -> None:
    robot = load(
        '<sdf version="1.9"><model name="m"><link name="a"><gravity>false</gravity></link>'
        '<link name="b"/></model></sdf>'
    )
    assert (robot.links["a"].gravity, robot.links["b"].gravity) == (False, True)
