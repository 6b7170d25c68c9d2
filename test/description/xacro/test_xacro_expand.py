"""Tests of sdf_bridge.description.xacro.expand (the expansion of xacro files, here through the
bounded child of xacro_bounded, and the $(find) hook) and of its refusal of XML text that
still holds xacro."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from sdf_bridge.description.xacro.child_process import expand_xacro
from sdf_bridge.description.xacro.expand import expand_in_process, looks_like_xacro, parse_xml_text
from sdf_bridge.errors import UnexpandedXacroError, XacroError

XACRO_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'


def _links(text: str) -> list[str]:
    return [e.get("name") for e in etree.fromstring(text.encode()).iter("link")]


def test_case_017_macro_arguments_resolve_in_caller_scope(cases_dir: Path) -> None:
    path = cases_dir / "017-xacro-macro-arg-scope" / "robot.urdf.xacro"
    text, warnings = expand_xacro(path)
    assert _links(text) == ["root", "panel_glossy", "panel_matte", "panel_base"]
    assert warnings == []


def test_case_017_xacro_args_are_passed_through(cases_dir: Path) -> None:
    path = cases_dir / "017-xacro-macro-arg-scope" / "robot.urdf.xacro"
    text, _ = expand_xacro(path, xacro_args={"variant": "proto"})
    assert _links(text) == ["root", "panel_glossy", "panel_matte", "panel_proto"]


def test_find_uses_package_paths_and_restores_xacro(tmp_path: Path) -> None:
    from xacro import substitution_args

    original = substitution_args._eval_find
    pkg = tmp_path / "parts_pkg"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "urdf" / "part.xacro").write_text(
        f'<robot {XACRO_NS}><xacro:macro name="part" params="n"><link name="${{n}}"/>'
        "</xacro:macro></robot>"
    )
    main = tmp_path / "main.urdf.xacro"
    main.write_text(
        f'<robot name="r" {XACRO_NS}><xacro:include filename="$(find parts_pkg)/urdf/part.xacro"/>'
        '<xacro:part n="a"/><xacro:part n="b"/></robot>'
    )
    text, _ = expand_xacro(main, package_paths={"parts_pkg": pkg})
    assert _links(text) == ["a", "b"]
    # in this process (as in the bounded child): the hook is undone afterwards
    text, _ = expand_in_process(main, package_paths={"parts_pkg": pkg})
    assert _links(text) == ["a", "b"]
    assert substitution_args._eval_find is original


def test_unknown_package_is_a_xacro_error_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AMENT_PREFIX_PATH", raising=False)
    main = tmp_path / "main.urdf.xacro"
    main.write_text(
        f'<robot name="r" {XACRO_NS}><xacro:include filename="$(find no_such_pkg)/a.xacro"/>'
        "</robot>"
    )
    with pytest.raises(XacroError, match=r"main\.urdf\.xacro.*package 'no_such_pkg' not found"):
        expand_xacro(main)


def test_missing_include_names_the_file(tmp_path: Path) -> None:
    main = tmp_path / "main.urdf.xacro"
    main.write_text(
        f'<robot name="r" {XACRO_NS}><xacro:include filename="missing_part.xacro"/></robot>'
    )
    with pytest.raises(XacroError, match=r"missing_part\.xacro"):
        expand_xacro(main)


def test_error_inside_an_include_names_the_included_file(tmp_path: Path) -> None:
    (tmp_path / "broken.xacro").write_text(
        f'<robot {XACRO_NS}><link name="${{undefined_property}}"/></robot>'
    )
    main = tmp_path / "main.urdf.xacro"
    main.write_text(f'<robot name="r" {XACRO_NS}><xacro:include filename="broken.xacro"/></robot>')
    with pytest.raises(
        XacroError, match=r"broken\.xacro: xacro expansion failed: .*undefined_property"
    ):
        expand_xacro(main)


def test_undefined_arg_is_a_xacro_error(tmp_path: Path) -> None:
    main = tmp_path / "main.urdf.xacro"
    main.write_text(f'<robot name="r" {XACRO_NS}><link name="$(arg prefix)base"/></robot>')
    with pytest.raises(XacroError, match=r"main\.urdf\.xacro.*prefix"):
        expand_xacro(main)
    text, _ = expand_xacro(main, xacro_args={"prefix": "left_"})
    assert _links(text) == ["left_base"]


def test_malformed_xacro_is_a_xacro_error(tmp_path: Path) -> None:
    main = tmp_path / "main.urdf.xacro"
    main.write_text(f'<robot name="r" {XACRO_NS}><link name="a"></robot>')
    with pytest.raises(XacroError, match=r"main\.urdf\.xacro.*could not parse the XML"):
        expand_xacro(main)


def test_warnings_are_captured(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main = tmp_path / "main.urdf.xacro"
    main.write_text(
        f'<robot name="r" {XACRO_NS}><xacro:property name="n" value="x"/>'
        '<xacro:include filename="nothing_*.xacro"/><link name="${n}"/></robot>'
    )
    text, warnings = expand_xacro(main)
    assert _links(text) == ["x"]
    assert any("matched no files" in w for w in warnings)
    assert capsys.readouterr().err == ""


def test_looks_like_xacro() -> None:
    assert looks_like_xacro("robot.urdf.xacro", b"<robot/>")
    assert looks_like_xacro(None, f'<robot {XACRO_NS}><xacro:property name="a" value="1"/></robot>')
    # a flattened file that only keeps the namespace declaration is plain URDF
    assert not looks_like_xacro(
        "robot.urdf", f'<robot {XACRO_NS}><link name="a"/></robot>'.encode()
    )
    assert not looks_like_xacro("robot.urdf", b'<robot name="r"><link name="a"/></robot>')


def test_xacro_messages_are_one_clean_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AMENT_PREFIX_PATH", raising=False)
    main = tmp_path / "main.urdf.xacro"
    main.write_text(f'<robot name="r" {XACRO_NS}><link name="$(find no_such_pkg)"/></robot>')
    with pytest.raises(XacroError) as info:
        expand_xacro(main)
    assert info.value.problem == (
        "xacro expansion failed: package 'no_such_pkg' not found in the package path map "
        "or the ament index"
    )
    main.write_text(f'<robot name="r" {XACRO_NS}><link name="${{1/0}}"/></robot>')
    with pytest.raises(
        XacroError,
        match=r"xacro expansion failed: division by zero when evaluating expression '1/0'\. Fix:",
    ):
        expand_xacro(main)


# ------------------------------------------------------------------ XML text is never expanded
@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            f'<robot name="r" {XACRO_NS}>\n<xacro:property name="n" value="b"/><link '
            'name="${n}"/></robot>',
            r'^<string>:2: <xacro:property name="n">: the XML text holds the xacro element '
            r"<xacro:property>; "
            r"text is never xacro-expanded\. Fix: expand it first .*xacro robot\.urdf\.xacro > "
            r"robot\.urdf.*Command\(\['xacro', file\]\)",
        ),
        (
            '<robot name="r"><xacro:include filename="/etc/passwd"/></robot>',
            r"^<string>:1: the XML text uses xacro elements \(prefix xacro: undeclared\); text "
            r"is never",
        ),
        # a Gazebo name breaking the Namespaces rules first (read as a plain name), then xacro's
        (
            '<robot name="r"><gazebo><gz:policies/></gazebo>\n<xacro:include '
            'filename="/etc/passwd"/></robot>',
            r"^<string>:2: <xacro:include>: the XML text holds the xacro element "
            r"<xacro:include>; text is never",
        ),
        (
            '<robot name="r" xmlns:x="http://ros.org/wiki/xacro"><x:macro name="m"/></robot>',
            r'<xacro:macro name="m">: the XML text holds the xacro element <xacro:macro>',
        ),
        (
            '<robot name="r"><link name="$(env HOME)"/></robot>',
            r'<link name="\$\(env HOME\)">: the XML text holds the unexpanded xacro substitution '
            r"'\$\(env HOME\)' \(attribute name\)",
        ),
        (
            '<robot name="r"><link name="a"><visual><geometry><box size="${2*a} 1 1"/></geometry>'
            "</visual></link></robot>",
            r"<box>: the XML text holds the unexpanded xacro substitution '\$\{2\*a\} 1 1' "
            r"\(attribute size\)",
        ),
        (
            '<robot name="r"><gazebo><plugin name="p" filename="f"><parameters>$(arg '
            'config)/c.yaml</parameters></plugin></gazebo><link name="a"/></robot>',
            r"<parameters>: the XML text holds the unexpanded xacro substitution '\$\(arg "
            r"config\)/c\.yaml' \(text\)",
        ),
    ],
)
def test_xml_text_that_still_uses_xacro_is_refused(text: str, match: str) -> None:
    with pytest.raises(UnexpandedXacroError, match=match):
        parse_xml_text(text.encode())


def test_expanded_text_is_parsed() -> None:
    """xacro's output keeps the namespace declaration and the comments of the source (which may
    mention substitutions): neither is a reason to refuse it; a ``$`` that is no substitution
    is data, and ``$(find pkg)`` is a path form the loader resolves (as ``package://``)."""
    text = (
        f'<robot name="r" {XACRO_NS}><!-- use ${{prefix}} and $(arg x) --><link name="a$b"/>'
        '<link name="cost_$(1)"><visual><geometry><mesh filename="$(find p)/m.stl"/>'
        "</geometry></visual></link>"
        "</robot>"
    )
    root = parse_xml_text(text.encode(), "topic robot_description")
    assert [e.get("name") for e in root.iter("link")] == ["a$b", "cost_$(1)"]
