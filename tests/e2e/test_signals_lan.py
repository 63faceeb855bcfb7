"""No ghost tables: a `lanterne host` stopped by SIGTERM or SIGHUP withdraws its mDNS record.

A host in one namespace, a browser (a plain :class:`Discovery`) in another:
after the signal the browser must stop listing the table within 3 s (the
zeroconf goodbye, not the record's TTL), and the host must exit with
128 + the signal's number and one line on stderr. Run this file alone with
``-s`` to see the measured delays (median printed at the end).
"""

import os
import signal
import statistics
import textwrap
import time

import pytest

from tests.e2e.netns import REPO, Host, output, wait_line

pytestmark = pytest.mark.netns

LIMIT = 3.0
"""Seconds from the signal until no other lobby lists the table (issue 18)."""

WATCH = textwrap.dedent("""
    import asyncio, sys, time
    from lanterne.protocol.net.discovery import Discovery
    async def main():
        name = sys.argv[2]
        def add(a):
            if a.name == name:
                print("add", a.table.game if a.table else "-", repr(time.time()), flush=True)
        def remove(a):
            if a.name == name:
                print("remove", repr(time.time()), flush=True)
        async with Discovery([sys.argv[1]], on_add=add, on_remove=remove) as d:
            await d.browse()
            print("browsing", flush=True)
            await asyncio.sleep(120)
    asyncio.run(main())
""")

delays: dict[str, list[float]] = {}


def start_host(host: Host, name: str):
    proc = host.lanterne("host", "pagode", "--bot", "random", "--name", name, "--interface", host.address,
                         "--log-dir", str(host.home / "games"), "--new")
    wait_line(proc, "^advertised on zeroconf", 30)
    return proc


def ghost_delay(net, signum: int, name: str) -> tuple[float, int, str]:
    """Seconds from ``signum`` sent to the host until the browser drops it; the host's exit code and stderr."""
    a, b = net.hosts
    watch = b.python("-c", WATCH, b.address, name)
    wait_line(watch, "^browsing", 20)
    host = start_host(a, name)
    seen = wait_line(watch, "^add ", 20)
    assert seen.split()[1] == "pagode"
    sent = time.time()
    os.kill(host.pid, signum)
    line = wait_line(watch, "^remove ", 15)
    gone = float(line.split()[1]) - sent
    out, err = output(host, 15)
    return gone, host.returncode, err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_host_stopped_by_a_signal_leaves_no_ghost_table(netns_network, signum):
    net = netns_network(2)
    runs = []
    for n in range(3):
        gone, code, err = ghost_delay(net, signum, f"Ghost{n}")
        runs.append(gone)
        assert gone < LIMIT, f"the browser still listed the table {gone:.2f} s after {signum.name}"
        assert code == 128 + signum, (code, err)
        assert err.splitlines() == [f"lanterne: stopped by {signum.name}: links closed, withdrawn from the LAN"]
    delays[signum.name] = runs
    print(f"\n{signum.name}: record gone after {', '.join(f'{d:.3f}' for d in runs)} s "
          f"(median {statistics.median(runs):.3f} s)")


def test_sigterm_exit_code_and_one_line(netns_network):
    net = netns_network(1)
    (a,) = net.hosts
    host = start_host(a, "Quit")
    os.kill(host.pid, signal.SIGTERM)
    out, err = output(host, 15)
    assert host.returncode == 143
    assert err == "lanterne: stopped by SIGTERM: links closed, withdrawn from the LAN\n"
    assert "Traceback" not in out


def test_the_browser_would_keep_a_ghost_without_the_goodbye(netns_network):
    """The control: SIGKILL leaves no chance for a goodbye, and the table stays listed past the limit,
    so the delays above measure the goodbye, not some expiry."""
    net = netns_network(2)
    a, b = net.hosts
    watch = b.python("-c", WATCH, b.address, "Killed")
    wait_line(watch, "^browsing", 20)
    host = start_host(a, "Killed")
    wait_line(watch, "^add ", 20)
    os.kill(host.pid, signal.SIGKILL)
    with pytest.raises(AssertionError, match="no line matching"):
        wait_line(watch, "^remove ", LIMIT + 1)


