"""Link mass properties in MuJoCo (sdf_bridge.backends.mujoco.inertials, through build_spec): the
inertial as written and rotated into the link frame, its defaults (URDF massless frames,
SDFormat's default), the repairs of inertias no rigid body has, and the errors for masses no
default can guess. Values exact to the tolerance each test states."""

from __future__ import annotations

import logging
import math

import mujoco
import numpy as np
import pytest
from mujoco_helpers import INERTIAL, chain_robot, compile_robot

from sdf_bridge.backends.mujoco.builder import build_spec
from sdf_bridge.backends.mujoco.inertials import (
    MIN_PRINCIPAL_INERTIA,
    SDF_DEFAULT_INERTIA,
    SDF_DEFAULT_MASS,
)
from sdf_bridge.description.inertia import DEFAULT_INERTIA, DEFAULT_MASS, MIN_MASS
from sdf_bridge.description.model import (
    Axis,
    Inertia,
    Inertial,
    Joint,
    JointType,
    Limit,
    Link,
    Pose,
)
from sdf_bridge.errors import BackendError


def test_inertial_copied() -> None:
    robot = chain_robot(
        Joint("j", JointType.REVOLUTE, "a", "b", axis=Axis((0, 0, 1)), limit=Limit(-1, 1))
    )
    model, _ = compile_robot(robot)
    body = model.body("b")
    assert body.mass[0] == 1.0
    assert body.ipos == pytest.approx([0.1, 0, 0], abs=1e-12)
    assert sorted(body.inertia) == pytest.approx([0.01, 0.02, 0.03], abs=1e-12)


def test_link_without_inertial_gets_documented_default(caplog) -> None:
    robot = chain_robot(
        Joint("j", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))),
        links={"b": Link("b"), "a": Link("a", inertial=INERTIAL)},
    )
    with caplog.at_level(logging.INFO):
        model, built = compile_robot(robot)
    assert model.body("b").mass[0] == DEFAULT_MASS
    assert model.body("b").inertia == pytest.approx([DEFAULT_INERTIA] * 3, abs=1e-15)
    assert "1 link(s) without inertial (or mass) get the default mass 0.001 kg" in caplog.text
    assert any(n.endswith(": b") for n in built.notes)


def test_sdf_link_without_inertial_gets_sdformat_default() -> None:
    robot = chain_robot(
        Joint("j", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))),
        links={"b": Link("b"), "a": Link("a", inertial=INERTIAL)},
        fmt="sdf",
    )
    model, _ = compile_robot(robot)
    assert model.body("b").mass[0] == SDF_DEFAULT_MASS
    assert model.body("b").inertia == pytest.approx([SDF_DEFAULT_INERTIA] * 3, abs=1e-15)


def test_rotated_inertial_frame() -> None:
    """Inertial frame yawed by π/2 with (ixx, iyy, izz) = (1, 2, 2.5): in the link frame the
    tensor is diag(2, 1, 2.5), plus an off-diagonal term rotated the same way (1e-9)."""
    inertial = Inertial(
        1.0, Inertia(1.0, 0.1, 0.0, 2.0, 0.0, 2.5), Pose((0, 0, 0), (0, 0, math.pi / 2))
    )
    robot = chain_robot(
        Joint("j", JointType.BALL, "a", "b"), links={"b": Link("b", inertial=inertial)}
    )
    model, _ = compile_robot(robot)
    bid = model.body("b").id
    rot = np.zeros(9)
    mujoco.mju_quat2Mat(rot, model.body_iquat[bid])
    rot = rot.reshape(3, 3)
    tensor = rot @ np.diag(model.body_inertia[bid]) @ rot.T
    r = Pose(rpy=(0, 0, math.pi / 2)).rotation
    expected = r @ np.array([[1.0, 0.1, 0], [0.1, 2.0, 0], [0, 0, 2.5]]) @ r.T
    assert tensor == pytest.approx(expected, abs=1e-9)
    assert expected[0, 0] == pytest.approx(2.0) and expected[0, 1] == pytest.approx(-0.1)


