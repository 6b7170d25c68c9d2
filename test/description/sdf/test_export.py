"""Tests of sdf_bridge.description.export (to_sdf, to_urdf, lumping, ``sdf-bridge convert``):
case 009, URDF → SDF → Robot round trips of every shared robot, libsdformat and check_urdf
acceptance of what is written, and the error paths (tolerance 1e-9 unless stated)."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import math
import subprocess
from pathlib import Path

import numpy as np
import pytest
from lxml import etree
from prerequisites import require_tool
from sdf_helpers import load_text, our_view, sdf

from sdf_bridge.description import load
from sdf_bridge.description.export import (
    convert_command,
    lump_fixed_joints,
    merge_inertials,
    to_sdf,
    to_urdf,
)
from sdf_bridge.description.export.common import model_poses
from sdf_bridge.description.inertia import (
    DEFAULT_INERTIA,
    DEFAULT_MASS,
    MIN_MASS,
    balanced_inertia,
    inertia_problem,
)
from sdf_bridge.description.kinematics import link_transforms
from sdf_bridge.description.model import (
    Calibration,
    Capsule,
    GazeboExtension,
    Inertia,
    Inertial,
    Joint,
    JointType,
    Link,
    Pose,
    Robot,
    Sensor,
    Transmission,
    TransmissionActuator,
    TransmissionJoint,
    Visual,
)
from sdf_bridge.errors import (
    TransmissionError,
    UnsupportedError,
)
from sdf_bridge.transmissions import TransmissionMap

TOL = 1e-9
URDFS = [
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
SDFS = ["turtlebot3_waffle", "sdf_joint_complete", "sdf_nested_include", "sdf_model_with_frames"]


def _write(tmp_path: Path, text: str, name: str = "out.sdf") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _no_source(t: Transmission) -> Transmission:
    """``t`` without its ``source`` fields (where it was read), which differ between files."""
    return dataclasses.replace(
        t,
        source=None,
        joints=tuple(dataclasses.replace(j, source=None) for j in t.joints),
        actuators=tuple(dataclasses.replace(a, source=None) for a in t.actuators),
    )


def _assert_same_transmissions(a: Robot, b: Robot) -> None:
    """Every transmission (classic, PR2 and ros2_control; names, type, dialect, joints, actuators,
    roles, reductions, offsets, params, raw XML) kept, in order, also inside each ros2_control
    block."""
    assert [_no_source(t) for t in b.transmissions] == [_no_source(t) for t in a.transmissions]
    assert [[_no_source(t) for t in hw.transmissions] for hw in b.ros2_control] == [
        [_no_source(t) for t in hw.transmissions] for hw in a.ros2_control
    ]


def _limits(joint: Joint) -> tuple:
    lim = joint.limit
    if lim is None:
        return (None, None, None, None)
    return (lim.lower, lim.upper, lim.effort, lim.velocity)


def _assert_same_model(a: Robot, b: Robot) -> None:
    assert list(a.joints) == list(b.joints)
    assert set(a.links) == set(b.links)
    for name, ja in a.joints.items():
        jb = b.joints[name]
        assert (jb.type, jb.parent, jb.child) == (ja.type, ja.parent, ja.child), name
        if ja.type is JointType.FIXED:
            assert jb.axis is None
        elif ja.axis is not None:
            np.testing.assert_allclose(jb.axis.xyz, ja.axis.xyz, atol=TOL, err_msg=name)
        la, lb = _limits(ja), _limits(jb)
        for va, vb, what in zip(la, lb, ("lower", "upper", "effort", "velocity")):
            if va is None:
                # not given = not limited; SDF's spec default for missing bounds is ±1e16
                assert vb is None or (what in ("lower", "upper") and abs(vb) == 1e16), (
                    name,
                    what,
                    vb,
                )
            else:
                assert vb == pytest.approx(va, abs=1e-12), (name, what)
        assert jb.mimic == ja.mimic, name
    for name, la in a.links.items():
        lb = b.links[name]
        expected = la.inertial
        written_sdf = b.format == "sdf"
        if (
            a.format == "urdf"
            and written_sdf
            and name != "world"
            and (expected is None or expected.mass < MIN_MASS)
        ):
            # a massless URDF link is written with the mass the simulator gives it, not
            # SDFormat's 1 kg
            expected = Inertial(
                DEFAULT_MASS, Inertia(ixx=DEFAULT_INERTIA, iyy=DEFAULT_INERTIA, izz=DEFAULT_INERTIA)
            )
        if expected is None:
            assert lb.inertial is None
            continue
        inertia = expected.inertia  # written balanced as SDFormat when no rigid body has it
        if written_sdf and inertia_problem(inertia) is not None:
            inertia = balanced_inertia(inertia)
        assert lb.inertial.mass == pytest.approx(expected.mass, abs=1e-12)
        for key in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"):
            assert getattr(lb.inertial.inertia, key) == pytest.approx(
                getattr(inertia, key), abs=1e-12
            )
        np.testing.assert_allclose(lb.inertial.origin.matrix(), expected.origin.matrix(), atol=TOL)
    pa, xa = our_view(a)
    pb, xb = our_view(b)
    for name in a.links:
        np.testing.assert_allclose(pb[name], pa[name], atol=TOL, err_msg=name)
    for name in a.joints:
        for key, value in xa[name].items():
            np.testing.assert_allclose(xb[name][key], value, atol=TOL)


# -- case 009 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lump", [False, True])
def test_case_009_fixed_joint_stays_fixed(
    cases_dir: Path, tmp_path: Path, lump: bool, probe
) -> None:
    robot = load(cases_dir / "009-fixed-joint-stays-fixed" / "robot.urdf")
    text = to_sdf(robot, lump_fixed=lump)
    root = etree.fromstring(text.encode())
    assert [e.get("name") for e in root.iter("link")] == ["base", "arm", "tool"]
    (mount,) = [e for e in root.iter("joint") if e.get("name") == "tool_mount"]
    assert (mount.get("type"), mount.findtext("parent"), mount.findtext("child")) == (
        "fixed",
        "arm",
        "tool",
    )
    back = load(_write(tmp_path, text))
    assert back.movable_joints == ("arm_joint",)
    j = back.joints["tool_mount"]
    np.testing.assert_allclose(
        j.origin.matrix() @ j.joint_to_child.matrix(), Pose((0.3, 0.0, 0.0)).matrix(), atol=TOL
    )
    t = link_transforms(back, {"arm_joint": 0.5})["tool"]
    np.testing.assert_allclose(
        t[:3, 3], (0.3 * math.cos(0.5), 0.3 * math.sin(0.5), 0.0), atol=1e-12
    )
    np.testing.assert_allclose(t[:3, 3], (0.263275, 0.143828, 0.0), atol=1e-6)
    assert probe(_write(tmp_path, text))["errors"] == []


# -- URDF → SDF → Robot ----------------------------------------------------------------------


@pytest.mark.parametrize("name", URDFS)
def test_urdf_to_sdf_round_trip(name: str, robots_dir: Path, tmp_path: Path, probe) -> None:
    robot = load(robots_dir / name / f"{name}.urdf")
    path = _write(tmp_path, to_sdf(robot))
    back = load(path)
    _assert_same_model(robot, back)
    _assert_same_transmissions(robot, back)
    assert len(back.sensors) == len(robot.sensors)
    ref = probe(path)
    assert ref["errors"] == []
    # libsdformat reads our file to the same poses and axes
    (model,) = ref["models"].values()
    poses, axes = our_view(back)
    for link, expected in model["links"].items():
        np.testing.assert_allclose(poses[link], expected, atol=TOL)
    for joint, ref_axes in model["joints"].items():
        for key, expected in ref_axes.items():
            np.testing.assert_allclose(axes[joint][key], expected, atol=TOL)


def test_pr2_invalid_source_inertias_are_written_balanced(
    robots_dir: Path, tmp_path: Path, caplog
) -> None:
    """pr2's source gives two links inertias that break the triangle inequality (ixx + iyy < izz),
    which libsdformat calls invalid: the converter writes them balanced (trace / 3), warned."""
    robot = load(robots_dir / "pr2" / "pr2.urdf")
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.description.export"):
        back = load(_write(tmp_path, to_sdf(robot)))
    for link in ("sensor_mount_link", "double_stereo_link"):
        i = robot.links[link].inertial.inertia
        assert i.ixx + i.iyy < i.izz
        b, expected = back.links[link].inertial.inertia, balanced_inertia(i)
        assert (b.ixx, b.iyy, b.izz, b.ixy, b.ixz, b.iyz) == pytest.approx(
            (expected.ixx, expected.iyy, expected.izz, 0.0, 0.0, 0.0), rel=1e-15, abs=0.0
        )
        assert any(
            r.getMessage().startswith(f"link {link!r}: its principal moments")
            and "(written so)" in r.getMessage()
            for r in caplog.records
        )


@pytest.mark.parametrize("name", URDFS)
def test_lumped_sdf_loads_in_libsdformat(
    name: str, robots_dir: Path, tmp_path: Path, probe
) -> None:
    robot = load(robots_dir / name / f"{name}.urdf")
    lumped = lump_fixed_joints(robot)
    assert all(j.type is not JointType.FIXED or j.parent == "world" for j in lumped.joints.values())
    total = sum(link.inertial.mass for link in robot.links.values() if link.inertial is not None)
    assert sum(
        link.inertial.mass for link in lumped.links.values() if link.inertial is not None
    ) == pytest.approx(total, rel=1e-12)
    assert probe(_write(tmp_path, to_sdf(robot, lump_fixed=True)))["errors"] == []


@pytest.mark.parametrize("name", SDFS)
def test_sdf_to_sdf_round_trip(name: str, robots_dir: Path, tmp_path: Path, probe) -> None:
    robot = load(robots_dir / name / f"{name}.sdf")
    path = _write(tmp_path, to_sdf(robot))
    back = load(path)
    _assert_same_model(robot, back)
    _assert_same_transmissions(robot, back)
    assert sorted(s.name for s in back.sensors) == sorted(s.name for s in robot.sensors)
    assert probe(path)["errors"] == []


def test_mimic_kept_in_sdf_and_urdf(robots_dir: Path, tmp_path: Path) -> None:
    robot = load(robots_dir / "carlikebot" / "carlikebot.urdf")
    text = to_sdf(robot)
    assert '<sdf version="1.11">' in text
    back = load(_write(tmp_path, text))
    assert (
        back.joints["rear_right_wheel_joint"].mimic == robot.joints["rear_right_wheel_joint"].mimic
    )
    again = load(_write(tmp_path, to_urdf(back), "again.urdf"))
    assert again.joints["front_left_wheel_joint"].mimic.joint == "virtual_front_wheel_joint"


def test_continuous_joint_has_no_position_limits(robots_dir: Path) -> None:
    text = to_sdf(load(robots_dir / "rrbot_ros1" / "rrbot_ros1.urdf"))
    root = etree.fromstring(text.encode())
    for joint in root.iter("joint"):
        if joint.get("type") == "continuous":
            assert joint.find("axis/limit/lower") is None and joint.find("axis/limit/upper") is None


def test_gazebo_extensions_placed_where_gazebo_reads_them(robots_dir: Path) -> None:
    root = etree.fromstring(to_sdf(load(robots_dir / "rrbot_ros1" / "rrbot_ros1.urdf")).encode())
    model = root.find("model")
    assert model.find("plugin").get("filename") == "libgazebo_ros_control.so"
    link2 = model.find("link[@name='link2']")
    assert link2.findtext("collision/surface/friction/ode/mu") == "0.2"
    assert link2.findtext("collision/surface/friction/ode/mu2") == "0.2"
    assert link2.findtext("visual/material/script/name") == "Gazebo/Black"
    assert model.find("link[@name='hokuyo_link']/sensor").get("name") == "head_hokuyo_sensor"
    assert model.find("link[@name='camera_link']/sensor").get("type") == "camera"


def test_nested_names_become_nested_models(robots_dir: Path) -> None:
    root = etree.fromstring(
        to_sdf(load(robots_dir / "sdf_nested_include" / "sdf_nested_include.sdf")).encode()
    )
    assert "::" not in "".join(
        e.get("name", "") for e in root.iter("link", "joint", "model", "sensor")
    )
    joint = root.find("model/model[@name='top_model']/joint[@name='top_to_camera']")
    assert joint.findtext("child") == "top_camera::top_camera_link"


# -- lumping ------------------------------------------------------------------------------------


def _two_link_robot(**joint_kwargs) -> Robot:
    a = Link(
        "a",
        inertial=Inertial(2.0, Inertia(ixx=0.1, iyy=0.2, izz=0.3)),
        visuals=(Visual(Capsule(0.1, 0.2)),),
    )
    b = Link(
        "b",
        inertial=Inertial(1.0, Inertia(ixx=0.01, iyy=0.02, izz=0.03), origin=Pose((0.0, 0.0, 0.5))),
        visuals=(Visual(Capsule(0.1, 0.2), origin=Pose((0.1, 0.0, 0.0))),),
    )
    j = Joint(
        "fix",
        JointType.FIXED,
        "a",
        "b",
        origin=Pose((0.0, 0.0, 0.0), (0.0, 0.0, math.pi / 2)),
        **joint_kwargs,
    )
    sensor = Sensor("imu", "imu", link="b", pose=Pose((1.0, 0.0, 0.0)))
    return Robot("r", links={"a": a, "b": b}, joints={"fix": j}, sensors=(sensor,))


def test_lumping_merges_inertia_by_parallel_axis() -> None:
    lumped = lump_fixed_joints(_two_link_robot())
    assert list(lumped.links) == ["a"] and not lumped.joints
    inertial = lumped.links["a"].inertial
    assert inertial.mass == 3.0
    # centre of mass: (2·0 + 1·0.5)/3 on z
    np.testing.assert_allclose(inertial.origin.xyz, (0.0, 0.0, 0.5 / 3), atol=1e-15)
    d_a, d_b = 0.5 / 3, 0.5 - 0.5 / 3
    # b is yawed 90°: its ixx/iyy swap in a's frame
    assert inertial.inertia.ixx == pytest.approx(
        0.1 + 0.02 + 2.0 * d_a**2 + 1.0 * d_b**2, abs=1e-15
    )
    assert inertial.inertia.iyy == pytest.approx(
        0.2 + 0.01 + 2.0 * d_a**2 + 1.0 * d_b**2, abs=1e-15
    )
    assert inertial.inertia.izz == pytest.approx(0.33, abs=1e-15)
    assert inertial.inertia.ixy == pytest.approx(0.0, abs=1e-15)


def test_lumping_moves_visuals_and_sensors_with_their_pose() -> None:
    lumped = lump_fixed_joints(_two_link_robot())
    np.testing.assert_allclose(lumped.links["a"].visuals[1].origin.xyz, (0.0, 0.1, 0.0), atol=1e-15)
    (imu,) = lumped.sensors
    # the ROS frame stays the original link (case 014)
    assert (imu.link, imu.frame_id) == (
        "a",
        "b",
    )
    np.testing.assert_allclose(imu.pose.xyz, (0.0, 1.0, 0.0), atol=1e-15)
    np.testing.assert_allclose(imu.pose.rpy, (0.0, 0.0, math.pi / 2), atol=1e-15)


def test_lumping_respects_disable_fixed_joint_lumping() -> None:
    robot = _two_link_robot()
    keep = GazeboExtension(reference="fix", properties=(("preserveFixedJoint", "true"),))
    robot = Robot(
        robot.name, links=robot.links, joints=robot.joints, sensors=robot.sensors, gazebo=(keep,)
    )
    assert list(lump_fixed_joints(robot).joints) == ["fix"]


def test_merge_inertials_without_mass_properties() -> None:
    assert merge_inertials([(None, np.eye(4))]) is None


# -- to_urdf ------------------------------------------------------------------------------------


def test_sdf_with_joint_offsets_to_urdf_keeps_geometry(cases_dir: Path, tmp_path: Path) -> None:
    robot = load(cases_dir / "010-nested-model-axis-frame" / "model.sdf")
    path = _write(tmp_path, to_urdf(robot), "cart.urdf")
    back = load(path)
    assert set(back.joints) == {"arm::shoulder", "arm_base_weld"}
    for q in (0.0, 0.3):
        ta = link_transforms(robot, {"arm::shoulder": q})
        tb = link_transforms(back, {"arm::shoulder": q})
        root = ta["chassis"]
        for name in robot.links:
            # link frames move onto joint frames in URDF; compare the joint-frame-independent point:
            # the origin of the child link expressed through its joint_to_child
            jt = robot.parent_joint(name)
            shift = jt.joint_to_child.matrix() if jt is not None else np.eye(4)
            np.testing.assert_allclose(tb[name] @ shift, np.linalg.inv(root) @ ta[name], atol=TOL)
    result = subprocess.run(
        [require_tool("check_urdf", "liburdfdom-tools"), str(path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", URDFS)
def test_urdf_to_urdf_round_trip(name: str, robots_dir: Path, tmp_path: Path) -> None:
    robot = load(robots_dir / name / f"{name}.urdf")
    path = _write(tmp_path, to_urdf(robot), f"{name}.urdf")
    back = load(path)
    _assert_same_model(robot, back)
    _assert_same_transmissions(robot, back)
    assert len(back.ros2_control) == len(robot.ros2_control)
    result = subprocess.run(
        [require_tool("check_urdf", "liburdfdom-tools"), str(path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_to_urdf_refuses_joint_types_urdf_lacks() -> None:
    robot = load(Path(__file__).resolve().parent / "data" / "all_joint_types.sdf")
    with pytest.raises(
        UnsupportedError,
        match=r"joint 'j_ball' is of type ball, which URDF does not have.*Fix: convert to SDF",
    ):
        to_urdf(robot)


def test_to_urdf_refuses_several_roots() -> None:
    robot = load_text(sdf('<model name="m"><link name="a"/><link name="b"/></model>'))
    with pytest.raises(
        UnsupportedError, match=r"2 root links \(a, b\); URDF needs exactly one tree"
    ):
        to_urdf(robot)


def test_to_urdf_refuses_shapes_urdf_lacks() -> None:
    robot = Robot("r", links={"a": Link("a", visuals=(Visual(Capsule(0.1, 0.2)),))})
    with pytest.raises(
        UnsupportedError, match=r"link 'a' has a capsule shape, which URDF cannot describe"
    ):
        to_urdf(robot)


# -- sdf-bridge convert -------------------------------------------------------------------------


def _args(
    source: Path, output: Path | None, to: str = "sdf", lump: bool = False
) -> argparse.Namespace:
    return argparse.Namespace(
        source=str(source),
        output=None if output is None else str(output),
        to=to,
        lump_fixed=lump,
        xacro_args={},
        package_paths={},
    )


def test_convert_command_writes_file(cases_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "robot.sdf"
    assert (
        convert_command(_args(cases_dir / "009-fixed-joint-stays-fixed" / "robot.urdf", out)) == 0
    )
    assert set(load(out).links) == {"base", "arm", "tool"}
    out_urdf = tmp_path / "robot.urdf"
    assert convert_command(_args(out, out_urdf, to="urdf")) == 0
    assert load(out_urdf).movable_joints == ("arm_joint",)


def test_convert_command_to_stdout(cases_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        convert_command(
            _args(cases_dir / "009-fixed-joint-stays-fixed" / "robot.urdf", None, lump=True)
        )
        == 0
    )
    assert '<joint name="tool_mount" type="fixed">' in capsys.readouterr().out


def test_convert_command_reports_unsupported(
    robots_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = robots_dir / "sdf_joint_complete" / "sdf_joint_complete.sdf"
    assert convert_command(_args(src, tmp_path / "x.urdf", to="urdf")) == 1
    assert "joint 'ball_joint' is of type ball" in capsys.readouterr().err
    assert not (tmp_path / "x.urdf").exists()


def test_convert_of_a_world_with_several_robots_needs_a_model(
    robots_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = robots_dir / "sdf_mimic_pendulums" / "sdf_mimic_pendulums.sdf"
    assert convert_command(_args(src, None)) == 1
    assert capsys.readouterr().err == (
        f"error: {src}: <world name=\"default\">: world 'default' holds 3 robots (non-static "
        "models): pendulum_with_base, pendulum_with_base_mimic_slow_follows_fast, "
        "pendulum_with_base_mimic_fast_follows_slow; one robot is wanted here. Fix: choose it "
        "with --model NAME (sdf-bridge convert and ros2-control write one robot; sdf-bridge run "
        "and control drive every robot of the world, or those named by --model)\n"
    )


def test_convert_writes_the_model_of_a_world_named(robots_dir: Path, tmp_path: Path) -> None:
    src = robots_dir / "sdf_mimic_pendulums" / "sdf_mimic_pendulums.sdf"
    args = _args(src, tmp_path / "one.sdf")
    args.model = "pendulum_with_base_mimic_slow_follows_fast"
    assert convert_command(args) == 0
    robot = load(tmp_path / "one.sdf")
    assert robot.name == "pendulum_with_base_mimic_slow_follows_fast" and robot.scenery == ()
    assert robot.joints["slow_joint"].mimic.joint == "fast_joint"


# -- transmissions through conversions -----------------------------------------------------------


def _transmission_sources(robots_dir: Path, repo_dir: Path) -> dict[str, Path]:
    return {
        "rrbot_ros1": robots_dir / "rrbot_ros1" / "rrbot_ros1.urdf",
        "pr2": robots_dir / "pr2" / "pr2.urdf",
        "demo_arm": repo_dir / "urdf" / "demo_arm.urdf.xacro",
    }


@pytest.mark.parametrize("name", ["rrbot_ros1", "pr2", "demo_arm"])
def test_converted_sdf_maps_joints_to_actuators_like_the_original(
    name: str, robots_dir: Path, repo_dir: Path, tmp_path: Path, probe
) -> None:
    robot = load(_transmission_sources(robots_dir, repo_dir)[name])
    path = _write(tmp_path, to_sdf(robot))
    assert probe(path)["errors"] == []
    before, after = TransmissionMap.from_robot(robot), TransmissionMap.from_robot(load(path))
    assert (after.joint_names, after.actuator_names) == (before.joint_names, before.actuator_names)
    rng = np.random.default_rng(7)
    q, v, e = rng.uniform(-2.0, 2.0, (3, len(before.joint_names)))
    for got, expected in zip(after.joint_to_actuator(q, v, e), before.joint_to_actuator(q, v, e)):
        np.testing.assert_array_equal(got, expected)
    # the reductions really are in play (a dropped transmission would give the identity map)
    if name == "pr2":
        assert not np.allclose(before.joint_to_actuator(q, v, e)[0], q)


def test_converted_transmissions_are_written_verbatim(robots_dir: Path) -> None:
    robot = load(robots_dir / "pr2" / "pr2.urdf")
    text = to_sdf(robot)
    model = etree.fromstring(text.encode()).find("model")
    written = model.findall("transmission")
    assert len(written) == 30
    assert [etree.tostring(e, encoding="unicode", with_tail=False) for e in written] == [
        t.raw_xml for t in robot.transmissions
    ]
    wrist = next(t for t in robot.transmissions if t.short_type == "WristTransmission")
    assert wrist.raw_xml in text
    assert to_urdf(robot).count("<transmission ") == 30


NESTED_TRANSMISSION = """
<model name="robot">
  <link name="base"/>
  <model name="arm">
    <link name="upper"/>
    <link name="fore"><pose>0 0 1 0 0 0</pose></link>
    <joint name="elbow" type="revolute"><parent>upper</parent><child>fore</child>
      <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis></joint>
    <transmission name="elbow_trans">
      <type>transmission_interface/SimpleTransmission</type>
      <joint name="elbow"><offset>0.25</offset>
        <hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
      <actuator name="elbow_motor"><mechanicalReduction>-40</mechanicalReduction></actuator>
    </transmission>
  </model>
  <joint name="mount" type="fixed"><parent>base</parent><child>arm::upper</child></joint>
  <sdf_bridge:transmission xmlns:sdf_bridge="urn:sdf_bridge:description" name="top"
    type="pr2_mechanism_model/SimpleTransmission">
    <actuator name="m2"/><joint name="arm::elbow"/><mechanicalReduction>3</mechanicalReduction>
  </sdf_bridge:transmission>
