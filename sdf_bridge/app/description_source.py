"""Which robot description the bridge runs, and the XML it publishes on ``robot_description``.

Order (first that applies):

1. the ``robot_description`` parameter (XML text: parsed as XML only, never xacro-expanded;
   text that still holds xacro is refused with how to expand it; text is network input, so the
   files it names are confined unless ``allow_local_files``,
   :mod:`sdf_bridge.description.confine`);
2. the ``description_file`` parameter (+ ``xacro_args``; a xacro file is expanded in a child
   process bounded in memory and time, :mod:`sdf_bridge.description.xacro.child_process`);
3. with ``use_description_topic``: the ``robot_description`` topic (handled by the node, which
   then does not publish the topic itself — someone else, e.g. robot_state_publisher, does;
   XML only and confined, as the parameter);
4. the built-in demo robot ``urdf/demo_arm.urdf.xacro``, found in the ament index share
   directory, the installed data (``<prefix>/share/sdf_bridge``) or beside the source tree.

This module has no rclpy import: it is plain Python over :mod:`sdf_bridge.description`.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..description.model import Robot, World
from ..errors import ConfigError, DescriptionError

LOG = logging.getLogger("sdf_bridge.ros")

PACKAGE = "sdf_bridge"
DEMO_RELATIVE = Path("urdf") / "demo_arm.urdf.xacro"


@dataclass(frozen=True)
class LoadedDescription:
    """A loaded description: the ``robot`` model, the ``xml`` to publish on
    ``robot_description`` (xacro expanded; for SDFormat converted to URDF when possible), and
    ``origin`` (human-readable: the file path, ``"parameter"`` or ``"topic"``)."""

    robot: Robot
    xml: str
    origin: str


def share_candidates() -> list[Path]:
    """Directories that may hold the package's installed data (``urdf/``, ``config/``, ...):
    the ament index share dir, ``<sys.prefix>/share/sdf_bridge`` and the source checkout."""
    candidates: list[Path] = []
    try:
        from ament_index_python.packages import PackageNotFoundError, get_package_share_directory

        try:
            candidates.append(Path(get_package_share_directory(PACKAGE, print_warning=False)))
        except (PackageNotFoundError, ValueError, OSError):  # not installed / no AMENT_PREFIX_PATH
            pass
    except ImportError:  # pragma: no cover - ament_index_python ships with rclpy
        pass
    candidates.append(Path(sys.prefix) / "share" / PACKAGE)
    candidates.append(Path(__file__).resolve().parents[2])
    return candidates


def demo_description_file(relative: Path = DEMO_RELATIVE) -> Path:
    """Path of the demo robot xacro (or of another installed data file, ``relative`` to the
    package's share directory, e.g. ``config/demo_mobile_keyframes.yaml``).

    Raises:
        ConfigError: not found in any of :func:`share_candidates`.
    """
    for root in share_candidates():
        path = root / relative
        if path.is_file():
            return path
    searched = ", ".join(str(p / relative) for p in share_candidates())
    raise ConfigError(
        f"the demo file {relative} was not found (searched {searched}). "
        "Fix: reinstall sdf_bridge or set description_file."
    )


def _publishable_xml(robot: Robot, xml: str) -> str:
    """Text for ``robot_description``: the (expanded) source for URDF; for SDFormat a URDF
    export (what rviz and a stock robot_state_publisher read; universal, revolute2 and ball
    joints as chains of one-axis joints named like the coordinates in ``joint_states``,
    :func:`~sdf_bridge.description.export.urdf_writer.chain_joints`), or, when the model does
    not fit URDF even so (screw, gearbox joints, …), the SDFormat itself, which
    robot_state_publisher reads through the ``sdformat_urdf`` parser plugin. Several robots
    (``robot.robots``) are exported as they are simulated, one model of scoped names (URDF,
    else SDFormat): no source file holds them all."""
    if robot.format != "sdf" and not robot.robots:
        return xml
    from ..description.export import to_sdf, to_urdf

    try:  # (several robots: no floating joints between them, their world is SDFormat)
        return to_urdf(robot, chains=not robot.robots)
    except DescriptionError as exc:
        if robot.robots:  # (each robot's own node publishes that robot alone, :mod:`.ros.robots`)
            LOG.info(
                "the robots together do not fit one URDF (%s): the world's robot_description is "
                "SDFormat; each robot's robot_description, in its namespace, is its own",
                exc.problem,
            )
            return to_sdf(robot)
        LOG.warning(
            "robot_description carries the SDFormat model: it does not fit URDF (%s). "
            "robot_state_publisher reads it with the sdformat_urdf plugin installed",
            exc.problem,
        )
        return xml


def robot_xml(robot: Robot, *, chains: bool = False) -> str:
    """The description of ``robot`` written out, for its ``robot_description``: URDF (what a
    stock robot_state_publisher reads; with ``chains``, universal, revolute2 and ball joints as
    chains of one-axis joints, as ``_publishable_xml``), else SDFormat when the model does
    not fit URDF (read with the sdformat_urdf plugin); e.g. one robot of several (no file holds
    it alone). Without ``chains`` the text loads back as the same model (``sdf-bridge
    control`` prepares each robot of a world from it)."""
    from ..description.export import to_sdf, to_urdf

    try:
        return to_urdf(robot, chains=chains)
    except DescriptionError:
        return to_sdf(robot)


def load_description(
    source: str | Path,
    *,
    is_file: bool,
    xacro_args: Mapping[str, str] | None = None,
    origin: str | None = None,
    package_paths: Mapping[str, str] | None = None,
    model: str | None = None,
    robots: Sequence[str] = (),
    allow_local_files: bool = False,
    preloaded: tuple[Robot | World, str] | None = None,
) -> LoadedDescription:
    """Load a description from a file path (``is_file``; xacro expanded, bounded) or an XML
    string (XML only: never xacro-expanded; the error names ``origin``); ``package_paths``
    (package → directory) resolve ``package://`` and ``$(find pkg)`` before the ament index;
    ``model`` picks the robot(s) of an SDFormat world (comma-separated names; empty: every
    robot) and ``robots`` places more (``NAME=FILE[@pose][:fixed|:free]``):
    :func:`~sdf_bridge.description.world.select_robots`; one robot is that robot as it is,
    several one combined robot with scoped names.

    An XML string comes from the network (the ``robot_description`` topic or parameter): the
    files it names are confined to the configured directories
    (:mod:`sdf_bridge.description.confine`) unless ``allow_local_files`` (the node's parameter
    of that name).

    ``preloaded``: what :func:`~sdf_bridge.description.load_with_xml` returned for this very
    ``source`` and options (model and XML), used instead of loading it again (a caller that
    needed it first; its warnings are not logged twice).

    Raises:
        DescriptionError: (and subclasses) the description is invalid; a world holds several
            robots and ``model`` names none of them (the message lists them);
            ``RefusedPathError``: the string names a local file it may not.
        ConfigError: the file does not exist.
    """
    from ..description import load_with_xml
    from ..description.world import load_placements, select_robots

    args = dict(xacro_args or {})
    where = origin or (str(source) if is_file else "parameter robot_description")
    if is_file and not Path(source).is_file():
        raise ConfigError(
            f"description_file {source!s} does not exist. Fix: give an existing file path."
        )
    # each warning is already logged (with its file and line) by sdf_bridge.description
    try:
        if preloaded is not None:
            loaded, xml = preloaded
        else:
            loaded, _warnings, xml = load_with_xml(
                Path(source) if is_file else str(source),
                xacro_args=args or None,
                package_paths=dict(package_paths or {}) or None,
                network=not is_file and not allow_local_files,
            )
    except DescriptionError as exc:
        if not is_file:  # the loader names text "<string>": say which text it was
            exc.args = (f"{where}: {exc}",)
        raise
    placements = load_placements(
        robots, xacro_args=args or None, package_paths=dict(package_paths or {}) or None
    )
    names = [n.strip() for n in (model or "").split(",") if n.strip()]
    robot = select_robots(loaded, names, placements)
    warn_unexposed(robot, where)
    return LoadedDescription(robot=robot, xml=_publishable_xml(robot, xml), origin=where)


def warn_unexposed(robot: Robot, where: str) -> list[str]:
    """Return one warning per movable joint the bridge simulates but does not publish
    (:attr:`~sdf_bridge.transmissions.exposure.JointRoles.unexposed` of
    :func:`~sdf_bridge.transmissions.exposure.joint_roles`, the rule the transmission map and
    ``sdf-bridge check`` use: planar and floating joints, loops, uncoupled gearboxes closing a
    loop), so that none is silently missing from ``joint_states``, and log them one line per
    kind (:func:`~sdf_bridge.description.warning_digest.digest`)."""
    from ..description.warning_digest import digest
    from ..errors import TransmissionError
    from ..transmissions.exposure import joint_roles

    try:
        unexposed = joint_roles(robot).unexposed
    except TransmissionError:  # the hardware reports it, when it builds the same map
        return []
    messages = [
        f"{where}: joint {name!r} is not in joint_states and not commandable: {why}"
        for name, why in unexposed.items()
    ]
    for line in digest(messages):  # one line per kind (any number of such joints)
        LOG.warning(line)
    return messages


def resolve_description(
    robot_description: str,
    description_file: str,
    xacro_args: Mapping[str, str],
    use_description_topic: bool,
    *,
    package_paths: Mapping[str, str] | None = None,
    model: str = "",
    robots: Sequence[str] = (),
    allow_local_files: bool = False,
) -> LoadedDescription | None:
    """Load the description the parameters select (see module docstring); ``None`` means
    "wait for the robot_description topic".

    Raises:
        DescriptionError, ConfigError: as :func:`load_description`.
    """
    options = {
        "xacro_args": xacro_args,
        "package_paths": package_paths,
        "model": model,
        "robots": robots,
    }
    if robot_description.strip():
        return load_description(
            robot_description,
            is_file=False,
            origin="parameter robot_description",
            allow_local_files=allow_local_files,
            **options,
        )
    if description_file.strip():
        return load_description(Path(description_file).expanduser(), is_file=True, **options)
    if use_description_topic:
        return None
    return load_description(demo_description_file(), is_file=True, **options)
