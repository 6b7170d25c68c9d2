"""What a conversion cannot carry over, reported as warnings (nothing is dropped silently).

Each writer calls its ``warn_*_losses`` function; every warning goes to the
``sdf_bridge.description.export`` logger (``logging.WARNING``), names the elements concerned
and says why they are not written. ``sdf-bridge convert`` prints these warnings to standard
error (see :mod:`.command`).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable

from ..model import Robot, Transmission

LOG = logging.getLogger("sdf_bridge.description.export")

#: Joint ``<gazebo>`` properties honoured by keeping fixed joints as fixed joints (the default).
FIXED_JOINT_FLAGS = frozenset({"disableFixedJointLumping", "preserveFixedJoint"})
#: SDFormat defaults of joint stop stiffness and dissipation (values equal to these are not lost).
_SDF_STOP_DEFAULTS = {"stiffness": 1e8, "dissipation": 1.0}


def _names(items: Iterable[str]) -> str:
    return ", ".join(repr(i) for i in items)


def top_level_transmissions(robot: Robot) -> list[Transmission]:
    """Transmissions that belong to no ``<ros2_control>`` block (classic, PR2, or a stray
    ros2_control-form one), in model order, that can be written (they have ``raw_xml``)."""
    return [t for t in robot.transmissions if t.hardware is None and t.raw_xml]


def _warn_transmissions(robot: Robot) -> None:
    """Transmissions no writer can place: no ``raw_xml``, or a ``hardware`` block that is not
    in ``robot.ros2_control``."""
    lost = [t.name for t in robot.transmissions if t.hardware is None and not t.raw_xml]
    if lost:
        LOG.warning(
            "transmissions %s not written: they have no raw_xml (built in code, not read from a "
            "file)",
            _names(lost),
        )
    in_blocks = {id(t) for hw in robot.ros2_control for t in hw.transmissions}
    orphans = [
        f"{t.name} (hardware {t.hardware!r})"
        for t in robot.transmissions
        if t.hardware is not None and id(t) not in in_blocks
    ]
    if orphans:
        LOG.warning(
            "transmissions %s not written: their <ros2_control> block is not part of the robot",
            _names(orphans),
        )


def _noisy(params: object) -> bool:
    if params is None or not dataclasses.is_dataclass(params):
        return False
    return any(
        "noise" in f.name and getattr(params, f.name) is not None
        for f in dataclasses.fields(params)
    )


def warn_sdf_losses(
    robot: Robot,
    *,
    written_sensors: Iterable[str],
    link_properties: Iterable[str],
    joint_properties: Iterable[str],
) -> None:
    """Warn about what :func:`~.sdf_writer.to_sdf` does not write for ``robot``.

    Args:
        robot: the robot as written (after lumping, if any).
        written_sensors: names of the sensors the writer placed in a link or joint.
        link_properties, joint_properties: link/joint ``<gazebo>`` properties the writer maps.
    """
    _warn_transmissions(robot)
    calibrated = [j.name for j in robot.joints.values() if j.calibration is not None]
    if calibrated:
        LOG.warning(
            "<calibration> of joints %s not written: SDFormat has no calibration element",
            _names(calibrated),
        )
    safety = [j.name for j in robot.joints.values() if j.safety_controller is not None]
    if safety:
        LOG.warning(
            "<safety_controller> of joints %s not written: SDFormat has no soft limits "
            "(give them to the bridge as joint limit overrides)",
            _names(safety),
        )
    textures = sorted(
        {
            f"{link.name} ({v.material.texture})"
            for link in robot.links.values()
            for v in link.visuals
            if v.material is not None and v.material.texture
        }
    )
    if textures:
        LOG.warning(
            "URDF material textures of links %s not written: SDFormat materials take a PBR or "
            "script material instead",
            _names(textures),
        )
    written = set(written_sensors)
    unplaced = [s.name for s in robot.sensors if s.name not in written]
    if unplaced:
        LOG.warning(
            "sensors %s not written: attached to no link or joint of the written model",
            _names(unplaced),
        )
    noisy = [s.name for s in robot.sensors if _noisy(s.params)]
    if noisy:
        LOG.warning(
            "noise models of sensors %s not written (the sensors are written without noise)",
            _names(noisy),
        )
    link_keys, joint_keys = set(link_properties), set(joint_properties) | FIXED_JOINT_FLAGS
    unmapped: dict[tuple[str, str], list[str]] = {}  # (kind, property) → references
    for ext in robot.gazebo:
        if ext.reference is None:
            kind, known = "model", {"static"}
        elif ext.reference in robot.links:
            kind, known = "link", link_keys
        elif ext.reference in robot.joints:
            kind, known = "joint", joint_keys
        else:
            if ext.properties:
                LOG.warning(
                    '<gazebo reference="%s"> not written: it names no link or joint of the '
                    "written model (properties %s)",
                    ext.reference,
                    _names(k for k, _ in ext.properties),
                )
            continue
        for key, _ in ext.properties:
            if key not in known:
                refs = unmapped.setdefault((kind, key), [])
                if ext.reference is not None and ext.reference not in refs:
                    refs.append(ext.reference)
    for (kind, key), refs in unmapped.items():
        where = f"of {kind}s {_names(refs)}" if refs else "of the model"
        LOG.warning(
            "<gazebo> property %r %s not written: this converter maps it to no SDFormat element",
            key,
            where,
        )


def warn_urdf_losses(robot: Robot) -> None:
    """Warn about what :func:`~.urdf_writer.to_urdf` does not write for ``robot``: SDF-only
    joint values (stop stiffness/dissipation other than the SDFormat defaults, springs, initial
    positions), model pose and ``static``, model plugins of SDF models, sensors on joints and
    urdfdom ``<sensor>`` elements, and transmissions without ``raw_xml``."""
    _warn_transmissions(robot)
    for joint in robot.joints.values():
        lost = []
        if joint.limit is not None:
            lost += [
                key
                for key, default in _SDF_STOP_DEFAULTS.items()
                if getattr(joint.limit, key) not in (None, default)
            ]
        if joint.dynamics is not None:
            lost += [
                key
                for key in ("spring_reference", "spring_stiffness")
                if getattr(joint.dynamics, key) != 0.0
            ]
        if joint.initial_position not in (None, 0.0):
            lost.append("initial_position")
        if lost:
            LOG.warning(
                "joint %r: %s not written: URDF has no such element", joint.name, ", ".join(lost)
            )
    if not robot.pose.is_identity or robot.static:
        LOG.warning("model pose / static of %r not written: a URDF robot has neither", robot.name)
    if robot.format == "sdf" and robot.plugins:
        LOG.warning(
            "model plugins %s not written: put them into a <gazebo> element by hand",
            _names(p.name for p in robot.plugins),
        )
    # a URDF <gazebo> extension is written as read (with its sensors, also on a joint); an
    # SDFormat sensor gets a <gazebo reference> on its link
    extensions = {ext.reference for ext in robot.gazebo if ext.raw_xml}
    unplaced = [
        s.name
        for s in robot.sensors
        if (s.origin_format == "gazebo" and (s.joint or s.link) not in extensions)
        or s.origin_format == "urdf"
        or (s.origin_format == "sdf" and (s.link is None or s.joint is not None))
    ]
    if unplaced:
        LOG.warning(
            "sensors %s not written into the URDF (the exported file only): URDF <gazebo> "
            "sensors hang from links only",
            _names(unplaced),
        )


__all__ = ["FIXED_JOINT_FLAGS", "top_level_transmissions", "warn_sdf_losses", "warn_urdf_losses"]
