"""Safe XML reading and typed attribute access with file/line-aware errors.

Every description file goes through :func:`parse_xml`: no DTD loading, no entity expansion,
no network access and a size cap, so XXE and billion-laughs inputs fail fast and read nothing.
"""

from __future__ import annotations

import codecs
import logging
import math
import os
import re
import stat
from collections.abc import Collection
from dataclasses import dataclass, field

from lxml import etree

from ..errors import (
    DescriptionError,
    InvalidValueError,
    PathResolutionError,
    UnsafeXmlError,
    XmlSyntaxError,
)
from ..util.similarity import close_match
from . import xml_repairs
from .model.source import Source

LOG = logging.getLogger("sdf_bridge.description")

#: Largest description accepted, in bytes (far above any real robot's; doc/dev/rationale.md).
MAX_XML_BYTES = 32 * 1024 * 1024


def _parser(*, recover: bool = False) -> etree.XMLParser:
    """The safe parser (no entities, network, DTD or huge trees); ``recover`` for
    :func:`_namespace_errors` only."""
    return etree.XMLParser(
        recover=recover,
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


#: Deepest element nesting libxml2 accepts without its "huge" option.
MAX_XML_DEPTH = 256

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
#: Byte patterns of ``<?`` (first bytes of an XML declaration) in BOM-less UTF-16/32.
_BOMLESS = (
    (b"<\x00\x00\x00", "utf-32-le"),
    (b"\x00\x00\x00<", "utf-32-be"),
    (b"<\x00?\x00", "utf-16-le"),
    (b"\x00<\x00?", "utf-16-be"),
)
_DECLARED = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def _as_text(raw: bytes) -> str:
    """``raw`` decoded as the XML parser would see it (BOM, BOM-less UTF-16/32 or the
    ``encoding`` of the XML declaration; UTF-8 otherwise), undecodable bytes replaced."""
    encoding = "utf-8"
    for bom, name in _BOMS:
        if raw.startswith(bom):
            encoding = name
            break
    else:
        for prefix, name in _BOMLESS:
            if raw.startswith(prefix):
                encoding = name
                break
        else:
            match = _DECLARED.match(raw)
            if match:
                encoding = match.group(1).decode("ascii")
    try:
        return raw.decode(encoding, errors="replace")
    except LookupError:  # an encoding Python does not know: libxml2 refuses it too
        return raw.decode("utf-8", errors="replace")


def check_safe(raw: bytes, file: str) -> None:
    """Refuse oversized documents, DTDs and entity declarations before any parser sees them.

    Scanning the text first means an XXE or billion-laughs document fails fast with an
    :class:`UnsafeXmlError` naming the line, whichever parser (lxml, or xacro's standard-library
    one) would read it next, and no referenced file is ever opened. The text is decoded as the
    parser would decode it (UTF-16/32 with or without BOM, a declared ``encoding`` such as
    UTF-7), so a re-encoded declaration is found too.

    Args:
        raw: the document's bytes.
        file: its path (or ``"<string>"``), for the message.

    Raises:
        UnsafeXmlError: over :data:`MAX_XML_BYTES`, or a ``<!DOCTYPE``/``<!ENTITY`` declaration.
    """
    if len(raw) > MAX_XML_BYTES:
        raise UnsafeXmlError(
            f"document is {len(raw)} bytes, over the {MAX_XML_BYTES}-byte cap",
            file=file,
            fix="split the description or check that the right file was given",
        )
    text = _as_text(raw)
    starts = [i for i in (text.find("<!DOCTYPE"), text.find("<!ENTITY")) if i >= 0]
    if starts:
        raise UnsafeXmlError(
            "the document declares a DTD or entities (<!DOCTYPE>/<!ENTITY>); they are refused",
            file=file,
            line=text.count("\n", 0, min(starts)) + 1,
            fix="remove the <!DOCTYPE ...> declaration",
        )


def read_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a description file: a regular file (never a device, FIFO, socket or a file
    of ``/proc``, ``/sys`` or ``/dev``, which can block or never end) of at most
    :data:`MAX_XML_BYTES`, checked before it is opened, opened without blocking and checked
    again once open.

    Raises:
        PathResolutionError: the path does not exist, is not a regular file or cannot be read.
        UnsafeXmlError: the file is over :data:`MAX_XML_BYTES`.
    """
    from .confine import in_pseudo_filesystem

    name = os.fspath(path)
    try:
        info = os.stat(name)
    except OSError as exc:
        raise PathResolutionError(
            f"cannot read the description: {exc.strerror or exc}",
            file=name,
            fix="check the path (relative paths are taken from the current directory)",
        ) from None
    if info.st_size > MAX_XML_BYTES:
        raise UnsafeXmlError(
            f"file is {info.st_size} bytes, over the {MAX_XML_BYTES}-byte cap",
            file=name,
            fix="check that the right file was given",
        )
    if not stat.S_ISREG(info.st_mode) or in_pseudo_filesystem(os.path.realpath(name)):
        raise PathResolutionError(
            "the path is not a file (a description is a regular file: no directory, device, "
            "FIFO, socket or file of /proc, /sys or /dev)",
            file=name,
            fix="give the description file itself",
        )
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(name, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise PathResolutionError(
            f"cannot read the description: {exc.strerror or exc}",
            file=name,
            fix="check the file's permissions",
        ) from None
    with open(fd, "rb", closefd=True) as stream:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced since the check above
            raise PathResolutionError(
                "the path is not a file", file=name, fix="give the description file itself"
            )
        try:
            data = stream.read(MAX_XML_BYTES + 1)
        except OSError as exc:
            raise PathResolutionError(
                f"cannot read the description: {exc.strerror or exc}",
                file=name,
                fix="check the file's permissions",
            ) from None
    if len(data) > MAX_XML_BYTES:  # grew since the check above
        raise UnsafeXmlError(
            f"file is over the {MAX_XML_BYTES}-byte cap",
            file=name,
            fix="check that the right file was given",
        )
    return data


_POSITION = re.compile(r",?\s*line (\d+), column (\d+)\s*$")
_POSITION_TAIL = 200  # characters of a message searched for it


def _split_position(msg: str) -> tuple[str, int | None]:
    """lxml's message without its trailing ``, line L, column C`` (the error's own line is
    already in the location prefix) and the column, or ``(msg, None)``."""
    # only the message's tail is searched: the suffix is short, and a message may quote the
    # document (the pattern's leading \s* would rescan a long blank run at every start)
    tail = max(0, len(msg) - _POSITION_TAIL)
    match = _POSITION.search(msg, tail)
    if match is None:
        return msg, None
    return msg[: match.start()].rstrip(), int(match.group(2))


def _namespace_errors(raw: bytes) -> tuple[etree._Element | None, list[str]]:
    """The document parsed with libxml2's recovery, and its errors, when every error is an XML
    Namespaces one (an undeclared prefix such as Gazebo's ``<gz:policies>``, a name such as
    ``<gz::system_priority>``): names that XML 1.0 allows and tinyxml2 (libsdformat, urdfdom)
    reads as plain names, which the recovering parser keeps as written. ``(None, [])`` when
    another error is among them."""
    parser = _parser(recover=True)
    try:
        root = etree.fromstring(raw, parser=parser)
    except etree.XMLSyntaxError:
        return None, []
    errors = list(parser.error_log)
    if root is None or not errors or any(e.domain != etree.ErrorDomains.NAMESPACE for e in errors):
        return None, []
    return root, [f"line {e.line}: {e.message.strip()}" for e in errors]


def parse_xml(
    data: bytes | str,
    file: str | None = None,
    warnings: list[str] | None = None,
    *,
    plain_names: bool = True,
) -> etree._Element:
    """Parse description XML safely and return its root element.

    Input that tinyxml2 (libsdformat, urdfdom) reads and libxml2 refuses is read as tinyxml2
    reads it, with one warning per kind appended to ``warnings`` (or, without a list, logged
    to the ``sdf_bridge.description`` log):

    * XML 1.0 names that break the XML Namespaces rules (undeclared prefixes, ``a::b``) are
      read as plain names (with ``plain_names`` false they are syntax errors);
    * comments holding ``--`` or ending in ``--->``, and an XML declaration after blank
      space, are ignored (:mod:`.xml_repairs`; every element keeps its line number).

    Anything else that is not well-formed stays an error.

    Args:
        data: the document (bytes or str).
        file: the path it came from (for messages), or ``None`` for a string.
        warnings: where those warnings go; ``None``: the ``sdf_bridge.description`` log.
        plain_names: read such names as plain names (else :class:`XmlSyntaxError`).

    Raises:
        UnsafeXmlError: see :func:`check_safe`; also elements nested deeper than
            :data:`MAX_XML_DEPTH`, and a DTD the byte scan missed.
        XmlSyntaxError: the document is not well-formed.
    """
    name = file or "<string>"
    raw = data.encode("utf-8") if isinstance(data, str) else data
    check_safe(raw, name)
    notes: list[str] = []
    try:
        root = _parse(raw, name, plain_names, notes)
    except etree.XMLSyntaxError as exc:
        repaired, repairs = xml_repairs.repair(raw)
        if not repairs:
            raise _syntax_error(exc, name) from None
        try:
            root = _parse(repaired, name, plain_names, notes)
        except etree.XMLSyntaxError as again:
            raise _syntax_error(again, name) from None
        notes[:0] = [f"{name}: {warning}" for warning in xml_repairs.warnings(repairs)]
    if warnings is None:
        for note in notes:
            LOG.warning(note)
    else:  # the caller logs them (the loader: one line per kind, :mod:`.warning_digest`)
        warnings.extend(notes)
    return _checked(root, name)


def _parse(raw: bytes, name: str, plain_names: bool, notes: list[str]) -> etree._Element:
    """``raw`` parsed strictly, or (``plain_names``) with its Namespaces-breaking names read
    as plain names, that reading's warning appended to ``notes``.

    Raises:
        etree.XMLSyntaxError: the strict parser's error, when that reading does not apply.
    """
    try:
        return etree.fromstring(raw, parser=_parser())
    except etree.XMLSyntaxError:
        recovered, problems = _namespace_errors(raw) if plain_names else (None, [])
        if recovered is None:
            raise
        notes.append(
            f"{name}: {len(problems)} XML name(s) break the XML Namespaces rules (first: "
            f"{problems[0]}); read as plain names, as libsdformat and urdfdom (tinyxml2) "
            "read them"
        )
        return recovered


def _syntax_error(exc: etree.XMLSyntaxError, name: str) -> DescriptionError:
    """The typed error for lxml's ``exc`` in document ``name``: :class:`UnsafeXmlError` for
    libxml2's depth limit, else :class:`XmlSyntaxError` with the line and column."""
    if "Excessive depth" in str(exc.msg):
        return UnsafeXmlError(
            f"elements are nested more than {MAX_XML_DEPTH} levels deep",
            file=name,
            line=exc.lineno,
            fix="check that the right file was given; descriptions nest a few levels only",
        )
    message, column = _split_position(str(exc.msg))
    return XmlSyntaxError(
        f"not well-formed XML{'' if column is None else f' (column {column})'}: {message}",
        file=name,
        line=exc.lineno,
        fix="correct the XML syntax at that line",
    )


