"""The MuJoCo backend's parameters (``backend_params.*`` and ``<ros2_control><hardware><param>``):
their names, types and what they build (:func:`~.options.parse_options`).

Parameters (``params``; all optional, strings accepted as from ``<ros2_control><param>``; nested
mappings may also arrive flattened by ROS, e.g. ``pid_gains.<joint>.p``, ``armature.<joint>``):

=================  ==========================  ==================================================
name               default                     meaning
=================  ==========================  ==================================================
timestep           0.001                       physics step, s, ≥ 1e-6; ``dt`` of read must be a
                                               multiple
gravity            the world's, else           m/s², world frame; each component within ±1e6
                   [0, 0, -9.81]               (see below)
fixed_base         true                        weld the root link to the world (else free joint)
ground_plane       true                        infinite plane at z = 0 (not in an SDFormat world)
visual_geoms       true                        add visual geoms (for cameras)
self_collide       false                       robot geoms collide with each other
pid_gains          {}                          ``<joint>: {p, i, d, i_clamp}``, each ≥ 0; p, i, d
                                               ≤ 1e6 (see :mod:`.pid`)
position_mode      "pid"                       ``"pid"`` or ``"ideal"``
noise_seed         0                           seed of sensor noise, a whole number ≥ 0 (``null``
                                               = random)
armature           {}                          ``<joint>: kg·m²`` (kg for a prismatic joint), 0 to
                                               1e6 (or one number for every joint)
base_pose          model pose                  ``[x, y, z, roll, pitch, yaw]`` of the model frame,
                                               m and rad, each within ±1e6
lift_above_ground  true                        raise the root so no collision geom starts below
                                               z = 0; a free base (no base_pose) starts on the
                                               ground
render_cameras     true                        render camera sensors (off: reported once, no images)
keyframe           ""                          initial pose: a keyframe of keyframe_file or
                                               srdf_file
keyframe_file      ""                          YAML file of named keyframes (base pose, joints)
srdf_file          ""                          SRDF whose ``<group_state>`` of that name is the pose
max_bodies         1000                        bodies (links) a model may have, a whole number
                                               ≥ 1; a bigger one is refused
                                               (:class:`~sdf_bridge.errors.ModelTooLargeError`)
                                               before it is built (compiling grows faster than
                                               the bodies: doc/dev/rationale.md)
=================  ==========================  ==================================================

Numbers must be finite; the bound 1e6 is the description's
(:data:`~sdf_bridge.description.magnitudes.MAX_MAGNITUDE`: beyond any real robot), the
smallest timestep its inverse (a million physics steps per simulated second). A value outside
these is a :class:`~sdf_bridge.errors.ConfigError` at configure naming the parameter, its value
and the fix, not a simulation that MuJoCo then resets in a loop ("Inertia matrix is too close
to singular" for a negative armature, "Nan, Inf or huge value in QACC" for a huge gravity).
Parameters that are not the backend's (a real driver's ``<hardware><param>``\\ s, a misspelt
``backend_params.*``) are ignored with one warning listing them
(:func:`~sdf_bridge.backends.parameter_names.warn_unknown`).

Gravity, as Gazebo simulates it: a robot taken from an SDFormat world carries the world's
``<gravity>`` (:attr:`Robot.gravity <sdf_bridge.description.model.Robot.gravity>`, SDFormat's
[0, 0, -9.8] when the world gives none), used when the ``gravity`` parameter is not given (an
info log says so when it is not the backend's own default); a given parameter wins, with a
warning when it differs from the world's. A robot with no world (URDF, a lone ``<model>``)
gets the parameter or the default ``BuildOptions.gravity``, [0, 0, -9.81] (the one encoding
of it: ``config/mujoco.yaml`` shows it commented out, so that the world's is not overridden).

The initial pose (:mod:`sdf_bridge.backends.initial_pose`) is where the robot starts and where
:meth:`~.backend.MujocoBackend.reset` returns to.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping
from typing import Any

from ...description.magnitudes import MAX_MAGNITUDE, short_number
from ...description.model import Pose, Robot
from ...errors import ConfigError
from ...util.booleans import parse_bool
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
        "max_bodies",
        *INITIAL_POSE_PARAMS,
    }
)

_BOUND = short_number(MAX_MAGNITUDE)
_ARMATURE_FIX = (
    f"give the rotor inertia reflected to the joint, 0 ≤ armature ≤ {_BOUND} (kg·m² for a "
    "revolute joint, kg for a prismatic one)"
)


def _float(value: Any, name: str, fix: str = "give a finite number") -> float:
    try:
        result = float(value)
    except (TypeError, ValueError):
        raise ConfigError(
            f"backend parameter {name} = {value!r} is not a number. Fix: {fix}"
        ) from None
    if not math.isfinite(result):
        raise ConfigError(f"backend parameter {name} = {value!r} must be finite. Fix: {fix}")
    return result


def _bounded(value: Any, name: str, fix: str, *, nonnegative: bool = False) -> float:
    """``value`` as a finite number within ±:data:`~sdf_bridge.description.magnitudes.MAX_MAGNITUDE`
    (and ≥ 0 when ``nonnegative``); ``fix`` ends the message of a :class:`ConfigError`."""
    result = _float(value, name, fix)
    if nonnegative and result < 0.0:
        raise ConfigError(f"backend parameter {name} = {value!r} must be ≥ 0. Fix: {fix}")
    if abs(result) > MAX_MAGNITUDE:
        raise ConfigError(
            f"backend parameter {name} = {value!r} is beyond the bound ±{_BOUND} (a value no "
            f"simulator can use). Fix: {fix}"
        )
    return result


def _bool(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    parsed = parse_bool(value)
    if parsed is not None:
        return parsed
    raise ConfigError(f"backend parameter {name} = {value!r} is not a boolean; use true or false")


def _vector(value: Any, name: str, n: int, fix: str) -> tuple[float, ...]:
    """``value`` (a sequence or a string of ``n`` numbers) as ``n`` floats, each
    :func:`_bounded` (named ``name[k]``)."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    try:
        items = list(value)
    except TypeError:
        raise ConfigError(
            f"backend parameter {name} = {value!r} must be a list of {n} numbers. Fix: {fix}"
        ) from None
    if len(items) != n:
        raise ConfigError(
            f"backend parameter {name} = {value!r} must have {n} numbers, has {len(items)}. "
            f"Fix: {fix}"
        )
    return tuple(_bounded(v, f"{name}[{k}]", fix) for k, v in enumerate(items))


