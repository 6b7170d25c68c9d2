"""sdf_bridge.ros.qos: sensor topics reliable by default (REP-2003), every publisher and
subscription overridable with rclpy's standard ``qos_overrides.*`` parameters — in-process on a
:class:`QosOverridesNode` and across processes on the bridge."""

from __future__ import annotations

import pytest
from rclpy.context import Context
from rclpy.parameter import Parameter
from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import Imu, JointState
from std_msgs.msg import String

from sdf_bridge.errors import ConfigError
from sdf_bridge.ros.qos import (
    LATCHED_QOS,
    RELIABLE_QOS,
    SENSOR_QOS,
    QosOverridesNode,
    check_overrides,
)

from .conftest import Probe


def test_profiles() -> None:
    assert (SENSOR_QOS.reliability, SENSOR_QOS.history, SENSOR_QOS.depth) == (
        ReliabilityPolicy.RELIABLE,
        HistoryPolicy.KEEP_LAST,
        10,
    )
    assert RELIABLE_QOS.reliability == ReliabilityPolicy.RELIABLE and RELIABLE_QOS.depth == 10
    assert LATCHED_QOS.durability.name == "TRANSIENT_LOCAL" and LATCHED_QOS.depth == 1


def test_overrides_apply_to_publishers_and_subscriptions(ros_context: Context) -> None:
    overrides = [
        Parameter("qos_overrides./qos_unit/out.publisher.reliability", value="best_effort"),
        Parameter("qos_overrides./qos_unit/out.publisher.depth", value=3),
        Parameter("qos_overrides./qos_unit/in.subscription.history", value="keep_all"),
    ]
    node = QosOverridesNode(
        "qos_unit", namespace="/qos_unit", context=ros_context, parameter_overrides=overrides
    )
    try:
        out = node.create_publisher(String, "out", SENSOR_QOS)
        sub = node.create_subscription(String, "in", lambda _: None, RELIABLE_QOS)
        plain = node.create_publisher(String, "plain", SENSOR_QOS)
        assert (out.qos_profile.reliability, out.qos_profile.depth) == (
            ReliabilityPolicy.BEST_EFFORT,
            3,
        )
        assert sub.qos_profile.history == HistoryPolicy.KEEP_ALL
        # not overridden: the default
        assert plain.qos_profile.reliability == ReliabilityPolicy.RELIABLE
        assert (
            node.get_parameter("qos_overrides./qos_unit/plain.publisher.reliability").value
            == "reliable"
        )
        # the shared profile is not changed
        assert SENSOR_QOS.reliability == ReliabilityPolicy.RELIABLE
    finally:
        node.destroy_node()


@pytest.mark.parametrize(
    ("policy", "value", "match"),
    [
        (
            "reliability",
            "sometimes",
            r"^parameter qos_overrides\./qos_bad/out\.publisher\.reliability is 'sometimes'\. "
            r"Fix: give one of system_default, reliable, best_effort, best_available\.$",
        ),
        (
            "reliability",
            "unknown",  # an rclpy enum name the middleware refuses
            r"reliability is 'unknown'\. Fix: give one of system_default, reliable",
        ),
        (
            "history",
            1,
            r"^parameter qos_overrides\./qos_bad/out\.publisher\.history is 1\. "
            r"Fix: give one of system_default, keep_last, keep_all\.$",
        ),
        (
            "depth",
            -5,
            r"^parameter qos_overrides\./qos_bad/out\.publisher\.depth is -5\. Fix: give an "
            r"integer from 0 to 2147483647 \(the number of messages kept; 0 = the system "
            r"default\)\.$",
        ),
        ("depth", 2**31, r"depth is 2147483648\. Fix: give an integer from 0 to 2147483647"),
        ("depth", "ten", r"depth is 'ten'\. Fix: give an integer"),
        ("depth", True, r"depth is True\. Fix: give an integer"),
    ],
)
def test_bad_override_value_is_refused(
    ros_context: Context, policy: str, value: object, match: str
) -> None:
    """A value rclpy (``reliability:=sometimes``: RuntimeError, ``history:=1``: a parameter
    type error) or the middleware (``depth:=-5``: RCLError, ``2**31``: TypeError) would refuse
    is a ConfigError naming the parameter, its value and what it takes."""
    overrides = [Parameter(f"qos_overrides./qos_bad/out.publisher.{policy}", value=value)]
    node = QosOverridesNode(
        "qos_bad", namespace="/qos_bad", context=ros_context, parameter_overrides=overrides
    )
    try:
        with pytest.raises(ConfigError, match=match):
            node.create_publisher(String, "out", SENSOR_QOS)
        # a subscription of that topic, and a publisher of another, are not concerned
        node.create_subscription(String, "out", lambda _: None, RELIABLE_QOS)
        node.create_publisher(String, "other", SENSOR_QOS)
    finally:
        node.destroy_node()


