"""sdf_bridge.ros.controllers_config (the controllers ``sdf-bridge control`` generates) and the
plain-Python parts of sdf_bridge.ros.controller_manager (finding ros2_control_node, its
environment, the status table). No ROS processes."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from types import SimpleNamespace

import pytest

from sdf_bridge.errors import ConfigError
from sdf_bridge.ros.controller_manager import (
    NODE,
    QUOTED_CHARS,
    LeftActive,
    controller_errors,
    find_manager,
    manager_environment,
    status_table,
)
from sdf_bridge.ros.controllers_config import generated_controllers

JOINTS = ("a", "b")


def test_position_mode_trajectory_active_forward_inactive() -> None:
    made = generated_controllers(JOINTS, "position", 250.0)
    assert made.active == ("joint_state_broadcaster", "joint_trajectory_controller")
    assert made.inactive == ("forward_position_controller",)
    assert made.data == {
        "/**/controller_manager": {
            "ros__parameters": {
                "update_rate": 250,
                "enforce_command_limits": False,
                "joint_state_broadcaster": {
                    "type": "joint_state_broadcaster/JointStateBroadcaster"
                },
                "forward_position_controller": {
                    "type": "forward_command_controller/ForwardCommandController"
                },
                "joint_trajectory_controller": {
                    "type": "joint_trajectory_controller/JointTrajectoryController"
                },
            }
        },
        "/**/forward_position_controller": {
            "ros__parameters": {"joints": ["a", "b"], "interface_name": "position"}
        },
        "/**/joint_trajectory_controller": {
            "ros__parameters": {
                "joints": ["a", "b"],
                "command_interfaces": ["position"],
                "state_interfaces": ["position", "velocity"],
            }
        },
    }


@pytest.mark.parametrize("mode", ["velocity", "effort"])
def test_velocity_and_effort_modes_activate_their_forward_controller(mode: str) -> None:
    made = generated_controllers(JOINTS, mode)
    assert made.active == ("joint_state_broadcaster", f"forward_{mode}_controller")
    assert made.inactive == ()
    assert made.data[f"/**/forward_{mode}_controller"]["ros__parameters"] == {
        "joints": ["a", "b"],
        "interface_name": mode,
    }
    assert made.data["/**/controller_manager"]["ros__parameters"]["update_rate"] == 100


@pytest.mark.parametrize(
    ("joints", "mode", "rate", "match"),
    [
        (JOINTS, "torque", 100.0, r"control mode 'torque' is unknown\. Fix: use one of position"),
        ((), "position", 100.0, r"no commandable joint.*Fix: give a description with movable"),
        (JOINTS, "position", 99.5, r"update rate 99\.5 Hz is not a positive whole number"),
        (JOINTS, "position", 0.0, r"update rate 0 Hz is not a positive whole number"),
    ],
)
def test_generated_controllers_errors(joints, mode: str, rate: float, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        generated_controllers(joints, mode, rate)


def _fake_prefix(root: Path, *, librcl: bool) -> Path:
    node = root / NODE
    node.parent.mkdir(parents=True)
    node.write_text("#!/bin/sh\n")
    node.chmod(node.stat().st_mode | stat.S_IXUSR)
    if librcl:
        (root / "lib" / "librcl.so").write_text("")
    return root


def test_find_manager_ament_index_first_then_the_rig(tmp_path: Path) -> None:
    ros = _fake_prefix(tmp_path / "opt_ros", librcl=True)
    rig = _fake_prefix(tmp_path / "rig" / "install", librcl=False)
    venv = tmp_path / "venv"
    env = {"AMENT_PREFIX_PATH": f"{tmp_path / 'empty'}{os.pathsep}{ros}"}
    assert find_manager(env, venv) == ros
    assert find_manager({"SDF_BRIDGE_ROS2_CONTROL_RIG": str(tmp_path / "rig")}, venv) == rig
    _fake_prefix(venv / "ros2_control" / "install", librcl=False)
    assert find_manager({}, venv) == venv / "ros2_control" / "install"


def test_find_manager_names_where_it_looked_and_what_to_install(tmp_path: Path) -> None:
    env = {"AMENT_PREFIX_PATH": str(tmp_path / "a")}
    with pytest.raises(
        ConfigError,
        match=(
            r"controller_manager \(controller_manager/ros2_control_node\) is not installed: not "
            rf"in {tmp_path / 'a'}, {tmp_path / 'v'}/ros2_control/install\. Fix: install "
            r"ros2_control and ros2_controllers \(apt install ros-<distro>-ros2-control"
        ),
    ):
        find_manager(env, tmp_path / "v")


def test_manager_environment_of_a_ros_install_and_of_a_wheel_built_prefix(tmp_path: Path) -> None:
    ros = _fake_prefix(tmp_path / "ros", librcl=True)
    env = manager_environment(ros, {"AMENT_PREFIX_PATH": "/x", "LD_LIBRARY_PATH": "/l"})
    assert env == {
        "AMENT_PREFIX_PATH": f"{ros}{os.pathsep}/x",
        "LD_LIBRARY_PATH": f"{ros / 'lib'}{os.pathsep}/l",
    }
    rig = _fake_prefix(tmp_path / "rig", librcl=False)
    env = manager_environment(rig, {}, ament_prefix=tmp_path / "mirror")
    assert env["AMENT_PREFIX_PATH"].split(os.pathsep)[0] == str(tmp_path / "mirror")
    assert env["LD_LIBRARY_PATH"].split(os.pathsep)[0] == str(rig / "lib")
    assert Path(env["LD_PRELOAD"]).name.startswith("libpython3")


def test_status_table() -> None:
    controllers = [
        SimpleNamespace(
            name="jtc", state="active", type="jtc/JTC", claimed_interfaces=["a/position"]
        ),
        SimpleNamespace(name="bc", state="inactive", type="b/B", claimed_interfaces=[]),
    ]
    assert status_table(controllers).splitlines() == [
        "controller  state     type     claimed interfaces",
        "bc          inactive  b/B      -",
        "jtc         active    jtc/JTC  a/position",
    ]


def test_controller_errors_quote_the_distinct_error_lines_naming_the_controller(
    tmp_path: Path,
) -> None:
    """The controller_manager's ``[ERROR]`` lines naming ``'arm'`` (not ``'arm2'``, not INFO),
    each once, without their prefix, at most three, each cut to QUOTED_CHARS characters."""
    log = tmp_path / "controller_manager.log"
    assert controller_errors(log, "arm") == []  # no log yet
    prefix = "[ERROR] [1796421251.313745996] [controller_manager]: "
    missing = "Loader for controller 'arm' (type 'no_pkg/None') not found."
    long = "Caught exception while initializing controller 'arm': " + "x" * 400
    log.write_text(
        "\n".join(
            [
                "[INFO] [1.0] [controller_manager]: Loading controller 'arm'",
                prefix + missing,
                prefix + "Loader for controller 'arm2' (type 'b/B') not found.",
                prefix + missing,  # the same, on a retry
                prefix + long,
                prefix + "Could not configure controller with name 'arm' because no …",
                prefix + "a fourth line naming 'arm'",
            ]
        )
    )
    quoted = controller_errors(log, "arm")
    assert quoted[0] == missing
    assert quoted[1] == long[: QUOTED_CHARS - 1] + "…" and len(quoted[1]) == QUOTED_CHARS == 300
    assert quoted[2] == "Could not configure controller with name 'arm' because no …"
    assert len(quoted) == 3
    assert controller_errors(log, "other") == []


OWN = {"shoulder": ("effort",), "elbow": ("position", "velocity", "effort")}


def test_left_active_reports_each_departure_once() -> None:
    """One line per activated controller that leaves the active state (unlisted: unloaded),
    naming the manager and its log; watched again once active again; others ignored."""
    watch = LeftActive("/cm", ["jsb", "jtc"], "/w/controller_manager.log")

    def listing(**states: str) -> list[SimpleNamespace]:
        return [SimpleNamespace(name=n, state=s) for n, s in states.items()]

    assert watch.check(listing(jsb="active", jtc="active", fwd="inactive")) == []
    lines = watch.check(listing(jsb="active", jtc="unconfigured", fwd="active"))
    assert lines == [
        "warning: controller 'jtc' of /cm left the active state (now 'unconfigured'): "
        "switched, or deactivated after an error; the reason is in /w/controller_manager.log"
    ]
    assert watch.check(listing(jsb="active", jtc="unconfigured", fwd="inactive")) == []
    assert watch.check(listing(jsb="active", jtc="active")) == []
    assert [line.split(" left")[0] for line in watch.check(listing())] == [
        "warning: controller 'jsb' of /cm",
        "warning: controller 'jtc' of /cm",
    ]
    assert "(now 'unloaded')" in LeftActive("/cm", ["x"], "l").check([])[0]


def _joints(made, name: str) -> list[str]:
    return made.data[f"/**/{name}"]["ros__parameters"]["joints"]


def test_position_mode_leaves_an_effort_only_joint_in_effort_with_an_active_controller() -> None:
    """EffortJointInterface on the shoulder: the position block gives it effort; its effort
    controller is active beside the trajectory controller."""
    block = {"shoulder": ("effort",), "elbow": ("position",)}  # block_interfaces, position
    made = generated_controllers(list(block), "position", 100.0, block)
    assert made.active == (
        "joint_state_broadcaster",
        "joint_trajectory_controller",
        "forward_effort_controller",
    )
    assert made.inactive == ("forward_position_controller",)
    assert _joints(made, "joint_trajectory_controller") == ["elbow"]
    assert _joints(made, "forward_position_controller") == ["elbow"]
    assert made.data["/**/forward_effort_controller"]["ros__parameters"] == {
        "joints": ["shoulder"],
        "interface_name": "effort",
    }


def test_mode_all_gives_an_effort_only_joint_an_active_controller_of_its_own() -> None:
    """forward_effort_controller (shoulder and elbow) stays the switchable one; the shoulder
    alone is driven by forward_effort_only_controller, active."""
    made = generated_controllers(list(OWN), "all", 100.0, OWN)
    assert made.active == (
        "joint_state_broadcaster",
        "joint_trajectory_controller",
        "forward_effort_only_controller",
    )
    assert made.inactive == (
        "forward_position_controller",
        "forward_velocity_controller",
        "forward_effort_controller",
    )
    assert _joints(made, "forward_effort_controller") == ["shoulder", "elbow"]
    assert made.data["/**/forward_effort_only_controller"]["ros__parameters"] == {
        "joints": ["shoulder"],
        "interface_name": "effort",
    }
    manager = made.data["/**/controller_manager"]["ros__parameters"]
    assert manager["forward_effort_only_controller"] == {
        "type": "forward_command_controller/ForwardCommandController"
    }


def test_an_all_effort_robot_activates_its_effort_controller_in_every_mode() -> None:
    own = {"a": ("effort",), "b": ("effort",)}
    for mode in ("position", "velocity", "effort", "all"):
        made = generated_controllers(list(own), mode, 100.0, own)
        assert made.active == ("joint_state_broadcaster", "forward_effort_controller"), mode
        assert made.inactive == (), mode
        assert _joints(made, "forward_effort_controller") == ["a", "b"]


def test_velocity_mode_keeps_a_position_only_joint_in_position() -> None:
    own = {"wheel": ("velocity",), "steer": ("position",)}
    made = generated_controllers(list(own), "velocity", 100.0, own)
    assert made.active == (
        "joint_state_broadcaster",
        "forward_velocity_controller",
        "forward_position_controller",
    )
    assert _joints(made, "forward_velocity_controller") == ["wheel"]
    assert _joints(made, "forward_position_controller") == ["steer"]
