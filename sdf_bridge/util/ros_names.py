"""The syntax of a ROS topic name (one rule for every layer that checks one).

A name is tokens of letters, digits and ``_`` (not starting with a digit) separated by ``/``,
relative or absolute (a leading ``/``), optionally private (a leading ``~/``); the rules of
https://design.ros2.org/articles/topic_and_service_names.html without substitutions (``{node}``),
which the callers expand first. This package imports nothing of rclpy here: the description
and hardware layers check names with it too.
"""

from __future__ import annotations

import re

_NAME = r"[A-Za-z_][A-Za-z0-9_]*(/[A-Za-z_][A-Za-z0-9_]*)*$"
_PLAIN = re.compile(r"^/?" + _NAME)
_PRIVATE = re.compile(r"^(~/|/)?" + _NAME)


def is_topic_name(name: str, *, private: bool = False) -> bool:
    """Whether ``name`` is a valid relative or absolute ROS topic name (``private``: a
    ``~/`` private name is valid too)."""
    return (_PRIVATE if private else _PLAIN).match(name) is not None
