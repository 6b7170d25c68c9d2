"""IMU noise as a function of (seed, sensor name, sample index): the documented stream, the
arithmetic, the errors."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from sdf_bridge.backends.mujoco.noise import BLOCK, ImuNoise, channel_seed
from sdf_bridge.description.model import Noise
from sdf_bridge.errors import BackendError

GYRO = tuple(
    Noise(type="gaussian", mean=0.1 * k, stddev=0.2, bias_mean=0.3, bias_stddev=0.1)
    for k in range(3)
)
ACC = tuple(
    Noise(type="gaussian", mean=-0.1, stddev=0.5 + k, bias_mean=0.0, bias_stddev=0.2)
    for k in range(3)
)
NONE3 = (Noise(), Noise(), Noise())
ROOT = np.random.SeedSequence(7)


def _reference(parts: tuple[tuple[Noise, ...], ...], name: str, n: int) -> tuple[list, np.ndarray]:
    """The module doc's stream, written out: biases of the parts in order, then blocks."""
    rng = np.random.default_rng(np.random.SeedSequence(7, spawn_key=(zlib.crc32(name.encode()),)))
    terms = []
    for part in parts:
        for noise in part:
            bias = (
                rng.normal(noise.bias_mean, noise.bias_stddev) * rng.choice((-1.0, 1.0))
                if noise.bias_stddev or noise.bias_mean
                else 0.0
            )
            terms.append((bias, noise.mean, noise.stddev))
    width = 3 * len(parts)
    blocks = [rng.standard_normal((BLOCK, width)) for _ in range(-(-n // BLOCK))]
    return terms, np.concatenate(blocks)[:n]


def test_stream_is_biases_then_blocks_of_the_named_generator() -> None:
    """Sample k uses row k % BLOCK of block k // BLOCK (checked across a block boundary)."""
    noise = ImuNoise(GYRO, ACC, channel_seed(ROOT, "imu"))
    terms, z = _reference((GYRO, ACC), "imu", BLOCK + 5)
    assert noise.terms == terms
    assert np.array_equal(np.array([noise.take() for _ in range(BLOCK + 5)]), z)


def test_one_part_noisy_draws_three_columns() -> None:
    noise = ImuNoise(None, ACC, channel_seed(ROOT, "imu"))
    terms, z = _reference((ACC,), "imu", 3)
    assert (noise.start, noise.stop) == (3, 6) and noise.terms == terms
    assert np.array_equal(np.array([noise.take() for _ in range(3)]), z)
    gyro_only = ImuNoise(GYRO, NONE3, channel_seed(ROOT, "imu"))
    assert (gyro_only.start, gyro_only.stop) == (0, 3) and len(gyro_only.take()) == 3


def test_channel_seed_depends_on_seed_and_name_only() -> None:
    a = ImuNoise(GYRO, ACC, channel_seed(np.random.SeedSequence(7), "imu"))
    b = ImuNoise(GYRO, ACC, channel_seed(np.random.SeedSequence(7), "imu"))
    other_name = ImuNoise(GYRO, ACC, channel_seed(np.random.SeedSequence(7), "imu2"))
    other_seed = ImuNoise(GYRO, ACC, channel_seed(np.random.SeedSequence(8), "imu"))
    first = a.take()
    assert b.take() == first
    assert other_name.take() != first and other_seed.take() != first


@pytest.mark.parametrize(("gyro", "acc"), [(GYRO, ACC), (GYRO, None), (NONE3, ACC)])
def test_apply_is_value_plus_bias_plus_mean_plus_z_stddev(gyro, acc) -> None:
    """Exact: ((v + bias) + mean) + z·stddev on the noisy part(s), the other part unchanged."""
    noise = ImuNoise(gyro, acc, channel_seed(ROOT, "imu"))
    v = [0.5, 0.5, -0.5, 0.5, 1.0, -2.0, 3.0, 9.81, 0.0, -0.5]
    z = noise.take()
    expected = v[4:]
    noisy = range(noise.start, noise.stop)
    for (b, m, s), k, w in zip(noise.terms, noisy, z):
        expected[k] = v[4 + k] + b + m + w * s
    gyro_out, acc_out = noise.apply(v, z)
    assert gyro_out + acc_out == tuple(expected)
    assert all(gyro_out[k] == v[4 + k] for k in range(3) if k not in noisy)
    assert all(acc_out[k - 3] == v[4 + k] for k in range(3, 6) if k not in noisy)


def test_create_gives_none_without_gaussian_noise() -> None:
    assert ImuNoise.create(None, NONE3, ROOT) is None
    assert isinstance(ImuNoise.create(None, ACC, ROOT), ImuNoise)


def test_errors() -> None:
    with pytest.raises(
        BackendError, match="needs an angular velocity or linear acceleration gaussian noise"
    ):
        ImuNoise(NONE3, None, ROOT)
    with pytest.raises(BackendError, match=r"IMU noise needs 3 axes \(x, y, z\), got 2"):
        ImuNoise(GYRO[:2], ACC, ROOT)
