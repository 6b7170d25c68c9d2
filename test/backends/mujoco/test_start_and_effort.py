"""The MuJoCo backend at its start and its effort bounds: the PID's integral preloaded with the
static load, effort limits as the limiter reads them (URDF 0 = not limited), passive joints.

Positions exact to 1e-6 rad, efforts to 1e-9 N·m, unless stated.
"""

from __future__ import annotations

import logging
import math

import pytest
from mujoco_helpers import G, pendulum_urdf

GRAVITY = {"gravity": [0.0, 0.0, -G]}


@pytest.mark.parametrize(
    "gains", [{}, {"pid_gains": {"j": {"p": 20.0, "i": 10.0, "d": 2.0, "i_clamp": 50.0}}}]
)
def test_a_held_joint_does_not_sag_under_gravity_at_the_start(make_sim, gains) -> None:
    """No command from the reset on: the integral starts at the static load m·g·L = 4.905 N·m
    (the horizontal arm's weight), so the joint stays within 1e-6 rad of its start (without
    the preload p = 20 would let it sag by 4.905 / 20 = 0.25 rad first)."""
    urdf = pendulum_urdf(
        joint_type="revolute",
        com_xyz="0.5 0 0",
        limit='<limit lower="-2" upper="2" effort="100" velocity="10"/>',
    )
    sim = make_sim(urdf, {**GRAVITY, **gains})
    assert sim.backend.pid.integral[0] == pytest.approx(-0.5 * G, abs=1e-9)
    positions = [s.position[0] for s in sim.run(2.0)]
    assert max(abs(q) for q in positions) < 1e-6


def test_the_preload_is_bounded_and_needs_an_integral_gain(make_sim) -> None:
    urdf = pendulum_urdf(
        joint_type="revolute",
        com_xyz="0.5 0 0",
        limit='<limit lower="-2" upper="2" effort="100" velocity="10"/>',
    )
    clamped = make_sim(
        urdf, {**GRAVITY, "pid_gains": {"j": {"p": 20.0, "i": 10.0, "i_clamp": 1.5}}}
    )
    assert clamped.backend.pid.integral[0] == -1.5
    no_integral = make_sim(urdf, {**GRAVITY, "pid_gains": {"j": {"p": 20.0, "d": 2.0}}})
    assert no_integral.backend.pid.integral[0] == 0.0


ZERO_EFFORT_WINDOW = """<ros2_control name="hw" type="system"><hardware><plugin>p</plugin>
  </hardware>
  <joint name="j"><command_interface name="position"/><command_interface name="effort"><param
    name="min">0</param>
  <param name="max">0</param></command_interface><state_interface name="position"/></joint>
    </ros2_control>"""


def test_zero_effort_window_makes_a_passive_joint(make_sim, caplog) -> None:
    """A <ros2_control> effort window [0, 0]: MuJoCo cannot take an empty force range; the joint
    is simulated passive (noted): position and effort commands exert exactly 0 N·m."""
    urdf = pendulum_urdf(
        joint_type="revolute",
        axis="0 0 1",
        com_xyz="0.5 0 0",
        extra=ZERO_EFFORT_WINDOW,
        limit='<limit lower="-3" upper="3" effort="50" velocity="10"/>',
    )
    with caplog.at_level(logging.WARNING):
        sim = make_sim(urdf, GRAVITY)
    assert "joint(s) ['j'] have effort limit 0: simulated as passive joints" in caplog.text
    sim.position([1.0])
    assert sim.read(0.01).effort[0] == 0.0
    sim.effort([5.0])
    state = sim.run(0.1)[-1]
    assert state.effort[0] == 0.0 and state.position[0] == 0.0


def test_urdf_effort_limit_zero_is_not_limited_as_the_limiter_reads_it(make_sim) -> None:
    """ROS-Industrial's <limit effort="0"> (unknown): the joint is driven and holds its position
    under gravity as an unlimited one does (gazebo_ros_control's reading, the limiter's too)."""
    held = {}
    for effort in ("0", "1e9"):
        urdf = pendulum_urdf(
            joint_type="revolute",
            com_xyz="0.5 0 0",
            limit=f'<limit lower="-3" upper="3" effort="{effort}" velocity="10"/>',
        )
        held[effort] = make_sim(urdf, GRAVITY).run(1.0)[-1].position[0]
    assert abs(held["0"]) < 0.02 and held["0"] == held["1e9"]


SCREW = """<sdf version="1.10"><model name="lift"><link name="base"/>
  <link name="nut"><inertial><mass>2</mass><inertia><ixx>1e-4</ixx><iyy>1e-4</iyy><izz>1e-4</izz>
    </inertia></inertial>
  </link>
  <joint name="screw" type="screw"><parent>base</parent><child>nut</child>
    <screw_thread_pitch>0.01</screw_thread_pitch>
    <axis><xyz>0 0 1</xyz><limit><lower>-100</lower><upper>100</upper><effort>50</effort>
      <velocity>100</velocity>
    </limit></axis></joint></model></sdf>"""


def test_a_screws_preload_is_the_weight_on_its_thread(make_sim) -> None:
    """A 2 kg nut on a vertical screw (lead 0.01 m per turn): the hinge's preload is the weight
    moved through the thread, m·g·p / 2π = 0.0312 N·m."""
    from sdf_bridge.description import load

    sim = make_sim(load(SCREW), GRAVITY)
    assert sim.backend.pid.integral[0] == pytest.approx(2.0 * G * 0.01 / (2 * math.pi), rel=1e-9)


def test_a_mimic_leader_carries_its_followers_load(make_sim) -> None:
    """Two horizontal 1 kg arms, the second mimicking the first ×2: the leader holds
    m·g·L·(1 + 2) with L = 0.5 m (position within 1e-4 rad: the coupling is a soft constraint)."""
    extra = """<link name="arm2"><inertial><origin xyz="0.5 0 0"/><mass value="1"/>
      <inertia ixx="1e-6" ixy="0" ixz="0" iyy="1e-6" iyz="0" izz="1e-6"/></inertial></link>
      <joint name="j2" type="revolute"><parent link="base"/><child link="arm2"/><origin
        xyz="0 0 1"/><axis xyz="0 1 0"/>
      <limit lower="-2" upper="2" effort="100" velocity="10"/><mimic joint="j" multiplier="2"/>
        </joint>"""
    urdf = pendulum_urdf(
        joint_type="revolute",
        com_xyz="0.5 0 0",
        extra=extra,
        limit='<limit lower="-2" upper="2" effort="100" velocity="10"/>',
    )
    sim = make_sim(urdf, GRAVITY)
    assert sim.backend.pid.integral[0] == pytest.approx(-0.5 * G * 3.0, rel=1e-9)
    assert max(abs(s.position[0]) for s in sim.run(1.0)) < 1e-4  # the equality constraint is soft


def test_a_link_without_gravity_weighs_nothing(make_sim) -> None:
    """<turnGravityOff> (Gazebo): MuJoCo's gravcomp cancels its weight: no load, no sag."""
    urdf = pendulum_urdf(
        joint_type="revolute",
        com_xyz="0.5 0 0",
        extra='<gazebo reference="arm"><turnGravityOff>true</turnGravityOff></gazebo>',
        limit='<limit lower="-2" upper="2" effort="100" velocity="10"/>',
    )
    sim = make_sim(urdf, GRAVITY)
    assert sim.backend.model.body_gravcomp[sim.backend.model.body("arm").id] == 1.0
    assert sim.backend.pid.integral[0] == pytest.approx(0.0, abs=1e-12)
    assert max(abs(s.position[0]) for s in sim.run(1.0)) < 1e-9
