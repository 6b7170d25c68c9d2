"""Mutants of real descriptions for the differential tests against the reference parsers
(urdfdom's ``check_urdf``/``urdf_to_graphviz``, libsdformat): delete, duplicate or rename an
element, delete an attribute or give it another value. Deterministic: mutant ``i`` of a
document is the same on every run (``random.Random(i)``).

(A plain module, not a conftest, so test modules can import it.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree

#: Values an attribute or element text is re-typed to.
VALUES = (
    "",
    "0",
    "-1",
    "abc",
    "0 0 0",
    "1 2",
    "1e400",
    "nan",
    "1.5708",
    "fixed",
    "continuous",
    "revolute",
)


@dataclass(frozen=True)
class Mutant:
    """One mutation of a document: ``what`` says what was done (for failure messages),
    ``xml`` is the mutated document."""

    what: str
    xml: bytes


def _where(elem: etree._Element) -> str:
    name = elem.get("name")
    return f"<{elem.tag}{f' name={name!r}' if name else ''}> (line {elem.sourceline})"


def _elements(root: etree._Element) -> list[etree._Element]:
    return [e for e in root.iter() if isinstance(e.tag, str) and e is not root]


def _delete_element(rng: random.Random, root: etree._Element) -> str:
    elem = rng.choice(_elements(root))
    where = _where(elem)
    elem.getparent().remove(elem)
    return f"deleted {where}"


def _duplicate_element(rng: random.Random, root: etree._Element) -> str:
    elem = rng.choice(_elements(root))
    elem.addnext(etree.fromstring(etree.tostring(elem)))
    return f"duplicated {_where(elem)}"


def _rename_element(rng: random.Random, root: etree._Element) -> str:
    elem = rng.choice(_elements(root))
    where = _where(elem)
    elem.tag = f"renamed_by_mutant_{elem.tag}"
    return f"renamed {where}"


def _delete_attribute(rng: random.Random, root: etree._Element) -> str:
    elem = rng.choice([e for e in _elements(root) if e.attrib] or [root])
    if not elem.attrib:
        return "nothing"
    attr = rng.choice(sorted(elem.attrib))
    del elem.attrib[attr]
    return f"deleted attribute {attr!r} of {_where(elem)}"


def _retype_value(rng: random.Random, root: etree._Element) -> str:
    value = rng.choice(VALUES)
    with_attrs = [e for e in _elements(root) if e.attrib]
    texts = [e for e in _elements(root) if len(e) == 0 and (e.text or "").strip()]
    if with_attrs and (not texts or rng.random() < 0.5):
        elem = rng.choice(with_attrs)
        attr = rng.choice(sorted(elem.attrib))
        elem.set(attr, value)
        return f"set attribute {attr!r} of {_where(elem)} to {value!r}"
    if not texts:
        return "nothing"
    elem = rng.choice(texts)
    elem.text = value
    return f"set the text of {_where(elem)} to {value!r}"


OPERATORS: tuple[Callable[[random.Random, etree._Element], str], ...] = (
    _delete_element,
    _duplicate_element,
    _rename_element,
    _delete_attribute,
    _retype_value,
)


def mutant(document: bytes, index: int) -> Mutant:
    """Mutant ``index`` of ``document`` (one operator of :data:`OPERATORS`, chosen with
    ``random.Random(index)``)."""
    rng = random.Random(index)
    root = etree.fromstring(document)
    operator = OPERATORS[index % len(OPERATORS)]
    what = operator(rng, root)
    return Mutant(what, etree.tostring(root, xml_declaration=True, encoding="utf-8"))
