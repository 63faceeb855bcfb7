"""The app outlives its terminal: once the terminal is gone, the app still ends when asked.

Textual's writer thread dies on the first write to a terminal that hung up, and the app's
next 30 writes block it for ever (client/driver.py). Here the app plays computers against
each other in a pty of its own, its SIGHUP blocked (so the race between the hang-up and the
signal, which decides the app's fate in the field, is lost every time here), the terminal is
closed while moves keep redrawing the board, and then SIGTERM must still end the app.
"""

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time

from tests.e2e.netns import REPO


def _own_terminal_with_sighup_blocked() -> None:
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGHUP])


def test_the_app_ends_on_sigterm_after_its_terminal_is_gone(tmp_path):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, LANTERNE_HOME=str(tmp_path), TERM="xterm-256color",
               PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "lanterne", "play", "pagode", "--watch", "--bot", "random",
                             "--delay", "0.02", "--seed", "7"],
                            cwd=str(REPO), env=env, stdin=slave, stdout=slave, stderr=slave,
                            preexec_fn=_own_terminal_with_sighup_blocked)
    os.close(slave)
    try:
        screen = bytearray()
        deadline = time.monotonic() + 30
        while b"P2" not in screen:                    # the board is drawn
            assert time.monotonic() < deadline, f"no board within 30 s: {bytes(screen[-400:])!r}"
            if select.select([master], [], [], 0.1)[0]:
                screen.extend(os.read(master, 65536))
        os.close(master)                              # the terminal is gone; the moves go on
        time.sleep(4)
        assert proc.poll() is None, "the app ended before it was asked to"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 128 + signal.SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
