"""Hostile XML through the public loader: XXE, billion laughs, DTDs, deep nesting and over-size
input all fail fast with UnsafeXmlError and read nothing.

"Reads nothing" is observed with Linux inotify on the file an XXE entity points to: any open of
it, by Python or by libxml2/expat in C, is an event (a control test shows an unsafe parser being
caught).
"""

from __future__ import annotations

import ctypes
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from lxml import etree

from sdf_bridge.description import load, xmlio
from sdf_bridge.errors import UnsafeXmlError

SECRET = "TOP-SECRET-CONTENT-1234"
XACRO_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'


class OpenWatch:
    """inotify watch of one file: :meth:`opened` tells whether anything opened or read it."""

    IN_ACCESS = 0x001
    IN_OPEN = 0x020

    def __init__(self, path: Path) -> None:
        self._libc = ctypes.CDLL(None, use_errno=True)
        self._fd = self._libc.inotify_init1(os.O_NONBLOCK)
        if (
            self._fd < 0
            or self._libc.inotify_add_watch(
                self._fd, os.fsencode(path), self.IN_OPEN | self.IN_ACCESS
            )
            < 0
        ):
            raise OSError(ctypes.get_errno(), "inotify is unavailable")

    def opened(self) -> bool:
        try:
            return bool(os.read(self._fd, 4096))
        except BlockingIOError:
            return False

    def close(self) -> None:
        os.close(self._fd)


@pytest.fixture
def secret_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text(SECRET)
    return path


@pytest.fixture
def watch(secret_file: Path) -> Iterator[OpenWatch]:
    if not sys.platform.startswith("linux"):
        pytest.skip("the no-read check uses Linux inotify")
    watcher = OpenWatch(secret_file)
    yield watcher
    watcher.close()


def _xxe(secret: Path) -> str:
    return (
        f'<?xml version="1.0"?>\n<!DOCTYPE robot [<!ENTITY xxe SYSTEM "file://{secret}">]>\n'
        '<robot name="r"><link name="&xxe;"/></robot>'
    )


BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
    + "".join(
        f' <!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n'
        for i in range(1, 10)
    )
    + ']>\n<robot name="&lol9;"><link name="a"/></robot>'
)


def _xxe_in_text(secret: Path) -> str:
    """XXE with the entity in element content (where XML allows external entities)."""
    return (
        f'<?xml version="1.0"?>\n<!DOCTYPE robot [<!ENTITY xxe SYSTEM "file://{secret}">]>\n'
        '<robot name="r"><link name="a"/><oddity>&xxe;</oddity></robot>'
    )


def test_watch_control_sees_an_unsafe_parser_read_the_file(
    secret_file: Path, watch: OpenWatch
) -> None:
    # the control that makes the no-read tests meaningful: a parser that resolves entities is seen
    assert not watch.opened()
    unsafe = etree.XMLParser(resolve_entities=True, load_dtd=True, no_network=True)
    root = etree.fromstring(_xxe_in_text(secret_file).encode(), unsafe)
    assert root.findtext("oddity") == SECRET
    assert watch.opened()


def test_xxe_in_element_text_is_refused_without_reading(
    secret_file: Path, watch: OpenWatch
) -> None:
    with pytest.raises(
        UnsafeXmlError, match=r"<string>:2: the document declares a DTD or entities"
    ):
        load(_xxe_in_text(secret_file))
    assert not watch.opened()


def test_xxe_string_is_refused_without_reading(secret_file: Path, watch: OpenWatch) -> None:
    with pytest.raises(
        UnsafeXmlError, match=r"<string>:2: the document declares a DTD or entities"
    ):
        load(_xxe(secret_file))
    assert not watch.opened()


def test_xxe_file_is_refused_without_reading(
    tmp_path: Path, secret_file: Path, watch: OpenWatch
) -> None:
    path = tmp_path / "xxe.urdf"
    path.write_text(_xxe(secret_file))
    with pytest.raises(
        UnsafeXmlError, match=r"xxe\.urdf:2: the document declares a DTD or entities.*Fix: remove"
    ):
        load(path)
    assert not watch.opened()


def test_xxe_in_a_xacro_file_is_refused_before_xacro_runs(
    tmp_path: Path, secret_file: Path, watch: OpenWatch
) -> None:
    path = tmp_path / "xxe.urdf.xacro"
    path.write_text(_xxe(secret_file).replace('<robot name="r">', f'<robot name="r" {XACRO_NS}>'))
    with pytest.raises(UnsafeXmlError, match=r"xxe\.urdf\.xacro:2: .*DTD"):
        load(path)
    assert not watch.opened()


def test_xxe_in_a_xacro_include_is_refused_without_reading(
    tmp_path: Path, secret_file: Path, watch: OpenWatch
) -> None:
    (tmp_path / "evil.xacro").write_text(
        _xxe(secret_file).replace('<robot name="r">', f"<robot {XACRO_NS}>")
    )
    top = tmp_path / "top.urdf.xacro"
    top.write_text(
        f'<robot name="r" {XACRO_NS}><xacro:include filename="evil.xacro"/><link name="b"/></robot>'
    )
    with pytest.raises(
        UnsafeXmlError, match=r"evil\.xacro:2: the document declares a DTD or entities"
    ):
        load(top)
    assert not watch.opened()


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32", "utf-7"])
def test_re_encoded_xxe_is_refused_without_reading(
    secret_file: Path, watch: OpenWatch, encoding: str
) -> None:
    # the byte scan decodes as the parser would: a DOCTYPE in UTF-16/32 (with or without BOM) or
    # in a declared encoding is found too
    text = _xxe(secret_file).replace(
        '<?xml version="1.0"?>', f'<?xml version="1.0" encoding="{encoding}"?>'
    )
    with pytest.raises(UnsafeXmlError, match=r"<string>:2: the document declares a DTD"):
        load(text.encode(encoding))
    assert not watch.opened()


