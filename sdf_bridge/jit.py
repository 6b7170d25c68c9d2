"""Optional compilation of the control cycle's hot-path kernels with Numba.

The transmissions and the joint limiter run every control cycle. Written with numpy alone,
each is a few dozen ufunc calls, and at 100 joints the call overhead (about 0.5 µs each), not
the arithmetic, sets their cost. When `Numba <https://numba.pydata.org>`_ is installed
(``pip install sdf_bridge[fast]``; Debian/Ubuntu ``python3-numba``), the same rules are also
available as one compiled loop per direction (:func:`kernel`), which the hot paths use; the
numpy implementation stays the reference and the fallback, and the tests check that both give
identical results.

Compiled kernels are cached on disk (Numba's ``cache=True``: ``__pycache__`` beside the
module, or Numba's user cache directory when that is read-only; ``NUMBA_CACHE_DIR`` sets it),
so only the first run on a machine pays the compilation. The bridge does not wait for it: it
starts on the numpy paths and switches when the kernels are ready
(:mod:`sdf_bridge.hardware.kernel_switch`, with :func:`initialise` and :func:`cached_only`).

Environment:
    ``SDF_BRIDGE_JIT=0`` (or ``false``: :mod:`sdf_bridge.booleans`) disables the compiled kernels
    (the numpy paths run); Numba's own ``NUMBA_DISABLE_JIT=1`` does too.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from .booleans import WORDS, parse_bool

_LOG = logging.getLogger(__name__)
_F = TypeVar("_F", bound=Callable[..., Any])


def _load_numba() -> Any:
    setting = os.environ.get("SDF_BRIDGE_JIT", "1")
    wanted = parse_bool(setting)
    if wanted is None:
        _LOG.warning(
            "SDF_BRIDGE_JIT=%r is not a boolean (%s): compiled kernels stay on", setting, WORDS
        )
    elif not wanted:
        return None
    try:
        import numba
    except ImportError:
        return None
    if numba.config.DISABLE_JIT:
        return None
    return numba


_NUMBA = _load_numba()

ENABLED: bool = _NUMBA is not None
"""Whether compiled kernels are in use (Numba importable and not disabled)."""


def kernel(fn: _F) -> _F:
    """Compile ``fn`` with ``numba.njit(cache=True, nogil=True)`` when :data:`ENABLED`.

    Without Numba the plain Python function is returned unchanged: it still computes the same
    thing (slowly, element by element), which lets the tests check a kernel's logic on small
    inputs anywhere; the hot paths consult :data:`ENABLED` and use numpy instead.
    """
    if _NUMBA is None:
        return fn
    return _NUMBA.njit(cache=True, nogil=True)(fn)


def _identity(x: float) -> float:
    return x


_IDENTITY = kernel(_identity)


def initialise() -> float:
    """Set Numba up in this process now (no effect when :data:`ENABLED` is False): its CPU
    target and type registries are built on the first use of a compiled function, about 0.5 s
    of Python that holds the GIL most of the time, in stretches of up to ~100 ms. Done here, by
    a trivial kernel (loaded from the cache, or compiled the first time: a fraction of a
    second), before a control loop starts, a later :func:`warm_up` from the cache in a
    background thread takes a few hundred ms in short stretches
    (:mod:`sdf_bridge.hardware.kernel_switch`).

    Returns:
        The time spent, s.
    """
    if _NUMBA is None:
        return 0.0
    t0 = time.perf_counter()
    _IDENTITY(0.0)
    return time.perf_counter() - t0


_WARMED: set[str] = set()


def warm_up(what: str, kernels: Sequence[Any], run: Callable[[], None]) -> float:
    """Compile (or load from Numba's disk cache) ``kernels`` by calling ``run`` (which calls
    each kernel on dummy data of every input kind the hot path uses: C-contiguous and strided
    float64 arrays, float scalars), then forbid further compilation: no control cycle compiles,
    and an argument of another type raises ``TypeError`` at once (callers then take their numpy
    path, which converts it or raises the documented error).

    Idempotent per ``what`` (a name for the log); does nothing when :data:`ENABLED` is False
    (the kernels are plain Python functions then).

    Returns:
        The time spent, s (0.0 when already warm or not compiled).
    """
    if what in _WARMED or not ENABLED:
        return 0.0
    t0 = time.perf_counter()
    run()
    for fn in kernels:
        fn.disable_compile()
    _WARMED.add(what)
    elapsed = time.perf_counter() - t0
    _LOG.debug("%s ready in %.3f s (%s)", what, elapsed, describe())
    return elapsed


class NotCached(RuntimeError):
    """A kernel is not in Numba's disk cache: raised by :func:`cached_only` instead of compiling."""


@contextmanager
def cached_only() -> Iterator[None]:
    """Within this block, on the calling thread, kernels load from Numba's disk cache but never
    compile: a call that would compile raises :class:`NotCached` instead, before Numba's
    compiler starts (a listener on Numba's ``numba:compile`` event, which Numba announces after
    a cache miss). Other threads are not affected; nothing changes when :data:`ENABLED` is
    False. A :func:`warm_up` interrupted so can be run again (it locks its kernels only once it
    completed)."""
    if _NUMBA is None:
        yield
        return
    from numba.core import event

    caller = threading.get_ident()

    class Refuse(event.Listener):
        def on_start(self, ev: Any) -> None:
            if threading.get_ident() == caller:
                name = getattr(
                    getattr(ev.data.get("dispatcher"), "py_func", None), "__qualname__", "a kernel"
                )
                raise NotCached(f"{name} is not in Numba's cache")

        def on_end(self, ev: Any) -> None:
            pass

    with event.install_listener("numba:compile", Refuse()):
        yield


def describe() -> str:
    """One line for logs and diagnostics: which implementation the hot paths use."""
    if _NUMBA is None:
        return "numpy (compiled kernels off: Numba not installed or SDF_BRIDGE_JIT=0)"
    return f"compiled kernels (Numba {_NUMBA.__version__})"
