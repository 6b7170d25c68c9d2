"""The checks of ``bench/survey.py``, one function per column, on one loaded robot.

* :func:`check_convert`: ``convert``'s SDFormat output against libsdformat 12 (the C++ probe
  ``test/description/sdf/libsdformat_probe.cpp``, compiled once per run): the output loads
  without errors, and its link poses, joint axes, joint types and axis limits equal
  libsdformat's reading of the original file (URDF: libsdformat lumps fixed joints, so the
  output compared is ``convert --lump-fixed``'s; the unlumped output must load too).
* :func:`check_mock`: the mock backend through :class:`~sdf_bridge.hardware.HardwareSystem`,
  one simulated second at the node's default update rate (100 Hz), every tick's joint state
  converted to the ``sensor_msgs/JointState`` the node publishes
  (:class:`~sdf_bridge.ros.conversions.JointStateWriter`); the joints published must be the
  robot's published joints (:func:`expected_joint_names`).
* :func:`check_mujoco`: the MuJoCo backend, :data:`MUJOCO_SECONDS` simulated with no command:
  the largest joint drift from the first state (rad or m), NaN, instabilities, and the loop's
  tick rate in process (ticks per wall second, the real-time factor is rate / 100 Hz). Sensors
  are read as the node asks for them (:meth:`HardwareSystem.set_sensor_demand`: each until its
  first reading); each first reading is converted by the node's code
  (:func:`sdf_bridge.ros.conversions.sensor_messages`) and judged by :func:`plausible`.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sdf_bridge.atmosphere import air_pressure
from sdf_bridge.backends.sensor_readings import (
    ContactReading,
    FluidPressureReading,
    ImageReading,
    ImuReading,
    MagneticFieldReading,
    NavSatReading,
    PointCloudReading,
    RangeReading,
    ScanReading,
    SensorReading,
    WrenchReading,
)
from sdf_bridge.description.export import to_sdf
from sdf_bridge.description.model import (
    AirPressureParams,
    Environment,
    RayParams,
    Robot,
    Sensor,
    SphericalCoordinates,
)
from sdf_bridge.errors import SdfBridgeError
from sdf_bridge.hardware import HardwareSystem

REPO = Path(__file__).resolve().parents[1]
PROBE_SOURCE = REPO / "test" / "description" / "sdf" / "libsdformat_probe.cpp"
UPDATE_RATE = 100.0
"""Hz: the node's default ``update_rate``; every run ticks at dt = 1 / this."""
MUJOCO_SECONDS = 5.0
"""s simulated on MuJoCo with no command."""
DRIFT_LIMIT = 0.02
"""rad (or m): the largest drift under gravity a fixed-base robot may show."""
POSE_TOLERANCE = 1e-6
"""m and rotation-matrix entries: link poses and joint axes compared with libsdformat."""
UNLIMITED = 1e15
"""Position limits at or beyond this (libsdformat's unset ±1e16) mean "not limited"."""


@dataclass
class Check:
    """A column's result: ``ok`` and the cell ``text`` (the first problem when not ok)."""

    ok: bool
    text: str
    details: dict = field(default_factory=dict)


# -- libsdformat ---------------------------------------------------------------------------------


