"""Draw the documentation's pictures from the repository's demo robots, offline.

Run by ``doc/conf.py`` at every build (into ``doc/_static/generated``, not committed), or by
hand: ``.venv/bin/python doc/scripts/make_figures.py [OUT_DIR]``. Each picture is computed from
the code it illustrates, so it cannot drift from it:

- ``step_response.png``: the demo arm on the MuJoCo backend (default PID gains) answering a
  position step of every arm joint, through :class:`~sdf_bridge.hardware.HardwareSystem` at
  100 Hz, with the joint limits the bridge enforces;
- ``transmission_matrix.png``: the demo arm's transmissions as the one matrix they are
  (joint position = M · actuator position + offset), from
  :class:`~sdf_bridge.transmissions.TransmissionMap`, beside the differential's mechanism;
- ``cycle_cost.png``: ``bench/transmissions.py`` run at build time: the transmission + limits
  cycle for 10, 100 and 1,000 joints, beside one plain numpy call (the same-run peer);
- ``demo_robots.png``: both demo robots rendered off-screen by MuJoCo (EGL, else OSMesa); where
  no OpenGL platform loads, their kinematic trees drawn by matplotlib instead.

A build without MuJoCo (a documentation host that installs only the ``doc`` dependencies)
gets a picture saying so in place of the step response.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ARM = REPO / "urdf" / "demo_arm.urdf.xacro"
MOBILE = REPO / "urdf" / "demo_mobile.urdf.xacro"
STEP = {"base_yaw": 0.5, "shoulder_lift": 0.4, "elbow": 0.6, "wrist_pitch": 0.3, "wrist_roll": -0.4}
"""Position step (rad) of each arm joint in the step response."""


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def step_response(out: Path, seconds: float = 2.0, rate: float = 100.0) -> None:
    """The demo arm on MuJoCo: every arm joint stepped from its start at t = 0.1 s."""
    import numpy as np

    from sdf_bridge.description import load
    from sdf_bridge.hardware import HardwareSystem

    robot = load(ARM)
    system = HardwareSystem(robot, "mujoco", command_timeout=0.0, update_rate=rate)
    try:
        dt = 1.0 / rate
        names = list(STEP)
        index = [system.state_names.index(n) for n in names]
        times, positions = [], []
        now = 0.0
        state = system.cycle(now, dt)
        start = state.position[index].copy()
        for k in range(int(seconds * rate)):
            now = (k + 1) * dt
            if abs(now - 0.1) < dt / 2:
                system.submit_joint_state(
                    names, start + np.array(list(STEP.values())), None, None, now
                )
            state = system.cycle(now, dt)
            times.append(now)
            positions.append(state.position[index].copy())
    finally:
        system.close()
    positions = np.array(positions)
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=110)
    for i, name in enumerate(names):
        line = ax.plot(times, positions[:, i] - start[i], label=name)[0]
        ax.hlines(STEP[name], 0.1, seconds, colors=line.get_color(), linestyles="dotted", lw=0.8)
    ax.axvline(0.1, color="0.6", lw=0.8)
    ax.set_xlabel("time (s, simulated)")
    ax.set_ylabel("position − start (rad)")
    ax.set_title("Demo arm on MuJoCo: position steps at t = 0.1 s (default PID gains)")
    ax.legend(fontsize=8, ncol=3, loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "step_response.png")
    plt.close(fig)


def transmission_matrix(out: Path) -> None:
    """The demo arm's actuator → joint position matrix, and the differential's two sums."""
    import numpy as np

    from sdf_bridge.description import load
    from sdf_bridge.transmissions import TransmissionMap

    tmap = TransmissionMap.from_robot(load(ARM))
    n_act = len(tmap.actuator_names)
    matrix = np.column_stack(
        [tmap.actuator_to_joint(e, np.zeros(n_act), np.zeros(n_act))[0] for e in np.eye(n_act)]
    )
    offset = tmap.actuator_to_joint(np.zeros(n_act), np.zeros(n_act), np.zeros(n_act))[0]
    matrix = matrix - offset[:, None]
    plt = _pyplot()
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10, 4.2), dpi=110, width_ratios=[1.3, 1])
    limit = np.abs(matrix).max()
    ax.imshow(matrix, cmap="coolwarm", vmin=-limit, vmax=limit)
    ax.set_xticks(range(n_act), tmap.actuator_names, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(len(tmap.joint_names)), tmap.joint_names, fontsize=7)
    for (r, c), v in np.ndenumerate(matrix):
        if abs(v) > 1e-12:
            ax.text(c, r, f"{v:.3g}", ha="center", va="center", fontsize=7)
    ax.set_title("demo arm: ∂ joint position / ∂ actuator position", fontsize=9)
    _differential_diagram(ax2)
    fig.tight_layout()
    fig.savefig(out / "transmission_matrix.png")
    plt.close(fig)


def cycle_cost(out: Path) -> None:
    """The transmissions + limits cycle against robot size, measured now (bench/)."""
    sys.path.insert(0, str(REPO / "bench"))
    import transmissions as bench

    sizes = bench.SIZES
    cycle = [bench.bench(n, "all") for n in sizes]
    position = [bench.bench(n, "position") for n in sizes]
    peer = [bench.numpy_call_us(n) for n in sizes]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 3.6), dpi=110)
    ax.loglog(sizes, cycle, "o-", label="cycle, commands on all three interfaces")
    ax.loglog(sizes, position, "s-", label="cycle, position commands only")
    ax.loglog(sizes, peer, "^--", color="0.5", label="one np.add call (same-run peer)")
    for n, us in zip(sizes, cycle):
        ax.annotate(
            f"{us:.0f} µs",
            (n, us),
            textcoords="offset points",
            xytext=(0, 7),
            ha="center",
            fontsize=8,
        )
    ax.set_xlabel("joints (mixed simple, differential, four-bar; n/10 mimic followers)")
    ax.set_ylabel("µs per cycle (best of 200 batches)")
    ax.set_title("Transmissions + limits, one control cycle (measured at build time)", fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    fig.savefig(out / "cycle_cost.png")
    plt.close(fig)


def _differential_diagram(ax) -> None:
    """The differential transmission as a block diagram: two motors drive both joints."""
    box = {"boxstyle": "round,pad=0.4", "fc": "#eef3fb", "ec": "#4a6fa5"}
    jbox = {"boxstyle": "round,pad=0.4", "fc": "#fbefe9", "ec": "#b5562e"}
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 10)
    ax.set_axis_off()
    ax.text(
        1.6,
        7.5,
        "actuator 1\n$a_1$, reduction $n_1$",
        ha="center",
        va="center",
        bbox=box,
        fontsize=8,
    )
    ax.text(
        1.6,
        2.5,
        "actuator 2\n$a_2$, reduction $n_2$",
        ha="center",
        va="center",
        bbox=box,
        fontsize=8,
    )
    ax.text(
        8.2,
        7.5,
        "joint 1 (pitch)\n$q_1$, reduction $r_1$",
        ha="center",
        va="center",
        bbox=jbox,
        fontsize=8,
    )
    ax.text(
        8.2,
        2.5,
        "joint 2 (roll)\n$q_2$, reduction $r_2$",
        ha="center",
        va="center",
        bbox=jbox,
        fontsize=8,
    )
    arrow = {"arrowstyle": "->", "color": "0.3", "lw": 1.2}
    for y0 in (7.5, 2.5):
        for y1 in (7.5, 2.5):
            ax.annotate("", xy=(6.5, y1), xytext=(3.3, y0), arrowprops=arrow)
    ax.text(4.9, 9.6, r"$q_1 = \frac{a_1/n_1 + a_2/n_2}{2\,r_1}$", ha="center", fontsize=10)
    ax.text(4.9, 0.1, r"$q_2 = \frac{a_1/n_1 - a_2/n_2}{2\,r_2}$", ha="center", fontsize=10)
    ax.set_title("differential (the demo arm's wrist)", fontsize=9)


ARM_POSE = {"shoulder_lift": 0.5, "elbow": 0.9, "wrist_pitch": 0.6, "base_yaw": 0.6}
"""Joint positions (rad) of the arm's render; the mobile robot stands at its ``stand`` keyframe."""
MOBILE_PARAMS = {
    "fixed_base": False,
    "keyframe_file": str(REPO / "config" / "demo_mobile_keyframes.yaml"),
    "keyframe": "stand",
}