def _timestep(value: Any) -> float:
    """The physics step, s: finite, within 1/MAX_MAGNITUDE (a million steps per simulated
    second) and MAX_MAGNITUDE."""
    fix = (
        f"give the physics step in s, {short_number(1.0 / MAX_MAGNITUDE)} ≤ timestep, a divisor "
        "of the control period 1/update_rate (default 0.001)"
    )
    timestep = _bounded(value, "timestep", fix)
    if timestep < 1.0 / MAX_MAGNITUDE:
        raise ConfigError(
            f"backend parameter timestep = {value!r} must be ≥ {short_number(1.0 / MAX_MAGNITUDE)}"
            f" s (at most {_BOUND} physics steps per simulated second). Fix: {fix}"
        )
    return timestep


def _seed(value: Any) -> int | None:
    """The noise seed: a whole number ≥ 0 (an integer string read exactly); ``None`` or
    ``""``: random."""
    if value is None or value == "":
        return None
    fix = "give a whole number ≥ 0, or null for a random seed"
    if isinstance(value, bool):
        raise ConfigError(f"backend parameter noise_seed = {value!r} is not a number. Fix: {fix}")
    number: float
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):
        number = int(value)  # exactly, however many digits
    else:
        number = _float(value, "noise_seed", fix)
    if number < 0 or number != int(number):
        raise ConfigError(
            f"backend parameter noise_seed = {value!r} must be a whole number ≥ 0. Fix: {fix}"
        )
    return int(number)


def _max_bodies(value: Any) -> int:
    """The body cap: a whole number ≥ 1 (an integer string, or a float without a fraction)."""
    fix = (
        f"give a whole number ≥ 1 (default {BuildOptions.max_bodies}): the most bodies (links) "
        "a model may have"
    )
    if isinstance(value, bool):
        raise ConfigError(f"backend parameter max_bodies = {value!r} is not a number. Fix: {fix}")
    number = int(value) if isinstance(value, int) else _float(value, "max_bodies", fix)
    if number < 1 or number != int(number):
        raise ConfigError(
            f"backend parameter max_bodies = {value!r} must be a whole number ≥ 1. Fix: {fix}"
        )
    return int(number)


