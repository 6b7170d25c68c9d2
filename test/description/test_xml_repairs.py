"""Tests of sdf_bridge.description.xml_repairs and its use by the loader: comments holding
``--`` or ending in ``--->`` and an XML declaration after blank space (which XML forbids,
tinyxml2 reads) are read as libsdformat and urdfdom read them, with one warning per kind and
file, every element on its own line; other syntax errors stay errors. libsdformat's reading of
the same files: test_libsdformat_reference.py."""

from __future__ import annotations

import re
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from prerequisites import require_tool

from sdf_bridge import cli
from sdf_bridge.description import load_with_warnings
from sdf_bridge.description.xml_repairs import COMMENT, DECLARATION, Repair, find, repair
from sdf_bridge.description.xmlio import parse_xml
from sdf_bridge.errors import XacroError, XmlSyntaxError

#: A URDF whose line 2 is ``comment``, then link ``a``, joint ``j`` and link ``b`` a line each.
URDF = (
    '<robot name="r">\n{comment}\n<link name="a"/>\n'
    '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>\n'
    '<link name="b"/>\n</robot>\n'
)
ONE_WARNING = (
    "r.urdf: comment at line{s} {lines} contains '--', which XML forbids inside a comment; "
    "read as libsdformat and urdfdom (tinyxml2) read it: the comment is ignored"
)


@pytest.mark.parametrize(
    "comment, lines",
    [
        ("<!-- a -- b -->", "2"),  # gz-sim's worlds: "--" in running text
        ("<!-- a --->", "2"),  # a comment ending in "-"
        ("<!-- ---- divider ---- -->", "2"),
        ("<!-- usage:\n  gz sim --verbose 4 w.sdf\n-->", "2-4"),  # a command line in a comment
    ],
)
def test_malformed_comment_is_ignored_with_one_warning_and_exact_lines(
    comment: str, lines: str
) -> None:
    warnings: list[str] = []
    root = parse_xml(URDF.format(comment=comment), "r.urdf", warnings)
    shift = comment.count("\n")
    assert [(e.get("name"), e.sourceline) for e in root] == [
        ("a", 3 + shift),
        ("j", 4 + shift),
        ("b", 5 + shift),
    ]
    assert warnings == [ONE_WARNING.format(s="" if shift == 0 else "s", lines=lines)]


DECLARATION_WARNING = (
    "r.urdf: the XML declaration (<?xml ...?>) at line {line} comes after blank space, which "
    "XML forbids; read as libsdformat and urdfdom (tinyxml2) read it: the declaration is "
    "ignored (the document read as UTF-8)"
)


@pytest.mark.parametrize(
    "before, line",
    [(" ", 1), ("\n", 2), ("\ufeff\n\t", 2)],  # a space, a blank line, a BOM then blank space
)
def test_declaration_after_blank_space_is_ignored_with_a_warning(before: str, line: int) -> None:
    text = before + '<?xml version="1.0" encoding="UTF-8"?>\n' + URDF.format(comment="")
    warnings: list[str] = []
    root = parse_xml(text, "r.urdf", warnings)
    assert [(e.get("name"), e.sourceline) for e in root] == [
        ("a", line + 3),
        ("j", line + 4),
        ("b", line + 5),
    ]
    assert warnings == [DECLARATION_WARNING.format(line=line)]


def test_declaration_after_comments_is_ignored_with_a_warning() -> None:
    """A licence comment before ``<?xml`` (nav2's turtlebot3_waffle_gps.urdf): urdfdom's
    check_urdf reads it; so does the bridge, the declaration ignored and every line kept."""
    text = (
        "<!-- Copyright: a licence\n  on two lines -->\n\n<!-- another -->\n"
        '<?xml version="1.0"?>\n' + URDF.format(comment="")
    )
    warnings: list[str] = []
    root = parse_xml(text, "r.urdf", warnings)
    assert [(e.get("name"), e.sourceline) for e in root] == [("a", 8), ("j", 9), ("b", 10)]
    assert warnings == [
        "r.urdf: the XML declaration (<?xml ...?>) at line 5 comes after comments, which XML "
        "forbids; read as libsdformat and urdfdom (tinyxml2) read it: the declaration is "
        "ignored (the document read as UTF-8)"
    ]


