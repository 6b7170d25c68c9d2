"""Resolution of resource paths in descriptions: ``package://``, ``$(find pkg)``, ``file://``,
relative and absolute paths.

Packages are looked up first in a user-given map ``{package: directory}`` and then in the ament
index (``ament_index_python.get_package_share_directory``), as ROS 2 tools do. A path resolved
inside a package may not leave that package's directory (``package://pkg/../../etc/passwd`` is
refused). Files are not required to exist: mesh files are often not installed where a
description is checked, so :func:`resolve_uri` returns the path it would use.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from ..errors import PathResolutionError, RefusedPathError
from .confine import FIX, is_confined, local_file_refusal, names_local_file, outside_refusal

#: Package name → its directory, for ``package://`` and ``$(find)`` (before the ament index).
PackagePaths = Mapping[str, "str | os.PathLike[str]"]

_FIND = re.compile(r"^\$\(find\s+([^\s)]+)\s*\)(.*)$", re.DOTALL)
_OTHER_SCHEMES = ("model://", "http://", "https://", "ftp://")


def find_package(package: str, package_paths: PackagePaths | None = None) -> Path | None:
    """The share directory of ``package``, or ``None`` when it is unknown.

    ``package_paths`` (a user map package → directory) wins over the ament index. The ament
    index is consulted through ``ament_index_python`` when it is installed.
    """
    if package_paths and package in package_paths:
        return Path(os.path.abspath(os.fspath(package_paths[package])))
    try:
        from ament_index_python.packages import PackageNotFoundError, get_package_share_directory
    except ImportError:  # ament_index_python is optional outside a ROS install
        return None
    try:
        return Path(get_package_share_directory(package))
    except (PackageNotFoundError, KeyError, ValueError, LookupError, OSError):
        return None  # OSError: AMENT_PREFIX_PATH unset (no ROS environment)


def _inside(root: Path, relative: str, uri: str, file: str | None) -> Path:
    """``root / relative``, refusing results outside ``root`` (lexically, before symlinks)."""
    target = os.path.normpath(os.path.join(os.fspath(root), relative.lstrip("/")))
    root_text = os.path.normpath(os.fspath(root))
    if os.path.commonpath([root_text, target]) != root_text:
        raise PathResolutionError(
            f"{uri!r} resolves to {target!r}, outside its package directory {root_text!r}",
            file=file,
            fix="remove the '..' components so the path stays inside the package",
        )
    return Path(target)


def _check_relative_escape(relative: str, uri: str, file: str | None) -> None:
    """Refuse a package-relative path that climbs above the package root, even when the
    package itself is unknown (so the escape is visible without resolving it)."""
    normal = os.path.normpath(relative.lstrip("/") or ".")
    if normal == ".." or normal.startswith("../"):
        raise PathResolutionError(
            f"{uri!r} climbs out of its package with '..'",
            file=file,
            fix="remove the '..' components so the path stays inside the package",
        )


def split_package_uri(uri: str) -> tuple[str, str] | None:
    """``(package, relative path)`` of a ``package://`` or ``$(find pkg)/...`` string, else
    ``None``."""
    if uri.startswith("package://"):
        rest = uri[len("package://") :]
        package, _, relative = rest.partition("/")
        return package, relative
    match = _FIND.match(uri)
    if match:
        return match.group(1), match.group(2)
    return None


def unresolved_reason(uri: str) -> str | None:
    """Why :func:`resolve_uri` returned ``None`` for ``uri``, as a warning text; ``None`` when
    there is nothing to warn about (network URIs, paths in XML given as a string).

    One text per package (or ``model://`` model), so callers can warn once per package.
    """
    package_ref = split_package_uri(uri.strip())
    if package_ref is not None:
        return (
            f"package {package_ref[0]!r} is not in the package path map or the ament index; its "
            "mesh paths stay unresolved (give --package-path PKG=DIR or package_paths)"
        )
    if uri.strip().startswith("model://"):
        model = uri.strip()[len("model://") :].partition("/")[0]
        return (
            f"model {model!r} (model://{model}/...) is not on the SDF resource path; its mesh "
            "paths stay unresolved (give --sdf-path DIR, sdf_paths or GZ_SIM_RESOURCE_PATH)"
        )
    return None


def resolve_uri(
    uri: str,
    *,
    base_dir: str | os.PathLike[str] | None = None,
    package_paths: PackagePaths | None = None,
    file: str | None = None,
    cache: dict[str, Path | None] | None = None,
    network: bool = False,
) -> str | None:
    """Absolute path a resource reference points to, or ``None`` when it cannot be known.

    Args:
        uri: the reference as written: ``package://pkg/rel``, ``$(find pkg)/rel``,
            ``file:///abs``, ``file://rel``, an absolute path, or a path relative to ``base_dir``.
        base_dir: directory of the description file (``None`` for XML given as a string).
        package_paths: user map package → directory, consulted before the ament index.
        file: the description file, for error messages.
        cache: optional package → directory memo shared by the calls of one load (the ament
            index is a file-system lookup per call).
        network: the description came from the network (:mod:`.confine`): a ``file://`` URI
            or an absolute path is refused, a package path must stay inside its package's
            directory with symlinks followed, a relative path inside ``base_dir``.

    Returns:
        The normalised absolute path (not checked for existence), or ``None`` for an unknown
        package, a ``model://`` or network URI, or a relative path without ``base_dir``.

    Raises:
        PathResolutionError: the package name is empty, or the path leaves its package
            directory.
        RefusedPathError: ``network`` and the path names a local file (see ``network``).
    """
    uri = uri.strip()
    if not uri or uri.startswith(_OTHER_SCHEMES):
        return None
    package_ref = split_package_uri(uri)
    if package_ref is not None:
        package, relative = package_ref
        if not package:
            raise PathResolutionError(
                f"{uri!r} names no package", file=file, fix="write package://<package>/<path>"
            )
        _check_relative_escape(relative, uri, file)
        if cache is None:
            root = find_package(package, package_paths)
        elif package in cache:
            root = cache[package]
        else:
            root = cache[package] = find_package(package, package_paths)
        if root is None:
            return None
        target = os.fspath(_inside(root, relative, uri, file))
        if network and not is_confined(target, [root]):
            raise RefusedPathError(outside_refusal("mesh", uri), file=file, fix=FIX)
        return target
    if network and names_local_file(uri):
        raise RefusedPathError(local_file_refusal("mesh", uri), file=file, fix=FIX)
    if uri.startswith("file://"):
        uri = uri[len("file://") :]
    if os.path.isabs(uri):
        return os.path.normpath(uri)
    if base_dir is None:
        return None
    target = os.path.normpath(os.path.join(os.path.abspath(os.fspath(base_dir)), uri))
    if network and not is_confined(target, [base_dir]):
        raise RefusedPathError(outside_refusal("mesh", uri), file=file, fix=FIX)
    return target
