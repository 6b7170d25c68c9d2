"""Start on the numpy kernels, switch to the compiled ones when they are ready: no visible compile.

On the first start on a machine Numba compiles the control cycle's kernels (:mod:`sdf_bridge.jit`;
15–60 s, ``bench/startup.py``) and caches them on disk. Waiting for that would hold the first
joint_states back as long; compiling in a thread of the bridge would hold the GIL for much of
it and disturb the control loop (``bench/startup.py --only loop``: late and lost ticks for the
whole compilation). So the bridge starts at once on the numpy paths, which are the reference
(the compiled kernels give identical results, the tests compare them bit for bit), and
:class:`KernelSwitch`, in a thread of its own:

1. loads the kernels from Numba's cache (each kernel module's ``warm_up()`` under
   :func:`sdf_bridge.jit.cached_only`: a few hundred ms in short stretches, nothing compiled
   here; Numba itself is set up before the control loop starts, :meth:`KernelSwitch.start`);
2. if one is not cached (a first start, or Numba or the package changed): logs one line, runs
   a child process (:func:`main`, on the bridge's own files, niced by :data:`NICE`) that
   compiles them into the cache, then loads them as in 1;
3. switches the hardware system between two ticks (:meth:`HardwareSystem.use_compiled
   <sdf_bridge.hardware.system.HardwareSystem.use_compiled>`, under its lock; nothing is lost:
   commands, holds, the limiter's previous commands and the backend's state are kept) and logs
   one line.

A failure at any step (the child exits with an error, is killed or takes longer than
:data:`CHILD_TIMEOUT`, a kernel is still not cached after it, a load fails) leaves the numpy
path running, with one warning naming the cause; never a crash. ``SDF_BRIDGE_JIT=0`` means numpy
only: :func:`start` then returns ``None``.
"""

from __future__ import annotations

import importlib
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import jit

_LOG = logging.getLogger(__name__)

NICE = 10
"""Niceness added to the child process: the control loop and the robot's other processes first."""
CHILD_TIMEOUT = 900.0
"""Seconds the child may take before it is stopped (then the numpy kernels stay)."""
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
# the child imports the package from the bridge's own files (Numba's cache is kept per source file)
_CHILD_CODE = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from sdf_bridge.hardware.kernel_switch import main; sys.exit(main(sys.argv[2:]))"
)


def kernel_modules(system: Any) -> tuple[str, ...]:
    """The modules of the compiled kernels that ``system``'s parts (transmissions, limiter,
    backend) run, from their ``kernel_modules`` class attributes, in that order."""
    names: list[str] = []
    for part in (system.transmissions, system.limiter, system.backend):
        names += [name for name in getattr(part, "kernel_modules", ()) if name not in names]
    return tuple(names)