class Probe:
    """libsdformat 12 through the reference probe, built once into a temporary directory;
    ``available`` is false (``why`` says why) when g++, pkg-config or libsdformat-dev is
    missing."""

    def __init__(self) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="survey_probe_")
        self.exe: Path | None = None
        self.why = ""
        flags = (
            subprocess.run(
                ["pkg-config", "--cflags", "--libs", "sdformat12"], capture_output=True, text=True
            )
            if shutil.which("pkg-config") and shutil.which("g++")
            else None
        )
        if flags is None or flags.returncode != 0:
            self.why = "libsdformat not installed (apt-get install g++ pkg-config libsdformat-dev)"
            return
        exe = Path(self._dir.name) / "probe"
        built = subprocess.run(
            ["g++", "-O2", "-o", str(exe), str(PROBE_SOURCE), *flags.stdout.split()],
            capture_output=True,
            text=True,
        )
        if built.returncode != 0:
            self.why = "building the libsdformat probe failed: " + built.stderr[-300:]
            return
        self.exe = exe

    @property
    def available(self) -> bool:
        return self.exe is not None

    def read(self, path: Path, sdf_paths: tuple[str, ...] = ()) -> dict:
        """libsdformat's view of ``path`` (see the probe's header); ``errors`` holds a timeout
        or crash of the probe too."""
        env = dict(os.environ)
        if sdf_paths:
            joined = os.pathsep.join(sdf_paths)
            for var in ("SDF_PATH", "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH"):
                env[var] = joined + (os.pathsep + env[var] if env.get(var) else "")
        try:
            out = subprocess.run(
                [str(self.exe), str(path)],
                capture_output=True,
                text=True,
                cwd=path.parent,
                env=env,
                timeout=120,
            )
        except subprocess.TimeoutExpired:
            return {"errors": ["libsdformat probe timed out"], "models": {}}
        if out.returncode != 0 or not out.stdout.strip():
            return {
                "errors": [
                    f"libsdformat probe failed ({out.returncode}): {out.stderr.strip()[-200:]}"
                ],
                "models": {},
                "console_errors": [],
                "warnings": [],
            }
        view = json.loads(out.stdout)
        view["console_errors"] = console_messages(out.stderr, "Error")
        view["warnings"] = console_messages(out.stderr, "Warning")
        return view

    def close(self) -> None:
        self._dir.cleanup()


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CONSOLE = re.compile(r"^(Error|Warning) \[[^\]]*\]\s*(.*)$")


def console_messages(stderr: str, level: str) -> list[str]:
    """The ``<level> [file:line] message`` lines (``level``: ``Error`` or ``Warning``) that
    libsdformat prints to its console, messages only (colour codes removed). Some of its errors
    are printed only, not returned (``Unable to convert from SDF version 1.12 to 1.9``)."""
    found = []
    for line in _ANSI.sub("", stderr).splitlines():
        match = _CONSOLE.match(line.strip())
        if match and match.group(1) == level and match.group(2).strip():
            found.append(match.group(2).strip())
    return found


def _first_error(errors: list[str]) -> str:
    return " ".join(errors[0].split())[:160] + (
        f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
    )


def _limit_values(values: list[float] | None) -> tuple[float | None, ...]:
    """libsdformat's [lower, upper, effort, velocity] with its "unset" values as ``None``."""
    if values is None:
        return (None, None, None, None)
    lower, upper, effort, velocity = values
    return (
        lower if abs(lower) < UNLIMITED else None,
        upper if abs(upper) < UNLIMITED else None,
        effort if 0 <= effort < math.inf else None,
        velocity if 0 <= velocity < math.inf else None,
    )


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _kind(limits: dict) -> str:
    """A probe joint type, with libsdformat's URDF reading of continuous joints (revolute,
    unlimited) named continuous."""
    if limits["type"] == "revolute" and _limit_values(limits.get("axis"))[:2] == (None, None):
        return "continuous"
    return limits["type"]


def compare_models(
    ref: dict, ours: dict, dropped: set[str] = frozenset(), added: set[str] = frozenset()
) -> str | None:
    """The first difference between two probe model views (links, poses, joint types, axes,
    limits), or ``None``. ``dropped``: links libsdformat leaves out of the original (URDF links
    without mass on joints it does not lump, with their subtrees), present in ours only;
    ``added``: links and joints libsdformat adds to (or redefines in) a URDF from the raw
    SDFormat of its ``<gazebo>`` blocks (the PR2's parallel grippers), not compared."""
    ref, ours = (
        {
            **view,
            "links": {k: v for k, v in view["links"].items() if k not in added},
            "joints": {k: v for k, v in view["joints"].items() if k not in added},
        }
        for view in (ref, ours)
    )
    missing = sorted(set(ref["links"]) - set(ours["links"]))
    extra = sorted(set(ours["links"]) - set(ref["links"]) - dropped)
    if missing or extra:
        return f"links differ: libsdformat only {missing[:3]}, ours only {extra[:3]}"
    for name, pose in ref["links"].items():
        delta = float(np.abs(np.asarray(pose) - np.asarray(ours["links"][name])).max())
        if delta > POSE_TOLERANCE:
            return f"link {name!r} pose differs by {delta:.3g}"
    missing = sorted(set(ref["joints"]) - set(ours["joints"]))
    if missing:
        return f"joints differ: libsdformat only {missing[:3]}"
    for name, axes in ref["joints"].items():
        ref_type, our_type = _kind(ref["limits"][name]), _kind(ours["limits"][name])
        if ref_type != our_type:
            return f"joint {name!r} is {our_type}, libsdformat reads {ref_type}"
        if ref_type == "fixed":
            continue
        for which, vec in axes.items():
            other = ours["joints"][name].get(which)
            if other is None:
                return f"joint {name!r} has no {which}"
            delta = float(np.abs(np.asarray(vec) - np.asarray(other)).max())
            if delta > POSE_TOLERANCE:
                return f"joint {name!r} {which} differs by {delta:.3g}"
            a = _limit_values(ref["limits"][name].get(which))
            b = _limit_values(ours["limits"][name].get(which))
            if ref_type == "continuous":
                a, b = a[2:], b[2:]
            if not all(_same(x, y) for x, y in zip(a, b)):
                return (
                    f"joint {name!r} {which} limits {b} (lower, upper, effort, velocity), "
                    f"libsdformat {a}"
                )
    return None


