"""Sensors of the description simulated in MuJoCo, each at its own update rate.

=============  ===============================================================================
kind           how
=============  ===============================================================================
imu            site at the sensor pose on its link; MuJoCo ``framequat`` (orientation in the
               world), ``gyro`` (rad/s) and ``accelerometer`` (m/s², specific force: +9.81 up at
               rest) in the sensor frame; gaussian noise (+ bias drawn once) from the description.
force_torque   on a joint (SDF joint sensor, or URDF ``<gazebo reference>`` naming a joint):
               site on the child link at the joint frame · sensor pose; on a link: site at the
               sensor pose on that link (measuring what its parent joint carries); MuJoCo ``force`` and
               ``torque`` (torque about the site origin). MuJoCo measures what the parent exerts on
               the child subtree; SDFormat's default ``child_to_parent`` is its negative. Frames:
               ``sensor`` (the site), ``child`` (child link frame, moment taken at its origin),
               ``parent`` (parent link orientation, moment at the site origin).
ray / lidar    ``mujoco.mj_multiRay`` from a site over the horizontal × vertical samples
               (direction (cos v·cos h, cos v·sin h, sin v) in the sensor frame, x forward);
               one vertical sample → :class:`ScanReading`, more → :class:`PointCloudReading`
               (sensor frame). Hits beyond range_max or none → ``inf``. Visual geoms are not seen.
range          one ray along the sensor x axis → :class:`RangeReading`.
camera, depth  MuJoCo camera (looks along the sensor's +x, image up = +z) rendered off-screen
               with ``mujoco.Renderer`` (``MUJOCO_GL=egl`` or ``osmesa``) on a thread of its own
               (:mod:`.render`: GL contexts are bound to a thread); intrinsics
               ``fx = fy = width / (2·tan(hfov/2))``, ``cx = width/2``, ``cy = height/2``.
contact        the contacts touching the sensor's link (optionally only its named collisions),
               force from ``mj_contactForce`` in the world frame.
=============  ===============================================================================

Other kinds (gps, altimeter, magnetometer, …) are reported once with a warning and produce no
readings.
"""

from __future__ import annotations

import importlib
import logging
import math
import os
import sys
from dataclasses import dataclass, field
from typing import Any, TypeVar

import mujoco
import numpy as np

from ...description.model import (
    CameraParams,
    ContactParams,
    ForceTorqueParams,
    ImuParams,
    Noise,
    RayParams,
    Robot,
    Sensor,
)
from ..base import (
    Contact,
    ContactReading,
    ImageReading,
    ImuReading,
    PointCloudReading,
    RangeReading,
    ScanReading,
    SensorReading,
    WrenchReading,
)
from .builder import BuiltModel
from .geoms import VISUAL_GROUP, wxyz
from .glplatform import choose_platform, describe_missing
from .render import RenderThread

_LOG = logging.getLogger(__name__)

SUPPORTED = frozenset({"imu", "force_torque", "ray", "range", "camera", "depth", "contact"})

