"""SimpleTransmission: ratio, offset, direction, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sdf_bridge.errors import TransmissionError
from sdf_bridge.transmissions import SimpleTransmission


def test_values_both_directions() -> None:
    t = SimpleTransmission("t", ["j"], ["m"], [50.0], None, [0.1])
    q, v, e = t.actuator_to_joint([10.0], [5.0], [0.2])
    assert q[0] == pytest.approx(10.0 / 50.0 + 0.1, abs=1e-15)
    assert v[0] == pytest.approx(0.1, abs=1e-15)
    assert e[0] == pytest.approx(10.0, abs=1e-12)
    a, av, ae = t.joint_to_actuator([0.3], [0.1], [10.0])
    assert a[0] == pytest.approx(50.0 * (0.3 - 0.1), abs=1e-12)
    assert av[0] == pytest.approx(5.0, abs=1e-12)
    assert ae[0] == pytest.approx(0.2, abs=1e-15)


def test_reductions_on_both_sides_multiply() -> None:
    t = SimpleTransmission("t", ["j"], ["m"], [2.0], [4.0])
    assert t.reduction == 8.0
    assert t.actuator_to_joint_matrix[0, 0] == 0.125
    assert t.actuator_to_joint_effort_matrix[0, 0] == 8.0


def test_negative_reduction_reverses() -> None:
    t = SimpleTransmission("t", ["j"], ["m"], [-79.23809523809524])
    q, _, e = t.actuator_to_joint([79.23809523809524], [0.0], [1.0])
    assert q[0] == pytest.approx(-1.0, abs=1e-15)
    assert e[0] == pytest.approx(-79.23809523809524, abs=1e-12)


def test_effective_ratio_text() -> None:
    assert SimpleTransmission("t", ["j"], ["m"], [50.0], None, [0.1]).effective_ratio() == (
        "actuator = 50 × (joint − 0.1)"
    )


@pytest.mark.parametrize("bad", [0.0, math.nan, math.inf])
def test_bad_reduction_rejected(bad: float) -> None:
    with pytest.raises(TransmissionError, match=r"transmission 't'.*reduction.*Fix"):
        SimpleTransmission("t", ["j"], ["m"], [bad])


def test_bad_offset_rejected() -> None:
    with pytest.raises(TransmissionError, match="offset nan is not finite"):
        SimpleTransmission("t", ["j"], ["m"], [1.0], None, [math.nan])


def test_wrong_counts_rejected() -> None:
    with pytest.raises(
        TransmissionError, match=r"has 2 joint\(s\) and 1 actuator\(s\); the type needs 1"
    ):
        SimpleTransmission("t", ["a", "b"], ["m"])


def test_wrong_number_of_reductions() -> None:
    with pytest.raises(TransmissionError, match="2 joint reductions given, 1 needed"):
        SimpleTransmission("t", ["j"], ["m"], [1.0, 2.0])


def test_nan_propagates() -> None:
    t = SimpleTransmission("t", ["j"], ["m"], [2.0])
    a, _, _ = t.joint_to_actuator([np.nan], [0.0], [0.0])
    assert np.isnan(a[0])


def test_with_actuators_renames_and_keeps_the_mechanism() -> None:
    t = SimpleTransmission("t", ["j"], ["m"], [50.0], None, [0.1])
    renamed = t.with_actuators(["t/m"])
    assert renamed.actuators == ("t/m",) and t.actuators == ("m",)
    assert renamed.joints == ("j",) and renamed.joint_offsets == (0.1,)
    assert renamed.actuator_to_joint_matrix.tolist() == t.actuator_to_joint_matrix.tolist()
    with pytest.raises(
        TransmissionError,
        match=r"^transmission 't' \(SimpleTransmission\): 2 actuator names given, 1 needed\. "
        r"Fix: give one per actuator role\.$",
    ):
        t.with_actuators(["a", "b"])
