"""Tests of sdf_bridge.description.xacro_expand (xacro library in-process, $(find) hook)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from sdf_bridge.description.xacro_expand import expand_xacro, looks_like_xacro
from sdf_bridge.errors import XacroError

XACRO_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'


def _links(text: str) -> list[str]:
    return [e.get("name") for e in etree.fromstring(text.encode()).iter("link")]


def test_case_017_macro_arguments_resolve_in_caller_scope(cases_dir: Path) -> None:
    path = cases_dir / "017-xacro-macro-arg-scope" / "robot.urdf.xacro"
    text, warnings = expand_xacro(path, is_file=True)
    assert _links(text) == ["root", "panel_glossy", "panel_matte", "panel_base"]
    assert warnings == []


def test_case_017_xacro_args_are_passed_through(cases_dir: Path) -> None:
    path = cases_dir / "017-xacro-macro-arg-scope" / "robot.urdf.xacro"
    text, _ = expand_xacro(path, is_file=True, xacro_args={"variant": "proto"})
    assert _links(text) == ["root", "panel_glossy", "panel_matte", "panel_proto"]


def test_find_uses_package_paths_and_restores_xacro(tmp_path: Path) -> None:
    from xacro import substitution_args

    original = substitution_args._eval_find
    pkg = tmp_path / "parts_pkg"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "urdf" / "part.xacro").write_text(
        f'<robot {XACRO_NS}><xacro:macro name="part" params="n"><link name="${{n}}"/></xacro:macro></robot>'
    )
    main = tmp_path / "main.urdf.xacro"
    main.write_text(
        f'<robot name="r" {XACRO_NS}><xacro:include filename="$(find parts_pkg)/urdf/part.xacro"/>'
        '<xacro:part n="a"/><xacro:part n="b"/></robot>'
    )
    text, _ = expand_xacro(main, is_file=True, package_paths={"parts_pkg": pkg})
    assert _links(text) == ["a", "b"]
    assert substitution_args._eval_find is original


def test_unknown_package_is_a_xacro_error_naming_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AMENT_PREFIX_PATH", raising=False)
    main = tmp_path / "main.urdf.xacro"
    main.write_text(f'<robot name="r" {XACRO_NS}><xacro:include filename="$(find no_such_pkg)/a.xacro"/></robot>')
    with pytest.raises(XacroError, match=r"main\.urdf\.xacro.*package 'no_such_pkg' not found"):
        expand_xacro(main, is_file=True)


def test_missing_include_names_the_file(tmp_path: Path) -> None:
    main = tmp_path / "main.urdf.xacro"
    main.write_text(f'<robot name="r" {XACRO_NS}><xacro:include filename="missing_part.xacro"/></robot>')
    with pytest.raises(XacroError, match=r"missing_part\.xacro"):
        expand_xacro(main, is_file=True)


def test_error_inside_an_include_names_the_included_file(tmp_path: Path) -> None:
    (tmp_path / "broken.xacro").write_text(f'<robot {XACRO_NS}><link name="${{undefined_property}}"/></robot>')
    main = tmp_path / "main.urdf.xacro"
    main.write_text(f'<robot name="r" {XACRO_NS}><xacro:include filename="broken.xacro"/></robot>')
    with pytest.raises(XacroError, match=r"broken\.xacro: xacro expansion failed: .*undefined_property"):
        expand_xacro(main, is_file=True)


def test_undefined_arg_is_a_xacro_error(tmp_path: Path) -> None:
    main = tmp_path / "main.urdf.xacro"
    main.write_text(f'<robot name="r" {XACRO_NS}><link name="$(arg prefix)base"/></robot>')
    with pytest.raises(XacroError, match=r"main\.urdf\.xacro.*prefix"):
        expand_xacro(main, is_file=True)
    text, _ = expand_xacro(main, is_file=True, xacro_args={"prefix": "left_"})
    assert _links(text) == ["left_base"]


def test_malformed_xacro_is_a_xacro_error(tmp_path: Path) -> None:
    main = tmp_path / "main.urdf.xacro"
    main.write_text(f'<robot name="r" {XACRO_NS}><link name="a"></robot>')
    with pytest.raises(XacroError, match=r"main\.urdf\.xacro.*could not parse the XML"):
        expand_xacro(main, is_file=True)


def test_string_input_and_warnings_are_captured(capsys: pytest.CaptureFixture[str]) -> None:
    text, warnings = expand_xacro(
        f'<robot name="r" {XACRO_NS}><xacro:property name="n" value="x"/>'
        '<xacro:include filename="nothing_*.xacro"/><link name="${n}"/></robot>',
        is_file=False,
    )
    assert _links(text) == ["x"]
    assert any("matched no files" in w for w in warnings)
    assert capsys.readouterr().err == ""


def test_looks_like_xacro() -> None:
    assert looks_like_xacro("robot.urdf.xacro", b"<robot/>")
    assert looks_like_xacro(None, f'<robot {XACRO_NS}><xacro:property name="a" value="1"/></robot>')
    # a flattened file that only keeps the namespace declaration is plain URDF
    assert not looks_like_xacro("robot.urdf", f'<robot {XACRO_NS}><link name="a"/></robot>'.encode())
    assert not looks_like_xacro("robot.urdf", b'<robot name="r"><link name="a"/></robot>')


def test_xacro_messages_are_one_clean_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AMENT_PREFIX_PATH", raising=False)
    main = tmp_path / "main.urdf.xacro"
    main.write_text(f'<robot name="r" {XACRO_NS}><link name="$(find no_such_pkg)"/></robot>')
    with pytest.raises(XacroError) as info:
        expand_xacro(main, is_file=True)
    assert info.value.problem == ("xacro expansion failed: package 'no_such_pkg' not found in the package path map "
                                  "or the ament index")
    main.write_text(f'<robot name="r" {XACRO_NS}><link name="${{1/0}}"/></robot>')
    with pytest.raises(XacroError, match=r"xacro expansion failed: division by zero when evaluating expression '1/0'\. Fix:"):
        expand_xacro(main, is_file=True)
