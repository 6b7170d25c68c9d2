"""Every hold of the hardware system, decided in one place of the tick.

:meth:`Holds.apply` turns the command buffer's latest commands into what the backend is
written (before the limits, which it does not apply itself), once per tick:

* **e-stop** (the system is disabled): every joint holds, in position mode, the joint position
  measured when the e-stop engaged; the caller writes it without limits (holding must never
  move the robot, even a joint resting beyond a limit).
* **watchdog**: ``command_timeout`` s after the last accepted command (a running trajectory counts
  as commanding) position-mode joints hold their measured position and velocity and effort commands
  become 0 (:meth:`CommandBuffer.stop <sdf_bridge.hardware.commands.CommandBuffer.stop>`: in the
  buffer, so that it lasts until each joint is commanded again) — unless that changes nothing
  (:func:`stop_changes_commands`): when every position command has been reached (within
  :data:`REACHED` of the measured position) and no velocity or effort command is non-zero, holding
  the commands *is* the stop, and the silence passes without a trip. This is what ros2_control's
  topic-based plugins do at their default threshold: they stop publishing once the joint states
  equal the commands. A velocity or effort command, or a position not reached, keeps the watchdog's
  protection.
* **coupled partners** (a differential wrist, a four-bar): a joint with no command that shares
  an actuator with a commanded joint gets a hold on the same interface — the position it had
  when the hold began, zero velocity, zero effort — and that interface's mode, so the shared
  actuators move only the commanded joint. The hold ends as soon as it is commanded itself.
* **idle joints** (mode ``NONE`` of :class:`~sdf_bridge.backends.base.Mode`: not commanded since the
  start, a reset or an e-stop release): they hold still at the position measured when their
  command ended (:attr:`JointCommand.hold <sdf_bridge.backends.base.JointCommand.hold>`; they
  are not limited, as they are not commanded); except the joints that are free when idle (the
  axes of universal and revolute2 joints, the angles of ball joints, uncoupled gearboxes:
  :func:`~sdf_bridge.description.coordinates.free_when_idle`), which get an effort command of
  0 instead: free, as Gazebo leaves a joint no plug-in drives.

Hot path: the result only changes with the buffer's commands (its cached arrays, replaced on
every change), its modes (``CommandBuffer.mode_version``) or a hold starting; otherwise the
result of the previous tick is returned again (an identity check and an integer comparison, no
numpy call and no object made).
"""

from __future__ import annotations

import numpy as np

from ..backends.base import MODE_DTYPE, Mode
from .commands import CommandBuffer
from .watchdog import CommandWatchdog

_P, _V, _E = int(Mode.POSITION), int(Mode.VELOCITY), int(Mode.EFFORT)

REACHED = 1e-4
"""A position command is reached when the measured position is within this of it (rad or m):
far below what the plugins' default threshold (1e-5 summed over the joints) leaves and what
the backends settle to."""


def stop_changes_commands(commands: np.ndarray, measured_position: np.ndarray) -> bool:
    """Whether the watchdog's stop would change what the joints are commanded: some velocity
    or effort command is non-zero, or some position command is not reached (:data:`REACHED`).

    Args:
        commands: (3, n) active commands (rows position, velocity, effort; NaN = none).
        measured_position: (n,) measured joint positions (NaN = unknown: not reached).
    """
    p, v, e = commands
    with np.errstate(invalid="ignore"):
        if (v[~np.isnan(v)] != 0.0).any() or (e[~np.isnan(e)] != 0.0).any():
            return True
        commanded = ~np.isnan(p)
        return bool((~(np.abs(p[commanded] - measured_position[commanded]) <= REACHED)).any())


def _stop_needed(buffer: CommandBuffer, measured: np.ndarray, n: int) -> bool:
    """:func:`stop_changes_commands` of the buffer's commands and the ``n`` map joints'
    measured positions (row 0 of the (3, ≥ n) ``measured``): the watchdog's question, asked
    only when its timeout has passed (the slice is not made every tick)."""
    return stop_changes_commands(buffer.effective(), measured[0, :n])