def test_declaration_after_other_text_stays_an_error() -> None:
    """Only blank space and comments before the declaration are repaired; tinyxml2's reading
    of text there (a ``?xml ...?>`` missing its ``<``) is not taken on."""
    with pytest.raises(
        XmlSyntaxError, match=r"^r\.urdf:1: not well-formed XML \(column 1\): Start tag expected"
    ):
        parse_xml('x <?xml version="1.0"?>\n<robot name="r"/>', "r.urdf", [])


def test_several_comments_give_one_warning_naming_each() -> None:
    text = (
        '<robot name="r">\n<!-- a -- b -->\n<!-- fine -->\n<!-- c\n -- d\n-->\n'
        '<link name="a"/><!-- e --->\n</robot>\n'
    )
    warnings: list[str] = []
    root = parse_xml(text, "r.urdf", warnings)
    assert [(e.get("name"), e.sourceline) for e in root] == [("a", 7)]
    assert warnings == [
        "r.urdf: comments at lines 2, 4-6 and 7 contain '--', which XML forbids inside a "
        "comment; read as libsdformat and urdfdom (tinyxml2) read them: the comments are ignored"
    ]


def test_repair_keeps_every_byte_outside_the_comments_and_cdata_text() -> None:
    raw = b"<a><!-- x -- y --><b><![CDATA[<!-- p -- q -->]]></b><!-- ok --></a>"
    repaired, repairs = repair(raw)
    assert repaired == b"<a><!-- x    y --><b><![CDATA[<!-- p -- q -->]]></b><!-- ok --></a>"
    assert repairs == [Repair(COMMENT, 1, 1)]
    assert parse_xml(raw).findtext("b") == "<!-- p -- q -->"
    assert repair(b"<a><!-- ok --></a>") == (b"<a><!-- ok --></a>", [])
    assert repair(b"\n <?xml version='1.0'?>\n<a/>") == (
        b"\n                      \n<a/>",
        [Repair(DECLARATION, 2, 2, "blank space")],
    )


def test_a_well_formed_document_gives_no_warning() -> None:
    warnings: list[str] = []
    parse_xml(URDF.format(comment="<!-- a - b -->"), "r.urdf", warnings)
    assert warnings == []


@pytest.mark.parametrize(
    "body, line, problem",
    [
        ('<link name="c">', 5, "Opening and ending tag mismatch: link line 3 and robot"),
        ('<link name="c" name="d"/>', 3, "Attribute name redefined"),
    ],
)
def test_other_syntax_errors_stay_errors_at_their_line(body: str, line: int, problem: str) -> None:
    """What tinyxml2 refuses too (libsdformat: XML_ERROR_MISMATCHED_ELEMENT,
    XML_ERROR_PARSING_ATTRIBUTE) is refused, after a malformed comment as without one."""
    text = f'<robot name="r">\n<!-- a -- b -->\n{body}\n<link name="b"/>\n</robot>\n'
    warnings: list[str] = []
    with pytest.raises(
        XmlSyntaxError,
        match=rf"^r\.urdf:{line}: not well-formed XML \(column \d+\): {problem}.*Fix: correct the "
        r"XML syntax at that line$",
    ):
        parse_xml(text, "r.urdf", warnings)
    assert warnings == []


def test_an_error_after_a_repaired_comment_keeps_its_column() -> None:
    """libxml2 reports the duplicated attribute after a valid comment of the same length at
    line 2, column 39; after the repaired comment it is reported there too."""
    text = '<robot name="r">\n{}<link name="c" name="d"/>\n</robot>\n'
    for comment in ("<!-- a    b -->", "<!-- a -- b -->"):
        with pytest.raises(
            XmlSyntaxError,
            match=r"^r\.urdf:2: not well-formed XML \(column 39\): Attribute name redefined",
        ):
            parse_xml(text.format(comment), "r.urdf", [])


