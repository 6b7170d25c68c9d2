"""Ray casting of ray (lidar) and range sensors, as Gazebo's sensors see the world.

A ray never sees the sensor's own link (MuJoCo ``bodyexclude``), a collision geometry of the
robot the sensor sits inside (a lidar mounted inside its base's cylinder: Gazebo's renderer
culls faces seen from inside) or any part of the robot nearer than ``range_min`` (the ray
passes it, as Gazebo's near clip plane hides the sensor's housing and mount); visual geoms are
not seen. Readings follow REP-117: an object of the world (the ground, scenery) nearer
than ``range_min`` is ``-inf`` (too close to measure), a distance beyond ``range_max`` or no
hit ``+inf`` (``range_max`` 0 = unlimited).

All rays are cast at once from the sensor origin (``mujoco.mj_multiRay``); only the rays whose
first hit is a part of the robot nearer than ``range_min`` or a geometry the sensor sits inside
are cast again, one by one (``mujoco.mj_ray``), from just beyond each surface that does not
count.
"""

from __future__ import annotations

import mujoco
import numpy as np

from ...description.model import RayParams
from .geoms import VISUAL_GROUP

#: Most surfaces one ray passes (the entry and exit faces of the parts of the sensor's mount)
#: before it is taken as seeing nothing.
MAX_PASSES = 16
#: m: a ray cast again starts this far beyond the surface it passes.
STEP = 1e-6

#: Axis directions of the inside test (:func:`inside`).
_AXES = np.vstack([np.eye(3), -np.eye(3)])


def scan_directions(params: RayParams) -> tuple[np.ndarray, np.ndarray]:
    """Unit directions of a scan in the sensor frame (x forward, z up), shape
    (vertical_samples · horizontal_samples, 3), vertical-major, and the horizontal angles (rad),
    shape (horizontal_samples,). Direction ``(cos v·cos h, cos v·sin h, sin v)``."""
    nh, nv = max(1, params.horizontal_samples), max(1, params.vertical_samples)
    h = np.linspace(params.horizontal_min_angle, params.horizontal_max_angle, nh)
    v = np.linspace(params.vertical_min_angle, params.vertical_max_angle, nv)
    vv, hh = np.meshgrid(v, h, indexing="ij")
    local = np.stack(
        [np.cos(vv) * np.cos(hh), np.cos(vv) * np.sin(hh), np.sin(vv)], axis=-1
    ).reshape(-1, 3)
    return local, h


def _ray_geom(
    model: mujoco.MjModel, data: mujoco.MjData, geom: int, point: np.ndarray, vec: np.ndarray
) -> float:
    """Distance along ``vec`` from ``point`` to geom ``geom`` (-1 when missed)."""
    if model.geom_type[geom] == mujoco.mjtGeom.mjGEOM_MESH:
        return float(mujoco.mj_rayMesh(model, data, geom, point, vec))
    return float(
        mujoco.mju_rayGeom(
            data.geom_xpos[geom],
            data.geom_xmat[geom],
            model.geom_size[geom],
            point,
            vec,
            int(model.geom_type[geom]),
        )
    )


def inside(model: mujoco.MjModel, data: mujoco.MjData, geom: int, point: np.ndarray) -> bool:
    """Whether ``point`` (world, m) lies inside geom ``geom``: rays along ±x, ±y, ±z all hit it
    (from outside a convex shape, opposite directions never both do). Planes are never
    containers (a half-space below the ground is not a mount)."""
    if model.geom_type[geom] == mujoco.mjtGeom.mjGEOM_PLANE:
        return False
    return all(_ray_geom(model, data, geom, point, axis) >= 0.0 for axis in _AXES)


