"""Expansion of xacro files in-process with the ``xacro`` library (ROS 2 xacro, PyPI).

``$(find pkg)`` is resolved like ``package://``: first through the caller's ``package_paths`` map,
then through the ament index. xacro looks packages up in its module-level function
``xacro.substitution_args._eval_find``; :func:`expand_xacro` replaces that function for the
duration of one expansion (under a lock, since xacro keeps its state in module globals and is
not re-entrant) and restores it afterwards. xacro's own warnings, which it prints to stderr, are
captured and returned instead.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import threading
from collections.abc import Iterator, Mapping

from ..errors import DescriptionError, UnsafeXmlError, XacroError
from . import xmlio
from .resolve import PackagePaths, find_package

LOG = logging.getLogger("sdf_bridge.description")

#: Namespace URIs that mark a document as xacro.
XACRO_NAMESPACES = ("http://www.ros.org/wiki/xacro", "http://ros.org/wiki/xacro")

_LOCK = threading.RLock()
_NAMESPACES_BYTES = tuple(ns.encode("ascii") for ns in XACRO_NAMESPACES)


def looks_like_xacro(path: str | os.PathLike[str] | None, data: str | bytes) -> bool:
    """True when ``path`` ends in ``.xacro``, or the document declares the xacro namespace and
    uses xacro (a ``<xacro:`` element or a ``${...}``/``$(...)`` substitution).

    Flattened files written by ROS 1 xacro keep the namespace declaration but use no xacro; they
    are read directly, which is much faster than running xacro on them.
    """
    if path is not None and os.fspath(path).endswith(".xacro"):
        return True
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if not any(ns in raw for ns in _NAMESPACES_BYTES):
        return False
    return b"<xacro:" in raw or b"${" in raw or b"$(" in raw


@contextlib.contextmanager
def _find_hook(package_paths: PackagePaths | None) -> Iterator[None]:
    """Temporarily route xacro's ``$(find pkg)`` through :func:`find_package`."""
    from xacro import substitution_args

    original = substitution_args._eval_find

    def eval_find(package: str) -> str:
        root = find_package(package, package_paths)
        if root is None:
            raise substitution_args.SubstitutionException(
                f"package {package!r} not found in the package path map or the ament index"
            )
        return os.fspath(root)

    substitution_args._eval_find = eval_find
    try:
        yield
    finally:
        substitution_args._eval_find = original


@contextlib.contextmanager
def _safe_includes() -> Iterator[None]:
    """Temporarily route the files xacro reads (the top file and every ``<xacro:include>``)
    through :func:`~sdf_bridge.description.xmlio.check_safe`: an included file with a DTD,
    entities or over the size cap fails with :class:`UnsafeXmlError` before xacro parses it."""
    import xacro

    original = xacro.parse

    def parse(inp: object, filename: str | None = None) -> object:
        if inp is not None or filename is None:
            return original(inp, filename)
        path = os.path.join(xacro.root_dir, filename)
        try:
            size = os.stat(path).st_size
        except OSError:
            return original(inp, filename)  # xacro reports the missing file (or skips an optional one)
        if size > xmlio.MAX_XML_BYTES:
            raise UnsafeXmlError(f"file is {size} bytes, over the {xmlio.MAX_XML_BYTES}-byte cap", file=path,
                                 fix="check that the right file is included")
        with open(path, "rb") as stream:
            raw = stream.read()
        xmlio.check_safe(raw, path)
        return original(io.BytesIO(raw), filename)

    xacro.parse = parse
    try:
        yield
    finally:
        xacro.parse = original


def _detail(exc: BaseException) -> str:
    """One-line text of an exception raised by xacro.

    ``XacroException`` renders as ``msg exc suffix``; when xacro put the wrapped exception's
    class and text into ``msg`` as well (``"<class '...'>: text text"``), the repetition is dropped.
    """
    inner = getattr(exc, "exc", None)
    if hasattr(exc, "suffix") and inner is not None:
        msg = str(exc.args[0]) if exc.args and exc.args[0] is not None else ""
        parts = [msg if msg and not msg.startswith("<class '") else "", str(inner), str(exc.suffix or "")]
        text = " ".join(p for p in parts if p)
    else:
        text = str(exc)
    return " ".join(text.split()) or type(exc).__name__


def _stack_file(default: str) -> str:
    """The file xacro was processing when it failed (innermost include), else ``default``."""
    import xacro

    stack = getattr(xacro, "filestack", None) or []
    for item in reversed(stack):
        if item:
            return str(item)
    return default


def expand_xacro(
    source: str | os.PathLike[str],
    *,
    is_file: bool,
    xacro_args: Mapping[str, object] | None = None,
    package_paths: PackagePaths | None = None,
) -> tuple[str, list[str]]:
    """Expand a xacro document and return ``(urdf_xml, warnings)``.

    Args:
        source: the path of the xacro file (``is_file``) or its XML text.
        is_file: whether ``source`` is a path.
        xacro_args: ``name → value`` as on the command line (``name:=value``); values are
            converted with :func:`str`.
        package_paths: package → directory map for ``$(find pkg)`` (before the ament index).

    Raises:
        XacroError: xacro failed (missing include or argument, unknown package, bad
            expression, malformed XML); the message names the file xacro was reading.
        UnsafeXmlError: an included file declares a DTD or entities, or is over the size cap.
    """
    import xml.parsers.expat

    import xacro

    mappings = {str(k): str(v) for k, v in (xacro_args or {}).items()}
    name = os.path.abspath(os.fspath(source)) if is_file else "<string>"
    captured = io.StringIO()
    with _LOCK:
        xacro.all_includes = []
        try:
            with _find_hook(package_paths), _safe_includes(), contextlib.redirect_stderr(captured):
                if is_file:
                    doc = xacro.process_file(name, mappings=mappings)
                else:
                    xacro.init_stacks(None)
                    doc = xacro.parse(str(source))
                    xacro.process_doc(doc, mappings=mappings)
                text = doc.toprettyxml(indent="  ")  # as the xacro CLI writes it, so line numbers match
        except DescriptionError:  # XacroError, or UnsafeXmlError of an included file
            raise
        except xml.parsers.expat.ExpatError as exc:
            raise XacroError(
                f"xacro could not parse the XML: {exc}",
                file=_stack_file(name),
                line=getattr(exc, "lineno", None),
                fix="correct the XML syntax of that file",
            ) from None
        except (Exception, SystemExit) as exc:  # xacro raises many types; all mean "expansion failed"
            detail = _detail(exc)
            raise XacroError(
                f"xacro expansion failed: {detail}",
                file=_stack_file(name),
                fix="check the xacro arguments (--xacro-arg name:=value), includes and package paths",
            ) from None
        finally:
            xacro.init_stacks(None)
    warnings = [line.strip() for line in captured.getvalue().splitlines() if line.strip()]
    for line in warnings:
        LOG.warning("xacro: %s", line)
    return text, warnings
