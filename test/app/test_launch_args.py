"""sdf_bridge.app.launch_args (the launch file's logic, no ``launch`` needed) and the launch
file's structure (read as source: ``launch`` is not installed here)."""

from __future__ import annotations

import ast
import shlex
from pathlib import Path

import pytest
import yaml

from sdf_bridge.app.launch_args import (
    ARGUMENTS,
    BOOLEAN_ARGUMENTS,
    argument_values,
    command_text,
    launch_plan,
    parse_namespace,
    parse_package_paths,
    parse_xacro_args,
    require_packages,
    rviz_config,
)
from sdf_bridge.errors import ConfigError


@pytest.fixture()
def share(repo_dir: Path) -> Path:
    """The source tree has the share layout (urdf/, config/)."""
    return repo_dir


DEFAULTS = {
    "description_file": "",
    "xacro_args": "",
    "backend": "mock",
    "rviz": True,
    "use_sim_time": False,
    "namespace": "",
    "frame_prefix": "",
}


def test_arguments_are_the_documented_seven() -> None:
    assert [a.name for a in ARGUMENTS] == [
        "description_file",
        "xacro_args",
        "backend",
        "rviz",
        "use_sim_time",
        "namespace",
        "frame_prefix",
    ]
    defaults = {a.name: a.default for a in ARGUMENTS}
    assert defaults == {
        "description_file": None,
        "xacro_args": "",
        "backend": "mock",
        "rviz": "true",
        "use_sim_time": "false",
        "namespace": "",
        "frame_prefix": "",
    }
    assert all(a.description for a in ARGUMENTS)
    assert BOOLEAN_ARGUMENTS == ("rviz", "use_sim_time")


def test_defaults_plan(share: Path) -> None:
    plan = launch_plan(DEFAULTS, share)
    demo = str(share / "urdf" / "demo_arm.urdf.xacro")
    assert plan.xacro_command == ("xacro", demo)
    assert plan.bridge_parameters == (
        str(share / "config" / "bridge.yaml"),
        {
            "backend": "mock",
            "use_sim_time": False,
            "use_description_topic": True,
            "frame_prefix": "",
        },
    )
    assert plan.rviz is True and plan.namespace == "" and plan.frame_prefix == ""
    assert plan.root_frame == "base_link"  # the demo arm's root link
    assert plan.rsp_parameters == {"use_sim_time": False, "frame_prefix": ""}
    assert plan.packages() == ("robot_state_publisher", "sdf_bridge", "rviz2")
    config = yaml.safe_load(plan.rviz_config)["Visualization Manager"]
    assert config["Global Options"]["Fixed Frame"] == "base_link"
    model = next(d for d in config["Displays"] if d["Class"].endswith("RobotModel"))
    assert model["Description Topic"]["Value"] == "/robot_description" and model["TF Prefix"] == ""


def test_namespace_puts_frames_under_it(share: Path) -> None:
    """``namespace:=left`` alone: every node in /left, frames prefixed left/, rviz follows."""
    plan = launch_plan({**DEFAULTS, "namespace": "/left/"}, share)
    assert (
        plan.namespace == "left"
        and plan.frame_prefix == "left/"
        and plan.root_frame == "left/base_link"
    )
    assert (
        plan.rsp_parameters["frame_prefix"] == "left/"
        and plan.bridge_parameters[1]["frame_prefix"] == "left/"
    )
    config = yaml.safe_load(plan.rviz_config)["Visualization Manager"]
    assert config["Global Options"]["Fixed Frame"] == "left/base_link"
    model = next(d for d in config["Displays"] if d["Class"].endswith("RobotModel"))
    assert (
        model["Description Topic"]["Value"] == "/left/robot_description"
        and model["TF Prefix"] == "left"
    )


def test_explicit_frame_prefix_and_no_rviz(share: Path) -> None:
    plan = launch_plan(
        {**DEFAULTS, "namespace": "arms/left", "frame_prefix": "l_", "rviz": False}, share
    )
    assert (plan.namespace, plan.frame_prefix, plan.root_frame) == (
        "arms/left",
        "l_",
        "l_base_link",
    )
    assert (
        plan.rviz is False
        and plan.rviz_config == ""
        and plan.packages() == ("robot_state_publisher", "sdf_bridge")
    )