class Coupling:
    """Which joints share an actuator, as groups: the joints of each actuator that drives
    several (a differential's two actuators each drive both its joints). Memory and every
    query are O(non-zeros of the dependency); no (n_joints, n_joints) array is made (n² memory,
    and a product over it n² per tick; doc/dev/rationale.md).

    Args:
        actuators, joints: the non-zero entries of the (n_actuators, n_joints) dependency
            that belong to an actuator driving several joints (:func:`coupling` selects them).
        n_joints: joints of the map.
    """

    def __init__(self, actuators: np.ndarray, joints: np.ndarray, n_joints: int) -> None:
        _, group = np.unique(actuators, return_inverse=True)
        self._group = group.reshape(-1)  # each entry's group: 0 .. n_groups - 1
        self._joints = joints
        self._n_groups = int(self._group.max()) + 1 if len(self._group) else 0
        self.n_joints = n_joints

    def partners(self, selected: np.ndarray) -> np.ndarray:
        """(n_joints,) bool: the joints that share an actuator with another joint of
        ``selected`` ((n_joints,) bool), the joint itself not counted: the boolean product
        ``S @ selected`` of the shared-actuator matrix ``S`` (diagonal cleared), in O(non-zeros).
        """
        member = selected[self._joints]
        count = np.bincount(self._group, weights=member, minlength=self._n_groups)
        others = count[self._group] - member > 0  # another selected joint in the group
        out = np.zeros(self.n_joints, dtype=bool)
        out[self._joints[others]] = True
        return out

    def matrix(self) -> np.ndarray:
        """(n_joints, n_joints) bool, joints that share an actuator, diagonal False (for
        tests and small robots only: quadratic in joints)."""
        shared = np.zeros((self.n_joints,) * 2, dtype=bool)
        for group in range(self._n_groups):
            driven = self._joints[self._group == group]
            shared[np.ix_(driven, driven)] = True
        np.fill_diagonal(shared, False)
        return shared


def coupling(dependency: np.ndarray) -> Coupling | None:
    """Which joints share an actuator: ``dependency`` is (n_actuators, n_joints) bool (which
    joints each actuator's command depends on; anything with ``.shape`` and ``.nonzero()``,
    such as a sparse matrix); returns the :class:`Coupling`, or ``None`` when no actuator
    couples two joints. In O(non-zeros), from the actuators that drive several joints: the
    product ``dependency.T @ dependency`` is n³ and lets no signal through while it runs
    (doc/dev/rationale.md)."""
    actuators, joints = (np.asarray(index, dtype=np.intp) for index in dependency.nonzero())
    counts = np.bincount(actuators, minlength=dependency.shape[0])
    shared = counts[actuators] > 1
    if not shared.any():
        return None
    return Coupling(actuators[shared], joints[shared], dependency.shape[1])


