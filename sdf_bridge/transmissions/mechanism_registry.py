"""Mechanism types by name, extendable through the ``sdf_bridge.transmissions`` entry points.

Built-in names (the namespace before ``/`` or ``::`` is optional when looking up)::

    transmission_interface/SimpleTransmission            SimpleTransmission
    transmission_interface/DifferentialTransmission      DifferentialTransmission
    transmission_interface/FourBarLinkageTransmission    FourBarLinkageTransmission
    pr2_mechanism_model/SimpleTransmission               SimpleTransmission
    pr2_mechanism_model/WristTransmission                WristTransmission (a differential)

A plug-in package adds a type by declaring an entry point in the ``sdf_bridge.transmissions``
group whose name is the full type string and whose object is a :class:`~.base.Transmission`
subclass, e.g. in ``pyproject.toml``::

    [project.entry-points."sdf_bridge.transmissions"]
    "my_pkg/CableTransmission" = "my_pkg.cable:CableTransmission"

Types that are not mechanisms (:data:`NON_MECHANISM_TYPES`: Franka's state/model interfaces,
which only declare hardware interfaces, and the non-linear PR2 gripper transmission that this
package does not model) are skipped with a warning by :class:`~.map.TransmissionMap`; their
joints keep an identity actuator. Any other unknown type (PAL TALOS's
``transmission_interface/HalfDifferentialTransmission``, whose math PAL never published) is
skipped the same way, with a warning saying what is used, when the backend simulates the robot
(the mock, MuJoCo: as Gazebo classic's gazebo_ros_control, which reads only a transmission's
joints and hardware interfaces, whatever its type); for a driver of real actuators it is a
:class:`TransmissionError` when one of its joints must be driven (the rules are in the
:mod:`.map` module docstring). Registering a mechanism under the type's name gives it its math.
"""

from __future__ import annotations

import logging
from importlib import metadata

from sdf_bridge.errors import TransmissionError
from sdf_bridge.util.similarity import one_edit

from .base import Transmission
from .differential import DifferentialTransmission, WristTransmission
from .fourbar import FourBarLinkageTransmission
from .simple import SimpleTransmission

_LOG = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "sdf_bridge.transmissions"

BUILTIN_TYPES: dict[str, type[Transmission]] = {
    "transmission_interface/SimpleTransmission": SimpleTransmission,
    "transmission_interface/DifferentialTransmission": DifferentialTransmission,
    "transmission_interface/FourBarLinkageTransmission": FourBarLinkageTransmission,
    "pr2_mechanism_model/SimpleTransmission": SimpleTransmission,
    "pr2_mechanism_model/WristTransmission": WristTransmission,
}

#: Transmission types that declare interfaces but no mechanism → why the map skips them.
NON_MECHANISM_TYPES: dict[str, str] = {
    "franka_hw/FrankaStateInterface": "declares Franka's robot-state interface, no mechanism",
    "franka_hw/FrankaModelInterface": "declares Franka's dynamic-model interface, no mechanism",
    "pr2_mechanism_model/PR2GripperTransmission": (
        "non-linear PR2 gripper linkage, not modelled; the gap joint is driven directly"
    ),
    "pr2_mechanism_model/PR2BeltCompensatorTransmission": (
        "PR2 belt compensator (a filtered simple transmission), not modelled"
    ),
}


def _short(type_name: str) -> str:
    return type_name.rsplit("/", 1)[-1].rsplit("::", 1)[-1]


def _plugins() -> dict[str, type[Transmission]]:
    found: dict[str, type[Transmission]] = {}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            cls = ep.load()
        except Exception as exc:  # a broken plug-in must not hide the built-ins
            _LOG.warning("transmission plug-in %r (%s) failed to load: %s", ep.name, ep.value, exc)
            continue
        if not (isinstance(cls, type) and issubclass(cls, Transmission)):
            _LOG.warning(
                "transmission plug-in %r (%s) is not a sdf_bridge.transmissions.Transmission "
                "subclass; ignored",
                ep.name,
                ep.value,
            )
            continue
        found[ep.name] = cls
    return found


def available_types() -> dict[str, type[Transmission]]:
    """Every known type name → mechanism class (built-ins, then entry-point plug-ins, which
    may override a built-in of the same name)."""
    types = dict(BUILTIN_TYPES)
    types.update(_plugins())
    return types


def lookup(
    type_name: str,
    transmission_name: str = "?",
    types: dict[str, type[Transmission]] | None = None,
) -> type[Transmission]:
    """The mechanism class of ``type_name`` (full name, or the part after ``/`` or ``::``).

    ``types`` is a result of :func:`available_types` to reuse (entry points are scanned when it
    is ``None``).

    Raises:
        TransmissionError: the type is unknown (the message names the transmission and lists
            the known types and how to add one).
    """
    if types is None:
        types = available_types()
    if type_name in types:
        return types[type_name]
    short = _short(type_name)
    matches = {cls for name, cls in types.items() if _short(name) == short}
    if len(matches) == 1:
        return matches.pop()
    known = ", ".join(sorted(types))
    raise TransmissionError(
        f"transmission {transmission_name!r} has unknown type {type_name!r}"
        f"{did_you_mean(type_name, types)}. Fix: use one of "
        f"{known}, or install a plug-in that registers it in the {ENTRY_POINT_GROUP!r} "
        "entry-point group."
    )


def did_you_mean(type_name: str, types: dict[str, type[Transmission]]) -> str:
    """`` (did you mean 'NAME'?)`` when ``type_name`` is most likely a misspelling of a known
    type name: its part after ``/`` or ``::`` equal to a known one's but for letter case or one
    edit (:func:`sdf_bridge.util.similarity.one_edit`: ``SimpleTransmision``), else ``""``.
    A name further away is another type (``HalfDifferentialTransmission`` is not a
    ``DifferentialTransmission``)."""
    short = _short(type_name).lower()
    namespace = type_name[: len(type_name) - len(_short(type_name))]
    # a name of the same namespace first (transmission_interface/ over pr2_mechanism_model/)
    for name in sorted(types, key=lambda n: (not n.startswith(namespace) or not namespace, n)):
        known = _short(name).lower()
        if known == short or one_edit(short, known):
            return f" (did you mean {name!r}?)"
    return ""


def non_mechanism_reason(type_name: str) -> str | None:
    """Why ``type_name`` is skipped (not a mechanism we model), or ``None`` if it is not one
    of :data:`NON_MECHANISM_TYPES`."""
    if type_name in NON_MECHANISM_TYPES:
        return NON_MECHANISM_TYPES[type_name]
    short = _short(type_name)
    for name, reason in NON_MECHANISM_TYPES.items():
        if _short(name) == short:
            return reason
    return None
