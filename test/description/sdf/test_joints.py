"""Tests of sdf_bridge.description.sdf.joints: every joint type, spec defaults of <limit> and
<dynamics>, mimic, screw/gearbox parameters, legacy axis frames, and the error paths."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from sdf_helpers import load_text, sdf

from sdf_bridge.description import load
from sdf_bridge.description.coordinates import coordinate_joint
from sdf_bridge.description.model import Dynamics, JointType, Limit
from sdf_bridge.errors import InvalidValueError, UnsupportedError

DATA = Path(__file__).resolve().parent / "data"


def _joint(body: str, jtype: str = "revolute", version: str = "1.9"):
    robot = load_text(
        sdf(
            f"""<model name="m"><link name="a"/><link name="b"/>
      <joint name="j" type="{jtype}"><parent>a</parent><child>b</child>{body}</joint></model>""",
            version,
        )
    )
    return robot.joints["j"]


def test_joint_complete_every_type(robots_dir: Path) -> None:
    robot = load(robots_dir / "sdf_joint_complete" / "sdf_joint_complete.sdf")
    types = {name: j.type for name, j in robot.joints.items()}
    assert types == {
        "revolute_joint": JointType.REVOLUTE,
        "ball_joint": JointType.BALL,
        "continuous_joint": JointType.CONTINUOUS,
        "fixed_joint": JointType.FIXED,
        "gearbox_joint": JointType.GEARBOX,
        "prismatic_joint": JointType.PRISMATIC,
        "revolute2_joint": JointType.REVOLUTE2,
        "screw_joint": JointType.SCREW,
        "universal_joint": JointType.UNIVERSAL,
    }
    rev = robot.joints["revolute_joint"]
    assert rev.limit == Limit(
        lower=-0.5, upper=0.5, effort=123.4, velocity=12.0, stiffness=1e8, dissipation=1.0
    )
    assert rev.dynamics == Dynamics(
        damping=0.1, friction=0.2, spring_reference=1.3, spring_stiffness=10.6
    )
    assert rev.initial_position == 0.5
    assert rev.limit2 == Limit(
        lower=-1.0, upper=1.0, effort=0.5, velocity=200.0, stiffness=1e8, dissipation=1.0
    )
    screw = robot.joints["screw_joint"]
    assert (screw.thread_pitch, screw.thread_pitch_unit) == (20.0, "rad/m")
    gear = robot.joints["gearbox_joint"]
    assert (gear.gearbox_ratio, gear.gearbox_reference_body) == (1.0, None)
    assert robot.joints["ball_joint"].axis is None and robot.joints["fixed_joint"].axis is None
    # no <axis2> written: none in the model (as libsdformat reads it); its coordinate takes the
    # spec default <xyz>0 0 1</xyz>, unlimited
    assert robot.joints["universal_joint"].axis2 is None
    axis2 = coordinate_joint(robot, "universal_joint/axis2")
    assert (axis2.axis.xyz, axis2.limit, axis2.dynamics) == ((0.0, 0.0, 1.0), None, None)
    assert (rev.parent, rev.child) == ("link2", "link1")


def test_limit_defaults_follow_the_spec() -> None:
    """The spec's default bounds ±1e16 mean "not limited" (None), as do 1e16 written out."""
    for axis in (
        "<axis><xyz>0 0 1</xyz><limit/></axis>",
        "<axis><xyz>0 0 1</xyz></axis>",
        "<axis><xyz>0 0 1</xyz><limit><lower>-1e16</lower><upper>1e16</upper></limit></axis>",
    ):
        j = _joint(axis)
        assert j.limit == Limit(
            lower=None, upper=None, effort=None, velocity=None, stiffness=1e8, dissipation=1.0
        )
    j = _joint("<axis><xyz>0 0 1</xyz><limit><lower>-9.9e15</lower><upper>2</upper></limit></axis>")
    assert (j.limit.lower, j.limit.upper) == (-9.9e15, 2.0)


def test_negative_effort_and_velocity_mean_unlimited() -> None:
    j = _joint(
        "<axis><xyz>0 0 1</xyz><limit><effort>-1</effort><velocity>-1</velocity>"
        "<stiffness>5</stiffness><dissipation>0.5</dissipation></limit></axis>"
    )
    assert (j.limit.effort, j.limit.velocity, j.limit.stiffness, j.limit.dissipation) == (
        None,
        None,
        5.0,
        0.5,
    )


def test_infinite_bounds_mean_unlimited() -> None:
    j = _joint(
        "<axis><xyz>0 0 1</xyz><limit><lower>-inf</lower><upper>inf</upper><effort>inf</effort>"
        "</limit></axis>"
    )
    assert (j.limit.lower, j.limit.upper, j.limit.effort) == (None, None, None)


def test_continuous_has_no_position_limits() -> None:
    j = _joint(
        "<axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper><effort>3</effort></limit>"
        "</axis>",
        "continuous",
    )
    assert (j.limit.lower, j.limit.upper, j.limit.effort) == (None, None, 3.0)


def test_missing_axis_uses_spec_default() -> None:
    assert _joint("", "prismatic").axis.xyz == (0.0, 0.0, 1.0)


def test_screw_thread_pitch_forms() -> None:
    j = _joint(
        "<screw_thread_pitch>0.002</screw_thread_pitch><axis><xyz>0 0 1</xyz></axis>",
        "screw",
        "1.10",
    )
    assert (j.thread_pitch, j.thread_pitch_unit) == (0.002, "m/rev")
    j = _joint("<thread_pitch>-50</thread_pitch><axis><xyz>0 0 1</xyz></axis>", "screw")
    assert (j.thread_pitch, j.thread_pitch_unit) == (-50.0, "rad/m")


