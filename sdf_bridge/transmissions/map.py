"""TransmissionMap: the whole robot's actuator space ↔ joint space, vectorised.

Built once from a :class:`~sdf_bridge.description.model.Robot`
(:mod:`~sdf_bridge.transmissions.from_description`):

1. followers (mimic, gearbox, screw translation) are found (:mod:`.coupling`);
2. every described transmission (classic, PR2 and ros2_control dialects, in
   ``robot.transmissions`` order) is resolved by role and dialect (:mod:`.dialect`) and
   instantiated from the registry (:mod:`.mechanism_registry`);
3. every other driven joint gets an identity actuator of the same name (a plain URDF works).

Joint order (``joint_names``) is the document order of the driven coordinates: a 1-DOF joint,
or each axis of a universal or revolute2 joint (``<joint>/axis1``, ``<joint>/axis2``) or
angle of a ball joint (``<joint>/roll``, ``/pitch``, ``/yaw``:
:mod:`sdf_bridge.description.coordinates`), which every layer treats as a joint of its own;
actuator order (``actuator_names``) follows it (a mechanism's actuators, in role order, where
its first joint appears). Floating and planar joints are passive: not in the map.

Hot path: every mechanism is linear, so each direction is one gather–multiply–add over a
sparse matrix in padded-row form (per output row, the column index and value of each non-zero
entry of its mechanism's small dense block, in ``k`` slots, ``k`` the widest row: 1 for simple
transmissions, 2 for differentials; assembled at build time by groups of mechanisms of the
same shape) for the three interfaces at once (position, velocity, effort stacked in one
buffer): about six numpy calls whatever the number of joints, no Python loop per joint.
Memory is linear in joints (``k · 3n`` entries per direction: no ``(n, n)`` array anywhere,
also not for :attr:`TransmissionMap.dependency`). Structural zeros
are not stored, so a NaN input (= "no command") only reaches outputs that really depend on it.
Not thread-safe (internal buffers are reused).

Error and skip rules (all :class:`TransmissionError` name the transmission and the fix):

* a transmission names a missing joint, a fixed joint, a floating or planar joint, or a
  whole ball, universal or revolute2 joint (it drives one freedom: name the coordinate,
  ``<joint>/axis1``, ``<joint>/roll``) → error
  (for a simulated robot, skipped with a warning naming its file and line);
* a joint driven by two transmissions → error, except exact duplicates that differ only in
  their hardware interface (franka_ros declares Position/Velocity/Effort variants of the same
  SimpleTransmission): merged, one actuator;
* an actuator name used by two transmissions (or named like an un-transmitted joint): for a
  backend that simulates the robot, the later transmission's actuator is renamed
  ``<transmission>/<actuator>`` with one warning, as Gazebo ignores actuator names; otherwise
  an error (:mod:`.actuator_names`); one transmission naming one actuator twice → error;
* zero or non-finite reduction, wrong joint/actuator count → error;
* unknown type (no built-in or ``sdf_bridge.transmissions`` plug-in mechanism of that name,
  e.g. PAL TALOS's ``HalfDifferentialTransmission``, whose math is not published):

  - for a backend that simulates the robot (``simulated_robot=True``: the mock, MuJoCo),
    skipped with one warning naming the transmission, its type and source: its joints are
    driven directly in joint space with identity actuators named like the joints, and its
    actuators are not modelled, as Gazebo classic's gazebo_ros_control does (its
    DefaultRobotHWSim reads only a transmission's joints and hardware interfaces);
  - otherwise (a driver of real actuators) an error if one of its joints must be driven (has
    a ``<ros2_control>`` command interface, or — with no ``<ros2_control>`` joints at all —
    any of its joints is driven): identity would send joint commands to the wrong motors;
    skipped with a warning when none must, the joints keep identity actuators;
* non-mechanism types (:data:`.mechanism_registry.NON_MECHANISM_TYPES`: Franka state/model
  interfaces, PR2 gripper) → skipped with a warning, identity actuators;
* a transmission on a mimic follower → skipped with a warning (the mimic relation wins).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from sdf_bridge.description.model import Robot
from sdf_bridge.errors import TransmissionError

from .base import Transmission
from .coupling import Follower

if TYPE_CHECKING:  # pragma: no cover
    from .exposure import JointRoles
    from .from_description import MappedTransmission

_LOG = logging.getLogger(__name__)


class SparseDependency:
    """A read-only ``(n_rows, n_columns)`` bool pattern stored as its non-zero entries (row,
    column), in row-major order: memory linear in the entries, never ``n_rows × n_columns``.

    Attributes:
        shape: ``(n_rows, n_columns)``.
        nnz: the number of non-zero entries.
    """

    def __init__(self, rows: np.ndarray, columns: np.ndarray, shape: tuple[int, int]) -> None:
        order = np.lexsort((columns, rows))
        pairs = np.unique(np.stack((rows[order], columns[order])), axis=1) if len(rows) else None
        self._rows = np.asarray(pairs[0] if pairs is not None else (), dtype=np.intp)
        self._columns = np.asarray(pairs[1] if pairs is not None else (), dtype=np.intp)
        self._rows.setflags(write=False)
        self._columns.setflags(write=False)
        self.shape = (int(shape[0]), int(shape[1]))
        self.nnz = len(self._rows)

    def nonzero(self) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, columns)`` of the non-zero entries, row-major (as ``numpy.nonzero`` of
        the dense array), read-only."""
        return self._rows, self._columns

    def toarray(self) -> np.ndarray:
        """The dense bool array (quadratic: small robots and tests only), read-only."""
        dense = np.zeros(self.shape, dtype=bool)
        dense[self._rows, self._columns] = True
        dense.setflags(write=False)
        return dense

    def __array__(self, dtype: object = None, copy: object = None) -> np.ndarray:
        dense = self.toarray()
        return dense if dtype is None else dense.astype(dtype)

    def tolist(self) -> list[list[bool]]:
        """The dense array as nested lists (small robots and tests)."""
        return self.toarray().tolist()

    def __repr__(self) -> str:
        return f"SparseDependency(shape={self.shape}, nnz={self.nnz})"


