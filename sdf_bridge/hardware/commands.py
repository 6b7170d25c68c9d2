"""The command buffer: per joint the latest position / velocity / effort command and its mode.

Commands arrive by name (``sensor_msgs/JointState``: the contract of ros2_control's
topic-based hardware interfaces, :mod:`.command_input`), as arrays in the ``joints`` order
(``std_msgs/Float64MultiArray``, forward_command_controller contract) or from a trajectory. Bad
input never raises and never moves the robot: each bad part is rejected with a warning (logged,
throttled per reason) and counted per reason in ``CommandBuffer.rejections``; the last good
command holds.

Validation rules:

* JointState: every array must be empty (= "not provided"), have ``len(name)`` entries, or one
  entry per name that has that command interface in the description, in name order (what the
  topic-based plugins send, :mod:`.command_input`). A field of any other length is dropped
  whole (``malformed_field``), never indexed past its end. Values are matched by name. Names
  that carry a value and are no joint are ignored (``unknown_joint``, the warning names them);
  follower (mimic, gearbox, screw) joints are refused (``follower_joint``); a joint that is in
  the robot but not commandable (not in the ``<ros2_control>`` block or the ``joints``
  parameter) is refused (``not_commandable``); a name given twice is refused
  (``duplicate_joint``). A name without any value (no entry, or NaN) commands nothing and is
  not refused.
* NaN = no command for that joint and interface, silently (ros2_control's unclaimed command
  interfaces are NaN); ±inf is refused (``not_finite``), and so is a finite value beyond
  ±:data:`~sdf_bridge.description.magnitudes.MAX_MAGNITUDE` (``too_large``: 1e6 rad, m, rad/s,
  m/s, N·m or N, beyond any robot; a typo such as ``1e30`` would otherwise drive the
  simulation unstable).
* An interface the joint's ``<ros2_control>`` entry does not list as a command interface is
  refused (``interface_not_available``).
* Float64MultiArray of the wrong length is rejected whole (``wrong_length``); NaN entries are
  no command for their joint.
* While the buffer follows a controller_manager's claims (:meth:`CommandBuffer.set_claims`),
  a value for an interface no active controller claims is dropped: in a JointState command
  counted in :attr:`CommandBuffer.dropped` (``not_claimed``, no warning: the topic-based
  plugins send the last values of unclaimed interfaces every cycle), in an array command
  refused (``not_claimed``).

Command modes (which interfaces are active per joint; inactive values are kept but not sent):

* A joint's mode (a :class:`~sdf_bridge.backends.base.Mode`) is a set of interfaces: ``position``,
  ``velocity``, ``effort`` or ``position_velocity`` (position with a velocity feed-forward, as
  joint_trajectory_controller claims them). Effort is exclusive: it never combines with position or
  velocity.
* Fixed by configuration (``command_modes``): values for interfaces outside the mode are refused
  (``wrong_mode``), the others applied.
* Otherwise automatic: the set of interfaces a message validly commands for a joint becomes its
  mode (the first command sets it; a later command with another interface switches — the
  previous interface is not in that message, so it stops being active). A message commanding
  effort together with position or velocity for the same joint (e.g. a JointState with every
  field filled) keeps the joint's kind of mode: a joint in effort mode takes the effort, any
  other joint takes the position/velocity; the other part is refused (``mode_conflict``).
  Switching to effort therefore needs a message without position/velocity for that joint.

All arrays are indexed by the :class:`~sdf_bridge.transmissions.TransmissionMap` joint order
(``joint_names``), shape (n_joints,), SI units (rad, m, rad/s, m/s, N·m, N); ``NaN`` = no command.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..backends.base import INTERFACE_MODES, MODE_DTYPE, Mode
from ..description.magnitudes import MAX_MAGNITUDE
from ..errors import CommandError, ConfigError
from .command_input import JointStateLayout, NameResolver

_LOG = logging.getLogger(__name__)

# Mode bits as plain ints on the hot path (an IntFlag operand makes every ``&`` an enum call)
POSITION, VELOCITY, EFFORT = int(Mode.POSITION), int(Mode.VELOCITY), int(Mode.EFFORT)
_BITS = {name: int(mode) for name, mode in INTERFACE_MODES.items()}
COMMAND_MODES: tuple[Mode, ...] = (
    Mode.POSITION,
    Mode.VELOCITY,
    Mode.POSITION_VELOCITY,
    Mode.EFFORT,
)
"""The modes a joint can be configured for (``command_modes``)."""

REJECTION_REASONS = (
    "malformed_field",
    "unknown_joint",
    "follower_joint",
    "not_commandable",
    "duplicate_joint",
    "not_finite",
    "too_large",
    "interface_not_available",
    "wrong_mode",
    "mode_conflict",
    "wrong_length",
    "bad_trajectory",
    "trajectory_in_past",
    "disabled",
    "not_claimed",
)
"""Every reason a command (part) can be rejected for; keys of ``CommandBuffer.rejections``."""

DROP_REASONS = ("not_claimed",)
"""Every reason a value is dropped without a warning (a topic-based plugin's value of an
interface no active controller claims); keys of :attr:`CommandBuffer.dropped`."""


def _interfaces(bits: int) -> str:
    """``"position, velocity"`` for the interface bits ``bits`` (``"none"`` for 0)."""
    return ", ".join(name for name, bit in _BITS.items() if bits & bit) or "none"


@dataclass(frozen=True)
class ClaimsUpdate:
    """What one claims message did (:meth:`CommandBuffer.set_claims`).

    Attributes:
        followed: the claims taken, ``<joint>/<interface>`` names the buffer now follows (empty
            for "none claimed", "stop following" and a refused message).
        ignored: the names that are no claim the robot can use: not a commandable joint, or an
            interface the joint is not commanded through in this run (``allowed``).
        refused: the message named something but nothing usable: refused whole, nothing
            changed. An empty list (a relay's "none claimed") and ``None`` ("stop following")
            are never refused.
        released: the joints that had a command and are claimed through none of their
            interfaces now (they hold where they are, their commands are dropped).
    """

    followed: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()
    refused: bool = False
    released: tuple[str, ...] = ()


class CommandBuffer:
    """Latest joint commands with their modes, validated (see module doc).

    Args:
        joint_names: all joints of the transmission map, array order (n_joints,).
        follower_names: follower joints (state only; commands refused).
        commandable: commandable joints, in the order of Float64MultiArray inputs.
        allowed: per commandable joint, its command interfaces (subset of position, velocity,
            effort).
        command_modes: optional fixed mode per joint (``position``, ``velocity``, ``effort`` or
            ``position_velocity``); other joints switch automatically.
        command_interfaces: every joint's command interfaces as the description lists them
            (commandable or not, followers included), which lay out the short arrays of a
            JointState command (:class:`~.command_input.JointStateLayout`); default ``allowed``.
        throttle_period: minimum time (s, in the ``now`` clock) between two logged warnings of
            the same reason. Returned warning lists are never throttled.

    Raises:
        ConfigError: ``commandable`` names a joint outside ``joint_names``, or ``command_modes``
            names an unknown/uncommandable joint, an unknown mode, or a mode using an interface
            the joint does not have.
    """

    def __init__(
        self,
        joint_names: Sequence[str],
        follower_names: Sequence[str],
        commandable: Sequence[str],
        allowed: Mapping[str, Iterable[str]],
        command_modes: Mapping[str, str] | None = None,
        *,
        command_interfaces: Mapping[str, Iterable[str]] | None = None,
        throttle_period: float = 1.0,
    ) -> None:
        self.joint_names = tuple(joint_names)
        self.follower_names = frozenset(follower_names)
        self._map_index = {name: k for k, name in enumerate(self.joint_names)}
        unknown = [name for name in commandable if name not in self._map_index]
        if unknown:
            raise ConfigError(
                f"commandable joints {unknown} are not actuated joints {list(self.joint_names)}"
            )
        self.commandable = tuple(commandable)
        self.commandable_index = np.array(
            [self._map_index[n] for n in self.commandable], dtype=np.intp
        )
        self._index = {name: self._map_index[name] for name in self.commandable}
        n = len(self.joint_names)
        self.allowed = np.zeros(n, dtype=MODE_DTYPE)
        for name in self.commandable:
            bits = 0
            for interface in allowed.get(name, ()):
                bits |= _BITS.get(interface, 0)
            self.allowed[self._map_index[name]] = bits
        self.fixed = np.zeros(n, dtype=bool)
        self._fixed_mode = np.zeros(n, dtype=MODE_DTYPE)
        for name, mode in (command_modes or {}).items():
            if name not in self._index:
                raise ConfigError(
                    f"command_modes names {name!r}, which is not a commandable joint. "
                    f"Fix: use one of {list(self.commandable)}."
                )
            bits = next((int(m) for m in COMMAND_MODES if m.label == mode), None)
            if bits is None:
                raise ConfigError(
                    f"command_modes: joint {name!r} has mode {mode!r}. "
                    f"Fix: use one of {sorted(m.label for m in COMMAND_MODES)}."
                )
            k = self._map_index[name]
            if bits & ~int(self.allowed[k]):
                raise ConfigError(
                    f"command_modes: joint {name!r} mode {mode!r} uses an interface the joint "
                    f"does not command ({_interfaces(int(self.allowed[k]))}). "
                    "Fix: add the command interface in <ros2_control> or change the mode."
                )
            self.fixed[k] = True
            self._fixed_mode[k] = bits
        self.throttle_period = throttle_period
        self.rejections: Counter[str] = Counter()
        #: reason → values dropped without a warning (:data:`DROP_REASONS`)
        self.dropped: Counter[str] = Counter()
        self._last_logged: dict[str, float] = {}
        self.last_command_time: float | None = None
        #: when the last JointState or array command message arrived, whatever it held (later
        #: than :attr:`last_command_time`: messages came but set no value, e.g. all NaN)
        self.last_message_time: float | None = None
        self.last_accepted = np.zeros(0, dtype=np.intp)
        self._layout = JointStateLayout(
            allowed if command_interfaces is None else command_interfaces
        )
        self._names = NameResolver(
            self._index, self.joint_names, self.follower_names, self.commandable
        )
        self._static_cache: dict[int, tuple[np.ndarray, int, np.ndarray]] = {}
        #: per joint the interface bits its active controllers claim (:meth:`set_claims`), or
        #: ``None``: no controller_manager reports claims, every allowed interface is open
        self.claimed: np.ndarray | None = None
        self.version = 0
        self.mode_version = 0
        self.clear()

    # ------------------------------------------------------------------ state
    def clear(self) -> None:
        """Forget every command (all NaN), modes back to configured/none; counters kept."""
        n = len(self.joint_names)
        self.position = np.full(n, np.nan)
        self.velocity = np.full(n, np.nan)
        self.effort = np.full(n, np.nan)
        self.mode = self._fixed_mode.copy()
        self.last_command_time = None
        self.last_message_time = None
        self._touch(mode_changed=True)

    def _touch(self, mode_changed: bool = False) -> None:
        self.version += 1
        if mode_changed:
            self.mode_version += 1
        self._effective: np.ndarray | None = None

    def effective(self) -> np.ndarray:
        """Commands on the active interfaces only, shape (3, n_joints): rows position,
        velocity, effort (``p, v, e = effective()`` unpacks them), NaN where the interface is
        not active or nothing was commanded. Cached until the next change (a new array then);
        do not modify it."""
        if self._effective is None:
            mode = self.mode
            self._effective = np.stack(
                (
                    np.where(mode & POSITION, self.position, np.nan),
                    np.where(mode & VELOCITY, self.velocity, np.nan),
                    np.where(mode & EFFORT, self.effort, np.nan),
                )
            )
        return self._effective

    def index_of(self, joint: str) -> int | None:
        """Array index of a commandable joint, or ``None`` when it is not commandable."""
        return self._index.get(joint)

    def mode_name(self, joint: str) -> str:
        """The joint's current mode name (``""`` = none yet).

        Raises:
            KeyError: not an actuated joint.
        """
        return Mode(int(self.mode[self._map_index[joint]])).label

    def set_claims(self, claims: Iterable[str] | None) -> ClaimsUpdate:
        """Follow the command interfaces the active controllers claim, as full names
        ``<joint>/<interface>`` (``None``: stop following; every allowed interface open again).

        A claim counts only when it names an interface the joint is commanded through in this
        run (``allowed``: a commandable joint, one of its command interfaces); any other name
        is ignored (``waist/effort`` for a joint commanded in position only is as useless as
        junk). A message naming something but no usable claim is refused whole: the buffer
        keeps following what it followed (junk from a peer that is no controller_manager's
        relay must not stop every command); an empty list is a relay's "none claimed".

        A joint's stored commands of interfaces no longer claimed are forgotten and leave its
        (automatic) mode: after a switch from a position to a velocity controller the position
        target no longer holds the joint, and a joint no controller claims holds where it is
        (:mod:`.holds`). Afterwards, values for unclaimed interfaces are dropped: in a
        JointState command counted in :attr:`dropped` (``not_claimed``) without a warning (the
        topic-based plugins send the last values of unclaimed interfaces), in an array command
        as a rejection (``not_claimed``).

        Returns:
            What the message did (:class:`ClaimsUpdate`).
        """
        if claims is None:
            self.claimed = None
            self._touch(mode_changed=True)
            return ClaimsUpdate()
        bits = np.zeros(len(self.joint_names), dtype=MODE_DTYPE)
        ignored: list[str] = []
        followed: list[str] = []
        claims = list(claims)
        for full in claims:
            joint, _, interface = full.rpartition("/")
            k = self._index.get(joint)
            bit = _BITS.get(interface, 0)
            if k is None or not bit & int(self.allowed[k]):
                ignored.append(full)
                continue
            bits[k] |= bit
            followed.append(full)
        if claims and not followed:
            return ClaimsUpdate(ignored=tuple(ignored), refused=True)
        was_commanded = ~np.isnan(self.effective()).all(axis=0)
        released = ~bits
        self.position[(released & POSITION) != 0] = np.nan
        self.velocity[(released & VELOCITY) != 0] = np.nan
        self.effort[(released & EFFORT) != 0] = np.nan
        self.mode = np.where(self.fixed, self.mode, self.mode & bits).astype(MODE_DTYPE)
        self.claimed = bits
        self._touch(mode_changed=True)
        lost = np.flatnonzero(was_commanded & (bits == 0))
        return ClaimsUpdate(
            followed=tuple(dict.fromkeys(followed)),  # (each once, in message order)
            ignored=tuple(ignored),
            released=tuple(self.joint_names[k] for k in lost),
        )

    def _unclaimed_dropped(
        self,
        index: np.ndarray,
        rows: np.ndarray,
        names: Sequence[str],
        fields: Mapping[str, np.ndarray],
        now: float,
        warnings: list[str] | None,
    ) -> dict[str, np.ndarray]:
        """``fields`` with the values of interfaces not claimed for their joint set to NaN;
        each interface with finite such values rejected (``not_claimed``), or, when
        ``warnings`` is ``None``, counted in :attr:`dropped` without a warning."""
        claimed = self.claimed
        out: dict[str, np.ndarray] = {}
        for interface, array in fields.items():
            open_ = (claimed[index] & _BITS[interface]) != 0
            if open_.all():
                out[interface] = array
                continue
            copy = np.array(array, dtype=float)
            closed_rows = rows[~open_]
            dropped = closed_rows[np.isfinite(copy[closed_rows])]
            if dropped.size and warnings is None:
                self.dropped["not_claimed"] += int(dropped.size)
            elif dropped.size:
                warnings.append(
                    self.reject(
                        "not_claimed",
                        f"{interface} command for {[names[r] for r in dropped]}: no active "
                        f"controller claims their {interface} interface; ignored",
                        now,
                        int(dropped.size),
                    )
                )
            copy[closed_rows] = np.nan
            out[interface] = copy
        return out

    # ------------------------------------------------------------------ rejections
    def reject(self, reason: str, message: str, now: float, count: int = 1) -> str:
        """Count ``count`` rejections of ``reason`` and log ``message`` (throttled per reason).

        Returns:
            ``message``, for the caller's warning list.
        """
        self.rejections[reason] += count
        last = self._last_logged.get(reason)
        if last is None or now - last >= self.throttle_period or now < last:
            self._last_logged[reason] = now
            _LOG.warning(
                "%s (rejected so far for %s: %d)", message, reason, self.rejections[reason]
            )
        return message

    # ------------------------------------------------------------------ inputs
    def submit_joint_state(
        self,
        names: Sequence[str],
        position: Sequence[float] | np.ndarray | None,
        velocity: Sequence[float] | np.ndarray | None,
        effort: Sequence[float] | np.ndarray | None,
        now: float,
    ) -> list[str]:
        """Apply a ``sensor_msgs/JointState`` command (rules in the module doc).

        Returns:
            The warnings for the parts rejected (empty when everything was applied).
        """
        warnings: list[str] = []
        self.last_message_time = now
        key = tuple(names)
        n = len(key)
        fields: dict[str, np.ndarray] = {}
        for interface, values in (
            ("position", position),
            ("velocity", velocity),
            ("effort", effort),
        ):
            if values is None or len(values) == 0:
                continue
            try:
                array = np.asarray(values, dtype=float).reshape(len(values))
            except (TypeError, ValueError):
                warnings.append(
                    self.reject(
                        "malformed_field",
                        f"JointState command: {interface} is not numeric; ignored",
                        now,
                    )
                )
                continue
            full = self._layout.expand(key, interface, array)
            if isinstance(full, str):
                warnings.append(self.reject("malformed_field", f"JointState command: {full}", now))
                continue
            fields[interface] = full
        if not fields or n == 0:
            return warnings
        rows, index, problems = self._names.resolve(key)
        if problems:
            valued = np.zeros(n, dtype=bool)
            for array in fields.values():
                valued |= ~np.isnan(array)
            for reason, message, count in NameResolver.problems_with_values(problems, key, valued):
                warnings.append(self.reject(reason, f"JointState command: {message}", now, count))
        if rows.size:
            if self.claimed is not None:
                fields = self._unclaimed_dropped(index, rows, key, fields, now, None)
            self._apply(rows, index, key, fields, now, warnings)
        return warnings

    def submit_array(
        self, interface: str, values: Sequence[float] | np.ndarray, now: float
    ) -> list[str]:
        """Apply a ``std_msgs/Float64MultiArray`` command for ``interface`` in the order of
        ``commandable`` (forward_command_controller contract).

        Returns:
            The warnings for the parts rejected.

        Raises:
            CommandError: ``interface`` is not position, velocity or effort (a caller bug).
        """
        if interface not in _BITS:
            raise CommandError(
                f"unknown command interface {interface!r}. Fix: use position, velocity or effort."
            )
        warnings: list[str] = []
        self.last_message_time = now
        n = len(self.commandable)
        if len(values) != n:
            warnings.append(
                self.reject(
                    "wrong_length",
                    f"{interface} array command has {len(values)} values for {n} joints "
                    f"{list(self.commandable)}; rejected whole",
                    now,
                )
            )
            return warnings
        try:
            array = np.asarray(values, dtype=float).reshape(n)
        except (TypeError, ValueError):
            warnings.append(
                self.reject(
                    "wrong_length", f"{interface} array command is not numeric; rejected", now
                )
            )
            return warnings
        rows = np.arange(n, dtype=np.intp)
        fields = {interface: array}
        if self.claimed is not None:
            fields = self._unclaimed_dropped(
                self.commandable_index, rows, self.commandable, fields, now, warnings
            )
        self._apply(rows, self.commandable_index, self.commandable, fields, now, warnings)
        return warnings

    def apply_source(
        self, index: np.ndarray, position: np.ndarray, velocity: np.ndarray | None, now: float
    ) -> None:
        """Set already validated position (and velocity feed-forward) commands for the joints
        ``index`` (map indices), e.g. from a trajectory; mode becomes position or
        position_velocity (velocity only where the joint commands velocity)."""
        self.position[index] = position
        bits = np.full(index.shape, POSITION, dtype=MODE_DTYPE)
        if velocity is not None:
            with_velocity = (self.allowed[index] & VELOCITY) != 0
            with_velocity &= ~self.fixed[index] | ((self._fixed_mode[index] & VELOCITY) != 0)
            self.velocity[index[with_velocity]] = velocity[with_velocity]
            bits[with_velocity] |= VELOCITY
        auto = ~self.fixed[index]
        new_mode = np.where(auto, bits, self.mode[index])
        mode_changed = bool(np.any(new_mode != self.mode[index]))
        self.mode[index] = new_mode
        self.last_command_time = now
        self._touch(mode_changed)

    def stop(self, measured_position: np.ndarray) -> None:
        """Watchdog action: position modes hold ``measured_position`` (n_joints,), velocity
        commands become 0, effort commands become 0 (joints with an active mode only)."""
        mode = self.mode
        has_p = (mode & POSITION) != 0
        hold = has_p & np.isfinite(measured_position)
        self.position[hold] = measured_position[hold]
        self.velocity[(mode & VELOCITY) != 0] = 0.0
        self.effort[(mode & EFFORT) != 0] = 0.0
        self._touch()

    # ------------------------------------------------------------------ internals
    def _static(self, index: np.ndarray) -> tuple[np.ndarray, int, np.ndarray]:
        """Per index array (a resolved name list, or :attr:`commandable_index`): the
        interface bits valid for *every* joint in it (allowed and, for fixed joints, in the
        fixed mode) and the joints whose mode is automatic. Cached by the array's identity
        (the arrays come from the resolve cache and are reused)."""
        cached = self._static_cache.get(id(index))
        if cached is not None and cached[0] is index:
            return cached
        per_joint = self.allowed[index] & np.where(self.fixed[index], self._fixed_mode[index], 7)
        ok_bits = int(np.bitwise_and.reduce(per_joint, initial=7))
        entry = (index, ok_bits, index[~self.fixed[index]])
        if len(self._static_cache) >= 64:
            self._static_cache.clear()
        self._static_cache[id(index)] = entry
        return entry

    def _apply_valid(
        self, rows: np.ndarray, index: np.ndarray, fields: Mapping[str, np.ndarray], now: float
    ) -> bool:
        """Store the command when each interface's values are all usable (finite, within
        ±:data:`MAX_MAGNITUDE`; or all NaN: not commanded) and every commanded interface is
        valid for every joint, without effort mixed with position/velocity: the same result as
        the detailed path of :meth:`_apply` for such input, in fewer numpy calls. Returns
        False (and changes nothing) for any other input."""
        _, ok_bits, auto = self._static(index)
        requested = 0
        values = []
        for interface, array in fields.items():
            v = array[rows]
            finite = np.abs(v) <= MAX_MAGNITUDE  # (NaN and ±inf: False)
            if finite.all():
                bit = _BITS[interface]
                if not ok_bits & bit:
                    return False
                requested |= bit
                values.append((bit, v))
            elif finite.any() or not np.isnan(v).all():
                return False
            # (every value NaN: the interface is not commanded)
        if requested & EFFORT and requested & (POSITION | VELOCITY):
            return False
        if not requested:  # nothing commanded (all NaN)
            self.last_accepted = np.zeros(0, dtype=np.intp)
            return True
        for bit, v in values:
            target = (
                self.position
                if bit == POSITION
                else self.velocity
                if bit == VELOCITY
                else self.effort
            )
            target[index] = v
        mode_changed = False
        if auto.size:
            mode = self.mode
            if not (mode[auto] == requested).all():
                mode[auto] = requested
                mode_changed = True
        self.last_accepted = index
        self.last_command_time = now
        self._touch(mode_changed)
        return True

    def _apply(
        self,
        rows: np.ndarray,
        index: np.ndarray,
        names: Sequence[str],
        fields: Mapping[str, np.ndarray],
        now: float,
        warnings: list[str],
    ) -> None:
        """Validate values per interface and store the accepted ones: :meth:`_apply_valid`
        when everything is valid (the common case), else the detailed path below."""
        if self._apply_valid(rows, index, fields, now):
            return

        def named(mask: np.ndarray) -> list[str]:
            return [names[r] for r in rows[mask]]

        allowed = self.allowed[index]
        fixed = self.fixed[index]
        any_fixed = bool(fixed.any())
        fixed_mode = self._fixed_mode[index]
        requested = np.zeros(index.shape, dtype=MODE_DTYPE)
        values: list[tuple[int, np.ndarray, np.ndarray | None]] = []
        for interface, array in fields.items():
            bit = _BITS[interface]
            v = array[rows]
            ok = np.abs(v) <= MAX_MAGNITUDE  # (NaN and ±inf: False)
            ok &= (allowed & bit) != 0
            if any_fixed:
                ok &= ~fixed | ((fixed_mode & bit) != 0)
            if ok.all():
                requested |= bit
                values.append((bit, v, None))
                continue
            finite = np.isfinite(v)
            infinite = np.isinf(v)  # (NaN: not commanded, silently)
            if infinite.any():
                warnings.append(
                    self.reject(
                        "not_finite",
                        f"{interface} command infinite for {named(infinite)}: no new command for "
                        "them",
                        now,
                        int(infinite.sum()),
                    )
                )
            huge = finite & (np.abs(v) > MAX_MAGNITUDE)
            if huge.any():
                warnings.append(
                    self.reject(
                        "too_large",
                        f"{interface} command beyond ±{MAX_MAGNITUDE:g} for {named(huge)} (no "
                        "robot moves that far, that fast or that hard: a typo?): no new command "
                        "for them",
                        now,
                        int(huge.sum()),
                    )
                )
            finite &= ~huge
            bad = finite & ((allowed & bit) == 0)
            if bad.any():
                warnings.append(
                    self.reject(
                        "interface_not_available",
                        f"joints {named(bad)} have no {interface} command interface; ignored",
                        now,
                        int(bad.sum()),
                    )
                )
            wrong = finite & ~bad & fixed & ((fixed_mode & bit) == 0)
            if wrong.any():
                warnings.append(
                    self.reject(
                        "wrong_mode",
                        f"joints {named(wrong)} are configured for another command mode; "
                        f"{interface} command ignored",
                        now,
                        int(wrong.sum()),
                    )
                )
            np.bitwise_or(requested, bit, out=requested, where=ok)
            values.append((bit, v, ok))
        if len(values) > 1:
            conflict = (
                ~fixed & ((requested & EFFORT) != 0) & ((requested & (POSITION | VELOCITY)) != 0)
            )
            if conflict.any():
                in_effort = conflict & (self.mode[index] == EFFORT)
                in_other = conflict & ~in_effort
                if in_other.any():
                    warnings.append(
                        self.reject(
                            "mode_conflict",
                            f"joints {named(in_other)} got effort together with position/velocity "
                            "(effort is exclusive): effort ignored, position/velocity applied",
                            now,
                            int(in_other.sum()),
                        )
                    )
                if in_effort.any():
                    warnings.append(
                        self.reject(
                            "mode_conflict",
                            f"joints {named(in_effort)} are in effort mode and got "
                            "position/velocity with effort (effort is exclusive): "
                            "position/velocity ignored, effort applied",
                            now,
                            int(in_effort.sum()),
                        )
                    )
                requested = np.where(
                    in_effort, EFFORT, np.where(in_other, requested & ~EFFORT, requested)
                )
                requested = requested.astype(MODE_DTYPE)
        accepted = requested != 0
        all_accepted = bool(accepted.all())
        if not all_accepted and not accepted.any():
            self.last_accepted = np.zeros(0, dtype=np.intp)
            return
        for bit, v, ok in values:
            target = (
                self.position
                if bit == POSITION
                else self.velocity
                if bit == VELOCITY
                else self.effort
            )
            take = (requested & bit) != 0
            if take.all():
                target[index] = v
            else:
                target[index[take]] = v[take]
        old = self.mode[index]
        new = np.where(accepted & ~fixed, requested, old)
        mode_changed = not np.array_equal(old, new)
        if mode_changed:
            self.mode[index] = new
        self.last_accepted = index if all_accepted else index[accepted]
        self.last_command_time = now
        self._touch(mode_changed)
