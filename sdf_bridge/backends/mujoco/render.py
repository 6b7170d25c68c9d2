"""Off-screen camera renderers that live on one thread of their own.

An OpenGL context (EGL, OSMesa, GLFW) is *current* on the thread that created it; another thread
cannot make it current while that holds it (EGL: ``EGL_BAD_ACCESS`` from ``eglMakeCurrent``),
even after that thread has ended without releasing it. The bridge renders on its control-loop
thread and closes the backend on the main thread after the loop stopped (Ctrl-C), so
:class:`RenderThread` runs every ``mujoco.Renderer`` call — creation, rendering and
``close`` — on a single worker thread it owns, whichever thread asks. The caller waits for each
call (the simulation data are not stepped meanwhile).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import mujoco
import numpy as np

_LOG = logging.getLogger(__name__)

THREAD_NAME = "sdf_bridge_render"
"""Name prefix of the worker thread."""

_T = TypeVar("_T")


class RenderThread:
    """``mujoco.Renderer`` objects, by key, created, used and freed on one worker thread.

    The worker starts with the first :meth:`create` and ends in :meth:`close`.
    """

    def __init__(self) -> None:
        self._executor: ThreadPoolExecutor | None = None
        self._renderers: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _call(self, fn: Callable[..., _T], *args: Any) -> _T:
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=THREAD_NAME)
            executor = self._executor
        return executor.submit(fn, *args).result()

    def __contains__(self, key: str) -> bool:
        return key in self._renderers

    def create(
        self, key: str, model: mujoco.MjModel, height: int, width: int, *, depth: bool
    ) -> None:
        """Make renderer ``key`` for images of ``height`` × ``width`` pixels (depth images when
        ``depth``).

        Raises:
            Exception: whatever ``mujoco.Renderer`` raises when no GL context can be created
                (ImportError, RuntimeError, OpenGL errors, …).
        """

        def make() -> Any:
            renderer = mujoco.Renderer(model, height, width)
            if depth:
                renderer.enable_depth_rendering()
            return renderer

        self._renderers[key] = self._call(make)

    def render(self, key: str, data: mujoco.MjData, camera: int) -> np.ndarray:
        """The image of camera id ``camera`` from renderer ``key``: (height, width, 3) uint8 RGB,
        or (height, width) float32 depth in m; a copy the caller owns.

        Raises:
            KeyError: no renderer ``key`` (call :meth:`create` first).
        """
        renderer = self._renderers[key]

        def draw() -> np.ndarray:
            renderer.update_scene(data, camera=camera)
            return np.array(renderer.render(), copy=True)

        return self._call(draw)

    def close(self) -> None:
        """Free every renderer on the worker thread, then end it (idempotent). A renderer that
        fails to free (e.g. its GL display already terminated at interpreter exit) is logged at
        debug level and skipped: nothing is left to release."""
        renderers = list(self._renderers.items())
        self._renderers.clear()
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is None:
            return

        def free() -> None:
            for key, renderer in renderers:
                try:
                    renderer.close()
                except Exception as exc:  # PyOpenGL/EGL raise various types at teardown
                    _LOG.debug(
                        "renderer %r: close failed (%s: %s); ignored", key, type(exc).__name__, exc
                    )

        try:
            executor.submit(free).result()
        finally:
            executor.shutdown(wait=True)
