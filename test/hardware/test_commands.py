"""Command buffer: case 013 (JointState array lengths) step by step, every rejection reason,
command modes and their mixing rules."""

from __future__ import annotations

import logging
import math
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
import yaml

from sdf_bridge.errors import CommandError, ConfigError
from sdf_bridge.hardware.commands import REJECTION_REASONS, ClaimsUpdate, CommandBuffer

#: Hypothesis' bound on one example (the first may compile the kernels): a runaway
#: example fails the test; setup.cfg's pytest timeout bounds the test as a whole.
DEADLINE = timedelta(seconds=30)

ALL = ("position", "velocity", "effort")


def _buffer(**kwargs) -> CommandBuffer:
    args = dict(
        joint_names=["j1", "j2", "j3", "j4"],
        follower_names=["f1"],
        commandable=["j1", "j2", "j3"],  # j4 is in the map but not commandable
        allowed={"j1": ALL, "j2": ALL, "j3": ("position",)},
    )
    args.update(kwargs)
    return CommandBuffer(**args)


def _value(buffer: CommandBuffer, field: str, joint: str) -> float:
    return float(getattr(buffer, field)[buffer.joint_names.index(joint)])


# ---------------------------------------------------------------------------------- case 013
@pytest.fixture(scope="module")
def case013(cases_dir: Path) -> dict:
    return yaml.safe_load(
        (cases_dir / "013-jointstate-array-lengths" / "messages.yaml").read_text()
    )


def test_case013_every_step(case013: dict, caplog: pytest.LogCaptureFixture) -> None:
    buffer = CommandBuffer(
        ["j1", "j2", "j3"], [], ["j1", "j2", "j3"], {n: ALL for n in ("j1", "j2", "j3")}
    )
    # "Initial commanded state: all positions 0.0, no velocity/effort command."
    buffer.submit_joint_state(["j1", "j2", "j3"], [0.0, 0.0, 0.0], [], [], now=0.0)
    t = 1.0
    for message in case013["messages"]:
        with caplog.at_level(logging.WARNING, logger="sdf_bridge.hardware.commands"):
            warnings = buffer.submit_joint_state(
                message["name"],
                message.get("position", []),
                message.get("velocity", []),
                message.get("effort", []),
                now=t,
            )
        t += 10.0  # beyond the log throttle: every warning is logged
        expect = message["expect"]
        for joint, value in expect.get("position_cmd", {}).items():
            assert _value(buffer, "position", joint) == pytest.approx(value, abs=1e-12), message[
                "id"
            ]
        for joint, value in expect.get("effort_cmd", {}).items():
            assert _value(buffer, "effort", joint) == pytest.approx(value, abs=1e-12), message["id"]
        if "velocity_cmd_j3_not" in expect:
            assert _value(buffer, "velocity", "j3") != expect["velocity_cmd_j3_not"]
            assert math.isnan(_value(buffer, "velocity", "j3"))  # field dropped: no command
        if "warning_mentions" in expect:
            assert any(expect["warning_mentions"] in w for w in warnings)
            assert expect["warning_mentions"] in caplog.text
        if "position_cmd_j1_in" in expect:
            assert _value(buffer, "position", "j1") in expect["position_cmd_j1_in"]
            assert _value(buffer, "position", "j1") == 0.7  # our rule: the field is dropped
    # (m5's NaN is "no new command", silently: not a rejection)
    assert buffer.rejections == {"malformed_field": 2, "unknown_joint": 1}


def test_case013_malformed_fields_dropped_not_truncated() -> None:
    buffer = _buffer()
    warnings = buffer.submit_joint_state(["j1", "j2"], [0.1, 0.2], [1.0], [5.0, 6.0, 7.0], now=0.0)
    assert len(warnings) == 2
    assert "velocity has 1 entries for 2 names" in warnings[0]
    assert "effort has 3 entries for 2 names" in warnings[1]
    assert _value(buffer, "position", "j1") == 0.1
    assert np.isnan(buffer.velocity).all() and np.isnan(buffer.effort).all()
    assert buffer.rejections["malformed_field"] == 2


