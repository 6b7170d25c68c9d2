"""Bounds on finite values that no simulator or driver can use: a typo such as ``1e308`` for a
mimic multiplier parses as a number (urdfdom and libsdformat accept any double), and then the
follower is published at 5e307 rad or MuJoCo resets in a loop.

The description is refused (:class:`~sdf_bridge.errors.InvalidValueError` at the element, with
the fix) when one of these is beyond its bound:

===========================================  ===================================  ==============
value                                        bound                                unit
===========================================  ===================================  ==============
``<mimic multiplier>``, SDF gearbox ratio    ``|value| ≤ 1e6``                    1
``<mimic offset>``                           ``|value| ≤ 1e6``                    rad or m
transmission mechanical reduction            ``1e-6 ≤ |value| ≤ 1e6``             1
transmission joint offset                    ``|value| ≤ 1e6``                    rad or m
SDF screw thread pitch                       ``|value| ≤ 1e6``                    m/rev or rad/m
link ``<mass>``                              ≤ 1e6                                kg
===========================================  ===================================  ==============

A million is beyond any real robot (a 1,000-tonne link, a gear of 10⁶:1) while leaving every
plausible value through; each bound keeps the products the bridge computes with the value
(leader × multiplier, actuator / reduction, joint torques of a mass) far from overflow. Values
for which a huge magnitude simply means "not limited" (position, velocity and effort limits) are
not bounded here.
"""

from __future__ import annotations

import math
import re

from ..errors import InvalidValueError
from .model import Robot, Source
from .xmlio import ParseContext

MAX_MAGNITUDE = 1e6
"""Largest accepted magnitude of the bounded values (module table)."""
MIN_REDUCTION = 1e-6
"""Smallest accepted magnitude of a mechanical reduction (actuator = reduction · joint)."""


def short_number(value: float) -> str:
    """``%g`` without the exponent's ``+`` and leading zeros: ``1e6``, ``-1e308``, ``0.5``."""
    return re.sub(r"e\+?(-?)0*(\d)", r"e\1\2", f"{value:g}")


def _refuse(
    ctx: ParseContext,
    source: Source | None,
    element: str,
    what: str,
    value: float,
    bound: str,
    fix: str,
) -> InvalidValueError:
    return InvalidValueError(
        f"{what} is {short_number(value)}, beyond the bound {bound} (a value no simulator or "
        "driver can use)",
        file=source.file if source is not None and source.file is not None else ctx.file,
        line=None if source is None else source.line,
        element=element,
        fix=fix,
    )


def _too_big(value: float | None) -> bool:
    return value is not None and math.isfinite(value) and abs(value) > MAX_MAGNITUDE


def check_magnitudes(robot: Robot, ctx: ParseContext) -> None:
    """Refuse the values of the module table that are beyond their bounds.

    Raises:
        InvalidValueError: the first such value, at its element.
    """
    limit = short_number(MAX_MAGNITUDE)
    bound = f"±{limit}"
    for joint in robot.joints.values():
        element = f'<joint name="{joint.name}">'
        mimic = joint.mimic
        if mimic is not None:
            for attr, unit in (("multiplier", ""), ("offset", " rad or m")):
                value = getattr(mimic, attr)
                if _too_big(value):
                    raise _refuse(
                        ctx,
                        joint.source,
                        element,
                        f"the mimic {attr} of joint {joint.name!r}",
                        value,
                        bound + unit,
                        f"give the real {attr} (|{attr}| ≤ {limit}) in <mimic>",
                    )
        for what, value in (
            ("gearbox ratio", joint.gearbox_ratio),
            ("thread pitch", joint.thread_pitch),
        ):
            if _too_big(value):
                raise _refuse(
                    ctx,
                    joint.source,
                    element,
                    f"the {what} of joint {joint.name!r}",
                    value,
                    bound,
                    f"give the real {what} (|value| ≤ {limit})",
                )
    for link in robot.links.values():
        inertial = link.inertial
        if inertial is not None and math.isfinite(inertial.mass) and inertial.mass > MAX_MAGNITUDE:
            raise _refuse(
                ctx,
                inertial.source or link.source,
                f'<link name="{link.name}">',
                f"the mass of link {link.name!r}",
                inertial.mass,
                f"{limit} kg",
                f"give the link's real mass in kg (≤ {limit})",
            )
    for transmission in robot.transmissions:
        element = f'<transmission name="{transmission.name}">'
        entries = [
            (f"joint {j.name!r}", j.mechanical_reduction, j.offset, j.source)
            for j in transmission.joints
        ]
        entries += [
            (f"actuator {a.name!r}", a.mechanical_reduction, None, a.source)
            for a in transmission.actuators
        ]
        for who, reduction, offset, source in entries:
            where = source or transmission.source
            if (
                reduction is not None
                and math.isfinite(reduction)
                and not (MIN_REDUCTION <= abs(reduction) <= MAX_MAGNITUDE)
            ):
                raise _refuse(
                    ctx,
                    where,
                    element,
                    f"the mechanical reduction of {who}",
                    reduction,
                    f"{short_number(MIN_REDUCTION)} ≤ |reduction| ≤ {limit}",
                    "give the real ratio (actuator turns per joint turn)",
                )
            if _too_big(offset):
                raise _refuse(
                    ctx,
                    where,
                    element,
                    f"the offset of {who}",
                    offset,
                    bound + " rad or m",
                    f"give the real offset (|offset| ≤ {limit})",
                )
