"""The terminal driver: Textual's own, made to outlive its terminal.

When the terminal closes (a hang-up), every write to it fails with EIO. Textual's writer
thread dies on the first such write, and the app's next 30 writes fill its queue: the app
then blocks for ever on its way out, a process with no terminal holding the LAN game's
links. Here writes to a terminal that is gone are dropped; SIGHUP then ends the app the
normal way (``LanterneApp._exit_on_signals``).
"""

from __future__ import annotations

from typing import IO

from textual.drivers.linux_driver import LinuxDriver


class GoneTerminal:
    """The driver's output file, where a write or flush that fails (the terminal is gone) is
    dropped, and so is every later one."""

    def __init__(self, file: IO[str]):
        self._file = file
        self.gone = False

    def write(self, text: str) -> None:
        if not self.gone:
            try:
                self._file.write(text)
            except (OSError, ValueError):     # EIO after a hang-up; ValueError: the file was closed
                self.gone = True

    def flush(self) -> None:
        if not self.gone:
            try:
                self._file.flush()
            except (OSError, ValueError):
                self.gone = True

    def fileno(self) -> int:
        return self._file.fileno()

    def isatty(self) -> bool:
        return self._file.isatty()


class TerminalDriver(LinuxDriver):
    """Textual's Linux and macOS driver, writing through a :class:`GoneTerminal`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._file = GoneTerminal(self._file)
