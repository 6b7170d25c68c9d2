"""Tests of sdf_bridge.description.sensors.sdf_element for the navigation sensors: gps / navsat,
magnetometer, air_pressure (split from test_sensor_parser.py by concept; their misspelt
elements are among test_sensor_parser.py's)."""

from __future__ import annotations

import pytest

from sdf_bridge.description.model import (
    AirPressureParams,
    GpsParams,
    MagnetometerParams,
    Noise,
)
from sdf_bridge.description.sensors.sdf_element import parse_sensor
from sdf_bridge.description.xmlio import ParseContext, parse_xml
from sdf_bridge.errors import InvalidValueError


def _sensor(xml: str):
    ctx = ParseContext("s.urdf")
    return parse_sensor(
        parse_xml(xml, "s.urdf"), ctx, link="base_link", origin_format="gazebo"
    ), ctx.warnings


@pytest.mark.parametrize("stype", ["gps", "navsat"])
def test_gps_and_navsat(stype):
    s, _ = _sensor(
        f"""<sensor name="g" type="{stype}"><{stype}><position_sensing>
        <horizontal><noise type="gaussian"><stddev>2.0</stddev></noise></horizontal>
        <vertical><noise type="gaussian"><stddev>4.0</stddev></noise></vertical>
        </position_sensing></{stype}></sensor>"""
    )
    assert s.type == "gps"
    assert s.params == GpsParams(
        horizontal_position_noise=Noise(type="gaussian", stddev=2.0),
        vertical_position_noise=Noise(type="gaussian", stddev=4.0),
    )
    bare, _ = _sensor(f'<sensor name="g" type="{stype}"/>')
    assert bare.params == GpsParams()


def test_magnetometer_noise_per_axis() -> None:
    s, _ = _sensor(
        """<sensor name="m" type="magnetometer"><magnetometer>
        <x><noise type="gaussian"><stddev>1e-6</stddev></noise></x>
        <z><noise type="gaussian"><mean>2e-7</mean><bias_mean>1e-7</bias_mean></noise></z>
        </magnetometer></sensor>"""
    )
    assert s.type == "magnetometer"
    assert s.params == MagnetometerParams(
        noise=(
            Noise(type="gaussian", stddev=1e-6),
            Noise(),
            Noise(type="gaussian", mean=2e-7, bias_mean=1e-7),
        )
    )
    bare, _ = _sensor('<sensor name="m" type="magnetometer"/>')
    assert bare.params == MagnetometerParams()


def test_air_pressure_reference_altitude_and_noise() -> None:
    s, _ = _sensor(
        """<sensor name="p" type="air_pressure"><air_pressure>
        <reference_altitude>123.5</reference_altitude>
        <pressure><noise type="gaussian"><stddev>0.1</stddev></noise></pressure>
        </air_pressure></sensor>"""
    )
    assert s.type == "air_pressure"
    assert s.params == AirPressureParams(
        reference_altitude=123.5, pressure_noise=Noise(type="gaussian", stddev=0.1)
    )
    bare, _ = _sensor('<sensor name="p" type="air_pressure"/>')
    assert bare.params == AirPressureParams()
    with pytest.raises(
        InvalidValueError,
        match=r"s\.urdf:1: <reference_altitude>: <reference_altitude> is 'high', not a number\. "
        r"Fix: write <reference_altitude> as a decimal number$",
    ):
        _sensor(
            '<sensor name="p" type="air_pressure"><air_pressure>'
            "<reference_altitude>high</reference_altitude></air_pressure></sensor>"
        )