def _checked(root: etree._Element, name: str) -> etree._Element:
    """``root``, unless its document declares a DTD (defence in depth: :func:`check_safe`
    refuses one first).

    Raises:
        UnsafeXmlError: a DTD.
    """
    if root.getroottree().docinfo.internalDTD is not None:
        raise UnsafeXmlError(
            "the document declares a DTD; it is refused",
            file=name,
            fix="remove the <!DOCTYPE ...> declaration",
        )
    return root


def describe(elem: etree._Element) -> str:
    """Short rendering of an element for messages, e.g. ``<joint name="elbow">``."""
    name = elem.get("name")
    tag = elem.tag if isinstance(elem.tag, str) else "?"
    return f'<{tag} name="{name}">' if name is not None else f"<{tag}>"


@dataclass
class ParseContext:
    """What a parser needs to report problems: the file name and a warning sink.

    ``warnings`` collects every warning message (also logged through ``logging``), so that
    ``sdf-bridge check`` can list them. ``network``: the description came from the network, so
    the files it names are confined (:mod:`sdf_bridge.description.confine`); the contexts of
    the files it includes inherit it. ``skipped`` collects the elements left out
    (:mod:`sdf_bridge.description.contain`), shared with the included files' contexts.
    """

    file: str = "<string>"
    warnings: list[str] = field(default_factory=list)
    network: bool = False
    skipped: list = field(default_factory=list)  # (list[model.Skip]: xmlio imports no model)

    def included(self, file: str) -> ParseContext:
        """The context of a file this one includes: same warnings, same confinement, same
        skipped elements."""
        return ParseContext(file, self.warnings, self.network, self.skipped)

    def source(self, elem: etree._Element) -> Source:
        """The :class:`Source` of ``elem``."""
        return Source(self.file, elem.sourceline)

    def error(
        self, cls: type[DescriptionError], elem: etree._Element | None, problem: str, fix: str
    ) -> DescriptionError:
        """Build (not raise) an error of ``cls`` located at ``elem``."""
        return cls(
            problem,
            file=self.file,
            line=None if elem is None else elem.sourceline,
            element=None if elem is None else describe(elem),
            fix=fix,
        )

    def warn(self, elem: etree._Element | None, message: str) -> None:
        """Record a warning located at ``elem`` (``file:line: <element>: message``). It is
        logged later, not here: a description can hold any number of warnings, and the loader
        logs them aggregated, one line per kind and file (:mod:`.warning_digest`)."""
        where = (
            self.file
            if elem is None or elem.sourceline is None
            else f"{self.file}:{elem.sourceline}"
        )
        text = f"{where}: {describe(elem) + ': ' if elem is not None else ''}{message}"
        self.warnings.append(text)

    def unknown_element(
        self,
        child: etree._Element,
        parent: etree._Element,
        known: Collection[str],
        *,
        warning: str | None = "ignored",
        where: str = "",
    ) -> None:
        """Handle ``child``, an element ``parent`` does not define (its tag is not in ``known``).

        A tag that is a close match (:func:`close_match`) of a tag ``parent`` accepts is a
        misspelling that would otherwise degrade silently to a default, so it is an error;
        any other unknown tag is warned about as ``unknown element <tag> in <parent> {warning}``
        (nothing when ``warning`` is ``None``, for parents whose extra children are kept).
        ``where`` is appended to the parent's description (e.g. ``" of transmission 't1'"``).

        Raises:
            InvalidValueError: ``child`` is a close match of a tag in ``known``.
        """
        tag = child.tag if isinstance(child.tag, str) else "?"
        match = close_match(tag, known)
        if match is not None:
            raise self.error(
                InvalidValueError,
                child,
                f"unknown element <{tag}> in {describe(parent)}{where}; did you mean <{match}>?",
                f"rename <{tag}> to <{match}>",
            )
        if warning is not None:
            self.warn(child, f"unknown element <{tag}> in {describe(parent)}{where} {warning}")

    # -- typed values -------------------------------------------------------------------------

    def to_float(
        self, elem: etree._Element, text: str | None, what: str, *, finite: bool = True
    ) -> float:
        """``text`` as a float; ``what`` names the attribute/element for the message.

        Raises:
            InvalidValueError: not a number (or not finite when ``finite``).
        """
        try:
            value = float(str(text).strip())
        except (TypeError, ValueError):
            raise self.error(
                InvalidValueError,
                elem,
                f"{what} is {text!r}, not a number",
                f"write {what} as a decimal number",
            ) from None
        if finite and not math.isfinite(value):
            raise self.error(
                InvalidValueError, elem, f"{what} is {text!r}, not finite", f"write a finite {what}"
            )
        return value

    def float_attr(
        self,
        elem: etree._Element,
        attr: str,
        default: float | None = None,
        *,
        required: bool = False,
    ) -> float | None:
        """Attribute ``attr`` of ``elem`` as float, ``default`` when absent.

        Raises:
            InvalidValueError: present but not a number, or absent when ``required``.
        """
        text = elem.get(attr)
        if text is None:
            if required:
                raise self.error(
                    InvalidValueError,
                    elem,
                    f"attribute {attr!r} is missing",
                    f'add {attr}="..." to the element',
                )
            return default
        return self.to_float(elem, text, f"attribute {attr!r}")

    def vector(
        self, elem: etree._Element, text: str | None, n: int, what: str
    ) -> tuple[float, ...]:
        """Whitespace-separated list of exactly ``n`` floats.

        Raises:
            InvalidValueError: wrong count or not numbers.
        """
        parts = (text or "").split()
        if len(parts) != n:
            raise self.error(
                InvalidValueError,
                elem,
                f"{what} is {text!r}: expected {n} numbers, got {len(parts)}",
                f"write {what} as {n} space-separated numbers",
            )
        return tuple(self.to_float(elem, p, what) for p in parts)

    def child_float(
        self, elem: etree._Element, tag: str, default: float | None = None
    ) -> float | None:
        """Text of child ``tag`` as a float, ``default`` when the child is absent."""
        child = elem.find(tag)
        if child is None:
            return default
        return self.to_float(child, child.text, f"<{tag}>")

    def child_text(self, elem: etree._Element, tag: str, default: str | None = None) -> str | None:
        """Stripped text of child ``tag``, ``default`` when absent."""
        child = elem.find(tag)
        if child is None or child.text is None:
            return default
        return child.text.strip()


def serialise(elem: etree._Element) -> str:
    """The element as an XML string (for ``raw_xml`` fields)."""
    return etree.tostring(elem, encoding="unicode", with_tail=False)
