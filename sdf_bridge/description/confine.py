"""What a description from the network may open: the rule behind ``allow_local_files``.

A description that arrives as text on the ``robot_description`` topic or parameter is data
from any peer on the ROS domain. Unless the user allows local files (the node's
``allow_local_files`` parameter; ``network=False`` for
:func:`~sdf_bridge.description.load_with_xml`), the files it names are confined:

* a ``file://`` URI or an absolute path is refused before anything is looked up, so the error
  is the same whether the file exists or not and nothing the file holds is read or quoted;
* a relative path is looked up only inside the configured directories (never the current
  directory);
* ``package://pkg/…``, ``$(find pkg)/…``, ``model://…`` and Fuel URIs resolve only through the
  directories the user configured: the package map (``package_paths``), the ament index, the
  SDF resource path (``sdf_paths``, ``GZ_SIM_RESOURCE_PATH``, ``IGN_GAZEBO_RESOURCE_PATH``,
  ``GAZEBO_MODEL_PATH``, ``SDF_PATH``) and the local Fuel cache; the real path (symlinks
  followed) must stay inside one of them and outside ``/proc``, ``/sys`` and ``/dev``;
* a file read while loading is a regular file of at most
  :data:`~sdf_bridge.description.xmlio.MAX_XML_BYTES`, opened without blocking
  (:func:`~sdf_bridge.description.xmlio.read_file`, which applies that to every description
  file, local ones included).

Files inside the configured directories are the user's installed models: errors about them are
the ordinary ones (what is missing or malformed, with its line).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

#: Where no description file lives: pseudo file systems whose files block, never end or have
#: side effects when read (``/proc/kmsg``, ``/dev/zero``, ``/sys/...``).
PSEUDO_FILESYSTEMS = ("/proc", "/sys", "/dev")

#: The rule, as error messages and warnings state it.
RULE_SUBJECT = "a robot_description from the network"
RULE_VERB = "may not name local files"

#: How to get past the rule, for the ``fix`` of every refusal.
FIX = (
    "set allow_local_files:=true to allow it (for a trusted description only), or name the "
    "file with package:// or model:// under a configured directory (package_paths, the ament "
    "index, sdf_paths / GZ_SIM_RESOURCE_PATH)"
)


def names_local_file(uri: str) -> bool:
    """True for a ``file://`` URI or an absolute path: what a description from the network may
    not name at all."""
    uri = uri.strip()
    return uri.lower().startswith("file:") or os.path.isabs(uri)


def local_file_refusal(what: str, uri: str) -> str:
    """The message of a refused ``file://`` URI, absolute path or path relative to the network
    text itself (``what``: ``"include"``, ``"mesh"``)."""
    uri = uri.strip()
    if uri.lower().startswith("file:"):
        kind = "a file:// URI"
    else:
        kind = "an absolute path" if os.path.isabs(uri) else "a path relative to the text itself"
    return f"refused: {what} {uri!r} is {kind} in {RULE_SUBJECT}, which {RULE_VERB}"


def outside_refusal(what: str, uri: str) -> str:
    """The message of a path that resolves outside the configured directories (a symlink out of
    a package, ``..``, a pseudo file system)."""
    return (
        f"refused: {what} {uri.strip()!r} in {RULE_SUBJECT} resolves outside the configured "
        f"package and model directories (or to a file of /proc, /sys or /dev), and it "
        f"{RULE_VERB}"
    )


def in_pseudo_filesystem(real: str) -> bool:
    """True when the real path ``real`` is under :data:`PSEUDO_FILESYSTEMS`."""
    return any(real == top or real.startswith(top + os.sep) for top in PSEUDO_FILESYSTEMS)


def is_confined(path: str | os.PathLike[str], roots: Iterable[str | os.PathLike[str]]) -> bool:
    """True when the real path of ``path`` (symlinks followed; ``path`` need not exist) is
    inside the real path of one of ``roots`` and not in a pseudo file system. The answer
    depends on the symlinks inside the roots only, never on whether the target exists."""
    real = os.path.realpath(os.fspath(path))
    if in_pseudo_filesystem(real):
        return False
    for root in roots:
        top = os.path.realpath(os.fspath(root))
        if os.path.commonpath([top, real]) == top:
            return True
    return False


def confined_roots(*groups: Iterable[str | os.PathLike[str] | None]) -> list[Path]:
    """The directories of ``groups`` (``None`` entries dropped), in order, without repeats."""
    roots: list[Path] = []
    for group in groups:
        for root in group:
            if root is not None and Path(root) not in roots:
                roots.append(Path(root))
    return roots


#: Key of the one warning per load about refused mesh paths.
REFUSED_MESH = "refused mesh"


def refused_mesh_warning(exc: Exception) -> str:
    """The one warning per load about meshes a description from the network may not name
    (``exc``: the first one's :class:`~sdf_bridge.errors.RefusedPathError`)."""
    problem = getattr(exc, "problem", str(exc))
    return (
        f"{problem}: the mesh is left out of the simulation (and every further mesh refused "
        f"by this rule, without another warning). Fix: {FIX}"
    )