def test_subscription_overrides_are_checked_under_their_own_names(ros_context: Context) -> None:
    overrides = [Parameter("qos_overrides./qos_sub/in.subscription.history", value="never")]
    node = QosOverridesNode(
        "qos_sub", namespace="/qos_sub", context=ros_context, parameter_overrides=overrides
    )
    try:
        with pytest.raises(
            ConfigError,
            match=r"^parameter qos_overrides\./qos_sub/in\.subscription\.history is 'never'\.",
        ):
            node.create_subscription(String, "in", lambda _: None, RELIABLE_QOS)
    finally:
        node.destroy_node()


@pytest.mark.parametrize("depth", [0, 1, 2**31 - 1])
def test_check_overrides_accepts_what_rclpy_takes(depth: int) -> None:
    prefix = "qos_overrides./t.publisher."
    check_overrides(
        prefix,
        {
            prefix + "depth": depth,
            prefix + "history": "keep_all",
            prefix + "reliability": "best_available",
            "qos_overrides./other.publisher.depth": -1,  # another entity's: not looked at
        },
    )


def _endpoint(probe: Probe, topic: str, kind: str) -> object:
    info = (
        probe.node.get_publishers_info_by_topic
        if kind == "publisher"
        else probe.node.get_subscriptions_info_by_topic
    )
    probe.wait_for(lambda: bool(info(topic)), f"the bridge's {kind} on {topic}", timeout=60.0)
    return info(topic)[0].qos_profile


def test_bridge_sensor_topics_reliable_and_overridable(start_bridge, probe: Probe) -> None:
    """Across processes: the demo arm's IMU publisher is reliable by default; with overrides its
    publisher and joint_states' are best effort, and so is joint_commands' subscription. (Depth
    and history do not travel with discovery: the in-process test checks those.)"""
    plain = start_bridge({}, name="bridge", extra=["-r", "__ns:=/qos_plain"])
    tuned = start_bridge(
        {
            "qos_overrides./qos_tuned/imu.publisher.reliability": "best_effort",
            "qos_overrides./qos_tuned/joint_states.publisher.reliability": "best_effort",
            "qos_overrides./qos_tuned/joint_commands.subscription.reliability": "best_effort",
        },
        name="bridge",
        extra=["-r", "__ns:=/qos_tuned"],
    )
    # a reliable subscriber: matched only by a reliable publisher
    probe.watch("/qos_plain/imu", Imu)
    probe.latest("/qos_plain/imu")
    assert _endpoint(probe, "/qos_plain/imu", "publisher").reliability == ReliabilityPolicy.RELIABLE
    assert (
        _endpoint(probe, "/qos_tuned/imu", "publisher").reliability == ReliabilityPolicy.BEST_EFFORT
    )
    assert (
        _endpoint(probe, "/qos_tuned/joint_states", "publisher").reliability
        == ReliabilityPolicy.BEST_EFFORT
    )
    assert (
        _endpoint(probe, "/qos_tuned/joint_commands", "subscription").reliability
        == ReliabilityPolicy.BEST_EFFORT
    )
    assert (
        _endpoint(probe, "/qos_plain/joint_commands", "subscription").reliability
        == ReliabilityPolicy.RELIABLE
    )
    probe.watch(
        "/qos_tuned/joint_states",
        JointState,
        QoSProfile(depth=10, reliability=ReliabilityPolicy.BEST_EFFORT),
    )
    probe.latest("/qos_tuned/joint_states")  # served to a best-effort subscriber
    assert plain.stop() == 0 and tuned.stop() == 0
