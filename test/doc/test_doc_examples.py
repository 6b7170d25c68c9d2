"""The Python examples of the documentation run and give the values their comments state."""

from __future__ import annotations

import re

import pytest
from prerequisites import REPO


def _block(page: str, marker: str) -> str:
    text = (REPO / page).read_text(encoding="utf-8")
    block = re.search(rf"<!-- {marker}[^\n]*-->\n```python\n(.*?)```", text, re.S)
    assert block is not None, f"{page} lost its {marker} block"
    return block.group(1)


def test_python_api_example(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    namespace: dict = {}
    code = _block("doc/user/command_line.md", "python api example")
    exec(compile(code, "doc/user/command_line.md", "exec"), namespace)  # our own example
    assert (namespace["limit"].lower, namespace["limit"].upper) == (-2.5, 2.5)
    assert (namespace["limit"].effort, namespace["limit"].velocity) == (80.0, 2.0)
    assert namespace["base_yaw"] == pytest.approx(0.2, abs=1e-12)
    assert namespace["elbow"] == pytest.approx(1.0, abs=1e-9)  # rate-limited at 2 rad/s
    assert namespace["elbow_motor"] == pytest.approx(80.0, abs=1e-9)
