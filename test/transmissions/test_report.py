"""describe_transmissions: the `sdf-bridge check` listing."""

from __future__ import annotations

from sdf_bridge.description import load
from sdf_bridge.transmissions.report import describe_transmissions

KEYS = {"name", "type", "dialect", "joints", "actuators", "effective", "notes"}


def test_demo_arm(repo_dir) -> None:
    rows = describe_transmissions(load(repo_dir / "urdf" / "demo_arm.urdf.xacro"))
    assert [r["name"] for r in rows] == [
        "base_yaw_trans",
        "arm_fourbar_trans",
        "wrist_differential_trans",
        "gripper_trans",
        "right_finger_joint",
    ]
    assert all(set(r) == KEYS for r in rows)
    base = rows[0]
    assert base["dialect"] == "classic"
    assert base["joints"] == [{"name": "base_yaw", "role": None, "reduction": None, "offset": 0.1}]
    assert base["actuators"] == [{"name": "base_yaw_motor", "role": None, "reduction": 50.0}]
    assert base["effective"] == "actuator = 50 × (joint − 0.1)"
    assert (
        rows[3]["dialect"] == "ros2_control" and rows[3]["effective"] == "actuator = 1000 × joint"
    )
    assert (
        rows[1]["effective"]
        == "shoulder_lift = 0.01·shoulder_motor; elbow = −0.01·shoulder_motor + 0.0125·elbow_motor"
    )
    assert rows[4]["effective"] == "right_finger_joint = -1 × left_finger_joint + 0.002"
    assert rows[4]["notes"] == ["state only, no command interface"]


def test_case_004_note(cases_dir) -> None:
    rows = describe_transmissions(
        load(
            cases_dir / "004-ros2control-transmission-tag-spelling" / "variant_b_actuator_side.urdf"
        )
    )
    assert rows[0]["effective"] == "actuator = 40 × joint"
    assert "actuator side" in rows[0]["notes"][0]


def test_pr2_skips_and_negative(robots_dir) -> None:
    rows = {r["name"]: r for r in describe_transmissions(load(robots_dir / "pr2" / "pr2.urdf"))}
    assert rows["torso_lift_trans"]["effective"] == "actuator = -47641.5 × joint"
    assert rows["r_gripper_trans"]["effective"] == "skipped (identity)"
    assert "not modelled" in rows["r_gripper_trans"]["notes"][0]


def test_unbuildable_transmission_is_listed_skipped_naming_file_and_line() -> None:
    """The report reads the map as the simulating backends do: a transmission that cannot be
    built is skipped (its joints driven directly), its note located and saying real actuators
    refuse it."""
    robot = load(
        '<robot name="r">\n<link name="a"/><link name="b"/>\n'
        '<joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>\n'
        '<transmission name="t1"><type>transmission_interface/DifferentialTransmission</type>\n'
        '<joint name="j"/><actuator name="m"/></transmission>\n</robot>'
    )
    (row,) = describe_transmissions(robot)
    assert row["effective"] == "skipped (identity)"
    assert row["notes"] == [
        "<string>:4: transmission 't1' (DifferentialTransmission) has 1 joint(s) and 1 "
        "actuator(s); the type needs 2 joint(s) and 2 actuator(s). Fix: give exactly that many "
        "<joint> and <actuator> entries, or use another transmission type. Skipped: a simulated "
        "robot runs without it (its joints driven directly); a real actuator's driver refuses it."
    ]


def test_unknown_type_is_listed_skipped_as_the_simulating_backends_read_it(data_dir) -> None:
    """The built-in backends simulate the robot: a type no mechanism is registered for is
    skipped (identity), the note saying what is used and that real actuators refuse it."""
    path = data_dir / "made_up_transmission.urdf"
    (row,) = describe_transmissions(load(path))
    assert row["type"] == "my_vendor/MadeUpTransmission"
    assert row["effective"] == "skipped (identity)"
    assert [a["name"] for a in row["actuators"]] == ["head_1_motor", "head_2_motor"]
    (note,) = row["notes"]
    assert note.startswith(
        f"transmission 'head_trans' ({path}:31) has unknown type 'my_vendor/MadeUpTransmission'; "
        "skipped: its joints ['head_1_joint', 'head_2_joint'] are driven directly in joint space "
        "as gazebo_ros_control does; its actuators ['head_1_motor', 'head_2_motor'] are not "
        "modelled (identity actuators named like the joints; a backend driving real actuators "
        "refuses it). For its real math, install a plug-in type registered under "
        "'my_vendor/MadeUpTransmission' in the 'sdf_bridge.transmissions' entry-point group"
    )


def test_located_errors_are_not_prefixed_twice(cases_dir) -> None:
    import pytest

    from sdf_bridge.errors import TransmissionError
    from sdf_bridge.transmissions import TransmissionMap

    robot = load(
        '<robot name="r">\n<link name="a"/><link name="b"/>\n<joint name="j" type="continuous">'
        '<parent link="a"/><child link="b"/></joint>\n<transmission name="t1">'
        '<type>transmission_interface/SimpleTransmission</type>\n<joint name="j">'
        '<mechanicalReduction>2</mechanicalReduction></joint><actuator name="m">'
        "<mechanicalReduction>3</mechanicalReduction></actuator></transmission>\n</robot>"
    )
    (row,) = describe_transmissions(robot)
    (note,) = row["notes"]
    assert note.count("<string>:4") == 1
    with pytest.raises(TransmissionError) as info:
        TransmissionMap.from_robot(robot)  # a real actuator's map refuses it
    assert str(info.value).count("<string>:4") == 1
