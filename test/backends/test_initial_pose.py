"""The whole robot's initial pose: description values, YAML keyframes, SRDF group states, the
limits clamp, and every error."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sdf_bridge.backends.initial_pose import initial_pose
from sdf_bridge.description import load
from sdf_bridge.errors import ConfigError

ROBOT = """<?xml version="1.0"?>
<robot name="leg">
  <link name="base"/><link name="thigh"/><link name="shin"/><link name="foot"/>
  <joint name="hip" type="revolute"><parent link="base"/><child link="thigh"/>
    <limit lower="-1" upper="1" effort="5" velocity="1"/></joint>
  <joint name="knee" type="revolute"><parent link="thigh"/><child link="shin"/>
    <limit lower="-2.5" upper="-0.5" effort="5" velocity="1"/></joint>
  <joint name="ankle" type="fixed"><parent link="shin"/><child link="foot"/></joint>
  <ros2_control name="hw" type="system"><hardware><plugin>x/Y</plugin></hardware>
    <joint name="hip"><command_interface name="position"/>
      <state_interface name="position"><param name="initial_value">0.25</param></state_interface>
      <state_interface name="velocity"><param name="initial_value">0.5</param></state_interface>
        </joint>
    <joint name="knee"><command_interface name="position"/><state_interface name="position"/>
      </joint>
  </ros2_control>
</robot>"""

SRDF = """<?xml version="1.0"?>
<robot name="leg">
  <virtual_joint name="world_joint" type="floating" parent_frame="odom" child_link="base"/>
  <group name="leg"><joint name="hip"/><joint name="knee"/></group>
  <group_state name="stand" group="leg"><joint name="knee" value="-1.5"/></group_state>
  <group_state name="stand" group="base"><joint name="world_joint"
    value="1 2 0.5 0 0 0.7071068 0.7071068"/></group_state>
  <group_state name="sit" group="leg"><joint name="knee" value="-2"/></group_state>
