"""In-process (real rclpy, one process): the joint property parameters of a BridgeNode on the
mock (start=False: no loop) — their names for joints with dots, start values applied or
refused, the on-set callback an error boundary (an exception refuses the change and is
counted, the node goes on), and a call refused for any reason changing nothing."""

from __future__ import annotations

import pytest
import rclpy
from rclpy.context import Context
from rclpy.exceptions import ParameterNotDeclaredException
from rclpy.node import Node
from rclpy.parameter import Parameter

from sdf_bridge.errors import BackendError, ConfigError
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
    assert d.floating_point_range[0].to_value == 1e6  # the bound on absurd magnitudes
    assert descriptor("spring_reference").floating_point_range[0].from_value == -1e6
    assert descriptor("effort").floating_point_range[0].to_value == float("inf")
    wide = descriptor("damping", 5e6).floating_point_range[0]  # a description's value beyond it
    assert (wide.from_value, wide.to_value) == (0.0, 5e6)


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
        r"is not below joint_properties\.arm\.elbow\.upper = 1: the stops must bound an "
        r"interval\. Fix: give lower < upper; to move both past each other, give lower and upper "
        r"together \(in the parameters file, or with set_parameters_atomically at run time\)\.$",
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

        monkeypatch.setattr(node.hardware, "check_joint_properties", broken)
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


ELBOW = "joint_properties.arm.elbow."
REFUSALS = {
    # another on-set callback refuses (use_sim_time is fixed at start)
    "use_sim_time changed": Parameter("use_sim_time", value=True),
    "read-only parameter": Parameter("update_rate", value=50.0),
    "out of the descriptor's range": Parameter(ELBOW + "velocity", value=-1.0),
    "wrong type": Parameter(ELBOW + "velocity", value="fast"),
    "joint property check": Parameter(ELBOW + "lower", value=2.0),  # above upper 0.5
}


def _state(node: BridgeNode) -> tuple:
    """The parameters, hardware properties and limiter arrays of the joint ``arm.elbow``."""
    names = [ELBOW + p for p in ("lower", "upper", "effort", "velocity")]
    lim = node.hardware.limiter
    return (
        [node.get_parameter(n).value for n in names],
        node.hardware.joint_properties(),
        (lim.pmin[0], lim.pmax[0], lim.emax[0], lim.vmax[0]),
        node.get_parameter("use_sim_time").value,
    )


@pytest.mark.parametrize("why", sorted(REFUSALS))
def test_a_refused_atomic_call_changes_nothing(ros_context: Context, why: str) -> None:
    """A SetParametersAtomically call moving the stop ``upper`` (and the effort limit) with one
    parameter refused, for any reason, changes neither the parameters nor the limiter nor the
    backend (the joint property callback checks only; the change is applied after rclpy
    accepted the whole call)."""
    node = _node(ros_context, "props_refused_" + "".join(c for c in why if c.isalpha()))
    try:
        before = _state(node)
        assert before[0] == [-1.0, 1.0, 10.0, 2.0]
        call = [Parameter(ELBOW + "upper", value=0.5), Parameter(ELBOW + "effort", value=5.0)]
        result = node.set_parameters_atomically([*call, REFUSALS[why]])
        assert not result.successful and result.reason
        assert _state(node) == before
        # the same change alone is applied
        assert node.set_parameters_atomically(call).successful
        assert _state(node)[0] == [-1.0, 0.5, 5.0, 2.0]
        assert node.hardware.limiter.pmax[0] == 0.5 and node.hardware.limiter.emax[0] == 5.0
    finally:
        node.shutdown()
        node.destroy_node()


def test_a_call_with_an_undeclared_parameter_changes_nothing(ros_context: Context) -> None:
    node = _node(ros_context, "props_refused_undeclared")
    try:
        before = _state(node)
        with pytest.raises(ParameterNotDeclaredException):
            node.set_parameters_atomically(
                [Parameter(ELBOW + "upper", value=0.5), Parameter("nope", value=1.0)]
            )
        assert _state(node) == before
    finally:
        node.shutdown()
        node.destroy_node()


