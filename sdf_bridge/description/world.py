"""Which models of an SDFormat world are robots, and what becomes their scenery.

Gazebo simulates every model of a world; so does the bridge. A world's *robots* are its models
that are not ``<static>``. :func:`select_robot` picks one (``--model``, the node's ``model``
parameter), or the only robot when there is one, and hands the other models over as
:attr:`Robot.scenery <sdf_bridge.description.model.Robot.scenery>` (a ground plane, walls):
simulating backends make them fixed world geometry, and add no ground of their own (the world's
models are all there is).

:func:`select_robots` simulates several: every robot of the world (or those named), and robots
placed into it from other descriptions (:class:`Placement`: ``--robot NAME=FILE@pose``), become
one :class:`Robot` by :func:`combine`, each robot's elements scoped under its name
(:mod:`.scope`: ``arm::joint1``; the clash of two robots' names is impossible by construction),
the static models its scenery. Every layer below then handles that one robot as it handles any:
one physics in which the robots touch each other.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass as _dataclass

from ..errors import DuplicateNameError, InvalidValueError, MissingReferenceError, UnsupportedError
from .magnitudes import MAX_MAGNITUDE, short_number
from .model import Joint, JointType, Link, Pose, Robot, World
from .scope import SCOPE, WORLD_LINK, scope_robot

BASES = ("fixed", "free")
"""The base of a placed robot: welded to the world, or free (a 6-DOF free joint)."""


def robots_of(world: World) -> list[str]:
    """Names of the world's models that are not static, in document order."""
    return [name for name, model in world.models.items() if not model.static]


def with_scenery(world: World, name: str) -> Robot:
    """Model ``name`` of ``world`` with every other model as its scenery, in the world's
    environment (magnetic field, spherical coordinates) and gravity."""
    robot = world.models[name]
    return dataclasses.replace(
        robot,
        scenery=tuple(m for n, m in world.models.items() if n != name),
        world=world.name,
        environment=world.environment,
        gravity=world.gravity,
    )


def select_robot(model: Robot | World, name: str | None = None, fix: str | None = None) -> Robot:
    """The one robot wanted (see the module docstring): the robot a command writes
    (``convert``, ``ros2-control``) or a ``--robot`` file's.

    Args:
        model: what :func:`sdf_bridge.description.load` returned.
        name: the model to drive, or ``None`` (a world's only non-static model).
        fix: the fix named when ``name`` is ``None`` and the world holds several robots
            (default :data:`ONE_ROBOT_FIX`: choose one with ``--model``).

    Raises:
        MissingReferenceError: ``name`` is not a model of the world (or not the robot's name);
            the message lists the models.
        UnsupportedError: no ``name`` and the world holds several robots (or none); the
            message lists them and says how to choose.
    """
    source = model.source_file or "<string>"
    fix = ONE_ROBOT_FIX if fix is None else fix
    if isinstance(model, Robot):
        if name is not None and name != model.name:
            raise MissingReferenceError(
                f"the description holds one robot, {model.name!r}, not {name!r}",
                file=source,
                fix=f"give model {model.name!r} or no model name",
            )
        return model
    element = f'<world name="{model.name}">'
    if name is not None:
        if name not in model.models:
            raise MissingReferenceError(
                f"world {model.name!r} has no model {name!r}; its models: "
                f"{', '.join(model.models)}",
                file=source,
                element=element,
                fix="give one of these names as the model",
            )
        return with_scenery(model, name)
    robots = robots_of(model)
    if len(robots) == 1:
        return with_scenery(model, robots[0])
    listed = ", ".join(robots) if robots else "none (every model is static)"
    raise UnsupportedError(
        f"world {model.name!r} holds {len(robots)} robots (non-static models): {listed}; one "
        "robot is wanted here",
        file=source,
        element=element,
        fix=fix,
    )


ONE_ROBOT_FIX = (
    "choose it with --model NAME (sdf-bridge convert and ros2-control write one robot; "
    "sdf-bridge run and control drive every robot of the world, or those named by --model)"
)
"""The fix of :func:`select_robot`'s refusal of a world of several robots, by default."""


