"""The bridge node's ``/diagnostics``: one ``diagnostic_msgs/DiagnosticStatus`` of the control
loop, built from the hardware system's counters, the loop's timing and the node's own counts.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue

from ..hardware import FixedRateLoop, HardwareSystem
from . import conversions


def flatten(values: Any, prefix: str = "") -> dict[str, Any]:
    """Nested dicts (and dataclasses) → ``{"a.b": value}``; tuple keys are joined with ``/``."""
    out: dict[str, Any] = {}
    if isinstance(values, dict) or hasattr(values, "items"):
        for key, value in values.items():
            name = "/".join(map(str, key)) if isinstance(key, tuple) else str(key)
            out.update(flatten(value, f"{prefix}{name}."))
        return out
    if hasattr(values, "__dataclass_fields__"):
        return flatten({k: getattr(values, k) for k in values.__dataclass_fields__}, prefix)
    out[prefix[:-1]] = values
    return out


def slow_loop_warning(values: dict[str, str], update_rate: float) -> str | None:
    """The warning to give when the achieved loop rate (``values`` of a status, as strings) is
    below 80 % of ``update_rate`` (Hz) after 2 s of running (rendering cameras in software, a
    slow backend or an overloaded machine); ``None`` otherwise."""
    try:
        achieved = float(values["loop.achieved_rate_hz"])
        cycles = int(values["loop.cycles"])
    except (KeyError, ValueError):
        return None
    if cycles >= 2 * update_rate and achieved < 0.8 * update_rate:
        return (
            f"control loop runs at {achieved:.1f} Hz of update_rate {update_rate:g} Hz: the cycle "
            "takes longer than its period. Fix: lower update_rate, or make the backend "
            "cheaper (e.g. backend_params.render_cameras:=false for MuJoCo cameras)."
        )
    return None


class LoopDiagnostics:
    """Builds the node's diagnostics messages; remembers the counts of the previous one (the
    level is WARN when overruns or rejected commands grew since then).

    Args:
        name: the status name (``"<node name>: control loop"``).
        update_rate: the loop's target rate, Hz.
        real_time_factor: the target real-time factor of simulating backends.
    """

    def __init__(self, name: str, update_rate: float, real_time_factor: float) -> None:
        self.name = name
        self.update_rate = update_rate
        self.real_time_factor = real_time_factor
        # (overruns, rejects, dropped callbacks) of the last message
        self._last: tuple[int, int, int] = (0, 0, 0)

    def message(
        self,
        stamp: Any,
        hardware: HardwareSystem | None,
        loop: FixedRateLoop | None,
        rejects: Counter[str],
        command_warnings: int,
        dropped: Counter[str],
        hardware_id: str,
    ) -> DiagnosticArray:
        """``/diagnostics``: one status with the hardware system's counters (flattened
        ``a.b = value``), the loop's figures and the node's rejected-command counts
        (``rejects``: reason → count, ``node_rejected.<reason>``) and its callbacks that raised
        or refused their message (``dropped``: callback name → count,
        ``callback_dropped.<name>``, :mod:`.callback_guard`). Level WARN when overruns, rejects
        or dropped callbacks grew since the last message, the system is disabled or there is no
        hardware yet (waiting for robot_description), else OK.

        The loop's figures (only while the loop runs) come from one measurement, the loop's
        :class:`~sdf_bridge.hardware.timing.LoopTiming` (each tick timed once, publishing
        included): ``loop.target_rate_hz``, ``loop.realtime_priority`` (0 = normal policy),
        ``loop.achieved_rate_hz`` (0 before two ticks), ``loop.cycles``, ``loop.overruns``
        (ticks busy longer than the period), ``loop.errors`` (ticks that raised),
        ``loop.period_p99_s``, ``loop.period_max_s`` (0 before two ticks), and every key of
        :meth:`LoopTiming.summary <sdf_bridge.hardware.timing.LoopTiming.summary>` as
        ``timing.<key>`` (``None`` where it needs more ticks). A simulating backend adds
        ``sim.real_time_factor``, the simulated over the wall time since the previous
        diagnostics (0 while paused; :attr:`HardwareSystem.real_time_factor
        <sdf_bridge.hardware.HardwareSystem.real_time_factor>`), and
        ``sim.real_time_factor_target`` (the parameter)."""
        values: dict[str, Any] = {}
        enabled = True
        rtf = None
        if hardware is not None:  # (the hardware system locks itself, briefly)
            values.update(flatten(hardware.diagnostics()))
            enabled = hardware.enabled
            rtf = hardware.real_time_factor
        overruns = 0
        if loop is not None:
            # a copy, summarised here on the executor thread while the loop keeps measuring
            timing = loop.timing.snapshot().summary()
            overruns = int(timing["overruns"] or 0)
            values.update(
                {
                    "loop.target_rate_hz": self.update_rate,
                    "loop.realtime_priority": loop.priority if loop.realtime else 0,
                    "loop.achieved_rate_hz": round(timing["rate_hz"] or 0.0, 3),
                    "loop.cycles": int(timing["cycles"] or 0),
                    "loop.overruns": overruns,
                    "loop.errors": loop.errors,
                    "loop.period_p99_s": timing["period_p99"] or 0.0,
                    "loop.period_max_s": timing["period_max"] or 0.0,
                }
            )
            values.update(flatten({"timing": timing}))
        for reason, count in sorted(rejects.items()):
            values[f"node_rejected.{reason}"] = count
        values["command_warnings"] = command_warnings
        for name, count in sorted(dropped.items()):
            values[f"callback_dropped.{name}"] = count
        n_dropped = sum(dropped.values())
        if rtf is not None:
            values["sim.real_time_factor"] = round(rtf, 4)
            values["sim.real_time_factor_target"] = self.real_time_factor
        rejected = sum(rejects.values()) + int(values.get("rejected_total", 0))
        last_overruns, last_rejected, last_dropped = self._last
        self._last = (overruns, rejected, n_dropped)
        problems = []
        if overruns > last_overruns:
            problems.append(f"{overruns - last_overruns} overruns")
        if rejected > last_rejected:
            problems.append(f"{rejected - last_rejected} rejected commands")
        if n_dropped > last_dropped:
            problems.append(f"{n_dropped - last_dropped} dropped callbacks")
        if not enabled:
            problems.append("disabled")
        if hardware is None:
            problems.append("waiting for robot_description")
        status = DiagnosticStatus(name=self.name, hardware_id=hardware_id)
        status.level = DiagnosticStatus.WARN if problems else DiagnosticStatus.OK
        status.message = ", ".join(problems) if problems else "running"
        status.values = [KeyValue(key=k, value=str(v)) for k, v in values.items()]
        return DiagnosticArray(header=conversions.Header(stamp=stamp), status=[status])