class TransmissionMap:
    """Actuator ↔ joint maps of one robot (see the module docstring for the rules).

    Attributes:
        joint_names: driven 1-DOF joints (not followers), array order of joint-space arrays.
        actuator_names: actuators, array order of actuator-space arrays.
        follower_names: mimic / gearbox followers and screw translations (state only).
        mechanisms: the mechanisms in use (identity ones included), in joint order.
        entries: every described transmission with its status (used, merged, skipped).
        followers_info: the :class:`~.coupling.Follower` records, ``follower_names`` order.
        warnings: human-readable warnings produced while building.
        roles: the robot's :class:`~.exposure.JointRoles` (followers, loop joints, unexposed
            joints) the map was built from (:meth:`from_robot`); ``None`` for a map assembled
            from mechanisms directly.
    """

    def __init__(
        self,
        joint_names: Sequence[str],
        mechanisms: Sequence[Transmission],
        followers: Sequence[Follower] = (),
        *,
        entries: Sequence[MappedTransmission] = (),
        warnings: Sequence[str] = (),
        roles: JointRoles | None = None,
    ) -> None:
        """Assemble the map from mechanisms covering exactly ``joint_names``.

        Raises:
            TransmissionError: a joint covered twice or not at all, an actuator used twice, a
                follower whose leader is not a map joint.
        """
        self.joint_names: tuple[str, ...] = tuple(joint_names)
        self.mechanisms: tuple[Transmission, ...] = tuple(mechanisms)
        self.entries = tuple(entries)
        self.warnings = tuple(warnings)
        self.roles = roles
        jidx = {n: i for i, n in enumerate(self.joint_names)}
        covered: dict[str, str] = {}
        actuators: list[str] = []
        act_owner: dict[str, str] = {}
        for mech in self.mechanisms:
            for j in mech.joints:
                if j not in jidx:
                    raise TransmissionError(
                        f"transmission {mech.name!r} drives {j!r}, which is not a driven joint "
                        "of the map. Fix: name a revolute, continuous or prismatic joint."
                    )
                if j in covered:
                    raise TransmissionError(
                        f"joint {j!r} is driven by two transmissions, {covered[j]!r} and "
                        f"{mech.name!r}. Fix: remove one of them."
                    )
                covered[j] = mech.name
            for a in mech.actuators:
                if a in act_owner:
                    raise TransmissionError(
                        f"actuator {a!r} is used by transmissions {act_owner[a]!r} and "
                        f"{mech.name!r}. Fix: give each transmission its own actuator names "
                        "(an un-transmitted joint gets an actuator named like the joint)."
                    )
                act_owner[a] = mech.name
                actuators.append(a)
        missing = [j for j in self.joint_names if j not in covered]
        if missing:
            raise TransmissionError(
                f"joints {missing} have no mechanism. Fix: add an identity mechanism for them."
            )
        # order actuators by the first joint of their mechanism
        order = sorted(
            range(len(self.mechanisms)),
            key=lambda k: min(jidx[j] for j in self.mechanisms[k].joints),
        )
        self.mechanisms = tuple(self.mechanisms[k] for k in order)
        self.actuator_names: tuple[str, ...] = tuple(
            a for mech in self.mechanisms for a in mech.actuators
        )
        self.followers_info: tuple[Follower, ...] = tuple(followers)
        self.follower_names: tuple[str, ...] = tuple(f.name for f in self.followers_info)
        for f in self.followers_info:
            if f.leader not in jidx:
                raise TransmissionError(
                    f"follower {f.name!r} follows {f.leader!r}, which is not a driven joint. "
                    "Fix: make the leader a revolute, continuous or prismatic joint."
                )
        self._build_arrays(jidx)
        n, nf = len(self.joint_names), len(self.follower_names)
        self._shape_joints, self._shape_followers, self._shape_all = (3, n), (3, nf), (3, n + nf)

    # ------------------------------------------------------------------ build-time assembly
    def _build_arrays(self, jidx: dict[str, int]) -> None:
        """Assemble the compressed-row matrices of both directions (rows and columns index the
        three interfaces stacked: ``interface · n + k``), the dependency and the followers'
        index arrays, from each mechanism's small dense blocks."""
        n = self._n = len(self.joint_names)
        aidx = {a: i for i, a in enumerate(self.actuator_names)}
        # COO triplets (row, column, value) of both directions and the three interfaces, per
        # group of mechanisms of the same block shape (one vectorised pass per group)
        a2j: list[list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = [[], [], []]
        j2a: list[list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = [[], [], []]
        offsets = np.zeros(n)
        groups: dict[tuple[int, int], list[Transmission]] = {}
        for mech in self.mechanisms:
            groups.setdefault((len(mech.joints), len(mech.actuators)), []).append(mech)
        for group in groups.values():
            rows = np.array([[jidx[j] for j in m.joints] for m in group], dtype=np.intp)
            cols = np.array([[aidx[a] for a in m.actuators] for m in group], dtype=np.intp)
            offsets[rows] = np.array([m.joint_offsets for m in group], dtype=float)
            motion_a2j = np.array([m.actuator_to_joint_matrix for m in group])
            effort_a2j = np.array([m.actuator_to_joint_effort_matrix for m in group])
            motion_j2a = np.array([m.joint_to_actuator_matrix for m in group])
            effort_j2a = np.array([m.joint_to_actuator_effort_matrix for m in group])
            for triplets, out_idx, in_idx, motion, effort in (
                (a2j, rows, cols, motion_a2j, effort_a2j),
                (j2a, cols, rows, motion_j2a, effort_j2a),
            ):
                for iface, blocks in ((0, motion), (1, motion), (2, effort)):
                    k, r, c = np.nonzero(blocks)  # structural zeros are not stored
                    triplets[iface].append((out_idx[k, r], in_idx[k, c], blocks[k, r, c]))
        self._a2j = self._compress(a2j, n)
        self._j2a = self._compress(j2a, n)
        self._j2a_coo = [self._concat(parts) for parts in j2a]  # (actuator, joint, value)
        self._dep_pairs = (
            np.concatenate([coo[0] for coo in self._j2a_coo]),
            np.concatenate([coo[1] for coo in self._j2a_coo]),
        )
        self._offsets = offsets
        self._has_offsets = bool(np.any(offsets != 0.0))
        self._buf = np.zeros(3 * n + 1)  # [position | velocity | effort | 0 (padding)]
        self._rows = self._buf[: 3 * n].reshape(3, n)
        fi = self.followers_info
        self._f_idx = np.array([jidx[f.leader] for f in fi], dtype=np.intp)
        self._f_mult = np.array([f.multiplier for f in fi], dtype=float)
        self._f_off = np.array([f.offset for f in fi], dtype=float)
        self._f_nan = np.full(len(fi), np.nan)
        # stacked followers from a (3, n) joint array: one take over its flat form, then
        # scale (NaN on the effort row: unknown) and offset (position row only)
        nf = len(fi)
        self._f_idx3 = np.concatenate((self._f_idx, self._f_idx + n, self._f_idx + 2 * n))
        self._f_mult3 = np.concatenate((self._f_mult, self._f_mult, np.full(nf, np.nan)))
        self._f_off3 = np.concatenate((self._f_off, np.zeros(2 * nf)))
        self._nf = nf

    @staticmethod
    def _concat(
        parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One interface's ``(rows, columns, values)`` from the groups' parts."""
        if not parts:
            return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp), np.zeros(0)
        rows, cols, vals = zip(*parts)
        return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)

    @classmethod
    def _compress(
        cls, triplets: list[list[tuple[np.ndarray, np.ndarray, np.ndarray]]], n: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """The three interfaces' ``(row, column, value)`` triplets (rows and columns ``< n``)
        as one ``(3n, 3n)`` block-diagonal sparse matrix in padded-row form: ``(columns,
        values)``, each of shape ``(k, 3n)`` with ``k`` the most entries of a row (1 for simple
        transmissions, 2 for differentials); slot ``s`` of row ``r`` holds its ``s``-th entry
        (by column), and padding reads the zero at index ``3n`` of the input buffer, value 0."""
        coo = [cls._concat(parts) for parts in triplets]
        rows = np.concatenate([r + k * n for k, (r, _, _) in enumerate(coo)])
        cols = np.concatenate([c + k * n for k, (_, c, _) in enumerate(coo)])
        vals = np.concatenate([v for _, _, v in coo]).astype(float)
        order = np.lexsort((cols, rows))
        rows, cols, vals = rows[order], cols[order], vals[order]
        per_row = np.bincount(rows, minlength=3 * n)
        k = max(int(per_row.max(initial=0)), 1)
        slot = np.arange(len(rows)) - (np.cumsum(per_row) - per_row)[rows]
        padded_cols = np.full((k, 3 * n), 3 * n, dtype=np.intp)
        padded_vals = np.zeros((k, 3 * n))
        padded_cols[slot, rows] = cols
        padded_vals[slot, rows] = vals
        return padded_cols, padded_vals

    def _apply(self, matrix: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        """``matrix`` (:meth:`_compress`) times the stacked input buffer: a new (3, n) array."""
        cols, vals = matrix
        g = self._buf.take(cols)
        g *= vals
        out = g[0]
        for slot in range(1, len(g)):
            out += g[slot]
        return out.reshape(3, self._n)

    # ------------------------------------------------------------------------- hot path
    def actuator_to_joint(
        self, position: np.ndarray, velocity: np.ndarray, effort: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Actuator state → joint state.

        Args:
            position, velocity, effort: shape ``(n_actuators,)`` in ``actuator_names`` order
                (rad or m, rad/s or m/s, N·m or N, actuator side).

        Returns:
            ``(position, velocity, effort)``, each shape ``(n_joints,)`` in ``joint_names``
            order: ``q_j = A q_a + o``, ``v_j = A v_a``, ``τ_j = A⁻ᵀ τ_a``. NaN propagates only
            to the joints that depend on it.

        Raises:
            ValueError: an input of another length (a scalar or a one-element array applies to
                every element, by numpy's broadcasting).
        """
        out = self._actuator_to_joint_numpy(position, velocity, effort)
        return out[0], out[1], out[2]

    def actuator_to_joint_stacked(
        self, position: np.ndarray, velocity: np.ndarray, effort: np.ndarray
    ) -> np.ndarray:
        """:meth:`actuator_to_joint` as one new array of shape ``(3, n_joints)`` (rows
        position, velocity, effort), for callers that keep the interfaces stacked.

        Raises:
            ValueError: an input of another length (a scalar or a one-element array applies to
                every element, by numpy's broadcasting).
        """
        return self._actuator_to_joint_numpy(position, velocity, effort)

    def _actuator_to_joint_numpy(
        self, position: np.ndarray, velocity: np.ndarray, effort: np.ndarray
    ) -> np.ndarray:
        rows = self._rows
        rows[0] = position
        rows[1] = velocity
        rows[2] = effort
        out = self._apply(self._a2j)
        if self._has_offsets:
            out[0] += self._offsets
        return out

    def actuator_to_joint_with_followers(
        self, position: np.ndarray, velocity: np.ndarray, effort: np.ndarray
    ) -> np.ndarray:
        """:meth:`actuator_to_joint_stacked` with the :meth:`followers_stacked` columns
        appended, in one call: a new array of shape ``(3, n_joints + n_followers)`` (columns
        ``joint_names`` then ``follower_names``; rows position, velocity, effort), equal to
        ``np.concatenate((s, followers_stacked(s)), axis=1)`` for
        ``s = actuator_to_joint_stacked(position, velocity, effort)``.

        Args:
            position, velocity, effort: shape ``(n_actuators,)``, as for
                :meth:`actuator_to_joint`.

        Raises:
            ValueError: an input of another length (a scalar or a one-element array applies to
                every element, by numpy's broadcasting).
        """
        joints = self._actuator_to_joint_numpy(position, velocity, effort)
        return np.concatenate((joints, self._followers_stacked_numpy(joints)), axis=1)

    def joint_to_actuator(
        self, position: np.ndarray, velocity: np.ndarray, effort: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Joint commands → actuator commands (the exact inverse of :meth:`actuator_to_joint`).

        Args:
            position, velocity, effort: shape ``(n_joints,)`` in ``joint_names`` order; NaN =
                no command (propagates to the actuators that depend on that joint).

        Returns:
            ``(position, velocity, effort)``, each shape ``(n_actuators,)``:
            ``q_a = A⁻¹ (q_j − o)``, ``v_a = A⁻¹ v_j``, ``τ_a = Aᵀ τ_j``.

        Raises:
            ValueError: an input of another length (a scalar or a one-element array applies to
                every element, by numpy's broadcasting).
        """
        out = self._joint_to_actuator_numpy(position, velocity, effort)
        return out[0], out[1], out[2]

    def _joint_to_actuator_numpy(
        self, position: np.ndarray, velocity: np.ndarray, effort: np.ndarray
    ) -> np.ndarray:
        rows = self._rows
        if self._has_offsets:
            np.subtract(position, self._offsets, out=rows[0])
        else:
            rows[0] = position
        rows[1] = velocity
        rows[2] = effort
        return self._apply(self._j2a)

    @cached_property
    def dependency(self) -> SparseDependency:
        """Which joints each actuator's command depends on (a differential's two actuators each
        depend on both its joints): the non-zero pattern of the joint → actuator matrices of
        the three interfaces, shape ``(n_actuators, n_joints)``, stored as its non-zero
        entries (:class:`SparseDependency`: ``.shape``, ``.nonzero()``; ``numpy.asarray`` of
        it is the dense bool array, for small robots and tests). Built once, read-only."""
        actuators, joints = self._dep_pairs
        n = self._n
        return SparseDependency(actuators, joints, (len(self.actuator_names), n))

    def joint_state(self, joints: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A simulator's joint state with the followers appended, and its actuator state, in
        one call.

        Args:
            joints: shape ``(3, n_joints)``, rows position, velocity, effort (rad or m, rad/s
                or m/s, N·m or N), columns ``joint_names``.

        Returns:
            ``(state, actuators)``, new arrays: ``state`` of shape ``(3, n_joints +
            n_followers)`` = ``np.concatenate((joints, followers_stacked(joints)), axis=1)``;
            ``actuators`` of shape ``(3, n_actuators)`` = :meth:`joint_to_actuator` of the
            rows.

        Raises:
            ValueError: ``joints`` is not of shape ``(3, n_joints)``.
        """
        joints = np.asarray(joints, dtype=float)
        followers = self._followers_stacked_numpy(joints)  # checks the shape
        return (
            np.concatenate((joints, followers), axis=1),
            self._joint_to_actuator_numpy(joints[0], joints[1], joints[2]),
        )

    def followers(
        self, position: np.ndarray, velocity: np.ndarray, effort: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Follower states from joint states (shape ``(n_joints,)`` each).

        Returns:
            ``(position, velocity, effort)`` of shape ``(n_followers,)``: ``m·q + o``,
            ``m·v``, and NaN for effort (a coupling's constraint force is not known from the
            leader; see :mod:`.coupling`). New arrays on every call.
        """
        p = np.asarray(position).take(self._f_idx)
        p *= self._f_mult
        p += self._f_off
        v = np.asarray(velocity).take(self._f_idx)
        v *= self._f_mult
        return p, v, self._f_nan.copy()

    def followers_stacked(self, joints: np.ndarray) -> np.ndarray:
        """:meth:`followers` of a C-contiguous ``(3, n_joints)`` joint array (as
        :meth:`actuator_to_joint_stacked` returns), as one new ``(3, n_followers)`` array
        (rows ``m·q + o``, ``m·v``, NaN).

        Raises:
            ValueError: ``joints`` is not of shape ``(3, n_joints)``.
        """
        return self._followers_stacked_numpy(joints)

    def _followers_stacked_numpy(self, joints: np.ndarray) -> np.ndarray:
        joints = np.asarray(joints, dtype=float)
        if joints.shape != self._shape_joints:
            raise ValueError(
                f"followers_stacked: joint array of shape {joints.shape}, expected "
                f"{self._shape_joints} (rows position, velocity, effort; columns joint_names)"
            )
        f = joints.reshape(-1).take(self._f_idx3)
        f *= self._f_mult3
        f += self._f_off3
        return f.reshape(3, self._nf)

    # ------------------------------------------------------------------ build-time helpers
    def actuator_bounds(
        self, lower: Sequence[float], upper: Sequence[float], interface: str = "position"
    ) -> tuple[np.ndarray, np.ndarray]:
        """Actuator-side bounds of joint-side bounds (interval arithmetic through the map).

        Args:
            lower, upper: joint-space bounds, shape ``(n_joints,)``; ``±inf`` = unbounded.
            interface: ``"position"`` (offsets removed first), ``"velocity"`` or ``"effort"``.

        Returns:
            ``(lower, upper)`` of shape ``(n_actuators,)``; a negative reduction swaps the
            bounds (e.g. joint [−1, 2] through n = −50 → actuator [−100, 50]).

        Raises:
            ValueError: unknown interface.
        """
        iface = {"position": 0, "velocity": 1, "effort": 2}.get(interface)
        if iface is None:
            raise ValueError(f"interface {interface!r}: expected position, velocity or effort")
        lo = np.asarray(lower, dtype=float)
        hi = np.asarray(upper, dtype=float)
        if iface == 0:
            lo, hi = lo - self._offsets, hi - self._offsets
        actuators, joints, c = self._j2a_coo[iface]
        x, y = c * lo[joints], c * hi[joints]  # (c ≠ 0: no 0·inf)
        out_lo = np.zeros(self._n)
        out_hi = np.zeros(self._n)
        np.add.at(out_lo, actuators, np.minimum(x, y))
        np.add.at(out_hi, actuators, np.maximum(x, y))
        return out_lo, out_hi

    def mechanism_of(self, joint: str) -> Transmission:
        """The mechanism driving ``joint``. Raises ``KeyError`` if it is not a map joint."""
        for mech in self.mechanisms:
            if joint in mech.joints:
                return mech
        raise KeyError(joint)

    # ------------------------------------------------------------------------ building
    @classmethod
    def from_robot(cls, robot: Robot, *, simulated_robot: bool = False) -> TransmissionMap:
        """Build the map of ``robot`` (:func:`.from_description.build_map`: the rules of the module
        docstring).

        Args:
            robot: the description.
            simulated_robot: the map is for a backend that simulates the robot
                (:func:`~sdf_bridge.backends.base.is_simulated_robot`: the mock, MuJoCo): a
                transmission of unknown type on a commanded joint is skipped with a warning
                (its joints driven directly, identity actuators) as gazebo_ros_control does,
                and an actuator name two transmissions use is renamed for the later one
                (:mod:`.actuator_names`), instead of a :class:`TransmissionError` (the
                default, for real actuators).

        Raises:
            TransmissionError: see the module docstring.
            TypeError: ``robot`` is not a :class:`Robot` (e.g. an SDF ``World``).
        """
        from .from_description import build_map

        return build_map(cls, robot, simulated_robot=simulated_robot)

    def __repr__(self) -> str:
        return (
            f"TransmissionMap(joints={len(self.joint_names)}, "
            f"actuators={len(self.actuator_names)}, followers={len(self.follower_names)})"
        )