@_dataclass(frozen=True)
class Placement:
    """One robot of a simulation of several.

    Attributes:
        name: the robot's name in the simulation (its scope, and its ROS namespace by default):
            non-empty, without ``::``.
        robot: the robot as loaded (its own names).
        pose: its model frame in the world; ``None`` = the robot's own ``pose`` (an SDFormat
            world's ``<pose>``; the origin for a URDF).
        base: ``"fixed"`` (welded to the world by a fixed joint ``<name>::<root>__fixed``),
            ``"free"`` (a floating joint ``<name>::<root>__free`` from the world), or ``None``:
            as the description says (a joint to ``world``), else as the backend's ``fixed_base``
            option treats a root link.
    """

    name: str
    robot: Robot
    pose: Pose | None = None
    base: str | None = None


def _base_joints(placement: Placement, placed: Robot) -> list[Joint]:
    """The joint that welds or frees ``placed`` (already scoped) as ``placement.base`` says."""
    if placement.base is None:
        return []
    if placement.base not in BASES:
        raise InvalidValueError(
            f"robot {placement.name!r}: base {placement.base!r} is neither of {', '.join(BASES)}",
            file=placement.robot.source_file or "<string>",
            fix="give fixed or free",
        )
    children = {j.child for j in placed.joints.values()}
    roots = [n for n in placed.links if n not in children and n != WORLD_LINK]
    welded = [j.name for j in placed.joints.values() if j.parent == WORLD_LINK]
    if welded:
        if placement.base == "fixed":
            return []  # fixed already by its description
        raise InvalidValueError(
            f"robot {placement.name!r} is fixed to the world by joint(s) {welded}: it cannot "
            "have a free base",
            file=placement.robot.source_file or "<string>",
            fix="drop :free from the robot's placement, or its joint to world",
        )
    kind = JointType.FIXED if placement.base == "fixed" else JointType.FLOATING
    joints = []
    for root in roots:
        name = f"{root}__{placement.base}"
        if name in placed.joints:
            raise DuplicateNameError(
                f"robot {placement.name!r} already has a joint {name!r}",
                file=placement.robot.source_file or "<string>",
                fix="rename that joint, or give the robot no base",
            )
        placed_at = placed.links[root].pose  # (its world pose: scope_robot)
        origin = placed_at if placed_at is not None else Pose()
        joints.append(Joint(name=name, type=kind, parent=WORLD_LINK, child=root, origin=origin))
    return joints


def combine(
    placements: Sequence[Placement],
    *,
    name: str,
    scenery: Sequence[Robot] = (),
    template: Robot | World | None = None,
) -> Robot:
    """The robots of ``placements`` as one :class:`Robot` (module doc).

    Every element of robot ``r`` is named ``r::<name>`` (:func:`.scope.scope_robot`), placed at
    its pose; the links ``world`` of all become one. ``robots`` lists the names in order.

    Args:
        placements: the robots, at least one; distinct names.
        name: the combined model's name (the world's).
        scenery: fixed world geometry (static models).
        template: the world (or a robot of it) whose ``world``, ``environment``, ``gravity`` and
            ``source_file`` the result keeps; ``None``: no world (the default ground plane).

    Raises:
        InvalidValueError: an empty or ``::`` name, or a bad ``base``.
        DuplicateNameError: two robots of one name.
    """
    seen: set[str] = set()
    links: dict = {}
    joints: dict = {}
    transmissions: list = []
    ros2_control: list = []
    sensors: list = []
    gazebo: list = []
    skipped: list = []
    materials: dict = {}
    formats: set[str] = set()
    for placement in placements:
        source = placement.robot.source_file or "<string>"
        if not placement.name or SCOPE in placement.name:
            raise InvalidValueError(
                f"robot name {placement.name!r} is empty or holds {SCOPE!r}",
                file=source,
                fix=f"name the robot with a plain name (no {SCOPE!r}), e.g. --robot arm2=FILE",
            )
        if placement.name in seen:
            raise DuplicateNameError(
                f"two robots are named {placement.name!r}",
                file=source,
                fix="give every robot of the simulation a distinct name (--robot NAME=FILE)",
            )
        seen.add(placement.name)
        robot = placement.robot
        placed = scope_robot(
            robot, placement.name, robot.pose if placement.pose is None else placement.pose
        )
        links.update(placed.links)
        joints.update(placed.joints)
        for joint in _base_joints(placement, placed):
            joints[joint.name] = joint
        transmissions += placed.transmissions
        ros2_control += placed.ros2_control
        sensors += placed.sensors
        gazebo += placed.gazebo
        skipped += placed.skipped
        for key, material in robot.materials.items():
            materials.setdefault(key, material)
        formats.add(robot.format)
    if not placements:
        raise InvalidValueError("no robot to simulate", fix="give at least one robot")
    if any(j.parent == WORLD_LINK for j in joints.values()):
        # the shared world link first: the root of every robot on it
        links = {WORLD_LINK: links.pop(WORLD_LINK, Link(WORLD_LINK)), **links}
    world = template.name if isinstance(template, World) else getattr(template, "world", None)
    return Robot(
        name=name,
        links=links,
        joints=joints,
        materials=materials,
        transmissions=tuple(transmissions),
        ros2_control=tuple(ros2_control),
        sensors=tuple(sensors),
        gazebo=tuple(gazebo),
        format="sdf" if formats == {"sdf"} else "urdf",
        version=placements[0].robot.version,
        source_file=None if template is None else template.source_file,
        scenery=tuple(scenery),
        world=world,
        environment=placements[0].robot.environment if template is None else template.environment,
        gravity=None if template is None else template.gravity,
        skipped=tuple(skipped),
        robots=tuple(p.name for p in placements),
    )


