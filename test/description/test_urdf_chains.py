"""Universal, revolute2 and ball joints written to URDF as chains of one-axis joints
(:func:`sdf_bridge.description.export.urdf_writer.chain_joints`, ``to_urdf(chains=True)``): what
the controller_manager and robot_state_publisher read of an SDFormat robot.

The frames are exact: for several angles, the child link's pose through the URDF chain (read by
urdf_parser_py, composed here from its ``<origin>`` and ``<axis>`` elements) equals the SDF
joint's closed form ``X_parent_child(q) = X0 · J · R(q) · J⁻¹`` (``X0`` the links' poses, ``J``
the joint's pose in its child, ``R = rot(axis1, q1) · rot(axis2, q2)`` for a universal joint,
``Rz(yaw) · Ry(pitch) · Rx(roll)`` for a ball) within 1e-12; urdfdom's ``check_urdf`` parses it;
each axis keeps its own limits.
"""

from __future__ import annotations

import math
import subprocess
from pathlib import Path

import numpy as np
import pytest
from prerequisites import require_tool
from test_export_limits import urdfdom_joints

from sdf_bridge.description import load
from sdf_bridge.description.export import to_urdf
from sdf_bridge.description.export.urdf_writer import chain_joints
from sdf_bridge.errors import UnsupportedError

TOL = 1e-12

ARM_POSE = (0.1, 0.2, 0.3, 0.4, -0.2, 0.7)
HAND_POSE = (0.3, -0.1, 0.5, -0.6, 0.25, 0.1)
U_POSE = (0.05, 0.0, 0.02, 0.1, 0.2, 0.3)  # in the child (SDFormat's default frame)
B_POSE = (-0.02, 0.03, 0.0, 0.5, -0.4, 0.2)
AXIS1 = (0.0, 0.6, 0.8)
AXIS2 = (1.0, 0.0, 0.0)


def _v(values) -> str:
    return " ".join(repr(float(v)) for v in values)


MODEL = f"""<sdf version="1.9"><model name="m">
  <link name="base"/>
  <link name="arm"><pose>{_v(ARM_POSE)}</pose>
    <visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual></link>
  <link name="hand"><pose>{_v(HAND_POSE)}</pose>
    <visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual></link>
  <joint name="u" type="universal"><pose>{_v(U_POSE)}</pose><parent>base</parent><child>arm</child>
    <axis><xyz>{_v(AXIS1)}</xyz><limit><lower>-1</lower><upper>1.25</upper><effort>5</effort>
      <velocity>2</velocity></limit></axis>
    <axis2><xyz>{_v(AXIS2)}</xyz><limit><lower>-0.5</lower><upper>0.5</upper></limit></axis2>
  </joint>
  <joint name="b" type="ball"><pose>{_v(B_POSE)}</pose><parent>arm</parent><child>hand</child>
  </joint>
</model></sdf>"""


def _rot(axis, angle: float) -> np.ndarray:
    """Rotation of ``angle`` about unit ``axis`` (Rodrigues), 4×4."""
    a = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    t = np.eye(4)
    t[:3, :3] = np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k
    return t


def _pose(values) -> np.ndarray:
    """SDFormat / URDF pose ``x y z roll pitch yaw`` → 4×4 (``Rz(yaw) Ry(pitch) Rx(roll)``)."""
    x, y, z, roll, pitch, yaw = values
    t = _rot((0, 0, 1), yaw) @ _rot((0, 1, 0), pitch) @ _rot((1, 0, 0), roll)
    t[:3, 3] = (x, y, z)
    return t


def _sdf_frames(q1: float, q2: float, rpy: tuple[float, float, float]) -> dict[str, np.ndarray]:
    """The SDF links' poses in the model frame at the joints' angles (closed form)."""
    arm0, hand0, ju, jb = _pose(ARM_POSE), _pose(HAND_POSE), _pose(U_POSE), _pose(B_POSE)
    ru = _rot(AXIS1, q1) @ _rot(AXIS2, q2)
    roll, pitch, yaw = rpy
    rb = _rot((0, 0, 1), yaw) @ _rot((0, 1, 0), pitch) @ _rot((1, 0, 0), roll)
    arm = arm0 @ ju @ ru @ np.linalg.inv(ju)
    hand = arm @ np.linalg.inv(arm0) @ hand0 @ jb @ rb @ np.linalg.inv(jb)
    return {"arm": arm, "hand": hand}


