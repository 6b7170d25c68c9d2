"""``sdf-bridge control`` stopping its children (:meth:`Child.stop`) in a bounded time, said once:
stub children (plain Python processes, no ROS) that stop on the first SIGINT, miss it (a
ros2_control_node in its hardware initialisation), or ignore SIGINT and SIGTERM altogether."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import pytest

from sdf_bridge.ros.control_command import STOP_GRACE, Child, _start

#: A child that writes each signal it gets to its log and exits at the ``exit_at``-th one it
#: does not ignore; ``ignore`` the signals it does not act on at all.
STUB = """
import signal, sys, time
ignore, exit_at = {ignore!r}, {exit_at}
got = []
def on(signum, frame):
    got.append(signal.Signals(signum).name)
    print("got", got[-1], flush=True)
    if got[-1] not in ignore and len([g for g in got if g not in ignore]) >= exit_at:
        sys.exit(0)
signal.signal(signal.SIGINT, on)
signal.signal(signal.SIGTERM, on)
print("ready", flush=True)
while True:
    time.sleep(0.01)
"""

GRACE = 0.3  # s: the test's grace between signals


def _stub(tmp_path: Path, ignore: tuple[str, ...] = (), exit_at: int = 1) -> Child:
    log = tmp_path / "stub.log"
    code = STUB.format(ignore=ignore, exit_at=exit_at)
    child = _start("controller_manager wx250s", [sys.executable, "-c", code], log, None)
    end = time.monotonic() + 10
    while "ready" not in child.tail():
        assert child.running() and time.monotonic() < end, child.tail()
        time.sleep(0.01)
    return child


def _signals(child: Child) -> list[str]:
    return [line.split()[1] for line in child.tail().splitlines() if line.startswith("got ")]


def test_the_grace_is_two_seconds() -> None:
    assert STOP_GRACE == 2.0


def test_a_child_that_stops_at_once_is_signalled_once_and_nothing_is_said(tmp_path: Path) -> None:
    child, out = _stub(tmp_path), io.StringIO()
    start = time.monotonic()
    assert child.stop(out, grace=GRACE) == 0
    assert time.monotonic() - start < GRACE
    assert _signals(child) == ["SIGINT"]
    assert out.getvalue() == ""


def test_a_missed_sigint_is_sent_again_after_the_grace_and_said_once(tmp_path: Path) -> None:
    """The first SIGINT lost (as by a ros2_control_node finishing its hardware init): the
    second one, one grace later, stops it; the wait is said once."""
    child, out = _stub(tmp_path, exit_at=2), io.StringIO()
    start = time.monotonic()
    assert child.stop(out, grace=GRACE) == 0
    took = time.monotonic() - start
    assert GRACE <= took < 2 * GRACE
    assert _signals(child) == ["SIGINT", "SIGINT"]
    assert out.getvalue() == (
        "waiting for controller_manager wx250s to stop (SIGINT again, then SIGTERM, SIGKILL)…\n"
    )


def test_a_child_deaf_to_sigint_gets_sigterm(tmp_path: Path) -> None:
    child, out = _stub(tmp_path, ignore=("SIGINT",)), io.StringIO()
    start = time.monotonic()
    assert child.stop(out, grace=GRACE) == 0
    assert 2 * GRACE <= time.monotonic() - start < 3 * GRACE
    assert _signals(child) == ["SIGINT", "SIGINT", "SIGTERM"]
    assert out.getvalue().count("waiting for") == 1


def test_a_child_deaf_to_sigint_and_sigterm_is_killed_within_three_graces(
    tmp_path: Path,
) -> None:
    child, out = _stub(tmp_path, ignore=("SIGINT", "SIGTERM")), io.StringIO()
    start = time.monotonic()
    assert child.stop(out, grace=GRACE) == -9  # SIGKILL
    assert 3 * GRACE <= time.monotonic() - start < 3 * GRACE + 1.0
    assert _signals(child) == ["SIGINT", "SIGINT", "SIGTERM"]
    assert out.getvalue().count("waiting for") == 1


def test_a_child_gone_already_is_not_signalled(tmp_path: Path) -> None:
    child = _stub(tmp_path, exit_at=1)
    child.process.terminate()
    child.process.wait(5)
    out = io.StringIO()
    assert child.stop(out, grace=GRACE) == 0
    assert out.getvalue() == ""


@pytest.mark.parametrize("ignore", [(), ("SIGINT",)])
def test_without_an_output_the_stop_is_silent(tmp_path: Path, ignore: tuple[str, ...]) -> None:
    child = _stub(tmp_path, ignore=ignore)
    assert child.stop(grace=GRACE) == 0
