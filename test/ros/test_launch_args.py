"""sdf_bridge.ros.launch_args (the launch file's logic, no ``launch`` needed) and the launch
file's structure (read as source: ``launch`` is not installed here)."""

from __future__ import annotations

import ast
import shlex
from pathlib import Path

import pytest
import yaml

from sdf_bridge.errors import ConfigError
from sdf_bridge.ros.launch_args import (
    ARGUMENTS,
    command_text,
    launch_plan,
    parse_bool,
    parse_package_paths,
    parse_xacro_args,
)


@pytest.fixture()
def share(repo_dir: Path) -> Path:
    """The source tree has the share layout (urdf/, config/)."""
    return repo_dir


def test_arguments_are_the_documented_five() -> None:
    assert [a.name for a in ARGUMENTS] == ["description_file", "xacro_args", "backend", "rviz", "use_sim_time"]
    defaults = {a.name: a.default for a in ARGUMENTS}
    assert defaults == {"description_file": None, "xacro_args": "", "backend": "mock", "rviz": "true",
                        "use_sim_time": "false"}
    assert all(a.description for a in ARGUMENTS)


def test_defaults_plan(share: Path) -> None:
    plan = launch_plan({"description_file": "", "xacro_args": "", "backend": "mock", "rviz": "true",
                        "use_sim_time": "false"}, share)
    demo = str(share / "urdf" / "demo_arm.urdf.xacro")
    assert plan.xacro_command == ("xacro", demo)
    assert plan.bridge_parameters == (
        str(share / "config" / "bridge.yaml"),
        {"backend": "mock", "use_sim_time": False, "use_description_topic": True},
    )
    assert plan.rviz is True
    assert plan.rviz_arguments == ("-d", str(share / "config" / "robot.rviz"))
    assert plan.rsp_parameters == {"use_sim_time": False}


def test_xacro_args_and_overrides(share: Path) -> None:
    demo = str(share / "urdf" / "demo_arm.urdf.xacro")
    plan = launch_plan({"description_file": demo, "xacro_args": "prefix:=left_ hardware_plugin:='a b'",
                        "backend": "mujoco", "rviz": "False", "use_sim_time": "true"}, share)
    assert plan.xacro_command == ("xacro", demo, "prefix:=left_", "hardware_plugin:=a b")
    # Command() splits its text with shlex: the quoted text gives back the same argv.
    assert shlex.split(command_text(plan.xacro_command)) == list(plan.xacro_command)
    assert plan.bridge_parameters[1] == {"backend": "mujoco", "use_sim_time": True, "use_description_topic": True}
    assert plan.rviz is False and plan.use_sim_time is True


def test_parse_xacro_args_forms() -> None:
    assert parse_xacro_args("a:=1 b:=x:=y") == {"a": "1", "b": "x:=y"}
    assert parse_xacro_args(["a:=1", "b:="]) == {"a": "1", "b": ""}
    assert parse_xacro_args("") == {}
    with pytest.raises(ConfigError, match=r"xacro argument 'prefix' is not of the form name:=value"):
        parse_xacro_args("prefix")
    with pytest.raises(ConfigError, match=r"xacro argument ':=1'"):
        parse_xacro_args([":=1"])


def test_parse_package_paths_forms() -> None:
    assert parse_package_paths("a=src/a 'b pkg=/x y'") == {"a": "src/a", "b pkg": "/x y"}
    assert parse_package_paths(["a=/p", "b=/q"]) == {"a": "/p", "b": "/q"}
    assert parse_package_paths("") == {}


@pytest.mark.parametrize("word, match", [
    ("my_robot:=src/my_robot", r"^package path 'my_robot:=src/my_robot' uses ':=', the form of xacro arguments\. "
                               r"Fix: write my_robot=src/my_robot \(one '='\)$"),
    ("my_robot", r"package path 'my_robot' is not of the form pkg=DIR\. Fix: give the package name and its directory"),
    ("=src", r"package path '=src' is not of the form pkg=DIR"),
    ("pkg=", r"package path 'pkg=' is not of the form pkg=DIR"),
])
def test_parse_package_paths_errors(word: str, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        parse_package_paths([word])


def test_parse_bool() -> None:
    assert parse_bool("rviz", "TRUE") is True and parse_bool("rviz", "0") is False
    with pytest.raises(ConfigError, match=r"launch argument rviz:='maybe' is not a boolean"):
        parse_bool("rviz", "maybe")


def test_plan_errors(share: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"description_file:=.*missing.urdf does not exist"):
        launch_plan({"description_file": str(tmp_path / "missing.urdf")}, share)
    with pytest.raises(ConfigError, match=r"unknown launch arguments \['robot'\]"):
        launch_plan({"robot": "x"}, share)
    with pytest.raises(ConfigError, match=r"launch argument backend is empty"):
        launch_plan({"backend": " "}, share)
    with pytest.raises(ConfigError, match=r"use_sim_time:='yes please'"):
        launch_plan({"use_sim_time": "yes please"}, share)


def test_launch_file_structure(repo_dir: Path) -> None:
    """The launch file uses launch_plan, declares every argument, and starts the three nodes
    with rviz under IfCondition (checked on its syntax tree)."""
    source = (repo_dir / "launch" / "robot.launch.py").read_text()
    tree = ast.parse(source)
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert {"generate_launch_description", "launch_setup"} <= functions
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    called = {c.func.id for c in calls if isinstance(c.func, ast.Name)}
    assert {"DeclareLaunchArgument", "OpaqueFunction", "Node", "Command", "IfCondition", "launch_plan"} <= called
    packages = {
        kw.value.value for c in calls if isinstance(c.func, ast.Name) and c.func.id == "Node"
        for kw in c.keywords if kw.arg == "package" and isinstance(kw.value, ast.Constant)
    }
    assert packages == {"robot_state_publisher", "rviz2"}  # + the bridge, package=PACKAGE
    assert 'executable="bridge"' in source


def test_bridge_yaml_matches_declared_parameters(repo_dir: Path) -> None:
    from sdf_bridge.ros.params import PARAMETERS

    data = yaml.safe_load((repo_dir / "config" / "bridge.yaml").read_text())
    params = data["/**"]["ros__parameters"]
    assert set(params) == set(PARAMETERS)
    for name, (default, _descriptor) in PARAMETERS.items():
        expected = [""] if name == "joints" else default  # rcl YAML cannot type an empty list; "" = none
        assert params[name] == expected, name


def test_rviz_config(repo_dir: Path) -> None:
    data = yaml.safe_load((repo_dir / "config" / "robot.rviz").read_text())
    manager = data["Visualization Manager"]
    classes = {d["Class"] for d in manager["Displays"]}
    assert classes == {"rviz_default_plugins/Grid", "rviz_default_plugins/RobotModel", "rviz_default_plugins/TF"}
    model = next(d for d in manager["Displays"] if d["Class"].endswith("RobotModel"))
    assert model["Description Topic"]["Value"] == "/robot_description"
    assert model["Description Topic"]["Durability Policy"] == "Transient Local"
    assert manager["Global Options"]["Fixed Frame"] == "base_link"
