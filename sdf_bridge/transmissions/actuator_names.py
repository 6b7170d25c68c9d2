"""Unique actuator names: an actuator name used by two transmissions.

Robot descriptions built from macros often give every transmission the same actuator name
(ROBOTIS OMY-F3M: the arm's ``trans1`` and the RH-P12-RN gripper's ``tran_r1`` both name
``actuator1``, for the different joints ``joint1`` and ``rh_r1_joint``). The rule, applied
after every described transmission is built (:func:`unique_actuator_names`):

* The condition: two used transmissions name the same actuator. Their joints are always
  distinct (a joint driven by two transmissions that differ is refused before, exact duplicates
  are merged into one), and a transmission on a mimic follower is skipped, so the two
  transmissions drive joints that the description does not couple. The same holds for an
  actuator named like a joint that has no transmission (that joint's identity actuator).
* On a simulated robot (``simulated_robot=True``: the mock, MuJoCo) the first transmission in
  document order keeps the name, each later one's actuator is renamed
  ``<transmission>/<actuator>`` (``_2``, ``_3``, … appended while that is the name of another
  actuator or of a joint), with one warning naming both transmissions, the file and line, the
  old and the new name. An identity actuator always keeps its joint's name: the transmission's
  actuator is renamed. This is what Gazebo simulates: gazebo_ros_control's DefaultRobotHWSim
  and gz_ros2_control read a transmission's joints only and never use actuator names, so each
  joint moves on its own command.
* ROS 1's transmission_interface loader (ros_control, ``TransmissionInterfaceLoader``) has no
  rule for it: it looks actuators up by name in the robot's hardware interfaces, so both
  transmissions would get the handle of one motor: its state read by both, its command
  written by whichever transmission propagates last. That couples two joints nothing in the
  description couples (a joint pair meant to move together is a mimic pair, whose follower's
  transmission is skipped, so it never meets this rule): the shared reading is no mechanism to
  simulate, and renaming keeps Gazebo's physics.
* For real actuators (``simulated_robot=False``, a plug-in driver) it is a
  :class:`~sdf_bridge.errors.TransmissionError`: which motor the name means is for the
  description's author to say.
* One transmission naming one actuator for two of its roles is an error in every case: one
  motor cannot take two roles of one mechanism, and no renaming says which role was meant.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from sdf_bridge.errors import TransmissionError

if TYPE_CHECKING:  # pragma: no cover
    from sdf_bridge.description.model import Transmission as TransmissionSpec

    from .from_description import MappedTransmission

_LOG = logging.getLogger("sdf_bridge.transmissions.map")


def actuator_where(spec: TransmissionSpec, actuator: str) -> str:
    """``"file:line: "`` of ``spec``'s ``<actuator name=actuator>`` (else of the
    transmission; ``""`` for a transmission built in Python)."""
    for source in (*(ta.source for ta in spec.actuators if ta.name == actuator), spec.source):
        if source is not None:
            return f"{source}: "
    return ""


def _free_name(transmission: str, actuator: str, taken: set[str]) -> str:
    """``<transmission>/<actuator>``, with ``_2``, ``_3``, … appended while it is in ``taken``."""
    base = name = f"{transmission}/{actuator}"
    count = 2
    while name in taken:
        name = f"{base}_{count}"
        count += 1
    return name


def unique_actuator_names(
    entries: Sequence[MappedTransmission],
    identity: Iterable[str],
    joints: Iterable[str],
    *,
    simulated_robot: bool,
) -> tuple[list[MappedTransmission], list[str]]:
    """``entries`` with unique actuator names (the rule in the module docstring).

    Args:
        entries: every described transmission with its status, document order.
        identity: the joints that get an identity actuator of their own name.
        joints: every joint name of the robot (a new name is never one of them; a
            ``Robot.joints`` mapping gives its keys).
        simulated_robot: rename (``True``) or refuse (``False``) a shared actuator name.

    Returns:
        The entries (a renamed one has a new mechanism, the ``renamed`` pairs and the warning
        in its notes) and the warnings, one per renamed actuator (also logged).

    Raises:
        TransmissionError: with ``simulated_robot=False``, an actuator name used by two
            transmissions or by a transmission and an un-transmitted joint (message:
            file:line, both transmissions, the fix, and what simulating backends do).
    """
    identity = tuple(identity)
    mechanisms = [e.mechanism for e in entries if e.mechanism is not None]
    taken = set(identity).union(joints, (a for m in mechanisms for a in m.actuators))
    # written actuator name → (its first transmission, None for an identity actuator; joints)
    owner: dict[str, tuple[str | None, list[str]]] = {j: (None, [j]) for j in identity}
    out: list[MappedTransmission] = []
    warnings: list[str] = []
    for entry in entries:
        mech = entry.mechanism
        if mech is None:
            out.append(entry)
            continue
        spec = entry.spec
        names = list(mech.actuators)
        renamed: list[tuple[str, str]] = []
        for k, actuator in enumerate(mech.actuators):
            if actuator not in owner:
                owner[actuator] = (spec.name, list(mech.joints))
                continue
            first, first_joints = owner[actuator]
            users = (
                f"transmissions {first!r} (joints {first_joints}) and {spec.name!r} (joints "
                f"{list(mech.joints)})"
                if first is not None
                else f"the identity actuator of un-transmitted joint {actuator!r} and by "
                f"transmission {spec.name!r} (joints {list(mech.joints)})"
            )
            new = _free_name(spec.name, actuator, taken)
            where = actuator_where(spec, actuator)
            if not simulated_robot:
                raise TransmissionError(
                    f"{where}actuator {actuator!r} is used by {users}. Fix: "
                    "give each transmission its own actuator names (an un-transmitted joint "
                    "gets an actuator named like the joint). Simulating backends (mock, "
                    f"mujoco) accept it, renaming the actuator of {spec.name!r} to {new!r}, "
                    "as Gazebo drives joints and ignores actuator names; a backend of real "
                    "actuators does not, as one name cannot say which motor each joint has."
                )
            taken.add(new)
            names[k] = new
            renamed.append((actuator, new))
            msg = (
                f"{where}actuator {actuator!r} is used by {users}; renamed "
                f"{actuator!r} → {new!r} for {spec.name!r} (the other keeps it). Gazebo "
                "(gazebo_ros_control, gz_ros2_control) drives joints and ignores actuator "
                "names, so each joint moves on its own command (ROS 1's transmission loader "
                "would hand both the one actuator of that name, coupling joints the "
                "description does not couple); a backend of real actuators refuses it"
            )
            warnings.append(msg)
            _LOG.warning(msg)
        if renamed:
            entry = replace(
                entry,
                mechanism=mech.with_actuators(names),
                notes=(*entry.notes, *warnings[-len(renamed) :]),
                renamed=tuple(renamed),
            )
        out.append(entry)
    return out, warnings
