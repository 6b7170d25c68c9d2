"""Gaussian sensor noise that is a function of (seed, sensor name, sample index).

Each noisy sensor (IMU: :class:`ImuNoise`; NavSat, magnetometer, air pressure:
:class:`VectorNoise`) gets its own ``numpy.random.Generator``, seeded from
``SeedSequence(seed, spawn_key=(crc32(name),))`` (:func:`channel_seed`): its stream depends
only on the backend's ``noise_seed`` and the sensor's name, not on the other sensors, on the
order readings are read in, or on which readings a caller looks at. From that generator,
in this order:

1. the biases, once (Gazebo's convention, :func:`draw_bias`): for each noisy value (IMU: each
   axis of the angular velocity then of the linear acceleration, only the parts with an
   active noise, see :class:`ImuNoise`), when ``bias_mean`` or ``bias_stddev`` is non-zero,
   ``normal(bias_mean, bias_stddev)`` times a sign ``choice((-1, 1))``, else 0;
2. the unit normal values, in blocks ``standard_normal((BLOCK, width))`` (``width``: the number
   of noisy values; an IMU's is 6 when both parts are noisy, else 3): sample ``k`` (0, 1, …
   counted over the channel's life) uses row ``k % BLOCK`` of block ``k // BLOCK``.

A sample's value is ``((value + bias) + mean) + z·stddev`` per axis (the SDFormat ``gaussian``
noise; ``gaussian_quantized`` is treated as ``gaussian``).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import TypeGuard

import numpy as np

from ...description.model import Noise
from ...errors import BackendError

BLOCK = 256
"""Samples drawn per block (rows of one ``standard_normal((BLOCK, width))`` call)."""


def channel_seed(root: np.random.SeedSequence, name: str) -> np.random.SeedSequence:
    """The seed of sensor ``name``'s generator: ``root``'s entropy with spawn key
    ``(crc32(name utf-8),)`` (a stable hash: the same on every run and platform)."""
    return np.random.SeedSequence(root.entropy, spawn_key=(zlib.crc32(name.encode("utf-8")),))


def _active(noises: tuple[Noise, ...] | None) -> TypeGuard[tuple[Noise, ...]]:
    return noises is not None and any(n.type.startswith("gaussian") for n in noises)


def draw_bias(rng: np.random.Generator, noise: Noise) -> float:
    """A value's bias, drawn once: ``normal(bias_mean, bias_stddev)·choice((-1, 1))`` when either
    is non-zero (Gazebo's ``GaussianNoiseModel``), else 0 (nothing drawn)."""
    if noise.bias_stddev or noise.bias_mean:
        return float(rng.normal(noise.bias_mean, noise.bias_stddev) * rng.choice((-1.0, 1.0)))
    return 0.0


class NoiseStream:
    """The unit normal values of one channel, ``width`` per sample, drawn in blocks of
    :data:`BLOCK` samples from ``rng`` (module doc, step 2)."""

    __slots__ = ("_rng", "_rows", "_width")

    def __init__(self, rng: np.random.Generator, width: int) -> None:
        self._rng = rng
        self._width = width
        self._rows: Iterator[list[float]] = iter(())

    def take(self) -> list[float]:
        """The unit normal values of the next sample (width floats: row ``k % BLOCK`` of block
        ``k // BLOCK``); draws a new block every :data:`BLOCK` samples."""
        z = next(self._rows, None)
        if z is None:
            self._rows = iter(self._rng.standard_normal((BLOCK, self._width)).tolist())
            z = next(self._rows)
        return z


class VectorNoise(NoiseStream):
    """The noise of a channel of ``n`` values, each with its own SDFormat ``<noise>``.

    A value whose noise is ``gaussian*`` gets ``((value + bias) + mean) + z·stddev``
    (:func:`draw_bias` once per such value, in order); the others pass unchanged. ``width``
    is the number of noisy values.

    Attributes:
        noisy: per value, whether it has a gaussian noise.
        terms: per value ``(bias, mean, stddev)`` in its unit (zeros when not noisy).

    Raises:
        BackendError: no value has a gaussian noise (use no :class:`VectorNoise` then:
            see :meth:`create`).
    """

    __slots__ = ("noisy", "terms")

    def __init__(self, noises: tuple[Noise | None, ...], seed: np.random.SeedSequence) -> None:
        noisy = tuple(n is not None and n.type.startswith("gaussian") for n in noises)
        if not any(noisy):
            raise BackendError("VectorNoise needs a gaussian noise on one of its values")
        rng = np.random.default_rng(seed)
        super().__init__(rng, sum(noisy))
        self.noisy = noisy
        self.terms = tuple(
            (draw_bias(rng, n), n.mean, n.stddev) if active and n is not None else (0.0, 0.0, 0.0)
            for n, active in zip(noises, noisy)
        )

    @classmethod
    def create(
        cls, noises: tuple[Noise | None, ...], seed: np.random.SeedSequence
    ) -> VectorNoise | None:
        """A :class:`VectorNoise`, or ``None`` when no value has a gaussian noise."""
        if any(n is not None and n.type.startswith("gaussian") for n in noises):
            return cls(noises, seed)
        return None

    def variances(self) -> tuple[float, ...]:
        """``stddev²`` per value (0 for a value without noise), in its unit squared."""
        return tuple(s * s for _, _, s in self.terms)

    def apply(self, values: tuple[float, ...], z: list[float]) -> tuple[float, ...]:
        """``values`` with the noise of sample ``z`` (a :meth:`take`) on the noisy ones."""
        out = []
        k = 0
        for value, active, (bias, mean, std) in zip(values, self.noisy, self.terms):
            if active:
                value = value + bias + mean + z[k] * std
                k += 1
            out.append(value)
        return tuple(out)


class ImuNoise(NoiseStream):
    """The noise of one IMU channel (angular velocity and linear acceleration, 3 axes each).

    A part (angular velocity, linear acceleration) is noisy when one of its axes has a
    ``gaussian*`` noise; then all three of its axes get ``mean``, ``stddev`` and bias (a
    ``none`` axis has zeros: its value passes unchanged, up to the sign of a zero).

    Attributes:
        start, stop: the slice of the 6 values ``gyro + acc`` the noise applies to: (0, 6),
            (0, 3) or (3, 6).
        terms: per noisy axis ``(bias, mean, stddev)`` in the quantity's unit.

    Raises:
        BackendError: a part does not have exactly 3 noises, or neither part is noisy (use no
            :class:`ImuNoise` then: see :meth:`create`).
    """

    __slots__ = ("start", "stop", "terms", "_bias", "_mean", "_std")

    def __init__(
        self,
        gyro: tuple[Noise, ...] | None,
        acc: tuple[Noise, ...] | None,
        seed: np.random.SeedSequence,
    ) -> None:
        parts = [p for p in (gyro, acc) if _active(p)]
        if not parts:
            raise BackendError(
                "ImuNoise needs an angular velocity or linear acceleration gaussian noise"
            )
        for part in parts:
            if len(part) != 3:
                raise BackendError(f"IMU noise needs 3 axes (x, y, z), got {len(part)}")
        rng = np.random.default_rng(seed)
        self.start = 0 if _active(gyro) else 3
        self.stop = 6 if _active(acc) else 3
        terms = [
            (draw_bias(rng, n), float(n.mean), float(n.stddev)) for part in parts for n in part
        ]
        self.terms: list[tuple[float, float, float]] = terms
        # per axis of gyro + acc (zeros on the part without noise, never used), for apply()
        pad = [(0.0, 0.0, 0.0)] * 3
        full = (terms + pad) if self.stop == 3 else (pad + terms) if self.start == 3 else terms
        self._bias, self._mean, self._std = ([t[k] for t in full] for k in range(3))
        super().__init__(rng, len(terms))

    @classmethod
    def create(
        cls,
        gyro: tuple[Noise, ...] | None,
        acc: tuple[Noise, ...] | None,
        seed: np.random.SeedSequence,
    ) -> ImuNoise | None:
        """An :class:`ImuNoise`, or ``None`` when neither part has a gaussian noise."""
        return cls(gyro, acc, seed) if _active(gyro) or _active(acc) else None

    def variances(
        self,
    ) -> tuple[tuple[float, float, float] | None, tuple[float, float, float] | None]:
        """The noise variance per axis, ``stddev²``, of the angular velocity ((rad/s)²) and of
        the linear acceleration ((m/s²)²); ``None`` for a part without noise."""
        var = [s * s for s in self._std]
        gyro = (var[0], var[1], var[2]) if self.start == 0 else None
        acc = (var[3], var[4], var[5]) if self.stop == 6 else None
        return gyro, acc

    def apply(
        self, v: list[float], z: list[float]
    ) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
        """The angular velocity (rad/s) and linear acceleration (m/s²) with noise on the noisy
        part(s): ``((value + bias) + mean) + z·stddev`` per axis, the other part unchanged.

        Args:
            v: 10 floats: orientation (4, unused), angular velocity (3), linear acceleration (3).
            z: a :meth:`take` (width floats, in the order of :attr:`terms`).
        """
        b, m, s = self._bias, self._mean, self._std
        if self.start == 3:  # acceleration only
            return (v[4], v[5], v[6]), (
                v[7] + b[3] + m[3] + z[0] * s[3],
                v[8] + b[4] + m[4] + z[1] * s[4],
                v[9] + b[5] + m[5] + z[2] * s[5],
            )
        gyro = (
            v[4] + b[0] + m[0] + z[0] * s[0],
            v[5] + b[1] + m[1] + z[1] * s[1],
            v[6] + b[2] + m[2] + z[2] * s[2],
        )
        if self.stop == 3:  # angular velocity only
            return gyro, (v[7], v[8], v[9])
        return gyro, (
            v[7] + b[3] + m[3] + z[3] * s[3],
            v[8] + b[4] + m[4] + z[4] * s[4],
            v[9] + b[5] + m[5] + z[5] * s[5],
        )
