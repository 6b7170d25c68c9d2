"""The ROS 2 standard simulation interfaces through the bridge (real processes): a client in
this process, written against the standard and Gazebo's names (the bridge runs as node
``gzserver``, as ros_gz_sim names its services), steps the mobile demo robot by N physics steps
(/clock advances by exactly N · 1 ms), plays, pauses, stops and resets it, reads and teleports
its base, runs the SimulateSteps action with feedback and cancels it, and pushes the base with
an external wrench. Without the package, the bridge serves ~/pause and ~/step and says why."""

from __future__ import annotations

import math

import pytest
from geometry_msgs.msg import WrenchStamped
from nav_msgs.msg import Odometry
from prerequisites import require_simulation_interfaces
from rclpy.action import ActionClient
from rclpy.qos import QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState
from std_srvs.srv import SetBool, Trigger

from sdf_bridge.ros.callback_guard import OPERATION_FAILED
from sdf_bridge.ros.simulation import FEATURES

from .conftest import REPO, Bridge, Probe

NODE = "/gzserver"
BEST_EFFORT = QoSProfile(depth=20, reliability=ReliabilityPolicy.BEST_EFFORT)
KEYFRAME_HEIGHT = 0.05 + 2 * 0.16 * math.cos(0.6) + 0.001  # the stand keyframe's base, m
ROBOT = "demo_mobile"
PARAMS = {
    "description_file": str(REPO / "urdf" / "demo_mobile.urdf.xacro"),
    "backend": "mujoco",
    "start_paused": True,
    "command_timeout": 0.0,
    "use_sim_time": True,
    "backend_params.fixed_base": False,
    "backend_params.render_cameras": False,
    "backend_params.keyframe_file": str(REPO / "config" / "demo_mobile_keyframes.yaml"),
    "backend_params.keyframe": "stand",
}


@pytest.fixture(scope="module")
def si():
    require_simulation_interfaces()
    from simulation_interfaces_rig import interfaces

    return interfaces()


@pytest.fixture(scope="module")
def bridge(si, start_bridge, probe: Probe) -> Bridge:
    b = start_bridge(PARAMS, name="gzserver")
    probe.watch("/clock", Clock, BEST_EFFORT)
    probe.watch("/odom", Odometry)
    probe.wait_ready(b, "/clock", timeout=90.0)
    yield b
    assert b.stop() == 0, b.output()


def seconds(stamp) -> float:
    return stamp.sec + stamp.nanosec * 1e-9


def _clock(probe: Probe) -> float:
    """The /clock after the messages in flight (three more)."""
    return seconds(probe.wait_messages("/clock", 3)[-1].clock)


def _call(probe: Probe, si, name: str, request=None):
    srv = getattr(si.srv, "".join(p.capitalize() for p in name.split("_")))
    return probe.call(srv, f"{NODE}/{name}", request if request is not None else srv.Request())


def _set_state(probe: Probe, si, state: int):
    request = si.srv.SetSimulationState.Request()
    request.state.state = state
    return _call(probe, si, "set_simulation_state", request).result


def _stop(probe: Probe, si) -> None:
    """Stopped (paused at the initial state, time 0) whatever the state before."""
    assert _set_state(probe, si, 0).result in (1, 101)
    probe.wait_for(lambda: _clock(probe) == 0.0, "/clock at 0 after the stop")


def test_features_list_exactly_what_is_served(bridge: Bridge, probe: Probe, si) -> None:
    features = _call(probe, si, "get_simulator_features").features
    f = si.msg.SimulatorFeatures
    assert sorted(features.features) == sorted(getattr(f, n) for n in FEATURES)
    assert list(features.spawn_formats) == []
    assert sorted(features.features) == [10, 11, 20, 21, 22, 24, 25, 26, 31, 32, 33]
    assert si.msg.Result.RESULT_OPERATION_FAILED == OPERATION_FAILED


def test_started_stopped_then_steps_advance_clock_exactly(bridge: Bridge, probe: Probe, si) -> None:
    state = _call(probe, si, "get_simulation_state")
    assert (state.state.state, state.result.result) == (0, 1)  # STOPPED, RESULT_OK
    _stop(probe, si)
    response = _call(probe, si, "step_simulation", si.srv.StepSimulation.Request(steps=250))
    assert response.result.result == 1, response.result.error_message
    probe.wait_for(lambda: _clock(probe) > 0.0, "/clock after the steps")
    assert _clock(probe) == pytest.approx(0.25, abs=1e-9)  # 250 × 1 ms
    assert _call(probe, si, "get_simulation_state").state.state == 2  # PAUSED now
    refused = _call(probe, si, "step_simulation", si.srv.StepSimulation.Request(steps=10**9))
    assert refused.result.result == 4 and "at most 100000 per call" in refused.result.error_message


