"""Helpers of the SDF tests: building the libsdformat reference probe, loading XML strings,
and our model-frame view of a robot for comparison with the probe."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
from prerequisites import missing, require_tool

from sdf_bridge.description.export.common import model_poses
from sdf_bridge.description.model import Robot, World
from sdf_bridge.description.sdf import load_sdf
from sdf_bridge.description.xmlio import ParseContext, parse_xml

HERE = Path(__file__).resolve().parent
PROBE_SOURCE = HERE / "libsdformat_probe.cpp"


def build_probe(out_dir: Path) -> Path:
    """Compile ``libsdformat_probe.cpp`` with g++ and ``pkg-config sdformat12`` into ``out_dir``.
    Where g++, pkg-config or libsdformat 12 is missing, the calling test is skipped with a
    reason naming it (:func:`prerequisites.missing`; it fails under ``SDF_BRIDGE_STRICT``).

    Raises:
        RuntimeError: the build fails (the reference checks then fail rather than skip).
    """
    for tool in ("g++", "pkg-config"):
        require_tool(tool, tool)
    flags = subprocess.run(
        ["pkg-config", "--cflags", "--libs", "sdformat12"], capture_output=True, text=True
    )
    if flags.returncode != 0:
        missing(
            "libsdformat 12 not found (pkg-config sdformat12 failed): apt-get install "
            "libsdformat-dev (Debian bookworm, Ubuntu jammy; Ubuntu noble packages no "
            "SDFormat 12)"
        )
    exe = out_dir / "libsdformat_probe"
    cmd = ["g++", "-O2", "-o", str(exe), str(PROBE_SOURCE), *flags.stdout.split()]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("building the libsdformat probe failed:\n" + result.stderr)
    return exe


def our_view(robot: Robot) -> tuple[dict[str, np.ndarray], dict[str, dict[str, np.ndarray]]]:
    """Our link poses (4, 4) and joint axes (3,) in the model frame at the zero configuration,
    computed with ``kinematics.link_transforms`` (via ``export.common.model_poses``)."""
    poses = model_poses(robot)
    axes: dict[str, dict[str, np.ndarray]] = {}
    for joint in robot.joints.values():
        x_mj = poses[joint.parent] @ joint.origin.matrix()
        entry = {}
        if joint.axis is not None:
            entry["axis"] = x_mj[:3, :3] @ np.array(joint.axis.xyz)
        if joint.axis2 is not None:
            entry["axis2"] = x_mj[:3, :3] @ np.array(joint.axis2.xyz)
        axes[joint.name] = entry
    return poses, axes


def load_text(xml: str, base_dir: Path | str = ".", **kwargs) -> Robot | World:
    """Load an SDF document given as a string (file name ``<string>``)."""
    return load_sdf(parse_xml(xml), ParseContext(), base_dir=base_dir, **kwargs)


def sdf(body: str, version: str = "1.9") -> str:
    """An ``<sdf>`` document around ``body``."""
    return f'<?xml version="1.0"?>\n<sdf version="{version}">\n{body}\n</sdf>\n'
