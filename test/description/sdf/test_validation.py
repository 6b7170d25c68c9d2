"""Whole-model checks on SDFormat models (the same ``validate.check_references`` the URDF loader
runs): mimic targets and loops, ``<ros2_control>`` joints, sensor names, inertia, dynamics,
shape sizes, models and worlds without content — each error path with its type and message."""

from __future__ import annotations

import re

import pytest
from sdf_helpers import load_text, sdf

from sdf_bridge.errors import (
    InvalidValueError,
    KinematicTreeError,
    MissingReferenceError,
)

TWO_LINKS = '<link name="a"/><link name="b"/><link name="c"/>'


def _revolute(name: str, parent: str, child: str, axis_extra: str = "", extra: str = "") -> str:
    return (
        f'<joint name="{name}" type="revolute"><parent>{parent}</parent><child>{child}</child>'
        f"<axis><xyz>0 0 1</xyz>{axis_extra}</axis>{extra}</joint>"
    )


def model(body: str) -> str:
    return sdf(f'<model name="m">{body}</model>')


def test_mimic_of_missing_joint_is_refused() -> None:
    body = TWO_LINKS + _revolute(
        "j", "a", "b", '<mimic joint="ghost"><multiplier>2</multiplier></mimic>'
    )
    with pytest.raises(
        MissingReferenceError,
        match=r"<joint name=\"j\">: joint 'j' mimics 'ghost', which is not a joint",
    ):
        load_text(model(body))


def test_mimic_loop_is_refused() -> None:
    body = (
        TWO_LINKS
        + _revolute("j", "a", "b", '<mimic joint="k"/>')
        + _revolute("k", "b", "c", '<mimic joint="j"/>')
    )
    with pytest.raises(InvalidValueError, match=r"the mimic joints form a loop \(j -> k -> j\)"):
        load_text(model(body))


def test_ros2_control_joint_missing_is_skipped() -> None:
    block = (
        '<ros2_control name="hw" type="system"><hardware>'
        '<plugin>mock_components/GenericSystem</plugin></hardware><joint name="ghost">'
        '<command_interface name="position"/></joint></ros2_control>'
    )
    robot = load_text(model('<link name="a"/>' + block))
    assert [len(b.joints) for b in robot.ros2_control] == [0]
    assert [(s.kind, s.name) for s in robot.skipped] == [("ros2_control joint", "ghost")]
    assert robot.skipped[0].reason.startswith(
        "ros2_control block 'hw' names joint 'ghost', which is not a joint of the robot"
    )


def test_second_sensor_of_a_name_in_one_model_is_skipped() -> None:
    body = (
        '<link name="a"><sensor name="s" type="imu"/></link><link name="b"><sensor name="s" '
        'type="imu"/></link>'
    )
    robot = load_text(model(body))
    assert [(s.name, s.link) for s in robot.sensors] == [("s", "a")]
    assert [(s.kind, s.name) for s in robot.skipped] == [("sensor", "s")]
    assert robot.skipped[0].reason.startswith("a previous sensor (on 'a', line 3) has this name")


def test_negative_moment_of_inertia_is_skipped() -> None:
    body = (
        '<link name="a"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>-1</iyy>'
        "<izz>1</izz></inertia></inertial></link>"
    )
    robot = load_text(model(body))
    assert robot.links["a"].inertial is None
    assert [(s.kind, s.name) for s in robot.skipped] == [("inertial", "a")]
    assert robot.skipped[0].reason.startswith("iyy of link 'a' is -1 kg·m², negative")


@pytest.mark.parametrize("tag", ["damping", "friction", "spring_stiffness"])
def test_negative_dynamics_is_skipped(tag: str) -> None:
    body = TWO_LINKS + _revolute("j", "a", "b", f"<dynamics><{tag}>-2</{tag}></dynamics>")
    robot = load_text(model(body))
    assert robot.joints["j"].dynamics is None
    assert [(s.kind, s.name) for s in robot.skipped] == [("dynamics", "j")]
    assert robot.skipped[0].reason == (
        f"{tag} of joint 'j' is -2, negative (it would add energy); the joint has no damping or "
        f"friction. Fix: give a {tag} >= 0 in <dynamics>"
    )


