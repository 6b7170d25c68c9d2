"""Human-readable description of a robot's transmissions, for ``sdf-bridge check``."""

from __future__ import annotations

from typing import Any

from sdf_bridge.description.model import Robot
from sdf_bridge.errors import TransmissionError

from .map import TransmissionMap


def describe_transmissions(robot: Robot) -> list[dict[str, Any]]:
    """One dict per described transmission (document order), then one per follower.

    Keys: ``name``, ``type``, ``dialect`` (``classic``/``pr2``/``ros2_control``, or
    ``mimic``/``gearbox``/``screw`` for followers), ``joints`` (list of ``{name, role,
    reduction, offset}`` as written; ``reduction`` ``None`` when absent), ``actuators`` (list of
    ``{name, role, reduction}``; ``name`` is the one the bridge uses:
    ``<transmission>/<actuator>`` for a renamed shared name, :mod:`.actuator_names`),
    ``effective`` (the ratio actually applied, human-readable), ``notes`` (warnings,
    skip/merge reasons). Joints without a transmission are not listed (identity: actuator
    named like the joint).

    The map is read as the built-in backends use it (``simulated_robot=True``: they simulate
    the robot), so a transmission of unknown type is listed as skipped (identity), its
    ``notes`` saying what is used, and an actuator name shared by two transmissions is listed
    renamed; a driver of real actuators refuses both (a :class:`TransmissionError` at its
    start).

    Raises:
        TransmissionError: the map cannot be built (same rules as
            :meth:`TransmissionMap.from_robot`); the message starts with the file and line of
            the transmission it names when it does not already give them.
    """
    try:
        tmap = TransmissionMap.from_robot(robot, simulated_robot=True)
    except TransmissionError as exc:
        raise _located(robot, exc) from exc
    out: list[dict[str, Any]] = []
    for entry in tmap.entries:
        spec = entry.spec
        notes = list(entry.notes)
        renamed = dict(entry.renamed)
        if entry.status == "used" and entry.mechanism is not None:
            effective = entry.mechanism.effective_ratio()
        elif entry.status == "merged":
            effective = f"merged into {entry.merged_into!r}"
        else:
            effective = "skipped (identity)"
        out.append(
            {
                "name": spec.name,
                "type": spec.type,
                "dialect": spec.dialect,
                "joints": [
                    {
                        "name": j.name,
                        "role": j.role,
                        "reduction": j.mechanical_reduction,
                        "offset": j.offset,
                    }
                    for j in spec.joints
                ],
                "actuators": [
                    {
                        "name": renamed.get(a.name, a.name),
                        "role": a.role,
                        "reduction": a.mechanical_reduction,
                    }
                    for a in spec.actuators
                ],
                "effective": effective,
                "notes": notes,
            }
        )
    for f in tmap.followers_info:
        sign = "+" if f.offset >= 0 else "−"
        out.append(
            {
                "name": f.name,
                "type": f.kind,
                "dialect": f.kind,
                "joints": [
                    {
                        "name": f.name,
                        "role": "follower",
                        "reduction": f.multiplier,
                        "offset": f.offset,
                    }
                ],
                "actuators": [],
                "effective": f"{f.name} = {f.multiplier:g} × {f.leader} {sign} {abs(f.offset):g}",
                "notes": ["state only, no command interface"],
            }
        )
    return out


def _located(robot: Robot, exc: TransmissionError) -> TransmissionError:
    """``exc`` with ``file:line:`` of the transmission it names in front (``transmission
    'name'`` in the message; the first of that name), unless the message already contains that
    location or names no transmission of ``robot``."""
    message = str(exc)
    for spec in robot.transmissions:
        if spec.source is None or f"transmission {spec.name!r}" not in message:
            continue
        where = str(spec.source)
        if where in message:
            return exc
        return TransmissionError(f"{where}: {message}")
    return exc
