"""Tests of the URDF loader (sdf_bridge.description.urdf) through the public ``load``: every
element of the URDF spec, and the parsing parts of cases 007, 009, 011 and 014.
Numeric tolerance: exact for parsed literals, 1e-6 for values derived by trigonometry."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from sdf_bridge.description import (
    Box,
    Capsule,
    Cylinder,
    JointType,
    Material,
    Mesh,
    Pose,
    Robot,
    Sphere,
    load,
    load_with_warnings,
)
from sdf_bridge.description.kinematics import link_transforms
from sdf_bridge.errors import (
    InvalidValueError,
    XmlSyntaxError,
)


def urdf(body: str, name: str = "r") -> str:
    return f'<?xml version="1.0"?>\n<robot name="{name}">\n{body}\n</robot>\n'


def two_links(joint: str) -> str:
    return urdf(f'<link name="a"/><link name="b"/>\n{joint}')


FULL = urdf(
    """
  <material name="blue"><color rgba="0 0 0.8 1"/></material>
  <material name="tex"><texture filename="package://p/t.png"/></material>
  <link name="base">
    <inertial>
      <origin xyz="0.1 0 0" rpy="0 0 0.5"/>
      <mass value="2.5"/>
      <inertia ixx="1" ixy="0.1" ixz="0.2" iyy="2" iyz="0.3" izz="3"/>
    </inertial>
    <visual name="v1">
      <origin xyz="0 0 0.1"/>
      <geometry><box size="1 2 3"/></geometry>
      <material name="blue"/>
    </visual>
    <visual>
      <geometry><cylinder radius="0.1" length="0.5"/></geometry>
      <material name="red"><color rgba="1 0 0 1"/></material>
    </visual>
    <visual><geometry><sphere radius="0.2"/></geometry><material name="red"/></visual>
    <collision name="c1">
      <geometry><mesh filename="meshes/base.stl" scale="0.001 0.001 0.001"/></geometry>
    </collision>
    <collision><geometry><capsule radius="0.05" length="0.3"/></geometry></collision>
  </link>
  <link name="arm"/>
  <link name="slider"/>
  <link name="free"/>
  <link name="plane"/>
  <link name="tip"/>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="arm"/>
    <origin xyz="0 0 1" rpy="0 0.5 0"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.5" effort="30" velocity="2"/>
    <dynamics damping="0.7" friction="0.1"/>
    <safety_controller soft_lower_limit="-1.4" soft_upper_limit="1.4" k_position="100"
      k_velocity="10"/>
    <calibration rising="0.2" falling="-0.2"/>
  </joint>
  <joint name="slide" type="prismatic">
    <parent link="arm"/><child link="slider"/>
    <limit lower="0" upper="0.3" effort="100" velocity="0.5"/>
  </joint>
  <joint name="float" type="floating">
    <parent link="base"/><child link="free"/>
  </joint>
  <joint name="planar" type="planar">
    <parent link="base"/><child link="plane"/>
    <axis xyz="0 0 5"/>
  </joint>
  <joint name="follow" type="continuous">
    <parent link="slider"/><child link="tip"/>
    <axis xyz="0 0 1"/>
    <mimic joint="shoulder" multiplier="-2" offset="0.1"/>
  </joint>