def test_transitions_and_stepping_only_while_paused(bridge: Bridge, probe: Probe, si) -> None:
    _stop(probe, si)
    assert _set_state(probe, si, 0).result == 101  # ALREADY_IN_TARGET_STATE
    assert _set_state(probe, si, 1).result == 1  # play
    assert _call(probe, si, "get_simulation_state").state.state == 1
    played = _call(probe, si, "step_simulation", si.srv.StepSimulation.Request(steps=1))
    assert played.result.result == 4 and "has to be paused" in played.result.error_message
    assert _set_state(probe, si, 1).result == 101
    probe.wait_for(lambda: _clock(probe) > 0.05, "simulated time passing while playing")
    assert _set_state(probe, si, 2).result == 1  # pause
    paused_at = _clock(probe)
    probe.spin_for(0.3)
    assert _clock(probe) == paused_at
    quit_ = _set_state(probe, si, 3)
    assert quit_.result == 0 and "only STATE_STOPPED (0)" in quit_.error_message
    _stop(probe, si)
    assert _call(probe, si, "get_simulation_state").state.state == 0


def _base_state(probe: Probe, si):
    request = si.srv.GetEntityState.Request(entity=ROBOT)
    response = _call(probe, si, "get_entity_state", request)
    assert response.result.result == 1, response.result.error_message
    return response.state


def test_entities_read_and_teleport_the_base(bridge: Bridge, probe: Probe, si) -> None:
    _stop(probe, si)
    entities = _call(probe, si, "get_entities").entities
    assert entities[0] == ROBOT and f"{ROBOT}::base_link" in entities
    request = si.srv.GetEntities.Request()
    request.filters.filter = "wheel$"
    assert _call(probe, si, "get_entities", request).entities == [
        f"{ROBOT}::{leg}_wheel" for leg in ("fl", "fr", "rl", "rr")
    ]
    state = _base_state(probe, si)
    assert state.header.frame_id == "world"
    assert state.pose.position.z == pytest.approx(KEYFRAME_HEIGHT, abs=1e-9)
    assert state.pose.orientation.w == 1.0
    teleport = si.srv.SetEntityState.Request(entity=ROBOT)
    teleport.state.pose.position.x, teleport.state.pose.position.y = 1.5, -2.0
    teleport.state.pose.position.z = 0.8
    teleport.state.pose.orientation.z = teleport.state.pose.orientation.w = math.sqrt(0.5)
    assert _call(probe, si, "set_entity_state", teleport).result.result == 1
    state = _base_state(probe, si)
    position, q = state.pose.position, state.pose.orientation
    assert (position.x, position.y, position.z) == pytest.approx((1.5, -2.0, 0.8), abs=1e-12)
    assert (q.x, q.y, q.z, q.w) == pytest.approx((0, 0, math.sqrt(0.5), math.sqrt(0.5)), abs=1e-12)
    probe.wait_for(
        lambda: abs(probe.messages["/odom"][-1].pose.pose.position.x - 1.5) < 1e-9,
        "odometry at the teleported pose",
    )
    link = si.srv.SetEntityState.Request(entity=f"{ROBOT}::fl_wheel")
    link.state.pose.orientation.w = 1.0
    refused = _call(probe, si, "set_entity_state", link).result
    assert refused.result == 4 and "cannot be set (a link)" in refused.error_message
    unknown = _call(probe, si, "get_entity_state", si.srv.GetEntityState.Request(entity="x"))
    assert unknown.result.result == 2  # RESULT_NOT_FOUND
    bad = si.srv.SetEntityState.Request(entity=ROBOT)  # the zero quaternion
    bad.state.pose.orientation.w = 0.0
    assert _call(probe, si, "set_entity_state", bad).result.result == 101  # INVALID_POSE


