"""Tests of sdf_bridge.description.loader: source detection (path or XML text), xacro detection,
dispatch on the root element, file errors and warnings."""

from __future__ import annotations

import codecs
import logging
from pathlib import Path

import pytest

from sdf_bridge.description import Robot, load, load_with_warnings
from sdf_bridge.errors import (
    KinematicTreeError,
    PathResolutionError,
    UnexpandedXacroError,
    UnsupportedError,
    XacroError,
    XmlSyntaxError,
)

SIMPLE = (
    '<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="fixed"><parent '
    'link="a"/><child link="b"/></joint></robot>'
)
XACRO = (
    '<robot name="x" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:arg name="p" default="d_"/>'
    '<xacro:property name="n" value="base"/><link name="$(arg p)${n}"/></robot>'
)


def test_xml_string_bytes_leading_whitespace_and_byte_order_mark() -> None:
    for source in (
        SIMPLE,
        SIMPLE.encode(),
        "\n   " + SIMPLE,
        "\ufeff" + SIMPLE,
        codecs.BOM_UTF8 + SIMPLE.encode(),
    ):
        robot = load(source)
        assert isinstance(robot, Robot)
        assert list(robot.links) == ["a", "b"]
        assert robot.source_file is None
        assert robot.links["a"].source.file == "<string>"


def test_path_as_str_and_pathlike(tmp_path: Path) -> None:
    path = tmp_path / "r.urdf"
    path.write_text(SIMPLE)
    for source in (path, str(path)):
        robot = load(source)
        assert robot.source_file == str(path)
        assert robot.joints["j"].source.file == str(path)


def test_relative_path_is_taken_from_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "r.urdf").write_text(SIMPLE)
    monkeypatch.chdir(tmp_path)
    assert load("r.urdf").source_file == str(tmp_path / "r.urdf")


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(
        PathResolutionError, match=r"missing\.urdf: cannot read the description: No such file"
    ):
        load(tmp_path / "missing.urdf")
    with pytest.raises(PathResolutionError, match=r"the path is not a file"):
        load(tmp_path)


def test_unknown_root_element() -> None:
    with pytest.raises(
        UnsupportedError, match=r"root element is <model>, neither <robot> \(URDF\) nor <sdf>"
    ):
        load('<model name="m"/>')


def test_empty_string_is_a_syntax_error_or_missing_path() -> None:
    with pytest.raises(XmlSyntaxError, match="not well-formed"):
        load("<")
    with pytest.raises(PathResolutionError, match="the description source is empty"):
        load("  ")


def test_xacro_string_is_refused_never_expanded(tmp_path: Path) -> None:
    """XML text is data (it may come from the network): a xacro expression in it would run code,
    so text that still holds xacro is refused, with how to expand it; the same document as a
    file the user names is expanded."""
    with pytest.raises(
        UnexpandedXacroError,
        match=r'^<string>:1: <xacro:arg name="p">: the XML text holds the '
        r"xacro element <xacro:arg>; text is never xacro-expanded",
    ):
        load(XACRO, xacro_args={"p": "left_"})
    path = tmp_path / "r.urdf.xacro"
    path.write_text(XACRO)
    assert list(load(path, xacro_args={"p": "left_"}).links) == ["left_base"]


def test_xacro_file_by_suffix_with_args(tmp_path: Path) -> None:
    path = tmp_path / "r.urdf.xacro"
    path.write_text(XACRO)
    robot, warnings = load_with_warnings(path, xacro_args={"p": "right_"})
    assert list(robot.links) == ["right_base"]
    assert robot.source_file == str(path)
    assert robot.links["right_base"].source.file == f"{path} (expanded by xacro)"
    assert warnings == []


# case 017's robot has only unconnected links (it pins xacro's output, not a tree), so loading it
# fails validation with a message that lists the expanded links in order
def test_case_017_through_load(cases_dir: Path) -> None:
    path = cases_dir / "017-xacro-macro-arg-scope" / "robot.urdf.xacro"
    with pytest.raises(
        KinematicTreeError,
        match=r"4 root links \('root', 'panel_glossy', 'panel_matte', 'panel_base'\)",
    ):
        load(path)
    with pytest.raises(
        KinematicTreeError, match=r"\('root', 'panel_glossy', 'panel_matte', 'panel_proto'\)"
    ):
        load(path, xacro_args={"variant": "proto"})


def test_xacro_file_without_suffix_detected_by_namespace(tmp_path: Path, cases_dir: Path) -> None:
    src = cases_dir / "017-xacro-macro-arg-scope"
    (tmp_path / "parts.xacro").write_text((src / "parts.xacro").read_text())
    path = tmp_path / "robot.urdf"  # no .xacro suffix: detected by namespace + use
    path.write_text((src / "robot.urdf.xacro").read_text())
    with pytest.raises(
        KinematicTreeError, match=r"\('root', 'panel_glossy', 'panel_matte', 'panel_base'\)"
    ):
        load(path)


def test_xacro_error_propagates(tmp_path: Path) -> None:
    path = tmp_path / "bad.urdf.xacro"
    path.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="${nope}"/></robot>'
    )
    with pytest.raises(XacroError, match=r"bad\.urdf\.xacro: xacro expansion failed"):
        load(path)


def test_sdf_root_dispatches_to_the_sdf_loader() -> None:
    sdf = (
        '<sdf version="1.7"><model name="m"><link name="a"/><link name="b"/><joint name="j" '
        'type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis>'
        "</joint>"
        "</model></sdf>"
    )
    robot = load(sdf)
    assert isinstance(robot, Robot)
    assert robot.format == "sdf"
    assert list(robot.joints) == ["j"]


def test_warnings_are_logged_not_printed(
    caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.description"):
        _, warnings = load_with_warnings(SIMPLE.replace("</robot>", "<oddity/></robot>"))
    assert len(warnings) == 1 and "unknown element <oddity> in <robot name=" in warnings[0]
    assert any("oddity" in r.getMessage() for r in caplog.records)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_error_rendering_adds_a_full_stop_before_fix_only_when_needed() -> None:
    from sdf_bridge.errors import DescriptionError, MissingReferenceError

    assert str(
        MissingReferenceError(
            "uses <ball> which URDF does not have",
            file="r.urdf",
            line=3,
            element="<joint>",
            fix="use a revolute joint",
        )
    ) == ("r.urdf:3: <joint>: uses <ball> which URDF does not have. Fix: use a revolute joint")
    assert str(DescriptionError("axis is zero.", fix="give one")) == "axis is zero. Fix: give one"
    assert str(DescriptionError("is it a URDF?", fix="check")) == "is it a URDF? Fix: check"
    assert str(DescriptionError("no fix here", line=4)) == "line 4: no fix here"
