"""Tests of sdf_bridge.description.sdf.includes: <include> through model://, bare names and
paths, the search path (user list and environment variables), model.config version choice,
name/pose/static overrides, and missing includes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sdf_helpers import load_text, our_view, sdf

from sdf_bridge.description import load, load_with_warnings
from sdf_bridge.description.sdf.includes import ENV_VARS, search_path
from sdf_bridge.errors import (
    InvalidValueError,
    KinematicTreeError,
    MissingReferenceError,
    UnsupportedError,
)

WHEEL = sdf(
    """<model name="wheel"><pose>0 0 5 0 0 0</pose><link name="rim"><pose>0 0 0.1 0 0 0</pose>
      </link>
  <frame name="hub"><pose>0 0 0.2 0 0 0</pose></frame></model>""",
    "1.8",
)


def _model_dir(root: Path, name: str, files: dict[str, str], config: str | None) -> Path:
    d = root / name
    d.mkdir(parents=True)
    for fname, text in files.items():
        (d / fname).write_text(text)
    if config is not None:
        (d / "model.config").write_text(config)
    return d


def _config(*entries: tuple[str, str]) -> str:
    sdfs = "".join(f'<sdf version="{v}">{f}</sdf>' for v, f in entries)
    return f"<?xml version='1.0'?><model><name>x</name>{sdfs}</model>"


def test_nested_include_source_equals_flattened(robots_dir: Path) -> None:
    src = (
        robots_dir
        / "sdf_nested_include"
        / "src"
        / "sdformat"
        / "test"
        / "integration"
        / "model"
        / "nested_include"
    )
    ours = load(src / "base" / "base.sdf", sdf_paths=[src])
    flat = load(robots_dir / "sdf_nested_include" / "sdf_nested_include.sdf")
    assert list(ours.links) == list(flat.links)
    assert set(ours.joints) == set(flat.joints)
    poses_a, axes_a = our_view(ours)
    poses_b, axes_b = our_view(flat)
    for name in flat.links:
        np.testing.assert_allclose(poses_a[name], poses_b[name], atol=1e-9)
    assert sorted(s.name for s in ours.sensors) == sorted(s.name for s in flat.sensors)


def test_model_uri_through_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _model_dir(tmp_path / "models", "wheel", {"model.sdf": WHEEL}, _config(("1.8", "model.sdf")))
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("GAZEBO_MODEL_PATH", str(tmp_path / "models"))
    robot = load_text(
        sdf("""<model name="car"><link name="body"/>
      <include><uri>model://wheel</uri><name>front</name><pose>1 0 0 0 0 0</pose></include>
      <joint name="axle" type="revolute"><parent>body</parent><child>front::rim</child><axis>
        <xyz>0 1 0</xyz></axis></joint>
      </model>""")
    )
    assert list(robot.links) == ["body", "front::rim"]
    # include pose replaces the model's own
    assert robot.links["front::rim"].pose.xyz == (
        1.0,
        0.0,
        0.1,
    )
    assert robot.joints["axle"].child == "front::rim"


def test_user_paths_come_first_and_env_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in ENV_VARS:
        monkeypatch.setenv(var, str(tmp_path / var))
    assert search_path([tmp_path / "user"]) == [tmp_path / "user"] + [
        tmp_path / v for v in ENV_VARS
    ]


def test_model_config_picks_highest_supported_version(robots_dir: Path, tmp_path: Path) -> None:
    models = (
        robots_dir
        / "turtlebot3_waffle"
        / "src"
        / "turtlebot3_simulations"
        / "turtlebot3_gazebo"
        / "models"
    )
    robot = load_text(
        sdf("<world name='w'><include><uri>model://turtlebot3_waffle</uri></include></world>"),
        sdf_paths=[models],
    )
    assert robot.version == "1.8"  # model.sdf (1.8) chosen over model-1_4.sdf (1.4)
    assert len(robot.links) == 10


def test_model_config_skips_versions_above_supported(tmp_path: Path) -> None:
    _model_dir(
        tmp_path,
        "w",
        {"new.sdf": WHEEL.replace('"1.8"', '"1.12"'), "old.sdf": WHEEL},
        _config(("1.12", "new.sdf"), ("1.6", "old.sdf")),
    )
    robot = load_text(
        sdf("<model name='m'><include><uri>w</uri></include></model>"), sdf_paths=[tmp_path]
    )
    assert robot.links["wheel::rim"].source.file.endswith("old.sdf")


def test_world_include_overrides_name_pose_static(tmp_path: Path) -> None:
    (tmp_path / "wheel.sdf").write_text(WHEEL)
    world = load_text(
        sdf(
            """<world name="w">
      <include><uri>wheel.sdf</uri><name>a</name><pose>1 2 3 0 0 0</pose><static>true</static>
        </include>
      <include><uri>file://"""
            + str(tmp_path / "wheel.sdf")
            + """</uri><name>b</name></include></world>"""
        ),
        base_dir=tmp_path,
    )
    # b is the world's one robot (a is static): the robot, with a as its scenery
    robot = world
    assert (robot.name, robot.pose.xyz, robot.static) == ("b", (0.0, 0.0, 5.0), False)
    (a,) = robot.scenery
    assert (a.name, a.pose.xyz, a.static) == ("a", (1.0, 2.0, 3.0), True)