def test_empty_message_and_all_fields_empty_do_nothing() -> None:
    buffer = _buffer()
    assert buffer.submit_joint_state([], [], [], [], now=0.0) == []
    assert buffer.submit_joint_state(["j1"], None, None, None, now=0.0) == []
    assert buffer.last_command_time is None and sum(buffer.rejections.values()) == 0


def test_non_numeric_field_is_malformed() -> None:
    buffer = _buffer()
    warnings = buffer.submit_joint_state(["j1"], ["abc"], [], [], now=0.0)
    assert "not numeric" in warnings[0] and buffer.rejections["malformed_field"] == 1


# ------------------------------------------------------- what the topic-based plugins send
def _plugin_buffer() -> CommandBuffer:
    """Joints as in a ros2_control block: a, b position + velocity, c position only, m a
    state-only mimic follower, x listed with velocity but not commandable (``joints`` parameter)."""
    return CommandBuffer(
        ["a", "b", "c", "x"],
        ["m"],
        ["a", "b", "c"],
        {"a": ("position", "velocity"), "b": ("position", "velocity"), "c": ("position",)},
        command_interfaces={
            "a": ("position", "velocity"),
            "b": ("position", "velocity"),
            "c": ("position",),
            "x": ("velocity",),
        },
    )


def test_short_arrays_are_laid_out_over_the_joints_with_that_interface() -> None:
    """name[5] position[3] velocity[3]: position for a, b, c; velocity for a, b, x (x's NaN
    commands nothing); the mimic joint m carries no value and is not refused."""
    buffer = _plugin_buffer()
    warnings = buffer.submit_joint_state(
        ["a", "b", "c", "m", "x"], [0.1, 0.2, 0.3], [np.nan, np.nan, np.nan], [], now=1.0
    )
    assert warnings == [] and sum(buffer.rejections.values()) == 0
    np.testing.assert_array_equal(buffer.position[:3], [0.1, 0.2, 0.3])
    assert np.isnan(buffer.velocity).all()
    assert [buffer.mode_name(j) for j in "abc"] == ["position", "position", "position"]
    assert buffer.last_command_time == 1.0
    # the velocity controller takes over a and b; position unclaimed (NaN) everywhere
    warnings = buffer.submit_joint_state(
        ["a", "b", "c", "m", "x"], [np.nan] * 3, [0.5, -0.5, np.nan], [], now=2.0
    )
    assert warnings == []
    assert [buffer.mode_name(j) for j in "abc"] == ["velocity", "velocity", "position"]
    np.testing.assert_array_equal(buffer.velocity[:2], [0.5, -0.5])
    assert buffer.last_command_time == 2.0


def test_short_array_of_another_length_is_rejected_with_the_rule() -> None:
    buffer = _plugin_buffer()
    warnings = buffer.submit_joint_state(["a", "b", "c"], [0.1, 0.2, 0.3], [1.0], [], now=0.0)
    assert warnings == [
        "JointState command: velocity has 1 entries for 3 names, of which 2 have a velocity "
        "command interface; velocity ignored (an array has one entry per name, or one per "
        "name with that command interface in <ros2_control>, in name order, or none)"
    ]
    assert buffer.rejections == {"malformed_field": 1}
    np.testing.assert_array_equal(buffer.position[:3], [0.1, 0.2, 0.3])  # position still applied


def test_names_without_values_are_not_refused() -> None:
    """Unknown, follower and uncommandable names are refused only where they carry a value."""
    buffer = _buffer()
    names = ["j1", "zzz", "f1", "j4"]
    assert buffer.submit_joint_state(names, [0.5, np.nan, np.nan, np.nan], [], [], now=0.0) == []
    assert sum(buffer.rejections.values()) == 0 and _value(buffer, "position", "j1") == 0.5
    warnings = buffer.submit_joint_state(names, [0.6, np.nan, 1.0, np.inf], [], [], now=1.0)
    assert buffer.rejections == {"follower_joint": 1, "not_commandable": 1}
    assert (
        "['f1'] follow another joint" in warnings[0] and "['j4'] are not commandable" in warnings[1]
    )


