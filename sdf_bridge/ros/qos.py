"""Quality of service of the bridge's topics, and rclpy's standard QoS overrides for each of them.

Profiles (REP-2003, "Sensor Data and Map QoS Settings"):

- :data:`RELIABLE_QOS`: joint_states, actuator_states and the command inputs (reliable, keep
  last 10).
- :data:`SENSOR_QOS`: the sensor topics. REP-2003 asks sensor *drivers* to publish reliable (the
  system-default profile) and sensor-data QoS (best effort) to be chosen by *subscribers* that
  prefer the newest sample: a reliable publisher serves both kinds of subscriber, a best-effort
  one only the best-effort kind.
- :data:`LATCHED_QOS`: ``robot_description`` (robot_state_publisher's profile).

:class:`QosOverridesNode` gives every publisher and subscription its node creates rclpy's
``qos_overriding_options`` (:meth:`QoSOverridingOptions.with_default_policies
<rclpy.qos_overriding_options.QoSOverridingOptions.with_default_policies>`: history, depth,
reliability), so each one's profile can be set at start-up with the standard read-only
parameters, e.g.::

    --ros-args -p qos_overrides./imu.publisher.reliability:=best_effort
               -p qos_overrides./joint_commands.subscription.depth:=1

(the topic name fully resolved: namespace and remappings applied).
"""

from __future__ import annotations

import copy
from typing import Any

from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rclpy.qos_overriding_options import QoSOverridingOptions

#: Reliable, keep last 10: joint_states, actuator_states and the command inputs.
RELIABLE_QOS = QoSProfile(
    depth=10, reliability=ReliabilityPolicy.RELIABLE, history=HistoryPolicy.KEEP_LAST
)
#: Sensor topics: reliable, keep last 10 (REP-2003: drivers publish reliable; module docstring).
SENSOR_QOS = RELIABLE_QOS
#: Latched description (robot_state_publisher's QoS).
LATCHED_QOS = QoSProfile(
    depth=1,
    reliability=ReliabilityPolicy.RELIABLE,
    durability=DurabilityPolicy.TRANSIENT_LOCAL,
    history=HistoryPolicy.KEEP_LAST,
)


class QosOverridesNode(Node):
    """An rclpy node whose publishers and subscriptions all accept the standard QoS override
    parameters (``qos_overrides.<topic>.publisher|subscription.history|depth|reliability``)
    unless the caller passes its own ``qos_overriding_options``.

    Entities rclpy's ``Node.__init__`` creates itself (the ``/parameter_events`` publisher, before
    the node has parameters) keep their fixed profiles (as in rclcpp).

    rclpy writes the overrides into the profile object it is given: each entity gets a copy, so
    the shared profiles of this module keep their values.

    Raises:
        RuntimeError: (from ``create_publisher`` / ``create_subscription``) an override parameter
            with a value rclpy does not know, e.g. ``reliability:=sometimes`` (rclpy's message).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._qos_overrides = False  # set before Node.__init__, which creates entities of its own
        super().__init__(*args, **kwargs)
        self._qos_overrides = True

    def create_publisher(self, msg_type: Any, topic: str, qos_profile: Any, **kwargs: Any) -> Any:
        """:meth:`rclpy.node.Node.create_publisher` with QoS overrides (see the class)."""
        if self._qos_overrides:
            kwargs.setdefault(
                "qos_overriding_options", QoSOverridingOptions.with_default_policies()
            )
        return super().create_publisher(msg_type, topic, _own(qos_profile), **kwargs)

    def create_subscription(
        self, msg_type: Any, topic: str, callback: Any, qos_profile: Any, **kwargs: Any
    ) -> Any:
        """:meth:`rclpy.node.Node.create_subscription` with QoS overrides (see the class)."""
        if self._qos_overrides:
            kwargs.setdefault(
                "qos_overriding_options", QoSOverridingOptions.with_default_policies()
            )
        return super().create_subscription(msg_type, topic, callback, _own(qos_profile), **kwargs)


def _own(qos_profile: Any) -> Any:
    """A copy of a :class:`QoSProfile` (a depth given as an int makes rclpy build its own)."""
    return copy.copy(qos_profile) if isinstance(qos_profile, QoSProfile) else qos_profile
