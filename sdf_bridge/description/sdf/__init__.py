"""SDFormat (1.4 … 1.11) → :class:`~sdf_bridge.description.model.Robot` / :class:`World`.

Entry point :func:`load_sdf`, called by :func:`sdf_bridge.description.load` for ``<sdf>`` roots.
Modules: :mod:`.frames` (pose graph), :mod:`.includes` (``<include>`` resolution),
:mod:`.model` (flattening of nested models, over :mod:`.scoped` elements), :mod:`.joint_tree`
(the joints of the flattened model), :mod:`.links`, :mod:`.joints`, :mod:`.transmissions`
(model-level ``<transmission>`` elements).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from lxml import etree

from ...errors import InvalidValueError, KinematicTreeError, UnsupportedError
from ..contain import prune
from ..model import SDFORMAT_GRAVITY, HardwareComponent, Pose, Robot, Sensor, World
from ..urdf.gazebo import parse_plugin
from ..validate import check_references
from ..world import robots_of, with_scenery
from ..xmlio import ParseContext
from .environment import parse_environment
from .frames import parse_pose
from .includes import left_out, resolve_include, search_path
from .joints import bool_element
from .links import make_mesh_resolver
from .model import ModelBuilder, check_version
from .scoped import ScopedElement

__all__ = ["load_sdf", "load_model", "world_models"]


def _parsers() -> tuple[Callable[..., Sensor], Callable[..., HardwareComponent]]:
    """The shared sensor and ``<ros2_control>`` parsers (imported lazily: they import the model
    package, which this package is part of)."""
    from ..ros2_control_parser import parse_ros2_control
    from ..sensors.sdf_element import parse_sensor

    return parse_sensor, parse_ros2_control


def load_model(
    model: etree._Element,
    ctx: ParseContext,
    *,
    base_dir: Path,
    version: tuple[int, int],
    version_text: str,
    search: Sequence[Path],
    name: str | None = None,
    package_paths: Mapping[str, str | os.PathLike[str]] | None = None,
    pose_elem: etree._Element | None = None,
    pose_ctx: ParseContext | None = None,
    static: bool | None = None,
    blocks: Sequence[etree._Element] = (),
) -> Robot:
    """One ``<model>`` element → :class:`Robot` (``name``/``pose_elem``/``static`` override the
    model's own, as ``<include>`` does; so do ``blocks``, ``<ros2_control>`` elements of the
    ``<include>`` read in ``pose_ctx``: when given, they replace the model's own top-level
    blocks, ``_load_include``).

    Raises:
        InvalidValueError: the model has no name.
        DescriptionError: any of the typed errors of :mod:`.model` and of
            :func:`~sdf_bridge.description.validate.check_references` (mimic targets and loops,
            limits, inertia, transmission and ``<ros2_control>`` joints, sensor names).
    """
    if not (name or model.get("name")):
        raise ctx.error(
            InvalidValueError, model, "<model> has no name", 'add name="..." to the <model>'
        )
    file = None if ctx.file == "<string>" else ctx.file
    first_skip = len(ctx.skipped)  # (a world's models share the context)
    builder = ModelBuilder(
        search=search,
        resolve_mesh=make_mesh_resolver(
            search,
            package_paths,
            file,
            lambda text: ctx.warn(None, text),
            network=ctx.network,
            text_base=base_dir if file is None else None,
        ),
        package_paths=package_paths,
    )
    if ctx.file != "<string>":
        builder.including.append(Path(ctx.file).resolve())
    builder.collect(model, "", ctx, base_dir, version)
    if blocks:  # (a nested model's blocks are its own: scoped)
        builder.ros2_control = [it for it in builder.ros2_control if it.scope] + [
            ScopedElement(b, "", pose_ctx or ctx, base_dir, version) for b in blocks
        ]
    pe = pose_elem if pose_elem is not None else model.find("pose")
    pose = Pose.from_matrix(parse_pose(pe, pose_ctx or ctx))
    if pe is not None and (pe.get("relative_to") or "world") != "world":
        (pose_ctx or ctx).warn(
            pe, "model pose relative_to a frame other than the world is taken relative to the world"
        )
    parse_sensor, parse_ros2_control = _parsers()
    robot = builder.build(
        name or model.get("name", ""),
        version=version_text,
        source_file=None if ctx.file == "<string>" else ctx.file,
        pose=pose,
        static=static if static is not None else bool_element(ctx, model.find("static"), False),
        sensor_parser=parse_sensor,
        ros2_control_parser=parse_ros2_control,
    )
    if not robot.links:
        raise ctx.error(
            KinematicTreeError,
            model,
            f"model {robot.name!r} has no links",
            "add at least one <link> (or a nested <model>/<include> with links)",
        )
    robot = prune(robot, ctx, first=first_skip)
    check_references(robot, ctx)
    return robot


def load_sdf(
    root: etree._Element,
    ctx: ParseContext,
    *,
    base_dir: str | os.PathLike[str],
    package_paths: Mapping[str, str | os.PathLike[str]] | None = None,
    sdf_paths: Sequence[str | os.PathLike[str]] | None = None,
) -> Robot | World:
    """An ``<sdf>`` document → :class:`Robot` (a ``<model>``, or a ``<world>`` holding one model or
    one non-static model: that robot, with the world's other models as its ``scenery``) or
    :class:`World` (a world with several robots; models by name: see
    :func:`sdf_bridge.description.world.select_robot`). Only the first ``<model>`` (else
    ``<world>``) of the document is read; others are warned about. A world-level ``<include>``
    of a web URI (Gazebo Fuel) that is not in the local Fuel cache is left out with a warning.

    Args:
        root: the ``<sdf>`` element (from :func:`~sdf_bridge.description.xmlio.parse_xml`).
        ctx: parse context of the file (warnings collect there).
        base_dir: directory of the file (relative include URIs and meshes).
        package_paths: package → directory map for ``package://`` mesh URIs (then the ament index).
        sdf_paths: include search directories, searched before the environment variables
            ``GZ_SIM_RESOURCE_PATH``, ``IGN_GAZEBO_RESOURCE_PATH``, ``GAZEBO_MODEL_PATH``,
            ``SDF_PATH``.

    Raises:
        UnsupportedError: missing or unsupported ``version``.
        InvalidValueError: no ``<model>``/``<world>``, a world without models, bad values, zero
            axes, a bad ``<magnetic_field>`` or ``<spherical_coordinates>``
            (:mod:`.environment`).
        MissingReferenceError: unknown frames, links or includes.
        KinematicTreeError: a model without links, frame cycles, a link with two parent joints,
            joint loops.
        DuplicateNameError: two frames of one model with the same name.
    """
    version = check_version(root, ctx)
    version_text = root.get("version", "")
    search = search_path(sdf_paths)
    base = Path(base_dir)
    world = root.find("world")
    model = root.find("model")
    tops = [child for child in root if child.tag in ("model", "world")]
    if len(tops) > 1:
        used = model if model is not None else world
        ctx.warn(
            next(t for t in tops if t is not used),
            f"<sdf> holds {len(tops)} models/worlds; only "
            f'<{used.tag} name="{used.get("name", "")}"> is read (as libsdformat does)',
        )
    if model is not None:
        return load_model(
            model,
            ctx,
            base_dir=base,
            version=version,
            version_text=version_text,
            search=search,
            package_paths=package_paths,
        )
    if world is None:
        raise ctx.error(
            InvalidValueError,
            root,
            "<sdf> holds neither <model> nor <world>",
            "put the robot in a <model> element",
        )
    models: dict[str, Robot] = {}
    for child in world:
        if child.tag == "model":
            robot = load_model(
                child,
                ctx,
                base_dir=base,
                version=version,
                version_text=version_text,
                search=search,
                package_paths=package_paths,
            )
        elif child.tag == "include":
            uri = ctx.child_text(child, "uri") or ""
            if left_out(uri):
                ctx.warn(
                    child,
                    f"include {uri!r} is a model on a web server (Gazebo Fuel), not in the local "
                    "Fuel cache; the world is read without it (sdf_bridge downloads "
                    "nothing: fetch it with "
                    f'`gz fuel download -u "{uri}"` to use it)',
                )
                continue
            robot = _load_include(child, ctx, base=base, search=search, package_paths=package_paths)
        else:
            continue
        if robot.name in models:
            raise ctx.error(
                InvalidValueError,
                child,
                f"world holds two models named {robot.name!r}",
                "give every model of the world a distinct name",
            )
        models[robot.name] = robot
    if not models:
        raise ctx.error(
            InvalidValueError,
            world,
            f"world {world.get('name', '')!r} holds no <model> or <include>",
            "add the robot's <model> (or an <include> of it) to the <world>",
        )
    gravity_elem = world.find("gravity")
    gravity = (
        SDFORMAT_GRAVITY
        if gravity_elem is None
        else ctx.vector(gravity_elem, gravity_elem.text, 3, "<gravity>")
    )
    plugins = tuple(parse_plugin(p, ctx) for p in world.findall("plugin"))
    result = World(
        name=world.get("name", ""),
        models=models,
        gravity=gravity,  # type: ignore[arg-type]  # (ctx.vector(..., 3, ...))
        plugins=plugins,
        version=version_text,
        source_file=None if ctx.file == "<string>" else ctx.file,
        environment=parse_environment(ctx, world),
    )
    robots = robots_of(result)
    if len(models) == 1 or len(robots) == 1:
        return with_scenery(result, robots[0] if robots else next(iter(models)))
    return result


def _load_include(
    elem: etree._Element,
    ctx: ParseContext,
    *,
    base: Path,
    search: Sequence[Path],
    package_paths: Mapping[str, str | os.PathLike[str]] | None,
) -> Robot:
    """A world-level ``<include>`` → :class:`Robot` with the include's name/pose/static
    overrides, and its ``<ros2_control>`` children (an sdf_bridge extension, which
    ``sdf-bridge control`` writes into a copy of the world: libsdformat copies an unknown
    child of an ``<include>`` with a warning, Gazebo ignores it) in place of the model's own
    top-level blocks."""
    from ..xmlio import parse_xml, read_file

    uri = ctx.child_text(elem, "uri")
    if not uri:
        raise ctx.error(
            InvalidValueError,
            elem,
            "<include> has no <uri>",
            "add <uri>model://name</uri> or a path",
        )
    path = resolve_include(uri, elem, ctx, base_dir=base, paths=search, package_paths=package_paths)
    sub = ctx.included(str(path))
    root = parse_xml(read_file(path), str(path), ctx.warnings)
    if root.tag != "sdf" or root.find("model") is None:
        raise sub.error(
            UnsupportedError,
            root,
            "included file is not an SDFormat model",
            "include a file with <sdf><model>",
        )
    version = check_version(root, sub)
    static_elem = elem.find("static")
    return load_model(
        root.find("model"),
        sub,
        base_dir=path.parent,
        version=version,
        version_text=root.get("version", ""),
        search=search,
        package_paths=package_paths,
        name=elem.findtext("name"),
        pose_elem=elem.find("pose"),
        pose_ctx=ctx,
        static=None if static_elem is None else bool_element(ctx, static_elem, False),
        blocks=elem.findall("ros2_control"),
    )


def world_models(
    world: etree._Element,
    file: Path,
    *,
    package_paths: Mapping[str, str | os.PathLike[str]] | None = None,
    sdf_paths: Sequence[str | os.PathLike[str]] | None = None,
) -> dict[str, tuple[etree._Element, Path | None]]:
    """The ``<model>`` and ``<include>`` elements of ``world`` (a ``<world>`` of the file
    ``file``) by the name of the model each gives the world, as :func:`load_sdf` names them (an
    include's ``<name>``, else the included model's own), with the SDFormat file an include
    resolves to (``None`` for an inline model). An include the world is read without
    (:func:`~.includes.left_out`) is not listed.

    Raises:
        MissingReferenceError: an include that cannot be resolved (as :func:`load_sdf`).
    """
    from ..xmlio import parse_xml, read_file

    ctx = ParseContext(str(file))
    search = search_path(sdf_paths)
    out: dict[str, tuple[etree._Element, Path | None]] = {}
    for child in world:
        if child.tag == "model":
            out[child.get("name", "")] = (child, None)
        elif child.tag == "include":
            uri = ctx.child_text(child, "uri") or ""
            if not uri or left_out(uri):
                continue
            path = resolve_include(
                uri, child, ctx, base_dir=file.parent, paths=search, package_paths=package_paths
            )
            name = child.findtext("name")
            if not name:
                model = parse_xml(read_file(path), str(path), ctx.warnings).find("model")
                name = "" if model is None else model.get("name", "")
            out[name] = (child, path)
    return out
