"""What a robot needs before it is written as SDFormat 1.9 that libsdformat loads without errors
(:func:`~.sdf_validity.simulated_masses` before lumping, :func:`~.sdf_validity.sdf_names`
after).

Every change is warned about (the ``sdf_bridge.description.export`` logger), naming what changed:

* **Names shared by a link and a joint** (common in URDF, where they live apart: ANYmal's
  ``LF_HAA``, ``head_camera``): SDFormat ≥ 1.7 gives links, joints and frames of a model one
  namespace, so the joint is renamed ``<name>_joint`` (``_joint0``, ``_joint1``, … while taken),
  as libsdformat itself renames it in files older than 1.7; every reference to it moves along
  (mimic leaders, ``<ros2_control>`` joints, transmissions, sensors, ``<gazebo reference>``).
* **URDF links without mass** (no ``<inertial>``, or a mass below
  :data:`~sdf_bridge.description.inertia.MIN_MASS`): written with the mass and inertia the simulator
  gives them (:data:`~sdf_bridge.description.inertia.DEFAULT_MASS`,
  :data:`~sdf_bridge.description.inertia.DEFAULT_INERTIA`), never left to SDFormat's default of 1
  kg.
* **Inertias no rigid body has**: written balanced
  (:func:`~sdf_bridge.description.inertia.balanced_inertia`), as the simulator uses them.
* **Sensor types SDFormat 1.9 does not define** (``air_speed``, …): not written.
"""

from __future__ import annotations

import dataclasses
import logging

from lxml import etree

from ..inertia import DEFAULT_INERTIA, DEFAULT_MASS, MIN_MASS, balanced_inertia, inertia_fix
from ..model import Inertia, Inertial, Robot, Transmission

LOG = logging.getLogger("sdf_bridge.description.export")

#: Sensor types of SDFormat 1.9 (sdformat.org spec ``sensor.sdf``; ``depth``, ``rgbd`` and
#: ``thermal`` are libsdformat's aliases).
SDF_SENSOR_TYPES = frozenset(
    {
        "air_pressure",
        "altimeter",
        "boundingbox_camera",
        "camera",
        "contact",
        "custom",
        "depth",
        "depth_camera",
        "force_torque",
        "gps",
        "gpu_lidar",
        "gpu_ray",
        "imu",
        "lidar",
        "logical_camera",
        "magnetometer",
        "multicamera",
        "navsat",
        "ray",
        "rfid",
        "rfidtag",
        "rgbd",
        "rgbd_camera",
        "segmentation_camera",
        "sonar",
        "thermal",
        "thermal_camera",
        "transceiver",
        "wideanglecamera",
    }
)


def _free_name(name: str, taken: set[str]) -> str:
    """``name_joint``, else ``name_joint0``, ``name_joint1``, … (libsdformat's renaming)."""
    candidate = f"{name}_joint"
    k = 0
    while candidate in taken:
        candidate = f"{name}_joint{k}"
        k += 1
    return candidate


def _renamed_xml(raw: str, names: dict[str, str]) -> str:
    """``raw`` with the ``name`` of its ``<joint>`` elements renamed by ``names``."""
    if not raw:
        return raw
    elem = etree.fromstring(raw)
    for joint in elem.iter("joint"):
        if joint.get("name") in names:
            joint.set("name", names[joint.get("name")])
    return etree.tostring(elem, encoding="unicode", with_tail=False)


