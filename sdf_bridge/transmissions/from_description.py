"""Building a robot's :class:`~.map.TransmissionMap` from its description (the rules are in
the :mod:`.map` module docstring): followers first (:mod:`.coupling`), then every described
transmission resolved by role and dialect (:mod:`.dialect`) and instantiated from the registry
(:mod:`.mechanism_registry`), then an identity actuator for every other driven joint.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sdf_bridge.description.contain import driver_skips, refused_skips
from sdf_bridge.description.coordinates import (
    MULTI_AXIS_TYPES,
    coordinate_names,
    find_coordinate,
)
from sdf_bridge.description.model import JointType, Robot
from sdf_bridge.description.model import Transmission as TransmissionSpec
from sdf_bridge.errors import TransmissionError

from . import mechanism_registry
from .actuator_names import actuator_where as _source
from .actuator_names import unique_actuator_names
from .base import Transmission
from .coupling import ONE_DOF
from .dialect import resolve
from .exposure import joint_roles
from .simple import SimpleTransmission

if TYPE_CHECKING:  # pragma: no cover
    from .map import TransmissionMap

_LOG = logging.getLogger("sdf_bridge.transmissions.map")


class IdentityTransmission(SimpleTransmission):
    """A joint without a transmission: an actuator of the same name, ratio 1, offset 0."""

    type_name = "identity"


@dataclass(frozen=True)
class MappedTransmission:
    """A described transmission and what became of it (for reports).

    ``mechanism`` is ``None`` when it was skipped or merged; ``status`` is ``"used"``,
    ``"merged"`` (duplicate of ``merged_into``) or ``"skipped"``; ``notes`` explain;
    ``renamed``: ``(written, used)`` actuator names the bridge changed to make them unique
    (:mod:`.actuator_names`).
    """

    spec: TransmissionSpec
    mechanism: Transmission | None
    status: str
    notes: tuple[str, ...] = ()
    merged_into: str | None = None
    renamed: tuple[tuple[str, str], ...] = ()


def _where(spec: TransmissionSpec) -> str:
    return f" ({spec.source})" if spec.source is not None else ""


def _must_drive(robot: Robot, driven: Sequence[str]) -> set[str]:
    commanded = {j.name for hw in robot.ros2_control for j in hw.joints if j.command_interfaces}
    listed = {j.name for hw in robot.ros2_control for j in hw.joints}
    return commanded if listed else set(driven)


def _unknown_type_skipped(spec: TransmissionSpec, types: dict[str, type[Transmission]]) -> str:
    """The warning for a transmission of unknown type skipped on a simulated robot (``types``:
    the known ones, for a likely misspelling)."""
    joints = [tj.name for tj in spec.joints]
    actuators = [ta.name for ta in spec.actuators]
    return (
        f"transmission {spec.name!r}{_where(spec)} has unknown type {spec.type!r}"
        f"{mechanism_registry.did_you_mean(spec.type, types)}; skipped: "
        f"its joints {joints} are driven directly in joint space as gazebo_ros_control does; "
        f"its actuators {actuators} are not modelled (identity actuators named like the "
        "joints; a backend driving real actuators refuses it). For its real math, install a "
        f"plug-in type registered under {spec.type!r} in the "
        f"{mechanism_registry.ENTRY_POINT_GROUP!r} "
        "entry-point group (doc/user/extending.md)"
    )


def _unknown_type_refused(spec: TransmissionSpec, exc: TransmissionError) -> TransmissionError:
    """The error for a transmission of unknown type on a commanded joint of real actuators:
    the registry's message (``exc``) with the source and what simulating backends do."""
    where = f"{spec.source}: " if spec.source is not None else ""
    return TransmissionError(
        f"{where}{exc} Simulating backends (mock, mujoco) accept it, driving its joints "
        "directly in joint space as gazebo_ros_control does; a backend of real actuators "
        "does not, as identity actuators would send joint positions to the wrong motors."
    )


#: What a transmission skipped for a simulated robot is told (the end of its warning and note).
UNBUILT_SKIPPED = (
    "Skipped: a simulated robot runs without it (its joints driven directly); a real "
    "actuator's driver refuses it."
)