def test_a_message_of_nan_only_commands_nothing() -> None:
    buffer = _buffer()
    buffer.submit_joint_state(["j1"], [0.5], [], [], now=0.0)
    version = buffer.version
    assert (
        buffer.submit_joint_state(["j1", "j2"], [np.nan, np.nan], [np.nan, np.nan], [], now=5.0)
        == []
    )
    assert buffer.last_command_time == 0.0 and buffer.version == version
    assert buffer.mode_name("j1") == "position" and buffer.last_accepted.size == 0


# ---------------------------------------------------------------------------------- reasons
def test_rejection_reasons_by_name() -> None:
    buffer = _buffer()
    warnings = buffer.submit_joint_state(
        ["j1", "zzz", "f1", "j4", "j2", "j2"], [0.5, 1, 2, 3, 4, 5], [], [], now=0.0
    )
    assert buffer.rejections == {
        "unknown_joint": 1,
        "follower_joint": 1,
        "not_commandable": 1,
        "duplicate_joint": 1,
    }
    text = "\n".join(warnings)
    assert "['zzz']" in text and "['f1']" in text and "['j4']" in text and "['j2']" in text
    assert _value(buffer, "position", "j1") == 0.5
    assert np.isnan(_value(buffer, "position", "j2"))  # duplicated: neither value used


def test_not_finite_values_keep_last_command() -> None:
    buffer = _buffer()
    buffer.submit_joint_state(["j1", "j2"], [0.1, 0.2], [], [], now=0.0)
    warnings = buffer.submit_joint_state(["j1", "j2"], [np.inf, -np.inf], [], [], now=1.0)
    assert "infinite for ['j1', 'j2']" in warnings[0]
    assert buffer.rejections["not_finite"] == 2
    assert _value(buffer, "position", "j1") == 0.1 and _value(buffer, "position", "j2") == 0.2
    assert buffer.last_command_time == 0.0  # nothing accepted at t = 1


def test_values_beyond_a_million_are_refused_and_keep_last_command() -> None:
    """1e30 (a typo) would drive a simulation unstable: refused beyond ±1e6, the last good
    command kept; ±1e6 itself is accepted."""
    buffer = _buffer()
    buffer.submit_joint_state(["j1", "j2"], [0.1, 0.2], [], [], now=0.0)
    warnings = buffer.submit_joint_state(["j1", "j2"], [1e30, -1e6 - 1], [], [], now=1.0)
    assert warnings == [
        "position command beyond ±1e+06 for ['j1', 'j2'] (no robot moves that far, that fast or "
        "that hard: a typo?): no new command for them"
    ]
    assert buffer.rejections["too_large"] == 2 and buffer.rejections["not_finite"] == 0
    assert _value(buffer, "position", "j1") == 0.1 and _value(buffer, "position", "j2") == 0.2
    assert buffer.submit_joint_state(["j1"], [1e6], [], [], now=2.0) == []
    assert _value(buffer, "position", "j1") == 1e6


def test_interface_not_available() -> None:
    buffer = _buffer()
    warnings = buffer.submit_joint_state(["j3"], [], [1.0], [], now=0.0)
    assert "no velocity command interface" in warnings[0]
    assert buffer.rejections["interface_not_available"] == 1
    assert np.isnan(_value(buffer, "velocity", "j3"))


def test_wrong_length_array_rejected_whole() -> None:
    buffer = _buffer()
    buffer.submit_array("position", [0.1, 0.2, 0.3], now=0.0)
    warnings = buffer.submit_array("position", [1.0, 2.0], now=1.0)
    assert "2 values for 3 joints" in warnings[0]
    assert buffer.rejections["wrong_length"] == 1
    np.testing.assert_array_equal(buffer.position[:3], [0.1, 0.2, 0.3])
    warnings = buffer.submit_array("position", ["a", "b", "c"], now=1.0)
    assert "not numeric" in warnings[0] and buffer.rejections["wrong_length"] == 2


