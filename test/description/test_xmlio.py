"""Tests of sdf_bridge.description.xmlio: misspelt-tag detection
(``ParseContext.unknown_element``; the similarity rule is in test_similarity.py). XML safety is
in test_xml_safety.py."""

from __future__ import annotations

import pytest

from sdf_bridge.description.xmlio import ParseContext, parse_xml

TRANSMISSION_TAGS = {"hardwareInterface", "role", "mechanicalReduction", "mechanical_reduction"}
from sdf_bridge.errors import InvalidValueError, XmlSyntaxError


def test_unknown_element_misspelling_is_an_error_naming_file_line_and_suggestion() -> None:
    root = parse_xml(
        '<actuator name="m1">\n  <mechanicalReducton>10</mechanicalReducton>\n</actuator>', "r.urdf"
    )
    ctx = ParseContext("r.urdf")
    with pytest.raises(
        InvalidValueError,
        match=r"^r\.urdf:2: <mechanicalReducton>: unknown element <mechanicalReducton> in "
        r"<actuator name=\"m1\"> of transmission 't'; did you mean <mechanicalReduction>\? "
        r"Fix: rename <mechanicalReducton> to <mechanicalReduction>$",
    ):
        ctx.unknown_element(root[0], root, TRANSMISSION_TAGS, where=" of transmission 't'")
    assert ctx.warnings == []


def test_unknown_element_other_tag_warns_or_stays_silent() -> None:
    root = parse_xml('<joint name="j">\n<wobble/></joint>', "r.urdf")
    ctx = ParseContext("r.urdf")
    ctx.unknown_element(root[0], root, {"axis"})
    assert ctx.warnings == [
        'r.urdf:2: <wobble>: unknown element <wobble> in <joint name="j"> ignored'
    ]
    ctx.unknown_element(root[0], root, {"axis"}, warning=None)
    assert len(ctx.warnings) == 1


def test_names_breaking_xml_namespaces_are_read_as_tinyxml2_reads_them() -> None:
    """Gazebo's worlds use ``<gz:policies>`` without declaring ``gz`` and ``<gz::system_priority>``
    (XML 1.0 names; libsdformat's tinyxml2 reads them as plain names)."""
    warnings: list[str] = []
    root = parse_xml(
        '<sdf version="1.9">\n<world name="w"><gz:policies><x>1</x></gz:policies>\n'
        '<plugin name="p"><gz::system_priority>10</gz::system_priority></plugin></world></sdf>',
        "w.sdf",
        warnings,
    )
    assert [e.tag for e in root.iter()] == [
        "sdf",
        "world",
        "gz:policies",
        "x",
        "plugin",
        "gz::system_priority",
    ]
    assert [c.text for c in root.find("world/plugin")] == ["10"]
    assert warnings == [
        "w.sdf: 2 XML name(s) break the XML Namespaces rules (first: line 2: Namespace prefix gz "
        "on policies is not defined); read as plain names, as libsdformat and urdfdom "
        "(tinyxml2) read them"
    ]


def test_namespace_names_do_not_hide_other_syntax_errors() -> None:
    with pytest.raises(
        XmlSyntaxError,
        match=r"^w\.sdf:1: not well-formed XML \(column \d+\): .*Fix: correct the XML "
        r"syntax at that line$",
    ):
        parse_xml("<sdf><gz:policies></sdf>", "w.sdf", [])


@pytest.mark.timeout(5)
def test_the_position_suffix_is_found_in_the_tail_of_a_message() -> None:
    """lxml's ``, line L, column C`` is split off; a message quoting a long blank run is
    searched in its tail only (the pattern's leading blank run rescanned it: quadratic)."""
    from sdf_bridge.description.xmlio import _split_position

    assert _split_position("Opening and ending tag mismatch: a line 1 and b, line 3, column 7") == (
        "Opening and ending tag mismatch: a line 1 and b",
        7,
    )
    blank = "x" + " " * 1_000_000 + "y"
    assert _split_position(blank) == (blank, None)
    assert _split_position("x" + " " * 1_000_000 + "line 2, column 9") == ("x", 9)
