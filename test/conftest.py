"""Shared fixtures: where the shared robot corpus and failure cases live.

``../shared`` beside the checkout (as on developer machines and CI), or ``$SDF_BRIDGE_SHARED``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SDF_BRIDGE_SHARED", REPO.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The shared/ folder; the suite fails (not skips) when it is missing."""
    assert SHARED.is_dir(), f"shared corpus not found at {SHARED}; set SDF_BRIDGE_SHARED"
    return SHARED


@pytest.fixture(scope="session")
def robots_dir(shared_dir: Path) -> Path:
    """shared/robots."""
    return shared_dir / "robots"


@pytest.fixture(scope="session")
def cases_dir(shared_dir: Path) -> Path:
    """shared/cases."""
    return shared_dir / "cases"


@pytest.fixture(scope="session")
def repo_dir() -> Path:
    """The repository root."""
    return REPO
