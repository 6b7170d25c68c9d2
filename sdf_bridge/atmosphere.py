"""Air pressure at an altitude, as Gazebo's air pressure sensor computes it.

gz-sensors ``src/AirPressureSensor.cc`` (``AirPressureSensor::Update``, after RotorS'
``gazebo_pressure_plugin``) uses the troposphere layer of the U.S. Standard Atmosphere 1976
(NOAA/NASA/USAF, NOAA-S/T 76-1562, equation 33a with its base values):

- altitude ``z`` = ``<reference_altitude>`` + the sensor's world z (m, geometric);
- geopotential altitude ``H = r₀·z / (r₀ + z)`` with r₀ = 6356766 m;
- temperature ``T = T₀ − L·H`` with T₀ = 288.15 K, L = 0.0065 K/m;
- pressure ``P = P₀·(T₀ / T)^(−g₀·M / (R*·L))`` = ``P₀·(T / T₀)^(g₀·M / (R*·L))`` with
  P₀ = 101325 Pa, g₀ = 9.80665 m/s², M = 28.9644 kg/kmol, R* = 8314.32 N·m/(kmol·K).

The layer holds up to 11 km geopotential altitude (the 1976 standard's next layer is
isothermal); Gazebo uses the formula at every altitude, and so does this module.
"""

from __future__ import annotations

import math

EARTH_RADIUS = 6356766.0
"""r₀, m (the 1976 standard's radius for geopotential altitude)."""
SEA_LEVEL_PRESSURE = 101325.0
"""P₀, Pa."""
SEA_LEVEL_TEMPERATURE = 288.15
"""T₀, K."""
LAPSE_RATE = 0.0065
"""L, K/m (temperature falls with altitude)."""
EXPONENT = 9.80665 * 28.9644 / (8314.32 * LAPSE_RATE)
"""g₀·M / (R*·L) ≈ 5.25588, dimensionless."""


def air_pressure(altitude: float) -> float:
    """Static air pressure (Pa) at geometric ``altitude`` (m above sea level; negative below),
    by the formula of the module docstring. Where the formula has no value it gives what
    Gazebo's C arithmetic gives, never an exception: 0.0 where the layer's temperature
    reaches 0 K (44.6 km), NaN beyond it and at or below −r₀."""
    if altitude <= -EARTH_RADIUS:
        return math.nan
    geopotential = EARTH_RADIUS * altitude / (EARTH_RADIUS + altitude)
    temperature = SEA_LEVEL_TEMPERATURE - LAPSE_RATE * geopotential
    if temperature <= 0.0:
        return 0.0 if temperature == 0.0 else math.nan
    return SEA_LEVEL_PRESSURE * math.exp(EXPONENT * math.log(temperature / SEA_LEVEL_TEMPERATURE))


__all__ = ["EXPONENT", "air_pressure"]
