"""The MuJoCo backend's parameters (``backend_params.*`` and ``<ros2_control><hardware><param>``):
their names, types and what they build (:func:`parse_options`).

Parameters (``params``; all optional, strings accepted as from ``<ros2_control><param>``; nested
mappings may also arrive flattened by ROS, e.g. ``pid_gains.<joint>.p``, ``armature.<joint>``):

=================  ==========================  ==================================================
name               default                     meaning
=================  ==========================  ==================================================
timestep           0.001                       physics step, s; ``dt`` of read must be a multiple
gravity            [0, 0, -9.81]               m/s², world frame
fixed_base         true                        weld the root link to the world (else free joint)
ground_plane       true                        infinite plane at z = 0 (not in an SDFormat world)
visual_geoms       true                        add visual geoms (for cameras)
self_collide       false                       robot geoms collide with each other
pid_gains          {}                          ``<joint>: {p, i, d, i_clamp}`` (see :mod:`.pid`)
position_mode      "pid"                       ``"pid"`` or ``"ideal"``
noise_seed         0                           seed of sensor noise (``null`` = random)
armature           {}                          ``<joint>: kg·m²`` (or one number for every joint)
base_pose          model pose                  ``[x, y, z, roll, pitch, yaw]`` of the model frame
lift_above_ground  true                        raise the root so no collision geom starts below
                                               z = 0; a free base (no base_pose) starts on the
                                               ground
render_cameras     true                        render camera sensors (off: reported once, no images)
keyframe           ""                          initial pose: a keyframe of keyframe_file or
                                               srdf_file
keyframe_file      ""                          YAML file of named keyframes (base pose, joints)
srdf_file          ""                          SRDF whose ``<group_state>`` of that name is the pose
=================  ==========================  ==================================================

Parameters that are not the backend's (a real driver's ``<hardware><param>``\\ s, a misspelt
``backend_params.*``) are ignored with one warning listing them
(:func:`~sdf_bridge.backends.parameter_names.warn_unknown`).

The initial pose (:mod:`sdf_bridge.backends.initial_pose`) is where the robot starts and where
:meth:`~.backend.MujocoBackend.reset` returns to.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any

from ...booleans import parse_bool
from ...description.model import Pose, Robot
from ...errors import ConfigError
from ..initial_pose import PARAMS as INITIAL_POSE_PARAMS
from ..parameter_names import warn_unknown
from .builder import BuildOptions

_LOG = logging.getLogger("sdf_bridge.backends.mujoco.backend")

KNOWN_PARAMS = frozenset(
    {
        "timestep",
        "gravity",
        "fixed_base",
        "ground_plane",
        "visual_geoms",
        "self_collide",
        "pid_gains",
        "position_mode",
        "noise_seed",
        "armature",
        "base_pose",
        "render_cameras",
        "lift_above_ground",
        *INITIAL_POSE_PARAMS,
    }
)


def _float(value: Any, name: str) -> float:
    try:
        result = float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"backend parameter {name} = {value!r} is not a number") from None
    if not math.isfinite(result):
        raise ConfigError(f"backend parameter {name} = {value!r} must be finite")
    return result


def _bool(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    parsed = parse_bool(value)
    if parsed is not None:
        return parsed
    raise ConfigError(f"backend parameter {name} = {value!r} is not a boolean; use true or false")


def _vector(value: Any, name: str, n: int) -> tuple[float, ...]:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    try:
        items = list(value)
    except TypeError:
        raise ConfigError(
            f"backend parameter {name} = {value!r} must be a list of {n} numbers"
        ) from None
    if len(items) != n:
        raise ConfigError(
            f"backend parameter {name} = {value!r} must have {n} numbers, has {len(items)}"
        )
    return tuple(_float(v, name) for v in items)


def parse_options(robot: Robot, params: Mapping[str, Any]) -> tuple[BuildOptions, str, int | None]:
    """Build options, position mode and noise seed from backend ``params``; one warning lists
    the parameters that are not the backend's
    (:func:`~sdf_bridge.backends.parameter_names.warn_unknown`).

    Raises:
        ConfigError: a parameter has the wrong type or value (its name in the message).
    """
    warn_unknown(_LOG, "MuJoCo backend", params, KNOWN_PARAMS, ("pid_gains.", "armature."))
    timestep = _float(params.get("timestep", 0.001), "timestep")
    if timestep <= 0.0:
        raise ConfigError(f"backend parameter timestep = {timestep} must be > 0 s")
    gravity = _vector(params.get("gravity", (0.0, 0.0, -9.81)), "gravity", 3)
    mode = str(params.get("position_mode", "pid"))
    if mode not in ("pid", "ideal"):
        raise ConfigError(f"backend parameter position_mode = {mode!r}; use 'pid' or 'ideal'")
    seed_raw = params.get("noise_seed", 0)
    seed = None if seed_raw is None or seed_raw == "" else int(_float(seed_raw, "noise_seed"))
    armature_raw = params.get("armature", {})
    if isinstance(armature_raw, Mapping):
        armature = {str(k): _float(v, f"armature.{k}") for k, v in armature_raw.items()}
        unknown = sorted(set(armature) - set(robot.joints))
        if unknown:
            raise ConfigError(f"backend parameter armature names unknown joint(s) {unknown}")
    else:
        value = _float(armature_raw, "armature")
        armature = {name: value for name in robot.joints}
    for key, value in params.items():  # flattened ROS form: armature.<joint>
        if str(key).startswith("armature."):
            joint = str(key)[len("armature.") :]
            if joint not in robot.joints:
                raise ConfigError(f"backend parameter {key} names unknown joint {joint!r}")
            armature[joint] = _float(value, str(key))
    base_pose = None
    if params.get("base_pose") is not None:
        v = _vector(params["base_pose"], "base_pose", 6)
        base_pose = Pose(xyz=v[:3], rpy=v[3:])  # type: ignore[arg-type]  # (_vector(..., 6): 3 + 3)
    options = BuildOptions(
        timestep=timestep,
        gravity=gravity,  # type: ignore[arg-type]  # (_vector(..., 3))
        fixed_base=_bool(params.get("fixed_base", True), "fixed_base"),
        ground_plane=_bool(params.get("ground_plane", True), "ground_plane"),
        visual_geoms=_bool(params.get("visual_geoms", True), "visual_geoms"),
        self_collide=_bool(params.get("self_collide", False), "self_collide"),
        armature=armature,
        base_pose=base_pose,
        lift_above_ground=_bool(params.get("lift_above_ground", True), "lift_above_ground"),
    )
    return options, mode, seed
