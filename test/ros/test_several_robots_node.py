"""Several robots in one simulation over real rclpy processes (sdf_bridge.ros.robots): the
three arms of one world driven at once, each in its own namespace with its own topics,
robot_description, frames and e-stop; /clock global."""

from __future__ import annotations

from pathlib import Path

import pytest
from diagnostic_msgs.msg import DiagnosticArray
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState
from several_robots import ARM_NAMES, THREE_ARMS
from std_msgs.msg import String
from std_srvs.srv import SetBool

from .conftest import REPO, Probe

LATCHED = QoSProfile(
    depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL, reliability=ReliabilityPolicy.RELIABLE
)
#: each arm's command: (interface, (j1, j2))
COMMANDS = {
    "position": ("position", (0.5, -0.3)),
    "velocity": ("velocity", (0.4, -0.2)),
    "effort": ("effort", (0.02, 0.01)),
}


def _command(probe: Probe, arm: str) -> None:
    kind, values = COMMANDS[arm]
    msg = JointState(name=["j1", "j2"])
    setattr(msg, kind, list(values))
    probe.publisher(f"/{arm}/joint_commands", JointState).publish(msg)


def _latest(probe: Probe, arm: str) -> JointState:
    return probe.latest(f"/{arm}/joint_states")


@pytest.fixture(scope="module")
def arms(start_bridge, probe: Probe, tmp_path_factory: pytest.TempPathFactory):
    world: Path = tmp_path_factory.mktemp("arms") / "arms.sdf"
    world.write_text(THREE_ARMS)
    for arm in ARM_NAMES:
        probe.watch(f"/{arm}/joint_states", JointState)
        probe.watch(f"/{arm}/robot_description", String, LATCHED)
    probe.watch("/clock", Clock)
    probe.watch("/diagnostics", DiagnosticArray)
    bridge = start_bridge(
        {
            "description_file": str(world),
            "backend": "mujoco",
            "command_timeout": 0.0,
            "backend_params.render_cameras": False,
        },
        name="sdf_bridge",
    )
    probe.wait_ready(bridge, "/effort/joint_states")
    yield bridge
    assert bridge.stop() == 0, bridge.output()


def test_each_robot_has_its_namespace_and_description(arms, probe: Probe) -> None:
    for arm in ARM_NAMES:
        assert list(_latest(probe, arm).name) == ["j1", "j2"]
        probe.wait_for(lambda a=arm: probe.messages[f"/{a}/robot_description"], f"{arm} text")
        text = probe.latest(f"/{arm}/robot_description").data
        assert f'<robot name="{arm}"' in text and "::" not in text
    probe.wait_for(lambda: probe.messages["/clock"], "/clock")
    wanted = {f"{arm}/sdf_bridge: control loop" for arm in ARM_NAMES}

    def statuses() -> set[str]:
        return {s.name for m in probe.messages["/diagnostics"] for s in m.status} & wanted

    probe.wait_for(lambda: statuses() == wanted, "one diagnostics status per robot")


def test_three_arms_driven_at_once_each_as_commanded(arms, probe: Probe) -> None:
    def done() -> bool:
        for arm in ARM_NAMES:
            _command(probe, arm)
        position = _latest(probe, "position").position
        velocity = _latest(probe, "velocity").velocity
        effort = _latest(probe, "effort").position
        return (
            abs(position[0] - 0.5) < 0.02
            and abs(position[1] + 0.3) < 0.02
            and abs(velocity[0] - 0.4) < 0.02
            and abs(velocity[1] + 0.2) < 0.02
            and effort[0] > 0.05
        )

    probe.wait_for(done, "every arm moving as commanded", timeout=30.0)


