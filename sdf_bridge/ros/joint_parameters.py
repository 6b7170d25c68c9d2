"""The joints' properties as ROS parameters ``joint_properties.<joint>.<property>``: Gazebo's
``physics::Joint`` setters through ``ros2 param set``.

Once the robot is configured the node declares, for every joint of the transmission map, the
properties its hardware system has (:attr:`HardwareSystem.joint_property_names
<sdf_bridge.hardware.HardwareSystem.joint_property_names>`; the table, units and rules:
:mod:`sdf_bridge.hardware.joint_properties`): ``lower``, ``upper``, ``effort``, ``velocity``
for every backend, and with MuJoCo ``damping``, ``friction``, ``spring_stiffness``,
``spring_reference``, ``stop_stiffness``, ``stop_dissipation``. Each is a writable double with
a descriptor (description with unit and Gazebo call, a ``FloatingPointRange``), its value the
one in use (the description's, the limiter's; ``inf`` where not limited).

Changes are checked by :meth:`JointParameters.on_set` (an on-set callback: an error boundary
like every callback of the node, :mod:`.callback_guard`), which changes nothing, and applied by
:meth:`JointParameters.on_accepted` (a post-set callback, run once rclpy accepted the whole
call: every on-set callback passed, ``use_sim_time`` fixed included) through
:meth:`HardwareSystem.set_joint_properties
<sdf_bridge.hardware.HardwareSystem.set_joint_properties>` before the call returns, so from the
next control tick on; a call is applied whole or refused whole with the reason
(``SetParametersResult.reason``: the parameter, the value and the fix), and a refused call, for
whatever reason, changes neither parameters nor physics. A
``set_parameters_atomically`` call is one change (move both stops past the old ones at once);
``SetParameters`` (``ros2 param set``, ``ros2 param load``) applies its parameters one by one,
as ROS 2 defines it. Values given at start (``-p joint_properties.arm.damping:=0.5``, a
parameters file) are applied once the robot is configured; one the robot refuses ends the
start with a
:class:`~sdf_bridge.errors.ConfigError`, an override naming no joint property is warned about
with the closest name. A joint's name is used as it is (``arm::elbow``, ``arm.elbow``,
``universal/axis1``): every name works over the parameter services and in parameters files; a
``-p`` on the command line takes only names whose tokens between ``.`` and ``/`` are ASCII
letters, digits and ``_`` not starting with a digit or ``__`` (rcl's lexer; ``arm::elbow`` is
refused there).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from rcl_interfaces.msg import (
    FloatingPointRange,
    ParameterDescriptor,
    ParameterType,
    SetParametersResult,
)
from rclpy.exceptions import ParameterException, ParameterNotDeclaredException
from rclpy.node import Node
from rclpy.parameter import Parameter

from ..errors import BackendError, ConfigError
from ..hardware import HardwareSystem
from ..hardware.joint_properties import PROPERTIES, parameter_name
from ..util.similarity import close_match
from .params import JOINT_PROPERTIES_PREFIX

PREFIX = JOINT_PROPERTIES_PREFIX
"""The prefix of the joint property parameters (``joint_properties.<joint>.<property>``)."""


def split_name(name: str) -> tuple[str, str] | None:
    """``(joint, property)`` of a parameter ``joint_properties.<joint>.<property>`` (the
    joint's name may contain dots), or ``None`` for another name."""
    if not name.startswith(PREFIX):
        return None
    joint, dot, prop = name[len(PREFIX) :].rpartition(".")
    if not dot or not joint or prop not in PROPERTIES:
        return None
    return joint, prop


def descriptor(prop: str, start: float | None = None) -> ParameterDescriptor:
    """The descriptor of property ``prop``
    (:data:`~sdf_bridge.hardware.joint_properties.PROPERTIES`): writable double, its unit, meaning
    of ``inf``, the Gazebo call, its range (the finite-only properties bounded by
    ±:data:`~sdf_bridge.hardware.joint_properties.CAP`). A ``start`` value beyond that range (a
    description's) widens it to include that value, so the parameter can be declared with it;
    changes are still checked against the bound."""
    spec = PROPERTIES[prop]
    infinite = f"; {spec.infinite}" if spec.infinite else ""
    text = f"{spec.description} Unit: {spec.unit}{infinite}. Gazebo: physics::Joint::{spec.gazebo}."
    low, high = spec.minimum, spec.maximum
    if start is not None and math.isfinite(start):
        low, high = min(low, start), max(high, start)
    return ParameterDescriptor(
        type=ParameterType.PARAMETER_DOUBLE,
        description=text,
        read_only=False,
        floating_point_range=[FloatingPointRange(from_value=low, to_value=high, step=0.0)],
    )


class JointParameters:
    """Declares the joint property parameters of ``hardware`` on ``node`` and applies their
    changes (module doc).

    Args:
        node: the bridge node (a :class:`~.callback_guard.GuardedNode`).
        hardware: its configured hardware system.

    Raises:
        ConfigError: a value given at start is refused (the reason in the message).
    """

    def __init__(self, node: Node, hardware: HardwareSystem) -> None:
        self.node, self.hardware = node, hardware
        overrides = getattr(node, "_parameter_overrides", {})
        declared = []
        start: dict[str, dict[str, Any]] = {}
        for joint, values in hardware.joint_properties().items():
            for prop, value in values.items():
                name = parameter_name(joint, prop)
                declared.append(name)
                try:
                    given = node.declare_parameter(
                        name, float(value), descriptor(prop, float(value))
                    ).value
                except ParameterException as exc:  # a start value of a wrong type or range
                    raise ConfigError(
                        f"parameter {name}: {exc}. Fix: give a double in its range (a decimal "
                        "point: 1.0, not 1; .inf for infinity)."
                    ) from exc
                if name in overrides and not _same(given, value):
                    start.setdefault(joint, {})[prop] = given
        self._warn_undeclared(overrides, declared)
        if start:
            try:
                notes = hardware.set_joint_properties(start)
            except (ConfigError, BackendError) as exc:
                raise ConfigError(f"joint property given at start refused: {exc}") from exc
            self._log(notes)
        self._syncing = False
        node.add_pre_set_parameters_callback(self.refuse_undeclared)
        node.add_on_set_parameters_callback(self.on_set)
        node.add_post_set_parameters_callback(self.on_accepted)

    def refuse_undeclared(self, parameters: list[Parameter]) -> list[Parameter]:
        """Pre-set callback: ``parameters`` unchanged when the node declares each of them; else
        rclpy's refusal of undeclared names (``ParameterNotDeclaredException``, which the
        parameter services turn into the call's reason and which ``set_parameters`` raises
        anyway) raised here with a text naming each such parameter, why (no such joint, no
        such property, a multi-axis joint named without its axis) and the closest declared
        name. rclpy's own text names none of them (``Invalid access to undeclared
        parameter(s): []``: rclpy 9.1 lists an exhausted generator).

        Raises:
            ParameterNotDeclaredException: a parameter the node does not declare.
        """
        unknown = [p.name for p in parameters if not self.node.has_parameter(p.name)]
        if unknown:
            raise ParameterNotDeclaredException("; ".join(self._why_undeclared(n) for n in unknown))
        return parameters

    def _why_undeclared(self, name: str) -> str:
        """``name`` (not declared) with the reason and the closest declared name
        (:func:`~sdf_bridge.util.similarity.close_match`: of the joint, of the property, of
        another parameter)."""
        if not name.startswith(PREFIX):
            close = close_match(name, frozenset(self.node.list_parameters([], 0).names))
            hint = f" (did you mean {close!r}?)" if close else ""
            return f"{_shown(name)}: this node has no such parameter{hint}"
        joint, dot, prop = name[len(PREFIX) :].rpartition(".")
        joints = self.hardware.joint_properties()
        names = self.hardware.joint_property_names
        fix = f"Fix: joint_properties.<joint>.<property>, <property> one of {', '.join(names)}"
        if not dot or not joint:
            return f"{_shown(name)}: not joint_properties.<joint>.<property>. {fix}"
        if joint not in joints:
            axes = sorted(j for j in joints if j.startswith(joint + "/"))
            if axes:
                listed = ", ".join(parameter_name(a, prop) for a in axes)
                return (
                    f"{_shown(name)}: joint {_shown(joint)} has several axes, each with its own "
                    f"properties. Fix: name the axis: {listed}"
                )
            close = close_match(joint, frozenset(joints))
            hint = f" (did you mean {parameter_name(close, prop)!r}?)" if close else ""
            shown = sorted(joints)
            more = f", … ({len(shown)} joints)" if len(shown) > 12 else ""
            return (
                f"{_shown(name)}: no joint {_shown(joint)} has properties{hint}. Fix: use "
                f"one of the joints with properties: {', '.join(shown[:12])}{more}"
            )
        if prop in PROPERTIES:  # a property of the table the backend does not simulate
            return (
                f"{_shown(name)}: the backend does not simulate {_shown(prop)}, so joint "
                f"{_shown(joint)} has no such parameter. {fix}"
            )
        close = close_match(prop, frozenset(names))
        hint = f" (did you mean {parameter_name(joint, close)!r}?)" if close else ""
        return f"{_shown(name)}: joint {_shown(joint)} has no property {_shown(prop)}{hint}. {fix}"

    def on_set(self, parameters: list[Parameter]) -> SetParametersResult:
        """On-set callback: the ``joint_properties.*`` parameters of the call checked together
        (:meth:`HardwareSystem.check_joint_properties
        <sdf_bridge.hardware.HardwareSystem.check_joint_properties>`), changing nothing; the
        call refused with the reason when they are refused; other parameters pass.

        rclpy runs every on-set callback of the node and refuses the call when any of them
        refuses (``use_sim_time`` changed in the same call, …), so nothing is applied here:
        :meth:`on_accepted` applies the change once the whole call is accepted."""
        changes = _changes(parameters)
        if not changes or self._syncing:
            return SetParametersResult(successful=True)
        try:
            self.hardware.check_joint_properties(changes)
        except (ConfigError, BackendError) as exc:
            return SetParametersResult(successful=False, reason=str(exc))
        return SetParametersResult(successful=True)

    def on_accepted(self, parameters: list[Parameter]) -> None:
        """Post-set callback: the ``joint_properties.*`` parameters of an accepted call (checked
        by :meth:`on_set`) applied together, logged. Should the hardware refuse them now (its
        state changed since the check, the backend failed), the error is logged and those
        parameters are set back to the values in use, so that parameters and physics agree."""
        changes = _changes(parameters)
        if not changes or self._syncing:
            return
        try:
            notes = self.hardware.set_joint_properties(changes)
        except (ConfigError, BackendError) as exc:
            self.node.get_logger().error(
                f"joint properties accepted but not applied: {exc}; their parameters are set "
                "back to the values in use"
            )
            self._set_back(changes)
            return
        self._log(notes)
        self.node.get_logger().info(
            "joint properties changed: "
            + ", ".join(
                f"{parameter_name(j, p)} = {v:g}"
                for j, values in changes.items()
                for p, v in values.items()
            )
        )

    def _set_back(self, changes: dict[str, dict[str, Any]]) -> None:
        """Set the parameters of ``changes`` back to the hardware's values in use (callbacks
        passed by)."""
        current = self.hardware.joint_properties()
        back = [
            Parameter(parameter_name(j, p), value=float(current[j][p]))
            for j, values in changes.items()
            for p in values
            if j in current and p in current[j]
        ]
        self._syncing = True
        try:
            self.node.set_parameters_atomically(back)
        finally:
            self._syncing = False

    def _log(self, notes: Iterable[str]) -> None:
        for note in notes:
            self.node.get_logger().warning(note)

    def _warn_undeclared(self, overrides: Iterable[str], declared: list[str]) -> None:
        """One warning naming the ``joint_properties.*`` overrides that are no joint property,
        each with the closest declared name."""
        known = frozenset(declared)
        wrong = sorted(n for n in overrides if n.startswith(PREFIX) and n not in known)
        if not wrong:
            return
        parts = []
        for name in wrong:
            close = close_match(name, known)
            parts.append(f"{name!r} (did you mean {close!r}?)" if close else repr(name))
        self.node.get_logger().warning(
            f"ignoring joint property parameter(s) of no joint property: {', '.join(parts)}. "
            "Fix: joint_properties.<joint>.<property> with a joint of the robot and one of "
            f"{', '.join(self.hardware.joint_property_names)}."
        )


SHOWN_CHARACTERS = 120
"""Longest name quoted whole in a refusal (a longer one is cut, its length given)."""


def _shown(name: str) -> str:
    """``name`` quoted (``repr``), cut after :data:`SHOWN_CHARACTERS` characters."""
    if len(name) <= SHOWN_CHARACTERS:
        return repr(name)
    return f"{name[:SHOWN_CHARACTERS]!r}… ({len(name)} characters)"


def _changes(parameters: Iterable[Parameter]) -> dict[str, dict[str, Any]]:
    """joint → property → value of the ``joint_properties.*`` parameters among
    ``parameters``."""
    changes: dict[str, dict[str, Any]] = {}
    for parameter in parameters:
        parts = split_name(parameter.name)
        if parts is not None:
            changes.setdefault(parts[0], {})[parts[1]] = parameter.value
    return changes


def _same(a: float, b: float) -> bool:
    """Equal values, infinities included."""
    return a == b or (math.isnan(a) and math.isnan(b))
