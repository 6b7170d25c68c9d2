"""Resolution of SDFormat ``<include><uri>`` to a model file.

A URI is ``model://name[/sub/path]``, ``package://pkg/path`` (the package's directory from the
package path map or the ament index, else ``pkg/path`` on the search path, as Gazebo's resource
lookup does), ``file://path``, an absolute path or a path relative to the including file's
directory; a bare name (``wheel``) is also looked up on the search path, as libsdformat does.
The search path is the user list followed by the directories in the environment variables
``GZ_SIM_RESOURCE_PATH``, ``IGN_GAZEBO_RESOURCE_PATH``, ``GAZEBO_MODEL_PATH`` and ``SDF_PATH``
(``os.pathsep``-separated), in that order. A Gazebo Fuel URI
(``https://fuel.gazebosim.org/1.0/<owner>/models/<name>[/<version>]``) is found in the local Fuel
cache (``GZ_FUEL_CACHE_PATH``, else ``~/.gz/fuel``), where ``gz fuel download`` puts it; nothing
is downloaded. A directory is read through its ``model.config``: the ``<sdf version>`` entry
with the highest version not above :data:`SUPPORTED_MAX` is used (``model.sdf`` when there is
no config).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import unquote, urlparse

from lxml import etree

from ...errors import InvalidValueError, MissingReferenceError, RefusedPathError
from ..confine import (
    FIX,
    confined_roots,
    is_confined,
    local_file_refusal,
    names_local_file,
    outside_refusal,
)
from ..resolve import PackagePaths, find_package, split_package_uri
from ..xmlio import ParseContext, parse_xml, read_file

#: Highest SDFormat version this loader reads.
SUPPORTED_MAX = (1, 11)

#: The environment variables whose directories ``model://`` includes are searched in, in order.
ENV_VARS = ("GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH", "GAZEBO_MODEL_PATH", "SDF_PATH")


def search_path(user_paths: Sequence[str | os.PathLike[str]] | None = None) -> list[Path]:
    """The include search path: ``user_paths`` then the environment variables of
    :data:`ENV_VARS`."""
    paths = [Path(p) for p in user_paths or ()]
    for var in ENV_VARS:
        for part in os.environ.get(var, "").split(os.pathsep):
            if part:
                paths.append(Path(part))
    return paths


def parse_version(text: str) -> tuple[int, int] | None:
    """``"1.9"`` → ``(1, 9)``; ``None`` when it is not ``major.minor``."""
    parts = text.strip().split(".")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def model_file_of_directory(
    directory: Path,
    elem: etree._Element,
    ctx: ParseContext,
    *,
    roots: Sequence[Path] | None = None,
    uri: str = "",
) -> Path:
    """The SDF file of a model directory, chosen through its ``model.config``; with ``roots``
    (a description from the network) the config and the file it names must stay inside them.

    Raises:
        MissingReferenceError: no usable ``<sdf>`` entry / file in the directory.
        InvalidValueError: ``model.config`` is not well-formed or has a bad version.
        RefusedPathError: ``model.config`` or the file it names leaves ``roots``.
    """
    config = directory / "model.config"
    if roots is not None:
        _confine(config, roots, uri, elem, ctx)
    if not config.is_file():
        candidate = directory / "model.sdf"
        if roots is not None:
            _confine(candidate, roots, uri, elem, ctx)
        if candidate.is_file():
            return candidate
        raise ctx.error(
            MissingReferenceError,
            elem,
            f"model directory {str(directory)!r} has neither model.config nor model.sdf",
            "add a model.config naming the SDF file",
        )
    root = parse_xml(read_file(config), str(config))
    best: tuple[tuple[int, int], str] | None = None
    for entry in root.findall("sdf"):
        version_text = entry.get("version", "")
        version = parse_version(version_text) if version_text else (0, 0)
        if version is None:
            raise ParseContext(str(config)).error(
                InvalidValueError,
                entry,
                f"version is {version_text!r}",
                "write the version as major.minor, e.g. 1.9",
            )
        if version > SUPPORTED_MAX or not (entry.text or "").strip():
            continue
        if best is None or version > best[0]:
            best = (version, entry.text.strip())
    if best is None:
        raise ParseContext(str(config)).error(
            MissingReferenceError,
            root,
            f"model.config lists no <sdf> file of version <= {SUPPORTED_MAX[0]}.{SUPPORTED_MAX[1]}",
            'add <sdf version="1.x">model.sdf</sdf> to model.config',
        )
    path = directory / best[1]
    if roots is not None:
        _confine(path, roots, uri, elem, ctx)
    if not path.is_file():
        raise ParseContext(str(config)).error(
            MissingReferenceError,
            root,
            f"model.config names {best[1]!r}, which does not exist in {str(directory)!r}",
            "correct the <sdf> entry or add the file",
        )
    return path


def is_network_uri(uri: str) -> bool:
    """True for an ``http://`` or ``https://`` URI (a model on a web server, e.g. Gazebo Fuel)."""
    return uri.strip().lower().startswith(("http://", "https://"))


def left_out(uri: str) -> bool:
    """True for an include a world is read without: a model on a web server (Gazebo Fuel)
    that is not in the local Fuel cache (sdf_bridge downloads nothing)."""
    return is_network_uri(uri) and fuel_cache_model(uri) is None


_FUEL_PATH = re.compile(r"^/(?:1\.0/)?([^/]+)/models/([^/]+)(?:/(\d+|tip))?/?")