def test_a_change_failing_after_acceptance_sets_its_parameters_back(
    ros_context: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The backend failing when the accepted change is applied (post-set): the error logged,
    the parameters set back to the values in use, so that they never disagree with the
    physics."""
    node = _node(ros_context, "props_apply_fails")
    try:

        def gone(changes):
            raise BackendError("driver gone")

        monkeypatch.setattr(node.hardware, "set_joint_properties", gone)
        result = node.set_parameters_atomically([Parameter(ELBOW + "upper", value=0.5)])
        assert result.successful  # accepted: rclpy cannot refuse after its on-set callbacks
        assert node.get_parameter(ELBOW + "upper").value == 1.0
        assert node.hardware.limiter.pmax[0] == 1.0
    finally:
        node.shutdown()
        node.destroy_node()


@pytest.mark.parametrize(
    ("joint", "accepted"),
    [
        ("universal_demo/axis1", True),  # a multi-axis joint's coordinate
        ("arm.elbow", True),
        ("a/b/c", True),
        ("link_2_", True),
        ("arm::elbow", False),  # an SDFormat scope
        ("arm-elbow", False),
        ("1st", False),
        ("__x", False),
        ("ré", False),
    ],
)
def test_which_joint_names_a_command_line_p_takes(joint: str, accepted: bool) -> None:
    """rcl's lexer of ``-p name:=value`` (what doc/user/joint_properties.md states): tokens
    separated by ``.`` or ``/``, each ASCII letters, digits and ``_``, starting with neither a
    digit nor ``__``; other names only in a parameters file or over the services."""
    name = f"joint_properties.{joint}.damping"
    context = Context()
    args = ["sdf_bridge", "--ros-args", "-p", f"{name}:=0.5"]
    if not accepted:
        with pytest.raises(Exception, match="Couldn't parse parameter override rule"):
            rclpy.init(args=args, context=context)
        return
    rclpy.init(args=args, context=context)
    try:
        node = Node("lexer", context=context)
        assert node._parameter_overrides[name].value == 0.5
        node.destroy_node()
    finally:
        rclpy.shutdown(context=context)


SDF = """<?xml version="1.0"?><sdf version="1.9"><model name="m">
  <link name="base"/>
  <link name="l1"><inertial><mass>1</mass></inertial></link>
  <link name="l2"><inertial><mass>1</mass></inertial></link>
  <joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
  <joint name="elbow" type="revolute"><parent>base</parent><child>l1</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis></joint>
  <joint name="uni" type="universal"><parent>l1</parent><child>l2</child>
    <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
</model></sdf>"""
UNDECLARED = "Invalid access to undeclared parameter\\(s\\): "


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        (
            "joint_properties.nope.damping",
            r"'joint_properties\.nope\.damping': no joint 'nope' has properties\. Fix: use one "
            r"of the joints with properties: elbow, uni/axis1, uni/axis2$",
        ),
        (
            "joint_properties.elbw.upper",
            r"'joint_properties\.elbw\.upper': no joint 'elbw' has properties \(did you mean "
            r"'joint_properties\.elbow\.upper'\?\)\. Fix: ",
        ),
        (
            "joint_properties.elbow.mass",
            r"'joint_properties\.elbow\.mass': joint 'elbow' has no property 'mass'\. Fix: "
            r"joint_properties\.<joint>\.<property>, <property> one of lower, upper, effort, "
            r"velocity$",
        ),
        (
            "joint_properties.elbow.uper",
            r"'joint_properties\.elbow\.uper': joint 'elbow' has no property 'uper' \(did you "
            r"mean 'joint_properties\.elbow\.upper'\?\)",
        ),
        (
            "joint_properties.elbow.damping",  # the mock simulates no dynamics
            r"'joint_properties\.elbow\.damping': the backend does not simulate 'damping'",
        ),
        (
            "joint_properties.uni.upper",  # a multi-axis joint without its axis
            r"'joint_properties\.uni\.upper': joint 'uni' has several axes, each with its own "
            r"properties\. Fix: name the axis: joint_properties\.uni/axis1\.upper, "
            r"joint_properties\.uni/axis2\.upper$",
        ),
        ("joint_properties.elbow", r"'joint_properties\.elbow': not joint_properties\.<joint>"),
        (
            "joint_properties." + "x" * 100_000 + ".damping",  # cut in the reason
            r"'joint_properties\.x{103}'… \(100025 characters\): no joint 'x{120}'… \(100000 "
            r"characters\) has properties\. Fix: ",
        ),
        (
            "update_rat",
            r"'update_rat': this node has no such parameter \(did you mean 'update_rate'",
        ),
    ],
)
def test_an_undeclared_name_is_refused_naming_it_and_the_closest_one(
    ros_context: Context, name: str, reason: str
) -> None:
    """rclpy's refusal of an undeclared parameter (ParameterNotDeclaredException, the reason of
    the parameter services) names the parameter, why, and the closest declared name (rclpy's
    own text: ``Invalid access to undeclared parameter(s): []``); a call mixing it with a
    declared one changes nothing."""
    node = BridgeNode(
        start=False,
        context=ros_context,
        node_name="props_undeclared",
        parameter_overrides=[Parameter("robot_description", value=SDF)],
    )
    try:
        with pytest.raises(ParameterNotDeclaredException, match="^" + UNDECLARED + reason):
            node.set_parameters([Parameter(name, value=1.0)])
        with pytest.raises(ParameterNotDeclaredException, match="^" + UNDECLARED + reason):
            node.set_parameters_atomically(
                [Parameter("joint_properties.elbow.upper", value=0.5), Parameter(name, value=1.0)]
            )
        assert node.get_parameter("joint_properties.elbow.upper").value == 1.0
        assert node.hardware.limiter.pmax[0] == 1.0
    finally:
        node.shutdown()
        node.destroy_node()
