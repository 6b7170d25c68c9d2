"""World positions → latitude, longitude, altitude (sdf_bridge.geodesy) against gz-math's own test
values and an independent conversion (ENU → ECEF by the east/north/up unit vectors, ECEF →
geodetic by fixed-point iteration to convergence, not Bowring's one step)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sdf_bridge.description.model import SphericalCoordinates
from sdf_bridge.geodesy import AXES, LocalTangentPlane

A, B = AXES["EARTH_WGS84"]


def _reference(origin: SphericalCoordinates, local: tuple[float, float, float], a=A, b=B):
    """(lat °, lon °, alt m) of ``local`` by the textbook route (module doc)."""
    e2 = 1.0 - (b / a) ** 2
    lat0, lon0 = math.radians(origin.latitude_deg), math.radians(origin.longitude_deg)

    def ecef(lat: float, lon: float, h: float) -> np.ndarray:
        n = a / math.sqrt(1.0 - e2 * math.sin(lat) ** 2)
        return np.array(
            [
                (n + h) * math.cos(lat) * math.cos(lon),
                (n + h) * math.cos(lat) * math.sin(lon),
                (n * (1.0 - e2) + h) * math.sin(lat),
            ]
        )

    psi = math.radians(origin.heading_deg)  # the world x axis is ψ from east towards north
    x, y, z = local
    east, north = x * math.cos(psi) - y * math.sin(psi), x * math.sin(psi) + y * math.cos(psi)
    e_hat = np.array([-math.sin(lon0), math.cos(lon0), 0.0])
    n_hat = np.array(
        [-math.sin(lat0) * math.cos(lon0), -math.sin(lat0) * math.sin(lon0), math.cos(lat0)]
    )
    u_hat = np.array(
        [math.cos(lat0) * math.cos(lon0), math.cos(lat0) * math.sin(lon0), math.sin(lat0)]
    )
    X, Y, Z = ecef(lat0, lon0, origin.elevation) + east * e_hat + north * n_hat + z * u_hat
    p, lat, h = math.hypot(X, Y), math.atan2(Z, math.hypot(X, Y)), 0.0
    for _ in range(50):
        n = a / math.sqrt(1.0 - e2 * math.sin(lat) ** 2)
        h = p / math.cos(lat) - n
        lat = math.atan2(Z, p * (1.0 - e2 * n / (n + h)))
    return math.degrees(lat), math.degrees(math.atan2(Y, X)), h


def test_the_origin_is_the_reference_point() -> None:
    origin = SphericalCoordinates(latitude_deg=-22.9, longitude_deg=-43.2, elevation=0.0)
    lat, lon, alt = LocalTangentPlane(origin).geodetic(0.0, 0.0, 0.0)
    assert (lat, lon) == pytest.approx((-22.9, -43.2), abs=1e-12)
    assert alt == pytest.approx(0.0, abs=1e-6)


def test_gz_math_test_value_200_km_north_with_heading_90() -> None:
    """gz-math ``SphericalCoordinates_TEST.cc`` (CoordinateTransforms): lat 0.3 rad, lon −1.2 rad,
    elevation 354.1 m, heading π/2; local (2e5, 0, 0) is 200 km north along the plane: altitude
    3507.024791 m (±1e-6 there), latitude ≈ +1.8°, longitude unchanged."""
    origin = SphericalCoordinates(
        latitude_deg=math.degrees(0.3),
        longitude_deg=math.degrees(-1.2),
        elevation=354.1,
        heading_deg=90.0,
    )
    lat, lon, alt = LocalTangentPlane(origin).geodetic(2e5, 0.0, 0.0)
    assert alt == pytest.approx(3507.024791, abs=1e-6)
    assert lat - math.degrees(0.3) == pytest.approx(1.8, abs=0.008)
    assert lon == pytest.approx(math.degrees(-1.2), abs=1e-12)


@pytest.mark.parametrize(
    ("origin", "local"),
    [
        (
            SphericalCoordinates(latitude_deg=47.3769, longitude_deg=8.5417, elevation=408.0),
            (120.0, -45.0, 2.5),
        ),
        (
            SphericalCoordinates(
                latitude_deg=-33.86, longitude_deg=151.21, elevation=-12.0, heading_deg=30.0
            ),
            (1500.0, 250.0, -3.0),
        ),
        (
            SphericalCoordinates(latitude_deg=0.0, longitude_deg=179.9999, heading_deg=-90.0),
            (50.0, 0.0, 0.0),
        ),
    ],
)
def test_positions_match_the_independent_conversion(origin, local) -> None:
    """Within 1e-9° (0.1 mm) and 1e-6 m: Bowring's one step is that exact near the surface."""
    lat, lon, alt = LocalTangentPlane(origin).geodetic(*local)
    ref_lat, ref_lon, ref_alt = _reference(origin, local)
    assert lat == pytest.approx(ref_lat, abs=1e-9)
    assert lon == pytest.approx(ref_lon, abs=1e-9)
    assert alt == pytest.approx(ref_alt, abs=1e-6)


def test_heading_turns_the_world_frame_from_east_towards_north() -> None:
    """Heading 90° (gz-math's test): world +x is north, +y is west."""
    plane = LocalTangentPlane(SphericalCoordinates(latitude_deg=10.0, heading_deg=90.0))
    north = plane.geodetic(100.0, 0.0, 0.0)
    west = plane.geodetic(0.0, 100.0, 0.0)
    assert north[0] > 10.0 and north[1] == pytest.approx(0.0, abs=1e-12)
    assert west[1] < 0.0 and west[0] == pytest.approx(10.0, abs=1e-5)


def test_moon_and_custom_surfaces_use_their_axes() -> None:
    local = (300.0, 400.0, 5.0)
    moon = SphericalCoordinates(surface_model="MOON_SCS", latitude_deg=20.0, longitude_deg=30.0)
    expected = _reference(moon, local, *AXES["MOON_SCS"])
    assert LocalTangentPlane(moon).geodetic(*local) == pytest.approx(expected, abs=1e-9)
    custom = SphericalCoordinates(
        surface_model="CUSTOM_SURFACE",
        latitude_deg=20.0,
        surface_axis_equatorial=3_396_190.0,
        surface_axis_polar=3_376_200.0,
    )
    expected = _reference(custom, local, 3_396_190.0, 3_376_200.0)  # Mars
    assert LocalTangentPlane(custom).geodetic(*local) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    ("origin", "message"),
    [
        (
            SphericalCoordinates(surface_model="CUSTOM_SURFACE", surface_axis_equatorial=1.0),
            r"^custom surface axes 1\.0, 0\.0 m: need 0 < polar <= equatorial$",
        ),
        (SphericalCoordinates(surface_model="MARS"), r"^unknown surface model 'MARS'$"),
    ],
)
def test_surfaces_it_cannot_use_are_refused(origin, message) -> None:
    with pytest.raises(ValueError, match=message):
        LocalTangentPlane(origin)
