"""Mechanism registry: built-ins, short names, unknown types, entry-point plug-ins."""

from __future__ import annotations

import importlib.metadata as md
import logging

import numpy as np
import pytest

from sdf_bridge.errors import TransmissionError
from sdf_bridge.transmissions import (
    DifferentialTransmission,
    FourBarLinkageTransmission,
    SimpleTransmission,
    Transmission,
    TransmissionMap,
    WristTransmission,
    available_types,
    lookup,
    mechanism_registry,
)

from .builders import chain, simple


class CableTransmission(Transmission):
    """A test plug-in: one actuator, one joint, ratio 3 × joint reduction."""

    type_name = "CableTransmission"

    def matrix(self) -> np.ndarray:
        return np.array([[1.0 / (3.0 * self.joint_reductions[0])]])


class _EntryPoint:
    def __init__(self, name: str, obj: object, fail: bool = False) -> None:
        self.name, self.value, self._obj, self._fail = name, f"fake:{name}", obj, fail

    def load(self) -> object:
        if self._fail:
            raise ImportError("boom")
        return self._obj


@pytest.fixture()
def plugins(monkeypatch: pytest.MonkeyPatch):
    eps: list[_EntryPoint] = []
    real = md.entry_points

    def fake_entry_points(**kwargs):
        if kwargs != {"group": "sdf_bridge.transmissions"}:
            return real(**kwargs)  # another library's
        return list(eps)

    monkeypatch.setattr(md, "entry_points", fake_entry_points)
    return eps


@pytest.mark.parametrize(
    ("name", "cls"),
    [
        ("transmission_interface/SimpleTransmission", SimpleTransmission),
        ("transmission_interface/DifferentialTransmission", DifferentialTransmission),
        ("transmission_interface/FourBarLinkageTransmission", FourBarLinkageTransmission),
        ("pr2_mechanism_model/SimpleTransmission", SimpleTransmission),
        ("pr2_mechanism_model/WristTransmission", WristTransmission),
        ("SimpleTransmission", SimpleTransmission),
        ("transmission_interface::DifferentialTransmission", DifferentialTransmission),
    ],
)
def test_builtins(name: str, cls: type) -> None:
    assert lookup(name) is cls


def test_unknown_type_message() -> None:
    with pytest.raises(
        TransmissionError,
        match=r"transmission 'belt' has unknown type 'x/Belt'.*"
        r"sdf_bridge.transmissions",
    ):
        lookup("x/Belt", "belt")


@pytest.mark.parametrize(
    "typed, meant",
    [
        ("transmission_interface/SimpleTransmision", "transmission_interface/SimpleTransmission"),
        ("pr2_mechanism_model/simpletransmission", "pr2_mechanism_model/SimpleTransmission"),
        ("DifferentialTransmision", "transmission_interface/DifferentialTransmission"),
    ],
)
def test_a_misspelt_type_is_named_with_the_type_meant(typed: str, meant: str) -> None:
    """One edit (or the letter case) from a known type's name: the message says which, a
    namespace's own type first."""
    with pytest.raises(
        TransmissionError,
        match=rf"transmission 't' has unknown type '{typed}' \(did you mean '{meant}'\?\)\. Fix:",
    ):
        lookup(typed, "t")


@pytest.mark.parametrize(
    "other",
    [
        "transmission_interface/HalfDifferentialTransmission",  # PAL's: another type
        "sr_mechanism_model/J0Transmission",  # Shadow's
        "my_vendor/MadeUpTransmission",
    ],
)
def test_a_type_further_away_is_no_misspelling(other: str) -> None:
    assert mechanism_registry.did_you_mean(other, available_types()) == ""
    with pytest.raises(TransmissionError, match=rf"unknown type '{other}'\. Fix: use one of"):
        lookup(other, "t")


def test_plugin_entry_point(plugins) -> None:
    plugins.append(_EntryPoint("my_pkg/CableTransmission", CableTransmission))
    assert available_types()["my_pkg/CableTransmission"] is CableTransmission
    robot = chain(
        ("j", "revolute"),
        transmissions=[simple("cable", "j", "m", jred=2.0, ttype="my_pkg/CableTransmission")],
    )
    tmap = TransmissionMap.from_robot(robot)
    a, _, _ = tmap.joint_to_actuator(np.array([0.5]), np.zeros(1), np.zeros(1))
    assert a[0] == pytest.approx(3.0, abs=1e-15)


def test_broken_plugin_warns(plugins, caplog) -> None:
    plugins.append(_EntryPoint("bad/One", None, fail=True))
    plugins.append(_EntryPoint("bad/Two", object))
    with caplog.at_level(logging.WARNING):
        types = available_types()
    assert "bad/One" not in types and "bad/Two" not in types
    assert (
        "failed to load" in caplog.text
        and "is not a sdf_bridge.transmissions.Transmission" in caplog.text
    )


def test_non_mechanism_types() -> None:
    reason = mechanism_registry.non_mechanism_reason
    assert "no mechanism" in reason("franka_hw/FrankaStateInterface")
    assert "not modelled" in reason("pr2_mechanism_model/PR2GripperTransmission")
    assert reason("transmission_interface/SimpleTransmission") is None


def test_unknown_type_on_driven_joint_fails() -> None:
    robot = chain(("j", "revolute"), transmissions=[simple("belt", "j", "m", ttype="acme/Belt")])
    with pytest.raises(
        TransmissionError, match=r"transmission 'belt' has unknown type 'acme/Belt'"
    ):
        TransmissionMap.from_robot(robot)