def test_an_e_stop_holds_its_robot_only(arms, probe: Probe) -> None:
    response = probe.call(SetBool, "/velocity/sdf_bridge/enable", SetBool.Request(data=False))
    assert response.success, response.message
    try:
        probe.spin_for(0.5)
        held = _latest(probe, "velocity").position[0]

        def others_go_on() -> bool:
            _command(probe, "position")
            _command(probe, "velocity")  # refused while disabled
            return abs(_latest(probe, "position").position[0] - 0.5) < 0.02

        probe.wait_for(others_go_on, "the position arm at its target")
        probe.spin_for(0.5)
        assert _latest(probe, "velocity").position[0] == pytest.approx(held, abs=0.01)
        assert abs(_latest(probe, "velocity").velocity[0]) < 0.05
    finally:
        probe.call(SetBool, "/velocity/sdf_bridge/enable", SetBool.Request(data=True))


def test_the_simulation_controls_stay_global(arms, probe: Probe) -> None:
    """/sdf_bridge/pause holds the time (/clock) and state of every robot; /sdf_bridge/step
    advances it by one 1 ms physics step; the robots' own namespaces have no simulation
    controls."""
    from std_srvs.srv import Trigger

    assert probe.call(SetBool, "/sdf_bridge/pause", SetBool.Request(data=True)).success
    try:
        probe.spin_for(0.3)
        before = probe.latest("/clock").clock
        positions = {a: list(_latest(probe, a).position) for a in ARM_NAMES}
        probe.spin_for(0.3)
        assert probe.latest("/clock").clock == before  # every robot's time stands
        for arm in ARM_NAMES:  # its state is still published, unchanged
            assert list(_latest(probe, arm).position) == positions[arm]
        assert probe.call(Trigger, "/sdf_bridge/step", Trigger.Request()).success
        probe.wait_for(lambda: probe.latest("/clock").clock != before, "a step of /clock")
        after = probe.latest("/clock").clock
        assert (after.sec - before.sec) * 10**9 + after.nanosec - before.nanosec == 1_000_000
    finally:
        assert probe.call(SetBool, "/sdf_bridge/pause", SetBool.Request(data=False)).success
    names = [n for n, _t in probe.node.get_service_names_and_types()]
    assert "/sdf_bridge/pause" in names
    assert not [n for n in names if n.startswith("/position/") and n.endswith("/pause")]


def test_the_demo_arm_beside_the_mobile_demo_robot(start_bridge, probe: Probe) -> None:
    """The demo arm (welded: fixed_base), a second copy of it 1.5 m away turned 90°, and the
    mobile demo robot placed 2.5 m beside it with a free base, in one simulation: each in its
    namespace (the mobile robot's given by robot_namespaces); the second copy follows its
    commands while the first holds; the mobile robot's odometry in its frames (prefix
    ``mobile/``) stands where it was placed."""
    from nav_msgs.msg import Odometry

    for topic in ("/demo_arm/joint_states", "/arm2/joint_states", "/fleet/mobile/joint_states"):
        probe.watch(topic, JointState)
    probe.watch("/fleet/mobile/odom", Odometry)
    bridge = start_bridge(
        {
            "description_file": str(REPO / "urdf" / "demo_arm.urdf.xacro"),
            "robots": [
                f"mobile={REPO / 'urdf' / 'demo_mobile.urdf.xacro'}@0,2.5,0.3,0,0,0:free",
                f"arm2={REPO / 'urdf' / 'demo_arm.urdf.xacro'}@0,-1.5,0,0,0,1.5707963267948966",
            ],
            "robot_namespaces": ["mobile=fleet/mobile"],
            "backend": "mujoco",
            "command_timeout": 0.0,
            "backend_params.render_cameras": False,
        },
        name="sdf_bridge",
    )
    try:
        probe.wait_ready(bridge, "/fleet/mobile/joint_states")
        # two copies of one URDF at different poses, each under its own names
        assert list(_latest(probe, "demo_arm").name) == list(_latest(probe, "arm2").name)
        assert _latest(probe, "demo_arm").name[0] == "base_yaw"

        def arm2_turns() -> bool:
            msg = JointState(name=["base_yaw"], position=[0.4])
            probe.publisher("/arm2/joint_commands", JointState).publish(msg)
            return abs(_latest(probe, "arm2").position[0] - 0.4) < 0.02

        probe.wait_for(arm2_turns, "the second copy at its command")
        assert abs(_latest(probe, "demo_arm").position[0]) < 0.01  # the first one holds
        assert "fl_wheel_joint" in _latest(probe, "fleet/mobile").name
        probe.wait_for(lambda: probe.messages["/fleet/mobile/odom"], "/fleet/mobile/odom")
        odom = probe.latest("/fleet/mobile/odom")
        assert (odom.header.frame_id, odom.child_frame_id) == ("mobile/odom", "mobile/base_link")
        assert odom.pose.pose.position.y == pytest.approx(2.5, abs=0.05)
    finally:
        assert bridge.stop() == 0, bridge.output()


