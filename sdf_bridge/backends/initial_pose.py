"""The initial pose of the whole robot (its base pose and joint positions): where a simulating
backend starts and where ``~/reset`` returns to.

Sources, later ones overriding earlier ones joint by joint:

1. the description: SDFormat ``initial_position``, then the ``initial_value`` of each joint's
   ``<ros2_control>`` state interfaces (:func:`~.initial_values.initial_joint_values`);
2. a named keyframe (backend parameter ``keyframe``) from a YAML file (``keyframe_file``)::

       keyframes:
         stand:
           base_pose: [0.0, 0.0, 0.30, 0.0, 0.0, 0.0]   # optional: x y z (m) roll pitch yaw (rad)
           joints: {FL_thigh_joint: 0.8, FL_calf_joint: -1.6}

   or from an SRDF's ``<group_state name="stand" group="…">`` elements (``srdf_file``; every
   group state of that name, whatever its group). A group state joint that is the SRDF's
   floating ``<virtual_joint>`` gives the base pose as ``x y z qx qy qz qw`` (MoveIt's
   variable order), a planar one as ``x y θ``.

Joints a keyframe does not name keep the description's values; a keyframe without a base pose
keeps the base where the model puts it (on a free base, raised to touch the ground at that
configuration: see the backend). A start position outside the joint's limits — a joint whose 0
is outside them and that no source names included — starts at the nearest limit, warned
(:func:`~.initial_values.clamp_into_limits`, the same for every backend).
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..description.coordinates import coordinate_joint, coordinate_names
from ..description.model import JointType, Pose, Robot
from ..description.model.pose import matrix_to_rpy, quaternion_to_matrix
from ..errors import ConfigError
from .initial_values import clamp_into_limits, initial_joint_values

_LOG = logging.getLogger(__name__)

PARAMS = ("keyframe", "keyframe_file", "srdf_file")
"""Backend parameters that select the initial pose (module docstring)."""


@dataclass(frozen=True)
class InitialPose:
    """The whole robot's initial state.

    Attributes:
        position: joint → position, rad or m (joints not named start at 0).
        velocity: joint → velocity, rad/s or m/s.
        base: pose of the root link in the world (``None``: where the model puts it).
        source: where the pose comes from, for messages (``"description"`` or
            ``"keyframe 'stand' of FILE"``).
    """

    position: Mapping[str, float] = field(default_factory=dict)
    velocity: Mapping[str, float] = field(default_factory=dict)
    base: Pose | None = None
    source: str = "description"


def initial_pose(robot: Robot, params: Mapping[str, Any]) -> InitialPose:
    """The initial pose of ``robot`` from the description and the backend ``params``
    ``keyframe``, ``keyframe_file``, ``srdf_file`` (module docstring).

    Raises:
        ConfigError: a keyframe without a file or a file without a keyframe, both files, an
            unreadable or malformed file, an unknown keyframe (the message lists the known
            ones), a joint that is not a movable joint of the robot, or a value that is not a
            finite number.
        BackendError: an ``initial_value`` of the description is not a number.
    """
    values = initial_joint_values(robot)
    position, velocity = dict(values["position"]), dict(values["velocity"])
    name = str(params.get("keyframe") or "")
    yaml_file, srdf_file = (
        str(params.get("keyframe_file") or ""),
        str(params.get("srdf_file") or ""),
    )
    base: Pose | None = None
    source = "description"
    if yaml_file and srdf_file:
        raise ConfigError(
            "backend parameters keyframe_file and srdf_file are both set. Fix: give one of them."
        )
    path = yaml_file or srdf_file
    if name and not path:
        raise ConfigError(
            f"backend parameter keyframe = {name!r} but no keyframe_file or srdf_file. "
            "Fix: give the YAML or SRDF file that defines it."
        )
    if path and not name:
        raise ConfigError(
            f"backend parameter {'keyframe_file' if yaml_file else 'srdf_file'} = {path!r} but "
            "no keyframe. Fix: set keyframe to the name of one of its keyframes (group states)."
        )
    if path:
        joints, base = (_yaml_keyframe if yaml_file else _srdf_keyframe)(robot, path, name)
        position.update(joints)
        source = f"keyframe {name!r} of {path}"
        clamp_into_limits(robot, position, source)
    return InitialPose(position, velocity, base, source)


def _movable(robot: Robot, joint: str, where: str) -> None:
    """Raise ConfigError unless ``joint`` is a movable joint of ``robot`` or an axis
    coordinate of one (``<joint>/axis2``: :mod:`sdf_bridge.description.coordinates`)."""
    found = coordinate_joint(robot, joint)
    if found is None or found.type is JointType.FIXED:
        known = sorted(
            c
            for j in robot.joints.values()
            if j.type is not JointType.FIXED
            for c in coordinate_names(j)
        )
        what = "not a joint of the robot" if found is None else "a fixed joint"
        raise ConfigError(f"{where}: joint {joint!r} is {what}. Fix: use one of {known}.")


def _number(value: Any, where: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, bool) or not math.isfinite(number):
        raise ConfigError(
            f"{where} = {value!r} is not a finite number. Fix: give a number (rad or m)."
        )
    return number


def _read(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as stream:
            return stream.read()
    except OSError as exc:
        raise ConfigError(
            f"cannot read the {what} {path!r}: {exc.strerror or exc}. Fix: check the path "
            f"(relative to {os.getcwd()!r})."
        ) from None


def _yaml_keyframe(robot: Robot, path: str, name: str) -> tuple[dict[str, float], Pose | None]:
    """Joint positions and base pose of keyframe ``name`` in the YAML file ``path``."""
    import yaml

    try:
        document = yaml.safe_load(_read(path, "keyframe file"))
    except yaml.YAMLError as exc:
        raise ConfigError(f"keyframe file {path!r} is not valid YAML: {exc}") from None
    frames = document.get("keyframes") if isinstance(document, dict) else None
    if not isinstance(frames, dict):
        raise ConfigError(
            f"keyframe file {path!r} has no 'keyframes:' mapping. Fix: write keyframes: "
            "{<name>: {joints: {<joint>: <value>}, base_pose: [x, y, z, roll, pitch, "
            "yaw]}}."
        )
    frame = frames.get(name)
    if frame is None:
        raise ConfigError(
            f"keyframe file {path!r} has no keyframe {name!r}. Fix: use one of "
            f"{sorted(map(str, frames))}."
        )
    where = f"{path}: keyframes.{name}"
    if not isinstance(frame, dict) or set(frame) - {"joints", "base_pose"}:
        raise ConfigError(
            f"{where} must be a mapping with 'joints' and optionally 'base_pose'; got {frame!r}."
        )
    joints = frame.get("joints") or {}
    if not isinstance(joints, dict):
        raise ConfigError(f"{where}.joints must map joint names to positions; got {joints!r}.")
    positions = {}
    for joint, value in joints.items():
        _movable(robot, str(joint), f"{where}.joints")
        positions[str(joint)] = _number(value, f"{where}.joints.{joint}")
    base = None
    if frame.get("base_pose") is not None:
        raw = frame["base_pose"]
        if not isinstance(raw, (list, tuple)) or len(raw) != 6:
            raise ConfigError(
                f"{where}.base_pose = {raw!r} must be [x, y, z, roll, pitch, yaw] (m, rad)."
            )
        v = [_number(x, f"{where}.base_pose") for x in raw]
        base = Pose(xyz=(v[0], v[1], v[2]), rpy=(v[3], v[4], v[5]))
    return positions, base


def _srdf_keyframe(robot: Robot, path: str, name: str) -> tuple[dict[str, float], Pose | None]:
    """Joint positions and base pose of the SRDF group states named ``name`` in ``path``."""
    from ..description.xmlio import parse_xml
    from ..errors import DescriptionError

    try:
        root = parse_xml(_read(path, "SRDF file"), path)
    except DescriptionError as exc:
        raise ConfigError(f"SRDF file {path!r} cannot be read: {exc}") from None
    virtual = {v.get("name"): (v.get("type") or "").lower() for v in root.iter("virtual_joint")}
    states = [s for s in root.iter("group_state") if s.get("name") == name]
    if not states:
        known = sorted({str(s.get("name")) for s in root.iter("group_state")})
        raise ConfigError(
            f"SRDF file {path!r} has no <group_state name={name!r}>. Fix: use one of {known}."
        )
    positions: dict[str, float] = {}
    base = None
    for state in states:
        for elem in state.iter("joint"):
            joint, where = (
                str(elem.get("name") or ""),
                f"{path}:{elem.sourceline}: <group_state name={name!r}>",
            )
            words = str(elem.get("value") or "").split()
            numbers = [_number(w, f"{where} joint {joint!r} value") for w in words]
            if joint in virtual:
                base = _virtual_pose(virtual[joint], numbers, f"{where} virtual joint {joint!r}")
                continue
            _movable(robot, joint, where)
            if len(numbers) != 1:
                raise ConfigError(
                    f"{where} joint {joint!r}: value {elem.get('value')!r} must be one number."
                )
            positions[joint] = numbers[0]
    return positions, base


def _virtual_pose(kind: str, v: list[float], where: str) -> Pose | None:
    """The base pose of an SRDF virtual joint's group-state values (``floating``: x y z qx qy
    qz qw; ``planar``: x y θ; ``fixed``: none)."""
    if kind == "floating" and len(v) == 7:
        q = np.array(v[3:])
        norm = float(np.linalg.norm(q))
        if norm == 0.0:
            raise ConfigError(
                f"{where}: quaternion (qx qy qz qw) is zero. Fix: give a unit quaternion."
            )
        q /= norm
        return Pose(xyz=(v[0], v[1], v[2]), rpy=matrix_to_rpy(quaternion_to_matrix(tuple(q))))
    if kind == "planar" and len(v) == 3:
        return Pose(xyz=(v[0], v[1], 0.0), rpy=(0.0, 0.0, v[2]))
    if kind == "fixed" and not v:
        return None
    raise ConfigError(
        f"{where} ({kind}) has {len(v)} value(s). Fix: floating x y z qx qy qz qw, planar x y θ."
    )
