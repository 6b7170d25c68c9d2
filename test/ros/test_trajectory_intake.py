"""sdf_bridge.ros.trajectory_intake: trajectories counted from their CDR bytes, bounded, and
processed off the executor thread; and, across processes, ``~/enable`` answering while a
trajectory of 10⁶ points is refused."""

from __future__ import annotations

import struct
import threading
import time
from typing import Any

import pytest
from builtin_interfaces.msg import Duration
from hypothesis import given, settings
from hypothesis import strategies as st
from rclpy.serialization import deserialize_message, serialize_message
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from sdf_bridge.errors import CommandError
from sdf_bridge.ros.trajectory_intake import (
    INLINE_POINTS,
    MAX_JOINT_NAMES,
    TrajectoryIntake,
    trajectory_point_count,
)


def serialized_trajectory(n_points: int, names: list[str], frame_id: str = "") -> bytes:
    """The CDR bytes (little endian) of a JointTrajectory of ``n_points`` equal points
    (positions 0.1 and velocities 0 for ``names``, 1 s from start), written directly: 10⁶ points
    in well under a second, where building the message in Python takes many seconds. (CDR:
    each value aligned to its size from the end of the 4-byte encapsulation header; a string is
    a uint32 length, its UTF-8 bytes and a NUL; a sequence a uint32 count and its elements.)"""
    out = bytearray(b"\x00\x01\x00\x00")

    def align(size: int) -> None:
        out.extend(bytes(-(len(out) - 4) % size))

    def u32(value: int) -> None:
        align(4)
        out.extend(struct.pack("<I", value))

    def string(text: str) -> None:
        raw = text.encode() + b"\0"
        u32(len(raw))
        out.extend(raw)

    def doubles(values: list[float]) -> None:
        u32(len(values))
        if values:
            align(8)
            out.extend(struct.pack(f"<{len(values)}d", *values))

    def point() -> bytes:
        begin = len(out)
        doubles([0.1] * len(names))
        doubles([0.0] * len(names))
        doubles([])  # accelerations
        doubles([])  # effort
        align(4)
        out.extend(struct.pack("<iI", 1, 0))  # time_from_start
        return bytes(out[begin:])

    out.extend(struct.pack("<iI", 0, 0))  # header.stamp
    string(frame_id)
    u32(len(names))
    for name in names:
        string(name)
    u32(n_points)
    head = bytes(out)
    # a point's bytes depend on its start's alignment (mod 8): write points until a start
    # alignment comes back, then repeat the cycle from there
    starts: list[int] = []
    points: list[bytes] = []
    while (len(out) - 4) % 8 not in starts:
        starts.append((len(out) - 4) % 8)
        points.append(point())
    k = starts.index((len(out) - 4) % 8)
    lead, cycle = points[:k], points[k:]
    data = head + b"".join(lead[:n_points])
    if n_points > k:
        repeats, rest = divmod(n_points - k, len(cycle))
        data += b"".join(cycle) * repeats + b"".join(cycle[:rest])
    if n_points <= 4:
        assert deserialize_message(data, JointTrajectory) == _message(n_points, names, frame_id)
    return data


def _message(n_points: int, names: list[str], frame_id: str) -> JointTrajectory:
    point = JointTrajectoryPoint(
        positions=[0.1] * len(names),
        velocities=[0.0] * len(names),
        time_from_start=Duration(sec=1, nanosec=0),
    )
    msg = JointTrajectory(joint_names=names, points=[point] * n_points)
    msg.header.frame_id = frame_id
    return msg


@pytest.mark.parametrize("n_points", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("names", [["a"], ["a", "bc"], ["abc", "d", "efgh"]])
def test_serialized_trajectory_is_what_rclpy_reads(n_points: int, names: list[str]) -> None:
    serialized_trajectory(n_points, names, frame_id="odd")


@settings(max_examples=60, deadline=None)
@given(
    frame_id=st.text(
        st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=9
    ),
    names=st.lists(
        st.text(
            st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=7
        ),
        max_size=5,
    ),
    lengths=st.lists(st.integers(0, 4), max_size=6),
)
def test_point_count_is_the_number_of_points(frame_id: str, names: list[str], lengths) -> None:
    """Any frame_id and joint names (every alignment), points of any field lengths."""
    msg = JointTrajectory(joint_names=names)
    msg.header.frame_id = frame_id
    msg.points = [JointTrajectoryPoint(positions=[1.0] * n, effort=[2.0] * n) for n in lengths]
    assert trajectory_point_count(serialize_message(msg)) == len(lengths)


def test_point_count_of_a_big_endian_message() -> None:
    """CDR big endian (encapsulation 00 00): 2 names, 7 points."""
    body = struct.pack(">iI", 0, 0) + struct.pack(">I", 1) + b"\0" + b"\0" * 3
    body += struct.pack(">I", 2) + struct.pack(">I", 2) + b"a\0" + b"\0\0"
    body += struct.pack(">I", 3) + b"bc\0" + b"\0" + struct.pack(">I", 7)
    assert trajectory_point_count(b"\x00\x00\x00\x00" + body) == 7


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (b"", r"not a CDR-encoded message \(encapsulation missing\)"),
        (b"\x07\x01\x00\x00" + bytes(20), r"not a CDR-encoded message \(encapsulation 0701\)"),
        (b"\x00\x01\x00\x00" + bytes(8), r"the message ends at byte 12, before its point count"),
        (
            serialize_message(JointTrajectory(joint_names=["a"]))[:-4],
            r"the message ends at byte \d+, before its point count",
        ),
        (
            b"\x00\x01\x00\x00" + bytes(8) + struct.pack("<II", 0, MAX_JOINT_NAMES + 1),
            rf"joint_trajectory: {MAX_JOINT_NAMES + 1} joint names, more than {MAX_JOINT_NAMES}",
        ),
    ],
)
def test_malformed_bytes_are_refused(data: bytes, match: str) -> None:
    with pytest.raises(CommandError, match=match):
        trajectory_point_count(data)


