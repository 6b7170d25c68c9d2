"""bench/survey.py on small descriptions of our own: discovery, one row per robot, the columns'
verdicts and the summary line (the survey of fetched robots is not run here: their files are
not in the repository)."""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import _survey_checks as checks  # noqa: E402  (bench/ is not a package: on sys.path above)
import survey  # noqa: E402  (likewise)

from sdf_bridge.backends.sensor_readings import (
    FluidPressureReading,
    MagneticFieldReading,
    NavSatReading,
    ScanReading,
)
from sdf_bridge.description.model import (
    AirPressureParams,
    Environment,
    RayParams,
    Sensor,
    SphericalCoordinates,
)

ARM = """<robot name="arm">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01"
    iyz="0" izz="0.01"/>
    </inertial></link>
  <link name="link"><inertial><origin xyz="0.2 0 0"/><mass value="0.5"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
  <link name="tool"/>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="link"/><axis
    xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="20" velocity="2"/></joint>
  <joint name="tool_mount" type="fixed"><parent link="link"/><child link="tool"/><origin
    xyz="0.4 0 0"/></joint>
  <gazebo reference="link"><sensor name="imu" type="imu"><update_rate>100</update_rate></sensor>
    </gazebo>
</robot>"""

WORLD = """<sdf version="1.9"><world name="w">
  <model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane>
    <normal>0 0 1</normal>
    </plane></geometry></collision></link></model>
  <model name="a"><link name="b"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy>
    <izz>0.01</izz>
    </inertia></inertial></link></model>
  <model name="c"><link name="d"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy>
    <izz>0.01</izz>
    </inertia></inertial></link></model>
</world></sdf>"""

MACROS = """<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
<xacro:macro name="m"><link name="x"/></xacro:macro></robot>"""


@pytest.fixture(scope="module")
def probe() -> checks.Probe:
    found = checks.Probe()
    yield found
    found.close()