def test_gearbox_parameters() -> None:
    robot = load(DATA / "all_joint_types.sdf")
    gear = robot.joints["j_gear"]
    assert (gear.gearbox_ratio, gear.gearbox_reference_body) == (-3.5, "base")


def test_mimic_reference_folds_into_offset() -> None:
    robot = load_text(
        sdf(
            """<model name="m"><link name="a"/><link name="b"/><link name="c"/>
      <joint name="lead" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz>
        </axis></joint>
      <joint name="follow" type="revolute"><parent>b</parent><child>c</child><axis><xyz>0 0 1</xyz>
        <mimic joint="lead" axis="axis"><multiplier>2</multiplier><offset>0.5</offset>
          <reference>0.1</reference></mimic>
      </axis></joint></model>""",
            "1.11",
        )
    )
    mimic = robot.joints["follow"].mimic
    assert (mimic.joint, mimic.multiplier, mimic.axis) == ("lead", 2.0, "axis")
    assert mimic.offset == pytest.approx(0.5 - 2.0 * 0.1, abs=1e-15)


def test_mimic_in_nested_model_is_scoped() -> None:
    robot = load_text(
        sdf(
            """<model name="m"><model name="n"><link name="a"/><link name="b"/><link name="c"/>
      <joint name="lead" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz>
        </axis></joint>
      <joint name="follow" type="revolute"><parent>b</parent><child>c</child><axis><xyz>0 0 1</xyz>
        <mimic joint="lead"/></axis></joint></model></model>""",
            "1.11",
        )
    )
    assert robot.joints["n::follow"].mimic.joint == "n::lead"


def test_axis_expressed_in_other_frame() -> None:
    robot = load_text(
        sdf("""<model name="m"><frame name="F"><pose>0 0 0 0 0 1.5707963267948966</pose></frame>
      <link name="a"/><link name="b"/>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz
        expressed_in="F">1 0 0</xyz></axis></joint>
      </model>""")
    )
    np.testing.assert_allclose(robot.joints["j"].axis.xyz, (0.0, 1.0, 0.0), atol=1e-15)


def test_sdf_1_4_axes_are_in_the_model_frame() -> None:
    robot = load(DATA / "legacy_1_4.sdf")
    hinge = robot.joints["hinge"]
    # joint frame = arm frame (yaw 0.9) · roll 0.4; model x expressed there
    r = robot.links["arm"].pose.rotation @ hinge.joint_to_child.inverse().rotation
    np.testing.assert_allclose(r @ hinge.axis.xyz, (1.0, 0.0, 0.0), atol=1e-12)


def test_use_parent_model_frame_uses_the_enclosing_model() -> None:
    robot = load(DATA / "legacy_1_5.sdf")
    j = robot.joints["sub::in_model_frame"]
    x_mj = robot.links["sub::a"].pose.matrix() @ j.origin.matrix()
    # sub is yawed 90°
    np.testing.assert_allclose(x_mj[:3, :3] @ j.axis.xyz, (0.0, 1.0, 0.0), atol=1e-12)


@pytest.mark.parametrize("xyz", ["0 0 0", "0.0 -0 0"])
def test_zero_axis_is_refused(xyz: str) -> None:
    with pytest.raises(
        InvalidValueError,
        match=r"<xyz>: joint 'j': axis xyz is \(0, 0, 0\).*Fix: give a non-zero axis",
    ):
        _joint(f"<axis><xyz>{xyz}</xyz></axis>")


def test_zero_axis2_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"axis xyz is \(0, 0, 0\)"):
        _joint("<axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 0 0</xyz></axis2>", "universal")


def test_bad_axis_text_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"axis <xyz> is '1 0': expected 3 numbers"):
        _joint("<axis><xyz>1 0</xyz></axis>")


@pytest.mark.parametrize("jtype", ["floating", "planar", "hinge", None])
def test_unknown_joint_type_is_refused(jtype: str | None) -> None:
    attr = f' type="{jtype}"' if jtype else ""
    with pytest.raises(
        UnsupportedError, match=r"joint type is .*Fix: use one of ball, continuous, fixed, gearbox"
    ):
        load_text(
            sdf(
                f'<model name="m"><link name="a"/><link name="b"/><joint name="j"{attr}>'
                "<parent>a</parent><child>b</child></joint></model>"
            )
        )


def test_lower_above_upper_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"lower limit 1.0 is above upper limit -1.0"):
        _joint("<axis><xyz>0 0 1</xyz><limit><lower>1</lower><upper>-1</upper></limit></axis>")


def test_nan_limit_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"<effort> is NaN"):
        _joint("<axis><xyz>0 0 1</xyz><limit><effort>nan</effort></limit></axis>")


def test_non_numeric_limit_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"<upper> is 'high', not a number"):
        _joint("<axis><xyz>0 0 1</xyz><limit><upper>high</upper></limit></axis>")


def test_mimic_errors() -> None:
    with pytest.raises(InvalidValueError, match=r"<mimic> has no joint attribute"):
        _joint("<axis><xyz>0 0 1</xyz><mimic/></axis>", version="1.11")
    with pytest.raises(InvalidValueError, match=r"mimic axis is 'axis3'"):
        _joint('<axis><xyz>0 0 1</xyz><mimic joint="x" axis="axis3"/></axis>', version="1.11")


def test_revolute_rotation_uses_normalised_axis() -> None:
    j = _joint("<axis><xyz>0 0 5</xyz></axis>")
    assert j.axis.xyz == (0.0, 0.0, 1.0)
    assert math.isclose(np.linalg.norm(j.axis.xyz), 1.0)
