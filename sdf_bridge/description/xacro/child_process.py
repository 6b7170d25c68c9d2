"""xacro files expanded in a child process that is bounded in memory and time.

A xacro file is a program (its ``${...}`` are Python expressions), so a mistake in one, or a
hostile file, can ask for any amount of memory or time before its output exists: nested
doublings of one property in a short file ask for gigabytes, long before the document cap
(:data:`~sdf_bridge.description.xmlio.MAX_XML_BYTES`) can look at the result. :func:`expand_xacro`
therefore runs the expansion (:func:`.expand.expand_in_process`) in a fresh Python
interpreter whose address space is capped (``RLIMIT_AS``: its resident memory can never exceed the
cap, an allocation beyond it fails) and whose CPU time is capped (``RLIMIT_CPU``), and waits for
it at most the time bound of wall time, after which the child is killed. Either bound stops the
expansion itself, not only its result, with a :class:`~sdf_bridge.errors.XacroError` naming the
file.

Bounds (defaults; the environment variables set them for one process, e.g. for a trusted file
that really needs more):

==============================  =======  ==================================================
variable                        default  bound
==============================  =======  ==================================================
``SDF_BRIDGE_XACRO_MEMORY_MB``  256      address space of the child, MiB (``RLIMIT_AS``)
``SDF_BRIDGE_XACRO_TIMEOUT_S``  60       wall time of one expansion, s (CPU time: the same)
==============================  =======  ==================================================

The child imports only what the expansion needs (xacro, lxml and three modules of this package,
no numpy, so the child starts small and fast; doc/dev/rationale.md); a flattened PR2
description expands well within the default bounds. ``bench/xacro_bounds.py`` prints
the figures (the doubling payloads' peak memory bounded and unbounded, and the cost of the
child against an in-process expansion). The memory bound is ``RLIMIT_AS`` (Linux); where the
platform has none, only the time bound applies.

The bounds are not a sandbox: the child has the rights of the user who runs it, which is why
only files the user names are expanded (text from the network never is:
:func:`.expand.parse_xml_text`).
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from ... import errors
from ...errors import DescriptionError, XacroError
from .. import xmlio
from ..resolve import PackagePaths

MEMORY_ENV = "SDF_BRIDGE_XACRO_MEMORY_MB"
TIMEOUT_ENV = "SDF_BRIDGE_XACRO_TIMEOUT_S"
DEFAULT_MEMORY_MB = 256.0
DEFAULT_TIMEOUT_S = 60.0

#: Where the ``sdf_bridge`` package is imported from, for the child's ``sys.path``.
_ROOT = str(Path(__file__).resolve().parents[3])
#: The child's program (``python -c``). The ``sdf_bridge.description`` and ``.model`` package
#: initialisers re-export the model types, which import numpy (slow and large to import:
#: doc/dev/rationale.md); the expansion needs none of them, so the child registers the two
#: packages by path only and imports just the modules the expansion uses. A terminal's Ctrl-C
#: reaches the child too (same process group): it ends it without a traceback (the parent
#: reports the stop).
_CHILD = """\
import signal, sys, types
signal.signal(signal.SIGINT, signal.SIG_DFL)
sys.path.insert(0, sys.argv[1])
packages = (("sdf_bridge.description", sys.argv[2]), ("sdf_bridge.description.model", sys.argv[3]))
for name, path in packages:
    package = types.ModuleType(name)
    package.__path__ = [path]
    sys.modules[name] = package
