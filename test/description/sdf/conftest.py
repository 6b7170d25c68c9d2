"""Fixtures of the SDF tests: the libsdformat reference probe (SDFormat 12, Debian's
``libsdformat-dev``), compiled once per session into a temporary directory."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from sdf_helpers import build_probe


@pytest.fixture(scope="session")
def probe_exe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Path of the compiled reference probe."""
    return build_probe(tmp_path_factory.mktemp("libsdformat_probe"))


@pytest.fixture(scope="session")
def probe(probe_exe: Path) -> Callable[[Path], dict]:
    """``probe(file)`` → libsdformat's view: ``{"errors": [...], "models": {name: {"links":
    {name: 4x4 array}, "joints": {name: {"axis": (3,), "axis2": (3,)}}}}}`` (model frame)."""

    def run(path: Path) -> dict:
        out = subprocess.run(
            [str(probe_exe), str(path)], capture_output=True, text=True, check=True, cwd=path.parent
        )
        data = json.loads(out.stdout)
        for model in data["models"].values():
            model["links"] = {k: np.array(v).reshape(4, 4) for k, v in model["links"].items()}
            model["joints"] = {
                k: {a: np.array(v) for a, v in axes.items()} for k, axes in model["joints"].items()
            }
        return data

    return run
