"""sdf_bridge.app.stop_signals: SIGINT/SIGTERM as one clean stop (signals raised in this
process; the test's own handlers are put back afterwards)."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from sdf_bridge.app.stop_signals import (
    STOP_SIGNALS,
    StopRequested,
    StopSignals,
    deferred,
    interruptible,
)


@pytest.fixture(autouse=True)
def restored_handlers() -> Iterator[None]:
    saved = {s: signal.getsignal(s) for s in STOP_SIGNALS}
    hook = sys.unraisablehook
    yield
    for s, handler in saved.items():
        signal.signal(s, handler)
    sys.unraisablehook = hook


def test_while_starting_the_first_signal_raises_and_the_others_only_note() -> None:
    stop = StopSignals().install()
    with pytest.raises(StopRequested, match=r"^stopped by SIGTERM while starting$") as info:
        signal.raise_signal(signal.SIGTERM)
    assert info.value.signum == signal.SIGTERM and stop.requested.is_set()
    signal.raise_signal(signal.SIGINT)  # already requested: nothing raised
    assert stop.signum == signal.SIGTERM


def test_sighup_is_a_stop_signal_like_sigint_and_sigterm() -> None:
    """A closing terminal's SIGHUP stops the bridge as SIGINT/SIGTERM do (its default action
    would end the process with -1, nothing shut down)."""
    assert STOP_SIGNALS == (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    stop = StopSignals().install()
    with pytest.raises(StopRequested, match=r"^stopped by SIGHUP while starting$"):
        signal.raise_signal(signal.SIGHUP)
    assert stop.signum == signal.SIGHUP
    stop.ignore()
    assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN


def test_once_held_signals_only_set_the_flag_and_ignore_ends_handling() -> None:
    stop = StopSignals().install()
    stop.hold()
    signal.raise_signal(signal.SIGINT)
    signal.raise_signal(signal.SIGINT)
    assert stop.requested.is_set() and stop.signum == signal.SIGINT
    stop.ignore()
    assert (
        signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        and signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
    )


def test_interruptible_work_raises_again_once_held() -> None:
    """Start-up work on a callback (the description from the topic): a signal in the block
    raises; after it, signals only note again; a stop requested before the block raises at its
    start."""
    stop = StopSignals().install()
    stop.hold()
    with pytest.raises(StopRequested):
        with interruptible():
            signal.raise_signal(signal.SIGINT)
    with pytest.raises(StopRequested, match=r"^stopped by SIGINT while starting$"):
        with interruptible():
            raise AssertionError("the block must not run: the stop was requested before it")
    signal.raise_signal(signal.SIGINT)  # held again: noted only


def test_interruptible_does_nothing_without_the_process_handlers() -> None:
    """Handlers replaced since (a test, another program), or another thread: a plain block."""
    stop = StopSignals().install()
    stop.requested.set()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    with interruptible():
        ran = True
    assert ran
    StopSignals().install()
    results: list[bool] = []

    def worker() -> None:
        with interruptible():
            results.append(True)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert results == [True]


def test_deferred_work_runs_to_its_end_and_the_stop_follows() -> None:
    """Work that must not be interrupted halfway (a native library's set-up): a signal in the
    block only notes; the block runs to its end; the stop is raised right after it, while
    starting; once held, nothing is raised; without the process's handlers it is a plain
    block."""
    stop = StopSignals().install()
    done = []
    with pytest.raises(StopRequested, match=r"^stopped by SIGINT while starting$"):
        with deferred():
            signal.raise_signal(signal.SIGINT)
            done.append("the rest of the block")
    assert done == ["the rest of the block"] and stop.requested.is_set()
    held = StopSignals().install()
    held.hold()
    with deferred():
        signal.raise_signal(signal.SIGTERM)
    assert held.requested.is_set() and held.signum == signal.SIGTERM
    signal.signal(signal.SIGINT, signal.default_int_handler)
    with deferred():
        pass  # (handlers replaced: nothing to defer)


#: A process that installs the handlers, then has a StopRequested and a ValueError raised in
#: weakref callbacks (as a module lock's callback runs a signal handler's raise when a signal
#: lands while modules import): unraisable exceptions, reported by Python's own hook.
UNRAISABLE = """
import signal, weakref
from sdf_bridge.app.stop_signals import StopRequested, StopSignals, interruptible

class Collected:
    pass

def unraisable(exc):
    def callback(_ref):
        raise exc
    target = Collected()
    ref = weakref.ref(target, callback)
    del target

stop = StopSignals().install()
stop.requested.set()  # (what the handler does before it raises)
unraisable(StopRequested(signal.SIGINT))
print("went on", flush=True)
try:
    with interruptible():
        pass
except StopRequested as exc:
    print("then stopped:", exc, flush=True)
unraisable(ValueError("a real bug"))
"""


def test_a_stop_raised_where_python_cannot_propagate_it_is_quiet_and_not_lost() -> None:
    """Python's hook is what a bridge process has (pytest replaces it in its own process)."""
    done = subprocess.run(
        [sys.executable, "-c", UNRAISABLE], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "went on\nthen stopped: stopped by SIGINT while starting\n"
    assert "StopRequested" not in done.stderr
    assert "Exception ignored in" in done.stderr and "ValueError: a real bug" in done.stderr
