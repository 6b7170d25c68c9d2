"""Sphinx configuration of sdf_bridge's documentation (rosdoc2 layout: ``doc/conf.py`` and
``doc/index.rst`` in the package; rosdoc2 or plain ``sphinx-build`` builds it).

Build: ``.venv/bin/python -m sphinx -W --keep-going -n -b html doc doc/_build/html``
(test/doc/test_doc_build.py does the same into a temporary folder). The pictures are drawn by
``doc/scripts/*.py`` at build time (``make_figures``), from the repository's demo robots, offline.
"""

from __future__ import annotations

import builtins
import os
import re
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
    "sphinx.ext.intersphinx",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "myst_parser",
    "parameter_table",
    "bound_names",
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
napoleon_use_ivar = False

templates_path = ["_templates"]  # autosummary: a module's page is its automodule + submodules


def _python_inventory() -> str | None:
    """The standard library's Sphinx inventory from Debian's ``python3-doc`` (offline; .ci/setup
    installs it), of this Python's version when there, else None."""
    for folder in (f"python{sys.version_info[0]}.{sys.version_info[1]}", "python3"):
        path = Path("/usr/share/doc") / folder / "html" / "objects.inv"
        if path.is_file():
            return str(path)
    return None


PYTHON_INVENTORY = _python_inventory()
intersphinx_mapping = (
    {"python": ("https://docs.python.org/3", PYTHON_INVENTORY)} if PYTHON_INVENTORY else {}
)

# Nitpicky (-n): every cross-reference must resolve, of the hand-written pages and of the API
# reference alike. A docstring's name means what it means in its module's code (bound_names).
nitpicky = True
# Other packages' names resolve through intersphinx where an inventory exists offline (the
# standard library's, from Debian's python3-doc). These publish none that the build can reach
# (CI reaches only the package registries), so their names are left unlinked, each package by
# its own pattern; sdf_bridge's own names are never ignored.
nitpick_ignore_regex = [
    # MuJoCo's Python bindings: documented in prose on mujoco.readthedocs.io, no inventory
    (r"py:.*", r"mujoco\..*"),
    # numpy: numpy.org's inventory is online only (no Debian or PyPI package ships it)
    (r"py:.*", r"numpy\..*"),
    # lxml: lxml.de's API reference is online only (Debian's python-lxml-doc has no inventory)
    (r"py:.*", r"lxml\..*"),
    # rclpy and ROS message packages: docs.ros.org's inventories are online only
    (r"py:.*", r"(rclpy|\w+_msgs|\w+_srvs|\w+_interfaces)\..*"),
    # argparse.ArgumentTypeError: raised by argparse types, absent from the Python inventory
    (r"py:exc", r"argparse\.ArgumentTypeError"),
]
if PYTHON_INVENTORY is None:  # no python3-doc: the standard library's names go unlinked
    nitpick_ignore_regex.append(
        (r"py:.*", rf"({'|'.join(sorted(sys.stdlib_module_names))})(\..*)?")
    )
    nitpick_ignore_regex.append((r"py:.*", "|".join(n for n in dir(builtins) if n[0] != "_")))

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


#: napoleon reads the first line of an attribute's docstring as ``type: description``
#: (Google style's inline attribute type); ours state the contract in prose ("The rate
#: joint_states are published at (Hz): ...") and take the type from the annotation, so that
#: text would become cross-references to nonexistent types. Their original lines, kept before
#: napoleon runs (priority 400 < napoleon's 500), are read as an ordinary docstring after it.
_ATTRIBUTE_DOCSTRINGS: dict[str, list[str]] = {}


def _keep_attribute_docstring(app, what, name, obj, options, lines) -> None:
    if what in ("attribute", "data", "property"):
        _ATTRIBUTE_DOCSTRINGS[name] = list(lines)


def _attribute_docstring_as_prose(app, what, name, obj, options, lines) -> None:
    original = _ATTRIBUTE_DOCSTRINGS.pop(name, None)
    if original is not None:
        from sphinx.ext.napoleon.docstring import GoogleDocstring

        lines[:] = GoogleDocstring(original, app.config, app, "object", name, obj, options).lines()


#: One entry of an "Attributes:" section naming several attributes: ``lower, upper: ...``.
_SHARED_ENTRY = re.compile(r"^(\s+)(\w+(?:, \w+)+)((?: \([^)]*\))?:\s.*)$")


def _split_shared_attributes(app, what, name, obj, options, lines) -> None:
    """``lower, upper: position limits`` in a class's "Attributes:" section → one entry per
    attribute with the shared text (napoleon would read ``lower,`` as the type of ``upper``)."""
    if what not in ("class", "exception"):
        return
    out: list[str] = []
    section = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip() and not line.startswith(" "):
            section = line.strip()
        match = _SHARED_ENTRY.match(line) if section == "Attributes:" else None
        if match is None:
            out.append(line)
            i += 1
            continue
        indent, names, rest = match.groups()
        body = []
        i += 1
        while i < len(lines) and lines[i].startswith(indent + " "):  # its continuation lines
            body.append(lines[i])
            i += 1
        for attribute in names.split(", "):
            out += [f"{indent}{attribute}{rest}", *body]
    lines[:] = out


def _skip_named_tuple_fields(app, what, name, obj, skip, options) -> bool | None:
    """A NamedTuple's generated field accessors ("Alias for field number N"): the class's
    "Attributes:" section documents the fields."""
    doc = getattr(obj, "__doc__", None)
    if isinstance(doc, str) and doc.startswith("Alias for field number"):
        return True
    return None


def setup(app) -> None:
    app.connect("builder-inited", _make_figures)
    app.connect("autodoc-skip-member", _skip_named_tuple_fields)
    app.connect("autodoc-process-docstring", _split_shared_attributes, priority=400)
    app.connect("autodoc-process-docstring", _keep_attribute_docstring, priority=400)
    app.connect("autodoc-process-docstring", _attribute_docstring_as_prose, priority=600)
