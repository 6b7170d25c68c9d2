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

from ..errors import ConfigError
from ..util.booleans import WORDS, parse_bool
from .model import Robot, frozen_mapping

FEEDBACK_TAGS = ("provideFeedback", "provide_feedback")
"""The ``<gazebo reference>`` properties that ask for a joint's wrench."""


def feedback_joints(robot: Robot) -> tuple[str, ...]:
    """The names of ``robot``'s joints that ask for wrench feedback, in joint order. A
    ``<gazebo reference="JOINT">`` feedback property whose text is not a boolean asks for
    nothing (urdfdom ignores ``<gazebo>``; :func:`feedback_skips` gives its warning)."""
    return _read(robot)[0]


def feedback_skips(robot: Robot) -> tuple[str, ...]:
    """One warning per ``<gazebo reference="JOINT">`` feedback property left out because its text
    is not a boolean (``file:line: <gazebo reference="J">: <provideFeedback> is 'x', not a
    boolean; skipped. Fix: …``)."""
    return _read(robot)[1]


def _read(robot: Robot) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(:func:`feedback_joints`, :func:`feedback_skips`) of ``robot``."""
    wanted = {name: joint.provide_feedback for name, joint in robot.joints.items()}
    skips: list[str] = []
    for ext in robot.gazebo:
        if ext.reference not in wanted:
            continue
        for tag, text in ext.properties:
            if tag not in FEEDBACK_TAGS:
                continue
            value = parse_bool(text)
            if value is None:
                src = ext.source
                where = f"{src.file}:{src.line}: " if src and src.line else ""
                skips.append(
                    f'{where}<gazebo reference="{ext.reference}">: <{tag}> is {text!r}, not a '
                    f"boolean; skipped (no wrench feedback from it). Fix: write one of {WORDS}"
                )
                continue
            wanted[ext.reference] = value
    return tuple(name for name, on in wanted.items() if on), tuple(skips)


READING_PREFIX = "joint_wrench/"
"""A joint's wrench reading is named ``joint_wrench/<joint>`` among the sensor readings of a
backend's read, and published on ``~/joint_wrench/<joint>`` (the joint's name made a ROS name
token: :func:`sdf_bridge.app.topic_names.joint_wrench_topics`)."""


def reading_name(joint: str) -> str:
    """The reading name of ``joint``'s wrench (its topic:
    :func:`sdf_bridge.app.topic_names.joint_wrench_topics`)."""
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
