"""The readable summary ``sdf-bridge check`` and ``info`` print
(:func:`~.summary_text.print_summary`): the robot's counts, the joints table (limits the bridge
enforces, command and state interfaces, the control modes the generated ``<ros2_control>`` block
offers), the joint notes, the transmissions with their reductions and effective ratios, the sensors
table with what each publishes, the warnings and, for ``check``, the problems. What it shows comes
from :mod:`sdf_bridge.summary` (the bridge's rules) and the transmission report
(:func:`transmission_report`); ``--json`` prints the model instead (:mod:`sdf_bridge.cli`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from .app.topic_names import joint_wrench_topics
from .description.contain import driver_skips
from .description.coordinates import coordinate_joint, find_coordinate
from .description.feedback import feedback_skips
from .description.inertia import inertia_fix
from .description.model import JointType, Robot
from .description.warning_digest import digest
from .errors import TransmissionError
from .summary import JointView, joint_views, missing_meshes, publishes
from .transmissions.from_description import UNBUILT_SKIPPED


def _val(value: object) -> str:
    """A report value for display: ``-`` for ``None``, ``%g`` for numbers."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _rate_limit(enforced: float | None, written: float | None) -> str:
    """An enforced velocity or effort limit for display: the number, ``-`` when not limited,
    ``not limited (0)`` where the description wrote the ``0`` that descriptions use as
    "unknown" (the limiter reads it so, warning)."""
    if enforced is None and written == 0.0:
        return "not limited (0)"
    return _val(enforced)


