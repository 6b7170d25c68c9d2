"""Limits merged from URDF <limit>/<safety_controller> and <ros2_control> min/max."""

from __future__ import annotations

import logging
import math

import pytest
from transmissions.builders import chain

from sdf_bridge.description import load
from sdf_bridge.description.model import (
    ComponentInfo,
    HardwareComponent,
    InterfaceInfo,
    Limit,
    SafetyController,
)
from sdf_bridge.errors import LimitsError
from sdf_bridge.limits import JointLimiter
from sdf_bridge.limits.spec import description_limits, effort_bounds


def _lims(robot, names=("j",), **kw):
    return JointLimiter.from_robot(robot, list(names), **kw)


def test_case_007_expect_limits(cases_dir) -> None:
    lim = _lims(
        load(cases_dir / "007-continuous-joint-no-limits" / "robot.urdf"),
        ("wheel_joint", "turret_joint"),
    )
    wheel, turret = lim.limits
    assert (
        wheel.has_position_limits,
        wheel.has_velocity_limits,
        wheel.max_velocity,
        wheel.has_effort_limits,
        wheel.max_effort,
    ) == (False, True, 10.0, True, 5.0)
    assert (turret.has_position_limits, turret.has_velocity_limits, turret.has_effort_limits) == (
        False,
        False,
        False,
    )


def test_urdf_limit_and_safety_controller() -> None:
    robot = chain(
        (
            "j",
            "revolute",
            {
                "limit": Limit(-1.0, 2.0, 30.0, 3.0),
                "safety_controller": SafetyController(5.0, -0.9, 1.9, 50.0),
            },
        )
    )
    (lim,) = _lims(robot).limits
    assert (lim.min_position, lim.max_position, lim.max_velocity, lim.max_effort) == (
        -1.0,
        2.0,
        3.0,
        30.0,
    )
    assert (lim.soft_lower, lim.soft_upper, lim.k_position, lim.k_velocity) == (
        -0.9,
        1.9,
        50.0,
        5.0,
    )


def test_safety_controller_without_soft_range() -> None:
    robot = chain(
        (
            "j",
            "continuous",
            {
                "limit": Limit(effort=7.0, velocity=15.0),
                "safety_controller": SafetyController(10.0),
            },
        )
    )
    (lim,) = _lims(robot).limits
    assert lim.soft_lower == -math.inf and lim.soft_upper == math.inf and math.isnan(lim.k_position)


def test_lower_above_upper() -> None:
    with pytest.raises(LimitsError, match=r"joint 'j': position limits lower=2.0 > upper=1.0"):
        _lims(chain(("j", "revolute", {"limit": Limit(2.0, 1.0, 1.0, 1.0)})))


def test_negative_velocity() -> None:
    with pytest.raises(LimitsError, match=r"<limit velocity=\"-1.0\"> must be ≥ 0"):
        _lims(chain(("j", "revolute", {"limit": Limit(-1.0, 1.0, 1.0, -1.0)})))