def rename_joints(robot: Robot, names: dict[str, str]) -> Robot:
    """``robot`` with joints renamed by ``names`` (old → new) and every reference to them."""

    def new(name: str | None) -> str | None:
        return names.get(name, name) if name is not None else None

    joints = {}
    for joint in robot.joints.values():
        mimic = joint.mimic and dataclasses.replace(joint.mimic, joint=new(joint.mimic.joint))
        joints[new(joint.name)] = dataclasses.replace(joint, name=new(joint.name), mimic=mimic)

    def transmission(t: Transmission) -> Transmission:
        return dataclasses.replace(
            t,
            joints=tuple(dataclasses.replace(j, name=new(j.name)) for j in t.joints),
            raw_xml=_renamed_xml(t.raw_xml, names),
        )

    blocks = tuple(
        dataclasses.replace(
            hw,
            joints=tuple(dataclasses.replace(c, name=new(c.name)) for c in hw.joints),
            transmissions=tuple(transmission(t) for t in hw.transmissions),
        )
        for hw in robot.ros2_control
    )
    return dataclasses.replace(
        robot,
        joints=joints,
        ros2_control=blocks,
        transmissions=tuple(transmission(t) for t in robot.transmissions),
        sensors=tuple(
            dataclasses.replace(
                s, joint=new(s.joint), link=s.link if s.link in robot.links else new(s.link)
            )
            for s in robot.sensors
        ),
        gazebo=tuple(
            dataclasses.replace(
                g, reference=g.reference if g.reference in robot.links else new(g.reference)
            )
            for g in robot.gazebo
        ),
    )


def simulated_masses(robot: Robot) -> Robot:
    """``robot`` with the mass properties the simulator uses: URDF links without mass get
    :data:`~sdf_bridge.description.inertia.DEFAULT_MASS` and
    :data:`~sdf_bridge.description.inertia.DEFAULT_INERTIA`, inertias no rigid body has are balanced
    (both warned about). Applied before lumping, so a lumped model weighs what the simulator
    moves."""
    links = dict(robot.links)
    massless = []
    for name, link in links.items():
        inertial = link.inertial
        if (
            robot.format == "urdf"
            and name != "world"
            and (inertial is None or inertial.mass < MIN_MASS)
        ):
            massless.append(name)
            links[name] = dataclasses.replace(
                link,
                inertial=Inertial(
                    DEFAULT_MASS,
                    Inertia(ixx=DEFAULT_INERTIA, iyy=DEFAULT_INERTIA, izz=DEFAULT_INERTIA),
                ),
            )
        elif inertial is not None:
            fix = inertia_fix(name, inertial.inertia)
            if fix is not None:
                LOG.warning("%s (written so)", fix)
                links[name] = dataclasses.replace(
                    link,
                    inertial=dataclasses.replace(
                        inertial, inertia=balanced_inertia(inertial.inertia)
                    ),
                )
    if massless:
        LOG.warning(
            "URDF links %s have no mass: written with the mass the simulator uses, %g kg and %g "
            "kg·m² (not SDFormat's default 1 kg)",
            ", ".join(map(repr, massless)),
            DEFAULT_MASS,
            DEFAULT_INERTIA,
        )
    return dataclasses.replace(robot, links=links)


def sdf_names(robot: Robot) -> Robot:
    """``robot`` with the names and sensors SDFormat 1.9 takes: joints named like links renamed,
    sensors of types it lacks left out (both warned about)."""
    taken = set(robot.links) | set(robot.joints)
    names: dict[str, str] = {}
    for joint in robot.joints:
        if joint in robot.links:
            names[joint] = _free_name(joint, taken)
            taken.add(names[joint])
    if names:
        LOG.warning(
            "joints %s renamed %s: SDFormat gives links and joints one namespace and these names "
            "are also links' (libsdformat renames such joints the same way in files before "
            "SDFormat 1.7)",
            ", ".join(map(repr, names)),
            ", ".join(map(repr, names.values())),
        )
        robot = rename_joints(robot, names)
    unknown = [s.name for s in robot.sensors if (s.raw_type or s.type) not in SDF_SENSOR_TYPES]
    if unknown:
        LOG.warning(
            "sensors %s not written: SDFormat 1.9 has no sensor type %s",
            ", ".join(map(repr, unknown)),
            ", ".join(
                sorted({repr(s.raw_type or s.type) for s in robot.sensors if s.name in unknown})
            ),
        )
    return dataclasses.replace(
        robot, sensors=tuple(s for s in robot.sensors if s.name not in unknown)
    )


__all__ = ["SDF_SENSOR_TYPES", "rename_joints", "sdf_names", "simulated_masses"]