def gazebo_sdf_names(robot: Robot) -> set[str]:
    """Links and joints defined as raw SDFormat inside a URDF's ``<gazebo>`` blocks (libsdformat
    adds them to the model, or redefines the URDF's; the bridge does neither)."""
    import re

    return {
        name
        for ext in robot.gazebo
        for name in re.findall(r'<(?:link|joint) name="([^"]+)"', ext.raw_xml)
    }


def _massless(robot: Robot, name: str) -> bool:
    link = robot.links[name]
    return link.inertial is None or link.inertial.mass <= 0.0


def behind_massless(robot: Robot) -> dict[str, str]:
    """Links libsdformat 12's URDF reader may leave out, each → the massless link it is behind:
    a link without ``<inertial>`` or with mass ≤ 0 (not the root, not ``world``) is "not modeled
    in sdf" and nothing below it is read unless lumped into a link that is (``parser_urdf.cc``
    ``CreateSDF``; measured on libsdformat 12.3: a revolute joint behind a massless link on a
    fixed joint is dropped with its child, silently). The massless link itself included."""
    out: dict[str, str] = {}
    roots = {name for name in robot.links if robot.parent_joint(name) is None}
    for name in robot.links:
        if name in roots or name == "world" or not _massless(robot, name):
            continue
        stack = [name]
        while stack:
            current = stack.pop()
            out.setdefault(current, name)
            stack.extend(j.child for j in robot.child_joints(current))
    return out


def misreading(
    robot: Robot, ref: dict, model_name: str, ours: dict, is_urdf: bool
) -> tuple[str | None, set[str]]:
    """Why libsdformat's reading ``ref`` (a probe view) of the original is not a reference
    for ``ours`` (the probe view of the lumped output): the first reason, or ``None``; and
    the links it leaves out that are frames only (massless after lumping: compared without
    them). Reasons: no link with mass (URDF), its errors (returned, or printed only; printed
    ones are not counted on the ``convert`` output, since libsdformat 12 prints one for every
    SDFormat 1.11 file, which it still reads), its console warnings, a URDF fixed joint with
    ``disableFixedJointLumping`` (read as a revolute joint locked at [0, 0]), links with mass
    it leaves out behind a massless link (:func:`behind_massless`)."""
    if is_urdf and all(_massless(robot, name) for name in robot.links if name != "world"):
        return "no link has mass: it models none", set()
    errors = ref["errors"] + ref.get("console_errors", [])
    if errors:
        return f"error: {_first_error(errors)}", set()
    if ref.get("warnings"):
        return f"warning: {_first_error(ref['warnings'])}", set()
    if not is_urdf:
        return None, set()
    unlumped = sorted(
        ext.reference
        for ext in robot.gazebo
        if ext.reference in robot.joints
        and robot.joints[ext.reference].type == "fixed"
        and (ext.property("disableFixedJointLumping") or "").strip().lower() in ("true", "1")
    )
    if unlumped:
        return (
            f"reads fixed joint {unlumped[0]!r} (disableFixedJointLumping) as revolute [0, 0]"
            + (f", +{len(unlumped) - 1} more" if len(unlumped) > 1 else ""),
            set(),
        )
    from sdf_bridge.description.export import lump_fixed_joints

    lumped = lump_fixed_joints(robot)
    behind = behind_massless(robot)
    lost = set(ours["links"]) - set(ref["models"][model_name]["links"])
    explained = {name for name in lost if name in behind}
    heavy = sorted(name for name in explained if not _massless(lumped, name))
    if heavy:
        anchors = sorted({behind[name] for name in heavy})
        return (
            f"drops {heavy[:3]}{', …' if len(heavy) > 3 else ''} (with mass) behind massless "
            f"{anchors[:2]}",
            explained,
        )
    return None, explained | (dropped_by_libsdformat(robot) & lost)


