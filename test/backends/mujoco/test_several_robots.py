"""Several robots in one MuJoCo physics (sdf_bridge.description.world.select_robots → the
builder): the three arms of one world driven at once, each moving as it does alone; two copies of
one URDF at different poses; a robot pushing another."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest
from several_robots import ARM_NAMES, ONE_ARM, RAM_AND_CART, THREE_ARMS, TWO_LINK_URDF

from sdf_bridge.description import load
from sdf_bridge.description.world import Placement, combine, select_robots
from sdf_bridge.hardware import HardwareSystem

DT = 0.01


def _system(robot, **params) -> HardwareSystem:
    return HardwareSystem(
        robot,
        "mujoco",
        backend_params={"render_cameras": False, **params},
        command_timeout=0.0,
        update_rate=1.0 / DT,
    )


def _run(system: HardwareSystem, seconds: float, command) -> np.ndarray:
    """Submit ``command(system, t)`` and cycle every DT for ``seconds``; the last positions."""
    t, state = 0.0, None
    for _ in range(round(seconds / DT)):
        command(system, t)
        t += DT
        state = system.cycle(t, DT)
    return state.joints


def _drive(prefix, only: str | None = None):
    """Commands of the three arms as a closure: arm ``position`` to (0.5, -0.3) rad, arm
    ``velocity`` at (0.4, -0.2) rad/s, arm ``effort`` (0.02, 0.01) N·m; ``prefix(arm)`` the
    scope of an arm's joint names; ``only``: that arm's command alone."""

    def command(system: HardwareSystem, t: float) -> None:
        for arm, kind, values in (
            ("position", "position", (0.5, -0.3)),
            ("velocity", "velocity", (0.4, -0.2)),
            ("effort", "effort", (0.02, 0.01)),
        ):
            if only not in (None, arm):
                continue
            names = [prefix(arm) + "j1", prefix(arm) + "j2"]
            args = {"position": None, "velocity": None, "effort": None, kind: values}
            system.submit_joint_state(names, **args, now=t)

    return command


def test_every_robot_of_a_world_is_simulated_with_scoped_names() -> None:
    robot = select_robots(load(THREE_ARMS))
    assert robot.robots == ARM_NAMES and robot.name == "arms"
    assert [m.name for m in robot.scenery] == ["ground"]
    system = _system(robot)
    try:
        assert system.joint_names == tuple(f"{a}::j{i}" for a in ARM_NAMES for i in (1, 2))
        model = system.backend.model
        # each arm's base where the world puts it
        data = system.backend.data
        mujoco.mj_kinematics(model, data)
        np.testing.assert_allclose(data.body("velocity::base").xpos, [0, -0.5, 0.25], atol=1e-12)
        np.testing.assert_allclose(data.body("effort::link2").xpos, [0, 0.5, 0.55], atol=1e-12)
    finally:
        system.close()


def test_three_arms_driven_at_once_move_each_as_it_does_alone() -> None:
    """Position, velocity and effort at once: each arm's joints end where that arm alone,
    commanded the same way, ends (the arms do not touch), to 1e-9 rad."""
    together = _system(select_robots(load(THREE_ARMS)))
    try:
        final = _run(together, 1.0, _drive(lambda arm: f"{arm}::"))
    finally:
        together.close()
    for index, arm in enumerate(ARM_NAMES):
        alone_robot = select_robots(load(ONE_ARM.replace('"alone"', f'"{arm}"')))
        alone = _system(alone_robot)
        try:
            reference = _run(alone, 1.0, _drive(lambda a: "", arm))
        finally:
            alone.close()
        np.testing.assert_allclose(
            final[:2, 2 * index : 2 * index + 2], reference[:2, :2], rtol=0, atol=1e-9
        )
    position, velocity = final[0], final[1]
    np.testing.assert_allclose(position[:2], [0.5, -0.3], atol=0.02)  # position tracked
    np.testing.assert_allclose(velocity[2:4], [0.4, -0.2], atol=0.02)  # velocity tracked
    assert position[4] > 0.05 and position[5] > 0.0  # pushed by the efforts


def test_commanding_one_robot_leaves_the_others_still() -> None:
    system = _system(select_robots(load(THREE_ARMS)))
    try:
        final = _run(
            system,
            0.5,
            lambda s, t: s.submit_joint_state(
                ["velocity::j1", "velocity::j2"], None, [1.0, 1.0], None, t
            ),
        )
    finally:
        system.close()
    assert final[0, 2] > 0.4  # the commanded arm moved
    np.testing.assert_allclose(final[0, [0, 1, 4, 5]], 0.0, atol=1e-9)  # the others held


def test_two_copies_of_one_urdf_at_different_poses() -> None:
    urdf = load(TWO_LINK_URDF)
    robot = combine(
        [
            Placement("left", urdf, pose=None, base="fixed"),
            Placement("right", urdf, pose=_pose((0.0, 1.0, 0.2), (0.0, 0.0, 1.5707963267948966))),
        ],
        name="pair",
    )
    assert list(robot.joints) == [
        "left::shoulder",
        "left::elbow",
        "left::base__fixed",
        "right::shoulder",
        "right::elbow",
    ]
    system = _system(robot, fixed_base=True)
    try:
        final = _run(
            system,
            1.0,
            lambda s, t: s.submit_joint_state(
                ["left::shoulder", "right::elbow"], [0.3, -0.4], None, None, t
            ),
        )
        data = system.backend.data
        np.testing.assert_allclose(data.body("right::base").xpos, [0.0, 1.0, 0.2], atol=1e-9)
        # the right copy turned 90° about z: its y axis (the joints' axis) along world -x
        np.testing.assert_allclose(
            data.body("right::base").xmat.reshape(3, 3)[:, 1], [-1, 0, 0], atol=1e-9
        )
    finally:
        system.close()
    np.testing.assert_allclose(final[0, [0, 3]], [0.3, -0.4], atol=0.02)
    np.testing.assert_allclose(final[0, [1, 2]], 0.0, atol=1e-5)  # held (its PD: 2e-6 rad)


def _pose(xyz, rpy):
    from sdf_bridge.description.model import Pose

    return Pose(xyz, rpy)


def test_a_robot_pushes_another() -> None:
    """The ram's head moves 0.35 m forward; the cart, 0.2 m ahead of it and limp (zero
    effort: an idle joint would hold its place), is pushed at least the difference (0.15 m;
    it slides on after the hit), never behind the ram's face by more than the contact's
    penetration (2 mm); without contacts between robots it would stay at 0."""
    robot = select_robots(load(RAM_AND_CART))
    system = _system(robot)

    def command(s: HardwareSystem, t: float) -> None:
        s.submit_joint_state(["ram::push"], [min(0.35, t * 0.5)], None, None, t)
        s.submit_joint_state(["cart::roll"], None, None, [0.0], t)

    try:
        final = _run(system, 2.0, command)
    finally:
        system.close()
    ram, cart = final[0, 0], final[0, 1]
    assert ram == pytest.approx(0.35, abs=0.01)
    assert cart >= ram - 0.2 - 0.002 and cart > 0.15 - 0.002
