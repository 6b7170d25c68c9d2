"""When a sensor is next due: the schedule ``next_due, next_due + period, …`` advanced past a time
in O(1)."""

from __future__ import annotations

import math

EPSILON = 1e-9
"""s: a sample is due at ``t`` when ``t + EPSILON ≥ next_due`` (tolerates round-off in ``t``)."""


def next_due_after(next_due: float, period: float, t: float) -> float:
    """The first point of the schedule ``next_due + k·period`` (k = 0, 1, …) that is later than
    ``t + EPSILON`` s — what ``while next_due <= t + EPSILON: next_due += period`` gives, in
    O(1) instead of O((t − next_due)/period) steps.

    One step (the control loop's normal case) is the same addition, so bit-identical to that
    loop; for k > 1 the point is ``next_due + k·period`` with ``k = ⌊(t + EPSILON − next_due) /
    period⌋ + 1`` corrected by at most a step for round-off (it can differ from k repeated
    additions by their accumulated round-off). ``period ≤ 0`` (a sensor without rate: due at every
    read) gives ``t``. ``next_due`` already later than ``t + EPSILON`` is returned unchanged, and so
    is it for ``t`` NaN; ``t = +inf`` gives ``inf`` (never due again).

    Args:
        next_due: the current schedule point, s.
        period: s between samples.
        t: the time read, s.
    """
    if period <= 0.0:
        return t
    limit = t + EPSILON
    if next_due > limit:
        return next_due
    step = next_due + period
    if step > limit:
        return step
    if not math.isfinite(limit):  # NaN: never due (as the loop); +inf: the loop would not end
        return next_due if math.isnan(limit) else math.inf
    due = next_due + (math.floor((limit - next_due) / period) + 1) * period
    for _ in range(2):  # round-off: at most a step each way (bounded: a period below the
        if due <= limit:  # resolution of t would never move it)
            due += period
        elif due - period > limit:
            due -= period
    return due