def dropped_by_libsdformat(robot: Robot) -> set[str]:
    """Links libsdformat's URDF reader leaves out (``parser_urdf.cc`` ``CreateSDF``: a link
    without ``<inertial>`` or with mass ≤ 0 whose parent joint is not lumped, the root included,
    is "not modeled in sdf", with its subtree), computed on the lumped robot."""
    from sdf_bridge.description.export import lump_fixed_joints

    lumped = lump_fixed_joints(robot)
    out: set[str] = set()
    for name, link in lumped.links.items():
        parent = lumped.parent_joint(name)
        if name == "world" or (
            parent is not None and parent.parent == "world" and parent.type == "fixed"
        ):
            continue
        if link.inertial is None or link.inertial.mass <= 0.0:
            stack = [name]
            while stack:
                current = stack.pop()
                out.add(current)
                stack.extend(j.child for j in lumped.child_joints(current))
    return out


NOT_COMPARED = "n/a: libsdformat misreads the original"
"""Start of a convert cell whose output loads but is not compared (the reason follows)."""


def check_convert(
    robot: Robot,
    original: Path,
    is_urdf: bool,
    probe: Probe,
    model_name: str,
    sdf_paths: tuple[str, ...],
    work: Path,
) -> Check:
    """``convert`` output loads in libsdformat and reads as libsdformat reads ``original``;
    compared only where libsdformat reads the original right (:func:`misreading`), else the
    cell says ``n/a: libsdformat misreads the original (why)`` and passes (the output loading
    without errors is still required)."""
    if not probe.available:
        return Check(False, f"n/a: {probe.why}")
    try:
        plain = to_sdf(robot)
        lumped = to_sdf(robot, lump_fixed=True) if is_urdf else plain
    except SdfBridgeError as exc:
        return Check(False, f"convert fails: {str(exc)[:160]}")
    out = work / "converted.sdf"
    out.write_text(plain, encoding="utf-8")
    view = probe.read(out)
    if view["errors"]:
        return Check(False, f"libsdformat: {_first_error(view['errors'])}")
    if is_urdf:
        out = work / "converted_lumped.sdf"
        out.write_text(lumped, encoding="utf-8")
        view = probe.read(out)
        if view["errors"]:
            return Check(False, f"libsdformat (lumped): {_first_error(view['errors'])}")
    ref = probe.read(original, sdf_paths)
    if model_name not in ref["models"]:
        why = _first_error(ref["errors"]) if ref["errors"] else f"no model {model_name!r}"
        return Check(True, f"{NOT_COMPARED} (cannot read it: {why})", {"reason": why})
    ours = next(iter(view["models"].values()))
    reason, dropped = misreading(robot, ref, model_name, ours, is_urdf)
    if reason is not None:
        return Check(True, f"{NOT_COMPARED} ({reason})", {"reason": reason})
    added = gazebo_sdf_names(robot) if is_urdf else set()
    difference = compare_models(ref["models"][model_name], ours, dropped, added)
    if difference is not None:
        return Check(False, difference)
    note = ""
    if dropped:
        note += (
            " (libsdformat drops massless "
            f"{sorted(dropped)[:2]}{', …' if len(dropped) > 2 else ''})"
        )
    if added:
        note += f" ({len(added)} links/joints of <gazebo> SDF not compared)"
    return Check(True, "ok" + note)


