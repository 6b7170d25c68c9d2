"""Tests of sdf_bridge.description.urdf.sensor (urdfdom's top-level URDF <sensor>)."""

from __future__ import annotations

import pytest

from sdf_bridge.description.model import CameraParams, RayParams
from sdf_bridge.description.urdf.sensor import parse_urdf_sensor
from sdf_bridge.description.xmlio import ParseContext, parse_xml
from sdf_bridge.errors import InvalidValueError


def _urdf(xml: str):
    ctx = ParseContext("u.urdf")
    return parse_urdf_sensor(parse_xml(xml, "u.urdf"), ctx), ctx.warnings


def test_urdf_camera_sensor():
    s, warnings = _urdf(
        """<sensor name="my_camera_sensor" update_rate="20">
        <parent link="optical_frame_link_name"/>
        <origin xyz="0.1 0 0.2" rpy="0 0.5 0"/>
        <camera><image width="640" height="480" hfov="1.5708" format="RGB8" near="0.01" far="50.0"/>
          </camera>
        </sensor>"""
    )
    assert (s.name, s.type, s.raw_type, s.link, s.update_rate, s.origin_format) == (
        "my_camera_sensor",
        "camera",
        "camera",
        "optical_frame_link_name",
        20.0,
        "urdf",
    )
    assert s.pose.xyz == (0.1, 0.0, 0.2) and s.pose.rpy == (0.0, 0.5, 0.0)
    assert s.params == CameraParams(
        horizontal_fov=1.5708, width=640, height=480, format="RGB8", near=0.01, far=50.0
    )
    assert warnings == []


def test_urdf_ray_sensor_and_defaults():
    s, _ = _urdf(
        """<sensor name="my_ray_sensor"><parent link="l"/>
        <ray><horizontal samples="100" resolution="1" min_angle="-1.5708" max_angle="1.5708"/></ray>
          </sensor>"""
    )
    assert s.type == "ray" and s.update_rate == 0.0 and s.pose.is_identity
    assert s.params == RayParams(
        horizontal_samples=100,
        horizontal_resolution=1.0,
        horizontal_min_angle=-1.5708,
        horizontal_max_angle=1.5708,
        vertical_samples=1,
        vertical_resolution=1.0,
        vertical_min_angle=0.0,
        vertical_max_angle=0.0,
    )
    v, _ = _urdf(
        '<sensor name="v"><parent link="l"/><ray><vertical samples="8" min_angle="-0.1"/></ray>'
        "</sensor>"
    )
    assert isinstance(v.params, RayParams)
    assert (
        v.params.horizontal_samples,
        v.params.vertical_samples,
        v.params.vertical_min_angle,
    ) == (1, 8, -0.1)


def test_urdf_unknown_kind_is_kept_with_warning():
    s, warnings = _urdf('<sensor name="x"><parent link="l"/><origin xyz="0 0 0"/><sonar/></sensor>')
    assert (s.type, s.raw_type, s.params) == ("range", "sonar", None)
    assert len(warnings) == 1 and "not a urdfdom sensor kind" in warnings[0]


@pytest.mark.parametrize(
    ("xml", "message"),
    [
        ('<sensor><parent link="l"/><ray/></sensor>', r"<sensor> has no name"),
        ('<sensor name="s"><ray/></sensor>', r"sensor 's' has no <parent link=...>"),
        ('<sensor name="s"><parent/><ray/></sensor>', r"has no <parent link"),
        ('<sensor name="s"><parent link="l"/></sensor>', r"has no <camera> or <ray>"),
        (
            '<sensor name="s" update_rate="x"><parent link="l"/><ray/></sensor>',
            r"attribute 'update_rate' is 'x'",
        ),
        (
            '<sensor name="s" update_rate="-2"><parent link="l"/><ray/></sensor>',
            r"update_rate is -2.0",
        ),
        (
            '<sensor name="s"><parent link="l"/><origin xyz="1 2"/><ray/></sensor>',
            r"expected 3 numbers",
        ),
        (
            '<sensor name="s"><parent link="l"/><camera/></sensor>',
            r"camera sensor 's' has no <image>",
        ),
        (
            '<sensor name="s"><parent link="l"/><camera><image width="1" height="1" format="L8" '
            'hfov="1" near="0.1"/></camera></sensor>',
            r"<image> has no far attribute",
        ),
        (
            '<sensor name="s"><parent link="l"/><camera><image width="1.5" height="1" '
            'format="L8" hfov="1" near="0.1" far="9"/></camera></sensor>',
            r"attribute 'width' is '1.5'",
        ),
        (
            '<sensor name="s"><parent link="l"/><camera><image width="1" height="1" format="L8" '
            'hfov="wide" near="0.1" far="9"/></camera></sensor>',
            r"attribute 'hfov' is 'wide'",
        ),
        (
            '<sensor name="s"><parent link="l"/><ray><horizontal samples="0"/></ray></sensor>',
            r"attribute 'samples' is '0'",
        ),
        (
            '<sensor name="s"><parent link="l"/><ray><vertical max_angle="up"/></ray></sensor>',
            r"attribute 'max_angle' is 'up'",
        ),
    ],
)
def test_urdf_sensor_errors(xml, message):
    with pytest.raises(InvalidValueError, match=message):
        _urdf(xml)


def test_urdf_camera_out_of_range_is_refused() -> None:
    xml = (
        '<sensor name="c" update_rate="10"><parent link="a"/><camera><image width="64" '
        'height="48" format="R8G8B8" hfov="0" near="0.1" far="5"/></camera></sensor>'
    )
    with pytest.raises(
        InvalidValueError,
        match=r"u\.urdf:1: <sensor name=\"c\">: sensor 'c': horizontal field of view is 0 rad",
    ):
        _urdf(xml)


def test_urdf_sensor_misspelt_origin_is_an_error() -> None:
    with pytest.raises(
        InvalidValueError,
        match=r"unknown element <orign> in <sensor name=\"c\">; did you mean <origin>\?",
    ):
        _urdf('<sensor name="c"><parent link="l"/><orign xyz="1 0 0"/><ray/></sensor>')