def test_array_nan_entry_is_no_command_for_that_joint() -> None:
    buffer = _buffer()
    buffer.submit_array("position", [0.1, 0.2, 0.3], now=0.0)
    assert buffer.submit_array("position", [1.0, np.nan, 3.0], now=1.0) == []
    np.testing.assert_array_equal(buffer.position[:3], [1.0, 0.2, 3.0])
    assert sum(buffer.rejections.values()) == 0


def test_array_unknown_interface_is_a_caller_bug() -> None:
    with pytest.raises(CommandError, match="unknown command interface 'torque'"):
        _buffer().submit_array("torque", [1.0, 2.0, 3.0], now=0.0)


def test_array_interface_missing_on_one_joint() -> None:
    buffer = _buffer()
    warnings = buffer.submit_array("velocity", [1.0, 2.0, 3.0], now=0.0)
    assert "['j3'] have no velocity" in warnings[0]
    np.testing.assert_array_equal(buffer.velocity[:2], [1.0, 2.0])
    assert np.isnan(buffer.velocity[2])


def test_reject_counts_and_throttles_logging(caplog: pytest.LogCaptureFixture) -> None:
    buffer = _buffer(throttle_period=1.0)
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.hardware.commands"):
        for t in (0.0, 0.1, 0.5, 1.2):
            buffer.submit_joint_state(["nope"], [1.0], [], [], now=t)
    assert buffer.rejections["unknown_joint"] == 4
    assert caplog.text.count("unknown joints ['nope']") == 2  # t = 0 and t = 1.2


def test_every_reason_is_listed() -> None:
    assert set(REJECTION_REASONS) >= {
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
        "disabled",
    }


# ---------------------------------------------------------------------------------- modes
def _effective(buffer: CommandBuffer, joint: str) -> tuple[float, float, float]:
    k = buffer.joint_names.index(joint)
    p, v, e = buffer.effective()
    return float(p[k]), float(v[k]), float(e[k])


def test_first_command_sets_mode_and_other_interface_switches() -> None:
    buffer = _buffer()
    assert buffer.mode_name("j1") == ""
    buffer.submit_joint_state(["j1"], [0.3], [], [], now=0.0)
    assert buffer.mode_name("j1") == "position"
    assert _effective(buffer, "j1")[0] == 0.3
    buffer.submit_joint_state(["j1"], [], [1.5], [], now=1.0)
    assert buffer.mode_name("j1") == "velocity"
    p, v, e = _effective(buffer, "j1")
    assert math.isnan(p) and v == 1.5 and math.isnan(e)
    assert _value(buffer, "position", "j1") == 0.3  # kept, just not active
    buffer.submit_joint_state(["j1"], [0.4], [0.2], [], now=2.0)
    assert buffer.mode_name("j1") == "position_velocity"
    assert _effective(buffer, "j1")[:2] == (0.4, 0.2)
    buffer.submit_array("effort", [2.0, 3.0, 4.0], now=3.0)  # j3 has no effort interface
    assert buffer.mode_name("j1") == "effort" and buffer.mode_name("j3") == ""
    p, v, e = _effective(buffer, "j1")
    assert math.isnan(p) and math.isnan(v) and e == 2.0
    assert buffer.rejections == {"interface_not_available": 1}


