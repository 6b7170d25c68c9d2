"""Tests of sdf_bridge.description.sdf.frames: <pose> forms, relative_to, <frame attached_to>,
cycles and unknown frames (tolerance 1e-12)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from lxml import etree
from sdf_helpers import load_text, sdf

from sdf_bridge.description.model.pose import rpy_to_matrix
from sdf_bridge.description.sdf.frames import parse_pose
from sdf_bridge.description.xmlio import ParseContext
from sdf_bridge.errors import InvalidValueError, KinematicTreeError, MissingReferenceError

TOL = 1e-12


def _pose(xml: str) -> np.ndarray:
    return parse_pose(etree.fromstring(xml), ParseContext())


def test_euler_pose() -> None:
    t = _pose("<pose>1 2 3 0.1 0.2 0.3</pose>")
    np.testing.assert_allclose(t[:3, 3], (1, 2, 3), atol=TOL)
    np.testing.assert_allclose(t[:3, :3], rpy_to_matrix((0.1, 0.2, 0.3)), atol=TOL)


def test_degrees_pose() -> None:
    t = _pose('<pose degrees="true">0 0 0 0 0 90</pose>')
    np.testing.assert_allclose(t[:3, :3], [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=TOL)


def test_quaternion_pose_is_normalised() -> None:
    s = math.sin(math.pi / 4)
    t = _pose(f'<pose rotation_format="quat_xyzw">1 0 0 0 0 {2 * s} {2 * s}</pose>')
    np.testing.assert_allclose(t[:3, :3], [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=TOL)
    np.testing.assert_allclose(t[:3, 3], (1, 0, 0), atol=TOL)


def test_empty_and_absent_pose_are_identity() -> None:
    np.testing.assert_array_equal(_pose('<pose relative_to="x"/>'), np.eye(4))
    np.testing.assert_array_equal(parse_pose(None, ParseContext()), np.eye(4))


def test_wrong_count_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"<pose> is '1 2 3': expected 6 numbers, got 3"):
        _pose("<pose>1 2 3</pose>")


def test_non_number_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"<pose> is 'a', not a number"):
        _pose("<pose>a 0 0 0 0 0</pose>")


def test_unknown_rotation_format_is_refused() -> None:
    with pytest.raises(
        InvalidValueError, match=r"rotation_format is 'matrix'.*Fix: use rotation_format="
    ):
        _pose('<pose rotation_format="matrix">0 0 0 0 0 0</pose>')


def test_zero_quaternion_is_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"quaternion is \(0, 0, 0, 0\)"):
        _pose('<pose rotation_format="quat_xyzw">0 0 0 0 0 0 0</pose>')


def test_frame_chain_and_relative_to() -> None:
    robot = load_text(
        sdf("""<model name="m">
      <frame name="F1"><pose>1 0 0 0 0 1.5707963267948966</pose></frame>
      <frame name="F2" attached_to="F1"><pose>1 0 0 0 0 0</pose></frame>
      <link name="a"><pose relative_to="F2">0 0 1 0 0 0</pose></link>
      <link name="b"><pose relative_to="a">1 0 0 0 0 0</pose></link></model>""")
    )
    # F2 = F1·(1,0,0) with F1 yawed 90° → (1, 1, 0); a = F2 + z; b = a + x in a's frame (yawed) → +y
    np.testing.assert_allclose(robot.links["a"].pose.xyz, (1.0, 1.0, 1.0), atol=TOL)
    np.testing.assert_allclose(robot.links["b"].pose.xyz, (1.0, 2.0, 1.0), atol=TOL)
    np.testing.assert_allclose(robot.links["b"].pose.rpy, (0.0, 0.0, math.pi / 2), atol=TOL)


def test_joint_frame_as_relative_to_target() -> None:
    robot = load_text(
        sdf("""<model name="m"><link name="a"/>
      <link name="b"><pose>0 0 2 0 0 0</pose></link>
      <joint name="j" type="fixed"><pose>0 0 -1 0 0 0</pose><parent>a</parent><child>b</child>
        </joint>
      <frame name="at_joint"><pose relative_to="j">0.5 0 0 0 0 0</pose></frame>
      <link name="c"><pose relative_to="at_joint"/></link></model>""")
    )
    np.testing.assert_allclose(robot.links["c"].pose.xyz, (0.5, 0.0, 1.0), atol=TOL)


def test_nested_scoped_reference() -> None:
    robot = load_text(
        sdf("""<model name="m"><model name="sub"><pose>0 0 1 0 0 0</pose>
        <frame name="f"><pose>1 0 0 0 0 0</pose></frame><link name="l"/></model>
      <link name="x"><pose relative_to="sub::f">0 1 0 0 0 0</pose></link></model>""")
    )
    np.testing.assert_allclose(robot.links["x"].pose.xyz, (1.0, 1.0, 1.0), atol=TOL)


def test_unknown_relative_to_is_refused() -> None:
    with pytest.raises(
        MissingReferenceError,
        match=r"<string>:\d+: <pose>: relative_to 'nowhere' is not a frame of model",
    ):
        load_text(
            sdf('<model name="m"><link name="a"><pose relative_to="nowhere"/></link></model>')
        )


def test_unknown_attached_to_is_refused() -> None:
    with pytest.raises(MissingReferenceError, match=r"attached_to 'ghost' is not a frame"):
        load_text(
            sdf('<model name="m"><link name="a"/><frame name="f" attached_to="ghost"/></model>')
        )


def test_unknown_expressed_in_is_refused() -> None:
    with pytest.raises(MissingReferenceError, match=r"expressed_in 'G' is not a frame"):
        load_text(
            sdf("""<model name="m"><link name="a"/><link name="b"/>
          <joint name="j" type="revolute"><parent>a</parent><child>b</child>
          <axis><xyz expressed_in="G">0 0 1</xyz></axis></joint></model>""")
        )


def test_pose_cycle_is_refused() -> None:
    with pytest.raises(
        KinematicTreeError,
        match=r"relative_to frames form a cycle: (F1 -> F2 -> F1|F2 -> F1 -> F2)",
    ):
        load_text(
            sdf("""<model name="m"><link name="a"/>
          <frame name="F1"><pose relative_to="F2"/></frame>
          <frame name="F2"><pose relative_to="F1"/></frame></model>""")
        )


def test_self_relative_pose_is_refused() -> None:
    with pytest.raises(KinematicTreeError, match=r"frame 'a' is relative to itself"):
        load_text(sdf('<model name="m"><link name="a"><pose relative_to="a"/></link></model>'))


def test_attached_to_cycle_is_refused() -> None:
    with pytest.raises(KinematicTreeError, match=r"attached_to frames form a cycle"):
        load_text(
            sdf("""<model name="m"><link name="a"/><link name="b"/>
          <frame name="F1" attached_to="F2"><pose relative_to="a"/></frame>
          <frame name="F2" attached_to="F1"><pose relative_to="a"/></frame>
          <joint name="j" type="fixed"><parent>F1</parent><child>b</child></joint></model>""")
        )


def test_joint_parent_may_be_a_frame_attached_to_a_link() -> None:
    robot = load_text(
        sdf("""<model name="m"><link name="a"/><link name="b"/>
      <frame name="F" attached_to="a"/>
      <joint name="j" type="fixed"><parent>F</parent><child>b</child></joint></model>""")
    )
    assert robot.joints["j"].parent == "a"


def test_legacy_frame_attribute_is_ignored_with_a_warning() -> None:
    ctx = ParseContext()
    t = parse_pose(etree.fromstring('<pose frame="other">1 0 0 0 0 0</pose>'), ctx)
    np.testing.assert_allclose(t[:3, 3], (1.0, 0.0, 0.0), atol=TOL)
    assert len(ctx.warnings) == 1 and "frame='other' is ignored" in ctx.warnings[0]
