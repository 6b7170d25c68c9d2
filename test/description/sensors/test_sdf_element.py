"""Tests of sdf_bridge.description.sensors.sdf_element (SDFormat-style sensors)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sdf_bridge.description.model import (
    CameraParams,
    ContactParams,
    ForceTorqueParams,
    ImuParams,
    Noise,
    RayParams,
)
from sdf_bridge.description.sensors.sdf_element import parse_noise, parse_pose, parse_sensor
from sdf_bridge.description.xmlio import ParseContext, parse_xml
from sdf_bridge.errors import InvalidValueError

TOL = 1e-12


def _sensor(
    xml: str,
    *,
    link: str | None = "base_link",
    joint: str | None = None,
    origin_format: str = "gazebo",
):
    ctx = ParseContext("s.urdf")
    return parse_sensor(
        parse_xml(xml, "s.urdf"), ctx, link=link, joint=joint, origin_format=origin_format
    ), ctx.warnings


def test_common_fields():
    s, warnings = _sensor(
        """<sensor name="imu_sensor" type="imu">
        <always_on>true</always_on><update_rate>100</update_rate><topic> imu </topic>
        <visualize>1</visualize><pose>0.1 0.2 0.3 0.0 0.5 1.0</pose></sensor>"""
    )
    assert (s.name, s.type, s.raw_type, s.link, s.joint) == (
        "imu_sensor",
        "imu",
        "imu",
        "base_link",
        None,
    )
    assert (s.update_rate, s.topic, s.always_on, s.visualize) == (100.0, "imu", True, True)
    assert s.pose.xyz == (0.1, 0.2, 0.3) and s.pose.rpy == (0.0, 0.5, 1.0)
    assert s.frame_id is None and s.ros_frame_id == "base_link"
    assert s.origin_format == "gazebo"
    assert s.source is not None and s.source.line == 1
    assert warnings == []


def test_defaults_when_elements_absent():
    s, _ = _sensor('<sensor name="a" type="altimeter"/>', link=None, joint="j", origin_format="sdf")
    assert (s.update_rate, s.topic, s.always_on, s.visualize, s.params, s.plugins) == (
        0.0,
        None,
        False,
        False,
        None,
        (),
    )
    assert s.pose.is_identity and s.joint == "j" and s.ros_frame_id == "j"


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        ("camera", "camera"),
        ("multicamera", "camera"),
        ("depth", "depth"),
        ("depth_camera", "depth"),
        ("rgbd_camera", "depth"),
        ("ray", "ray"),
        ("gpu_ray", "ray"),
        ("lidar", "ray"),
        ("gpu_lidar", "ray"),
        ("imu", "imu"),
        ("force_torque", "force_torque"),
        ("contact", "contact"),
        ("gps", "gps"),
        ("navsat", "gps"),
        ("altimeter", "altimeter"),
        ("magnetometer", "magnetometer"),
        ("air_pressure", "air_pressure"),
        ("air_speed", "air_speed"),
        ("sonar", "range"),
        ("thermal_camera", "thermal_camera"),
        ("GPU_RAY", "ray"),
    ],
)
def test_type_normalisation(raw, kind):
    s, _ = _sensor(f'<sensor name="s" type="{raw}"/>')
    assert (s.type, s.raw_type) == (kind, raw)


def test_pose_degrees_and_quaternion():
    ctx = ParseContext("p.sdf")
    p = parse_pose(ctx, parse_xml('<pose degrees="true">1 2 3 90 0 -45</pose>'))
    assert p.xyz == (1.0, 2.0, 3.0)
    assert p.rpy == pytest.approx((math.pi / 2, 0.0, -math.pi / 4), abs=TOL)
    q = parse_pose(
        ctx,
        parse_xml(
            '<pose rotation_format="quat_xyzw">0 0 1 0 0 0.7071067811865476 '
            "0.7071067811865476</pose>"
        ),
    )
    assert q.xyz == (0.0, 0.0, 1.0)
    assert q.rpy == pytest.approx((0.0, 0.0, math.pi / 2), abs=1e-9)
    assert parse_pose(ctx, parse_xml("<pose/>")).is_identity
    assert parse_pose(ctx, None).is_identity


@pytest.mark.parametrize(
    ("xml", "message"),
    [
        ("<pose>1 2 3</pose>", r"expected 6 numbers, got 3"),
        ("<pose>1 2 3 a 0 0</pose>", r"not a number"),
        ('<pose rotation_format="quat_xyzw">1 2 3 0 0 0</pose>', r"expected 7 numbers"),
        (
            '<pose rotation_format="quat_xyzw">1 2 3 0 0 0 0</pose>',
            r"quaternion is \(0.0, 0.0, 0.0, 0.0\), of zero length",
        ),
        (
            '<pose rotation_format="quat_xyzw">1 2 3 1e-200 0 0 0</pose>',
            r"quaternion is .* of zero length",
        ),
        (
            '<pose rotation_format="axis_angle">1 2 3 0 0 0</pose>',
            r"rotation_format is 'axis_angle'",
        ),
        (
            '<pose degrees="maybe">1 2 3 0 0 0</pose>',
            r"attribute 'degrees' is 'maybe', not a boolean",
        ),
    ],
)
def test_bad_pose(xml, message):
    with pytest.raises(InvalidValueError, match=message):
        parse_pose(ParseContext("p.sdf"), parse_xml(xml))


def test_noise_forms():
    ctx = ParseContext("n.sdf")
    assert parse_noise(ctx, None) is None
    attr = parse_noise(
        ctx,
        parse_xml(
            '<noise type="gaussian"><mean>0.1</mean><stddev>2e-4</stddev>'
            "<bias_mean>0.5</bias_mean></noise>"
        ),
    )
    assert attr == Noise(type="gaussian", mean=0.1, stddev=2e-4, bias_mean=0.5)
    elem = parse_xml("<noise><type>Gaussian_Quantized</type><precision>0.01</precision></noise>")
    assert parse_noise(ctx, elem) == Noise(type="gaussian_quantized", precision=0.01)
    assert parse_noise(ctx, parse_xml("<noise/>")) == Noise(type="none")


def test_bad_noise():
    with pytest.raises(InvalidValueError, match=r"noise type is 'pink'"):
        parse_noise(ParseContext("n.sdf"), parse_xml('<noise type="pink"/>'))
    with pytest.raises(InvalidValueError, match=r"<stddev> is 'big', not a number"):
        parse_noise(
            ParseContext("n.sdf"), parse_xml('<noise type="gaussian"><stddev>big</stddev></noise>')
        )


CAMERA = """<sensor name="camera1" type="{type}">
  <update_rate>30.0</update_rate>
  <camera name="head">
    <horizontal_fov>1.3962634</horizontal_fov>
    <image><width>800</width><height>600</height><format>L8</format></image>
    <clip><near>0.02</near><far>300</far></clip>
    <noise><type>gaussian</type><mean>0.0</mean><stddev>0.007</stddev></noise>
  </camera>
  {extra}
  <plugin filename="libgazebo_ros_camera.so" name="camera_controller">
    <frameName>camera_link_optical</frameName>
  </plugin>