def test_effort_with_position_in_one_message_keeps_the_kind_of_mode() -> None:
    buffer = _buffer()
    buffer.submit_joint_state(["j1", "j2"], [0.1, 0.2], [], [], now=0.0)
    warnings = buffer.submit_joint_state(["j1", "j2"], [0.5, 0.6], [], [1.0, np.nan], now=1.0)
    assert "['j1'] got effort together with position/velocity" in warnings[-1]
    assert "effort ignored" in warnings[-1]
    assert buffer.rejections == {"mode_conflict": 1}
    assert _value(buffer, "position", "j1") == 0.5 and buffer.mode_name("j1") == "position"
    assert np.isnan(_value(buffer, "effort", "j1"))
    assert _value(buffer, "position", "j2") == 0.6
    # a joint in effort mode keeps effort when a message carries both
    buffer.submit_joint_state(["j1"], [], [], [2.0], now=2.0)
    assert buffer.mode_name("j1") == "effort"
    warnings = buffer.submit_joint_state(["j1"], [0.9], [0.1], [3.0], now=3.0)
    assert "are in effort mode" in warnings[0] and "effort applied" in warnings[0]
    assert buffer.mode_name("j1") == "effort"
    assert _value(buffer, "effort", "j1") == 3.0 and _value(buffer, "position", "j1") == 0.5
    assert np.isnan(_value(buffer, "velocity", "j1"))
    assert buffer.rejections["mode_conflict"] == 2


def test_configured_modes_refuse_other_interfaces() -> None:
    buffer = _buffer(command_modes={"j1": "velocity", "j2": "position_velocity"})
    assert buffer.mode_name("j1") == "velocity" and buffer.mode_name("j2") == "position_velocity"
    warnings = buffer.submit_joint_state(["j1", "j2"], [1.0, 2.0], [0.5, 0.6], [], now=0.0)
    assert "['j1'] are configured for another command mode" in warnings[0]
    assert buffer.rejections == {"wrong_mode": 1}
    assert _effective(buffer, "j1")[1] == 0.5 and math.isnan(_effective(buffer, "j1")[0])
    assert _effective(buffer, "j2")[:2] == (2.0, 0.6)
    buffer.submit_joint_state(["j2"], [], [], [3.0], now=1.0)
    assert buffer.rejections["wrong_mode"] == 2 and buffer.mode_name("j2") == "position_velocity"
    buffer.clear()
    assert buffer.mode_name("j1") == "velocity"  # configuration survives clear()


