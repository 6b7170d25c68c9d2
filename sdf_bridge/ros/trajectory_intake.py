"""Trajectories off the executor's critical path: counted before they are read, bounded, and
read in a worker thread.

A long ``JointTrajectory`` held the executor thread for a long time while rclpy deserialised and
converted it (one Python object per point and per field), and meanwhile no service answered,
``~/enable`` (the e-stop) included (doc/dev/rationale.md). So the bridge subscribes to
``~/joint_trajectory`` raw (the serialised CDR bytes) and :class:`TrajectoryIntake`:

1. counts the points from the CDR bytes (:func:`trajectory_point_count`: the header, the joint
   names and the sequence length, not the points) and refuses a trajectory of more than
   ``max_trajectory_points`` points at once, counted (``node_rejected.trajectory_too_long``);
2. hands the bytes to its worker thread, which reads the arrays straight from them
   (:func:`decode_trajectory`: no Python object per point) and submits them (the node's
   ``process`` callable); a small trajectory (at most :data:`INLINE_POINTS` points) is
   processed on the calling (executor) thread when the worker is idle, so the usual short
   trajectory is not delayed by a thread hand-over. Trajectories are processed in arrival
   order; one still waiting when a newer one arrives is dropped, counted
   (``node_rejected.trajectory_superseded``): the newer one replaces it anyway.

The worker takes the GIL in slices (the bridge sets a switch interval well below the loop
period), so the loop and the executor's other callbacks keep running while it works.

What remains is the sample's delivery, before any code of the bridge runs: rclpy copies the
serialised sample into a Python ``bytes`` on the executor thread with the GIL held (up to a
fraction of a second for the largest; doc/dev/rationale.md), and a service request that arrives
while Fast DDS moves such a sample can be lost and sent again a heartbeat period (3 s) later.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..errors import CommandError
from . import conversions

#: Most points processed on the executor thread itself (when the worker is idle): few enough
#: not to delay the executor's other callbacks noticeably (doc/dev/rationale.md).
INLINE_POINTS = 1000
#: Most joint names read while counting points (more: refused without reading them).
MAX_JOINT_NAMES = 100_000


class _Cdr:
    """A reader of CDR bytes (``data``: the 4-byte encapsulation header first; values aligned
    to their size from the end of that header)."""

    def __init__(self, data: bytes) -> None:
        if len(data) < 4 or data[0] != 0 or data[1] not in (0, 1):
            raise CommandError(
                "joint_trajectory: not a CDR-encoded message (encapsulation "
                f"{data[:2].hex() or 'missing'}). Fix: publish a trajectory_msgs/JointTrajectory."
            )
        self.data = data
        self.endian = "<" if data[1] == 1 else ">"
        self.u32 = struct.Struct(self.endian + "I")
        self.stamp = struct.Struct(self.endian + "iI")
        self.offset = 4

    def short(self, what: str) -> CommandError:
        return CommandError(
            f"joint_trajectory: the message ends at byte {len(self.data)}, before its {what}. "
            "Fix: publish a complete trajectory_msgs/JointTrajectory."
        )

    def align(self, size: int) -> None:
        self.offset = 4 + ((self.offset - 4 + size - 1) & -size)

    def count(self, what: str) -> int:
        """A uint32 (a length or a sequence's count)."""
        self.align(4)
        if self.offset + 4 > len(self.data):
            raise self.short(what)
        (value,) = self.u32.unpack_from(self.data, self.offset)
        self.offset += 4
        return value

    def time(self, what: str) -> tuple[int, int]:
        """A ``builtin_interfaces`` Time or Duration: (int32 sec, uint32 nanosec)."""
        self.align(4)
        if self.offset + 8 > len(self.data):
            raise self.short(what)
        sec, nanosec = self.stamp.unpack_from(self.data, self.offset)
        self.offset += 8
        return sec, nanosec

    def string(self, what: str) -> str:
        length = self.count(what)
        end = self.offset + length
        if end > len(self.data):
            raise self.short(what)
        text = self.data[self.offset : max(self.offset, end - 1)]  # (without its NUL)
        self.offset = end
        return text.decode("utf-8", errors="replace")


def _read_head(cdr: _Cdr, names: list[str] | None) -> tuple[int, int, int]:
    """Read a JointTrajectory's header and joint names (into ``names`` unless ``None``) and
    the point count: ``(stamp sec, stamp nanosec, points)``."""
    sec, nanosec = cdr.time("header stamp")
    cdr.string("header frame_id")
    n_names = cdr.count("joint names")
    if n_names > MAX_JOINT_NAMES:
        raise CommandError(
            f"joint_trajectory: {n_names} joint names, more than {MAX_JOINT_NAMES}. Fix: name "
            "each commanded joint once."
        )
    for _ in range(n_names):
        name = cdr.string("joint names")
        if names is not None:
            names.append(name)
    return sec, nanosec, cdr.count("point count")


def trajectory_point_count(data: bytes) -> int:
    """The number of points of a serialised ``trajectory_msgs/JointTrajectory`` (``data``: the
    CDR bytes rclpy hands a raw subscription, 4-byte encapsulation header first), read without
    deserialising it: the header's stamp and ``frame_id``, the ``joint_names`` and then the
    ``points`` sequence length.

    Raises:
        CommandError: the bytes end before the count, the encapsulation is not CDR, or there
            are more than :data:`MAX_JOINT_NAMES` joint names.
    """
    return _read_head(_Cdr(data), None)[2]


#: The float64 sequences of a JointTrajectoryPoint, in their CDR order (then time_from_start).
_POINT_FIELDS = ("positions", "velocities", "accelerations", "effort")


#: Fewest points left after two that :func:`_repeats` checks in one go.
_REPEAT_MIN = 16


@dataclass(frozen=True)
class _Point:
    """Where one JointTrajectoryPoint's values are in the CDR bytes (absolute offsets)."""

    start: int
    counts: tuple[int, ...]  # the length of each of _POINT_FIELDS
    count_at: tuple[int, ...]  # where each length is
    offsets: tuple[int, ...]  # where each field's first float64 is (0 when empty)
    time_at: int  # where time_from_start is
    end: int
    time: float  # time_from_start, s


def _read_point(cdr: _Cdr) -> _Point:
    start = cdr.offset
    counts, count_at, offsets = [], [], []
    for _ in _POINT_FIELDS:
        cdr.align(4)
        count_at.append(cdr.offset)
        k = cdr.count("point fields")
        counts.append(k)
        if k:
            cdr.align(8)
            offsets.append(cdr.offset)
            cdr.offset += 8 * k
            if cdr.offset > len(cdr.data):
                raise cdr.short("point fields")
        else:
            offsets.append(0)
    cdr.align(4)
    time_at = cdr.offset
    sec, nanosec = cdr.time("point time_from_start")
    return _Point(
        start,
        tuple(counts),
        tuple(count_at),
        tuple(offsets),
        time_at,
        cdr.offset,
        sec + nanosec * 1e-9,
    )


def _repeats(
    cdr: _Cdr, previous: _Point, point: _Point, remaining: int
) -> tuple[list[np.ndarray], np.ndarray] | None:
    """When ``point`` has the lengths and layout of ``previous`` and its size is a multiple of
    8 (so the next point starts at the same alignment), check in one go (numpy) whether each of
    the ``remaining`` points after it has the same lengths too; if so, return their field
    offsets (one array per field, 0 where empty) and their times, and move ``cdr`` past them;
    else ``None`` (nothing moved)."""
    stride = point.end - point.start
    if (
        point.counts != previous.counts
        or point.start - previous.start != stride
        or stride % 8
        or point.end + stride * remaining > len(cdr.data)
    ):
        return None
    relative = [a - point.start for a in (*point.count_at, point.time_at)]
    if relative != [a - previous.start for a in (*previous.count_at, previous.time_at)]:
        return None
    words = np.frombuffer(cdr.data, dtype=cdr.endian + "u4", count=len(cdr.data) // 4)
    starts = point.end + stride * np.arange(remaining, dtype=np.int64)
    for count, at in zip(point.counts, point.count_at):
        if not (words[(starts + (at - point.start)) // 4] == count).all():
            return None
    signed = words.view(cdr.endian + "i4")
    at = (starts + (point.time_at - point.start)) // 4
    times = signed[at].astype(float) + words[at + 1].astype(float) * 1e-9
    offsets = [
        starts + (offset - point.start) if offset else np.zeros(remaining, dtype=np.int64)
        for offset in point.offsets
    ]
    cdr.offset = point.end + stride * remaining
    return offsets, times


def decode_trajectory(data: bytes) -> conversions.TrajectoryCommand:
    """The arrays of a serialised ``trajectory_msgs/JointTrajectory`` (as
    :func:`.conversions.trajectory_command` of the deserialised message, same rules and
    errors), read straight from its CDR bytes: no Python object per point (rclpy's
    deserialisation holds the GIL, and memory, per point; doc/dev/rationale.md). Points are
    read one by one (their lengths and offsets) until two in a row have the same lengths and layout;
    the rest is then checked to repeat them in one numpy pass (the usual trajectory, whose
    points all carry the same fields) or, where it does not, read one by one (the GIL handed
    over as any Python code); then one gather
    per field.

    Raises:
        TrajectoryInPastError, CommandError: as ``trajectory_command``; also bytes that are not
            a complete CDR JointTrajectory.
    """
    cdr = _Cdr(data)
    names: list[str] = []
    sec, nanosec, n_points = _read_head(cdr, names)
    start = conversions.trajectory_start(sec, nanosec)
    lengths: list[list[int]] = [[] for _ in _POINT_FIELDS]
    offsets: list[list[int]] = [[] for _ in _POINT_FIELDS]
    times: list[float] = []
    previous: _Point | None = None
    tail: tuple[list[np.ndarray], np.ndarray] | None = None  # points read in one numpy pass
    done = 0
    while done < n_points:
        point = _read_point(cdr)
        for f in range(len(_POINT_FIELDS)):
            lengths[f].append(point.counts[f])
            offsets[f].append(point.offsets[f])
        times.append(point.time)
        done += 1
        if previous is not None and n_points - done >= _REPEAT_MIN:
            rest = _repeats(cdr, previous, point, n_points - done)
            if rest is not None:  # every remaining point laid out as this one
                tail = rest
                break
            previous = None  # (tried once: the rest is read point by point)
        elif done == 1:
            previous = point
    field_lengths = [np.asarray(lengths[f], dtype=np.int64) for f in range(len(_POINT_FIELDS))]
    field_offsets = [np.asarray(offsets[f], dtype=np.int64) for f in range(len(_POINT_FIELDS))]
    all_times = np.asarray(times, dtype=float)
    if tail is not None:
        n_tail = len(tail[1])
        for f in range(len(_POINT_FIELDS)):
            repeated = np.full(n_tail, field_lengths[f][-1], dtype=np.int64)
            field_lengths[f] = np.concatenate([field_lengths[f], repeated])
            field_offsets[f] = np.concatenate([field_offsets[f], tail[0][f]])
        all_times = np.concatenate([all_times, tail[1]])
    n_joints = len(names)
    floats = np.frombuffer(data, dtype=cdr.endian + "f8", offset=4, count=(len(data) - 4) // 8)
    arrays: dict[str, np.ndarray | None] = {}
    for f, field in enumerate(_POINT_FIELDS[:3]):  # (effort is not commanded by trajectories)
        if conversions.points_field_present(field_lengths[f], field, n_joints):
            first = (field_offsets[f] - 4) // 8
            arrays[field] = floats[first[:, None] + np.arange(n_joints)].astype(float)
        else:
            arrays[field] = None
    return conversions.TrajectoryCommand(
        names=tuple(names),
        start=start,
        times=all_times,
        positions=arrays["positions"],
        velocities=arrays["velocities"],
        accelerations=arrays["accelerations"],
    )


class TrajectoryIntake:
    """Counts, bounds and processes serialised trajectories (see module doc).

    Args:
        max_points: most points accepted (the ``max_trajectory_points`` parameter).
        process: deserialise, convert and submit one trajectory's CDR bytes (called on the
            worker thread, or inline for a small one when the worker is idle); its exceptions
            go to ``on_error``.
        reject: ``reject(reason, text)``: count a refused trajectory and say why (reasons
            ``trajectory_too_long``, ``trajectory_superseded``, ``malformed_trajectory``).
        on_error: ``on_error(exc)``: an exception ``process`` raised.
    """

    def __init__(
        self,
        max_points: int,
        process: Callable[[bytes], None],
        reject: Callable[[str, str], None],
        on_error: Callable[[Exception], None],
    ) -> None:
        self.max_points = max_points
        self._process = process
        self._reject = reject
        self._on_error = on_error
        self._cond = threading.Condition()
        self._waiting: bytes | None = None  # the next trajectory for the worker
        self._busy = False  # the worker is processing one
        self._closed = False
        self._thread = threading.Thread(
            target=self._run, name="sdf_bridge trajectory intake", daemon=True
        )
        self._thread.start()

    def offer(self, data: bytes) -> None:
        """A trajectory's CDR bytes arrived (executor thread): refuse it when it has too many
        points or cannot be counted, else process it inline (small, worker idle) or queue it
        for the worker (replacing one still waiting)."""
        try:
            points = trajectory_point_count(data)
        except CommandError as exc:
            self._reject("malformed_trajectory", str(exc))
            return
        if points > self.max_points:
            self._reject(
                "trajectory_too_long",
                f"joint_trajectory: {points} points refused, more than max_trajectory_points "
                f"({self.max_points}). Fix: send the trajectory in parts of at most "
                f"{self.max_points} points, or raise max_trajectory_points.",
            )
            return
        inline = points <= INLINE_POINTS
        superseded = False
        with self._cond:
            if self._closed:
                return
            inline = inline and not self._busy and self._waiting is None
            if not inline:
                superseded = self._waiting is not None
                self._waiting = data
                self._cond.notify()
        if inline:
            self._run_one(data)
        elif superseded:
            self._reject(
                "trajectory_superseded",
                "joint_trajectory: a trajectory waiting behind a long one was dropped for a "
                "newer one (which replaces it anyway)",
            )

    def idle(self) -> bool:
        """Whether no trajectory is waiting or being processed by the worker."""
        with self._cond:
            return not self._busy and self._waiting is None

    def close(self, timeout: float = 1.0) -> None:
        """Stop the worker (a trajectory waiting is dropped; one being processed finishes,
        waited for ``timeout`` s at most). Idempotent."""
        with self._cond:
            self._closed = True
            self._waiting = None
            self._cond.notify()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _run_one(self, data: bytes) -> None:
        try:
            self._process(data)
        except Exception as exc:  # the worker (and the executor) must go on
            self._on_error(exc)

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._waiting is None and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                data, self._waiting, self._busy = self._waiting, None, True
            try:
                self._run_one(data)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
