"""Bounded text of values a peer chose (joint names in a command, a claims string): what the
bridge logs of them is bounded, so a hostile message cannot write megabytes into a log line.
"""

from __future__ import annotations

from collections.abc import Sequence

NAME_CHARS = 80
"""Characters of one name shown; a longer one ends in ``…(+N)``."""

LIST_ITEMS = 10
"""Names of a list shown; more end the list in ``… +N more``."""


def clip(text: str, limit: int = NAME_CHARS) -> str:
    """``text``, or its first ``limit`` characters and ``…(+N)`` (N characters left out)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…(+{len(text) - limit})"


def clipped_list(items: Sequence[str], limit: int = LIST_ITEMS) -> str:
    """A list repr of ``items``: at most ``limit`` of them, each :func:`clip`\\ ped, then
    ``… +N more``: ``['a', 'b', … +3 more]``."""
    shown = ", ".join(repr(clip(item)) for item in items[:limit])
    more = len(items) - limit
    return f"[{shown}{', … +' + str(more) + ' more' if more > 0 else ''}]"
