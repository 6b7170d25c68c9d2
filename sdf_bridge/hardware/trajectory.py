"""Joint trajectories (``trajectory_msgs/JointTrajectory``) sampled against the bridge's clock.

Interpolation per segment ``[t_k, t_k+1]`` of duration ``T``, with ``s = (t − t_k)/T``:

* positions only: linear, ``p = p_k + s (p_k+1 − p_k)``;
* with velocities: cubic Hermite (Hermite basis h00 = 2s³−3s²+1, h10 = s³−2s²+s,
  h01 = −2s³+3s², h11 = s³−s²), ``p = h00 p_k + h10 T v_k + h01 p_k+1 + h11 T v_k+1``;
* with velocities and accelerations: quintic polynomial matching position, velocity and
  acceleration at both ends (the spline joint_trajectory_controller uses).

When the first point's ``time_from_start`` is > 0 the trajectory starts from the current state
(position; velocity for cubic/quintic; zero acceleration) at the start time, as
joint_trajectory_controller does. Before the start the first sample is held; after the last
point the last point's position is held with zero velocity. Points may cover any subset of the
commandable joints; other joints are not touched.

Start times in the past (a ``header.stamp`` older than "now"), as joint_trajectory_controller:

* a trajectory whose last point is already in the past is rejected
  (:class:`~sdf_bridge.errors.TrajectoryInPastError`, reason ``trajectory_in_past``);
* one that started in the past but ends in the future is followed from its sample at "now":
  the part before "now" is skipped. Its segment from the current state to the first point,
  when that point is still ahead, starts at "now" (the current state is the state now, not at
  the stamp); when the first point is already behind, the robot is commanded the trajectory's
  sample at "now" at once (the joint limiter bounds the step).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..description.magnitudes import MAX_MAGNITUDE
from ..errors import CommandError, TrajectoryInPastError


def _matrix(
    points: Sequence[Sequence[float]] | np.ndarray | None,
    n_points: int,
    n_joints: int,
    what: str,
    *,
    required: bool,
) -> np.ndarray | None:
    """(n_points, n_joints) array from per-point lists that are all full or all empty."""
    if points is None or len(points) == 0:
        if required:
            raise CommandError(f"trajectory has no {what}. Fix: give {what} for every point.")
        return None
    if len(points) != n_points:
        raise CommandError(
            f"trajectory has {len(points)} {what} entries for {n_points} points. "
            f"Fix: give {what} for every point or for none."
        )
    if isinstance(points, np.ndarray) and points.ndim == 2:  # (no Python loop over 10^5 rows)
        lengths = {points.shape[1]}
    else:
        lengths = {len(p) for p in points}
    if lengths == {0} and not required:
        return None
    if lengths != {n_joints}:
        raise CommandError(
            f"trajectory {what} have lengths {sorted(lengths)} for {n_joints} joints. Fix: every "
            f"point needs {n_joints} {what} (or, for velocities/accelerations, none at all)."
        )
    try:
        array = np.asarray(points, dtype=float).reshape(n_points, n_joints)
    except (TypeError, ValueError) as exc:
        raise CommandError(f"trajectory {what} are not numbers: {exc}") from None
    if not np.isfinite(array).all():
        raise CommandError(f"trajectory {what} contain NaN or inf. Fix: give finite values.")
    if (np.abs(array) > MAX_MAGNITUDE).any():
        raise CommandError(
            f"trajectory {what} go beyond ±{MAX_MAGNITUDE:g} (no robot moves that far, that "
            "fast or that hard: a typo?). Fix: give values within it."
        )
    return array


@dataclass(frozen=True)
class Trajectory:
    """A validated trajectory for ``names`` (m joints) with knots at absolute times.

    Attributes:
        names: joint names (m,).
        times: absolute knot times (k,), s, strictly increasing.
        positions: (k, m) rad or m. velocities/accelerations: (k, m) or ``None``.
    """

    names: tuple[str, ...]
    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray | None
    accelerations: np.ndarray | None

    @property
    def end_time(self) -> float:
        """Absolute time of the last point, s."""
        return float(self.times[-1])

    @property
    def kind(self) -> str:
        """``"linear"``, ``"cubic"`` or ``"quintic"``."""
        if self.velocities is None:
            return "linear"
        return "cubic" if self.accelerations is None else "quintic"

    @classmethod
    def build(
        cls,
        names: Sequence[str],
        times: Sequence[float] | np.ndarray,
        positions: Sequence[Sequence[float]] | np.ndarray,
        velocities: Sequence[Sequence[float]] | np.ndarray | None,
        accelerations: Sequence[Sequence[float]] | np.ndarray | None,
        *,
        start: float,
        current_position: np.ndarray | None,
        current_velocity: np.ndarray | None = None,
        now: float | None = None,
    ) -> "Trajectory":
        """Validate a trajectory message and anchor it at ``start`` (s).

        Args:
            names: joint names (m,), unique, non-empty.
            times: ``time_from_start`` of each point (k,), s, ≥ 0, strictly increasing.
            positions, velocities, accelerations: per point, m values each (velocities and
                accelerations may be empty for every point; accelerations need velocities).
            start: absolute time (s) the trajectory starts at.
            current_position, current_velocity: (m,) current state, used as the start point
                when ``times[0] > 0`` (velocity treated as 0 when ``None``).
            now: the current time (s, the clock of ``start``), for a ``start`` in the past (module
                doc); ``None``: ``start`` is taken as now.

        Raises:
            TrajectoryInPastError: the last point (``start + times[-1]``) is before ``now``.
            CommandError: empty or duplicate names, no points, bad times, wrong array sizes,
                non-finite values, accelerations without velocities, or no current state when
                one is needed.
        """
        names = tuple(names)
        m = len(names)
        if m == 0:
            raise CommandError("trajectory names no joints. Fix: fill joint_names.")
        if len(set(names)) != m:
            raise CommandError(f"trajectory names joints more than once: {list(names)}")
        k = len(times)
        if k == 0:
            raise CommandError(
                "trajectory has no points. Fix: give at least one point (to stop where the "
                "joints are: one point at their current positions)."
            )
        t = np.asarray(times, dtype=float).reshape(k)
        # (the first bad point named, not the list: a trajectory may have 10^5 points)
        bad = np.flatnonzero(~np.isfinite(t) | (t < 0))
        if bad.size:
            raise CommandError(
                f"trajectory point {bad[0]} of {k} has time {float(t[bad[0]])!r}: times must be "
                "finite and >= 0"
            )
        bad = np.flatnonzero(np.diff(t) <= 0)
        if bad.size:
            i = int(bad[0]) + 1
            raise CommandError(
                f"trajectory times are not strictly increasing: point {i} of {k} at "
                f"{float(t[i])!r} s after point {i - 1} at {float(t[i - 1])!r} s. "
                "Fix: order the points by time_from_start."
            )
        p = _matrix(positions, k, m, "positions", required=True)
        v = _matrix(velocities, k, m, "velocities", required=False)
        a = _matrix(accelerations, k, m, "accelerations", required=False)
        if a is not None and v is None:
            raise CommandError(
                "trajectory has accelerations but no velocities. Fix: give velocities too."
            )
        assert p is not None
        if now is None:
            now = start
        elif start + t[-1] < now:
            raise TrajectoryInPastError(
                f"trajectory ends {now - start - t[-1]:.6g} s in the past (header.stamp + the "
                "last point's time_from_start is before now). Fix: stamp it now or later, "
                "or 0 to start on receipt."
            )
        first = max(start, now)  # the current state is the state now, not at a past stamp
        if first < start + t[0]:
            if current_position is None or not np.isfinite(current_position).all():
                raise CommandError(
                    "trajectory starts after time 0 but the current joint state is unknown. "
                    "Fix: read the state first, or give a first point at time 0."
                )
            t = np.concatenate(([first - start], t))
            p = np.vstack((np.asarray(current_position, dtype=float).reshape(1, m), p))
            if v is not None:
                v0 = np.zeros(m)
                if current_velocity is not None:
                    v0 = np.nan_to_num(np.asarray(current_velocity, dtype=float))
                v = np.vstack((v0.reshape(1, m), v))
            if a is not None:
                a = np.vstack((np.zeros((1, m)), a))
        return cls(names, t + start, p, v, a)

    def sample(self, now: float) -> tuple[np.ndarray, np.ndarray | None, bool]:
        """Position (m,), velocity (m,) or ``None`` (linear), and whether the end is reached.

        Velocities of linear trajectories are not returned (position-only command)."""
        times = self.times
        if now >= times[-1]:
            velocity = None if self.velocities is None else np.zeros(len(self.names))
            return self.positions[-1].copy(), velocity, True
        if now <= times[0]:
            velocity = None if self.velocities is None else self.velocities[0].copy()
            return self.positions[0].copy(), velocity, False
        k = int(np.searchsorted(times, now, side="right")) - 1
        duration = times[k + 1] - times[k]
        s = (now - times[k]) / duration
        p0, p1 = self.positions[k], self.positions[k + 1]
        if self.velocities is None:
            return p0 + s * (p1 - p0), None, False
        v0, v1 = self.velocities[k], self.velocities[k + 1]
        if self.accelerations is None:
            s2, s3 = s * s, s * s * s
            position = (
                (2 * s3 - 3 * s2 + 1) * p0
                + (s3 - 2 * s2 + s) * duration * v0
                + (-2 * s3 + 3 * s2) * p1
                + (s3 - s2) * duration * v1
            )
            velocity = (
                (6 * s2 - 6 * s) / duration * p0
                + (3 * s2 - 4 * s + 1) * v0
                + (-6 * s2 + 6 * s) / duration * p1
                + (3 * s2 - 2 * s) * v1
            )
            return position, velocity, False
        a0, a1 = self.accelerations[k], self.accelerations[k + 1]
        T = duration
        c0, c1, c2 = p0, v0, a0 / 2.0
        c3 = (20 * (p1 - p0) - (8 * v1 + 12 * v0) * T - (3 * a0 - a1) * T**2) / (2 * T**3)
        c4 = (30 * (p0 - p1) + (14 * v1 + 16 * v0) * T + (3 * a0 - 2 * a1) * T**2) / (2 * T**4)
        c5 = (12 * (p1 - p0) - 6 * (v1 + v0) * T + (a1 - a0) * T**2) / (2 * T**5)
        x = now - times[k]
        position = c0 + x * (c1 + x * (c2 + x * (c3 + x * (c4 + x * c5))))
        velocity = c1 + x * (2 * c2 + x * (3 * c3 + x * (4 * c4 + x * 5 * c5)))
        return position, velocity, False
