"""SIGINT, SIGTERM and SIGHUP in the bridge process: any number of them, at any moment, is a
clean stop.

A terminal's Ctrl-C reaches the bridge twice under ``ros2 launch`` (the terminal's SIGINT to the
whole process group, and the one launch forwards), ``ros2 launch`` and systemd send SIGTERM, a
terminal closing (or an SSH session dropping) sends SIGHUP, whose default action ends the process
with status −1 before anything is shut down, and a signal can arrive while modules import, while the
robot is configured, while the node runs or while it shuts down. Python's default handler raises
``KeyboardInterrupt`` wherever the main thread happens to be — in a thread join during shutdown that
is a traceback and exit status −2 — and rclpy's own handler shuts the context down under whatever
call is running. So the bridge installs its own handlers first thing (:meth:`StopSignals.install`,
with rclpy's turned off) and handles a signal in one of two ways:

* **while starting** (imports, ``rclpy.init``, configuring the robot, which can take seconds for
  a large robot): the first signal raises :class:`StopRequested` in
  the main thread, so the start-up is abandoned at once; the caller catches it (exit 0) and
  cleans up;
* **once started** (:meth:`StopSignals.hold`: spinning, shutting down, exiting): a signal only
  sets :attr:`StopSignals.requested`, which the spin loop polls between executor slices; the
  shutdown then runs to its end, however many signals follow. Work that starts the robot from
  a callback (the description arriving on the topic) runs under :func:`interruptible`: there a
  signal raises :class:`StopRequested` again.

Work that must not be interrupted halfway (a native library's set-up) runs under
:func:`deferred`: a signal there stops the start-up right after it. Every signal after the first
only sets the flag. Before the interpreter exits, :meth:`StopSignals.ignore` makes the stop
signals ignored: Python resets its handlers to the default action while it finalises, and a
signal arriving then would otherwise kill the process with −2. A signal during the interpreter's
own start-up, before any code of this package runs (doc/dev/rationale.md), is handled by Python
itself (``KeyboardInterrupt``).

A :class:`StopRequested` raised where Python cannot propagate it (a signal landing in a weakref
callback or a finaliser, e.g. the import system's module-lock callbacks while modules import)
is "unraisable": Python would print it with its traceback and go on. The stop is not lost (the
flag is set: the next :func:`interruptible` block, :func:`deferred`'s end or the spin loop after
:meth:`StopSignals.hold` acts on it), so :meth:`StopSignals.install` keeps such a report quiet
(:func:`sys.unraisablehook`); every other unraisable exception is reported as before.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

#: The signals that stop the bridge (SIGHUP where the platform has it).
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class StopRequested(BaseException):
    """Raised in the main thread by the first SIGINT/SIGTERM/SIGHUP while the bridge starts
    (a ``BaseException``, like ``KeyboardInterrupt``: ``except Exception`` does not swallow it).

    Attributes:
        signum: the signal's number.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name} while starting")
        self.signum = signum


class StopSignals:
    """The bridge process's handling of the :data:`STOP_SIGNALS` (see module doc). Use from the
    main thread.

    Attributes:
        requested: set by the first signal (a :class:`threading.Event`, for other threads too).
        signum: the first signal's number, or ``None``.
    """

    def __init__(self) -> None:
        self.requested = threading.Event()
        self.signum: int | None = None
        self._raising = True

    def install(self) -> "StopSignals":
        """Handle the :data:`STOP_SIGNALS` from now on (start-up mode: the first raises); the
        process's instance for :func:`interruptible`. Returns self."""
        global _installed
        for signum in STOP_SIGNALS:
            signal.signal(signum, self._handle)
        if not getattr(sys.unraisablehook, "_quiet_stop", False):
            sys.unraisablehook = _quiet_stop_hook(sys.unraisablehook)
        _installed = self
        return self

    def hold(self) -> None:
        """From now on a signal only sets :attr:`requested` (the node runs or shuts down)."""
        self._raising = False

    def ignore(self) -> None:
        """Ignore the :data:`STOP_SIGNALS` (the process is about to exit)."""
        self._raising = False
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        first = not self.requested.is_set()
        if first:
            self.signum = signum
            self.requested.set()
        if first and self._raising:
            raise StopRequested(signum)


def _quiet_stop_hook(previous: Any) -> Any:
    """An unraisable-exception hook that drops :class:`StopRequested` (module doc) and hands
    every other report to ``previous``."""

    def hook(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, StopRequested):
            previous(unraisable)

    setattr(hook, "_quiet_stop", True)  # (marks the wrapper: installed once per process)
    return hook


#: The instance installed in this process, if any (:meth:`StopSignals.install`).
_installed: StopSignals | None = None


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Run the block as start-up work: a SIGINT/SIGTERM in it raises :class:`StopRequested`
    (also at once when a stop was requested before it), as before :meth:`StopSignals.hold`.
    Main thread only; without this process's handlers installed (a node built by a test or
    another program) it does nothing.

    Raises:
        StopRequested: a signal arrived before or during the block.
    """
    stop = _installed
    # (handlers replaced since)
    if (
        stop is None
        or threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) != stop._handle
    ):
        yield
        return
    if stop.requested.is_set():
        raise StopRequested(stop.signum or signal.SIGINT)
    raising, stop._raising = stop._raising, True
    try:
        yield
    finally:
        stop._raising = raising


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Run the block without interrupting it halfway: a SIGINT/SIGTERM in it only sets the flag,
    and the stop happens right after it (:class:`StopRequested`, where signals raise). For work
    an exception inside would leave broken, e.g. a native library's set-up (an extension object
    interrupted in its constructor may print a traceback when collected). Without this
    process's handlers installed it does nothing.

    Raises:
        StopRequested: a signal arrived during the block while signals raise.
    """
    stop = _installed
    if stop is None or signal.getsignal(signal.SIGINT) != stop._handle:
        yield
        return
    raising, stop._raising = stop._raising, False
    try:
        yield
    finally:
        stop._raising = raising
    if (
        raising
        and stop.requested.is_set()
        and threading.current_thread() is threading.main_thread()
    ):
        raise StopRequested(stop.signum or signal.SIGINT)
