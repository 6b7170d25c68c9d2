"""Contact sensors in MuJoCo: every contact in the frame of the sensor's link, ordered (the
link's collision, the other), the normal out of the link and the force on the link.

Robots at rest after 2 s of simulation: MuJoCo's soft contacts have settled, so the contact
forces carry the weight to within 1e-4 N; contact points lie within the penetration depth
(< 1e-4 m here) of the touching faces.
"""

from __future__ import annotations

import copy
import logging
import math
from pathlib import Path

import mujoco
import numpy as np
import pytest
from mujoco_helpers import G

from sdf_bridge.backends.sensor_readings import ContactReading

GRAVITY = {"gravity": [0.0, 0.0, -G]}
FORCE_TOL = 1e-4  # N
POSITION_TOL = 1e-4  # m

# a free 2 kg cube (edge 0.2 m) whose collision and centre of mass sit 0.05 m along the link's x
ROLLED_BOX = """<?xml version="1.0"?>
<robot name="box">
  <link name="box">
    <inertial><origin xyz="0.05 0 0"/><mass value="2"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision name="box_col"><origin xyz="0.05 0 0"/><geometry><box size="0.2 0.2 0.2"/></geometry>
      </collision>
  </link>
  <gazebo reference="box"><sensor name="touch" type="contact"/></gazebo>
</robot>"""

# a fixed 1 kg pad (top face at z = 0.55 m) and a 2 kg cube on a passive prismatic joint above it
STACK = (Path(__file__).parents[2] / "data" / "contact_stack.urdf").read_text()

# a free 1 kg cube (edge 0.2 m, its "foot") carrying a small "hat" cube on top
HAT_BOX = """<?xml version="1.0"?>
<robot name="hatted">
  <link name="box">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
      </inertial>
    <collision name="foot"><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
    <collision name="hat"><origin xyz="0 0 0.15"/><geometry><box size="0.1 0.1 0.1"/></geometry>
      </collision>
  </link>
  <gazebo reference="box">
    <sensor name="hat_touch" type="contact"><contact><collision>hat</collision></contact></sensor>
    <sensor name="foot_touch" type="contact"><contact><collision>foot</collision></contact></sensor>
  </gazebo>
</robot>"""


def _forces(reading: ContactReading) -> np.ndarray:
    return np.array([c.force for c in reading.contacts]).reshape(-1, 3)


def test_free_box_contacts_in_its_rolled_link_frame(make_sim) -> None:
    """Rolled by +π/2 about x, the link's −y axis points down: the bottom face's corners are at
    y = −0.1 and x = 0.05 ± 0.1 (the collision's offset) in the link frame, the normal (out of
    the box, into the ground) is −y and the ground pushes the box along +y with m·g."""
    sim = make_sim(
        ROLLED_BOX,
        {**GRAVITY, "fixed_base": False, "base_pose": [0.0, 0.0, 0.2, math.pi / 2, 0.0, 0.0]},
    )
    reading = sim.run(2.0)[-1].sensors["touch"]
    assert isinstance(reading, ContactReading)
    assert len(reading.contacts) == 4
    for c in reading.contacts:
        assert (c.body1, c.body2) == ("box::collision::box_col", "ground_plane")
        assert c.normal == pytest.approx((0.0, -1.0, 0.0), abs=1e-9)
        assert abs(c.position[1] + 0.1) < POSITION_TOL
    corners = sorted(
        ((c.position[0], c.position[2]) for c in reading.contacts),
        key=lambda p: np.round(p, 6).tolist(),
    )
    np.testing.assert_allclose(
        corners,
        [(-0.05, -0.1), (-0.05, 0.1), (0.15, -0.1), (0.15, 0.1)],
        rtol=0.0,
        atol=POSITION_TOL,
    )
    total = _forces(reading).sum(axis=0)
    assert total == pytest.approx((0.0, 2.0 * G, 0.0), abs=FORCE_TOL)
    assert all(np.dot(c.force, c.normal) < 0.0 for c in reading.contacts)  # the ground pushes


