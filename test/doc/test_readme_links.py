"""README.md stays an entry point: at most 200 lines, every relative link resolves to a file
of the repository (and a ``#fragment`` to a heading of that page), and the test command CI runs
(.ci/run) is the README's. The documentation's own links are checked by the nitpicky Sphinx
build (test_doc_build.py); external URLs cannot be checked here (CI reaches only the package
registries)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from prerequisites import REPO

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def relative_links(markdown: str) -> list[str]:
    """The link targets of ``markdown`` outside code blocks that are not URLs."""
    text = FENCE.sub("", markdown)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def anchors(markdown: str) -> set[str]:
    """GitHub's (and MyST's) anchors of the headings of ``markdown``."""
    out = set()
    for title in re.findall(r"^#{1,6} +(.+?) *$", FENCE.sub("", markdown), re.M):
        slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        out.add(slug)
    return out


def broken_links(page: Path, root: Path = REPO) -> list[str]:
    """Relative links of ``page`` whose file (or heading) does not exist, or lies outside
    ``root``."""
    broken = []
    for target in relative_links(page.read_text(encoding="utf-8")):
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or root.resolve() not in (file, *file.parents):
            broken.append(target)
        elif fragment and file.suffix == ".md":
            if fragment not in anchors(file.read_text(encoding="utf-8")):
                broken.append(target)
    return broken


def test_readme_relative_links_resolve() -> None:
    readme = REPO / "README.md"
    assert len(relative_links(readme.read_text(encoding="utf-8"))) >= 15
    assert broken_links(readme) == []


def test_readme_is_short() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200


def test_ci_runs_the_readme_test_command() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    command = ".venv/bin/python -m pytest test -q"
    assert f"bash .ci/setup && {command}\n" in readme
    assert re.search(rf"^SDF_BRIDGE_STRICT=1 {re.escape(command)}$", ci, re.M)


@pytest.mark.parametrize(
    ("text", "broken"),
    [
        ("[a](README.md) [b](doc/index.rst) [c](https://example.org/x)", []),
        ("[a](no_such_file.md)", ["no_such_file.md"]),
        (
            "[a](README.md#no-such-heading) [b](README.md#two-commands)",
            ["README.md#no-such-heading"],
        ),
        ("[a](#two-commands)\n```\n[b](inside_a_code_block.md)\n```", []),
        ("[a](../outside_the_root)", ["../outside_the_root"]),
    ],
)
def test_broken_links_finds_each_kind(tmp_path: Path, text: str, broken: list[str]) -> None:
    root = tmp_path / "repo"
    (root / "doc").mkdir(parents=True)
    (root / "doc" / "index.rst").write_text("x\n")
    (tmp_path / "outside_the_root").write_text("x\n")
    page = root / "README.md"
    page.write_text("# sdf_bridge\n\n## Two commands\n\n" + text + "\n", encoding="utf-8")
    assert broken_links(page, root) == broken
