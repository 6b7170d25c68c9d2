"""The MuJoCo backend simulates an SDFormat world's <gravity> unless the ``gravity`` parameter
is given (sdf_bridge.backends.mujoco.options). Accelerations exact to 1e-12 m/s² (a free body
without contacts: MuJoCo's qacc is gravity itself, up to rounding)."""

from __future__ import annotations

import logging

import numpy as np
import pytest
from mujoco_helpers import pendulum_urdf

from sdf_bridge.description import load
from sdf_bridge.errors import ConfigError

LOGGER = "sdf_bridge.backends.mujoco.backend"

MOON = """<?xml version="1.0"?>
<sdf version="1.9">
  <world name="moon">
    <gravity>0 0 -1.62</gravity>
    <model name="box"><pose>0 0 2 0 0 0</pose>
      <link name="body">
        <inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia>
        </inertial>
        <collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision>
      </link>
    </model>
  </world>
</sdf>"""


def _fall(make_sim, source: str, params: dict) -> tuple[np.ndarray, np.ndarray, float]:
    """A free box falls for 0.1 s: (qacc, qvel of its free joint, simulated time)."""
    sim = make_sim(load(source), {"fixed_base": False, **params})
    for _ in range(10):
        sim.backend.read(0.01)
    data = sim.backend.data
    return data.qacc[:3].copy(), data.qvel[:3].copy(), data.time


def test_a_box_falls_with_the_worlds_gravity(make_sim, caplog) -> None:
    with caplog.at_level(logging.INFO, logger=LOGGER):
        qacc, qvel, time = _fall(make_sim, MOON, {})
    np.testing.assert_allclose(qacc, [0.0, 0.0, -1.62], rtol=0, atol=1e-12)
    # semi-implicit Euler at constant acceleration: v = g·t exactly (up to rounding)
    np.testing.assert_allclose(qvel, [0.0, 0.0, -1.62 * time], rtol=0, atol=1e-12)
    assert time == pytest.approx(0.1, abs=1e-12)
    assert (
        "gravity [0.0, 0.0, -1.62] m/s², the <gravity> of world 'moon' (the backend parameter "
        "gravity is not given; its default would be [0.0, 0.0, -9.81])"
    ) in [r.getMessage() for r in caplog.records if r.name == LOGGER]


def test_the_gravity_parameter_wins_with_a_warning(make_sim, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        qacc, _, _ = _fall(make_sim, MOON, {"gravity": "0 0 -3.71"})
    np.testing.assert_allclose(qacc, [0.0, 0.0, -3.71], rtol=0, atol=1e-12)
    assert [r.getMessage() for r in caplog.records if r.name == LOGGER] == [
        "gravity [0.0, 0.0, -3.71] m/s² of the backend parameter gravity, not the <gravity> "
        "[0.0, 0.0, -1.62] of world 'moon' (Gazebo would simulate the world's; leave the "
        "parameter out to use it)"
    ]


def test_a_parameter_equal_to_the_worlds_gravity_is_not_warned_about(make_sim, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        qacc, _, _ = _fall(make_sim, MOON, {"gravity": [0, 0, -1.62]})
    np.testing.assert_allclose(qacc, [0.0, 0.0, -1.62], rtol=0, atol=1e-12)
    assert [r for r in caplog.records if r.name == LOGGER] == []


def test_a_world_without_gravity_falls_at_sdformats_default(make_sim) -> None:
    earth = MOON.replace("<gravity>0 0 -1.62</gravity>", "")
    qacc, _, _ = _fall(make_sim, earth, {})
    np.testing.assert_allclose(qacc, [0.0, 0.0, -9.8], rtol=0, atol=1e-12)


def test_a_urdf_gets_the_backends_default_silently(make_sim, caplog) -> None:
    with caplog.at_level(logging.INFO, logger=LOGGER):
        sim = make_sim(pendulum_urdf(), {})
    np.testing.assert_allclose(sim.backend.model.opt.gravity, [0, 0, -9.81], rtol=0, atol=0)
    assert not [r for r in caplog.records if "gravity" in r.getMessage()]


def test_a_bad_gravity_parameter_is_refused_even_with_a_world(make_sim) -> None:
    with pytest.raises(
        ConfigError,
        match=r"^backend parameter gravity = \['0', '-1\.62'\] must have 3 numbers, has 2\. Fix: "
        r"give the world's gravity in m/s², each component within ±1e6 \(Earth: \[0\.0, 0\.0, "
        r"-9\.81\]\)$",
    ):
        make_sim(load(MOON), {"gravity": "0 -1.62"})
