"""``sdf-bridge control``'s planning (:func:`sdf_bridge.ros.control_command.prepare`, plain
Python: no process started): ``--package-path`` reaches the description's expansion, the
generated files and the bridge's command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sdf_bridge.errors import ConfigError, DescriptionError
from sdf_bridge.ros.control_command import bridge_argv, control_parser, prepare

# a robot split over a package of its own, as most public ones are (e.g. Baxter's
# baxter_description): an include through $(find …) and a mesh through package://
MAIN = """<?xml version="1.0"?>
<robot name="pkgbot" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="$(find pkgbot_description)/urdf/arm.xacro"/>
  <link name="base"/>
  <xacro:arm parent="base"/>
</robot>
"""
ARM = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="arm" params="parent">
    <link name="upper">
      <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0"
        iyz="0"/></inertial>
      <visual><geometry><mesh filename="package://pkgbot_description/meshes/upper.stl"/>
      </geometry></visual>
    </link>
    <joint name="shoulder" type="revolute">
      <parent link="${parent}"/><child link="upper"/><axis xyz="0 0 1"/>
      <limit lower="-1" upper="1" effort="10" velocity="1"/>
    </joint>
  </xacro:macro>
</robot>
"""


@pytest.fixture
def package(tmp_path: Path) -> tuple[Path, Path]:
    """(the robot's main file, its package directory)."""
    pkg = tmp_path / "src" / "pkgbot_description"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "meshes").mkdir()
    (pkg / "urdf" / "arm.xacro").write_text(ARM)
    (pkg / "meshes" / "upper.stl").write_text("solid upper\nendsolid upper\n")
    main = tmp_path / "pkgbot.urdf.xacro"
    main.write_text(MAIN)
    return main, pkg


def _args(*argv: str):
    return control_parser().parse_args(list(argv))


def _params(argv: list[str]) -> dict[str, object]:
    """The ``-p name:=value`` parameters of a bridge command line, values JSON-decoded."""
    pairs = [argv[i + 1] for i, word in enumerate(argv) if word == "-p"]
    return {k: json.loads(v) for k, _, v in (p.partition(":=") for p in pairs)}


def test_package_paths_reach_the_expansion_and_the_bridge(package, tmp_path: Path) -> None:
    main, pkg = package
    work = tmp_path / "work"
    work.mkdir()
    setup = prepare(
        _args("--description", str(main), "--package-path", f"pkgbot_description={pkg}"), work
    )
    written = setup.description_file.read_text()
    assert 'filename="package://pkgbot_description/meshes/upper.stl"' in written
    assert '<joint name="shoulder">' in written  # the generated block's joint
    assert setup.offered == frozenset({"shoulder/position"})
    params = _params(bridge_argv(setup))
    assert params["package_paths"] == f"pkgbot_description={pkg}"
    assert params["description_file"] == str(setup.description_file)
    assert setup.bridge_file is None  # (a URDF robot: the bridge runs that same file)


def test_a_relative_package_path_is_made_absolute(package, tmp_path, monkeypatch) -> None:
    """The bridge runs in another process: the directory is resolved here."""
    main, pkg = package
    monkeypatch.chdir(pkg.parent)
    setup = prepare(
        _args(
            "--description",
            str(main),
            "--package-path",
            "pkgbot_description=pkgbot_description",
            "--package-path",
            "other=.",
        ),
        tmp_path,
    )
    assert _params(bridge_argv(setup))["package_paths"] == (
        f"pkgbot_description={pkg} other={pkg.parent}"
    )


def test_without_the_package_path_the_include_is_not_found(package, tmp_path) -> None:
    main, _pkg = package
    with pytest.raises(DescriptionError, match="pkgbot_description"):
        prepare(_args("--description", str(main)), tmp_path)


def test_a_package_path_of_the_xacro_form_is_refused(package, tmp_path) -> None:
    main, pkg = package
    with pytest.raises(ConfigError, match="uses ':=', the form of xacro arguments"):
        prepare(
            _args("--description", str(main), "--package-path", f"pkgbot_description:={pkg}"),
            tmp_path,
        )
    with pytest.raises(ConfigError, match="is not of the form pkg=DIR"):
        prepare(_args("--description", str(main), "--package-path", "pkgbot_description"), tmp_path)


def test_the_bridge_gets_no_package_path_when_none_is_given(tmp_path) -> None:
    setup = prepare(_args(), tmp_path)
    assert _params(bridge_argv(setup))["package_paths"] == ""


