"""xacro in the description layer: the expansion of a xacro *file* with the ``xacro`` library
(ROS 2 xacro, PyPI), and the refusal of XML *text* that still holds xacro.

xacro is code: ``${...}`` is a Python expression, and ``$(env ...)``, ``load_yaml`` and
``<xacro:include>`` read the machine's environment and files. So text that arrives as data (the
``robot_description`` topic or parameter, a string given to ``load``) is parsed as XML only, as
robot_state_publisher and ros2_control's controller manager do: :func:`parse_xml_text` refuses
it with :class:`~sdf_bridge.errors.UnexpandedXacroError` when it still uses xacro. Only files the
user names are expanded, and only in a child process bounded in memory and time
(:mod:`.child_process`, which runs :func:`expand_in_process` there).

``$(find pkg)`` is resolved like ``package://``: first through the caller's ``package_paths`` map,
then through the ament index. xacro looks packages up in its module-level function
``xacro.substitution_args._eval_find``; :func:`expand_in_process` replaces that function for the
duration of one expansion (under a lock, since xacro keeps its state in module globals and is
not re-entrant) and restores it afterwards. xacro's own warnings, which it prints to stderr, are
captured and returned instead.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import threading
from collections.abc import Iterator, Mapping

from lxml import etree

from ...errors import (
    DescriptionError,
    UnexpandedXacroError,
    UnsafeXmlError,
    XacroError,
    XmlSyntaxError,
)
from .. import xml_repairs, xmlio
from ..resolve import PackagePaths, find_package

#: Namespace URIs that mark a document as xacro.
XACRO_NAMESPACES = ("http://www.ros.org/wiki/xacro", "http://ros.org/wiki/xacro")

_LOCK = threading.RLock()
_NAMESPACES_BYTES = tuple(ns.encode("ascii") for ns in XACRO_NAMESPACES)
#: A xacro substitution left in a value: ``${expression}`` or ``$(command ...)`` (xacro's commands;
#: not ``$(find pkg)``, a path form the loader resolves itself, as ``package://pkg``).
_SUBSTITUTION = re.compile(r"\$\{|\$\((?:arg|env|optenv|eval|dirname|cwd|anon)\b")


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
            # xacro reports the missing file (or skips an optional one)
            return original(inp, filename)
        if size > xmlio.MAX_XML_BYTES:
            raise UnsafeXmlError(
                f"file is {size} bytes, over the {xmlio.MAX_XML_BYTES}-byte cap",
                file=path,
                fix="check that the right file is included",
            )
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
        parts = [
            msg if msg and not msg.startswith("<class '") else "",
            str(inner),
            str(exc.suffix or ""),
        ]
        text = " ".join(p for p in parts if p)
    else:
        text = str(exc)
    return " ".join(text.split()) or type(exc).__name__


def _out_of_memory(exc: BaseException) -> bool:
    """Whether ``exc`` comes from a :class:`MemoryError`: xacro wraps what an expression raised
    (``XacroException.exc``), once per nested evaluation."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        item = todo.pop()
        if item is None or id(item) in seen:
            continue
        if isinstance(item, MemoryError):
            return True
        seen.add(id(item))
        inner = getattr(item, "exc", None)
        todo += [
            inner if isinstance(inner, BaseException) else None,
            item.__cause__,
            item.__context__,
        ]
    return False


def _stack_file(default: str) -> str:
    """The file xacro was processing when it failed (innermost include), else ``default``."""
    import xacro

    stack = getattr(xacro, "filestack", None) or []
    for item in reversed(stack):
        if item:
            return str(item)
    return default


def _expat_error(exc: Exception, file: str) -> XacroError:
    """The error for expat's ``exc`` in ``file``. What libsdformat and urdfdom read there (a
    comment holding ``--``, an XML declaration after blank space: :mod:`.xml_repairs`) is named
    with its fix: xacro itself (the ``xacro`` command, a launch file's ``Command(['xacro',
    ...])``) refuses it, so the bridge cannot expand it either."""
    line = getattr(exc, "lineno", None)
    try:
        found = xml_repairs.repair_at(xmlio.read_file(file), line)
    except DescriptionError:  # the file cannot be read again: the plain message
        found = None
    if found is None:
        return XacroError(
            f"xacro could not parse the XML: {exc}",
            file=file,
            line=line,
            fix="correct the XML syntax of that file",
        )
    where = xml_repairs.describe_lines([found])
    if found.kind == xml_repairs.COMMENT:
        what = f"the comment at {where} contains '--', which XML forbids inside a comment"
        fix = "remove the '--' from that comment (or end it in ' -->', not '--->')"
    else:
        what = f"the XML declaration at {where} comes after {found.after}, which XML forbids"
        fix = f"remove the {found.after} before <?xml (it must be the file's first characters)"
    return XacroError(
        f"xacro could not parse the XML: {exc}: {what}; xacro (Python's expat) refuses it, "
        "though libsdformat and urdfdom (tinyxml2) read such a file",
        file=file,
        line=line,
        fix=fix,
    )