class _Sink:
    """The intake's process / reject / on_error, recording what they get and on which thread;
    ``gate`` (when set) holds ``process`` until it is set."""

    def __init__(self) -> None:
        self.processed: list[tuple[int, str]] = []
        self.rejected: list[tuple[str, str]] = []
        self.errors: list[Exception] = []
        self.gate: threading.Event | None = None
        self.started = threading.Event()

    def process(self, data: bytes) -> None:
        self.started.set()
        if self.gate is not None:
            self.gate.wait(5.0)
        points = trajectory_point_count(data)
        if points == 13:
            raise RuntimeError("unlucky")
        self.processed.append((points, threading.current_thread().name))

    def reject(self, reason: str, text: str) -> None:
        self.rejected.append((reason, text))


@pytest.fixture()
def intake() -> Any:
    sink = _Sink()
    made = TrajectoryIntake(5_000, sink.process, sink.reject, sink.errors.append)
    made.sink = sink
    yield made
    made.close()


def _wait_idle(intake: TrajectoryIntake) -> None:
    end = time.monotonic() + 5.0
    while not intake.idle():
        assert time.monotonic() < end, "the intake did not finish"
        time.sleep(0.001)


def test_too_many_points_are_refused_unread(intake) -> None:
    intake.offer(serialized_trajectory(5_001, ["a"]))
    assert intake.sink.rejected == [
        (
            "trajectory_too_long",
            "joint_trajectory: 5001 points refused, more than max_trajectory_points (5000). Fix: "
            "send the trajectory in parts of at most 5000 points, or raise max_trajectory_points.",
        )
    ]
    assert intake.sink.processed == [] and intake.idle()


def test_malformed_bytes_are_counted(intake) -> None:
    intake.offer(b"\x00\x01\x00\x00" + bytes(6))
    ((reason, text),) = intake.sink.rejected
    assert reason == "malformed_trajectory" and "before its point count" in text


def test_a_small_trajectory_is_processed_inline_and_a_long_one_by_the_worker(intake) -> None:
    intake.offer(serialized_trajectory(INLINE_POINTS, ["a"]))
    assert intake.sink.processed == [(INLINE_POINTS, threading.current_thread().name)]
    intake.offer(serialized_trajectory(INLINE_POINTS + 1, ["a"]))
    _wait_idle(intake)
    assert intake.sink.processed[1] == (INLINE_POINTS + 1, "sdf_bridge trajectory intake")


def test_order_is_kept_and_a_waiting_trajectory_is_superseded(intake) -> None:
    """While the worker works on a long trajectory, a small one queues behind it (not inline:
    it would overtake); a newer one replaces one still waiting, counted."""
    sink = intake.sink
    sink.gate = threading.Event()
    intake.offer(serialized_trajectory(3_000, ["a"]))
    assert sink.started.wait(5.0)
    intake.offer(serialized_trajectory(2, ["a"]))
    intake.offer(serialized_trajectory(4, ["a"]))
    assert [reason for reason, _ in sink.rejected] == ["trajectory_superseded"]
    sink.gate.set()
    _wait_idle(intake)
    assert [points for points, _ in sink.processed] == [3_000, 4]


def test_an_exception_while_processing_goes_to_on_error(intake) -> None:
    intake.offer(serialized_trajectory(13, ["a"]))  # inline
    intake.offer(serialized_trajectory(INLINE_POINTS + 1, ["a"]))  # the worker goes on
    _wait_idle(intake)
    assert [str(e) for e in intake.sink.errors] == ["unlucky"]
    assert [points for points, _ in intake.sink.processed] == [INLINE_POINTS + 1]


def test_after_close_nothing_is_processed(intake) -> None:
    intake.close()
    intake.close()  # idempotent
    intake.offer(serialized_trajectory(2, ["a"]))
    assert intake.sink.processed == []
