"""The app outlives its terminal: once the terminal is gone, the app still ends when asked.

Textual's writer thread dies on the first write to a terminal that hung up, and the app's
next 30 writes block it for ever (client/driver.py). Here the app plays computers against
each other in a pty of its own, its SIGHUP blocked (so the race between the hang-up and the
signal, which decides the app's fate in the field, is lost every time here), the terminal is
closed while moves keep redrawing the board, and then SIGTERM must still end the app.
"""

import signal
import sys

from lanterne.protocol.log import read_log
from tests.support.commands import lanterne_env
from tests.support.terminal import Terminal
from tests.support.waiting import until_sync

REDRAWS = 40
"""Moves played (each one redraws the board) after the terminal is gone: more writes than would block."""


def test_the_app_ends_on_sigterm_after_its_terminal_is_gone(tmp_path):
    folder = tmp_path / "games" / "local"

    def entries() -> int:  # the game's signed log, written as it is played
        return max(len(read_log(path)[0]) for path in folder.glob("*.log"))

    term = Terminal([sys.executable, "-m", "lanterne", "play", "pagode", "--watch", "--bot", "random",
                     "--delay", "0.02", "--seed", "7"], env=lanterne_env(tmp_path), block_sighup=True)
    try:
        term.wait_for(b"P2")                         # the board is drawn
        until_sync(lambda: entries() > 0, what="the game's log")
        term.hang_up()                               # the terminal is gone; the moves go on
        then = entries()
        until_sync(lambda: entries() >= then + REDRAWS, what=lambda: f"{REDRAWS} moves after the hang-up "
                   f"(from {then}, at {entries()}; the app running: {not term.exited()})")
        assert not term.exited(), "the app ended before it was asked to"
        term.proc.send_signal(signal.SIGTERM)
        assert term.proc.wait(60) == 128 + signal.SIGTERM
    finally:
        if not term.exited():
            term.proc.kill()
            term.proc.wait()
