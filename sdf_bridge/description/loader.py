"""Entry point of the description layer: any source (path or XML text; URDF, xacro or SDFormat)
→ a validated :class:`Robot` (or :class:`World`)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Union

from ..errors import PathResolutionError, UnsupportedError, XacroError
from . import xmlio
from .model import Robot, World
from .resolve import PackagePaths
from .warning_digest import digest
from .xacro.child_process import expand_xacro
from .xacro.expand import looks_like_xacro, parse_xml_text
from .xmlio import ParseContext, parse_xml

DescriptionSource = Union[str, bytes, os.PathLike]


def _is_xml_text(source: DescriptionSource) -> bool:
    """True when ``source`` is XML text rather than a path (text that starts with ``<``, after
    white space and a byte-order mark)."""
    if isinstance(source, bytes):
        return True
    if isinstance(source, str):
        return source.lstrip("\ufeff \t\r\n").startswith("<")
    return False


def load_with_xml(
    source: DescriptionSource,
    *,
    xacro_args: Mapping[str, object] | None = None,
    package_paths: PackagePaths | None = None,
    sdf_paths: Sequence[str | os.PathLike[str]] | None = None,
    network: bool = False,
) -> tuple[Robot | World, list[str], str]:
    """Load a robot description; return it with the warnings found and the XML it was read
    from (after xacro expansion), e.g. for publishing ``robot_description``.

    Args:
        source: a path (``str`` or :class:`os.PathLike`) or the XML itself (``str`` starting
            with ``<``, or ``bytes``). Files ending in ``.xacro`` or using xacro (namespace
            declared and used) are expanded with the xacro library first, in a child process
            bounded in memory and time (:mod:`.child_process`); a file not named ``.xacro``
            that xacro fails on is read as plain XML with a warning (as URDF parsers read
            it: its xacro elements ignored). XML text is never expanded
            (xacro is code; text may come from the network): text that still uses xacro is
            refused (:func:`.expand.parse_xml_text`).
        xacro_args: xacro arguments (``name → value``, as ``name:=value`` on the xacro command
            line); used for xacro files only.
        package_paths: package name → directory, used for ``package://`` and ``$(find pkg)``
            before the ament index.
        sdf_paths: directories searched for ``model://`` includes (SDFormat, like
            ``GZ_SIM_RESOURCE_PATH``).
        network: the description came from the network (a ``robot_description`` topic or
            parameter): the files it names are confined to the configured directories
            (:mod:`.confine`: ``file://`` URIs and paths refused, includes and meshes only
            through ``package://``, ``$(find pkg)`` and ``model://``, regular files only).

    Every warning is logged to the ``sdf_bridge.description`` log aggregated, one line per
    kind and file with a count and first examples (:mod:`.warning_digest`), when loading ends
    (also with an error); the returned list holds each one.

    Returns:
        ``(robot, warnings, xml)``: a :class:`Robot` for URDF and single-model SDFormat, a
        :class:`World` for an SDFormat world with several models.

    Raises:
        DescriptionError: the description cannot be read, expanded, parsed or validated
            (subclass per kind: ``XmlSyntaxError``, ``UnsafeXmlError``, ``XacroError`` (also
            over the expansion's memory or time bound), ``UnexpandedXacroError`` (text),
            ``PathResolutionError``, ``MissingReferenceError``, ``DuplicateNameError``,
            ``KinematicTreeError``, ``InvalidValueError``, ``UnsupportedError``,
            ``RefusedPathError`` (``network``: a local file named)).
    """
    warnings: list[str] = []
    try:
        return _load(source, xacro_args, package_paths, sdf_paths, network, warnings)
    finally:  # also the warnings found before an error
        for line in digest(warnings):
            xmlio.LOG.warning(line)


def _load(
    source: DescriptionSource,
    xacro_args: Mapping[str, object] | None,
    package_paths: PackagePaths | None,
    sdf_paths: Sequence[str | os.PathLike[str]] | None,
    network: bool,
    warnings: list[str],
) -> tuple[Robot | World, list[str], str]:
    """:func:`load_with_xml`, its warnings appended to ``warnings`` as they are found."""
    if isinstance(source, (str, bytes)) and not source.strip():
        raise PathResolutionError(
            "the description source is empty",
            fix="give a file path or the XML text of the description",
        )
    if _is_xml_text(source):
        data = source.encode("utf-8") if isinstance(source, str) else source
        path = None
        file = "<string>"
        base_dir = None
    else:
        path = Path(os.fspath(source)).absolute()  # type: ignore[arg-type]  # (a path: not bytes)
        file = os.fspath(path)
        data = xmlio.read_file(path)
        base_dir = path.parent
    xmlio.check_safe(data, file)
    if path is None:  # text is data: XML only, never xacro-expanded (xacro is code)
        text = data.decode("utf-8", errors="replace")
        root = parse_xml_text(data, file, warnings)
    elif looks_like_xacro(path, data):
        try:
            text, xacro_warnings = expand_xacro(
                path, xacro_args=xacro_args, package_paths=package_paths
            )
        except XacroError as exc:
            if path.suffix == ".xacro":
                raise
            # a .urdf/.sdf that declares xacro and keeps a stray macro call: URDF parsers read
            # it as plain XML and ignore the elements they do not know; so does the bridge
            warnings.append(  # (logged with the others in the digest)
                f"{file}: xacro failed on it ({exc.problem}); it is not a .xacro file, so it is "
                "read as plain XML, as urdfdom and libsdformat read it (its xacro elements "
                "ignored)",
            )
            text = data.decode("utf-8", errors="replace")
            root = parse_xml(data, file, warnings)
        else:
            warnings.extend(f"xacro: {w}" for w in xacro_warnings)
            file = f"{file} (expanded by xacro)"
            root = parse_xml(text, file, warnings)
    else:
        text = data.decode("utf-8", errors="replace")
        root = parse_xml(data, file, warnings)
    ctx = ParseContext(file=file, warnings=warnings, network=network)
    source_file = None if path is None else os.fspath(path)
    tag = root.tag
    if tag == "robot":
        from .urdf import load_urdf

        result: Robot | World = load_urdf(
            root, ctx, base_dir=base_dir, package_paths=package_paths, source_file=source_file
        )
    elif tag == "sdf":
        from .sdf import load_sdf  # SDFormat support lives in its own module

        # SDF from a string: relative include URIs are taken from the current directory
        result = load_sdf(
            root,
            ctx,
            base_dir=base_dir if base_dir is not None else Path.cwd(),
            package_paths=package_paths,
            sdf_paths=sdf_paths,
        )
    else:
        raise ctx.error(
            UnsupportedError,
            root,
            f"root element is <{tag}>, neither <robot> (URDF) nor <sdf> (SDFormat)",
            "load a URDF, xacro or SDFormat file",
        )
    return result, ctx.warnings, text


def load_with_warnings(
    source: DescriptionSource,
    *,
    xacro_args: Mapping[str, object] | None = None,
    package_paths: PackagePaths | None = None,
    sdf_paths: Sequence[str | os.PathLike[str]] | None = None,
    network: bool = False,
) -> tuple[Robot | World, list[str]]:
    """:func:`load_with_xml` without the XML: ``(robot, warnings)``.

    Raises:
        DescriptionError: as :func:`load_with_xml`.
    """
    model, warnings, _xml = load_with_xml(
        source,
        xacro_args=xacro_args,
        package_paths=package_paths,
        sdf_paths=sdf_paths,
        network=network,
    )
    return model, warnings


def load(
    source: DescriptionSource,
    *,
    xacro_args: Mapping[str, object] | None = None,
    package_paths: PackagePaths | None = None,
    sdf_paths: Sequence[str | os.PathLike[str]] | None = None,
    network: bool = False,
) -> Robot | World:
    """Load a robot description (URDF, xacro or SDFormat; path or XML text).

    Same arguments and errors as :func:`load_with_warnings`; warnings go to ``logging`` only.
    Example: ``load("robot.urdf.xacro", xacro_args={"prefix": "left_"})``.
    """
    return load_with_warnings(
        source,
        xacro_args=xacro_args,
        package_paths=package_paths,
        sdf_paths=sdf_paths,
        network=network,
    )[0]
