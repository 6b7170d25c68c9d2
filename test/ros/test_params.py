"""sdf_bridge.ros.params: declared parameters (descriptors) and validation."""

from __future__ import annotations

import pytest
import rclpy
from rcl_interfaces.msg import ParameterType
from rclpy.context import Context
from rclpy.exceptions import InvalidParameterTypeException
from rclpy.parameter import Parameter

from sdf_bridge.errors import ConfigError
from sdf_bridge.ros.params import (
    PARAMETERS,
    BridgeConfig,
    declare_parameters,
    default,
    make_config,
    rclpy_parameter_error,
    undeclared_warning,
)

ARRAYS = {"joints": "all", "joint_feedback": "none", "robots": "none", "robot_namespaces": "none"}
"""The string-array parameters (no declared default: rclpy cannot type an empty list) and what
an unset one means (doc/user/parameters.md)."""


def test_make_config_defaults() -> None:
    cfg = make_config(
        {name: default for name, (default, _) in PARAMETERS.items() if name not in ARRAYS}
    )
    assert cfg == BridgeConfig()
    assert (cfg.update_rate, cfg.publish_rate, cfg.command_timeout, cfg.backend) == (
        100.0,
        0.0,
        0.5,
        "mock",
    )
    # publish_rate 0 (the default) = update_rate: joint_states every control cycle
    assert cfg.state_rate == 100.0
    assert make_config({"update_rate": 250.0}).state_rate == 250.0
    assert make_config({"update_rate": 250.0, "publish_rate": 50.0}).state_rate == 50.0


