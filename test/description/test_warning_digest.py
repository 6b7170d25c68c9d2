"""Tests of sdf_bridge.description.warning_digest and its use: the loader logs warnings one
line per kind and file (issue 22: 1 MB of empty unknown elements wrote 11.7 MB of warnings),
``sdf-bridge check`` prints the digest and ``--verbose`` every warning."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from sdf_bridge import cli
from sdf_bridge.description import load_with_warnings
from sdf_bridge.description.warning_digest import Kind, classify, digest, kinds

UNKNOWN = '{file}:{line}: <{tag}>: unknown element <{tag}> in <robot name="r"> ignored'
#: A URDF with one movable joint and ``{body}`` after it, on line 2 onwards.
ROBOT = (
    '<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
    '<parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
    "</joint>\n{body}</robot>\n"
)


def test_classify_masks_names_elements_and_numbers() -> None:
    assert classify(UNKNOWN.format(file="r.urdf", line=12, tag="foo")) == (
        "r.urdf",
        "<…>: unknown element <…> in <…> ignored",
        "<foo> (line 12)",
    )
    assert classify("joint 'elbow': soft limits with k_velocity 0 clamp every effort") == (
        "",
        "joint '…': soft limits with k_velocity N clamp every effort",
        "'elbow'",
    )
    assert classify("/a b/x (expanded by xacro):3: plain") == (
        "/a b/x (expanded by xacro)",
        "plain",
        "line 3",
    )
    assert classify("nothing named") == ("", "nothing named", "nothing named")


def test_kinds_count_exactly_per_kind_and_file_in_first_seen_order() -> None:
    warnings = [UNKNOWN.format(file="r.urdf", line=i, tag=f"u{i}") for i in range(2, 1002)]
    warnings.insert(5, "joint 'j1': soft limits with k_velocity 0 clamp every effort command")
    warnings += [UNKNOWN.format(file="inc.sdf", line=7, tag="x")]
    warnings += [
        f"joint 'j{i}': soft limits with k_velocity 0 clamp every effort command" for i in (2, 3)
    ]
    assert kinds(warnings) == [
        Kind(
            "r.urdf",
            "<…>: unknown element <…> in <…> ignored",
            UNKNOWN.format(file="r.urdf", line=2, tag="u2"),
            1000,
            ("<u3> (line 3)", "<u4> (line 4)", "<u5> (line 5)"),
        ),
        Kind(
            "",
            "joint '…': soft limits with k_velocity N clamp every effort command",
            "joint 'j1': soft limits with k_velocity 0 clamp every effort command",
            3,
            ("'j2'", "'j3'"),
        ),
        Kind(
            "inc.sdf",
            "<…>: unknown element <…> in <…> ignored",
            UNKNOWN.format(file="inc.sdf", line=7, tag="x"),
            1,
            (),
        ),
    ]
    assert digest(warnings) == [
        UNKNOWN.format(file="r.urdf", line=2, tag="u2")
        + " [1000× this kind in r.urdf; next: <u3> (line 3), <u4> (line 4), <u5> (line 5), …]",
        "joint 'j1': soft limits with k_velocity 0 clamp every effort command [3× this kind; "
        "next: 'j2', 'j3']",
        UNKNOWN.format(file="inc.sdf", line=7, tag="x"),
    ]


def test_digest_of_distinct_warnings_is_the_warnings() -> None:
    warnings = ["r.urdf:1: <a>: one thing", "r.urdf:2: <b>: another thing", "free text"]
    assert digest(warnings) == warnings
    assert digest([]) == []


def test_examples_are_cut_at_sixty_characters() -> None:
    long = "n" * 500
    (line,) = digest([f"joint '{long}': k 0", f"joint '{long}': k 1"])
    assert line.endswith(f" [2× this kind; next: '{'n' * 58}…]")
    assert digest(["x"] * 3, examples=0) == ["x [3× this kind; next: …]"]


@pytest.mark.timeout(30)
def test_a_megabyte_of_unknown_elements_loads_and_logs_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 22: 140,000 empty unknown elements (1 MB) load in seconds (timeout 30 s: a
    bound, not a measurement), every warning returned, one line logged."""
    body = "<foo/>\n" * 140_000
    with caplog.at_level(logging.WARNING, logger="sdf_bridge"):
        robot, warnings = load_with_warnings(ROBOT.format(body=body))
    assert list(robot.joints) == ["j"]
    assert len(warnings) == 140_000
    assert warnings[999] == UNKNOWN.format(file="<string>", line=1001, tag="foo")
    assert [r.getMessage() for r in caplog.records] == [
        UNKNOWN.format(file="<string>", line=2, tag="foo")
        + " [140000× this kind in <string>; next: <foo> (line 3), <foo> (line 4), "
        "<foo> (line 5), …]"
    ]


