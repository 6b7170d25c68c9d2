"""In-process (real rclpy, one process): the joint property parameters of a BridgeNode on the
mock (start=False: no loop) — their names for joints with dots, start values applied or
refused, and the on-set callback an error boundary (an exception refuses the change and is
counted, the node goes on)."""

from __future__ import annotations

import pytest
from rclpy.context import Context
from rclpy.parameter import Parameter

from sdf_bridge.errors import ConfigError
from sdf_bridge.ros.joint_parameters import descriptor, split_name
from sdf_bridge.ros.node import BridgeNode

URDF = """<robot name="dots">
  <link name="base"/><link name="l1"/>
  <joint name="arm.elbow" type="revolute">
    <parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/>
  </joint>
</robot>"""


def _node(context: Context, name: str, **values: object) -> BridgeNode:
    overrides = [Parameter("robot_description", value=URDF)]
    overrides += [Parameter(k.replace("__", "."), value=v) for k, v in values.items()]
    return BridgeNode(start=False, context=context, node_name=name, parameter_overrides=overrides)


def test_split_name_and_descriptor() -> None:
    assert split_name("joint_properties.arm.elbow.upper") == ("arm.elbow", "upper")
    assert split_name("joint_properties.elbow.stiffness") is None  # not a property
    assert split_name("joint_properties.upper") is None and split_name("update_rate") is None
    d = descriptor("damping")
    assert not d.read_only and d.floating_point_range[0].from_value == 0.0
    assert "Gazebo: physics::Joint::SetDamping." in d.description


def test_start_values_and_run_time_changes(ros_context: Context) -> None:
    node = _node(ros_context, "props_inproc", joint_properties__arm__elbow__upper=0.5)
    try:
        assert node.get_parameter("joint_properties.arm.elbow.upper").value == 0.5
        assert node.hardware.limiter.pmax[0] == 0.5
        (ok,) = node.set_parameters([Parameter("joint_properties.arm.elbow.effort", value=2.0)])
        assert ok.successful and node.hardware.limiter.emax[0] == 2.0
        (refused,) = node.set_parameters([Parameter("joint_properties.arm.elbow.lower", value=0.5)])
        assert not refused.successful
        assert refused.reason.startswith("joint_properties.arm.elbow.lower = 0.5 is not below")
        assert node.get_parameter("joint_properties.arm.elbow.lower").value == -1.0
        # other parameters are not the callback's business (read-only ones stay refused)
        (other,) = node.set_parameters([Parameter("update_rate", value=50.0)])
        assert not other.successful and "read-only" in other.reason
    finally:
        node.shutdown()
        node.destroy_node()


def test_a_refused_start_value_ends_the_start(ros_context: Context) -> None:
    with pytest.raises(
        ConfigError,
        match=r"joint property given at start refused: joint_properties\.arm\.elbow\.lower = 2 "
        r"is not below joint_properties\.arm\.elbow\.upper = 1",
    ):
        _node(ros_context, "props_refused", joint_properties__arm__elbow__lower=2.0)
    with pytest.raises(
        ConfigError,
        match=r"parameter joint_properties\.arm\.elbow\.upper: .*INTEGER.*Fix: give a double",
    ):
        _node(ros_context, "props_wrong_type", joint_properties__arm__elbow__upper=1)  # an integer


def test_the_callback_is_an_error_boundary(
    ros_context: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    node = _node(ros_context, "props_guarded")
    try:

        def broken(changes):
            raise RuntimeError("driver gone")

        monkeypatch.setattr(node.hardware, "set_joint_properties", broken)
        (result,) = node.set_parameters([Parameter("joint_properties.arm.elbow.upper", value=0.5)])
        assert not result.successful
        assert result.reason == (
            "parameter check failed: RuntimeError (counted as "
            "callback_dropped.parameters.JointParameters.on_set)"
        )
        assert node.callback_guard.dropped["parameters.JointParameters.on_set"] == 1
        assert node.get_parameter("joint_properties.arm.elbow.upper").value == 1.0
    finally:
        node.shutdown()
        node.destroy_node()