class RayCaster:
    """The rays of one sensor (see the module docstring).

    Args:
        params: the sensor's range (``range_min``, ``range_max``, m).
        local: ray directions in the sensor frame, shape (n, 3) (:func:`scan_directions`).
        site, body: MuJoCo ids of the sensor's site and of its link's body.
    """

    def __init__(self, params: RayParams, local: np.ndarray, site: int, body: int) -> None:
        self.range_min = max(0.0, float(params.range_min))
        self.range_max = float(params.range_max)
        self.local = np.ascontiguousarray(local, dtype=float)
        self.site, self.body = site, body
        n = self.local.shape[0]
        self._vec = np.empty((n, 3))
        self._geom = np.zeros(n, dtype=np.int32)
        self._dist = np.zeros(n)
        self._one = np.zeros(1, dtype=np.int32)
        self.groups = np.ones(6, dtype=np.uint8)
        self.groups[VISUAL_GROUP] = 0  # visual geoms are not seen; collisions and the ground are
        self._containers: dict[int, bool] = {}  # geom → whether the sensor sits inside it

    def _container(
        self, model: mujoco.MjModel, data: mujoco.MjData, geom: int, origin: np.ndarray
    ) -> bool:
        """Whether the sensor sits inside robot geom ``geom`` (world geoms never count)."""
        known = self._containers.get(geom)
        if known is None:  # decided once per geom, at the first hit (mounts do not move)
            known = self._containers[geom] = bool(model.geom_bodyid[geom] != 0) and inside(
                model, data, geom, origin
            )
        return known

    def distances(self, model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray:
        """Distances (m) along every ray, shape (n,), REP-117 (see the module docstring); data
        must be current (after ``mj_step``/``mj_forward``). A new array each call."""
        origin = data.site_xpos[self.site]
        vec, geom, dist = self._vec, self._geom, self._dist
        # directions in the world
        np.matmul(self.local, data.site_xmat[self.site].reshape(3, 3).T, out=vec)
        cutoff = self.range_max if self.range_max > 0 else mujoco.mjMAXVAL
        mujoco.mj_multiRay(
            model,
            data,
            origin,
            vec.reshape(-1),
            self.groups,
            1,
            self.body,
            geom,
            dist,
            None,
            len(dist),
            cutoff,
        )
        hit = dist >= 0.0
        out = np.where(hit, dist, np.inf)
        for g in np.unique(geom[hit]):  # judged once per geom (cached)
            self._container(model, data, int(g), origin)
        containers = [g for g, within in self._containers.items() if within]
        robot = np.zeros(len(dist), dtype=bool)
        robot[hit] = model.geom_bodyid[geom[hit]] != 0  # world body 0: the ground and the scenery
        for k in np.flatnonzero(
            hit & ((robot & (dist < self.range_min)) | np.isin(geom, containers))
        ):
            out[k] = self._again(model, data, origin, vec[k], float(dist[k]), int(geom[k]))
        out[out < self.range_min] = -np.inf  # the world nearer than range_min
        if self.range_max > 0:
            out[out > self.range_max] = np.inf
        return out

    def _again(
        self,
        model: mujoco.MjModel,
        data: mujoco.MjData,
        origin: np.ndarray,
        direction: np.ndarray,
        dist: float,
        geom: int,
    ) -> float:
        """The distance of one ray whose first hit (``dist``, ``geom``) does not count: cast
        again from just beyond each hit that does not count (a geometry the sensor sits inside,
        a part of the robot nearer than ``range_min``) until one does; a ray with no such hit
        within :data:`MAX_PASSES` surfaces sees nothing."""
        t = dist
        for _ in range(MAX_PASSES):
            t += STEP
            d = mujoco.mj_ray(
                model, data, origin + direction * t, direction, self.groups, 1, self.body, self._one
            )
            if d < 0.0:
                return np.inf
            t += d
            hit = int(self._one[0])
            robot_near = model.geom_bodyid[hit] != 0 and t < self.range_min
            if not (robot_near or self._container(model, data, hit, origin)):
                return t
        return np.inf


__all__ = ["MAX_PASSES", "RayCaster", "inside", "scan_directions"]
