"""Sphinx configuration of sdf_bridge's documentation (rosdoc2 layout: ``doc/conf.py`` and
``doc/index.rst`` in the package; rosdoc2 or plain ``sphinx-build`` builds it).

Build: ``.venv/bin/python -m sphinx -W --keep-going -n -b html doc doc/_build/html``
(test/doc/test_doc_build.py does the same into a temporary folder). The pictures are drawn by
``doc/scripts/*.py`` at build time (``make_figures``), from the repository's demo robots, offline.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parent
REPO = DOC.parent
sys.path.insert(0, str(REPO))  # the package from this checkout, before any installed copy
sys.path.insert(0, str(DOC / "_ext"))
sys.path.insert(0, str(DOC / "scripts"))

project = "sdf_bridge"
author = "sdf_bridge maintainers"
copyright = "sdf_bridge maintainers, Apache-2.0"  # noqa: A001 (Sphinx's name for it)
release = version = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "myst_parser",
    "parameter_table",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "scripts", "_ext"]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3

# the API reference: every module's docstrings (Google style, read by napoleon)
autosummary_generate = True
# ignore-module-all: a package re-exporting its modules' names documents them once, where defined
autodoc_default_options = {"members": True, "show-inheritance": True, "ignore-module-all": True}
autodoc_typehints = "none"  # the signatures carry them; the docstrings say what they mean
autodoc_member_order = "bysource"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True  # "Attributes:" as fields: dataclass fields are documented once

templates_path = ["_templates"]  # autosummary: a module's page is its automodule + submodules

# Nitpicky: every cross-reference of the hand-written pages must resolve (-n). The API reference
# is built from the docstrings, whose Google-style "Args:"/"Returns:" name local types, units
# and third-party classes without inventories (no intersphinx: the build is offline); its
# unresolved names are not reported (see _quiet_api_references).
nitpicky = True
nitpick_ignore = [
    ("py:class", "numpy.ndarray"),
    ("py:class", "rclpy.node.Node"),
    ("py:class", "lxml.etree._Element"),
]
# Short names that two modules define (``loader``, ``registry``, ``model``) resolve to the first
# match; issue 28 item 3 renames the look-alike modules.
suppress_warnings = ["ref.python"]

html_theme = "alabaster"
html_static_path = ["_static"]
html_title = "sdf_bridge"

# CI reaches only the package registries: the linkcheck builder checks the local links, and the
# external ones only with SDF_BRIDGE_LINKCHECK_EXTERNAL=1 on a connected machine
linkcheck_ignore = [] if os.environ.get("SDF_BRIDGE_LINKCHECK_EXTERNAL") else [r"https?://.*"]


def _make_figures(app) -> None:
    """Draw the pictures into doc/_static/generated (skipped with SDF_BRIDGE_DOC_FIGURES=0)."""
    if os.environ.get("SDF_BRIDGE_DOC_FIGURES", "1") == "0":
        return
    import make_figures

    make_figures.main(DOC / "_static" / "generated")


def _quiet_api_references(app, domain, node) -> bool:
    """Do not report an unresolved reference of the generated API pages (see ``nitpicky``)."""
    return str(node.get("refdoc", "")).startswith("_api/")


def setup(app) -> None:
    app.connect("builder-inited", _make_figures)
    app.connect("warn-missing-reference", _quiet_api_references)
