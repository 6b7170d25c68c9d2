"""Sensors of the description simulated in MuJoCo, each at its own update rate.

=============  ===============================================================================
kind           how
=============  ===============================================================================
imu            site at the sensor pose on its link; MuJoCo ``framequat`` (orientation in the
               world), ``gyro`` (rad/s) and ``accelerometer`` (m/s², specific force: +9.81 up at
               rest) in the sensor frame; gaussian noise (+ bias drawn once) from the description.
force_torque   on a joint (SDF joint sensor, or URDF ``<gazebo reference>`` naming a joint):
               site on the child link at the joint frame · sensor pose; on a link: site at the
               sensor pose on that link (measuring what its parent joint carries); MuJoCo ``force``
               and ``torque`` (torque about the site origin). MuJoCo measures what the parent exerts
               on the child subtree; SDFormat's default ``child_to_parent`` is its negative. Frames:
               ``sensor`` (the site), ``child`` (child link frame, moment taken at its origin),
               ``parent`` (parent link orientation, moment at the site origin).
ray / lidar    rays from a site over the horizontal × vertical samples (direction
               (cos v·cos h, cos v·sin h, sin v) in the sensor frame, x forward), cast as Gazebo
               sees (:mod:`.rays`: from range_min on, not seeing the sensor's link or the
               geometry it sits inside, REP-117 ``-inf``/``+inf``); one vertical sample →
               :class:`ScanReading`, more → :class:`PointCloudReading` (sensor frame, hits only).
range          one such ray along the sensor x axis → :class:`RangeReading`.
camera, depth  MuJoCo camera (looks along the sensor's +x, image up = +z) rendered off-screen
               with ``mujoco.Renderer`` (``MUJOCO_GL=egl`` or ``osmesa``) on a thread of its own
               (:mod:`.render`: GL contexts are bound to a thread); intrinsics
               ``fx = fy = width / (2·tan(hfov/2))``, ``cx = width/2``, ``cy = height/2``.
contact        the contacts touching the sensor's link (for URDF also the links Gazebo lumps
               into it; optionally only its named collisions, URDF ones also by their Gazebo
               names, lumped ones included: :mod:`.contact_names`), each ordered (the link's
               collision, the other), position, normal (out of the link) and force on the link
               (from ``mj_contactForce``) in the link's frame (:mod:`.contact`).
gps / navsat,  :mod:`.nav_sensors`: latitude, longitude and altitude from the site's world
magnetometer,  position and the world's ``<spherical_coordinates>`` (as gz-math); MuJoCo's
air_pressure   ``magnetometer`` with ``opt.magnetic`` = the world's ``<magnetic_field>``; the
               1976 standard atmosphere at ``<reference_altitude>`` + the site's height.
=============  ===============================================================================

Other kinds (altimeter, air_speed: no sensor_msgs message, :data:`.nav_sensors.NO_MESSAGE`;
logical_camera, rfid, …) are reported once with a warning and produce no readings.

:meth:`SensorSuite.read_due` is on the control cycle's hot path. IMU and force-torque readings are
sampled, not converted, there (:mod:`.samplers`: one copy of ``sensordata`` per read, the noise
row of :mod:`.noise`) and converted when a caller looks at them (:class:`.readings.SensorReadings`);
ray, range, camera and contact read eagerly (they cast or render the current state).
"""

from __future__ import annotations

import importlib
import logging
import math
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import mujoco
import numpy as np

from ...description.model import (
    CameraParams,
    ContactParams,
    ForceTorqueParams,
    ImuParams,
    RayParams,
    Robot,
    Sensor,
)
from ..sensor_readings import (
    ImageReading,
    PointCloudReading,
    RangeReading,
    ScanReading,
    SensorReading,
)
from .builder import BuiltModel
from .contact import ContactSensor
from .geoms import wxyz
from .glplatform import choose_platform, describe_missing
from .nav_sensors import KINDS as NAV_KINDS
from .nav_sensors import NO_MESSAGE, NavSensor
from .noise import ImuNoise, NoiseStream, channel_seed
from .rays import RayCaster, scan_directions
from .readings import SensorReadings
from .render import RenderThread
from .samplers import ImuSampler, WrenchSampler
from .schedule import EPSILON, next_due_after

