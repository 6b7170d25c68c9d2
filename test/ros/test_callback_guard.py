"""sdf_bridge.ros.callback_guard: every callback of a GuardedNode is an error boundary (in
process: real rclpy nodes, their registered callbacks called as the executor calls them)."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import pytest
from builtin_interfaces.msg import Time
from prerequisites import require_simulation_interfaces
from rclpy.context import Context
from rclpy.exceptions import ParameterNotDeclaredException
from rclpy.parameter import Parameter
from rclpy.timer import TimerInfo
from rosgraph_msgs.msg import Clock
from std_msgs.msg import String
from std_srvs.srv import SetBool, Trigger

from sdf_bridge.ros.callback_guard import (
    MAX_TEXT,
    CallbackGuard,
    GuardedNode,
    clock_problem,
    is_power_of_ten,
)
from sdf_bridge.ros.node import BridgeNode


class _Logger:
    """Records (level, text) of the lines a guard logs."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def error(self, text: str) -> None:
        self.lines.append(("error", text))

    def warning(self, text: str) -> None:
        self.lines.append(("warning", text))


@pytest.fixture()
def make_node(ros_context: Context) -> Iterator:
    nodes: list[GuardedNode] = []

    def make(**params: Any) -> tuple[GuardedNode, _Logger]:
        node = GuardedNode(
            f"guarded_{len(nodes)}",
            context=ros_context,
            parameter_overrides=[Parameter(k, value=v) for k, v in params.items()],
        )
        nodes.append(node)
        logger = _Logger()
        node.get_logger = lambda: logger
        return node, logger

    yield make
    for node in nodes:
        node.destroy_node()


def _raise(*args: Any) -> Any:
    raise RuntimeError("boom")


@pytest.mark.parametrize(
    ("n", "expected"),
    [(0, False), (1, True), (2, False), (10, True), (11, False), (100, True), (1000, True)],
)
def test_is_power_of_ten(n: int, expected: bool) -> None:
    assert is_power_of_ten(n) is expected


@pytest.mark.parametrize(
    ("sec", "nanosec", "problem"),
    [
        (0, 0, None),
        (2**31 - 1, 999_999_999, None),
        (-1, 0, "/clock stamp -1 s 0 ns is before time 0"),
        (-(2**31), 5, "/clock stamp -2147483648 s 5 ns is before time 0"),
        (3, 1_000_000_000, "/clock stamp 3 s 1000000000 ns has nanosec >= 10^9 (not normalised)"),
        (3, 2**32 - 1, "/clock stamp 3 s 4294967295 ns has nanosec >= 10^9 (not normalised)"),
    ],
)
def test_clock_problem(sec: int, nanosec: int, problem: str | None) -> None:
    assert clock_problem(Clock(clock=Time(sec=sec, nanosec=nanosec))) == problem


def test_a_raising_subscription_is_counted_and_logged_at_1_10_100(make_node) -> None:
    node, logger = make_node()
    sub = node.create_subscription(String, "chatter", _raise, 10)
    for _ in range(100):
        sub.callback(String(data="x"))
    assert node.callback_guard.dropped == {"/chatter": 100}
    assert [level for level, _ in logger.lines] == ["error"] * 3
    assert [text.split("; ")[1].split(" ")[0] for _, text in logger.lines] == ["1", "10", "100"]
    assert logger.lines[0][1] == (
        "callback /chatter failed (RuntimeError: boom), call dropped; 1 dropped so far (logged "
        "at 1, 10, 100, …; /diagnostics callback_dropped./chatter). The node goes on."
    )


def test_a_long_exception_text_is_cut(make_node) -> None:
    node, logger = make_node()

    def raise_long(msg: String) -> None:
        raise ValueError(msg.data)

    node.create_subscription(String, "long", raise_long, 10).callback(String(data="y" * 10_000))
    ((_, text),) = logger.lines
    assert f"(ValueError: {'y' * MAX_TEXT}… (10000 characters))" in text


def test_nothing_is_logged_once_the_context_shut_down(make_node) -> None:
    node, logger = make_node()
    guard = CallbackGuard(node)
    node.context.ok = lambda: False  # (an instance attribute: the shared context is untouched)
    try:
        guard.record("/x", RuntimeError("late publish"))
    finally:
        del node.context.ok
    assert guard.dropped == {"/x": 1} and logger.lines == []


def test_the_callbacks_signature_is_kept_for_rclpy(make_node) -> None:
    """rclpy passes MessageInfo / TimerInfo by the callback's signature: the wrapper shows the
    original's."""
    node, _ = make_node()

    def with_info(msg: String, info: Any) -> None:
        pass

    def tick(info: TimerInfo) -> None:
        pass

    sub = node.create_subscription(String, "info", with_info, 10)
    assert list(inspect.signature(sub.callback).parameters) == ["msg", "info"]
    timer = node.create_timer(100.0, tick)
    assert list(inspect.signature(timer.callback).parameters) == ["info"]
    node.destroy_timer(timer)


def test_a_raising_timer_is_counted_under_its_function(make_node) -> None:
    node, logger = make_node()
    timer = node.create_timer(100.0, _raise)
    timer.callback()
    timer.callback()
    node.destroy_timer(timer)
    assert node.callback_guard.dropped == {"timer._raise": 2}
    assert len(logger.lines) == 1