class Holds:
    """The holds of one hardware system (module doc).

    Args:
        n_joints: joints of the transmission map (columns of every array).
        coupled: the joints that share an actuator (:func:`coupling`), or ``None``.
        watchdog: the command timeout watchdog.
        free: (n_joints,) bool, the joints free when idle (effort 0 instead of a hold), or
            ``None`` for none.
    """

    def __init__(
        self,
        n_joints: int,
        coupled: Coupling | None,
        watchdog: CommandWatchdog,
        free: np.ndarray | None = None,
    ) -> None:
        self.n_joints = n_joints
        self.coupled = coupled
        self.watchdog = watchdog
        self.free = free if free is not None and free.any() else None
        self._nan = np.full(n_joints, np.nan)
        self._estop: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.reset()

    def reset(self) -> None:
        """Forget every hold (a reset, an e-stop engaged or released): idle joints take the
        position of the next measured state, partners start again; the watchdog forgets the
        current silence (its trip counter kept)."""
        self.watchdog.reset()
        self._estop = None
        self._partner_start = np.full(self.n_joints, np.nan)  # partner hold positions
        #: (effective commands, mode version, result of apply) while the result cannot change
        #: for those two (every hold it needs has started from a finite position)
        self._last: tuple[object, int, tuple[np.ndarray, np.ndarray, np.ndarray]] | None = None
        self._idle_mode: np.ndarray | None = None  # the mode array ``_hold`` is for
        self._hold = self._nan
        self._mode = np.zeros(self.n_joints, dtype=MODE_DTYPE)
        self._mode_version = -1  # buffer.mode_version of ``_mode``

    def confine(self, lower: np.ndarray, upper: np.ndarray) -> None:
        """Move every hold position (idle joints, coupled partners, the e-stop's) into
        ``[lower, upper]`` ((n_joints,) each, rad or m: new position stops), so that no hold
        presses a joint against a stop; the next :meth:`apply` returns new arrays."""
        self._hold = np.clip(self._hold, lower, upper)  # (new array: a changed hold)
        np.clip(self._partner_start, lower, upper, out=self._partner_start)
        if self._estop is not None:
            values, mode, hold = self._estop
            values = values.copy()
            values[0] = np.clip(values[0], lower, upper)
            self._estop = (values, mode, hold)
        self._last = None

    def apply(
        self, now: float, buffer: CommandBuffer, measured: np.ndarray, enabled: bool
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The commands to write this tick, holds applied.

        Args:
            now: time of the tick, s (the commands' clock).
            buffer: the command buffer (the watchdog's stop goes into it).
            measured: (3, ≥ n_joints) state of the last read: rows position, velocity,
                effort; the first n_joints columns are the map joints.
            enabled: False while the e-stop is engaged.

        Returns:
            ``(values, mode, hold)`` of a :class:`~sdf_bridge.backends.base.JointCommand`:
            (3, n_joints) commands (NaN = not commanded), (n_joints,) modes and the idle
            joints' hold positions. Do not modify them (they are reused while unchanged).
        """
        if not enabled:
            if self._estop is None:
                hold = np.array(measured[0, : self.n_joints], dtype=float)
                values = np.stack((hold, self._nan, self._nan))
                mode = np.full(self.n_joints, _P, dtype=MODE_DTYPE)
                self._estop = (values, mode, self._nan)
            return self._estop
        if self.watchdog.check(
            now,
            buffer.last_command_time,
            _stop_needed,
            buffer,
            measured,
            self.n_joints,
            last_message_time=buffer.last_message_time,
        ):
            buffer.stop(measured[0, : self.n_joints])
        values = buffer.effective()
        version = buffer.mode_version
        last = self._last
        if last is not None and last[0] is values and last[1] == version:
            return last[2]
        commands = values
        settled = True
        if self.coupled is None:
            if self._mode_version != version:
                self._mode = buffer.mode.copy()  # (the buffer changes its array in place)
                self._mode_version = version
            mode = self._mode
        else:
            values, mode, settled = self._partners(values, buffer, measured)
        if self.free is not None:
            values, mode = self._release(values, mode)
        if self._idle_mode is not mode:
            self._idle_hold(mode, measured)
        result = (values, mode, self._hold)
        self._last = (commands, version, result) if settled else None
        return result

    def _partners(
        self, commands: np.ndarray, buffer: CommandBuffer, measured: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, bool]:
        """Coupled partners' holds (module doc): ``commands`` (3, n_joints), rows position,
        velocity, effort, NaN = no command; returns the commands with the holds (``commands``
        itself when there are none), the modes with the partners' interfaces, and whether the
        result is settled: it depends only on the commands, the modes and the held positions,
        which stay fixed once every needed hold has started from a finite position (a NaN
        start is retried next tick)."""
        p, v, e = commands
        idle = np.isnan(p) & np.isnan(v) & np.isnan(e)
        held = self._partner_start
        mode = buffer.mode.copy()
        if not idle.any():
            held.fill(np.nan)
            return commands, mode, True
        coupled = self.coupled
        assert coupled is not None
        need = idle & coupled.partners(~np.isnan(p))
        start = need & np.isnan(held)
        held[start] = measured[0, : self.n_joints][start]
        held[~need] = np.nan
        out = commands
        settled = True
        if need.any():
            out = commands.copy()  # (the command buffer's array must not change)
            out[0, need] = held[need]
            mode[need] |= _P
            settled = not np.isnan(held[need]).any()  # a NaN start is retried next cycle
        # zero velocity / effort for the partners of commanded joints
        for row, bit in (
            (1, _V),
            (2, _E),
        ):
            zero = idle & coupled.partners(~np.isnan(commands[row]))
            if zero.any():
                if out is commands:
                    out = commands.copy()
                out[row, zero] = 0.0
                mode[zero] |= bit
        return out, mode, settled

    def _release(self, values: np.ndarray, mode: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The idle joints that are free when idle (``self.free``) in effort mode with effort 0;
        new arrays when there are any (the buffer's and the cached mode must not change)."""
        release = (mode == 0) & self.free
        if not release.any():
            return values, mode
        values = values.copy()
        values[2, release] = 0.0
        mode = mode.copy()
        mode[release] = _E
        return values, mode

    def _idle_hold(self, mode: np.ndarray, measured: np.ndarray) -> None:
        """Hold positions of the idle joints (mode NONE) for ``mode`` (a new mode array): a
        joint becoming idle takes its measured position; NaN for the others."""
        idle = mode == 0
        previous = self._hold
        hold = np.where(idle, previous, np.nan)
        new = idle & np.isnan(previous)
        if new.any():
            hold[new] = measured[0, : self.n_joints][new]
        self._hold = hold
        self._idle_mode = mode
