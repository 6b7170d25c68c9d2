"""Navigation sensors in MuJoCo: NavSat (gps), magnetometer and air pressure, as Gazebo's.

=============  ===============================================================================
kind           how
=============  ===============================================================================
gps / navsat   the sensor site's world position (MuJoCo ``site_xpos``, m) with the horizontal
               noise on world x and y and the vertical noise on z (in m, as Gazebo classic's
               GpsSensor applies them before the conversion; gz-sensors' NavSatSensor adds
               the metre stddev to the degrees instead), converted to latitude, longitude and
               altitude with the world's ``<spherical_coordinates>`` as gz-math does
               (:class:`sdf_bridge.geodesy.LocalTangentPlane`) → :class:`NavSatReading`
               with the variances (σh², σh², σv²) m² when a noise is given. Without
               ``<spherical_coordinates>`` the SDFormat defaults (latitude, longitude,
               elevation, heading 0, WGS 84) are used, with a warning: Gazebo classic did
               so; gz-sim publishes no fix then.
magnetometer   MuJoCo ``magnetometer`` sensor at the site (``Rᵀ·opt.magnetic``: the world
               field in the sensor frame, T) with ``opt.magnetic`` set to the world's
               ``<magnetic_field>`` (SDFormat default 5.5645e-6 22.8758e-6 -42.3884e-6 T, as
               gz-sim's Magnetometer system uses it); per-axis noise (T) →
               :class:`MagneticFieldReading`. (gz-sim, since 2024, replaces the field with a
               World Magnetic Model table value in gauss, NED, when the world has
               ``<spherical_coordinates>``; that is not reproduced.)
air_pressure   :func:`sdf_bridge.atmosphere.air_pressure` at ``<reference_altitude>`` + the
               site's world z (gz-sensors' AirPressureSensor), pressure noise in Pa →
               :class:`FluidPressureReading` with variance σ² Pa² (gz-sensors reports
               √σ there, which is not a variance).
=============  ===============================================================================

The noise is :class:`.noise.VectorNoise`: the sensor's generator (:func:`.noise.channel_seed`),
one sample per reading.
"""

from __future__ import annotations

import logging

import mujoco
import numpy as np

from ...atmosphere import air_pressure
from ...description.model import (
    SURFACE_MODELS,
    AirPressureParams,
    Environment,
    GpsParams,
    MagnetometerParams,
    Sensor,
    SphericalCoordinates,
)
from ...errors import BackendError
from ...geodesy import LocalTangentPlane
from ..sensor_readings import FluidPressureReading, MagneticFieldReading, NavSatReading
from .noise import VectorNoise

_LOG = logging.getLogger(__name__)

KINDS = frozenset({"gps", "magnetometer", "air_pressure"})
"""The sensor types this module simulates."""

NO_MESSAGE = {
    "altimeter": (
        "sensor_msgs has no altimeter message (Gazebo's gz.msgs.Altimeter bridges to "
        "ros_gz_interfaces/Altimeter, which is not installable from PyPI)"
    ),
    "air_speed": (
        "sensor_msgs has no air speed message (ros_gz_bridge bridges no gz.msgs.AirSpeed)"
    ),
}
"""Why each Gazebo sensor type with no standard ROS message is not simulated (warned at start)."""


def _vector3(values: tuple[float, ...]) -> tuple[float, float, float]:
    x, y, z = values
    return (x, y, z)


