"""Compiled hot path of :class:`~.map.TransmissionMap`: one loop per call (:mod:`sdf_bridge.jit`).

The map's numpy path (:mod:`.map`) is the reference: each kernel here performs the same
floating-point operations in the same order, so both give identical results (bit for bit,
NaN and signed zeros included) — the tests check it:

* joint ← actuator, interface ``i``, joint ``r``: ``out = Σ_s x_i[c_s] · w_s`` over the ``k``
  slots ``s`` of row ``r``, summed in slot order starting from slot 0; a padded slot (a
  structural zero, column ``-1``) adds ``0.0`` and reads nothing, so a NaN input reaches only
  the outputs that depend on it; then ``out_position += o`` (joint offsets, when any is
  non-zero);
* actuator ← joint: the same with the inverse blocks, the offsets subtracted from the
  position input first (``x = q_j − o``);
* followers: ``m · q_l + o_f``, ``m · v_l`` (``+ 0.0`` in the stacked forms, as the numpy
  path adds its zero offset row) and NaN effort (see :mod:`.coupling`).

All static data of a map is packed once (:func:`pack`) into one 2-D float array (each array
argument costs a fixed unboxing time per call, so the kernels take the three inputs and this
pack). Pack layout, width ``W = max(n, n_followers, 4)``, with ``n`` joints (= actuators) and
``k`` slots:

====================  ==================================================================
row                   content
====================  ==================================================================
0                     header ``[n, n_followers, k, has_offsets]``
1                     joint offsets ``o`` (rad or m), ``n`` columns
2 + 3s + i            joint ← actuator: column read by slot ``s`` of interface ``i`` (−1: none)
2 + 3k + 3s + i       joint ← actuator: weight of that slot
2 + 6k + 3s + i       actuator ← joint: column (−1: none)
2 + 9k + 3s + i       actuator ← joint: weight
2 + 12k + 0, 1, 2     followers: leader index, multiplier, offset (``n_followers`` columns)
====================  ==================================================================

Indices are stored as floats (exact below 2⁵³). Interfaces ``i``: 0 position, 1 velocity,
2 effort.

Every kernel checks its input lengths and raises ``ValueError`` on a mismatch; after
:func:`warm_up` the compiled kernels accept only writeable float64 arrays of the warmed-up
kinds (1-D inputs, 2-D for :func:`followers_stacked`; contiguous or strided): any other
argument (list, scalar, integer or read-only array) raises ``TypeError`` instead of compiling
in a control cycle. The map catches both and runs its numpy path, which keeps the documented
behaviour for such inputs.
"""

from __future__ import annotations

import numpy as np

from sdf_bridge import jit

OFFSETS_ROW = 1
"""Pack row of the joint offsets."""
FIRST_BLOCK_ROW = 2
"""Pack row of the first joint ← actuator column row."""


