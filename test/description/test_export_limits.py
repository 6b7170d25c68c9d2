"""Every URDF the bridge exports from the shared corpus keeps each movable joint's limits as
ros2_control reads them (issue 25, item 4).

The exports: ``with_topic_block`` (what ``sdf-bridge control`` publishes as
``robot_description`` for the controller_manager: every robot of the corpus and every model of
its worlds, joints URDF lacks written as chains of URDF joints) and ``to_urdf`` (``sdf-bridge
convert --to urdf``: those that URDF can carry as they are).
ros2_control reads joint limits from urdfdom's model (``hardware_interface``'s component parser,
``joint_limits::getJointLimits``): the export must parse with urdfdom's ``check_urdf``, and its
``<limit>`` values, read by ``urdf_parser_py`` (urdfdom's Python port, with its defaults: a
missing ``lower``/``upper`` is 0), must equal the bridge's ``Robot`` within 1e-9, a bound the
Robot lacks being ±1e16 or more (the export's stand-in for "unlimited"), a velocity or effort
it lacks absent or ≥ 1e16; a continuous joint, and a revolute joint without position bounds
(SDFormat's default), must be ``continuous`` (urdfdom reads a revolute joint's missing bounds as
[0, 0], which ros2_control then clamps every command to).
"""

from __future__ import annotations

import importlib
import math
import subprocess
from pathlib import Path

import pytest
from lxml import etree
from prerequisites import SHARED_ROBOTS, missing, require_tool, shared_robot_file, shared_skip_mark

from sdf_bridge.description import load_with_xml
from sdf_bridge.description.export import to_urdf
from sdf_bridge.description.model import Joint, JointType, Robot, World
from sdf_bridge.errors import ConfigError, UnsupportedError
from sdf_bridge.hardware.topic_block import with_topic_block

pytestmark = shared_skip_mark()

TOL = 1e-9
#: At or beyond this magnitude a written limit stands for "unlimited" (URDF has no way to say
#: so; the exporter writes 1e16).
UNLIMITED = 1e16

#: Per corpus entry, the models whose ``convert`` export URDF can carry (the others have joint
#: types URDF lacks or several root links, and are refused with an UnsupportedError; the
#: ``control`` export carries every model, those joints as chains of URDF joints).
EXPORTED = {
    "carlikebot": ["carlikebot_robot"],
    "gen3_robotiq": ["gen3"],
    "husky": ["husky"],
    "panda_gazebo_ros1": ["panda"],
    "pr2": ["pr2"],
    "rrbot_external_fts": ["2dof_robot"],
    "rrbot_ros1": ["rrbot"],
    "rrbot_transmissions": ["2dof_robot"],
    "sdf_joint_complete": [],
    "sdf_mimic_pendulums": [
        "pendulum_with_base",
        "pendulum_with_base_mimic_slow_follows_fast",
        "pendulum_with_base_mimic_fast_follows_slow",
    ],
    "sdf_model_with_frames": [],
    "sdf_nested_include": [],
    "turtlebot3_waffle": [],
    "ur5e_ros2": ["ur"],
}


def _urdf_module():
    """``urdf_parser_py.urdf`` (package urdfdom_py), else :func:`missing`."""
    try:
        return importlib.import_module("urdf_parser_py.urdf")
    except ImportError:
        missing("urdf_parser_py not importable: pip install urdfdom-py (a test_depend)")


def urdfdom_joints(text: str) -> dict:
    """Joint name → urdf_parser_py ``Joint`` of URDF ``text``, as urdfdom's model reads it.
    The top-level ``<transmission>``s are removed first: urdfdom's model does not read them
    (transmission_interface parses them itself), and urdf_parser_py's reader refuses the PR2
    dialect's ``type`` attribute."""
    document = etree.fromstring(text.encode())
    for transmission in document.findall("transmission"):
        document.remove(transmission)
    model = _urdf_module().URDF.from_xml_string(etree.tostring(document))
    return {joint.name: joint for joint in model.joints}


def _bound_kept(ours: float | None, written: float, sign: float) -> bool:
    """A position bound (``sign`` -1 lower, +1 upper) as urdfdom reads it equals the Robot's."""
    if ours is None:
        return sign * written >= UNLIMITED
    return math.isclose(written, ours, rel_tol=0.0, abs_tol=TOL)


def _rate_kept(ours: float | None, written: float | None) -> bool:
    """A velocity or effort limit (``None`` written: no ``<limit>``) equals the Robot's."""
    if ours is None:
        return written is None or written >= UNLIMITED
    return written is not None and math.isclose(written, ours, rel_tol=0.0, abs_tol=TOL)