class Terminal:
    """The app in a pseudo-terminal of its own (its controlling terminal: closing it hangs the app up)."""

    def __init__(self, host: Host, columns: int = 120, rows: int = 40):
        import fcntl
        import json
        import pty
        import struct
        import subprocess
        import sys
        import termios
        import threading

        (host.home / "settings.json").write_text(json.dumps({"display_name": "AppHost",
                                                              "interfaces": [host.address]}))
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = dict(host.env(), TERM="xterm-256color")
        self.proc = subprocess.Popen(["ip", "netns", "exec", host.namespace, sys.executable, "-m", "lanterne"],
                                     cwd=str(REPO), env=env, stdin=slave, stdout=slave, stderr=slave,
                                     start_new_session=True,
                                     preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        host.processes.append(self.proc)
        os.close(slave)
        self.screen = bytearray()
        self.hang_up = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        import select

        while True:
            if self.hang_up.is_set():       # closed here: a read blocked on it would keep it open
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
            self.screen.extend(data)

    def type(self, keys: bytes, then: float = 2.0) -> None:
        os.write(self.master, keys)
        time.sleep(then)

    def wait_for(self, text: bytes, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.screen:
            assert time.monotonic() < deadline, f"{text!r} not on the screen within {timeout:g} s"
            time.sleep(0.1)
        time.sleep(0.5)

    def close(self) -> None:
        self.hang_up.set()


@pytest.mark.parametrize("how,where", [("SIGTERM", "lobby"), ("SIGHUP", "game"), ("closed", "game")],
                         ids=["SIGTERM-open-table", "SIGHUP-game", "closed-terminal-game"])
def test_the_app_leaves_no_ghost_table(netns_network, how, where):
    """The app's table (open in the lobby, or at play on the board) is withdrawn within 3 s of SIGTERM,
    SIGHUP or its terminal closed, and the terminal gets its screen, cursor and mouse back."""
    net = netns_network(2)
    a, b = net.hosts
    watch = b.python("-c", WATCH, b.address, "AppHost")
    wait_line(watch, "^browsing", 20)
    term = Terminal(a)
    time.sleep(4)                      # the app starts
    term.type(b"l", 3)                 # the LAN lobby
    term.type(b"o", 0)                 # open a table
    wait_line(watch, "^add pagode", 20)
    if where == "game":
        guest = b.lanterne("join", "AppHost", "--bot", "random", "--name", "Bob", "--interface", b.address,
                           "--log-dir", str(b.home / "games"), "--wait", "20")
        wait_line(guest, "^found", 20)
        term.screen.clear()
        term.wait_for(b"Accept", 15)   # the join request's dialog
        term.type(b"a", 0)             # accept Bob
        wait_line(guest, "^seated 2 of 2", 20)
        time.sleep(2)                  # the board is on screen
    term.screen.clear()
    sent = time.time()
    if how == "closed":
        term.close()
    else:
        os.kill(term.proc.pid, getattr(signal, how))
    line = wait_line(watch, "^remove ", 15)
    gone = float(line.split()[1]) - sent
    assert gone < LIMIT, f"the browser still listed the app's table {gone:.2f} s after {how}"
    assert term.proc.wait(10) == 128 + (signal.SIGTERM if how == "SIGTERM" else signal.SIGHUP)
    if how != "closed":
        term.thread.join(5)
        tail = bytes(term.screen)
        assert b"\x1b[?1049l" in tail and b"\x1b[?25h" in tail and b"\x1b[?1000l" in tail  # screen, cursor, mouse
    print(f"\napp, {how} at the {where}: record gone after {gone:.3f} s")


def test_a_seated_guest_stopped_by_sigterm_withdraws_itself_too(netns_network):
    """`lanterne join` in the middle of a game: SIGTERM, one line, 143, and its own record (a seated
    guest advertises itself) leaves the other lobbies."""
    net = netns_network(3)
    a, b, c = net.hosts
    watch = c.python("-c", WATCH, c.address, "Bob")
    wait_line(watch, "^browsing", 20)
    host = start_host(a, "Ana")
    guest = b.lanterne("join", "Ana", "--bot", "random", "--name", "Bob", "--interface", b.address,
                       "--log-dir", str(b.home / "games"), "--wait", "20", "--move-delay", "0.5")
    wait_line(guest, "^seated 2 of 2", 20)
    wait_line(watch, "^add ", 20)
    sent = time.time()
    os.kill(guest.pid, signal.SIGTERM)
    gone = float(wait_line(watch, "^remove ", 15).split()[1]) - sent
    assert gone < LIMIT
    out, err = output(guest, 15)
    assert guest.returncode == 143
    assert err == "lanterne: stopped by SIGTERM: links closed, withdrawn from the LAN\n"
    assert host.poll() is None or host.returncode in (0, 1)   # the host goes on (or ends by its claim)
