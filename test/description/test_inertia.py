"""Tests of sdf_bridge.description.inertia: libsdformat's validity rule and the balanced inertia."""

from __future__ import annotations

import numpy as np
import pytest

from sdf_bridge.description.inertia import (
    balanced_inertia,
    inertia_fix,
    inertia_problem,
    principal_moments,
)
from sdf_bridge.description.model import Inertia


@pytest.mark.parametrize(
    "inertia",
    [
        Inertia(ixx=1.0, iyy=1.0, izz=1.0),
        Inertia(ixx=1.0, iyy=1.0, izz=2.0),  # a thin plate: on the boundary
        Inertia(),  # a point mass
        Inertia(ixx=2.0, iyy=2.0, izz=2.0, ixy=0.5),  # products within the definite range
    ],
)
def test_valid_inertias_have_no_problem(inertia: Inertia) -> None:
    assert inertia_problem(inertia) is None and inertia_fix("l", inertia) is None


def test_triangle_inequality_is_checked_on_the_principal_moments() -> None:
    """The diagonal (1, 1, 1) satisfies it; a product ixy turns the principal moments to (1 − ixy,
    1, 1 + ixy)."""
    inertia = Inertia(ixx=1.0, iyy=1.0, izz=1.0, ixy=0.4)
    np.testing.assert_allclose(principal_moments(inertia), [0.6, 1.0, 1.4], rtol=0, atol=1e-12)
    assert inertia_problem(inertia) is None  # 0.6 + 1 ≥ 1.4
    inertia = Inertia(ixx=1.0, iyy=1.0, izz=1.0, ixy=0.6)  # (0.4, 1, 1.6): 1.4 < 1.6
    assert inertia_problem(inertia) == (
        "its principal moments (0.4, 1, 1.6) kg·m² break the triangle inequality (0.4 + 1 < 1.6)"
    )


def test_not_positive_semi_definite() -> None:
    inertia = Inertia(ixx=1.0, iyy=1.0, izz=1.0, ixy=2.0)  # principal moments (-1, 1, 3)
    assert inertia_problem(inertia) == (
        "its principal moments (-1, 1, 3) kg·m² include a negative one: the tensor "
        "is not positive semi-definite"
    )


def test_the_tolerance_is_ignition_maths() -> None:
    """ε = 10 · machine ε · trace / 2: a violation of 1e-15 relative passes, 1e-12 does not."""
    assert inertia_problem(Inertia(ixx=1.0, iyy=1.0, izz=2.0 + 1e-15)) is None
    assert inertia_problem(Inertia(ixx=1.0, iyy=1.0, izz=2.0 + 1e-12)) is not None


def test_balanced_inertia_is_the_mean_moment_isotropic() -> None:
    assert balanced_inertia(Inertia(ixx=0.002, iyy=0.0, izz=0.0)) == Inertia(
        ixx=0.002 / 3, iyy=0.002 / 3, izz=0.002 / 3
    )
    balanced = balanced_inertia(Inertia(ixx=1.0, iyy=1.0, izz=1.0, ixy=2.0))
    assert balanced == Inertia(ixx=1.0, iyy=1.0, izz=1.0) and inertia_problem(balanced) is None


def test_inertia_fix_names_the_link_and_the_values_used() -> None:
    assert inertia_fix("finger", Inertia(ixx=0.002)) == (
        "link 'finger': its principal moments (0, 0, 0.002) kg·m² break the triangle inequality "
        "(0 + 0 < 0.002), which no rigid body has (libsdformat calls it invalid, MuJoCo "
        "refuses it); the bridge uses the balanced inertia ixx = iyy = izz = 0.000666667 "
        "kg·m², products 0 (MuJoCo's balanceinertia: their mean). Fix: give the link's real "
        "inertia"
    )
