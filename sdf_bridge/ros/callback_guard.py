"""Every callback of the bridge node is an error boundary: nothing a peer sends ends the process.

A subscription, service, timer or parameter callback that raises would propagate out of the
executor's ``spin_once`` and end the bridge (a traceback, exit 1). :class:`GuardedNode` wraps
every callback its node registers — the bridge's own and those rclpy registers on the node (the
``/clock`` subscription of its time source under ``use_sim_time``, the parameter and type
description services, the time source's parameter check) — so that an exception (any
``Exception``; ``KeyboardInterrupt`` and :class:`~.stop_signals.StopRequested` pass) becomes a
counted, throttled diagnostic instead:

* counted per callback in :attr:`CallbackGuard.dropped` (name → count; the node's
  ``/diagnostics`` show them as ``callback_dropped.<name>``): the resolved topic name of a
  subscription (``/joint_commands``), the resolved name of a service (``/sdf_bridge/enable``),
  ``timer.<function>`` of a timer, ``parameters.<function>`` of a parameter callback;
* logged the 1st, 10th, 100th, … time for each name (one line: the callback, the exception's
  type and its text cut to :data:`MAX_TEXT` characters, the count; an error, a warning for a
  message refused on purpose, :class:`DroppedMessage`), and not at all once the node's context
  has shut down (a publish racing SIGINT);
* answered: a service request gets its response with ``success``/``bool_value`` false and
  ``message``/``string_value`` naming the failure (a simulation_interfaces one
  ``RESULT_OPERATION_FAILED`` and the text as its ``error_message``); an on-set parameter
  callback refuses the change (``SetParametersResult(successful=False)``); a pre-set callback
  returns no parameters (rclpy then refuses the change); a subscription's message and a
  timer's tick are dropped.

``/clock`` is validated before it reaches rclpy: rclpy's ``TimeSource.clock_callback`` raises
``ValueError: Seconds value must not be negative`` inside the executor for a stamp with
``sec < 0`` (one message from any peer ended the bridge). :func:`clock_problem` names what is
wrong with a stamp (negative seconds, nanoseconds ≥ 10⁹); such a message is dropped and counted
under ``/clock`` before the time source sees it, so the node's clock never jumps to it.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from typing import Any

from rcl_interfaces.msg import SetParametersResult
from rclpy.exceptions import ParameterNotDeclaredException
from rclpy.node import Node
from rclpy.time_source import TimeSource

#: Most characters of an exception's text in the log line (a peer's message may be huge).
MAX_TEXT = 300
#: The type of a simulation_interfaces response's ``result`` field, and its failure code
#: (``simulation_interfaces/msg/Result.RESULT_OPERATION_FAILED``).
SIMULATION_RESULT = "simulation_interfaces/Result"
OPERATION_FAILED = 4
#: Nanoseconds in a second: a ``builtin_interfaces/Time.nanosec`` is below it.
NS_PER_S = 1_000_000_000


class DroppedMessage(ValueError):
    """A message a callback refuses before using it (e.g. an invalid ``/clock`` stamp)."""


def clock_problem(msg: Any) -> str | None:
    """What makes ``msg`` (a ``rosgraph_msgs/Clock``) unusable as the node's time, or ``None``:
    a negative ``sec`` (before time 0: rclpy's ``Time`` refuses it with a ValueError) or a
    ``nanosec`` of 10⁹ or more (not a normalised stamp)."""
    sec, nanosec = msg.clock.sec, msg.clock.nanosec
    if sec < 0:
        return f"/clock stamp {sec} s {nanosec} ns is before time 0"
    if nanosec >= NS_PER_S:
        return f"/clock stamp {sec} s {nanosec} ns has nanosec >= 10^9 (not normalised)"
    return None


def is_power_of_ten(n: int) -> bool:
    """Whether ``n`` is 1, 10, 100, … (the counts at which a dropped callback is logged)."""
    return n > 0 and str(n).rstrip("0") == "1"


class CallbackGuard:
    """Turns exceptions of callbacks into counts and throttled log lines (module doc).

    Args:
        node: the node whose logger and context are used (looked up when a callback fails).

    Attributes:
        dropped: callback name → number of calls that raised (or messages refused).
    """

    def __init__(self, node: Node) -> None:
        self._node = node
        self.dropped: Counter[str] = Counter()

    def record(self, name: str, exc: Exception) -> None:
        """Count a failed call of callback ``name`` and log it the 1st, 10th, 100th, … time
        (not once the node's context has shut down)."""
        self.dropped[name] += 1
        count = self.dropped[name]
        node = self._node
        if not is_power_of_ten(count) or not node.context.ok():
            return
        text = str(exc)
        if len(text) > MAX_TEXT:
            text = text[:MAX_TEXT] + f"… ({len(text)} characters)"
        counted = (
            f"{count} dropped so far (logged at 1, 10, 100, …; /diagnostics "
            f"callback_dropped.{name}). The node goes on."
        )
        if isinstance(exc, DroppedMessage):  # refused on purpose: the peer's fault
            node.get_logger().warning(f"{name}: message dropped: {text}; {counted}")
        else:
            node.get_logger().error(
                f"callback {name} failed ({type(exc).__name__}: {text}), call dropped; {counted}"
            )

    def subscription(self, name: str, callback: Callable[..., Any]) -> Callable[..., Any]:
        """``callback`` (message[, message info]) guarded: an exception drops the message."""

        @functools.wraps(callback)
        def guarded(*args: Any, **kwargs: Any) -> None:
            try:
                callback(*args, **kwargs)
            except Exception as exc:
                self.record(name, exc)

        return guarded

    def timer(self, name: str, callback: Callable[..., Any]) -> Callable[..., Any]:
        """``callback`` ([timer info]) guarded: an exception drops this tick."""
        return self.subscription(name, callback)

    def service(self, name: str, callback: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        """``callback`` (request, response) guarded: on an exception the response is returned
        with its ``success``/``bool_value`` false and ``message``/``string_value`` naming the
        failure (the fields it has); a simulation_interfaces response (a ``result`` of type
        ``simulation_interfaces/Result``: :mod:`.simulation`) with ``RESULT_OPERATION_FAILED``
        and that text as its ``error_message``."""

        @functools.wraps(callback)
        def guarded(request: Any, response: Any) -> Any:
            try:
                return callback(request, response)
            except Exception as exc:
                self.record(name, exc)
                fields = response.get_fields_and_field_types()
                text = f"failed: {type(exc).__name__} (counted as callback_dropped.{name})"
                for field in ("success", "bool_value"):
                    if fields.get(field) == "boolean":
                        setattr(response, field, False)
                for field in ("message", "string_value"):
                    if fields.get(field) == "string":
                        setattr(response, field, text)
                if fields.get("result") == SIMULATION_RESULT:  # the standard's result code
                    response.result.result = OPERATION_FAILED
                    response.result.error_message = text
                return response

        return guarded

    def on_set_parameters(
        self, name: str, callback: Callable[[list[Any]], SetParametersResult]
    ) -> Callable[[list[Any]], SetParametersResult]:
        """An on-set parameters ``callback`` guarded: an exception refuses the change."""

        @functools.wraps(callback)
        def guarded(parameters: list[Any]) -> SetParametersResult:
            try:
                return callback(parameters)
            except Exception as exc:
                self.record(name, exc)
                return SetParametersResult(
                    successful=False,
                    reason=f"parameter check failed: {type(exc).__name__} (counted as "
                    f"callback_dropped.{name})",
                )

        return guarded

    def pre_set_parameters(
        self, name: str, callback: Callable[[list[Any]], list[Any]]
    ) -> Callable[[list[Any]], list[Any]]:
        """A pre-set parameters ``callback`` guarded: an exception returns no parameters (rclpy
        then refuses the change). A ``ParameterNotDeclaredException`` passes through: it is
        rclpy's own refusal of undeclared names, which its parameter services turn into the
        call's reason (a callback raising it gives that reason its text)."""

        @functools.wraps(callback)
        def guarded(parameters: list[Any]) -> list[Any]:
            try:
                return callback(parameters)
            except ParameterNotDeclaredException:
                raise
            except Exception as exc:
                self.record(name, exc)
                return []

        return guarded

    def clock(self, name: str, callback: Callable[[Any], None]) -> Callable[[Any], None]:
        """rclpy's ``TimeSource.clock_callback`` behind :func:`clock_problem` (then guarded): an
        invalid stamp is dropped and counted before the time source sees it."""

        def checked(msg: Any) -> None:
            problem = clock_problem(msg)
            if problem is not None:
                raise DroppedMessage(f"{problem}; dropped, the node's clock keeps its time")
            callback(msg)

        return self.subscription(name, checked)


def _function_name(callback: Callable[..., Any]) -> str:
    """``Class.method`` or ``function`` of a callback (closures: their enclosing function's
    qualified name without ``<locals>``)."""
    qualname = getattr(callback, "__qualname__", None) or type(callback).__name__
    return qualname.replace(".<locals>", "")


class GuardedNode(Node):
    """An rclpy node whose every subscription, service, timer and parameter callback is
    guarded by its ``callback_guard`` (:class:`CallbackGuard`, module doc), including the
    ones rclpy's ``Node.__init__`` registers; ``/clock`` for the node's time source is checked
    with :func:`clock_problem` first. Use as the first base of a node class (cooperative
    ``super()``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # before Node.__init__, which registers callbacks of its own
        self.callback_guard = CallbackGuard(self)
        self._guarded_parameters: dict[Any, Any] = {}  # parameter callback → its guarded wrapper
        super().__init__(*args, **kwargs)

    def create_subscription(
        self, msg_type: Any, topic: str, callback: Any, qos_profile: Any, **kwargs: Any
    ) -> Any:
        """:meth:`rclpy.node.Node.create_subscription` with ``callback`` guarded under the
        resolved topic name (rclpy's time source's ``/clock``: validated first)."""
        name = self.resolve_topic_name(topic)
        owner = getattr(callback, "__self__", None)
        if isinstance(owner, TimeSource) and callback.__name__ == "clock_callback":
            guarded = self.callback_guard.clock(name, callback)
        else:
            guarded = self.callback_guard.subscription(name, callback)
        return super().create_subscription(msg_type, topic, guarded, qos_profile, **kwargs)

    def create_service(self, srv_type: Any, srv_name: str, callback: Any, **kwargs: Any) -> Any:
        """:meth:`rclpy.node.Node.create_service` with ``callback`` guarded under the resolved
        service name."""
        name = self.resolve_service_name(srv_name)
        guarded = self.callback_guard.service(name, callback)
        return super().create_service(srv_type, srv_name, guarded, **kwargs)

    def create_timer(
        self, timer_period_sec: float, callback: Any, *args: Any, **kwargs: Any
    ) -> Any:
        """:meth:`rclpy.node.Node.create_timer` with ``callback`` guarded as
        ``timer.<function>``."""
        if callback is not None:
            callback = self.callback_guard.timer(f"timer.{_function_name(callback)}", callback)
        return super().create_timer(timer_period_sec, callback, *args, **kwargs)

    def add_on_set_parameters_callback(self, callback: Any) -> None:
        """:meth:`rclpy.node.Node.add_on_set_parameters_callback`, guarded as
        ``parameters.<function>`` (an exception refuses the change)."""
        guarded = self.callback_guard.on_set_parameters(self._parameters_name(callback), callback)
        super().add_on_set_parameters_callback(self._remember(callback, guarded))

    def add_pre_set_parameters_callback(self, callback: Any) -> None:
        """:meth:`rclpy.node.Node.add_pre_set_parameters_callback`, guarded as
        ``parameters.<function>`` (an exception refuses the change)."""
        guarded = self.callback_guard.pre_set_parameters(self._parameters_name(callback), callback)
        super().add_pre_set_parameters_callback(self._remember(callback, guarded))

    def add_post_set_parameters_callback(self, callback: Any) -> None:
        """:meth:`rclpy.node.Node.add_post_set_parameters_callback`, guarded as
        ``parameters.<function>`` (an exception is counted; the parameters are set already)."""
        guarded = self.callback_guard.subscription(self._parameters_name(callback), callback)
        super().add_post_set_parameters_callback(self._remember(callback, guarded))

    def remove_on_set_parameters_callback(self, callback: Any) -> None:
        """Remove a callback added with :meth:`add_on_set_parameters_callback` (as rclpy's)."""
        super().remove_on_set_parameters_callback(self._guarded_parameters.pop(callback, callback))

    def remove_pre_set_parameters_callback(self, callback: Any) -> None:
        """Remove a callback added with :meth:`add_pre_set_parameters_callback` (as rclpy's)."""
        super().remove_pre_set_parameters_callback(self._guarded_parameters.pop(callback, callback))

    def remove_post_set_parameters_callback(self, callback: Any) -> None:
        """Remove a callback added with :meth:`add_post_set_parameters_callback` (as rclpy's)."""
        super().remove_post_set_parameters_callback(
            self._guarded_parameters.pop(callback, callback)
        )

    @staticmethod
    def _parameters_name(callback: Any) -> str:
        return f"parameters.{_function_name(callback)}"

    def _remember(self, callback: Any, guarded: Any) -> Any:
        """Note which guarded wrapper stands for parameter ``callback`` (for its removal)."""
        self._guarded_parameters[callback] = guarded
        return guarded