def _table(rows: list[list[str]], out: TextIO) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        out.write("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() + "\n")


#: Where a :class:`Sensor` was written, by its ``origin_format``.
_SENSOR_ORIGIN = {"gazebo": "<gazebo>", "urdf": "<robot><sensor>", "sdf": "SDFormat <sensor>"}


def _reduction(side: str, value: object) -> str:
    """``"joint-side reduction 50"`` / ``"actuator-side reduction not given"``."""
    return f"{side}-side reduction {'not given' if value is None else _val(value)}"


def _hardware_sensors(robot: Robot) -> list[list[str]]:
    """Table rows of the ``<ros2_control>`` ``<sensor>`` components: name, ``ros2_control``,
    the ``frame_id`` param (or ``-``), no rate, the block with the state interfaces, and what
    they publish (the mock backend's values; a description sensor of the same name publishes
    as that sensor)."""
    rows = []
    described = {s.name for s in robot.sensors}
    for block in robot.ros2_control:
        for info in block.sensors:
            names = [i.name for i in info.state_interfaces]
            states = ",".join(names) if 0 < len(names) <= 6 else f"{len(names)} state interfaces"
            rows.append(
                [
                    info.name,
                    "ros2_control",
                    info.param("frame_id") or "-",
                    "-",
                    f'<ros2_control name="{block.name}"> ({states})',
                    "as the description sensor of its name"
                    if info.name in described
                    else "state interfaces only (mock backend); MuJoCo simulates none (warned at "
                    "start)",
                ]
            )
    return rows


def _sensor_count(robot: Robot) -> str:
    """``"2"``, or ``"3 (1 in <ros2_control>)"`` when ``<ros2_control>`` sensors are among them."""
    hardware = sum(len(block.sensors) for block in robot.ros2_control)
    total = len(robot.sensors) + hardware
    return f"{total} ({hardware} in <ros2_control>)" if hardware else str(total)


def transmission_report(robot: Robot, problems: list[str]) -> list[dict]:
    """The entries of the transmission report of ``robot``
    (:func:`sdf_bridge.transmissions.report.describe_transmissions`: one dict per transmission,
    ``[]`` without transmissions). Why it cannot be made (a :class:`TransmissionError`) is
    appended to ``problems``, and ``[]`` returned."""
    if not robot.transmissions:
        return []
    from .transmissions.report import describe_transmissions

    try:
        return describe_transmissions(robot)
    except TransmissionError as exc:
        problems.append(str(exc))
        return []


def _skipped_for_simulation(robot: Robot, described: list[dict]) -> list[str]:
    """What was left out that a simulated robot runs without and a real actuator's driver
    refuses: skipped transmission and ``<ros2_control>`` elements
    (:func:`~sdf_bridge.description.contain.driver_skips`) and transmissions the map could
    not build (their report notes)."""
    return [
        f"{s.kind} {s.name!r} ({s.source}) left out: a simulated robot runs without it, a "
        "real actuator's driver refuses the robot"
        for s in driver_skips(robot)
    ] + [note for entry in described for note in entry["notes"] if UNBUILT_SKIPPED in note]


def _header(robot: Robot, out: TextIO) -> None:
    """Write the robot's name and format, its file, and its counts (links, joints by type,
    movable joints, transmissions, ``<ros2_control>`` blocks, sensors)."""
    counts: dict[str, int] = {}
    for joint in robot.joints.values():
        counts[joint.type.value] = counts.get(joint.type.value, 0) + 1
    out.write(
        f"robot: {robot.name} ({robot.format}{' ' + robot.version if robot.version else ''})\n"
    )
    if robot.source_file:
        out.write(f"file: {robot.source_file}\n")
    out.write(
        f"links: {len(robot.links)}  joints: {len(robot.joints)} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(counts.items())) or 'none'})  "
        f"movable: {len(robot.movable_joints)}  transmissions: {len(robot.transmissions)}  "
        f"ros2_control: {len(robot.ros2_control)}  sensors: {_sensor_count(robot)}\n"
    )


#: The columns of the joints table.
_JOINT_COLUMNS = [
    "name",
    "type",
    "parent -> child",
    "lower",
    "upper",
    "velocity",
    "effort",
    "command",
    "modes",
    "state",
]


def _joint_row(robot: Robot, name: str, view: JointView) -> list[str]:
    """The joints-table row of joint (or coordinate, or screw translation) ``name``: its type
    and links (``(translation)``, ``-`` for a screw's translation), the enforced limits
    (:func:`_rate_limit`: a written ``0`` rate shown as not limited; a fixed joint's
    ``<limit>`` is not read), the command interfaces, modes and state interfaces."""
    coord = find_coordinate(robot, name)  # a joint, or an axis of a multi-axis one
    joint = robot.joints[coord.joint] if coord is not None else None
    kind, link = (
        (joint.type.value, f"{joint.parent} -> {joint.child}") if joint else ("(translation)", "-")
    )
    # a fixed joint's <limit> is not read (nothing moves): not shown as "not limited"
    view_joint = coordinate_joint(robot, name)
    written = view_joint.limit if view_joint and view_joint.type is not JointType.FIXED else None
    return [
        name,
        kind,
        link,
        _val(view.lower),
        _val(view.upper),
        _rate_limit(view.velocity, written.velocity if written else None),
        _rate_limit(view.effort, written.effort if written else None),
        view.command,
        view.modes,
        view.state,
    ]


def _joints(robot: Robot, views: dict[str, JointView], out: TextIO) -> None:
    """Write the joints table (one row per view, :func:`_joint_row`) and the joint notes
    (followers, multi-axis joints, unexposed joints), nothing for a robot without joints."""
    if not robot.joints:
        return
    out.write(
        "\njoints (limits: what the bridge enforces, - = not limited; modes: the command "
        "interfaces the generated <ros2_control> block offers):\n"
    )
    _table([_JOINT_COLUMNS] + [_joint_row(robot, n, v) for n, v in views.items()], out)
    notes = [(name, view.note) for name, view in views.items() if view.note]
    state_only = [
        name
        for name, view in views.items()
        if view.command == "-" and view.state != "-" and not view.note.startswith("follows")
    ]
    if state_only:  # (only a robot whose <ros2_control> blocks list joints has them)
        blocks = ", ".join(repr(b.name) for b in robot.ros2_control)
        notes.append(
            (
                ", ".join(state_only),
                f"state only: the <ros2_control> block(s) {blocks} list no command interface "
                "for them",
            )
        )
    if notes:
        out.write(
            "\njoint notes (followers, multi-axis joints, state-only joints, and joints the "
            "bridge simulates but does not expose):\n"
        )
        for name, note in notes:
            out.write(f"  {name}: {note}\n")


def _transmission_joint(joint: dict) -> str:
    """One joint line of a transmission entry: a follower's multiplier and offset (mimic,
    gearbox, screw: the reduction is the multiplier), or the joint's role, joint-side
    reduction and offset."""
    if joint.get("role") == "follower":
        return (
            f"    joint {joint.get('name')}: follower, multiplier "
            f"{_val(joint.get('reduction'))}, offset {_val(joint.get('offset'))}\n"
        )
    return (
        f"    joint {joint.get('name')}: role {_val(joint.get('role'))}, "
        f"{_reduction('joint', joint.get('reduction'))}, offset {_val(joint.get('offset'))}\n"
    )


def _transmissions(described: list[dict], out: TextIO) -> None:
    """Write the transmissions section (nothing without entries): per entry of the report its
    name, type and dialect, the effective mapping, its joints (:func:`_transmission_joint`),
    actuators (role, actuator-side reduction) and notes."""
    if not described:
        return
    out.write(
        "\ntransmissions (reductions as written, on the side where the file gives them; "
        "effective = what the bridge applies):\n"
    )
    for entry in described:
        out.write(f"  {entry.get('name')} ({entry.get('type')}, {entry.get('dialect')} dialect)\n")
        out.write(f"    effective: {entry.get('effective', '')}\n")
        for joint in entry.get("joints", ()):
            out.write(_transmission_joint(joint))
        for actuator in entry.get("actuators", ()):
            out.write(
                f"    actuator {actuator.get('name')}: role {_val(actuator.get('role'))}, "
                f"{_reduction('actuator', actuator.get('reduction'))}\n"
            )
        for note in entry.get("notes", ()):
            out.write(f"    note: {note}\n")


def _sensors(robot: Robot, out: TextIO) -> None:
    """Write the sensors table (nothing without sensors): per description sensor its name,
    type, link (or joint), rate, where it was defined and what it publishes
    (:func:`~sdf_bridge.summary.publishes`), then the ``<ros2_control>`` sensors
    (:func:`_hardware_sensors`)."""
    hardware_sensors = _hardware_sensors(robot)
    if not robot.sensors and not hardware_sensors:
        return
    out.write("\nsensors (publishes: topic (message), relative to the node's namespace):\n")
    rows = [["name", "type", "link", "rate (Hz)", "defined in", "publishes"]]
    for sensor in robot.sensors:
        rows.append(
            [
                sensor.name,
                sensor.type,
                str(sensor.link or sensor.joint or "-"),
                f"{sensor.update_rate:g}",
                _SENSOR_ORIGIN.get(sensor.origin_format, "-"),
                publishes(sensor),
            ]
        )
    rows.extend(hardware_sensors)
    _table(rows, out)


def _feedback(robot: Robot, out: TextIO) -> list[str]:
    """Write the joints whose wrench the MuJoCo backend publishes, with their topic and frame
    (:func:`~sdf_bridge.app.topic_names.joint_wrench_topics`, the node's rule); nothing when
    there are none. Returns the naming rule's warnings (joints whose topics collided)."""
    feedback = joint_wrench_topics(robot)
    if feedback.topics:
        out.write(
            "\njoint wrench feedback (MuJoCo; publishes geometry_msgs/WrenchStamped, ~ = the "
            "node's namespace and name, frame_id the child link):\n"
        )
        for name, topic in feedback.topics.items():
            out.write(f"  {name}: {topic} (frame {robot.joints[name].child})\n")
    return list(feedback.warnings)


def _warnings(warnings: Sequence[str], verbose: bool, out: TextIO) -> None:
    """Write ``warnings``: one line per kind and file
    (:func:`~sdf_bridge.description.warning_digest.digest`), or each with ``verbose``; the
    heading gives their number. Nothing without warnings."""
    if not warnings:
        return
    lines = list(warnings) if verbose else digest(warnings)
    aggregated = "" if len(lines) == len(warnings) else ", one line per kind (--verbose: all)"
    out.write(f"\nwarnings ({len(warnings)}{aggregated}):\n")
    for line in lines:
        out.write(f"  {line}\n")


def _problems(robot: Robot, problems: list[str], described: list[dict], out: TextIO) -> None:
    """Write the problems: ``problems`` (the bridge refuses the robot), then what it works
    around, marked ``(worked around)``: inertias no rigid body has
    (:func:`~sdf_bridge.description.inertia.inertia_fix`) and what a simulated robot runs
    without (:func:`_skipped_for_simulation`); ``problems: none`` when there is nothing."""
    mended = [
        fix
        for link in robot.links.values()
        if link.inertial is not None
        and (fix := inertia_fix(link.name, link.inertial.inertia)) is not None
    ]
    mended += _skipped_for_simulation(robot, described)
    total = len(problems) + len(mended)
    out.write(f"\nproblems ({total}):\n" if total else "\nproblems: none\n")
    for problem in problems:
        out.write(f"  {problem}\n")
    for fix in mended:
        out.write(f"  (worked around) {fix}\n")


def print_summary(
    robot: Robot,
    warnings: Sequence[str],
    out: TextIO,
    *,
    show_problems: bool = True,
    verbose: bool = False,
) -> int:
    """Print the readable summary of ``robot`` (``warnings`` one line per kind and file,
    :func:`~sdf_bridge.description.warning_digest.digest`, or each one with ``verbose``);
    return the number of problems that make the
    bridge refuse it (a transmission or limits it cannot build). Problems it works around
    (inertias no rigid body has, which it balances; transmission and ``<ros2_control>``
    elements it skipped, :func:`~sdf_bridge.description.contain.driver_skips`) are listed too,
    marked ``(worked around)``, and not counted. Sections, in order: header, joints,
    transmissions, sensors, joint wrench feedback, warnings, problems (``show_problems``)."""
    problems: list[str] = []
    _header(robot, out)
    views, limit_warnings, refusals = joint_views(robot)
    described = transmission_report(robot, problems)
    if not problems:  # a transmission problem is reported once, located, by the transmission report
        problems.extend(refusals)
    _joints(robot, views, out)
    _transmissions(described, out)
    _sensors(robot, out)
    named = _feedback(robot, out)
    _warnings(
        [*warnings, *limit_warnings, *feedback_skips(robot), *named, *missing_meshes(robot)],
        verbose,
        out,
    )
    if show_problems:
        _problems(robot, problems, described, out)
    return len(problems)