</sensor>"""


def test_camera():
    s, warnings = _sensor(CAMERA.format(type="camera", extra=""))
    assert s.params == CameraParams(
        horizontal_fov=1.3962634,
        width=800,
        height=600,
        format="L8",
        near=0.02,
        far=300.0,
        depth=False,
        noise=Noise(type="gaussian", stddev=0.007),
    )
    assert s.frame_id == "camera_link_optical" and s.ros_frame_id == "camera_link_optical"
    assert len(s.plugins) == 1 and s.plugins[0].startswith(
        '<plugin filename="libgazebo_ros_camera.so"'
    )
    assert warnings == []


def test_depth_and_multicamera_first_camera():
    s, _ = _sensor(CAMERA.format(type="depth", extra=""))
    assert isinstance(s.params, CameraParams) and s.params.depth is True and s.type == "depth"
    m, _ = _sensor(
        CAMERA.format(
            type="multicamera",
            extra="<camera name='right'><image><width>10</width></image></camera>",
        )
    )
    assert isinstance(m.params, CameraParams) and m.params.width == 800 and m.type == "camera"


def test_camera_spec_defaults():
    s, _ = _sensor('<sensor name="c" type="camera"><camera/></sensor>')
    assert s.params == CameraParams(
        horizontal_fov=1.047, width=320, height=240, format="R8G8B8", near=0.1, far=100.0
    )


@pytest.mark.parametrize(
    ("inner", "message"),
    [
        ("<image><width>wide</width></image>", r"<width> is 'wide', not a number"),
        ("<image><width>0.5</width></image>", r"<width> is '0.5', not an integer ≥ 1"),
        ("<image><height>0</height></image>", r"<height> is '0', not an integer ≥ 1"),
        ("<clip><near>close</near></clip>", r"<near> is 'close'"),
        ("<horizontal_fov>inf</horizontal_fov>", r"not finite"),
    ],
)
def test_bad_camera_values(inner, message):
    with pytest.raises(InvalidValueError, match=message):
        _sensor(f'<sensor name="c" type="camera"><camera>{inner}</camera></sensor>')


def test_non_integral_integers_are_read_by_their_integer_part_as_gazebo_does():
    """libsdformat keeps "640.7" for an unsigned int element; Gazebo reads 640 (warned)."""
    s, warnings = _sensor(
        '<sensor name="c" type="depth"><camera><image><width>640.7</width><height>480.0</height>'
        "</image></camera></sensor>"
    )
    assert (s.params.width, s.params.height) == (640, 480)
    assert warnings == [
        "s.urdf:1: <width>: <width> is '640.7', not an integer; 640 is used (its integer part, "
        "as Gazebo reads it)"
    ]
    laser, warnings = _sensor(
        '<sensor name="l" type="ray"><ray><scan><horizontal><samples>359.99</samples>'
        "</horizontal></scan></ray></sensor>"
    )
    assert laser.params.horizontal_samples == 359
    assert (
        len(warnings) == 1 and "<samples> is '359.99', not an integer; 359 is used" in warnings[0]
    )


@pytest.mark.parametrize("placeholder", ["__default__", "__default_topic__"])
def test_unset_placeholders_are_not_given(placeholder):
    s, warnings = _sensor(
        f'<sensor name="i" type="imu"><topic>{placeholder}</topic>'
        f"<frame_id>{placeholder}</frame_id>"
        "</sensor>"
    )
    assert (s.topic, s.frame_id, s.ros_frame_id) == (None, None, "base_link")
    assert warnings == [
        f's.urdf:1: <{tag}>: <{tag}> is {placeholder}, SDFormat\'s placeholder for "not set"; '
        "read as "
        "not given (the default is used)"
        for tag in ("topic", "frame_id")
    ]


RAY = """<sensor name="laser" type="{type}">
  <{tag}>
    <scan>
      <horizontal><samples>720</samples><resolution>1</resolution>
        <min_angle>-1.570796</min_angle><max_angle>1.570796</max_angle></horizontal>
      {vertical}
    </scan>
    <range><min>0.10</min><max>30.0</max><resolution>0.01</resolution></range>
    <noise><type>gaussian</type><mean>0.0</mean><stddev>0.01</stddev></noise>
  </{tag}>