def test_include_pose_relative_to_sibling(tmp_path: Path) -> None:
    (tmp_path / "wheel.sdf").write_text(WHEEL)
    robot = load_text(
        sdf("""<model name="m"><link name="base"><pose>0 0 1 0 0 0</pose></link>
      <include><uri>wheel.sdf</uri><pose relative_to="base">1 0 0 0 0 0</pose></include>
      <frame name="f"><pose relative_to="wheel::hub"/></frame></model>"""),
        base_dir=tmp_path,
    )
    assert robot.links["wheel::rim"].pose.xyz == (1.0, 0.0, 1.1)


def test_missing_include_names_search_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("SDF_PATH", str(tmp_path / "env"))
    with pytest.raises(
        MissingReferenceError,
        match=r"include 'model://ghost' not found .*search path .*user.*env.*Fix: add the "
        r"model's parent directory",
    ):
        load_text(
            sdf("<model name='m'><include><uri>model://ghost</uri></include></model>"),
            sdf_paths=[tmp_path / "user"],
        )


def test_include_without_uri_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"<include> has no <uri>"):
        load_text(sdf("<model name='m'><link name='a'/><include/></model>"))


def test_directory_without_config_or_model_sdf_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(MissingReferenceError, match=r"has neither model.config nor model.sdf"):
        load_text(
            sdf("<model name='m'><include><uri>empty</uri></include></model>"), base_dir=tmp_path
        )


def test_config_without_usable_entry_is_refused(tmp_path: Path) -> None:
    _model_dir(tmp_path, "x", {}, _config(("1.12", "future.sdf")))
    with pytest.raises(
        MissingReferenceError, match=r"model.config lists no <sdf> file of version <= 1.11"
    ):
        load_text(sdf("<model name='m'><include><uri>x</uri></include></model>"), base_dir=tmp_path)


def test_config_naming_missing_file_is_refused(tmp_path: Path) -> None:
    _model_dir(tmp_path, "x", {}, _config(("1.9", "gone.sdf")))
    with pytest.raises(
        MissingReferenceError, match=r"model.config names 'gone.sdf', which does not exist"
    ):
        load_text(sdf("<model name='m'><include><uri>x</uri></include></model>"), base_dir=tmp_path)


def test_config_with_bad_version_is_refused(tmp_path: Path) -> None:
    _model_dir(tmp_path, "x", {}, _config(("one", "a.sdf")))
    with pytest.raises(InvalidValueError, match=r"version is 'one'"):
        load_text(sdf("<model name='m'><include><uri>x</uri></include></model>"), base_dir=tmp_path)


def test_included_urdf_is_refused(tmp_path: Path) -> None:
    (tmp_path / "r.urdf").write_text('<robot name="r"><link name="a"/></robot>')
    with pytest.raises(UnsupportedError, match=r"included file's root is <robot>, not <sdf>"):
        load_text(
            sdf("<model name='m'><include><uri>r.urdf</uri></include></model>"), base_dir=tmp_path
        )


def test_included_file_without_model_is_refused(tmp_path: Path) -> None:
    (tmp_path / "w.sdf").write_text(sdf("<world name='w'/>"))
    with pytest.raises(InvalidValueError, match=r"included file holds no <model>"):
        load_text(
            sdf("<model name='m'><include><uri>w.sdf</uri></include></model>"), base_dir=tmp_path
        )


