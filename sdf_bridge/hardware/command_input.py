"""How a ``sensor_msgs/JointState`` command's names and arrays line up with the robot's joints.

The contract of the ``joint_commands`` input (:meth:`CommandBuffer.submit_joint_state
<sdf_bridge.hardware.commands.CommandBuffer.submit_joint_state>`), which is what ros2_control's
topic-based hardware interfaces send (PickNik's ``topic_based_ros2_control/TopicBasedSystem``
and its ros-controls successor ``joint_state_topic_hardware_interface/JointStateTopicSystem``):

* **Arrays** (:class:`JointStateLayout`): each of ``position``, ``velocity``, ``effort`` is

  - empty: that interface is not commanded;
  - ``len(name)`` entries: one per name, in name order;
  - or shorter, one entry per name *that has that command interface in the description*
    (its ``<ros2_control>`` joint lists ``<command_interface name="velocity"/>``; without any
    ``<ros2_control>`` block every non-follower joint has all three), in name order. This is
    what both plugins publish: every joint of their block in ``name`` (a state-only mimic
    joint included), and per interface the commands of the joints that have it
    (``name[7] position[6] velocity[5] effort[5]`` for the demo arm).

  Any other length is rejected whole (``malformed_field``), with the rule in the message.
* **NaN** means "no command" for that joint and interface, silently: ros2_control's command
  interfaces that no controller has claimed are NaN, and the plugins send them as they are.
  ±inf is an error (``not_finite``).
* **Names** (:class:`NameResolver`): values are matched by name. A name that is not a
  commandable joint is refused (unknown, follower, not commandable, duplicate: see
  :mod:`sdf_bridge.hardware.commands`) only where the message carries a value for it: a name
  with no entry or only NaN commands nothing, so the plugins' state-only mimic joint is fine.

What the bridge cannot see: the plugins do not say which command interfaces a controller has
claimed. A joint whose block lists several command interfaces gets, from PickNik's plugin, the last
values of the unclaimed ones too (its initial state, or what a deactivated controller wrote; the
successor sends NaN until the first claim, then the last value), which the bridge takes as commands.
Blocks for these plugins therefore list the command interfaces of one control mode per joint
(``sdf-bridge ros2-control --command-interfaces``; joint_trajectory_controller's position + velocity
is one mode).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from ..backends.base import INTERFACE_MODES
from ..util.clip import clipped_list

#: (reason, rows of the message's names, the warning's text before and after the list of names)
NameProblem = tuple[str, np.ndarray, tuple[str, str]]

_CACHE_SIZE = 32  # name lists kept resolved (publishers repeat theirs)


class JointStateLayout:
    """Which entries of a JointState array belong to which name (module doc).

    Args:
        command_interfaces: joint → its command interfaces in the description (any of
            ``position``, ``velocity``, ``effort``; others are ignored), for every joint that
            has some, commandable or not.
    """

    def __init__(self, command_interfaces: Mapping[str, Iterable[str]]) -> None:
        self._has = {
            interface: frozenset(
                name for name, interfaces in command_interfaces.items() if interface in interfaces
            )
            for interface in INTERFACE_MODES
        }
        self._rows: dict[tuple[tuple[str, ...], str], np.ndarray] = {}

    def rows(self, names: tuple[str, ...], interface: str) -> np.ndarray:
        """Rows of ``names`` whose joint has ``interface`` as a command interface, in order
        (intp array; cached per name list)."""
        key = (names, interface)
        rows = self._rows.get(key)
        if rows is None:
            has = self._has.get(interface, frozenset())
            rows = np.array([k for k, name in enumerate(names) if name in has], dtype=np.intp)
            if len(self._rows) >= 3 * _CACHE_SIZE:
                self._rows.clear()
            self._rows[key] = rows
        return rows

    def expand(
        self, names: tuple[str, ...], interface: str, values: np.ndarray
    ) -> np.ndarray | str:
        """``values`` of ``interface`` as one entry per name, shape ``(len(names),)``: itself
        when it has ``len(names)`` entries, else spread over the names that have the
        interface (NaN for the others) when it has one entry per such name.

        Returns:
            The array, or the reason it does not fit (for the ``malformed_field`` warning).
        """
        n, m = len(names), len(values)
        if m == n:
            return values
        rows = self.rows(names, interface)
        if m == rows.size:
            full = np.full(n, np.nan)
            full[rows] = values
            return full
        return (
            f"{interface} has {m} entries for {n} names, of which {rows.size} have a {interface} "
            f"command interface; {interface} ignored (an array has one entry per name, or one per "
            f"name with that command interface in <ros2_control>, in name order, or none)"
        )


class NameResolver:
    """Resolves a command's name list to joints, once per distinct list (cached).

    Args:
        joint_index: commandable joint → its index in the command arrays.
        map_joints: every joint of the transmission map (commandable or not).
        followers: follower joints (mimic, gearbox, screw: never commandable).
        commandable: the commandable joints, for the warning that lists them.
    """

    def __init__(
        self,
        joint_index: Mapping[str, int],
        map_joints: Iterable[str],
        followers: Iterable[str],
        commandable: Sequence[str],
    ) -> None:
        self._index = dict(joint_index)
        self._map = frozenset(map_joints)
        self._followers = frozenset(followers)
        self._commandable = list(commandable)
        self._cache: dict[tuple[str, ...], tuple[np.ndarray, np.ndarray, list[NameProblem]]] = {}

    def resolve(self, names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, list[NameProblem]]:
        """``(rows, index, problems)``: the rows of ``names`` that name a commandable joint
        exactly once and their array indices (intp arrays, do not modify), and the names that
        cannot be commanded, grouped by reason (:meth:`problems_with_values` filters them)."""
        cached = self._cache.get(names)
        if cached is None:
            cached = self._resolve(names)
            if len(self._cache) >= _CACHE_SIZE:
                self._cache.clear()
            self._cache[names] = cached
        return cached

    @staticmethod
    def problems_with_values(
        problems: list[NameProblem], names: Sequence[str], valued: np.ndarray | None
    ) -> list[tuple[str, str, int]]:
        """``(reason, message, count)`` of the ``problems`` whose names carry a value in the
        message (``valued``: (len(names),) bool, a finite or infinite entry in some array;
        ``None`` = every name does). A duplicated name counts once."""
        result = []
        for reason, rows, (before, after) in problems:
            hit = [names[r] for r in (rows if valued is None else rows[valued[rows]])]
            if reason == "duplicate_joint":
                hit = list(dict.fromkeys(hit))
            if hit:
                result.append((reason, f"{before}{clipped_list(hit)}{after}", len(hit)))
        return result

    def _resolve(self, names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, list[NameProblem]]:
        counts = Counter(names)
        rows: list[int] = []
        index: list[int] = []
        groups: dict[str, list[int]] = {}
        for row, name in enumerate(names):
            k = self._index.get(name)
            if k is not None and counts[name] == 1:
                rows.append(row)
                index.append(k)
                continue
            if k is not None:
                reason = "duplicate_joint"
            elif name in self._followers:
                reason = "follower_joint"
            elif name in self._map:
                reason = "not_commandable"
            else:
                reason = "unknown_joint"
            groups.setdefault(reason, []).append(row)
        texts = {
            "unknown_joint": ("unknown joints ", " ignored"),
            "follower_joint": (
                "joints ",
                " follow another joint (mimic/gearbox) and cannot be commanded; "
                "command their leader instead",
            ),
            "not_commandable": (
                "joints ",
                " are not commandable (not in <ros2_control> or the joints "
                f"parameter); commandable: {self._commandable}",
            ),
            "duplicate_joint": ("joints ", " named more than once; ignored"),
        }
        problems = [
            (reason, np.array(groups[reason], dtype=np.intp), texts[reason])
            for reason in texts
            if reason in groups
        ]
        return np.array(rows, dtype=np.intp), np.array(index, dtype=np.intp), problems
