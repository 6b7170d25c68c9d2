"""Tests of sdf_bridge.description.xacro.child_process: a xacro file is expanded in a child process
that a memory and a time bound stop (measured over real processes), and every way the child
can end is reported with a typed error naming the file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hostile_inputs import SEED, XACRO_NS, doubling_payload, os_call

from sdf_bridge.description import load
from sdf_bridge.description.xacro.child_process import DEFAULT_MEMORY_MB, expand_xacro
from sdf_bridge.errors import XacroError

REPO = Path(__file__).resolve().parents[3]
#: The resident memory the doubling payloads must stay under, whole process tree (MB).
RSS_BOUND_MB = 300


#: Loads the file named on its command line and prints the error and the peak resident memory
#: of itself (VmHWM: of this program image; ru_maxrss would count the pytest process it was
#: forked from) and of its children (the xacro child: ru_maxrss, which counts the little of this
#: process it was forked from too), in kB.
_MEASURE = """
import re, resource, sys
from sdf_bridge.description import load
from sdf_bridge.errors import XacroError
try:
    load(sys.argv[1])
    print("LOADED")
except XacroError as exc:
    print("ERROR", exc)
status = open("/proc/self/status").read()
print("SELF_KB", re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1))
print("CHILD_KB", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


@pytest.mark.parametrize("doublings", [27, 30])
def test_doubling_payload_is_stopped_under_the_memory_bound(tmp_path: Path, doublings: int) -> None:
    """The 27- and 30-doubling payloads (found reaching 1.68 GB and 3.1 GB before the document
    cap) are stopped by the child's memory bound: neither the loading process nor the xacro
    child gets above RSS_BOUND_MB of resident memory (Linux: the figures come from /proc and
    ru_maxrss)."""
    if not Path("/proc/self/status").is_file():
        pytest.skip("the peak resident memory is read from Linux /proc")
    path = tmp_path / f"d{doublings}.urdf.xacro"
    path.write_text(doubling_payload(doublings))
    assert path.stat().st_size < 1600 and len(SEED) * 2**doublings > 2 * 1024**3 - 1
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert lines["ERROR"] == (
        f"{path}: xacro expansion needed more than its memory bound of {DEFAULT_MEMORY_MB:g} MiB "
        "and was stopped. Fix: look for a property or macro that grows without end (one "
        "that doubles itself); for a trusted file that really needs more, set "
        "SDF_BRIDGE_XACRO_MEMORY_MB (MiB)"
    ), done.stdout
    assert int(lines["CHILD_KB"]) < RSS_BOUND_MB * 1000, lines
    assert int(lines["SELF_KB"]) < RSS_BOUND_MB * 1000, lines


def test_a_larger_memory_bound_lets_a_bigger_expansion_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """18 doublings (a 4 MiB name) fit the default bound; 20 (a 16 MiB name, 32 MiB of
    properties) do not fit 64 MiB and fit 512 MiB: the bound, not the payload, decides."""
    path = tmp_path / "d.urdf.xacro"
    path.write_text(doubling_payload(18))
    text, _ = expand_xacro(path)
    assert len(SEED) * 2**18 < len(text) < len(SEED) * 2**18 + 2000
    path.write_text(doubling_payload(20))
    monkeypatch.setenv("SDF_BRIDGE_XACRO_MEMORY_MB", "64")
    with pytest.raises(
        XacroError, match=r"needed more than its memory bound of 64 MiB and was stopped"
    ):
        expand_xacro(path)
    monkeypatch.setenv("SDF_BRIDGE_XACRO_MEMORY_MB", "512")
    text, _ = expand_xacro(path)
    assert len(text) > len(SEED) * 2**20


def test_a_runaway_loop_is_stopped_at_the_time_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "loop.urdf.xacro"
    path.write_text(
        f'<robot name="l" {XACRO_NS}><link name="${{len([0 for x in range(10**12) if False])}}"/>'
        "</robot>"
    )
    monkeypatch.setenv("SDF_BRIDGE_XACRO_TIMEOUT_S", "1.5")
    with pytest.raises(
        XacroError,
        match=rf"^{path}: xacro expansion took longer than its time bound of 1\.5 s and "
        r"was stopped\. Fix: .*SDF_BRIDGE_XACRO_TIMEOUT_S",
    ):
        load(path)


@pytest.mark.parametrize("value", ["0", "-5", "lots", "nan", "inf"])
def test_a_bad_bound_in_the_environment_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    path = tmp_path / "r.urdf.xacro"
    path.write_text(f'<robot name="r" {XACRO_NS}><link name="a"/></robot>')
    monkeypatch.setenv("SDF_BRIDGE_XACRO_TIMEOUT_S", value)
    with pytest.raises(
        XacroError,
        match=rf"environment variable SDF_BRIDGE_XACRO_TIMEOUT_S='{value}' is not a "
        r"number > 0\. Fix: set SDF_BRIDGE_XACRO_TIMEOUT_S to a positive number, or "
        r"unset it \(default 60\)",
    ):
        expand_xacro(path)


def _calling(function: str, argument: str) -> str:
    """A xacro file whose expression calls ``os.<function>(<argument>)`` (the child's own end)."""
    return f'<robot name="r" {XACRO_NS}><link name="${{{os_call(function, argument)}}}"/></robot>'


@pytest.mark.parametrize(
    ("function", "argument", "match"),
    [
        (
            "_exit",
            "3",
            r"the xacro child process failed \(exit status 3\): no message\. Fix: check that "
            r"xacro is installed",
        ),
        # (the kernel's OOM kill)
        (
            "kill",
            "c.__init__.__globals__['getpid'](), 9",
            r"xacro expansion needed more than its memory bound of 256 MiB and was stopped",
        ),
        # SIGXCPU
        (
            "kill",
            "c.__init__.__globals__['getpid'](), 24",
            r"xacro expansion used more than its CPU time bound of 61 s",
        ),
    ],
)
def test_a_child_that_ends_without_a_reply_is_reported(
    tmp_path: Path, function: str, argument: str, match: str
) -> None:
    path = tmp_path / "end.urdf.xacro"
    path.write_text(_calling(function, argument))
    with pytest.raises(XacroError, match=rf"^{path}: {match}"):
        expand_xacro(path)


def test_errors_keep_their_type_line_and_file(tmp_path: Path) -> None:
    """A typed error raised in the child (here an include with a DTD) arrives as the same type
    with its file and line."""
    from sdf_bridge.errors import UnsafeXmlError

    (tmp_path / "evil.xacro").write_text(
        f'<?xml version="1.0"?>\n<!DOCTYPE r []>\n<robot {XACRO_NS}/>'
    )
    top = tmp_path / "top.urdf.xacro"
    top.write_text(f'<robot name="r" {XACRO_NS}><xacro:include filename="evil.xacro"/></robot>')
    with pytest.raises(UnsafeXmlError) as info:
        expand_xacro(top)
    assert (info.value.file, info.value.line) == (str(tmp_path / "evil.xacro"), 2)
