"""Randomised pose-graph check against libsdformat 12: models with random link, frame, joint
and nested-model poses, each ``relative_to`` a random earlier frame, axes ``expressed_in``
random frames, in Euler-degree and quaternion forms. Fixed seeds (deterministic). Link poses and
joint axes in the model frame must equal libsdformat's to 1e-9."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sdf_helpers import our_view

from sdf_bridge.description import load

TOL = 1e-9
TYPES = ["revolute", "prismatic", "continuous", "fixed", "universal", "revolute2", "screw", "ball"]


def _pose(rng: np.random.Generator, relative_to: str | None) -> str:
    attr = f' relative_to="{relative_to}"' if relative_to else ""
    xyz = " ".join(f"{v:.6f}" for v in rng.uniform(-1, 1, 3))
    form = rng.integers(3)
    if form == 0:
        rpy = " ".join(f"{v:.6f}" for v in rng.uniform(-3, 3, 3))
        return f"<pose{attr}>{xyz} {rpy}</pose>"
    if form == 1:
        deg = " ".join(f"{v:.4f}" for v in rng.uniform(-170, 170, 3))
        return f'<pose{attr} degrees="true">{xyz} {deg}</pose>'
    q = rng.normal(size=4)
    # full precision: libsdformat does not normalise a quaternion read from a file, so a
    # rounded (non-unit) one makes its own results disagree with each other at ~1e-7
    return (
        f'<pose{attr} rotation_format="quat_xyzw">{xyz} '
        f"{' '.join(repr(float(v)) for v in q / np.linalg.norm(q))}</pose>"
    )


def random_model(seed: int) -> str:
    """An SDF 1.9 model built from ``seed``: a tree of links, frames, a nested model."""
    rng = np.random.default_rng(seed)
    parts: list[str] = []
    frames = ["__model__"]
    links: list[str] = []
    n_links = int(rng.integers(3, 7))
    for i in range(n_links):
        name = f"L{i}"
        parts.append(
            f'<link name="{name}">'
            f"{_pose(rng, str(rng.choice(frames)) if rng.random() < 0.7 else None)}</link>"
        )
        links.append(name)
        frames.append(name)
        if rng.random() < 0.5:
            f = f"F{i}"
            parts.append(
                f'<frame name="{f}" '
                f'attached_to="{name}">{_pose(rng, str(rng.choice(frames)))}</frame>'
            )
            frames.append(f)
    nested = [
        '<model name="N">',
        _pose(rng, str(rng.choice(frames))),
        '<link name="a"/>',
        f'<link name="b">{_pose(rng, "a")}</link>',
        '<joint name="nj" type="revolute"><parent>a</parent><child>b</child><axis><xyz '
        f'expressed_in="__model__">{" ".join(f"{v:.5f}" for v in rng.normal(size=3))}</xyz>'
        "</axis></joint>",
        "</model>",
    ]
    parts.append("".join(nested))
    frames.append("N")
    for i in range(1, n_links):
        jtype = str(rng.choice(TYPES))
        parent = links[int(rng.integers(i))]
        body = f'<joint name="J{i}" type="{jtype}">'
        if rng.random() < 0.6:
            body += _pose(
                rng,
                str(rng.choice(frames + [f"J{k}" for k in range(1, i)]))
                if rng.random() < 0.5
                else None,
            )
        body += f"<parent>{parent}</parent><child>L{i}</child>"
        if jtype not in ("fixed", "ball"):
            frame = str(rng.choice(frames))
            body += (
                "<axis><xyz "
                f'expressed_in="{frame}">{" ".join(f"{v:.5f}" for v in rng.normal(size=3))}</xyz>'
                "</axis>"
            )
            if jtype in ("universal", "revolute2"):
                body += (
                    f"<axis2><xyz>{' '.join(f'{v:.5f}' for v in rng.normal(size=3))}</xyz></axis2>"
                )
        parts.append(body + "</joint>")
    parts.append('<joint name="JN" type="fixed"><parent>L0</parent><child>N::a</child></joint>')
    return (
        '<?xml version="1.0"?>\n<sdf version="1.9"><model '
        f'name="random_{seed}">{"".join(parts)}</model></sdf>\n'
    )


@pytest.mark.parametrize("seed", range(12))
def test_random_model_matches_libsdformat(seed: int, tmp_path: Path, probe) -> None:
    path = tmp_path / f"random_{seed}.sdf"
    path.write_text(random_model(seed))
    ref = probe(path)
    assert ref["errors"] == []
    robot = load(path)
    poses, axes = our_view(robot)
    (model,) = ref["models"].values()
    assert set(model["links"]) == set(robot.links)
    for link, expected in model["links"].items():
        np.testing.assert_allclose(poses[link], expected, atol=TOL, rtol=0, err_msg=link)
    compared = 0
    for joint, ref_axes in model["joints"].items():
        for key, expected in ref_axes.items():
            np.testing.assert_allclose(
                axes[joint][key], expected, atol=TOL, rtol=0, err_msg=f"{joint} {key}"
            )
            compared += 1
    assert compared >= 1
