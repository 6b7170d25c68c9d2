"""Big robot descriptions made on demand, for the size bounds (issue 22: a 10,000-joint
description took 5.3 GB on the mock). A plain module, not a conftest, so test modules can
import it."""

from __future__ import annotations


def chain_urdf(n: int, *, name: str = "chain") -> str:
    """A URDF serial chain of ``n`` revolute joints ``j0`` … ``j{n-1}`` (links ``l0`` …
    ``l{n}``, each joint about z, 0.1 m along x from its parent, limits ±1 rad, 10 N·m,
    2 rad/s), with one classic SimpleTransmission per joint (actuator ``m{i}``, reduction 2):
    about 480 bytes per joint (4.8 MB at 10,000)."""
    parts = [f'<?xml version="1.0"?>\n<robot name="{name}">\n<link name="l0"/>\n']
    for i in range(n):
        parts.append(
            f'<link name="l{i + 1}"/>'
            f'<joint name="j{i}" type="revolute"><parent link="l{i}"/><child link="l{i + 1}"/>'
            '<origin xyz="0.1 0 0"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="10" velocity="2"/></joint>\n'
            f'<transmission name="t{i}"><type>transmission_interface/SimpleTransmission</type>'
            f'<joint name="j{i}"><hardwareInterface>hardware_interface/EffortJointInterface'
            f'</hardwareInterface></joint><actuator name="m{i}"><mechanicalReduction>2'
            "</mechanicalReduction></actuator></transmission>\n"
        )
    parts.append("</robot>\n")
    return "".join(parts)
