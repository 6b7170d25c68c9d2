"""The ros2_control joint_limits YAML override."""

from __future__ import annotations

from pathlib import Path

import pytest
from transmissions.builders import chain

from sdf_bridge.description.model import Limit, SafetyController
from sdf_bridge.errors import LimitsError
from sdf_bridge.limits import JointLimiter, load_overrides, validate_overrides

ROBOT = chain(("j", "revolute", {"limit": Limit(-1.0, 1.0, 10.0, 2.0)}), ("k", "continuous"))


def test_bare_and_ros_parameters_forms(tmp_path: Path) -> None:
    bare = tmp_path / "a.yaml"
    bare.write_text("joint_limits:\n  j: {has_velocity_limits: true, max_velocity: 0.5}\n")
    wrapped = tmp_path / "b.yaml"
    wrapped.write_text(
        "/**:\n  ros__parameters:\n    joint_limits:\n      j:\n        max_velocity: 0.5\n"
    )
    assert load_overrides(bare) == {"j": {"has_velocity_limits": True, "max_velocity": 0.5}}
    assert load_overrides(wrapped) == {"j": {"max_velocity": 0.5}}
    assert JointLimiter.load_overrides(wrapped) == {"j": {"max_velocity": 0.5}}
    lim = JointLimiter.from_robot(ROBOT, ["j", "k"], overrides=wrapped)
    assert lim.limits[0].max_velocity == 0.5


def test_override_fields() -> None:
    ov = {
        "j": {
            "has_position_limits": False,
            "has_acceleration_limits": True,
            "max_acceleration": 4.0,
            "max_effort": 3.0,
            "soft_lower_limit": -0.5,
            "soft_upper_limit": 0.5,
            "k_position": 20.0,
            "k_velocity": 2.0,
        },
        "k": {"has_position_limits": True, "min_position": -3.0, "max_position": 3.0},
    }
    j, k = JointLimiter.from_robot(ROBOT, ["j", "k"], overrides=ov).limits
    assert not j.has_position_limits and j.min_position == float("-inf")
    assert (
        j.max_acceleration,
        j.max_effort,
        j.soft_lower,
        j.soft_upper,
        j.k_position,
        j.k_velocity,
    ) == (4.0, 3.0, -0.5, 0.5, 20.0, 2.0)
    assert k.has_position_limits and (k.min_position, k.max_position) == (-3.0, 3.0)


def test_soft_limits_switched_off() -> None:
    robot = chain(
        (
            "j",
            "revolute",
            {
                "limit": Limit(-1.0, 1.0, 10.0, 2.0),
                "safety_controller": SafetyController(5.0, -0.5, 0.5, 10.0),
            },
        )
    )
    assert JointLimiter.from_robot(robot, ["j"]).limits[0].has_soft_limits
    ov = {"j": {"has_soft_limits": False}}
    (j,) = JointLimiter.from_robot(robot, ["j"], overrides={"joint_limits": ov}).limits
    assert not j.has_soft_limits and j.soft_upper == float("inf")


@pytest.mark.parametrize(
    ("doc", "match"),
    [
        (
            {"joint_limits": {"j": {"max_speed": 1.0}}},
            r"joint_limits.j.max_speed is not a joint-limits field",
        ),
        (
            {"joint_limits": {"j": {"has_velocity_limits": "yes"}}},
            r"has_velocity_limits = 'yes' is not a boolean",
        ),
        ({"joint_limits": {"j": {"max_velocity": True}}}, r"max_velocity = True is not a number"),
        (
            {"joint_limits": {"j": {"max_velocity": float("inf")}}},
            r"max_velocity = inf is not finite",
        ),
        ({"joint_limits": {"j": 3}}, r"joint_limits.j is not a mapping"),
        ({"joint_limits": [1]}, r"joint_limits is not a mapping"),
        ({"other": 1}, r"no joint_limits section"),
        ([1, 2], r"the top level is not a mapping"),
    ],
)
def test_validation_errors(doc, match: str) -> None:
    with pytest.raises(LimitsError, match=match):
        validate_overrides(doc, "f.yaml")


def test_unknown_joint_in_override() -> None:
    with pytest.raises(LimitsError, match=r"override names 'zz', which is not a limited joint"):
        JointLimiter.from_robot(ROBOT, ["j"], overrides={"zz": {"max_velocity": 1.0}})


def test_inconsistent_override() -> None:
    with pytest.raises(LimitsError, match=r"joint_limits.j: min_position 2.0 > max_position 1.0"):
        JointLimiter.from_robot(ROBOT, ["j"], overrides={"j": {"min_position": 2.0}})
    with pytest.raises(LimitsError, match=r"soft_lower_limit 0.5 > soft_upper_limit -0.5"):
        JointLimiter.from_robot(
            ROBOT, ["j"], overrides={"j": {"soft_lower_limit": 0.5, "soft_upper_limit": -0.5}}
        )
    with pytest.raises(LimitsError, match=r"joint_limits.j.max_velocity is negative"):
        JointLimiter.from_robot(ROBOT, ["j"], overrides={"j": {"max_velocity": -1.0}})


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(LimitsError, match="cannot read the joint-limits file"):
        load_overrides(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("joint_limits: [unclosed\n")
    with pytest.raises(LimitsError, match="not valid YAML"):
        load_overrides(bad)
