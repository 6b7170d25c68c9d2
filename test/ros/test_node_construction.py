"""In-process: a construction of :class:`BridgeNode` that is interrupted (a SIGINT while
starting raises :class:`StopRequested` wherever the main thread is:
:mod:`sdf_bridge.app.stop_signals`) leaves nothing of the half-built node behind: its control
loop thread stopped, its hardware closed, the package's log records no longer forwarded to it,
its rcl node destroyed. The caller never receives the node, so nobody else could clean it up."""

from __future__ import annotations

import logging
import signal
from pathlib import Path

import pytest
from rclpy._rclpy_pybind11 import InvalidHandle
from rclpy.context import Context
from rclpy.parameter import Parameter

from sdf_bridge.app.stop_signals import StopRequested
from sdf_bridge.ros import logging_bridge
from sdf_bridge.ros.node import BridgeNode


def test_an_interrupted_construction_leaves_no_loop_no_forwarding_and_no_node(
    ros_context: Context, repo_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[BridgeNode] = []
    configure = BridgeNode.configure

    def configure_then_interrupted(self: BridgeNode, loaded) -> None:
        built.append(self)
        configure(self, loaded)  # the robot configured and its loop thread started
        assert self.loop is not None and self.loop.running
        raise StopRequested(signal.SIGINT)

    monkeypatch.setattr(BridgeNode, "configure", configure_then_interrupted)
    description = str(repo_dir / "urdf" / "demo_arm.urdf.xacro")
    with pytest.raises(StopRequested, match="stopped by SIGINT while starting"):
        BridgeNode(
            context=ros_context,
            node_name="interrupted_bridge",
            parameter_overrides=[Parameter("description_file", value=description)],
        )
    (node,) = built
    assert node.loop is not None and not node.loop.running
    assert node.hardware is None
    assert logging_bridge._HANDLER not in logging.getLogger(logging_bridge.PACKAGE_LOGGER).handlers
    with pytest.raises(InvalidHandle, match="destruction was requested"):
        node.get_name()


def test_a_construction_interrupted_before_its_attributes_exist_is_cleaned_up(
    ros_context: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The signal can come at any bytecode, even before the node has its loop and hardware
    attributes: the clean-up still runs to its end."""
    built: list[BridgeNode] = []

    def interrupted(self: BridgeNode, start: bool) -> None:
        built.append(self)
        raise StopRequested(signal.SIGTERM)

    monkeypatch.setattr(BridgeNode, "_set_up", interrupted)
    with pytest.raises(StopRequested, match="stopped by SIGTERM while starting"):
        BridgeNode(context=ros_context, node_name="interrupted_early")
    with pytest.raises(InvalidHandle, match="destruction was requested"):
        built[0].get_name()
