"""Warnings aggregated: one line per kind of warning and file, with a count and first examples.

The loaders warn per element (an unknown element, a soft limit of a joint, a malformed
comment, …), and a description may hold any number of them, one per few bytes of the file.
Logged one by one they flood the console, the log file and ``/rosout`` (doc/dev/rationale.md);
:func:`digest` turns them into one line per kind and file, and
``sdf-bridge check --verbose`` still lists every one.

A warning's *kind* is its text with the parts that name something masked: quoted names
(``'elbow'``), element renderings (``<foo>``, ``<robot name="r">``) and numbers. Its *file* and
*line* come from the ``file:line:`` prefix the loaders write (:meth:`.xmlio.ParseContext.warn`);
a warning without one (``joint 'elbow': ...``) is filed under no file. A kind seen once is
shown as it is; a kind seen several times is shown as its first warning followed by
``[N× in FILE; first: EX, EX, EX]``, each example the first masked part of the warning (the
element or joint it is about) and its line. Every step is linear in the warnings' total
length.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: The examples shown per kind (after the first warning itself).
EXAMPLES = 3
#: An example longer than this is cut (with ``…``): names in a hostile description can be long.
EXAMPLE_CHARS = 60

#: ``file:line: `` at the start of a warning (the loaders' location prefix).
_LOCATION = re.compile(r"([^\n]*?):([0-9]+): ")
#: The parts of a warning that name something: quoted text, an element, a number. Each
#: alternative stops at its closing character or a line break (no nested quantifier).
_VARIABLE = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|<[^<>\n]*>|(?<![\w.])[0-9]+(?:\.[0-9]+)?")
_MASK = {"'": "'…'", '"': '"…"', "<": "<…>"}


@dataclass(frozen=True)
class Kind:
    """The warnings of one kind in one file: the first one in full, how many there are and
    the first :data:`EXAMPLES` examples (after the first warning)."""

    file: str
    pattern: str
    first: str
    count: int
    examples: tuple[str, ...]

    def line(self) -> str:
        """The digest line: the first warning, and ``[N× in FILE; first: ...]`` after it when
        there are several."""
        if self.count == 1:
            return self.first
        where = f" in {self.file}" if self.file else ""
        more = self.count - 1 - len(self.examples)
        shown = ", ".join([*self.examples, "…"] if more > 0 else self.examples)
        return f"{self.first} [{self.count}× this kind{where}; next: {shown}]"


def _mask(match: re.Match[str]) -> str:
    return _MASK.get(match.group(0)[0], "N")


def _cut(text: str) -> str:
    return text if len(text) <= EXAMPLE_CHARS else text[: EXAMPLE_CHARS - 1] + "…"


def classify(warning: str) -> tuple[str, str, str]:
    """``(file, kind, example)`` of one warning: the file of its ``file:line:`` prefix (``""``
    without one), its text with names masked (see the module), and what it is about (its first
    masked part, and ``line L`` when located)."""
    location = _LOCATION.match(warning)
    if location is not None:
        file, line, message = location.group(1), location.group(2), warning[location.end() :]
    else:
        file, line, message = "", None, warning
    found = _VARIABLE.search(message)
    kind = _VARIABLE.sub(_mask, message)
    subject = _cut(found.group(0)) if found is not None else ""
    where = f"line {line}" if line is not None else ""
    example = f"{subject} ({where})" if subject and where else subject or where or _cut(message)
    return file, kind, example


def kinds(warnings: Iterable[str], *, examples: int = EXAMPLES) -> list[Kind]:
    """The warnings grouped by file and kind, in the order each kind first appears, every
    count exact."""
    groups: dict[tuple[str, str], list] = {}
    for warning in warnings:
        file, kind, example = classify(warning)
        group = groups.get((file, kind))
        if group is None:
            groups[(file, kind)] = [warning, 1, []]
            continue
        group[1] += 1
        if len(group[2]) < examples:
            group[2].append(example)
    return [
        Kind(file, kind, first, count, tuple(shown))
        for (file, kind), (first, count, shown) in groups.items()
    ]


def digest(warnings: Iterable[str], *, examples: int = EXAMPLES) -> list[str]:
    """One line per kind of warning and file (:meth:`Kind.line`), in the order each kind first
    appears; ``warnings`` themselves when no kind repeats."""
    return [kind.line() for kind in kinds(warnings, examples=examples)]
