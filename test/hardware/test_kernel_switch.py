"""The switch from the numpy kernels to the compiled ones (sdf_bridge.hardware.kernel_switch,
HardwareSystem.use_compiled): state continuity across the switch (the same commands give the
same joint states, bit for bit, whether the system switches or not, on the mock and on
MuJoCo), and a failure to compile leaves the numpy path running with a warning.

Without Numba (``SDF_BRIDGE_JIT=0``) ``use_compiled`` switches to the kernels run as plain
Python: the same code and results, so the continuity tests run there too; the tests of the
background switch itself need Numba and skip otherwise.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import subprocess
import sys
import time

import numpy as np
import pytest

from sdf_bridge import jit
from sdf_bridge.description import load
from sdf_bridge.hardware import HardwareSystem, commandable_joints, kernel_switch
from sdf_bridge.hardware.kernel_switch import KernelSwitch

DT = 0.01
CYCLES = 80
LOGGER = "sdf_bridge.hardware.kernel_switch"
needs_numba = pytest.mark.skipif(
    not jit.ENABLED, reason="compiled kernels off (no Numba or SDF_BRIDGE_JIT=0)"
)


@pytest.fixture(scope="module")
def demo_robot(repo_dir):
    return load(str(repo_dir / "urdf" / "demo_arm.urdf.xacro"))


def _system(robot, backend: str, compiled: bool) -> HardwareSystem:
    params = {"render_cameras": False} if backend == "mujoco" else None
    return HardwareSystem(
        robot, backend, command_timeout=0.0, backend_params=params, compiled=compiled
    )


def _interfaces(system: HardwareSystem) -> dict[str, list[str]]:
    """Commandable joints per interface (the demo arm's gripper takes position only)."""
    allowed = commandable_joints(system.robot, system.transmissions)
    return {
        i: [j for j in system.joint_names if i in allowed[j]]
        for i in ("position", "velocity", "effort")
    }


def _drive(system: HardwareSystem, switch_at: int | None) -> list[np.ndarray]:
    """:data:`CYCLES` ticks of mixed commands (position steps the limiter clamps, velocities,
    a trajectory, efforts with the other joints holding); ``system.use_compiled()`` before
    tick ``switch_at``. Returns per tick the joint state with followers, the actuator state,
    the limiter's previous commands and clamp counts and, on MuJoCo, qpos, act, ctrl and the
    PID integral."""
    joints = _interfaces(system)
    rows = []
    for k in range(CYCLES):
        now = k * DT
        if k == switch_at:
            system.use_compiled()
        # steps of up to 1.2 rad per tick: clamped by the velocity limits (previous commands matter)
        if k < 20:
            names = joints["position"]
            system.submit_joint_state(
                names, 0.6 * np.sin(0.7 * k + np.arange(len(names))) * (k % 3), None, None, now
            )
        elif k == 20:
            names = joints["velocity"]
            system.submit_joint_state(names, None, 0.3 * np.cos(np.arange(len(names))), None, now)
        elif k == 40:
            names = joints["position"]
            points = [[0.1 * (i + 1) for i in range(len(names))], [-0.2] * len(names)]
            assert system.submit_trajectory(names, [0.1, 0.3], points, None, None, now) == []
        elif k == 60:
            names = joints["effort"][:2]  # the others hold where they are
            system.submit_joint_state(names, None, None, [1.5, -0.5], now)
        state = system.cycle(now, DT)
        parts = [
            state.joints.ravel(),
            np.ravel(state.actuators),
            system.limiter._prev.ravel(),
            system.limiter._counts.ravel().astype(float),
        ]
        backend = system.backend
        if hasattr(backend, "pid"):
            parts += [backend.data.qpos, backend.data.act, backend.data.ctrl, backend.pid.state[0]]
        rows.append(np.concatenate(parts))
    return rows


@pytest.mark.parametrize("backend", ["mock", "mujoco"])
@pytest.mark.parametrize("switch_at", [1, 30, 50, 65])
def test_switch_keeps_every_state(demo_robot, backend: str, switch_at: int) -> None:
    """Numpy throughout, compiled throughout and numpy switched to compiled before tick
    ``switch_at`` (while clamping, in velocity mode, during a trajectory, with holds and
    efforts) give the same trajectory bit for bit (NaN where NaN), and the switched system's
    parts all run compiled afterwards."""
    reference = _drive(_system(demo_robot, backend, compiled=False), None)
    switched_system = _system(demo_robot, backend, compiled=False)
    assert not (switched_system.transmissions.compiled or switched_system.limiter.compiled)
    switched = _drive(switched_system, switch_at)
    compiled = _drive(_system(demo_robot, backend, compiled=True), None)
    assert len(reference) == len(switched) == len(compiled) == CYCLES
    for k, (a, b, c) in enumerate(zip(reference, switched, compiled)):
        np.testing.assert_array_equal(b, a, err_msg=f"tick {k}: switched differs from numpy")
        np.testing.assert_array_equal(c, a, err_msg=f"tick {k}: compiled differs from numpy")
    assert switched_system.transmissions.compiled and switched_system.limiter.compiled
    assert np.abs(reference[19][:14]).max() > 0.1  # (the robot moved)
    assert switched_system.limiter.counts  # (commands were clamped)
    if backend == "mujoco":
        assert switched_system.backend.compiled
        # the fused kernels (through a view of MuJoCo's data)
        assert switched_system.backend._pack is not None


def test_mujoco_backend_follows_its_map_unless_told(demo_robot) -> None:
    """The MuJoCo backend runs compiled kernels as the transmission map does, unless built
    with ``compiled=``; use_compiled switches it (and re-selects the fused kernels once the map
    switched)."""
    from sdf_bridge.backends.mujoco import MujocoBackend

    for compiled in (False, True):
        system = _system(demo_robot, "mujoco", compiled=compiled)
        assert system.backend.compiled is compiled
    backend = MujocoBackend(compiled=True)
    system = HardwareSystem(
        demo_robot,
        backend,
        command_timeout=0.0,
        backend_params={"render_cameras": False},
        compiled=False,
    )
    # compiled, but the map is not: separate kernels
    assert backend.compiled and backend._pack is None
    system.use_compiled()
    assert backend._pack is not None


def test_kernel_modules_of_a_system(demo_robot) -> None:
    """The switch warms up the kernels the system's parts run, named by their classes."""
    mock = _system(demo_robot, "mock", compiled=False)
    assert kernel_switch.kernel_modules(mock) == (
        "sdf_bridge.transmissions.kernel",
        "sdf_bridge.limits.kernel",
    )
    mujoco = _system(demo_robot, "mujoco", compiled=False)
    assert kernel_switch.kernel_modules(mujoco) == (
        "sdf_bridge.transmissions.kernel",
        "sdf_bridge.limits.kernel",
        "sdf_bridge.backends.mujoco.kernel",
    )


def test_start_is_none_when_compiled_kernels_are_off(demo_robot, monkeypatch) -> None:
    """SDF_BRIDGE_JIT=0 (or no Numba): numpy only, no background work."""
    monkeypatch.setattr(jit, "ENABLED", False)
    assert kernel_switch.start(_system(demo_robot, "mock", compiled=False)) is None


# -- the background switch ---------------------------------------------------------------------
def _cycling(system: HardwareSystem, seconds: float) -> int:
    """Run ticks for ``seconds`` (as the loop does meanwhile); return how many."""
    end, k = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        system.cycle(k * DT, DT)
        k += 1
    return k


@needs_numba
def test_switch_in_the_background_is_logged(demo_robot, caplog) -> None:
    """The kernels load (here from the cache the suite filled, or after a child compiled
    them) while the system runs on numpy; then it switches between two ticks, with one line."""
    system = _system(demo_robot, "mock", compiled=False)
    caplog.set_level(logging.INFO, logger=LOGGER)
    switch = KernelSwitch(system)
    switch.start()
    deadline = time.monotonic() + 600.0
    while not switch.wait(0.0) and time.monotonic() < deadline:
        _cycling(system, 0.05)
    assert switch.state == "switched", caplog.text
    assert system.transmissions.compiled and system.limiter.compiled
    lines = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    assert (
        lines[-1].startswith("switched to the compiled kernels ")
        and " s after start (" in lines[-1]
    )
    assert len(lines) == (1 if switch.compile_seconds is None else 2)
    assert _cycling(system, 0.05) > 0
    switch.close()
    assert switch.state == "switched"


def _failing_switch(system: HardwareSystem, monkeypatch, command: list[str]) -> KernelSwitch:
    """A switch whose kernels are not cached (its first load fails) and whose child runs
    ``command``."""
    switch = KernelSwitch(system, command=command)
    monkeypatch.setattr(switch, "_load", lambda: False)
    return switch


@needs_numba
@pytest.mark.parametrize(
    "code, match",
    [
        (
            "import sys; sys.stderr.write('llvm: out of memory'); sys.exit(3)",
            r"compiled kernels not used \(the compiling process failed \(exit code 3\): llvm: "
            r"out of memory\)",
        ),
        (
            "pass",
            r"compiled kernels not used \(the kernels compiled by the background process are not "
            r"in Numba's cache",
        ),
    ],
)
def test_failure_to_compile_keeps_numpy_running_with_a_warning(
    demo_robot, monkeypatch, caplog, code, match
) -> None:
    system = _system(demo_robot, "mock", compiled=False)
    caplog.set_level(logging.INFO, logger=LOGGER)
    switch = _failing_switch(system, monkeypatch, [sys.executable, "-c", code])
    switch.start()
    assert switch.wait(60.0)
    assert switch.state == "failed"
    warnings = [r for r in caplog.records if r.name == LOGGER and r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert (
        warnings[0]
        .getMessage()
        .endswith(
            "the numpy kernels keep running (same results, slower). "
            "Set SDF_BRIDGE_JIT=0 to not try."
        )
    )
    assert re.search(match, warnings[0].getMessage())
    assert [r.getMessage()[:52] for r in caplog.records if r.levelno == logging.INFO] == [
        "compiling the control cycle's kernels with Numba in "
    ]
    assert not system.transmissions.compiled and not system.limiter.compiled
    assert _cycling(system, 0.05) > 0


@needs_numba
@pytest.mark.parametrize(
    "where, error",
    [
        # a kernel module fails to load (a corrupt cache)
        (
            "limits kernel",
            OSError("cache index unreadable"),
        ),
        ("numba", RuntimeError("LLVM: no target for this CPU")),  # Numba cannot be set up at all
    ],
)
def test_failure_to_load_keeps_numpy_running_with_a_warning(
    demo_robot, monkeypatch, caplog, where, error
) -> None:
    from sdf_bridge.limits import kernel

    def broken() -> float:
        raise error

    monkeypatch.setattr(
        *((kernel, "warm_up") if where == "limits kernel" else (jit, "initialise")), broken
    )
    system = _system(demo_robot, "mock", compiled=False)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    switch = kernel_switch.start(system)
    assert switch is not None and switch.wait(600.0)
    assert switch.state == "failed"
    assert [r.getMessage() for r in caplog.records] == [
        f"compiled kernels not used ({error}); the numpy kernels keep running (same results, "
        "slower). Set SDF_BRIDGE_JIT=0 to not try."
    ]
    assert not system.transmissions.compiled and not system.limiter.compiled
    assert _cycling(system, 0.05) > 0


@needs_numba
def test_a_child_that_takes_too_long_is_stopped(demo_robot, monkeypatch, caplog) -> None:
    monkeypatch.setattr(kernel_switch, "CHILD_TIMEOUT", 0.5)
    system = _system(demo_robot, "mock", compiled=False)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    switch = _failing_switch(
        system, monkeypatch, [sys.executable, "-c", "import time; time.sleep(60)"]
    )
    switch.start()
    assert switch.wait(30.0)
    assert switch.state == "failed"
    assert [r.getMessage()[:88] for r in caplog.records] == [
        "compiled kernels not used (the compiling process did not finish within 0.5 s); the numpy"
    ]
    assert switch._child.poll() is not None  # (killed)


@needs_numba
def test_close_stops_the_child_without_a_warning(demo_robot, monkeypatch, caplog) -> None:
    """Shutting the bridge down while the kernels compile: the child is killed, nothing is
    switched or warned."""
    system = _system(demo_robot, "mock", compiled=False)
    caplog.set_level(logging.INFO, logger=LOGGER)
    switch = _failing_switch(
        system, monkeypatch, [sys.executable, "-c", "import time; time.sleep(60)"]
    )
    switch.start()
    deadline = time.monotonic() + 30.0
    while (switch._child is None or switch.state != "compiling") and time.monotonic() < deadline:
        time.sleep(0.01)
    t0 = time.monotonic()
    switch.close()
    assert time.monotonic() - t0 < 2.5
    assert switch.state == "closed"
    assert switch._child.poll() is not None
    assert [r.levelno for r in caplog.records] == [logging.INFO]  # the "compiling" line only
    assert not system.transmissions.compiled
    assert set(switch.timings) == {"loading", "compiling"}


# -- the child process ----------------------------------------------------------------------------
_TINY = """from sdf_bridge import jit


@jit.kernel
def twice(x):
    return 2.0 * x


def warm_up():
    return jit.warm_up("tiny kernels", (twice,), lambda: twice(1.5))
"""


def _child(tmp_path, *, jit_setting: str) -> subprocess.CompletedProcess:
    """``python -m sdf_bridge.hardware.kernel_switch tiny`` with an empty Numba cache of its own."""
    (tmp_path / "tiny.py").write_text(_TINY)
    env = dict(
        os.environ,
        PYTHONPATH=str(tmp_path),
        NUMBA_CACHE_DIR=str(tmp_path / "cache"),
        SDF_BRIDGE_JIT=jit_setting,
    )
    return subprocess.run(
        [sys.executable, "-m", "sdf_bridge.hardware.kernel_switch", "tiny"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="Numba is not installed (extra 'fast')"
)
def test_child_compiles_into_the_cache(tmp_path) -> None:
    run = _child(tmp_path, jit_setting="1")
    assert run.returncode == 0, run.stderr
    assert sorted(p.suffix for p in (tmp_path / "cache").rglob("tiny.twice-*")) == [".nbc", ".nbi"]


def test_child_refuses_when_compiled_kernels_are_off(tmp_path) -> None:
    run = _child(tmp_path, jit_setting="0")
    assert run.returncode == 2
    assert run.stderr.startswith("compiled kernels are off here: numpy (compiled kernels off")
    assert not (tmp_path / "cache").exists()
