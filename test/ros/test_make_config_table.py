"""make_config driven by PARAMETERS: each value converted per its declared type and checked
against its declared range (the rules of sdf_bridge/ros/params.py's _converted)."""

from __future__ import annotations

import pytest

from sdf_bridge.errors import ConfigError
from sdf_bridge.ros.params import PARAMETERS, make_config

RANGED = {
    name: [*d.floating_point_range, *d.integer_range][0]
    for name, (_, d) in PARAMETERS.items()
    if [*d.floating_point_range, *d.integer_range]
}


def test_every_ranged_parameter_is_listed() -> None:
    assert sorted(RANGED) == [
        "command_timeout",
        "diagnostics_rate",
        "max_trajectory_points",
        "publish_rate",
        "real_time_factor",
        "thread_priority",
        "update_rate",
        "wrench_duration",
    ]


@pytest.mark.parametrize("name", sorted(RANGED))
def test_the_declared_bounds_are_accepted(name: str) -> None:
    r = RANGED[name]
    for bound in (r.from_value, r.to_value):
        values = {name: bound}
        if name == "publish_rate":
            values["update_rate"] = max(bound, 1.0)
        assert getattr(make_config(values), name) == bound


@pytest.mark.parametrize("name", sorted(RANGED))
@pytest.mark.parametrize("side", ["below", "above"])
def test_a_value_outside_the_declared_range_is_refused(name: str, side: str) -> None:
    r = RANGED[name]
    step = 1 if isinstance(r.from_value, int) else 0.5
    value = r.from_value - step if side == "below" else r.to_value + step
    with pytest.raises(
        ConfigError,
        match=rf"^{name} is {value!r}( Hz| s)?, outside its range "
        rf"{r.from_value!r} \.\. {r.to_value!r}\. Fix: give {name} a value in ",
    ):
        make_config({name: value})


def test_range_messages_name_units_and_exact_values() -> None:
    with pytest.raises(
        ConfigError,
        match=r"^thread_priority is 100, outside its range 0 \.\. 99\. "
        r"Fix: give thread_priority a value in 0 \.\. 99\.$",
    ):
        make_config({"thread_priority": 100})
    with pytest.raises(ConfigError, match=r"^command_timeout is -0\.1 s, outside its range "):
        make_config({"command_timeout": -0.1})
    with pytest.raises(ConfigError, match=r"^diagnostics_rate is 0\.0 Hz, outside its range "):
        make_config({"diagnostics_rate": 0.0})


def test_values_are_converted_per_declared_type() -> None:
    cfg = make_config(
        {
            "update_rate": 200,
            "max_trajectory_points": 7.0,
            "start_paused": 1,
            "odom_frame": " odom2 ",
            "backend": " mock ",
            "base_frame": " base ",
            "robot_description": None,
            "robots": ["", "a=x.urdf"],
        }
    )
    assert (cfg.update_rate, type(cfg.update_rate)) == (200.0, float)
    assert (cfg.max_trajectory_points, type(cfg.max_trajectory_points)) == (7, int)
    assert cfg.start_paused is True
    assert (cfg.odom_frame, cfg.backend, cfg.base_frame) == ("odom2", "mock", " base ")
    assert cfg.robot_description == ""
    assert cfg.robots == ("a=x.urdf",)


def test_an_empty_odom_frame_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"^odom_frame is empty\. Fix: give the odometry"):
        make_config({"odom_frame": "  "})