WORLD = """<?xml version="1.0"?>
<sdf version="1.9"><world name="w">
  <model name="a"><link name="l"/><link name="m"/>
    <joint name="ja" type="revolute"><parent>l</parent><child>m</child>
      <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis></joint></model>
  <model name="b"><link name="l"/><link name="m"/>
    <joint name="jb" type="prismatic"><parent>l</parent><child>m</child>
      <axis><xyz>1 0 0</xyz><limit><lower>0</lower><upper>0.5</upper></limit></axis></joint></model>
</world></sdf>
"""


def test_model_picks_the_robot_of_a_world(tmp_path: Path) -> None:
    world = tmp_path / "w.sdf"
    world.write_text(WORLD)
    setup = prepare(_args("--description", str(world), "--model", "b"), tmp_path)
    assert setup.offered == frozenset({"jb/position"})
    with pytest.raises(DescriptionError, match=r"holds 2 robots.*--model"):
        prepare(_args("--description", str(world)), tmp_path)
    with pytest.raises(DescriptionError, match="'c'"):
        prepare(_args("--description", str(world), "--model", "c"), tmp_path)


#: A universal joint (two coordinates) and a ball joint (not commanded): URDF lacks both.
CHAINED = """<sdf version="1.9"><model name="chained">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="u" type="universal"><parent>a</parent><child>b</child>
    <axis><xyz>1 0 0</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis>
    <axis2><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis2></joint>
  <joint name="ball" type="ball"><parent>b</parent><child>c</child></joint>
</model></sdf>"""


def test_joints_urdf_lacks_are_chains_and_the_bridge_runs_the_sdformat_model(
    tmp_path: Path,
) -> None:
    """The controller_manager's description has the chains (the block's command interfaces and
    the controllers on u/axis1 and u/axis2, the ball's coordinates state only); the bridge runs
    bridge_model.sdf (the universal and ball joints as they are, with the block), and a note
    says so."""
    import yaml

    from sdf_bridge.description import load

    source = tmp_path / "chained.sdf"
    source.write_text(CHAINED)
    setup = prepare(_args("--description", str(source)), tmp_path)
    assert setup.bridge_file == tmp_path / "bridge_model.sdf"
    assert _params(bridge_argv(setup))["description_file"] == str(setup.bridge_file)
    assert any("the bridge simulates the SDFormat model" in note for note in setup.notes)
    assert setup.bridge_file.read_text() == setup.plan.bridge_model
    urdf = load(setup.description_file)
    assert [n for n in urdf.joints] == ["u/axis1", "u/axis2", "ball/yaw", "ball/pitch", "ball/roll"]
    assert setup.offered == {"u/axis1/position", "u/axis2/position"}
    controllers = yaml.safe_load(setup.controllers_file.read_text())
    trajectory = controllers["/**/joint_trajectory_controller"]["ros__parameters"]["joints"]
    assert trajectory == ["u/axis1", "u/axis2"]
    bridge = load(setup.bridge_file)
    assert {n: j.type.value for n, j in bridge.joints.items()} == {
        "u": "universal",
        "ball": "ball",
    }
    assert {
        j.name: [i.name for i in j.command_interfaces] for j in bridge.ros2_control[0].joints
    } == {
        "u/axis1": ["position"],
        "u/axis2": ["position"],
        "ball/roll": [],
        "ball/pitch": [],
        "ball/yaw": [],
    }


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["--backend", "mujuco"],
            "error: --backend 'mujuco' is not a backend. Fix: did you mean 'mujoco'? one of "
            "['mock', 'mujoco'].",
        ),
        (
            ["--update-rate", "1e9"],
            "error: --update-rate 1e+09 Hz is outside the bridge's update_rate range [1, 10000]. "
            "Fix: give e.g. 100.",
        ),
        (
            ["--timeout", "0"],
            "error: --timeout 0 is not a positive number of seconds. Fix: give e.g. 90.",
        ),
        (
            ["--timeout", "nan"],
            "error: --timeout nan is not a positive number of seconds. Fix: give e.g. 90.",
        ),
    ],
)
def test_arguments_the_children_would_refuse_are_refused_first(
    argv: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused before any process starts (no controller_manager looked for), one line."""
    from sdf_bridge.ros.control_command import control_command

    assert control_command(argv) == 1
    assert capsys.readouterr().err.splitlines() == [line]
