"""Every robot of the shared corpus that the controller_manager can read (URDF) loads in the
real controller_manager of the shared rig with the generated topic-based block
(``sdf-bridge ros2-control``), through both plugins, and joint_state_broadcaster activates on
it with every joint the bridge publishes: no robot needs a hand-edited ``<ros2_control>`` block.
(Driving them: test_ros2_control.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from prerequisites import require_rig
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from ros2_control_rig import (
    PICKNIK,
    SUCCESSOR,
    ControllerManager,
    ControllerManagerClient,
    picknik_prefix,
)
from sensor_msgs.msg import JointState
from std_msgs.msg import String

from sdf_bridge.description import load_with_xml
from sdf_bridge.description.kinematics import screw_translation_name
from sdf_bridge.description.model import World
from sdf_bridge.errors import ConfigError
from sdf_bridge.hardware import HardwareSystem
from sdf_bridge.hardware.topic_block import TopicBlockOptions, with_topic_block

from .conftest import Probe

LATCHED = QoSProfile(
    depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL, reliability=ReliabilityPolicy.RELIABLE
)
BATCH = 3  # controller_managers at once (the machine has 2 cores)
BROADCASTER_ONLY = """/**/controller_manager:
  ros__parameters:
    update_rate: 100
    joint_state_broadcaster:
      type: joint_state_broadcaster/JointStateBroadcaster
"""


def test_picknik_prefix_hides_only_the_successor() -> None:
    require_rig()
    markers = (
        picknik_prefix()
        / "share"
        / "ament_index"
        / "resource_index"
        / "hardware_interface__pluginlib__plugin"
    )
    assert sorted(p.name for p in markers.iterdir()) == [
        "hardware_interface",
        "topic_based_ros2_control",
    ]


def _robots(robots_dir: Path) -> list[tuple[str, object, str]]:
    """(name, model, XML) of every single-model robot of the corpus."""
    robots = []
    for folder in sorted(p for p in robots_dir.iterdir() if p.is_dir()):
        source = next(
            folder / f"{folder.name}.{e}"
            for e in ("urdf", "sdf")
            if (folder / f"{folder.name}.{e}").is_file()
        )
        model, _warnings, xml = load_with_xml(source)
        if not isinstance(model, World):
            robots.append((folder.name, model, xml))
    return robots


@pytest.mark.parametrize("plugin", [SUCCESSOR, PICKNIK])
def test_every_urdf_robot_loads(
    robots_dir: Path, probe: Probe, tmp_path: Path, plugin: str
) -> None:
    require_rig()
    controllers = tmp_path / "broadcaster.yaml"
    controllers.write_text(BROADCASTER_ONLY)
    runs = []
    for name, model, xml in _robots(robots_dir):
        try:
            text = with_topic_block(model, xml, TopicBlockOptions(plugin=plugin))
        except ConfigError:  # an SDFormat model URDF cannot carry (test_topic_block.py)
            continue
        # (a screw's translation is a <mimic> joint of its URDF chain, not in the block)
        screws = {
            screw_translation_name(j.name) for j in model.joints.values() if j.type == "screw"
        }
        runs.append((name, text, set(HardwareSystem(model, "mock").state_names) - screws))
    assert len(runs) >= 13  # every robot but the worlds (SDFormat ones with URDF chains)
    for i in range(0, len(runs), BATCH):
        started = []
        for name, text, names in runs[i : i + BATCH]:
            ns = f"load_{name}_{plugin.split('/')[0]}"
            publisher = probe.node.create_publisher(String, f"/{ns}/robot_description", LATCHED)
            publisher.publish(String(data=text))
            probe.watch(f"/{ns}/joint_states", JointState)
            started.append(
                (
                    name,
                    ns,
                    names,
                    publisher,
                    ControllerManager(controllers, plugin=plugin, namespace=ns),
                )
            )
        try:
            for name, ns, names, _publisher, cm in started:
                client = ControllerManagerClient(
                    probe.node, probe.spin_until, f"/{ns}/controller_manager"
                )
                client.load("joint_state_broadcaster")
                client.switch(["joint_state_broadcaster"])
                msg = probe.wait_messages(f"/{ns}/joint_states", 1)[0]
                assert set(msg.name) == names, name
                assert "is deprecated, upgrade to" not in cm.output()  # PickNik's is PickNik's
        except BaseException:
            for _name, _ns, _names, _publisher, cm in started:
                print(cm.output()[-3000:])
            raise
        finally:
            for _name, ns, _names, publisher, cm in started:
                # PickNik's TopicBasedSystem (upstream, no bridge in this test) now and then
                # dies of SIGSEGV in its destructor at Ctrl-C, after a clean shutdown (seen
                # once: the PR2 batch of a CI run); the successor's must exit 0
                allowed = (0, -11) if plugin == PICKNIK else (0,)
                assert cm.stop() in allowed, cm.output()[-4000:]
                probe.node.destroy_publisher(publisher)
                probe.unwatch(f"/{ns}/joint_states")
