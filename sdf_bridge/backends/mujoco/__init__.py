"""MuJoCo physics backend: the robot description simulated by MuJoCo (``mujoco`` on PyPI).

Modules: :mod:`.builder` (Robot → ``mujoco.MjSpec``), :mod:`.geoms` (shapes, meshes),
:mod:`.pid` (joint PID), :mod:`.sensors` (IMU, force-torque, ray, range, camera, contact),
:mod:`.glplatform` (off-screen OpenGL choice), :mod:`.backend` (:class:`MujocoBackend`, the
:class:`~sdf_bridge.backends.base.Backend` implementation).

Off-screen camera rendering needs an OpenGL platform chosen by the ``MUJOCO_GL`` environment
variable before ``mujoco`` is first imported: ``egl`` (Debian: ``libegl1``, ``libgl1``,
``libegl-mesa0``) or ``osmesa`` (``libosmesa6``). When it is unset, importing this package sets
it to ``egl`` if the EGL library is installed, else ``osmesa`` if OSMesa is, and logs the choice
(:func:`.glplatform.configure_environment`).
"""

from __future__ import annotations

from .glplatform import configure_environment

configure_environment()

from .backend import MujocoBackend  # noqa: E402

__all__ = ["MujocoBackend"]