def test_zero_velocity_means_unlimited_with_warning(caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.limits"):
        lim = _lims(chain(("j", "revolute", {"limit": Limit(-1.0, 1.0, 0.0, 0.0)})))
    assert not lim.limits[0].has_velocity_limits and not lim.limits[0].has_effort_limits
    expected = [
        f"joint 'j': <limit {attr}=\"0\"> read as 'not limited' (as gazebo_ros_control reads it; "
        "ROS-Industrial descriptions write 0 for unknown)"
        for attr in ("velocity", "effort")
    ]
    assert lim.warnings == expected
    assert [r.getMessage() for r in caplog.records] == expected  # logged once each


def test_effort_bounds_are_what_the_limiter_enforces() -> None:
    """URDF effort 0: not limited (inf); a ros2_control window narrows; a zero-width window: 0."""
    hw = HardwareComponent(
        "hw",
        "system",
        joints=(
            ComponentInfo(
                "b", "joint", command_interfaces=(InterfaceInfo("effort", min="-3", max="3"),)
            ),
            ComponentInfo(
                "c", "joint", command_interfaces=(InterfaceInfo("effort", min="0", max="0"),)
            ),
        ),
    )
    robot = chain(
        ("a", "revolute", {"limit": Limit(-1.0, 1.0, 0.0, 1.0)}),
        ("b", "revolute", {"limit": Limit(-1.0, 1.0, 10.0, 1.0)}),
        ("c", "revolute", {"limit": Limit(-1.0, 1.0, 10.0, 1.0)}),
        ros2_control=[hw],
    )
    assert effort_bounds(robot, ("a", "b", "c")) == [math.inf, 3.0, 0.0]
    assert [lim.max_effort for lim in _lims(robot, ("a", "b", "c")).limits] == [math.inf, 3.0, 0.0]


@pytest.mark.parametrize(
    "interface, window, bound, field",
    [
        ("effort", ("-2", "5"), 2.0, "max_effort"),
        ("velocity", ("-1.5", "0.5"), 0.5, "max_velocity"),
        ("acceleration", ("-4", "6"), 4.0, "max_acceleration"),
    ],
)
def test_asymmetric_ros2_control_windows_are_narrowed_with_a_warning(
    interface, window, bound, field
) -> None:
    hw = _hw(InterfaceInfo(interface, min=window[0], max=window[1]))
    robot = chain(("j", "revolute", {"limit": Limit(-1.0, 1.0, 10.0, 2.0)}), ros2_control=[hw])
    warnings: list[str] = []
    lim = description_limits(robot, "j", warnings)
    assert getattr(lim, field) == bound
    assert warnings == [
        f"joint 'j': <ros2_control> {interface} window [{float(window[0]):g}, "
        f"{float(window[1]):g}] is not symmetric; the bridge limits |{interface}| to "
        f"{bound:g} (±{bound:g})"
    ]
    assert _lims(robot).warnings == warnings


def _hw(*ifaces: InterfaceInfo, enable: bool = True) -> HardwareComponent:
    return HardwareComponent(
        "hw",
        "system",
        joints=(ComponentInfo("j", "joint", command_interfaces=ifaces, enable_limits=enable),),
    )


def test_ros2_control_narrows() -> None:
    hw = _hw(
        InterfaceInfo("position", min="-0.5", max="3.0"),
        InterfaceInfo("velocity", min="-1.5", max="1.0"),
        InterfaceInfo("effort", min="-4", max="4"),
    )
    robot = chain(("j", "revolute", {"limit": Limit(-1.0, 1.0, 10.0, 2.0)}), ros2_control=[hw])
    (lim,) = _lims(robot).limits
    assert (lim.min_position, lim.max_position, lim.max_velocity, lim.max_effort) == (
        -0.5,
        1.0,
        1.0,
        4.0,
    )


def test_ros2_control_limits_disabled() -> None:
    robot = chain(
        ("j", "revolute", {"limit": Limit(-1.0, 1.0, 10.0, 2.0)}),
        ros2_control=[_hw(InterfaceInfo("position"), enable=False)],
    )
    (lim,) = _lims(robot).limits
    assert not (lim.has_position_limits or lim.has_velocity_limits or lim.has_effort_limits)


def test_ros2_control_bad_number() -> None:
    robot = chain(("j", "revolute"), ros2_control=[_hw(InterfaceInfo("velocity", max="fast"))])
    with pytest.raises(
        LimitsError,
        match=r"joint 'j': <ros2_control> velocity interface max 'fast' is not a number",
    ):
        _lims(robot)


def test_ros2_control_disjoint_range() -> None:
    robot = chain(
        ("j", "revolute"), ros2_control=[_hw(InterfaceInfo("position", min="2", max="3"))]
    )
    with pytest.raises(LimitsError, match="do not overlap the URDF range"):
        _lims(robot)


def test_unknown_joint() -> None:
    with pytest.raises(LimitsError, match=r"joint 'zz' is not in robot"):
        _lims(chain(("j", "revolute")), ("zz",))


def test_kv_zero_warns_on_effort_joint() -> None:
    robot = chain(("j", "revolute", {"safety_controller": SafetyController(0.0, -0.5, 0.5, 10.0)}))
    lim = _lims(robot)
    assert "k_velocity 0 clamp every effort command to 0" in lim.warnings[0]


def test_demo_arm_limits(repo_dir) -> None:
    robot = load(repo_dir / "urdf" / "demo_arm.urdf.xacro")
    lim = JointLimiter.from_robot(robot, ["base_yaw", "elbow", "left_finger_joint"])
    base, elbow, finger = lim.limits
    assert not base.has_position_limits and base.max_velocity == 2.0
    assert (elbow.soft_lower, elbow.soft_upper, elbow.k_position, elbow.k_velocity) == (
        -2.4,
        2.4,
        100.0,
        10.0,
    )
    assert (finger.min_position, finger.max_position, finger.max_velocity) == (0.0, 0.04, 0.1)
