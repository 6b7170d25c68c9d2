"""Transmissions, ros2_control blocks, sensors, plugins and mimic joints of every URDF robot in the
shared corpus, as its INDEX.md and SOURCE.md give them (flattened files, through ``load``).

Expected values are copied from ``shared/robots/INDEX.md`` and each ``SOURCE.md`` ("Counts below
are for the flattened file"); reductions are exact decimal values from the files.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from lxml import etree

from sdf_bridge.description import Robot, load, load_with_warnings
from sdf_bridge.errors import TransmissionError
from sdf_bridge.transmissions import TransmissionMap

# name → expected values (INDEX.md table + SOURCE.md details)
EXPECTED: dict[str, dict] = {
    "rrbot_ros1": {
        "transmissions": {("SimpleTransmission", "classic"): 2},
        "ros2_control": [],
        "sensors": {"gpu_ray": 1, "camera": 1},
        "mimic": 0,
        "plugins": {
            "libgazebo_ros_camera.so",
            "libgazebo_ros_control.so",
            "libgazebo_ros_gpu_laser.so",
        },
    },
    "rrbot_transmissions": {
        "transmissions": {("SimpleTransmission", "ros2_control"): 2},
        "ros2_control": [
            (
                "RRBotTransmissionsSystemPositionOnly",
                "system",
                "ros2_control_demo_example_8/RRBotTransmissionsSystemPositionOnlyHardware",
                2,
                [],
                [],
                2,
            ),
        ],
        "sensors": {},
        "mimic": 0,
        "plugins": set(),
    },
    "rrbot_external_fts": {
        "transmissions": {},
        "ros2_control": [
            ("RRBotSystemPositionOnly", "system", "mock_components/GenericSystem", 2, [], [], 0),
            (
                "ExternalRRBotFTSensor",
                "sensor",
                "mock_components/GenericSystem",
                0,
                ["tcp_fts_sensor"],
                [],
                0,
            ),
        ],
        "sensors": {},
        "mimic": 0,
        "plugins": set(),
    },
    "carlikebot": {
        "transmissions": {},
        "ros2_control": [
            (
                "CarlikeBot",
                "system",
                "ros2_control_demo_example_11/CarlikeBotSystemHardware",
                2,
                [],
                [],
                0,
            ),
        ],
        "sensors": {},
        "mimic": 4,
        "plugins": set(),
    },
    "pr2": {
        "transmissions": {
            ("SimpleTransmission", "pr2"): 26,
            ("WristTransmission", "pr2"): 2,
            ("PR2GripperTransmission", "pr2"): 2,
        },
        "ros2_control": [],
        "sensors": {"ray": 2, "contact": 6, "camera": 7},
        "mimic": 6,
        "plugins": {
            "libgazebo_ros_bumper.so",
            "libgazebo_ros_camera.so",
            "libgazebo_ros_controller_manager.so",
            "libgazebo_ros_f3d.so",
            "libgazebo_ros_imu.so",
            "libgazebo_ros_laser.so",
            "libgazebo_ros_p3d.so",
            "libgazebo_ros_power_monitor.so",
            "libgazebo_ros_projector.so",
            "libgazebo_ros_prosilica.so",
        },
    },
    "ur5e_ros2": {
        "transmissions": {},
        "ros2_control": [
            (
                "ur",
                "system",
                "mock_components/GenericSystem",
                6,
                ["tcp_fts_sensor", "tcp_pose"],
                [],
                0,
            ),
        ],
        "sensors": {},
        "mimic": 0,
        "plugins": set(),
    },
    "panda_gazebo_ros1": {
        "transmissions": {
            ("SimpleTransmission", "classic"): 23,
            ("FrankaStateInterface", "classic"): 1,
            ("FrankaModelInterface", "classic"): 1,
        },
        "ros2_control": [],
        "sensors": {},
        "mimic": 1,
        "plugins": {"libgazebo_ros_control.so"},
    },
    "gen3_robotiq": {
        "transmissions": {},
        "ros2_control": [
            (
                "KortexMultiInterfaceHardware",
                "system",
                "mock_components/GenericSystem",
                7,
                [],
                [],
                0,
            ),
            (
                "RobotiqGripperHardwareInterface",
                "system",
                "mock_components/GenericSystem",
                6,
                [],
                ["reactivate_gripper"],
                0,
            ),
        ],
        "sensors": {},
        "mimic": 5,
        "plugins": set(),
    },
    "husky": {
        "transmissions": {},
        "ros2_control": [
            ("husky_hardware", "system", "gazebo_ros2_control/GazeboSystem", 4, [], [], 0)
        ],
        "sensors": {"depth": 1, "imu": 1, "gps": 1},
        "mimic": 0,
        "plugins": {
            "libgazebo_ros2_control.so",
            "libgazebo_ros_gps_sensor.so",
            "libgazebo_ros_imu_sensor.so",
            "libgazebo_ros_openni_kinect.so",
        },
    },
}

_cache: dict[str, Robot] = {}


def _robot(robots_dir: Path, name: str) -> Robot:
    if name not in _cache:
        _cache[name] = load(robots_dir / name / f"{name}.urdf")
    return _cache[name]


def test_every_urdf_robot_of_the_corpus_is_covered(robots_dir: Path) -> None:
    urdf_robots = {p.parent.name for p in robots_dir.glob("*/*.urdf")}
    assert urdf_robots == set(EXPECTED)
    index = (robots_dir / "INDEX.md").read_text()
    for name in EXPECTED:
        assert f"[{name}]({name}/SOURCE.md) | URDF |" in index


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_transmissions_by_type_and_dialect(robots_dir: Path, name: str) -> None:
    robot = _robot(robots_dir, name)
    got = Counter((t.short_type, t.dialect) for t in robot.transmissions)
    assert dict(got) == EXPECTED[name]["transmissions"]
    in_blocks = [t for block in robot.ros2_control for t in block.transmissions]
    assert all(t.dialect == "ros2_control" for t in in_blocks)
    assert sum(1 for t in robot.transmissions if t.dialect == "ros2_control") == len(in_blocks)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_ros2_control_blocks(robots_dir: Path, name: str) -> None:
    robot = _robot(robots_dir, name)
    got = [
        (
            b.name,
            b.type,
            b.plugin,
            len(b.joints),
            [s.name for s in b.sensors],
            [g.name for g in b.gpios],
            len(b.transmissions),
        )
        for b in robot.ros2_control
    ]
    assert got == EXPECTED[name]["ros2_control"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_gazebo_sensors_by_type(robots_dir: Path, name: str) -> None:
    robot = _robot(robots_dir, name)
    assert dict(Counter(s.raw_type for s in robot.sensors)) == EXPECTED[name]["sensors"]
    # no urdfdom <sensor> in the corpus
    assert all(s.origin_format == "gazebo" for s in robot.sensors)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mimic_joint_count(robots_dir: Path, name: str) -> None:
    robot = _robot(robots_dir, name)
    assert sum(1 for j in robot.joints.values() if j.mimic is not None) == EXPECTED[name]["mimic"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_gazebo_plugins(robots_dir: Path, name: str) -> None:
    robot = _robot(robots_dir, name)
    files = {p.filename for p in robot.plugins}
    files |= {etree.fromstring(raw).get("filename") for s in robot.sensors for raw in s.plugins}
    assert files == EXPECTED[name]["plugins"]


# -- per-robot details from SOURCE.md -------------------------------------------------------------


def test_rrbot_ros1_classic_simple_transmissions(robots_dir: Path) -> None:
    robot = _robot(robots_dir, "rrbot_ros1")
    for t in robot.transmissions:
        assert t.type == "transmission_interface/SimpleTransmission"
        assert [a.mechanical_reduction for a in t.actuators] == [1.0]
        assert [j.mechanical_reduction for j in t.joints] == [None]
        assert t.joints[0].hardware_interfaces == ("EffortJointInterface",)
        assert t.actuators[0].hardware_interfaces == ("EffortJointInterface",)
    cam = next(s for s in robot.sensors if s.name == "camera1")
    assert (cam.link, cam.ros_frame_id, cam.update_rate) == (
        "camera_link",
        "camera_link_optical",
        30.0,
    )
    laser = next(s for s in robot.sensors if s.name == "head_hokuyo_sensor")
    assert (
        laser.type == "ray"
        and laser.params.horizontal_samples == 720
        and laser.params.range_max == 30.0
    )


def test_rrbot_transmissions_reductions_2_and_4(robots_dir: Path) -> None:
    robot = _robot(robots_dir, "rrbot_transmissions")
    got = [
        (
            t.name,
            t.hardware,
            [(a.name, a.role, a.mechanical_reduction) for a in t.actuators],
            [(j.name, j.role, j.mechanical_reduction, j.offset) for j in t.joints],
        )
        for t in robot.transmissions
    ]
    assert got == [
        (
            "transmission1",
            "RRBotTransmissionsSystemPositionOnly",
            [("actuator1", "actuator1", None)],
            [("joint1", "joint1", 2.0, 0.0)],
        ),
        (
            "transmission2",
            "RRBotTransmissionsSystemPositionOnly",
            [("actuator2", "actuator2", None)],
            [("joint2", "joint2", 4.0, 0.0)],
        ),
    ]


def test_rrbot_external_fts_sensor_block(robots_dir: Path) -> None:
    block = _robot(robots_dir, "rrbot_external_fts").ros2_control[1]
    (fts,) = block.sensors
    assert [i.name for i in fts.state_interfaces] == [
        "force.x",
        "force.y",
        "force.z",
        "torque.x",
        "torque.y",
        "torque.z",
    ]
    assert fts.param("frame_id") == "tool_link" and fts.param("tx_range") == "15"


PR2_SIMPLE_REDUCTIONS = Counter(
    {
        -79.23809523809524: 8,
        79.23809523809524: 4,
        -47641.53: 1,
        6.0: 2,
        -6.05: 1,
        32.65251114989334: 2,
        63.15524529765367: 2,
        61.89482257126235: 2,
        -90.51428571428572: 2,
        -36.1674520069808: 2,
    }
)


def test_pr2_reductions(robots_dir: Path) -> None:
    robot = _robot(robots_dir, "pr2")
    simple = [t for t in robot.transmissions if t.short_type == "SimpleTransmission"]
    # the transmission-level <mechanicalReduction> is recorded on the single actuator
    assert Counter(t.actuators[0].mechanical_reduction for t in simple) == PR2_SIMPLE_REDUCTIONS
    assert all(len(t.joints) == 1 and t.joints[0].mechanical_reduction is None for t in simple)
    wrists = [t for t in robot.transmissions if t.short_type == "WristTransmission"]
    for t in wrists:
        assert [(a.role, a.mechanical_reduction) for a in t.actuators] == [
            ("rightActuator", 60.17142857142857),
            ("leftActuator", 60.17142857142857),
        ]
        assert [(j.role, j.mechanical_reduction) for j in t.joints] == [
            ("flexJoint", -1.0),
            ("rollJoint", 1.0),
        ]
    assert sorted(j.name for t in wrists for j in t.joints) == [
        "l_wrist_flex_joint",
        "l_wrist_roll_joint",
        "r_wrist_flex_joint",
        "r_wrist_roll_joint",
    ]
    grippers = [t for t in robot.transmissions if t.short_type == "PR2GripperTransmission"]
    assert sorted(
        (t.joints[0].name, t.joints[0].role, t.joints[0].mechanical_reduction) for t in grippers
    ) == [("l_gripper_joint", "gap_joint", 1.0), ("r_gripper_joint", "gap_joint", 1.0)]
    for t in grippers:
        passive = [v for k, v in t.params if k == "passive_joint"]
        assert len(passive) == 4 and all(
            robot.joints[p].mimic is not None or p.endswith("l_finger_joint") for p in passive
        )
    assert all(j.hardware_interfaces == () for t in robot.transmissions for j in t.joints)


def test_panda_transmissions(robots_dir: Path) -> None:
    robot = _robot(robots_dir, "panda_gazebo_ros1")
    names = Counter(t.name for t in robot.transmissions)
    assert names["panda_joint1_transmission"] == 3
    assert sum(1 for n, c in names.items() if c > 1) == 7
    assert all(
        j.mechanical_reduction is None and a.mechanical_reduction is None
        for t in robot.transmissions
        for j in t.joints
        for a in t.actuators
    )
    simple_ifaces = {
        i
        for t in robot.transmissions
        if t.short_type == "SimpleTransmission"
        for j in t.joints
        for i in j.hardware_interfaces
    }
    assert simple_ifaces == {
        "EffortJointInterface",
        "PositionJointInterface",
        "VelocityJointInterface",
    }
    state = next(t for t in robot.transmissions if t.short_type == "FrankaStateInterface")
    assert (len(state.joints), len(state.actuators)) == (7, 7)
    model = next(t for t in robot.transmissions if t.short_type == "FrankaModelInterface")
    assert [(j.name, j.role) for j in model.joints] == [
        ("panda_joint1", "root"),
        ("panda_joint8", "tip"),
    ]


def test_gen3_gripper_mimic_joints_have_no_command_interfaces(robots_dir: Path) -> None:
    robot = _robot(robots_dir, "gen3_robotiq")
    gripper = robot.ros2_control[1]
    for comp in gripper.joints:
        if robot.joints[comp.name].mimic is not None:
            assert comp.command_interfaces == () and [i.name for i in comp.state_interfaces] == [
                "position",
                "velocity",
            ]
    knuckle = gripper.joints[0]
    assert knuckle.state_interfaces[0].initial_value == "0.7929"
    assert [i.name for i in gripper.gpios[0].command_interfaces] == [
        "reactivate_gripper_cmd",
        "reactivate_gripper_response",
    ]


def test_husky_sensors(robots_dir: Path) -> None:
    robot = _robot(robots_dir, "husky")
    by_name = {s.name: s for s in robot.sensors}
    depth = by_name["camera_realsense_depth"]
    assert (depth.type, depth.params.width, depth.params.height, depth.params.depth) == (
        "depth",
        640,
        480,
        True,
    )
    assert depth.ros_frame_id == "camera_realsense_gazebo"
    imu = by_name["imu_sensor"]
    assert (imu.link, imu.ros_frame_id, imu.update_rate, imu.always_on) == (
        "imu_link",
        "imu_link",
        100.0,
        True,
    )
    assert by_name["gps_sensor"].type == "gps"


# -- shared cases that concern these elements, end to end through load_with_warnings -------------


@pytest.mark.parametrize(
    ("variant", "joint_side", "actuator_side", "element"),
    [
        ("variant_a_camelcase.urdf", 40.0, None, "<mechanicalReduction>"),
        ("variant_b_actuator_side.urdf", None, 40.0, "<mechanical_reduction> under <actuator"),
    ],
)
def test_case_004_reduction_is_kept_and_warned(
    cases_dir: Path, variant, joint_side, actuator_side, element
) -> None:
    robot, warnings = load_with_warnings(
        cases_dir / "004-ros2control-transmission-tag-spelling" / variant
    )
    (t,) = robot.transmissions
    assert (t.name, t.dialect, t.hardware) == ("knee_gear", "ros2_control", "servo_bus")
    assert t.joints[0].mechanical_reduction == joint_side
    assert t.actuators[0].mechanical_reduction == actuator_side
    assert any("knee_gear" in w and element in w for w in warnings)
    assert all(j.hardware_interfaces == () for j in t.joints)
    # interfaces of the knee come from the <ros2_control> joint only
    (knee,) = robot.ros2_control[0].joints
    assert [i.name for i in knee.command_interfaces] == ["position"]


def test_case_002_roles_are_recorded(cases_dir: Path) -> None:
    robot = load(cases_dir / "002-differential-role-order" / "robot.urdf")
    (t,) = robot.transmissions
    assert [(j.name, j.role, j.offset) for j in t.joints] == [
        ("wrist_roll", "joint2", 0.0),
        ("wrist_pitch", "joint1", 0.1),
    ]


def test_case_002_duplicated_role_skips_the_transmission_and_a_driver_refuses(
    cases_dir: Path,
) -> None:
    text = (cases_dir / "002-differential-role-order" / "robot.urdf").read_text()
    broken = text.replace('role="joint2"', 'role="joint1"')
    assert broken != text
    robot = load(broken)
    # the transmission is in a <ros2_control> block, which is left out with it
    assert [(s.kind, s.name) for s in robot.skipped] == [("ros2_control", "wrist_system")]
    assert re.search(r"transmission 'wrist_diff'.*role 'joint1'", robot.skipped[0].reason)
    with pytest.raises(TransmissionError, match=r"ros2_control 'wrist_system' skipped: .*joint1"):
        TransmissionMap.from_robot(robot)


def test_case_014_imu_frame_is_the_urdf_link(cases_dir: Path) -> None:
    robot = load(cases_dir / "014-imu-frame-id-scoped-name" / "robot.urdf")
    (imu,) = robot.sensors
    assert (imu.name, imu.type, imu.link, imu.frame_id, imu.ros_frame_id) == (
        "imu_sensor",
        "imu",
        "imu_link",
        None,
        "imu_link",
    )