# MuJoCo camera axes (x right, y up, looking along −z) expressed in the sensor frame (x forward, z up)
_CAMERA_AXES = np.array([[0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


_P = TypeVar("_P")


def _params(sensor: Sensor, kind: type[_P]) -> _P:
    """The sensor's parameters when they are a ``kind``, else ``kind()`` (the SDFormat defaults)."""
    return sensor.params if isinstance(sensor.params, kind) else kind()


class _NoiseModel:
    """Gaussian noise per axis: sample ~ N(mean, stddev) + bias, bias ~ ±N(bias_mean, bias_stddev)
    drawn once (Gazebo's convention). ``None`` or type ``none`` → no noise."""

    def __init__(self, noises: tuple[Noise, ...] | None, rng: np.random.Generator) -> None:
        self._rng = rng
        active = noises is not None and any(n.type.startswith("gaussian") for n in noises)
        self.active = active
        if not active:
            return
        assert noises is not None
        self.mean = np.array([n.mean for n in noises])
        self.std = np.array([n.stddev for n in noises])
        self.bias = np.array(
            [rng.normal(n.bias_mean, n.bias_stddev) * rng.choice((-1.0, 1.0)) if n.bias_stddev or n.bias_mean else 0.0
             for n in noises]
        )

    @classmethod
    def concatenate(cls, first: _NoiseModel, second: _NoiseModel) -> _NoiseModel:
        """One model for the values of ``first`` then ``second`` (both active, same generator):
        applying it draws the same normal samples, in the same order, as ``first`` then
        ``second`` (numpy's ``Generator`` draws sequentially)."""
        pair = cls(None, first._rng)
        pair.active = True
        pair.mean = np.concatenate((first.mean, second.mean))
        pair.std = np.concatenate((first.std, second.std))
        pair.bias = np.concatenate((first.bias, second.bias))
        return pair

    def apply_floats(self, values: list[float]) -> list[float]:
        """:meth:`apply` on a list of floats (the same samples and arithmetic, element by
        element: ``((value + bias) + mean) + z·std``), cheaper for a few values."""
        terms = self.__dict__.get("_terms")
        if terms is None:
            terms = self._terms = list(zip(self.bias.tolist(), self.mean.tolist(), self.std.tolist()))
        z = self._rng.normal(0.0, 1.0, (len(values),)).tolist()
        return [v + b + m + w * s for v, (b, m, s), w in zip(values, terms, z)]

    def apply(self, value: np.ndarray) -> np.ndarray:
        if not self.active:
            return value
        return value + self.bias + self.mean + self._rng.normal(0.0, 1.0, value.shape) * self.std


def _noise_pair(ch: _Channel, first: _NoiseModel, second: _NoiseModel) -> _NoiseModel:
    """The noise of two 3-axis models applied to their 6 values in one draw (cached on ``ch``)."""
    pair = ch.cache.get("noise_pair")
    if pair is None:
        pair = ch.cache["noise_pair"] = _NoiseModel.concatenate(first, second)
    return pair  # type: ignore[no-any-return]


@dataclass
class _Channel:
    sensor: Sensor
    period: float
    prefix: str = ""
    next_due: float = 0.0
    ids: dict[str, int] = field(default_factory=dict)
    cache: dict[str, Any] = field(default_factory=dict)

    def due(self, t: float) -> bool:
        return t + 1e-9 >= self.next_due

    def advance(self, t: float) -> None:
        if self.period <= 0.0:
            self.next_due = t
        else:
            while self.next_due <= t + 1e-9:
                self.next_due += self.period


class SensorSuite:
    """The simulated sensors of one robot.

    Use: :meth:`attach` before compiling (adds sites, MuJoCo sensors and cameras to the spec),
    :meth:`bind` after compiling, then :meth:`read_due` every cycle.
    """

    def __init__(self, robot: Robot, built: BuiltModel, seed: int | None) -> None:
        self.robot = robot
        self.built = built
        self.rng = np.random.default_rng(seed)
        self.channels: list[_Channel] = []
        self.unsupported: list[str] = []
        self._model: mujoco.MjModel | None = None
        self._data: mujoco.MjData | None = None
        self._renderers = RenderThread()
        self._render_failed: set[str] = set()
        self._noise: dict[str, tuple[_NoiseModel, _NoiseModel]] = {}

    # -- building -------------------------------------------------------------------------------
    @classmethod
    def attach(
        cls, robot: Robot, built: BuiltModel, *, seed: int | None = None, render_cameras: bool = True
    ) -> SensorSuite:
        """Add the MuJoCo elements of every supported sensor of ``robot`` to ``built.spec``;
        warn once per unsupported sensor (kind or missing link). ``render_cameras=False``
        turns cameras off (reported once like unsupported sensors)."""
        suite = cls(robot, built, seed)
        max_w = max_h = 0
        for index, sensor in enumerate(robot.sensors):
            placed = suite._place(sensor)
            if placed is None:
                continue
            body, frame = placed
            if sensor.type not in SUPPORTED:
                suite._unsupported(sensor, f"sensor type {sensor.raw_type or sensor.type!r} is not simulated")
                continue
            if sensor.type in ("force_torque", "contact") and body.name == "world":
                suite._unsupported(sensor, "it is attached to the world, which carries no joint load")
                continue
            if sensor.type in ("camera", "depth") and not render_cameras:
                suite._unsupported(sensor, "camera rendering is off (backend parameter render_cameras: false)")
                continue
            prefix = f"sensor{index}"
            site = body.add_site(name=f"{prefix}__site", group=4)
            site.pos = [float(v) for v in frame[:3, 3]]
            site.quat = wxyz(frame[:3, :3])
            period = 1.0 / sensor.update_rate if sensor.update_rate > 0 else 0.0
            suite.channels.append(_Channel(sensor, period, prefix=prefix))
            spec = built.spec
            obj = {"objtype": mujoco.mjtObj.mjOBJ_SITE, "objname": site.name}
            if sensor.type == "imu":
                spec.add_sensor(name=f"{prefix}__quat", type=mujoco.mjtSensor.mjSENS_FRAMEQUAT, **obj)
                spec.add_sensor(name=f"{prefix}__gyro", type=mujoco.mjtSensor.mjSENS_GYRO, **obj)
                spec.add_sensor(name=f"{prefix}__acc", type=mujoco.mjtSensor.mjSENS_ACCELEROMETER, **obj)
            elif sensor.type == "force_torque":
                spec.add_sensor(name=f"{prefix}__force", type=mujoco.mjtSensor.mjSENS_FORCE, **obj)
                spec.add_sensor(name=f"{prefix}__torque", type=mujoco.mjtSensor.mjSENS_TORQUE, **obj)
            elif sensor.type in ("camera", "depth"):
                params = _params(sensor, CameraParams)
                cam = body.add_camera(name=f"{prefix}__camera")
                cam.pos = site.pos
                cam.quat = wxyz(frame[:3, :3] @ _CAMERA_AXES)
                aspect = params.height / params.width
                cam.fovy = math.degrees(2.0 * math.atan(math.tan(params.horizontal_fov / 2.0) * aspect))
                max_w, max_h = max(max_w, params.width), max(max_h, params.height)
        if max_w:
            built.spec.visual.global_.offwidth = max(max_w, 640)
            built.spec.visual.global_.offheight = max(max_h, 480)
        return suite

    def _unsupported(self, sensor: Sensor, why: str) -> None:
        message = f"sensor {sensor.name!r}: {why}; it publishes nothing in the MuJoCo backend"
        self.unsupported.append(message)
        _LOG.warning(message)

    def _place(self, sensor: Sensor) -> tuple[mujoco.MjsBody, np.ndarray] | None:
        """(body, sensor frame in the body frame (4, 4)) or ``None`` (warned)."""
        spec = self.built.spec
        joint_name = sensor.joint
        if sensor.link is not None and sensor.link not in self.built.link_body and sensor.link in self.robot.joints:
            joint_name = sensor.link  # URDF <gazebo reference="a_joint"> (force-torque on a joint)
        elif sensor.link is not None:
            body_name = self.built.link_body.get(sensor.link)
            if body_name is None:
                self._unsupported(sensor, f"its link {sensor.link!r} is not in the model")
                return None
            body = spec.worldbody if body_name == "world" else spec.body(body_name)
            return body, sensor.pose.matrix()
        joint = self.robot.joints.get(joint_name or "")
        if joint is None:
            self._unsupported(sensor, f"its joint {joint_name!r} is not in the model")
            return None
        body = spec.body(self.built.link_body[joint.child])
        return body, np.linalg.inv(joint.joint_to_child.matrix()) @ sensor.pose.matrix()

    def bind(self, model: mujoco.MjModel, data: mujoco.MjData) -> None:
        """Resolve ids in the compiled model; draw noise biases."""
        self._model, self._data = model, data
        for ch in self.channels:
            s = ch.sensor
            ch.ids["site"] = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_SITE, f"{ch.prefix}__site")
            ch.ids["body"] = int(model.site_bodyid[ch.ids["site"]])
            for suffix in ("quat", "gyro", "acc", "force", "torque"):
                sid = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_SENSOR, f"{ch.prefix}__{suffix}")
                if sid >= 0:
                    ch.ids[suffix] = int(model.sensor_adr[sid])
            if s.type in ("camera", "depth"):
                ch.ids["camera"] = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_CAMERA, f"{ch.prefix}__camera")
            if s.type == "imu":
                p = _params(s, ImuParams)
                self._noise[ch.prefix] = (
                    _NoiseModel(p.angular_velocity_noise, self.rng),
                    _NoiseModel(p.linear_acceleration_noise, self.rng),
                )
        self.reset()

    def reset(self) -> None:
        """Make every sensor due at the next read."""
        for ch in self.channels:
            ch.next_due = 0.0

    # -- reading --------------------------------------------------------------------------------
    def read_due(self, sim_time: float) -> dict[str, SensorReading]:
        """Readings of the sensors due at ``sim_time`` s (data must be current: after mj_step)."""
        out: dict[str, SensorReading] = {}
        for ch in self.channels:
            if not ch.due(sim_time):
                continue
            ch.advance(sim_time)
            reading = self._read(ch)
            if reading is not None:
                out[ch.sensor.name] = reading
        return out

    def _read(self, ch: _Channel) -> SensorReading | None:
        kind = ch.sensor.type
        if kind == "imu":
            return self._imu(ch)
        if kind == "force_torque":
            return self._wrench(ch)
        if kind == "ray":
            return self._ray(ch)
        if kind == "range":
            return self._range(ch)
        if kind in ("camera", "depth"):
            return self._camera(ch)
        return self._contact(ch)

    def _imu(self, ch: _Channel) -> ImuReading:
        d = self._data
        assert d is not None
        sd = d.sensordata
        a, g, c = ch.ids["quat"], ch.ids["gyro"], ch.ids["acc"]
        if g == a + 4 and c == g + 3:  # as attach() adds them: one slice
            w, x, y, z, *rest = sd[a: a + 10].tolist()
            gyro, acc = rest[:3], rest[3:]
        else:
            w, x, y, z = sd[a: a + 4].tolist()
            gyro, acc = sd[g: g + 3].tolist(), sd[c: c + 3].tolist()
        gyro_noise, acc_noise = self._noise[ch.prefix]
        if gyro_noise.active and acc_noise.active:  # one draw of 6 = the draws of 3 then 3
            values = _noise_pair(ch, gyro_noise, acc_noise).apply_floats(gyro + acc)
            gyro, acc = values[:3], values[3:]
        elif gyro_noise.active:
            gyro = gyro_noise.apply_floats(gyro)
        elif acc_noise.active:
            acc = acc_noise.apply_floats(acc)
        return ImuReading(
            orientation=(x, y, z, w),
            angular_velocity=tuple(gyro),  # type: ignore[arg-type]
            linear_acceleration=tuple(acc),  # type: ignore[arg-type]
        )

    def _wrench(self, ch: _Channel) -> WrenchReading:
        m, d = self._model, self._data
        assert m is not None and d is not None
        setup = ch.cache.get("wrench")
        if setup is None:
            setup = ch.cache["wrench"] = self._wrench_setup(ch)
        fa, ta, sign, frame, rot, pos = setup
        sd = d.sensordata
        force = sd[fa: fa + 3] * sign  # sign −1: SDFormat child_to_parent (exact negation)
        torque = sd[ta: ta + 3] * sign
        if frame == "child":
            force = rot @ force
            f = force.tolist()
            torque = (rot @ torque).tolist()
            cross = (pos[1] * f[2] - pos[2] * f[1], pos[2] * f[0] - pos[0] * f[2], pos[0] * f[1] - pos[1] * f[0])
            return WrenchReading(tuple(f), (torque[0] + cross[0], torque[1] + cross[1], torque[2] + cross[2]))
        if frame == "parent":
            site_world = d.site_xmat[ch.ids["site"]].reshape(3, 3)
            parent_world = d.xmat[int(m.body_parentid[ch.ids["body"]])].reshape(3, 3)
            r = parent_world.T @ site_world
            force, torque = r @ force, r @ torque
        return WrenchReading(tuple(force.tolist()), tuple(torque.tolist()))  # type: ignore[arg-type]

    def _wrench_setup(self, ch: _Channel) -> tuple[int, int, float, str, np.ndarray | None, list[float] | None]:
        """What :meth:`_wrench` needs of a force-torque channel, computed once: sensordata
        addresses of force and torque, the sign (−1 for ``child_to_parent``), the frame, and for
        the ``child`` frame the site's rotation (3, 3) and position (m) in the child body."""
        m = self._model
        assert m is not None
        params = _params(ch.sensor, ForceTorqueParams)
        sign = -1.0 if params.measure_direction == "child_to_parent" else 1.0
        rot = pos = None
        if params.frame == "child":
            site = ch.ids["site"]
            flat = np.zeros(9)
            mujoco.mju_quat2Mat(flat, m.site_quat[site])
            rot = flat.reshape(3, 3)
            pos = [float(v) for v in m.site_pos[site]]
        return ch.ids["force"], ch.ids["torque"], sign, params.frame, rot, pos

    def _ray_params(self, ch: _Channel) -> RayParams:
        return _params(ch.sensor, RayParams)

    def _directions(self, ch: _Channel) -> tuple[np.ndarray, np.ndarray, int, int]:
        cached = ch.cache.get("dirs")
        if cached is not None:
            return cached  # type: ignore[no-any-return]
        p = self._ray_params(ch)
        nh, nv = max(1, p.horizontal_samples), max(1, p.vertical_samples)
        h = np.linspace(p.horizontal_min_angle, p.horizontal_max_angle, nh)
        v = np.linspace(p.vertical_min_angle, p.vertical_max_angle, nv)
        vv, hh = np.meshgrid(v, h, indexing="ij")
        local = np.stack([np.cos(vv) * np.cos(hh), np.cos(vv) * np.sin(hh), np.sin(vv)], axis=-1).reshape(-1, 3)
        result = (local, h, nh, nv)
        ch.cache["dirs"] = result
        return result

    def _cast(self, ch: _Channel, local: np.ndarray, cutoff: float) -> np.ndarray:
        m, d = self._model, self._data
        assert m is not None and d is not None
        site = ch.ids["site"]
        n = local.shape[0]
        buffers = ch.cache.get("cast")
        if buffers is None or buffers[0].shape != local.shape:  # made once per channel, reused
            groups = np.ones(6, dtype=np.uint8)
            groups[VISUAL_GROUP] = 0  # visual geoms are not seen; collisions and the ground are
            buffers = ch.cache["cast"] = (np.empty(local.shape), np.zeros(n, dtype=np.int32), np.zeros(n), groups)
        vec, geomid, dist, groups = buffers
        np.matmul(local, d.site_xmat[site].reshape(3, 3).T, out=vec)  # ray directions in the world
        mujoco.mj_multiRay(m, d, d.site_xpos[site], vec.reshape(-1), groups, 1, ch.ids["body"], geomid, dist, None, n,
                           cutoff if cutoff > 0 else mujoco.mjMAXVAL)
        return np.where(dist < 0.0, np.inf, dist)  # a new array: the buffers are reused

    def _ray(self, ch: _Channel) -> ScanReading | PointCloudReading:
        p = self._ray_params(ch)
        local, h, nh, nv = self._directions(ch)
        dist = self._cast(ch, local, p.range_max)
        if p.range_max > 0:
            dist[dist > p.range_max] = np.inf
        if nv > 1:
            finite = np.isfinite(dist)
            return PointCloudReading(points=local[finite] * dist[finite, None])
        inc = float(h[1] - h[0]) if nh > 1 else 0.0
        period = ch.period
        return ScanReading(
            angle_min=float(h[0]), angle_max=float(h[-1]), angle_increment=inc, range_min=p.range_min,
            range_max=p.range_max, ranges=dist, scan_time=period,
        )

    def _range(self, ch: _Channel) -> RangeReading:
        p = self._ray_params(ch)
        dist = float(self._cast(ch, np.array([[1.0, 0.0, 0.0]]), p.range_max)[0])
        fov = abs(p.horizontal_max_angle - p.horizontal_min_angle)
        return RangeReading(range=dist, min_range=p.range_min, max_range=p.range_max, field_of_view=fov)

    def _camera(self, ch: _Channel) -> ImageReading | None:
        s = ch.sensor
        if ch.prefix in self._render_failed:
            return None
        params = _params(s, CameraParams)
        depth = s.type == "depth" or params.depth
        if ch.prefix not in self._renderers:
            problem = gl_problem()
            if problem is not None:
                self._render_failed.add(ch.prefix)
                self._unsupported(s, problem)
                return None
            try:
                self._renderers.create(ch.prefix, self._model, params.height, params.width, depth=depth)
            except Exception as exc:  # GL context creation fails in many ways (no EGL/OSMesa/display)
                self._render_failed.add(ch.prefix)
                platform = os.environ.get("MUJOCO_GL") or "unset (GLFW)"
                self._unsupported(s, f"off-screen rendering with MUJOCO_GL={platform} failed "
                                     f"({type(exc).__name__}: {exc}). {describe_missing()}")
                return None
        image = self._renderers.render(ch.prefix, self._data, ch.ids["camera"])
        fx = params.width / (2.0 * math.tan(params.horizontal_fov / 2.0))
        return ImageReading(
            encoding="32FC1" if depth else "rgb8",
            data=image.astype(np.float32, copy=False) if depth else image,
            fx=fx, fy=fx, cx=params.width / 2.0, cy=params.height / 2.0,
        )

    def _contact(self, ch: _Channel) -> ContactReading:
        m, d = self._model, self._data
        assert m is not None and d is not None
        if d.ncon == 0:
            return _NO_CONTACT
        body = ch.ids["body"]
        params = _params(ch.sensor, ContactParams)
        wanted = set(params.collisions)
        contacts = []
        wrench = np.zeros(6)
        for k in range(d.ncon):
            con = d.contact[k]
            g1, g2 = int(con.geom1), int(con.geom2)
            b1, b2 = int(m.geom_bodyid[g1]), int(m.geom_bodyid[g2])
            if body not in (b1, b2):
                continue
            mine = g1 if b1 == body else g2
            if wanted and not any(str(m.geom(mine).name).endswith(f"::{w}") for w in wanted):
                continue
            mujoco.mj_contactForce(m, d, k, wrench)
            frame = np.asarray(con.frame).reshape(3, 3)
            force = frame.T @ wrench[:3]
            contacts.append(Contact(
                body1=_name(m, g1), body2=_name(m, g2),
                position=tuple(float(v) for v in con.pos),  # type: ignore[arg-type]
                normal=tuple(float(v) for v in frame[0]),  # type: ignore[arg-type]
                force=tuple(float(v) for v in force),  # type: ignore[arg-type]
            ))
        return ContactReading(tuple(contacts))

    def close(self) -> None:
        """Release the camera renderers (on the thread that made them, see :mod:`.render`);
        callable from any thread, idempotent."""
        self._renderers.close()


