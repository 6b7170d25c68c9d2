"""sdf_bridge.util.lazy_exports: names imported on first use, once."""

from __future__ import annotations

import sys

import pytest

import sdf_bridge.hardware
from sdf_bridge.util.lazy_exports import lazy_exports


def test_a_name_is_imported_from_its_submodule_once_and_listed() -> None:
    getattr_, dir_ = lazy_exports("sdf_bridge.hardware", {"Holds": "holds"})
    vars(sdf_bridge.hardware).pop("Holds", None)
    value = getattr_("Holds")
    assert value is sys.modules["sdf_bridge.hardware.holds"].Holds
    assert vars(sdf_bridge.hardware)["Holds"] is value  # kept: the next access is plain
    assert "Holds" in dir_()


def test_a_name_not_listed_is_an_attribute_error() -> None:
    getattr_, _ = lazy_exports("sdf_bridge.hardware", {"Holds": "holds"})
    message = r"^module 'sdf_bridge\.hardware' has no attribute 'x'$"
    with pytest.raises(AttributeError, match=message):
        getattr_("x")
