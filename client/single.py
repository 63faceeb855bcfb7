"""One Lanterne app per data folder.

Two processes on one data folder would share one identity and one games
folder: both resume the same unfinished table and append to one log. So
the app, ``lanterne host`` and ``lanterne join`` hold an OS file lock on
``<data folder>/lanterne.lock`` while they run (``filelock``: a well-kept
library that wraps ``fcntl.flock`` on POSIX and ``msvcrt.locking`` on
Windows; the OS drops the lock when the process ends, even by a crash or
SIGKILL, so no stale lock is ever left to clean up). A second instance
stops at once with one line. Another player on the same machine uses
another data folder (``LANTERNE_HOME``).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from filelock import FileLock, Timeout

from lanterne.client.i18n import _
from lanterne.protocol.identity import home

LOCK_FILE = "lanterne.lock"
OWNER_FILE = "lanterne.pid"
"""The holder's process id, beside the lock: only for the message (the lock itself is the OS's)."""


class AlreadyRunning(Exception):
    """Another Lanterne holds the data folder; ``str(e)`` is the one line to show."""


def data_folder() -> Path:
    return home()


@contextmanager
def only_instance(folder: Path | str | None = None) -> Iterator[Path]:
    """Hold the data folder's lock for the ``with`` block; AlreadyRunning if another process holds it."""
    folder = Path(folder) if folder is not None else data_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise AlreadyRunning(_("cannot use the data folder {folder}: {error}").format(
            folder=folder, error=e.strerror or e)) from None
    lock = FileLock(str(folder / LOCK_FILE), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise AlreadyRunning(_("another Lanterne is already running on the data folder {folder}{owner}: one app "
                               "per data folder (another player on this machine sets LANTERNE_HOME to a folder "
                               "of their own)").format(folder=folder, owner=_owner(folder))) from None
    try:
        try:
            (folder / OWNER_FILE).write_text(f"{os.getpid()}\n")
        except OSError:
            pass
        yield folder
    finally:
        lock.release()


def _owner(folder: Path) -> str:
    try:
        pid = int((folder / OWNER_FILE).read_text().strip())
    except (OSError, ValueError):
        return ""
    return f" (process {pid})"