@pytest.mark.stress
@pytest.mark.timeout(60)
def test_a_megabyte_of_distinct_unknown_elements_loads_and_logs_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """100,000 distinct unknown tags: each is compared with the known ones (misspellings are
    errors), which the ratio bounds keep cheap."""
    body = "".join(f"<u{i}/>\n" for i in range(100_000))
    with caplog.at_level(logging.WARNING, logger="sdf_bridge"):
        _robot, warnings = load_with_warnings(ROBOT.format(body=body))
    assert len(warnings) == 100_000
    assert len(caplog.records) == 1
    assert "[100000× this kind in <string>; next: <u1> (line 3)" in caplog.records[0].getMessage()


def test_warnings_found_before_an_error_are_logged_too(caplog: pytest.LogCaptureFixture) -> None:
    text = ROBOT.format(body="<foo/>\n<foo/>\n<link/>\n")
    with caplog.at_level(logging.WARNING, logger="sdf_bridge"), pytest.raises(Exception):
        load_with_warnings(text)
    assert [r.getMessage() for r in caplog.records] == [
        UNKNOWN.format(file="<string>", line=2, tag="foo")
        + " [2× this kind in <string>; next: <foo> (line 3)]"
    ]


@pytest.fixture
def noisy(tmp_path: Path) -> Path:
    path = tmp_path / "noisy.urdf"
    path.write_text(ROBOT.format(body="<foo/>\n" * 500 + "<bar/>\n"))
    return path


def test_check_prints_one_line_per_kind(noisy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", str(noisy)]) == 0
    out = capsys.readouterr().out
    section = out[out.index("\nwarnings (") :].split("\n\n")[0].strip("\n").splitlines()
    assert section == [
        "warnings (501, one line per kind (--verbose: all)):",
        "  "
        + UNKNOWN.format(file=noisy, line=2, tag="foo")
        + f" [501× this kind in {noisy}; next: <foo> (line 3), <foo> (line 4), <foo> (line 5), "
        "…]",
    ]


def test_check_verbose_prints_every_warning(
    noisy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["check", str(noisy), "--verbose"]) == 0
    out = capsys.readouterr().out
    section = out[out.index("\nwarnings (") :].split("\n\n")[0].strip("\n").splitlines()
    assert section[0] == "warnings (501):"
    assert section[1:] == [
        "  " + UNKNOWN.format(file=noisy, line=line, tag="foo" if line < 502 else "bar")
        for line in range(2, 503)
    ]


def test_check_json_digests_standard_error_unless_verbose(
    noisy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["check", str(noisy), "--json"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "warning: "
        + UNKNOWN.format(file=noisy, line=2, tag="foo")
        + f" [501× this kind in {noisy}; next: <foo> (line 3), <foo> (line 4), <foo> (line 5), "
        "…]"
    ]
    assert cli.main(["check", str(noisy), "--json", "--verbose"]) == 0
    assert len(capsys.readouterr().err.splitlines()) == 501