# -- backends ------------------------------------------------------------------------------------


def expected_joint_names(robot: Robot) -> tuple[set[str], dict[str, str]]:
    """The joints the node must publish in ``joint_states`` (every movable joint but those the
    bridge documents as not exposed), and those not exposed with why
    (:func:`sdf_bridge.transmissions.exposure.unexposed_joints`)."""
    from sdf_bridge.transmissions.exposure import unexposed_joints

    unexposed = unexposed_joints(robot)
    return {
        n for n, j in robot.joints.items() if j.type.is_movable and n not in unexposed
    }, unexposed


def check_mock(robot: Robot) -> Check:
    """One simulated second on the mock backend; every published joint present and the tick rate."""
    from sdf_bridge.ros.conversions import JointStateWriter, time_msg

    try:
        hw = HardwareSystem(
            robot, "mock", command_timeout=0.0, timed=False, update_rate=UPDATE_RATE
        )
    except SdfBridgeError as exc:
        return Check(False, f"{type(exc).__name__}: {str(exc)[:160]}")
    try:
        writer = JointStateWriter(hw.state_names)
        dt, n = 1.0 / UPDATE_RATE, int(UPDATE_RATE)
        start = time.perf_counter()
        for k in range(n):
            state = hw.cycle(k * dt, dt)
            writer.fill(state.position, state.velocity, state.effort, time_msg(k * dt))
        rate = n / (time.perf_counter() - start)
    finally:
        hw.close()
    expected, unexposed = expected_joint_names(robot)
    missing = sorted(expected - set(writer.msg.name))
    aside = f" ({len(unexposed)} not exposed, warned)" if unexposed else ""
    if missing:
        return Check(False, f"{len(missing)} joint(s) not published: {missing[:4]}")
    if rate < UPDATE_RATE:
        return Check(
            False, f"{len(writer.msg.name)} joints at {rate:.0f} Hz < {UPDATE_RATE:g} Hz{aside}"
        )
    return Check(True, f"{len(writer.msg.name)} @ {rate:.0f} Hz{aside}", {"unexposed": unexposed})


GROUND_CLEARANCE = 0.05
"""m between the ground plane and the lowest point a fixed-base robot can reach."""


def _moving_solid(model, geom: int) -> bool:  # noqa: ANN001 (a mujoco.MjModel)
    """A collision geom on a body that moves (geoms welded to the world never touch the ground
    plane in MuJoCo: both are static)."""
    body = int(model.geom_bodyid[geom])
    collides = bool(model.geom_contype[geom] or model.geom_conaffinity[geom])
    return collides and body != 0 and int(model.body_weldid[body]) != 0


def reach_below_root(model) -> dict[int, float]:  # noqa: ANN001 (a mujoco.MjModel)
    """Root body id → an upper bound (m) of how far any collision geom of its subtree can get
    from the root's origin in any configuration: along each path, body offsets, twice each
    joint anchor's distance (a rotation about an anchor moves the frame by at most that), the
    largest travel of a slide joint (unlimited: ``inf``), then the geom's offset and bounding
    radius."""
    import mujoco

    reach = np.zeros(model.nbody)
    root = np.zeros(model.nbody, dtype=int)
    for body in range(1, model.nbody):
        parent = int(model.body_parentid[body])
        root[body] = body if parent == 0 else root[parent]
        reach[body] = 0.0 if parent == 0 else reach[parent] + np.linalg.norm(model.body_pos[body])
    for joint in range(model.njnt):
        body = int(model.jnt_bodyid[joint])
        extra = 2.0 * float(np.linalg.norm(model.jnt_pos[joint]))
        if model.jnt_type[joint] == mujoco.mjtJoint.mjJNT_SLIDE:
            limited = bool(model.jnt_limited[joint])
            extra += float(np.abs(model.jnt_range[joint]).max()) if limited else math.inf
        stack = [body]
        while stack:  # the joint moves its body's subtree
            current = stack.pop()
            reach[current] += extra
            stack.extend(int(b) for b in np.nonzero(model.body_parentid == current)[0] if b)
    out: dict[int, float] = {}
    for geom in range(model.ngeom):
        body = int(model.geom_bodyid[geom])
        if not _moving_solid(model, geom):
            continue
        bound = reach[body] + np.linalg.norm(model.geom_pos[geom]) + model.geom_rbound[geom]
        out[int(root[body])] = max(out.get(int(root[body]), 0.0), float(bound))
    return out


