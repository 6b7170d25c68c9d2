"""The one boolean vocabulary of sdf_bridge: launch's.

``true`` / ``false`` / ``1`` / ``0``, in any letter case, spaces around ignored — what
``launch.conditions.IfCondition`` accepts, and what SDFormat accepts for its booleans. Every
boolean the package reads (parameters, backend parameters, ``<ros2_control>`` and SDFormat
texts, launch arguments, environment variables) goes through :func:`parse_bool`; each caller
raises its own typed error (naming the file and element, or the parameter) for text that is
not a boolean.
"""

from __future__ import annotations

#: The words read as true (any case, surrounding blanks ignored).
TRUE_WORDS = ("true", "1")
#: The words read as false (any case, surrounding blanks ignored).
FALSE_WORDS = ("false", "0")
WORDS = "true, false, 1 or 0"
"""The vocabulary, for error messages."""


def parse_bool(value: object) -> bool | None:
    """``value`` as a boolean: a ``bool`` as it is, a string of :data:`TRUE_WORDS` or
    :data:`FALSE_WORDS` (any case, stripped); ``None`` for anything else (including the
    integers 1 and 0: a number is not a boolean parameter)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    return None
