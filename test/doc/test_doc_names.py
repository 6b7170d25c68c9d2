"""The documentation names only what exists: every dotted ``sdf_bridge.…`` name in README.md
and the pages of doc/ imports (a module, or an attribute of one), and every repository file
they name (``sdf_bridge/…/x.py``, ``config/x.yaml``, ``test/…/test_x.py``, …) is there. So a
module moved or renamed fails here until the documentation follows."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from prerequisites import REPO

PAGES = [REPO / "README.md", *sorted((REPO / "doc").rglob("*.md")), *(REPO / "doc").glob("*.rst")]
DOTTED = re.compile(r"\bsdf_bridge(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
# a repository path with a file extension, at one of the repository's top-level folders
FILE = re.compile(
    r"(?<![\w/.-])((?:sdf_bridge|test|bench|config|launch|urdf|doc|resource|\.ci)/[\w./-]*\.\w+)"
)
NOT_HERE = {"doc/reports/survey_2026_12_04.md"}
"""Pages naming files of other repositories (the survey's robots), not checked for paths."""


def resolves(name: str) -> bool:
    """Whether the dotted ``name`` is a module of the package or an attribute of one."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ModuleNotFoundError:
            continue
        try:
            for attribute in parts[k:]:
                obj = getattr(obj, attribute)
        except AttributeError:
            return False
        return True
    return False


def _page_id(page: Path) -> str:
    return page.relative_to(REPO).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_dotted_names_resolve(page: Path) -> None:
    names = sorted(set(DOTTED.findall(page.read_text(encoding="utf-8"))))
    assert [n for n in names if not resolves(n)] == []


@pytest.mark.parametrize("page", [p for p in PAGES if _page_id(p) not in NOT_HERE], ids=_page_id)
def test_named_files_exist(page: Path) -> None:
    files = {f.rstrip(".") for f in FILE.findall(page.read_text(encoding="utf-8"))}
    assert sorted(f for f in files if not (REPO / f).exists()) == []


def test_resolves() -> None:
    assert resolves("sdf_bridge.description.load")
    assert resolves("sdf_bridge.transmissions")
    assert not resolves("sdf_bridge.no_such_module")
    assert not resolves("sdf_bridge.description.no_such_name")
