"""The joint-limits YAML override, in ros2_control's ``joint_limits.<joint>.<field>`` form.

Accepted layouts::

    joint_limits:                      # bare
      elbow: {has_velocity_limits: true, max_velocity: 1.0}

    /**:                               # ROS parameter file (any node name or /**)
      ros__parameters:
        joint_limits:
          elbow: {max_velocity: 1.0}

Field names and types: :data:`.spec.OVERRIDE_FIELDS` (booleans must be YAML booleans, numbers
must be numbers). Unknown fields and wrong types are a :class:`LimitsError` naming the file,
the joint and the field.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from sdf_bridge.errors import LimitsError

from .spec import OVERRIDE_FIELDS


def _find_section(data: Any, where: str) -> Mapping | None:
    if not isinstance(data, Mapping):
        raise LimitsError(
            f"{where}: the top level is not a mapping. Fix: start with joint_limits:."
        )
    if "joint_limits" in data:
        return data["joint_limits"]
    for value in data.values():
        if isinstance(value, Mapping) and isinstance(value.get("ros__parameters"), Mapping):
            params = value["ros__parameters"]
            if "joint_limits" in params:
                return params["joint_limits"]
    return None


def validate_overrides(data: Any, where: str = "<overrides>") -> dict[str, dict[str, Any]]:
    """Check a parsed override document and return ``{joint: {field: value}}``.

    Raises:
        LimitsError: no ``joint_limits`` section, a joint entry that is not a mapping, an
            unknown field, a boolean/number of the wrong type, a non-finite number.
    """
    section = _find_section(data, where)
    if section is None:
        raise LimitsError(
            f"{where}: no joint_limits section found. Fix: put the limits under 'joint_limits:' "
            "(optionally inside '/**: ros__parameters:')."
        )
    if not isinstance(section, Mapping):
        raise LimitsError(
            f"{where}: joint_limits is not a mapping. Fix: map joint names to fields."
        )
    out: dict[str, dict[str, Any]] = {}
    for joint, fields in section.items():
        if not isinstance(fields, Mapping):
            raise LimitsError(
                f"{where}: joint_limits.{joint} is not a mapping. Fix: give its fields, e.g. "
                "max_velocity: 1.0."
            )
        clean: dict[str, Any] = {}
        for key, value in fields.items():
            kind = OVERRIDE_FIELDS.get(key)
            if kind is None:
                raise LimitsError(
                    f"{where}: joint_limits.{joint}.{key} is not a joint-limits field. Fix: use "
                    f"one of {', '.join(sorted(OVERRIDE_FIELDS))}."
                )
            if kind is bool:
                if not isinstance(value, bool):
                    raise LimitsError(
                        f"{where}: joint_limits.{joint}.{key} = {value!r} is not a boolean. "
                        "Fix: write true or false."
                    )
            else:
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise LimitsError(
                        f"{where}: joint_limits.{joint}.{key} = {value!r} is not a number. "
                        "Fix: write a decimal number."
                    )
                value = float(value)
                if not math.isfinite(value):
                    raise LimitsError(
                        f"{where}: joint_limits.{joint}.{key} = {value!r} is not finite. "
                        "Fix: use has_*_limits: false to remove a limit."
                    )
            clean[key] = value
        out[str(joint)] = clean
    return out


def load_overrides(path: str | Path) -> dict[str, dict[str, Any]]:
    """Read and validate an override YAML file → ``{joint: {field: value}}``.

    Raises:
        LimitsError: the file cannot be read or parsed, or :func:`validate_overrides` fails.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise LimitsError(
            f"{p}: cannot read the joint-limits file ({exc}). Fix: check the path."
        ) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise LimitsError(f"{p}: not valid YAML ({exc}). Fix: correct the syntax.") from None
    return validate_overrides(data, str(p))
