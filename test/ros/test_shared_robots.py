"""The bridge runs on every URDF robot of shared/robots (the flattened ``<name>.urdf``) with the
mock backend for 2 s and publishes every non-fixed joint.

The bridges run side by side, each in its own namespace (``/<robot>/joint_states``)."""

from __future__ import annotations

import math
from pathlib import Path

from sensor_msgs.msg import JointState

from sdf_bridge.description import load

from .conftest import Probe

PUBLISH_RATE = 50.0
RUN_TIME = 2.0  # s of joint_states checked per robot
BATCH = 3  # bridges started at once (the machine has 2 cores)


def urdf_robots(robots_dir: Path) -> list[Path]:
    """The flattened URDF of every robot directory."""
    return sorted(
        p for d in robots_dir.iterdir() if d.is_dir() for p in [d / f"{d.name}.urdf"] if p.is_file()
    )


def test_corpus_has_urdf_robots(robots_dir: Path) -> None:
    assert len(urdf_robots(robots_dir)) >= 9


def test_bridge_on_every_urdf_robot(start_bridge, probe: Probe, robots_dir: Path) -> None:
    files = urdf_robots(robots_dir)
    failures: list[str] = []
    for i in range(0, len(files), BATCH):
        batch = files[i : i + BATCH]
        running = []
        for f in batch:
            name = f.stem
            topic = f"/{name}/joint_states"
            probe.watch(topic, JointState)
            bridge = start_bridge(
                {"description_file": str(f), "backend": "mock", "publish_rate": PUBLISH_RATE},
                name="bridge",
                extra=["-r", f"__ns:=/{name}"],
            )
            running.append((f, topic, bridge))
        for f, topic, bridge in running:
            probe.wait_ready(bridge, topic)
        start = {topic: len(probe.messages[topic]) for _, topic, _ in running}
        probe.spin_for(RUN_TIME)
        for f, topic, bridge in running:
            robot = load(f)
            movable = sorted(n for n, j in robot.joints.items() if j.type.value != "fixed")
            msgs = probe.messages[topic][start[topic] :]
            code = bridge.stop()
            if code != 0:
                failures.append(f"{f.name}: exit code {code}\n{bridge.output()[-2000:]}")
            # 2 s at 50 Hz = 100 messages; at least a quarter must have arrived on a loaded machine
            if len(msgs) < RUN_TIME * PUBLISH_RATE / 4:
                failures.append(f"{f.name}: only {len(msgs)} joint_states in {RUN_TIME} s")
                continue
            for m in msgs:
                if sorted(m.name) != movable or len(m.position) != len(m.name):
                    failures.append(
                        f"{f.name}: joint_states names {sorted(m.name)} != non-fixed joints "
                        f"{movable}"
                    )
                    break
                if not all(math.isfinite(p) for p in m.position):
                    failures.append(
                        f"{f.name}: non-finite position in {list(zip(m.name, m.position))}"
                    )
                    break
    assert not failures, "\n".join(failures)


def sdf_models(robots_dir: Path) -> list[Path]:
    """The flattened SDFormat file of every robot directory holding a single model."""
    files = sorted(
        p for d in robots_dir.iterdir() if d.is_dir() for p in [d / f"{d.name}.sdf"] if p.is_file()
    )
    return [f for f in files if not hasattr(load(f), "models")]


def test_bridge_on_every_sdf_model(start_bridge, probe: Probe, robots_dir: Path) -> None:
    """SDFormat models run too; joint_states carry every coordinate and follower the
    transmission map drives (each axis of a universal or revolute2 joint is a coordinate of
    its own: sdf_bridge.description.coordinates; a ball joint's roll, pitch, yaw too), and every
    published position is finite."""
    from sdf_bridge.transmissions import TransmissionMap

    files = sdf_models(robots_dir)
    assert len(files) >= 4
    failures: list[str] = []
    for f in files:
        name = f.stem
        topic = f"/{name}/joint_states"
        probe.watch(topic, JointState)
        bridge = start_bridge(
            {"description_file": str(f), "backend": "mock", "publish_rate": PUBLISH_RATE},
            name="bridge",
            extra=["-r", f"__ns:=/{name}"],
        )
        probe.wait_ready(bridge, topic)
        start = len(probe.messages[topic])
        probe.spin_for(1.0)
        tmap = TransmissionMap.from_robot(load(f))
        expected = sorted(tmap.joint_names + tmap.follower_names)
        msgs = probe.messages[topic][start:]
        code = bridge.stop()
        if code != 0:
            failures.append(f"{f.name}: exit code {code}\n{bridge.output()[-2000:]}")
        if not msgs:
            failures.append(f"{f.name}: no joint_states")
            continue
        if sorted(msgs[-1].name) != expected or not expected:
            failures.append(f"{f.name}: joint_states names {sorted(msgs[-1].name)} != {expected}")
        if not all(math.isfinite(p) for m in msgs for p in m.position):
            failures.append(f"{f.name}: non-finite position")
    assert not failures, "\n".join(failures)