def test_the_world_node_serves_no_commands_of_its_own(arms, probe: Probe) -> None:
    """A command sent to the world node would reach no robot: it has no command topics,
    ``~/enable`` or ``~/reset`` (each robot's node has them, in the robot's namespace)."""
    node = probe.node
    for arm in ARM_NAMES:
        probe.wait_for(
            lambda a=arm: node.count_subscribers(f"/{a}/joint_commands") == 1, f"{arm} commands"
        )
    assert node.count_subscribers("/joint_commands") == 0
    assert node.count_subscribers("/sdf_bridge/position_commands") == 0
    assert node.count_subscribers("/sdf_bridge/joint_trajectory") == 0
    services = dict(node.get_service_names_and_types())
    assert "/sdf_bridge/enable" not in services and "/sdf_bridge/reset" not in services
    assert all(f"/{arm}/sdf_bridge/enable" in services for arm in ARM_NAMES), sorted(services)


def _seconds(stamp) -> float:
    return stamp.sec + stamp.nanosec * 1e-9


def test_a_robots_reset_re_homes_it_alone_the_simulation_reset_all(arms, probe: Probe) -> None:
    """``/velocity/sdf_bridge/reset`` re-homes the velocity arm (at 0, at rest: its command
    gone) while the position arm stays at its target and the time goes on; the simulation's
    ResetSimulation (simulation_interfaces) re-homes every arm and the time."""
    from prerequisites import require_simulation_interfaces
    from std_srvs.srv import Trigger

    def moving() -> bool:
        _command(probe, "position")
        _command(probe, "velocity")
        return (
            abs(_latest(probe, "position").position[0] - 0.5) < 0.02
            and abs(_latest(probe, "velocity").velocity[0] - 0.4) < 0.02
            and abs(_latest(probe, "velocity").position[0]) > 0.2
        )

    probe.wait_for(moving, "the position arm at its target, the velocity arm turning", 30.0)
    before = _seconds(probe.latest("/clock").clock)
    assert probe.call(Trigger, "/velocity/sdf_bridge/reset", Trigger.Request()).success

    def homed() -> bool:
        state = _latest(probe, "velocity")
        return abs(state.position[0]) < 0.01 and abs(state.velocity[0]) < 0.05

    probe.wait_for(homed, "the velocity arm back home")
    probe.spin_for(0.3)
    assert _latest(probe, "position").position[0] == pytest.approx(0.5, abs=0.02)
    assert _seconds(probe.latest("/clock").clock) > before  # (the time goes on)
    require_simulation_interfaces()
    from simulation_interfaces_rig import interfaces

    si = interfaces()
    response = probe.call(
        si.srv.ResetSimulation, "/sdf_bridge/reset_simulation", si.srv.ResetSimulation.Request()
    )
    assert response.result.result == si.msg.Result.RESULT_OK, response.result.error_message
    probe.spin_for(0.3)
    clock = _seconds(probe.wait_messages("/clock", 3)[-1].clock)
    assert clock < before
    assert _latest(probe, "position").position[0] == pytest.approx(0.0, abs=0.02)
