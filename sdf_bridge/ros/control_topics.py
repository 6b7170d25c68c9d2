"""The bridge's topics follow the description's topic-based ``<ros2_control>`` block, so that a
controller_manager given the same description drives the bridge with no remapping.

A topic-based plugin (:data:`~sdf_bridge.hardware.topic_block.TOPIC_BASED_PLUGINS`) publishes
the controllers' commands on its block's ``joint_commands_topic`` and reads the joint states
from its ``joint_states_topic`` (:func:`~sdf_bridge.hardware.topic_block.block_topics`). The
bridge's ``joint_commands`` input and ``joint_states`` output are moved onto those topics
(:func:`follow_topic_block`), unless the user remapped them (``-r joint_states:=...``: the
remap wins). This also keeps the bridge off ``joint_states``, which joint_state_broadcaster
publishes. A block naming any other hardware (``mock_components/GenericSystem``,
``gz_ros2_control``…) gets one warning, when a controller_manager subscribes to
``robot_description``, saying that it loads that hardware instead of the bridge, and the fix
(:func:`~sdf_bridge.hardware.topic_block.foreign_hardware`).

``~/claimed_interfaces`` (``std_msgs/String``, transient local: the command interfaces the
active controllers claim, as ros2_control's full names ``<joint>/<interface>`` separated by
spaces; ``*`` = stop following) makes the bridge follow a controller_manager's claims
(:func:`subscribe_claims`, :meth:`sdf_bridge.hardware.HardwareSystem.set_claims`): a switch from
a position to a velocity controller releases the position target, and values for unclaimed
interfaces are dropped (counted). A claim counts only when it names an interface a commandable
joint is commanded through in this run; a message with no such claim is refused whole.
``sdf-bridge control`` publishes it from the controller_manager's
``list_controllers`` after each of its ``~/activity`` messages.
"""

from __future__ import annotations

from typing import Any

from ..description.model import Robot
from ..hardware.commands import ClaimsUpdate
from ..hardware.topic_block import block_topics, foreign_hardware, topic_based_block
from ..util.clip import clip, clipped_list


def remapped(node: Any, name: str) -> bool:
    """True when ``node``'s ROS arguments remap topic ``name`` (relative, as the node creates
    it)."""
    return node.resolve_topic_name(name) != node.resolve_topic_name(name, only_expand=True)


#: s between two looks for a controller_manager reading robot_description (graph query, ~µs)
MANAGER_CHECK_PERIOD = 1.0


def managers_reading_description(node: Any) -> list[str]:
    """The controller_managers (nodes whose name contains ``controller_manager``) subscribed to
    ``node``'s ``robot_description`` topic, as ``/ns/name``."""
    topic = node.resolve_topic_name("robot_description")
    return [
        f"{info.node_namespace.rstrip('/')}/{info.node_name}"
        for info in node.get_subscriptions_info_by_topic(topic)
        if "controller_manager" in info.node_name
    ]


def warn_when_a_manager_reads(node: Any, note: str) -> Any:
    """Log ``note`` (a foreign ``<ros2_control>`` block) once, as a warning, as soon as a
    controller_manager subscribes to ``node``'s ``robot_description`` (then it is about to load
    that hardware instead of the bridge); no noise when none ever does (the bridge alone, rviz).
    Checked every :data:`MANAGER_CHECK_PERIOD` s on the executor (steady clock). Returns the
    timer (cancelled once it has warned)."""
    from rclpy.clock import Clock, ClockType

    def check() -> None:
        managers = managers_reading_description(node)
        if managers:
            timer.cancel()
            node.get_logger().warning(f"{', '.join(managers)} reads robot_description, but {note}")

    timer = node.create_timer(
        MANAGER_CHECK_PERIOD, check, clock=Clock(clock_type=ClockType.STEADY_TIME)
    )
    return timer