def test_root_frame_of_another_robot(share: Path, tmp_path: Path) -> None:
    urdf = tmp_path / "r.urdf"
    urdf.write_text(
        '<robot name="r"><link name="chassis"/><link name="wheel"/><joint name="j" '
        'type="continuous"><parent link="chassis"/><child link="wheel"/></joint></robot>'
    )
    assert launch_plan({**DEFAULTS, "description_file": str(urdf)}, share).root_frame == "chassis"


def test_xacro_args_and_overrides(share: Path) -> None:
    demo = str(share / "urdf" / "demo_arm.urdf.xacro")
    plan = launch_plan(
        {
            **DEFAULTS,
            "description_file": demo,
            "xacro_args": "prefix:=left_ hardware_plugin:='a b'",
            "backend": "mujoco",
            "rviz": False,
            "use_sim_time": True,
        },
        share,
    )
    assert plan.xacro_command == ("xacro", demo, "prefix:=left_", "hardware_plugin:=a b")
    # Command() splits its text with shlex: the quoted text gives back the same argv.
    assert shlex.split(command_text(plan.xacro_command)) == list(plan.xacro_command)
    assert plan.bridge_parameters[1] == {
        "backend": "mujoco",
        "use_sim_time": True,
        "use_description_topic": True,
        "frame_prefix": "",
    }
    assert plan.rviz is False and plan.use_sim_time is True
    assert plan.root_frame == "left_base_link"  # the xacro argument reaches the root link


def test_parse_xacro_args_forms() -> None:
    assert parse_xacro_args("a:=1 b:=x:=y") == {"a": "1", "b": "x:=y"}
    assert parse_xacro_args(["a:=1", "b:="]) == {"a": "1", "b": ""}
    assert parse_xacro_args("") == {}
    with pytest.raises(
        ConfigError, match=r"xacro argument 'prefix' is not of the form name:=value"
    ):
        parse_xacro_args("prefix")
    with pytest.raises(ConfigError, match=r"xacro argument ':=1'"):
        parse_xacro_args([":=1"])


def test_parse_package_paths_forms() -> None:
    assert parse_package_paths("a=src/a 'b pkg=/x y'") == {"a": "src/a", "b pkg": "/x y"}
    assert parse_package_paths(["a=/p", "b=/q"]) == {"a": "/p", "b": "/q"}
    assert parse_package_paths("") == {}


