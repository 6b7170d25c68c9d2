"""``sdf-bridge control --work-dir``: a path that cannot hold the generated files and logs is
one ``error: … Fix: …`` line and exit 1 (:func:`~sdf_bridge.ros.control_command.work_directory`),
never a traceback; a folder it made is reported as made (removed again when the command is
refused before it announces the folder)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sdf_bridge.errors import ConfigError
from sdf_bridge.ros.control_command import work_directory

REPO = Path(__file__).resolve().parents[2]
FIX = r"Fix: give --work-dir a folder you may write to \(it is made if missing\)\.$"


def test_a_new_folder_is_made_with_its_parents(tmp_path: Path) -> None:
    folder, made = work_directory(str(tmp_path / "a" / "b"))
    assert (folder, made) == (tmp_path / "a" / "b", True)
    assert folder.is_dir() and list(folder.iterdir()) == []  # (the probe file is gone)


def test_an_existing_folder_is_used_as_it_is(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("x")
    assert work_directory(str(tmp_path)) == (tmp_path, False)
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_no_folder_given_is_a_new_temporary_one() -> None:
    folder, made = work_directory(None)
    try:
        assert made and folder.is_dir() and folder.name.startswith("sdf-bridge-control-")
    finally:
        folder.rmdir()


def test_a_regular_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("")
    with pytest.raises(
        ConfigError, match=rf"^--work-dir {tmp_path}/afile is a file, not a folder\. {FIX}"
    ):
        work_directory(str(tmp_path / "afile"))


def test_a_path_under_a_file_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("")
    with pytest.raises(
        ConfigError,
        match=rf"^--work-dir {tmp_path}/afile/sub cannot hold the generated files and logs "
        rf"\({tmp_path}/afile is a file\)\. {FIX}",
    ):
        work_directory(str(tmp_path / "afile" / "sub"))


def test_a_place_where_nothing_can_be_written_is_refused() -> None:
    """/proc: the folder cannot be made (the kernel's file system), whoever runs the test."""
    with pytest.raises(
        ConfigError,
        match=r"^--work-dir /proc/sdf_bridge_x cannot hold the generated files and logs \(making "
        rf"it or a file in it: No such file or directory\)\. {FIX}",
    ):
        work_directory("/proc/sdf_bridge_x")
    assert not Path("/proc/sdf_bridge_x").exists()


def test_the_command_prints_one_error_line_and_exits_1(tmp_path: Path) -> None:
    """The whole command (before any process or ROS node starts): stderr is the one line."""
    (tmp_path / "afile").write_text("")
    code = "import sys; from sdf_bridge.ros.control_command import control_command as c; "
    code += "sys.exit(c(sys.argv[1:]))"
    done = subprocess.run(
        [sys.executable, "-c", code, "--work-dir", str(tmp_path / "afile" / "sub")],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert done.stderr == (
        f"error: --work-dir {tmp_path}/afile/sub cannot hold the generated files and logs "
        f"({tmp_path}/afile is a file). Fix: give --work-dir a folder you may write to (it is "
        "made if missing).\n"
    )
