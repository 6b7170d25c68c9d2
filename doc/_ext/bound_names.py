"""Sphinx extension: a cross-reference in a docstring means what the name means in the code of
the module that holds the docstring.

A docstring of ``sdf_bridge.description.loader`` writes :class:`Robot` because the module
imports ``Robot``; ``sdf_bridge.hardware.HardwareSystem`` names a class the package re-exports
from ``sdf_bridge.hardware.system``, where the API reference documents it (conf.py:
``ignore-module-all``). Sphinx's own lookup knows neither: it finds only names documented under
the dotted path written. When it fails (the ``missing-reference`` event), this extension looks
the name up as the module's code sees it: in the class, then the module of the docstring, then
through the module's own import statements (those under ``TYPE_CHECKING`` and inside functions
too), then as an absolute or (with a leading ``.``) package-relative module path; it follows
the attributes and resolves the reference to the object's documented home (``__module__`` +
``__qualname__``; a constant: the module its import comes from). Another package's name found
so goes to intersphinx, or, when conf.py's ``nitpick_ignore_regex`` leaves that package
unlinked, is not reported.

Nothing of sdf_bridge is ignored: a name the module does not bind, or whose object the API
reference does not document (a private helper, an undocumented attribute), stays unresolved,
and the nitpicky build (``-n -W``) fails on it.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
from types import ModuleType
from typing import Any

from sphinx.application import Sphinx

#: Only our own package's names are looked up (another package's go to intersphinx or
#: conf.py's nitpick lists).
PACKAGE = "sdf_bridge"


def _module(name: str) -> ModuleType | None:
    """The module ``name`` if it is (part of) our package and imports, else None."""
    if name != PACKAGE and not name.startswith(PACKAGE + "."):
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _home(obj: Any) -> str | None:
    """Where ``obj`` is defined, as a dotted name, for a module, class, function or property
    (the objects autodoc documents under their own name); None for a value."""
    if inspect.ismodule(obj):
        return obj.__name__
    if isinstance(obj, (classmethod, staticmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        obj = obj.fget
    if not (inspect.isclass(obj) or inspect.isfunction(obj)):
        return None
    if "<" in obj.__qualname__:  # a local class or function
        return None
    return f"{obj.__module__}.{obj.__qualname__}"


def _walk(start: Any, home: str, parts: list[str]) -> list[str]:
    """The documented name the dotted ``parts`` reach from ``start`` (whose name is ``home``):
    each step moves to the home of the object reached, and a value (an attribute, a constant)
    keeps its name under the home of its owner. Empty when a module does not bind a part."""
    obj = start
    for i, part in enumerate(parts):
        try:  # a class's own body first (a property or a classmethod stays itself)
            obj = inspect.getattr_static(obj, part) if inspect.isclass(obj) else getattr(obj, part)
        except AttributeError:
            if inspect.isclass(obj):  # e.g. a dataclass field without a default
                return [".".join([home, *parts[i:]])]
            obj = _module(f"{home}.{part}") if inspect.ismodule(obj) else None
            if obj is None:  # not bound there (an import under TYPE_CHECKING is not)
                return []
        found = _home(obj)
        if found is None:  # a value: named where its module's import takes it from, if so
            origin = imported_names(home).get(part) if _module(home) is not None else None
            if origin is not None and origin != f"{home}.{part}":
                return _absolute([*origin.split("."), *parts[i + 1 :]])
            return [".".join([home, *parts[i:]])]
        home = found
    return [home]


@functools.lru_cache(maxsize=None)
def imported_names(module: str) -> dict[str, str]:
    """Name → absolute dotted origin of every ``import`` / ``from ... import`` statement in the
    source of ``module``, wherever it stands (top level, under ``TYPE_CHECKING``, in a
    function): the names its docstrings may use."""
    mod = _module(module)
    path = getattr(mod, "__file__", None)
    if not path or not path.endswith(".py"):
        return {}
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    package = module.split(".") if hasattr(mod, "__path__") else module.split(".")[:-1]
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    root = alias.name.split(".", 1)[0]
                    names.setdefault(root, root)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for alias in node.names:
                if alias.name != "*":
                    names.setdefault(alias.asname or alias.name, f"{base}.{alias.name}")
    return names


def candidates(target: str, module: str | None, cls: str | None) -> list[str]:
    """The documented names ``target`` may stand for, as the code of ``module`` (inside class
    ``cls``) sees it; the first that the API reference documents wins."""
    names: list[str] = []
    relative = target.startswith(".")
    parts = target.lstrip(".").split(".")
    if module:
        mod = _module(module)
        if mod is not None:
            scopes = []
            if cls:
                owner: Any = mod
                for part in cls.split("."):
                    owner = getattr(owner, part, None)
                if inspect.isclass(owner):
                    scopes.append(owner)
            scopes.append(mod)
            for scope in scopes:
                names += _walk(scope, _home(scope) or module, parts)
            origin = imported_names(module).get(parts[0])
            if origin is not None:  # where the module's import statement takes it from
                names += _absolute([*origin.split("."), *parts[1:]]) or [
                    ".".join([origin, *parts[1:]])
                ]
            if relative:  # ``.inertia.X`` in ``pkg.a``: ``pkg.inertia.X``
                package = module if hasattr(mod, "__path__") else module.rpartition(".")[0]
                names += _absolute(f"{package}.{target.lstrip('.')}".split("."))
    names += _absolute(parts)
    return list(dict.fromkeys(names))


def _absolute(parts: list[str]) -> list[str]:
    """``parts`` as an absolute dotted path: the longest importable module, then attributes."""
    for i in range(len(parts), 0, -1):
        mod = _module(".".join(parts[:i]))
        if mod is not None:
            return _walk(mod, mod.__name__, parts[i:])
    return []


def _resolve(app: Sphinx, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if not target or not (
        target.startswith(PACKAGE + ".")
        or target.startswith(".")
        or str(node.get("py:module") or "").startswith(PACKAGE)
    ):
        return None
    domain = env.get_domain("py")
    for name in candidates(target, node.get("py:module"), node.get("py:class")):
        explicit = node.deepcopy()
        explicit.attributes.pop("refspecific", None)
        explicit["py:module"] = explicit["py:class"] = None
        explicit["reftarget"] = name
        if name in domain.objects:
            return domain.resolve_xref(
                env, node["refdoc"], app.builder, node["reftype"], name, explicit, contnode
            )
        if not name.startswith(PACKAGE + ".") and "sphinx.ext.intersphinx" in app.extensions:
            # another package's name the module imported (``Path`` → ``pathlib.Path``)
            from sphinx.ext.intersphinx import missing_reference

            found = missing_reference(app, env, explicit, contnode)
            if found is not None:
                return found
    return None


def _ignored_as_bound(app: Sphinx, domain, node) -> bool | None:
    """An unresolved name that stands for another package's name which conf.py's
    ``nitpick_ignore``/``nitpick_ignore_regex`` leave unlinked (``etree._Element`` where the
    module did ``from lxml import etree``) is not reported, as that name would not be."""
    if node.get("refdomain") != "py" or not node.get("py:module"):
        return None
    role = f"py:{node.get('reftype')}"
    names = candidates(node.get("reftarget", ""), node.get("py:module"), node.get("py:class"))
    for name in names:
        if name.startswith(PACKAGE + "."):
            continue
        if (role, name) in app.config.nitpick_ignore or any(
            re.fullmatch(kind, role) and re.fullmatch(pattern, name)
            for kind, pattern in app.config.nitpick_ignore_regex
        ):
            return True
    return None


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("missing-reference", _resolve)
    app.connect("warn-missing-reference", _ignored_as_bound)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
