"""Python ``logging`` → rclpy logging: the package's messages on ``/rosout`` and in the ROS log
files once a node exists.

Everything below ``sdf_bridge`` (description loader, transmissions, limits, hardware, backends)
logs through Python's :mod:`logging` and knows nothing of ROS. The bridge node calls
:func:`attach` when it starts: from then on a :class:`RosLogHandler` on the ``sdf_bridge``
logger forwards each record to a child of the node's rclpy logger named after the record's
logger (``sdf_bridge.hardware.watchdog`` → ``<node logger>.hardware.watchdog``). With several
robots (one node each, :mod:`.robots`), the code running one robot's part says so with
:func:`speaking_for`, and that robot's records go to its node's logger, so rclpy prints
it, writes it to the ROS log file and publishes it on ``/rosout``. Whether a record is forwarded
is decided by that rclpy logger's effective level, i.e. by ``--ros-args --log-level LEVEL`` or
``--log-level <node>.hardware:=debug`` (rcutils loggers inherit along the dots). :func:`detach`
undoes it when the node shuts down.

:func:`configure_process_logging` (the ``bridge`` executable's set-up) prints records to stderr
before a node exists and third-party loggers' records (OpenGL, trimesh, …) at
:data:`THIRD_PARTY_LEVEL` and above only; while a node is attached it leaves the package's
records to rclpy (no second copy on stderr).
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import weakref
from collections.abc import Iterator
from typing import Any

PACKAGE_LOGGER = "sdf_bridge"
THIRD_PARTY_LEVEL = logging.WARNING
"""Level of every other library's loggers in the bridge process (their INFO lines stay out)."""
#: The ``logging`` format of the process's standard error lines (``[LEVEL] [logger]: text``).
STDERR_FORMAT = "[%(levelname)s] [%(name)s]: %(message)s"


def _debug(logger: Any, text: str) -> None:
    logger.debug(text)


def _info(logger: Any, text: str) -> None:
    logger.info(text)


def _warning(logger: Any, text: str) -> None:
    logger.warning(text)


def _error(logger: Any, text: str) -> None:
    logger.error(text)


def _fatal(logger: Any, text: str) -> None:
    logger.fatal(text)


# rclpy keys its per-call-site state by the caller's line and refuses a second severity from the
# same line ("Logger severity cannot be changed between calls"): one call site per severity.
# (Python level floor, rcutils severity (same numbers), call site), highest first.
_SEVERITIES = (
    (logging.CRITICAL, 50, _fatal),
    (logging.ERROR, 40, _error),
    (logging.WARNING, 30, _warning),
    (logging.INFO, 20, _info),
    (logging.NOTSET, 10, _debug),
)


def rcutils_severity(levelno: int) -> int:
    """The rcutils severity (``rclpy.logging.LoggingSeverity`` value: DEBUG 10, INFO 20, WARN 30,
    ERROR 40, FATAL 50) of a Python log level: the highest whose Python level ``levelno``
    reaches (levels between two named ones round down)."""
    return next(severity for floor, severity, _ in _SEVERITIES if levelno >= floor)


