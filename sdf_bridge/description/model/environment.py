"""Where a world is on its planet: SDFormat ``<spherical_coordinates>`` and ``<magnetic_field>``.

The values and their defaults are libsdformat's (``world.sdf``, ``spherical_coordinates.sdf``,
``sdf::World``); the conversions that use them are :mod:`sdf_bridge.geodesy`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

#: SDFormat's ``<magnetic_field>`` default (world.sdf), in tesla, world frame (ENU).
DEFAULT_MAGNETIC_FIELD = (5.5645e-6, 22.8758e-6, -42.3884e-6)

#: The surface models libsdformat and gz-math know (``<surface_model>``).
SURFACE_MODELS = ("EARTH_WGS84", "MOON_SCS", "CUSTOM_SURFACE")


@dataclass(frozen=True)
class SphericalCoordinates:
    """SDFormat ``<spherical_coordinates>``: the geodetic position of the world origin.

    Attributes:
        surface_model: one of :data:`SURFACE_MODELS` (default ``EARTH_WGS84``).
        latitude_deg, longitude_deg: geodetic latitude and longitude of the world origin, °.
        elevation: height of the world origin above the surface's ellipsoid, m.
        heading_deg: angle of the world frame from the ``world_frame_orientation`` (ENU, the
            only one libsdformat accepts), °; SDFormat's sign: a positive heading turns the
            world frame clockwise seen from above (gz-math negates it into a right-hand
            rotation).
        surface_axis_equatorial, surface_axis_polar: the ellipsoid's semi-axes in m, for a
            ``CUSTOM_SURFACE`` (0 for the others: their axes are gz-math's constants).
    """

    surface_model: str = "EARTH_WGS84"
    latitude_deg: float = 0.0
    longitude_deg: float = 0.0
    elevation: float = 0.0
    heading_deg: float = 0.0
    surface_axis_equatorial: float = 0.0
    surface_axis_polar: float = 0.0


@dataclass(frozen=True)
class Environment:
    """What a world tells its sensors of the planet.

    Attributes:
        magnetic_field: the world's magnetic field (T, world frame), SDFormat
            ``<magnetic_field>``; :data:`DEFAULT_MAGNETIC_FIELD` when not given.
        spherical_coordinates: the world's ``<spherical_coordinates>``, ``None`` when it has
            none (a URDF robot, a model file, a world without them): then a NavSat sensor
            takes the SDFormat defaults (:class:`SphericalCoordinates` ``()``), as Gazebo
            classic did, with a warning (gz-sim publishes no fix then).
    """

    magnetic_field: tuple[float, float, float] = DEFAULT_MAGNETIC_FIELD
    spherical_coordinates: SphericalCoordinates | None = None


__all__ = ["DEFAULT_MAGNETIC_FIELD", "SURFACE_MODELS", "Environment", "SphericalCoordinates"]