</model>"""


def test_sdf_model_transmissions_are_read_with_scoped_names(tmp_path: Path, probe) -> None:
    robot = load_text(sdf(NESTED_TRANSMISSION))
    nested, top = robot.transmissions  # document order
    assert (nested.name, nested.type, nested.dialect) == (
        "arm::elbow_trans",
        "transmission_interface/SimpleTransmission",
        "classic",
    )
    (j,) = nested.joints
    assert (j.name, j.offset, j.mechanical_reduction, j.hardware_interfaces) == (
        "arm::elbow",
        0.25,
        None,
        ("EffortJointInterface",),
    )
    (a,) = nested.actuators
    assert (a.name, a.mechanical_reduction) == ("arm::elbow_motor", -40.0)
    assert nested.source.line == 11
    assert (top.name, top.dialect, top.joints[0].name, top.actuators[0].mechanical_reduction) == (
        "top",
        "pr2",
        "arm::elbow",
        3.0,
    )
    path = _write(tmp_path, sdf(NESTED_TRANSMISSION))
    assert probe(path)["errors"] == []
    assert top.raw_xml.startswith('<transmission name="top" type=')
    # written back (into the nested model holding all names, else as the custom element) and
    # read again: the same
    text = to_sdf(robot)
    model = etree.fromstring(text.encode()).find("model")
    (inner,) = model.findall("model[@name='arm']/transmission")
    assert [
        inner.get("name"),
        inner.find("joint").get("name"),
        inner.find("actuator").get("name"),
    ] == ["elbow_trans", "elbow", "elbow_motor"]
    (outer,) = model.findall("{urn:sdf_bridge:description}transmission")
    assert outer.find("joint").get("name") == "arm::elbow"
    out = _write(tmp_path, text, "again.sdf")
    assert probe(out)["errors"] == []
    _assert_same_transmissions(robot, load(out))


def test_sdf_transmission_in_an_included_model_is_scoped(tmp_path: Path) -> None:
    (tmp_path / "arm.sdf").write_text(
        sdf(
            NESTED_TRANSMISSION.split('<model name="arm">')[1]
            .rsplit("</model>", 2)[0]
            .join(('<model name="arm">', "</model>"))
        )
    )
    robot = load_text(
        sdf(
            '<model name="r"><link name="base"/><include><uri>arm.sdf</uri><name>left</name>'
            '</include><joint name="mount" type="fixed"><parent>base</parent>'
            "<child>left::upper</child></joint></model>"
        ),
        base_dir=tmp_path,
    )
    (t,) = robot.transmissions
    assert (t.name, t.joints[0].name, t.actuators[0].name) == (
        "left::elbow_trans",
        "left::elbow",
        "left::elbow_motor",
    )
    assert t.source.file == str(tmp_path / "arm.sdf")


def test_sdf_transmission_faults_are_skipped_naming_file_and_line() -> None:
    """A transmission is not the kinematic tree: a faulty one is skipped (file, line, why); a
    map for a real actuator refuses the robot then (sdf_bridge.description.contain)."""
    bad = NESTED_TRANSMISSION.replace("<mechanicalReduction>-40<", "<mechanicalReduction>0<")
    robot = load_text(sdf(bad))
    assert [str(s) for s in robot.skipped] == [
        "<string>:11: transmission 'elbow_trans' skipped: in transmission 'arm::elbow_trans': "
        "<mechanicalReduction> is 0; a transmission with ratio 0 cannot move its joint (line "
        "15). Fix: give the gear ratio (actuator turns per joint turn), negative to reverse "
        "direction"
    ]
    with pytest.raises(
        TransmissionError,
        match=r"1 transmission, <ros2_control> or limit element\(s\) of robot .* could not be "
        r"read, and "
        r"a real actuator cannot run without them:\n  <string>:11: transmission 'elbow_trans' "
        r"skipped: .*\nFix: correct them \(a simulated robot runs without them\)",
    ):
        TransmissionMap.from_robot(robot, simulated_robot=False)
    simulated = TransmissionMap.from_robot(robot, simulated_robot=True)
    assert "arm::elbow" in simulated.joint_names  # driven directly
    unknown = NESTED_TRANSMISSION.replace(
        '<joint name="arm::elbow"/>', '<joint name="arm::wrist"/>'
    )
    (skipped,) = load_text(sdf(unknown)).skipped
    assert (skipped.kind, skipped.name) == ("transmission", "top")
    assert skipped.reason.startswith("it names joint 'arm::wrist', which is not a joint")


# -- nothing dropped silently ----------------------------------------------------------------------


def _messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "sdf_bridge.description.export" and r.levelno == logging.WARNING
    ]


def test_to_sdf_warns_about_what_it_cannot_write(
    robots_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    robot = load(robots_dir / "pr2" / "pr2.urdf")
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.description.export"):
        to_sdf(robot)
    messages = _messages(caplog)
    assert any(
        m.startswith("<calibration> of joints 'fl_caster_rotation_joint', ")
        and m.endswith("not written: SDFormat has no calibration element")
        for m in messages
    )
    assert any(
        m.startswith("<safety_controller> of joints ") and "'l_gripper_joint'" in m
        for m in messages
    )
    assert any(
        m.startswith("<gazebo> property 'stopKd' of joints 'r_upper_arm_roll_joint', ")
        for m in messages
    )
    assert any(m.startswith("URDF material textures of links ") for m in messages)
    assert not any("transmission" in m for m in messages)


def test_to_sdf_warns_about_transmissions_without_raw_xml(caplog: pytest.LogCaptureFixture) -> None:
    robot = _two_link_robot()
    made = Transmission(
        "made_in_code",
        "transmission_interface/SimpleTransmission",
        "classic",
        joints=(TransmissionJoint("fix"),),
        actuators=(TransmissionActuator("m", mechanical_reduction=2.0),),
    )
    robot = dataclasses.replace(
        robot,
        transmissions=(made,),
        links={k: dataclasses.replace(v, visuals=()) for k, v in robot.links.items()},
        joints={
            "fix": dataclasses.replace(robot.joints["fix"], calibration=Calibration(rising=0.1))
        },
    )
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.description.export"):
        text = to_sdf(robot)
        to_urdf(robot)
    assert "made_in_code" not in text
    messages = _messages(caplog)
    assert (
        messages.count(
            "transmissions 'made_in_code' not written: they have no raw_xml (built in code, not "
            "read from a file)"
        )
        == 2
    )
    assert (
        "<calibration> of joints 'fix' not written: SDFormat has no calibration element" in messages
    )


def test_lumping_warns_about_dropped_transmissions(
    robots_dir: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    robot = load(robots_dir / "panda_gazebo_ros1" / "panda_gazebo_ros1.urdf")
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.description.export"):
        text = to_sdf(robot, lump_fixed=True)
    (message,) = [m for m in _messages(caplog) if m.startswith("lumping: transmissions")]
    assert message.endswith("dropped: they drive lumped fixed joints")
    back = load(_write(tmp_path, text))
    assert all(e.name in back.joints for t in back.transmissions for e in t.joints)
    assert len(back.transmissions) == sum(
        all(robot.joints[e.name].type is not JointType.FIXED for e in t.joints)
        for t in robot.transmissions
    )


def test_to_urdf_warns_about_sdf_only_values(
    cases_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    robot = load(cases_dir / "010-nested-model-axis-frame" / "model.sdf")
    robot = dataclasses.replace(robot, static=True)
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.description.export"):
        to_urdf(robot)
    assert (
        f"model pose / static of {robot.name!r} not written: a URDF robot has neither"
        in _messages(caplog)
    )


def test_convert_command_prints_warnings(
    robots_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rrbot.sdf"
    assert convert_command(_args(robots_dir / "rrbot_ros1" / "rrbot_ros1.urdf", out)) == 0
    err = capsys.readouterr().err
    assert "warning: noise models of sensors 'head_hokuyo_sensor', 'camera1' not written" in err
    assert len(load(out).transmissions) == 2


def test_model_poses_follow_the_tree_not_a_loop_closing_joint() -> None:
    """A loop a → b → (loop joint) → a, as PR2's parallel grippers in SDFormat: each link keeps
    its resolved pose (the loop joint is no tree edge)."""
    robot = load(
        sdf("""<model name="m"><link name="base"/><link name="a"><pose>1 0 0 0 0 0</pose></link>
      <link name="b"><pose>1 2 0 0 0 0</pose></link>
      <joint name="j1" type="revolute"><parent>base</parent><child>a</child></joint>
      <joint name="j2" type="revolute"><parent>a</parent><child>b</child></joint>
      <joint name="loop" type="revolute"><parent>b</parent><child>a</child></joint></model>""")
    )
    poses = model_poses(robot)
    for name in ("base", "a", "b"):
        np.testing.assert_allclose(poses[name], robot.links[name].pose.matrix(), rtol=0, atol=1e-15)


def _urdf_joints(robot: Robot) -> dict[str, etree._Element]:
    return {j.get("name"): j for j in etree.fromstring(to_urdf(robot).encode()).iter("joint")}


def test_to_urdf_writes_an_unlimited_sdf_revolute_joint_as_continuous(tmp_path: Path) -> None:
    """URDF (and ros2_control) read the bounds a revolute joint lacks as 0: SDFormat's unlimited
    revolute joint becomes continuous (effort and velocity kept), a single bound keeps the other
    side at ∓1e16, a bounded one stays as it is."""
    links = "".join(f'<link name="{n}"/>' for n in ("base", "a", "b", "c", "d"))
    joints = (
        '<joint name="free" type="revolute"><parent>base</parent><child>a</child>'
        "<axis><xyz>0 0 1</xyz><limit><effort>5</effort><velocity>2</velocity></limit></axis>"
        "</joint>"
        '<joint name="bare" type="revolute"><parent>a</parent><child>b</child>'
        "<axis><xyz>0 0 1</xyz></axis></joint>"
        '<joint name="low" type="revolute"><parent>b</parent><child>c</child>'
        "<axis><xyz>0 0 1</xyz><limit><lower>-0.5</lower></limit></axis></joint>"
        '<joint name="bounded" type="revolute"><parent>c</parent><child>d</child>'
        "<axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>2</upper></limit></axis></joint>"
    )
    robot = load_text(sdf(f'<model name="m">{links}{joints}</model>'))
    written = _urdf_joints(robot)
    assert written["free"].get("type") == "continuous"
    assert dict(written["free"].find("limit").attrib) == {"effort": "5.0", "velocity": "2.0"}
    assert written["bare"].get("type") == "continuous"
    assert {"lower", "upper"} & set(written["bare"].find("limit").attrib) == set()
    assert written["low"].get("type") == "revolute"
    assert written["low"].find("limit").get("lower") == "-0.5"
    assert float(written["low"].find("limit").get("upper")) == 1e16
    assert written["bounded"].get("type") == "revolute"
    assert (
        written["bounded"].find("limit").get("lower"),
        written["bounded"].find("limit").get("upper"),
    ) == ("-1.0", "2.0")
    back = load(_write(tmp_path, to_urdf(robot), "m.urdf"))
    assert back.joints["free"].type == "continuous"
    assert back.joints["bounded"].limit.lower == -1.0