def test_every_reading_warns_once_for_its_kind() -> None:
    warnings: list[str] = []
    root = parse_xml(
        '\n<?xml version="1.0"?>\n<sdf version="1.9">\n<!-- a -- b -->\n<!-- c --->\n'
        '<world name="w"><gz:policies/></world>\n</sdf>',
        "w.sdf",
        warnings,
    )
    assert [(e.tag, e.sourceline) for e in root.iter()] == [
        ("sdf", 3),
        ("world", 6),
        ("gz:policies", 6),
    ]
    assert len(warnings) == 3
    assert warnings[0].startswith("w.sdf: the XML declaration (<?xml ...?>) at line 2 comes")
    assert warnings[1].startswith("w.sdf: comments at lines 4 and 5 contain '--'")
    assert warnings[2].startswith("w.sdf: 1 XML name(s) break the XML Namespaces rules")


def test_text_from_the_network_gets_the_same_reading() -> None:
    """robot_description (topic or parameter) text: the same tolerance, as data."""
    robot, warnings = load_with_warnings(URDF.format(comment="<!-- a -- b -->"))
    assert [(link.name, link.source.line) for link in robot.links.values()] == [("a", 3), ("b", 5)]
    assert robot.joints["j"].source.line == 4
    assert warnings == [ONE_WARNING.format(s="", lines="2").replace("r.urdf", "<string>")]


