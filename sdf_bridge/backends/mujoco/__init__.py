"""MuJoCo physics backend: the robot description simulated by MuJoCo (``mujoco`` on PyPI).

Modules: :mod:`.builder` (Robot → ``mujoco.MjSpec``), :mod:`.pid` (joint PID),
:mod:`.sensors` (IMU, force-torque, ray, range, camera, contact), :mod:`.backend`
(:class:`MujocoBackend`, the :class:`~sdf_bridge.backends.base.Backend` implementation).

Off-screen camera rendering needs an OpenGL platform chosen by the ``MUJOCO_GL`` environment
variable before ``mujoco`` is first imported: ``egl`` (Debian: ``libegl1``, ``libgl1``,
``libegl-mesa0``) or ``osmesa`` (``libosmesa6``). When it is unset, this package sets it to
``egl`` (MuJoCo's own default, GLFW, needs a display) and logs that it did.
"""

from __future__ import annotations

import logging
import os

if "MUJOCO_GL" not in os.environ:
    os.environ["MUJOCO_GL"] = "egl"
    logging.getLogger(__name__).info("MUJOCO_GL was unset; using 'egl' for off-screen camera rendering")

from .backend import MujocoBackend  # noqa: E402

__all__ = ["MujocoBackend"]
