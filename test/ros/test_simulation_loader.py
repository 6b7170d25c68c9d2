"""Finding simulation_interfaces (sdf_bridge.ros.simulation.load_interfaces), each case in a
fresh process (the result is kept per process): the install tree ``.ci/setup`` unpacks, a
missing one, and a broken one, each saying why."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prerequisites import require_simulation_interfaces

REPO = Path(__file__).resolve().parents[2]
PROBE = (
    "import os; from sdf_bridge.ros import simulation as s; si = s.load_interfaces(); "
    "print(si is not None); print(s.why_not()); "
    "print(str(s.install_prefix()) in os.environ.get('AMENT_PREFIX_PATH', ''))"
)


def _probe(prefix: Path | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "AMENT_PREFIX_PATH")}
    env["PYTHONPATH"] = str(REPO)
    if prefix is not None:
        env["SDF_BRIDGE_SIMULATION_INTERFACES"] = str(prefix)
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_found_in_the_unpacked_install_tree() -> None:
    require_simulation_interfaces()
    from simulation_interfaces_rig import install_prefix

    assert _probe(install_prefix()) == ["True", "None", "True"]


def test_no_install_tree_says_where_it_looked(tmp_path: Path) -> None:
    found, why, _ = _probe(tmp_path)
    assert found == "False"
    assert why.startswith("ModuleNotFoundError: No module named 'simulation_interfaces'")
    assert why.endswith(f"no install tree at {tmp_path} either")


def test_a_broken_install_tree_says_what_failed(tmp_path: Path) -> None:
    package = tmp_path / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    (package / "site-packages" / "simulation_interfaces").mkdir(parents=True)
    found, why, _ = _probe(tmp_path)
    assert found == "False"
    assert f"the install tree at {tmp_path} failed too: OSError:" in why
    assert "libsimulation_interfaces__rosidl_generator_c.so" in why