""",
    name="full",
)


@pytest.fixture(scope="module")
def full() -> Robot:
    robot = load(FULL)
    assert isinstance(robot, Robot)
    return robot


def test_links_and_order(full: Robot) -> None:
    assert full.name == "full"
    assert list(full.links) == ["base", "arm", "slider", "free", "plane", "tip"]
    assert list(full.joints) == ["shoulder", "slide", "float", "planar", "follow"]
    assert full.root_link == "base"
    assert full.links["base"].source.line == 6


def test_inertial(full: Robot) -> None:
    inertial = full.links["base"].inertial
    assert inertial.mass == 2.5
    assert inertial.origin == Pose((0.1, 0.0, 0.0), (0.0, 0.0, 0.5))
    i = inertial.inertia
    assert (i.ixx, i.ixy, i.ixz, i.iyy, i.iyz, i.izz) == (1.0, 0.1, 0.2, 2.0, 0.3, 3.0)
    assert full.links["arm"].inertial is None


def test_visuals_geometry_and_materials(full: Robot) -> None:
    visuals = full.links["base"].visuals
    assert [v.name for v in visuals] == ["v1", None, None]
    assert visuals[0].geometry == Box((1.0, 2.0, 3.0))
    assert visuals[0].origin == Pose((0.0, 0.0, 0.1))
    assert visuals[0].material == Material("blue", (0.0, 0.0, 0.8, 1.0))
    assert visuals[1].geometry == Cylinder(0.1, 0.5)
    assert visuals[1].material == Material("red", (1.0, 0.0, 0.0, 1.0))
    # a named inline material can be referenced afterwards (urdfdom behaviour)
    assert visuals[2].geometry == Sphere(0.2)
    assert visuals[2].material == Material("red", (1.0, 0.0, 0.0, 1.0))
    assert full.materials["tex"] == Material("tex", None, "package://p/t.png")
    assert list(full.materials) == ["blue", "tex", "red"]


def test_collisions_mesh_and_capsule(full: Robot) -> None:
    collisions = full.links["base"].collisions
    assert collisions[0].name == "c1"
    # string: no base dir
    assert collisions[0].geometry == Mesh("meshes/base.stl", (0.001, 0.001, 0.001), None)
    assert collisions[1].geometry == Capsule(0.05, 0.3)


def test_revolute_joint_everything(full: Robot) -> None:
    j = full.joints["shoulder"]
    assert j.type is JointType.REVOLUTE and j.type == "revolute"
    assert (j.parent, j.child) == ("base", "arm")
    assert j.origin == Pose((0.0, 0.0, 1.0), (0.0, 0.5, 0.0))
    assert j.axis.xyz == (0.0, 1.0, 0.0)
    assert (j.limit.lower, j.limit.upper, j.limit.effort, j.limit.velocity) == (
        -1.5,
        1.5,
        30.0,
        2.0,
    )
    assert (j.dynamics.damping, j.dynamics.friction) == (0.7, 0.1)
    s = j.safety_controller
    assert (s.soft_lower_limit, s.soft_upper_limit, s.k_position, s.k_velocity) == (
        -1.4,
        1.4,
        100.0,
        10.0,
    )
    assert (j.calibration.rising, j.calibration.falling, j.calibration.reference_position) == (
        0.2,
        -0.2,
        None,
    )
    assert j.mimic is None
    assert j.joint_to_child.is_identity


def test_default_axis_floating_planar_and_mimic(full: Robot) -> None:
    assert full.joints["slide"].axis.xyz == (1.0, 0.0, 0.0)  # URDF default axis
    assert full.joints["float"].axis is None
    assert full.joints["float"].type is JointType.FLOATING
    assert full.joints["planar"].axis.xyz == (0.0, 0.0, 1.0)
    mimic = full.joints["follow"].mimic
    assert (mimic.joint, mimic.multiplier, mimic.offset) == ("shoulder", -2.0, 0.1)
    assert full.movable_joints == ("shoulder", "slide", "float", "planar", "follow")


def test_mimic_defaults() -> None:
    robot = load(
        urdf(
            '<link name="a"/><link name="b"/><link name="c"/><joint name="j1" type="continuous">'
            '<parent link="a"/><child link="b"/></joint><joint name="j2" type="continuous">'
            '<parent link="b"/><child link="c"/><mimic joint="j1"/></joint>'
        )
    )
    mimic = robot.joints["j2"].mimic
    assert (mimic.multiplier, mimic.offset) == (1.0, 0.0)


def test_mesh_resolution_with_package_paths_and_files(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    path = tmp_path / "urdf" / "r.urdf"
    path.parent.mkdir()
    path.write_text(
        urdf(
            '<link name="a"><visual><geometry><mesh filename="package://my_pkg/m/a.dae"/>'
            '</geometry></visual><visual><geometry><mesh filename="../meshes/b.stl"/>'
            "</geometry></visual><visual><geometry><mesh "
            'filename="package://unknown_pkg_zz/c.stl"/></geometry></visual></link>'
        )
    )
    robot = load(path, package_paths={"my_pkg": pkg})
    meshes = [v.geometry for v in robot.links["a"].visuals]
    assert meshes[0].resolved == str(pkg / "m" / "a.dae")
    assert meshes[1].resolved == str(tmp_path / "meshes" / "b.stl")
    assert meshes[2].resolved is None
    assert meshes[0].scale == (1.0, 1.0, 1.0)


def test_unknown_package_warns_once_per_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AMENT_PREFIX_PATH", raising=False)
    meshes = "".join(
        f'<visual><geometry><mesh filename="package://unknown_pkg_zz/m{i}.stl"/></geometry>'
        "</visual>"
        for i in range(3)
    )
    robot, warnings = load_with_warnings(urdf(f'<link name="a">{meshes}</link>'))
    assert [v.geometry.resolved for v in robot.links["a"].visuals] == [None, None, None]
    assert warnings == [
        "<string>:3: <mesh>: package 'unknown_pkg_zz' is not in the package path map or the ament "
        "index; its mesh paths stay unresolved (give --package-path PKG=DIR or package_paths)"
    ]


def test_find_substitution_in_a_plain_urdf_mesh(tmp_path: Path) -> None:
    text = urdf(
        '<link name="a"><visual><geometry><mesh filename="$(find my_pkg)/meshes/a.stl"/>'
        "</geometry></visual></link>"
    )
    robot = load(text, package_paths={"my_pkg": tmp_path})
    assert robot.links["a"].visuals[0].geometry.resolved == str(tmp_path / "meshes" / "a.stl")


def test_find_in_xacro_include_and_mesh_through_load(tmp_path: Path) -> None:
    pkg = tmp_path / "share" / "arm_pkg"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "urdf" / "part.xacro").write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:macro name="part" params="n">'
        '<link name="${n}"><visual><geometry><mesh filename="$(find '
        'arm_pkg)/meshes/${n}.stl"/></geometry></visual></link>'
        "</xacro:macro></robot>"
    )
    top = tmp_path / "robot.urdf.xacro"
    top.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:arg name="prefix" '
        'default=""/><xacro:include filename="$(find arm_pkg)/urdf/part.xacro"/><xacro:part '
        'n="$(arg prefix)base"/></robot>'
    )
    robot = load(top, xacro_args={"prefix": "left_"}, package_paths={"arm_pkg": pkg})
    assert list(robot.links) == ["left_base"]
    # xacro expands $(find) itself: the mesh path arrives absolute
    assert robot.links["left_base"].visuals[0].geometry.resolved == str(
        pkg / "meshes" / "left_base.stl"
    )


def test_mesh_escaping_its_package_is_refused(tmp_path: Path) -> None:
    text = urdf(
        '<link name="a"><visual><geometry>'
        '<mesh filename="package://pkg/../../etc/passwd"/></geometry></visual></link>'
    )
    robot = load(text, package_paths={"pkg": tmp_path})  # the visual is left out, unread
    (skipped,) = robot.skipped
    assert robot.links["a"].visuals == ()
    assert re.fullmatch(
        r"<string>:3: visual 'a' skipped: .*climbs out of its package.*", str(skipped)
    )


# -- case 007: continuous joints keep absent limits as None ------------------------------------


def test_case_007_continuous_limits_are_none(cases_dir: Path) -> None:
    robot = load(cases_dir / "007-continuous-joint-no-limits" / "robot.urdf")
    wheel = robot.joints["wheel_joint"]
    assert wheel.type is JointType.CONTINUOUS
    assert (wheel.limit.lower, wheel.limit.upper) == (None, None)
    assert (wheel.limit.velocity, wheel.limit.effort) == (10.0, 5.0)
    assert robot.joints["turret_joint"].limit is None


@pytest.mark.parametrize(
    "attrs, expected, absent",
    [
        ('effort="5"', (0.0, 0.0, 5.0, None), "lower or upper"),
        ('lower="-1"', (-1.0, 0.0, None, None), "upper"),
        ('upper="2" velocity="3"', (0.0, 2.0, None, 3.0), "lower"),
        ("", (0.0, 0.0, None, None), "lower or upper"),
        ('lower="-1" upper="1"', (-1.0, 1.0, None, None), None),
    ],
)
@pytest.mark.parametrize("kind", ["revolute", "prismatic"])
def test_absent_limit_bounds_are_zero_as_urdfdom_reads_them(
    kind: str, attrs: str, expected: tuple, absent: str | None
) -> None:
    """An absent lower/upper of a revolute or prismatic <limit> is 0 (urdfdom, libsdformat);
    absent effort/velocity stay None (not limited)."""
    robot, warnings = load_with_warnings(
        two_links(
            f'<joint name="j" type="{kind}"><parent link="a"/><child link="b"/><limit {attrs}/>'
            "</joint>"
        )
    )
    limit = robot.joints["j"].limit
    assert (limit.lower, limit.upper, limit.effort, limit.velocity) == expected
    bounds = [w for w in warnings if "read as 0" in w]
    if absent is None:
        assert bounds == []
    else:
        locked = ", locked" if expected[0] == expected[1] else ""
        assert bounds == [
            f"<string>:4: <joint name=\"j\">: <limit> of {kind} joint 'j' has no {absent}; read "
            f"as 0, as urdfdom and libsdformat read it (range [{expected[0]:g}, "
            f"{expected[1]:g}]{locked})"
        ]


def test_negative_velocity_limit_is_no_limit_as_sdformat_reads_it() -> None:
    """urdfdom keeps a negative velocity/effort (check_urdf accepts it); SDFormat reads a
    negative one as no limit: so does the bridge, with the skip recorded."""
    robot = load(
        two_links(
            '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            '<limit lower="-1" upper="1" effort="-2" velocity="-3"/></joint>'
        )
    )
    limit = robot.joints["j"].limit
    assert (limit.lower, limit.upper, limit.effort, limit.velocity) == (-1.0, 1.0, None, None)
    assert [(s.kind, s.name, s.source.line) for s in robot.skipped] == [
        ("effort limit", "j", 4),
        ("velocity limit", "j", 4),
    ]


def test_revolute_without_limit_loads_with_a_warning() -> None:
    robot, warnings = load_with_warnings(
        two_links('<joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>')
    )
    assert robot.joints["j"].limit is None
    assert any("revolute joint 'j' has no <limit>" in w for w in warnings)


# -- case 011: axes normalised, zero axis refused ----------------------------------------------


def test_case_011_axes_normalised_and_kinematics(cases_dir: Path) -> None:
    robot = load(cases_dir / "011-axis-not-normalized" / "robot.urdf")
    assert robot.joints["tilt"].axis.xyz == (0.0, 0.0, 1.0)
    assert robot.joints["slide"].axis.xyz == pytest.approx((0.6, 0.8, 0.0), abs=1e-15)
    assert robot.joints["bracket_mount"].axis is None  # ignored on a fixed joint
    tilt = robot.joints["tilt"]
    poses = link_transforms(robot, {"tilt": 0.5, "slide": 0.1})
    head = np.linalg.inv(link_transforms(robot)[tilt.child]) @ poses[tilt.child]
    assert Pose.from_matrix(head).quaternion == pytest.approx(
        (0.0, 0.0, 0.247404, 0.968912), abs=1e-6
    )
    slide = robot.joints["slide"]
    parent = poses[slide.parent]
    local = np.linalg.inv(parent @ slide.origin.matrix()) @ poses[slide.child]
    assert local[:3, 3] == pytest.approx((0.06, 0.08, 0.0), abs=1e-12)


def test_case_011_zero_axis_names_the_joint(cases_dir: Path) -> None:
    with pytest.raises(
        InvalidValueError,
        match=r"bad_zero_axis\.urdf:\d+: <axis>: joint 'flap_joint' has a zero axis",
    ):
        load(cases_dir / "011-axis-not-normalized" / "bad_zero_axis.urdf")


@pytest.mark.parametrize("kind", ["revolute", "continuous", "prismatic", "planar"])
def test_zero_axis_refused_on_every_movable_type(kind: str) -> None:
    with pytest.raises(InvalidValueError, match="joint 'j' has a zero axis"):
        load(
            two_links(
                f'<joint name="j" type="{kind}"><parent link="a"/><child link="b"/>'
                '<axis xyz="0 0 0"/><limit effort="1" velocity="1"/></joint>'
            )
        )


@pytest.mark.parametrize("kind", ["fixed", "floating"])
def test_zero_axis_ignored_on_fixed_and_floating(kind: str) -> None:
    robot = load(
        two_links(
            f'<joint name="j" type="{kind}"><parent link="a"/><child link="b"/><axis xyz="0 0 '
            '0"/></joint>'
        )
    )
    assert robot.joints["j"].axis is None


# -- case 009 (URDF part) and case 014 (URDF part) ----------------------------------------------


def test_case_009_fixed_joint_stays_fixed(cases_dir: Path) -> None:
    robot = load(cases_dir / "009-fixed-joint-stays-fixed" / "robot.urdf")
    assert list(robot.movable_joints) == ["arm_joint"]
    assert robot.joints["tool_mount"].type is JointType.FIXED
    tool = link_transforms(robot, {"arm_joint": 0.5})["tool"]
    assert tool[:3, 3] == pytest.approx((0.263275, 0.143828, 0.0), abs=1e-6)
    assert tool[:3, 3] == pytest.approx((0.3 * math.cos(0.5), 0.3 * math.sin(0.5), 0.0), abs=1e-12)
    ext = [g for g in robot.gazebo if g.reference == "tool_mount"]
    assert len(ext) == 1
    assert ext[0].property("disableFixedJointLumping") == "true"
    assert [j.name for hc in robot.ros2_control for j in hc.joints] == ["arm_joint"]


def test_case_014_imu_sensor_on_imu_link(cases_dir: Path) -> None:
    robot = load(cases_dir / "014-imu-frame-id-scoped-name" / "robot.urdf")
    assert len(robot.sensors) == 1
    sensor = robot.sensors[0]
    assert (sensor.name, sensor.type, sensor.link) == ("imu_sensor", "imu", "imu_link")
    assert sensor.frame_id is None  # no override: the frame is the link
    assert sensor.update_rate == 100.0
    assert sensor.topic == "imu"
    joint = robot.joints["imu_joint"]
    assert joint.origin == Pose((0.0, 0.0, 0.1), (math.pi, 0.0, 0.0))
    imu = link_transforms(robot)["imu_link"]
    assert Pose.from_matrix(imu).quaternion == pytest.approx((1.0, 0.0, 0.0, 0.0), abs=1e-12)


# -- bad values ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, message",
    [
        ("<link/>", r"<link>: link has no name"),
        (
            '<link name="a"/><link name="b"/><joint name="j" type="hinge"><parent link="a"/>'
            '<child link="b"/></joint>',
            r"joint type is 'hinge'",
        ),
        (
            '<link name="a"/><link name="b"/><joint name="j" type="fixed"><parent link="a"/>'
            "</joint>",
            r"joint 'j' has no <child>",
        ),
        (
            '<link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/>'
            '<child link="b"/><limit lower="0" upper="1" effort="1" velocity="inf"/></joint>',
            r"attribute 'velocity' is 'inf', not finite",
        ),
        (
            '<link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/>'
            '<child link="b"/><safety_controller soft_lower_limit="0"/></joint>',
            r"attribute 'k_velocity' is missing",
        ),
        (
            '<link name="a"/><link name="b"/><joint name="j" type="continuous"><parent link="a"/>'
            '<child link="b"/><mimic multiplier="2"/></joint>',
            r"<mimic> names no joint",
        ),
    ],
)
def test_bad_values_are_invalid_value_errors(body: str, message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        load(urdf(body))


#: (body, skipped kind, the skip's text): non-essential elements with a bad value are left out,
#: each with one warning naming file, line, what and why (sdf_bridge.description.contain).
_SKIPPED = [
    (
        '<link name="a"><inertial><mass value="heavy"/><inertia ixx="1" ixy="0" ixz="0" '
        'iyy="1" iyz="0" izz="1"/></inertial></link>',
        "inertial",
        r"<string>:3: inertial 'a' skipped: attribute 'value' is 'heavy', not a number",
    ),
    (
        '<link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" '
        'iyz="0"/></inertial></link>',
        "inertial",
        r"inertial 'a' skipped: attribute 'izz' is missing\. Fix: add izz=",
    ),
    (
        '<link name="a"><inertial><mass value="-1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" '
        'iyz="0" izz="1"/></inertial></link>',
        "inertial",
        r"inertial 'a' skipped: mass is -1\.0, negative\. Fix: give a mass ≥ 0 kg$",
    ),
    (
        '<link name="a"><visual><geometry><box size="1 2"/></geometry></visual></link>',
        "visual",
        r"visual 'a' skipped: attribute 'size' is '1 2': expected 3 finite numbers",
    ),
    (
        '<link name="a"><visual><geometry><sphere radius="nan"/></geometry></visual></link>',
        "visual",
        r"visual 'a' skipped: attribute 'radius' is 'nan', not finite",
    ),
    (
        '<link name="a"><visual><origin xyz="0 0 x"/><geometry><sphere radius="1"/>'
        "</geometry></visual></link>",
        "visual",
        r"<string>:3: visual 'a' skipped: attribute 'xyz' is '0 0 x': expected 3 finite numbers",
    ),
    (
        '<link name="a"><visual><geometry><sphere radius="-0.5"/></geometry></visual></link>',
        "visual",
        r"<string>:3: visual 'a' skipped: attribute 'radius' is -0\.5, negative\. Fix: give a "
        r"radius >= 0 m$",
    ),
    (
        '<link name="a"><collision><geometry><cylinder radius="1" length="-2"/></geometry>'
        "</collision></link>",
        "collision",
        r"collision 'a' skipped: attribute 'length' is -2, negative",
    ),
    (
        '<link name="a"><collision><geometry><capsule radius="-1" length="2"/></geometry>'
        "</collision></link>",
        "collision",
        r"collision 'a' skipped: attribute 'radius' is -1, negative",
    ),
    (
        '<link name="a"><visual><geometry><box size="1 -2 3"/></geometry></visual></link>',
        "visual",
        r"visual 'a' skipped: <box> size '1 -2 3' has a negative edge\. Fix: give edge lengths "
        r">= 0 m$",
    ),
    (
        '<link name="a"><visual><geometry/></visual></link>',
        "visual",
        r"visual 'a' skipped: <geometry> holds no shape\. Fix: give one of <box>",
    ),
    (
        '<link name="a"><visual><origin/></visual></link>',
        "visual",
        r"visual 'a' skipped: <visual> has no <geometry>",
    ),
    (
        '<link name="a"><visual><geometry><mesh/></geometry></visual></link>',
        "visual",
        r"visual 'a' skipped: <mesh> has no filename",
    ),
    (
        '<link name="a"><visual><geometry><torus/></geometry></visual></link>',
        "visual",
        r"visual 'a' skipped: unknown geometry <torus>\. Fix: use <box>, <cylinder>",
    ),
    (
        '<material name="m"/><link name="a"/>',
        "material",
        r"material 'm' skipped: robot-level material defines neither <color> nor <texture>",
    ),
    (
        '<material name="m"><color rgba="1 0 0"/></material><link name="a"/>',
        "material",
        r"material 'm' skipped: attribute 'rgba' is '1 0 0'",
    ),
    (
        '<link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/>'
        '<child link="b"/><limit lower="0" upper="1" effort="-1" velocity="1"/></joint>',
        "effort limit",
        r"<string>:3: effort limit 'j' skipped: effort limit is -1, negative: read as no effort "
        r"limit \(as SDFormat reads a negative one\)\. Fix: give a effort limit >= 0, or leave "
        r"it out$",
    ),
]


@pytest.mark.parametrize("body, kind, text", _SKIPPED)
def test_bad_non_essential_values_are_skipped(body: str, kind: str, text: str) -> None:
    robot, warnings = load_with_warnings(urdf(body))
    assert [s.kind for s in robot.skipped] == [kind]
    assert re.search(text, str(robot.skipped[0])), str(robot.skipped[0])
    assert [w for w in warnings if "skipped" in w] == [str(robot.skipped[0])]
    assert set(robot.links) >= {"a"}


def test_undefined_material_reference_warns_and_keeps_the_visual_as_urdfdom() -> None:
    robot, warnings = load_with_warnings(
        urdf(
            '<link name="a"><visual><geometry><box size="1 1 1"/></geometry><material '
            'name="green"/></visual></link>'
        )
    )
    assert robot.links["a"].visuals[0].material == Material(name="green")
    assert warnings == [
        "<string>:3: <material name=\"green\">: material 'green' is not defined (no robot-level "
        '<material name="green">, no <color>); the visual has no colour, as urdfdom reads it'
    ]


def test_malformed_xml_names_the_line() -> None:
    with pytest.raises(
        XmlSyntaxError,
        match=r"^<string>:4: not well-formed XML \(column 9\): Opening and ending tag "
        r"mismatch: link line 3 and robot\. Fix: correct the XML syntax at that line$",
    ):
        load('<?xml version="1.0"?>\n<robot name="r">\n<link name="a">\n</robot>')


def test_unknown_tags_are_warnings_not_errors() -> None:
    robot, warnings = load_with_warnings(
        urdf(
            '<link name="a"><self_collision_checking/></link><frobnicator/><link name="b"/>'
            '<joint name="j" type="fixed"><parent link="a"/><child link="b"/><wobble/>'
            "</joint>"
        )
    )
    assert list(robot.links) == ["a", "b"]
    assert any('unknown element <frobnicator> in <robot name="r"> ignored' in w for w in warnings)
    assert any(
        'unknown element <self_collision_checking> in <link name="a"> ignored' in w
        for w in warnings
    )
    assert any('unknown element <wobble> in <joint name="j"> ignored' in w for w in warnings)


def test_top_level_urdf_sensor_and_gazebo_sensor_in_document_order() -> None:
    robot = load(
        urdf(
            '<link name="base"/><link name="cam_link"/><joint name="j" type="fixed"><parent '
            'link="base"/><child link="cam_link"/></joint>\n<gazebo reference="base"><sensor '
            'name="imu" type="imu"><update_rate>200</update_rate></sensor></gazebo>\n<sensor '
            'name="cam" update_rate="20"><parent link="cam_link"/><origin xyz="0.1 0 0"/>'
            '<camera><image width="640" height="480" hfov="1.57" format="RGB8" near="0.01" '
            'far="50"/></camera></sensor>'
        )
    )
    assert [(s.name, s.type, s.link) for s in robot.sensors] == [
        ("imu", "imu", "base"),
        ("cam", "camera", "cam_link"),
    ]
    assert robot.sensors[1].update_rate == 20.0
    assert robot.sensors[1].pose == Pose((0.1, 0.0, 0.0))


def test_top_level_sensor_on_missing_link_is_skipped() -> None:
    robot = load(
        urdf(
            '<link name="base"/><sensor name="cam"><parent link="nowhere"/><camera><image '
            'width="1" height="1" hfov="1" format="RGB8" near="0.1" far="1"/></camera>'
            "</sensor>"
        )
    )
    assert robot.sensors == ()
    assert [str(s) for s in robot.skipped] == [
        "<string>:3: sensor 'cam' skipped: it is attached to link 'nowhere', which the robot "
        "does not have. Fix: attach the sensor to an existing link or joint"
    ]


def test_transmissions_classic_first_then_ros2_control_in_document_order() -> None:
    robot = load(
        urdf(
            '<link name="a"/><link name="b"/><link name="c"/><joint name="j1" type="continuous">'
            '<parent link="a"/><child link="b"/></joint><joint name="j2" type="continuous">'
            '<parent link="b"/><child link="c"/></joint><ros2_control name="hw" '
            'type="system"><hardware><plugin>mock_components/GenericSystem</plugin>'
            '</hardware><joint name="j2"><command_interface name="position"/>'
            '<state_interface name="position"/></joint><transmission name="r2c">'
            '<plugin>transmission_interface/SimpleTransmission</plugin><actuator name="m2" '
            'role="actuator1"/><joint name="j2" role="joint1">'
            "<mechanical_reduction>3</mechanical_reduction>"
            "</joint></transmission></ros2_control>"
            '<transmission name="classic"><type>transmission_interface/SimpleTransmission</type>'
            '<joint name="j1"><hardwareInterface>EffortJointInterface</hardwareInterface>'
            '</joint><actuator name="m1"><mechanicalReduction>5</mechanicalReduction>'
            "</actuator></transmission>"
        )
    )
    assert [(t.name, t.dialect) for t in robot.transmissions] == [
        ("classic", "classic"),
        ("r2c", "ros2_control"),
    ]
    assert robot.ros2_control[0].transmissions[0].name == "r2c"


def test_gazebo_sensor_on_a_joint_hangs_on_its_child_link() -> None:
    robot = load(
        urdf(
            '<link name="a"/><link name="b"/>'
            '<joint name="ft_joint" type="fixed"><parent link="a"/><child link="b"/></joint>'
            '<gazebo reference="ft_joint"><sensor name="ft" type="force_torque">'
            "<update_rate>50</update_rate></sensor></gazebo>"
        )
    )
    (sensor,) = robot.sensors
    assert (sensor.link, sensor.joint, sensor.ros_frame_id) == ("b", "ft_joint", "b")


def test_misspelt_joint_axis_is_an_error_not_a_default_axis() -> None:
    with pytest.raises(
        InvalidValueError,
        match=r'^<string>:5: <axsi>: unknown element <axsi> in <joint name="j">; did you mean '
        r"<axis>\? "
        r"Fix: rename <axsi> to <axis>$",
    ):
        load(
            two_links(
                '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>\n'
                '<axsi xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            )
        )


@pytest.mark.parametrize(
    "body, bad, good",
    [
        (
            '<link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" '
            'iyz="0" izz="1"/><orgin xyz="0 0 1"/></inertial></link>',
            "orgin",
            "origin",
        ),
        ('<link name="a"><visuals/></link>', "visuals", "visual"),
        (
            '<material name="m"><colour rgba="1 0 0 1"/><color rgba="1 0 0 1"/></material><link '
            'name="a"/>',
            "colour",
            "color",
        ),
        ('<link name="a"/><joints name="x"/>', "joints", "joint"),
        (
            '<link name="a"><collision><geometry><box size="1 1 1"/></geometry><Origin xyz="1 0 '
            '0"/></collision></link>',
            "Origin",
            "origin",
        ),
    ],
)
def test_misspelt_tags_in_every_urdf_element_are_errors(body: str, bad: str, good: str) -> None:
    """In a link or the robot (the kinematic tree) an error; in an element that is not (an
    inertial, a material, a collision) that element is skipped with the same words."""
    pattern = rf"unknown element <{bad}> in .*; did you mean <{good}>\?"
    if bad in ("visuals", "joints"):
        with pytest.raises(InvalidValueError, match=pattern):
            load(urdf(body))
    else:
        (skipped,) = load(urdf(body)).skipped
        assert re.search(pattern, skipped.reason)


def test_unknown_geometry_suggests_the_close_shape() -> None:
    (skipped,) = load(
        urdf(
            '<link name="a"><visual><geometry><cylindre radius="1" length="1"/></geometry>'
            "</visual></link>"
        )
    ).skipped
    assert skipped.reason == (
        "unknown geometry <cylindre>; did you mean <cylinder>? Fix: use <box>, <cylinder>, "
        "<sphere>, <mesh> or <capsule>"
    )


def test_xml_syntax_error_names_the_line_once() -> None:
    with pytest.raises(XmlSyntaxError) as info:
        load('<robot name="r">\n<link name="a"/>')
    assert str(info.value) == (
        "<string>:2: not well-formed XML (column 17): Premature end of data in tag robot line 1. "
        "Fix: correct the XML syntax at that line"
    )
