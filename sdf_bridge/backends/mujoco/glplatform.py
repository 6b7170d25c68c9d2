"""Choice of MuJoCo's off-screen OpenGL platform (``MUJOCO_GL``), made before ``mujoco`` loads.

MuJoCo reads ``MUJOCO_GL`` once, when ``mujoco`` is first imported; its default (GLFW) needs a
display. For headless camera rendering this module picks, when the variable is unset:

1. ``egl`` when the EGL library is found (Debian: ``libegl1`` + ``libegl-mesa0``, with ``libgl1``);
2. else ``osmesa`` when the OSMesa library is found (Debian: ``libosmesa6``);
3. else nothing (cameras are then reported once as unsupported, see :func:`describe_missing`).

A value the user set is always kept.
"""

from __future__ import annotations

import ctypes.util
import logging
import os
from collections.abc import Callable

_LOG = logging.getLogger(__name__)

PACKAGES = {"egl": "libegl1 libegl-mesa0 libgl1", "osmesa": "libosmesa6"}
"""Debian packages each platform needs."""
_LIBRARIES = (("egl", "EGL"), ("osmesa", "OSMesa"))


def choose_platform(find_library: Callable[[str], str | None] = ctypes.util.find_library) -> str | None:
    """The first usable platform of ``egl``, ``osmesa`` (by its shared library), or ``None``."""
    for platform, library in _LIBRARIES:
        if find_library(library):
            return platform
    return None


def configure_environment(
    environ: dict[str, str] | None = None,
    find_library: Callable[[str], str | None] = ctypes.util.find_library,
) -> str | None:
    """Set ``MUJOCO_GL`` in ``environ`` (default ``os.environ``) when unset; return its value.

    Logs the choice (info), or a warning naming the Debian packages when neither library exists.
    """
    env = os.environ if environ is None else environ
    if env.get("MUJOCO_GL"):
        return env["MUJOCO_GL"]
    platform = choose_platform(find_library)
    if platform is None:
        _LOG.warning("MuJoCo off-screen rendering: neither EGL nor OSMesa is installed, cameras will publish "
                     "nothing. %s", describe_missing())
        return None
    env["MUJOCO_GL"] = platform
    _LOG.info("MUJOCO_GL was unset; using %r for off-screen camera rendering", platform)
    return platform


def describe_missing() -> str:
    """How to get off-screen rendering (a sentence naming variables and Debian packages)."""
    return ("Fix: install EGL (Debian: apt-get install " + PACKAGES["egl"] + ") or OSMesa (" + PACKAGES["osmesa"]
            + ") and start the process with MUJOCO_GL=egl or MUJOCO_GL=osmesa (set before mujoco is imported)")