def _urdf_frames(text: str, positions: dict[str, float]) -> dict[str, np.ndarray]:
    """Each link's URDF frame in the root's, composed from the joints urdf_parser_py reads,
    then moved onto the SDF link frame by the link's visual origin (the writer puts the SDF
    link frame there: its visual is at the SDF link origin)."""
    from test_export_limits import _urdf_module

    model = _urdf_module().URDF.from_xml_string(text.encode())
    by_child = {j.child: j for j in model.joints}
    frames: dict[str, np.ndarray] = {}

    def frame(link: str) -> np.ndarray:
        if link not in by_child:
            return np.eye(4)
        j = by_child[link]
        origin = j.origin
        t = _pose((*origin.xyz, *origin.rpy)) if origin is not None else np.eye(4)
        q = positions.get(j.name, 0.0)
        if j.type == "prismatic":
            motion = np.eye(4)
            motion[:3, 3] = np.asarray(j.axis, dtype=float) * q
        elif j.type in ("revolute", "continuous"):
            motion = _rot(j.axis, q)
        else:  # fixed, floating (no motion here)
            motion = np.eye(4)
        return frame(j.parent) @ t @ motion

    for link in model.links:
        t = frame(link.name)
        if link.visuals:
            o = link.visuals[0].origin
            t = t @ (_pose((*o.xyz, *o.rpy)) if o is not None else np.eye(4))
        frames[link.name] = t
    return frames


ANGLES = [
    (0.0, 0.0, (0.0, 0.0, 0.0)),
    (0.3, -0.7, (0.2, -0.5, 1.3)),
    (1.1, 0.4, (-2.0, 1.2, -0.3)),
    (-0.9, 0.5, (0.7, math.pi / 2, 0.4)),  # the ball at gimbal lock
]


@pytest.mark.parametrize(("q1", "q2", "rpy"), ANGLES)
def test_the_chain_moves_the_child_exactly_as_the_sdf_joint(q1, q2, rpy) -> None:
    text = to_urdf(load(MODEL), chains=True)
    roll, pitch, yaw = rpy
    positions = {"u/axis1": q1, "u/axis2": q2, "b/roll": roll, "b/pitch": pitch, "b/yaw": yaw}
    got, expected = _urdf_frames(text, positions), _sdf_frames(q1, q2, rpy)
    for link in ("arm", "hand"):
        assert np.abs(got[link] - expected[link]).max() <= TOL, link


