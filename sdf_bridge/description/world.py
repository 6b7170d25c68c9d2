"""Which model of an SDFormat world is the robot, and what becomes its scenery.

Gazebo simulates every model of a world; the bridge drives one robot. A world's *robots* are
its models that are not ``<static>``; :func:`select_robot` picks the one named (``--model``,
the node's ``model`` parameter), or the only robot when there is one, and hands the other
models over as :attr:`Robot.scenery <sdf_bridge.description.model.Robot.scenery>` (a ground
plane, walls, other robots): simulating backends make them fixed world geometry, and add no
ground of their own (the world's models are all there is).
"""

from __future__ import annotations

import dataclasses

from ..errors import MissingReferenceError, UnsupportedError
from .model import Robot, World


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


def select_robot(model: Robot | World, name: str | None = None) -> Robot:
    """The robot to drive (see the module docstring).

    Args:
        model: what :func:`sdf_bridge.description.load` returned.
        name: the model to drive, or ``None`` (a world's only non-static model).

    Raises:
        MissingReferenceError: ``name`` is not a model of the world (or not the robot's name);
            the message lists the models.
        UnsupportedError: no ``name`` and the world holds several robots (or none); the
            message lists them and says how to choose.
    """
    source = model.source_file or "<string>"
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
        f"world {model.name!r} holds {len(robots)} robots (non-static models): {listed}; the "
        "bridge drives one",
        file=source,
        element=element,
        fix="choose one with --model NAME (sdf-bridge convert / run) or the node parameter "
        "model:=NAME",
    )


__all__ = ["robots_of", "select_robot", "with_scenery"]