@pytest.mark.parametrize(
    ("srv_type", "flag", "text"),
    [
        (SetBool, "success", "message"),
        (Trigger, "success", "message"),
    ],
)
def test_a_raising_service_answers_a_failure(make_node, srv_type, flag, text) -> None:
    node, _ = make_node()
    service = node.create_service(srv_type, "~/fails", _raise)
    response = srv_type.Response()
    setattr(response, flag, True)
    assert service.callback(srv_type.Request(), response) is response
    assert getattr(response, flag) is False
    assert getattr(response, text) == (
        "failed: RuntimeError (counted as callback_dropped./guarded_0/fails)"
    )
    assert node.callback_guard.dropped == {"/guarded_0/fails": 1}


def test_a_raising_simulation_service_answers_operation_failed(make_node) -> None:
    """A simulation_interfaces response (.simulation) gets RESULT_OPERATION_FAILED and the text."""
    require_simulation_interfaces()
    from simulation_interfaces_rig import interfaces

    step = interfaces().srv.StepSimulation
    node, _ = make_node()
    service = node.create_service(step, "~/fails", _raise)
    response = service.callback(step.Request(), step.Response())
    assert response.result.result == step.Response().result.RESULT_OPERATION_FAILED
    assert response.result.error_message == (
        "failed: RuntimeError (counted as callback_dropped./guarded_0/fails)"
    )


def test_a_raising_parameter_check_refuses_the_change(make_node) -> None:
    node, logger = make_node()
    node.declare_parameter("gain", 1.0)
    node.add_on_set_parameters_callback(_raise)
    (result,) = node.set_parameters([Parameter("gain", value=2.0)])
    assert result.successful is False
    assert result.reason == (
        "parameter check failed: RuntimeError (counted as callback_dropped.parameters._raise)"
    )
    assert node.get_parameter("gain").value == 1.0
    assert node.callback_guard.dropped["parameters._raise"] == 1
    node.remove_on_set_parameters_callback(_raise)  # the guarded wrapper is removed
    assert node.set_parameters([Parameter("gain", value=3.0)])[0].successful


def test_a_raising_pre_set_callback_refuses_and_a_post_set_one_is_counted(make_node) -> None:
    node, _ = make_node()
    node.declare_parameter("gain", 1.0)
    node.add_pre_set_parameters_callback(_raise)
    (result,) = node.set_parameters([Parameter("gain", value=2.0)])
    assert result.successful is False and node.get_parameter("gain").value == 1.0
    node.remove_pre_set_parameters_callback(_raise)
    node.add_post_set_parameters_callback(_raise)
    assert node.set_parameters([Parameter("gain", value=4.0)])[0].successful
    node.remove_post_set_parameters_callback(_raise)
    assert node.get_parameter("gain").value == 4.0
    assert node.callback_guard.dropped == {"parameters._raise": 2}


def test_a_pre_set_callback_refusing_an_undeclared_name_passes_through(make_node) -> None:
    """ParameterNotDeclaredException is rclpy's refusal of undeclared names (its services make
    it the reason): a pre-set callback raising it is not counted as a failure."""
    node, _ = make_node()

    def undeclared(parameters: list[Any]) -> list[Any]:
        raise ParameterNotDeclaredException("'gian' (did you mean 'gain'?)")

    node.add_pre_set_parameters_callback(undeclared)
    with pytest.raises(ParameterNotDeclaredException, match=r": 'gian' \(did you mean 'gain'"):
        node.set_parameters([Parameter("gian", value=2.0)])
    assert not node.callback_guard.dropped


def test_clock_before_time_zero_never_reaches_the_time_source(make_node) -> None:
    """Under use_sim_time rclpy's own /clock subscription is checked first: ``sec: -1`` (rclpy
    raised 'Seconds value must not be negative' in the executor) is dropped, counted and
    logged as a warning; the node's clock keeps the last good time."""
    node, logger = make_node(use_sim_time=True)
    clock_sub = node._time_source._clock_sub
    clock_sub.callback(Clock(clock=Time(sec=5, nanosec=250_000_000)))
    assert node.get_clock().now().nanoseconds == 5_250_000_000
    clock_sub.callback(Clock(clock=Time(sec=-1)))
    clock_sub.callback(Clock(clock=Time(sec=7, nanosec=1_000_000_000)))
    assert node.get_clock().now().nanoseconds == 5_250_000_000
    assert node.callback_guard.dropped == {"/clock": 2}
    assert logger.lines == [
        (
            "warning",
            "/clock: message dropped: /clock stamp -1 s 0 ns is before time 0; dropped, the "
            "node's clock keeps its time; 1 dropped so far (logged at 1, 10, 100, …; "
            "/diagnostics callback_dropped./clock). The node goes on.",
        )
    ]


def test_the_bridge_node_reports_dropped_callbacks_in_its_diagnostics(ros_context) -> None:
    """BridgeNode is a GuardedNode: its counts are ``callback_dropped.<name>`` values of
    /diagnostics, and a growing count makes the status WARN."""
    node = BridgeNode(context=ros_context, node_name="guarded_bridge", start=False)
    try:
        node.callback_guard.dropped["/clock"] += 3
        (status,) = node.diagnostics_message(Time(sec=1)).status
        values = {kv.key: kv.value for kv in status.values}
        assert values["callback_dropped./clock"] == "3"
        assert "3 dropped callbacks" in status.message
        (status,) = node.diagnostics_message(Time(sec=2)).status
        assert "dropped callbacks" not in status.message
    finally:
        node.shutdown()
        node.destroy_node()