def fuel_cache_model(uri: str) -> Path | None:
    """The directory of a Fuel model URI in the local Fuel cache, or ``None``.

    The cache holds ``<cache>/<host>/<owner>/models/<name>/<version>/`` (owner and name in any
    case; the highest version, or the one the URI names); ``<cache>`` is ``GZ_FUEL_CACHE_PATH``
    or ``~/.gz/fuel``.
    """
    if not is_network_uri(uri):
        return None
    parsed = urlparse(uri.strip())
    match = _FUEL_PATH.match(unquote(parsed.path))
    if match is None:
        return None
    owner, name, version = match.groups()
    if {parsed.netloc, owner, name} & {"", ".", ".."}:  # a path out of the cache, not a model
        return None
    cache = fuel_cache_dir()
    models = _child_ci(cache / parsed.netloc, owner)
    model = _child_ci(models / "models", name) if models is not None else None
    if model is None:
        return None
    versions = sorted((int(d.name), d) for d in model.iterdir() if d.is_dir() and d.name.isdigit())
    if version not in (None, "tip"):
        versions = [(n, d) for n, d in versions if n == int(version)]
    return versions[-1][1] if versions else None


def fuel_cache_dir() -> Path:
    """The local Fuel cache: ``GZ_FUEL_CACHE_PATH``, else ``~/.gz/fuel``."""
    return Path(os.environ.get("GZ_FUEL_CACHE_PATH") or Path.home() / ".gz" / "fuel")


def _confine(
    path: Path, roots: Sequence[Path], uri: str, elem: etree._Element, ctx: ParseContext
) -> None:
    """Refuse ``path`` (reached from ``uri`` of a description from the network) unless it is
    inside ``roots`` (:func:`~sdf_bridge.description.confine.is_confined`).

    Raises:
        RefusedPathError: naming ``uri`` and the rule, not the path it resolved to.
    """
    if not is_confined(path, roots):
        raise ctx.error(RefusedPathError, elem, outside_refusal("include", uri), FIX)


def _child_ci(directory: Path, name: str) -> Path | None:
    """The entry of ``directory`` named ``name`` in any case, or ``None``."""
    if not directory.is_dir():
        return None
    wanted = name.lower()
    return next((d for d in sorted(directory.iterdir()) if d.name.lower() == wanted), None)


def resolve_include(
    uri: str,
    elem: etree._Element,
    ctx: ParseContext,
    *,
    base_dir: Path,
    paths: Sequence[Path],
    package_paths: PackagePaths | None = None,
) -> Path:
    """The SDF file an ``<include>`` URI names.

    Args:
        uri: the ``<uri>`` text (surrounding white space ignored).
        elem: the ``<include>`` element (for messages).
        base_dir: directory of the including file (relative URIs).
        paths: the search path (:func:`search_path`).
        package_paths: package → directory map for ``package://`` URIs (then the ament index).

    A description from the network (``ctx.network``) may not name local files
    (:mod:`sdf_bridge.description.confine`): a ``file://`` URI or an absolute path is refused,
    every candidate must stay inside the search path, the package's directory or the Fuel
    cache.

    Raises:
        MissingReferenceError: nothing found; the message lists the search path.
        RefusedPathError: ``ctx.network`` and the URI names a local file or leaves the
            configured directories.
    """
    uri = uri.strip()
    candidates: list[Path] = []
    package = split_package_uri(uri) if uri.startswith("package://") else None
    package_root: Path | None = None
    network = ctx.network
    if network and not uri.startswith(("model://", "package://")) and names_local_file(uri):
        # refused before any look-up: the same answer whether the file exists or not
        raise ctx.error(RefusedPathError, elem, local_file_refusal("include", uri), FIX)
    if uri.startswith("model://"):
        rest = uri[len("model://") :]
        candidates = [p / rest for p in paths]
    elif package is not None:
        package_root = find_package(package[0], package_paths)
        candidates = ([package_root / package[1]] if package_root is not None else []) + [
            p / package[0] / package[1] for p in paths
        ]
    elif is_network_uri(uri):
        cached = fuel_cache_model(uri)
        candidates = [] if cached is None else [cached]
    else:
        plain = uri[len("file://") :] if uri.startswith("file://") else uri
        if os.path.isabs(plain):
            candidates = [Path(plain)]
        else:
            # the network text itself has no directory (its base is the current directory): a
            # relative path from it is looked up on the search path only; one from a file it
            # included (found inside the configured directories) beside that file too
            beside = [] if network and ctx.file == "<string>" else [base_dir / plain]
            candidates = beside + [p / plain for p in paths]
    roots: list[Path] | None = None
    if network:
        included_from = [] if ctx.file == "<string>" else [base_dir]
        roots = confined_roots(paths, [package_root, fuel_cache_dir()], included_from)
    for cand in candidates:
        if roots is not None:
            _confine(cand, roots, uri, elem, ctx)
        if cand.is_dir():
            return model_file_of_directory(cand, elem, ctx, roots=roots, uri=uri)
        if cand.is_file():
            return cand
    shown = os.pathsep.join(str(p) for p in paths) or "(empty)"
    if is_network_uri(uri):
        fix = (
            f'download it with `gz fuel download -u "{uri}"` (sdf_bridge reads the local Fuel '
            "cache only)"
        )
    elif package is not None:
        fix = f"give the package's directory (--package-path {package[0]}=DIR or package_paths)"
    else:
        fix = "add the model's parent directory to sdf_paths or to GZ_SIM_RESOURCE_PATH / SDF_PATH"
    beside = "" if network and ctx.file == "<string>" else f"base directory {str(base_dir)!r}; "
    raise ctx.error(
        MissingReferenceError, elem, f"include {uri!r} not found ({beside}search path {shown})", fix
    )
