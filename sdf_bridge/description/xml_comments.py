"""Comments that XML 1.0 forbids and tinyxml2 (libsdformat, urdfdom) reads: ``--`` inside a
comment (``<!-- a -- b -->``, a ``<!-- ---- -->`` divider) and a comment ending in ``--->``.

XML 1.0 (§2.5, production [15]) forbids ``--`` inside a comment and a comment ending in ``-``,
so libxml2 (lxml) refuses the document ("Double hyphen within comment"). tinyxml2, the parser of
libsdformat and urdfdom, ends a comment at the first ``-->`` and ignores its text, so Gazebo
loads such files (gz-sim's own example worlds hold them). :func:`repair_comments` rewrites the
hyphens of those comments as spaces, byte for byte: the document keeps its length, its line
breaks and therefore every element's line and column, and the comments (which the parser drops)
are read as tinyxml2 reads them. xacro parses with Python's expat, which refuses the same
comments as libxml2: :func:`comment_at` lets its error name the comment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A CDATA section (skipped: ``<!--`` in it is text) or a comment up to its first ``-->``, as
#: tinyxml2 ends it (``XMLComment::ParseDeep``). ASCII bytes: UTF-8 and every other
#: ASCII-compatible encoding; UTF-16/32 documents do not match and are left as they are.
_COMMENT_OR_CDATA = re.compile(rb"<!\[CDATA\[.*?\]\]>|<!--(.*?)-->", re.DOTALL)


def _malformed(body: bytes | None) -> bool:
    """Whether a match's comment text (``None``: a CDATA section) is one XML forbids."""
    return body is not None and (b"--" in body or body.endswith(b"-"))


@dataclass(frozen=True)
class MalformedComment:
    """A comment XML forbids: its first and last line (1-based) in the document."""

    first_line: int
    last_line: int


def malformed_comments(raw: bytes) -> list[MalformedComment]:
    """The comments of ``raw`` that hold ``--`` or end in ``-`` (``--->``), in document order.

    Args:
        raw: the document's bytes (an ASCII-compatible encoding; others give ``[]``).
    """
    found = []
    for match in _COMMENT_OR_CDATA.finditer(raw):
        if not _malformed(match.group(1)):
            continue
        first = raw.count(b"\n", 0, match.start()) + 1
        found.append(MalformedComment(first, first + match.group(0).count(b"\n")))
    return found


def repair_comments(raw: bytes) -> tuple[bytes, list[MalformedComment]]:
    """``raw`` with the hyphens inside each malformed comment replaced by spaces, and those
    comments; ``(raw, [])`` when there are none.

    Only the text between ``<!--`` and ``-->`` changes, one byte for one byte, so lines and
    columns of everything in the document stay as they were.
    """
    comments = malformed_comments(raw)
    if not comments:
        return raw, []

    def blank(match: re.Match[bytes]) -> bytes:
        body = match.group(1)
        return b"<!--" + body.replace(b"-", b" ") + b"-->" if _malformed(body) else match.group(0)

    return _COMMENT_OR_CDATA.sub(blank, raw), comments


def describe_lines(comments: list[MalformedComment]) -> str:
    """``"comment at line 3"``, ``"comment at lines 2-50"``, ``"comments at lines 3, 9-11 and
    40"`` for a message."""
    spans = [
        str(c.first_line) if c.first_line == c.last_line else f"{c.first_line}-{c.last_line}"
        for c in comments
    ]
    if len(spans) == 1:
        return f"comment at line{'' if spans[0].isdigit() else 's'} {spans[0]}"
    return f"comments at lines {', '.join(spans[:-1])} and {spans[-1]}"


def tolerated_warning(comments: list[MalformedComment]) -> str:
    """The warning for a document whose ``comments`` were repaired (without the file name),
    e.g. ``comment at line 12 contains '--', which XML forbids inside a comment; read as
    libsdformat and urdfdom (tinyxml2) read it: the comment is ignored``."""
    one = len(comments) == 1
    return (
        f"{describe_lines(comments)} {'contains' if one else 'contain'} '--', which XML forbids "
        f"inside a comment; read as libsdformat and urdfdom (tinyxml2) read "
        f"{'it: the comment is' if one else 'them: the comments are'} ignored"
    )


def comment_at(raw: bytes, line: int | None) -> MalformedComment | None:
    """The malformed comment of ``raw`` spanning ``line`` (e.g. where expat stopped), or
    ``None``."""
    if line is None:
        return None
    for comment in malformed_comments(raw):
        if comment.first_line <= line <= comment.last_line:
            return comment
    return None