@pytest.mark.parametrize(
    "shape, tag",
    [
        ("<box><size>1 -1 1</size></box>", "size"),
        ("<ellipsoid><radii>1 1 -0.5</radii></ellipsoid>", "radii"),
        ("<plane><normal>0 0 1</normal><size>-1 1</size></plane>", "size"),
    ],
)
def test_negative_shape_sizes_are_skipped(shape: str, tag: str) -> None:
    body = f'<link name="a"><collision name="c"><geometry>{shape}</geometry></collision></link>'
    robot = load_text(model(body))
    assert robot.links["a"].collisions == ()
    (skipped,) = robot.skipped
    assert (skipped.kind, skipped.name) == ("collision", "c")
    assert re.fullmatch(
        rf"<{tag}> \([-\d., ]+\) has a negative entry\. Fix: give <{tag}> values >= 0 m",
        skipped.reason,
    )


def test_model_without_links_is_refused() -> None:
    with pytest.raises(
        KinematicTreeError,
        match=r"<model name=\"m\">: model 'm' has no links\. Fix: add at least one <link>",
    ):
        load_text(model(""))


def test_nested_model_links_count_for_the_outer_model() -> None:
    robot = load_text(model('<model name="inner"><link name="a"/></model>'))
    assert list(robot.links) == ["inner::a"]


def test_world_without_models_is_refused() -> None:
    with pytest.raises(
        InvalidValueError, match=r"<world name=\"w\">: world 'w' holds no <model> or <include>"
    ):
        load_text(sdf('<world name="w"><gravity>0 0 -9.8</gravity></world>'))


def test_second_top_level_model_is_warned_about() -> None:
    from sdf_bridge.description import load_with_warnings

    robot, warnings = load_with_warnings(
        sdf('<model name="m"><link name="a"/></model><model name="n"><link name="b"/></model>')
    )
    assert robot.name == "m" and list(robot.links) == ["a"]
    assert warnings == [
        '<string>:3: <model name="n">: <sdf> holds 2 models/worlds; only <model name="m"> is read '
        "(as libsdformat does)"
    ]


def test_unknown_package_mesh_warns_once_per_package(monkeypatch: pytest.MonkeyPatch) -> None:
    from sdf_bridge.description import load_with_warnings

    monkeypatch.delenv("AMENT_PREFIX_PATH", raising=False)
    meshes = "".join(
        f'<visual name="v{i}"><geometry><mesh><uri>package://no_such_pkg/m{i}.stl</uri></mesh>'
        "</geometry></visual>"
        for i in range(3)
    )
    robot, warnings = load_with_warnings(model(f'<link name="a">{meshes}</link>'))
    assert [v.geometry.resolved for v in robot.links["a"].visuals] == [None, None, None]
    assert len(warnings) == 1
    assert "package 'no_such_pkg' is not in the package path map or the ament index" in warnings[0]


def test_unresolved_model_uri_mesh_warns_once_per_model(monkeypatch: pytest.MonkeyPatch) -> None:
    from sdf_bridge.description import load_with_warnings
    from sdf_bridge.description.sdf.includes import ENV_VARS

    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    meshes = "".join(
        f'<visual name="v{i}"><geometry><mesh><uri>model://gear/meshes/p{i}.dae</uri></mesh>'
        "</geometry></visual>"
        for i in range(2)
    )
    robot, warnings = load_with_warnings(model(f'<link name="a">{meshes}</link>'))
    assert [v.geometry.resolved for v in robot.links["a"].visuals] == [None, None]
    assert warnings == [
        "<string>: model 'gear' (model://gear/...) is not on the SDF resource path; its mesh paths "
        "stay unresolved (give --sdf-path DIR, sdf_paths or GZ_SIM_RESOURCE_PATH)"
    ]


def test_static_true_and_false_are_read() -> None:
    assert (
        load_text(sdf('<model name="m"><static>true</static><link name="a"/></model>')).static
        is True
    )
    assert (
        load_text(sdf('<model name="m"><static> 0 </static><link name="a"/></model>')).static
        is False
    )


def test_non_boolean_static_is_refused() -> None:
    with pytest.raises(
        InvalidValueError,
        match=r"<string>:5: <static>: <static> is 'yes', not a boolean\. Fix: write <static> as "
        r"true or false",
    ):
        load_text(sdf('<model name="m">\n<link name="a"/>\n<static>yes</static></model>'))


def test_non_boolean_use_parent_model_frame_is_refused() -> None:
    body = TWO_LINKS + (
        '<joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz>'
        "<use_parent_model_frame>maybe</use_parent_model_frame></axis></joint>"
    )
    with pytest.raises(
        InvalidValueError, match=r"<use_parent_model_frame> is 'maybe', not a boolean"
    ):
        load_text(sdf(f'<model name="m">{body}</model>', "1.5"))
