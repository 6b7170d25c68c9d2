"""Choice of MuJoCo's off-screen OpenGL platform (``MUJOCO_GL``), made before ``mujoco`` loads.

MuJoCo reads ``MUJOCO_GL`` once, when ``mujoco`` is first imported; its default (GLFW) needs a
display. For headless camera rendering this module picks, when the variable is unset:

1. ``egl`` when the EGL library is found (Debian: ``libegl1`` + ``libegl-mesa0``, with ``libgl1``)
   and a headless display on one of its devices initialises (:func:`egl_works`: the way MuJoCo's
   EGL context starts; it fails e.g. when Mesa's software driver, ``libgl1-mesa-dri``, is missing);
2. else ``osmesa`` when the OSMesa library is found (Debian: ``libosmesa6``, self-contained);
3. else nothing (cameras are then reported once as unsupported, see :func:`describe_missing`).

A value the user set is always kept (and skips the EGL probe, which costs a noticeable
start-up delay once per process with Mesa's software driver: doc/dev/rationale.md).
"""

from __future__ import annotations

import ctypes.util
import functools
import logging
import os
from collections.abc import Callable

_LOG = logging.getLogger(__name__)

PACKAGES = {"egl": "libegl1 libegl-mesa0 libgl1 libgl1-mesa-dri", "osmesa": "libosmesa6"}
"""Debian packages each platform needs."""
_LIBRARIES = (("egl", "EGL"), ("osmesa", "OSMesa"))


_EGL_PLATFORM_DEVICE_EXT = 0x313F  # EGL_EXT_platform_device
_MAX_DEVICES = 16


@functools.lru_cache(maxsize=None)
def egl_works(library: str) -> bool:
    """Whether EGL (shared library ``library``) can initialise a display on one of its devices
    (``eglQueryDevicesEXT`` → ``eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT)`` →
    ``eglInitialize``, then ``eglTerminate``; EGL 1.5 and its EXT_device_enumeration /
    EXT_platform_device extensions), through ctypes, without PyOpenGL.

    Probed once per process and library (cached): a device display is shared by the process,
    so probing again would terminate the display MuJoCo's EGL context is using."""
    try:
        egl = ctypes.CDLL(library)
        egl.eglGetProcAddress.restype = ctypes.c_void_p
        egl.eglGetProcAddress.argtypes = [ctypes.c_char_p]
        query = egl.eglGetProcAddress(b"eglQueryDevicesEXT")
        get_display = egl.eglGetProcAddress(b"eglGetPlatformDisplayEXT")
        if not query or not get_display:
            return False
        query_devices = ctypes.CFUNCTYPE(
            ctypes.c_uint,
            ctypes.c_int,
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_int),
        )(query)
        platform_display = ctypes.CFUNCTYPE(
            ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p
        )(get_display)
        egl.eglInitialize.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        egl.eglTerminate.argtypes = [ctypes.c_void_p]
        devices = (ctypes.c_void_p * _MAX_DEVICES)()
        count = ctypes.c_int(0)
        if not query_devices(_MAX_DEVICES, devices, ctypes.byref(count)):
            return False
        for device in devices[: count.value]:
            display = platform_display(_EGL_PLATFORM_DEVICE_EXT, device, None)
            if display and egl.eglInitialize(display, None, None) == 1:
                egl.eglTerminate(display)
                return True
    except (OSError, AttributeError, TypeError):  # library missing symbols or not loadable
        return False
    return False


def choose_platform(
    find_library: Callable[[str], str | None] = ctypes.util.find_library,
    egl_check: Callable[[str], bool] = egl_works,
) -> str | None:
    """The first usable platform of ``egl`` (library found and :func:`egl_works`), ``osmesa``
    (library found), or ``None``."""
    for platform, library in _LIBRARIES:
        path = find_library(library)
        if path and (platform != "egl" or egl_check(path)):
            return platform
    return None


def configure_environment(
    environ: dict[str, str] | None = None,
    find_library: Callable[[str], str | None] = ctypes.util.find_library,
    egl_check: Callable[[str], bool] = egl_works,
) -> str | None:
    """Set ``MUJOCO_GL`` in ``environ`` (default ``os.environ``) when unset; return its value.

    Logs the choice (info), or a warning naming the Debian packages when neither library exists.
    """
    env = os.environ if environ is None else environ
    if env.get("MUJOCO_GL"):
        return env["MUJOCO_GL"]
    platform = choose_platform(find_library, egl_check)
    if platform is None:
        _LOG.warning(
            "MuJoCo off-screen rendering: neither a working EGL nor OSMesa is installed, cameras "
            "will publish nothing. %s",
            describe_missing(),
        )
        return None
    env["MUJOCO_GL"] = platform
    _LOG.info("MUJOCO_GL was unset; using %r for off-screen camera rendering", platform)
    return platform


def describe_missing() -> str:
    """How to get off-screen rendering (a sentence naming variables and Debian packages)."""
    return (
        "Fix: install OSMesa (Debian: apt-get install "
        + PACKAGES["osmesa"]
        + ") or EGL ("
        + PACKAGES["egl"]
        + ") and start the process with MUJOCO_GL=osmesa or MUJOCO_GL=egl (set before mujoco is "
        "imported)"
    )