@pytest.mark.parametrize(
    ("inertia", "problem", "mean"),
    [
        (
            Inertia(0.1, 0, 0, 0.1, 0, 1.0),
            "its principal moments (0.1, 0.1, 1) kg·m² break the triangle inequality",
            0.4,
        ),
        (
            Inertia(0.1, 0.5, 0, 0.1, 0, 0.1),  # principal moments (-0.4, 0.1, 0.6)
            "its principal moments (-0.4, 0.1, 0.6) kg·m² include a negative one: the tensor is "
            "not positive semi-definite",
            0.1,
        ),
    ],
)
def test_inertia_no_rigid_body_has_is_balanced_with_a_warning(
    caplog, inertia, problem, mean
) -> None:
    """MuJoCo's balanceinertia for both faults: every principal moment their mean (trace / 3)."""
    robot = chain_robot(
        Joint("j", JointType.BALL, "a", "b"),
        links={"b": Link("b", inertial=Inertial(1.0, inertia))},
    )
    with caplog.at_level(logging.WARNING):
        model, built = compile_robot(robot)
    assert any(
        n.startswith(f"link 'b': {problem}") and f"ixx = iyy = izz = {mean:g} kg·m²" in n
        for n in built.notes
    )
    assert any(
        r.levelname == "WARNING" and r.getMessage().startswith(f"link 'b': {problem}")
        for r in caplog.records
    )
    assert model.body("b").inertia == pytest.approx([mean] * 3, abs=1e-12)


@pytest.mark.parametrize(
    ("inertial", "message"),
    [
        (
            Inertial(-1.0, Inertia(0.1, 0, 0, 0.1, 0, 0.1)),
            r"link 'b': <inertial> mass -1.0 kg is negative",
        ),
        (
            Inertial(math.inf, Inertia(0.1, 0, 0, 0.1, 0, 0.1)),
            r"link 'b': <inertial> mass inf .* is not finite",
        ),
        (
            Inertial(1.0, Inertia(math.nan, 0, 0, 0.1, 0, 0.1)),
            r"link 'b': .*inertia \[nan, .* is not finite",
        ),
    ],
)
def test_invalid_mass_properties_are_errors(inertial, message) -> None:
    robot = chain_robot(
        Joint("j", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))),
        links={"b": Link("b", inertial=inertial)},
    )
    with pytest.raises(BackendError, match=message):
        build_spec(robot)


def test_zero_mass_link_gets_documented_default() -> None:
    """mass 0 (URDF: a massless frame) is not an error: the documented default (exact)."""
    robot = chain_robot(
        Joint("j", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))),
        links={"b": Link("b", inertial=Inertial(0.0, Inertia(0.1, 0, 0, 0.1, 0, 0.1)))},
    )
    model, built = compile_robot(robot)
    assert model.body("b").mass[0] == DEFAULT_MASS
    assert any("default mass" in n and n.endswith(": b") for n in built.notes)


def test_thin_rod_zero_moment_raised_to_the_floor() -> None:
    """A rod along x (ixx = 0, iyy = izz = 0.1) is a valid idealisation MuJoCo rejects: the zero
    moment becomes MIN_PRINCIPAL_INERTIA, the others stay (exact to 1e-15)."""
    rod = Inertial(1.0, Inertia(0.0, 0, 0, 0.1, 0, 0.1))
    robot = chain_robot(
        Joint("j", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))),
        links={"b": Link("b", inertial=rod)},
    )
    model, built = compile_robot(robot)
    assert sorted(model.body("b").inertia) == pytest.approx(
        [MIN_PRINCIPAL_INERTIA, 0.1, 0.1], abs=1e-15
    )
    note = "link 'b': principal inertias [0.0, 0.1, 0.1] kg·m² raised to at least 1e-12"
    assert any(note in n for n in built.notes)


def test_negligible_mass_is_a_massless_frame() -> None:
    """1e-20 kg (below MIN_MASS, which MuJoCo cannot simulate) counts as massless: the default."""
    tiny = Inertial(1e-20, Inertia(1e-20, 0, 0, 1e-20, 0, 1e-20))
    robot = chain_robot(
        Joint("j", JointType.CONTINUOUS, "a", "b", axis=Axis((0, 0, 1))),
        links={"b": Link("b", inertial=tiny)},
    )
    model, _ = compile_robot(robot)
    assert model.body("b").mass[0] == DEFAULT_MASS and MIN_MASS == 1e-12
