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

(the topic name fully resolved: namespace and remappings applied). A value rclpy or the
middleware would refuse (``reliability:=sometimes``, ``depth:=-5``, ``history:=1``) is a
:class:`~sdf_bridge.errors.ConfigError` naming the parameter, its value and the values accepted
(:func:`check_overrides`), raised before the entity is created.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rclpy.qos_overriding_options import QoSOverridingOptions

from ..errors import ConfigError

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

#: The words each policy override takes: the names of rclpy.qos's policy enums in lower case
#: (as rclpy.qos_overriding_options reads them), without ``unknown``, which the middleware
#: refuses.
POLICY_WORDS: dict[str, tuple[str, ...]] = {
    "history": tuple(n.lower() for n in HistoryPolicy.__members__ if n != "UNKNOWN"),
    "reliability": tuple(n.lower() for n in ReliabilityPolicy.__members__ if n != "UNKNOWN"),
}
#: Largest ``depth`` override: rclpy's QoS profile holds the depth as a 32-bit signed integer
#: (2**31 raises TypeError in rclpy 9); 0 is accepted and read as the system default (rclpy
#: warns).
MAX_DEPTH = 2**31 - 1


def check_overrides(prefix: str, overrides: Mapping[str, Any]) -> None:
    """Check the QoS override values of one publisher or subscription.

    Args:
        prefix: ``qos_overrides.<resolved topic>.publisher.`` or ``....subscription.``.
        overrides: parameter name → value given at start-up (``-p``, ``--params-file``); the
            names outside ``prefix`` and the policies rclpy does not override here are skipped.

    Raises:
        ConfigError: a ``history`` or ``reliability`` that is not one of :data:`POLICY_WORDS`,
            a ``depth`` that is not an integer in 0..:data:`MAX_DEPTH`.
    """
    for policy, words in POLICY_WORDS.items():
        name = prefix + policy
        if name in overrides and overrides[name] not in words:
            raise ConfigError(
                f"parameter {name} is {overrides[name]!r}. Fix: give one of {', '.join(words)}."
            )
    name = prefix + "depth"
    if name in overrides:
        depth = overrides[name]
        if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_DEPTH:
            raise ConfigError(
                f"parameter {name} is {depth!r}. Fix: give an integer from 0 to {MAX_DEPTH} "
                "(the number of messages kept; 0 = the system default)."
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
        ConfigError: (from ``create_publisher`` / ``create_subscription``) an override parameter
            with a value rclpy or the middleware does not take (:func:`check_overrides`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._qos_overrides = False  # set before Node.__init__, which creates entities of its own
        super().__init__(*args, **kwargs)
        self._qos_overrides = True

    def create_publisher(self, msg_type: Any, topic: str, qos_profile: Any, **kwargs: Any) -> Any:
        """:meth:`rclpy.node.Node.create_publisher` with QoS overrides (see the class)."""
        self._check(topic, "publisher", kwargs)
        return super().create_publisher(msg_type, topic, _own(qos_profile), **kwargs)

    def create_subscription(
        self, msg_type: Any, topic: str, callback: Any, qos_profile: Any, **kwargs: Any
    ) -> Any:
        """:meth:`rclpy.node.Node.create_subscription` with QoS overrides (see the class)."""
        self._check(topic, "subscription", kwargs)
        return super().create_subscription(msg_type, topic, callback, _own(qos_profile), **kwargs)

    def _check(self, topic: str, kind: str, kwargs: dict[str, Any]) -> None:
        """Give the entity the override options (see the class) and check the override values
        it gets (:func:`check_overrides`; rclpy's parameter names: ``kind`` is ``publisher``
        or ``subscription``, then the options' ``_<entity_id>``)."""
        if self._qos_overrides:
            kwargs.setdefault(
                "qos_overriding_options", QoSOverridingOptions.with_default_policies()
            )
        options = kwargs.get("qos_overriding_options")
        if options is None:
            return
        suffix = "" if options.entity_id is None else f"_{options.entity_id}"
        prefix = f"qos_overrides.{self.resolve_topic_name(topic)}.{kind}{suffix}."
        # rclpy has no public accessor for the overrides of parameters not yet declared
        given = getattr(self, "_parameter_overrides", {})
        check_overrides(
            prefix, {name: p.value for name, p in given.items() if name.startswith(prefix)}
        )


def _own(qos_profile: Any) -> Any:
    """A copy of a :class:`QoSProfile` (a depth given as an int makes rclpy build its own)."""
    return copy.copy(qos_profile) if isinstance(qos_profile, QoSProfile) else qos_profile