def test_entity_queries_errors_and_all_states(bridge: Bridge, probe: Probe, si) -> None:
    request = si.srv.GetEntities.Request()
    request.filters.filter = "("
    bad = _call(probe, si, "get_entities", request).result
    assert bad.result == 4 and "filter '('" in bad.error_message
    request = si.srv.GetEntities.Request()
    request.filters.categories = [si.msg.EntityCategory(category=1)]
    assert _call(probe, si, "get_entities", request).result.result == 0
    request = si.srv.GetEntitiesStates.Request()
    request.filters.filter = f"^{ROBOT}$"
    states = _call(probe, si, "get_entities_states", request)
    assert (states.result.result, list(states.entities), len(states.states)) == (1, [ROBOT], 1)
    assert states.states[0].header.frame_id == "world"
    framed = si.srv.SetEntityState.Request(entity=ROBOT)
    framed.state.header.frame_id, framed.state.pose.orientation.w = "odom", 1.0
    refused = _call(probe, si, "set_entity_state", framed).result
    assert refused.result == 0 and "reference frame 'odom'" in refused.error_message


def test_reset_scopes(bridge: Bridge, probe: Probe, si) -> None:
    _stop(probe, si)
    _call(probe, si, "step_simulation", si.srv.StepSimulation.Request(steps=100))
    teleport = si.srv.SetEntityState.Request(entity=ROBOT)
    teleport.state.pose.position.z, teleport.state.pose.orientation.w = 2.0, 1.0
    assert _call(probe, si, "set_entity_state", teleport).result.result == 1
    time_only = si.srv.ResetSimulation.Request(scope=1)
    assert _call(probe, si, "reset_simulation", time_only).result.result == 1
    probe.wait_for(lambda: _clock(probe) == 0.0, "/clock at 0 after resetting the time")
    assert _base_state(probe, si).pose.position.z == pytest.approx(2.0, abs=1e-12)
    _call(probe, si, "step_simulation", si.srv.StepSimulation.Request(steps=100))
    state_only = si.srv.ResetSimulation.Request(scope=2)
    assert _call(probe, si, "reset_simulation", state_only).result.result == 1
    assert _base_state(probe, si).pose.position.z == pytest.approx(KEYFRAME_HEIGHT, abs=1e-9)
    assert _clock(probe) == pytest.approx(0.1, abs=1e-9)
    spawned = _call(probe, si, "reset_simulation", si.srv.ResetSimulation.Request(scope=4))
    assert spawned.result.result == 0  # FEATURE_UNSUPPORTED
    assert _call(probe, si, "reset_simulation").result.result == 1  # default: everything
    probe.wait_for(lambda: _clock(probe) == 0.0, "/clock at 0 after the full reset")


def test_spawning_and_deleting_are_not_supported(bridge: Bridge, probe: Probe, si) -> None:
    assert _call(probe, si, "spawn_entity").result.result == 0
    assert _call(probe, si, "delete_entity").result.result == 0


def _action(probe: Probe, si) -> ActionClient:
    client = ActionClient(
        probe.node,
        si.action.SimulateSteps,
        f"{NODE}/simulate_steps",
        feedback_sub_qos_profile=QoSProfile(depth=1000),  # (20 feedbacks in a burst)
    )
    probe.wait_for(client.server_is_ready, "the simulate_steps action server")
    topic = f"{NODE}/simulate_steps/_action/feedback"
    probe.wait_for(lambda: probe.node.count_publishers(topic) > 0, "the feedback publisher")
    probe.spin_for(0.5)  # (its writer matches our reader meanwhile)
    return client


def _goal(probe: Probe, si, client: ActionClient, steps: int, feedback: list):
    future = client.send_goal_async(
        si.action.SimulateSteps.Goal(steps=steps),
        feedback_callback=lambda m: feedback.append(
            (m.feedback.completed_steps, m.feedback.remaining_steps)
        ),
    )
    probe.wait_for(future.done, "the goal's acceptance")
    handle = future.result()
    assert handle.accepted
    return handle


def test_simulate_steps_action_feedback_and_cancel(bridge: Bridge, probe: Probe, si) -> None:
    _stop(probe, si)
    client = _action(probe, si)
    try:
        feedback: list = []
        handle = _goal(probe, si, client, 20, feedback)
        # (before asking for the result: the client drops a goal's feedback once it has it)
        probe.wait_for(lambda: len(feedback) >= 20, "20 feedback messages")
        result = handle.get_result_async()
        probe.wait_for(result.done, "the action's result")
        assert result.result().result.result.result == 1
        assert feedback == [(k, 20 - k) for k in range(1, 21)]
        assert _clock(probe) == pytest.approx(0.02, abs=1e-9)
        feedback.clear()
        handle = _goal(probe, si, client, 10**7, feedback)
        probe.wait_for(lambda: len(feedback) > 5, "feedback of the long goal")
        cancel = handle.cancel_goal_async()
        probe.wait_for(cancel.done, "the cancel response")
        result = handle.get_result_async()
        probe.wait_for(result.done, "the canceled goal's result")
        assert result.result().status == 5  # GoalStatus.STATUS_CANCELED
        assert "canceled after" in result.result().result.result.error_message
        assert _set_state(probe, si, 1).result == 1  # playing: a goal is aborted
        handle = _goal(probe, si, client, 5, [])
        result = handle.get_result_async()
        probe.wait_for(result.done, "the aborted goal's result")
        assert result.result().status == 6  # STATUS_ABORTED
        assert "has to be paused" in result.result().result.result.error_message
    finally:
        client.destroy()
        _stop(probe, si)