def test_the_chain_joints_links_and_limits(tmp_path: Path) -> None:
    """Names, types, parents and children in chain order, massless intermediate links,
    each axis's own limits (the ball's: continuous, no limits), and check_urdf parses it."""
    check_urdf = require_tool("check_urdf", "liburdfdom-tools")
    text = to_urdf(load(MODEL), chains=True)
    path = tmp_path / "chains.urdf"
    path.write_text(text, encoding="utf-8")
    result = subprocess.run([check_urdf, str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    joints = urdfdom_joints(text)
    assert [(n, j.type, j.parent, j.child) for n, j in joints.items()] == [
        ("u/axis1", "revolute", "base", "u/axis1"),
        ("u/axis2", "revolute", "u/axis1", "arm"),
        ("b/yaw", "continuous", "arm", "b/yaw"),
        ("b/pitch", "continuous", "b/yaw", "b/pitch"),
        ("b/roll", "continuous", "b/pitch", "hand"),
    ]
    limits = {
        n: (j.limit.lower, j.limit.upper, j.limit.effort, j.limit.velocity)
        for n, j in joints.items()
        if j.limit is not None
    }
    assert limits == {"u/axis1": (-1.0, 1.25, 5.0, 2.0), "u/axis2": (-0.5, 0.5, 1e16, 1e16)}
    assert [j.axis for n, j in joints.items() if n.startswith("b/")] == [
        [0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0],
        [1.0, 0.0, 0.0],
    ]
    from test_export_limits import _urdf_module

    links = {link.name: link for link in _urdf_module().URDF.from_xml_string(text.encode()).links}
    assert all(links[n].inertial is None for n in ("u/axis1", "b/yaw", "b/pitch"))


def test_an_absent_axis2_is_sdformats_default_z_without_limits() -> None:
    robot = load("""<sdf version="1.9"><model name="m"><link name="a"/><link name="b"/>
      <joint name="r2" type="revolute2"><parent>a</parent><child>b</child>
        <axis><xyz>1 0 0</xyz></axis></joint></model></sdf>""")
    chain = chain_joints(robot, robot.joints["r2"])
    bounds = [(j.limit.lower, j.limit.upper) if j.limit else None for j in chain]
    assert [(j.name, j.axis.xyz) for j in chain] == [
        ("r2/axis1", (1.0, 0.0, 0.0)),
        ("r2/axis2", (0.0, 0.0, 1.0)),
    ]
    assert bounds == [(None, None), None]
    assert 'name="r2/axis2" type="continuous"' in to_urdf(robot, chains=True)


def test_without_chains_a_multi_axis_joint_is_refused() -> None:
    with pytest.raises(UnsupportedError, match="joint 'u' is of type universal, which URDF"):
        to_urdf(load(MODEL))


def test_a_link_named_like_an_intermediate_link_is_refused() -> None:
    taken = MODEL.replace('<link name="base"/>', '<link name="base"/><link name="b/pitch"/>')
    taken = taken.replace(
        "</model>",
        """<joint name="f" type="fixed"><parent>hand</parent>
      <child>b/pitch</child></joint></model>""",
    )
    with pytest.raises(
        UnsupportedError,
        match=r"the URDF chain of ball joint 'b' needs the name\(s\) \['b/pitch'\].*"
        "Fix: rename those links or joints",
    ):
        to_urdf(load(taken), chains=True)


def test_the_bridges_joint_states_name_joints_of_the_chain() -> None:
    """robot_state_publisher gets TF from the bridge's joint_states: every name the bridge
    publishes (here u/axis1, u/axis2 and the ball's b/roll, b/pitch, b/yaw) is a movable joint
    of the URDF it publishes."""
    from sdf_bridge.hardware import HardwareSystem

    robot = load(MODEL)
    published = HardwareSystem(robot, "mock").state_names
    movable = {
        n for n, j in urdfdom_joints(to_urdf(robot, chains=True)).items() if j.type != "fixed"
    }
    assert {"u/axis1", "u/axis2", "b/roll", "b/pitch", "b/yaw"} <= set(published)
    assert set(published) <= movable


SCREW_GEARBOX = """<sdf version="1.9"><model name="m">
  <link name="a"/>
  <link name="b"><pose>0 0 0.5 0 0 0</pose>
    <visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual></link>
  <link name="c"><visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual>
  </link>
  <link name="free"><pose>1 2 3 0 0 0.5</pose></link>
  <joint name="s" type="screw"><pose>0.1 0 0 0 0 0</pose><parent>a</parent><child>b</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-3</lower><upper>3</upper></limit></axis>
    <screw_thread_pitch>0.004</screw_thread_pitch></joint>
  <joint name="g" type="gearbox"><parent>b</parent><child>c</child>
    <axis><xyz>0 1 0</xyz></axis><gearbox_ratio>2</gearbox_ratio></joint>
</model></sdf>"""


@pytest.mark.parametrize(("q", "gq"), [(0.0, 0.0), (2.5, -0.4), (-1.7, 1.1)])
def test_a_screw_turns_and_advances_and_a_gearbox_turns(q: float, gq: float) -> None:
    """Screw: the child turns q about the axis and advances lead · q along it (lead = 0.004 m
    per turn / 2π, the MuJoCo backend's coupling), through ``s/translation``'s mimic of ``s``;
    gearbox: a revolute joint about its axis. The link joined to nothing hangs from the root
    by a floating joint at its pose."""
    robot = load(SCREW_GEARBOX)
    text = to_urdf(robot, chains=True)
    joints = urdfdom_joints(text)
    lead = 0.004 / (2 * math.pi)
    assert (joints["s/translation"].type, joints["s"].type, joints["g"].type) == (
        "prismatic",
        "revolute",
        "continuous",
    )
    mimic = joints["s/translation"].mimic
    assert (mimic.joint, mimic.multiplier, mimic.offset) == ("s", lead, 0.0)
    assert (joints["s"].limit.lower, joints["s"].limit.upper) == (-3.0, 3.0)
    got = _urdf_frames(text, {"s": q, "s/translation": lead * q, "g": gq})
    x_ab = _pose((0.0, 0.0, 0.5, 0.0, 0.0, 0.0))
    j = _pose((0.1, 0.0, 0.0, 0.0, 0.0, 0.0))  # the joint in b
    advance = np.eye(4)
    advance[2, 3] = lead * q
    b = x_ab @ j @ _rot((0, 0, 1), q) @ advance @ np.linalg.inv(j)
    assert np.abs(got["b"] - b).max() <= TOL
    assert np.abs(got["c"] - b @ np.linalg.inv(x_ab) @ _rot((0, 1, 0), gq)).max() <= TOL
    free = joints["free/floating"]
    assert (free.type, free.parent, free.child) == ("floating", "a", "free")
    assert free.origin.xyz == [1.0, 2.0, 3.0] and free.origin.rpy == [0.0, 0.0, 0.5]


def test_a_screw_without_thread_pitch_is_refused() -> None:
    no_pitch = SCREW_GEARBOX.replace(
        "<screw_thread_pitch>0.004</screw_thread_pitch>", "<thread_pitch>0</thread_pitch>"
    )
    with pytest.raises(
        UnsupportedError,
        match=r"screw joint 's' has no thread pitch \(or a legacy.*Fix: give <screw_thread_pitch>",
    ):
        to_urdf(load(no_pitch), chains=True)


def test_a_floating_joint_named_like_a_joint_is_refused() -> None:
    taken = SCREW_GEARBOX.replace('<joint name="g"', '<joint name="free/floating"')
    with pytest.raises(
        UnsupportedError,
        match=r"floating joints of the links joined to nothing need the name\(s\) "
        r"\['free/floating'\].*Fix: rename those joints",
    ):
        to_urdf(load(taken), chains=True)
