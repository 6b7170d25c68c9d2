"""``convert`` keeps the second axis of universal and revolute2 joints (issue 29 item 3):
libsdformat (the ``probe`` fixture, SDFormat 12) reads the exported file's ``<axis2>`` — its
direction in the model frame, limits, stop stiffness and dissipation, and dynamics — equal to
its reading of the original, and writes none where the original has none."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sdf_bridge.description import load
from sdf_bridge.description.export import to_sdf

#: Two-axis joints with everything an axis can carry, on rotated joint frames: a universal
#: joint whose axis2 has limits, a stop and dynamics; a revolute2 joint whose axis2 is
#: expressed in the parent model frame (SDFormat 1.9 ``expressed_in``) with only damping.
TWO_AXES = """<sdf version="1.9"><model name="m">
  <link name="a"/><link name="b"><pose>0 0 1 0 0 0</pose></link><link name="c"/>
  <joint name="u" type="universal"><pose>0.1 0 0 0.3 0 0</pose><parent>a</parent><child>b</child>
    <axis><xyz>1 0 0</xyz><limit><lower>-0.5</lower><upper>0.5</upper><effort>20</effort>
      <velocity>3</velocity></limit></axis>
    <axis2><xyz>0 0.6 0.8</xyz>
      <limit><lower>-0.25</lower><upper>0.75</upper><effort>12.5</effort><velocity>2</velocity>
        <stiffness>5000</stiffness><dissipation>3</dissipation></limit>
      <dynamics><damping>0.3</damping><friction>0.05</friction>
        <spring_reference>0.2</spring_reference><spring_stiffness>4</spring_stiffness></dynamics>
    </axis2></joint>
  <joint name="r2" type="revolute2"><pose>0 0 0 0 0 1.2</pose><parent>b</parent><child>c</child>
    <axis><xyz>0 0 1</xyz></axis>
    <axis2><xyz expressed_in="__model__">1 0 0</xyz><dynamics><damping>0.25</damping></dynamics>
    </axis2></joint>
</model></sdf>"""


def _assert_same_reading(probe, original: Path, exported: Path) -> None:
    """libsdformat's readings of both files: no errors, the same joint types and axes (1e-12),
    the same limits and dynamics of ``axis`` and ``axis2`` (exact), per model."""
    before, after = probe(original), probe(exported)
    assert before["errors"] == after["errors"] == []
    assert before["models"].keys() == after["models"].keys()
    for name, ref in before["models"].items():
        out = after["models"][name]
        assert out["limits"] == ref["limits"]  # (types, lower, upper, effort, velocity)
        assert out["dynamics"] == ref["dynamics"]  # (damping … stop dissipation)
        assert out["joints"].keys() == ref["joints"].keys()
        for joint, axes in ref["joints"].items():
            assert out["joints"][joint].keys() == axes.keys(), joint
            for tag, xyz in axes.items():
                np.testing.assert_allclose(out["joints"][joint][tag], xyz, rtol=0, atol=1e-12)


def test_two_axis_joints_keep_axis2(tmp_path: Path, probe) -> None:
    original = tmp_path / "two_axes.sdf"
    original.write_text(TWO_AXES)
    exported = tmp_path / "out.sdf"
    exported.write_text(to_sdf(load(original)))
    _assert_same_reading(probe, original, exported)
    ref = probe(original)["models"]["m"]
    # what the comparison covers, as libsdformat reads the original
    assert ref["limits"]["u"]["axis2"] == [-0.25, 0.75, 12.5, 2.0]
    assert ref["dynamics"]["u"]["axis2"] == [0.3, 0.05, 0.2, 4.0, 5000.0, 3.0]
    assert ref["dynamics"]["r2"]["axis2"][0] == 0.25
    np.testing.assert_allclose(ref["joints"]["r2"]["axis2"], [1.0, 0.0, 0.0], atol=1e-15)
    c, s = np.cos(0.3), np.sin(0.3)  # axis2 (0, 0.6, 0.8) turned by the joint's roll 0.3
    np.testing.assert_allclose(
        ref["joints"]["u"]["axis2"], [0.0, 0.6 * c - 0.8 * s, 0.6 * s + 0.8 * c], atol=1e-15
    )


def test_the_complete_joint_type_model_keeps_axis2(robots_dir: Path, tmp_path: Path, probe):
    """The shared corpus's model with every SDFormat joint type: its revolute joint's written
    axis2 survives; its universal and revolute2 joints have none and get none."""
    original = robots_dir / "sdf_joint_complete" / "sdf_joint_complete.sdf"
    exported = tmp_path / "out.sdf"
    exported.write_text(to_sdf(load(original)))
    _assert_same_reading(probe, original, exported)
    joints = probe(exported)["models"]["test"]["joints"]
    assert "axis2" in joints["revolute_joint"]
    assert "axis2" not in joints["universal_joint"] and "axis2" not in joints["revolute2_joint"]