def limit_problems(robot: Robot, text: str) -> list[str]:
    """Each movable joint of ``robot`` whose type or limits URDF ``text`` (read as urdfdom
    does) does not keep, with what was read and what the Robot has; ``[]`` when all are kept."""
    read = urdfdom_joints(text)
    problems = []
    for joint in robot.joints.values():
        if joint.type not in (JointType.REVOLUTE, JointType.CONTINUOUS, JointType.PRISMATIC):
            continue
        ours = joint.limit
        lower, upper = (ours.lower, ours.upper) if ours else (None, None)
        velocity, effort = (ours.velocity, ours.effort) if ours else (None, None)
        unbounded = joint.type is JointType.REVOLUTE and lower is None and upper is None
        expected = "continuous" if unbounded else joint.type.value
        theirs = read[joint.name]
        limit = theirs.limit
        got = (
            theirs.type,
            *((limit.lower, limit.upper, limit.velocity, limit.effort) if limit else (None,) * 4),
        )
        kept = theirs.type == expected and (
            _rate_kept(velocity, got[3]) and _rate_kept(effort, got[4])
        )
        if expected != "continuous":  # urdfdom requires the <limit> of these types
            kept = kept and limit is not None
            kept = kept and _bound_kept(lower, got[1], -1) and _bound_kept(upper, got[2], 1)
        if not kept:
            problems.append(f"{joint.name}: read {got}, Robot {_ours(joint)}")
    return problems


def _ours(joint: Joint) -> tuple:
    lim = joint.limit
    return (joint.type.value, *((lim.lower, lim.upper, lim.velocity, lim.effort) if lim else ()))


def _models(robots_dir: Path, name: str) -> tuple[list[Robot], str]:
    model, _warnings, xml = load_with_xml(shared_robot_file(robots_dir, name))
    return (list(model.models.values()) if isinstance(model, World) else [model]), xml


@pytest.mark.parametrize("name", SHARED_ROBOTS)
def test_exported_urdfs_keep_every_movable_joints_limits(
    name: str, robots_dir: Path, tmp_path: Path
) -> None:
    check_urdf = require_tool("check_urdf", "liburdfdom-tools")
    _urdf_module()
    robots, xml = _models(robots_dir, name)
    exported = []
    for robot in robots:
        try:  # (joints URDF lacks: as chains)
            texts = {"control": with_topic_block(robot, xml)}
        except ConfigError as exc:  # (a world's ground plane)
            assert "plane shape, which URDF cannot describe" in str(exc), (name, robot.name)
            continue
        try:
            texts["convert"] = to_urdf(robot)
            exported.append(robot.name)
        except UnsupportedError as exc:
            assert "URDF" in str(exc), (name, robot.name, exc)
        for how, text in texts.items():
            path = tmp_path / f"{robot.name}_{how}.urdf"
            path.write_text(text, encoding="utf-8")
            result = subprocess.run([check_urdf, str(path)], capture_output=True, text=True)
            assert result.returncode == 0, (name, robot.name, how, result.stderr)
            assert limit_problems(robot, text) == [], (name, robot.name, how)
    assert exported == EXPORTED[name]


#: A revolute joint without bounds (SDFormat's default), one with a single bound, a continuous
#: one, a prismatic one with velocity and effort unlimited.
SDF_JOINTS = """<?xml version="1.0"?>
<sdf version="1.9"><model name="m">
  <link name="a"/><link name="b"/><link name="c"/><link name="d"/><link name="e"/>
  <joint name="free" type="revolute"><parent>a</parent><child>b</child>
    <axis><xyz>0 0 1</xyz><limit><effort>3</effort><velocity>2</velocity></limit></axis></joint>
  <joint name="half" type="revolute"><parent>b</parent><child>c</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-0.5</lower></limit></axis></joint>
  <joint name="spin" type="continuous"><parent>c</parent><child>d</child>
    <axis><xyz>0 0 1</xyz></axis></joint>
  <joint name="slide" type="prismatic"><parent>d</parent><child>e</child>
    <axis><xyz>1 0 0</xyz><limit><lower>0</lower><upper>0.25</upper></limit></axis></joint>
</model></sdf>
"""


def test_an_sdformat_models_limits_as_urdfdom_reads_them() -> None:
    """The exact values urdfdom reads from the export of :data:`SDF_JOINTS`; and the check
    catches a revolute joint written without bounds (read as [0, 0])."""
    _urdf_module()
    robot, _warnings, xml = load_with_xml(SDF_JOINTS)
    text = with_topic_block(robot, xml)
    read = {
        name: (j.type, j.limit and (j.limit.lower, j.limit.upper, j.limit.velocity, j.limit.effort))
        for name, j in urdfdom_joints(text).items()
    }
    assert read == {
        "free": ("continuous", (0.0, 0.0, 2.0, 3.0)),
        "half": ("revolute", (-0.5, 1e16, 1e16, 1e16)),
        "spin": ("continuous", (0.0, 0.0, 1e16, 1e16)),
        "slide": ("prismatic", (0.0, 0.25, 1e16, 1e16)),
    }
    assert limit_problems(robot, text) == []
    broken = text.replace(
        '<joint name="free" type="continuous">', '<joint name="free" type="revolute">'
    )
    assert broken != text
    assert limit_problems(robot, broken) == [
        "free: read ('revolute', 0, 0, 2.0, 3.0), Robot ('revolute', None, None, 2.0, 3.0)"
    ]
