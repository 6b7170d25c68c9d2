"""sdf_bridge.util.booleans: the one boolean vocabulary (launch's IfCondition: true/false/1/0)."""

from __future__ import annotations

import pytest

from sdf_bridge.util.booleans import parse_bool


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (True, True),
        (False, False),
        ("true", True),
        ("TRUE", True),
        (" True ", True),
        ("1", True),
        ("false", False),
        ("False", False),
        ("0", False),
        ("\t0\n", False),
    ],
)
def test_booleans(value, expected) -> None:
    assert parse_bool(value) is expected


@pytest.mark.parametrize(
    "value", ["yes", "no", "on", "off", "", "2", "tru", 1, 0, 1.0, None, ["true"]]
)
def test_not_booleans(value) -> None:
    """Words outside the vocabulary, and numbers (a number is not a boolean parameter): None."""
    assert parse_bool(value) is None