@pytest.mark.parametrize(
    "word, match",
    [
        (
            "my_robot:=src/my_robot",
            r"^package path 'my_robot:=src/my_robot' uses ':=', the form of xacro arguments\. "
            r"Fix: write my_robot=src/my_robot \(one '='\)$",
        ),
        (
            "my_robot",
            r"package path 'my_robot' is not of the form pkg=DIR\. Fix: give the package name "
            r"and its directory",
        ),
        ("=src", r"package path '=src' is not of the form pkg=DIR"),
        ("pkg=", r"package path 'pkg=' is not of the form pkg=DIR"),
    ],
)
def test_parse_package_paths_errors(word: str, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        parse_package_paths([word])


def test_parse_namespace() -> None:
    assert (
        parse_namespace("") == ""
        and parse_namespace(" /left/ ") == "left"
        and parse_namespace("a/b_2") == "a/b_2"
    )
    with pytest.raises(ConfigError, match=r"namespace:='2nd' is not a ROS namespace"):
        parse_namespace("2nd")
    with pytest.raises(ConfigError, match=r"namespace:='a b' is not a ROS namespace"):
        parse_namespace("a b")


def test_plan_errors(share: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"description_file:=.*missing.urdf does not exist"):
        launch_plan({"description_file": str(tmp_path / "missing.urdf")}, share)
    with pytest.raises(ConfigError, match=r"unknown launch arguments \['robot'\]"):
        launch_plan({"robot": "x"}, share)
    with pytest.raises(ConfigError, match=r"launch argument backend is empty"):
        launch_plan({"backend": " "}, share)
    with pytest.raises(ConfigError, match=r"launch argument use_sim_time is 'true', not a bool"):
        launch_plan({"use_sim_time": "true"}, share)
    with pytest.raises(ConfigError, match=r"launch argument frame_prefix '/left/' starts with '/'"):
        launch_plan({"frame_prefix": "/left/"}, share)
    with pytest.raises(
        ConfigError, match=r"frame_prefix 'l_' does not end with '/': rviz's RobotModel"
    ):
        launch_plan({"frame_prefix": "l_", "rviz": True}, share)


def test_rviz_config_refuses_a_prefix_rviz_cannot_follow(share: Path) -> None:
    with pytest.raises(ConfigError, match=r"Fix: end it with '/' \(e.g. left/\), or rviz:=false"):
        rviz_config(share, "x_base", "x_", "")


def test_launch_file_structure(repo_dir: Path) -> None:
    """The launch file uses launch_plan, declares every argument, reads booleans with launch's
    condition parser, looks every package up before starting a node, and starts the three
    nodes, rviz only when asked (checked on its syntax tree)."""
    source = (repo_dir / "launch" / "robot.launch.py").read_text()
    tree = ast.parse(source)
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert {"generate_launch_description", "launch_setup"} <= functions
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    called = {c.func.id for c in calls if isinstance(c.func, ast.Name)}
    assert {
        "DeclareLaunchArgument",
        "OpaqueFunction",
        "Node",
        "Command",
        "evaluate_condition_expression",
        "argument_values",
        "require_packages",
        "launch_plan",
    } <= called
    packages = {
        kw.value.value
        for c in calls
        if isinstance(c.func, ast.Name) and c.func.id == "Node"
        for kw in c.keywords
        if kw.arg == "package" and isinstance(kw.value, ast.Constant)
    }
    assert packages == {"robot_state_publisher", "rviz2"}  # + the bridge, package=PACKAGE
    assert 'executable="bridge"' in source
    namespaces = [
        kw
        for c in calls
        if isinstance(c.func, ast.Name) and c.func.id == "Node"
        for kw in c.keywords
        if kw.arg == "namespace"
    ]
    assert len(namespaces) == 3


def test_argument_values_and_defaults() -> None:
    """The launch files read booleans with the condition parser they pass, the rest as text;
    a default of None is a file of the share directory."""
    values = argument_values(
        ARGUMENTS, BOOLEAN_ARGUMENTS, lambda name: f"<{name}>", lambda name: name == "rviz"
    )
    assert (
        values["rviz"] is True
        and values["use_sim_time"] is False
        and values["backend"] == "<backend>"
    )
    demo = next(a for a in ARGUMENTS if a.name == "description_file")
    assert demo.default_value("/share/sdf_bridge") == "/share/sdf_bridge/urdf/demo_arm.urdf.xacro"
    assert (
        next(a for a in ARGUMENTS if a.name == "backend").default_value("/share/sdf_bridge")
        == "mock"
    )


def test_require_packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    index = tmp_path / "share" / "ament_index" / "resource_index" / "packages"
    index.mkdir(parents=True)
    (index / "robot_state_publisher").write_text("")
    monkeypatch.setenv("AMENT_PREFIX_PATH", str(tmp_path))
    require_packages(["robot_state_publisher"])
    with pytest.raises(
        ConfigError,
        match=r"package rviz2 is not installed, so nothing was started. Fix: install it "
        r"\(rosdep install --from-paths src --ignore-src\) or rviz:=false\.",
    ):
        require_packages(["robot_state_publisher", "rviz2"], {"rviz2": " or rviz:=false"})


def test_bridge_yaml_matches_declared_parameters(repo_dir: Path) -> None:
    from sdf_bridge.ros.params import PARAMETERS

    data = yaml.safe_load((repo_dir / "config" / "bridge.yaml").read_text())
    params = data["/**"]["ros__parameters"]
    assert set(params) == set(PARAMETERS)
    from rclpy.parameter import Parameter

    for name, (default, _descriptor) in PARAMETERS.items():
        # rcl YAML cannot type an empty list; "" = none (every string-array parameter)
        expected = [""] if default is Parameter.Type.STRING_ARRAY else default
        assert params[name] == expected, name


def test_rviz_config(repo_dir: Path) -> None:
    """The static file; the launch file replaces its fixed frame, description topic and TF prefix
    per robot (test_defaults_plan, test_namespace_puts_frames_under_it)."""
    data = yaml.safe_load((repo_dir / "config" / "robot.rviz").read_text())
    manager = data["Visualization Manager"]
    classes = {d["Class"] for d in manager["Displays"]}
    assert classes == {
        "rviz_default_plugins/Grid",
        "rviz_default_plugins/RobotModel",
        "rviz_default_plugins/TF",
    }
    model = next(d for d in manager["Displays"] if d["Class"].endswith("RobotModel"))
    assert model["Description Topic"]["Value"] == "/robot_description"
    assert model["Description Topic"]["Durability Policy"] == "Transient Local"
    assert manager["Global Options"]["Fixed Frame"] == "base_link"