def test_check_urdf_accepts_what_we_repair(tmp_path: Path) -> None:
    path = tmp_path / "r.urdf"
    path.write_text(
        '\n<?xml version="1.0"?>\n<robot name="r">\n<!-- a -- b -->\n<!-- c --->\n'
        '<link name="a"/>\n'
        '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>\n'
        '<link name="b"/>\n</robot>\n'
    )
    out = subprocess.run(
        [require_tool("check_urdf", "liburdfdom-tools"), str(path)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert "Successfully Parsed XML" in out.stdout
    robot, warnings = load_with_warnings(path)
    assert list(robot.joints) == ["j"]
    assert warnings == [
        f"{path}: the XML declaration (<?xml ...?>) at line 2 comes after blank space, which "
        "XML forbids; read as libsdformat and urdfdom (tinyxml2) read it: the declaration is "
        "ignored (the document read as UTF-8)",
        f"{path}: comments at lines 4 and 5 contain '--', which XML forbids inside a comment; "
        "read as libsdformat and urdfdom (tinyxml2) read them: the comments are ignored",
    ]


def test_xacro_refuses_a_late_declaration_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "r.urdf.xacro"
    path.write_text(
        '\n<?xml version="1.0"?>\n<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '\n<link name="a"/>\n</robot>\n'
    )
    with pytest.raises(
        XacroError,
        match=r"r\.urdf\.xacro:2: xacro could not parse the XML: XML or text declaration not at "
        r"start of entity: line 2, column 0: the XML declaration at line 2 comes after blank "
        r"space, which XML forbids; xacro \(Python's expat\) refuses it, though libsdformat and "
        r"urdfdom \(tinyxml2\) read such a file\. Fix: remove the blank space before <\?xml",
    ):
        load_with_warnings(path)


def test_xacro_refuses_them_as_xacro_does_naming_the_comment(tmp_path: Path) -> None:
    """xacro parses with Python's expat, which refuses ``--`` in a comment: the ``xacro``
    command fails on such a file, so the bridge cannot expand it and says why."""
    path = tmp_path / "r.urdf.xacro"
    path.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n<link name="a"/>\n'
        "<!-- a\n -- b -->\n</robot>\n"
    )
    with pytest.raises(
        XacroError,
        match=r"r\.urdf\.xacro:4: xacro could not parse the XML: not well-formed \(invalid "
        r"token\): line 4, column 3: the comment at lines 3-4 contains '--', which XML forbids "
        r"inside a comment; xacro \(Python's expat\) refuses it, though libsdformat and urdfdom "
        r"\(tinyxml2\) read such a file\. Fix: remove the '--' from that comment",
    ):
        load_with_warnings(path)


# ------------------------------------------------------------------ linear time (issue 22)
#: The repairs before they were linear scans, as regular expressions: the oracle of
#: :func:`test_repairs_equal_the_regular_expressions_on_ordinary_input`, with a comment ending
#: at its first ``-->`` (``(?:(?!-->).)*``; the old ``.*?`` let a comment swallow text up to a
#: later ``-->`` when backtracking, the exponential case). Applied to short inputs only.
_ORACLE_COMMENT_OR_CDATA = re.compile(rb"<!\[CDATA\[.*?\]\]>|<!--(.*?)-->", re.DOTALL)
_ORACLE_LATE_DECLARATION = re.compile(
    rb"\A(?:\xef\xbb\xbf)?((?:[ \t\r\n]|<!--(?:(?!-->).)*-->)+)(<\?xml[ \t\r\n].*?\?>)", re.DOTALL
)


def _oracle(raw: bytes) -> tuple[bytes, list[Repair]]:
    """:func:`repair` as the regular expressions read it."""
    found = []
    declaration = _ORACLE_LATE_DECLARATION.match(raw)

    def lines(start: int, end: int) -> tuple[int, int]:
        first = raw.count(b"\n", 0, start) + 1
        return first, first + raw.count(b"\n", start, end)

    out = raw
    if declaration is not None:
        after = "comments" if b"<!--" in declaration.group(1) else "blank space"
        found.append(Repair(DECLARATION, *lines(*declaration.span(2)), after))
        start, end = declaration.span(2)
        out = raw[:start] + re.sub(rb"[^\n]", b" ", raw[start:end]) + raw[end:]

    def bad(body: bytes | None) -> bool:
        return body is not None and (b"--" in body or body.endswith(b"-"))

    found.extend(
        Repair(COMMENT, *lines(*m.span()))
        for m in _ORACLE_COMMENT_OR_CDATA.finditer(raw)
        if bad(m.group(1))
    )
    out = _ORACLE_COMMENT_OR_CDATA.sub(
        lambda m: b"<!--" + m.group(1).replace(b"-", b" ") + b"-->" if bad(m.group(1)) else m[0],
        out,
    )
    return (out, found) if found else (raw, [])


_PIECES = [
    b" ",
    b"\n",
    b"\t",
    b"\xef\xbb\xbf",
    b"<!-- a -->",
    b"<!-- a -- b -->",
    b"<!-- c --->",
    b"<!---->",
    b"<!-- x\n -- y\n-->",
    b"<?xml version='1.0'?>",
    b'<?xml-model href="x"?>',
    b"<a>",
    b"</a>",
    b"<b/>",
    b"text",
    b"<![CDATA[<!-- p -- q -->]]>",
    b"<!--",
    b"-->",
    b"]]>",
]


@settings(max_examples=2000, deadline=timedelta(seconds=1))
@given(st.lists(st.sampled_from(_PIECES), max_size=10))
def test_repairs_equal_the_regular_expressions_on_ordinary_input(pieces: list[bytes]) -> None:
    raw = b"".join(pieces)
    assert repair(raw) == _oracle(raw)
    assert find(raw) == _oracle(raw)[1]


@pytest.mark.parametrize(
    "raw, want",
    [
        # a licence header before the declaration (nav2's turtlebot3_waffle_gps.urdf)
        (
            b"<!-- licence -->\n<!-- more -->\n<?xml version='1.0'?>\n<a/>",
            (
                b"<!-- licence -->\n<!-- more -->\n                     \n<a/>",
                [Repair(DECLARATION, 3, 3, "comments")],
            ),
        ),
        # a malformed comment before a late declaration: the declaration is named first
        (
            b"<!-- a -- b -->\n<?xml version='1.0'?><a/>",
            (
                b"<!-- a    b -->\n                     <a/>",
                [Repair(DECLARATION, 2, 2, "comments"), Repair(COMMENT, 1, 1)],
            ),
        ),
        # text between two comments: the declaration is not "after comments" (the old
        # expression's backtracking read "<!-- a --> x <!-- b -->" as one comment)
        (
            b"<!-- a --> x <!-- b --> <?xml version='1.0'?><a/>",
            (b"<!-- a --> x <!-- b --> <?xml version='1.0'?><a/>", []),
        ),
        # a declaration at the very start is allowed; <?xml-model?> is another instruction
        (
            b"<?xml version='1.0'?><!-- a -- b --><a/>",
            (b"<?xml version='1.0'?><!-- a    b --><a/>", [Repair(COMMENT, 1, 1)]),
        ),
        (b" <?xml-model href='x'?><a/>", (b" <?xml-model href='x'?><a/>", [])),
        # unterminated: a comment or CDATA section running to the end is left as it is
        (b"<a><!-- a -- b </a>", (b"<a><!-- a -- b </a>", [])),
        (b"<a><![CDATA[ <!-- a -- b --> </a>", (b"<a><![CDATA[ <!-- a -- b --> </a>", [])),
    ],
)
def test_repair_of_ordinary_documents(raw: bytes, want: tuple[bytes, list[Repair]]) -> None:
    assert repair(raw) == want


@pytest.mark.timeout(5)
def test_ten_thousand_leading_comments_and_a_syntax_error_are_refused_quickly() -> None:
    """Issue 22: 26 licence lines and one syntax error took over 2 minutes (exponential
    backtracking); 10^4 are refused at once (timeout 5 s: a bound, not a measurement)."""
    text = "<!-- licence line -->\n" * 10_000 + '<robot name="r"><link name="a"></robot>\n'
    with pytest.raises(
        XmlSyntaxError,
        match=r"^r\.urdf:10001: not well-formed XML \(column 40\): Opening and ending tag "
        r"mismatch: link line 10001 and robot",
    ):
        parse_xml(text, "r.urdf", [])


@pytest.mark.timeout(5)
def test_many_unterminated_comment_openings_are_scanned_once() -> None:
    """``<!--`` repeated with no ``-->``: a pattern retried at each opening rescans the rest
    of the document each time (quadratic); the scan stops at the first."""
    raw = b"<a>" + b"<!--" * 500_000
    assert repair(raw) == (raw, [])
    with pytest.raises(XmlSyntaxError, match=r"^<string>:1: not well-formed XML"):
        parse_xml(raw)


@pytest.mark.timeout(5)
def test_sixty_thousand_malformed_comments_are_repaired_with_exact_lines() -> None:
    raw = b"<a>\n" + b"<!-- x -- y -->\n" * 60_000 + b"<b/></a>\n"
    repaired, repairs = repair(raw)
    assert len(repairs) == 60_000
    assert (repairs[0], repairs[-1]) == (Repair(COMMENT, 2, 2), Repair(COMMENT, 60_001, 60_001))
    assert repaired == b"<a>\n" + b"<!-- x    y -->\n" * 60_000 + b"<b/></a>\n"


@pytest.mark.timeout(10)
def test_check_refuses_ten_thousand_leading_comments_and_a_syntax_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same through ``sdf-bridge check`` (the path of issue 22's report)."""
    path = tmp_path / "r.urdf"
    path.write_text(
        "<!-- licence line -->\n" * 10_000 + '<robot name="r"><link name="a"></robot>\n'
    )
    assert cli.main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "r.urdf:10001: not well-formed XML (column 40)" in err