def test_force_matches_mujocos_external_force_on_the_body(make_sim) -> None:
    """Independent check of the sign: MuJoCo's ``cfrc_ext`` (``mj_rnePostConstraint``: the
    external force on each body, world frame, rows [torque, force]) equals the sum of the
    contact forces rotated to the world (tolerance 1e-9 N)."""
    sim = make_sim(
        ROLLED_BOX,
        {**GRAVITY, "fixed_base": False, "base_pose": [0.0, 0.0, 0.2, math.pi / 2, 0.0, 0.0]},
    )
    reading = sim.run(1.0)[-1].sensors["touch"]
    model, data = sim.backend.model, copy.copy(sim.backend.data)
    mujoco.mj_rnePostConstraint(model, data)
    body = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, "box")
    rotation = data.xmat[body].reshape(3, 3)
    world = rotation @ _forces(reading).sum(axis=0)
    np.testing.assert_allclose(world, data.cfrc_ext[body][3:], rtol=0.0, atol=1e-9)
    assert world[2] > 0.0


def test_both_sides_of_one_contact(make_sim) -> None:
    """The slider rests on the pad: each sensor names its own collision first, the normals
    point out of each link, and the forces are opposite (actio = reactio), m·g = 2g on the
    slider up and on the pad down. In MuJoCo's contacts the pad is ``geom1`` and the slider
    ``geom2``, so both orderings are exercised."""
    sim = make_sim(STACK, {**GRAVITY, "self_collide": True})
    first = sim.read(0.01).sensors
    assert first["pad_touch"] == ContactReading((), "pad")  # 5 cm gap: falling
    assert first["slider_touch"] == ContactReading((), "slider")
    sensors = sim.run(2.0)[-1].sensors
    pad, slider = sensors["pad_touch"], sensors["slider_touch"]
    model, data = sim.backend.model, sim.backend.data
    assert {
        (model.geom(int(g1)).name, model.geom(int(g2)).name) for g1, g2 in data.contact.geom
    } == {("pad::collision::pad_col", "slider::collision::slider_col")}
    assert len(pad.contacts) == len(slider.contacts) == 4
    assert {(c.body1, c.body2) for c in pad.contacts} == {
        ("pad::collision::pad_col", "slider::collision::slider_col")
    }
    assert {(c.body1, c.body2) for c in slider.contacts} == {
        ("slider::collision::slider_col", "pad::collision::pad_col")
    }
    for c in pad.contacts:
        assert c.normal == pytest.approx((0.0, 0.0, 1.0), abs=1e-9)
        assert abs(c.position[2] - 0.05) < POSITION_TOL  # the pad's top face, in the pad frame
    for c in slider.contacts:
        assert c.normal == pytest.approx((0.0, 0.0, -1.0), abs=1e-9)
        assert abs(c.position[2] + 0.1) < POSITION_TOL  # the slider's bottom face
    assert _forces(slider).sum(axis=0) == pytest.approx((0.0, 0.0, 2.0 * G), abs=FORCE_TOL)
    np.testing.assert_allclose(_forces(pad), -_forces(slider), rtol=0.0, atol=1e-12)
    # same points seen from both links: pad frame = slider frame + (0, 0, 0.2 − lift)
    offset = 0.2 + sim.qpos("lift")
    np.testing.assert_allclose(
        sorted(c.position for c in pad.contacts),
        sorted((c.position[0], c.position[1], c.position[2] + offset) for c in slider.contacts),
        rtol=0.0,
        atol=1e-12,
    )


def test_collision_filter(make_sim) -> None:
    """Only the named collision's contacts: the hat touches nothing, the foot carries m·g."""
    sim = make_sim(HAT_BOX, {**GRAVITY, "fixed_base": False})
    sensors = sim.run(2.0)[-1].sensors
    assert sensors["hat_touch"] == ContactReading((), "box")
    foot = sensors["foot_touch"]
    assert len(foot.contacts) == 4
    assert {(c.body1, c.body2) for c in foot.contacts} == {("box::collision::foot", "ground_plane")}
    assert _forces(foot).sum(axis=0) == pytest.approx((0.0, 0.0, G), abs=FORCE_TOL)


def _plate(filters: str, collisions: str) -> str:
    """A free 1 kg plate link with ``collisions`` and a contact sensor filtered by ``filters``."""
    return f"""<?xml version="1.0"?>
<robot name="plate">
  <link name="plate">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
      </inertial>
    {collisions}
  </link>
  <gazebo reference="plate">
    <sensor name="touch" type="contact"><contact>{filters}</contact></sensor>
  </gazebo>
</robot>"""


BOTTOM = '<collision{name}><geometry><box size="0.2 0.2 0.02"/></geometry></collision>'
TOP = (
    '<collision{name}><origin xyz="0 0 0.1"/><geometry><box size="0.05 0.05 0.05"/></geometry>'
    "</collision>"
)