def follow_topic_block(node: Any, robot: Robot) -> tuple[str, str] | None:
    """Warn once about a foreign ``<ros2_control>`` block of ``robot`` when a controller_manager
    reads the description (:func:`warn_when_a_manager_reads`), and move
    ``node``'s ``joint_commands`` subscription (``node.joint_command_sub``, callback
    ``node._on_joint_commands``) and ``joint_states`` publisher (``node.joint_state_pub``) onto
    the topics of ``robot``'s topic-based block, each unless remapped. Call before the control
    loop starts (nothing publishes on them yet).

    Returns:
        The resolved ``(joint_commands, joint_states)`` topics when a topic-based block was
        followed, else ``None``.
    """
    logger = node.get_logger()
    note = foreign_hardware(robot)
    if note is not None:
        warn_when_a_manager_reads(node, note)
    block = topic_based_block(robot)
    if block is None:
        return None
    commands, states = block_topics(block)
    if not remapped(node, "joint_states") and node.resolve_topic_name(states) != (
        node.joint_state_pub.topic_name
    ):
        old = node.joint_state_pub
        node.joint_state_pub = node.create_publisher(old.msg_type, states, old.qos_profile)
        node.destroy_publisher(old)
    if not remapped(node, "joint_commands") and node.resolve_topic_name(commands) != (
        node.joint_command_sub.topic_name
    ):
        old = node.joint_command_sub
        node.joint_command_sub = node.create_subscription(
            old.msg_type, commands, node._on_joint_commands, old.qos_profile
        )
        node.destroy_subscription(old)
    followed = (node.joint_command_sub.topic_name, node.joint_state_pub.topic_name)
    logger.info(
        f"joint_commands from {followed[0]}, joint_states on {followed[1]}: the topics of "
        f"<ros2_control> block {block.name!r} ({block.plugin}), which a controller_manager's "
        "joint_state_broadcaster republishes on joint_states"
    )
    return followed


#: The claims topic (module doc) below the bridge's node name.
CLAIMS_TOPIC = "~/claimed_interfaces"
FOLLOW_NOTHING = "*"
CLAIMS_LOG_CHARS = 2000
"""Characters of a claims message logged (a controller_manager's claims of a large robot fit)."""


def parse_claims(text: str) -> list[str] | None:
    """``"a/position b/velocity"`` → ``["a/position", "b/velocity"]``; ``"*"`` → ``None``
    (stop following)."""
    words = text.split()
    return None if words == [FOLLOW_NOTHING] else words


def claims_messages(update: ClaimsUpdate, claims: list[str] | None) -> tuple[str | None, list[str]]:
    """The log lines of one claims message (``claims`` as parsed, :func:`parse_claims`) that
    did ``update``: the INFO line naming what the commands follow now (``None`` for a refused
    message, which changed nothing) and the warnings. Every line is bounded whatever the
    message held (:mod:`sdf_bridge.util.clip`): the INFO line lists the claims taken, at most
    :data:`CLAIMS_LOG_CHARS` characters of them; names are shown :func:`clipped_list`\\ ed."""
    if update.refused:
        return None, [
            f"claims {clipped_list(update.ignored)} name no interface a commandable joint is "
            "commanded through; refused, commands follow what they followed"
        ]
    if claims is None:
        info = "commands follow the controllers' claims: (not following)"
    elif not update.followed:
        info = "commands follow the controllers' claims: (none claimed)"
    else:
        info = f"commands follow the controllers' claims ({len(update.followed)}): " + clip(
            " ".join(update.followed), CLAIMS_LOG_CHARS
        )
    warnings = []
    if update.ignored:
        warnings.append(
            f"{clipped_list(update.ignored)} are no interfaces a commandable joint is "
            "commanded through; ignored"
        )
    if update.released:
        warnings.append(
            f"joints {clipped_list(update.released)} were commanded and no active controller "
            "claims any of their command interfaces now: they hold where they are and their "
            "commands are dropped (counted in /diagnostics as dropped.not_claimed) until a "
            f"controller claims them. Fix: activate a controller for them, or publish "
            f"{FOLLOW_NOTHING!r} on {CLAIMS_TOPIC} to follow every command again"
        )
    return info, warnings


def subscribe_claims(node: Any) -> Any:
    """Subscribe ``node`` to :data:`CLAIMS_TOPIC` (module doc); each message is applied under
    the hardware's lock through ``node._submit``, its lines logged (:func:`claims_messages`).
    Returns the subscription."""
    from std_msgs.msg import String

    from .qos import LATCHED_QOS

    def on_claims(msg: String) -> None:
        claims = parse_claims(msg.data)

        def apply(now: float) -> list[str]:
            info, warnings = claims_messages(node.hardware.set_claims(claims), claims)
            if info is not None:
                node.get_logger().info(info)
            return warnings

        node._submit("claimed_interfaces", apply)

    return node.create_subscription(String, CLAIMS_TOPIC, on_claims, LATCHED_QOS)
