"""Contact friction of the robot's collision geoms from the description's ``<gazebo>``
extensions (``<gazebo reference="wheel_link"><mu1>0.9</mu1><mu2>0.9</mu2></gazebo>``).

Gazebo (ODE) uses the smaller friction coefficient of two touching surfaces, and its ground
plane has ``mu`` = 100: against the ground a link slides with its own ``mu1``/``mu2``. MuJoCo
takes the larger of two geoms' frictions unless one geom has a higher ``priority``; so the
collision geoms of a link with a ``mu1``/``mu2`` get that sliding friction and priority 1,
which makes theirs the friction against the ground (between two such links MuJoCo takes the
larger). MuJoCo's geom friction is isotropic: when ``mu1`` and ``mu2`` differ (Gazebo's
primary direction ``fdir1`` and the one across it), ``mu1`` is used in every direction, with a
warning. Links without them keep MuJoCo's default (1.0, as SDFormat's default ``mu``).
"""

from __future__ import annotations

import math

from ...description.model import Robot
from .builder import BuiltModel
from .geoms import COLLISION_GROUP

PRIORITY = 1
"""MuJoCo ``priority`` of geoms whose friction the description gives (their friction wins)."""


def _coefficient(text: str | None, where: str, built: BuiltModel) -> float | None:
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0.0:
        built.note(
            f"{where} = {text!r} is not a friction coefficient ≥ 0; MuJoCo's default 1.0 is used"
        )
        return None
    return value


def link_friction(robot: Robot, built: BuiltModel) -> dict[str, float]:
    """Link name → the sliding friction its ``<gazebo>`` ``mu1``/``mu2`` give (module doc);
    notes for differing or invalid values go to ``built``."""
    found: dict[str, float] = {}
    for extension in robot.gazebo:
        link = extension.reference
        if link is None or link not in robot.links:
            continue
        where = f"<gazebo reference={link!r}>"
        mu1 = _coefficient(extension.property("mu1"), f"{where} <mu1>", built)
        mu2 = _coefficient(extension.property("mu2"), f"{where} <mu2>", built)
        if mu1 is None and mu2 is None:
            continue
        if mu1 is not None and mu2 is not None and mu1 != mu2:
            built.note(
                f"{where}: mu1 = {mu1:g} and mu2 = {mu2:g} differ; MuJoCo's friction is isotropic, "
                f"mu1 = {mu1:g} is used in every direction"
            )
        found[link] = mu1 if mu1 is not None else mu2  # type: ignore[assignment]  # (one is not None)
    return found


def apply_friction(robot: Robot, built: BuiltModel) -> None:
    """Give the collision geoms of each link of :func:`link_friction` its sliding friction
    and priority :data:`PRIORITY` (torsional and rolling friction keep MuJoCo's defaults);
    before compiling ``built.spec``."""
    friction = link_friction(robot, built)
    if not friction:
        return
    for link, mu in friction.items():
        body = built.spec.body(built.link_body.get(link, link))
        if body is None:
            continue
        for geom in body.geoms:
            if geom.group == COLLISION_GROUP:
                geom.friction = [mu, geom.friction[1], geom.friction[2]]
                geom.priority = PRIORITY
    built.note(
        "contact friction from <gazebo> mu1/mu2: "
        + ", ".join(f"{link} {mu:g}" for link, mu in friction.items()),
        warning=False,
    )