@pytest.mark.parametrize(
    ("filters", "collisions", "geom"),
    [
        # unnamed collision: Gazebo calls it <link>_collision; the geom has no name (the body's
        # name is shown)
        (
            "<collision>plate_collision</collision>",
            BOTTOM.format(name="") + TOP.format(name=""),
            "plate",
        ),
        # named: <name>_collision (SDFormat's URDF conversion) or <link>_collision (older Gazebo)
        (
            "<collision>bottom_collision</collision>",
            BOTTOM.format(name=' name="bottom"') + TOP.format(name=""),
            "plate::collision::bottom",
        ),
        (
            "<collision>plate_collision</collision>",
            BOTTOM.format(name=' name="bottom"') + TOP.format(name=""),
            "plate::collision::bottom",
        ),
        # the second collision is <...>_collision_1; the filter names the bottom second here
        (
            "<collision>plate_collision_1</collision>",
            TOP.format(name="") + BOTTOM.format(name=""),
            "plate",
        ),
    ],
)
def test_collision_filter_by_gazebo_name(
    make_sim, filters: str, collisions: str, geom: str
) -> None:
    sim = make_sim(_plate(filters, collisions), {**GRAVITY, "fixed_base": False})
    touch = sim.run(1.0)[-1].sensors["touch"]
    assert len(touch.contacts) == 4
    assert {(c.body1, c.body2) for c in touch.contacts} == {(geom, "ground_plane")}
    assert _forces(touch).sum(axis=0) == pytest.approx((0.0, 0.0, G), abs=FORCE_TOL)


def test_gazebo_name_of_the_top_is_not_the_bottom(make_sim) -> None:
    """Filtering the second collision (the top, touching nothing) gives no contacts."""
    sim = make_sim(
        _plate(
            "<collision>plate_collision_1</collision>", BOTTOM.format(name="") + TOP.format(name="")
        ),
        {**GRAVITY, "fixed_base": False},
    )
    assert sim.run(1.0)[-1].sensors["touch"] == ContactReading((), "plate")


def test_filter_naming_no_collision_is_warned_once(make_sim, caplog) -> None:
    urdf = _plate("<collision>nothing_here</collision>", BOTTOM.format(name=' name="bottom"'))
    with caplog.at_level(logging.WARNING, logger="sdf_bridge"):
        sim = make_sim(urdf, {**GRAVITY, "fixed_base": False})
        states = sim.run(0.5)
    assert all(s.sensors["touch"] == ContactReading((), "plate") for s in states)
    expected = (
        "sensor 'touch': its <collision> filter ['nothing_here'] names no collision of link "
        "'plate' in the model (known names: ['bottom', 'bottom_collision', "
        "'plate_collision']); it reports no contacts"
    )
    assert caplog.text.count(expected) == 1


def test_filter_on_a_link_without_collision_geoms_is_warned(make_sim, caplog) -> None:
    urdf = _plate("<collision>plate_collision</collision>", "")
    with caplog.at_level(logging.WARNING, logger="sdf_bridge"):
        sim = make_sim(urdf, {**GRAVITY, "fixed_base": False})
        sim.run(0.05)
    assert (
        caplog.text.count(
            "names no collision of link 'plate' in the model (known names: none: the link has "
            "no collision geoms); it reports no contacts"
        )
        == 1
    )


#: A leg standing on its foot: a 1 kg calf (a cylinder collision) with a 0.5 kg foot (a sphere)
#: on a fixed joint, which Gazebo lumps into the calf; the foot contact sensor is on the calf and
#: names the foot by its lumped name (the Unitree robots' pattern).
LEG = """<?xml version="1.0"?>
<robot name="leg">
  <link name="calf"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01"
    iyz="0" izz="0.01"/>
    </inertial><collision><origin xyz="0 0 0.2"/><geometry><cylinder radius="0.02" length="0.2"/>
      </geometry></collision>
  </link>
  <link name="foot"><inertial><mass value="0.5"/><inertia ixx="1e-4" ixy="0" ixz="0" iyy="1e-4"
    iyz="0" izz="1e-4"/>
    </inertial><collision><geometry><sphere radius="0.03"/></geometry></collision></link>
  <joint name="foot_fixed" type="fixed"><parent link="calf"/><child link="foot"/></joint>
  <gazebo reference="calf"><sensor name="foot_contact" type="contact">{contact}</sensor></gazebo>
</robot>"""


