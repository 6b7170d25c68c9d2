"""A world's <magnetic_field> and <spherical_coordinates>, read as libsdformat's sdf::World."""

from __future__ import annotations

import pytest

from sdf_bridge.description import load, load_with_warnings
from sdf_bridge.description.model import (
    DEFAULT_MAGNETIC_FIELD,
    Environment,
    Robot,
    SphericalCoordinates,
    World,
)
from sdf_bridge.description.world import select_robot
from sdf_bridge.errors import InvalidValueError


def _world(inner: str, *, robots: int = 1) -> str:
    models = "".join(f'<model name="bot{k}"><link name="l"/></model>' for k in range(robots))
    return f'<?xml version="1.0"?><sdf version="1.9"><world name="w">{inner}{models}</world></sdf>'


def _spherical(**tags: str) -> str:
    return (
        "<spherical_coordinates>"
        + "".join(f"<{tag}>{text}</{tag}>" for tag, text in tags.items())
        + "</spherical_coordinates>"
    )


def test_a_world_without_them_has_the_sdformat_defaults() -> None:
    robot = load(_world(""))
    assert robot.environment == Environment()
    assert robot.environment.magnetic_field == (5.5645e-6, 22.8758e-6, -42.3884e-6)
    assert robot.environment.spherical_coordinates is None
    assert DEFAULT_MAGNETIC_FIELD == (5.5645e-6, 22.8758e-6, -42.3884e-6)


def test_a_robot_not_from_a_world_has_the_defaults() -> None:
    robot = load('<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>')
    assert robot.environment == Environment()


def test_values_are_read_and_the_chosen_robot_carries_them() -> None:
    text = _world(
        "<magnetic_field>1e-5 -2e-5 3.5e-5</magnetic_field>"
        + _spherical(
            surface_model="MOON_SCS",
            world_frame_orientation="ENU",
            latitude_deg="-22.9",
            longitude_deg="-43.2",
            elevation="12.5",
            heading_deg="30",
        ),
        robots=2,
    )
    world = load(text)
    assert isinstance(world, World)
    expected = Environment(
        magnetic_field=(1e-5, -2e-5, 3.5e-5),
        spherical_coordinates=SphericalCoordinates(
            surface_model="MOON_SCS",
            latitude_deg=-22.9,
            longitude_deg=-43.2,
            elevation=12.5,
            heading_deg=30.0,
        ),
    )
    assert world.environment == expected
    robot = select_robot(world, "bot1")
    assert isinstance(robot, Robot) and robot.environment == expected


def test_absent_spherical_children_take_their_defaults() -> None:
    robot = load(_world(_spherical(latitude_deg="10")))
    assert robot.environment.spherical_coordinates == SphericalCoordinates(latitude_deg=10.0)


def test_a_custom_surface_keeps_its_axes() -> None:
    robot = load(
        _world(
            _spherical(
                surface_model="CUSTOM_SURFACE",
                surface_axis_equatorial="1000",
                surface_axis_polar="900",
            )
        )
    )
    assert robot.environment.spherical_coordinates == SphericalCoordinates(
        surface_model="CUSTOM_SURFACE", surface_axis_equatorial=1000.0, surface_axis_polar=900.0
    )


def test_custom_axes_gz_math_refuses_become_wgs84_with_a_warning() -> None:
    robot, warnings = load_with_warnings(
        _world(
            _spherical(
                surface_model="CUSTOM_SURFACE",
                surface_axis_equatorial="900",
                surface_axis_polar="1000",
            )
        )
    )
    assert robot.environment.spherical_coordinates == SphericalCoordinates()
    assert warnings == [
        "<string>:1: <spherical_coordinates>: CUSTOM_SURFACE axes equatorial 900 m, polar 1000 m "
        "are not 0 < polar <= equatorial; WGS 84's are used, as gz-math does"
    ]


def test_a_latitude_beyond_90_degrees_is_used_with_a_warning() -> None:
    robot, warnings = load_with_warnings(_world(_spherical(latitude_deg="100")))
    assert robot.environment.spherical_coordinates == SphericalCoordinates(latitude_deg=100.0)
    assert warnings == [
        "<string>:1: <latitude_deg>: <latitude_deg> is 100, beyond ±90°; used as written, as "
        "gz-math does"
    ]


@pytest.mark.parametrize(
    ("inner", "message"),
    [
        (
            _spherical(surface_model="EARTH_GRS80"),
            r"^<string>:1: <surface_model>: <surface_model> is 'EARTH_GRS80', which libsdformat "
            r"does not support\. Fix: use one of EARTH_WGS84, MOON_SCS, CUSTOM_SURFACE$",
        ),
        (
            _spherical(world_frame_orientation="NED"),
            r"<world_frame_orientation> is 'NED', which libsdformat does not support\. Fix: use "
            r"ENU \(turn the world frame with <heading_deg>\)$",
        ),
        (
            _spherical(latitude_deg="north"),
            r"<latitude_deg>: <spherical_coordinates><latitude_deg> is 'north', not a number\. "
            r"Fix: write <spherical_coordinates><latitude_deg> as a decimal number$",
        ),
        (
            _spherical(heading_deg="inf"),
            r"<spherical_coordinates><heading_deg> is 'inf', not finite",
        ),
        (
            _spherical(surface_model="CUSTOM_SURFACE", surface_axis_equatorial="1000"),
            r"<spherical_coordinates>: a CUSTOM_SURFACE needs <surface_axis_polar>\. Fix: give "
            r"the surface's semi-axes in m: <surface_axis_equatorial> and <surface_axis_polar>$",
        ),
        (
            "<magnetic_field>1 2</magnetic_field>",
            r"<magnetic_field>: <magnetic_field> is '1 2': expected 3 numbers, got 2\. Fix: write "
            r"<magnetic_field> as 3 space-separated numbers$",
        ),
    ],
)
def test_bad_values_are_errors(inner: str, message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        load(_world(inner))
