"""Whether an inertia is one a rigid body can have, and the balanced inertia used when it is not.

A rigid body's inertia tensor (kg·m², about its centre of mass) is positive semi-definite and its
principal moments ``a ≤ b ≤ c`` satisfy the triangle inequality ``a + b ≥ c``. Generated URDFs
often break either (a thin finger with ``(0.002, 0, 0)``, CAD exports with products of inertia
too large). libsdformat reports such a link as "invalid inertia" (ignition-math 6
``MassMatrix3::IsValid``: the leading minors and the principal moments non-negative and the
triangle inequality, each within ``ε = 10 · machine ε · trace / 2``); MuJoCo refuses it unless
its compiler's ``balanceinertia`` replaces the principal moments by their mean. The bridge does
what MuJoCo's ``balanceinertia`` does, for both kinds of fault: :func:`balanced_inertia` is the
isotropic inertia ``(trace / 3)·I``, which keeps the trace (the sum of the moments about three
perpendicular axes) and is valid whenever the trace is positive.
"""

from __future__ import annotations

import numpy as np

from .model import Inertia

#: ignition-math's ``IGN_MASSMATRIX3_DEFAULT_TOLERANCE``: ε = this · machine ε · trace / 2.
TOLERANCE = 10.0

DEFAULT_MASS = 1e-3
"""kg: mass simulated for URDF links without inertial (or with zero mass): URDF makes them
massless frames, which a simulator cannot move (``convert`` writes this mass too)."""
DEFAULT_INERTIA = 1e-6
"""kg·m²: principal inertia of those links (about a 1 g, 5 cm body)."""
MIN_MASS = 1e-12
"""kg: masses below this count as zero (MuJoCo rejects moving bodies lighter than 1e-15)."""


def tensor(inertia: Inertia) -> np.ndarray:
    """The symmetric (3, 3) tensor of ``inertia``, kg·m²."""
    i = inertia
    return np.array(
        [[i.ixx, i.ixy, i.ixz], [i.ixy, i.iyy, i.iyz], [i.ixz, i.iyz, i.izz]], dtype=float
    )


def principal_moments(inertia: Inertia) -> np.ndarray:
    """Eigenvalues of the tensor, ascending, shape (3,), kg·m²."""
    return np.linalg.eigvalsh(tensor(inertia))


def inertia_problem(inertia: Inertia) -> str | None:
    """Why no rigid body has ``inertia`` (the rule of ignition-math 6's ``MassMatrix3::IsValid``,
    which libsdformat applies), or ``None`` when it is valid."""
    t = tensor(inertia)
    moments = np.linalg.eigvalsh(t)
    eps = TOLERANCE * float(np.finfo(float).eps) * 0.5 * abs(float(np.trace(t)))
    shown = ", ".join(f"{m:.6g}" for m in moments)
    minors = (t[0, 0], t[0, 0] * t[1, 1] - t[0, 1] ** 2, float(np.linalg.det(t)))
    if moments[0] + eps < 0.0 or any(m + eps < 0.0 for m in minors):
        return (
            f"its principal moments ({shown}) kg·m² include a negative one: the tensor is "
            "not positive semi-definite"
        )
    a, b, c = moments
    if a + b + eps < c:
        return (
            f"its principal moments ({shown}) kg·m² break the triangle inequality "
            f"({a:.6g} + {b:.6g} < {c:.6g})"
        )
    return None


def balanced_inertia(inertia: Inertia) -> Inertia:
    """The isotropic inertia ``(trace / 3)·I`` (MuJoCo's ``balanceinertia``: each principal
    moment replaced by their mean; kg·m²)."""
    mean = float(np.trace(tensor(inertia))) / 3.0
    return Inertia(ixx=mean, iyy=mean, izz=mean)


def inertia_fix(link: str, inertia: Inertia) -> str | None:
    """What is wrong with ``link``'s ``inertia`` and what the bridge uses instead (the MuJoCo
    backend simulates it, ``convert`` writes it), or ``None`` when it is valid."""
    problem = inertia_problem(inertia)
    if problem is None:
        return None
    mean = balanced_inertia(inertia).ixx
    return (
        f"link {link!r}: {problem}, which no rigid body has (libsdformat calls it invalid, "
        "MuJoCo refuses it); the bridge uses the balanced inertia ixx = iyy = izz = "
        f"{mean:.6g} kg·m², products 0 (MuJoCo's balanceinertia: their mean). Fix: give the "
        "link's real inertia"
    )


__all__ = [
    "DEFAULT_INERTIA",
    "DEFAULT_MASS",
    "MIN_MASS",
    "TOLERANCE",
    "balanced_inertia",
    "inertia_fix",
    "inertia_problem",
    "principal_moments",
    "tensor",
]
