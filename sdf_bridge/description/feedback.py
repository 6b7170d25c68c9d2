"""Which joints ask for their transmitted wrench (Gazebo's ``Joint::GetForceTorque``).

A joint asks for it with SDFormat's ``<joint><physics><provide_feedback>true</provide_feedback>
</physics></joint>`` (:attr:`Joint.provide_feedback <sdf_bridge.description.model.Joint>`) or,
in a URDF, Gazebo's ``<gazebo reference="JOINT"><provideFeedback>true</provideFeedback></gazebo>``
(also ``<provide_feedback>``, the SDFormat element Gazebo copies through); the last extension
naming the joint wins, as the URDF→SDFormat converter keeps the last value. The node's
``joint_feedback`` parameter adds joints (:func:`with_feedback`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..booleans import WORDS, parse_bool
from ..errors import ConfigError, InvalidValueError
from .model import Robot, frozen_mapping

FEEDBACK_TAGS = ("provideFeedback", "provide_feedback")
"""The ``<gazebo reference>`` properties that ask for a joint's wrench."""


def feedback_joints(robot: Robot) -> tuple[str, ...]:
    """The names of ``robot``'s joints that ask for wrench feedback, in joint order.

    Raises:
        InvalidValueError: a ``<gazebo reference="JOINT">`` feedback property whose text is not
            a boolean (naming the file, line and element).
    """
    wanted = {name: joint.provide_feedback for name, joint in robot.joints.items()}
    for ext in robot.gazebo:
        if ext.reference not in wanted:
            continue
        for tag, text in ext.properties:
            if tag not in FEEDBACK_TAGS:
                continue
            value = parse_bool(text)
            if value is None:
                src = ext.source
                raise InvalidValueError(
                    f"<{tag}> is {text!r}, not a boolean",
                    file=src.file if src else None,
                    line=src.line if src else None,
                    element=f'<gazebo reference="{ext.reference}">',
                    fix=f"write one of {WORDS}",
                )
            wanted[ext.reference] = value
    return tuple(name for name, on in wanted.items() if on)


READING_PREFIX = "joint_wrench/"
"""A joint's wrench reading is named ``joint_wrench/<joint>`` among the sensor readings of a
backend's read, and published on ``~/joint_wrench/<joint>``."""


def reading_name(joint: str) -> str:
    """The reading (and topic, under the node's namespace) name of ``joint``'s wrench."""
    return READING_PREFIX + joint


def with_feedback(robot: Robot, joints: Iterable[str]) -> Robot:
    """``robot`` with ``joints`` asking for feedback too (the node's ``joint_feedback``
    parameter: :attr:`Joint.provide_feedback <sdf_bridge.description.model.Joint>` set); the
    robot itself when ``joints`` is empty.

    Raises:
        ConfigError: a name that is not a joint of ``robot``.
    """
    names = tuple(joints)
    if not names:
        return robot
    unknown = sorted(set(names) - set(robot.joints))
    if unknown:
        raise ConfigError(
            f"joint_feedback names unknown joint(s) {unknown}. Fix: use names from "
            f"{sorted(robot.joints)}."
        )
    updated = dict(robot.joints)
    for name in names:
        updated[name] = replace(updated[name], provide_feedback=True)
    return replace(robot, joints=frozen_mapping(updated))
