"""sdf_bridge.ros.name_clash: a second bridge of the same fully qualified name in the domain is
warned about once, by the one started later (real processes); a bridge alone is quiet."""

from __future__ import annotations

from sensor_msgs.msg import JointState

from sdf_bridge.ros.name_clash import GRACE, twin_message

from .conftest import Probe

WARNING = "2 nodes named '/clash/twin' run in this ROS domain"


def test_message_names_the_node_and_the_fix() -> None:
    assert twin_message("/clash/twin", 2) == (
        f"{WARNING}: their topics, services and parameters mix (joint_states and "
        "robot_description from both, commands and ~/set_parameters to either). Fix: stop the "
        "other one, or give this one another name or namespace (-r __node:=NAME, -r "
        "__ns:=/NS) or ROS_DOMAIN_ID."
    )


def test_the_later_of_two_bridges_of_one_name_warns(start_bridge, probe: Probe) -> None:
    probe.watch("/clash/joint_states", JointState)
    first = start_bridge({}, name="twin", extra=["-r", "__ns:=/clash"])
    probe.wait_ready(first, "/clash/joint_states")
    probe.spin_for(GRACE + 1.0)
    assert "nodes named" not in first.output()
    second = start_bridge({}, name="twin", extra=["-r", "__ns:=/clash"])
    probe.wait_for(lambda: WARNING in second.output(), "the second bridge's warning", 60.0)
    assert second.output().count(WARNING) == 1
    assert "nodes named" not in first.output()
    assert second.stop() == 0 and first.stop() == 0
