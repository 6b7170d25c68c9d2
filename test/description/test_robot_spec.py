"""``--robot NAME=FILE[@pose][:fixed|:free]`` (and the node's ``robots`` parameter,
:func:`~sdf_bridge.description.world.parse_robot_spec`): a ``:word`` ending that is no base is
named as such (it was read as part of the file name: "cannot read the description
…:flying"), and a pose number is bounded as the description's numbers are (±1e6,
:data:`~sdf_bridge.description.magnitudes.MAX_MAGNITUDE`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sdf_bridge.description.model import Pose
from sdf_bridge.description.world import RobotSpec, load_placements, parse_robot_spec
from sdf_bridge.errors import InvalidValueError

FORM_FIX = r"Fix: give NAME=FILE\[@x,y,z,roll,pitch,yaw\]\[:fixed\|:free\], e\.g\. "
ARM = """<robot name="arm"><link name="base"/><link name="l1"><inertial><mass value="1"/>
  <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>
"""


@pytest.mark.parametrize("text", ["arm2=arm.urdf.xacro:flying", "arm2=arm.urdf:Fixed"])
def test_a_suffix_that_is_no_base_is_named(text: str) -> None:
    word = text.rpartition(":")[2]
    with pytest.raises(
        InvalidValueError,
        match=rf"^robot '{text}': unknown base '{word}': give :fixed or :free\. {FORM_FIX}",
    ):
        parse_robot_spec(text)


def test_the_suffix_is_refused_before_the_file_is_read(tmp_path: Path) -> None:
    (tmp_path / "arm.urdf").write_text(ARM)
    with pytest.raises(InvalidValueError, match=r"unknown base 'flying': give :fixed or :free"):
        load_placements([f"arm2={tmp_path / 'arm.urdf'}:flying"])


@pytest.mark.parametrize(
    "text",
    ["a=package://arm_description/urdf/arm.urdf", "a=robots/r:v2.urdf", "a=dir:x/arm.urdf"],
)
def test_a_colon_inside_a_file_name_is_no_suffix(text: str) -> None:
    assert parse_robot_spec(text) == RobotSpec("a", text[2:])


@pytest.mark.parametrize(
    ("pose", "shown"),
    [
        ("0,1e9,0,0,0,0", "1e9"),
        ("0,0,0,0,0,-1000000.5", "-1000000.5"),
        ("1E+300,0,0,0,0,0", r"1E\+300"),
    ],
)
def test_a_pose_beyond_the_bound_is_refused(pose: str, shown: str) -> None:
    text = f"arm2=arm.urdf@{pose}:fixed"
    with pytest.raises(
        InvalidValueError,
        match=rf"^robot '{re.escape(text)}': pose value {shown} is beyond the bound ±1e6 "
        r"\(m or rad; a value no simulator can use\)\. "
        r"Fix: give each of x,y,z,roll,pitch,yaw within ±1e6$",
    ):
        parse_robot_spec(text)


def test_a_pose_at_the_bound_is_kept() -> None:
    spec = parse_robot_spec("arm2=arm.urdf@1e6,-1e6,0,0,0,1e6:free")
    assert spec == RobotSpec("arm2", "arm.urdf", Pose((1e6, -1e6, 0.0), (0.0, 0.0, 1e6)), "free")
