"""Which joints ask for wrench feedback: SDFormat <provide_feedback>, Gazebo's provideFeedback."""

from __future__ import annotations

import re

import pytest

from sdf_bridge.description import load
from sdf_bridge.description.export.sdf_writer import to_sdf
from sdf_bridge.description.feedback import (
    feedback_joints,
    feedback_skips,
    reading_name,
    with_feedback,
)
from sdf_bridge.errors import ConfigError, InvalidValueError

URDF = """<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j1" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="c"/></joint>
  {extra}
</robot>"""

SDF = """<sdf version="1.9"><model name="m">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j1" type="revolute"><parent>a</parent><child>b</child>
    <axis><xyz>0 0 1</xyz></axis>{j1}</joint>
  <joint name="j2" type="fixed"><parent>b</parent><child>c</child>{j2}</joint>
</model></sdf>"""


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("", ()),
        ('<gazebo reference="j2"><provideFeedback>true</provideFeedback></gazebo>', ("j2",)),
        ('<gazebo reference="j1"><provide_feedback>1</provide_feedback></gazebo>', ("j1",)),
        (  # the last extension naming the joint wins; a link reference is not a joint
            '<gazebo reference="j1"><provideFeedback>true</provideFeedback></gazebo>'
            '<gazebo reference="j1"><provideFeedback>false</provideFeedback></gazebo>'
            '<gazebo reference="b"><provideFeedback>true</provideFeedback></gazebo>',
            (),
        ),
    ],
)
def test_urdf_gazebo_provide_feedback(extra: str, expected: tuple[str, ...]) -> None:
    assert feedback_joints(load(URDF.format(extra=extra))) == expected


def test_sdf_provide_feedback_in_joint_order() -> None:
    on = "<physics><provide_feedback>true</provide_feedback></physics>"
    off = "<physics><provide_feedback>false</provide_feedback></physics>"
    robot = load(SDF.format(j1=on, j2=on))
    assert robot.joints["j1"].provide_feedback is True
    assert feedback_joints(robot) == ("j1", "j2")
    assert feedback_joints(load(SDF.format(j1=off, j2="<physics/>"))) == ()
    assert feedback_joints(load(SDF.format(j1="", j2=on))) == ("j2",)


def test_sdf_provide_feedback_not_boolean() -> None:
    bad = "<physics><provide_feedback>yes</provide_feedback></physics>"
    with pytest.raises(InvalidValueError, match="provide_feedback"):
        load(SDF.format(j1=bad, j2=""))


def test_gazebo_provide_feedback_not_boolean_is_skipped_with_a_warning() -> None:
    """A <gazebo> detail never refuses the robot (urdfdom ignores <gazebo>): the property asks
    for nothing and its one warning names the element and the fix."""
    robot = load(
        URDF.format(extra='<gazebo reference="j1"><provideFeedback>yes</provideFeedback></gazebo>')
    )
    assert feedback_joints(robot) == ()
    (skip,) = feedback_skips(robot)
    assert re.search(
        r'<gazebo reference="j1">: <provideFeedback> is \'yes\', not a boolean; skipped', skip
    ), skip


def test_reading_name() -> None:
    assert reading_name("elbow") == "joint_wrench/elbow"


def test_feedback_survives_sdf_export() -> None:
    """SDFormat's <physics><provide_feedback> is written back; a URDF's Gazebo provideFeedback
    goes to <physics><ode><provide_feedback> (as urdf2sdf writes it), read back too."""
    on = "<physics><provide_feedback>true</provide_feedback></physics>"
    sdf = to_sdf(load(SDF.format(j1=on, j2="")))
    assert "<provide_feedback>true</provide_feedback>" in sdf
    assert feedback_joints(load(sdf)) == ("j1",)
    gazebo = '<gazebo reference="j2"><provideFeedback>true</provideFeedback></gazebo>'
    sdf = to_sdf(load(URDF.format(extra=gazebo)))
    assert re.search(r"<ode>\s*<provide_feedback>true</provide_feedback>\s*</ode>", sdf)
    assert feedback_joints(load(sdf)) == ("j2",)


def test_with_feedback_adds_joints() -> None:
    robot = load(URDF.format(extra=""))
    assert with_feedback(robot, ()) is robot
    added = with_feedback(robot, ["j2", "j1"])
    assert feedback_joints(added) == ("j1", "j2")
    assert feedback_joints(robot) == ()  # (the robot itself is unchanged)
    with pytest.raises(
        ConfigError,
        match=r"joint_feedback names unknown joint\(s\) \['nope'\]. Fix: use names from "
        r"\['j1', 'j2'\]",
    ):
        with_feedback(robot, ["j1", "nope"])
