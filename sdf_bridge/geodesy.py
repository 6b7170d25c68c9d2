"""World positions → geodetic latitude, longitude and altitude, as Gazebo's NavSat computes them.

gz-sim's NavSat system hands the sensor's world position to gz-math's
``SphericalCoordinates::PositionTransform(pos, LOCAL, SPHERICAL)`` (gz-math
``src/SphericalCoordinates.cc``); :class:`LocalTangentPlane` is that conversion:

1. local → ENU: the world frame is the ENU frame turned by the heading ``ψ`` (SDFormat
   ``<heading_deg>``; gz-math negates it, h = −ψ): ``e = x·cos h + y·sin h``,
   ``n = −x·sin h + y·cos h``, ``u = z``;
2. ENU → ECEF (navipedia, *Transformations between ECEF and ENU coordinates*), about the
   origin's ECEF position ``o`` at latitude φ₀, longitude λ₀::

       X = o + [[−sin λ₀, −cos λ₀·sin φ₀, cos λ₀·cos φ₀],
                [ cos λ₀, −sin λ₀·sin φ₀, sin λ₀·cos φ₀],
                [ 0,        cos φ₀,         sin φ₀     ]] · (e, n, u)

   with ``o`` the geodetic → ECEF of (φ₀, λ₀, h₀): ``N = a / √(1 − e²·sin²φ)``,
   ``(x, y, z) = ((N + h)·cos φ·cos λ, (N + h)·cos φ·sin λ, (b²/a²·N + h)·sin φ)``;
3. ECEF → geodetic by Bowring's formula in one step, as gz-math: ``p = √(X² + Y²)``,
   ``θ = atan(Z·a / (p·b))``, ``φ = atan((Z + e'²·b·sin³θ) / (p − e²·a·cos³θ))``,
   ``λ = atan2(Y, X)``, ``h = p / cos φ − N(φ)``, with e² = 1 − b²/a², e'² = a²/b² − 1.

Ellipsoids (gz-math's constants): ``EARTH_WGS84`` a = 6378137 m, b = 6356752.314245 m;
``MOON_SCS`` a = 1738100 m, b = 1736000 m; ``CUSTOM_SURFACE`` the description's axes.
"""

from __future__ import annotations

import math

from .description.model import SphericalCoordinates

#: Semi-major (equatorial) and semi-minor (polar) axes in m of gz-math's surface models.
AXES = {"EARTH_WGS84": (6378137.0, 6356752.314245), "MOON_SCS": (1738100.0, 1736000.0)}


class LocalTangentPlane:
    """The conversion of world positions to geodetic coordinates for one world origin.

    Args:
        origin: the world's spherical coordinates (surface, origin latitude/longitude in °,
            elevation in m, heading in °).

    Raises:
        ValueError: ``origin.surface_model`` is not ``EARTH_WGS84``, ``MOON_SCS`` or a
            ``CUSTOM_SURFACE`` with ``0 < polar <= equatorial`` axes (the description loader
            refuses or replaces these: see :mod:`sdf_bridge.description.sdf.environment`).
    """

    __slots__ = ("a", "b", "e2", "ep2", "origin_ecef", "rotation", "cos_h", "sin_h")

    def __init__(self, origin: SphericalCoordinates) -> None:
        if origin.surface_model == "CUSTOM_SURFACE":
            a, b = origin.surface_axis_equatorial, origin.surface_axis_polar
            if not 0.0 < b <= a:
                raise ValueError(
                    f"custom surface axes {a!r}, {b!r} m: need 0 < polar <= equatorial"
                )
        elif origin.surface_model in AXES:
            a, b = AXES[origin.surface_model]
        else:
            raise ValueError(f"unknown surface model {origin.surface_model!r}")
        self.a, self.b = a, b
        self.e2 = 1.0 - b * b / (a * a)
        self.ep2 = a * a / (b * b) - 1.0
        lat, lon = math.radians(origin.latitude_deg), math.radians(origin.longitude_deg)
        sl, cl, so, co = math.sin(lat), math.cos(lat), math.sin(lon), math.cos(lon)
        self.rotation = (
            (-so, -co * sl, co * cl),
            (co, -so * sl, so * cl),
            (0.0, cl, sl),
        )
        heading = -math.radians(origin.heading_deg)
        self.cos_h, self.sin_h = math.cos(heading), math.sin(heading)
        self.origin_ecef = self.ecef(lat, lon, origin.elevation)

    def ecef(self, lat: float, lon: float, height: float) -> tuple[float, float, float]:
        """Earth-centred, earth-fixed position (m) of geodetic ``lat``, ``lon`` (rad) and
        ``height`` (m above the ellipsoid)."""
        sl = math.sin(lat)
        n = self.a / math.sqrt(1.0 - self.e2 * sl * sl)
        cl = math.cos(lat)
        return (
            (height + n) * cl * math.cos(lon),
            (height + n) * cl * math.sin(lon),
            (self.b * self.b / (self.a * self.a) * n + height) * sl,
        )

    def geodetic(self, x: float, y: float, z: float) -> tuple[float, float, float]:
        """Latitude (°), longitude (°, in (−180, 180]) and altitude (m above the ellipsoid) of
        world position ``(x, y, z)`` in m (module doc, steps 1–3)."""
        east = x * self.cos_h + y * self.sin_h
        north = -x * self.sin_h + y * self.cos_h
        r, o = self.rotation, self.origin_ecef
        ex = o[0] + r[0][0] * east + r[0][1] * north + r[0][2] * z
        ey = o[1] + r[1][0] * east + r[1][1] * north + r[1][2] * z
        ez = o[2] + r[2][0] * east + r[2][1] * north + r[2][2] * z
        a, b = self.a, self.b
        p = math.hypot(ex, ey)
        theta = math.atan(ez * a / (p * b))
        lat = math.atan(
            (ez + self.ep2 * b * math.sin(theta) ** 3) / (p - self.e2 * a * math.cos(theta) ** 3)
        )
        lon = math.atan2(ey, ex)
        n = a / math.sqrt(1.0 - self.e2 * math.sin(lat) ** 2)
        return math.degrees(lat), math.degrees(lon), p / math.cos(lat) - n


__all__ = ["AXES", "LocalTangentPlane"]
