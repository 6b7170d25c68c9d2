"""Tests of sdf_bridge.description.magnitudes: finite values no simulator or driver can use
(mimic multiplier 1e308, mass 1e308, a reduction of 1e-308, …) are refused by the loader at
their element, with the bound and the fix; values at the bound load."""

from __future__ import annotations

import pytest

from sdf_bridge.description import load
from sdf_bridge.description.magnitudes import MAX_MAGNITUDE, MIN_REDUCTION
from sdf_bridge.errors import InvalidValueError


def urdf(
    *,
    mass: float = 1.0,
    multiplier: float = 1.0,
    offset: float = 0.0,
    reduction: float = 50.0,
    joint_offset: float = 0.0,
) -> str:
    """Two revolute joints (``f`` mimics ``j``) on links with inertials, ``j`` through a classic
    SimpleTransmission; the values under test are the keyword arguments."""
    return f"""<robot name="r">
  <link name="a"><inertial><mass value="{mass!r}"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0"
    iyz="0"/></inertial></link>
  <link name="b"/><link name="c"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="f" type="revolute"><parent link="b"/><child link="c"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="j" multiplier="{multiplier!r}" offset="{offset!r}"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="j"><hardwareInterface>PositionJointInterface</hardwareInterface>
      <offset>{joint_offset!r}</offset></joint>
    <actuator name="m"><mechanicalReduction>{reduction!r}</mechanicalReduction></actuator>
  </transmission>
</robot>"""


def test_values_at_the_bounds_load() -> None:
    robot = load(
        urdf(
            mass=MAX_MAGNITUDE,
            multiplier=-MAX_MAGNITUDE,
            offset=MAX_MAGNITUDE,
            reduction=-MIN_REDUCTION,
            joint_offset=-MAX_MAGNITUDE,
        )
    )
    assert robot.links["a"].inertial.mass == 1e6 and robot.joints["f"].mimic.multiplier == -1e6
    load(urdf(reduction=MAX_MAGNITUDE))


@pytest.mark.parametrize(
    ("values", "match"),
    [
        (
            {"mass": 1e308},
            r'^<string>:2: <link name="a">: the mass of link \'a\' is 1e308, beyond the bound '
            r"1e6 kg "
            r"\(a value no simulator or driver can use\)\. Fix: give the link's real mass in kg",
        ),
        ({"mass": 1.5e6}, r"the mass of link 'a' is 1\.5e6, beyond the bound 1e6 kg"),
        (
            {"multiplier": 1e308},
            r'^<string>:7: <joint name="f">: the mimic multiplier of joint \'f\' is 1e308, '
            r"beyond the bound ±1e6 .*Fix: give the real multiplier \(\|multiplier\| ≤ 1e6\) in "
            r"<mimic>",
        ),
        ({"multiplier": -2e6}, r"the mimic multiplier of joint 'f' is -2e6, beyond the bound ±1e6"),
        ({"offset": 1e9}, r"the mimic offset of joint 'f' is 1e9, beyond the bound ±1e6 rad or m"),
        (
            {"reduction": 1e308},
            r'<transmission name="t">: the mechanical reduction of actuator \'m\' is 1e308, '
            r"beyond the bound 1e-6 ≤ \|reduction\| ≤ 1e6 .*Fix: give the real ratio",
        ),
        (
            {"reduction": 1e-308},
            r"the mechanical reduction of actuator 'm' is 1e-308, beyond the bound 1e-6 ≤",
        ),
        (
            {"joint_offset": -1e7},
            r"the offset of joint 'j' is -1e7, beyond the bound ±1e6 rad or m",
        ),
    ],
)
def test_absurd_magnitudes_are_refused(values: dict, match: str) -> None:
    with pytest.raises(InvalidValueError, match=match):
        load(urdf(**values))


def _sdf(joint: str) -> str:
    return f"""<sdf version="1.10"><model name="m"><link name="a"/><link name="b"/><link name="c"/>
  <joint name="lead" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis>
    </joint>
  {joint}</model></sdf>"""


@pytest.mark.parametrize(
    ("joint", "match"),
    [
        (
            '<joint name="g" type="gearbox"><parent>a</parent><child>c</child>'
            "<gearbox_ratio>1e300</gearbox_ratio>"
            "<gearbox_reference_body>a</gearbox_reference_body><axis><xyz>0 0 1</xyz></axis>"
            "<axis2><xyz>0 0 1</xyz></axis2></joint>",
            r'<joint name="g">: the gearbox ratio of joint \'g\' is 1e300, beyond the bound ±1e6',
        ),
        (
            '<joint name="s" type="screw"><parent>b</parent><child>c</child>'
            "<screw_thread_pitch>-1e12</screw_thread_pitch><axis><xyz>0 0 1</xyz></axis></joint>",
            r"the thread pitch of joint 's' is -1e12, beyond the bound ±1e6",
        ),
    ],
)
def test_absurd_sdf_joint_parameters_are_refused(joint: str, match: str) -> None:
    with pytest.raises(InvalidValueError, match=match):
        load(_sdf(joint))
