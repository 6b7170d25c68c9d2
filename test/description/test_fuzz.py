"""Fuzz test: mutated shared robot files either load or raise DescriptionError — never another
exception, never a hang.

Mutations (hypothesis): byte flips, deleted lines, duplicated lines, swapped or replaced attribute
values, and replaced element texts (where SDFormat keeps its values).
The number of inputs tried is printed when the module ends (``pytest -s``). Inputs come from
the flattened URDF and SDFormat files of the shared corpus (xacro sources are not fuzzed: xacro
evaluates Python expressions by design).
"""

from __future__ import annotations

import os
import re
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prerequisites import SHARED, shared_skip_mark

from sdf_bridge.description import load
from sdf_bridge.errors import DescriptionError

#: Hypothesis' bound on one example, far above a normal one: an input that makes the
#: loader run away fails the test; setup.cfg's pytest timeout bounds a hang.
DEADLINE = timedelta(seconds=10)

ROBOTS_DIR = SHARED / "robots"
pytestmark = shared_skip_mark()
FILES = (
    sorted(p for p in ROBOTS_DIR.glob("*/*") if p.suffix in (".urdf", ".sdf"))
    if ROBOTS_DIR.is_dir()
    else []
)
DOCS = {p.name: p.read_bytes() for p in FILES}
NAMES = sorted(DOCS)
_ATTR = re.compile(rb'="([^"]*)"')
MAX_EXAMPLES = int(os.environ.get("SDF_BRIDGE_FUZZ_EXAMPLES", "400"))
TRIED: dict[str, int] = {}

FUZZ = settings(
    max_examples=MAX_EXAMPLES,
    deadline=DEADLINE,
    derandomize=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _try(kind: str, name: str, data: bytes) -> None:
    """Load ``data`` (as if it were the file ``name``, so relative paths behave)."""
    TRIED[kind] = TRIED.get(kind, 0) + 1
    try:
        load(data)
    except DescriptionError:
        pass  # a typed, located error is a correct answer to a broken file


@pytest.fixture(scope="module", autouse=True)
def _report_count():
    """After the module: print how many inputs were tried (a report, not a check)."""
    yield
    total = sum(TRIED.values())
    print(
        f"\nfuzz: {total} mutated inputs tried ({', '.join(f'{k}: {v}' for k, v in TRIED.items())})"
    )


def test_corpus_present() -> None:
    assert len(NAMES) >= 9


@FUZZ
@given(st.sampled_from(NAMES), st.data())
def test_byte_flips(name: str, data: st.DataObject) -> None:
    doc = bytearray(DOCS[name])
    for _ in range(data.draw(st.integers(1, 8), label="flips")):
        pos = data.draw(st.integers(0, len(doc) - 1), label="pos")
        doc[pos] = data.draw(st.integers(0, 255), label="byte")
    _try("byte flips", name, bytes(doc))


@FUZZ
@given(st.sampled_from(NAMES), st.data())
def test_deleted_and_duplicated_lines(name: str, data: st.DataObject) -> None:
    lines = DOCS[name].split(b"\n")
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        i = data.draw(st.integers(0, len(lines) - 1), label="line")
        if data.draw(st.booleans(), label="delete"):
            del lines[i]
        else:
            lines.insert(i, lines[i])
        if not lines:
            lines = [b""]
    _try("line edits", name, b"\n".join(lines))


SWAPPABLE = [n for n in NAMES if len(_ATTR.findall(DOCS[n])) >= 2]


@FUZZ
@given(st.sampled_from(SWAPPABLE), st.data())
def test_swapped_attribute_values(name: str, data: st.DataObject) -> None:
    doc = DOCS[name]
    spans = [m.span(1) for m in _ATTR.finditer(doc)]
    (a0, a1), (b0, b1) = sorted(
        data.draw(
            st.lists(st.sampled_from(spans), min_size=2, max_size=2, unique=True), label="pair"
        )
    )
    swapped = doc[:a0] + doc[b0:b1] + doc[a1:b0] + doc[a0:a1] + doc[b1:]
    _try("attribute swaps", name, swapped)


@FUZZ
@given(
    st.sampled_from(NAMES),
    st.data(),
    st.sampled_from(
        [b"", b"-1", b"0", b"nan", b"inf", b"1e400", b"abc", b"0 0 0", b"1 2", b"true", b"::"]
    ),
)
def test_replaced_attribute_values(name: str, data: st.DataObject, value: bytes) -> None:
    doc = DOCS[name]
    spans = [m.span(1) for m in _ATTR.finditer(doc)]
    start, end = data.draw(st.sampled_from(spans), label="attribute")
    _try("attribute values", name, doc[:start] + value + doc[end:])


_TEXT = re.compile(rb">([^<>\s][^<>]*)<")
WITH_TEXT = [n for n in NAMES if _TEXT.search(DOCS[n])]


@FUZZ
@given(
    st.sampled_from(WITH_TEXT),
    st.data(),
    st.sampled_from(
        [
            b"",
            b"-1",
            b"0",
            b"nan",
            b"-inf",
            b"1e400",
            b"abc",
            b"0 0 0",
            b"1 2 3 4 5 6 7",
            b"::",
            b"__model__",
        ]
    ),
)
def test_replaced_element_text(name: str, data: st.DataObject, value: bytes) -> None:
    # SDFormat keeps its values in element text (<pose>, <xyz>, <mass>, <parent>, ...)
    doc = DOCS[name]
    spans = [m.span(1) for m in _TEXT.finditer(doc)]
    start, end = data.draw(st.sampled_from(spans), label="text")
    _try("element texts", name, doc[:start] + value + doc[end:])
