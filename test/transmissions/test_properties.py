"""Hypothesis properties: exact round trips and power conservation, every mechanism.

Reductions are drawn from ±[0.5, 50] (negative included), values from [−1e3, 1e3], offsets
from [−10, 10]. Tolerance: 1e-12 relative to the magnitude of the terms involved — max |x| and,
for actuator → joint → actuator positions, the offset seen from the actuator side
(‖A⁻¹‖∞ · max |offset|); for power, |τ_a|·|v_a| + |τ_j|·|v_j| (the scale of the two dot products).
"""

from __future__ import annotations

from datetime import timedelta

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sdf_bridge.transmissions import (
    DifferentialTransmission,
    FourBarLinkageTransmission,
    SimpleTransmission,
    TransmissionMap,
    WristTransmission,
)

from .builders import chain, simple, two_by_two

#: Hypothesis' bound on one example (the first may compile the kernels): a runaway
#: example fails the test; setup.cfg's pytest timeout bounds the test as a whole.
DEADLINE = timedelta(seconds=30)

MECHANISMS = [
    SimpleTransmission,
    DifferentialTransmission,
    FourBarLinkageTransmission,
    WristTransmission,
]

reduction = st.floats(0.5, 50.0).flatmap(lambda m: st.sampled_from([m, -m]))
value = st.floats(-1e3, 1e3)
offset = st.floats(-10.0, 10.0)


def _close(got: np.ndarray, want: np.ndarray, scale: float) -> None:
    assert np.all(np.abs(got - want) <= 1e-12 * max(1.0, scale)), (got, want)


@st.composite
def mechanism(draw):
    cls = draw(st.sampled_from(MECHANISMS))
    n = cls.num_joints
    return cls(
        "t",
        [f"j{i}" for i in range(n)],
        [f"a{i}" for i in range(n)],
        draw(st.lists(reduction, min_size=n, max_size=n)),
        draw(st.lists(reduction, min_size=n, max_size=n)),
        draw(st.lists(offset, min_size=n, max_size=n)),
    )


@settings(max_examples=300, deadline=DEADLINE)
@given(mech=mechanism(), data=st.data())
def test_round_trips(mech, data) -> None:
    n = mech.num_joints
    q, v, e = (np.array(data.draw(st.lists(value, min_size=n, max_size=n))) for _ in range(3))
    scale = float(max(np.abs(np.concatenate([q, v, e, mech.offsets])).max(), 1.0))
    # joint → actuator → joint
    back = mech.actuator_to_joint(*mech.joint_to_actuator(q, v, e))
    for got, want in zip(back, (q, v, e)):
        _close(got, want, scale)
    # actuator → joint → actuator
    back = mech.joint_to_actuator(*mech.actuator_to_joint(q, v, e))
    seen_offset = float(np.abs(mech.joint_to_actuator_matrix).sum(axis=1).max()) * float(
        np.abs(mech.offsets).max()
    )
    for got, want in zip(back, (q, v, e)):
        _close(got, want, max(scale, seen_offset))


@settings(max_examples=300, deadline=DEADLINE)
@given(mech=mechanism(), data=st.data())
def test_power_conservation(mech, data) -> None:
    n = mech.num_joints
    va, ta = (np.array(data.draw(st.lists(value, min_size=n, max_size=n))) for _ in range(2))
    _, vj, tj = mech.actuator_to_joint(np.zeros(n), va, ta)
    pa, pj = float(ta @ va), float(tj @ vj)
    # scale of the dot products: |τ|·|v| on each side (Cauchy–Schwarz bound of each product)
    terms = float(np.linalg.norm(ta) * np.linalg.norm(va) + np.linalg.norm(tj) * np.linalg.norm(vj))
    assert abs(pa - pj) <= 1e-12 * max(1.0, terms)


@settings(max_examples=100, deadline=DEADLINE)
@given(
    kinds=st.lists(st.sampled_from(["simple", "diff", "fourbar", "none"]), min_size=1, max_size=6),
    data=st.data(),
)
def test_map_round_trip_mixed(kinds, data) -> None:
    specs, trans = [], []
    for k, kind in enumerate(kinds):
        if kind in ("simple", "none"):
            specs.append((f"s{k}", "revolute"))
            if kind == "simple":
                trans.append(
                    simple(
                        f"t{k}",
                        f"s{k}",
                        f"m{k}",
                        ared=data.draw(reduction),
                        offset=data.draw(offset),
                    )
                )
        else:
            specs += [(f"p{k}", "revolute"), (f"r{k}", "revolute")]
            ttype = (
                "transmission_interface/DifferentialTransmission"
                if kind == "diff"
                else "transmission_interface/FourBarLinkageTransmission"
            )
            trans.append(
                two_by_two(
                    f"t{k}",
                    ttype,
                    [
                        (f"r{k}", "joint2", data.draw(reduction), data.draw(offset)),
                        (f"p{k}", "joint1", data.draw(reduction), data.draw(offset)),
                    ],
                    [
                        (f"m{k}b", "actuator2", data.draw(reduction)),
                        (f"m{k}a", "actuator1", data.draw(reduction)),
                    ],
                )
            )
    tmap = TransmissionMap.from_robot(chain(*specs, transmissions=trans))
    n = len(tmap.joint_names)
    q, v, e = (np.array(data.draw(st.lists(value, min_size=n, max_size=n))) for _ in range(3))
    scale = float(max(np.abs(np.concatenate([q, v, e])).max(), 10.0))
    for got, want in zip(tmap.actuator_to_joint(*tmap.joint_to_actuator(q, v, e)), (q, v, e)):
        _close(got, want, scale)
    seen_offset = max(
        float(np.abs(m.joint_to_actuator_matrix).sum(axis=1).max()) * float(np.abs(m.offsets).max())
        for m in tmap.mechanisms
    )
    for got, want in zip(tmap.joint_to_actuator(*tmap.actuator_to_joint(q, v, e)), (q, v, e)):
        _close(got, want, max(scale, seen_offset))
    _, vj, tj = tmap.actuator_to_joint(q, v, e)
    terms = float(np.linalg.norm(v) * np.linalg.norm(e) + np.linalg.norm(vj) * np.linalg.norm(tj))
    assert abs(float(v @ e) - float(vj @ tj)) <= 1e-12 * max(1.0, terms)
