"""The documentation (doc/) builds with Sphinx with warnings as errors, nitpicky: broken
reStructuredText or MyST in a page or a docstring, a cross-reference of a page that does not
resolve, a page left out of every toctree, a missing picture, all fail the build."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path

from prerequisites import REPO, missing

BUDGET_S = 280.0
"""Bound on one build: about 40 s of CPU, in two processes (``-j 2``). Measured on the 2-core
machine: 46 s at load average 4.5 in one process; at load 13.7, 73 s with ``-j 2`` against
161 s in one process (setup.cfg bounds a test at 300 s)."""


def test_sphinx_build_has_no_warning(tmp_path: Path) -> None:
    """The whole site, API reference included: every cross-reference resolves (sdf_bridge's
    own names always; the standard library's through python3-doc's inventory)."""
    for module in ("sphinx", "myst_parser", "matplotlib"):
        if importlib.util.find_spec(module) is None:
            missing(f"{module} is not installed (pip install -e '.[doc]'; .ci/setup does it)")
    if not any(Path("/usr/share/doc").glob("python3*/html/objects.inv")):
        missing(
            "the standard library's Sphinx inventory is not installed (apt-get install "
            "python3-doc; .ci/setup does it): the build would leave its names unchecked"
        )
    out = tmp_path / "html"
    start = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-j", "2", "-b", "html"]
        + ["-d", str(tmp_path / "doctrees"), str(REPO / "doc"), str(out)],
        capture_output=True,
        text=True,
        timeout=BUDGET_S,
        env=_env(),
    )
    elapsed = time.monotonic() - start
    assert run.returncode == 0, f"sphinx-build failed after {elapsed:.0f} s:\n{run.stderr[-6000:]}"
    for page in ("index", "api", "user/parameters", "user/transmissions", "dev/architecture"):
        assert (out / f"{page}.html").is_file(), page
    parameters = (out / "user" / "parameters.html").read_text(encoding="utf-8")
    assert "sdf-bridge-parameters" in parameters and "command_timeout" in parameters
    pictures = ("step_response.png", "transmission_matrix.png", "cycle_cost.png", "demo_robots.png")
    for picture in pictures:
        assert (out / "_images" / picture).is_file(), picture


def _env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    return env
