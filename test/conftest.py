"""Shared fixtures: the shared robot corpus and failure cases (:mod:`prerequisites`: found
beside the checkout or at ``$SDF_BRIDGE_SHARED``, else the tests needing them skip) and the
repository root and test/data."""

from __future__ import annotations

from pathlib import Path

import pytest
from prerequisites import REPO, require_shared


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The shared/ folder (:func:`require_shared`)."""
    return require_shared()


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


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """test/data: small descriptions of our own."""
    return REPO / "test" / "data"
