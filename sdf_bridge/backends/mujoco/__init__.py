"""MuJoCo physics backend: the robot description simulated by MuJoCo (``mujoco`` on PyPI).

Modules: :mod:`.builder` (Robot → ``mujoco.MjSpec``), :mod:`.geoms` (shapes, meshes), :mod:`.pid`
(joint PID), :mod:`.drive` (the joints' PID actuators and joint table), :mod:`.cycle`
(per-cycle bookkeeping), :mod:`.ideal` (ideal position
mode), :mod:`.inputs` (checks of a period and a command), :mod:`.divergence` (divergence),
:mod:`.realtime` (real-time factor), :mod:`.sensors` (IMU, force-torque, ray, range, camera,
contact), :mod:`.glplatform` (off-screen OpenGL choice), :mod:`.backend` (:class:`MujocoBackend`,
the :class:`~sdf_bridge.backends.base.Backend` implementation).

Off-screen camera rendering needs an OpenGL platform chosen by the ``MUJOCO_GL`` environment
variable before ``mujoco`` is first imported: ``egl`` (Debian: ``libegl1``, ``libgl1``,
``libegl-mesa0``, ``libgl1-mesa-dri``) or ``osmesa`` (``libosmesa6``). When it is unset,
importing this package sets it to ``egl`` if EGL initialises a headless display, else ``osmesa``
if OSMesa is installed, and logs the choice (:func:`.glplatform.configure_environment`). If
``mujoco`` was imported earlier with GLFW and there is no display, the first camera switches the
renderer to that platform (:func:`.sensors.gl_problem`); failures are reported once per camera.
"""

from __future__ import annotations

from .glplatform import configure_environment

configure_environment()

from .backend import MujocoBackend

__all__ = ["MujocoBackend"]