@pytest.mark.parametrize(
    "contact",
    [
        "<contact><collision>calf_fixed_joint_lump__foot_collision_1</collision></contact>",
        "<contact><collision>foot_collision</collision></contact>",
        "",
    ],
)
def test_a_foot_lumped_into_its_calf_reports_standing(make_sim, contact: str) -> None:
    """By its lumped name, its own name, or with no filter (the lumped link is part of the calf
    for Gazebo): the foot's contacts carry the leg's weight 1.5·g (tolerance 1e-4 N)."""
    sim = make_sim(LEG.format(contact=contact), {**GRAVITY, "fixed_base": False})
    reading = sim.run(2.0)[-1].sensors["foot_contact"]
    assert reading.contacts and {c.body1 for c in reading.contacts} == {"foot"}
    np.testing.assert_allclose(
        _forces(reading).sum(axis=0), [0.0, 0.0, 1.5 * G], rtol=0, atol=FORCE_TOL
    )


@pytest.mark.parametrize("frame", ["world", "box", "no_such_frame"])
def test_frame_override_expresses_the_contacts_in_it(make_sim, caplog, frame: str) -> None:
    """A Gazebo bumper ``<frameName>`` (PR2's base and torso bumpers say ``world``): the
    contacts are expressed in that frame when the model has it, and the reading names it
    (the ROS header's frame_id). ``world``: normal −z, the ground pushes +z with m·g, the
    corners at z = 0 (tolerances as above). The link itself: as without the override. A
    frame the model does not have: the link's frame, named so, warned once."""
    bumper = (
        '<sensor name="touch" type="contact"><plugin filename="libgazebo_ros_bumper.so" name="b">'
        f"<frameName>{frame}</frameName></plugin></sensor>"
    )
    urdf = ROLLED_BOX.replace('<sensor name="touch" type="contact"/>', bumper)
    with caplog.at_level(logging.WARNING, logger="sdf_bridge"):
        sim = make_sim(
            urdf,
            {**GRAVITY, "fixed_base": False, "base_pose": [0.0, 0.0, 0.2, math.pi / 2, 0.0, 0.0]},
        )
        reading = sim.run(2.0)[-1].sensors["touch"]
    assert sim.backend.robot.sensors[0].frame_id == frame
    assert len(reading.contacts) == 4
    total = _forces(reading).sum(axis=0)
    if frame == "world":
        assert reading.frame == "world"
        for c in reading.contacts:
            assert c.normal == pytest.approx((0.0, 0.0, -1.0), abs=1e-9)
            assert abs(c.position[2]) < POSITION_TOL
        assert total == pytest.approx((0.0, 0.0, 2.0 * G), abs=FORCE_TOL)
    else:
        assert reading.frame == "box"
        for c in reading.contacts:
            assert c.normal == pytest.approx((0.0, -1.0, 0.0), abs=1e-9)
        assert total == pytest.approx((0.0, 2.0 * G, 0.0), abs=FORCE_TOL)
    warned = [
        r.getMessage() for r in caplog.records if "is not a link of the model" in r.getMessage()
    ]
    assert warned == (
        []
        if frame != "no_such_frame"
        else [
            "sensor 'touch': its frame 'no_such_frame' is not a link of the model (nor 'world'); "
            "its contacts are given in its link's frame 'box', stamped so"
        ]
    )


def test_filter_on_a_link_with_a_skipped_collision_is_warned_with_why(make_sim, caplog) -> None:
    """A collision that cannot be built (a missing mesh) makes Gazebo's collision names
    unknowable for the link (they count collisions by position): a filter by them matches
    nothing, and the warning says why (known limitation, not a silent empty sensor)."""
    missing = '<collision><geometry><mesh filename="/nonexistent/part.stl"/></geometry></collision>'
    urdf = _plate("<collision>plate_collision</collision>", BOTTOM.format(name="") + missing)
    with caplog.at_level(logging.WARNING, logger="sdf_bridge"):
        sim = make_sim(urdf, {**GRAVITY, "fixed_base": False})
        states = sim.run(0.3)
    assert all(s.sensors["touch"].contacts == () for s in states)
    warned = [r.getMessage() for r in caplog.records if "names no collision" in r.getMessage()]
    assert warned == [
        "sensor 'touch': its <collision> filter ['plate_collision'] names no collision of link "
        "'plate' in the model (known names: none: its 1 collision geom(s) have no name, and "
        "Gazebo's names are not given when one of the link's collisions could not be built); "
        "it reports no contacts"
    ]