def clear_of_ground(robot: Robot) -> tuple[dict, str]:
    """Backend parameters that keep a fixed-base robot off the ground plane in every
    configuration (a hand pressed into the floor is contact, not drift), and a note for the
    cell: the base lifted by the reach bound (:func:`reach_below_root`) when that is needed,
    or no ground plane where the base cannot be moved (a URDF ``world`` root link, a reach
    without bound). A robot of an SDFormat world keeps the world as it is (its own ground)."""
    from sdf_bridge.backends.mujoco.builder import BuildOptions, build_spec, compile_model

    if robot.world is not None:
        return {}, ""
    try:
        model = compile_model(build_spec(robot, BuildOptions(ground_plane=False)))
    except SdfBridgeError:
        return {}, ""  # the run itself reports why
    reach = reach_below_root(model)
    if not reach:
        return {}, ""
    lowest = min(float(model.body_pos[body][2]) - bound for body, bound in reach.items())
    lift = GROUND_CLEARANCE - lowest
    if lift <= 0.0:
        return {}, ""
    if "world" in robot.links or not math.isfinite(lift):
        # the base cannot be lifted: no ground plane if the start pose touches it
        import mujoco

        data = mujoco.MjData(model)
        mujoco.mj_forward(model, data)
        low = min(
            (
                data.geom_xpos[g][2]
                + float(data.geom_xmat[g].reshape(3, 3)[2] @ model.geom_aabb[g][:3])
                - float(np.abs(data.geom_xmat[g].reshape(3, 3)[2]) @ model.geom_aabb[g][3:])
                for g in range(model.ngeom)
                if _moving_solid(model, g)
            ),
            default=math.inf,
        )
        if low < GROUND_CLEARANCE:
            return {"ground_plane": False}, "no ground plane: the start pose touches it"
        return {}, ""
    xyz, rpy = robot.pose.xyz, robot.pose.rpy
    return (
        {"base_pose": [xyz[0], xyz[1], xyz[2] + lift, *rpy], "lift_above_ground": False},
        f"base lifted {lift:.2f} m",
    )


@dataclass
class MujocoRun:
    """The MuJoCo column and the sensors column of one robot."""

    run: Check
    sensors: Check


def check_mujoco(robot: Robot, *, fixed_base: bool = True, cameras: bool = True) -> MujocoRun:
    """:data:`MUJOCO_SECONDS` on MuJoCo with no command: drift, NaN, rate; first sensor readings.
    A fixed base is kept clear of the ground in every configuration (:func:`clear_of_ground`)."""
    from sdf_bridge.ros.conversions import sensor_messages, time_msg

    params: dict = {"render_cameras": cameras, "fixed_base": fixed_base}
    placement = ""
    if fixed_base:
        lifted, placement = clear_of_ground(robot)
        params.update(lifted)
    try:
        hw = HardwareSystem(
            robot,
            "mujoco",
            command_timeout=0.0,
            timed=False,
            update_rate=UPDATE_RATE,
            backend_params=params,
        )
    except SdfBridgeError as exc:
        failed = Check(False, f"{type(exc).__name__}: {str(exc)[:160]}")
        return MujocoRun(failed, Check(not robot.sensors, "not run" if robot.sensors else "-"))
    first: dict[str, object] = {}
    try:
        waiting = {s.name for s in robot.sensors}
        hw.set_sensor_demand(waiting)
        dt, n = 1.0 / UPDATE_RATE, int(round(MUJOCO_SECONDS * UPDATE_RATE))
        names = hw.state_names
        floating = np.array(
            [j in robot.joints and robot.joints[j].type == "floating" for j in names], dtype=bool
        )
        q0, drift, finite = None, np.zeros(len(names)), True
        start = time.perf_counter()
        for k in range(n):
            state = hw.cycle(k * dt, dt)
            for name, reading in state.sensors.items():
                if name not in first:
                    first[name] = reading
                    waiting.discard(name)
                    hw.set_sensor_demand(waiting)
            q = np.asarray(state.position, dtype=float)
            finite &= bool(np.isfinite(q).all() and np.isfinite(state.velocity).all())
            if q0 is None:
                q0 = q.copy()
            drift = np.fmax(drift, np.abs(q - q0))
        rate = n / (time.perf_counter() - start)
        instabilities = int(getattr(hw.backend, "instabilities", 0))
    finally:
        hw.close()
    drift[floating] = 0.0
    worst = int(np.argmax(drift)) if len(drift) else -1
    worst_text = f" ({names[worst]})" if worst >= 0 and drift[worst] > 0 else ""
    text = f"drift {float(drift.max(initial=0.0)):.3g}{worst_text}, {rate / UPDATE_RATE:.1f}× rt"
    if placement:
        text += f" ({placement})"
    ok = (
        finite
        and instabilities == 0
        and (not fixed_base or float(drift.max(initial=0.0)) < DRIFT_LIMIT)
    )
    if not finite:
        text = "NaN state; " + text
    if instabilities:
        text = f"{instabilities} instabilities; " + text
    sensors = judge_sensors(
        robot, first, lambda reading, frame: sensor_messages(reading, time_msg(0.0), frame)
    )
    return MujocoRun(
        Check(ok, text, {"drift": drift.tolist(), "names": list(names), "rate": rate}), sensors
    )