from sdf_bridge.description.xacro.child_process import child_main
child_main()
"""
#: What the child writes when the memory bound stopped it (prepared before expanding: no
#: memory may be left to build it afterwards).
_OUT_OF_MEMORY = b'{"out_of_memory": true}'


def _bound(variable: str, default: float) -> float:
    """The bound in ``variable`` (a number > 0), else ``default``.

    Raises:
        XacroError: the variable is set to something else than a number > 0.
    """
    raw = os.environ.get(variable, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise XacroError(
            f"environment variable {variable}={raw!r} is not a number > 0",
            fix=f"set {variable} to a positive number, or unset it (default {default:g})",
        )
    return value


def expand_xacro(
    path: str | os.PathLike[str],
    *,
    xacro_args: Mapping[str, object] | None = None,
    package_paths: PackagePaths | None = None,
) -> tuple[str, list[str]]:
    """Expand the xacro file ``path`` in a bounded child process; return ``(urdf_xml, warnings)``
    (the caller logs the warnings: the loader, aggregated by :mod:`.warning_digest`).

    Args:
        path: the xacro file (a file the user named: its expressions run with the user's rights).
        xacro_args: ``name → value`` as on the command line (``name:=value``); values are
            converted with :class:`str`.
        package_paths: package → directory map for ``$(find pkg)`` (before the ament index).

    Raises:
        XacroError: xacro failed (the message names the file it was reading); or the expansion
            went over the memory bound (``SDF_BRIDGE_XACRO_MEMORY_MB``) or the time bound
            (``SDF_BRIDGE_XACRO_TIMEOUT_S``) and was stopped; or the child process failed.
        UnsafeXmlError: an included file declares a DTD or entities, or a file or the expanded
            document is over :data:`~sdf_bridge.description.xmlio.MAX_XML_BYTES`.
    """
    name = os.path.abspath(os.fspath(path))
    memory_mb = _bound(MEMORY_ENV, DEFAULT_MEMORY_MB)
    timeout = _bound(TIMEOUT_ENV, DEFAULT_TIMEOUT_S)
    request = {
        "path": name,
        "xacro_args": {str(k): str(v) for k, v in (xacro_args or {}).items()},
        "package_paths": {str(k): os.fspath(v) for k, v in (package_paths or {}).items()},
        "max_bytes": xmlio.MAX_XML_BYTES,
        "memory_bytes": int(memory_mb * 1024 * 1024),
        "cpu_seconds": math.ceil(timeout) + 1,
    }
    description = Path(__file__).resolve().parents[1]
    argv = [sys.executable, "-c", _CHILD, _ROOT, str(description), str(description / "model")]
    try:
        done = subprocess.run(
            argv,
            input=json.dumps(request).encode(),
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise XacroError(
            f"xacro expansion took longer than its time bound of {timeout:g} s and was stopped",
            file=name,
            fix="look for a runaway loop or recursion in the file's macros; for a trusted file "
            f"that really needs longer, set {TIMEOUT_ENV} (s)",
        ) from None
    except OSError as exc:
        raise XacroError(
            f"the xacro child process could not start: {exc}",
            file=name,
            fix="check that the Python interpreter can run subprocesses",
        ) from None
    reply = _reply(done)
    if reply is None:
        _raise_for_crash(done, name, request["cpu_seconds"])
    if reply.get("out_of_memory"):
        raise _out_of_memory(name, memory_mb)
    if "error" in reply:
        raise _error(reply["error"], name)
    return str(reply["text"]), [str(w) for w in reply["warnings"]]


def _out_of_memory(name: str, memory_mb: float) -> XacroError:
    return XacroError(
        f"xacro expansion needed more than its memory bound of {memory_mb:g} MiB and was stopped",
        file=name,
        fix=f"look for a property or macro that grows without end (one that doubles itself); for a "
        f"trusted file that really needs more, set {MEMORY_ENV} (MiB)",
    )


def _raise_for_crash(done: subprocess.CompletedProcess[bytes], name: str, cpu_seconds: int) -> None:
    """Raise the error of a child that wrote no reply: killed at its CPU time bound
    (``SIGXCPU``), out of memory (a ``MemoryError`` it could not report, or killed by the
    kernel or by a failed allocation in C: ``SIGKILL``, ``SIGSEGV``, ``SIGABRT``), or failed
    otherwise (its last line of stderr in the message).

    Raises:
        XacroError: always.
    """
    lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
    last = lines[-1] if lines else ""
    if done.returncode == -signal.SIGXCPU:
        raise XacroError(
            f"xacro expansion used more than its CPU time bound of {cpu_seconds} s and was stopped",
            file=name,
            fix=f"look for a runaway loop in the file's macros, or set {TIMEOUT_ENV} (s)",
        )
    if "MemoryError" in last or done.returncode in (
        -signal.SIGKILL,
        -signal.SIGSEGV,
        -signal.SIGABRT,
    ):
        raise _out_of_memory(name, _bound(MEMORY_ENV, DEFAULT_MEMORY_MB))
    raise XacroError(
        f"the xacro child process failed (exit status {done.returncode}): {last or 'no message'}",
        file=name,
        fix="check that xacro is installed (pip install xacro) and run xacro on the file by hand",
    )


def _reply(done: subprocess.CompletedProcess[bytes]) -> dict | None:
    """The child's JSON reply, or ``None`` when it wrote none (it was killed or crashed)."""
    try:
        reply = json.loads(done.stdout)
    except ValueError:
        return None
    return reply if isinstance(reply, dict) else None


def _error(fields: Mapping[str, object], name: str) -> DescriptionError:
    """The child's typed error, rebuilt (a :class:`DescriptionError` subclass, else XacroError)."""
    cls = getattr(errors, str(fields.get("type")), None)
    if not (isinstance(cls, type) and issubclass(cls, DescriptionError)):
        cls = XacroError
    line = fields.get("line")
    return cls(
        str(fields.get("problem", "xacro expansion failed")),
        file=str(fields.get("file") or name),
        line=line if isinstance(line, int) else None,
        element=None if fields.get("element") is None else str(fields["element"]),
        fix=None if fields.get("fix") is None else str(fields["fix"]),
    )


def child_main() -> None:
    """The child process (``_CHILD``): read the request (JSON) on stdin, cap memory and CPU
    time, expand, write the reply (JSON) on stdout. Not for direct use."""
    import resource

    from . import expand

    request = json.loads(sys.stdin.buffer.read())
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # anything xacro prints stays out of the reply
    xmlio.MAX_XML_BYTES = int(request["max_bytes"])  # the parent's cap (tests lower it)
    if hasattr(resource, "RLIMIT_AS"):
        resource.setrlimit(resource.RLIMIT_AS, (request["memory_bytes"], request["memory_bytes"]))
    cpu = int(request["cpu_seconds"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    try:
        text, warnings = expand.expand_in_process(
            request["path"],
            xacro_args=request["xacro_args"],
            package_paths=request["package_paths"],
        )
        size = len(text.encode("utf-8"))
        if size > xmlio.MAX_XML_BYTES:
            raise errors.UnsafeXmlError(
                f"the expanded document is {size} bytes, over the {xmlio.MAX_XML_BYTES}-byte cap",
                file=request["path"],
                fix="check the file's macros for runaway repetition",
            )
        reply = json.dumps({"text": text, "warnings": warnings}).encode()
    except MemoryError:
        out.write(_OUT_OF_MEMORY)
        return
    except DescriptionError as exc:
        reply = json.dumps(
            {
                "error": {
                    "type": type(exc).__name__,
                    "problem": exc.problem,
                    "file": exc.file,
                    "line": exc.line,
                    "element": exc.element,
                    "fix": exc.fix,
                }
            }
        ).encode()
    out.write(reply)