def expand_in_process(
    path: str | os.PathLike[str],
    *,
    xacro_args: Mapping[str, object] | None = None,
    package_paths: PackagePaths | None = None,
) -> tuple[str, list[str]]:
    """Expand the xacro file ``path`` in this process and return ``(urdf_xml, warnings)``.

    Unbounded: the file's expressions run here with this process's rights and memory. Callers
    use :func:`sdf_bridge.description.xacro.child_process.expand_xacro`, which runs this
    function in a child process with a memory and a time bound.

    Args:
        path: the xacro file.
        xacro_args: ``name → value`` as on the command line (``name:=value``); values are
            converted with :class:`str`.
        package_paths: package → directory map for ``$(find pkg)`` (before the ament index).

    Raises:
        XacroError: xacro failed (missing include or argument, unknown package, bad
            expression, malformed XML); the message names the file xacro was reading.
        UnsafeXmlError: an included file declares a DTD or entities, or is over the size cap.
        MemoryError: the expansion ran out of memory (in the bounded child: its memory bound).
    """
    import xml.parsers.expat

    import xacro

    mappings = {str(k): str(v) for k, v in (xacro_args or {}).items()}
    name = os.path.abspath(os.fspath(path))
    captured = io.StringIO()
    with _LOCK:
        xacro.all_includes = []
        try:
            with _find_hook(package_paths), _safe_includes(), contextlib.redirect_stderr(captured):
                doc = xacro.process_file(name, mappings=mappings)
                # as the xacro CLI writes it, so line numbers match
                text = doc.toprettyxml(indent="  ")
        except DescriptionError:  # XacroError, or UnsafeXmlError of an included file
            raise
        except xml.parsers.expat.ExpatError as exc:
            raise _expat_error(exc, _stack_file(name)) from None
        except MemoryError:
            raise
        except (
            Exception,
            SystemExit,
        ) as exc:  # xacro raises many types; all mean "expansion failed"
            if _out_of_memory(exc):
                raise MemoryError from None
            detail = _detail(exc)
            raise XacroError(
                f"xacro expansion failed: {detail}",
                file=_stack_file(name),
                fix="check the xacro arguments (--xacro-arg name:=value), includes and package "
                "paths",
            ) from None
        finally:
            xacro.init_stacks(None)
    warnings = [line.strip() for line in captured.getvalue().splitlines() if line.strip()]
    return text, warnings


_EXPAND_FIRST = (
    "expand it first and give the result (xacro robot.urdf.xacro > robot.urdf; in a launch file "
    "Command(['xacro', file]), as for robot_state_publisher), or give the file itself "
    "(description_file, sdf-bridge --description, load(path))"
)


def parse_xml_text(
    data: bytes, file: str = "<string>", warnings: list[str] | None = None
) -> etree._Element:
    """Parse XML text as data: never xacro-expanded, and refused when it still uses xacro.

    Text is "still xacro" when an element is in the xacro namespace (``<xacro:property>``,
    ``<xacro:include>``, a macro call; also with the prefix left undeclared), or an attribute
    value or element text holds a substitution ``${...}`` or ``$(arg|env|optenv|eval|dirname|
    cwd|anon ...)``. ``$(find pkg)`` is not refused: it is a path form the loader resolves like
    ``package://pkg`` (inside the package), without running anything. Comments are not looked
    at (xacro copies them unexpanded into its output).

    Args:
        data: the document's bytes.
        file: its name for messages (``"<string>"``, ``"topic robot_description"``, …).
        warnings: where the warnings of what is read as tinyxml2 reads it go (as for a file:
            :func:`~sdf_bridge.description.xmlio.parse_xml`).

    Raises:
        UnexpandedXacroError: the text still uses xacro (the message names the line, the element
            and how to expand it).
        UnsafeXmlError, XmlSyntaxError: as :func:`~sdf_bridge.description.xmlio.parse_xml`.
    """
    try:
        root = xmlio.parse_xml(data, file, warnings, plain_names=False)
    except XmlSyntaxError as exc:
        if "Namespace prefix xacro " in exc.problem:
            raise UnexpandedXacroError(
                "the XML text uses xacro elements (prefix xacro: undeclared); text is never "
                "xacro-expanded",
                file=file,
                line=exc.line,
                fix=_EXPAND_FIRST,
            ) from None
        # other names breaking the Namespaces rules: plain names (warned)
        root = xmlio.parse_xml(data, file, warnings)
    # (the last: read as plain names)
    namespaced = root.xpath(
        "//*[namespace-uri()=$a or namespace-uri()=$b or starts-with(name(), 'xacro:')]",
        a=XACRO_NAMESPACES[0],
        b=XACRO_NAMESPACES[1],
    )
    if namespaced:
        elem = namespaced[0]
        tag = "xacro:" + str(elem.tag).rsplit("}", 1)[-1].removeprefix("xacro:")
        name = elem.get("name")
        raise UnexpandedXacroError(
            f"the XML text holds the xacro element <{tag}>; text is never xacro-expanded",
            file=file,
            line=elem.sourceline,
            element=f'<{tag} name="{name}">' if name is not None else f"<{tag}>",
            fix=_EXPAND_FIRST,
        )
    for value in root.xpath('//@*[contains(., "$")] | //text()[contains(., "$")]'):
        match = _SUBSTITUTION.search(value)
        if match is None:
            continue
        owner = value.getparent()
        where = f"attribute {value.attrname}" if value.is_attribute else "text"
        snippet = value[match.start() : match.start() + 40]
        raise UnexpandedXacroError(
            f"the XML text holds the unexpanded xacro substitution {snippet!r} ({where}); "
            "text is never xacro-expanded",
            file=file,
            line=None if owner is None else owner.sourceline,
            element=None if owner is None else xmlio.describe(owner),
            fix=_EXPAND_FIRST,
        )
    return root