def test_a_directory_gives_one_row_per_robot(
    tmp_path: Path, probe: checks.Probe, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (the survey runs 5 s; the verdicts are the same)
    monkeypatch.setattr(checks, "MUJOCO_SECONDS", 0.5)
    (tmp_path / "arm.urdf").write_text(ARM)
    (tmp_path / "world.sdf").write_text(WORLD)
    (tmp_path / "macros.xacro").write_text(MACROS)
    (tmp_path / "top.urdf.xacro").write_text(
        '<robot name="t" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:include filename="macros.xacro"/><xacro:m/></robot>'
    )
    assert [p.name for p in survey.discover(tmp_path, [])] == [
        "arm.urdf",
        "top.urdf.xacro",
        "world.sdf",
    ]
    rows = [
        row
        for path in survey.discover(tmp_path, [])
        for row in survey.survey(survey.Entry(path, path.name), probe, (), cameras=False)
    ]
    assert [r.label for r in rows] == [
        "arm.urdf",
        "top.urdf.xacro",
        "world.sdf :: a",
        "world.sdf :: c",
    ]
    arm = rows[0]
    assert (arm.loads, arm.counts, arm.convert.text) == ("ok", "3/2 (1)", "ok")
    assert arm.mock.ok and arm.mock.text.startswith("1 @ ")
    assert arm.mujoco.ok and arm.mujoco.text.startswith("drift ")
    assert arm.sensors.text == "1/1" and arm.usable
    assert all(r.usable for r in rows)
    out = io.StringIO()
    survey.print_table(rows, out)
    assert out.getvalue().endswith("\n4/4 robots fully usable\n")


def test_plausible_readings() -> None:
    lidar = Sensor("l", "ray", "base", params=RayParams(range_min=0.1, range_max=10.0))
    scan = ScanReading(-1.0, 1.0, 1.0, 0.1, 10.0, np.array([1.0, np.inf, -np.inf]))
    assert checks.plausible(lidar, scan) is None
    near = ScanReading(-1.0, 1.0, 1.0, 0.1, 10.0, np.array([0.02, 0.03, 0.04]))
    assert checks.plausible(lidar, near) == "ranges outside [0.1, 10] m (REP-117: -inf / +inf)"


def test_plausible_navigation_readings() -> None:
    """A fix within 10 km of the world origin, a field of the world's magnitude (20 % + 4 σ),
    a pressure within 10 % (+ 4 σ) of the 1976 atmosphere's at the reference altitude."""
    gps = Sensor("g", "gps", "base")
    here = Environment(spherical_coordinates=SphericalCoordinates(latitude_deg=47.0))
    assert checks.plausible(gps, NavSatReading(47.001, 8e-4, 2.0), here) is None
    assert checks.plausible(gps, NavSatReading(48.0, 0.0, 2.0), here) == (
        "fix (48.0, 0.0, 2.0) more than 10000 m from the origin (47.0, 0.0, 0.0)"
    )
    assert checks.plausible(gps, NavSatReading(47.0, -0.2, 2.0), here) == (
        "fix (47.0, -0.2, 2.0) more than 10000 m from the origin (47.0, 0.0, 0.0)"
    )
    assert checks.plausible(gps, NavSatReading(math.nan, 0.0, 0.0)) == "non-finite fix"
    mag = Sensor("m", "magnetometer", "base")
    world = Environment(magnetic_field=(0.0, 3e-5, -4e-5))  # |B| = 5e-5 T
    assert checks.plausible(mag, MagneticFieldReading((5e-5, 0.0, 0.0)), world) is None
    assert checks.plausible(mag, MagneticFieldReading((1e-4, 0.0, 0.0)), world) == (
        "|field| 0.0001 T instead of the world's 5e-05 T"
    )
    noisy = MagneticFieldReading((0.3, 0.0, 0.0), (0.01, 0.01, 0.01))  # σ = 0.1 T
    assert checks.plausible(mag, noisy, world) is None
    baro = Sensor("p", "air_pressure", "base", params=AirPressureParams(reference_altitude=1000))
    assert checks.plausible(baro, FluidPressureReading(89876.0)) is None
    assert checks.plausible(baro, FluidPressureReading(101325.0)) == (
        "101325 Pa, 89876.3 Pa at the reference altitude"
    )


INERTIAL = (
    '<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0"'
    ' iyz="0"/></inertial>'
)
REVOLUTE = '<axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="1"/>'
HANGING = f"""<robot name="hanging">
  <link name="base">{INERTIAL}</link>
  <link name="arm">{INERTIAL}<collision><origin xyz="0 0 -0.5"/><geometry><sphere
    radius="0.1"/></geometry></collision></link>
  <joint name="j" type="revolute"><origin xyz="0 0 0.2"/><parent link="base"/><child
    link="arm"/>{REVOLUTE}</joint>
</robot>"""


def test_a_fixed_base_is_lifted_clear_of_the_ground(tmp_path: Path) -> None:
    """The hanging link reaches 0.2 + 0.5 + 0.1 = 0.8 m from the base in some configuration:
    the base is lifted 0.8 + 0.05 m (the clearance), whatever the start pose."""
    from sdf_bridge.description import load

    path = tmp_path / "hanging.urdf"
    path.write_text(HANGING)
    robot = load(path)
    params, note = checks.clear_of_ground(robot)
    assert params["base_pose"] == pytest.approx([0, 0, 0.85, 0, 0, 0], abs=1e-12)
    assert params["lift_above_ground"] is False and note == "base lifted 0.85 m"


def test_a_world_rooted_robot_touching_the_ground_runs_without_it(tmp_path: Path) -> None:
    """A URDF ``world`` root cannot be lifted: the ground plane goes when the start pose
    touches it (the link hangs to z = 0.2 - 0.5 - 0.1 < 0.05), and stays when it does not."""
    from sdf_bridge.description import load

    world_rooted = HANGING.replace(
        '<link name="base">',
        '<link name="world"/><joint name="w" type="fixed"><parent link="world"/><child'
        ' link="base"/><origin xyz="0 0 {z}"/></joint><link name="base">',
    )
    for z, expected in (
        ("0", ({"ground_plane": False}, "no ground plane: the start pose touches it")),
        ("1", ({}, "")),
    ):
        path = tmp_path / f"world_{z}.urdf"
        path.write_text(world_rooted.replace("{z}", z))
        assert checks.clear_of_ground(load(path)) == expected


MISREAD = {
    # libsdformat: "Joint with non-unique name [arm] ..." (an error)
    "same_name": (
        f'<robot name="r"><link name="base">{INERTIAL}</link><link name="arm">{INERTIAL}</link>'
        f'<joint name="arm" type="revolute"><parent link="base"/><child link="arm"/>{REVOLUTE}'
        "</joint></robot>",
        "error: Joint with non-unique name [arm] detected in model with name [r].",
    ),
    # libsdformat drops the arm behind the massless mount, silently
    "massless_mount": (
        f'<robot name="r"><link name="base">{INERTIAL}</link><link name="mount"/>'
        f'<link name="arm">{INERTIAL}</link><joint name="f" type="fixed"><parent link="base"/>'
        '<child link="mount"/><origin xyz="0 0 1"/></joint><joint name="j" type="revolute">'
        f'<parent link="mount"/><child link="arm"/>{REVOLUTE}</joint></robot>',
        "drops ['arm'] (with mass) behind massless ['mount']",
    ),
    # no link has mass (a kinematics-only URDF): libsdformat models none
    "massless_robot": (
        '<robot name="r"><link name="base"/><link name="arm"/><joint name="j" type="revolute">'
        f'<parent link="base"/><child link="arm"/>{REVOLUTE}</joint></robot>',
        "no link has mass: it models none",
    ),
    # libsdformat reads the fixed joint as a revolute one locked at [0, 0]
    "unlumped": (
        f'<robot name="r"><link name="base">{INERTIAL}</link><link name="tool">{INERTIAL}'
        '</link><joint name="f" type="fixed"><parent link="base"/><child link="tool"/>'
        '</joint><gazebo reference="f"><disableFixedJointLumping>true</disableFixedJointLumping>'
        "</gazebo></robot>",
        "reads fixed joint 'f' (disableFixedJointLumping) as revolute [0, 0]",
    ),
}


@pytest.mark.parametrize("name", sorted(MISREAD))
def test_convert_is_not_compared_where_libsdformat_misreads_the_original(
    tmp_path: Path, probe: checks.Probe, name: str
) -> None:
    if not probe.available:
        pytest.skip(probe.why)
    text, reason = MISREAD[name]
    path = tmp_path / f"{name}.urdf"
    path.write_text(text)
    (row,) = survey.survey(survey.Entry(path, path.name), probe, (), cameras=False)
    assert row.loads == "ok"
    assert row.convert.ok
    assert row.convert.text.startswith(f"{checks.NOT_COMPARED} ({reason}")


def test_console_messages_are_read_without_colours() -> None:
    stderr = (
        "\x1b[1;33mWarning [Model.cc:174]\x1b[0m Non-unique name[arm] detected 2 times.\n"
        "\x1b[1;31mError [Model.cc:286]\x1b[0m Joint with name [arm] ...\n"
    )
    assert checks.console_messages(stderr, "Warning") == ["Non-unique name[arm] detected 2 times."]
    assert checks.console_messages(stderr, "Error") == ["Joint with name [arm] ..."]
