"""A process the tests start and stop: its output kept in a temporary file, a clean stop by
SIGINT. (A plain module, not a conftest, so test modules and ros2_control_rig can import it.)"""

from __future__ import annotations

import signal
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path


class ChildProcess:
    """``argv`` running as a child process (stdout and stderr into one temporary file).

    Args:
        argv: the command line.
        env: its environment (default: this process's).
        cwd: its working directory (default: this process's).
    """

    def __init__(
        self, argv: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: Path | None = None
    ) -> None:
        self.log = tempfile.TemporaryFile("w+")
        self.process = subprocess.Popen(
            list(argv),
            env=None if env is None else dict(env),
            cwd=cwd,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def running(self) -> bool:
        """Whether the child is still alive."""
        return self.process.poll() is None

    def stop(self, timeout: float = 15.0) -> int:
        """SIGINT, wait, return the exit code (kill after ``timeout`` s and return -9)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                return -9
        return self.process.returncode

    def output(self) -> str:
        """Everything the child printed so far (stdout and stderr)."""
        self.log.flush()
        self.log.seek(0)
        return self.log.read()