@pytest.mark.parametrize(
    ("modes", "match"),
    [
        ({"j4": "position"}, "not a commandable joint"),
        ({"zzz": "position"}, "not a commandable joint"),
        ({"j1": "torque"}, "has mode 'torque'"),
        ({"j3": "velocity"}, "does not command"),
    ],
)
def test_bad_command_modes(modes: dict, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        _buffer(command_modes=modes)


def test_commandable_must_be_map_joints() -> None:
    with pytest.raises(ConfigError, match="not actuated joints"):
        _buffer(commandable=["j1", "f1"])


def test_apply_source_and_stop() -> None:
    buffer = _buffer(command_modes={"j2": "position"})
    index = np.array([0, 1, 2])
    buffer.apply_source(index, np.array([0.1, 0.2, 0.3]), np.array([1.0, 2.0, 3.0]), now=5.0)
    assert buffer.last_command_time == 5.0
    assert buffer.mode_name("j1") == "position_velocity"
    assert buffer.mode_name("j2") == "position"  # fixed: velocity feed-forward not applied
    assert buffer.mode_name("j3") == "position"  # no velocity interface
    np.testing.assert_array_equal(buffer.velocity[:3], [1.0, np.nan, np.nan])
    buffer.submit_joint_state(["j1"], [], [], [4.0], now=6.0)  # j1 → effort
    buffer.stop(np.array([9.0, 8.0, 7.0, 6.0]))
    p, v, e = buffer.effective()
    np.testing.assert_array_equal(p[:3], [np.nan, 8.0, 7.0])
    np.testing.assert_array_equal(e[:1], [0.0])
    assert np.isnan(p[3])  # j4 had no mode: untouched


def test_stop_zeroes_velocity_and_keeps_position_when_unknown() -> None:
    buffer = _buffer()
    buffer.submit_joint_state(["j1", "j2"], [0.5, np.nan], [], [], now=0.0)
    buffer.submit_joint_state(["j2"], [], [1.0], [], now=0.0)
    buffer.stop(np.array([np.nan, 0.0, 0.0, 0.0]))
    p, v, _ = buffer.effective()
    assert p[0] == 0.5  # measured NaN: the last command holds
    assert v[1] == 0.0


# ---------------------------------------------------------------------------------- case 013
# through the whole cycle, on the case's robot, with the published-state invariants
def test_case013_through_hardware_system(case013: dict, cases_dir: Path) -> None:
    from sdf_bridge.description import load
    from sdf_bridge.hardware import HardwareSystem

    robot = load(cases_dir / "013-jointstate-array-lengths" / case013["file"])
    system = HardwareSystem(robot, "mock", command_timeout=0.0)
    system.read(0.0, 1.0)
    system.submit_joint_state(["j1", "j2", "j3"], [0.0, 0.0, 0.0], [], [], now=0.0)
    now = 0.0
    for message in case013["messages"]:
        now += 1.0
        system.submit_joint_state(
            message["name"],
            message.get("position", []),
            message.get("velocity", []),
            message.get("effort", []),
            now,
        )
        system.write(now, 1.0)
        state = system.read(now, 1.0)
        # published_joint_state_invariants
        assert sorted(state.names) == ["j1", "j2", "j3"] and len(set(state.names)) == 3
        for field in (state.position, state.velocity, state.effort):
            assert len(field) in (0, len(state.names))
        assert not np.isnan(state.position).any()
        # no NaN reaches the hardware for a joint in position mode (m5)
        commanded = system.backend.driver._cmd_p
        for k, joint in enumerate(system.joint_names):
            if system.commands.mode_name(joint) == "position":
                assert np.isfinite(commanded[k]), (message["id"], joint)
        expect = message["expect"]
        for joint, value in expect.get("position_cmd", {}).items():
            assert _value(system.commands, "position", joint) == pytest.approx(value, abs=1e-12)
        for joint, value in expect.get("effort_cmd", {}).items():
            assert _value(system.commands, "effort", joint) == pytest.approx(value, abs=1e-12)
    # m6 (j1 position field malformed) keeps j1 at 0.7; positions reached the mock exactly
    named = dict(zip(state.names, state.position))
    assert named == pytest.approx({"j1": 0.7, "j2": 0.3, "j3": 0.3}, abs=1e-12)
    assert system.diagnostics()["rejected"] == {"malformed_field": 2, "unknown_joint": 1}


# ------------------------------------------------------------------ fast path == detailed path
_NAMES = ("j1", "j2", "j3", "j4", "f1", "zz")
_VALUES = (0.0, 0.25, -1.5, math.nan, math.inf)


def _detailed_only(buffer: CommandBuffer) -> CommandBuffer:
    """``buffer`` with the valid-input fast path switched off (every command takes the
    detailed path of ``_apply``)."""
    buffer._apply_valid = lambda *args: False  # type: ignore[method-assign]  # (fast path off)
    return buffer


def _snapshot(buffer: CommandBuffer) -> tuple:
    return (
        buffer.position.tobytes(),
        buffer.velocity.tobytes(),
        buffer.effort.tobytes(),
        buffer.mode.tobytes(),
        buffer.last_accepted.tolist(),
        buffer.last_command_time,
        buffer.version,
        buffer.mode_version,
        dict(buffer.rejections),
        [np.asarray(a).tobytes() for a in buffer.effective()],
    )


def test_valid_fast_path_equals_detailed_path() -> None:
    """Random JointState and array commands (valid or not, any fields, automatic and fixed
    modes) leave a buffer with the fast path and one without it in bit-identical states
    (arrays, modes, versions, accepted joints, rejection counts) with identical warnings."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    message = st.one_of(
        st.tuples(
            st.just("joint_state"),
            st.lists(st.sampled_from(_NAMES), min_size=0, max_size=4),
            st.lists(st.sampled_from(("position", "velocity", "effort")), max_size=3, unique=True),
            st.data(),
        ),
        st.tuples(
            st.just("array"),
            st.sampled_from(ALL),
            st.lists(st.sampled_from(_VALUES), min_size=3, max_size=3),
            st.none(),
        ),
    )

    @settings(max_examples=300, deadline=DEADLINE)
    @given(
        st.lists(message, min_size=1, max_size=8),
        st.sampled_from(
            [
                {},
                {"j1": "effort"},
                {"j2": "position_velocity"},
                {"j1": "velocity", "j3": "position"},
            ]
        ),
    )
    def check(messages: list, modes: dict) -> None:
        fast, slow = _buffer(command_modes=modes), _detailed_only(_buffer(command_modes=modes))
        for t, msg in enumerate(messages):
            if msg[0] == "array":
                _, interface, values, _ = msg
                results = [b.submit_array(interface, values, now=float(t)) for b in (fast, slow)]
            else:
                _, names, fields, data = msg
                arrays = {
                    f: data.draw(
                        st.lists(st.sampled_from(_VALUES), min_size=len(names), max_size=len(names))
                    )
                    for f in fields
                }
                results = [
                    b.submit_joint_state(
                        names,
                        arrays.get("position", []),
                        arrays.get("velocity", []),
                        arrays.get("effort", []),
                        now=float(t),
                    )
                    for b in (fast, slow)
                ]
            assert results[0] == results[1]
            assert _snapshot(fast) == _snapshot(slow)

    check()


def test_fast_path_is_taken_for_valid_commands() -> None:
    """A valid command is stored by the fast path (the detailed path is not reached)."""
    buffer = _buffer()
    taken: list[bool] = []
    original = CommandBuffer._apply_valid

    def recording(*args) -> bool:
        taken.append(original(buffer, *args))
        return taken[-1]

    buffer._apply_valid = recording  # type: ignore[method-assign, assignment]  # (a recording spy)
    assert buffer.submit_joint_state(["j2", "j1"], [0.5, -0.5], [], [], now=1.0) == []
    assert taken == [True]
    assert _value(buffer, "position", "j1") == -0.5 and _value(buffer, "position", "j2") == 0.5
    assert buffer.mode_name("j1") == "position" and buffer.last_command_time == 1.0
    assert buffer.submit_joint_state(["j1"], [0.1], [], [2.0], now=2.0) != []  # effort + position
    assert taken == [True, False]


# ---------------------------------------------------------------------------------- claims


def test_claims_release_the_position_target_on_a_switch_to_velocity() -> None:
    """A topic-based plugin keeps sending the last position after the position controller is
    deactivated: once only velocity is claimed, that stale position is dropped silently, the
    position target is forgotten and the joint takes the velocity."""
    buffer = _buffer()
    buffer.set_claims(["j1/position", "j2/position"])
    assert buffer.submit_joint_state(["j1", "j2"], [0.5, 0.25], [], [], now=0.0) == []
    assert buffer.mode_name("j1") == "position"
    update = buffer.set_claims(["j1/velocity", "j2/velocity"])
    assert update == ClaimsUpdate(followed=("j1/velocity", "j2/velocity"))
    assert math.isnan(_value(buffer, "position", "j1"))
    assert buffer.mode_name("j1") == ""  # idle: holds where it is until commanded
    # the plugin's message: the stale position (unclaimed) and the new velocity
    assert buffer.submit_joint_state(["j1", "j2"], [0.5, 0.25], [0.3, -0.1], [], now=1.0) == []
    p, v, e = buffer.effective()
    assert (buffer.mode_name("j1"), buffer.mode_name("j2")) == ("velocity", "velocity")
    assert np.isnan(p).all() and np.isnan(e).all()
    assert v[:2].tolist() == [0.3, -0.1]
    assert buffer.rejections["not_claimed"] == 0
    assert buffer.dropped["not_claimed"] == 2  # the two stale positions, counted, no warning


def test_an_array_command_for_an_unclaimed_interface_is_rejected(
    caplog: pytest.LogCaptureFixture,
) -> None:
    buffer = _buffer()
    buffer.set_claims(["j1/velocity"])
    with caplog.at_level(logging.WARNING, logger="sdf_bridge.hardware.commands"):
        warnings = buffer.submit_array("velocity", [0.2, 0.4, math.nan], now=0.0)
    why = "no active controller claims their velocity interface; ignored"
    assert warnings == [f"velocity command for ['j2']: {why}"]
    assert buffer.rejections["not_claimed"] == 1
    assert "(rejected so far for not_claimed: 1)" in caplog.text
    assert _value(buffer, "velocity", "j1") == 0.2
    assert math.isnan(_value(buffer, "velocity", "j2"))


def test_claims_ignore_foreign_names_and_none_stops_following() -> None:
    """A claim counts only for an interface the joint is commanded through: j4 is not
    commandable, j3 commands position only (j3/velocity is as useless as junk)."""
    buffer = _buffer()
    update = buffer.set_claims(
        ["j4/position", "j3/position", "j1/torque", "nope", "j3/velocity", "j3/position"]
    )
    assert update == ClaimsUpdate(
        followed=("j3/position",), ignored=("j4/position", "j1/torque", "nope", "j3/velocity")
    )
    assert buffer.submit_array("position", [1.0, 2.0, 3.0], now=0.0) != []
    assert _value(buffer, "position", "j3") == 3.0
    assert math.isnan(_value(buffer, "position", "j1"))
    assert buffer.set_claims(None) == ClaimsUpdate()
    assert buffer.claimed is None
    assert buffer.submit_array("position", [1.0, 2.0, 3.0], now=1.0) == []
    assert _value(buffer, "position", "j1") == 1.0


def test_claims_naming_nothing_usable_change_nothing() -> None:
    """Junk on the claims topic, or claims of interfaces no joint is commanded through in this
    run (j3 has position only: ``j3/effort``; the newcomer's ``waist/effort`` on a
    position-only arm), leave the buffer as it was: not following, commands still taken; an
    empty list is "none claimed"."""
    buffer = _buffer()
    for junk in (["junk", "j1/torque"], ["j3/effort", "bogus//x", "a" * 100_000]):
        update = buffer.set_claims(junk)
        assert update == ClaimsUpdate(ignored=tuple(junk), refused=True)
        assert buffer.claimed is None
        assert buffer.submit_array("position", [1.0, 2.0, 3.0], now=0.0) == []
        assert _value(buffer, "position", "j1") == 1.0
    assert buffer.set_claims([]) == ClaimsUpdate(released=("j1", "j2", "j3"))
    assert buffer.claimed is not None and not buffer.claimed.any()


def test_a_refused_claims_message_keeps_the_claims_followed() -> None:
    buffer = _buffer()
    buffer.set_claims(["j1/position"])
    assert buffer.set_claims(["j3/effort"]).refused
    np.testing.assert_array_equal(buffer.claimed, [1, 0, 0, 0])


def test_claims_report_the_commanded_joints_they_release_entirely() -> None:
    """j1 (position) keeps a claim, j2 (velocity) loses its only one, j3 was never commanded:
    only j2 is released; a joint whose mode is fixed is released the same way."""
    buffer = _buffer()
    buffer.submit_array("position", [0.1, math.nan, math.nan], now=0.0)
    buffer.submit_joint_state(["j2"], [], [0.5], [], now=0.0)
    update = buffer.set_claims(["j1/position", "j3/position"])
    assert update.released == ("j2",)
    assert buffer.mode_name("j2") == "" and math.isnan(_value(buffer, "velocity", "j2"))
    # j2's velocity from a topic-based plugin: dropped, counted, no warning
    assert buffer.submit_joint_state(["j2"], [], [0.5], [], now=1.0) == []
    assert buffer.dropped["not_claimed"] == 1 and buffer.rejections["not_claimed"] == 0
    fixed = _buffer(command_modes={"j2": "velocity", "j3": "position"})
    fixed.submit_array("position", [math.nan, math.nan, 0.3], now=0.0)
    assert fixed.set_claims(["j1/position"]).released == ("j3",)  # (j2 had no command)
