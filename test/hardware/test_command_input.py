"""sdf_bridge.hardware.command_input: the layout of a JointState command's arrays (full, or
one entry per name with that command interface) and the resolution of its names."""

from __future__ import annotations

import numpy as np

from sdf_bridge.hardware.command_input import JointStateLayout, NameResolver

NAN = np.nan


def test_layout_reads_full_and_short_arrays() -> None:
    layout = JointStateLayout(
        {"a": ("position", "velocity"), "b": ("position",), "c": ("velocity", "torque")}
    )
    names = ("a", "m", "b", "c")
    full = np.array([1.0, 2.0, 3.0, 4.0])
    assert layout.expand(names, "position", full) is full
    np.testing.assert_array_equal(
        layout.expand(names, "position", np.array([1.0, 3.0])), [1.0, NAN, 3.0, NAN]
    )
    np.testing.assert_array_equal(
        layout.expand(names, "velocity", np.array([5.0, 6.0])), [5.0, NAN, NAN, 6.0]
    )
    np.testing.assert_array_equal(layout.rows(names, "effort"), [])  # nobody has effort
    assert layout.rows(names, "position") is layout.rows(names, "position")  # cached per name list


def test_layout_names_the_rule_for_another_length() -> None:
    layout = JointStateLayout({"a": ("position",), "b": ("position",)})
    assert layout.expand(("a", "b", "c"), "position", np.array([1.0])) == (
        "position has 1 entries for 3 names, of which 2 have a position command interface; "
        "position ignored (an array has one entry per name, or one per name with that "
        "command interface in <ros2_control>, in name order, or none)"
    )


def test_resolver_groups_the_names_it_cannot_command() -> None:
    resolver = NameResolver({"a": 0, "b": 1}, ("a", "b", "x"), ("f",), ("a", "b"))
    names = ("b", "zz", "f", "x", "a", "a", "zz")
    rows, index, problems = resolver.resolve(names)
    np.testing.assert_array_equal(rows, [0])  # only b: a is named twice
    np.testing.assert_array_equal(index, [1])
    assert [(reason, list(r)) for reason, r, _ in problems] == [
        ("unknown_joint", [1, 6]),
        ("follower_joint", [2]),
        ("not_commandable", [3]),
        ("duplicate_joint", [4, 5]),
    ]
    assert resolver.resolve(names)[2] is problems  # cached
    every = NameResolver.problems_with_values(problems, names, None)
    assert every == [
        ("unknown_joint", "unknown joints ['zz', 'zz'] ignored", 2),
        (
            "follower_joint",
            "joints ['f'] follow another joint (mimic/gearbox) and cannot be commanded; "
            "command their leader instead",
            1,
        ),
        (
            "not_commandable",
            "joints ['x'] are not commandable (not in <ros2_control> or the joints parameter); "
            "commandable: ['a', 'b']",
            1,
        ),
        ("duplicate_joint", "joints ['a'] named more than once; ignored", 1),  # once per name
    ]
    valued = np.array([True, False, False, True, False, True, True])
    assert [(r, n) for r, _, n in NameResolver.problems_with_values(problems, names, valued)] == [
        ("unknown_joint", 1),
        ("not_commandable", 1),
        ("duplicate_joint", 1),
    ]
