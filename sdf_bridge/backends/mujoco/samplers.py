"""IMU and force-torque readings in two steps: a cheap sample at read time, the conversion on
access.

At read time :meth:`ImuSampler.sample` / :meth:`WrenchSampler.sample` only take what the reading
needs that physics will overwrite: the suite copies MuJoCo's ``sensordata`` values of all IMU and
force-torque channels into one fresh array per read (the *snapshot*, shared by the samples of that
read); the IMU takes its noise row (:meth:`ImuNoise.take
<sdf_bridge.backends.mujoco.noise.NoiseStream.take>`); the ``parent``-frame force-torque copies the
site's and its parent body's world rotations. A sample is a tuple ``(sampler, snapshot, …)``;
:meth:`ImuSampler.convert` turns it into the reading with the operations the eager readers used, so
the same raw numbers give equal readings (``==``; the sign of a zero force or torque component may
differ, see :meth:`WrenchSampler.convert`):

- IMU: orientation (x, y, z, w) from MuJoCo's ``framequat`` (w, x, y, z); angular velocity
  (rad/s) and linear acceleration (m/s²) in the sensor frame, with noise (:mod:`.noise`).
- force-torque: ``s·f``, ``s·τ`` (s = −1 for SDFormat's ``child_to_parent``: MuJoCo measures
  what the parent exerts on the child subtree); frame ``sensor`` as measured (the site);
  ``child``: ``R·f`` and ``R·τ + p × R·f`` (R (3, 3), p (m): the site's pose in the child body;
  moment transfer to the child origin); ``parent``: ``Rₚᵀ·R_s`` applied to both (R_s, Rₚ: the
  world rotations of the site and of the child body's parent; moment about the site origin).
"""

from __future__ import annotations

from typing import Any

import mujoco
import numpy as np

from ..sensor_readings import ImuReading, WrenchReading
from .noise import ImuNoise

Sample = tuple[Any, ...]
"""``(sampler, snapshot, …)``: what a lazy reading holds until it is converted."""


class ImuSampler:
    """One IMU channel: offsets of its values in the snapshot, and its noise.

    Args:
        quat, gyro, acc: offsets in the snapshot of MuJoCo's ``framequat`` (4 values),
            ``gyro`` (3) and ``accelerometer`` (3).
        noise: the channel's noise, or ``None``.
    """

    __slots__ = ("quat", "gyro", "acc", "noise", "_contiguous", "_variances")

    def __init__(self, quat: int, gyro: int, acc: int, noise: ImuNoise | None) -> None:
        self.quat, self.gyro, self.acc, self.noise = quat, gyro, acc, noise
        self._contiguous = gyro == quat + 4 and acc == gyro + 3  # as SensorSuite.attach adds them
        self._variances = noise.variances() if noise is not None else (None, None)

    @property
    def plain(self) -> bool:
        """Whether :meth:`sample` is ``(self, snapshot)`` (no noise)."""
        return self.noise is None

    def sample(self, snapshot: np.ndarray) -> Sample:
        """The sample of this read: ``(self, snapshot)`` or, noisy, ``(self, snapshot, z)``
        (:meth:`ImuNoise.take <sdf_bridge.backends.mujoco.noise.NoiseStream.take>`: the noise sample
        index advances on every read)."""
        noise = self.noise
        if noise is None:
            return (self, snapshot)
        return (self, snapshot, noise.take())

    def convert(self, sample: Sample) -> ImuReading:
        """The :class:`ImuReading` of ``sample`` (a tuple from :meth:`sample`)."""
        snap = sample[1]
        a = self.quat
        if self._contiguous:  # one slice
            v = snap[a : a + 10].tolist()
        else:
            g, c = self.gyro, self.acc
            v = snap[a : a + 4].tolist() + snap[g : g + 3].tolist() + snap[c : c + 3].tolist()
        noise = self.noise
        if noise is None:
            return ImuReading((v[1], v[2], v[3], v[0]), (v[4], v[5], v[6]), (v[7], v[8], v[9]))
        gyro, acc = noise.apply(v, sample[2])
        return ImuReading((v[1], v[2], v[3], v[0]), gyro, acc, *self._variances)


