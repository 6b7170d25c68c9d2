"""Tests of sdf_bridge.description.resolve: package://, $(find), file://, relative paths,
escapes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sdf_bridge.description.resolve import find_package, resolve_uri, split_package_uri
from sdf_bridge.errors import PathResolutionError


@pytest.fixture
def pkg(tmp_path: Path) -> Path:
    root = tmp_path / "share" / "my_pkg"
    (root / "meshes").mkdir(parents=True)
    return root


def test_package_uri_resolves_through_user_map(pkg: Path) -> None:
    got = resolve_uri("package://my_pkg/meshes/arm.dae", package_paths={"my_pkg": pkg})
    assert got == os.fspath(pkg / "meshes" / "arm.dae")


def test_find_substitution_resolves_like_package(pkg: Path) -> None:
    got = resolve_uri("$(find my_pkg)/meshes/arm.stl", package_paths={"my_pkg": str(pkg)})
    assert got == os.fspath(pkg / "meshes" / "arm.stl")


def test_dotdot_inside_package_is_allowed(pkg: Path) -> None:
    got = resolve_uri("package://my_pkg/meshes/../urdf/a.urdf", package_paths={"my_pkg": pkg})
    assert got == os.fspath(pkg / "urdf" / "a.urdf")


def test_escape_from_known_package_is_refused(pkg: Path) -> None:
    with pytest.raises(PathResolutionError, match=r"outside its package|climbs out of its package"):
        resolve_uri("package://my_pkg/../../etc/passwd", package_paths={"my_pkg": pkg})


def test_escape_from_unknown_package_is_refused_too() -> None:
    with pytest.raises(PathResolutionError, match=r"climbs out of its package with '\.\.'"):
        resolve_uri("package://nowhere_pkg_xyz/../../etc/passwd", package_paths={})


def test_escape_through_find_is_refused(pkg: Path) -> None:
    with pytest.raises(PathResolutionError, match="climbs out of its package"):
        resolve_uri("$(find my_pkg)/../../../etc/shadow", package_paths={"my_pkg": pkg})


def test_unknown_package_is_none_without_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AMENT_PREFIX_PATH", raising=False)
    assert resolve_uri("package://nowhere_pkg_xyz/meshes/a.stl") is None
    assert find_package("nowhere_pkg_xyz") is None


def test_empty_package_name_is_an_error() -> None:
    with pytest.raises(PathResolutionError, match="names no package"):
        resolve_uri("package:///meshes/a.stl")


def test_ament_index_is_used_after_the_map(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prefix = tmp_path / "prefix"
    (prefix / "share" / "ament_index" / "resource_index" / "packages").mkdir(parents=True)
    (prefix / "share" / "ament_index" / "resource_index" / "packages" / "indexed_pkg").touch()
    (prefix / "share" / "indexed_pkg").mkdir()
    monkeypatch.setenv("AMENT_PREFIX_PATH", os.fspath(prefix))
    assert find_package("indexed_pkg") == prefix / "share" / "indexed_pkg"
    # the user map wins over the index
    assert find_package("indexed_pkg", {"indexed_pkg": tmp_path}) == tmp_path


def test_file_uri_absolute_and_relative(tmp_path: Path) -> None:
    assert resolve_uri("file:///opt/meshes/a.stl") == "/opt/meshes/a.stl"
    assert resolve_uri("file://meshes/a.stl", base_dir=tmp_path) == os.fspath(
        tmp_path / "meshes" / "a.stl"
    )


def test_relative_path_against_base_dir(tmp_path: Path) -> None:
    assert resolve_uri("../meshes/a.stl", base_dir=tmp_path / "urdf") == os.fspath(
        tmp_path / "meshes" / "a.stl"
    )
    assert resolve_uri("meshes/a.stl") is None  # XML given as a string has no directory


def test_other_schemes_are_left_unresolved() -> None:
    assert resolve_uri("model://turtlebot/meshes/a.dae") is None
    assert resolve_uri("https://example.com/a.stl") is None


def test_split_package_uri() -> None:
    assert split_package_uri("package://p/a/b.stl") == ("p", "a/b.stl")
    assert split_package_uri("$(find p)/a.stl") == ("p", "/a.stl")
    assert split_package_uri("meshes/a.stl") is None
