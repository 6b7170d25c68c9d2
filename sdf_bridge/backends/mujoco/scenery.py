"""The scenery of a robot taken from an SDFormat world (:attr:`Robot.scenery
<sdf_bridge.description.model.Robot.scenery>`) as fixed MuJoCo world geometry.

Every collision and visual of every link of every scenery model becomes a geom of the world
body at ``X_world,model · X_model,link · X_link,geom`` (the zero configuration of a model with
joints: other robots of the world stand still). Collision geoms collide with the robot as the
ground does (not with each other: they are all world geoms), are seen by ray sensors and are
named ``<model>::<link>::collision::<name>``. The world's ground is the world's own (a ground
plane model, or none): the builder adds no plane of its own for a robot of a world.
"""

from __future__ import annotations

import mujoco
import numpy as np

from ...description.model import Pose, Robot
from .geoms import GROUND_CONAFFINITY, GROUND_CONTYPE, MeshLoader, add_geom


def add_scenery(
    spec: mujoco.MjSpec, robot: Robot, meshes: MeshLoader, *, visual_geoms: bool
) -> list[str]:
    """Add the geoms of ``robot.scenery`` to ``spec``'s world body.

    Args:
        spec: the robot's MjSpec.
        robot: the robot; its scenery models carry their world ``pose`` and link poses.
        meshes: the spec's mesh loader.
        visual_geoms: add the visuals too.

    Returns:
        The names of the scenery models that are not static (simulated fixed; the caller notes
        them).
    """
    world = spec.worldbody
    moving: list[str] = []
    for model in robot.scenery:
        if not model.static:
            moving.append(model.name)
        x_wm = model.pose.matrix()
        for link in model.links.values():
            x_wl = x_wm @ (link.pose.matrix() if link.pose is not None else np.eye(4))
            elements = [(c, False) for c in link.collisions]
            if visual_geoms:
                elements += [(v, True) for v in link.visuals]
            for element, visual in elements:
                frame = x_wl @ element.origin.matrix()
                color = element.material.color if visual and element.material is not None else None
                before = len(world.geoms)
                if not add_geom(
                    world,
                    element.geometry,
                    Pose.from_matrix(frame),
                    meshes,
                    name=None,
                    visual=visual,
                    rgba=color,
                    self_collide=False,
                ):
                    continue
                geom = world.geoms[before]
                if element.name:
                    kind = "visual" if visual else "collision"
                    geom.name = f"{model.name}::{link.name}::{kind}::{element.name}"
                if not visual:
                    geom.contype, geom.conaffinity = GROUND_CONTYPE, GROUND_CONAFFINITY
    return moving


__all__ = ["add_scenery"]
