"""sdf_bridge.app.description_source: which description the bridge runs."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest

from sdf_bridge.app.description_source import (
    demo_description_file,
    load_description,
    resolve_description,
)
from sdf_bridge.errors import ConfigError, DescriptionError

URDF = """<?xml version="1.0"?>
<robot name="two">
  <link name="a"/><link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""

XACRO = """<?xml version="1.0"?>
<robot name="x" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="prefix" default=""/>
  <link name="$(arg prefix)a"/><link name="$(arg prefix)b"/>
  <joint name="$(arg prefix)j" type="continuous"><parent link="$(arg prefix)a"/><child
    link="$(arg prefix)b"/>
    <axis xyz="0 0 1"/></joint>
</robot>
"""


def test_demo_file_is_found_in_the_source_tree(
    repo_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not installed (no ament index entry, nothing under sys.prefix): the checkout's file."""
    monkeypatch.delenv("AMENT_PREFIX_PATH", raising=False)
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    assert demo_description_file() == repo_dir / "urdf" / "demo_arm.urdf.xacro"


def test_installed_demo_file_comes_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An install space on AMENT_PREFIX_PATH (as in a sourced colcon workspace) wins over the
    checkout."""
    prefix = tmp_path / "install"
    marker = prefix / "share" / "ament_index" / "resource_index" / "packages" / "sdf_bridge"
    marker.parent.mkdir(parents=True)
    marker.write_text("")
    demo = prefix / "share" / "sdf_bridge" / "urdf" / "demo_arm.urdf.xacro"
    demo.parent.mkdir(parents=True)
    demo.write_text("<robot name='installed'/>")
    monkeypatch.setenv("AMENT_PREFIX_PATH", str(prefix))
    assert demo_description_file() == demo


def test_parameter_string_first() -> None:
    loaded = resolve_description(URDF, "", {}, use_description_topic=True)
    assert loaded is not None and loaded.robot.name == "two"
    assert loaded.xml == URDF and loaded.origin == "parameter robot_description"


def test_file_with_xacro_args(tmp_path: Path) -> None:
    f = tmp_path / "x.urdf.xacro"
    f.write_text(XACRO)
    loaded = resolve_description("", str(f), {"prefix": "left_"}, use_description_topic=False)
    assert loaded is not None
    assert list(loaded.robot.joints) == ["left_j"]
    assert 'name="left_j"' in loaded.xml and "xacro:arg" not in loaded.xml
    assert loaded.origin == str(f)


def test_topic_when_nothing_given() -> None:
    assert resolve_description("", "", {}, use_description_topic=True) is None


def test_demo_when_nothing_given() -> None:
    loaded = resolve_description("", "", {}, use_description_topic=False)
    assert loaded is not None and loaded.robot.name == "demo_arm"
    assert '<robot name="demo_arm"' in loaded.xml


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"description_file .*nope.urdf does not exist"):
        load_description(tmp_path / "nope.urdf", is_file=True)


def test_invalid_description_string() -> None:
    with pytest.raises(DescriptionError, match=r"joint 'j' has no <parent>"):
        load_description(
            "<robot name='bad'><joint name='j' type='revolute'/></robot>", is_file=False
        )


def test_joints_not_in_joint_states_are_warned_about_at_start(
    caplog: pytest.LogCaptureFixture,
) -> None:
    urdf = """<robot name="m"><link name="a"/><link name="b"/><link name="c"/>
      <joint name="slab" type="planar"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
      </joint><joint name="arm" type="continuous"><parent link="a"/><child link="c"/></joint>
      </robot>"""
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.ros"):
        loaded = load_description(urdf, is_file=False)
    assert loaded.robot.name == "m"
    assert [r.getMessage() for r in caplog.records if "joint_states" in r.getMessage()] == [
        "parameter robot_description: joint 'slab' is not in joint_states and not commandable: "
        "planar joint (3 degrees of freedom): simulated by the MuJoCo backend, not in "
        "joint_states (not joint coordinates)"
    ]


def test_many_joints_not_in_joint_states_are_one_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """300 planar joints: 300 warnings returned, one line logged with the count (issue 22:
    warnings aggregated)."""
    slabs = "".join(
        f'<link name="b{i}"/><joint name="slab{i}" type="planar"><parent link="a"/>'
        f'<child link="b{i}"/><axis xyz="0 0 1"/></joint>'
        for i in range(300)
    )
    urdf = f'<robot name="m"><link name="a"/>{slabs}</robot>'
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.ros"):
        load_description(urdf, is_file=False)
    logged = [r.getMessage() for r in caplog.records if "joint_states" in r.getMessage()]
    assert logged == [
        "parameter robot_description: joint 'slab0' is not in joint_states and not commandable: "
        "planar joint (3 degrees of freedom): simulated by the MuJoCo backend, not in "
        "joint_states (not joint coordinates) [300× this kind; next: 'slab1', "
        "'slab2', 'slab3', …]"
    ]


def test_multi_package_xacro_with_package_paths(tmp_path: Path) -> None:
    """$(find arm) resolves through package_paths: no ROS install needed."""
    (tmp_path / "arm" / "urdf").mkdir(parents=True)
    (tmp_path / "arm" / "urdf" / "arm.xacro").write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:macro name="arm"><link '
        'name="a"/><link name="b"/><joint name="j" type="continuous"><parent link="a"/>'
        '<child link="b"/></joint></xacro:macro></robot>'
    )
    top = tmp_path / "robot.urdf.xacro"
    top.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:include filename="$(find arm)/urdf/arm.xacro"/><xacro:arm/></robot>'
    )
    loaded = resolve_description(
        "", str(top), {}, False, package_paths={"arm": str(tmp_path / "arm")}
    )
    assert list(loaded.robot.joints) == ["j"]


WORLD = """<sdf version="1.9"><world name="w"><model name="ground"><static>true</static><link
  name="l"/></model>
  <model name="a"><link name="l"/></model><model name="b"><link name="l"/></model></world></sdf>"""


def test_model_picks_the_robot_of_a_world() -> None:
    loaded = load_description(WORLD, is_file=False, model="b")
    assert loaded.robot.name == "b" and [m.name for m in loaded.robot.scenery] == ["ground", "a"]
    # without a name every robot of the world is simulated (issue 27), names scoped
    every = load_description(WORLD, is_file=False)
    assert every.robot.robots == ("a", "b") and [m.name for m in every.robot.scenery] == ["ground"]
    assert load_description(WORLD, is_file=False, model="b, a").robot.robots == ("b", "a")


def test_topic_text_gets_the_loaders_tinyxml2_readings(caplog: pytest.LogCaptureFixture) -> None:
    """robot_description text (topic or parameter) is data, read as a file is: a comment
    holding ``--`` and a late declaration are ignored with their warnings, as libsdformat and
    urdfdom (robot_state_publisher's parser) read them."""
    text = "\n" + URDF.replace("<robot", "<!-- generated -- do not edit --->\n<robot")
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.description"):
        loaded = load_description(text, is_file=False, origin="topic robot_description")
    assert list(loaded.robot.joints) == ["j"]
    assert loaded.robot.joints["j"].source.line == 6  # as written: nothing shifted
    assert [r.getMessage() for r in caplog.records] == [
        "<string>: the XML declaration (<?xml ...?>) at line 2 comes after blank space, which XML "
        "forbids; read as libsdformat and urdfdom (tinyxml2) read it: the declaration is ignored "
        "(the document read as UTF-8)",
        "<string>: comment at line 3 contains '--', which XML forbids inside a comment; read as "
        "libsdformat and urdfdom (tinyxml2) read it: the comment is ignored",
    ]


SECRET = "SECRET_b41d07"


def _including(uri: str) -> str:
    return (
        '<sdf version="1.9">\n<world name="w">\n'
        f"<include><uri>{uri}</uri></include>\n</world></sdf>"
    )


@pytest.fixture
def secret_model(tmp_path: Path) -> Path:
    """A local SDFormat model (valid, so that main loads it) whose names hold the secret, and
    a malformed one (whose syntax error main quotes)."""
    good = tmp_path / "good.sdf"
    good.write_text(
        f'<sdf version="1.9"><model name="{SECRET}"><link name="{SECRET}_a"/></model></sdf>'
    )
    (tmp_path / "bad.sdf").write_text(f'<sdf version="1.9"><model name="m"></{SECRET}></sdf>')
    return good


@pytest.mark.parametrize("origin", ["topic robot_description", None])
@pytest.mark.parametrize("name", ["good.sdf", "bad.sdf", "missing.sdf"])
def test_network_text_naming_a_local_file_is_refused_by_the_rule(
    secret_model: Path, origin: str | None, name: str
) -> None:
    """The topic and the parameter: a file:// include is refused before anything is looked up,
    naming the URI and the rule; the message neither quotes the file nor tells whether it
    exists."""
    uri = f"file://{secret_model.parent / name}"
    if origin is None:  # the robot_description parameter
        with pytest.raises(DescriptionError) as caught:
            resolve_description(_including(uri), "", {}, use_description_topic=False)
        where = "parameter robot_description"
    else:
        with pytest.raises(DescriptionError) as caught:
            load_description(_including(uri), is_file=False, origin=origin)
        where = origin
    message = str(caught.value)
    assert type(caught.value).__name__ == "RefusedPathError"
    assert message == (
        f"{where}: <string>:3: <include>: refused: include {uri!r} is a file:// URI in a "
        "robot_description from the network, which may not name local files. Fix: set "
        "allow_local_files:=true to allow it (for a trusted description only), or name the "
        "file with package:// or model:// under a configured directory (package_paths, the "
        "ament index, sdf_paths / GZ_SIM_RESOURCE_PATH)"
    )
    assert SECRET not in message


def test_allow_local_files_loads_network_text_as_before(secret_model: Path) -> None:
    """The opt-in (the node's allow_local_files): a trusted text's local include loads."""
    text = _including(f"file://{secret_model}")
    loaded = load_description(text, is_file=False, allow_local_files=True)
    assert loaded.robot.name == SECRET
    loaded = resolve_description(text, "", {}, use_description_topic=False, allow_local_files=True)
    assert loaded is not None and loaded.robot.name == SECRET


def test_a_description_file_keeps_naming_local_files(secret_model: Path, tmp_path: Path) -> None:
    """A file the user names (description_file, --description) is no network input."""
    world = tmp_path / "world.sdf"
    world.write_text(_including(f"file://{secret_model}"))
    loaded = resolve_description("", str(world), {}, use_description_topic=False)
    assert loaded is not None and loaded.robot.name == SECRET
