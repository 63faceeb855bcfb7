"""The ``lanterne`` command as a user runs it: a real process, from this checkout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
"""The checkout: the commands run from here, so ``python -m lanterne`` is this source."""

LANTERNE = (sys.executable, "-m", "lanterne")

DEADLINE = 120.0
"""Seconds before a command that never ends fails (a hang, never the point of a test)."""


def lanterne_env(home: Path | None = None, **extra: str) -> dict[str, str]:
    """The environment of a command: this process's (its Lanterne home, English), unbuffered output, and
    ``home`` as the data folder when given."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", **extra)
    if home is not None:
        env["LANTERNE_HOME"] = str(home)
    return env


def lanterne(*args: str, home: Path | None = None, timeout: float = DEADLINE, **kw) -> subprocess.CompletedProcess:
    """``lanterne ARGS`` run to its end: its exit code and its output as text."""
    return subprocess.run([*LANTERNE, *args], cwd=REPO, env=lanterne_env(home), capture_output=True, text=True,
                          timeout=timeout, **kw)


def started(*args: str, home: Path) -> subprocess.Popen:
    """``lanterne ARGS`` started and left running, its output readable line by line as it comes."""
    return subprocess.Popen([*LANTERNE, *args], cwd=REPO, env=lanterne_env(home), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