def scoping_note(robots: Sequence[str]) -> str:
    """The line ``sdf-bridge check`` prints for several robots simulated together."""
    first = robots[0]
    return (
        f"robots: {', '.join(robots)}: simulated together in one physics, each robot's "
        f"joints, links, sensors and actuators scoped under its name ({first}{SCOPE}<name>), "
        "so that no two robots' names can clash"
    )


@_dataclass(frozen=True)
class RobotSpec:
    """A ``--robot NAME=FILE[@x,y,z,roll,pitch,yaw][:fixed|:free]`` argument, parsed: the robot's
    ``name``, the description ``file``, its ``pose`` in the world (``None``: the description's
    own) and ``base`` (``None``, ``"fixed"``, ``"free"``: :class:`Placement`)."""

    name: str
    file: str
    pose: Pose | None = None
    base: str | None = None


#: The form of a ``--robot`` value (for usage errors).
ROBOT_SPEC_FORM = "NAME=FILE[@x,y,z,roll,pitch,yaw][:fixed|:free]"
#: A ``:word`` ending that is no base (``:flying``): a typo, not part of a file name.
_SUFFIX = re.compile(r":([A-Za-z_][A-Za-z0-9_]*)$")


def parse_robot_spec(text: str) -> RobotSpec:
    """Parse one ``--robot`` argument (the node's ``robots`` parameter holds a list of them):
    ``NAME=FILE``, optionally ``@x,y,z,roll,pitch,yaw`` (m, rad; the description's own pose
    when absent) and ``:fixed`` or ``:free`` (the base, :class:`Placement`).

    Raises:
        InvalidValueError: not of the form :data:`ROBOT_SPEC_FORM` (no ``=``, an empty name or
            file, a name with ``::``, a pose not of six finite numbers, a text ending in
            ``:word`` that is neither base); a pose number beyond ±1e6
            (:data:`~.magnitudes.MAX_MAGNITUDE`, as the description's numbers); the message
            quotes the text.
    """

    def bad(why: str) -> InvalidValueError:
        return InvalidValueError(
            f"robot {text!r}: {why}", fix=f"give {ROBOT_SPEC_FORM}, e.g. arm2=arm.urdf@1,0,0,0,0,0"
        )

    name, sep, rest = text.partition("=")
    name = name.strip()
    if not sep or not name or not rest.strip():
        raise bad("not NAME=FILE")
    if SCOPE in name:
        raise bad(f"the name holds {SCOPE!r}")
    base = None
    for word in BASES:
        if rest.endswith(f":{word}"):
            base, rest = word, rest[: -len(word) - 1]
    file, at, pose_text = rest.rpartition("@") if "@" in rest else (rest, "", "")
    if at and ":" in pose_text:  # (a known base was taken off above)
        suffix = pose_text.rpartition(":")[2]
        raise bad(f"unknown base {suffix!r} after the pose: give :{' or :'.join(BASES)}")
    typo = None if at or base else _SUFFIX.search(rest)  # (a path ends in a name, not ':word')
    if typo is not None:
        raise bad(f"unknown base {typo.group(1)!r}: give :{' or :'.join(BASES)}")
    pose = None
    if at:
        parts = pose_text.split(",")
        try:
            values = [float(v) for v in parts]
        except ValueError:
            raise bad(f"pose {pose_text!r} is not six numbers") from None
        if len(values) != 6 or not all(math.isfinite(v) for v in values):
            raise bad(f"pose {pose_text!r} is not six finite numbers")
        huge = next((t.strip() for t, v in zip(parts, values) if abs(v) > MAX_MAGNITUDE), None)
        if huge is not None:
            limit = short_number(MAX_MAGNITUDE)
            raise InvalidValueError(
                f"robot {text!r}: pose value {huge} is beyond the bound ±{limit} "
                "(m or rad; a value no simulator can use)",
                fix=f"give each of x,y,z,roll,pitch,yaw within ±{limit}",
            )
        pose = Pose(tuple(values[:3]), tuple(values[3:]))  # type: ignore[arg-type]  # (3 floats each)
    if not file.strip():
        raise bad("no file")
    return RobotSpec(name, file.strip(), pose, base)


