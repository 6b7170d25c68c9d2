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

_BOM = b"\xef\xbb\xbf"
_BLANK = frozenset(b" \t\r\n")
_COMMENT_START, _COMMENT_END = b"<!--", b"-->"
_CDATA_START, _CDATA_END = b"<![CDATA[", b"]]>"

#: The ``kind`` of a :class:`Repair` of a comment before the root element's start that XML forbids.
COMMENT = "comment"
#: The ``kind`` of a :class:`Repair` of an XML declaration that is not at the very start.
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


@dataclass(frozen=True)
class _Span:
    """Where a :class:`Repair` is, in bytes: ``raw[start:end]`` (a whole comment, or the
    declaration)."""

    kind: str
    start: int
    end: int
    after: str = ""


# Every scan below is a loop of bytes.find calls that only move forward (no regular
# expression: a pattern such as ``(?:[ \t\r\n]|<!--.*?-->)+`` backtracks exponentially over
# leading comments when no declaration follows them), so the work is linear in the document.


def _late_declaration(raw: bytes) -> _Span | None:
    """The XML declaration after blank space or comments at the start of ``raw`` (after a
    UTF-8 byte order mark, if any), or ``None``: none there, or one at the very start (which
    XML allows). A comment ends at its first ``-->``, as tinyxml2 ends it."""
    pos = start = len(_BOM) if raw.startswith(_BOM) else 0
    comments = False
    size = len(raw)
    while pos < size:
        if raw[pos] in _BLANK:
            pos += 1
        elif raw.startswith(_COMMENT_START, pos):
            end = raw.find(_COMMENT_END, pos + len(_COMMENT_START))
            if end < 0:
                return None  # an unterminated comment: no declaration follows
            pos = end + len(_COMMENT_END)
            comments = True
        else:
            break
    if pos == start or not raw.startswith(b"<?xml", pos) or pos + 5 >= size:
        return None
    if raw[pos + 5] not in _BLANK:
        return None  # ``<?xml-model ...?>`` and the like: another processing instruction
    end = raw.find(b"?>", pos + 6)
    if end < 0:
        return None
    return _Span(DECLARATION, pos, end + 2, "comments" if comments else "blank space")


def _malformed_comments(raw: bytes) -> list[_Span]:
    """The comments of ``raw`` that XML forbids (holding ``--`` or ending in ``-``), in order.

    A comment ends at its first ``-->`` (tinyxml2's ``XMLComment::ParseDeep``); ``<!--`` in a
    CDATA section is text. Scanning stops at an unterminated comment or CDATA section (the
    rest of the document is inside it)."""
    found = []
    pos = 0
    comment = raw.find(_COMMENT_START)
    cdata = raw.find(_CDATA_START)
    while comment >= 0 or cdata >= 0:
        if cdata >= 0 and (comment < 0 or cdata < comment):
            end = raw.find(_CDATA_END, cdata + len(_CDATA_START))
            if end < 0:
                break
            pos = end + len(_CDATA_END)
        else:
            body = comment + len(_COMMENT_START)
            end = raw.find(_COMMENT_END, body)
            if end < 0:
                break
            pos = end + len(_COMMENT_END)
            if raw.find(b"--", body, end) >= 0 or (end > body and raw[end - 1] == ord("-")):
                found.append(_Span(COMMENT, comment, pos))
        # each find starts where the last match ended, and is redone only when its last
        # result lies behind: every byte is scanned a bounded number of times
        if 0 <= comment < pos:
            comment = raw.find(_COMMENT_START, pos)
        if 0 <= cdata < pos:
            cdata = raw.find(_CDATA_START, pos)
    return found


def _spans(raw: bytes) -> list[_Span]:
    """The parts of ``raw`` that :func:`repair` rewrites, in document order (a late
    declaration may follow malformed comments)."""
    declaration = _late_declaration(raw)
    spans = _malformed_comments(raw)
    if declaration is not None:
        spans.append(declaration)
        spans.sort(key=lambda span: span.start)
    return spans


def _repairs(raw: bytes, spans: list[_Span]) -> list[Repair]:
    """The :class:`Repair` of each of ``spans`` (in document order), lines counted once over
    the document: the declaration's first, then the comments' in document order."""
    found = []
    line, counted = 1, 0
    for span in spans:
        line += raw.count(b"\n", counted, span.start)
        counted = span.start
        found.append(
            Repair(span.kind, line, line + raw.count(b"\n", span.start, span.end), span.after)
        )
    return sorted(found, key=lambda repair: repair.kind != DECLARATION)  # stable


def find(raw: bytes) -> list[Repair]:
    """The parts of ``raw`` that :func:`repair` rewrites: a late declaration first, then the
    malformed comments in document order. Linear in ``len(raw)``.

    Args:
        raw: the document's bytes.
    """
    return _repairs(raw, _spans(raw))


def _blank(part: bytes) -> bytes:
    """``part`` as spaces, its line breaks kept."""
    return re.sub(rb"[^\n]", b" ", part)


def repair(raw: bytes) -> tuple[bytes, list[Repair]]:
    """``raw`` with each malformed comment's hyphens and a late declaration replaced by spaces,
    and what was repaired; ``(raw, [])`` when nothing is. Linear in ``len(raw)``.

    Only those bytes change, one for one, so lines and columns of everything in the document
    stay as they were.
    """
    spans = _spans(raw)
    if not spans:
        return raw, []
    pieces = []
    done = 0
    for span in spans:
        pieces.append(raw[done : span.start])
        part = raw[span.start : span.end]
        if span.kind == DECLARATION:
            pieces.append(_blank(part))
        else:
            body = part[len(_COMMENT_START) : -len(_COMMENT_END)]
            pieces.append(_COMMENT_START + body.replace(b"-", b" ") + _COMMENT_END)
        done = span.end
    pieces.append(raw[done:])
    return b"".join(pieces), _repairs(raw, spans)


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
