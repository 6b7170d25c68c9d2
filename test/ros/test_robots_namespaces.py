"""Several robots' nodes (sdf_bridge.ros.robots): their namespaces (their names, or those of
``robot_namespaces``) and their errors; each robot's part of a tick an error boundary."""

from __future__ import annotations

from collections import Counter

import pytest

from sdf_bridge.errors import BackendError, ConfigError
from sdf_bridge.ros.robots import parse_robot_namespaces, robot_namespace, robot_step


def test_a_robot_runs_in_the_namespace_of_its_name_or_the_one_given() -> None:
    assert robot_namespace("/", "arm") == "/arm"
    assert robot_namespace("/sim", "arm") == "/sim/arm"
    assert robot_namespace("/sim", "arm", "fleet/a") == "/sim/fleet/a"
    assert robot_namespace("/sim", "arm", "/a") == "/a"
    assert robot_namespace("/", "my-arm", "my_arm") == "/my_arm"  # a name that is no token


def test_a_name_that_is_no_namespace_token_needs_one() -> None:
    with pytest.raises(
        ConfigError,
        match=r"robot name 'my-arm' is not a valid ROS namespace token .* Fix: rename the robot "
        r".* or give its namespace: robot_namespaces:=\['my-arm=NAMESPACE'\]\.",
    ):
        robot_namespace("/", "my-arm")


def test_robot_namespaces_parse() -> None:
    assert parse_robot_namespaces(("a=fleet/a", " b = /b "), ("a", "b")) == {
        "a": "fleet/a",
        "b": "/b",
    }
    for item in ("a", "c=x", "a=bad name", "a="):
        with pytest.raises(
            ConfigError,
            match=rf"robot_namespaces item '{item}' is not ROBOT=NAMESPACE with one of the "
            r"robots \(a, b\) and a ROS namespace\. Fix: give e\.g\. a=fleet/a\.",
        ):
            parse_robot_namespaces((item,), ("a", "b"))


class _Member:
    """What robot_step uses of a robot's node."""

    def __init__(self, ok: bool = True) -> None:
        self.rejects: Counter[str] = Counter()
        self.logged: list[str] = []
        self.context = type("Context", (), {"ok": lambda _self: ok})()

    def get_logger(self):
        member = self

        class Logger:
            def error(self, text: str, **_kwargs) -> None:
                member.logged.append(text)

        return Logger()


def test_a_failing_robot_step_is_counted_and_logged_not_raised() -> None:
    member = _Member()
    assert robot_step(member, "read", lambda x: x + 1, 1) == 2 and not member.rejects

    def fail() -> None:
        raise BackendError("physics diverged")

    assert robot_step(member, "write", fail) is None
    assert member.rejects == Counter({"cycle_write": 1})
    assert member.logged == [
        "control tick (write) failed for this robot: BackendError: physics diverged"
    ]
    stopped = _Member(ok=False)  # the context shut down: quiet
    assert robot_step(stopped, "write", fail) is None and not stopped.rejects