</sensor>"""


@pytest.mark.parametrize(
    ("stype", "tag"),
    [("gpu_ray", "ray"), ("ray", "ray"), ("gpu_lidar", "lidar"), ("lidar", "lidar")],
)
def test_ray_and_lidar(stype, tag):
    s, _ = _sensor(RAY.format(type=stype, tag=tag, vertical=""))
    assert s.type == "ray"
    assert s.params == RayParams(
        horizontal_samples=720,
        horizontal_resolution=1.0,
        horizontal_min_angle=-1.570796,
        horizontal_max_angle=1.570796,
        vertical_samples=1,
        range_min=0.1,
        range_max=30.0,
        range_resolution=0.01,
        noise=Noise(type="gaussian", stddev=0.01),
    )


def test_ray_vertical_scan():
    vertical = (
        "<vertical><samples>16</samples><resolution>1</resolution>"
        "<min_angle>-0.26</min_angle><max_angle>0.26</max_angle></vertical>"
    )
    s, _ = _sensor(RAY.format(type="gpu_lidar", tag="lidar", vertical=vertical))
    assert isinstance(s.params, RayParams)
    assert (
        s.params.vertical_samples,
        s.params.vertical_min_angle,
        s.params.vertical_max_angle,
    ) == (16, -0.26, 0.26)


def test_bad_ray_samples():
    with pytest.raises(InvalidValueError, match=r"<samples> is 'many'"):
        _sensor(
            '<sensor name="l" type="ray"><ray><scan><horizontal><samples>many</samples>'
            "</horizontal></scan></ray></sensor>"
        )


def test_imu():
    axes = "".join(
        f'<{a}><noise type="gaussian"><mean>0.0</mean><stddev>{sd}</stddev></noise></{a}>'
        for a, sd in (("x", "2e-4"), ("y", "3e-4"), ("z", "4e-4"))
    )
    s, _ = _sensor(
        f"""<sensor name="tb3_imu" type="imu"><imu>
        <orientation_reference_frame><localization>ENU</localization></orientation_reference_frame>
        <angular_velocity>{axes}</angular_velocity>
        <linear_acceleration><x><noise type="gaussian"><stddev>1.7e-2</stddev></noise></x>
          </linear_acceleration>
        </imu></sensor>"""
    )
    assert isinstance(s.params, ImuParams)
    assert s.params.angular_velocity_noise == (
        Noise(type="gaussian", stddev=2e-4),
        Noise(type="gaussian", stddev=3e-4),
        Noise(type="gaussian", stddev=4e-4),
    )
    assert s.params.linear_acceleration_noise == (
        Noise(type="gaussian", stddev=1.7e-2),
        Noise(),
        Noise(),
    )
    assert s.params.orientation_reference_frame == "ENU"


def test_imu_without_block():
    s, _ = _sensor('<sensor name="i" type="imu"/>')
    assert s.params == ImuParams()


def test_force_torque():
    s, _ = _sensor(
        '<sensor name="ft" type="force_torque"><force_torque><frame>sensor</frame>'
        "<measure_direction>parent_to_child</measure_direction></force_torque></sensor>",
        link=None,
        joint="wrist",
        origin_format="sdf",
    )
    assert s.params == ForceTorqueParams(frame="sensor", measure_direction="parent_to_child")
    d, _ = _sensor('<sensor name="ft" type="force_torque"/>')
    assert d.params == ForceTorqueParams(frame="child", measure_direction="child_to_parent")


@pytest.mark.parametrize(
    ("inner", "message"),
    [
        ("<frame>world</frame>", r"force_torque frame is 'world'"),
        ("<measure_direction>up</measure_direction>", r"measure_direction is 'up'"),
    ],
)
def test_bad_force_torque(inner, message):
    with pytest.raises(InvalidValueError, match=message):
        _sensor(
            f'<sensor name="ft" type="force_torque"><force_torque>{inner}</force_torque></sensor>'
        )


def test_contact():
    s, _ = _sensor(
        '<sensor name="c" type="contact"><contact><collision>base_link_collision</collision>'
        "<collision> pad </collision><topic>x</topic></contact></sensor>"
    )
    assert s.params == ContactParams(collisions=("base_link_collision", "pad"))
    e, _ = _sensor('<sensor name="c" type="contact"/>')
    assert e.params == ContactParams()


@pytest.mark.parametrize(
    ("inner", "expected"),
    [
        ("<gz_frame_id>base_scan</gz_frame_id>", "base_scan"),
        ("<ignition_frame_id>ign</ignition_frame_id>", "ign"),
        ("<frame_id>plain</frame_id>", "plain"),
        ('<plugin name="p" filename="f"><frame_name>fn</frame_name></plugin>', "fn"),
        ('<plugin name="p" filename="f"><frameName>fN</frameName></plugin>', "fN"),
        (
            '<plugin name="p" filename="f"><ros><frame_name>rosfn</frame_name></ros></plugin>',
            "rosfn",
        ),
    ],
)
def test_frame_id_overrides(inner, expected):
    s, warnings = _sensor(f'<sensor name="s" type="imu">{inner}</sensor>', link="imu_link")
    assert s.frame_id == expected and s.ros_frame_id == expected
    assert warnings == []


def test_conflicting_frame_overrides_warn_and_first_wins():
    s, warnings = _sensor(
        '<sensor name="s" type="imu"><gz_frame_id>a</gz_frame_id>'
        '<plugin name="p" filename="f"><frameName>b</frameName></plugin></sensor>'
    )
    assert s.frame_id == "a"
    assert len(warnings) == 1 and "several frame overrides" in warnings[0]


def test_case_014_imu_frame_is_the_link(cases_dir: Path):
    path = cases_dir / "014-imu-frame-id-scoped-name" / "robot.urdf"
    root = parse_xml(path.read_bytes(), str(path))
    gazebo = root.find("gazebo")
    s = parse_sensor(
        gazebo.find("sensor"),
        ParseContext(str(path)),
        link=gazebo.get("reference"),
        origin_format="gazebo",
    )
    assert (s.name, s.type, s.link, s.frame_id, s.ros_frame_id) == (
        "imu_sensor",
        "imu",
        "imu_link",
        None,
        "imu_link",
    )
    assert (s.update_rate, s.topic, s.always_on) == (100.0, "imu", True)


@pytest.mark.parametrize(
    ("xml", "message"),
    [
        ('<sensor type="imu"/>', r"<sensor> has no name"),
        ('<sensor name="s"/>', r"sensor 's' has no type"),
        (
            '<sensor name="s" type="imu"><update_rate>fast</update_rate></sensor>',
            r"<update_rate> is 'fast'",
        ),
        (
            '<sensor name="s" type="imu"><update_rate>-1</update_rate></sensor>',
            r"update_rate is -1.0",
        ),
        (
            '<sensor name="s" type="imu"><always_on>yes</always_on></sensor>',
            r"<always_on> is 'yes', not a boolean",
        ),
        ('<sensor name="s" type="imu"><visualize/></sensor>', r"<visualize> is '', not a boolean"),
    ],
)
def test_sensor_errors(xml, message):
    with pytest.raises(InvalidValueError, match=message):
        _sensor(xml)


@pytest.mark.parametrize(
    "inner, message",
    [
        (
            "<camera><horizontal_fov>-1</horizontal_fov></camera>",
            r"s\.urdf:1: <sensor name=\"c\">: sensor 'c': horizontal field of view is -1 rad\. "
            r"Fix: give a value in \(0, 2π\] rad",
        ),
        (
            "<camera><horizontal_fov>7</horizontal_fov></camera>",
            r"horizontal field of view is 7 rad",
        ),
        (
            "<camera><clip><near>2</near><far>1</far></clip></camera>",
            r"clip range near 2 m, far 1 m\. Fix: give 0 <= near < far",
        ),
        (
            "<camera><clip><near>-0.1</near><far>1</far></clip></camera>",
            r"clip range near -0.1 m, far 1 m",
        ),
    ],
)
def test_camera_values_out_of_range(inner: str, message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        _sensor(f'<sensor name="c" type="camera">{inner}</sensor>')


@pytest.mark.parametrize(
    "inner, message",
    [
        (
            "<scan><horizontal><samples>4</samples><min_angle>1</min_angle>"
            "<max_angle>-1</max_angle></horizontal></scan><range><min>0.1</min><max>10</max>"
            "</range>",
            r"sensor 'r': horizontal min_angle 1 rad is above max_angle -1 rad",
        ),
        (
            "<scan><vertical><samples>4</samples><min_angle>0.5</min_angle>"
            "<max_angle>0.2</max_angle></vertical></scan><range><min>0.1</min><max>10</max>"
            "</range>",
            r"vertical min_angle 0.5 rad is above max_angle 0.2 rad",
        ),
        (
            "<range><min>5</min><max>1</max></range>",
            r"range min 5 m is above max 1 m\. Fix: swap the range min and max",
        ),
    ],
)
def test_ray_values_out_of_range(inner: str, message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        _sensor(f'<sensor name="r" type="ray"><ray>{inner}</ray></sensor>')


@pytest.mark.parametrize("tag", ["stddev", "bias_stddev", "precision"])
def test_negative_noise_spread_is_refused(tag: str) -> None:
    ctx = ParseContext("n.sdf")
    elem = parse_xml(
        f'<noise type="gaussian"><mean>0.1</mean><{tag}>-0.01</{tag}></noise>', "n.sdf"
    )
    with pytest.raises(
        InvalidValueError,
        match=rf"n\.sdf:1: <{tag}>: noise <{tag}> is -0.01, negative\. Fix: give a <{tag}> >= 0",
    ):
        parse_noise(ctx, elem)


def test_noise_values_are_kept() -> None:
    ctx = ParseContext("n.sdf")
    noise = parse_noise(
        ctx,
        parse_xml(
            '<noise type="gaussian"><mean>0.1</mean><stddev>0.02</stddev>'
            "<bias_mean>0.3</bias_mean><bias_stddev>0.04</bias_stddev></noise>",
            "n.sdf",
        ),
    )
    assert noise == Noise(
        type="gaussian", mean=0.1, stddev=0.02, bias_mean=0.3, bias_stddev=0.04, precision=0.0
    )


@pytest.mark.parametrize(
    "xml, bad, good",
    [
        (
            '<sensor name="c" type="camera"><camera><horizontal_fvo>0.5</horizontal_fvo></camera>'
            "</sensor>",
            "horizontal_fvo",
            "horizontal_fov",
        ),
        (
            '<sensor name="c" type="camera"><camera><image><widht>64</widht></image></camera>'
            "</sensor>",
            "widht",
            "width",
        ),
        (
            '<sensor name="c" type="camera"><updaterate>5</updaterate></sensor>',
            "updaterate",
            "update_rate",
        ),
        (
            '<sensor name="l" type="ray"><ray><scan><horizontal><sample>5</sample></horizontal>'
            "</scan></ray></sensor>",
            "sample",
            "samples",
        ),
        (
            '<sensor name="l" type="gpu_lidar"><lidar><range><maxx>5</maxx></range></lidar>'
            "</sensor>",
            "maxx",
            "max",
        ),
        (
            '<sensor name="i" type="imu"><imu><angular_velocty/></imu></sensor>',
            "angular_velocty",
            "angular_velocity",
        ),
        (
            '<sensor name="i" type="imu"><imu><angular_velocity><x><noise type="gaussian">'
            "<stdev>1</stdev></noise></x>"
            "</angular_velocity></imu></sensor>",
            "stdev",
            "stddev",
        ),
        (
            '<sensor name="f" type="force_torque"><force_torque><frme>child</frme></force_torque>'
            "</sensor>",
            "frme",
            "frame",
        ),
        (
            '<sensor name="p" type="air_pressure"><air_pressure><reference_altitud>1'
            "</reference_altitud></air_pressure></sensor>",
            "reference_altitud",
            "reference_altitude",
        ),
        (
            '<sensor name="g" type="navsat"><navsat><position_sensin/></navsat></sensor>',
            "position_sensin",
            "position_sensing",
        ),
        (
            '<sensor name="g" type="gps"><gps><position_sensing><horizontl/></position_sensing>'
            "</gps></sensor>",
            "horizontl",
            "horizontal",
        ),
    ],
)
def test_misspelt_sensor_elements_are_errors(xml: str, bad: str, good: str) -> None:
    with pytest.raises(
        InvalidValueError,
        match=rf"s\.urdf:1: <{bad}>: unknown element <{bad}> in .*; did you mean <{good}>\?",
    ):
        _sensor(xml)


def test_legacy_camel_case_sensor_tags_warn() -> None:
    s, warnings = _sensor(
        '<sensor name="l" type="ray"><alwaysOn>true</alwaysOn><my_extension/></sensor>'
    )
    assert s.always_on is False
    assert warnings == [
        "s.urdf:1: <alwaysOn>: <alwaysOn> is not an SDFormat element (libsdformat ignores it); "
        "not read: write <always_on>"
    ]