_NO_CONTACT = ContactReading(())


def gl_problem() -> str | None:
    """Make ``mujoco.Renderer`` render off-screen; return why it cannot, or ``None``.

    MuJoCo binds its OpenGL platform from ``MUJOCO_GL`` when ``mujoco`` is first imported; with
    it unset that is GLFW, which needs a display (and aborts the process without one). When
    ``mujoco`` was imported that way (before :mod:`sdf_bridge.backends.mujoco` could choose) and
    there is no ``DISPLAY``, the renderer is switched to EGL or OSMesa
    (:func:`.glplatform.choose_platform`); if neither loads, the reason is returned.
    """
    context_module = getattr(sys.modules.get(mujoco.Renderer.__module__), "gl_context", None)
    current = getattr(context_module, "GLContext", None)
    if not getattr(current, "__module__", "").endswith("glfw") or os.environ.get("DISPLAY"):
        return None
    platform = choose_platform()
    if platform is None:
        return ("mujoco uses GLFW, which needs a display, and neither a working EGL nor OSMesa is installed. "
                f"{describe_missing()}")
    try:
        context = importlib.import_module(f"mujoco.{platform}").GLContext
    except Exception as exc:  # PyOpenGL raises several types when a platform cannot load
        return (f"mujoco uses GLFW, which needs a display, and switching to {platform} failed "
                f"({type(exc).__name__}: {exc}). {describe_missing()}")
    context_module.GLContext = context  # type: ignore[union-attr]
    _LOG.info("mujoco was imported with GLFW and there is no display: off-screen rendering switched to %r "
              "(set MUJOCO_GL before importing mujoco to choose)", platform)
    return None


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a × b for two 3-vectors (numpy's cross is slow for single vectors)."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _name(model: mujoco.MjModel, geom: int) -> str:
    name = model.geom(geom).name
    return name or model.body(int(model.geom_bodyid[geom])).name

