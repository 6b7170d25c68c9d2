"""sdf_bridge.transmissions.from_description: a transmission of a type no mechanism is registered
for (test/data/made_up_transmission.urdf: ``my_vendor/MadeUpTransmission``, two joints, two
actuators, as PAL TALOS's HalfDifferentialTransmission) on commanded joints: skipped with one
warning for a simulated robot (identity actuators, as gazebo_ros_control drives it), refused for
real actuators, given its math by a plug-in registered under its name."""

from __future__ import annotations

import importlib.metadata as md
import logging
import re

import numpy as np
import pytest

from sdf_bridge.description import load
from sdf_bridge.errors import TransmissionError
from sdf_bridge.transmissions import (
    DifferentialTransmission,
    IdentityTransmission,
    TransmissionMap,
)

from .builders import chain, simple

JOINTS = ("head_1_joint", "head_2_joint")


def skipped_warning(path) -> str:
    """The one warning of building the made-up robot's map for a simulated robot."""
    return (
        f"transmission 'head_trans' ({path}:31) has unknown type 'my_vendor/MadeUpTransmission'; "
        "skipped: its joints ['head_1_joint', 'head_2_joint'] are driven directly in joint space "
        "as gazebo_ros_control does; its actuators ['head_1_motor', 'head_2_motor'] are not "
        "modelled (identity actuators named like the joints; a backend driving real actuators "
        "refuses it). For its real math, install a plug-in type registered under "
        "'my_vendor/MadeUpTransmission' in the 'sdf_bridge.transmissions' entry-point group "
        "(doc/user/extending.md)"
    )


def test_a_simulated_robot_drives_the_joints_directly_with_one_warning(
    data_dir, caplog: pytest.LogCaptureFixture
) -> None:
    path = data_dir / "made_up_transmission.urdf"
    robot = load(path)
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.transmissions"):
        tmap = TransmissionMap.from_robot(robot, simulated_robot=True)
    assert [r.getMessage() for r in caplog.records] == [skipped_warning(path)]
    assert tmap.warnings == (skipped_warning(path),)
    (entry,) = tmap.entries
    assert entry.status == "skipped" and entry.mechanism is None
    assert entry.notes == (skipped_warning(path),)
    assert tmap.joint_names == JOINTS and tmap.actuator_names == JOINTS
    assert [type(m) for m in tmap.mechanisms] == [IdentityTransmission] * 2
    # identity both ways (exact: ratio 1, offset 0), the written reductions 1 and 0.5 unused
    q, v, tau = tmap.joint_to_actuator([0.4, -0.2], [1.5, -0.5], [2.0, 3.0])
    assert q.tolist() == [0.4, -0.2] and v.tolist() == [1.5, -0.5] and tau.tolist() == [2.0, 3.0]
    q, v, tau = tmap.actuator_to_joint([0.4, -0.2], [1.5, -0.5], [2.0, 3.0])
    assert q.tolist() == [0.4, -0.2] and v.tolist() == [1.5, -0.5] and tau.tolist() == [2.0, 3.0]


def test_real_actuators_refuse_it_naming_file_line_and_what_simulating_backends_do(
    data_dir,
) -> None:
    path = data_dir / "made_up_transmission.urdf"
    with pytest.raises(
        TransmissionError,
        match=re.escape(
            f"{path}:31: transmission 'head_trans' has unknown type "
            "'my_vendor/MadeUpTransmission'. Fix: use one of "
        )
        + r".*entry-point group\. "
        + re.escape(
            "Simulating backends (mock, mujoco) accept it, driving its joints directly in "
            "joint space as gazebo_ros_control does; a backend of real actuators does not, as "
            "identity actuators would send joint positions to the wrong motors."
        )
        + "$",
    ):
        TransmissionMap.from_robot(load(path))


class _EntryPoint:
    name = "my_vendor/MadeUpTransmission"
    value = "my_vendor.mechanisms:MadeUp"

    def load(self) -> type:
        return DifferentialTransmission


def test_a_plug_in_registered_under_the_type_gives_it_its_math(
    data_dir, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The way out the warning names: the same robot with a mechanism registered under the
    type (here the differential's formulas) is mapped through it, for any backend."""
    monkeypatch.setattr(md, "entry_points", lambda **kw: [_EntryPoint()])
    tmap = TransmissionMap.from_robot(load(data_dir / "made_up_transmission.urdf"))
    (entry,) = tmap.entries
    assert entry.status == "used" and isinstance(entry.mechanism, DifferentialTransmission)
    assert tmap.warnings == ()
    assert tmap.actuator_names == ("head_1_motor", "head_2_motor")
    # ros2_control's differential: joint1 = (a1/r1 + a2/r2) / (2 jr1), joint2 = (a1/r1 − a2/r2)
    # / (2 jr2), actuator reductions r = (1, 0.5), joint reductions 1
    q, _, _ = tmap.actuator_to_joint([0.3, 0.1], [0.0, 0.0], [0.0, 0.0])
    np.testing.assert_allclose(q, [(0.3 + 0.2) / 2, (0.3 - 0.2) / 2], rtol=0, atol=1e-15)


def test_a_misspelt_type_on_a_simulated_robot_is_skipped_naming_the_type_meant(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A misspelling is skipped like any unknown type (its reduction not applied), and the
    warning says which known type it probably means."""
    robot = chain(
        ("j", "revolute"),
        transmissions=[
            simple("t", "j", "m", jred=10.0, ttype="transmission_interface/SimpleTransmision")
        ],
    )
    with caplog.at_level(logging.WARNING):
        tmap = TransmissionMap.from_robot(robot, simulated_robot=True)
    assert tuple(tmap.actuator_names) == ("j",)  # identity, not 10:1
    assert re.search(
        r"transmission 't' .*has unknown type 'transmission_interface/SimpleTransmision' "
        r"\(did you mean 'transmission_interface/SimpleTransmission'\?\); skipped: its joints "
        r"\['j'\]",
        caplog.text,
    )