def pack(
    a2j_cols: np.ndarray,
    a2j_vals: np.ndarray,
    j2a_cols: np.ndarray,
    j2a_vals: np.ndarray,
    offsets: np.ndarray,
    has_offsets: bool,
    follower_index: np.ndarray,
    follower_multiplier: np.ndarray,
    follower_offset: np.ndarray,
) -> np.ndarray:
    """The kernels' parameter array of one map (layout in the module docstring).

    Args:
        a2j_cols, j2a_cols: shape ``(k, 3, n)`` int: the numpy path's gather indices into its
            stacked buffer ``[position | velocity | effort | 0]`` (``i·n + c``; ``3n`` = the
            zero slot, i.e. a structural zero).
        a2j_vals, j2a_vals: shape ``(k, 3, n)``: the slot weights.
        offsets: shape ``(n,)``, joint offsets, rad or m.
        has_offsets: whether any offset is non-zero (the numpy path adds them only then).
        follower_index: shape ``(n_followers,)``, leader joint index of each follower.
        follower_multiplier, follower_offset: shape ``(n_followers,)``.

    Returns:
        A new C-contiguous float64 array of shape ``(2 + 12k + 3, max(n, n_followers, 4))``.

    Raises:
        ValueError: a gather index that reads another interface's row (not a block-sparse map).
    """
    k, _, n = a2j_cols.shape
    nf = len(follower_index)
    width = max(n, nf, 4)
    out = np.zeros((FIRST_BLOCK_ROW + 12 * k + 3, width))
    out[0, :4] = (n, nf, k, 1.0 if has_offsets else 0.0)
    out[OFFSETS_ROW, :n] = offsets
    for block, (cols, vals) in enumerate(((a2j_cols, a2j_vals), (j2a_cols, j2a_vals))):
        base = FIRST_BLOCK_ROW + 6 * k * block
        for s in range(k):
            for i in range(3):
                c = np.asarray(cols[s, i], dtype=np.int64)
                local = np.where(c == 3 * n, -1, c - i * n)
                foreign = (c != 3 * n) & (c // max(n, 1) != i)
                if np.any((local < -1) | (local >= n)) or np.any(foreign):
                    raise ValueError(
                        f"slot {s}, interface {i}: a gather index reads another interface"
                    )
                out[base + 3 * s + i, :n] = local
                out[base + 3 * k + 3 * s + i, :n] = vals[s, i]
    fb = FIRST_BLOCK_ROW + 12 * k
    out[fb, :nf] = follower_index
    out[fb + 1, :nf] = follower_multiplier
    out[fb + 2, :nf] = follower_offset
    return out


# ---------------------------------------------------------------------------------- helpers
@jit.kernel
def _linear_row(out, i, x, params, base, n, k):
    """Row ``i`` of ``out[:, :n]`` from input ``x`` through the block starting at pack row
    ``base``."""
    for r in range(n):
        acc = 0.0
        for s in range(k):
            c = params[base + 3 * s + i, r]
            term = x[int(c)] * params[base + 3 * k + 3 * s + i, r] if c >= 0.0 else 0.0
            acc = term if s == 0 else acc + term
        out[i, r] = acc


@jit.kernel
def _check(n, a, b, c):
    if len(a) != n or len(b) != n or len(c) != n:
        raise ValueError("input length differs from the number of joints/actuators")


@jit.kernel
def _check_out(out, width):
    if out.shape[0] != 3 or out.shape[1] != width:
        raise ValueError("output array is not (3, width)")


@jit.kernel
def _actuator_to_joint_into(out, position, velocity, effort, params, n, k):
    base = FIRST_BLOCK_ROW
    _linear_row(out, 0, position, params, base, n, k)
    _linear_row(out, 1, velocity, params, base, n, k)
    _linear_row(out, 2, effort, params, base, n, k)
    if params[0, 3] != 0.0:
        for r in range(n):
            out[0, r] += params[OFFSETS_ROW, r]


@jit.kernel
def _followers_into(out, col0, position, velocity, params, plus_zero):
    """Columns ``col0 …`` of ``out``: follower position, velocity (``+ 0.0`` when
    ``plus_zero``, as the stacked numpy form) and NaN effort."""
    nf = int(params[0, 1])
    fb = FIRST_BLOCK_ROW + 12 * int(params[0, 2])
    for f in range(nf):
        j = int(params[fb, f])
        m = params[fb + 1, f]
        out[0, col0 + f] = position[j] * m + params[fb + 2, f]
        v = velocity[j] * m
        out[1, col0 + f] = v + 0.0 if plus_zero else v
        out[2, col0 + f] = np.nan


# ---------------------------------------------------------------------------------- kernels
@jit.kernel
def actuator_to_joint(position, velocity, effort, params, out):
    """Actuator state → joint state into ``out``, shape ``(3, n)`` (rows position, velocity,
    effort).

    ``position``, ``velocity``, ``effort``: shape ``(n,)`` float64 each (rad or m, rad/s or
    m/s, N·m or N); ``params``: :func:`pack`. Raises ``ValueError`` on a length mismatch.
    (The caller allocates ``out`` and keeps it: no kernel here returns an array, as handing
    one back to Python costs about 1 µs, more than the work.)
    """
    n = int(params[0, 0])
    k = int(params[0, 2])
    _check(n, position, velocity, effort)
    _check_out(out, n)
    _actuator_to_joint_into(out, position, velocity, effort, params, n, k)


@jit.kernel
def actuator_to_joint_with_followers(position, velocity, effort, params, out):
    """:func:`actuator_to_joint` with the followers appended, into ``out`` of shape
    ``(3, n + n_followers)``. Raises ``ValueError`` on a length mismatch."""
    n = int(params[0, 0])
    k = int(params[0, 2])
    _check(n, position, velocity, effort)
    _check_out(out, n + int(params[0, 1]))
    _actuator_to_joint_into(out, position, velocity, effort, params, n, k)
    _followers_into(out, n, out[0], out[1], params, True)


@jit.kernel
def joint_to_actuator(position, velocity, effort, params, out):
    """Joint commands → actuator commands into ``out``, shape ``(3, n)``; NaN (no command)
    reaches only the actuators that depend on it. Raises ``ValueError`` on a length mismatch."""
    n = int(params[0, 0])
    k = int(params[0, 2])
    _check(n, position, velocity, effort)
    _check_out(out, n)
    _joint_to_actuator_into(out, position, velocity, effort, params, n, k)


@jit.kernel
def _joint_to_actuator_into(out, position, velocity, effort, params, n, k):
    base = FIRST_BLOCK_ROW + 6 * k
    if params[0, 3] != 0.0:  # q_j − o first, as the numpy path
        shifted = np.empty(n)
        for r in range(n):
            shifted[r] = position[r] - params[OFFSETS_ROW, r]
        _linear_row(out, 0, shifted, params, base, n, k)
    else:
        _linear_row(out, 0, position, params, base, n, k)
    _linear_row(out, 1, velocity, params, base, n, k)
    _linear_row(out, 2, effort, params, base, n, k)


@jit.kernel
def joint_state(joints, params, out, actuators):
    """A simulator's joint state ``joints`` ``(3, n)`` (rows position, velocity, effort) →
    ``out`` ``(3, n + n_followers)`` (the joints, then the followers as
    :func:`followers_stacked`) and ``actuators`` ``(3, n)`` (:func:`joint_to_actuator` of
    the joints). Raises ``ValueError`` on a shape mismatch."""
    n = int(params[0, 0])
    k = int(params[0, 2])
    if joints.shape[0] != 3 or joints.shape[1] != n:
        raise ValueError("joint array is not (3, number of joints)")
    _check_out(out, n + int(params[0, 1]))
    _check_out(actuators, n)
    for i in range(3):
        for r in range(n):
            out[i, r] = joints[i, r]
    _followers_into(out, n, joints[0], joints[1], params, True)
    _joint_to_actuator_into(actuators, joints[0], joints[1], joints[2], params, n, k)


@jit.kernel
def followers(position, velocity, params, out):
    """Follower states into ``out`` ``(3, n_followers)`` from joint positions and velocities
    (shape ``(n,)``): ``m·q + o``, ``m·v``, NaN. Raises ``ValueError`` on a length mismatch."""
    n = int(params[0, 0])
    _check(n, position, velocity, velocity)
    _check_out(out, int(params[0, 1]))
    _followers_into(out, 0, position, velocity, params, False)


@jit.kernel
def followers_stacked(joints, params, out):
    """Follower states into ``out`` ``(3, n_followers)`` from a ``(3, n)`` joint array:
    ``m·q + o``, ``m·v + 0``, NaN. Raises ``ValueError`` on a shape mismatch."""
    n = int(params[0, 0])
    if joints.shape[0] != 3 or joints.shape[1] != n:
        raise ValueError("joint array is not (3, number of joints)")
    _check_out(out, int(params[0, 1]))
    _followers_into(out, 0, joints[0], joints[1], params, True)


KERNELS = (
    actuator_to_joint,
    actuator_to_joint_with_followers,
    joint_to_actuator,
    joint_state,
    followers,
    followers_stacked,
)
"""The public kernels (what :func:`warm_up` compiles)."""


def warm_up() -> float:
    """Compile (or load from Numba's disk cache) every kernel for C-contiguous and strided
    float64 inputs, then forbid further compilation (:func:`sdf_bridge.jit.warm_up`).

    Returns:
        The time spent, s (0.0 when already warm or not compiled).
    """

    def run() -> None:
        # two identity joints (k = 1) and one follower; strided inputs need two elements (numpy
        # calls a one-element array contiguous whatever its stride)
        cols = np.array([[[0, 1], [2, 3], [4, 5]]], dtype=np.int64)
        ones = np.ones((1, 3, 2))
        params = pack(
            cols,
            ones,
            cols,
            ones,
            np.ones(2),
            True,
            np.zeros(1, dtype=np.int64),
            np.ones(1),
            np.zeros(1),
        )
        for x in (np.zeros(2), np.zeros(4)[::2]):
            actuator_to_joint(x, x, x, params, np.empty((3, 2)))
            actuator_to_joint_with_followers(x, x, x, params, np.empty((3, 3)))
            joint_to_actuator(x, x, x, params, np.empty((3, 2)))
            followers(x, x, params, np.empty((3, 1)))
        followers_stacked(np.zeros((3, 2)), params, np.empty((3, 1)))
        followers_stacked(np.zeros((3, 4))[:, ::2], params, np.empty((3, 1)))
        joint_state(np.zeros((3, 2)), params, np.empty((3, 3)), np.empty((3, 2)))
        joint_state(np.zeros((3, 4))[:, ::2], params, np.empty((3, 3)), np.empty((3, 2)))

    return jit.warm_up("transmission kernels", KERNELS, run)
