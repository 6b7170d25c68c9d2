"""Backend registry: built-ins, plug-ins through a real entry point (a dist-info on sys.path),
and every error path."""

from __future__ import annotations

from pathlib import Path

import pytest

from sdf_bridge.backends import available_backends, create_backend
from sdf_bridge.backends.actuator_port import ActuatorPort
from sdf_bridge.backends.base import Backend, is_simulated_robot
from sdf_bridge.backends.mock import MockBackend
from sdf_bridge.errors import BackendError

PLUGIN_MODULE = '''
from sdf_bridge.backends.mock import MockBackend

class MyDriver(MockBackend):
    """A user's driver (here: a mock subclass)."""

class NotABackend:
    pass

def broken_factory():
    raise RuntimeError("no device on /dev/ttyUSB0")
'''


def _install_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entries: dict[str, str]
) -> None:
    """Make a distribution with ``entries`` in the sdf_bridge.backends group importable."""
    (tmp_path / "sdfb_test_plugin.py").write_text(PLUGIN_MODULE)
    dist = tmp_path / "sdfb_test_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: sdfb-test-plugin\nVersion: 1.0\n")
    lines = "\n".join(f"{name} = {value}" for name, value in entries.items())
    (dist / "entry_points.txt").write_text(f"[sdf_bridge.backends]\n{lines}\n")
    monkeypatch.syspath_prepend(str(tmp_path))


def test_builtins_listed_first() -> None:
    names = available_backends()
    assert names[:2] == ["mock", "mujoco"]


def test_create_mock() -> None:
    backend = create_backend("mock")  # an actuator driver, behind its port
    assert isinstance(backend, ActuatorPort) and isinstance(backend.driver, MockBackend)
    assert isinstance(backend, Backend)


def test_unknown_name_lists_available() -> None:
    with pytest.raises(
        BackendError, match=r"unknown backend 'nope'\. Fix: use one of mock, mujoco"
    ):
        create_backend("nope")


def test_plugin_through_entry_point(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install_plugin(tmp_path, monkeypatch, {"my_driver": "sdfb_test_plugin:MyDriver"})
    assert "my_driver" in available_backends()
    backend = create_backend("my_driver")
    assert type(backend.driver).__name__ == "MyDriver" and isinstance(backend, Backend)


def test_plugin_cannot_shadow_builtin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _install_plugin(tmp_path, monkeypatch, {"mock": "sdfb_test_plugin:MyDriver"})
    assert available_backends().count("mock") == 1
    assert "is a built-in backend name" in caplog.text
    assert type(create_backend("mock").driver) is MockBackend


@pytest.mark.parametrize(
    ("value", "match"),
    [
        ("sdfb_test_plugin:NotABackend", "does not implement the Backend protocol"),
        ("sdfb_test_plugin:broken_factory", "could not be constructed: no device"),
        ("sdfb_test_plugin:Missing", "failed to load"),
        ("sdfb_no_such_module:X", "failed to load"),
    ],
)
def test_bad_plugins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, match: str
) -> None:
    _install_plugin(tmp_path, monkeypatch, {"bad": value})
    with pytest.raises(BackendError, match=match):
        create_backend("bad")


def test_mujoco_import_failure_is_a_backend_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def fake_import(name: str, *args, **kwargs):
        if name == "sdf_bridge.backends.mujoco":
            raise ImportError("No module named 'mujoco'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(importlib, "import_module", fake_import)
    with pytest.raises(
        BackendError, match=r"'mujoco' cannot be imported: No module named 'mujoco'"
    ):
        create_backend("mujoco")


def test_create_mujoco_builtin() -> None:
    backend = create_backend("mujoco")
    assert type(backend).__name__ == "MujocoBackend" and isinstance(backend, Backend)


def test_the_builtins_simulate_their_robot() -> None:
    """Both built-ins stand for Gazebo (an unknown transmission type is driven as identity);
    the port says what the driver behind it says."""
    mock, mujoco = create_backend("mock"), create_backend("mujoco")
    assert is_simulated_robot(mock) and mock.simulated_robot is True
    assert is_simulated_robot(mujoco) and type(mujoco).simulated_robot is True