def test_included_name_clash_is_refused(tmp_path: Path) -> None:
    (tmp_path / "wheel.sdf").write_text(WHEEL)
    with pytest.raises(Exception, match=r"name 'wheel' is already used"):
        load_text(
            sdf(
                "<model name='m'><link name='wheel'/><include><uri>wheel.sdf</uri></include>"
                "</model>"
            ),
            base_dir=tmp_path,
        )


def test_errors_in_included_file_name_that_file(tmp_path: Path) -> None:
    (tmp_path / "bad.sdf").write_text(
        sdf("<model name='bad'><link name='a'><pose>1 2</pose></link></model>")
    )
    with pytest.raises(InvalidValueError, match=r"bad\.sdf:\d+: <pose>: <pose> is '1 2'"):
        load_text(
            sdf("<model name='m'><include><uri>bad.sdf</uri></include></model>"), base_dir=tmp_path
        )


def test_include_cycle_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.sdf").write_text(
        sdf("<model name='a'><link name='l'/><include><uri>b.sdf</uri></include></model>")
    )
    (tmp_path / "b.sdf").write_text(
        sdf("<model name='b'><link name='l'/><include><uri>a.sdf</uri></include></model>")
    )
    with pytest.raises(
        InvalidValueError, match=r"b\.sdf:\d+: <include>: include 'a.sdf' closes an include loop"
    ):
        load(tmp_path / "a.sdf")


def test_placement_frame_poses_the_included_model() -> None:
    robot = load(Path(__file__).resolve().parent / "data" / "placement" / "top.sdf")
    # arm2's link "tip" is the placement frame: it lands exactly on the include pose (1, 0, 0)
    np.testing.assert_allclose(
        robot.links["arm2::tip"].pose.matrix()[:3, 3], (1.0, 0.0, 0.0), atol=1e-12
    )
    np.testing.assert_allclose(robot.links["arm2::tip"].pose.rotation, np.eye(3), atol=1e-12)


def test_placement_frame_without_pose_is_refused(tmp_path: Path) -> None:
    (tmp_path / "wheel.sdf").write_text(WHEEL)
    with pytest.raises(InvalidValueError, match=r"<placement_frame> needs a <pose>"):
        load_text(
            sdf(
                "<model name='m'><include><uri>wheel.sdf</uri>"
                "<placement_frame>hub</placement_frame></include></model>"
            ),
            base_dir=tmp_path,
        )


def test_unknown_placement_frame_is_refused(tmp_path: Path) -> None:
    (tmp_path / "wheel.sdf").write_text(WHEEL)
    with pytest.raises(
        MissingReferenceError, match=r"placement_frame 'nope' is not a frame of model 'wheel'"
    ):
        load_text(
            sdf(
                "<model name='m'><include><uri>wheel.sdf</uri>"
                "<placement_frame>nope</placement_frame><pose/></include></model>"
            ),
            base_dir=tmp_path,
        )


def test_placement_frame_in_pose_cycle_is_refused(tmp_path: Path) -> None:
    (tmp_path / "loop.sdf").write_text(
        sdf("""<model name="loop"><link name="l"/>
      <frame name="A"><pose relative_to="B"/></frame><frame name="B"><pose relative_to="A"/></frame>
        </model>""")
    )
    with pytest.raises(KinematicTreeError, match=r"relative_to frames form a cycle"):
        load_text(
            sdf(
                "<model name='m'><include><uri>loop.sdf</uri><placement_frame>A</placement_frame>"
                "<pose/></include></model>"
            ),
            base_dir=tmp_path,
        )


def _include_chain(root: Path, files: int) -> Path:
    """``m0.sdf`` includes ``m1.sdf`` … up to ``m{files-1}.sdf``; each model has one link."""
    for i in range(files):
        inner = (
            f"<include><uri>m{i + 1}.sdf</uri><name>c{i + 1}</name></include>"
            if i + 1 < files
            else ""
        )
        (root / f"m{i}.sdf").write_text(sdf(f'<model name="m{i}"><link name="l"/>{inner}</model>'))
    return root / "m0.sdf"


def test_deep_include_chain_within_the_cap_loads(tmp_path: Path) -> None:
    from sdf_bridge.description.sdf.model import MAX_INCLUDE_DEPTH

    robot = load(_include_chain(tmp_path, MAX_INCLUDE_DEPTH))
    assert len(robot.links) == MAX_INCLUDE_DEPTH
    assert "c1::c2::c3::l" in robot.links


