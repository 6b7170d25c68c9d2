"""The sensor readings of one read: a read-only mapping that converts IMU and force-torque samples
on access."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..sensor_readings import SensorReading


class SensorReadings(Mapping[str, SensorReading]):
    """Sensor name → reading, for the sensors due at one read (in the suite's sensor order).

    Built from a dict whose values are readings or *samples*: tuples ``(sampler, …)`` (see
    :mod:`.samplers`) that hold copies of the raw numbers taken at read time. A sample is
    converted by ``sampler.convert(sample)`` on its first access (``m[name]``, ``.items()``,
    ``.values()``, ``.get``, ``dict(m)``, ``{**m}``, ``==``) and the reading is cached, so
    accessing twice gives the same object and readings do not change when physics steps on.
    ``in``, ``len``, iteration and ``.keys()`` convert nothing. Not a dict: copy it with
    ``dict(m)``. Concurrent first accesses from two threads may both convert (to equal readings).

    The dict passed in is owned by the mapping afterwards (not copied).
    """

    __slots__ = ("_items",)

    def __init__(self, items: dict[str, Any]) -> None:
        self._items = items

    def __getitem__(self, name: str) -> SensorReading:
        value = self._items[name]
        if type(value) is tuple:  # a sample (readings are dataclasses, never tuples)
            value = self._items[name] = value[0].convert(value)
        return value

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self)!r})"


def with_readings(
    readings: Mapping[str, Any], extra: Mapping[str, SensorReading]
) -> Mapping[str, Any]:
    """``readings`` (a :class:`SensorReadings`, a dict, or a read-only empty mapping) with the
    readings of ``extra`` added after its own; ``readings`` itself when ``extra`` is empty. A
    :class:`SensorReadings` or dict is extended in place (each read's mapping is fresh)."""
    if not extra:
        return readings
    if isinstance(readings, SensorReadings):
        readings._items.update(extra)
        return readings
    if isinstance(readings, dict):
        readings.update(extra)
        return readings
    return {**readings, **extra}
