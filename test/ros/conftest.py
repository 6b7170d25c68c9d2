"""Fixtures for the ROS tests: a private DDS domain, the bridge as a real child process and a
probe node in the pytest process (real rclpy over DDS on loopback).

* ROS_DOMAIN_ID: the caller's when set (so concurrent test runs can be kept apart), else random
  in 100..200 for the whole session; discovery limited to localhost; set before rclpy
  initialises (children inherit it).
* :class:`Bridge`: ``python -m sdf_bridge.ros.main --ros-args -p ...`` in its own process;
  ``stop()`` sends SIGINT and returns the exit code.
* :class:`Probe`: a node with an executor spun on demand; records every message of the topics
  it watches and waits for conditions with a deadline (a missed deadline fails the test with a
  message; it is never a timing assertion on the bridge).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from child_process import ChildProcess

REPO = Path(__file__).resolve().parents[2]

os.environ.setdefault("ROS_DOMAIN_ID", str(random.SystemRandom().randint(100, 200)))
os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"

import rclpy  # noqa: E402  (after the environment is set)
from rclpy.context import Context
from rclpy.executors import SingleThreadedExecutor
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

WAIT = 20.0  # s: generous deadline for anything to arrive (CI machines are slow and shared)
#: /rosout's own profile (rcl's rosout default): reliable, transient local, last 1000.
ROSOUT_QOS = QoSProfile(
    depth=1000, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL
)


class Bridge(ChildProcess):
    """The bridge node in a child process.

    Args:
        params: parameter name → value (JSON-encoded into ``-p name:=value``).
        name: node name (``-r __node:=name``), default ``sdf_bridge``.
        extra: further ROS arguments.
        env: environment variables to set for it (over the test process's).
    """

    def __init__(
        self,
        params: Mapping[str, Any],
        *,
        name: str = "sdf_bridge",
        extra: list[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.name = name
        argv = [sys.executable, "-m", "sdf_bridge.ros.main", "--ros-args", "-r", f"__node:={name}"]
        for key, value in params.items():
            argv += ["-p", f"{key}:={json.dumps(value)}"]
        super().__init__(
            argv + (extra or []), cwd=REPO, env=None if env is None else {**os.environ, **env}
        )


class Probe:
    """A test node that records messages per topic and calls services."""

    def __init__(self, context: Context, name: str) -> None:
        self.node = rclpy.create_node(name, context=context)
        self.executor = SingleThreadedExecutor(context=context)
        self.executor.add_node(self.node)
        self.messages: dict[str, list[Any]] = defaultdict(list)
        self.arrivals: dict[str, list[float]] = defaultdict(list)
        self._subs: dict[str, Any] = {}
        self._pubs: dict[str, Any] = {}

    def watch(self, topic: str, msg_type: type, qos: QoSProfile | int = 10) -> None:
        """Record every message on ``topic`` (idempotent)."""
        if topic in self._subs:
            return

        def callback(msg: Any) -> None:
            self.messages[topic].append(msg)
            self.arrivals[topic].append(time.monotonic())

        self._subs[topic] = self.node.create_subscription(msg_type, topic, callback, qos)

    def unwatch(self, topic: str) -> None:
        """Stop recording ``topic``: its subscription is destroyed (its messages are kept)."""
        subscription = self._subs.pop(topic, None)
        if subscription is not None:
            self.node.destroy_subscription(subscription)

    def publisher(self, topic: str, msg_type: type, qos: QoSProfile | int = 10) -> Any:
        """A (cached) publisher for ``topic``."""
        if topic not in self._pubs:
            self._pubs[topic] = self.node.create_publisher(msg_type, topic, qos)
        return self._pubs[topic]

    def spin_for(self, seconds: float) -> None:
        """Process callbacks for ``seconds``."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.executor.spin_once(timeout_sec=min(0.05, max(0.0, end - time.monotonic())))

    def spin_until(self, future: Any, timeout: float) -> None:
        """Process callbacks until ``future`` is done or ``timeout`` s passed (``None``: for
        ``timeout`` s); no failure (the caller judges)."""
        end = time.monotonic() + timeout
        while (future is None or not future.done()) and time.monotonic() < end:
            self.executor.spin_once(timeout_sec=min(0.05, max(0.0, end - time.monotonic())))

    def wait_for(self, predicate: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
        """Spin until ``predicate()``; fail the test naming ``what`` after ``timeout`` s."""
        end = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > end:
                pytest.fail(f"timed out after {timeout} s waiting for {what}")
            self.executor.spin_once(timeout_sec=0.05)

    def wait_messages(self, topic: str, count: int, timeout: float = WAIT) -> list[Any]:
        """Wait until ``count`` more messages arrived on ``topic``; return those."""
        start = len(self.messages[topic])
        self.wait_for(
            lambda: len(self.messages[topic]) >= start + count,
            f"{count} messages on {topic}",
            timeout,
        )
        return self.messages[topic][start:]

    def latest(self, topic: str) -> Any:
        """The last message on ``topic`` (waits for one)."""
        self.wait_for(lambda: bool(self.messages[topic]), f"a message on {topic}")
        return self.messages[topic][-1]

    def call(self, srv_type: type, name: str, request: Any, timeout: float = WAIT) -> Any:
        """Call service ``name`` and return the response."""
        client = self.node.create_client(srv_type, name)
        try:
            self.wait_for(lambda: client.service_is_ready(), f"service {name}", timeout)
            future = client.call_async(request)
            self.wait_for(future.done, f"response of {name}", timeout)
            return future.result()
        finally:
            self.node.destroy_client(client)

    def wait_ready(
        self, bridge: Bridge, topic: str = "/joint_states", timeout: float = 60.0
    ) -> None:
        """Wait for the first message of ``bridge`` on ``topic`` (watched already); fail with the
        bridge's output if it exits first."""
        start = len(self.messages[topic])
        self.wait_for(
            lambda: len(self.messages[topic]) > start or not bridge.running(),
            f"{bridge.name} to publish {topic}",
            timeout,
        )
        if not bridge.running():
            pytest.fail(f"bridge exited with {bridge.process.returncode}:\n{bridge.output()}")

    def destroy(self) -> None:
        """Destroy the node and executor."""
        self.executor.shutdown()
        self.node.destroy_node()


@pytest.fixture(scope="session")
def ros_context() -> Iterator[Context]:
    """An rclpy context for the test process (session)."""
    context = Context()
    rclpy.init(args=[], context=context)
    yield context
    rclpy.try_shutdown(context=context)


@pytest.fixture(scope="module")
def probe(ros_context: Context, request: pytest.FixtureRequest) -> Iterator[Probe]:
    """A probe node for the test module."""
    p = Probe(ros_context, f"probe_{request.module.__name__.rsplit('.', 1)[-1]}")
    yield p
    p.destroy()


@pytest.fixture(scope="session")
def start_bridge() -> Iterator[Callable[..., Bridge]]:
    """Factory starting bridges; every bridge still running at session end is stopped."""
    started: list[Bridge] = []

    def start(params: Mapping[str, Any], **kwargs: Any) -> Bridge:
        bridge = Bridge(params, **kwargs)
        started.append(bridge)
        return bridge

    yield start
    for bridge in started:
        bridge.stop()
