"""A command in a pseudo-terminal of its own: the bytes a keyboard sends in, the bytes of the screen out.

The terminal is the command's controlling terminal, so closing it hangs the command up as a closed
window does. A test waits for what the screen shows (:meth:`Terminal.wait_for`), never for a time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from tests.support.commands import REPO
from tests.support.waiting import DEADLINE, until_sync

pty = pytest.importorskip("pty")  # POSIX only
termios = pytest.importorskip("termios")
fcntl = pytest.importorskip("fcntl")

ALTERNATE_SCREEN_ON, ALTERNATE_SCREEN_OFF = b"\x1b[?1049h", b"\x1b[?1049l"
MOUSE_ON, MOUSE_OFF = b"\x1b[?1000h", b"\x1b[?1000l"
CURSOR_SHOWN = b"\x1b[?25h"
HOME_DRAWN = b"Quit"
"""On the home screen's last button: the app is mounted (its signal handlers are set) and drawn."""


class Terminal:
    """``argv`` in a pseudo-terminal of ``columns`` x ``rows``; :attr:`screen` is every byte it wrote."""

    def __init__(self, argv: list[str], *, env: dict[str, str], cwd: Path = REPO, columns: int = 80,
                 rows: int = 24, block_sighup: bool = False):
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, _winsize(rows, columns))

        def own_terminal() -> None:  # in the child: a session whose controlling terminal is this one
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            if block_sighup:
                signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGHUP])

        self.proc = subprocess.Popen(argv, cwd=str(cwd), env=dict(env, TERM="xterm-256color"), stdin=slave,
                                     stdout=slave, stderr=slave, preexec_fn=own_terminal)
        os.close(slave)
        self.screen = bytearray()
        self._lock = threading.Lock()
        self._hang_up = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        import select

        while True:
            if self._hang_up.is_set():  # closed here: a read blocked on it would keep it open
                os.close(self.master)
                return
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:
                data = b""
            if not data:
                os.close(self.master)
                return
            with self._lock:
                self.screen += data

    def send(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def mark(self) -> int:
        """Where the screen's bytes stand now: :meth:`wait_for` ``since`` it looks only at what came after."""
        with self._lock:
            return len(self.screen)

    def shows(self, text: bytes, since: int = 0) -> bool:
        with self._lock:
            return text in self.screen[since:]

    def wait_for(self, text: bytes, since: int = 0, timeout: float = DEADLINE) -> None:
        """Until the screen shows ``text`` (written after ``since``)."""
        until_sync(lambda: self.shows(text, since), timeout=timeout,
                   what=lambda: f"{text!r} on the screen; it ends with {self.tail()!r}")

    def wait_for_output(self, since: int, timeout: float = DEADLINE) -> None:
        """Until the command has written anything after ``since`` (the screen answered a key)."""
        until_sync(lambda: self.mark() > since, timeout=timeout, what="the screen answering")

    def tail(self, size: int = 1500) -> str:
        with self._lock:
            return bytes(self.screen[-size:]).decode("utf-8", "replace")

    def exited(self) -> bool:
        return self.proc.poll() is not None

    def hang_up(self) -> None:
        """The terminal closes, as a window closed by its user: the reader closes its side."""
        self._hang_up.set()
        self._reader.join(timeout=5)

    def close(self, quit_keys: bytes = b"\x11") -> None:
        """Ask the command to end (ctrl+q), kill it if it does not, and close the terminal."""
        if not self.exited():
            try:
                self.send(quit_keys)
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.hang_up()


def _winsize(rows: int, columns: int) -> bytes:
    import struct

    return struct.pack("HHHH", rows, columns, 0, 0)
