"""The transmissions of every robot in shared/robots build; reductions as INDEX.md gives."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from prerequisites import SHARED_ROBOTS, shared_robot_file

from sdf_bridge.description import load
from sdf_bridge.description.model import World
from sdf_bridge.transmissions import SimpleTransmission, TransmissionMap, WristTransmission
from sdf_bridge.transmissions.report import describe_transmissions


def _maps(robots_dir: Path, name: str) -> list[TransmissionMap]:
    loaded = load(shared_robot_file(robots_dir, name))
    models = list(loaded.models.values()) if isinstance(loaded, World) else [loaded]
    return [TransmissionMap.from_robot(m) for m in models]


def test_all_listed(robots_dir: Path) -> None:
    listed = sorted(p.name for p in robots_dir.iterdir() if p.is_dir())
    assert listed == sorted(SHARED_ROBOTS)


@pytest.mark.parametrize("name", SHARED_ROBOTS)
def test_builds(robots_dir: Path, name: str) -> None:
    for tmap in _maps(robots_dir, name):
        n = len(tmap.joint_names)
        assert len(tmap.actuator_names) == n
        q, v, e = tmap.actuator_to_joint(*(tmap.joint_to_actuator([0.1] * n, [0.2] * n, [0.3] * n)))
        assert q.tolist() == pytest.approx([0.1] * n, abs=1e-12)
        assert e.tolist() == pytest.approx([0.3] * n, abs=1e-12)


def _simple_reductions(tmap: TransmissionMap) -> Counter:
    return Counter(m.reduction for m in tmap.mechanisms if type(m) is SimpleTransmission)


def test_pr2_reductions(robots_dir: Path) -> None:
    (tmap,) = _maps(robots_dir, "pr2")
    assert _simple_reductions(tmap) == Counter(
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
    wrists = [m for m in tmap.mechanisms if isinstance(m, WristTransmission)]
    assert len(wrists) == 2
    for w in wrists:
        assert w.actuator_reductions == (60.17142857142857, 60.17142857142857)
        assert w.joint_reductions == (-1.0, 1.0)
    skipped = [e.spec.name for e in tmap.entries if e.status == "skipped"]
    assert skipped == ["r_gripper_trans", "l_gripper_trans"]
    assert "r_gripper_joint" in tmap.joint_names  # gap joint driven directly (identity)
    assert len(tmap.follower_names) == 6


def test_rrbot_transmissions_reductions(robots_dir: Path) -> None:
    (tmap,) = _maps(robots_dir, "rrbot_transmissions")
    assert tmap.actuator_names == ("actuator1", "actuator2")
    assert [m.reduction for m in tmap.mechanisms] == [2.0, 4.0]


def test_rrbot_ros1_reductions(robots_dir: Path) -> None:
    (tmap,) = _maps(robots_dir, "rrbot_ros1")
    assert tmap.actuator_names == ("motor1", "motor2")
    assert [m.reduction for m in tmap.mechanisms] == [1.0, 1.0]


def test_panda_no_reductions(robots_dir: Path) -> None:
    (tmap,) = _maps(robots_dir, "panda_gazebo_ros1")
    assert set(_simple_reductions(tmap)) == {1.0}
    assert tmap.follower_names == ("panda_finger_joint2",)


@pytest.mark.parametrize(
    ("name", "followers"),
    [
        ("carlikebot", 4),
        ("gen3_robotiq", 5),
        ("pr2", 6),
        ("sdf_mimic_pendulums", 2),
    ],
)
def test_mimic_counts(robots_dir: Path, name: str, followers: int) -> None:
    assert sum(len(t.follower_names) for t in _maps(robots_dir, name)) == followers


@pytest.mark.parametrize("name", ["pr2", "rrbot_ros1", "rrbot_transmissions", "panda_gazebo_ros1"])
def test_report_lists_every_transmission(robots_dir: Path, name: str) -> None:
    robot = load(shared_robot_file(robots_dir, name))
    rows = [
        r
        for r in describe_transmissions(robot)
        if r["dialect"] in ("classic", "pr2", "ros2_control")
    ]
    assert len(rows) == len(robot.transmissions)