def _render(path: Path, width: int = 480, height: int = 400):
    """One demo robot as the MuJoCo backend builds and places it, rendered off-screen (RGB)."""
    import mujoco

    from sdf_bridge.description import load
    from sdf_bridge.hardware import HardwareSystem

    mobile = path == MOBILE
    system = HardwareSystem(
        load(path), "mujoco", command_timeout=0.0, backend_params=MOBILE_PARAMS if mobile else {}
    )
    try:
        model, data = system.backend.model, system.backend.data
        if not mobile:
            for name, value in ARM_POSE.items():
                joint = system.backend.built.joints[name].mj_joints[0]
                data.qpos[model.joint(joint).qposadr[0]] = value
        mujoco.mj_forward(model, data)
        camera = mujoco.MjvCamera()
        camera.lookat[:] = data.xpos[1:].mean(axis=0)
        camera.distance = 3.6 * max(0.15, float(abs(data.xpos[1:] - camera.lookat).max()))
        camera.azimuth, camera.elevation = 135.0, -25.0
        renderer = mujoco.Renderer(model, height, width)
        try:
            renderer.update_scene(data, camera)
            return renderer.render()
        finally:
            renderer.close()
    finally:
        system.close()


def demo_robots(out: Path) -> str:
    """Both demo robots, side by side; returns how they were drawn (``mujoco`` or ``tree``)."""
    plt = _pyplot()
    try:
        images = [_render(ARM), _render(MOBILE)]
        how = "mujoco"
    except Exception:  # noqa: BLE001 (no OpenGL platform: draw the kinematic trees instead)
        images, how = None, "tree"
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.9), dpi=110)
    for ax, path, title in zip(
        axes, (ARM, MOBILE), ("demo arm (mock or MuJoCo)", "demo mobile (free-floating)")
    ):
        if images is not None:
            ax.imshow(images[0 if path is ARM else 1])
            ax.set_axis_off()
        else:
            _draw_tree(ax, path)
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(out / "demo_robots.png")
    plt.close(fig)
    return how


