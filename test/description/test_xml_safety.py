"""Hostile XML through the public loader: XXE, billion laughs, DTDs and over-size input all fail
fast with UnsafeXmlError and read nothing."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from sdf_bridge.description import load
from sdf_bridge.description import xmlio
from sdf_bridge.errors import UnsafeXmlError

SECRET = "TOP-SECRET-CONTENT-1234"


@pytest.fixture
def secret_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text(SECRET)
    return path


def _xxe(secret: Path) -> str:
    return (
        f'<?xml version="1.0"?>\n<!DOCTYPE robot [<!ENTITY xxe SYSTEM "file://{secret}">]>\n'
        '<robot name="r"><link name="&xxe;"/></robot>'
    )


BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
    + "".join(
        f' <!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n' for i in range(1, 10)
    )
    + ']>\n<robot name="&lol9;"><link name="a"/></robot>'
)


def test_xxe_string_is_refused_without_reading(secret_file: Path) -> None:
    with pytest.raises(UnsafeXmlError, match=r"<string>:\d+: .*DTD") as info:
        load(_xxe(secret_file))
    assert SECRET not in str(info.value)


def test_xxe_file_is_refused_without_reading(tmp_path: Path, secret_file: Path) -> None:
    path = tmp_path / "xxe.urdf"
    path.write_text(_xxe(secret_file))
    with pytest.raises(UnsafeXmlError, match=r"xxe\.urdf:\d+: .*DTD") as info:
        load(path)
    assert SECRET not in str(info.value)


def test_xxe_in_a_xacro_file_is_refused_before_xacro_runs(tmp_path: Path, secret_file: Path) -> None:
    path = tmp_path / "xxe.urdf.xacro"
    path.write_text(_xxe(secret_file).replace('<robot name="r">', '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'))
    with pytest.raises(UnsafeXmlError, match=r"xxe\.urdf\.xacro:2: .*DTD") as info:
        load(path)
    assert SECRET not in str(info.value)


def test_billion_laughs_fails_fast() -> None:
    start = time.perf_counter()
    with pytest.raises(UnsafeXmlError, match="DTD"):
        load(BILLION_LAUGHS)
    # no timed assertion (CONTRACT): the duration is only reported
    print(f"billion laughs refused in {1e3 * (time.perf_counter() - start):.2f} ms")


def test_billion_laughs_xacro_string_refused() -> None:
    text = BILLION_LAUGHS.replace('<robot name="&lol9;">', '<robot name="&lol9;" xmlns:xacro="http://www.ros.org/wiki/xacro">')
    with pytest.raises(UnsafeXmlError, match="DTD"):
        load(text.replace('<link name="a"/>', '<xacro:property name="p" value="1"/><link name="a"/>'))


def test_plain_doctype_is_refused() -> None:
    with pytest.raises(UnsafeXmlError, match=r"remove the <!DOCTYPE"):
        load('<?xml version="1.0"?>\n<!DOCTYPE robot>\n<robot name="r"><link name="a"/></robot>')


def test_oversize_string_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xmlio, "MAX_XML_BYTES", 100)
    with pytest.raises(UnsafeXmlError, match=r"over the 100-byte cap"):
        load('<robot name="r"><link name="a"/>' + "<!-- padding -->" * 10 + "</robot>")


def test_oversize_file_is_refused_before_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.urdf"
    path.write_text('<robot name="r"><link name="a"/>' + " " * 500 + "</robot>")
    monkeypatch.setattr(xmlio, "MAX_XML_BYTES", 100)

    def no_read(self: Path) -> bytes:  # the size check must come first
        raise AssertionError("the file was read")

    monkeypatch.setattr(Path, "read_bytes", no_read)
    with pytest.raises(UnsafeXmlError, match=r"big\.urdf: file is \d+ bytes, over the 100-byte cap"):
        load(path)
