"""sdf_bridge.util.clip: peer-chosen text in a log line is bounded."""

from __future__ import annotations

from sdf_bridge.util.clip import LIST_ITEMS, NAME_CHARS, clip, clipped_list


def test_clip_keeps_short_text_and_cuts_long_text_saying_how_much() -> None:
    assert clip("elbow") == "elbow"
    assert clip("x" * NAME_CHARS) == "x" * NAME_CHARS
    assert clip("x" * 1_000_000) == "x" * NAME_CHARS + f"…(+{1_000_000 - NAME_CHARS})"
    assert clip("abcdef", 3) == "abc…(+3)"


def test_clipped_list_shows_at_most_ten_names_each_clipped() -> None:
    assert clipped_list([]) == "[]"
    assert clipped_list(["a", "b"]) == "['a', 'b']"
    names = [f"j{k}" for k in range(LIST_ITEMS + 3)]
    assert clipped_list(names) == "[" + ", ".join(repr(n) for n in names[:10]) + ", … +3 more]"
    huge = clipped_list(["y" * 5_000_000] * 100_000)
    assert len(huge) < 1500 and huge.endswith(", … +99990 more]")