# -- sensors -------------------------------------------------------------------------------------


NAV_DISTANCE = 10_000.0
"""m: how far from the world origin a navigation sensor's first reading may place it."""


def _plausible_nav(
    sensor: Sensor,
    reading: NavSatReading | MagneticFieldReading | FluidPressureReading,
    environment: Environment,
) -> str | None:
    """:func:`plausible` for NavSat, magnetometer and air pressure readings."""
    if isinstance(reading, NavSatReading):
        values = (reading.latitude, reading.longitude, reading.altitude)
        if not np.isfinite(values).all():
            return "non-finite fix"
        origin = environment.spherical_coordinates or SphericalCoordinates()
        lat0, lon0, alt0 = origin.latitude_deg, origin.longitude_deg, origin.elevation
        degrees = NAV_DISTANCE / 111_000.0  # ~ m per degree of latitude on the earth
        east = ((reading.longitude - lon0 + 180.0) % 360.0 - 180.0) * math.cos(math.radians(lat0))
        if (
            abs(reading.latitude - lat0) > degrees
            or abs(east) > degrees
            or abs(reading.altitude - alt0) > NAV_DISTANCE
        ):
            return f"fix {values} more than {NAV_DISTANCE:g} m from the origin {lat0, lon0, alt0}"
        return None
    if isinstance(reading, MagneticFieldReading):
        spread = 4.0 * math.sqrt(max(reading.variance or (0.0,)))
        field, world = np.linalg.norm(reading.field), np.linalg.norm(environment.magnetic_field)
        if not np.isfinite(reading.field).all() or abs(field - world) > 0.2 * world + spread:
            return f"|field| {field:.3g} T instead of the world's {world:.3g} T"
        return None
    params = sensor.params if isinstance(sensor.params, AirPressureParams) else AirPressureParams()
    expected = air_pressure(params.reference_altitude)
    if not abs(reading.pressure - expected) <= 0.1 * expected + 4.0 * math.sqrt(reading.variance):
        return f"{reading.pressure:.6g} Pa, {expected:.6g} Pa at the reference altitude"
    return None