class RosLogHandler(logging.Handler):
    """Forwards records of the ``sdf_bridge`` logger tree to the rclpy logger of the most recently
    attached node that is still alive (weakly referenced: a node whose construction failed drops out
    by itself). Records are dropped while no node is attached; :func:`configure_process_logging`'s
    stderr handler prints them then."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(message)s"))  # rclpy adds severity, time, name
        self._targets: list[
            tuple[weakref.ref[Any], Any, dict[str, Any]]
        ] = []  # (node, logger, children)
        self._targets_lock = threading.Lock()
        self.saved_level = logging.NOTSET  # the package logger's level before the first attach

    def attach(self, node: Any) -> None:
        """Forward to ``node``'s logger from now on (until :meth:`detach`)."""
        with self._targets_lock:
            self._targets.append((weakref.ref(node), node.get_logger(), {}))

    def detach(self, node: Any) -> bool:
        """Stop forwarding to ``node`` (and forget nodes that no longer exist); True when no node
        is left. Idempotent."""
        with self._targets_lock:
            self._targets = [t for t in self._targets if t[0]() not in (None, node)]
            return not self._targets

    def forwarding(self) -> bool:
        """Whether a live node is attached (records go to rclpy)."""
        return self._target() is not None

    def _target(self) -> tuple[Any, dict[str, Any]] | None:
        speaker = getattr(_SPEAKER, "node", None)
        fallback = None
        for ref, logger, children in reversed(self._targets):
            node = ref()
            if node is None:
                continue
            if speaker is None or node is speaker:
                return logger, children
            if fallback is None:
                fallback = logger, children
        return fallback

    def emit(self, record: logging.LogRecord) -> None:
        """Log ``record`` on the rclpy child logger of its Python logger's name, if that logger's
        effective level lets its severity through."""
        target = self._target()
        if target is None:
            return
        node_logger, children = target
        name = record.name
        if name == PACKAGE_LOGGER:
            logger = node_logger
        else:
            logger = children.get(name)
            if logger is None:
                # (the handler is on the package logger: ``name`` is ``sdf_bridge.<suffix>``); a
                # child logger is also a /rosout sublogger of the node (rclpy's get_child)
                logger = children[name] = node_logger.get_child(name[len(PACKAGE_LOGGER) + 1 :])
        severity = rcutils_severity(record.levelno)
        try:
            if not logger.is_enabled_for(severity):
                return
            call = next(site for _, level, site in _SEVERITIES if level == severity)
            call(logger, self.format(record))
        except Exception:
            self.handleError(record)


_HANDLER = RosLogHandler()
_SPEAKER = threading.local()  # .node: the node this thread's records are for (speaking_for)


@contextlib.contextmanager
def speaking_for(node: Any) -> Iterator[None]:
    """Within the block, this thread's records go to ``node``'s logger (when it is attached),
    not the most recently attached node's: one robot's part of a tick among several robots'
    nodes (a watchdog trip is then logged under the robot that tripped)."""
    previous = getattr(_SPEAKER, "node", None)
    _SPEAKER.node = node
    try:
        yield
    finally:
        _SPEAKER.node = previous


def attach(node: Any) -> None:
    """Forward the package's log records to ``node``'s rclpy logger (see the module docstring).
    The package logger passes every level to the handler meanwhile; rclpy's levels decide."""
    package = logging.getLogger(PACKAGE_LOGGER)
    if _HANDLER not in package.handlers:
        _HANDLER.saved_level = package.level
        package.addHandler(_HANDLER)
        package.setLevel(logging.DEBUG)
    _HANDLER.attach(node)


def detach(node: Any) -> None:
    """Stop forwarding to ``node``; with no node left, the package logger is as before
    :func:`attach`. Idempotent."""
    package = logging.getLogger(PACKAGE_LOGGER)
    if _HANDLER in package.handlers and _HANDLER.detach(node):
        package.removeHandler(_HANDLER)
        package.setLevel(_HANDLER.saved_level)


class _UnlessForwarded(logging.Filter):
    """Drops the package's records while :data:`_HANDLER` forwards them to rclpy (which prints
    them itself)."""

    def filter(self, record: logging.LogRecord) -> bool:
        in_package = record.name == PACKAGE_LOGGER or record.name.startswith(PACKAGE_LOGGER + ".")
        return not (in_package and _HANDLER.forwarding())


def configure_process_logging(package_level: int = logging.INFO) -> None:
    """Logging of a process that hosts the bridge: the root logger — every third-party library —
    at :data:`THIRD_PARTY_LEVEL`, the package logger at ``package_level`` until a node
    attaches, and, unless the root logger has handlers already (as :func:`logging.basicConfig`),
    a stderr handler (:data:`STDERR_FORMAT`) that leaves the package's records to rclpy while
    a node is attached."""
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(STDERR_FORMAT))
        handler.addFilter(_UnlessForwarded())
        root.addHandler(handler)
    root.setLevel(THIRD_PARTY_LEVEL)
    logging.getLogger(PACKAGE_LOGGER).setLevel(package_level)
