"""Tests of sdf_bridge.jit: the switch between compiled kernels and the numpy paths."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from sdf_bridge import jit

numba = pytest.importorskip("numba", reason="the CI set-up installs numba (extra 'fast')")


def _run(env_value: str | None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("SDF_BRIDGE_JIT", None)
    if env_value is not None:
        env["SDF_BRIDGE_JIT"] = env_value
    code = "from sdf_bridge import jit; print(jit.ENABLED, jit.describe())"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    )


def _probe(env_value: str | None) -> str:
    return _run(env_value).stdout.strip()


def test_enabled_by_default_when_numba_is_installed():
    out = _probe(None)
    assert out.startswith("True compiled kernels (Numba ")


@pytest.mark.parametrize("value", ["0", "false", "FALSE", " 0 "])
def test_environment_switches_kernels_off(value):
    assert _probe(value) == (
        "False numpy (compiled kernels off: Numba not installed or SDF_BRIDGE_JIT=0)"
    )


@pytest.mark.parametrize("value", ["off", "no", "2"])
def test_environment_value_that_is_no_boolean_is_warned_and_ignored(value):
    """The one boolean vocabulary (sdf_bridge.booleans): anything else keeps the kernels on,
    with a warning that names the value."""
    run = _run(value)
    assert run.stdout.strip().startswith("True compiled kernels (Numba ")
    assert (
        f"SDF_BRIDGE_JIT={value!r} is not a boolean (true, false, 1 or 0): compiled kernels stay on"
        in run.stderr
    )


def test_numba_disable_jit_switches_kernels_off():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    env.pop("SDF_BRIDGE_JIT", None)
    out = subprocess.run(
        [sys.executable, "-c", "from sdf_bridge import jit; print(jit.ENABLED)"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert out == "False"


def _axpy(a: float, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = a * x[i] + y[i]
    return out


def test_kernel_compiles_when_enabled_and_computes_the_same():
    compiled = jit.kernel(_axpy)
    x, y = np.array([1.0, -2.0, np.nan]), np.array([0.5, 0.25, 1.0])
    expected = 3.0 * x + y
    result = compiled(3.0, x, y)
    np.testing.assert_array_equal(result, expected)  # exact, NaN where x is NaN
    if jit.ENABLED:
        assert isinstance(compiled, numba.core.registry.CPUDispatcher)
    else:
        assert compiled is _axpy


def test_warm_up_runs_once_then_forbids_compilation():
    calls = []
    fn = jit.kernel(_axpy)

    def run():
        calls.append(1)
        fn(1.0, np.zeros(2), np.zeros(2))

    name = "test kernels (test_jit)"
    first = jit.warm_up(name, (fn,), run)
    second = jit.warm_up(name, (fn,), run)
    assert second == 0.0
    if not jit.ENABLED:
        assert first == 0.0 and calls == []
        return
    assert first > 0.0 and calls == [1]
    with pytest.raises(TypeError, match="No matching definition"):
        fn(1.0, np.zeros(2, dtype=np.int64), np.zeros(2))  # would need a new compilation


def test_kernel_warm_ups_are_no_ops_when_switched_off():
    env = dict(os.environ, SDF_BRIDGE_JIT="0")
    code = (
        "from sdf_bridge.transmissions import kernel as t; from sdf_bridge.limits import kernel "
        "as l; print(t.warm_up(), l.warm_up())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout.strip()
    assert out == "0.0 0.0"


# -- cached_only: load from Numba's cache, never compile ----------------------------------------
_TINY = '''"""A kernel module for the tests (a file: Numba caches per source file)."""
from sdf_bridge import jit


@jit.kernel
def twice(x):
    return 2.0 * x


def warm_up():
    return jit.warm_up("tiny kernels", (twice,), lambda: twice(1.5))
'''


def _fresh_cache(tmp_path, code: str, **env: str) -> subprocess.CompletedProcess:
    """``code`` in a new process with the module ``tiny`` (:data:`_TINY`) importable and an empty
    Numba cache of its own (``tmp_path/cache``, kept between calls)."""
    (tmp_path / "tiny.py").write_text(_TINY)
    environ = {k: v for k, v in os.environ.items() if k != "SDF_BRIDGE_JIT"}
    environ.update(PYTHONPATH=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path / "cache"), **env)
    return subprocess.run(
        [sys.executable, "-c", code], env=environ, capture_output=True, text=True, timeout=300
    )


_LOAD_CACHED = """
import tiny
from sdf_bridge import jit
try:
    with jit.cached_only():
        tiny.warm_up()
except jit.NotCached as exc:
    print("refused:", exc, tiny.twice.signatures)
else:
    print("loaded", dict(tiny.twice.stats.cache_hits))
"""


def test_cached_only_refuses_to_compile_then_loads_from_the_cache(tmp_path):
    """An empty cache: NotCached names the kernel and nothing is compiled; once a process
    compiled it (a plain warm_up, which caches it), cached_only loads it."""
    first = _fresh_cache(tmp_path, _LOAD_CACHED)
    assert first.stdout.strip() == "refused: twice is not in Numba's cache []", first.stderr
    compiled = _fresh_cache(
        tmp_path, "import tiny; tiny.warm_up(); print(dict(tiny.twice.stats.cache_misses))"
    )
    assert compiled.stdout.strip() == "{(float64,): 1}", compiled.stderr
    assert _fresh_cache(tmp_path, _LOAD_CACHED).stdout.strip() == "loaded {(float64,): 1}"


def test_cached_only_leaves_other_threads_alone(tmp_path):
    code = """
import threading, tiny
from sdf_bridge import jit
with jit.cached_only():
    worker = threading.Thread(target=tiny.warm_up)
    worker.start(); worker.join()
print(tiny.twice(2.0), dict(tiny.twice.stats.cache_misses))
"""
    run = _fresh_cache(tmp_path, code)
    assert run.stdout.strip() == "4.0 {(float64,): 1}", run.stderr


def test_cached_only_does_nothing_when_switched_off(tmp_path):
    run = _fresh_cache(
        tmp_path,
        _LOAD_CACHED.replace("dict(tiny.twice.stats.cache_hits)", "tiny.twice(2.0)"),
        SDF_BRIDGE_JIT="0",
    )
    assert run.stdout.strip() == "loaded 4.0", run.stderr
