"""Start-up without a visible compile, in real bridge processes (sdf_bridge.hardware.kernel_switch):
on an empty Numba cache the bridge publishes joint_states at once on the numpy kernels, says
that it compiles, and switches to the compiled kernels when a background process has compiled
them (logged); the next start loads them from the cache; ``SDF_BRIDGE_JIT=0`` stays on numpy.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sensor_msgs.msg import JointState

from sdf_bridge.booleans import parse_bool

from .conftest import Bridge, Probe

COMPILING = "compiling the control cycle's kernels with Numba in a background process"
SWITCHED = "switched to the compiled kernels"
COMPILE_WAIT = 900.0  # s: a compilation at nice 10 on a loaded 2-core machine takes 40-70 s

needs_numba = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None
    or parse_bool(os.environ.get("SDF_BRIDGE_JIT", "1")) is False,
    reason="compiled kernels off (no Numba or SDF_BRIDGE_JIT=0)",
)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory) -> Path:
    """An empty Numba cache directory for this module's bridges (a new machine)."""
    return tmp_path_factory.mktemp("numba_cache")


def _start(start_bridge, probe: Probe, cache_dir: Path, ns: str, **env: str) -> tuple[Bridge, str]:
    bridge = start_bridge(
        {"backend": "mock"},
        name="bridge",
        extra=["-r", f"__ns:=/{ns}"],
        env={"NUMBA_CACHE_DIR": str(cache_dir), **env},
    )
    topic = f"/{ns}/joint_states"
    probe.watch(topic, JointState)
    probe.wait_ready(bridge, topic)
    return bridge, topic


def _after(bridge: Bridge, probe: Probe, topic: str, text: str, timeout: float) -> int:
    """Wait for ``text`` in the bridge's output; return how many joint_states came before."""
    probe.wait_for(
        lambda: text in bridge.output() or not bridge.running(), f"{text!r} in the output", timeout
    )
    assert bridge.running(), bridge.output()
    return len(probe.messages[topic])


@needs_numba
def test_first_start_runs_at_once_then_switches(
    start_bridge, probe: Probe, cache_dir: Path
) -> None:
    """Empty cache: joint_states come on the numpy kernels, one line says the kernels compile,
    one that the bridge switched to them; joint_states continue and commands are followed."""
    bridge, topic = _start(start_bridge, probe, cache_dir, "startup_cold")
    before = _after(bridge, probe, topic, SWITCHED, COMPILE_WAIT)
    assert before > 0
    probe.wait_messages(topic, 5)  # still publishing, compiled
    probe.publisher("/startup_cold/joint_commands", JointState).publish(
        JointState(name=["base_yaw"], position=[0.25])
    )
    probe.wait_for(
        lambda: (
            dict(zip(probe.messages[topic][-1].name, probe.messages[topic][-1].position))[
                "base_yaw"
            ]
            == 0.25
        ),
        "base_yaw at 0.25 rad",
    )
    assert bridge.stop() == 0
    output = bridge.output()
    assert output.count(COMPILING) == 1 and output.count(SWITCHED) == 1, output
    assert output.index(COMPILING) < output.index(SWITCHED)
    assert (
        "(compiled in a background process in " in output
        and "compiled kernels not used" not in output
    )
    assert any(cache_dir.rglob("*.nbi"))  # the cache is filled for the next start


@needs_numba
def test_next_start_loads_from_the_cache(start_bridge, probe: Probe, cache_dir: Path) -> None:
    """Once the cache holds the kernels (filled by the first start, or here by the child the
    bridge would run): no compilation, the switch is logged."""
    modules = ["sdf_bridge.transmissions.kernel", "sdf_bridge.limits.kernel"]  # the mock bridge's
    subprocess.run(
        [sys.executable, "-m", "sdf_bridge.hardware.kernel_switch", *modules],
        check=True,
        env={**os.environ, "NUMBA_CACHE_DIR": str(cache_dir)},
        timeout=COMPILE_WAIT,
    )
    bridge, topic = _start(start_bridge, probe, cache_dir, "startup_warm")
    _after(bridge, probe, topic, SWITCHED, 120.0)
    assert bridge.stop() == 0
    output = bridge.output()
    assert COMPILING not in output and output.count(SWITCHED) == 1, output
    assert "(loaded from Numba's cache)" in output


def test_jit_off_stays_on_numpy(start_bridge, probe: Probe, tmp_path: Path) -> None:
    """SDF_BRIDGE_JIT=0: numpy only; nothing compiles or switches (the cache stays empty while
    the bridge runs as long as a start that loads from the cache needs to switch)."""
    bridge, topic = _start(start_bridge, probe, tmp_path, "startup_off", SDF_BRIDGE_JIT="0")
    probe.spin_for(5.0)
    assert bridge.running()
    assert bridge.stop() == 0
    output = bridge.output()
    assert (
        COMPILING not in output
        and SWITCHED not in output
        and "compiled kernels not used" not in output
    ), output
    assert not any(tmp_path.iterdir())
