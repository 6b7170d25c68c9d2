"""What ``sdf-bridge control`` prints when the bring-up fails: a child's first error lines
(:meth:`~sdf_bridge.ros.control_command.Child.errors`: a controller_manager whose urdfdom
refused the description logs the cause once, then only ``Waiting for data…`` for the whole
``--timeout``), bounded in number and length, and the time waited as a short number."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from prerequisites import require_rig

from sdf_bridge.ros.control_command import ERROR_LINES, LINE_CHARS, Child

WAITING = "[WARN] [1.0] [controller_manager]: Waiting for data on 'robot_description' topic\n"
MANAGER_LOG = (
    "[INFO] [0.5] [controller_manager]: Using Steady (Monotonic) clock for triggering.\n"
    "Error:   Joint [elbow] is of type REVOLUTE but it does not specify limits\n"
    "         at line 461 in ./urdf_parser/src/joint.cpp\n"
    "[ERROR] [0.6] [controller_manager]: Error importing joint limiters: Failed to parse URDF\n"
    + WAITING
    * 200
)


def _child(log: Path) -> Child:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return Child("controller_manager", process, log)


def test_the_first_error_lines_of_the_log(tmp_path: Path) -> None:
    log = tmp_path / "controller_manager.log"
    log.write_text(MANAGER_LOG)
    child = _child(log)
    assert child.errors() == [
        "Error:   Joint [elbow] is of type REVOLUTE but it does not specify limits",
        "[ERROR] [0.6] [controller_manager]: Error importing joint limiters: Failed to parse URDF",
    ]
    assert "Error" not in child.tail()  # (what was printed alone before)


def test_the_error_lines_are_bounded(tmp_path: Path) -> None:
    log = tmp_path / "flood.log"
    log.write_text("".join(f"[ERROR] [{k}] [x]: {'y' * 1000}\n" for k in range(100)))
    errors = _child(log).errors()
    assert len(errors) == ERROR_LINES == 5
    assert errors[0].startswith("[ERROR] [0] [x]: yyy")
    assert len(errors[0]) == LINE_CHARS and errors[0].endswith("…")
    assert _child(tmp_path / "absent.log").errors() == []


def test_a_log_without_errors_has_none(tmp_path: Path) -> None:
    log = tmp_path / "quiet.log"
    log.write_text(WAITING * 3 + "[INFO] [2.0] [x]: errors_total 0, no_error_here\n")
    assert _child(log).errors() == []


class _NeverReady:
    def service_is_ready(self) -> bool:
        return False


class _Node:
    def create_client(self, *_args: object) -> _NeverReady:
        return _NeverReady()


@pytest.mark.parametrize(("timeout", "shown"), [(89.99996838299558, "90"), (2.5, "2.5")])
def test_the_time_waited_is_a_short_number(
    timeout: float, shown: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The services never appear (a clock that jumps 1 s per spin: no real wait)."""
    require_rig()
    from sdf_bridge.ros import controller_manager
    from sdf_bridge.ros.controller_manager import ControllerManagerClient

    controller_manager.import_manager_messages(controller_manager.find_manager())
    now = [0.0]
    monkeypatch.setattr(controller_manager, "time", SimpleNamespace(monotonic=lambda: now[0]))

    def spin(_future: object, _timeout: float) -> None:
        now[0] += 1.0

    with pytest.raises(RuntimeError, match=rf"^the services of /cm did not appear in {shown} s$"):
        ControllerManagerClient(_Node(), spin, "/cm", timeout=timeout)
