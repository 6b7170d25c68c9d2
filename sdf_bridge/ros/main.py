"""Entry points: the ``bridge`` executable, ``sdf-bridge run`` and ``sdf-bridge demo``.

- :func:`main`: ``ros2 run sdf_bridge bridge [--ros-args ...]`` / ``python -m sdf_bridge.ros.main``.
- :func:`run_command`: ``sdf-bridge run [--description FILE] [--backend NAME]
  [--xacro-arg k:=v ...] [--package-path PKG=DIR ...] [--model NAME ...]
  [--robot NAME=FILE[@pose] ...] [--update-rate HZ]
  [--publish-rate HZ] [--ros-args ...]``: the options
  become parameter overrides (``-p name:=value``) in front of the user's own ``--ros-args``.
- :func:`demo_command`: ``sdf-bridge demo [--backend mock|mujoco] [--duration S]``: runs the
  bridge on the demo robot in a child process, commands it and prints what it sees.
"""

from __future__ import annotations

import contextlib

# Only what main() needs before it installs the signal handlers is imported here (a signal
# before them is Python's to handle): the rest is imported where it is used.
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from collections.abc import Callable, Sequence

ROS_ARGS = "--ros-args"


def split_ros_args(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """Split ``argv`` at the first ``--ros-args``: ``(own options, ['--ros-args', ...])``."""
    argv = list(argv)
    if ROS_ARGS in argv:
        i = argv.index(ROS_ARGS)
        return argv[:i], argv[i:]
    return argv, []


def _param(name: str, value: object) -> list[str]:
    """``['-p', 'name:=<YAML value>']``; JSON is valid YAML, so strings stay strings."""
    import json

    return ["-p", f"{name}:={json.dumps(value)}"]


def run_parser() -> argparse.ArgumentParser:
    """The argument parser of ``sdf-bridge run``."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="sdf-bridge run",
        description="Run the bridge node (parameters: see config/bridge.yaml). Arguments after "
        "--ros-args go to ROS unchanged (remaps, -p name:=value, --params-file, ...).",
    )
    parser.add_argument(
        "--description", metavar="FILE", help="URDF, xacro or SDFormat file (default: demo robot)"
    )
    parser.add_argument("--backend", metavar="NAME", help="backend name (default mock)")
    parser.add_argument(
        "--xacro-arg",
        metavar="K:=V",
        action="append",
        default=[],
        help="xacro argument (repeatable)",
    )
    parser.add_argument(
        "--package-path",
        metavar="PKG=DIR",
        action="append",
        default=[],
        help="directory of a package for package:// and $(find) (repeatable; before the ament "
        "index)",
    )
    parser.add_argument(
        "--model",
        metavar="NAME",
        action="append",
        default=[],
        help="a robot of the SDFormat world to simulate (repeatable; default: every robot of "
        "the world, each in its own namespace)",
    )
    parser.add_argument(
        "--robot",
        metavar="NAME=FILE[@x,y,z,roll,pitch,yaw][:fixed|:free]",
        action="append",
        default=[],
        help="add a URDF, xacro or SDFormat robot named NAME to the simulation, at the pose "
        "given (m, rad) or its own (repeatable; names scoped NAME::joint)",
    )
    parser.add_argument("--update-rate", metavar="HZ", type=float, help="control loop rate, Hz")
    parser.add_argument("--publish-rate", metavar="HZ", type=float, help="joint_states rate, Hz")
    return parser


def run_ros_args(argv: Sequence[str]) -> list[str]:
    """ROS arguments for ``sdf-bridge run`` options ``argv``: parameter overrides for the
    options given, followed by the user's ``--ros-args ...`` unchanged (later values win).

    Raises:
        SystemExit: (argparse) unknown option or bad value; ``--xacro-arg`` without ``:=``.
    """
    from pathlib import Path

    own, passthrough = split_ros_args(argv)
    parser = run_parser()
    ns = parser.parse_args(own)
    params: list[str] = []
    if ns.description:
        params += _param("description_file", str(Path(ns.description).expanduser().resolve()))
    if ns.backend:
        params += _param("backend", ns.backend)
    if ns.xacro_arg:
        for item in ns.xacro_arg:
            if ":=" not in item:
                parser.error(f"--xacro-arg {item!r} is not of the form name:=value")
        params += _param("xacro_args", list(ns.xacro_arg))
    if ns.package_path:
        from ..app.launch_args import parse_package_paths
        from ..errors import ConfigError

        try:
            packages = parse_package_paths(ns.package_path)
        except ConfigError as exc:
            parser.error(f"--package-path: {exc}")
        params += _param(
            "package_paths", [f"{k}={Path(v).expanduser().resolve()}" for k, v in packages.items()]
        )
    if ns.model:
        params += _param("model", ",".join(ns.model))
    if ns.robot:
        from ..description.world import parse_robot_spec
        from ..errors import DescriptionError

        robots = []
        for item in ns.robot:
            try:
                spec = parse_robot_spec(item)
            except DescriptionError as exc:
                parser.error(f"--robot: {exc}")
            resolved = str(Path(spec.file).expanduser().resolve())
            name, _, rest = item.partition("=")  # (the file after the name: not in the name)
            robots.append(f"{name}={rest.replace(spec.file, resolved, 1)}")
        params += _param("robots", robots)
    if ns.update_rate is not None:
        params += _param("update_rate", float(ns.update_rate))
    if ns.publish_rate is not None:
        params += _param("publish_rate", float(ns.publish_rate))
    result = [ROS_ARGS, *params] if params else []
    return result + passthrough


def main(args: Sequence[str] | None = None) -> int:
    """Run the bridge node until SIGINT/SIGTERM; ``args`` = command line (default
    ``sys.argv``). Returns 0 on a clean stop, also when any number of SIGINT/SIGTERM arrive at
    any moment (:mod:`.stop_signals`), and 1 when the configuration is invalid (one error line
    saying what to fix): a bad parameter or description, a backend that refuses the
    configuration or cannot run its first control tick, or such an error once the description
    arrives on the ``robot_description`` topic.

    This is the bridge process's entry point: it installs the process's SIGINT/SIGTERM handlers
    and, when it returns, leaves both signals ignored (the process exits next)."""
    from ..app.stop_signals import StopRequested, StopSignals

    stop = StopSignals().install()  # first: a signal from now on is a clean stop
    rclpy: Any = None
    node = None
    try:
        import logging

        import rclpy
        from rclpy.signals import SignalHandlerOptions

        from ..errors import SdfBridgeError
        from .logging_bridge import configure_process_logging
        from .node import BridgeNode

        configure_process_logging()  # stderr until the node forwards to rclpy (/rosout, log files)
        log = logging.getLogger("sdf_bridge")
        # rclpy's own handlers would shut the context down under whatever call runs: ours only
        rclpy.init(
            args=list(sys.argv if args is None else args),
            signal_handler_options=SignalHandlerOptions.NO,
        )
        try:
            node = BridgeNode()
        except SdfBridgeError as exc:
            stop.hold()
            if stop.requested.is_set():  # the stop's own doing (see below)
                return 0
            log.error("%s", exc)
            return 1
        stop.hold()
        started = node
        spin_node(
            started,
            started.config.thread_priority,
            stop=lambda: stop.requested.is_set() or started.failure is not None,
        )
        if started.failure is not None and not stop.requested.is_set():
            # a configuration error once the description arrived (topic)
            log.error("%s", started.failure)
            return 1
    except StopRequested:  # SIGINT/SIGTERM while starting: a clean stop
        pass
    except BaseException:
        # a StopRequested can come out as another error: a C extension being imported when it
        # arrives fails its import with ImportError (numpy, mujoco), a library may wrap it
        if not stop.requested.is_set():
            raise
    finally:
        stop.hold()  # (a signal during the clean-up only sets the flag)
        if node is not None:
            node.shutdown()
            node.destroy_node()
        if rclpy is not None:
            rclpy.try_shutdown()
        # the process exits next, and the interpreter resets Python's handlers to the default
        # action before it has finished: a signal then would end it with -2
        stop.ignore()
        _exit_now_if_compiling()
    return 0


def _exit_now_if_compiling() -> None:
    """End the process at once (exit status 0, streams flushed) when a stop abandoned a MuJoCo
    compilation that is still running in its daemon thread
    (:func:`~sdf_bridge.backends.mujoco.builder.compile_spec`): the interpreter's finalisation
    would stop that thread inside MuJoCo's C++ code, which can crash the process instead of a
    clean exit (exit status 139, a segmentation fault)."""
    builder = sys.modules.get("sdf_bridge.backends.mujoco.builder")  # (loaded: MuJoCo started)
    if builder is None or not builder.compilation_abandoned():
        return
    import logging

    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)


#: Seconds one ``spin_once`` may block: how soon a shutdown (SIGINT/SIGTERM) is noticed.
SPIN_SLICE = 0.1


def make_executor() -> Any:
    """The executor of the bridge process: rclpy's ``EventsExecutor`` (C++ event queue, no
    wait-set rebuild per callback) when this rclpy has it, else ``SingleThreadedExecutor``:
    the lower command → joint_states latency of the two (doc/dev/rationale.md).
    """
    try:
        from rclpy.experimental import EventsExecutor
    except ImportError:  # rclpy < 9
        from rclpy.executors import SingleThreadedExecutor

        return SingleThreadedExecutor()
    return EventsExecutor()


def spin_until_shutdown(
    executor: Any, context: Any, stop: Callable[[], bool] = lambda: False
) -> None:
    """Spin ``executor`` until ``context`` shuts down or ``stop()`` is true (a SIGINT/SIGTERM
    was received, :mod:`.stop_signals`). In slices of :data:`SPIN_SLICE` s: the
    ``EventsExecutor``'s ``spin()`` blocks in C++ and does not return on SIGINT in rclpy 9.1,
    and ``stop`` is polled between slices.

    Raises:
        ExternalShutdownException: as ``Executor.spin_once``.
    """
    while context.ok() and not stop():
        executor.spin_once(timeout_sec=SPIN_SLICE)


def spin_node(
    node: Any, loop_priority: int = 0, *, stop: Callable[[], bool] = lambda: False
) -> None:
    """Serve ``node``'s callbacks on this thread as the bridge process does: a
    :func:`make_executor` executor at ``_executor_priority``, spun until the node's context
    shuts down or ``stop()`` is true (a clean return), then shut down."""
    from rclpy.executors import ExternalShutdownException

    executor = make_executor()
    executor.add_node(node)
    world = getattr(node, "world", None)
    for member in world.members if world is not None else ():  # several robots' nodes
        executor.add_node(member)
    _executor_priority(loop_priority)
    try:
        spin_until_shutdown(executor, node.context, stop)
    except ExternalShutdownException:
        pass
    finally:
        executor.shutdown(timeout_sec=1.0)


def _executor_priority(loop_priority: int) -> None:
    """With a real-time loop (``thread_priority`` > 0), run the executor (this thread: command
    callbacks, services) SCHED_FIFO one level below the loop, so that commands reach the loop
    without waiting behind normal processes; silently normal when not permitted (the loop
    thread already warned)."""
    if loop_priority <= 1:
        return
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(loop_priority - 1))
    except (AttributeError, OSError):
        pass


def run_command(argv: Sequence[str]) -> int:
    """``sdf-bridge run``: see :func:`run_ros_args`; returns :func:`main`'s exit code."""
    return main(["sdf-bridge", *run_ros_args(argv)])


def demo_command(argv: Sequence[str]) -> int:
    """``sdf-bridge demo``: see :mod:`sdf_bridge.ros.demo`."""
    from .demo import demo

    return demo(argv)


if __name__ == "__main__":
    sys.exit(main())