def load_placements(specs: Sequence[str], **load_options: object) -> list[Placement]:
    """Load the robots of ``--robot`` arguments ``specs`` (:func:`parse_robot_spec`) as
    placements; ``load_options`` go to :func:`sdf_bridge.description.load` (``xacro_args``,
    ``package_paths``, ``sdf_paths``). A file holding an SDFormat world gives its one robot.

    Raises:
        InvalidValueError: a bad argument. DescriptionError: a file that cannot be loaded, or a
            world of several robots (give it as the world file instead).
    """
    from .loader import load

    placements = []
    for text in specs:
        spec = parse_robot_spec(text)
        loaded = load(spec.file, **load_options)  # type: ignore[arg-type]  # (load's keywords)
        robot = select_robot(
            loaded,
            fix=f"give {spec.file} as the description (every robot of it is run), or a file "
            "of one robot to --robot",
        )
        placements.append(
            Placement(spec.name, dataclasses.replace(robot, scenery=()), spec.pose, spec.base)
        )
    return placements


def select_robots(
    model: Robot | World,
    names: Sequence[str] = (),
    placements: Sequence[Placement] = (),
) -> Robot:
    """The robot(s) to simulate, as one :class:`Robot`.

    One robot and nothing placed: :func:`select_robot` (the robot as it is, names unscoped:
    a single-robot run is what it always was). Otherwise :func:`combine` of the chosen robots
    of the world (``names``, else every non-static model; a robot not taken from a world is
    one robot) followed by ``placements``, the world's other models its scenery.

    Raises:
        MissingReferenceError: a name that is no model of the world.
        DuplicateNameError, InvalidValueError: as :func:`combine`.
    """
    if isinstance(model, Robot) and model.robots:
        return model  # combined already
    several = isinstance(model, World) and len(robots_of(model)) > 1
    if not placements and (len(names) == 1 or (not names and not several)):
        return select_robot(model, names[0] if names else None)
    if isinstance(model, Robot) and model.world is None:
        if names and list(names) != [model.name]:
            select_robot(model, next(n for n in names if n != model.name))  # raises
        return combine([Placement(model.name, model), *placements], name=model.name)
    if isinstance(model, Robot):  # a world's one robot, its other models the scenery
        world_name = model.world or model.name
        models = {model.name: dataclasses.replace(model, scenery=())}
        models.update((m.name, m) for m in model.scenery)
    else:
        world_name = model.name
        models = dict(model.models)
    chosen = list(names) or [n for n, m in models.items() if not m.static]
    for name in chosen:
        if name not in models:
            raise MissingReferenceError(
                f"world {world_name!r} has no model {name!r}; its models: {', '.join(models)}",
                file=model.source_file or "<string>",
                element=f'<world name="{world_name}">',
                fix="give one of these names as the model",
            )
    robots = [Placement(n, models[n]) for n in chosen] + list(placements)
    scenery = [m for n, m in models.items() if n not in chosen]
    return combine(robots, name=world_name, scenery=scenery, template=model)


__all__ = [
    "BASES",
    "ONE_ROBOT_FIX",
    "Placement",
    "ROBOT_SPEC_FORM",
    "RobotSpec",
    "load_placements",
    "parse_robot_spec",
    "combine",
    "robots_of",
    "scoping_note",
    "select_robot",
    "select_robots",
    "with_scenery",
]
