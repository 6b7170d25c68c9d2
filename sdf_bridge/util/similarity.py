"""String similarity: which known name an unknown one is most likely a misspelling of.

One rule for every layer that suggests a fix for a misspelt name (XML tags, node parameters,
backend parameters, transmission types): :func:`close_match` and :func:`one_edit`.
"""

from __future__ import annotations

import difflib
import functools
import threading
from collections.abc import Collection

#: Similarity (difflib ratio of the lower-cased names) from which an unknown tag is taken as a
#: misspelling of a known one.
CLOSE_MATCH_RATIO = 0.8


def one_edit(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by one insertion, deletion, substitution or
    transposition of adjacent characters (optimal string alignment distance 1)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def close_match(tag: str, known: Collection[str]) -> str | None:
    """The tag of ``known`` that ``tag`` is most likely a misspelling of, or ``None``.

    A match is: the same name in another letter case, a :mod:`difflib` similarity of the
    lower-cased names ≥ :data:`CLOSE_MATCH_RATIO`, or (names of 4 characters or more) one
    edit away (``axsi`` → ``axis``). ``tag`` itself being in ``known`` is not a misspelling;
    namespaced tags (``{uri}name``) never match.
    """
    if tag in known or tag.startswith("{"):
        return None
    return _close_match(tag, known if isinstance(known, frozenset) else frozenset(known))


_MATCHERS = threading.local()


def _matcher(known: str) -> difflib.SequenceMatcher:
    """A :class:`difflib.SequenceMatcher` whose second sequence is ``known`` (its index built
    once per thread and known tag; the first sequence is set by the caller)."""
    cache = getattr(_MATCHERS, "cache", None)
    if cache is None:
        cache = _MATCHERS.cache = {}
    matcher = cache.get(known)
    if matcher is None:
        matcher = cache[known] = difflib.SequenceMatcher(None, "", known)
    return matcher


@functools.lru_cache(maxsize=4096)
def _close_match(tag: str, known: frozenset[str]) -> str | None:
    """:func:`close_match`, memoised: real files repeat the same unknown tags (PR2 has hundreds
    of ``<gazebo>`` blocks), and difflib is the costly part of loading them."""
    low = tag.lower()
    best: tuple[float, str] | None = None
    for name in sorted(known):
        other = name.lower()
        if other == low:
            return name
        # the ratio cannot exceed 2·min(len)/(len sum), nor quick_ratio (shared characters):
        # skip difflib's full ratio when those bounds are too low (unless one edit away, where
        # the ratio ranks the candidates). Many distinct unknown tags (one per few bytes of a
        # file) each compare with every known one: the bounds make that cheap.
        # (figures: doc/dev/rationale.md)
        bound = 2.0 * min(len(low), len(other)) / (len(low) + len(other))
        edit = min(len(low), len(other)) >= 4 and one_edit(low, other)
        score = 0.0
        if bound >= CLOSE_MATCH_RATIO:
            matcher = _matcher(other)
            matcher.set_seq1(low)
            if edit or matcher.quick_ratio() >= CLOSE_MATCH_RATIO:
                score = matcher.ratio()
        if score < CLOSE_MATCH_RATIO and not edit:
            continue
        if best is None or score > best[0]:
            best = (score, name)
    return None if best is None else best[1]