def build_map(
    cls: type[TransmissionMap],
    robot: Robot,
    *,
    simulated_robot: bool = False,
) -> TransmissionMap:
    """The map (of class ``cls``) of ``robot``: see :meth:`TransmissionMap.from_robot
    <sdf_bridge.transmissions.TransmissionMap.from_robot>` (``simulated_robot``: an unknown
    type on a commanded joint is skipped with a warning, an actuator name two transmissions
    use is renamed for the later one with a warning (:mod:`.actuator_names`); neither is
    refused). For a simulated robot a transmission that cannot be built (a missing or doubled
    actuator, a joint a differing earlier transmission drives, …) is skipped with a warning,
    its joints driven directly, as gazebo_ros_control runs without it (DESIGN.md, "Contain per
    element"); a real actuator's map refuses it, and refuses what the description layer
    skipped (:func:`~sdf_bridge.description.contain.driver_skips`). One pass over the
    transmissions: time and memory linear in their number.

    Raises:
        TransmissionError: see the :mod:`.map` module docstring.
        TypeError: ``robot`` is not a :class:`Robot` (e.g. an SDF ``World``).
    """
    if not isinstance(robot, Robot):
        models = list(getattr(robot, "models", {}))
        raise TypeError(
            f"TransmissionMap.from_robot needs a Robot, got {type(robot).__name__}"
            + (
                f" with models {models}. Fix: pass one of them, e.g. world.models[{models[0]!r}]"
                if models
                else ""
            )
        )
    if not simulated_robot and driver_skips(robot):  # (real actuators: nothing left out)
        raise TransmissionError(refused_skips(robot))
    roles = joint_roles(robot)  # followers, loop-closing joints (not simulated)
    warnings = list(roles.warnings)
    follower_set = set(roles.follower_joints)
    skip = roles.not_driven
    # one coordinate per 1-DOF joint, one per axis of a multi-axis joint (coordinates module)
    driven = [
        name
        for j in robot.joints.values()
        if (j.type in ONE_DOF or j.type in MULTI_AXIS_TYPES or j.type is JointType.GEARBOX)
        and j.name not in skip  # (a gearbox not coupled is a plain hinge: coupling module)
        for name in coordinate_names(j)
    ]
    driven_set = set(driven)
    must = _must_drive(robot, driven)
    entries: list[MappedTransmission] = []
    by_joint: dict[str, tuple[tuple, Transmission]] = {}
    types = mechanism_registry.available_types() if robot.transmissions else {}

    def one(spec: TransmissionSpec) -> None:
        """Append ``spec``'s entry (used, merged or skipped) to ``entries``.

        Raises:
            TransmissionError: ``spec`` cannot be built (contained below for a simulated
                robot).
        """
        reason = mechanism_registry.non_mechanism_reason(spec.type)
        if reason is not None:
            msg = f"transmission {spec.name!r} ({spec.type}) skipped: {reason}"
            warnings.append(msg)
            _LOG.warning(msg)
            entries.append(MappedTransmission(spec, None, "skipped", (reason,)))
            return
        for tj in spec.joints:
            coord = find_coordinate(robot, tj.name)
            joint = robot.joints.get(tj.name)
            if coord is not None and tj.name in driven_set:
                continue  # a 1-DOF joint or one axis of a multi-axis joint
            if joint is not None and joint.type in MULTI_AXIS_TYPES:
                axes = list(coordinate_names(joint))
                raise TransmissionError(
                    f"transmission {spec.name!r}{_where(spec)} names {joint.type} joint "
                    f"{tj.name!r}, which has {len(axes)} axes; a transmission drives one. "
                    f"Fix: name one of its axes, {axes}."
                )
            if joint is None:
                raise TransmissionError(
                    f"transmission {spec.name!r}{_where(spec)} names joint {tj.name!r}, "
                    "which does not exist. Fix: correct the joint name (check the xacro "
                    "prefix)."
                )
            if joint.type is JointType.FIXED:
                raise TransmissionError(
                    f"transmission {spec.name!r}{_where(spec)} drives fixed joint "
                    f"{tj.name!r}. Fix: remove the transmission or make the joint movable."
                )
            if joint.type not in ONE_DOF and tj.name not in follower_set:
                raise TransmissionError(
                    f"transmission {spec.name!r}{_where(spec)} drives {joint.type} joint "
                    f"{tj.name!r}; only 1-DOF joints can be driven. Fix: remove it."
                )
        on_followers = [tj.name for tj in spec.joints if tj.name in follower_set]
        if on_followers:
            msg = (
                f"transmission {spec.name!r} drives mimic/gearbox follower(s) "
                f"{on_followers}; skipped (the coupling decides their state)"
            )
            warnings.append(msg)
            _LOG.warning(msg)
            entries.append(MappedTransmission(spec, None, "skipped", (msg,)))
            return
        try:
            mech_cls = mechanism_registry.lookup(spec.type, spec.name, types)
        except TransmissionError as exc:
            if simulated_robot:
                msg = _unknown_type_skipped(spec, types)
            elif any(tj.name in must for tj in spec.joints):
                raise _unknown_type_refused(spec, exc) from exc
            else:
                msg = (
                    f"transmission {spec.name!r} has unknown type {spec.type!r} and drives no "
                    "commanded joint; skipped, its joints get identity actuators"
                )
            warnings.append(msg)
            _LOG.warning(msg)
            entries.append(MappedTransmission(spec, None, "skipped", (msg,)))
            return
        res = resolve(spec, mech_cls)
        mech = mech_cls(
            spec.name,
            res.joints,
            res.actuators,
            res.joint_reductions,
            res.actuator_reductions,
            res.joint_offsets,
        )
        key = (
            mech_cls,
            tuple(mech.joints),
            tuple(mech.actuators),
            mech.joint_reductions,
            mech.actuator_reductions,
            mech.joint_offsets,
        )
        first = by_joint.get(mech.joints[0])
        if first is not None and first[0] == key:
            note = f"duplicate of {first[1].name!r} apart from its interface; merged"
            _LOG.info("transmission %r: %s", spec.name, note)
            entries.append(
                MappedTransmission(spec, None, "merged", (note,), merged_into=first[1].name)
            )
            return
        for j in mech.joints:
            if j in by_joint:
                raise TransmissionError(
                    f"joint {j!r} is driven by two transmissions, {by_joint[j][1].name!r} "
                    f"and {spec.name!r}{_where(spec)}, which differ. Fix: remove one of "
                    "them (or make them identical apart from the hardware interface)."
                )
        doubled = sorted({a for a in mech.actuators if mech.actuators.count(a) > 1})
        if doubled:
            raise TransmissionError(
                f"{_source(spec, doubled[0])}transmission {spec.name!r} names actuator "
                f"{doubled[0]!r} for two roles. Fix: give each role its own actuator."
            )
        for j in mech.joints:
            by_joint[j] = (key, mech)
        entries.append(MappedTransmission(spec, mech, "used", tuple(res.notes)))

    for spec in robot.transmissions:
        try:
            one(spec)
        except TransmissionError as exc:
            if not simulated_robot:
                raise
            where = (
                f"{spec.source}: "
                if spec.source is not None and str(spec.source) not in str(exc)
                else ""
            )
            msg = f"{where}{exc} {UNBUILT_SKIPPED}"
            warnings.append(msg)
            _LOG.warning(msg)
            entries.append(MappedTransmission(spec, None, "skipped", (msg,)))
    identity = [name for name in driven if name not in by_joint]
    entries, renaming = unique_actuator_names(
        entries, identity, robot.joints, simulated_robot=simulated_robot
    )
    warnings.extend(renaming)
    mechanisms = [e.mechanism for e in entries if e.mechanism is not None]
    mechanisms.extend(IdentityTransmission(name, [name], [name]) for name in identity)
    return cls(driven, mechanisms, roles.followers, entries=entries, warnings=warnings, roles=roles)
