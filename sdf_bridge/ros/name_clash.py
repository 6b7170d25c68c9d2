"""Another node with the bridge's fully qualified name in the ROS domain (a second bridge left
running, e.g. an ``sdf-bridge run`` in another terminal).

ROS 2 does not refuse two nodes of one name: both then publish ``joint_states`` and
``robot_description``, both serve ``~/set_parameters`` and the command topics, and a peer cannot
tell which one answers (a ``control`` beside such a bridge read the other one's description).
:func:`watch` warns about it once, :data:`GRACE` s (steady time) after the bridge is
configured, when discovery has found the other one.
"""

from __future__ import annotations

from typing import Any

from .one_shot import after

GRACE = 3.0
"""s (steady) after the start at which the graph is looked at: discovery on one host."""


def twin_message(name: str, count: int) -> str:
    """The warning for ``count`` nodes named ``name`` (fully qualified) in the domain."""
    return (
        f"{count} nodes named {name!r} run in this ROS domain: their topics, services and "
        "parameters mix (joint_states and robot_description from both, commands and "
        "~/set_parameters to either). Fix: stop the other one, or give this one another "
        "name or namespace (-r __node:=NAME, -r __ns:=/NS) or ROS_DOMAIN_ID."
    )


def graph_names(node: Any) -> list[str]:
    """The fully qualified name of every node of the ROS graph ``node`` sees, one entry per
    node (a name twice: two nodes of that name)."""
    return [f"{ns.rstrip('/')}/{n}" for n, ns in node.get_node_names_and_namespaces()]


def watch(node: Any, grace: float = GRACE) -> None:
    """Check once, ``grace`` s from now (a one-shot steady timer on ``node``), whether another
    node has ``node``'s fully qualified name, and log :func:`twin_message` as a warning if so."""

    def check() -> None:
        name = node.get_fully_qualified_name()
        count = graph_names(node).count(name)
        if count > 1:
            node.get_logger().warning(twin_message(name, count))

    after(node, grace, check)
