"""Names of a package imported on first use (PEP 562 module ``__getattr__``), so that importing
a light submodule does not load the heavy ones (``sdf-bridge check`` loads no control path)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, where: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of ``package``: a name of ``where`` (name →
    submodule of ``package``) is imported from its submodule on first access and kept in the
    package's namespace (so it is imported once).

    Use in a package's ``__init__``: ``__getattr__, __dir__ = lazy_exports(__name__, _WHERE)``.

    Raises (from the returned ``__getattr__``):
        AttributeError: a name ``where`` does not list.
    """

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)  # (once)
        return value

    def __dir__() -> list[str]:
        return sorted([*vars(sys.modules[package]), *where])

    return __getattr__, __dir__
