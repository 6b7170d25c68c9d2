"""Air pressure (sdf_bridge.atmosphere) against the U.S. Standard Atmosphere 1976 table."""

from __future__ import annotations

import math

import pytest

from sdf_bridge.atmosphere import EXPONENT, air_pressure


@pytest.mark.parametrize(
    ("altitude", "table"),
    [
        # geometric altitude (m) → pressure (Pa) of the 1976 standard's table (5 significant
        # digits): the tolerance is half its last digit
        (-500.0, 107480.0),
        (0.0, 101325.0),
        (1000.0, 89876.0),
        (5000.0, 54048.0),
        (11000.0, 22700.0),
    ],
)
def test_the_1976_table(altitude: float, table: float) -> None:
    digit = 10.0 ** (math.floor(math.log10(table)) - 4)
    assert air_pressure(altitude) == pytest.approx(table, abs=digit / 2)


def test_sea_level_is_one_atmosphere_exactly() -> None:
    assert air_pressure(0.0) == 101325.0


def test_the_exponent() -> None:
    """g₀·M / (R*·L) = 9.80665 · 28.9644 / (8314.32 · 0.0065) ≈ 5.25588 (the standard's)."""
    assert EXPONENT == pytest.approx(5.25588, abs=5e-6)


def test_where_the_layer_ends_as_gazebo() -> None:
    """0 K at geopotential 288.15 / 0.0065 m: 0 Pa there, NaN beyond and at the planet's centre."""
    top = 288.15 / 0.0065
    geometric = 6356766.0 * top / (6356766.0 - top)
    assert air_pressure(geometric + 1.0) != air_pressure(geometric + 1.0)  # NaN
    assert air_pressure(geometric - 1.0) == pytest.approx(0.0, abs=1e-9)
    assert math.isnan(air_pressure(-6356766.0))
