"""Tests of sdf_bridge.description.sdf.links: geometry shapes, materials, inertial defaults and
poses of visuals/collisions/inertials in the link frame (tolerance 1e-12)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from sdf_helpers import load_text, sdf

from sdf_bridge.description import load
from sdf_bridge.description.model import (
    Box,
    Capsule,
    Cylinder,
    Ellipsoid,
    Inertia,
    Mesh,
    Plane,
    Sphere,
)

TOL = 1e-12


def _link(body: str):
    return load_text(
        sdf(f'<model name="m"><link name="l">{body}</link></model>'), base_dir="/models/m"
    ).links["l"]


@pytest.mark.parametrize(
    ("xml", "expected"),
    [
        ("<box><size>1 2 3</size></box>", Box((1.0, 2.0, 3.0))),
        ("<sphere><radius>0.5</radius></sphere>", Sphere(0.5)),
        ("<cylinder><radius>0.1</radius><length>0.4</length></cylinder>", Cylinder(0.1, 0.4)),
        ("<capsule><radius>0.2</radius><length>0.6</length></capsule>", Capsule(0.2, 0.6)),
        ("<ellipsoid><radii>1 2 3</radii></ellipsoid>", Ellipsoid((1.0, 2.0, 3.0))),
        (
            "<plane><normal>0 0 1</normal><size>10 20</size></plane>",
            Plane((0.0, 0.0, 1.0), (10.0, 20.0)),
        ),
        (
            "<mesh><uri>model://m/meshes/a.dae</uri><scale>1 2 3</scale></mesh>",
            Mesh("model://m/meshes/a.dae", (1.0, 2.0, 3.0)),
        ),
        (
            "<mesh><uri>meshes/a.stl</uri></mesh>",
            Mesh("meshes/a.stl", resolved="/models/m/meshes/a.stl"),
        ),
        ("<sphere/>", Sphere(1.0)),
    ],
)
def test_geometry(xml: str, expected) -> None:
    link = _link(f'<collision name="c"><geometry>{xml}</geometry></collision>')
    assert link.collisions[0].geometry == expected


def test_visual_material_and_relative_pose(robots_dir: Path) -> None:
    robot = load(robots_dir / "sdf_model_with_frames" / "sdf_model_with_frames.sdf")
    l1 = robot.links["L1"]
    (visual,) = l1.visuals
    # V1 is posed at F2 = F1·Ry(0.785398); L1 is at F1 → V1 in L1 = Ry(0.785398)
    np.testing.assert_allclose(visual.origin.rpy, (0.0, 0.785398, 0.0), atol=TOL)
    (collision,) = l1.collisions
    # C1 at __model__; L1 at F1 = Rx(1.570796) → C1 in L1 = Rx(-1.570796)
    np.testing.assert_allclose(collision.origin.rpy, (-1.570796, 0.0, 0.0), atol=TOL)
    assert visual.geometry == Sphere(1.5707963267948966)


def test_material_colour_from_diffuse(robots_dir: Path) -> None:
    robot = load(robots_dir / "sdf_nested_include" / "sdf_nested_include.sdf")
    assert robot.links["top_model::top"].visuals[0].material.color == (1.0, 0.0, 0.0, 1.0)


def test_inertial_values_and_pose() -> None:
    link = _link("""<inertial><pose>0.1 0 0 0 0 0</pose><mass>2</mass>
      <inertia><ixx>1</ixx><ixy>0.1</ixy><ixz>0.2</ixz><iyy>2</iyy><iyz>0.3</iyz><izz>3</izz>
        </inertia></inertial>""")
    assert link.inertial.mass == 2.0
    assert link.inertial.inertia == Inertia(1.0, 0.1, 0.2, 2.0, 0.3, 3.0)
    assert link.inertial.origin.xyz == (0.1, 0.0, 0.0)


def test_inertial_defaults_follow_the_spec() -> None:
    link = _link("<inertial/>")
    assert link.inertial.mass == 1.0
    assert link.inertial.inertia == Inertia(ixx=1.0, iyy=1.0, izz=1.0)


def test_link_without_inertial() -> None:
    assert _link("").inertial is None


@pytest.mark.parametrize(
    ("body", "kind", "reason"),
    [
        ("<inertial><mass>-1</mass></inertial>", "inertial", r"mass is -1\.0, negative"),
        (
            '<visual name="v"><geometry><sphere><radius>-0.1</radius></sphere></geometry></visual>',
            "visual",
            r"<radius> is -0\.1, negative",
        ),
        ('<visual name="v"/>', "visual", r"<visual> has no <geometry>"),
        ('<collision name="c"/>', "collision", r"<collision> has no <geometry>"),
        ('<visual name="v"><geometry/></visual>', "visual", r"<geometry> holds no shape"),
        (
            '<visual name="v"><geometry><mesh/></geometry></visual>',
            "visual",
            r"<mesh> has no <uri>",
        ),
        (
            '<visual name="v"><geometry><heightmap/></geometry></visual>',
            "visual",
            r"geometry <heightmap> is not supported",
        ),
        (
            '<visual name="v"><geometry><box/></geometry><material><diffuse>1 0</diffuse>'
            "</material></visual>",
            "visual",
            r"<diffuse> is '1 0': expected 4 numbers",
        ),
    ],
)
def test_faulty_link_elements_are_skipped(body: str, kind: str, reason: str) -> None:
    """Inertials, visuals and collisions are not the kinematic tree: a faulty one is left out
    with one warning (sdf_bridge.description.contain), the link kept."""
    robot = load_text(
        sdf(f'<model name="m"><link name="l">{body}</link></model>'), base_dir="/models/m"
    )
    link = robot.links["l"]
    assert (link.inertial, link.visuals, link.collisions) == (None, (), ())
    (skipped,) = robot.skipped
    assert (skipped.kind, skipped.source.file, skipped.source.line) == (kind, "<string>", 3)
    assert re.search(reason, skipped.reason), skipped.reason


def test_mesh_uris_resolve_through_search_path_and_packages(tmp_path: Path) -> None:
    (tmp_path / "models" / "arm" / "meshes").mkdir(parents=True)
    (tmp_path / "models" / "arm" / "meshes" / "a.dae").write_text("")
    robot = load_text(
        sdf("""<model name="m"><link name="l">
      <visual name="v"><geometry><mesh><uri>model://arm/meshes/a.dae</uri></mesh></geometry>
        </visual>
      <collision name="c"><geometry><mesh><uri>package://arm_description/meshes/a.stl</uri></mesh>
        </geometry></collision>
      <collision name="d"><geometry><mesh><uri>model://missing/a.stl</uri></mesh></geometry>
        </collision>
    </link></model>"""),
        sdf_paths=[tmp_path / "models"],
        package_paths={"arm_description": tmp_path / "pkg"},
    )
    link = robot.links["l"]
    assert link.visuals[0].geometry.resolved == str(
        tmp_path / "models" / "arm" / "meshes" / "a.dae"
    )
    assert link.collisions[0].geometry.resolved == str(tmp_path / "pkg" / "meshes" / "a.stl")
    assert link.collisions[1].geometry.resolved is None  # not found: kept as written, not guessed


def test_package_uri_escaping_its_package_is_skipped_unread(tmp_path: Path) -> None:
    robot = load_text(
        sdf("""<model name="m"><link name="l"><visual name="v"><geometry><mesh>
          <uri>package://p/../../etc/passwd</uri></mesh></geometry></visual></link></model>"""),
        package_paths={"p": tmp_path},
    )
    assert robot.links["l"].visuals == ()
    (skipped,) = robot.skipped
    assert (skipped.kind, skipped.name) == ("visual", "v")
    assert "climbs out of its package" in skipped.reason


def test_a_three_number_colour_is_opaque_rgb() -> None:
    """``<diffuse>1 0.5 0</diffuse>`` is RGB with alpha 1, as libsdformat reads it (gz-sim's
    ackermann worlds write colours so)."""
    robot = load_text(
        sdf(
            '<model name="m"><link name="l"><visual name="v"><geometry><box/></geometry>'
            "<material><diffuse>1 0.5 0</diffuse></material></visual></link></model>"
        ),
        base_dir="/models/m",
    )
    (visual,) = robot.links["l"].visuals
    assert visual.material.color == (1.0, 0.5, 0.0, 1.0)
    assert robot.skipped == ()
