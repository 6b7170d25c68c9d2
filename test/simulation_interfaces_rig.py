"""The shared simulation_interfaces rig (``shared/rigs/simulation_interfaces``: the ROS 2
standard simulation interfaces built for this machine; not on PyPI), for the tests.

``.ci/setup`` unpacks it into ``.venv/simulation_interfaces/install``; the bridge finds it there
(:func:`sdf_bridge.ros.simulation.load_interfaces`, one implementation for the node and the
tests' clients). :func:`si_problem` says why it cannot be used here; :func:`interfaces` gives
its ``msg``, ``srv`` and ``action`` modules. Plain Python (no pytest): ``test/prerequisites.py``
turns :func:`si_problem` into a skip.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

from sdf_bridge.ros.simulation import install_prefix, load_interfaces, why_not

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SDF_BRIDGE_SHARED", REPO.parent / "shared"))
RIG_SOURCE = SHARED / "rigs" / "simulation_interfaces"


def si_problem() -> str | None:
    """Why simulation_interfaces cannot be imported here (a sentence naming the fix), or
    ``None`` when it can."""
    if load_interfaces() is not None:
        return None
    if not (RIG_SOURCE / "install.tar.gz").is_file():
        return (
            f"simulation_interfaces not installed and no rig at {RIG_SOURCE}: install "
            "ros-<distro>-simulation-interfaces, or put the project's shared/ folder beside the "
            "checkout (or set SDF_BRIDGE_SHARED) and run bash .ci/setup"
        )
    return (
        f"simulation_interfaces rig not usable at {install_prefix()} ({why_not()}): "
        "run bash .ci/setup"
    )


def interfaces() -> SimpleNamespace:
    """The package's ``msg``, ``srv`` and ``action`` modules.

    Raises:
        RuntimeError: it cannot be imported (:func:`si_problem`).
    """
    loaded = load_interfaces()
    if loaded is None:
        raise RuntimeError(si_problem())
    return loaded
