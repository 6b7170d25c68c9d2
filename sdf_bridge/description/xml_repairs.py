"""What XML 1.0 forbids and tinyxml2 (libsdformat, urdfdom) reads, repaired byte for byte.

libsdformat and urdfdom parse with tinyxml2, which accepts two malformations found in real
descriptions (gz-sim's own example and test worlds) that libxml2 (lxml) refuses:

* a comment holding ``--`` (``<!-- a -- b -->``, a ``<!-- ---- -->`` divider) or ending in
  ``--->``: XML 1.0 §2.5 (production [15]) forbids both ("Double hyphen within comment");
  tinyxml2 ends a comment at its first ``-->`` and ignores its text;
* the XML declaration after blank space or comments (a leading blank line, or a licence comment
  before ``<?xml``, as nav2's ``turtlebot3_waffle_gps.urdf`` has): XML 1.0 §2.8 allows it only
  at the very start ("XML declaration allowed only at the start of the
  document"); tinyxml2 reads it wherever it is and uses none of it (it reads every document as
  UTF-8).

:func:`repair` blanks the comment's hyphens, or the declaration, with spaces, one byte for one
byte: the document keeps its length and its line breaks, so every element keeps its line and
column, and the parser (which drops comments) reads what tinyxml2 reads. xacro parses with
Python's expat, which refuses both as libxml2 does: :func:`repair_at` lets its error name them.
Bytes are matched as ASCII: UTF-8 and the other ASCII-compatible encodings; a UTF-16/32
document does not match and is left as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A CDATA section (skipped: ``<!--`` in it is text) or a comment up to its first ``-->``, as
#: tinyxml2 ends it (``XMLComment::ParseDeep``).
_COMMENT_OR_CDATA = re.compile(rb"<!\[CDATA\[.*?\]\]>|<!--(.*?)-->", re.DOTALL)
#: An XML declaration after blank space or comments at the start (after a UTF-8 byte order
#: mark, if any): group 1 what comes before it, group 2 the declaration.
_LATE_DECLARATION = re.compile(
    rb"\A(?:\xef\xbb\xbf)?((?:[ \t\r\n]|<!--.*?-->)+)(<\?xml[ \t\r\n].*?\?>)", re.DOTALL
)

COMMENT = "comment"
DECLARATION = "declaration"


@dataclass(frozen=True)
class Repair:
    """A part of the document XML forbids and tinyxml2 reads: its kind (:data:`COMMENT` or
    :data:`DECLARATION`), its first and last line (1-based) and, for a declaration, what comes
    before it (``"blank space"`` or ``"comments"``)."""

    kind: str
    first_line: int
    last_line: int
    after: str = ""


def _malformed(body: bytes | None) -> bool:
    """Whether a match's comment text (``None``: a CDATA section) is one XML forbids."""
    return body is not None and (b"--" in body or body.endswith(b"-"))


def _repair(raw: bytes, kind: str, start: int, end: int, after: str = "") -> Repair:
    """The :class:`Repair` of ``kind`` for the bytes ``raw[start:end]``."""
    first = raw.count(b"\n", 0, start) + 1
    return Repair(kind, first, first + raw.count(b"\n", start, end), after)


def _before_declaration(match: re.Match[bytes]) -> str:
    """What comes before a late declaration (:data:`_LATE_DECLARATION`'s match)."""
    return "comments" if b"<!--" in match.group(1) else "blank space"


def find(raw: bytes) -> list[Repair]:
    """The parts of ``raw`` that :func:`repair` rewrites, in document order.

    Args:
        raw: the document's bytes.
    """
    found = []
    declaration = _LATE_DECLARATION.match(raw)
    if declaration is not None:
        after = _before_declaration(declaration)
        found.append(_repair(raw, DECLARATION, *declaration.span(2), after))
    found.extend(
        _repair(raw, COMMENT, *match.span())
        for match in _COMMENT_OR_CDATA.finditer(raw)
        if _malformed(match.group(1))
    )
    return found


def _blank(part: bytes) -> bytes:
    """``part`` as spaces, its line breaks kept."""
    return re.sub(rb"[^\n]", b" ", part)


def repair(raw: bytes) -> tuple[bytes, list[Repair]]:
    """``raw`` with each malformed comment's hyphens and a late declaration replaced by spaces,
    and what was repaired; ``(raw, [])`` when nothing is.

    Only those bytes change, one for one, so lines and columns of everything in the document
    stay as they were.
    """
    repairs = find(raw)
    if not repairs:
        return raw, []
    declaration = _LATE_DECLARATION.match(raw)
    if declaration is not None:
        start, end = declaration.span(2)
        raw = raw[:start] + _blank(raw[start:end]) + raw[end:]

    def comment(match: re.Match[bytes]) -> bytes:
        body = match.group(1)
        return b"<!--" + body.replace(b"-", b" ") + b"-->" if _malformed(body) else match.group(0)

    return _COMMENT_OR_CDATA.sub(comment, raw), repairs


def describe_lines(repairs: list[Repair]) -> str:
    """Where ``repairs`` are: ``"line 3"``, ``"lines 2-50"``, ``"lines 3, 9-11 and 40"``."""
    spans = [
        str(r.first_line) if r.first_line == r.last_line else f"{r.first_line}-{r.last_line}"
        for r in repairs
    ]
    if len(spans) == 1:
        return f"line{'' if spans[0].isdigit() else 's'} {spans[0]}"
    return f"lines {', '.join(spans[:-1])} and {spans[-1]}"


def warnings(repairs: list[Repair]) -> list[str]:
    """One warning per kind of the ``repairs`` of a document (without the file name), e.g.
    ``comment at line 12 contains '--', which XML forbids inside a comment; read as
    libsdformat and urdfdom (tinyxml2) read it: the comment is ignored``."""
    found = []
    declarations = [r for r in repairs if r.kind == DECLARATION]
    if declarations:
        found.append(
            f"the XML declaration (<?xml ...?>) at {describe_lines(declarations)} comes after "
            f"{declarations[0].after}, which XML forbids; read as libsdformat and urdfdom "
            "(tinyxml2) read it: the declaration is ignored (the document read as UTF-8)"
        )
    comments = [r for r in repairs if r.kind == COMMENT]
    if comments:
        one = len(comments) == 1
        found.append(
            f"{'comment' if one else 'comments'} at {describe_lines(comments)} "
            f"{'contains' if one else 'contain'} '--', which XML forbids inside a comment; read "
            "as libsdformat and urdfdom (tinyxml2) read "
            f"{'it: the comment is' if one else 'them: the comments are'} ignored"
        )
    return found


def repair_at(raw: bytes, line: int | None) -> Repair | None:
    """The part of ``raw`` :func:`repair` rewrites that spans ``line`` (e.g. where expat
    stopped), or ``None``."""
    if line is None:
        return None
    for found in find(raw):
        if found.first_line <= line <= found.last_line:
            return found
    return None
