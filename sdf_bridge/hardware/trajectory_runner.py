"""Running a joint trajectory against the command buffer, as joint_trajectory_controller does.

:class:`TrajectoryRunner` holds at most one :class:`~.trajectory.Trajectory` (a new one replaces
it); each tick it samples it at "now" into the command buffer (position, or position with the
velocity feed-forward), so that the holds, limits and watchdog treat it like any command. A
direct command for a joint takes that joint out of the trajectory; when no joint is left, the
trajectory ends. A trajectory without points is rejected (``bad_trajectory``) and the running
one goes on, as in joint_trajectory_controller: its ``validate_trajectory_msg`` refuses it
("Empty trajectory received.", ros2_controllers PR #902, in every ROS 2 distribution from Humble
on; ROS 1's controller cancelled instead). To stop where the joints are, send one point at their
positions.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..backends.base import Mode
from ..errors import CommandError
from .commands import POSITION, CommandBuffer
from .trajectory import Trajectory


class TrajectoryRunner:
    """The trajectory of one command buffer (module doc).

    Args:
        commands: the buffer the samples go into.
    """

    def __init__(self, commands: CommandBuffer) -> None:
        self.commands = commands
        self.trajectory: Trajectory | None = None
        self._index = np.zeros(0, dtype=np.intp)  # map indices of its joints
        self._active = np.zeros(0, dtype=bool)  # which of them still follow it

    @property
    def active(self) -> bool:
        """Whether a trajectory is running."""
        return self.trajectory is not None

    def clear(self) -> None:
        """Forget the trajectory (no hold: the caller clears the commands too)."""
        self.trajectory = None

    def submit(
        self,
        names: Sequence[str],
        times: Sequence[float] | np.ndarray,
        positions: Sequence[Sequence[float]] | np.ndarray | None,
        velocities: Sequence[Sequence[float]] | np.ndarray | None,
        accelerations: Sequence[Sequence[float]] | np.ndarray | None,
        now: float,
        measured: np.ndarray,
        *,
        start: float | None = None,
    ) -> list[str]:
        """Start a trajectory received at ``now`` (s) at ``start`` (``None``: ``now``; ``times``
        are the points' ``time_from_start``), from the ``measured`` state ((3, ≥ n_joints): rows
        position, velocity, effort). An invalid trajectory (one without points too: the running
        one goes on, module doc) is rejected whole (``bad_trajectory``), one whose last point is
        before ``now`` too (``trajectory_in_past``), and counted in the buffer; one that
        started before ``now`` is followed from its sample at ``now`` (:mod:`.trajectory`).

        Returns:
            The warnings (empty when accepted).
        """
        commands = self.commands
        try:
            index = self._joints(names)
            trajectory = Trajectory.build(
                names,
                times,
                positions,
                velocities,
                accelerations,
                start=now if start is None else start,
                current_position=measured[0][index],
                current_velocity=measured[1][index],
                now=now,
            )
        except CommandError as exc:  # (TrajectoryInPastError has its own reason)
            return [
                commands.reject(
                    getattr(exc, "reason", "bad_trajectory"), f"trajectory rejected: {exc}", now
                )
            ]
        self.trajectory = trajectory
        self._index = index
        self._active = np.ones(index.shape, dtype=bool)
        commands.last_command_time = now
        return []

    def release(self, index: np.ndarray) -> None:
        """Take the joints ``index`` (map indices, e.g. just commanded directly) out of the
        trajectory; it ends when none is left."""
        if self.trajectory is not None and index.size:
            self._active &= ~np.isin(self._index, index)
            if not self._active.any():
                self.trajectory = None

    def sample(self, now: float) -> None:
        """Write the trajectory's sample at ``now`` into the buffer (its following joints);
        the trajectory ends once its last point is reached (the last point then holds)."""
        trajectory = self.trajectory
        if trajectory is None:
            return
        position, velocity, done = trajectory.sample(now)
        active = self._active
        index = self._index[active]
        self.commands.apply_source(
            index, position[active], None if velocity is None else velocity[active], now
        )
        if done:
            self.trajectory = None

    def _joints(self, names: Sequence[str]) -> np.ndarray:
        commands = self.commands
        index = []
        problems = []
        for name in names:
            k = commands.index_of(name)
            if k is None:
                problems.append(f"{name!r} is not a commandable joint")
            elif not commands.allowed[k] & POSITION:
                problems.append(f"{name!r} has no position command interface")
            elif commands.fixed[k] and not commands.mode[k] & POSITION:
                problems.append(
                    f"{name!r} is configured for {Mode(int(commands.mode[k])).label} commands"
                )
            else:
                index.append(k)
        if problems:
            raise CommandError(
                "; ".join(problems) + f". Commandable joints: {list(commands.commandable)}"
            )
        return np.array(index, dtype=np.intp)