</robot>"""


@pytest.fixture(scope="module")
def robot():
    return load(ROBOT)


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_description_values_and_zero_clamped_into_the_limits(robot) -> None:
    """hip from its ros2_control initial_value; knee (no value, 0 outside [-2.5, -0.5]) at the
    nearer limit -0.5."""
    pose = initial_pose(robot, {})
    assert dict(pose.position) == {"hip": 0.25, "knee": -0.5}
    assert dict(pose.velocity) == {"hip": 0.5}
    assert pose.base is None and pose.source == "description"


def test_yaml_keyframe_overrides_joint_by_joint(robot, tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "k.yaml",
        "keyframes:\n  stand:\n    joints: {knee: -1.2}\n"
        "    base_pose: [0.1, 0.2, 0.3, 0.0, 0.0, 1.5]\n",
    )
    pose = initial_pose(robot, {"keyframe_file": path, "keyframe": "stand"})
    assert dict(pose.position) == {"hip": 0.25, "knee": -1.2}
    assert (
        pose.base is not None
        and pose.base.xyz == (0.1, 0.2, 0.3)
        and pose.base.rpy == (0.0, 0.0, 1.5)
    )
    assert pose.source == f"keyframe 'stand' of {path}"


def test_srdf_group_states_of_one_name_with_the_floating_virtual_joint(
    robot, tmp_path: Path
) -> None:
    """Every group state named 'stand' counts; the virtual joint's x y z qx qy qz qw is the base
    pose (a quarter turn about z here)."""
    pose = initial_pose(
        robot, {"srdf_file": _write(tmp_path, "leg.srdf", SRDF), "keyframe": "stand"}
    )
    assert pose.position["knee"] == -1.5 and pose.position["hip"] == 0.25
    assert pose.base is not None and pose.base.xyz == (1.0, 2.0, 0.5)
    assert pose.base.rpy[2] == pytest.approx(math.pi / 2, abs=1e-6)
    assert pose.base.rpy[0] == pytest.approx(0.0, abs=1e-12) and pose.base.rpy[1] == pytest.approx(
        0.0, abs=1e-12
    )


def test_srdf_planar_virtual_joint(robot, tmp_path: Path) -> None:
    srdf = SRDF.replace('type="floating"', 'type="planar"').replace(
        'value="1 2 0.5 0 0 0.7071068 0.7071068"', 'value="1 2 0.5"'
    )
    pose = initial_pose(robot, {"srdf_file": _write(tmp_path, "p.srdf", srdf), "keyframe": "stand"})
    assert (
        pose.base is not None
        and pose.base.xyz == (1.0, 2.0, 0.0)
        and pose.base.rpy == (0.0, 0.0, 0.5)
    )


@pytest.mark.parametrize(
    ("files", "params", "message"),
    [
        ({}, {"keyframe": "stand"}, r"keyframe = 'stand' but no keyframe_file or srdf_file"),
        (
            {"k.yaml": "keyframes: {stand: {}}"},
            {"keyframe_file": "k.yaml"},
            r"keyframe_file = .* but no keyframe",
        ),
        (
            {"k.yaml": "keyframes: {}", "s.srdf": SRDF},
            {"keyframe_file": "k.yaml", "srdf_file": "s.srdf", "keyframe": "stand"},
            r"keyframe_file and srdf_file are both set",
        ),
        (
            {},
            {"keyframe_file": "missing.yaml", "keyframe": "stand"},
            r"cannot read the keyframe file .*missing.yaml",
        ),
        (
            {"k.yaml": "keyframes: [1"},
            {"keyframe_file": "k.yaml", "keyframe": "stand"},
            r"is not valid YAML",
        ),
        (
            {"k.yaml": "stand: {}"},
            {"keyframe_file": "k.yaml", "keyframe": "stand"},
            r"has no 'keyframes:' mapping",
        ),
        (
            {"k.yaml": "keyframes: {sit: {}}"},
            {"keyframe_file": "k.yaml", "keyframe": "stand"},
            r"has no keyframe 'stand'. Fix: use one of \['sit'\]",
        ),
        (
            {"k.yaml": "keyframes: {stand: {pose: 1}}"},
            {"keyframe_file": "k.yaml", "keyframe": "stand"},
            r"keyframes.stand must be a mapping with 'joints'",
        ),
        (
            {"k.yaml": "keyframes: {stand: {joints: [1]}}"},
            {"keyframe_file": "k.yaml", "keyframe": "stand"},
            r"keyframes.stand.joints must map joint names",
        ),
        (
            {"k.yaml": "keyframes: {stand: {joints: {elbow: 1}}}"},
            {"keyframe_file": "k.yaml", "keyframe": "stand"},
            r"joint 'elbow' is not a joint of the robot. Fix: use one of \['hip', 'knee'\]",
        ),
        (
            {"k.yaml": "keyframes: {stand: {joints: {ankle: 1}}}"},
            {"keyframe_file": "k.yaml", "keyframe": "stand"},
            r"joint 'ankle' is a fixed joint",
        ),
        (
            {"k.yaml": "keyframes: {stand: {joints: {knee: .nan}}}"},
            {"keyframe_file": "k.yaml", "keyframe": "stand"},
            r"keyframes.stand.joints.knee = nan is not a finite number",
        ),
        (
            {"k.yaml": "keyframes: {stand: {joints: {knee: true}}}"},
            {"keyframe_file": "k.yaml", "keyframe": "stand"},
            r"keyframes.stand.joints.knee = True is not a finite number",
        ),
        (
            {"k.yaml": "keyframes: {stand: {base_pose: [0, 0]}}"},
            {"keyframe_file": "k.yaml", "keyframe": "stand"},
            r"base_pose = \[0, 0\] must be \[x, y, z, roll, pitch, yaw\]",
        ),
        (
            {"s.srdf": SRDF},
            {"srdf_file": "s.srdf", "keyframe": "walk"},
            r"has no <group_state name='walk'>. Fix: use one of \['sit', 'stand'\]",
        ),
        (
            {"s.srdf": "<robot"},
            {"srdf_file": "s.srdf", "keyframe": "stand"},
            r"SRDF file .* cannot be read: .*not well-formed",
        ),
        (
            {"s.srdf": SRDF.replace('value="-1.5"', 'value="-1.5 2"')},
            {"srdf_file": "s.srdf", "keyframe": "stand"},
            r"s.srdf:5: <group_state name='stand'> joint 'knee': value '-1.5 2' must be one number",
        ),
        (
            {"s.srdf": SRDF.replace('value="-1.5"', 'value="bent"')},
            {"srdf_file": "s.srdf", "keyframe": "stand"},
            r"joint 'knee' value = 'bent' is not a finite number",
        ),
        (
            {"s.srdf": SRDF.replace("0.5 0 0 0.7071068 0.7071068", "0.5 0 0 0 0")},
            {"srdf_file": "s.srdf", "keyframe": "stand"},
            r"virtual joint 'world_joint': quaternion \(qx qy qz qw\) is zero",
        ),
        (
            {"s.srdf": SRDF.replace("0.5 0 0 0.7071068 0.7071068", "0.5")},
            {"srdf_file": "s.srdf", "keyframe": "stand"},
            r"virtual joint 'world_joint' \(floating\) has 3 value\(s\). Fix: floating x y z qx "
            r"qy qz qw",
        ),
    ],
)
def test_bad_keyframes(
    robot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files, params, message
) -> None:
    for name, text in files.items():
        _write(tmp_path, name, text)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=message):
        initial_pose(robot, params)