class WrenchSampler:
    """One force-torque channel.

    Args:
        force, torque: offsets in the snapshot of MuJoCo's ``force`` and ``torque`` (3 each).
        sign: −1.0 for ``child_to_parent``, 1.0 for ``parent_to_child``.
        frame: ``sensor``, ``child`` or ``parent`` (any other value: ``sensor``).
        model, data: the compiled model and its data.
        site: the sensor's site id.

    ``child`` uses the site's rotation (3, 3) and position (m) in its body (from the model);
    ``parent`` copies ``data.site_xmat[site]`` and ``data.xmat[parent of the site's body]``
    (9 each) at each :meth:`sample`.
    """

    __slots__ = ("force", "torque", "sign", "frame", "rot", "pos", "_site_xmat", "_parent_xmat")

    def __init__(
        self,
        force: int,
        torque: int,
        sign: float,
        frame: str,
        model: mujoco.MjModel,
        data: mujoco.MjData,
        site: int,
    ) -> None:
        self.force, self.torque, self.sign, self.frame = force, torque, sign, frame
        self.rot: np.ndarray | None = None
        self.pos: list[float] | None = None
        if frame == "child":
            flat = np.zeros(9)
            mujoco.mju_quat2Mat(flat, model.site_quat[site])
            self.rot = flat.reshape(3, 3)
            self.pos = [float(v) for v in model.site_pos[site]]
        # (9,) views into data, refreshed by MuJoCo at every step: copied by sample()
        self._site_xmat = data.site_xmat[site]
        self._parent_xmat = data.xmat[int(model.body_parentid[int(model.site_bodyid[site])])]

    @property
    def plain(self) -> bool:
        """Whether :meth:`sample` is ``(self, snapshot)`` (not the ``parent`` frame)."""
        return self.frame != "parent"

    def sample(self, snapshot: np.ndarray) -> Sample:
        """``(self, snapshot)``, or for the ``parent`` frame ``(self, snapshot, site rotation
        (9,), parent rotation (9,))`` (copies, row-major world rotations)."""
        if self.frame == "parent":
            return (self, snapshot, self._site_xmat.copy(), self._parent_xmat.copy())
        return (self, snapshot)

    def convert(self, sample: Sample) -> WrenchReading:
        """The :class:`WrenchReading` (N, N·m) of ``sample`` (a tuple from :meth:`sample`).

        The rotations use ``ndarray.dot`` (the BLAS product ``@`` calls, with less overhead) on
        the raw values, then the sign: equal to the eager ``rot @ (sign·v)`` (round-to-nearest
        is symmetric under negation and ``sign`` is ±1; only a zero result's sign may differ),
        checked against the eager formulas on arbitrary data by the tests.
        """
        snap = sample[1]
        fa, ta = self.force, self.torque
        frame = self.frame
        if frame == "child":
            rot, pos = self.rot, self.pos
            assert rot is not None and pos is not None
            f = rot.dot(snap[fa : fa + 3]).tolist()
            t = rot.dot(snap[ta : ta + 3]).tolist()
        elif frame == "parent":
            r = sample[3].reshape(3, 3).T.dot(sample[2].reshape(3, 3))
            f = r.dot(snap[fa : fa + 3]).tolist()
            t = r.dot(snap[ta : ta + 3]).tolist()
        else:
            f = snap[fa : fa + 3].tolist()
            t = snap[ta : ta + 3].tolist()
        if self.sign < 0.0:  # SDFormat child_to_parent: exact negation
            f = [-f[0], -f[1], -f[2]]
            t = [-t[0], -t[1], -t[2]]
        if frame == "child":
            cross = (
                pos[1] * f[2] - pos[2] * f[1],
                pos[2] * f[0] - pos[0] * f[2],
                pos[0] * f[1] - pos[1] * f[0],
            )
            return WrenchReading(
                (f[0], f[1], f[2]), (t[0] + cross[0], t[1] + cross[1], t[2] + cross[2])
            )
        return WrenchReading((f[0], f[1], f[2]), (t[0], t[1], t[2]))