class KernelSwitch:
    """Switches a hardware system built on the numpy kernels to the compiled ones (module doc).

    Args:
        system: a :class:`~sdf_bridge.hardware.system.HardwareSystem` (built with
            ``compiled=False``).
        command: the child's command line before the module names (default: this Python
            running :func:`main`); for tests.

    Attributes:
        state: ``"idle"`` (not started), ``"loading"``, ``"compiling"`` (the child runs),
            ``"switched"``, ``"failed"`` or ``"closed"``.
        modules: the kernel modules warmed up (:func:`kernel_modules`).
        timings: seconds from :meth:`start` to each state reached.
        compile_seconds: how long the child took (``None``: no child was needed).
    """

    def __init__(self, system: Any, *, command: Sequence[str] | None = None) -> None:
        self.system = system
        self.modules = kernel_modules(system)
        self._command = (
            list(command)
            if command is not None
            else [sys.executable, "-c", _CHILD_CODE, _PACKAGE_ROOT]
        )
        self.state = "idle"
        self.timings: dict[str, float] = {}
        self.compile_seconds: float | None = None
        self._t0 = 0.0
        self._closing = threading.Event()
        self._done = threading.Event()
        self._child: subprocess.Popen | None = None
        self._thread = threading.Thread(
            target=self._run, name="sdf_bridge_kernel_switch", daemon=True
        )

    def start(self) -> None:
        """Set Numba up in this process (:func:`sdf_bridge.jit.initialise`: ~0.5 s, here, so
        call it before the control loop starts) and start the background work (once)."""
        self._t0 = time.perf_counter()
        self._mark("loading")
        try:
            jit.initialise()
        except Exception as exc:  # (an unusable Numba: numpy stays)
            self._fail(exc)
            self._done.set()
            return
        self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the switch happened or failed (or :meth:`close`); return whether that
        happened within ``timeout`` s."""
        return self._done.wait(timeout)

    def close(self, timeout: float = 10.0) -> None:
        """Stop: the child is killed and the system is not switched any more (idempotent). A
        load from Numba's cache under way is waited for (``timeout`` s at most; it takes
        0.1–2 s): the process exits next, and Numba interrupted by the interpreter's
        finalisation prints tracebacks."""
        self._closing.set()
        child = self._child
        if child is not None and child.poll() is None:
            child.kill()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)
        if self.state not in ("switched", "failed"):
            self.state = "closed"
        self._done.set()

    # ------------------------------------------------------------------ the background thread
    def _mark(self, state: str) -> None:
        self.state = state
        self.timings[state] = time.perf_counter() - self._t0

    def _run(self) -> None:
        try:
            if not self._load():
                self._mark("compiling")
                _LOG.info(
                    "compiling the control cycle's kernels with Numba in a background process (a "
                    "first start on this machine, or Numba or sdf_bridge changed: 15-60 s, "
                    "cached afterwards); the numpy kernels run meanwhile (same results, "
                    "slower)"
                )
                self.compile_seconds = self._compile()
                if self._closing.is_set():
                    return
                self._mark("loading")
                if not self._load():
                    raise RuntimeError(
                        "the kernels compiled by the background process are not in Numba's cache "
                        "(is its directory writable? NUMBA_CACHE_DIR sets it)"
                    )
            if self._closing.is_set():
                return
            self.system.use_compiled()
            self._mark("switched")
            how = (
                "loaded from Numba's cache"
                if self.compile_seconds is None
                else f"compiled in a background process in {self.compile_seconds:.1f} s, cached "
                "for the next starts"
            )
            _LOG.info(
                "switched to the compiled kernels %.1f s after start (%s)",
                self.timings["switched"],
                how,
            )
        except Exception as exc:  # whatever failed, the numpy kernels keep running
            if not self._closing.is_set():
                self._fail(exc)
        finally:
            self._done.set()

    def _fail(self, exc: Exception) -> None:
        self._mark("failed")
        _LOG.warning(
            "compiled kernels not used (%s); the numpy kernels keep running (same results, "
            "slower). Set SDF_BRIDGE_JIT=0 to not try.",
            exc,
        )

    def _load(self) -> bool:
        """Load every module's kernels from Numba's cache; ``False`` when one is not cached."""
        try:
            with jit.cached_only():
                for name in self.modules:
                    importlib.import_module(name).warm_up()
        except jit.NotCached:
            return False
        return True

    def _compile(self) -> float:
        """Run the child until it is done; return the seconds it took.

        Raises:
            RuntimeError: it failed, was killed or timed out.
        """
        t0 = time.perf_counter()
        with tempfile.TemporaryFile("w+") as errors:
            child = subprocess.Popen(
                [*self._command, *self.modules],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errors,
            )
            self._child = child
            if self._closing.is_set():  # (closed while starting it)
                child.kill()
            try:
                code = child.wait(CHILD_TIMEOUT)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
                raise RuntimeError(
                    f"the compiling process did not finish within {CHILD_TIMEOUT:g} s"
                ) from None
            if code != 0 and not self._closing.is_set():
                errors.seek(0)
                tail = " ".join(errors.read().strip().splitlines()[-3:]) or "no output"
                raise RuntimeError(f"the compiling process failed (exit code {code}): {tail}")
        return time.perf_counter() - t0


def start(system: Any) -> KernelSwitch | None:
    """A started :class:`KernelSwitch` for ``system``, or ``None`` when the compiled kernels are
    off (:data:`sdf_bridge.jit.ENABLED`: no Numba, ``SDF_BRIDGE_JIT=0``) or none of its parts
    has any."""
    if not jit.ENABLED:
        return None
    switch = KernelSwitch(system)
    if not switch.modules:
        return None
    switch.start()
    return switch


def main(modules: Sequence[str] | None = None) -> int:
    """The child process: compile the kernels of ``modules`` (module names, default
    ``sys.argv[1:]``; each module's ``warm_up()``) into Numba's cache, or find them there,
    niced by :data:`NICE`. Returns 0, or 2 when the compiled kernels are off here (nothing
    would be cached)."""
    try:
        os.nice(NICE)
    except (AttributeError, OSError):  # not permitted / not POSIX: at the normal priority
        pass
    if not jit.ENABLED:
        print(f"compiled kernels are off here: {jit.describe()}", file=sys.stderr)
        return 2
    for name in sys.argv[1:] if modules is None else modules:
        importlib.import_module(name).warm_up()
    return 0


if __name__ == "__main__":
    sys.exit(main())