_LOG = logging.getLogger(__name__)

SUPPORTED = (
    frozenset({"imu", "force_torque", "ray", "range", "camera", "depth", "contact"}) | NAV_KINDS
)

# MuJoCo camera axes (x right, y up, looking along −z) in the sensor frame (x forward, z up)
_CAMERA_AXES = np.array([[0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


_P = TypeVar("_P")


def _params(sensor: Sensor, kind: type[_P]) -> _P:
    """The sensor's parameters when they are a ``kind``, else ``kind()`` (the SDFormat defaults)."""
    return sensor.params if isinstance(sensor.params, kind) else kind()


@dataclass(eq=False)
class _Channel:
    """One simulated sensor: its schedule (s), MuJoCo ids, per-channel caches, for IMU and
    force-torque its noise (made once) and sampler (made at each :meth:`SensorSuite.bind`), for
    a contact sensor its :class:`.contact.ContactSensor` and for a navigation sensor its
    :class:`.nav_sensors.NavSensor` (made once; ``noise`` is the latter's)."""

    sensor: Sensor
    period: float
    prefix: str = ""
    next_due: float = 0.0
    ids: dict[str, int] = field(default_factory=dict)
    cache: dict[str, Any] = field(default_factory=dict)
    noise: NoiseStream | None = None
    sampler: ImuSampler | WrenchSampler | None = None
    plain: bool = False  # sampler.sample(snapshot) is (sampler, snapshot)
    contact: ContactSensor | None = None
    nav: NavSensor | None = None
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = self.sensor.name

    def advance(self, t: float) -> None:
        """Move the schedule past ``t`` s (:func:`.schedule.next_due_after`, O(1))."""
        self.next_due = next_due_after(self.next_due, self.period, t)


class SensorSuite:
    """The simulated sensors of one robot.

    Use: :meth:`attach` before compiling (adds sites, MuJoCo sensors and cameras to the spec),
    :meth:`bind` after compiling, then :meth:`read_due` every cycle.

    Noise: each noisy IMU draws from its own generator seeded by ``seed`` (``None``: fresh OS
    entropy) and its name (:mod:`.noise`), made once, so its samples depend on neither the
    other sensors nor which readings are accessed; they continue across :meth:`bind` (a
    backend reset).
    """

    def __init__(self, robot: Robot, built: BuiltModel, seed: int | None) -> None:
        self.robot = robot
        self.built = built
        self.seed_sequence = np.random.SeedSequence(seed)
        self.channels: list[_Channel] = []
        self.unsupported: list[str] = []
        self._model: mujoco.MjModel | None = None
        self._data: mujoco.MjData | None = None
        self._renderers = RenderThread()
        self._render_failed: set[str] = set()
        self._sensordata = np.zeros(0)  # data.sensordata (a view), set by bind
        self._snapshot_index = np.zeros(0, dtype=np.intp)  # its entries the samplers read
        self._snapshot_view: np.ndarray | None = None  # the same as a view, when consecutive
        self.demand: frozenset[str] | None = None  # sensors read (None: all), set_demand

    # -- building -------------------------------------------------------------------------------
    @classmethod
    def attach(
        cls,
        robot: Robot,
        built: BuiltModel,
        *,
        seed: int | None = None,
        render_cameras: bool = True,
    ) -> SensorSuite:
        """Add the MuJoCo elements of every supported sensor of ``robot`` to ``built.spec``;
        warn once per unsupported sensor (kind or missing link) and per ``<ros2_control>``
        sensor no description sensor of its name simulates. ``render_cameras=False`` turns
        cameras off (reported once like unsupported sensors)."""
        suite = cls(robot, built, seed)
        max_w = max_h = 0
        for index, sensor in enumerate(robot.sensors):
            placed = suite._place(sensor)
            if placed is None:
                continue
            body, frame = placed
            if sensor.type not in SUPPORTED:
                why = f"sensor type {sensor.raw_type or sensor.type!r} is not simulated"
                reason = NO_MESSAGE.get(sensor.type)
                suite._unsupported(sensor, why if reason is None else f"{why}: {reason}")
                continue
            if sensor.type in ("force_torque", "contact") and body.name == "world":
                suite._unsupported(
                    sensor, "it is attached to the world, which carries no joint load"
                )
                continue
            if sensor.type in ("camera", "depth") and not render_cameras:
                suite._unsupported(
                    sensor, "camera rendering is off (backend parameter render_cameras: false)"
                )
                continue
            prefix = f"sensor{index}"
            site = body.add_site(name=f"{prefix}__site", group=4)
            site.pos = [float(v) for v in frame[:3, 3]]
            site.quat = wxyz(frame[:3, :3])
            period = 1.0 / sensor.update_rate if sensor.update_rate > 0 else 0.0
            channel = _Channel(sensor, period, prefix=prefix)
            suite.channels.append(channel)
            spec = built.spec
            obj = {"objtype": mujoco.mjtObj.mjOBJ_SITE, "objname": site.name}
            if sensor.type == "imu":
                p = _params(sensor, ImuParams)
                channel.noise = ImuNoise.create(
                    p.angular_velocity_noise,
                    p.linear_acceleration_noise,
                    channel_seed(suite.seed_sequence, sensor.name),
                )
                spec.add_sensor(
                    name=f"{prefix}__quat", type=mujoco.mjtSensor.mjSENS_FRAMEQUAT, **obj
                )
                spec.add_sensor(name=f"{prefix}__gyro", type=mujoco.mjtSensor.mjSENS_GYRO, **obj)
                spec.add_sensor(
                    name=f"{prefix}__acc", type=mujoco.mjtSensor.mjSENS_ACCELEROMETER, **obj
                )
            elif sensor.type == "force_torque":
                spec.add_sensor(name=f"{prefix}__force", type=mujoco.mjtSensor.mjSENS_FORCE, **obj)
                spec.add_sensor(
                    name=f"{prefix}__torque", type=mujoco.mjtSensor.mjSENS_TORQUE, **obj
                )
            elif sensor.type in ("camera", "depth"):
                params = _params(sensor, CameraParams)
                cam = body.add_camera(name=f"{prefix}__camera")
                cam.pos = site.pos
                cam.quat = wxyz(frame[:3, :3] @ _CAMERA_AXES)
                aspect = params.height / params.width
                cam.fovy = math.degrees(
                    2.0 * math.atan(math.tan(params.horizontal_fov / 2.0) * aspect)
                )
                max_w, max_h = max(max_w, params.width), max(max_h, params.height)
            elif sensor.type == "contact":
                collisions = _params(sensor, ContactParams).collisions
                channel.contact = ContactSensor(robot, built, sensor, collisions)
            elif sensor.type in NAV_KINDS:
                seed = channel_seed(suite.seed_sequence, sensor.name)
                channel.nav = NavSensor.attach(sensor, robot.environment, spec, site, seed)
                channel.noise = channel.nav.noise
        described = {s.name for s in robot.sensors}
        for block in robot.ros2_control:
            for info in block.sensors:
                if info.name not in described:
                    message = (
                        f"<ros2_control> sensor {info.name!r} has no simulated sensor of its "
                        "name (a <gazebo> or SDFormat <sensor>); it publishes nothing in "
                        "the MuJoCo backend"
                    )
                    suite.unsupported.append(message)
                    _LOG.warning(message)
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
        if (
            sensor.link is not None
            and sensor.link not in self.built.link_body
            and sensor.link in self.robot.joints
        ):
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
        """Resolve ids in the compiled model, make the IMU and force-torque samplers, and make
        every sensor due at the next read."""
        self._model, self._data = model, data
        for ch in self.channels:
            s = ch.sensor
            ch.ids["site"] = mujoco.mj_name2id(
                model, mujoco.mjtObj.mjOBJ_SITE, f"{ch.prefix}__site"
            )
            ch.ids["body"] = int(model.site_bodyid[ch.ids["site"]])
            for suffix in ("quat", "gyro", "acc", "force", "torque"):
                sid = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_SENSOR, f"{ch.prefix}__{suffix}")
                if sid >= 0:
                    ch.ids[suffix] = int(model.sensor_adr[sid])
            if s.type in ("camera", "depth"):
                ch.ids["camera"] = mujoco.mj_name2id(
                    model, mujoco.mjtObj.mjOBJ_CAMERA, f"{ch.prefix}__camera"
                )
            if ch.nav is not None:
                ch.nav.bind(model, f"{ch.prefix}__site")
        self._bind_samplers(model, data)
        self.reset()

    def _bind_samplers(self, model: mujoco.MjModel, data: mujoco.MjData) -> None:
        """The snapshot index (the sorted ``sensordata`` addresses of every IMU and force-torque
        channel) and each such channel's sampler, with offsets into the snapshot."""
        addresses: set[int] = set()
        for ch in self.channels:
            for key, size in _SAMPLED.get(ch.sensor.type, ()):
                addresses.update(range(ch.ids[key], ch.ids[key] + size))
        index = sorted(addresses)
        offset = {address: k for k, address in enumerate(index)}
        self._snapshot_index = np.array(index, dtype=np.intp)
        # consecutive addresses (as attach() adds them): a view made once, whose copy is
        # cheaper than a take (the view stays valid: mj_resetData keeps data's buffers)
        contiguous = bool(index) and index[-1] - index[0] == len(index) - 1
        self._sensordata = data.sensordata
        self._snapshot_view = self._sensordata[index[0] : index[-1] + 1] if contiguous else None
        for ch in self.channels:
            ids = ch.ids
            if ch.sensor.type == "imu":
                ch.sampler = ImuSampler(
                    offset[ids["quat"]], offset[ids["gyro"]], offset[ids["acc"]], ch.noise
                )
            elif ch.sensor.type == "force_torque":
                params = _params(ch.sensor, ForceTorqueParams)
                sign = -1.0 if params.measure_direction == "child_to_parent" else 1.0
                ch.sampler = WrenchSampler(
                    offset[ids["force"]],
                    offset[ids["torque"]],
                    sign,
                    params.frame,
                    model,
                    data,
                    ids["site"],
                )
            if ch.sampler is not None:
                ch.plain = ch.sampler.plain

    def set_demand(self, names: frozenset[str] | None) -> None:
        """Read only the sensors named in ``names`` (``None``: all, the default): the others
        keep their schedule but are not read (no ray casting, rendering or copying), so a
        sensor demanded again gives its next reading at its next due time."""
        self.demand = None if names is None else frozenset(names)

    def reset(self) -> None:
        """Make every sensor due at the next read."""
        for ch in self.channels:
            ch.next_due = 0.0

    # -- reading --------------------------------------------------------------------------------
    def read_due(self, sim_time: float) -> Mapping[str, SensorReading]:
        """Readings of the sensors due at ``sim_time`` s (data must be current: after mj_step),
        in sensor order: a fresh mapping per call. When an IMU or force-torque sensor is due, a
        :class:`.readings.SensorReadings` whose IMU and force-torque values are converted on
        first access from copies taken now (later physics steps do not change them); else a
        dict."""
        limit = sim_time + EPSILON
        out: dict[str, Any] = {}
        snapshot = None
        demand = self.demand
        for ch in self.channels:
            if limit < ch.next_due:
                continue
            step = ch.next_due + ch.period
            if step > limit:  # the normal case of next_due_after, inlined (one step)
                ch.next_due = step
            else:
                ch.advance(sim_time)
            if demand is not None and ch.name not in demand:
                if ch.noise is not None:  # the noise follows the schedule, not who listens
                    ch.noise.take()
                continue  # not wanted now (set_demand): its schedule moved on, nothing read
            sampler = ch.sampler
            if sampler is not None:
                if snapshot is None:  # one copy for all the samplers of this read
                    view = self._snapshot_view
                    snapshot = (
                        view.copy() if view is not None else self._sensordata[self._snapshot_index]
                    )
                # (sampler, snapshot) is what sample() gives when it takes nothing else (no call)
                out[ch.name] = (sampler, snapshot) if ch.plain else sampler.sample(snapshot)
                continue
            reading = self._read(ch)
            if reading is not None:
                out[ch.name] = reading
        return out if snapshot is None else SensorReadings(out)

    def _read(self, ch: _Channel) -> SensorReading | None:
        """The reading of an eagerly read channel (ray, range, camera, contact, navigation)."""
        if ch.nav is not None:
            assert self._data is not None
            return ch.nav.read(self._data, ch.ids["site"])
        kind = ch.sensor.type
        if kind == "ray":
            return self._ray(ch)
        if kind == "range":
            return self._range(ch)
        if kind in ("camera", "depth"):
            return self._camera(ch)
        model, data, contact = self._model, self._data, ch.contact
        assert model is not None and data is not None and contact is not None
        return contact.read(model, data, ch.ids["body"])

    def _caster(self, ch: _Channel, local: np.ndarray) -> RayCaster:
        caster = ch.cache.get("caster")
        if caster is None:  # made once per channel (its buffers are reused)
            caster = ch.cache["caster"] = RayCaster(
                _params(ch.sensor, RayParams), local, ch.ids["site"], ch.ids["body"]
            )
        return caster

    def _ray(self, ch: _Channel) -> ScanReading | PointCloudReading:
        p = _params(ch.sensor, RayParams)
        directions = ch.cache.get("dirs")
        if directions is None:
            directions = ch.cache["dirs"] = scan_directions(p)
        local, h = directions
        dist = self._caster(ch, local).distances(self._model, self._data)
        if p.vertical_samples > 1:
            finite = np.isfinite(dist)
            return PointCloudReading(points=local[finite] * dist[finite, None])
        inc = float(h[1] - h[0]) if len(h) > 1 else 0.0
        return ScanReading(
            angle_min=float(h[0]),
            angle_max=float(h[-1]),
            angle_increment=inc,
            range_min=p.range_min,
            range_max=p.range_max,
            ranges=dist,
            scan_time=ch.period,
        )

    def _range(self, ch: _Channel) -> RangeReading:
        p = _params(ch.sensor, RayParams)
        dist = float(
            self._caster(ch, np.array([[1.0, 0.0, 0.0]])).distances(self._model, self._data)[0]
        )
        fov = abs(p.horizontal_max_angle - p.horizontal_min_angle)
        return RangeReading(
            range=dist, min_range=p.range_min, max_range=p.range_max, field_of_view=fov
        )

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
                self._renderers.create(
                    ch.prefix, self._model, params.height, params.width, depth=depth
                )
            except (
                Exception
            ) as exc:  # GL context creation fails in many ways (no EGL/OSMesa/display)
                self._render_failed.add(ch.prefix)
                platform = os.environ.get("MUJOCO_GL") or "unset (GLFW)"
                self._unsupported(
                    s,
                    f"off-screen rendering with MUJOCO_GL={platform} failed "
                    f"({type(exc).__name__}: {exc}). {describe_missing()}",
                )
                return None
        image = self._renderers.render(ch.prefix, self._data, ch.ids["camera"])
        fx = params.width / (2.0 * math.tan(params.horizontal_fov / 2.0))
        return ImageReading(
            encoding="32FC1" if depth else "rgb8",
            data=image.astype(np.float32, copy=False) if depth else image,
            fx=fx,
            fy=fx,
            cx=params.width / 2.0,
            cy=params.height / 2.0,
        )

    def close(self) -> None:
        """Release the camera renderers (on the thread that made them, see :mod:`.render`);
        callable from any thread, idempotent."""
        self._renderers.close()


# MuJoCo sensors (ids key, number of values) that read_due copies for each sampled sensor type
_SAMPLED = {
    "imu": (("quat", 4), ("gyro", 3), ("acc", 3)),
    "force_torque": (("force", 3), ("torque", 3)),
}


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
        return (
            "mujoco uses GLFW, which needs a display, and neither a working EGL nor OSMesa is "
            f"installed. {describe_missing()}"
        )
    try:
        context = importlib.import_module(f"mujoco.{platform}").GLContext
    except Exception as exc:  # PyOpenGL raises several types when a platform cannot load
        return (
            f"mujoco uses GLFW, which needs a display, and switching to {platform} failed "
            f"({type(exc).__name__}: {exc}). {describe_missing()}"
        )
    context_module.GLContext = context  # type: ignore[union-attr]  # (has GLFW's GLContext)
    _LOG.info(
        "mujoco was imported with GLFW and there is no display: off-screen rendering switched to "
        "%r (set MUJOCO_GL before importing mujoco to choose)",
        platform,
    )
    return None
