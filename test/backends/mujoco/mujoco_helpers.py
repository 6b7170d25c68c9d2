"""Helpers for the MuJoCo backend tests: small robots as URDF strings, configured backends."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import mujoco
import numpy as np

from sdf_bridge.backends.base import (
    MODE_DTYPE,
    ActuatorCommand,
    JointCommand,
    JointSpaceState,
    Mode,
)
from sdf_bridge.backends.mujoco import MujocoBackend
from sdf_bridge.backends.mujoco.builder import BuildOptions, BuiltModel, build_spec, compile_model
from sdf_bridge.description.model import Inertia, Inertial, Joint, Link, Pose, Robot
from sdf_bridge.transmissions import TransmissionMap

G = 9.81


def pendulum_urdf(
    *,
    joint_type: str = "continuous",
    axis: str = "0 1 0",
    length: float = 1.0,
    mass: float = 1.0,
    inertia: float = 1e-6,
    pivot_z: float = 2.0,
    com_xyz: str | None = None,
    limit: str = "",
    dynamics: str = "",
    extra: str = "",
    extra_links: str = "",
) -> str:
    """A one-joint robot: fixed ``base`` (no inertial), joint ``j`` at height ``pivot_z`` with a
    point-like mass at ``com_xyz`` (default: ``length`` below the pivot) on link ``arm``."""
    com = com_xyz if com_xyz is not None else f"0 0 {-length}"
    return f"""<?xml version="1.0"?>
<robot name="pendulum">
  <link name="base"/>
  <link name="arm">
    <inertial><origin xyz="{com}"/><mass value="{mass}"/>
      <inertia ixx="{inertia}" ixy="0" ixz="0" iyy="{inertia}" iyz="0" izz="{inertia}"/></inertial>
  </link>
  <joint name="j" type="{joint_type}">
    <parent link="base"/><child link="arm"/><origin xyz="0 0 {pivot_z}"/><axis xyz="{axis}"/>
    {limit}{dynamics}
  </joint>
  {extra_links}
  {extra}
</robot>"""


def nan(n: int) -> np.ndarray:
    """``n`` NaNs (no command)."""
    return np.full(n, math.nan)


def joint_command(tm: TransmissionMap, command: ActuatorCommand) -> JointCommand:
    """An actuator-space command as a joint command for the MuJoCo backend: mapped to joint
    space (``actuator_to_joint``), each joint's mode from which of its values are finite
    (position — with velocity: position_velocity — > velocity > effort > none; a finite effort
    beside another mode is a feed-forward), idle joints holding where they are (NaN)."""
    values = np.stack(tm.actuator_to_joint(command.position, command.velocity, command.effort))
    p, v, e = np.isfinite(values)
    mode = np.where(
        p,
        np.where(v, Mode.POSITION_VELOCITY, Mode.POSITION),
        np.where(v, Mode.VELOCITY, np.where(e, Mode.EFFORT, Mode.NONE)),
    ).astype(MODE_DTYPE)
    return JointCommand(values, mode, np.full(len(mode), math.nan))


class ActuatorView:
    """A :class:`JointSpaceState` read in actuator space: ``position``, ``velocity``,
    ``effort`` (the actuator rows), ``sensors``, ``sim_time``; ``joints`` as read."""

    def __init__(self, state: JointSpaceState) -> None:
        self.joints, self.sensors, self.sim_time = state.joints, state.sensors, state.sim_time
        self.position, self.velocity, self.effort = state.actuators


class Sim:
    """A configured backend with its map, plus command helpers in actuator space."""

    def __init__(self, robot: Robot, params: Mapping[str, Any] | None = None) -> None:
        self.robot = robot
        self.tm = TransmissionMap.from_robot(robot)
        self.actuators = self.tm.actuator_names
        self.backend = MujocoBackend()
        self.backend.configure(robot, transmissions=self.tm, params=dict(params or {}))
        self.n = len(self.actuators)

    def write(self, command: ActuatorCommand, dt: float = 0.01) -> None:
        """Write an actuator-space command (:func:`joint_command`)."""
        self.backend.write(joint_command(self.tm, command), dt)

    def read(self, dt: float = 0.01) -> ActuatorView:
        """Read the backend, in actuator space."""
        return ActuatorView(self.backend.read(dt))

    def effort(self, values: Sequence[float], dt: float = 0.01) -> None:
        self.write(ActuatorCommand(nan(self.n), nan(self.n), np.asarray(values, float)), dt)

    def position(self, values: Sequence[float], dt: float = 0.01) -> None:
        self.write(ActuatorCommand(np.asarray(values, float), nan(self.n), nan(self.n)), dt)

    def velocity(self, values: Sequence[float], dt: float = 0.01) -> None:
        self.write(ActuatorCommand(nan(self.n), np.asarray(values, float), nan(self.n)), dt)

    def run(
        self, seconds: float, dt: float = 0.01, command: Callable[[], None] | None = None
    ) -> list:
        """Read every ``dt`` for ``seconds``, calling ``command`` before each read; the states
        (:class:`ActuatorView`)."""
        states = []
        for _ in range(int(round(seconds / dt))):
            if command is not None:
                command()
            states.append(self.read(dt))
        return states

    def qpos(self, joint: str) -> float:
        """MuJoCo's position of ``joint`` (a 1-DOF joint or an axis coordinate)."""
        return float(self.backend.data.qpos[self.backend.built.address(joint)[0]])

    def qvel(self, joint: str) -> float:
        """MuJoCo's velocity of ``joint`` (a 1-DOF joint or an axis coordinate)."""
        return float(self.backend.data.qvel[self.backend.built.address(joint)[1]])


INERTIAL = Inertial(1.0, Inertia(0.01, 0, 0, 0.02, 0, 0.03), Pose((0.1, 0, 0)))
"""1 kg, principal inertias (0.01, 0.02, 0.03) kg·m², centre of mass 0.1 m along x."""


def chain_robot(*joints: Joint, links: dict[str, Link] | None = None, fmt: str = "urdf") -> Robot:
    """A robot of ``joints``; links they name get :data:`INERTIAL` unless given in ``links``."""
    all_links = dict(links or {})
    for j in joints:
        for name in (j.parent, j.child):
            all_links.setdefault(name, Link(name, inertial=INERTIAL))
    return Robot("r", links=all_links, joints={j.name: j for j in joints}, format=fmt)


def compile_robot(robot: Robot, **options: Any) -> tuple[mujoco.MjModel, BuiltModel]:
    """Build and compile ``robot`` with :class:`BuildOptions` ``options``."""
    built = build_spec(robot, BuildOptions(**options))
    return compile_model(built), built
