"""Small descriptions of several robots in one simulation, written for the tests: three
two-joint arms in one SDFormat world (placed as gz-sim's joint_trajectory_controller.sdf places
its three, one driven in position, one in velocity, one in effort), a two-joint URDF arm, and a
ram beside a cart (one robot pushing another)."""

from __future__ import annotations

from pathlib import Path

ARM_NAMES = ("position", "velocity", "effort")
"""The three arms of :data:`THREE_ARMS`, in document order."""


def _link(name: str, joint: str) -> str:
    """A 0.2 m rod of 0.1 kg whose frame sits 0.1 m above ``joint`` (its middle)."""
    return (
        f'<link name="{name}"><pose relative_to="{joint}">0 0 0.1 0 0 0</pose>'
        '<collision name="c"><geometry><cylinder><radius>0.01</radius><length>0.2</length>'
        "</cylinder></geometry></collision><inertial><mass>0.1</mass><inertia><ixx>0.0003358"
        "</ixx><iyy>0.0003358</iyy><izz>0.000005</izz></inertia></inertial></link>"
    )


def _joint(name: str, parent: str, child: str, pose: str) -> str:
    return (
        f'<joint name="{name}" type="revolute"><pose relative_to="{parent}">{pose}</pose>'
        f"<parent>{parent}</parent><child>{child}</child><axis><xyz>1 0 0</xyz><limit>"
        "<lower>-3</lower><upper>3</upper><effort>10</effort><velocity>10</velocity></limit>"
        "<dynamics><damping>0.05</damping></dynamics></axis></joint>"
    )


def arm_model(name: str, pose: str) -> str:
    """A two-joint arm ``name`` fixed to the world at ``pose`` (``x y z roll pitch yaw``):
    base sphere, joints ``j1`` (at the base) and ``j2`` (0.2 m up ``link1``), both about x."""
    return (
        f'<model name="{name}"><pose>{pose}</pose>'
        '<joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>'
        '<link name="base"><collision name="c"><geometry><sphere><radius>0.025</radius>'
        "</sphere></geometry></collision></link>"
        + _link("link1", "j1")
        + _link("link2", "j2")
        + _joint("j1", "base", "link1", "0 0 0 0 0 0")
        + _joint("j2", "link1", "link2", "0 0 0.1 0 0 0")
        + "</model>"
    )


GROUND = (
    '<model name="ground"><static>true</static><link name="l"><collision name="c"><geometry>'
    "<plane><normal>0 0 1</normal><size>9 9</size></plane></geometry></collision></link></model>"
)

THREE_ARMS = (
    '<?xml version="1.0"?><sdf version="1.9"><world name="arms">'
    + GROUND
    + arm_model("position", "0 0 0.25 0 0 0")
    + arm_model("velocity", "0 -0.5 0.25 0 0 0")
    + arm_model("effort", "0 0.5 0.25 0 0 0")
    + "</world></sdf>"
)
"""Three arms 0.5 m apart on a ground plane (they cannot touch: 0.4 m tall)."""

ONE_ARM = (
    '<?xml version="1.0"?><sdf version="1.9"><world name="arms">'
    + GROUND
    + arm_model("alone", "0 0 0.25 0 0 0")
    + "</world></sdf>"
)
"""One of :data:`THREE_ARMS`'s arms, alone (the reference its copies must match)."""

TWO_LINK_URDF = """<?xml version="1.0"?>
<robot name="twolink">
  <link name="base"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="upper"><inertial><origin xyz="0 0 0.1"/><mass value="0.5"/>
    <inertia ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.0001"/></inertial></link>
  <link name="lower"><inertial><origin xyz="0 0 0.1"/><mass value="0.5"/>
    <inertia ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.0001"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.05"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="20" velocity="5"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="lower"/>
    <origin xyz="0 0 0.2"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="20" velocity="5"/></joint>
</robot>"""
"""A two-joint URDF arm (no world link: its base is a root link)."""

RAM_AND_CART = """<?xml version="1.0"?><sdf version="1.9"><world name="push">
  <model name="ram"><pose>0 0 0.1 0 0 0</pose>
    <joint name="fix" type="fixed"><parent>world</parent><child>rail</child></joint>
    <link name="rail"/>
    <link name="head"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy>
      <izz>0.01</izz></inertia></inertial>
      <collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision>
    </link>
    <joint name="push" type="prismatic"><parent>rail</parent><child>head</child>
      <axis><xyz>1 0 0</xyz><limit><lower>-1</lower><upper>1</upper><effort>1000</effort>
      <velocity>10</velocity></limit></axis></joint>
  </model>
  <model name="cart"><pose>0.3 0 0.1 0 0 0</pose>
    <joint name="fix" type="fixed"><parent>world</parent><child>rail</child></joint>
    <link name="rail"/>
    <link name="body"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy>
      <izz>0.01</izz></inertia></inertial>
      <collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision>
    </link>
    <joint name="roll" type="prismatic"><parent>rail</parent><child>body</child>
      <axis><xyz>1 0 0</xyz><limit><lower>-1</lower><upper>1</upper><effort>1000</effort>
      <velocity>10</velocity></limit><dynamics><damping>1</damping></dynamics></axis></joint>
  </model>
</world></sdf>"""
"""A ram (head box on a prismatic joint along x) 0.3 m behind a cart (box on a damped prismatic
joint along x): 0.2 m of air between the two 0.1 m boxes; no gravity acts along x."""


def included_arms(folder: Path) -> Path:
    """Two included copies of one arm model (:func:`arm_model`, written to
    ``folder/models/arm/model.sdf`` with its ``model.config``) in a world ``folder/world.sdf``
    on a ground plane: ``left`` by ``model://arm`` (``folder/models`` must be on
    ``GZ_SIM_RESOURCE_PATH``) at y = 0.3 m, ``right`` by a relative path at y = -0.3 m, both
    0.25 m up; returns the world file."""
    model = folder / "models" / "arm"
    model.mkdir(parents=True, exist_ok=True)
    (model / "model.config").write_text(
        '<?xml version="1.0"?><model><name>arm</name><sdf version="1.9">model.sdf</sdf></model>'
    )
    (model / "model.sdf").write_text(
        '<?xml version="1.0"?><sdf version="1.9">' + arm_model("arm", "0 0 0 0 0 0") + "</sdf>"
    )
    world = folder / "world.sdf"
    world.write_text(
        '<?xml version="1.0"?><sdf version="1.9"><world name="included">'
        + GROUND
        + "<include><uri>model://arm</uri><name>left</name><pose>0 0.3 0.25 0 0 0</pose>"
        "</include><include><uri>models/arm/model.sdf</uri><name>right</name>"
        "<pose>0 -0.3 0.25 0 0 0</pose></include></world></sdf>"
    )
    return world