def test_include_chain_over_the_cap_is_refused_not_a_recursion_error(tmp_path: Path) -> None:
    with pytest.raises(
        UnsupportedError,
        match=r"m63\.sdf:\d+: <include>: includes nest more than 64 files deep \(at 'm64\.sdf'\)",
    ):
        load(_include_chain(tmp_path, 400))


def test_package_uri_include_resolves_through_the_package_map(tmp_path: Path) -> None:
    _model_dir(tmp_path / "pkg" / "models", "wheel", {"model.sdf": WHEEL}, None)
    robot = load_text(
        sdf("""<model name="m"><link name="base"/>
      <include><uri>package://my_pkg/models/wheel</uri></include></model>"""),
        base_dir=tmp_path,
        package_paths={"my_pkg": str(tmp_path / "pkg")},
    )
    assert "wheel::rim" in robot.links


def test_package_uri_include_on_the_search_path(tmp_path: Path) -> None:
    """Gazebo's resource lookup: package://pkg/rest is pkg/rest under a resource path directory."""
    _model_dir(tmp_path / "share" / "my_pkg" / "models", "wheel", {"model.sdf": WHEEL}, None)
    robot = load_text(
        sdf("""<model name="m"><link name="base"/>
      <include><uri>package://my_pkg/models/wheel</uri></include></model>"""),
        base_dir=tmp_path,
        sdf_paths=[tmp_path / "share"],
    )
    assert "wheel::rim" in robot.links


def test_unknown_package_uri_include_says_which_package(tmp_path: Path) -> None:
    with pytest.raises(
        MissingReferenceError,
        match=r"include 'package://nowhere/models/wheel' not found .* Fix: give "
        r"the package's directory \(--package-path nowhere=DIR or "
        r"package_paths\)",
    ):
        load_text(
            sdf(
                '<model name="m"><link name="base"/><include>'
                "<uri>package://nowhere/models/wheel</uri>"
                "</include></model>"
            ),
            base_dir=tmp_path,
        )


FUEL = "https://fuel.gazebosim.org/1.0/OpenRobotics/models/Construction Cone"