def test_the_action_helper_takes_none_of_the_global_arguments(
    bridge: Bridge, probe: Probe, si
) -> None:
    """The simulate_steps helper node is named after the bridge (the global ``__node`` remap
    would rename it ``gzserver`` too) and does not take ``use_sim_time``: on /clock only the
    bridge and this probe subscribe. (Its own sim-time /clock subscription kept its two-thread
    executor waking without pause, a core at 100 %, the control loop starved to 7 Hz.)"""
    probe.wait_for(
        lambda: "gzserver_simulate_steps" in probe.node.get_node_names(), "the helper node"
    )
    assert probe.node.get_node_names().count("gzserver") == 1
    subscribers = {info.node_name for info in probe.node.get_subscriptions_info_by_topic("/clock")}
    assert subscribers == {"gzserver", probe.node.get_name()}


def test_a_world_wrench_holding_the_weight_keeps_the_base_afloat(
    bridge: Bridge, probe: Probe, si
) -> None:
    """Teleported 3 m up: in 100 steps the robot falls at g (v = −0.981 m/s); pushed up on
    base_link by its whole weight until cleared, it stays at rest (within 1 % of that)."""
    from sdf_bridge.description import load

    robot = load(REPO / "urdf" / "demo_mobile.urdf.xacro")
    weight = 9.81 * sum(l.inertial.mass for l in robot.links.values() if l.inertial)
    falls = []
    for push in (0.0, weight):
        _stop(probe, si)
        teleport = si.srv.SetEntityState.Request(entity=ROBOT)
        teleport.state.pose.position.z, teleport.state.pose.orientation.w = 3.0, 1.0
        assert _call(probe, si, "set_entity_state", teleport).result.result == 1
        wrench = WrenchStamped()
        wrench.header.frame_id, wrench.wrench.force.z = "base_link", push
        probe.publisher(f"{NODE}/world_wrench", WrenchStamped).publish(wrench)
        probe.spin_for(0.3)
        _call(probe, si, "step_simulation", si.srv.StepSimulation.Request(steps=100))
        falls.append(_base_state(probe, si).twist.linear.z)
        assert probe.call(Trigger, f"{NODE}/clear_wrenches", Trigger.Request()).success
    assert falls[0] == pytest.approx(-9.81 * 0.1, rel=1e-6)
    assert abs(falls[1]) < 0.01 * 9.81 * 0.1


def test_without_the_package_std_srvs_only(start_bridge, probe: Probe, tmp_path) -> None:
    """simulation_interfaces not importable (no install tree where the bridge looks, nothing on
    the Python path): the bridge runs, says so once, serves ~/pause and ~/step."""
    b = start_bridge(
        {**PARAMS, "start_paused": False},
        name="plain",
        extra=["-r", "__ns:=/plain"],
        env={"SDF_BRIDGE_SIMULATION_INTERFACES": str(tmp_path), "PYTHONPATH": str(REPO)},
    )
    probe.watch("/plain/joint_states", JointState)
    probe.wait_ready(b, "/plain/joint_states", timeout=90.0)
    assert probe.call(SetBool, "/plain/plain/pause", SetBool.Request(data=True)).success
    assert probe.call(Trigger, "/plain/plain/step", Trigger.Request()).success
    names = dict(probe.node.get_service_names_and_types())
    assert "/plain/plain/step_simulation" not in names
    assert b.stop() == 0
    output = b.output()
    assert output.count("simulation_interfaces is not installed") == 1, output


def test_the_node_imports_mujoco_only_for_a_mujoco_backend() -> None:
    """The simulation controls import the MuJoCo world lazily: the node module alone (a mock or
    real-hardware bridge, where mujoco may not be installed) does not import mujoco."""
    import subprocess
    import sys

    code = "import sys, sdf_bridge.ros.node; print('mujoco' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "False", done.stderr