class NavSensor:
    """One simulated navigation sensor of kind ``sensor.type`` (module doc).

    Use: :meth:`attach` before compiling, :meth:`bind` after, :meth:`read` at each due time.

    Raises:
        BackendError: a gps in an environment whose spherical coordinates
            :class:`~sdf_bridge.geodesy.LocalTangentPlane` refuses (only a robot built in
            Python can have them: the loader refuses or replaces them).

    Attributes:
        sensor: the description's sensor.
        noise: its noise, or ``None`` when it has no gaussian noise.
        plane: for a gps, the world's :class:`~sdf_bridge.geodesy.LocalTangentPlane`.
    """

    __slots__ = ("sensor", "noise", "plane", "_variance", "_reference", "_address")

    def __init__(
        self, sensor: Sensor, environment: Environment, seed: np.random.SeedSequence
    ) -> None:
        self.sensor = sensor
        self.plane: LocalTangentPlane | None = None
        self._reference = 0.0
        self._address = -1
        params = sensor.params
        if sensor.type == "gps":
            gps = params if isinstance(params, GpsParams) else GpsParams()
            h, v = gps.horizontal_position_noise, gps.vertical_position_noise
            self.noise = VectorNoise.create((h, h, v), seed)
            origin = environment.spherical_coordinates
            if origin is None:
                _LOG.warning(
                    "sensor %r: the world has no <spherical_coordinates>; its origin is taken "
                    "at latitude 0°, longitude 0°, elevation 0 m, heading 0° on WGS 84 "
                    "(SDFormat's defaults, as Gazebo classic; gz-sim publishes no fix without "
                    "them)",
                    sensor.name,
                )
                origin = SphericalCoordinates()
            try:
                self.plane = LocalTangentPlane(origin)
            except ValueError as exc:  # a Robot made in Python, not by the loader
                raise BackendError(
                    f"sensor {sensor.name!r}: the world's spherical coordinates cannot be used "
                    f"({exc}). Fix: give a surface model of {', '.join(SURFACE_MODELS)} (a "
                    "CUSTOM_SURFACE with axes 0 < polar <= equatorial)"
                ) from None
        elif sensor.type == "magnetometer":
            magnetometer = params if isinstance(params, MagnetometerParams) else None
            noises = magnetometer.noise if magnetometer is not None else None
            self.noise = VectorNoise.create(noises or (None, None, None), seed)
        else:
            pressure = params if isinstance(params, AirPressureParams) else AirPressureParams()
            self._reference = pressure.reference_altitude
            self.noise = VectorNoise.create((pressure.pressure_noise,), seed)
        self._variance = None if self.noise is None else self.noise.variances()

    @classmethod
    def attach(
        cls,
        sensor: Sensor,
        environment: Environment,
        spec: mujoco.MjSpec,
        site: mujoco.MjsSite,
        seed: np.random.SeedSequence,
    ) -> NavSensor:
        """The sensor, with what it needs added to ``spec``: for a magnetometer a MuJoCo
        ``magnetometer`` on ``site`` (named ``<site>__magnetometer``) and ``opt.magnetic`` =
        the world's field (T)."""
        if sensor.type == "magnetometer":
            spec.option.magnetic = list(environment.magnetic_field)
            spec.add_sensor(
                name=f"{site.name}__magnetometer",
                type=mujoco.mjtSensor.mjSENS_MAGNETOMETER,
                objtype=mujoco.mjtObj.mjOBJ_SITE,
                objname=site.name,
            )
        return cls(sensor, environment, seed)

    def bind(self, model: mujoco.MjModel, site_name: str) -> None:
        """Find the magnetometer's values in the compiled ``model``'s ``sensordata``."""
        if self.sensor.type == "magnetometer":
            sid = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_SENSOR, f"{site_name}__magnetometer")
            self._address = int(model.sensor_adr[sid])

    def read(
        self, data: mujoco.MjData, site: int
    ) -> NavSatReading | MagneticFieldReading | FluidPressureReading:
        """The reading of the current state (``data`` after ``mj_step``) of the sensor at site
        id ``site``, with the next noise sample."""
        noise = self.noise
        if self.sensor.type == "magnetometer":
            a = self._address
            field = tuple(float(v) for v in data.sensordata[a : a + 3])
            if noise is not None:
                field = noise.apply(field, noise.take())
            variance = None if self._variance is None else _vector3(self._variance)
            return MagneticFieldReading(_vector3(field), variance)
        position = tuple(float(v) for v in data.site_xpos[site])
        if self.plane is not None:
            if noise is not None:
                position = noise.apply(position, noise.take())
            latitude, longitude, altitude = self.plane.geodetic(*position)
            variance = None if self._variance is None else _vector3(self._variance)
            return NavSatReading(latitude, longitude, altitude, variance)
        pressure = air_pressure(self._reference + position[2])
        if noise is not None:
            (pressure,) = noise.apply((pressure,), noise.take())
        return FluidPressureReading(pressure, 0.0 if self._variance is None else self._variance[0])


__all__ = ["KINDS", "NO_MESSAGE", "NavSensor"]