def test_fuel_include_of_a_world_not_in_the_cache_is_left_out(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GZ_FUEL_CACHE_PATH", str(tmp_path / "cache"))
    robot, warnings = load_with_warnings(
        sdf(f"""<world name="w"><include><uri>
      {FUEL}
      </uri></include><model name="bot"><link name="a"/></model></world>""")
    )
    assert robot.name == "bot" and robot.scenery == ()
    assert warnings == [
        f"<string>:3: <include>: include {FUEL!r} is a model on a web server (Gazebo Fuel), not "
        "in the local Fuel cache; the world is read without it (sdf_bridge downloads "
        "nothing: fetch it with "
        f'`gz fuel download -u "{FUEL}"` to use it)'
    ]


def test_fuel_include_is_read_from_the_local_cache(tmp_path: Path, monkeypatch) -> None:
    """gz fuel download keeps <cache>/<host>/<owner>/models/<name>/<version>/ (the highest version
    is used)."""
    models = tmp_path / "fuel.gazebosim.org" / "openrobotics" / "models" / "construction cone"
    _model_dir(
        models,
        "1",
        {"model.sdf": sdf('<model name="cone"><static>true</static><link name="old"/></model>')},
        None,
    )
    _model_dir(
        models,
        "3",
        {"model.sdf": sdf('<model name="cone"><static>true</static><link name="body"/></model>')},
        None,
    )
    monkeypatch.setenv("GZ_FUEL_CACHE_PATH", str(tmp_path))
    robot = load(
        sdf(
            f'<world name="w"><include><uri>{FUEL}</uri></include><model name="bot"><link '
            'name="a"/>'
            "</model></world>"
        )
    )
    assert robot.name == "bot" and [list(m.links) for m in robot.scenery] == [["body"]]


def test_fuel_include_inside_a_model_not_in_the_cache_is_an_error(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("GZ_FUEL_CACHE_PATH", str(tmp_path))
    with pytest.raises(
        MissingReferenceError,
        match=r"include 'https://fuel\.gazebosim\.org/1\.0/OpenRobotics/models/"
        r"Construction Cone' not found .* Fix: download it with `gz fuel "
        r"download -u .*` \(sdf_bridge reads the local Fuel cache only\)",
    ):
        load(sdf(f'<model name="m"><link name="a"/><include><uri>{FUEL}</uri></include></model>'))


def test_merged_include_joins_the_parent_model_under_its_own_names() -> None:
    """<include merge="true">: no nested scope; its __model__ is the include pose (libsdformat's
    _merged__<name>__model__ frame; poses compared with libsdformat in
    test_libsdformat_reference)."""
    robot = load(Path(__file__).parent / "data" / "merge" / "world.sdf")
    assert (robot.name, list(robot.links), list(robot.joints)) == (
        "vehicle",
        ["base", "chassis", "wheel", "sensor"],
        ["wheel_joint", "sensor_joint", "mount"],
    )
    # chassis: include pose (1, 0, 1, yaw 0.5) · its own (1, 0, 0.5)
    np.testing.assert_allclose(
        robot.links["chassis"].pose.xyz, (1.0 + np.cos(0.5), np.sin(0.5), 1.5), rtol=0, atol=1e-12
    )


ARM = sdf(
    """<model name="arm"><link name="a"/><link name="b"/><joint name="j" type="revolute">
      <parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>
      <ros2_control name="own" type="system"><hardware><plugin>mock_components/GenericSystem
      </plugin></hardware><joint name="j"><command_interface name="position"/></joint>
      </ros2_control></model>""",
    "1.9",
)


def _block(name: str, joint: str = "j") -> str:
    return (
        f'<ros2_control name="{name}" type="system"><hardware><plugin>p/P</plugin></hardware>'
        f'<joint name="{joint}"><command_interface name="velocity"/></joint></ros2_control>'
    )


def test_a_block_in_an_include_replaces_the_models_own(tmp_path: Path) -> None:
    """sdf-bridge control writes each included robot's block into its <include>."""
    (tmp_path / "arm.sdf").write_text(ARM)
    world = load_text(
        sdf(
            '<world name="w"><include><uri>arm.sdf</uri><name>one</name>'
            + _block("one_system")
            + "</include><include><uri>arm.sdf</uri><name>two</name></include></world>"
        ),
        base_dir=tmp_path,
    )
    (one,) = world.models["one"].ros2_control
    assert (one.name, one.plugin, one.joints[0].command_interfaces[0].name) == (
        "one_system",
        "p/P",
        "velocity",
    )
    (two,) = world.models["two"].ros2_control  # (no block in its include: the model's own)
    assert two.name == "own"


def test_a_block_in_an_include_naming_no_joint_of_the_model_is_located_in_the_world(
    tmp_path: Path,
) -> None:
    """Contained as any block's unknown joint: skipped with a warning at the world's line."""
    (tmp_path / "arm.sdf").write_text(ARM)
    world, warnings = load_with_warnings(
        sdf(
            f'<world name="w"><include><uri>{tmp_path / "arm.sdf"}</uri>'
            + _block("s", "elbow")
            + "</include><model name='m'><link name='x'/></model></world>"
        )
    )
    assert world.models["arm"].ros2_control[0].joints == ()
    assert warnings == [
        "<string>:3: ros2_control joint 'elbow' skipped: ros2_control block 's' names joint "
        "'elbow', which is not a joint of the robot. Fix: name an existing joint in "
        "<joint name=...>"
    ]


def test_world_models_names_each_element_as_the_world_names_its_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lxml import etree

    from sdf_bridge.description.sdf import world_models

    monkeypatch.setenv("GZ_FUEL_CACHE_PATH", str(tmp_path / "cache"))
    (tmp_path / "arm.sdf").write_text(ARM)
    file = tmp_path / "w.sdf"
    file.write_text(
        sdf(
            f'<world name="w"><model name="m"><link name="x"/></model><include><uri>{FUEL}'
            "</uri></include><include><uri>arm.sdf</uri></include><include><uri>arm.sdf</uri>"
            "<name>two</name></include></world>"
        )
    )
    world = etree.parse(str(file)).getroot().find("world")
    found = world_models(world, file)
    assert {n: (e.tag, p) for n, (e, p) in found.items()} == {
        "m": ("model", None),
        "arm": ("include", tmp_path / "arm.sdf"),
        "two": ("include", tmp_path / "arm.sdf"),
    }
    assert list(found) == list(load(file).models)
