"""Link mass properties → MuJoCo body mass, centre of mass and inertia, with their defaults.

* Links without ``<inertial>`` (or with zero mass, < :data:`MIN_MASS`) get :data:`DEFAULT_MASS` kg
  and :data:`DEFAULT_INERTIA` kg·m² on each principal axis at the link origin (URDF: such links are
  massless frames, which MuJoCo cannot move); SDFormat links without ``<inertial>`` get the SDFormat
  default, 1 kg and 1 kg·m² (:data:`SDF_DEFAULT_MASS`, :data:`SDF_DEFAULT_INERTIA`).
* Inertias no rigid body has (not positive semi-definite, or breaking the triangle inequality
  A + B ≥ C; common in generated URDFs) are balanced as MuJoCo's ``balanceinertia`` does (each
  principal moment their mean: :mod:`sdf_bridge.description.inertia`), with a warning naming
  the link; zero principal moments (a thin rod) are raised to :data:`MIN_PRINCIPAL_INERTIA`.
  Non-finite mass or inertia, or a negative mass, is a :class:`~sdf_bridge.errors.BackendError`
  naming the link (no default can guess it).

:func:`set_inertial` sets one body; :func:`note_defaulted` notes, once per model, the links that
got a default. Both are called by :func:`.builder.build_spec`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import mujoco
import numpy as np

from ...description.inertia import (
    DEFAULT_INERTIA,
    DEFAULT_MASS,
    MIN_MASS,
    balanced_inertia,
    inertia_fix,
)
from ...description.inertia import tensor as inertia_tensor
from ...description.model import Link
from ...errors import BackendError

if TYPE_CHECKING:  # pragma: no cover
    from .builder import BuiltModel

MIN_PRINCIPAL_INERTIA = 1e-12
"""kg·m²: floor of each principal moment (a thin rod's zero moment about its axis), as MuJoCo
requires positive ones (> 1e-15)."""
SDF_DEFAULT_MASS = 1.0
"""kg: SDFormat's default ``<inertial><mass>``."""
SDF_DEFAULT_INERTIA = 1.0
"""kg·m²: SDFormat's default ``ixx``, ``iyy``, ``izz``."""


def _where(link: Link) -> str:
    """`` (file:line)`` of the link's ``<inertial>`` (or the link) when known, else ``""``."""
    source = (link.inertial.source if link.inertial is not None else None) or link.source
    return f" ({source})" if source is not None else ""


def _inertia_tensor(link: Link, built: BuiltModel) -> np.ndarray:
    """The link's inertia tensor (3, 3), kg·m², in its inertial frame: as written, or balanced
    (:func:`~sdf_bridge.description.inertia.balanced_inertia`, noted naming the link) when no
    rigid body has it (not positive semi-definite, or breaking the triangle inequality).

    Raises:
        BackendError: mass or inertia not finite, or mass negative.
    """
    inertial = link.inertial
    assert inertial is not None
    i = inertial.inertia
    values = (inertial.mass, i.ixx, i.ixy, i.ixz, i.iyy, i.iyz, i.izz)
    if not all(math.isfinite(v) for v in values):
        raise BackendError(
            f"link {link.name!r}{_where(link)}: <inertial> mass {inertial.mass} or inertia "
            f"{[i.ixx, i.ixy, i.ixz, i.iyy, i.iyz, i.izz]} is not finite; give finite "
            "numbers (kg, kg·m²)"
        )
    if inertial.mass < 0.0:
        raise BackendError(
            f"link {link.name!r}{_where(link)}: <inertial> mass {inertial.mass} kg is negative; "
            "give a mass ≥ 0"
        )
    fix = inertia_fix(link.name, i)
    if fix is not None:
        built.note(fix + _where(link))
        i = balanced_inertia(i)
    return inertia_tensor(i)


def set_inertial(
    body: mujoco.MjsBody,
    link: Link,
    built: BuiltModel,
    defaulted: list[str],
    sdf_defaulted: list[str],
    sdf: bool,
) -> None:
    """Set ``body``'s mass (kg), centre of mass and full inertia (kg·m², link frame) from ``link``.

    Missing ``<inertial>``: SDFormat default (``sdf``) or :data:`DEFAULT_MASS` /
    :data:`DEFAULT_INERTIA` (names appended to ``sdf_defaulted`` / ``defaulted`` for one note:
    :func:`note_defaulted`).
    Zero mass (< :data:`MIN_MASS`) gets the same default (MuJoCo cannot move massless bodies);
    mass with an all-zero tensor gets :data:`DEFAULT_INERTIA`, principal moments below
    :data:`MIN_PRINCIPAL_INERTIA` are raised to it (both noted).

    Raises:
        BackendError: invalid mass properties (see ``_inertia_tensor``).
    """
    inertial = link.inertial
    if inertial is None and sdf:
        sdf_defaulted.append(link.name)
        body.mass = SDF_DEFAULT_MASS
        body.ipos = [0.0, 0.0, 0.0]
        body.inertia = [SDF_DEFAULT_INERTIA] * 3
        return
    tensor = _inertia_tensor(link, built) if inertial is not None else None
    if inertial is None or tensor is None or inertial.mass < MIN_MASS:  # massless frame
        defaulted.append(link.name)
        body.mass = DEFAULT_MASS
        body.ipos = [0.0, 0.0, 0.0]
        body.inertia = [DEFAULT_INERTIA] * 3
        return
    body.mass = inertial.mass
    body.ipos = list(inertial.origin.xyz)
    if not tensor.any():
        built.note(
            f"link {link.name!r} has mass but zero inertia; using {DEFAULT_INERTIA} kg·m²",
            warning=False,
        )
        tensor = np.eye(3) * DEFAULT_INERTIA
    moments, axes = np.linalg.eigh(tensor)
    if moments[0] < MIN_PRINCIPAL_INERTIA:
        built.note(
            f"link {link.name!r}: principal inertias {moments.round(12).tolist()} kg·m² raised "
            f"to at least {MIN_PRINCIPAL_INERTIA} (MuJoCo needs positive ones)",
            warning=False,
        )
        moments = np.maximum(moments, MIN_PRINCIPAL_INERTIA)
        tensor = axes @ np.diag(moments) @ axes.T
    # MuJoCo diagonalises fullinertia in the body frame (ignoring iquat): express the tensor,
    # given in the inertial frame, in the link frame first: I_link = R · I · Rᵀ
    rot = inertial.origin.rotation
    t = rot @ tensor @ rot.T
    body.fullinertia = [t[0, 0], t[1, 1], t[2, 2], t[0, 1], t[0, 2], t[1, 2]]


def note_defaulted(built: BuiltModel, defaulted: list[str], sdf_defaulted: list[str]) -> None:
    """Note once per model the links :func:`set_inertial` gave a default: ``defaulted`` (no
    ``<inertial>`` or no mass: :data:`DEFAULT_MASS`, :data:`DEFAULT_INERTIA`) and
    ``sdf_defaulted`` (SDFormat links without ``<inertial>``: SDFormat's default)."""
    if defaulted:
        built.note(
            f"{len(defaulted)} link(s) without inertial (or mass) get the default mass "
            f"{DEFAULT_MASS} kg and inertia {DEFAULT_INERTIA} kg·m²: {', '.join(defaulted)}",
            warning=False,
        )
    if sdf_defaulted:
        built.note(
            f"{len(sdf_defaulted)} SDFormat link(s) without <inertial> get SDFormat's default "
            f"mass {SDF_DEFAULT_MASS} kg and inertia {SDF_DEFAULT_INERTIA} kg·m²: "
            f"{', '.join(sdf_defaulted)}",
            warning=False,
        )
