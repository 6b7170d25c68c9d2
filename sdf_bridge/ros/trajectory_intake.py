"""Trajectories off the executor's critical path: counted before they are read, bounded, and
read in a worker thread.

A ``JointTrajectory`` of 10⁵ points took the executor thread ~2 s to deserialise and convert
(rclpy builds one Python object per point and per field), and 10⁶ points over 15 s: meanwhile
no service answered, ``~/enable`` (the e-stop) included. So the bridge subscribes to
``~/joint_trajectory`` raw (the serialised CDR bytes) and :class:`TrajectoryIntake`:

1. counts the points from the CDR bytes (:func:`trajectory_point_count`: the header, the joint
   names and the sequence length, a few µs) and refuses a trajectory of more than
   ``max_trajectory_points`` points at once, counted (``node_rejected.trajectory_too_long``);
2. hands the bytes to its worker thread, which deserialises, converts and submits them (the
   node's ``process`` callable); a small trajectory (at most :data:`INLINE_POINTS` points) is
   processed on the calling (executor) thread when the worker is idle, so the usual short
   trajectory is not delayed by a thread hand-over. Trajectories are processed in arrival
   order; one still waiting when a newer one arrives is dropped, counted
   (``node_rejected.trajectory_superseded``): the newer one replaces it anyway.

The worker takes the GIL in slices (the bridge sets a switch interval well below the loop
period), so the loop and the executor's other callbacks keep running while it works.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Callable

from ..errors import CommandError

#: Most points processed on the executor thread itself (when the worker is idle): ~1 ms.
INLINE_POINTS = 1000
#: Most joint names read while counting points (more: refused without reading them).
MAX_JOINT_NAMES = 100_000


def trajectory_point_count(data: bytes) -> int:
    """The number of points of a serialised ``trajectory_msgs/JointTrajectory`` (``data``: the
    CDR bytes rclpy hands a raw subscription, 4-byte encapsulation header first), read without
    deserialising it: the header's stamp and ``frame_id``, the ``joint_names`` and then the
    ``points`` sequence length.

    Raises:
        CommandError: the bytes end before the count, the encapsulation is not CDR, or there
            are more than :data:`MAX_JOINT_NAMES` joint names.
    """
    if len(data) < 4 or data[0] != 0 or data[1] not in (0, 1):
        raise CommandError(
            "joint_trajectory: not a CDR-encoded message (encapsulation "
            f"{data[:2].hex() or 'missing'}). Fix: publish a trajectory_msgs/JointTrajectory."
        )
    u32 = struct.Struct("<I" if data[1] == 1 else ">I")
    base = 4  # CDR alignment is relative to the end of the encapsulation header

    def read(offset: int) -> tuple[int, int]:
        offset = base + ((offset - base + 3) & ~3)  # align 4
        if offset + 4 > len(data):
            raise CommandError(
                f"joint_trajectory: the message ends at byte {len(data)}, before its point count."
                " Fix: publish a complete trajectory_msgs/JointTrajectory."
            )
        return u32.unpack_from(data, offset)[0], offset + 4

    offset = base + 8  # header.stamp: int32 sec, uint32 nanosec
    length, offset = read(offset)  # header.frame_id (length includes the NUL)
    offset += length
    names, offset = read(offset)
    if names > MAX_JOINT_NAMES:
        raise CommandError(
            f"joint_trajectory: {names} joint names, more than {MAX_JOINT_NAMES}. Fix: name "
            "each commanded joint once."
        )
    for _ in range(names):
        length, offset = read(offset)
        offset += length
    count, _ = read(offset)
    return count


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
