"""Joint properties changed while the robot runs: Gazebo's ``physics::Joint`` setters, ROS-free.

Each joint of the transmission map has the properties of :data:`PROPERTIES` (the node makes
them the ROS parameters ``joint_properties.<joint>.<property>``,
:mod:`sdf_bridge.ros.joint_parameters`):

====================  ================  ================================  =======================
property              unit              meaning                           Gazebo ``physics::Joint``
====================  ================  ================================  =======================
``lower``, ``upper``  rad or m          position stops (∓inf: none)       ``SetLowStop``,
                                                                          ``SetHighStop``
``effort``            N·m or N          effort limit (inf: none)          ``SetEffortLimit``
``velocity``          rad/s or m/s      velocity limit (inf: none)        ``SetVelocityLimit``
``damping``           N·m·s/rad, N·s/m  viscous damping                   ``SetDamping``
``friction``          N·m or N          Coulomb friction                  ``SetParam("friction")``
``spring_stiffness``  N·m/rad or N/m    spring stiffness (0: none)        ``SetStiffnessDamping``
``spring_reference``  rad or m          spring rest position              ``SetStiffnessDamping``
``stop_stiffness``    N·m/rad or N/m    stop stiffness (inf: rigid)       ``SetParam("stop_erp")``
``stop_dissipation``  N·m·s/rad, N·s/m  stop damping                      ``SetParam("stop_cfm")``
====================  ================  ================================  =======================

The four limit properties (:data:`LIMIT_PROPERTIES`) are the limiter's, for every backend
(:func:`limits_with`: the joint's :class:`~sdf_bridge.limits.spec.JointLimits` with them, by
:func:`~sdf_bridge.limits.spec.apply_override`, the rule of a ``joint_limits`` YAML override);
a backend applies those it lists in its ``joint_property_names`` too (MuJoCo: the stops and the
effort limit in the physics; the mock: a joint outside new stops is clamped into them). The
dynamics properties (:data:`DYNAMICS_PROPERTIES`) exist only where the backend simulates them
(MuJoCo; the mock simulates no dynamics and has none).

:func:`check_changes` is the one check of a change (every value, then the stops' order, before
anything is applied: a change is applied whole or not at all); its
:class:`~sdf_bridge.errors.JointPropertyError` names the parameter, the value and the fix.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..description.magnitudes import MAX_MAGNITUDE, short_number
from ..errors import JointPropertyError
from ..limits.spec import JointLimits, apply_override

INF = math.inf
CAP = MAX_MAGNITUDE
"""The bound on the magnitude of the finite-only dynamics properties (damping, friction,
spring stiffness and reference, stop dissipation): the project's one bound on absurd values
(:data:`sdf_bridge.description.magnitudes.MAX_MAGNITUDE`, 1e6). A million N·m·s/rad, N·m,
N·m/rad or rad is beyond any real joint, and values such as 1e308 or 1e300 make MuJoCo unstable
at every step (it resets in a loop)."""


@dataclass(frozen=True)
class JointProperty:
    """One property of :data:`PROPERTIES`.

    Attributes:
        name: the property (``damping``, ``upper``, …).
        unit: its unit, rotational or translational joint.
        minimum, maximum: its range (``±inf`` allowed where ``infinite`` says what it means;
            ``±CAP`` where the property must be finite, :data:`CAP`).
        infinite: the meaning of an infinite value (``""``: it must be finite).
        positive: 0 is refused (``minimum`` is then 0 and excluded).
        description: one line for the ROS parameter's descriptor.
        gazebo: the Gazebo ``physics::Joint`` call it stands for.
    """

    name: str
    unit: str
    minimum: float
    maximum: float
    infinite: str
    description: str
    gazebo: str
    positive: bool = False


#: Every joint property a backend may apply at run time, by name.
PROPERTIES: dict[str, JointProperty] = {
    p.name: p
    for p in (
        JointProperty(
            "lower",
            "rad or m",
            -INF,
            INF,
            "-inf: no lower stop",
            "Lower position stop (physics) and limit (limiter); below upper.",
            "SetLowStop",
        ),
        JointProperty(
            "upper",
            "rad or m",
            -INF,
            INF,
            "inf: no upper stop",
            "Upper position stop (physics) and limit (limiter); above lower.",
            "SetHighStop",
        ),
        JointProperty(
            "effort",
            "N·m or N",
            0.0,
            INF,
            "inf: not limited",
            "Effort limit: commands are clamped to ±effort (0: the joint exerts none).",
            "SetEffortLimit",
        ),
        JointProperty(
            "velocity",
            "rad/s or m/s",
            0.0,
            INF,
            "inf: not limited",
            "Velocity limit of commands (and of position steps).",
            "SetVelocityLimit",
        ),
        JointProperty(
            "damping",
            "N·m·s/rad or N·s/m",
            0.0,
            CAP,
            "",
            "Viscous damping b: torque -b·velocity (the default PID gains follow it).",
            "SetDamping",
        ),
        JointProperty(
            "friction",
            "N·m or N",
            0.0,
            CAP,
            "",
            "Coulomb friction: the torque a still joint resists (default gains follow it).",
            'SetParam("friction")',
        ),
        JointProperty(
            "spring_stiffness",
            "N·m/rad or N/m",
            0.0,
            CAP,
            "",
            "Spring stiffness k: torque -k·(position - spring_reference); 0: no spring.",
            "SetStiffnessDamping / SetStiffness",
        ),
        JointProperty(
            "spring_reference",
            "rad or m",
            -CAP,
            CAP,
            "",
            "Spring rest position.",
            "SetStiffnessDamping (reference)",
        ),
        JointProperty(
            "stop_stiffness",
            "N·m/rad or N/m",
            0.0,
            INF,
            "inf: rigid (the simulator's default stop)",
            "Stop stiffness: penetration = load/stiffness; inf or too stiff for the timestep: "
            "a rigid stop.",
            'SetParam("stop_erp") (SDFormat <limit><stiffness>)',
            positive=True,
        ),
        JointProperty(
            "stop_dissipation",
            "N·m·s/rad or N·s/m",
            0.0,
            CAP,
            "",
            "Stop damping while the joint presses into a stop of finite stop_stiffness.",
            'SetParam("stop_cfm") (SDFormat <limit><dissipation>)',
        ),
    )
}
"""Every joint property, by name (module table)."""

LIMIT_PROPERTIES = ("lower", "upper", "effort", "velocity")
"""The properties the limiter enforces, for every backend."""
DYNAMICS_PROPERTIES = (
    "damping",
    "friction",
    "spring_stiffness",
    "spring_reference",
    "stop_stiffness",
    "stop_dissipation",
)
"""The properties only a simulating backend has (MuJoCo)."""
STOPS = ("lower", "upper")


def parameter_name(joint: str, name: str) -> str:
    """``joint_properties.<joint>.<name>``: how a property is named (the ROS parameter, and
    messages)."""
    return f"joint_properties.{joint}.{name}"


def check_value(joint: str, name: str, value: object) -> float:
    """``value`` of property ``name`` of ``joint`` as a float, checked against its range.

    Raises:
        JointPropertyError: not a number, NaN, infinite where that means nothing, out of range
            (beyond :data:`CAP` for the finite-only properties: "beyond the bound"), or 0 for
            a property that must be positive (the message names the fix).
    """
    prop = PROPERTIES[name]
    where = parameter_name(joint, name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise JointPropertyError(
            f"{where} = {value!r} is not a number. Fix: give a number in {prop.unit}."
        )
    number = float(value)
    allowed = f"[{short_number(prop.minimum)}, {short_number(prop.maximum)}] {prop.unit}"
    if prop.infinite:
        allowed += f" ({prop.infinite})"
    if math.isnan(number):
        raise JointPropertyError(f"{where} is NaN. Fix: give a number in {allowed}.")
    if math.isinf(number) and not prop.infinite:
        raise JointPropertyError(
            f"{where} = {number:g} must be finite. Fix: give a finite number in {allowed}."
        )
    if not prop.minimum <= number <= prop.maximum:
        if abs(number) > CAP and CAP in (prop.maximum, -prop.minimum):
            raise JointPropertyError(
                f"{where} = {short_number(number)} is beyond the bound |value| ≤ "
                f"{short_number(CAP)} {prop.unit} (a magnitude no simulation can use). Fix: "
                f"give {allowed}."
            )
        raise JointPropertyError(
            f"{where} = {short_number(number)} is out of range. Fix: give {allowed}."
        )
    if math.isinf(number):
        if name in STOPS and (name == "lower") == (number > 0):  # lower = inf, upper = -inf
            raise JointPropertyError(
                f"{where} = {number:g} leaves no position for the joint. Fix: give a finite "
                f"stop, or {'-inf' if name == 'lower' else 'inf'} for none."
            )
    if prop.positive and number == 0.0:
        raise JointPropertyError(
            f"{where} = 0 would not stop the joint. Fix: give a stiffness > 0 (inf: rigid); "
            "to remove the stop, set lower/upper to -inf/inf."
        )
    return number


def check_changes(
    current: Mapping[str, Mapping[str, float]],
    changes: Mapping[str, Mapping[str, object]],
    available: Iterable[str],
) -> dict[str, dict[str, float]]:
    """Check a change of joint properties as a whole, before anything is applied.

    Args:
        current: joint → property → value now (every joint and property there is).
        changes: joint → property → new value.
        available: the property names there are (the limiter's and the backend's).

    Returns:
        joint → every property of that joint with the change applied, for the changed
        joints.

    Raises:
        JointPropertyError: an unknown joint or property, a bad value (:func:`check_value`),
            or stops with ``lower ≥ upper`` (when the change moves one: a joint whose stops
            the description left equal keeps them while its other properties change).
    """
    names = tuple(available)
    out: dict[str, dict[str, float]] = {}
    for joint, values in changes.items():
        if joint not in current:
            raise JointPropertyError(
                f"no joint {joint!r} has properties. Fix: use one of {sorted(current)}."
            )
        merged = dict(current[joint])
        for name, value in values.items():
            if name not in names:
                known = ", ".join(names)
                why = " (the backend does not simulate it)" if name in PROPERTIES else ""
                raise JointPropertyError(
                    f"{parameter_name(joint, name)}: no such property{why}. Fix: use one of "
                    f"{known}."
                )
            merged[name] = check_value(joint, name, value)
        lower, upper = merged.get("lower", -INF), merged.get("upper", INF)
        if any(name in STOPS for name in values) and not lower < upper:
            raise JointPropertyError(
                f"{parameter_name(joint, 'lower')} = {lower:g} is not below "
                f"{parameter_name(joint, 'upper')} = {upper:g}: the stops must bound an "
                "interval. Fix: give lower < upper; to move both past each other, give lower "
                "and upper together (in the parameters file, or with set_parameters_atomically "
                "at run time)."
            )
        out[joint] = merged
    return out


def limit_values(lim: JointLimits) -> dict[str, float]:
    """The :data:`LIMIT_PROPERTIES` of ``lim`` (infinite where not limited)."""
    return {
        "lower": lim.min_position if lim.has_position_limits else -INF,
        "upper": lim.max_position if lim.has_position_limits else INF,
        "effort": lim.max_effort if lim.has_effort_limits else INF,
        "velocity": lim.max_velocity if lim.has_velocity_limits else INF,
    }


def limits_with(joint: str, lim: JointLimits, values: Mapping[str, float]) -> JointLimits:
    """``lim`` with the limit properties of ``values`` (checked already: :func:`check_changes`)
    replacing its position range, effort and velocity limits, by the rule of a
    ``joint_limits`` override (:func:`~sdf_bridge.limits.spec.apply_override`; soft limits,
    acceleration limits kept). With values :func:`check_changes` accepted, none of that
    function's refusals can arise.
    """
    override: dict[str, object] = {}
    if "lower" in values or "upper" in values:
        lower, upper = values.get("lower", -INF), values.get("upper", INF)
        override["has_position_limits"] = math.isfinite(lower) or math.isfinite(upper)
        override["min_position"], override["max_position"] = lower, upper
    for name, field in (("effort", "max_effort"), ("velocity", "max_velocity")):
        if name in values:
            value = values[name]
            override[f"has_{name}_limits"] = math.isfinite(value)
            override[field] = value
    return apply_override(joint, lim, override)
