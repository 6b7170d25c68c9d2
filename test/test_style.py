"""The code style kept by ``ruff.toml``: pyflakes, import order and lines of at most 100
characters (``ruff check``), the layout of ``ruff format`` (of the ruff release the layout was
made with: another release may lay out differently), and no ``noqa`` or ``type: ignore``
without a reason after it on the same line."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from prerequisites import missing

REPO = Path(__file__).resolve().parents[1]
CODE = ("sdf_bridge", "test", "bench", "launch", "doc", "setup.py")
#: The ruff release whose ``ruff format`` layout the code has (setup.py's test extra pins it).
FORMAT_RELEASE = "0.17"


def _ruff() -> str:
    """The ruff executable of this environment (the set-up installs it with the test extra)."""
    found = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if found is None:
        missing("ruff not installed (pip install ruff; the test extra and .ci/setup install it)")
    return found


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [_ruff(), *args, "--no-cache", *CODE], cwd=REPO, capture_output=True, text=True
    )


def test_ruff_check() -> None:
    run = _run("check")
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_format() -> None:
    version = subprocess.run([_ruff(), "--version"], capture_output=True, text=True).stdout
    release = re.search(r"(\d+\.\d+)\.\d+", version)
    if release is None or release.group(1) != FORMAT_RELEASE:
        missing(f"ruff {FORMAT_RELEASE}.x lays out the code; this is {version.strip()!r}")
    run = _run("format", "--check")
    assert run.returncode == 0, run.stdout + run.stderr


#: A suppression marker, then (group 3) what follows it on the line.
SUPPRESSION = re.compile(
    r"#\s*(noqa|type:\s*ignore)\b(\[[^\]]*\]|:\s*[A-Z]+[0-9]+(,\s*[A-Z]+[0-9]+)*)?(.*)$"
)
#: A reason: text in parentheses, a comment (``# …``) or `` - text`` after the marker.
REASON = re.compile(r"^\s*(\(.+\)|#\s*\S|[-—]\s+\S)")


def unexplained_suppressions(text: str) -> list[int]:
    """Line numbers (1-based) of ``text`` with a ``# noqa`` / ``# type: ignore`` and no reason
    after it on its line: a comment (``# type: ignore[arg-type]  # a 3-tuple``) or text in
    parentheses (``# noqa: E402 (after sys.path is set)``)."""
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        match = SUPPRESSION.search(line)
        if match is not None and not REASON.match(match.group(4)):
            lines.append(number)
    return lines


def test_suppression_rule() -> None:
    assert unexplained_suppressions("x = 1  # noqa\n") == [1]
    assert unexplained_suppressions("x = 1  # noqa: F401\n") == [1]
    assert unexplained_suppressions("x = f()  # type: ignore[arg-type]\n") == [1]
    assert unexplained_suppressions("import a  # noqa: E402 (after sys.path is set)\n") == []
    assert unexplained_suppressions("x = f()  # type: ignore[arg-type]  # a 3-tuple\n") == []
    assert unexplained_suppressions("except Exception:  # noqa: BLE001 - a result\n") == []
    assert unexplained_suppressions("y = 2\nx = 1  # noqa: F401, E501\n") == [2]


def test_every_suppression_says_why() -> None:
    paths = sorted(
        path
        for name in CODE
        for path in ((REPO / name).rglob("*.py") if (REPO / name).is_dir() else [REPO / name])
    )
    unexplained = [
        f"{path.relative_to(REPO)}:{number}"
        for path in paths
        if path != Path(__file__).resolve()  # (its tests show the markers)
        for number in unexplained_suppressions(path.read_text(encoding="utf-8"))
    ]
    assert not unexplained, "suppressions without a reason:\n" + "\n".join(unexplained)
