"""Tests of sdf_bridge.util.similarity: which known name an unknown one is a misspelling of."""

from __future__ import annotations

import pytest

from sdf_bridge.util.similarity import close_match, one_edit

TRANSMISSION_TAGS = {"hardwareInterface", "role", "mechanicalReduction", "mechanical_reduction"}


@pytest.mark.parametrize(
    "tag, known, expected",
    [
        ("mechanicalReducton", TRANSMISSION_TAGS, "mechanicalReduction"),  # a dropped letter
        ("mechanical_reducion", TRANSMISSION_TAGS, "mechanical_reduction"),
        ("MechanicalReduction", TRANSMISSION_TAGS, "mechanicalReduction"),  # letter case only
        ("hardwareinterface", TRANSMISSION_TAGS, "hardwareInterface"),
        # transposition: difflib ratio 0.75, one edit
        (
            "axsi",
            {"axis", "limit", "origin"},
            "axis",
        ),
        ("limits", {"axis", "limit", "origin"}, "limit"),
        ("frobnicator", {"axis", "limit", "origin"}, None),
        ("axis", {"axis", "limit"}, None),  # a known tag is not a misspelling
        ("ax", {"axis"}, None),  # short: neither ratio 0.8 (0.67) nor the 4-letter one-edit rule
        ("{http://www.ros.org/wiki/xacro}axis", {"axis"}, None),  # namespaced
        ("self_collision_checking", {"visual", "collision", "inertial"}, None),
    ],
)
def test_close_match(tag: str, known: set[str], expected: str | None) -> None:
    assert close_match(tag, known) == expected


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("axsi", "axis", True),  # transposition
        ("axis", "axes", True),  # substitution
        ("axis", "axiss", True),  # insertion
        ("axis", "axi", True),  # deletion
        ("axis", "axis", False),  # equal is not an edit
        ("axis", "sixa", False),
        ("limit", "lmt", False),  # two deletions
    ],
)
def test_one_edit(a: str, b: str, expected: bool) -> None:
    assert one_edit(a, b) is expected
