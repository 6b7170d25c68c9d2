"""Contact sensors simulated in MuJoCo: the contacts touching a link, in its frame.

A contact sensor covers the collision geoms of its link and, for URDF, of the links Gazebo lumps
into it, or only the collisions its ``<contact><collision>`` filter names (URDF ones also by
their Gazebo names, lumped ones included: :mod:`.contact_names`). Each contact is reported
ordered (the link's collision, the other), with its position, the normal out of the link and
the force on the link (from ``mj_contactForce``), in the link's frame or in the sensor's
``frame_id`` override (:class:`ContactSensor`). :class:`.sensors.SensorSuite` makes one per
contact sensor and reads it when it is due.
"""

from __future__ import annotations

import logging

import mujoco
import numpy as np

from ...description.model import Robot, Sensor
from ..sensor_readings import Contact, ContactReading
from .builder import BuiltModel
from .contact_names import gazebo_collision_names, lumped_links
from .geoms import VISUAL_GROUP

_LOG = logging.getLogger(__name__)


class ContactSensor:
    """One contact sensor: the geoms it covers and the frame it reports in (each found once per
    compiled model, cached) and its reading (:meth:`read`).

    Args:
        robot: the description (its links, the links Gazebo lumps, its format).
        built: the built model (link → MuJoCo body names).
        sensor: the description sensor (its name, its ``frame_id`` override).
        collisions: the collision names its filter keeps (``ContactParams.collisions``; empty:
            every collision of the link).
    """

    def __init__(
        self, robot: Robot, built: BuiltModel, sensor: Sensor, collisions: tuple[str, ...]
    ) -> None:
        self.robot = robot
        self.built = built
        self.sensor = sensor
        self.collisions = collisions
        self._geoms: tuple[mujoco.MjModel, np.ndarray, list[str]] | None = None
        self._frame: tuple[mujoco.MjModel, int, str] | None = None

    def read(self, model: mujoco.MjModel, data: mujoco.MjData, sensor_body: int) -> ContactReading:
        """The contacts touching the sensor's link (MuJoCo body ``sensor_body``), or only its
        named collisions, in the link's frame, or in the sensor's ``frame_id`` override when the
        model has that frame (``world`` or a link: Gazebo's bumper ``frameName``;
        :meth:`frame`) (see :class:`~sdf_bridge.backends.sensor_readings.Contact`).

        MuJoCo's contact frame (``contact.frame``, rows = axes in the world) has its first axis
        along the normal, pointing from ``geom1`` to ``geom2``; ``mj_contactForce`` gives, in
        that frame, the force ``geom1`` exerts on ``geom2`` (normal part ≥ 0: contacts push).
        So with ``s = +1`` when the sensor's geom is ``geom2`` and ``-1`` when it is ``geom1``:
        force on the link = ``s · frameᵀ · f``, normal out of the link = ``-s · frame[0]``; both
        then rotated by ``Rᵀ`` and the position by ``Rᵀ (p − x)`` with ``R = data.xmat[body]``,
        ``x = data.xpos[body]`` (the target frame's body in the world; the world body 0 has
        ``R = I``, ``x = 0``). Conventions: MuJoCo
        documentation, Computation → Contact and ``mj_contactForce``; the sign is checked
        against MuJoCo's ``cfrc_ext`` in the tests (test_contact.py).
        """
        mine, names = self.geoms(model, sensor_body)
        body, frame = self.frame(model, sensor_body)
        if data.ncon == 0:
            return ContactReading((), frame)
        contact = data.contact  # the arrays of the current contacts, (ncon, …)
        geoms = contact.geom  # (ncon, 2) geom ids
        selected = np.flatnonzero(mine[geoms].any(axis=1))
        if selected.size == 0:
            return ContactReading((), frame)
        geoms = geoms[selected]
        # +1: the sensor's geom is geom2, on which f acts
        sign = np.where(mine[geoms[:, 1]], 1.0, -1.0)
        local = np.empty((selected.size, 3))  # force in each contact frame
        wrench = np.zeros(6)
        for i, k in enumerate(selected.tolist()):
            mujoco.mj_contactForce(model, data, k, wrench)
            local[i] = wrench[:3]
        frames = contact.frame[selected].reshape(-1, 3, 3)  # rows: normal, tangents (world)
        rotation = data.xmat[body].reshape(3, 3)  # target frame → world; v @ rotation = rotationᵀ v
        force = (sign[:, None] * np.einsum("nji,nj->ni", frames, local)) @ rotation
        normal = (-sign[:, None] * frames[:, 0, :]) @ rotation
        position = (contact.pos[selected] - data.xpos[body]) @ rotation
        return ContactReading(
            tuple(
                Contact(body1=names[own], body2=names[other], position=p, normal=n, force=f)
                for own, other, p, n, f in zip(
                    np.where(sign > 0, geoms[:, 1], geoms[:, 0]).tolist(),
                    np.where(sign > 0, geoms[:, 0], geoms[:, 1]).tolist(),
                    map(tuple, position.tolist()),
                    map(tuple, normal.tolist()),
                    map(tuple, force.tolist()),
                )
            ),
            frame,
        )

    def frame(self, model: mujoco.MjModel, sensor_body: int) -> tuple[int, str]:
        """(MuJoCo body id, frame name) the contacts are expressed in: the sensor's ``frame_id``
        override when it is ``world`` (body 0) or a link of the model (Gazebo's bumper plugin
        reports contacts in its ``frameName``), else the sensor's link (body ``sensor_body``). An
        override the model does not have is warned about once (the contacts then stay in the
        link's frame, and say so). Cached per model."""
        cached = self._frame
        if cached is not None and cached[0] is model:
            return cached[1], cached[2]
        link = str(model.body(sensor_body).name)
        wanted = self.sensor.frame_id
        body, frame = sensor_body, link
        if wanted == "world":
            body, frame = 0, "world"
        elif wanted:
            name = self.built.link_body.get(wanted)
            found = -1 if name is None else mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, name)
            if found >= 0:
                body, frame = found, wanted
            else:
                _LOG.warning(
                    "sensor %r: its frame %r is not a link of the model (nor 'world'); its "
                    "contacts are given in its link's frame %r, stamped so",
                    self.sensor.name,
                    wanted,
                    link,
                )
        self._frame = (model, body, frame)
        return body, frame

    def geoms(self, model: mujoco.MjModel, sensor_body: int) -> tuple[np.ndarray, list[str]]:
        """(mask, names): the mask over the model's geoms, shape (ngeom,), of the collision geoms
        of the sensor's link (body ``sensor_body``) and, for URDF, of the links Gazebo lumps into it
        (:func:`.contact_names.lumped_links`), only those the sensor's ``collisions`` name when
        it names any (by the collision's own name, or for URDF by the names Gazebo gives it,
        :func:`.contact_names.gazebo_collision_names`); the name of every geom (``_name``).
        Cached per model; a filter that names none of the link's collisions is warned about
        once (the sensor then reports no contacts)."""
        cached = self._geoms
        if cached is not None and cached[0] is model:
            return cached[1], cached[2]
        wanted = set(self.collisions)
        link_name = str(model.body(sensor_body).name)
        members = [m for m in lumped_links(self.robot, link_name) if m in self.robot.links] or [
            link_name
        ]
        bodies = [
            mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, self.built.link_body.get(m, m))
            for m in members
        ]
        mask = np.isin(model.geom_bodyid, bodies) & (model.geom_group != VISUAL_GROUP)
        if wanted:
            geoms = np.flatnonzero(mask)
            aliases: list[set[str]] = [set() for _ in geoms]
            for names, g in zip(aliases, geoms):
                name = str(model.geom(int(g)).name)
                prefix = f"{model.body(int(model.geom_bodyid[g])).name}::collision::"
                if name.startswith(prefix):
                    names.add(name[len(prefix) :])
            # Gazebo's names, by position: per link, only when every collision became a geom
            by_link: dict[str, list[int]] = {}
            for i, g in enumerate(geoms):
                by_link.setdefault(str(model.body(int(model.geom_bodyid[g])).name), []).append(i)
            for owner, index, gazebo in (
                gazebo_collision_names(self.robot, link_name) if self.robot.format == "urdf" else ()
            ):
                slots = by_link.get(owner, [])
                if len(slots) == len(self.robot.links[owner].collisions):
                    aliases[slots[index]].update(gazebo)
            mask[:] = False
            for names, g in zip(aliases, geoms):
                mask[g] = bool(names & wanted)
            if not mask.any():
                known = sorted(set().union(*aliases)) if aliases else []
                why = (
                    "none: the link has no collision geoms"
                    if len(geoms) == 0
                    else f"none: its {len(geoms)} collision geom(s) have no name, and Gazebo's "
                    "names are not given when one of the link's collisions could not be "
                    "built"
                )
                _LOG.warning(
                    "sensor %r: its <collision> filter %s names no collision of link %r in the "
                    "model (known names: %s); it reports no contacts",
                    self.sensor.name,
                    sorted(wanted),
                    link_name,
                    known or why,
                )
        names = [_name(model, g) for g in range(model.ngeom)]
        self._geoms = (model, mask, names)
        return mask, names


def _name(model: mujoco.MjModel, geom: int) -> str:
    name = model.geom(geom).name
    return name or model.body(int(model.geom_bodyid[geom])).name