def plausible(
    sensor: Sensor, reading: SensorReading, environment: Environment = Environment()
) -> str | None:
    """Why ``reading`` is not a plausible first reading of ``sensor`` (fixed base, at rest, no
    command) in a world of ``environment``, or ``None``: finite IMU values with a specific force
    within 20 % of 9.81 m/s²; finite wrenches; scans and ranges within [range_min, range_max] or
    ±inf (REP-117) and, for sensors reaching 1 m or more, not most rays below 5 cm (a lidar
    seeing its own link); images of the described size, not all one value; contacts with finite
    values; a NavSat fix within :data:`NAV_DISTANCE` of the world origin; a magnetic field whose
    magnitude is the world's within 20 % (+ 4 σ of its noise); an air pressure within 10 % (+ 4 σ)
    of the 1976 standard atmosphere's at the sensor's reference altitude."""
    if isinstance(reading, (NavSatReading, MagneticFieldReading, FluidPressureReading)):
        return _plausible_nav(sensor, reading, environment)
    if isinstance(reading, ImuReading):
        values = np.concatenate([reading.angular_velocity, reading.linear_acceleration])
        if not np.isfinite(values).all():
            return "non-finite IMU values"
        g = float(np.linalg.norm(reading.linear_acceleration))
        return None if 0.8 * 9.81 <= g <= 1.2 * 9.81 else f"|acceleration| {g:.3g} m/s² at rest"
    if isinstance(reading, WrenchReading):
        ok = np.isfinite(np.concatenate([reading.force, reading.torque])).all()
        return None if ok else "non-finite wrench"
    if isinstance(reading, (ScanReading, RangeReading, PointCloudReading)):
        if isinstance(reading, PointCloudReading):
            points = np.asarray(reading.points, dtype=float).reshape(-1, 3)
            ranges = np.linalg.norm(points, axis=1)
            lo, hi = (
                (sensor.params.range_min, sensor.params.range_max)
                if isinstance(sensor.params, RayParams)
                else (0.0, math.inf)
            )
            ranges = ranges[np.isfinite(ranges)]
        else:
            ranges = np.atleast_1d(
                np.asarray(
                    reading.ranges if isinstance(reading, ScanReading) else reading.range,
                    dtype=float,
                )
            )
            lo, hi = (
                (reading.range_min, reading.range_max)
                if isinstance(reading, ScanReading)
                else (reading.min_range, reading.max_range)
            )
            if np.isnan(ranges).any():
                return "NaN ranges"
            finite = ranges[np.isfinite(ranges)]
            if ((finite < lo - 1e-6) | (finite > hi + 1e-6)).any():
                return f"ranges outside [{lo:g}, {hi:g}] m (REP-117: -inf / +inf)"
            ranges = finite
        # a lidar, not a cliff sensor
        if hi >= 1.0 and len(ranges) and float(np.mean(ranges < 0.05)) > 0.5:
            return (
                f"{float(np.mean(ranges < 0.05)):.0%} of the rays hit within 5 cm (its own link?)"
            )
        return None
    if isinstance(reading, ImageReading):
        data = np.asarray(reading.data)
        params = sensor.params
        if params is not None and data.shape[:2] != (params.height, params.width):
            return f"image {data.shape[:2]} instead of {(params.height, params.width)}"
        if data.size == 0 or (reading.encoding == "rgb8" and data.min() == data.max()):
            return "blank image"
        return None
    if isinstance(reading, ContactReading):
        values = [v for c in reading.contacts for v in (*c.position, *c.normal, *c.force)]
        return None if np.isfinite(values).all() else "non-finite contact values"
    return f"unexpected reading {type(reading).__name__}"


def judge_sensors(
    robot: Robot, first: Mapping[str, object], to_messages: Callable[[object, str], dict]
) -> Check:
    """The sensors column: how many of the robot's sensors gave a plausible first reading that
    converts to ROS messages; the first failure named."""
    if not robot.sensors:
        return Check(True, "-")
    problems: list[str] = []
    for sensor in robot.sensors:
        reading = first.get(sensor.name)
        if reading is None:
            problems.append(f"{sensor.name} ({sensor.type}): no reading")
            continue
        try:
            to_messages(reading, sensor.ros_frame_id)
        except (SdfBridgeError, ValueError) as exc:
            problems.append(f"{sensor.name}: no message ({exc})")
            continue
        why = plausible(sensor, reading, robot.environment)
        if why is not None:
            problems.append(f"{sensor.name} ({sensor.type}): {why}")
    good = len(robot.sensors) - len(problems)
    text = f"{good}/{len(robot.sensors)}" + (f"; {problems[0]}" if problems else "")
    return Check(not problems, text, {"problems": problems})


def quiet_logging() -> None:
    """Keep the library's warnings (collected per row) off the terminal."""
    logging.getLogger("sdf_bridge").setLevel(logging.ERROR)