def test_dtd_missed_by_the_scan_is_still_refused(
    secret_file: Path, watch: OpenWatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    # defence in depth: with the byte scan disabled, the parser neither loads the entity nor
    # accepts the document
    monkeypatch.setattr(xmlio, "check_safe", lambda raw, file: None)
    with pytest.raises(
        UnsafeXmlError, match=r"<string>: the document declares a DTD; it is refused"
    ):
        xmlio.parse_xml('<!DOCTYPE robot [<!ENTITY x "y">]><robot name="r"/>')
    with pytest.raises(
        UnsafeXmlError, match=r"<string>: the document declares a DTD; it is refused"
    ):
        xmlio.parse_xml(_xxe_in_text(secret_file))
    assert not watch.opened()


def test_deep_nesting_is_unsafe_not_a_syntax_error() -> None:
    text = '<robot name="r"><link name="a">' + "<x>" * 300 + "</x>" * 300 + "</link></robot>"
    with pytest.raises(
        UnsafeXmlError, match=r"<string>:1: elements are nested more than 256 levels deep"
    ):
        load(text)


@pytest.mark.parametrize("as_file", [False, True])
def test_billion_laughs_fails_fast(tmp_path: Path, as_file: bool) -> None:
    source: str | Path = BILLION_LAUGHS
    if as_file:
        source = tmp_path / "lol.urdf"
        source.write_text(BILLION_LAUGHS)
    start = time.perf_counter()
    with pytest.raises(
        UnsafeXmlError, match=r"(<string>|lol\.urdf):2: the document declares a DTD or entities"
    ):
        load(source)
    # no timed assertion (CONTRACT): the duration is only reported
    print(f"billion laughs refused in {1e3 * (time.perf_counter() - start):.2f} ms")


def test_billion_laughs_xacro_string_refused() -> None:
    text = BILLION_LAUGHS.replace(
        '<robot name="&lol9;">', '<robot name="&lol9;" xmlns:xacro="http://www.ros.org/wiki/xacro">'
    )
    with pytest.raises(UnsafeXmlError, match="DTD"):
        load(
            text.replace('<link name="a"/>', '<xacro:property name="p" value="1"/><link name="a"/>')
        )


def test_plain_doctype_is_refused() -> None:
    with pytest.raises(UnsafeXmlError, match=r"remove the <!DOCTYPE"):
        load('<?xml version="1.0"?>\n<!DOCTYPE robot>\n<robot name="r"><link name="a"/></robot>')


def test_oversize_string_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xmlio, "MAX_XML_BYTES", 100)
    with pytest.raises(UnsafeXmlError, match=r"over the 100-byte cap"):
        load('<robot name="r"><link name="a"/>' + "<!-- padding -->" * 10 + "</robot>")


def test_oversize_file_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("the no-read check uses Linux inotify")
    path = tmp_path / "big.urdf"
    path.write_text('<robot name="r"><link name="a"/>' + " " * 500 + "</robot>")
    monkeypatch.setattr(xmlio, "MAX_XML_BYTES", 100)
    watcher = OpenWatch(path)
    try:
        with pytest.raises(
            UnsafeXmlError, match=r"big\.urdf: file is 540 bytes, over the 100-byte cap"
        ):
            load(path)
        assert not watcher.opened()  # the size check comes first
    finally:
        watcher.close()


def test_oversize_sdf_include_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "part.sdf").write_text(
        '<sdf version="1.9"><model name="part"><link name="p"/></model></sdf>' + " " * 300
    )
    top = tmp_path / "top.sdf"
    top.write_text(
        '<sdf version="1.9"><model name="m"><link name="a"/><include><uri>part.sdf</uri>'
        "</include></model></sdf>"
    )
    monkeypatch.setattr(xmlio, "MAX_XML_BYTES", 200)
    with pytest.raises(
        UnsafeXmlError, match=r"part\.sdf: file is \d+ bytes, over the 200-byte cap"
    ):
        load(top)


def test_billion_laughs_in_a_xacro_include_is_refused(tmp_path: Path) -> None:
    (tmp_path / "lol.xacro").write_text(
        BILLION_LAUGHS.replace('<robot name="&lol9;">', f'<robot name="&lol9;" {XACRO_NS}>')
    )
    top = tmp_path / "top.urdf.xacro"
    top.write_text(
        f'<robot name="r" {XACRO_NS}><xacro:include filename="lol.xacro"/><link name="b"/></robot>'
    )
    with pytest.raises(
        UnsafeXmlError, match=r"lol\.xacro:2: the document declares a DTD or entities"
    ):
        load(top)


def test_oversize_xacro_include_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "big.xacro").write_text(
        f'<robot {XACRO_NS}><link name="x"/>' + " " * 500 + "</robot>"
    )
    top = tmp_path / "top.urdf.xacro"
    top.write_text(f'<robot name="r" {XACRO_NS}><xacro:include filename="big.xacro"/></robot>')
    monkeypatch.setattr(xmlio, "MAX_XML_BYTES", 200)
    with pytest.raises(
        UnsafeXmlError, match=r"big\.xacro: file is \d+ bytes, over the 200-byte cap"
    ):
        load(top)
