"""Link poses and joint axes in the model frame equal libsdformat 12's (tolerance 1e-9), for
every SDF and URDF file of the shared corpus and the hand-made files in ``data/``.

Ours are computed with ``kinematics.link_transforms`` at the zero configuration (via
``sdf_helpers.our_view``); libsdformat's by ``libsdformat_probe.cpp`` (``SemanticPose().Resolve``,
``JointAxis::ResolveXyz``). libsdformat's URDF reader lumps fixed joints and adds the raw SDF of
``<gazebo>`` blocks, so for URDF files its links/joints are compared where both have them and
the links it lumps away are checked to exist on our side.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from sdf_helpers import our_view

from sdf_bridge.description import load, load_with_warnings
from sdf_bridge.description.model import JointType, Robot

TOL = 1e-9
DATA = Path(__file__).resolve().parent / "data"
SHARED_SDF = [
    "turtlebot3_waffle",
    "sdf_joint_complete",
    "sdf_nested_include",
    "sdf_model_with_frames",
    "sdf_mimic_pendulums",
]
SHARED_URDF = [
    "rrbot_ros1",
    "rrbot_transmissions",
    "rrbot_external_fts",
    "carlikebot",
    "pr2",
    "ur5e_ros2",
    "panda_gazebo_ros1",
    "gen3_robotiq",
    "husky",
]
HAND_MADE = [
    "all_joint_types.sdf",
    "frames_nested.sdf",
    "legacy_1_5.sdf",
    "legacy_1_4.sdf",
    "placement/top.sdf",
    "merge/world.sdf",
]


def _robots(path: Path) -> dict[str, Robot]:
    model = load(path)
    return dict(model.models) if hasattr(model, "models") else {model.name: model}


def _gazebo_sdf_names(robot: Robot) -> set[str]:
    """Links/joints that exist only as raw SDF inside ``<gazebo>`` blocks (libsdformat adds
    them)."""
    names: set[str] = set()
    for ext in robot.gazebo:
        names.update(re.findall(r'<(?:link|joint) name="([^"]+)"', ext.raw_xml))
    return names


def _compare(path: Path, probe, *, subset: bool) -> int:
    """Assert agreement; returns the number of compared items."""
    ref = probe(path)
    robots = _robots(path)
    compared = 0
    for name, model in ref["models"].items():
        robot = robots[name]
        poses, axes = our_view(robot)
        extra = _gazebo_sdf_names(robot)
        for link, expected in model["links"].items():
            if subset and link in extra:
                continue
            assert link in poses, f"{path.name}: libsdformat link {link!r} missing"
            np.testing.assert_allclose(
                poses[link], expected, atol=TOL, rtol=0, err_msg=f"{path.name}: link {link}"
            )
            compared += 1
        for joint, ref_axes in model["joints"].items():
            if subset and joint in extra:
                continue
            assert joint in robot.joints, f"{path.name}: libsdformat joint {joint!r} missing"
            if robot.joints[joint].type is JointType.FIXED:
                # fixed joints carry no axis (case 011), libsdformat keeps <axis>
                assert axes[joint] == {}
                continue
            for key, expected in ref_axes.items():
                np.testing.assert_allclose(
                    axes[joint][key],
                    expected,
                    atol=TOL,
                    rtol=0,
                    err_msg=f"{path.name}: {joint} {key}",
                )
                compared += 1
        if not subset:
            assert set(poses) - {"world"} == set(model["links"]), f"{path.name}: link sets differ"
            assert set(robot.joints) == set(model["joints"])
    return compared


@pytest.mark.parametrize("name", SHARED_SDF)
def test_shared_sdf_matches_libsdformat(name: str, robots_dir: Path, probe) -> None:
    assert _compare(robots_dir / name / f"{name}.sdf", probe, subset=False) > 0


@pytest.mark.parametrize("name", SHARED_URDF)
def test_shared_urdf_matches_libsdformat(name: str, robots_dir: Path, probe) -> None:
    assert _compare(robots_dir / name / f"{name}.urdf", probe, subset=True) >= 3


@pytest.mark.parametrize("name", HAND_MADE)
def test_hand_made_files_match_libsdformat(name: str, probe) -> None:
    ref = probe(DATA / name)
    assert ref["errors"] == []
    assert _compare(DATA / name, probe, subset=False) > 0


def test_case_010_matches_libsdformat(cases_dir: Path, probe) -> None:
    assert (
        _compare(cases_dir / "010-nested-model-axis-frame" / "model.sdf", probe, subset=False) == 4
    )


def test_link_pose_field_equals_kinematics(robots_dir: Path) -> None:
    """``Link.pose`` written by the loader equals the kinematic chain's result."""
    for name in SHARED_SDF:
        for robot in _robots(robots_dir / name / f"{name}.sdf").values():
            poses, _ = our_view(robot)
            for link in robot.links.values():
                np.testing.assert_allclose(link.pose.matrix(), poses[link.name], atol=1e-12)


def test_what_xml_forbids_and_tinyxml2_reads_is_read_as_libsdformat_does(
    tmp_path: Path, probe
) -> None:
    """``--`` inside comments and a ``--->`` ending (gz-sim's example worlds), the XML
    declaration after blank space (gz-sim's test world fixed_world_joint.sdf): libsdformat
    (tinyxml2) loads the file without errors, and so do we, with the same links and axes."""
    path = tmp_path / "m.sdf"
    path.write_text(
        ' <?xml version="1.0"?>\n<!-- run: gz sim -v 4 m.sdf -- or not --->\n<sdf version="1.7">\n'
        '<model name="m"><link name="a"/>\n<!-- ---- -->\n<link name="b"><pose>1 0 0 0 0 0</pose>'
        '</link>\n<joint name="j" type="revolute"><parent>a</parent><child>b</child>'
        "<axis><xyz>0 1 0</xyz></axis></joint></model>\n</sdf>\n"
    )
    assert probe(path)["errors"] == []
    assert _compare(path, probe, subset=False) == 3
    warnings = load_with_warnings(path)[1]
    assert len(warnings) == 2
    assert warnings[0].startswith(f"{path}: the XML declaration (<?xml ...?>) at line 1 comes")
    assert warnings[1].startswith(f"{path}: comments at lines 2 and 5 contain '--'")