def _documented_rows(repo_dir) -> dict[str, tuple[str, ...]]:
    """The documentation's parameter table (doc/_ext/parameter_table.py, generated from
    PARAMETERS when the site is built): name → its row."""
    import importlib.util

    path = repo_dir / "doc" / "_ext" / "parameter_table.py"
    spec = importlib.util.spec_from_file_location("parameter_table", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {row[0]: row for row in module.parameter_rows()}


def test_yaml_and_documentation_show_the_declared_defaults(repo_dir) -> None:
    """config/bridge.yaml and the documentation's parameter table give every declared parameter
    with its declared default (``joints``: the empty array of ROS, [""], in the YAML; "[]
    (empty)" in the table), type and range; nothing else."""
    import yaml

    yaml_values = yaml.safe_load((repo_dir / "config" / "bridge.yaml").read_text())["/**"][
        "ros__parameters"
    ]
    assert set(yaml_values) == set(PARAMETERS)
    for name, value in yaml_values.items():
        want = default(name)
        assert (
            (value == [""] and want == ())
            if name in ARRAYS
            else (value == want and type(value) is type(want))
        ), name
    rows = _documented_rows(repo_dir)
    assert list(rows) == list(PARAMETERS)
    for name in PARAMETERS:
        want = default(name)
        if name in ARRAYS:
            assert rows[name][1:3] == ("string array", "[] (empty)"), name
        elif isinstance(want, bool):
            assert rows[name][1:3] == ("bool", str(want).lower()), name
        elif isinstance(want, str):
            assert rows[name][2] == (want or '""'), name
        else:
            assert rows[name][2] == repr(want), name
        assert rows[name][4] == PARAMETERS[name][1].description, name
    assert rows["update_rate"] == (
        "update_rate",
        "double",
        "100.0",
        "1.0 .. 10000.0",
        "Control loop rate, Hz.",
    )
    assert rows["thread_priority"][1:4] == ("integer", "0", "0 .. 99")
    assert rows["xacro_args"][1] == "string or string array"


def test_make_config_values() -> None:
    cfg = make_config(
        {
            "xacro_args": ["a:=1", "b:=2"],
            "joints": ["", "j1", "j2"],
            "update_rate": 500.0,
            "publish_rate": 500.0,
        },
        {"initial": 3},
    )
    assert cfg.xacro_args == {"a": "1", "b": "2"}
    assert cfg.joints == ("j1", "j2")
    assert make_config({"joint_feedback": ["", "j2"]}).joint_feedback == ("j2",)
    assert cfg.backend_params == {"initial": 3}
    assert make_config({"xacro_args": "prefix:=l_"}).xacro_args == {"prefix": "l_"}
    assert make_config({"frame_prefix": "left/"}).frame_prefix == "left/"


def test_make_config_package_paths_and_model() -> None:
    cfg = make_config(
        {"package_paths": ["my_robot=/src/my_robot", "arm=/src/arm"], "model": " bot "}
    )
    assert (
        cfg.package_paths == {"my_robot": "/src/my_robot", "arm": "/src/arm"} and cfg.model == "bot"
    )
    assert make_config({"package_paths": "a=/x b=/y"}).package_paths == {"a": "/x", "b": "/y"}


@pytest.mark.parametrize(
    ("values", "match"),
    [
        (
            {"robot_description": "<robot/>", "description_file": "x.urdf"},
            r"both robot_description and description_file",
        ),
        (
            {"update_rate": 100.0, "publish_rate": 200.0},
            r"publish_rate 200.0 Hz is not in \(0, update_rate=100.0\]",
        ),
        ({"update_rate": 0.0}, r"update_rate is 0.0 Hz"),
        ({"xacro_args": "noequals"}, r"xacro argument 'noequals' is not of the form name:=value"),
        ({"xacro_args": 3}, r"xacro_args has type int"),
        ({"backend": ""}, r"backend is empty"),
        (
            {"package_paths": "my_robot:=/src"},
            r"package path 'my_robot:=/src' uses ':=', the form of xacro arguments\. "
            r"Fix: write my_robot=/src \(one '='\)",
        ),
        ({"package_paths": 3}, r"package_paths has type int"),
        ({"frame_prefix": "/left/"}, r"frame_prefix '/left/' starts with '/' or holds white space"),
        (
            {"frame_prefix": "le ft/"},
            r"frame_prefix 'le ft/' starts with '/' or holds white space.*Fix: give e.g. "
            r"frame_prefix:=left/",
        ),
        (
            {"backend": "nope"},
            r"^backend 'nope' is unknown\. Fix: set backend to one of mock, mujoco",
        ),
    ],
)
def test_make_config_errors(values: dict, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        make_config(values)


def test_descriptors_have_types_ranges_descriptions() -> None:
    for name, (_default, d) in PARAMETERS.items():
        assert d.description, name
        assert d.dynamic_typing or d.type != ParameterType.PARAMETER_NOT_SET, name
    rate = PARAMETERS["update_rate"][1]
    assert (rate.floating_point_range[0].from_value, rate.floating_point_range[0].to_value) == (
        1.0,
        10000.0,
    )
    assert PARAMETERS["xacro_args"][1].dynamic_typing


@pytest.fixture()
def context() -> Context:
    ctx = Context()
    rclpy.init(args=[], context=ctx)
    yield ctx
    rclpy.try_shutdown(context=ctx)


def test_declare_parameters_with_overrides(context: Context) -> None:
    node = rclpy.create_node(
        "params_test",
        context=context,
        parameter_overrides=[
            Parameter("update_rate", value=250.0),
            Parameter("xacro_args", value=["prefix:=x_"]),
            Parameter("joints", value=["b", "a"]),
            Parameter("backend_params.position_state_following_offset", value=0.5),
        ],
    )
    try:
        cfg = declare_parameters(node)
        assert cfg.update_rate == 250.0
        assert cfg.xacro_args == {"prefix": "x_"}
        assert cfg.joints == ("b", "a")
        assert cfg.backend_params == {"position_state_following_offset": 0.5}
        assert node.describe_parameter("update_rate").floating_point_range[0].to_value == 10000.0
        assert node.get_parameter("backend_params.position_state_following_offset").value == 0.5
    finally:
        node.destroy_node()


def test_declare_parameters_rejects_out_of_range(context: Context) -> None:
    node = rclpy.create_node(
        "params_range", context=context, parameter_overrides=[Parameter("update_rate", value=0.5)]
    )
    try:
        with pytest.raises(ConfigError, match=r"invalid parameter: .*update_rate"):
            declare_parameters(node)
    finally:
        node.destroy_node()


def test_declare_parameters_defaults(context: Context) -> None:
    node = rclpy.create_node("params_defaults", context=context)
    try:
        assert declare_parameters(node) == BridgeConfig()
    finally:
        node.destroy_node()


def test_declare_parameters_wrong_type(context: Context) -> None:
    node = rclpy.create_node(
        "params_type", context=context, parameter_overrides=[Parameter("joints", value=[1, 2])]
    )
    try:
        with pytest.raises(ConfigError, match=r"invalid parameter: .*joints"):
            declare_parameters(node)
    finally:
        node.destroy_node()


@pytest.mark.parametrize("use_sim_time", [False, True])
def test_a_run_time_change_of_use_sim_time_is_refused(context: Context, use_sim_time: bool) -> None:
    """The node's time base is chosen with use_sim_time at start-up: SetParameters cannot flip
    it (the clock keeps its mode); setting the same value is no change and passes."""
    node = rclpy.create_node(
        "params_sim_time",
        context=context,
        parameter_overrides=[Parameter("use_sim_time", value=use_sim_time)],
    )
    try:
        declare_parameters(node)
        result = node.set_parameters([Parameter("use_sim_time", value=not use_sim_time)])[0]
        assert not result.successful
        assert result.reason == (
            f"use_sim_time is fixed at start-up ({str(use_sim_time).lower()}): the watchdog, "
            "trajectories and stamps follow the clock chosen then. Fix: restart the bridge "
            f"with use_sim_time:={str(not use_sim_time).lower()}"
        )
        assert node.get_clock().ros_time_is_active is use_sim_time
        assert node.get_parameter("use_sim_time").value is use_sim_time
        assert node.set_parameters([Parameter("use_sim_time", value=use_sim_time)])[0].successful
        # read-only
        assert node.set_parameters([Parameter("update_rate", value=5.0)])[0].successful is False
    finally:
        node.destroy_node()


@pytest.mark.parametrize(("value", "kind"), [("maybe", "STRING"), (1, "INTEGER")])
def test_a_use_sim_time_rclpy_refuses_becomes_a_config_error(
    context: Context, value: object, kind: str
) -> None:
    """rclpy refuses a non-boolean use_sim_time while it creates the node (its own
    InvalidParameterTypeException): the message names the parameter, the value and the fix."""
    with pytest.raises(InvalidParameterTypeException) as info:
        rclpy.create_node(
            "params_bad_sim_time",
            context=context,
            parameter_overrides=[Parameter("use_sim_time", value=value)],
        )
    assert str(rclpy_parameter_error(info.value)) == (
        f"parameter use_sim_time: Trying to set parameter 'use_sim_time' to '{value}' of type "
        f"'{kind}', expecting type 'BOOL'. Fix: give use_sim_time:=true or use_sim_time:=false "
        "(a ROS boolean; 1, 0 and other words are not)."
    )


@pytest.mark.parametrize(
    ("undeclared", "expected"),
    [
        ([], None),
        (["qos_overrides./imu.publisher.depth", "qos_overrides./typo.publisher.x"], None),
        (
            ["updaterate", "bogus_param"],
            "ignoring parameter(s) this node does not declare: 'bogus_param', 'updaterate' "
            "(did you mean 'update_rate'?). Fix: correct the name (see config/bridge.yaml and "
            "doc/user/parameters.md) or remove it.",
        ),
        (
            ["use_simtime"],
            "ignoring parameter(s) this node does not declare: 'use_simtime' (did you mean "
            "'use_sim_time'?). Fix: correct the name (see config/bridge.yaml and "
            "doc/user/parameters.md) or remove it.",
        ),
    ],
)
def test_undeclared_warning(undeclared: list[str], expected: str | None) -> None:
    assert undeclared_warning(undeclared, [*PARAMETERS, "use_sim_time"]) == expected


def test_declare_parameters_warns_about_undeclared_overrides_only(
    context: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Declared names (the node's, backend_params.*, rclpy's use_sim_time and QoS overrides)
    are not warned about; the others are, once, and the node still starts (as any ROS node)."""
    node = rclpy.create_node(
        "params_undeclared",
        context=context,
        parameter_overrides=[
            Parameter("updaterate", value=50.0),
            Parameter("update_rate", value=50.0),
            Parameter("use_sim_time", value=False),
            Parameter("backend_params.timestep", value=0.002),
            Parameter("qos_overrides./later.publisher.depth", value=3),
        ],
    )
    warnings: list[str] = []
    monkeypatch.setattr(node.get_logger(), "warning", warnings.append)
    try:
        assert declare_parameters(node).update_rate == 50.0
        assert warnings == [
            "ignoring parameter(s) this node does not declare: 'updaterate' (did you mean "
            "'update_rate'?). Fix: correct the name (see config/bridge.yaml and "
            "doc/user/parameters.md) or remove it."
        ]
    finally:
        node.destroy_node()


def test_allow_local_files_is_off_unless_set() -> None:
    """Issue 22: a description from the network names no local file unless the user opts in."""
    assert make_config({}).allow_local_files is False
    assert make_config({"allow_local_files": True}).allow_local_files is True
