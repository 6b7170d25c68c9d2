"""Fixtures of the MuJoCo backend tests (helpers live in ``mujoco_helpers``)."""

from __future__ import annotations

# MuJoCo picks its OpenGL platform when first imported; sdf_bridge.backends.mujoco chooses EGL or
# OSMesa when MUJOCO_GL is unset (tested in test_glplatform), so the camera tests run headless.
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from mujoco_helpers import Sim

from sdf_bridge.description import load
from sdf_bridge.description.model import Robot


@pytest.fixture
def make_sim() -> Iterator[Callable[..., Sim]]:
    """Factory: ``make_sim(urdf_or_robot, params=None) -> Sim``."""
    created: list[Sim] = []

    def factory(source: str | Robot, params: Mapping[str, Any] | None = None) -> Sim:
        robot = load(source) if isinstance(source, str) else source
        sim = Sim(robot, params)
        created.append(sim)
        return sim

    yield factory
    for sim in created:
        sim.backend.close()