def _armature(robot: Robot, params: Mapping[str, Any]) -> dict[str, float]:
    """joint → armature (kg·m² or kg) from ``armature`` (one number for every joint, or a
    mapping joint → number) and the flattened ``armature.<joint>`` keys."""

    def value_of(value: Any, name: str) -> float:
        return _bounded(value, name, _ARMATURE_FIX, nonnegative=True)

    raw = params.get("armature", {})
    if isinstance(raw, Mapping):
        armature = {str(k): value_of(v, f"armature.{k}") for k, v in raw.items()}
        unknown = sorted(set(armature) - set(robot.joints))
        if unknown:
            raise ConfigError(f"backend parameter armature names unknown joint(s) {unknown}")
    else:
        value = value_of(raw, "armature")
        armature = {name: value for name in robot.joints}
    for key, value in params.items():  # flattened ROS form: armature.<joint>
        if str(key).startswith("armature."):
            joint = str(key)[len("armature.") :]
            if joint not in robot.joints:
                raise ConfigError(f"backend parameter {key} names unknown joint {joint!r}")
            armature[joint] = value_of(value, str(key))
    return armature


def _gravity(robot: Robot, params: Mapping[str, Any]) -> tuple[float, ...]:
    """Gravity, m/s², shape (3,): the ``gravity`` parameter, else the robot's world's
    ``<gravity>`` (``Robot.gravity``), else ``BuildOptions.gravity``; logs which one when the
    world's and another differ (module docstring)."""
    world = robot.gravity
    if "gravity" not in params:
        if world is None:
            return BuildOptions.gravity
        if world != BuildOptions.gravity:
            _LOG.info(
                "gravity %s m/s², the <gravity> of world %r (the backend parameter gravity "
                "is not given; its default would be %s)",
                list(world),
                robot.world,
                list(BuildOptions.gravity),
            )
        return world
    gravity = _vector(
        params["gravity"],
        "gravity",
        3,
        f"give the world's gravity in m/s², each component within ±{_BOUND} (Earth: "
        f"{list(BuildOptions.gravity)})",
    )
    if world is not None and gravity != world:
        _LOG.warning(
            "gravity %s m/s² of the backend parameter gravity, not the <gravity> %s of world "
            "%r (Gazebo would simulate the world's; leave the parameter out to use it)",
            list(gravity),
            list(world),
            robot.world,
        )
    return gravity


def parse_options(robot: Robot, params: Mapping[str, Any]) -> tuple[BuildOptions, str, int | None]:
    """Build options, position mode and noise seed from backend ``params``; one warning lists
    the parameters that are not the backend's
    (:func:`~sdf_bridge.backends.parameter_names.warn_unknown`).

    Raises:
        ConfigError: a parameter has the wrong type or value: not a number, not finite,
            negative where that is meaningless (armature, timestep, noise_seed), a
            ``max_bodies`` that is not a whole number ≥ 1, beyond
            ±MAX_MAGNITUDE, a timestep under 1/MAX_MAGNITUDE s (its name, its value and the
            fix in the message).
    """
    warn_unknown(_LOG, "MuJoCo backend", params, KNOWN_PARAMS, ("pid_gains.", "armature."))
    timestep = _timestep(params.get("timestep", 0.001))
    gravity = _gravity(robot, params)
    mode = str(params.get("position_mode", "pid"))
    if mode not in ("pid", "ideal"):
        raise ConfigError(f"backend parameter position_mode = {mode!r}; use 'pid' or 'ideal'")
    seed = _seed(params.get("noise_seed", 0))
    base_pose = None
    if params.get("base_pose") is not None:
        v = _vector(
            params["base_pose"],
            "base_pose",
            6,
            f"give [x, y, z, roll, pitch, yaw] in m and rad, each within ±{_BOUND}",
        )
        base_pose = Pose(xyz=v[:3], rpy=v[3:])  # type: ignore[arg-type]  # (_vector(..., 6): 3 + 3)
    options = BuildOptions(
        timestep=timestep,
        gravity=gravity,  # type: ignore[arg-type]  # (_vector(..., 3))
        fixed_base=_bool(params.get("fixed_base", True), "fixed_base"),
        ground_plane=_bool(params.get("ground_plane", True), "ground_plane"),
        visual_geoms=_bool(params.get("visual_geoms", True), "visual_geoms"),
        self_collide=_bool(params.get("self_collide", False), "self_collide"),
        armature=_armature(robot, params),
        base_pose=base_pose,
        lift_above_ground=_bool(params.get("lift_above_ground", True), "lift_above_ground"),
        max_bodies=_max_bodies(params.get("max_bodies", BuildOptions.max_bodies)),
    )
    return options, mode, seed