def _draw_tree(ax, path: Path) -> None:
    """A robot's kinematic tree (links as nodes, joints as edges), from the loaded model."""
    from sdf_bridge.description import load

    robot = load(path)
    children: dict[str, list] = {}
    for joint in robot.joints.values():
        children.setdefault(joint.parent, []).append(joint)
    depth = {robot.root_link: 0}
    order = [robot.root_link]
    for link in order:
        for joint in children.get(link, []):
            depth[joint.child] = depth[link] + 1
            order.append(joint.child)
    rows: dict[int, int] = {}
    xy = {}
    for link in order:
        x = rows.get(depth[link], 0)
        rows[depth[link]] = x + 1
        xy[link] = (x, -depth[link])
    for joint in robot.joints.values():
        (x0, y0), (x1, y1) = xy[joint.parent], xy[joint.child]
        ax.plot([x0, x1], [y0, y1], "0.5", lw=1)
        ax.text((x0 + x1) / 2, (y0 + y1) / 2, joint.name, fontsize=5, color="C3")
    for link, (x, y) in xy.items():
        ax.plot(x, y, "o", color="C0", ms=4)
        ax.text(x, y - 0.2, link, fontsize=5, ha="center", va="top")
    ax.set_axis_off()


def _placeholder(path: Path, text: str) -> None:
    """A picture saying why the real one could not be drawn (``text``)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 1.2), dpi=110)
    ax.text(0.5, 0.5, text, ha="center", va="center")
    ax.set_axis_off()
    fig.savefig(path)
    plt.close(fig)
    print(f"make_figures: {path.name}: {text}", file=sys.stderr)


def main(out: Path | str) -> None:
    """Draw every picture into ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    # before mujoco loads: MUJOCO_GL as the backend chooses it (EGL, else OSMesa), unless set
    from sdf_bridge.backends.mujoco.glplatform import configure_environment

    configure_environment()
    try:
        step_response(out)
    except ModuleNotFoundError as exc:  # a documentation build without the mujoco extra
        if exc.name != "mujoco":
            raise
        _placeholder(out / "step_response.png", "MuJoCo is not installed: no step response")
    transmission_matrix(out)
    cycle_cost(out)
    demo_robots(out)


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    main(sys.argv[1] if len(sys.argv) > 1 else REPO / "doc" / "_static" / "generated")
